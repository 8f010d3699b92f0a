"""The table games' refusal messages (Rummy and Kaluki): one text per reason
code of the C engine (``rk_table_why``, csrc/include/rummykit/table.h), which
decides the reason.

A template may use ``{what}`` (the action as text), ``{card}`` (the card the
code names, or the action's card), ``{player}``/``{seat}``, ``{meld}`` (the
table meld of a lay-off or release as text), ``{slot}`` (1-based), ``{count}``
(the detail value), the rules' options by name, and ``{naturals}`` /
``{building}`` (two option values in words).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rummykit._core import TABLE_REASONS
from rummykit.table.actions import TableAction
from rummykit.table.cards import type_text

if TYPE_CHECKING:
    from rummykit.table.state import TableState

__all__ = ["MESSAGES", "message"]

_DEAD_END = "it would leave the player unable to end the turn with a legal discard (every turn ends with one)"
_MIN = "initial_meld_min={initial_meld_min} (the first melds must be worth {initial_meld_min} points together"

MESSAGES: dict[str, str] = {
    "not_action": "{what}: not a table-game action",
    "out_of_turn": "out of turn: it is seat {player}'s turn, not {seat}'s",
    "hand_over": "{what}: the hand is over",
    "draw_first": "{what}: draw first (draw or take)",
    "pile_empty": "{what}: the discard pile is empty",
    "take_forbidden": "{what}: an unopened player may not take the discard (unopened_discard_draw=forbidden)",
    "take_to_open": (
        "{what}: a player who has not opened may take the discard only to open at once with it "
        "(draw_discard_and_open: melds worth at least initial_meld_min={initial_meld_min} using the taken card)"
    ),
    "take_must_meld": (
        "{what}: a card taken from the discard pile must be melded at once in this game "
        "(taken_discard_must_be_melded), and this one cannot be"
    ),
    "dead_end": "{what}: " + _DEAD_END,
    "already_drawn": "{what}: the player has already drawn this turn",
    "place_joker": "{what}: a released joker must be placed this turn first (released_joker_must_be_played)",
    "open_with_taken": "{what}: the taken card {card} must be used in the opening first",
    "meld_taken": "{what}: the taken card {card} must be melded at once first (taken_discard_must_be_melded)",
    "not_in_hand": "{what}: {card} is not in seat {player}'s hand",
    "taken_card": "{what}: the card just taken from the discard pile may not be discarded this turn",
    "joker_discard": "{what}: jokers may not be discarded (joker_discard_allowed=False)",
    "opening_unfinished": "{what}: the opening is under " + _MIN + "; {count} so far): complete it first",
    "first_turn_out": "{what}: nobody may go out on their first turn (no_go_out_first_turn)",
    "not_a_meld": "{what}: a meld id, but not a set or run this game can lay (its run positions and jokers)",
    "opening_short": (
        "{what}: opening under " + _MIN + "): these melds count {count} "
        "and the rest of the hand cannot reach it ({building})"
    ),
    "meld_limit": "{what}: at most {max_melds_per_turn} new meld per turn (max_melds_per_turn)",
    "no_slot": "{what}: there is no table meld {slot} ({count} on the table)",
    "build_before_opening": (
        "{what}: a player may not build before opening (building does not count toward the opening)"
    ),
    "release_before_opening": (
        "{what}: a player may not release a joker before opening (unopened_may_release_joker=False)"
    ),
    "set_closed": "{what}: the set {meld} is closed (four cards)",
    "run_full": "{what}: the run {meld} already holds all 13 ranks",
    "build_limit": (
        "{what}: at most {max_build_per_run_end} cards may be added to one end of a run "
        "in one turn (max_build_per_run_end)"
    ),
    "does_not_fit": "{what}: {card} does not extend {meld} at that end",
    "no_joker_for": "{what}: no joker in {meld} stands for {card}",
    "release_shape": "{what}: a set joker is released only from a 3-card set holding one (a 4-card set is closed)",
    "release_naturals": (
        "{what}: a set joker is released by completing the set to four with {naturals} from the hand "
        "(two_joker_set_release={two_joker_set_release})"
    ),
    "release_opening": (
        "{what}: an unopened player may release one joker only when the hand can then open with it (" + _MIN + ")"
    ),
    "release_unplaceable": "{what}: the released joker could not be placed this turn (released_joker_must_be_played)",
}

#: the codes whose detail is a card type (the rest: a count)
_CARD_DETAIL = frozenset({"open_with_taken", "meld_taken", "not_in_hand"})


def message(state: TableState, reason: str, action_id: int, detail: int, seat: int) -> str:
    """The message for ``reason`` (a name of :data:`rummykit._core.TABLE_REASONS`)
    refusing ``action_id``."""
    action = TableAction(action_id) if reason != "not_action" else None  # an id outside the id space
    rules = state.rules
    what = state.action_text(action_id) if action is not None and state._is_action(action_id) else f"action {action_id}"
    card = detail if reason in _CARD_DETAIL else (action.card if action is not None else None)
    slot = action.slot if action is not None else None
    table = state.table
    meld = table[slot].text(state.geo) if slot is not None and slot < len(table) else ""
    naturals = "two natural cards" if rules.two_joker_set_release == "two_naturals" else "one natural card"
    building = "building counts toward it" if rules.building_counts_toward_opening else "building does not count"
    return MESSAGES[reason].format(
        what=what,
        card=type_text(card) if card is not None else "",
        player=state.player,
        seat=seat,
        meld=meld,
        slot=(slot or 0) + 1,
        count=detail,
        naturals=naturals,
        building=building,
        initial_meld_min=rules.initial_meld_min,
        max_melds_per_turn=rules.max_melds_per_turn,
        max_build_per_run_end=rules.max_build_per_run_end,
        two_joker_set_release=rules.two_joker_set_release,
    )


assert set(MESSAGES) == set(TABLE_REASONS) - {"legal"}, "a table reason code without a message"
