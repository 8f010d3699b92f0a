"""Table hand scoring (the C engine's rk_table_score) against the reference formula, every scoring option."""

from __future__ import annotations

import itertools
import random

import pytest
from reference.table import score_hand as reference_score

from rummykit.errors import InvalidOptionError
from rummykit.table.rules import table_rules
from rummykit.table.scoring import score_hand

_RUMMY = [
    table_rules("rummy", num_players=n, rummy_bonus=bonus, rummy_scoring=scoring)
    for n, bonus, scoring in itertools.product(
        (2, 3, 6), ("double", "flat_25", "flat_10", "none"), ("winner_collects", "penalty")
    )
]
_KALUKI = [
    table_rules("kaluki", num_players=n, hunt_penalty_mode=mode, kaluki_bonus_accounting=accounting)
    for n, mode, accounting in itertools.product((2, 5), ("double", "plus_25"), ("separate", "subtract_from_penalty"))
]


@pytest.mark.parametrize("rules", _RUMMY + _KALUKI, ids=repr)
def test_score_hand_matches_the_reference(rules: object) -> None:
    rng = random.Random(7)
    n = rules.num_players  # type: ignore[attr-defined]
    won = ("hunt", "call_off") if rules.is_kaluki else ("rummy", "out")  # type: ignore[attr-defined]
    for _ in range(30):
        winner = rng.randrange(n)
        values = [0 if s == winner else rng.randrange(120) for s in range(n)]
        for outcome in won:
            assert score_hand(rules, outcome, winner, values) == reference_score(rules, outcome, winner, values)  # type: ignore[arg-type]
        ends = ("dead",) if rules.is_kaluki else ("dead", "blocked")  # type: ignore[attr-defined]
        for outcome in ends:
            assert score_hand(rules, outcome, None, values) == reference_score(rules, outcome, None, values)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("game", "outcome", "winner", "values"),
    [
        ("rummy", "hunt", 0, [0, 5]),  # the other game's outcome
        ("kaluki", "out", 0, [0, 5, 7]),
        ("rummy", "won", 0, [0, 5]),  # no such outcome
        ("rummy", "out", None, [0, 5]),  # a winner missing
        ("rummy", "dead", 0, [0, 5]),  # a winner where there is none
        ("rummy", "out", 2, [0, 5]),  # not a seat
        ("rummy", "out", 0, [0, 5, 6]),  # not one value per seat
        ("rummy", "out", 0, [0, -5]),
        ("rummy", "out", 0, [0, 1.5]),
    ],
)
def test_score_hand_refuses(game: str, outcome: str, winner: int | None, values: list[object]) -> None:
    rules = table_rules(game, num_players=2 if game == "rummy" else 3)
    with pytest.raises(InvalidOptionError):
        score_hand(rules, outcome, winner, values)  # type: ignore[arg-type]
