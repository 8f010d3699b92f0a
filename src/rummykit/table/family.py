"""The table games' facts (Rummy, Kaluki): the :class:`Family` record that
:mod:`rummykit.games` registers."""

from __future__ import annotations

from typing import Any

from rummykit import _core
from rummykit.engine.family import Family
from rummykit.table import playouts, rules
from rummykit.table.actions import TableAction
from rummykit.table.game import TableGame
from rummykit.table.match import TableMatch
from rummykit.table.scoring import score_hand
from rummykit.table.state import OUTCOMES, TableState

__all__ = ["TABLE"]


def _greedy(state: TableState, max_knock_deadwood: int | None) -> int:
    """The C policy (csrc/src/table_policy.c, rk_table_greedy); there is no knocking."""
    return int(_core.table_greedy(state))


def _fixed_id(action_id: int) -> int:
    """:func:`rummykit.table.fixed.fixed_id`, imported on first use (the module loads numpy)."""
    from rummykit.table.fixed import fixed_id

    return fixed_id(action_id)


def _match_points(match: Any, seat: int) -> float:
    """The seat's match score, as points (a penalty counts against it)."""
    score = match.scores[seat]
    return float(-score if match.game.score_kind == "penalties" else score)


def _hand_returns(rules: Any, outcome: str, winner: int | None, values: list[int]) -> tuple[int, ...]:
    """Each seat's returns of a hand from the values the seats hold (the C scoring)."""
    return score_hand(rules, outcome, winner, values).returns


TABLE = Family(
    name="table",
    game=TableGame,
    state=TableState,
    match=TableMatch,
    action=TableAction,
    num_fixed_actions=_core.TABLE_FIXED_IDS["num_actions"],
    action_index="fixed",
    fixed_action=_fixed_id,
    num_dense_actions=_core.VECTOR_TABLE_ACTIONS,
    outcomes=OUTCOMES,
    greedy=_greedy,
    aliases=rules.ALIASES,
    presets={name: base for name, (base, _) in rules.PRESETS.items()},
    base_games=tuple(rules.BASE_GAMES),
    options=lambda name: rules.option_table(rules.table_rules(name)),
    match_points=_match_points,
    observe_module="rummykit.table.observe",
    records_module="rummykit.table.record",
    view="rummykit.table.view:TableView",
    knocks=False,
    core_outcomes=_core.TABLE_OUTCOMES,
    playouts=playouts.runner,
    rules_sections={"rummy": ("Rummy", "Common rules"), "kaluki": ("Kaluki", "Common rules")},
    hand_returns=_hand_returns,
)
