"""Hand results and hand scoring of Rummy and Kaluki (docs/rules.md, Kaluki, Rummy).

``returns`` (what ``state.returns()`` gives an AI) follows each game's own
scoring and is **not** zero-sum:

* Rummy ``winner_collects``: the winner's points, 0 for everyone else (a
  loser's cards are the winner's gain, not a charge of their own); under
  ``rummy_scoring = "penalty"``: minus each seat's penalty.
* Kaluki: minus each seat's penalty; the caller's bonus is a separate tally
  (``bonuses``) and enters ``returns`` only with
  ``kaluki_bonus_accounting = "subtract_from_penalty"``.

Going rummy under penalty scoring (the rules give no figure): ``double``
doubles each loser's penalty, ``flat_25``/``flat_10`` add 25/10 to each.

>>> from rummykit.table.rules import table_rules
>>> r = table_rules("kaluki", num_players=3)
>>> score_hand(r, "call_off", 0, [0, 32, 14]).penalties
(0, 32, 14)
>>> score_hand(r, "hunt", 0, [0, 32, 14]).bonuses
(40, 0, 0)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rummykit import _core
from rummykit.table.rules import TableRules

__all__ = ["OUTCOMES", "TableResult", "score_hand"]

#: outcomes (rk_table_outcome_name): both "dead"; Rummy "blocked", "rummy", "out"; Kaluki "hunt", "call_off"
OUTCOMES: tuple[str, ...] = tuple(o for o in _core.TABLE_OUTCOMES if o is not None)


@dataclass(frozen=True)
class TableResult:
    """The end of a table-game hand.

    ``winner`` is the seat that went out / called off (None for a dead or
    blocked hand); ``hand_values`` the value of the cards each seat still
    holds; ``points`` the winner-collects points (Rummy); ``penalties`` and
    ``bonuses`` the penalty and bonus points each seat takes; ``returns``
    see the module docstring.
    """

    outcome: str
    winner: int | None
    hand_values: tuple[int, ...]
    points: tuple[int, ...]
    penalties: tuple[int, ...]
    bonuses: tuple[int, ...]
    returns: tuple[int, ...]


def score_hand(rules: TableRules, outcome: str, winner: int | None, hand_values: Sequence[int]) -> TableResult:
    """Score a finished hand from the value of the cards each seat holds."""
    n = len(hand_values)
    values = tuple(hand_values)
    zero = (0,) * n
    if outcome == "dead":
        return TableResult(outcome, None, values, zero, zero, zero, zero)
    if rules.is_kaluki:
        assert winner is not None
        hunt = outcome == "hunt"
        mode = rules.hunt_penalty_mode
        pen = tuple(
            0 if s == winner else (v * 2 if mode == "double" else v + 25) if hunt else v for s, v in enumerate(values)
        )
        bonuses = tuple((rules.hunt_bonus if hunt else rules.call_off_bonus) if s == winner else 0 for s in range(n))
        subtract = rules.kaluki_bonus_accounting == "subtract_from_penalty"
        returns = tuple(-p + (b if subtract else 0) for p, b in zip(pen, bonuses))
        return TableResult(outcome, winner, values, zero, pen, bonuses, returns)
    collect = rules.rummy_scoring == "winner_collects"
    if outcome == "blocked":
        pen = zero if collect else values
        return TableResult(outcome, None, values, zero, pen, zero, tuple(-p for p in pen))
    assert winner is not None
    bonus = rules.rummy_bonus if outcome == "rummy" else "none"
    if collect:
        total = sum(values)
        total = total * 2 if bonus == "double" else total + {"flat_25": 25, "flat_10": 10}.get(bonus, 0)
        points = tuple(total if s == winner else 0 for s in range(n))
        return TableResult(outcome, winner, values, points, zero, zero, points)
    extra = {"flat_25": 25, "flat_10": 10}.get(bonus, 0)
    pen = tuple(0 if s == winner else v * 2 if bonus == "double" else v + extra for s, v in enumerate(values))
    return TableResult(outcome, winner, values, zero, pen, zero, tuple(-p for p in pen))
