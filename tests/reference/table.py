"""The table-game state machine (Rummy and Kaluki) in plain Python: the
reference that the C engine (csrc/src/table.c, behind
rummykit.table.state.TableState) is checked against step by step
(tests/table/test_core.py).  It was the engine before the C port; its
readings of the rules are documented in rummykit.table.state.
"""

from __future__ import annotations

from operator import attrgetter
from typing import TYPE_CHECKING, Any

from reference.melds import MeldOption, can_hunt, can_open, meld_options
from rummykit._core import restock_shuffle
from rummykit.errors import IllegalActionError
from rummykit.table.actions import (
    DRAW,
    LAYOFF,
    MELD_SET,
    RELEASE_RUN,
    RELEASE_SET,
    TAKE,
    id_pattern,
    layoff_id,
)
from rummykit.table.cards import (
    FIRST_JOKER,
    JOKER,
    card_type,
    joker_count,
    physical_copy,
    present_types,
    types_in,
    types_of,
)
from rummykit.table.melds import RUN, SET, Geometry, Pattern, TableMeld
from rummykit.table.scoring import TableResult
from rummykit.table.state import TablePhase

if TYPE_CHECKING:
    from rummykit.table.game import TableGame

__all__ = ["ReferenceTableState"]


_DRAW, _PLAY, _END = TablePhase

# the fields an action may change, in snapshot order
_FIELDS = (
    "phase",
    "player",
    "hands",
    "stock",
    "discards",
    "table",
    "opened",
    "played",
    "known",
    "taken",
    "taken_card",
    "must",
    "open_value",
    "turn_melds",
    "ends",
    "pending",
    "fresh",
    "built_other",
    "turns",
    "restocks",
    "result",
)
_snapshot = attrgetter(*_FIELDS)


def _put(values: tuple[Any, ...], i: int, value: Any) -> tuple[Any, ...]:
    return values[:i] + (value,) + values[i + 1 :]


#: a lay-off: (id, slot, type, end, value)
_Step = tuple[int, int, int, int, int]
#: per table: (mask of the natural types it accepts; lay-offs of natural cards, of jokers; run
#: jokers: (slot, type it stands for); 3-card sets with a joker: (slot, types that release it))
_TableInfo = tuple[int, list[_Step], list[_Step], list[tuple[int, int]], list[tuple[int, int]]]
#: TableState._table_info's memo: (id(table), id(ends)) -> (table, ends, rules, info)
_TABLE_INFO: dict[tuple[int, int], tuple[tuple[TableMeld, ...], tuple[int, ...], Any, _TableInfo]] = {}
_MAX_TABLE_INFO = 4096
#: one table meld's part of _TableInfo: (accepts, natural lay-offs, joker lay-offs, run jokers,
#: a 3-card set with a joker: the types that release it, else 0); memoised by geometry, build
#: limit, slot, ends built and the meld
_MeldInfo = tuple[int, tuple[_Step, ...], tuple[_Step, ...], tuple[tuple[int, int], ...], int]
_MELD_INFO: dict[tuple[int, int, int, int, TableMeld], tuple[Geometry, _MeldInfo]] = {}
_MAX_MELD_INFO = 1 << 14


def _meld_info(geo: Geometry, limit: int, slot: int, built: int, m: TableMeld) -> _MeldInfo:
    """What table meld ``m`` in ``slot`` accepts (``built``: the cards built
    on its ends this turn, ``limit`` of them per end, -1 unlimited)."""
    naturals: list[_Step] = []
    jokers: list[_Step] = []
    size = len(m.cards)
    if m.kind == SET:
        if size < 4:
            suits = m.natural_suits()
            for s in range(4):
                t = s * 13 + m.key
                if not suits >> s & 1:
                    naturals.append((layoff_id(slot, t, 0), slot, t, 0, geo.values[t]))
            jokers.append((layoff_id(slot, JOKER, 0), slot, JOKER, 0, geo.values[m.key]))
        run_jokers: tuple[tuple[int, int], ...] = ()
    else:
        run_jokers = tuple((slot, t) for c, t in zip(m.cards, m.represents(geo)) if c >= FIRST_JOKER)
    for end in (0, 1) if m.kind == RUN and size < 13 else ():
        if limit >= 0 and (built >> (4 * end) & 15) >= limit:
            continue
        if geo.wrap:
            pos = (m.start - 1) % 13 if end == 0 else (m.start + size) % 13
        else:
            pos = m.start - 1 if end == 0 else m.start + size
            if not 0 <= pos < geo.npos:
                continue
        t = geo.type_at(m.key, pos)
        value = geo.position_value(m.key, pos)
        naturals.append((layoff_id(slot, t, end), slot, t, end, value))
        jokers.append((layoff_id(slot, JOKER, end), slot, JOKER, end, value))
    accepts = 0
    for step in naturals:
        accepts |= 1 << step[2]
    missing = 0  # a 3-card set with a joker: the types that can release it
    if m.kind == SET and size == 3 and m.joker_count():
        suits = m.natural_suits()
        missing = sum(1 << (s * 13 + m.key) for s in range(4) if not suits >> s & 1)
    return accepts, tuple(naturals), tuple(jokers), run_jokers, missing


def _uses(option: MeldOption, t: int) -> bool:
    """Whether a meld option uses a card of type ``t`` (JOKER: a joker; -1: never)."""
    if t == JOKER:
        return option[2] > 0
    return t >= 0 and bool(option[1] >> t & 1)


class ReferenceTableState:
    """One hand of Rummy or Kaluki: ``ReferenceTableState(game, deck, dealer, shuffle_seed)``
    with the arguments TableState takes.

    The AI verbs (``legal_actions``, ``apply_action``, ``clone``, ``undo``,
    ``is_terminal``, ``returns``).

    Data for readers: ``hands`` (per seat, a mask of physical cards,
    :mod:`rummykit.table.cards`), ``stock`` and ``discards`` (tuples, top
    last), ``table`` (:class:`TableMeld` tuples in the order laid),
    ``known`` (per seat, the cards others saw them take from the discard
    pile and still hold), ``opened`` and ``played`` (seat bit masks: opened
    in Kaluki; has put a card on the table this hand).
    """

    __slots__ = ("game", "rules", "geo", "n", "dealer", "deck", "shuffle_seed", "history", "_stack", "_legal", *_FIELDS)

    game: TableGame
    hands: tuple[int, ...]
    stock: tuple[int, ...]
    discards: tuple[int, ...]
    table: tuple[TableMeld, ...]
    known: tuple[int, ...]
    ends: tuple[int, ...]
    result: TableResult | None

    def __init__(self, game: TableGame, deck: list[int], dealer: int, shuffle_seed: int) -> None:
        rules = game.rules
        n = rules.num_players
        self.game, self.rules, self.geo, self.n, self.dealer = game, rules, game.geo, n, dealer
        self.deck, self.shuffle_seed = tuple(deck), shuffle_seed
        size = rules.hand_size
        hands = [0] * n
        for i in range(size * n):  # one card at a time, from the dealer's left
            hands[(dealer + 1 + i) % n] |= 1 << deck[i]
        self.hands = tuple(hands)
        self.discards = (deck[size * n],)
        self.stock = tuple(reversed(deck[size * n + 1 :]))
        self.table = ()
        self.opened = 0 if rules.is_kaluki else (1 << n) - 1
        self.played = 0
        self.known = (0,) * n
        self.turns = 0
        self.restocks = 0
        self.result = None
        self.player = (dealer + 1) % n
        self.phase = _DRAW
        self._start_turn()
        self.history: list[int] = []
        self._stack: list[tuple[Any, ...]] = []
        self._legal: list[int] | None = None

    def _start_turn(self) -> None:
        self.taken = -1
        self.taken_card = -1  # the physical card taken from the pile this turn
        self.must = -1  # a type that must go on the table before the discard
        self.open_value = 0
        self.turn_melds = 0
        self.ends = ()
        self.pending = 0
        self.fresh = not self.played >> self.player & 1
        self.built_other = False

    # --- views ----------------------------------------------------------

    @property
    def current_player(self) -> int:
        """The seat to act (-4, OpenSpiel's terminal id, when the hand is over)."""
        return -4 if self.phase == _END else self.player

    def is_terminal(self) -> bool:
        return self.phase == _END

    def returns(self) -> list[int]:
        """Each seat's return for the hand (rummykit.table.scoring; 0 until it ends)."""
        return list(self.result.returns) if self.result is not None else [0] * self.n

    # --- legal actions ------------------------------------------------------

    def legal_actions(self) -> list[int]:
        """The legal action ids, sorted (empty at the end of the hand)."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
        return legal.copy()

    def _compute_legal(self) -> list[int]:
        if self.phase == _DRAW:
            return [DRAW, TAKE] if self._can_take() else [DRAW]
        if self.phase == _PLAY:
            return self._play_actions()
        return []

    def _can_take(self) -> bool:
        if not self.discards:
            return False
        r, p = self.rules, self.player
        card = self.discards[-1]
        t = card_type(card)
        hand = self.hands[p] | 1 << card
        if r.is_kaluki and not self.opened >> p & 1 and self._take_needs_opening():
            if r.unopened_discard_draw == "forbidden":
                return False
            if can_open(r, hand, r.initial_meld_min, t):
                return True
            return not r.hunt_requires_opening_min and can_hunt(r, hand, t)
        if r.taken_discard_must_be_melded and not r.is_kaluki:
            old = (self.taken, self.taken_card, self.must)
            self.taken, self.taken_card, self.must = t, card, t
            try:
                return any(True for _ in self._plays(hand, p))
            finally:
                self.taken, self.taken_card, self.must = old
        return self._ok_after(hand, taken_card=card)  # never a hand of nothing but the taken card

    def _take_needs_opening(self) -> bool:
        r = self.rules
        if r.unopened_discard_draw == "free" or (r.first_turn_upcard_free and self.turns == 0):
            return False
        return True

    def _play_actions(self) -> list[int]:
        """The sorted ids of the play step: the discards (ids 0-52, listed in
        order) come before every other kind."""
        p = self.player
        hand = self.hands[p]
        out = self._discards(hand)
        plays = sorted([a for a, _ in self._plays(hand, p)])
        if plays:
            out.extend(plays)
        return out

    def _discards(self, hand: int) -> list[int]:
        r = self.rules
        if self.pending or self.must >= 0:
            return []
        if r.is_kaluki and not self.opened >> self.player & 1 and self.open_value:
            # an opening in progress: only a Hunt's last card may go
            if r.hunt_requires_opening_min or hand.bit_count() != 1:
                return []
        if hand.bit_count() == 1 and not self._may_go_out():
            return []
        free = self._free(hand)
        out = types_in(present_types(free))
        if free >> FIRST_JOKER and (r.joker_discard_allowed or not out):
            out.append(JOKER)  # jokers alone: one may go
        return out

    def _free(self, hand: int, taken_card: int | None = None) -> int:
        """The cards of ``hand`` the taken-discard restriction lets go: all
        but the physical card taken this turn (``taken_card`` if given)."""
        if not self.rules.forbid_discarding_taken_card:
            return hand
        card = self.taken_card if taken_card is None else taken_card
        return hand & ~(1 << card) if card >= 0 else hand

    def _table_copy(self, hand: int, t: int, released: bool = False) -> int:
        """The physical card of type ``t`` that goes on the table from
        ``hand``: the card taken this turn while it may not be discarded (so
        that another copy stays free), but another joker for a joker that
        stands in for a released one; else the lowest copy."""
        card = self.taken_card if self.rules.forbid_discarding_taken_card else -1
        if card < 0 or card_type(card) != t or not hand >> card & 1:
            return physical_copy(hand, t)
        if not released:
            return card
        other = physical_copy(hand & ~(1 << card), t)
        return other if other >= 0 else card

    def _table_cards(self, hand: int, naturals: int, jokers: int) -> int:
        """The physical cards that one card of each natural type in ``naturals``
        and ``jokers`` jokers take from ``hand`` (the first jokers stand in
        for the released ones still pending)."""
        used = 0
        for t in types_in(naturals):
            used |= 1 << self._table_copy(hand, t)
        rest = hand
        for i in range(jokers):
            card = self._table_copy(rest, JOKER, released=i < self.pending)
            used |= 1 << card
            rest &= ~(1 << card)
        return used

    def _may_go_out(self) -> bool:
        r = self.rules
        return not (r.no_go_out_first_turn and self.turns < self.n)

    def _ok_after(self, hand: int, pending: int = 0, taken_card: int | None = None) -> bool:
        """Whether a player left with ``hand`` (``pending`` jokers still to
        place; ``taken_card``: the card taken this turn, if not
        ``self.taken_card``) can still end the turn: a discardable card, or
        out by play."""
        r = self.rules
        count = hand.bit_count() - pending
        if count == 0:
            return not r.go_out_requires_discard and self._may_go_out()
        if count == 1 and not self._may_go_out():
            return False
        free = self._free(hand, taken_card)
        if present_types(free):
            return True
        return joker_count(free) > pending  # jokers alone: one may go

    def _plays(self, hand: int, p: int) -> Any:
        """(id, hand after) of each legal meld, lay-off and release step."""
        r = self.rules
        opened = self.opened >> p & 1
        jokers = joker_count(hand)
        must = self.must
        pending = self.pending
        if not opened:
            yield from self._opening_plays(hand, p)
            return
        # melds
        if r.max_melds_per_turn < 0 or self.turn_melds < r.max_melds_per_turn:
            for option in meld_options(self.geo, present_types(hand), jokers):
                action_id, naturals, used_jokers, _value = option
                if (pending and not used_jokers) or (must >= 0 and not _uses(option, must)):
                    continue
                after = hand & ~self._table_cards(hand, naturals, used_jokers)
                left = max(0, pending - used_jokers)
                if self._ok_after(after, left):
                    yield action_id, after
        # lay-offs / builds
        for action_id, _slot, t, _end, _value in self._build_steps(hand):
            if (pending and t != JOKER) or (must >= 0 and t != must):
                continue
            after = hand & ~(1 << self._table_copy(hand, t, released=pending > 0))
            left = max(0, pending - (t == JOKER))
            if self._ok_after(after, left):
                yield action_id, after
        # joker releases
        if r.is_kaluki and not pending and must < 0:
            yield from self._releases(hand)

    def _opening_plays(self, hand: int, p: int) -> Any:
        """Kaluki, not yet opened: meld steps toward the opening."""
        r = self.rules
        need = r.initial_meld_min - self.open_value
        # what must still be melded: the taken discard, or a released joker (at most one of them)
        required = JOKER if self.pending else self.must
        # (id, cards used, value, the option whose types they are)
        steps: list[tuple[int, int, int, MeldOption]] = []
        for option in meld_options(self.geo, present_types(hand), joker_count(hand)):
            steps.append((option[0], self._table_cards(hand, option[1], option[2]), option[3], option))
        if r.building_counts_toward_opening:
            for action_id, _slot, t, _end, value in self._build_steps(hand):
                option = (0, 0, 1, 0) if t == JOKER else (0, 1 << t, 0, 0)
                steps.append((action_id, 1 << self._table_copy(hand, t, released=self.pending > 0), value, option))
        for action_id, used, value, option in steps:
            if self.pending and not option[2]:
                continue  # a released joker is placed first
            include = -1 if _uses(option, required) else required
            after = hand & ~used
            left = need - value
            if left <= 0 and include < 0:
                if self._ok_after(after):
                    yield action_id, after
            elif (after or (include < 0 and self._ok_after(after))) and (  # nothing left: a hunt going out
                can_open(r, after, left, include) or (not r.hunt_requires_opening_min and can_hunt(r, after, include))
            ):
                yield action_id, after
        if r.unopened_may_release_joker and not self.pending and self.must < 0:
            for action_id, after, k in self._release_steps(hand):
                if k == 1 and self._release_opens(action_id, need):
                    yield action_id, after

    def _release_opens(self, action_id: int, need: int) -> bool:
        """Whether an unopened player's release of one joker leads on to the
        opening: the hand with the joker can open, and the joker then has an
        opening step (the multi-deck search may let it stand for a type the
        hand also holds, where no meld step puts a joker)."""
        p = self.player
        after = self.clone()
        after._release(p, action_id)
        if not can_open(self.rules, after.hands[p], need, JOKER):
            return False
        return any(True for _ in after._opening_plays(after.hands[p], p))

    def _builds(self, hand: int, p: int) -> Any:
        """(slot, type, end, value) of each card of ``hand`` that may go on a table meld."""
        for step in self._build_steps(hand):
            yield step[1:]

    def _build_steps(self, hand: int) -> list[_Step]:
        """(lay-off id, slot, type, end, value) of each card of ``hand`` that may go on a table meld."""
        accepts, naturals, jokers, _run_jokers, _set_jokers = self._table_info()
        present = present_types(hand)
        out = [step for step in naturals if present >> step[2] & 1] if present & accepts else []
        if hand >> FIRST_JOKER:
            out.extend(jokers)
        return out

    def _table_info(self) -> _TableInfo:
        """What the table accepts, memoised by the table and this turn's builds
        (they change only when a card goes on the table; the legal-move search
        asks at every step)."""
        table, ends, rules = self.table, self.ends, self.rules
        key = (id(table), id(ends))
        entry = _TABLE_INFO.get(key)
        if entry is not None and entry[0] is table and entry[1] is ends and entry[2] is rules:
            return entry[3]
        if len(_TABLE_INFO) >= _MAX_TABLE_INFO:
            _TABLE_INFO.clear()
        info = self._make_table_info()
        _TABLE_INFO[key] = (table, ends, rules, info)  # the references keep the ids unique
        return info

    def _make_table_info(self) -> _TableInfo:
        r, geo = self.rules, self.geo
        limit = r.max_build_per_run_end if r.is_kaluki else -1
        ends = self.ends
        accepts = 0
        naturals: list[_Step] = []
        jokers: list[_Step] = []
        run_jokers: list[tuple[int, int]] = []
        set_jokers: list[tuple[int, int]] = []
        for slot, m in enumerate(self.table):
            built = ends[slot] if slot < len(ends) else 0
            key = (id(geo), limit, slot, built, m)
            entry = _MELD_INFO.get(key)
            if entry is not None and entry[0] is geo:
                part = entry[1]
            else:
                if len(_MELD_INFO) >= _MAX_MELD_INFO:
                    _MELD_INFO.clear()
                part = _meld_info(geo, limit, slot, built, m)
                _MELD_INFO[key] = (geo, part)  # the reference keeps the id unique
            accepts |= part[0]
            naturals += part[1]
            jokers += part[2]
            run_jokers += part[3]
            if part[4]:
                set_jokers.append((slot, part[4]))
        return accepts, naturals, jokers, run_jokers, set_jokers

    def _release_steps(self, hand: int) -> Any:
        """(id, hand after the naturals go, jokers released) of each joker release."""
        r = self.rules
        present = present_types(hand)
        _accepts, _naturals, _jokers, run_jokers, set_jokers = self._table_info()
        for slot, t in run_jokers:
            if present >> t & 1:
                yield RELEASE_RUN + slot * 52 + t, hand & ~(1 << self._table_copy(hand, t)), 1
        for slot, missing_types in set_jokers:
            if not present & missing_types:
                continue  # no natural for it in hand
            m = self.table[slot]
            jokers = m.joker_count()
            missing = 15 & ~m.natural_suits()
            avail = sum(1 << s for s in range(4) if missing >> s & 1 and present >> (s * 13 + m.key) & 1)
            options = []
            if jokers == 1:  # two naturals present: add both missing ones
                options = [missing] if avail == missing else []
            else:  # one natural present: two or all three of the missing (or one, under one_natural)
                one = r.two_joker_set_release == "one_natural"
                sub = avail
                while sub:
                    if (sub.bit_count() == 1) == one:
                        options.append(sub)
                    sub = (sub - 1) & avail
            for suits in options:
                used = 0
                for s in range(4):
                    if suits >> s & 1:
                        used |= 1 << self._table_copy(hand, s * 13 + m.key)
                k = suits.bit_count()
                yield RELEASE_SET + slot * 16 + suits, hand & ~used, max(1, k - 1)

    def _releases(self, hand: int) -> Any:
        for action_id, after, k in self._release_steps(hand):
            if self._ok_after(after) and self._can_place(action_id, after, k):
                yield action_id, after

    def _can_place(self, release_id: int, after: int, k: int) -> bool:
        """Whether ``k`` released jokers can go on the table this turn: as
        builds, or some in a new meld from the hand and the rest as builds."""
        room = self._joker_room(release_id)
        if room >= k:
            return True
        for option in meld_options(self.geo, present_types(after), k):
            used = option[2]
            if used and k - used <= room:
                if self._ok_after(after & ~self._table_cards(after, option[1], 0)):
                    return True
        return False

    def _joker_room(self, release_id: int) -> int:
        """How many jokers the table could take as builds after this release."""
        limit = self.rules.max_build_per_run_end
        room = 0
        for slot, m in enumerate(self.table):
            size = len(m.cards)
            if m.kind == SET:
                if RELEASE_SET <= release_id < MELD_SET and (release_id - RELEASE_SET) // 16 == slot:
                    size = 4 if self.rules.two_joker_set_release == "two_naturals" or m.joker_count() == 1 else 3
                room += size < 4
                continue
            built = self.ends[slot] if slot < len(self.ends) else 0
            low = m.start if not self.geo.wrap else 13
            high = (self.geo.npos - m.start - size) if not self.geo.wrap else 13
            if limit >= 0:
                low = min(low, limit - (built & 15))
                high = min(high, limit - (built >> 4 & 15))
            room += max(0, min(13 - size, low + high))
        return room

    # --- transitions ---------------------------------------------------------

    def apply_action(self, action_id: int) -> None:
        """Apply a legal action id.  Anything else (an illegal or unknown id, a
        non-int) raises :class:`IllegalActionError` and changes nothing; the
        check is one look-up in the cached legal actions."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
        if type(action_id) is not int or action_id not in legal:
            raise IllegalActionError(f"not a legal action here: {action_id!r}")
        self._stack.append(_snapshot(self))
        self.history.append(action_id)
        self._legal = None
        p = self.player
        if action_id <= JOKER:
            self._discard(p, action_id)
        elif action_id == DRAW:
            self._draw(p)
        elif action_id == TAKE:
            self._take(p)
        elif action_id < RELEASE_RUN:
            slot, rest = divmod(action_id - LAYOFF, 106)  # the layout of actions.layoff_id
            self._lay_off(p, slot, rest >> 1, rest & 1)
        elif action_id < MELD_SET:
            self._release(p, action_id)
        else:
            self._meld(p, id_pattern(action_id))

    def undo(self) -> None:
        """Take back the last action."""
        if not self._stack:
            raise IllegalActionError("nothing to undo")
        for name, value in zip(_FIELDS, self._stack.pop()):
            setattr(self, name, value)
        self.history.pop()
        self._legal = None

    def clone(self) -> ReferenceTableState:
        """An independent copy (history and undo stack included)."""
        other = object.__new__(ReferenceTableState)
        for name in ReferenceTableState.__slots__:
            setattr(other, name, getattr(self, name))
        other.history = list(self.history)
        other._stack = list(self._stack)
        return other

    def _set_hand(self, p: int, mask: int) -> None:
        self.hands = _put(self.hands, p, mask)
        if self.known[p] & ~mask:
            self.known = _put(self.known, p, self.known[p] & mask)

    def _next_turn(self) -> None:
        self.turns += 1
        r = self.rules
        if 0 <= r.max_turns <= self.turns:
            self._end("dead", None)
            return
        if r.restock_method == "block" and not self.stock:
            self._end("blocked", None)
            return
        self.player = (self.player + 1) % self.n
        self.phase = _DRAW
        self._start_turn()

    def _discard(self, p: int, t: int) -> None:
        hand = self.hands[p]
        card = physical_copy(self._free(hand), t)
        self._set_hand(p, hand & ~(1 << card))
        self.discards = self.discards + (card,)
        if not self.hands[p]:
            self._go_out(p)
        else:
            self._next_turn()

    def _draw(self, p: int) -> None:
        if not self.stock and not self._restock():
            self._end("dead", None)
            return
        card = self.stock[-1]
        self.stock = self.stock[:-1]
        self.hands = _put(self.hands, p, self.hands[p] | 1 << card)
        self.phase = _PLAY

    def _restock(self) -> bool:
        """docs/rules.md, Restocking: ``reshuffle_keep_top`` (the top discard stays, the rest
        is shuffled by the C core's rk_restock_shuffle, seeded by the hand and
        the restock count, as in the knock games) or
        ``turn_over`` (the pile turned face down unshuffled)."""
        r = self.rules
        if len(self.discards) < 2 or (r.max_restocks >= 0 and self.restocks >= r.max_restocks):
            return False
        if r.restock_method == "turn_over":
            self.stock = tuple(reversed(self.discards))
            self.discards = ()
        else:
            self.stock = tuple(restock_shuffle(self.shuffle_seed, self.restocks, self.discards[:-1]))
            self.discards = self.discards[-1:]
        self.restocks += 1
        return True

    def _take(self, p: int) -> None:
        r = self.rules
        card = self.discards[-1]
        t = card_type(card)
        self.discards = self.discards[:-1]
        self.hands = _put(self.hands, p, self.hands[p] | 1 << card)
        self.known = _put(self.known, p, self.known[p] | 1 << card)
        self.taken = t
        self.taken_card = card
        if r.is_kaluki:
            if not self.opened >> p & 1 and self._take_needs_opening():
                self.must = t
        elif r.taken_discard_must_be_melded:
            self.must = t
        self.phase = _PLAY

    def _placed(self, p: int, types: list[int], value: int) -> None:
        """Bookkeeping after cards of ``types`` went on the table."""
        self.played |= 1 << p
        if self.must in types:
            self.must = -1
        if self.pending:
            self.pending = max(0, self.pending - types.count(JOKER))
        if not self.opened >> p & 1:
            self.open_value += value
            if self.open_value >= self.rules.initial_meld_min and self.must < 0 and not self.pending:
                self.opened |= 1 << p
        if not self.hands[p]:
            self._go_out(p)

    def _meld(self, p: int, pat: Pattern) -> None:
        hand = self.hands[p]
        types = pat.types(self.geo)
        cards = []
        rest = hand
        jokers = 0
        for t in types:
            c = self._table_copy(rest, t, released=t == JOKER and jokers < self.pending)
            jokers += t == JOKER
            rest &= ~(1 << c)
            cards.append(c)
        self._set_hand(p, rest)
        start = pat.suits if pat.kind == RUN else 0
        self.table = self.table + (TableMeld(pat.kind, pat.key, start, tuple(cards), p),)
        self.turn_melds += 1
        self._placed(p, types, pat.value(self.geo))

    def _lay_off(self, p: int, slot: int, t: int, end: int) -> None:
        hand = self.hands[p]
        card = self._table_copy(hand, t, released=t == JOKER and self.pending > 0)
        self._set_hand(p, hand & ~(1 << card))
        m = self.table[slot]
        if m.kind == SET:
            value = self.geo.values[m.key]
            m = m._replace(cards=m.cards + (card,))
        else:
            size = len(m.cards)
            if end == 0:
                start = (m.start - 1) % 13 if self.geo.wrap else m.start - 1
                value = self.geo.position_value(m.key, start)
                m = m._replace(start=start, cards=(card,) + m.cards)
            else:
                pos = (m.start + size) % 13 if self.geo.wrap else m.start + size
                value = self.geo.position_value(m.key, pos)
                m = m._replace(cards=m.cards + (card,))
            ends = self.ends + (0,) * (slot + 1 - len(self.ends))
            self.ends = _put(ends, slot, ends[slot] + (1 << 4 * end))
        self.table = _put(self.table, slot, m)
        if m.owner != p:
            self.built_other = True
        self._placed(p, [t], value if self.rules.building_counts_toward_opening else 0)

    def _release(self, p: int, action_id: int) -> None:
        hand = self.hands[p]
        if action_id < RELEASE_SET:
            slot, t = divmod(action_id - RELEASE_RUN, 52)
            m = self.table[slot]
            i = m.represents(self.geo).index(t)
            joker = m.cards[i]
            natural = self._table_copy(hand, t)
            m = m._replace(cards=_put(m.cards, i, natural))
            self._set_hand(p, (hand & ~(1 << natural)) | 1 << joker)
            self.pending += 1
        else:
            slot, suits = divmod(action_id - RELEASE_SET, 16)
            m = self.table[slot]
            k = suits.bit_count()
            take = max(1, k - 1)
            jokers = [c for c in m.cards if c >= FIRST_JOKER][:take]
            naturals = []
            for s in range(4):
                if suits >> s & 1:
                    c = self._table_copy(hand, s * 13 + m.key)
                    hand &= ~(1 << c)
                    naturals.append(c)
            for j in jokers:
                hand |= 1 << j
            m = m._replace(cards=tuple(c for c in m.cards if c not in jokers) + tuple(naturals))
            self._set_hand(p, hand)
            self.pending += take
        self.table = _put(self.table, slot, m)
        self.played |= 1 << p
        if m.owner != p:
            self.built_other = True

    def _go_out(self, p: int) -> None:
        r = self.rules
        fresh = self.fresh and (r.hunt_allows_building or not self.built_other or not r.is_kaluki)
        if r.is_kaluki:
            outcome = "hunt" if fresh else "call_off"
        else:
            outcome = "rummy" if fresh else "out"
        self._end(outcome, p)

    def _end(self, outcome: str, winner: int | None) -> None:
        values = self.geo.values
        hand_values = [sum(values[t] for t in types_of(h)) for h in self.hands]
        self.result = score_hand(self.rules, outcome, winner, hand_values)
        self.phase = _END


def score_hand(rules: Any, outcome: str, winner: int | None, hand_values: list[int]) -> TableResult:
    """A finished hand's scores from each seat's hand value (docs/rules.md, Rummy and Kaluki scoring)."""
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
    extra = {"flat_25": 25, "flat_10": 10}.get(bonus, 0)
    if collect:
        total = sum(values)
        total = total * 2 if bonus == "double" else total + extra
        points = tuple(total if s == winner else 0 for s in range(n))
        return TableResult(outcome, winner, values, points, zero, zero, points)
    pen = tuple(0 if s == winner else v * 2 if bonus == "double" else v + extra for s, v in enumerate(values))
    return TableResult(outcome, winner, values, zero, pen, zero, tuple(-p for p in pen))
