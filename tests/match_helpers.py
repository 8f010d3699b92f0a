"""What the whole-match tests share: short whole matches of the five games and a seeded agent."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import rummykit as rk

#: (game, options) of short whole matches of the five games
MATCHES: list[tuple[str, dict[str, Any]]] = [
    ("gin", {"target_score": 40}),
    ("oklahoma-gin", {"target_score": 40}),
    ("oklahoma-rummy", {"num_players": 3, "game_end": "fixed_hands", "num_hands": 2}),
    ("rummy", {"num_players": 3, "target_score": 40}),
    ("kaluki", {"num_players": 3, "elimination_threshold": 60}),
]
IDS = [name for name, _ in MATCHES]


def mixed_agent(seed: int) -> Callable[[Any], int]:
    """Greedy, with a seeded random move now and then: it ends hands, and differs between seeds."""
    rng = random.Random(seed)
    greedy = rk.GreedyAgent()

    def agent(state: Any) -> int:
        legal = state.legal_actions()
        return int(rng.choice(legal)) if rng.random() < 0.2 else int(greedy(state))

    return agent
