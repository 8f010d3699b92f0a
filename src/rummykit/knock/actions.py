"""Knock-game actions: dense integer ids for AI, typed values and text for people.

Action ids (the same for Gin, Oklahoma Gin and Oklahoma Rummy):

=========  ===============================================================
id         action
=========  ===============================================================
0-51       ``discard C``: discard card id C (``discard 7H``)
52-103     ``knock C``: knock, discarding card id C - 52 face down, with
           the automatic arrangement (``knock 9C``)
104        ``draw stock``
105        ``take``: take the upcard (offer) or the top discard
           (``take upcard``, ``take discard``, ``draw discard``)
106        ``pass``: refuse the upcard offer, or the last-chance discard
107        ``big gin``: show all eleven cards melded (``big_gin_bonus`` only)
108-476    ``meld ...``: in a manual showdown (``auto_showdown=False``), lay
           down meld number id - 108 of :data:`MELD_TABLE` (``meld 7H 8H 9H``)
477-684    ``lay off C on M``: lay card C = (id - 477) // 4 off on the
           knocker's meld number M = (id - 477) % 4 + 1, in the order shown
685        ``done``: end this defender's declaration (the rest is deadwood)
=========  ===============================================================

:data:`MELD_TABLE` lists every meld of the deck: the sets by rank (the 4-set,
then the 3-sets leaving out C, D, H, S), then the runs by suit, lowest card
and length (ace-low runs, then the ace-high runs Q-K-A, J-Q-K-A, ...).
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass

from rummykit import _core
from rummykit.cards import Card, from_mask, parse_card, to_mask
from rummykit.errors import IllegalActionError, clip

__all__ = [
    "BIG_GIN",
    "DISCARD",
    "DONE",
    "DRAW_STOCK",
    "KNOCK",
    "LAYOFF",
    "MELD",
    "MELD_TABLE",
    "NUM_ACTIONS",
    "PASS",
    "TAKE",
    "Action",
    "parse_action",
]

_IDS = _core.KNOCK_ACTION_IDS  # the id blocks of csrc/include/rummykit/knock.h
DISCARD = 0  # + card id
KNOCK: int = _IDS["knock"]
DRAW_STOCK: int = _IDS["draw_stock"]
TAKE: int = _IDS["take"]
PASS: int = _IDS["pass"]
BIG_GIN: int = _IDS["big_gin"]
MELD: int = _IDS["meld"]
LAYOFF: int = _IDS["layoff"]
LAYOFF_SLOTS: int = _IDS["layoff_slots"]
DONE: int = _IDS["done"]
NUM_ACTIONS = DONE + 1


def _meld_table() -> tuple[int, ...]:
    from rummykit._rules import core_rules

    return tuple(_core.melds(core_rules("both"), (1 << 52) - 1))


#: every meld of the deck, as masks (the ``meld`` action ids, in order)
MELD_TABLE: tuple[int, ...] = _meld_table()
MELD_INDEX: dict[int, int] = {m: i for i, m in enumerate(MELD_TABLE)}
assert len(MELD_TABLE) == LAYOFF - MELD

_EXPECTED = "(expected e.g. 'discard 7H', 'knock 9C', 'draw stock', 'take', 'pass', 'meld 7H 8H 9H')"
_SLOT_TEXT = tuple(str(slot) for slot in range(1, LAYOFF_SLOTS + 1))
_NAMED = {DRAW_STOCK: "draw stock", TAKE: "take", PASS: "pass", BIG_GIN: "big gin", DONE: "done"}
_TEXT = {
    "draw stock": DRAW_STOCK,
    "draw": DRAW_STOCK,
    "stock": DRAW_STOCK,
    "draw_stock": DRAW_STOCK,
    "take": TAKE,
    "take upcard": TAKE,
    "take discard": TAKE,
    "draw discard": TAKE,
    "take_upcard": TAKE,
    "draw_discard": TAKE,
    "upcard": TAKE,
    "pass": PASS,
    "big gin": BIG_GIN,
    "big_gin": BIG_GIN,
    "done": DONE,
}


def _action_id(value: object, expected: str = "an int") -> int:
    """An action id 0..685 (an int or a numpy integer), or IllegalActionError saying so."""
    if isinstance(value, numbers.Integral) and not isinstance(value, bool) and 0 <= int(value) < NUM_ACTIONS:
        return int(value)
    raise IllegalActionError(f"not an action id: {clip(value)} (expected {expected} 0..{NUM_ACTIONS - 1})")


@dataclass(frozen=True, slots=True)
class Action:
    """One action: ``kind`` is ``discard``, ``knock``, ``draw stock``,
    ``take``, ``pass`` or ``big gin``; ``card`` for discards and knocks.

    ``Action(id)`` takes an action id 0..685 (the table above) and ``Action(text)``
    action text, read as :func:`parse_action` reads it; anything else raises
    :class:`~rummykit.errors.IllegalActionError`.

    >>> Action(32), Action("knock 9c").id, Action("take upcard") == Action(105)
    (Action('discard 7H'), 60, True)
    """

    id: int

    def __post_init__(self) -> None:
        value = self.id
        if type(value) is int and 0 <= value < NUM_ACTIONS:  # the hot path
            return
        if isinstance(value, str):
            value = parse_action(value).id
        elif isinstance(value, Action):
            value = value.id
        else:
            value = _action_id(value, "action text or an id")
        object.__setattr__(self, "id", value)

    @property
    def kind(self) -> str:
        if self.id < KNOCK:
            return "discard"
        if self.id < DRAW_STOCK:
            return "knock"
        if MELD <= self.id < LAYOFF:
            return "meld"
        if LAYOFF <= self.id < DONE:
            return "lay off"
        return _NAMED[self.id]

    @property
    def card(self) -> Card | None:
        if self.id < KNOCK:
            return Card(self.id)
        if self.id < DRAW_STOCK:
            return Card(self.id - KNOCK)
        if LAYOFF <= self.id < DONE:
            return Card((self.id - LAYOFF) // LAYOFF_SLOTS)
        return None

    @property
    def meld(self) -> int | None:
        """The meld mask of a ``meld`` action."""
        return MELD_TABLE[self.id - MELD] if MELD <= self.id < LAYOFF else None

    @property
    def slot(self) -> int | None:
        """The knocker's meld (0-based, in the order shown) of a ``lay off`` action."""
        return (self.id - LAYOFF) % LAYOFF_SLOTS if LAYOFF <= self.id < DONE else None

    @classmethod
    def from_id(cls, action_id: int) -> Action:
        """The action of an id (an int or a numpy integer; not text, not an Action)."""
        return cls(_action_id(action_id))

    def __str__(self) -> str:
        if self.meld is not None:
            return "meld " + " ".join(str(c) for c in from_mask(self.meld))
        if self.slot is not None:
            return f"lay off {self.card} on {self.slot + 1}"
        card = self.card
        return f"{self.kind} {card}" if card is not None else self.kind

    def __repr__(self) -> str:
        return f"Action('{self}')"


def parse_action(text: str) -> Action:
    """Parse ``"discard 7H"``, ``"knock 9c"``, ``"7h"`` (a discard),
    ``"draw stock"``, ``"take upcard"``, ``"pass"``... into an :class:`Action`."""
    if not isinstance(text, str):
        raise IllegalActionError(
            f"not action text: {clip(text)} (expected a string such as 'discard 7H', got {type(text).__name__})"
        )
    if len(text) > 200:  # the longest action text ("meld" + 11 cards) is far shorter
        raise IllegalActionError(f"not an action: {clip(text)} (too long)")
    words = " ".join(text.lower().replace("_", " ").split())
    if words in _TEXT:
        return Action(_TEXT[words])
    if words.startswith("meld "):
        try:
            mask = to_mask(words[5:])
        except ValueError as err:
            raise IllegalActionError(f"not an action: {clip(text)} ({err})") from None
        if mask not in MELD_INDEX:
            raise IllegalActionError(f"not a meld: {clip(text)} (expected a set or run, e.g. 'meld 7H 8H 9H')")
        return Action(MELD + MELD_INDEX[mask])
    if words.startswith(("lay off ", "layoff ")):
        parts = words.split()[-3:]
        if len(parts) == 3 and parts[1] == "on" and parts[2] in _SLOT_TEXT:
            try:
                card = parse_card(parts[0])
            except ValueError as err:
                raise IllegalActionError(f"not an action: {clip(text)} ({err})") from None
            return Action(LAYOFF + card * LAYOFF_SLOTS + int(parts[2]) - 1)
        raise IllegalActionError(f"not an action: {clip(text)} (expected 'lay off 7H on 1', meld 1..{LAYOFF_SLOTS})")
    verb, _, rest = words.rpartition(" ")
    try:
        card = parse_card(rest)
    except ValueError:
        raise IllegalActionError(f"not an action: {clip(text)} {_EXPECTED}") from None
    if verb in ("", "discard"):
        return Action(DISCARD + card)
    if verb == "knock":
        return Action(KNOCK + card)
    raise IllegalActionError(f"not an action: {clip(text)} {_EXPECTED}")
