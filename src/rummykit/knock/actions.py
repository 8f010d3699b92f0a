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
=========  ===============================================================
"""

from __future__ import annotations

from dataclasses import dataclass

from rummykit.cards import Card, parse_card
from rummykit.errors import IllegalActionError

__all__ = ["BIG_GIN", "DISCARD", "DRAW_STOCK", "KNOCK", "NUM_ACTIONS", "PASS", "TAKE", "Action", "parse_action"]

DISCARD = 0
KNOCK = 52
DRAW_STOCK = 104
TAKE = 105
PASS = 106
BIG_GIN = 107
NUM_ACTIONS = 108

_NAMED = {DRAW_STOCK: "draw stock", TAKE: "take", PASS: "pass", BIG_GIN: "big gin"}
_TEXT = {
    "draw stock": DRAW_STOCK, "draw": DRAW_STOCK, "stock": DRAW_STOCK, "draw_stock": DRAW_STOCK,
    "take": TAKE, "take upcard": TAKE, "take discard": TAKE, "draw discard": TAKE, "take_upcard": TAKE,
    "draw_discard": TAKE, "upcard": TAKE,
    "pass": PASS, "big gin": BIG_GIN, "big_gin": BIG_GIN,
}


@dataclass(frozen=True, slots=True)
class Action:
    """One action: ``kind`` is ``discard``, ``knock``, ``draw stock``,
    ``take``, ``pass`` or ``big gin``; ``card`` for discards and knocks."""

    id: int

    @property
    def kind(self) -> str:
        if self.id < KNOCK:
            return "discard"
        if self.id < DRAW_STOCK:
            return "knock"
        return _NAMED[self.id]

    @property
    def card(self) -> Card | None:
        if self.id < KNOCK:
            return Card(self.id)
        if self.id < DRAW_STOCK:
            return Card(self.id - KNOCK)
        return None

    @classmethod
    def from_id(cls, action_id: int) -> Action:
        if not isinstance(action_id, int) or isinstance(action_id, bool) or not 0 <= action_id < NUM_ACTIONS:
            raise IllegalActionError(f"not an action id (0..{NUM_ACTIONS - 1}): {action_id!r}")
        return cls(action_id)

    def __str__(self) -> str:
        card = self.card
        return f"{self.kind} {card}" if card is not None else self.kind

    def __repr__(self) -> str:
        return f"Action('{self}')"


def parse_action(text: str) -> Action:
    """Parse ``"discard 7H"``, ``"knock 9c"``, ``"7h"`` (a discard),
    ``"draw stock"``, ``"take upcard"``, ``"pass"``... into an :class:`Action`."""
    if not isinstance(text, str):
        raise IllegalActionError(f"not action text: {text!r}")
    words = " ".join(text.lower().replace("_", " ").split())
    if words in _TEXT:
        return Action(_TEXT[words])
    verb, _, rest = words.rpartition(" ")
    try:
        card = parse_card(rest)
    except ValueError:
        raise IllegalActionError(f"not an action: {text!r}") from None
    if verb in ("", "discard"):
        return Action(DISCARD + card)
    if verb == "knock":
        return Action(KNOCK + card)
    raise IllegalActionError(f"not an action: {text!r}")
