"""The knock games' refusal messages: one text per reason code of the C engine
(``rk_knock_why``, csrc/include/rummykit/knock.h), which decides the reason.

A template may use ``{what}`` (the action as text, or the word the caller
gives, e.g. ``knock``), ``{card}`` (the card of a discard, knock or lay-off),
``{player}``/``{seat}`` (the seat to move / asking), ``{phase}``, the rules'
``{limit}`` and the detail values ``{deadwood}``, ``{knock_max}``, ``{shown}``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rummykit._core import KNOCK_REASONS
from rummykit.knock.actions import NUM_ACTIONS, Action

if TYPE_CHECKING:
    from rummykit.knock.state import KnockState

__all__ = ["MESSAGES", "message"]

MESSAGES: dict[str, str] = {
    "not_action": "{what}: not a knock-game action",
    "out_of_turn": "out of turn: it is seat {player}'s turn, not {seat}'s",
    "hand_over": "{what}: the hand is over",
    "offer_first": "{what}: take the upcard or pass first (the upcard offer); you draw, discard and knock later",
    "draw_first": "{what}: draw first (draw or take); you discard or knock after the draw",
    "stock_only": "{what}: both players passed the upcard, so the first player must draw from the stock (draw stock)",
    "last_chance": "{what}: this is the last chance: take the last discard to knock at once, or pass",
    "already_drawn": "{what}: the player has already drawn this turn (discard or knock now)",
    "pile_empty": "{what}: the discard pile is empty",
    "nothing_to_pass": (
        "{what}: not allowed during the draw: pass refuses the upcard offer or the last-chance discard, "
        "and no card is on offer (draw first)"
    ),
    "not_in_hand": "{what}: {card} is not in seat {player}'s hand",
    "taken_card": "{what}: the card just taken from the discard pile may not be discarded this turn",
    "must_knock": "{what}: after taking the last-chance discard the player must knock",
    "gin_only": "{what}: the upcard is an ace, so only gin (deadwood 0) ends the hand; this leaves deadwood {deadwood}",
    "over_limit": (
        "{what}: deadwood {deadwood} is over the knock limit {limit} "
        "(a knock may leave at most {knock_max} points of deadwood)"
    ),
    "no_last_chance_knock": (
        "{what}: the last-chance discard may only be taken to knock at once, and with it the best knock "
        "leaves deadwood {deadwood} (at most {knock_max} allowed)"
    ),
    "no_big_gin": (
        "{what}: this game has no big gin bonus (a bonus for melding all eleven cards without discarding; "
        "the option big_gin_bonus, off here)"
    ),
    "big_gin_deadwood": (
        "{what}: all eleven cards must be melded after the draw (with no deadwood at all, before discarding); "
        "this hand leaves {deadwood}"
    ),
    "showdown_only": "{what}: only in a manual showdown (auto_showdown=False), after a knock",
    "declare": "{what}: in the showdown seat {player} declares melds and lay-offs, then done",
    "not_undeclared": "{what}: not a meld or lay-off of seat {player}'s undeclared cards",
    "not_a_meld": "{what}: not a meld with this game's aces (aces={aces})",
    "no_layoff": "{what}: no lay-offs in this showdown (after gin, or allow_layoff_on_knock=False)",
    "no_such_meld": "{what}: the knocker shows {shown} meld(s)",
    "does_not_fit": "{what}: {card} does not extend that meld of the knocker",
}


def message(state: KnockState, reason: str, action_id: int, detail: tuple[int, int], seat: int, what: str = "") -> str:
    """The message for ``reason`` (a name of :data:`rummykit._core.KNOCK_REASONS`)
    refusing ``action_id``; ``what`` replaces the action text."""
    action = Action.from_id(action_id) if 0 <= action_id < NUM_ACTIONS else None
    card = action.card if action is not None else None
    return MESSAGES[reason].format(
        what=what or (str(action) if action is not None else str(action_id)),
        card=card,
        player=state.player,
        seat=seat,
        phase=state.phase_name,
        limit=state.limit,
        aces=state.rules.aces,
        deadwood=detail[0],
        knock_max=detail[1],
        shown=detail[0],
    )


assert set(MESSAGES) == set(KNOCK_REASONS) - {"legal"}, "a knock reason code without a message"
