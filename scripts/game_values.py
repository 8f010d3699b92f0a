"""Writes src/rummykit/agents/game_values.json: each named two-player game's distribution of
the points a hand moves its winner towards the end of the game (greedy against greedy, C
playouts), from which rummykit.agents.gamevalue solves the win-probability tables that `best`
plays the game by.  Deterministic: the same file for the same seed and sizes.

    python scripts/game_values.py                 # the shipped sizes
    python scripts/game_values.py --deals 200     # a quick check
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import rummykit as rk
from rummykit.agents.external import OPENSPIEL_GIN
from rummykit.agents.gamevalue import DATA, end_of, hand_points, histogram_key

GAMES: list[tuple[str, dict[str, object]]] = [
    ("gin", {}),
    ("gin_eaai", {}),
    ("gin_classic_pagat", {}),
    ("oklahoma_gin", {}),
    ("oklahoma_gin_150", {}),
    ("double_oklahoma", {}),
    (OPENSPIEL_GIN[0], dict(OPENSPIEL_GIN[1])),
    ("rummy", {"num_players": 2}),
    ("kaluki", {"num_players": 2}),
]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=4000)
    parser.add_argument("--per-deal", type=int, default=10)
    parser.add_argument("--seed", type=int, default=2027)
    parser.add_argument("--out", default=str(Path(__file__).parents[1] / "src" / "rummykit" / "agents" / DATA))
    args = parser.parse_args(argv)
    data = {}
    for name, options in GAMES:
        game = rk.Game(name, **options)
        assert end_of(game) is not None, name
        counts = hand_points(game, args.deals, args.per_deal, args.seed)
        data[histogram_key(game.rules)] = {
            "deals": args.deals,
            "per_deal": args.per_deal,
            "seed": args.seed,
            "counts": {str(x): n for x, n in sorted(counts.items())},
        }
        print(f"{histogram_key(game.rules)}: {sum(counts.values())} decided hands", file=sys.stderr)
    Path(args.out).write_text(json.dumps(data, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
