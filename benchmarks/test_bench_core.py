"""Benchmarks of the rummykit core against the issue's targets.

Run from the repository root (see benchmarks/README.md)::

    python -m pytest benchmarks --benchmark-only

Targets are reported (``extra_info`` and the end-of-session table), never
asserted: timings on a shared 2-core VM are too noisy for that.  What *is*
asserted is that each benchmarked function gives correct answers on a
sample (batch == scalar == pure-Python brute force), so a benchmark cannot
silently time a broken function.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
import pytest
from benchutil import compile_c_bench, consume, ratio, record  # benchmarks/benchutil.py
from reference import deadwood as ref  # tests/reference/deadwood.py, put on sys.path by conftest.py

import rummykit as rk
from rummykit import _core
from rummykit._rules import DEFAULT_VALUES, core_rules

REPO = Path(__file__).resolve().parent.parent

# per-call loops run over this many different hands, so a scalar figure is an
# average over varied hands, not one hand hot in the branch predictor
SCALAR_HANDS = 1000
# pure-Python reference samples (it is ~10^4 times slower)
REF_HANDS_10 = 40
REF_HANDS_11 = 12


def cards_of(mask: int) -> list[int]:
    mask = int(mask)
    return [c for c in range(52) if mask >> c & 1]


def card_text(mask: int) -> str:
    return rk.cards_text(int(mask))


# --------------------------------------------------------------------------
# batch kernels
# --------------------------------------------------------------------------


def test_batch_deadwood_random10(benchmark, figures, random10):
    result = benchmark.pedantic(rk.deadwood_batch, args=(random10,), rounds=30, iterations=1, warmup_rounds=2)
    assert result.dtype == np.int16 and result.shape == random10.shape
    sample = range(0, len(random10), len(random10) // 2000)
    assert [int(result[i]) for i in sample] == [rk.deadwood(int(random10[i])) for i in sample]
    assert [int(result[i]) for i in range(REF_HANDS_10)] == [
        ref.min_deadwood(cards_of(m)) for m in random10[:REF_HANDS_10]
    ]
    record(
        benchmark,
        figures,
        "batch_dw_random10",
        "batch deadwood, random 10-card",
        len(random10),
        target="<= 8 ns/hand",
    )


@pytest.mark.parametrize(
    ("fixture", "key", "name", "ratio_name"),
    [
        ("dense10", "dense", "batch deadwood, meld-dense 10-card (3-5 ranks)", "  meld-dense / random"),
        ("meld_built10", "meld_built", "batch deadwood, 10 cards built from melds", "  built from melds / random"),
    ],
)
def test_batch_deadwood_meld_dense(benchmark, figures, request, fixture, key, name, ratio_name):
    masks = request.getfixturevalue(fixture)
    assert all(len(cards_of(m)) == 10 for m in masks[:100])
    result = benchmark.pedantic(rk.deadwood_batch, args=(masks,), rounds=30, iterations=1, warmup_rounds=2)
    sample = range(0, len(masks), len(masks) // 1000)
    assert [int(result[i]) for i in sample] == [rk.deadwood(int(masks[i])) for i in sample]
    assert [int(result[i]) for i in range(REF_HANDS_10)] == [
        ref.min_deadwood(cards_of(m)) for m in masks[:REF_HANDS_10]
    ]
    value = record(benchmark, figures, f"batch_dw_{key}10", name, len(masks), target="<= 3x random")
    base = figures.get("batch_dw_random10")
    if value is not None and base:
        benchmark.extra_info[f"{key}_over_random"] = round(value / base, 2)
        figures.add(f"{key}_ratio", ratio_name, value / base, "x", target="<= 3x")


def test_batch_best_discard_random11(benchmark, figures, random11):
    dw, card = benchmark.pedantic(rk.best_discard_batch, args=(random11,), rounds=20, iterations=1, warmup_rounds=2)
    assert dw.dtype == np.int16 and card.dtype == np.int8 and dw.shape == random11.shape
    for i in range(0, len(random11), len(random11) // 1000):
        scalar = rk.best_discard(int(random11[i]))
        assert (int(card[i]), int(dw[i])) == (int(scalar.card), scalar.deadwood)
    record(
        benchmark,
        figures,
        "batch_bd_random11",
        "batch best discard, random 11-card",
        len(random11),
        target="<= 25 ns/hand",
    )


# --------------------------------------------------------------------------
# scalar calls from Python
# --------------------------------------------------------------------------


@pytest.fixture(scope="module")
def masks10(random10) -> list[int]:
    return [int(m) for m in random10[:SCALAR_HANDS]]


@pytest.fixture(scope="module")
def masks11(random11) -> list[int]:
    return [int(m) for m in random11[:SCALAR_HANDS]]


def test_scalar_deadwood_int(benchmark, figures, random10, masks10):
    benchmark(lambda: consume(map(rk.deadwood, masks10)))
    expected = rk.deadwood_batch(random10[:SCALAR_HANDS]).tolist()
    assert [rk.deadwood(m) for m in masks10] == expected
    record(
        benchmark,
        figures,
        "scalar_dw_int",
        "deadwood(int mask), 10-card",
        SCALAR_HANDS,
        target="<= 250 ns/call",
    )


def test_scalar_deadwood_text(benchmark, figures, random10, masks10):
    texts = [card_text(m) for m in masks10]
    assert texts[0].count(" ") == 9
    benchmark(lambda: consume(map(rk.deadwood, texts)))
    assert [rk.deadwood(t) for t in texts] == rk.deadwood_batch(random10[:SCALAR_HANDS]).tolist()
    record(benchmark, figures, "scalar_dw_text", 'deadwood("AS 2S ..."), 10-card', SCALAR_HANDS)


def test_scalar_deadwood_list(benchmark, figures, random10, masks10):
    lists = [card_text(m).split() for m in masks10]
    benchmark(lambda: consume(map(rk.deadwood, lists)))
    assert [rk.deadwood(x) for x in lists] == rk.deadwood_batch(random10[:SCALAR_HANDS]).tolist()
    record(benchmark, figures, "scalar_dw_list", 'deadwood(["AS", "2S", ...]), 10-card', SCALAR_HANDS)


def test_scalar_best_discard11(benchmark, figures, random11, masks11):
    benchmark(lambda: consume(map(rk.best_discard, masks11)))
    dw, card = rk.best_discard_batch(random11[:SCALAR_HANDS])
    got = [rk.best_discard(m) for m in masks11]
    assert [(int(d.card), d.deadwood) for d in got] == list(zip(card.tolist(), dw.tolist()))
    record(
        benchmark,
        figures,
        "scalar_bd11",
        "best_discard(int mask), 11-card",
        SCALAR_HANDS,
        note="(public engine ~17 us)",
    )


def test_scalar_best_melds10(benchmark, figures, random10, masks10):
    """One optimal arrangement: the defender's own melds in layoff() and
    choose_knock() come from the same C search."""
    benchmark(lambda: consume(map(rk.best_melds, masks10)))
    expected = rk.deadwood_batch(random10[:SCALAR_HANDS]).tolist()
    assert [rk.best_melds(m).deadwood for m in masks10] == expected
    record(
        benchmark,
        figures,
        "scalar_best_melds",
        "best_melds(int mask), 10-card",
        SCALAR_HANDS,
        unit="us",
    )


# --------------------------------------------------------------------------
# knocking: lay-offs and the knocker's choice
# --------------------------------------------------------------------------

KNOCK_DEALS = 200


@pytest.fixture(scope="module")
def knocks() -> list[tuple[int, int]]:
    """(knocker, defender) masks: a knocker of 10 cards on a window of 6
    adjacent ranks with deadwood 1..10 (a knock, not gin), and a defender of
    10 random cards from the rest of the deck."""
    rng = np.random.default_rng(20261205)
    n, width = 20_000, 6
    start = rng.integers(0, 14 - width, size=n)
    chosen = np.argpartition(rng.random((n, 4 * width)), 9, axis=1)[:, :10]
    cards = (chosen % 4) * 13 + start[:, None] + chosen // 4
    knocker = np.bitwise_or.reduce(np.uint64(1) << cards.astype(np.uint64), axis=1)
    dw = rk.deadwood_batch(knocker)
    knocker = knocker[(dw >= 1) & (dw <= 10)][:KNOCK_DEALS]
    assert len(knocker) == KNOCK_DEALS
    deals = []
    for k in knocker.tolist():
        rest = [c for c in range(52) if not k >> c & 1]
        defender = sum(1 << int(c) for c in rng.choice(rest, size=10, replace=False))
        deals.append((k, defender))
    return deals


def test_layoff_one_defender(benchmark, figures, knocks):
    arrangements = [(rk.best_melds(k), d) for k, d in knocks]
    assert all(1 <= a.deadwood <= 10 for a, _ in arrangements)

    def run():
        for a, d in arrangements:
            rk.layoff(a, d)

    benchmark(run)
    for a, d in arrangements[:25]:
        melds = [cards_of(m.mask) for m in a.melds]
        assert rk.layoff(a, d).deadwood == ref.layoff_deadwood(melds, cards_of(d))
    record(
        benchmark,
        figures,
        "layoff_py",
        "layoff(), one defender (public API)",
        len(arrangements),
        unit="us",
        note="(C target <= 100 ns: see C rk_layoff_deadwood)",
    )


def test_layoff_one_defender_core(benchmark, figures, knocks):
    """One Cython call: the C lay-off solve plus the defender's own melds,
    returned as plain tuples (no result objects)."""
    rules = core_rules()
    jobs = [([m.mask for m in rk.best_melds(k).melds], d) for k, d in knocks]
    benchmark(lambda: consume(_core.layoff(rules, m, d) for m, d in jobs))
    for (m, d), (k, _) in zip(jobs[:25], knocks):
        assert _core.layoff(rules, m, d)[0] == rk.layoff(rk.best_melds(k), d).deadwood
    record(
        benchmark,
        figures,
        "layoff_core",
        "_core.layoff(), one defender",
        len(jobs),
        unit="ns",
        note="(Python call to the C solve + arrangement)",
    )


def test_choose_knock(benchmark, figures, knocks):
    benchmark(lambda: consume(rk.choose_knock(k, d) for k, d in knocks))
    for k, d in knocks[:15]:
        choice = rk.choose_knock(k, d)
        assert choice.margin == ref.knock_value(cards_of(k), cards_of(d), 10)
        assert choice.arrangement.deadwood <= 10
    record(benchmark, figures, "choose_knock", "choose_knock(), 10 v 10 cards", len(knocks), unit="us")


# --------------------------------------------------------------------------
# the pure-Python brute force (tests/reference/deadwood.py), same hands
# --------------------------------------------------------------------------


def test_reference_min_deadwood10(benchmark, figures, random10):
    hands = [frozenset(cards_of(m)) for m in random10[:REF_HANDS_10]]
    result = benchmark.pedantic(lambda: [ref.min_deadwood(h) for h in hands], rounds=5, iterations=1, warmup_rounds=1)
    assert result == rk.deadwood_batch(random10[:REF_HANDS_10]).tolist()
    record(
        benchmark,
        figures,
        "ref_dw10",
        "reference min_deadwood, 10-card",
        len(hands),
        unit="us",
        note="(issue: ~67 us)",
    )
    ratio(
        benchmark,
        figures,
        "x_scalar_vs_ref_dw",
        "  speed-up deadwood(int) vs reference",
        "ref_dw10",
        "scalar_dw_int",
    )
    ratio(
        benchmark,
        figures,
        "x_batch_vs_ref_dw",
        "  speed-up batch deadwood vs reference",
        "ref_dw10",
        "batch_dw_random10",
    )


def test_reference_best_discard11(benchmark, figures, random11):
    hands = [frozenset(cards_of(m)) for m in random11[:REF_HANDS_11]]
    result = benchmark.pedantic(lambda: [ref.best_discard(h) for h in hands], rounds=3, iterations=1, warmup_rounds=1)
    dw, card = rk.best_discard_batch(random11[:REF_HANDS_11])
    assert result == list(zip(card.tolist(), dw.tolist()))
    record(
        benchmark,
        figures,
        "ref_bd11",
        "reference best_discard, 11-card",
        len(hands),
        unit="us",
        note="(issue: ~720 us)",
    )
    ratio(
        benchmark,
        figures,
        "x_scalar_vs_ref_bd",
        "  speed-up best_discard(int) vs reference",
        "ref_bd11",
        "scalar_bd11",
    )
    ratio(
        benchmark,
        figures,
        "x_batch_vs_ref_bd",
        "  speed-up batch best discard vs reference",
        "ref_bd11",
        "batch_bd_random11",
    )


# --------------------------------------------------------------------------
# OpenSpiel's Gin Rummy utilities (C++ via pybind11), when installed
# --------------------------------------------------------------------------


@pytest.fixture(scope="module")
def spiel_utils():
    try:
        import pyspiel
    except ImportError as exc:
        pytest.skip(f"pyspiel (open-spiel) is not installed: {exc}")
    # Same card ids as rummykit (suit * 13 + rank, rank 0 = ace, values
    # A=1 .. T-K=10, aces low); OpenSpiel's suit letters differ (s c d h) but
    # least deadwood does not depend on which suit is which.
    return pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)


SPIEL_HANDS = 300


def test_openspiel_min_deadwood10(benchmark, figures, spiel_utils, random10):
    hands = [cards_of(m) for m in random10[:SPIEL_HANDS]]
    f = spiel_utils.min_deadwood
    benchmark(lambda: consume(map(f, hands)))
    assert [f(h) for h in hands] == rk.deadwood_batch(random10[:SPIEL_HANDS]).tolist()
    record(
        benchmark,
        figures,
        "spiel_dw10",
        "OpenSpiel min_deadwood, 10-card",
        len(hands),
        unit="us",
        note="(issue: ~1.2 us)",
    )
    ratio(
        benchmark,
        figures,
        "x_scalar_vs_spiel_dw",
        "  speed-up deadwood(int) vs OpenSpiel",
        "spiel_dw10",
        "scalar_dw_int",
    )
    ratio(
        benchmark,
        figures,
        "x_batch_vs_spiel_dw",
        "  speed-up batch deadwood vs OpenSpiel",
        "spiel_dw10",
        "batch_dw_random10",
    )


def test_openspiel_min_deadwood11(benchmark, figures, spiel_utils, random11):
    """OpenSpiel's 11-card min_deadwood keeps one least-deadwood meld group
    and drops its highest deadwood card: a heuristic, not the exact best
    discard, so it can only be >= rummykit's exact figure."""
    hands = [cards_of(m) for m in random11[:SPIEL_HANDS]]
    f = spiel_utils.min_deadwood
    benchmark(lambda: consume(map(f, hands)))
    theirs = [f(h) for h in hands]
    exact = rk.best_discard_batch(random11[:SPIEL_HANDS])[0].tolist()
    assert all(t >= e for t, e in zip(theirs, exact))
    benchmark.extra_info["hands_above_exact"] = sum(t != e for t, e in zip(theirs, exact))
    record(
        benchmark,
        figures,
        "spiel_dw11",
        "OpenSpiel min_deadwood, 11-card",
        len(hands),
        unit="us",
        note=f"({benchmark.extra_info['hands_above_exact']}/{len(hands)} hands above exact)",
    )
    ratio(
        benchmark,
        figures,
        "x_scalar_vs_spiel_bd",
        "  speed-up best_discard(int) vs OpenSpiel",
        "spiel_dw11",
        "scalar_bd11",
    )


# --------------------------------------------------------------------------
# start-up costs
# --------------------------------------------------------------------------

IMPORT_SNIPPET = "import time; t = time.perf_counter(); import rummykit; print(time.perf_counter() - t)"


def test_import_time(benchmark, figures):
    """`import rummykit` in a fresh interpreter (the round time includes
    interpreter start-up; the figure reported is the import alone)."""
    times: list[float] = []

    def run():
        out = subprocess.run(
            [sys.executable, "-c", IMPORT_SNIPPET],
            capture_output=True,
            text=True,
            check=True,
            cwd=tempfile.gettempdir(),
        )
        times.append(float(out.stdout.strip()))

    benchmark.pedantic(run, rounds=10, iterations=1, warmup_rounds=1)
    value = statistics.median(times[1:] if len(times) > 1 else times) * 1e3
    benchmark.extra_info["import_ms_median"] = round(value, 2)
    benchmark.extra_info["import_ms_min"] = round(min(times) * 1e3, 2)
    benchmark.extra_info["target"] = "<= 100 ms"
    figures.add("import", "import rummykit (fresh interpreter)", value, "ms", target="<= 100 ms")


def test_rules_tables(benchmark, figures, c_bench):
    """Building the rules tables (rk_rules_init, "about a millisecond") and
    their size (about 64 KiB)."""
    rules = benchmark(_core.Rules, _core.ACES_LOW, DEFAULT_VALUES)
    assert _core.deadwood(rules, rk.to_mask("AS 2S 3S 7H 7D 7C 9S TS JS KD")) == 10
    size = None
    if c_bench is not None:
        size = int(_run_c_bench(c_bench, [])["size"]["rk_rules"])
        benchmark.extra_info["sizeof_rk_rules_bytes"] = size
    record(
        benchmark,
        figures,
        "rules_init",
        "rules tables init (rk_rules_init)",
        1,
        unit="us",
        note=f"sizeof(rk_rules) = {size} bytes" if size is not None else "sizeof(rk_rules) ~64 KiB",
    )


# --------------------------------------------------------------------------
# the C core with no Python in the loop (benchmarks/c/bench_core.c)
# --------------------------------------------------------------------------


@pytest.fixture(scope="module")
def c_bench(tmp_path_factory):
    """benchmarks/c/bench_core.c compiled with the core sources (-O3, as the
    Release build); None when no C compiler is found."""
    return compile_c_bench("bench_core.c", tmp_path_factory.mktemp("c_bench"))


def _run_c_bench(exe: Path, deals: list[tuple[int, int]]) -> dict[str, dict[str, str]]:
    stdin = "".join(f"{k:x} {d:x}\n" for k, d in deals)
    out = subprocess.run([str(exe)], input=stdin, capture_output=True, text=True, check=True, timeout=120)
    parsed: dict[str, dict[str, str]] = {"size": {}, "deal": {}, "time": {}}
    for line in out.stdout.splitlines():
        kind, key, rest = line.split(" ", 2)
        parsed[kind][key] = rest
    return parsed


def test_c_core(benchmark, figures, c_bench, knocks):
    """rk_deadwood, rk_best_arrangement, rk_layoff, rk_layoff_deadwood (the
    lay-off solve alone) and rk_choose_knock, timed in C over the knock
    deals.  The pytest-benchmark time is the whole program run; the per-call
    figures are in extra_info and the summary table."""
    if c_bench is None:
        pytest.skip("no C compiler")
    result = benchmark.pedantic(_run_c_bench, args=(c_bench, knocks), rounds=1, iterations=1)
    for i, (k, d) in enumerate(knocks):
        layoff_dw, margin, defender_dw, layoff_only = map(int, result["deal"][str(i)].split())
        assert defender_dw == rk.deadwood(d)
        assert layoff_dw == layoff_only == rk.layoff(rk.best_melds(k), d).deadwood
        assert margin == rk.choose_knock(k, d).margin
    names = {
        "rk_deadwood": ("c_deadwood", "C rk_deadwood, 10-card", ""),
        "rk_best_arrangement": ("c_best_arrangement", "C rk_best_arrangement, 10-card", ""),
        "rk_layoff": ("c_layoff", "C rk_layoff (+ defender's melds)", ""),
        "rk_layoff_deadwood": ("c_layoff_dw", "C rk_layoff_deadwood, one defender", "<= 100 ns"),
        "rk_choose_knock": ("c_choose_knock", "C rk_choose_knock, 10 v 10 cards", ""),
    }
    for fn, (key, name, target) in names.items():
        ns = float(result["time"][fn])
        benchmark.extra_info[f"{fn}_ns"] = ns
        figures.add(key, name, ns, "ns", target=target)
    benchmark.extra_info["deals"] = len(knocks)


def test_c_kernels(benchmark, figures, c_bench):
    """The deadwood and best-discard kernels timed in C (`bench_core kernels`:
    262,144 hands of each kind drawn in the program, CPU time), each beside
    the table-lookup floor of the same hands timed in the same run (the
    run-only tables alone, exact only without a rank held 3+ times)."""
    if c_bench is None:
        pytest.skip("no C compiler")
    out = benchmark.pedantic(
        lambda: subprocess.run([str(c_bench), "kernels"], capture_output=True, text=True, check=True, timeout=300),
        rounds=1,
        iterations=1,
    ).stdout
    checked = 0
    kernels: dict[str, tuple[float, float]] = {}
    for line in out.splitlines():
        kind, *rest = line.split()
        if kind == "khand":
            size = int(rest[0][-2:])
            mask, dw, card = int(rest[2], 16), int(rest[3]), int(rest[4])
            assert len(cards_of(mask)) == size
            if size == 10:
                assert dw == rk.deadwood(mask)
            else:
                best = rk.best_discard(mask)
                assert (card, dw) == (int(best.card), best.deadwood)
            checked += 1
        elif kind == "kernel":
            kernels[rest[0]] = (float(rest[1]), float(rest[2]))
    assert checked == 160
    for name, (ns, floor) in kernels.items():
        fn, hands = name.split("/")
        benchmark.extra_info[f"{name}_ns"] = ns
        benchmark.extra_info[f"{name}_floor_ns"] = floor
        figures.add(f"c_{fn}_{hands}", f"C {fn}, {hands}", ns, "ns")
        figures.add(f"c_{fn}_{hands}_floor", f"  over the lookup floor ({floor:.1f} ns)", ns / floor, "x")
