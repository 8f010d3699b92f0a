"""Benchmarks of the C playout kernel (``rummykit.playouts``).

Run from the repository root (see benchmarks/README.md)::

    python -m pytest benchmarks/test_bench_playouts.py --benchmark-only

Targets are reported, never asserted.  Each benchmark first checks on a
small sample that the kernel plays the Python engine's game (the same
actions and points as ``KnockState`` driven by ``GreedyAgent``), so a
benchmark cannot silently time a broken kernel.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import numpy as np
import pytest
from benchutil import compile_c_bench, record, wall_speedup  # benchmarks/benchutil.py

import rummykit as rk
from rummykit import _core
from rummykit.agents import GreedyAgent
from rummykit.knock.playouts import exact_spec
from rummykit.playouts import BIG_GIN, DEAD, GIN, KNOCK, UNDERCUT

REPO = Path(__file__).resolve().parent.parent

#: playouts per round
GREEDY_N = 200_000
RANDOM_N = 20_000
#: fresh deals per greedy round (GREEDY_N / DEALS playouts from each)
DEALS = 20


def _check_greedy(game: rk.Game, hands: int = 30) -> None:
    agent = GreedyAgent()
    for i in range(hands):
        state = game.new_hand(seed=i)
        c = _core.playout_once(state._core_rules, exact_spec(state), _core.POLICY_GREEDY, -1, 0)
        while not state.is_terminal():
            state.apply_action(agent(state))
        assert tuple(c[3]) == tuple(state.returns())


@pytest.mark.parametrize(
    ("game", "options", "key", "name", "target"),
    [
        ("oklahoma-gin", {}, "playouts_greedy_okgin", "greedy playouts, Oklahoma Gin 2p", "<= 3.33 us (>= 300,000/s)"),
        ("gin", {}, "playouts_greedy_gin", "greedy playouts, Gin 2p", ""),
        ("oklahoma-rummy", {}, "playouts_greedy_okr3", "greedy playouts, Oklahoma Rummy 3p", ""),
    ],
)
def test_greedy_playouts(benchmark, figures, game, options, key, name, target):
    """``rk.playouts`` (one thread) from 20 fresh deals, 10,000 playouts each:
    every playout resamples the hidden cards (the other hands and the stock),
    plays greedy for every seat and scores with lay-offs."""
    g = rk.Game(game, **options)
    _check_greedy(g)
    states = [g.new_hand(seed=2026 + i) for i in range(DEALS)]  # upcards (knock limits) vary

    def run() -> list[tuple[np.ndarray, np.ndarray]]:
        return [rk.playouts(s, GREEDY_N // DEALS, seed=1) for s in states]

    results = benchmark.pedantic(run, rounds=5, iterations=1, warmup_rounds=1)
    for points, outcomes in results:
        assert points.shape == (GREEDY_N // DEALS, g.num_players)
        assert np.isin(outcomes, [DEAD, GIN, BIG_GIN, KNOCK, UNDERCUT]).all()
    us = record(benchmark, figures, key, name, GREEDY_N, unit="us", target=target)
    if us:
        benchmark.extra_info["playouts_per_second"] = round(1e6 / us)


def test_random_playouts(benchmark, figures):
    """Uniformly random play, Oklahoma Gin 2p (long hands: the stock runs out)."""
    state = rk.Game("oklahoma-gin").new_hand(seed=2026)
    points, _ = benchmark.pedantic(
        rk.playouts, args=(state, RANDOM_N), kwargs={"seed": 1, "policy": "random"}, rounds=5, iterations=1
    )
    assert points.shape == (RANDOM_N, 2)
    us = record(benchmark, figures, "playouts_random_okgin", "random playouts, Oklahoma Gin 2p", RANDOM_N, unit="us")
    if us:
        benchmark.extra_info["playouts_per_second"] = round(1e6 / us)


def test_greedy_playouts_two_threads(benchmark, figures):
    state = rk.Game("oklahoma-gin").new_hand(seed=2026)
    benchmark.pedantic(rk.playouts, args=(state, GREEDY_N), kwargs={"seed": 1, "threads": 2}, rounds=5, iterations=1)
    record(
        benchmark,
        figures,
        "playouts_greedy_okgin_2t",
        "greedy playouts, Oklahoma Gin 2p, 2 threads (CPU)",
        GREEDY_N,
        unit="us",
    )
    wall_speedup(
        benchmark,
        figures,
        "playouts_greedy_okgin_2t_speedup",
        "greedy playouts, Oklahoma Gin 2p, 2 threads over 1",
        lambda: rk.playouts(state, GREEDY_N, seed=1),
        lambda: rk.playouts(state, GREEDY_N, seed=1, threads=2),
    )


def test_c_playouts(benchmark, figures, tmp_path_factory):
    """benchmarks/c/bench_playouts.c: rk_playout from fresh deals in C."""
    exe = compile_c_bench("bench_playouts.c", tmp_path_factory.mktemp("c_playouts"))
    if exe is None:
        pytest.skip("no C compiler")
    out = benchmark.pedantic(
        lambda: subprocess.run([str(exe), "50000"], capture_output=True, text=True, check=True, timeout=300).stdout,
        rounds=1,
        iterations=1,
    )
    for line in out.splitlines():
        _, game, policy, rate, actions = line.split()
        us = 1e6 / float(rate)
        benchmark.extra_info[f"{game}_{policy}_per_second"] = float(rate)
        figures.add(
            f"c_playouts_{game}_{policy}",
            f"C rk_playout, {game} {policy} (fresh deals)",
            us,
            "us",
            target="<= 3.33 us" if (game, policy) == ("oklahoma_gin", "greedy") else "",
            note=f"{float(rate):,.0f}/s, {actions} actions/hand",
        )
