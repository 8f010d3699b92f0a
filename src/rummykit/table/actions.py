"""Table-game actions (Rummy and Kaluki): integer ids for AI, typed values
and text for people.  Every action is one step, so the ids stay bounded.

==================  ========================================================
id                  action (text)
==================  ========================================================
0-52                ``discard C``: discard a card of type C (52 = joker)
53                  ``draw``: draw the top of the stock (an empty stock is
                    restocked first; under ``turn_over`` the pile is turned
                    over; ``block``, an impossible restock or the restock
                    limit end the hand)
54                  ``take``: take the top discard
64 + (S*53+C)*2+E   ``lay off C on S+1 [low|high]``: put one card of type C
                    (or a joker) on table meld S (0-based, in the order
                    laid), at its low (E=0) or high (E=1) end; sets use E=0.
                    Kaluki calls this building; ``build`` parses too
4304 + S*52 + C     ``release C from S+1``: put natural C in place of the
                    joker standing for C in run S, taking the joker
6384 + S*16 + M     ``release C1 C2 .. from S+1``: add naturals of the
                    suits in mask M to set S, taking the jokers the rule
                    gives (docs/rules.md, Kaluki)
7024 + R*64+M*4+J   ``meld ...``: a set of rank R, naturals of suits M
                    (bit mask), J jokers
8192 + ((U*14+P)    ``meld ...``: a run of suit U from position P of length
*14+L)*8192 + K     L, K the mask of the positions taken by jokers
                    (``meld QS KS Jk=AS``)
==================  ========================================================

Positions and patterns: :mod:`rummykit.table.melds`.  The engine uses the
lowest physical copy of each type (:mod:`rummykit.table.cards`).  Ids are
sparse above 7024 (the run block spans 6.4 million ids); ``NUM_ACTIONS`` is
the bound.
"""

from __future__ import annotations

import numbers
from dataclasses import InitVar, dataclass
from functools import lru_cache
from typing import Any

from rummykit import _core
from rummykit.errors import IllegalActionError, InvalidCardError, InvalidMeldError, InvalidOptionError, clip
from rummykit.table.cards import JOKER, parse_type, type_text
from rummykit.table.melds import RUN, SET, Geometry, Pattern, _interned, parse_meld

__all__ = [
    "DRAW",
    "LAYOFF",
    "MAX_SLOTS",
    "MELD_RUN",
    "MELD_SET",
    "NUM_ACTIONS",
    "RELEASE_RUN",
    "RELEASE_SET",
    "TAKE",
    "TableAction",
    "is_action_id",
    "parse_table_action",
]

_IDS = _core.TABLE_ACTION_IDS  # the id blocks of csrc/include/rummykit/table.h
DRAW: int = _IDS["draw"]
TAKE: int = _IDS["take"]
LAYOFF: int = _IDS["layoff"]
MAX_SLOTS: int = _IDS["max_slots"]
RELEASE_RUN: int = _IDS["release_run"]
RELEASE_SET: int = _IDS["release_set"]
MELD_SET: int = _IDS["meld_set"]
MELD_RUN: int = _IDS["meld_run"]
NUM_ACTIONS: int = _IDS["num_actions"]
_SET_END: int = _IDS["set_end"]  # the set melds end here: the ids up to MELD_RUN are unused

_END = ("low", "high")
_EXPECTED = "(expected e.g. 'draw', 'take', 'discard 7H', 'meld 7H 8H 9H', 'lay off 7H on 1 high', 'release 7H from 1')"


def pattern_id(p: Pattern) -> int:
    if p.kind == SET:
        return int(_core.table_set_id(p.key, p.suits, p.span))
    return int(_core.table_run_id(p.key, p.suits, p.span, p.jokers))


def id_pattern(action_id: int) -> Pattern:
    if action_id >= MELD_RUN:
        suit, start, length, jokers = _core.table_run_of(action_id)
        return Pattern(RUN, suit, start, length, jokers)
    x, jokers = divmod(action_id - MELD_SET, 4)
    rank, suits = divmod(x, 16)
    return Pattern(SET, rank, suits, jokers, 0)


def layoff_id(slot: int, t: int, end: int) -> int:
    return int(_core.table_layoff_id(slot, t, end))


def is_action_id(value: object) -> bool:
    """Whether ``value`` is an integer in one of the engine's action id blocks (not a bool)."""
    if type(value) is int:
        return 0 <= value <= TAKE or LAYOFF <= value < _SET_END or MELD_RUN <= value < NUM_ACTIONS
    return (
        isinstance(value, numbers.Integral)
        and not isinstance(value, bool)
        and (0 <= value <= TAKE or LAYOFF <= value < _SET_END or MELD_RUN <= value < NUM_ACTIONS)  # type: ignore[operator]
    )


@dataclass(frozen=True, slots=True)
class TableAction:
    """One action: ``kind`` is ``discard``, ``draw``, ``take``, ``lay off``,
    ``release`` or ``meld``.  ``str`` needs the geometry for run melds, so
    use :meth:`text` (the state's ``action_text``) for those.

    ``TableAction(id)`` takes an action id (the table above; an int or a numpy
    integer) and ``TableAction(text)`` or ``TableAction(text, game)`` action text,
    read as the state's ``parse_action`` reads it (``"3C"`` alone is ``discard
    3C``).  A run meld's id depends on the game (run positions differ between
    Rummy and Kaluki, and with the ace options): give the game
    (``TableAction("meld 7H 8H 9H", rk.Game("kaluki"))``); the game also limits
    the jokers of a meld (none in Rummy; without a game up to 4).  Releasing one
    natural needs the state (whether the table meld is a run or a set): give
    such text to ``state.play`` or ``state.parse_action``.  Anything else raises
    :class:`~rummykit.errors.IllegalActionError`.

    >>> import rummykit as rk
    >>> TableAction("3C") == TableAction("discard 3c") == TableAction(2)
    True
    >>> TableAction("meld 7H 8H 9H", rk.Game("kaluki")).kind
    'meld'
    """

    id: int
    game: InitVar[Any] = None

    def __post_init__(self, game: Any = None) -> None:
        value = self.id
        if type(value) is int and (0 <= value <= TAKE or LAYOFF <= value < _SET_END or MELD_RUN <= value < NUM_ACTIONS):
            return
        if isinstance(value, TableAction):
            value = value.id
        elif isinstance(value, str):
            if game is None:
                value = parse_table_action(value, None, 4)
            else:
                geo = getattr(game, "geo", None)
                if not isinstance(geo, Geometry):
                    raise InvalidOptionError(f"game must be a table game (Rummy, Kaluki), got {clip(game)}")
                value = parse_table_action(value, geo, game.max_meld_jokers)
        elif not is_action_id(value):
            raise IllegalActionError(_not_an_id(value))
        object.__setattr__(self, "id", int(value))

    @property
    def kind(self) -> str:
        i = self.id
        if i <= JOKER:
            return "discard"
        if i == DRAW:
            return "draw"
        if i == TAKE:
            return "take"
        if LAYOFF <= i < RELEASE_RUN:
            return "lay off"
        if RELEASE_RUN <= i < MELD_SET:
            return "release"
        if i >= MELD_SET:
            return "meld"
        return "?"

    @property
    def card(self) -> int | None:
        """The card type of a discard, lay-off or run release."""
        i = self.id
        if i <= JOKER:
            return i
        if LAYOFF <= i < RELEASE_RUN:
            return (i - LAYOFF) // 2 % 53
        if RELEASE_RUN <= i < RELEASE_SET:
            return (i - RELEASE_RUN) % 52
        return None

    @property
    def slot(self) -> int | None:
        """The table meld (0-based) of a lay-off or release."""
        i = self.id
        if LAYOFF <= i < RELEASE_RUN:
            return (i - LAYOFF) // 2 // 53
        if RELEASE_RUN <= i < RELEASE_SET:
            return (i - RELEASE_RUN) // 52
        if RELEASE_SET <= i < MELD_SET:
            return (i - RELEASE_SET) // 16
        return None

    @property
    def end(self) -> int:
        """0 low, 1 high (lay-offs)."""
        return (self.id - LAYOFF) % 2 if LAYOFF <= self.id < RELEASE_RUN else 0

    @property
    def suits(self) -> int:
        """The suit mask of a set release."""
        return (self.id - RELEASE_SET) % 16 if RELEASE_SET <= self.id < MELD_SET else 0

    @property
    def pattern(self) -> Pattern | None:
        return id_pattern(self.id) if self.id >= MELD_SET else None

    @classmethod
    def from_id(cls, action_id: int) -> TableAction:
        """The action of an id (an int or a numpy integer; not text, not a TableAction)."""
        if not is_action_id(action_id):
            raise IllegalActionError(_not_an_id(action_id))
        return cls(int(action_id))

    def text(self, geo: Geometry, set_rank: int = 0) -> str:
        """The action as text; ``set_rank`` is the rank of the set a set
        release goes to (only the state knows it)."""
        kind, card, slot = self.kind, self.card, self.slot
        if kind == "discard":
            return f"discard {type_text(self.id)}"
        if kind == "lay off":
            return f"lay off {type_text(card or 0)} on {(slot or 0) + 1} {_END[self.end]}"
        if kind == "release":
            if card is not None:
                return f"release {type_text(card)} from {(slot or 0) + 1}"
            naturals = " ".join(type_text(s * 13 + set_rank) for s in range(4) if self.suits >> s & 1)
            return f"release {naturals} from {(slot or 0) + 1}"
        if kind == "meld":
            p = self.pattern
            assert p is not None
            return "meld " + p.text(geo)
        return kind

    def __repr__(self) -> str:
        return f"TableAction({self.id})"


@lru_cache(maxsize=1 << 16)
def action_text(action_id: int, geo: Geometry, set_rank: int = 0) -> str:
    """``TableAction(action_id).text(geo, set_rank)``, remembered: every view, record and
    information-state string spells out the whole hand, so the same few hundred texts are
    asked for again and again."""
    return TableAction(action_id).text(geo, set_rank)


def _not_an_id(value: object) -> str:
    return (
        f"not a table-game action id: {clip(value)} "
        f"(expected an int 0..{TAKE}, {LAYOFF}..{_SET_END - 1} or {MELD_RUN}..{NUM_ACTIONS - 1})"
    )


def _slot(word: str) -> int:
    """A 1-based slot number as a 0-based slot, or -1 (not ASCII digits, or out of range)."""
    if not (word.isascii() and word.isdecimal() and len(word) <= 3):
        return -1
    slot = int(word) - 1
    return slot if 0 <= slot < MAX_SLOTS else -1


def parse_table_action(text: str, geo: Geometry | None, max_jokers: int, set_rank: object = None) -> int:
    """The id of action text.  ``set_rank(slot)`` gives the rank of a table
    set, or None for a run (without it, no state, releasing one natural raises);
    without ``geo`` (no game) a run meld raises.  Raises IllegalActionError."""
    if not isinstance(text, str):
        raise IllegalActionError(
            f"not action text: {clip(text)} (expected a string such as 'meld 7H 8H 9H', got {type(text).__name__})"
        )
    if len(text) > 400:  # the longest action text (a meld of 13 cards with jokers) is far shorter
        raise IllegalActionError(f"not an action: {clip(text)} (too long)")
    words = text.replace("_", " ").split()
    low = [w.lower() for w in words]
    if not low:
        raise IllegalActionError("empty action text")
    try:
        if low in (["draw"], ["draw", "stock"], ["stock"], ["turn", "over"], ["draw", "stock", "turn", "over"]):
            return DRAW
        if low in (["take"], ["draw", "discard"], ["take", "discard"], ["take", "upcard"]):
            return TAKE
        if low[0] == "discard" and len(low) == 2:
            return parse_type(words[1])
        if len(low) == 1 and _is_card(words[0]):  # a bare card discards, as in every game
            return parse_type(words[0])
        if low[0] == "meld" and len(low) > 1:
            return _meld_id(geo, " ".join(words[1:]), max_jokers, text)
        if low[:2] == ["lay", "off"] or low[0] in ("layoff", "build"):
            rest = words[2:] if low[0] == "lay" else words[1:]
            if len(rest) not in (3, 4) or rest[1].lower() != "on":
                raise IllegalActionError(f"not an action: {clip(text)} (expected 'lay off 7H on 1 high')")
            slot = _slot(rest[2])
            end = 0 if len(rest) == 3 else _END.index(rest[3].lower()) if rest[3].lower() in _END else -1
            if end < 0 or slot < 0:
                raise IllegalActionError(f"not an action: {clip(text)} (slot 1..{MAX_SLOTS}, end low or high)")
            return layoff_id(slot, parse_type(rest[0]), end)
        if low[0] == "release" and len(low) >= 4 and low[-2] == "from" and low[-1].isdecimal():
            slot = _slot(low[-1])
            cards = [parse_type(w) for w in words[1:-2]]
            if slot < 0 or JOKER in cards:
                raise IllegalActionError(f"not an action: {clip(text)} (expected 'release 7H from 1', a natural)")
            if callable(set_rank):
                rank = set_rank(slot)
            elif len(cards) > 1:  # several naturals: a set's
                rank = cards[0] % 13
            else:
                raise IllegalActionError(
                    f"{clip(text)}: one natural released goes to a run or a set, and which table meld {slot + 1} "
                    "is needs the state: give the text to state.parse_action or state.play"
                )
            if rank is None:
                if len(cards) != 1:
                    raise IllegalActionError(f"{clip(text)}: table meld {slot + 1} is not a set")
                return RELEASE_RUN + slot * 52 + cards[0]
            suits = 0
            for c in cards:
                if c % 13 != rank or suits >> (c // 13) & 1:
                    raise IllegalActionError(f"{clip(text)}: naturals of distinct suits of the set's rank needed")
                suits |= 1 << (c // 13)
            return RELEASE_SET + slot * 16 + suits
    except (InvalidCardError, InvalidMeldError) as err:
        raise IllegalActionError(f"not an action: {clip(text)} ({err})") from None
    raise IllegalActionError(f"not an action: {clip(text)} {_EXPECTED}")


def _is_card(word: str) -> bool:
    try:
        parse_type(word)
    except InvalidCardError:
        return False
    return True


def _meld_id(geo: Geometry | None, cards: str, max_jokers: int, text: str) -> int:
    """The id of a meld's cards; a set's needs no game, a run's needs the game's geometry."""
    if geo is not None:
        return pattern_id(parse_meld(geo, cards, max_jokers))
    naturals = [parse_type(w.partition("=")[0]) for w in cards.split()]
    if len({t % 13 for t in naturals if t != JOKER}) != 1:
        raise IllegalActionError(
            f"{clip(text)}: a run's action id depends on the game (its run positions): "
            "give the game, TableAction(text, game), or the text to state.parse_action or state.play"
        )
    return pattern_id(parse_meld(_SET_GEOMETRY, cards, max_jokers))


#: any geometry: a set's id does not depend on it
_SET_GEOMETRY = _interned(13, 0, False, (0,) * 53, False)
