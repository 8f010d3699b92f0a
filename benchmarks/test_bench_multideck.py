"""Benchmarks of the two-deck Kaluki hand analysis (rummykit.multideck).

The issue's target: a 14-card Kaluki hand with two jokers (12 natural cards
from two decks plus 2 jokers) analysed in <= 5 us.  Figures: the batch
kernel (least penalty, GIL released) over many random hands, the scalar
public calls, and the C core with no Python in the loop.  Like
test_bench_core.py, targets are reported, not asserted, and each benchmarked
function is checked on a sample (batch == scalar == brute force).
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import numpy as np
import pytest
from benchutil import compile_c_bench, consume, record
from reference import multideck as ref  # tests/reference/multideck.py, on sys.path via conftest.py

from rummykit.multideck import JOKER, multi_best_melds, multi_penalty_batch

REPO = Path(__file__).resolve().parent.parent
SEED_KALUKI14 = 20261210
BATCH_HANDS = 50_000
SCALAR_HANDS = 1000
REF_HANDS = 20
TARGET = "<= 5 us/hand"


def kaluki_counts(n: int, naturals: int, jokers: int, seed: int) -> np.ndarray:
    """``n`` rows of 53 card counts: ``naturals`` cards dealt from two shuffled
    decks (so a type is held at most twice) plus ``jokers`` jokers."""
    rng = np.random.default_rng(seed)
    physical = np.argpartition(rng.random((n, 104)), naturals - 1, axis=1)[:, :naturals] % 52
    counts = np.zeros((n, 53), dtype=np.uint8)
    np.add.at(counts, (np.repeat(np.arange(n), naturals), physical.ravel()), 1)
    counts[:, JOKER] = jokers
    return counts


def types_of(row: np.ndarray) -> list[int]:
    return [t for t in range(53) for _ in range(int(row[t]))]


@pytest.fixture(scope="module")
def kaluki14() -> np.ndarray:
    """BATCH_HANDS random 14-card hands: 12 naturals + 2 jokers."""
    return kaluki_counts(BATCH_HANDS, 12, 2, SEED_KALUKI14)


def test_batch_multi_penalty14(benchmark, figures, kaluki14):
    result = benchmark.pedantic(multi_penalty_batch, args=(kaluki14,), rounds=5, iterations=1, warmup_rounds=1)
    assert result.dtype == np.int32 and result.shape == (BATCH_HANDS,)
    sample = range(0, BATCH_HANDS, BATCH_HANDS // 500)
    assert [int(result[i]) for i in sample] == [multi_best_melds(types_of(kaluki14[i])).penalty for i in sample]
    assert [int(result[i]) for i in range(REF_HANDS)] == [
        ref.best(tuple(types_of(kaluki14[i])))[1] for i in range(REF_HANDS)
    ]
    record(
        benchmark,
        figures,
        "multi_batch14",
        "batch Kaluki penalty, 12 + 2 jokers",
        BATCH_HANDS,
        unit="us",
        target=TARGET,
    )


@pytest.mark.parametrize("objective", ["penalty", "value"])
def test_scalar_multi_best14(benchmark, figures, kaluki14, objective):
    hands = [types_of(row) for row in kaluki14[:SCALAR_HANDS]]
    benchmark(lambda: consume(multi_best_melds(h, objective=objective) for h in hands))
    for h in hands[:REF_HANDS]:
        got = multi_best_melds(h, objective=objective)
        assert got is not None and (got.value, got.penalty) == ref.best(tuple(h), objective)
    record(
        benchmark,
        figures,
        f"multi_scalar14_{objective}",
        f"multi_best_melds({objective}), 12 + 2 jokers",
        SCALAR_HANDS,
        unit="us",
        target=TARGET,
        note="(public API, list of types)",
    )


@pytest.fixture(scope="module")
def c_bench(tmp_path_factory):
    """benchmarks/c/bench_core.c compiled with the core sources (-O3)."""
    exe = compile_c_bench("bench_core.c", tmp_path_factory.mktemp("c_bench_multi"))
    if exe is None:
        pytest.skip("no C compiler")
    return exe


def test_c_multi(benchmark, figures, c_bench, kaluki14):
    """rk_multi_penalty and rk_multi_best timed in C over 4096 of the hands."""
    rows = kaluki14[:4096]
    lines = []
    for row in rows:
        one = sum(1 << t for t in range(52) if row[t] >= 1)
        two = sum(1 << t for t in range(52) if row[t] == 2)
        lines.append(f"{one:x} {two:x} {int(row[JOKER])}\n")

    def run():
        out = subprocess.run(
            [str(c_bench), "multi"], input="".join(lines), capture_output=True, text=True, check=True, timeout=300
        )
        return out.stdout.splitlines()

    out = benchmark.pedantic(run, rounds=1, iterations=1)
    penalties = [int(line.split()[2]) for line in out if line.startswith("mhand ")]
    assert penalties == multi_penalty_batch(rows).tolist()
    times = {line.split()[1]: float(line.split()[2]) for line in out if line.startswith("time ")}
    figures.add(
        "c_multi_penalty", "C rk_multi_penalty, 12 + 2 jokers", times["rk_multi_penalty"] / 1000, "us", target=TARGET
    )
    figures.add(
        "c_multi_best", "C rk_multi_best (either objective)", times["rk_multi_best"] / 1000, "us", target=TARGET
    )
    benchmark.extra_info.update({f"{k}_ns": v for k, v in times.items()})
