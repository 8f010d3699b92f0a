"""Physical cards of the table games and their text.

A card **type** is a card id of :mod:`rummykit.cards` (0..51, ``suit * 13 +
rank``) or ``JOKER = 52``; the rules only ever look at types, since the two
copies of a card are the same card for the rules.  A **physical** card id
tells the copies apart so that the engine can say where each card is:

==========  ==================================  ==========
physical    card                                type
==========  ==================================  ==========
0-51        deck 0 (the only deck in Rummy)     = id
52-103      deck 1 (Kaluki)                     id - 52
104-107     jokers (two, or four)               52
==========  ==================================  ==========

A hand is an int mask over physical ids.  Card text is the text of
:mod:`rummykit.cards` plus ``Jk`` for a joker; in a meld ``Jk=AS`` names the
card a joker stands for.

As values (``state.hand(seat)``, ``state.top_discard``) a type is a
:class:`~rummykit.cards.Card` (an int, its type: the two copies of a card
are equal) and a joker the :data:`JOKER_CARD`, the one :class:`Joker`: a
``Card`` subclass, the int 52, text ``Jk``, with no rank, suit or mask
(those raise; a joker is in no 52-card mask, so ``to_mask`` refuses it).

>>> parse_types("QS KS Jk")
[50, 51, 52]
>>> type_text(52), type_text(0)
('Jk', 'AC')
>>> type_counts(1 << 0 | 1 << 52 | 1 << 104)[:1], joker_count(1 << 104 | 1 << 105)
([2], 2)
"""

from __future__ import annotations

import numbers
import re
from collections.abc import Iterable

from rummykit.cards import JOKER, JOKER_CARD, JOKER_WORDS, Card, Joker, parse_card
from rummykit.errors import InvalidCardError, clip

__all__ = [
    "FIRST_JOKER",
    "JOKER",
    "JOKER_CARD",
    "Joker",
    "TYPE_MASK",
    "card_type",
    "joker_count",
    "parse_types",
    "physical_copy",
    "present_types",
    "type_card",
    "type_counts",
    "type_text",
    "types_in",
    "types_of",
]

FIRST_JOKER = 104
TYPE_MASK = (1 << 52) - 1
_SEPARATORS = re.compile(r"[\s,]+")


def type_card(t: int) -> Card:
    """A type (0..51, or JOKER) as a card value: its :class:`Card`, or :data:`JOKER_CARD`."""
    return JOKER_CARD if t == JOKER else Card(t)


def card_type(physical: int) -> int:
    """The type (0..51, or JOKER) of a physical card id."""
    return JOKER if physical >= FIRST_JOKER else physical % 52


_TYPE_TEXTS = (*(str(Card(t)) for t in range(JOKER)), "Jk")


def type_text(t: int) -> str:
    if type(t) is int and 0 <= t <= JOKER:
        return _TYPE_TEXTS[t]
    return "Jk" if t == JOKER else str(Card(t))


def parse_type(token: str) -> int:
    """One card token (``7H``, ``10s``, ``Jk``) as a type."""
    if not isinstance(token, str):
        raise InvalidCardError(f"card text must be a string, got {type(token).__name__}: {clip(token)}")
    if len(token) < 16 and token.strip().lower() in JOKER_WORDS:
        return JOKER
    return int(parse_card(token))


def parse_types(cards: str | Iterable[str | int]) -> list[int]:
    """Card text or an iterable of tokens / type ids as a list of types
    (duplicates allowed: two decks)."""
    if isinstance(cards, str):
        return [parse_type(t) for t in _SEPARATORS.split(cards.strip()) if t]
    if not isinstance(cards, Iterable) or isinstance(cards, (bytes, bytearray)) or getattr(cards, "ndim", 1) == 0:
        raise InvalidCardError(f"cards must be card text or a list of cards, got {type(cards).__name__}: {clip(cards)}")
    out = []
    for c in cards:
        if isinstance(c, str):
            out.append(parse_type(c))
        elif isinstance(c, numbers.Integral) and not isinstance(c, bool) and 0 <= c <= JOKER:
            out.append(int(c))
        else:
            raise InvalidCardError(f"not a card: {clip(c)} (expected card text or a type 0..{JOKER}, {JOKER} a joker)")
    return out


def present_types(mask: int) -> int:
    """The 52-bit mask of natural types with at least one copy in ``mask``."""
    return (mask | mask >> 52) & TYPE_MASK


def joker_count(mask: int) -> int:
    return (mask >> FIRST_JOKER).bit_count()


def type_counts(mask: int) -> list[int]:
    """53 counts: copies of each natural type, then the jokers."""
    low, high = mask & TYPE_MASK, mask >> 52 & TYPE_MASK
    return [(low >> t & 1) + (high >> t & 1) for t in range(52)] + [joker_count(mask)]


_ROWS: list[tuple[int, ...] | None] = [None] * (4 << 13)  # types_in's table: suit << 13 | ranks -> types


def _row(key: int) -> tuple[int, ...]:
    suit, row = divmod(key, 1 << 13)
    found = _ROWS[key] = tuple(suit * 13 + r for r in range(13) if row >> r & 1)
    return found


def types_in(present: int) -> list[int]:
    """The types in a 52-bit mask of natural types, ascending (a suit's
    13 bits at a time, from a table filled on first use: the legal-move
    search lists the discards at every step).

    >>> types_in(1 << 0 | 1 << 12 | 1 << 51)
    [0, 12, 51]
    """
    k0, k1, k2, k3 = (
        present & 0x1FFF,
        1 << 13 | present >> 13 & 0x1FFF,
        2 << 13 | present >> 26 & 0x1FFF,
        3 << 13 | present >> 39 & 0x1FFF,
    )
    r0, r1, r2, r3 = _ROWS[k0], _ROWS[k1], _ROWS[k2], _ROWS[k3]
    if r0 is None or r1 is None or r2 is None or r3 is None:
        r0, r1, r2, r3 = _row(k0), _row(k1), _row(k2), _row(k3)
    return [*r0, *r1, *r2, *r3]


def types_of(mask: int) -> list[int]:
    """The types of the physical cards in ``mask``, sorted."""
    low, high = mask & TYPE_MASK, mask >> 52 & TYPE_MASK
    out = []
    for t in range(52):
        out.extend([t] * ((low >> t & 1) + (high >> t & 1)))
    return out + [JOKER] * joker_count(mask)


def physical_copy(mask: int, t: int) -> int:
    """The physical id the engine uses for type ``t`` from ``mask`` (the
    lowest one), or -1 if there is none."""
    if t == JOKER:
        jokers = mask >> FIRST_JOKER
        return FIRST_JOKER + (jokers & -jokers).bit_length() - 1 if jokers else -1
    if mask >> t & 1:
        return t
    return t + 52 if mask >> (t + 52) & 1 else -1
