"""Benchmarks of the table games' C playouts (``rummykit.playouts`` on Rummy
and Kaluki states) and of ISMCTS with them.

Run from the repository root (see benchmarks/README.md)::

    python -m pytest benchmarks/test_bench_table_playouts.py --benchmark-only

Targets are reported, never asserted (issue 15: greedy C playouts of Rummy
2p >= 20,000 hands/s/core).  Each benchmark first checks on a few states
that a playout of the state as it is (``resample="none"``) ends where the
Python engine driven by ``GreedyAgent`` ends, with the same returns, so a
benchmark cannot silently time a broken kernel (the policy itself is
checked against its Python oracle in tests/table/test_playouts.py).
"""

from __future__ import annotations

import numpy as np
import pytest
from benchutil import record, wall_speedup  # benchmarks/benchutil.py

import rummykit as rk
from rummykit.agents import GreedyAgent, ISMCTSAgent
from rummykit.playouts import OUTCOMES

#: fresh deals per round
DEALS = 10


def _check(game: rk.Game, hands: int = 5) -> None:
    agent = GreedyAgent()
    for i in range(hands):
        state = game.new_hand(seed=i)
        returns, codes = rk.playouts(state, 2, seed=1, resample="none")
        while not state.is_terminal():
            state.apply_action(agent(state))
        assert returns[0].tolist() == state.returns() and OUTCOMES[codes[0]] == state.result.outcome


@pytest.mark.parametrize(
    ("game", "players", "n", "target"),
    [
        ("rummy", 2, 20_000, "<= 50 us (>= 20,000/s)"),
        ("rummy", 4, 10_000, ""),
        ("rummy", 6, 10_000, ""),
        ("kaluki", 2, 2_000, ""),
        ("kaluki", 4, 2_000, ""),
    ],
)
def test_table_greedy_playouts(benchmark, figures, game, players, n, target):
    """``rk.playouts`` (greedy, one thread) from 10 fresh deals: every playout
    resamples the cards hidden from the seat to move (the other hands and the
    stock), plays greedy for every seat to the end of the hand and scores it."""
    g = rk.Game(game, num_players=players)
    _check(g)
    states = [g.new_hand(seed=2026 + i) for i in range(DEALS)]

    def run() -> list[tuple[np.ndarray, np.ndarray]]:
        return [rk.playouts(s, n // DEALS, seed=1) for s in states]

    results = benchmark.pedantic(run, rounds=3, iterations=1, warmup_rounds=1)
    for returns, _ in results:
        assert returns.shape == (n // DEALS, players)
    us = record(
        benchmark, figures, f"table_playouts_{game}{players}", f"greedy playouts, {game} {players}p", n, "us", target
    )
    if us:
        benchmark.extra_info["playouts_per_second"] = round(1e6 / us)


def test_table_random_playouts(benchmark, figures):
    state = rk.Game("rummy").new_hand(seed=2026)
    returns, _ = benchmark.pedantic(
        rk.playouts, args=(state, 10_000), kwargs={"seed": 1, "policy": "random"}, rounds=3, iterations=1
    )
    assert returns.shape == (10_000, 2)
    record(benchmark, figures, "table_playouts_random_rummy2", "random playouts, rummy 2p", 10_000, "us")


def test_table_greedy_playouts_two_threads(benchmark, figures):
    state = rk.Game("rummy").new_hand(seed=2026)
    benchmark.pedantic(rk.playouts, args=(state, 20_000), kwargs={"seed": 1, "threads": 2}, rounds=3, iterations=1)
    record(benchmark, figures, "table_playouts_rummy2_2t", "greedy playouts, rummy 2p, 2 threads (CPU)", 20_000, "us")
    wall_speedup(
        benchmark,
        figures,
        "table_playouts_rummy2_2t_speedup",
        "greedy playouts, rummy 2p, 2 threads over 1",
        lambda: rk.playouts(state, 20_000, seed=1),
        lambda: rk.playouts(state, 20_000, seed=1, threads=2),
    )


@pytest.mark.parametrize("game", ["rummy", "kaluki"])
def test_ismcts_table_move(benchmark, figures, game):
    """One ISMCTSAgent move (200 iterations, 8 C greedy rollouts per leaf) after the first draw."""
    state = rk.Game(game).new_hand(seed=2026)
    state.apply_action(state.legal_actions()[0])
    action = benchmark.pedantic(lambda: ISMCTSAgent(iterations=200, seed=1)(state), rounds=3, iterations=1)
    assert action in state.legal_actions()
    record(benchmark, figures, f"ismcts_move_{game}", f"ISMCTS move, {game} 2p, 200 iterations", 1, "ms")
