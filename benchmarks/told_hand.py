"""What the hidden hand is worth in whole games: ``best`` told the opponent's hand, against an
opponent, in mirrored games (each deal sequence played twice, seats swapped).

The told agent is ``best`` whose search scores every candidate against the opponent's real
hand instead of the particle filter's sampled hands; the stock's order stays hidden (its
playouts still reshuffle the unseen cards).  It reads the real state, so these matches hand
the agents the real state (``trusted=True``); the opponent is one of the library's own.
``docs/strength.md`` (Where the remaining distance is) has the figures::

    python benchmarks/told_hand.py --opponent eaai-simple --games 400 --seed 21
"""

from __future__ import annotations

import argparse
import math
from typing import Any

import numpy as np

from rummykit import Match
from rummykit.agents import make_agent
from rummykit.agents.best import BestAgent
from rummykit.agents.external import game_for
from rummykit.league import play_game


class ToldBest(BestAgent):
    """``best`` told the opponent's hand (two-player knock games: the tracked search)."""

    def _tracked_scores(self, state: Any, candidates: list[int], hands: list[int], *args: Any, **kwargs: Any) -> Any:
        told = int(state.hands[1 - state.current_player])
        return super()._tracked_scores(state, candidates, [told] * len(hands), *args, **kwargs)


def told_games(opponent: str, game_name: str, games: int, seed: int) -> list[float]:
    """The told agent's share of each mirrored pair of games (0, 0.5 or 1)."""
    game = game_for([make_agent(opponent)], game_name, {})
    shares = []
    for pair in range(games // 2):
        won = 0.0
        for seat in (0, 1):
            rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(pair, seat)))
            agents: list[Any] = [make_agent(opponent, rng)]
            agents.insert(seat, ToldBest(seed=rng))
            deals = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(pair,)))
            winner = play_game(Match(game, agents, seed=deals, trusted=True)).winner
            won += 0.5 if winner is None else float(winner == seat)
        shares.append(won / 2)
    return shares


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--opponent", default="eaai-simple", help="an agent spec (default eaai-simple)")
    parser.add_argument("--game", default="gin_eaai", help="a two-player knock game (default gin_eaai)")
    parser.add_argument("--games", type=int, default=400, help="whole games, even (default 400)")
    parser.add_argument("--seed", type=int, default=21)
    args = parser.parse_args(argv)
    shares = told_games(args.opponent, args.game, args.games, args.seed)
    mean = sum(shares) / len(shares)
    spread = math.sqrt(sum((x - mean) ** 2 for x in shares) / max(1, len(shares) - 1) / len(shares))
    low, high = 100 * (mean - 1.96 * spread), 100 * (mean + 1.96 * spread)
    print(f"best told the hand against {args.opponent} ({args.game}, seed {args.seed}): ", end="")
    print(f"{100 * mean:.1f}% of {2 * len(shares)} games ({low:.1f}%-{high:.1f}%, clustered by mirrored pair)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
