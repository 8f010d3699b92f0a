"""Why a table-game action is illegal: the message names the rule."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rummykit.table.actions import DRAW, TAKE, TableAction
from rummykit.table.cards import JOKER, joker_count, present_types, type_text
from rummykit.table.melds import SET, Geometry, TableMeld

if TYPE_CHECKING:
    from rummykit.table.state import TableState

__all__ = ["why_illegal"]

_DEAD_END = "it would leave the player unable to end the turn with a legal discard (every turn ends with one)"


def _holds(state: TableState, t: int) -> bool:
    hand = state.hands[state.player]
    return joker_count(hand) > 0 if t == JOKER else bool(present_types(hand) >> t & 1)


def _fits(geo: Geometry, m: TableMeld, t: int, end: int) -> bool:
    """Whether a card of type ``t`` (or a joker) extends table meld ``m`` at
    ``end`` (0 low, 1 high; sets take cards at 0), the per-turn limit aside."""
    size = len(m.cards)
    if m.kind == SET:
        missing = t == JOKER or (t % 13 == m.key and not m.natural_suits() >> (t // 13) & 1)
        return end == 0 and size < 4 and missing
    if size >= 13:
        return False
    pos = m.start - 1 if end == 0 else m.start + size
    if geo.wrap:
        pos %= 13
    elif not 0 <= pos < geo.npos:
        return False
    return t in (JOKER, geo.type_at(m.key, pos))


def why_illegal(state: TableState, action_id: int) -> str:
    """A message naming the rule that forbids ``action_id`` now."""
    r, p = state.rules, state.player
    a = TableAction(action_id)
    text = state.action_text(action_id)
    kaluki = r.is_kaluki
    opened = state.is_opened(p)
    if state.phase == 2:
        return f"{text}: the hand is over"
    if state.phase == 0:
        if action_id == TAKE:
            if not state.discards:
                return "take: the discard pile is empty"
            if kaluki and not opened:
                if r.unopened_discard_draw == "forbidden":
                    return "take: an unopened player may not take the discard (unopened_discard_draw=forbidden)"
                return (
                    f"take: a player who has not opened may take the discard only to open at once with it "
                    f"(draw_discard_and_open: melds worth at least initial_meld_min={r.initial_meld_min} "
                    f"using the taken card)"
                )
            if r.taken_discard_must_be_melded:
                return (
                    "take: a card taken from the discard pile must be melded at once in this game "
                    "(taken_discard_must_be_melded), and this one cannot be"
                )
            return f"take: {_DEAD_END}"
        return f"{text}: draw first (draw or take)"
    if action_id in (DRAW, TAKE):
        return f"{text}: the player has already drawn this turn"
    if state.pending:
        return f"{text}: a released joker must be placed this turn first (released_joker_must_be_played)"
    if state.must >= 0:
        what = "used in the opening" if kaluki else "melded at once (taken_discard_must_be_melded)"
        needed = state.must
        if a.kind == "discard" or needed not in _types_of_action(state, a):
            return f"{text}: the taken card {type_text(needed)} must be {what} first"
    kind = a.kind
    if kind == "discard":
        t = action_id
        if not _holds(state, t):
            return f"{text}: {type_text(t)} is not in seat {p}'s hand"
        if t == state.taken and r.forbid_discarding_taken_card:
            return f"{text}: the card just taken from the discard pile may not be discarded this turn"
        if t == JOKER and not r.joker_discard_allowed:
            return f"{text}: jokers may not be discarded (joker_discard_allowed=False)"
        if kaluki and not opened and state.open_value:
            return (
                f"{text}: the opening is under initial_meld_min={r.initial_meld_min} (the first melds "
                f"must be worth {r.initial_meld_min} points together; {state.open_value} so far): complete it first"
            )
        if state.hands[p].bit_count() == 1:
            return f"{text}: nobody may go out on their first turn (no_go_out_first_turn)"
        return f"{text}: not allowed now"
    if kind == "meld":
        pat = a.pattern
        assert pat is not None
        types = pat.types(state.geo)
        hand = state.hands[p]
        for t in set(types):
            have = joker_count(hand) if t == JOKER else (hand >> t & 1) + (hand >> (t + 52) & 1)
            if types.count(t) > have:
                return f"{text}: {type_text(t)} is not in seat {p}'s hand"
        if kaluki and not opened:
            total = state.open_value + pat.value(state.geo)
            return (
                f"{text}: opening under initial_meld_min={r.initial_meld_min} (the first melds must be worth "
                f"{r.initial_meld_min} points together): these melds count {total} "
                f"and the rest of the hand cannot reach it (building does not count)"
            )
        if 0 <= r.max_melds_per_turn <= state.turn_melds:
            return f"{text}: at most {r.max_melds_per_turn} new meld per turn (max_melds_per_turn)"
        return f"{text}: {_DEAD_END}"
    slot = a.slot
    assert slot is not None
    if slot >= len(state.table):
        return f"{text}: there is no table meld {slot + 1} ({len(state.table)} on the table)"
    m = state.table[slot]
    if kaluki and not opened:
        verb = "build" if kind == "lay off" else "release a joker"
        return f"{text}: a player may not {verb} before opening (building does not count toward the opening)"
    if kind == "lay off":
        card = a.card
        assert card is not None
        if not _holds(state, card):
            return f"{text}: {type_text(card)} is not in seat {p}'s hand"
        if m.kind == SET and len(m.cards) >= 4:
            return f"{text}: the set {m.text(state.geo)} is closed (four cards)"
        if kaluki and m.kind != SET and r.max_build_per_run_end >= 0:
            built = state.ends[slot] if slot < len(state.ends) else 0
            if (built >> (4 * a.end) & 15) >= r.max_build_per_run_end:
                return (
                    f"{text}: at most {r.max_build_per_run_end} cards may be added to one end of a run "
                    f"in one turn (max_build_per_run_end)"
                )
        if not _fits(state.geo, m, card, a.end):
            return f"{text}: {type_text(card)} does not extend {m.text(state.geo)} at that end"
        return f"{text}: {_DEAD_END}"
    # release
    if m.kind == SET:
        if len(m.cards) != 3 or not m.joker_count():
            return f"{text}: a joker is released only from a 3-card set holding one (a 4-card set is closed)"
        naturals = "two natural cards" if r.two_joker_set_release == "two_naturals" else "one natural card"
        return (
            f"{text}: a set joker is released by completing the set to four with {naturals} from the hand "
            f"(two_joker_set_release={r.two_joker_set_release})"
        )
    natural = a.card
    assert natural is not None
    if not any(c >= 104 and rt == natural for c, rt in zip(m.cards, m.represents(state.geo))):
        return f"{text}: no joker in {m.text(state.geo)} stands for {type_text(natural)}"
    if not _holds(state, natural):
        return f"{text}: {type_text(natural)} is not in seat {p}'s hand"
    return f"{text}: the released joker could not be placed this turn (released_joker_must_be_played)"


def _types_of_action(state: TableState, a: TableAction) -> list[int]:
    if a.pattern is not None:
        return a.pattern.types(state.geo)
    return [a.card] if a.card is not None else []
