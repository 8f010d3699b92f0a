"""What handing each agent its seat's copy of the hand costs (``rk.play_hand`` and
``rk.Match`` hand agents ``state.determinize(seat, rng)`` unless ``trusted=True``).

Greedy agents decide in microseconds, so the copy dominates their hands: the figures are
hands of greedy agents with copies and trusted, per game, and their ratio.  Run:
``python -m pytest benchmarks/test_bench_seat_copies.py --benchmark-only -n 0``.
"""

from __future__ import annotations

import pytest
from benchutil import ratio, record

import rummykit as rk

HANDS = 10
GAMES = [("gin", 2), ("oklahoma-rummy", 3), ("rummy", 3), ("kaluki", 3)]


@pytest.mark.parametrize(("name", "players"), GAMES, ids=[g for g, _ in GAMES])
@pytest.mark.parametrize("trusted", [True, False], ids=["trusted", "copies"])
def test_greedy_hands(benchmark, figures, name: str, players: int, trusted: bool) -> None:
    game = rk.Game(name, num_players=players)
    greedy = rk.GreedyAgent()

    def hands() -> None:
        for seed in range(1, HANDS + 1):
            rk.play_hand(game, [greedy] * players, seed=seed, dealer=0, trusted=trusted)

    benchmark.pedantic(hands, rounds=3, iterations=1, warmup_rounds=1)
    kind = "trusted" if trusted else "copies"
    record(benchmark, figures, f"seat_{name}_{kind}", f"{name} greedy hand ({kind})", HANDS, unit="ms")
    if not trusted:
        ratio(
            benchmark,
            figures,
            f"seat_{name}_ratio",
            f"{name}: copies / trusted",
            f"seat_{name}_copies",
            f"seat_{name}_trusted",
        )
