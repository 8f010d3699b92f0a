"""Hand results and hand scoring of Rummy and Kaluki (docs/rules.md, Kaluki, Rummy).
The arithmetic is the C engine's (rk_table_score, csrc/src/table_score.c).

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

import functools
from collections.abc import Sequence
from dataclasses import dataclass

from rummykit._core import TABLE_OUTCOMES, TableSpec, table_score_values
from rummykit.errors import InvalidOptionError, clip
from rummykit.table.melds import geometry, table_spec
from rummykit.table.rules import TableRules

__all__ = ["OUTCOMES", "TableResult", "score_hand"]

#: outcomes (rk_table_outcome_name): both "dead"; Rummy "blocked", "rummy", "out"; Kaluki "hunt", "call_off"
OUTCOMES: tuple[str, ...] = tuple(o for o in TABLE_OUTCOMES if o is not None)
_CODES = {name: code for code, name in enumerate(TABLE_OUTCOMES) if name is not None}


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


@functools.lru_cache(maxsize=64)
def _spec(rules: TableRules) -> TableSpec:
    return table_spec(rules, geometry(rules))


def score_hand(rules: TableRules, outcome: str, winner: int | None, hand_values: Sequence[int]) -> TableResult:
    """Score a finished hand from the value of the cards each seat holds
    (``winner`` None for a dead or blocked hand).  InvalidOptionError for an
    outcome the game does not have or a winner that does not fit it."""
    code = _CODES.get(outcome) if isinstance(outcome, str) else None
    if code is None:
        raise InvalidOptionError(f"unknown outcome {clip(outcome)} (expected one of {list(OUTCOMES)})")
    if winner is not None and (type(winner) is not int or winner < 0):
        raise InvalidOptionError(f"winner must be a seat or None, got {clip(winner)}")
    scored = table_score_values(_spec(rules), code, -1 if winner is None else winner, list(hand_values))
    return TableResult(outcome, winner, *scored)
