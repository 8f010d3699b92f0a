"""Cards, card text and the public bit-mask layout.

A card id is ``suit * 13 + rank`` and a hand is the mask with bit ``1 << id``
set for each card:

====  ======  ==========================================
suit  ids     A  2  3  4  5  6  7  8  9  T  J  Q  K
====  ======  ==========================================
C     0-12    0  1  2  3  4  5  6  7  8  9  10 11 12
D     13-25   13 14 15 16 17 18 19 20 21 22 23 24 25
H     26-38   26 27 28 29 30 31 32 33 34 35 36 37 38
S     39-51   39 40 41 42 43 44 45 46 47 48 49 50 51
====  ======  ==========================================

Card text is a rank (``A 2 3 4 5 6 7 8 9 T J Q K``, also ``10``) followed by
a suit (``C D H S`` or ``♣ ♦ ♥ ♠``), in any case.  A hand may be given as
text (``"AS 2S 3S"``, ``"As,2s,3s"``), an iterable of card text, ``Card``
objects or card ids, or an int mask.

>>> to_mask("AC 2C")
3
>>> from_mask(0b101)
[Card('AC'), Card('3C')]
>>> Card("10h"), Card("Q♠").id, str(Card(0))
(Card('TH'), 50, 'AC')
"""

from __future__ import annotations

import numbers
import re
from collections.abc import Iterable
from typing import Any, TypeGuard

from rummykit.errors import InvalidCardError, clip

__all__ = [
    "DECK_MASK",
    "NUM_CARDS",
    "RANKS",
    "SUITS",
    "JOKER",
    "JOKER_CARD",
    "Card",
    "CardsLike",
    "Joker",
    "cards_text",
    "deck_card",
    "from_mask",
    "parse_card",
    "parse_cards",
    "to_mask",
]

RANKS = "A23456789TJQK"
SUITS = "CDHS"
SUIT_SYMBOLS = "♣♦♥♠"
NUM_CARDS = 52
DECK_MASK = (1 << NUM_CARDS) - 1

_RANK_OF = {r: i for i, r in enumerate(RANKS)} | {"10": 9}
_SUIT_OF = {s: i for i, s in enumerate(SUITS)} | {s: i for i, s in enumerate(SUIT_SYMBOLS)}
_SUIT_OF |= {"♧": 0, "♢": 1, "♡": 2, "♤": 3}
_SEPARATORS = re.compile(r"[\s,]+")
# every exact spelling of every card, for one dict lookup per token
_TOKENS: dict[str, int] = {
    rank_text + suit_text: suit * 13 + rank
    for rank_text, rank in list(_RANK_OF.items()) + [(r.lower(), i) for r, i in _RANK_OF.items()]
    for suit_text, suit in list(_SUIT_OF.items()) + [(s.lower(), i) for s, i in _SUIT_OF.items()]
}


class Card(int):
    """One card of a 52-card deck: an int (its id) that prints as text.

    ``Card("7H")``, ``Card("7♥")`` and ``Card(32)`` are the same card.  ``Card("Jk")`` and
    ``Card(52)`` are the Kaluki joker, :data:`JOKER_CARD` (a :class:`Joker`: no rank, suit or
    52-card mask; the knock games and the 52-card hand analysis refuse it).
    """

    __slots__ = ()

    def __new__(cls, card: int | str) -> Card:
        if isinstance(card, str):
            if len(card) < 16 and card.strip().lower() in JOKER_WORDS:
                return JOKER_CARD
            return parse_card(card)
        if _is_int(card) and 0 <= card <= JOKER:
            return _CARDS[int(card)] if card < NUM_CARDS else JOKER_CARD
        raise InvalidCardError(f"a card is card text or a card id 0..51 (52: the Kaluki joker), got {clip(card)}")

    @property
    def id(self) -> int:
        """The card id, ``suit * 13 + rank``."""
        return int(self)

    @property
    def rank(self) -> int:
        """0 for an ace up to 12 for a king."""
        return int(self) % 13

    @property
    def suit(self) -> int:
        """0 clubs, 1 diamonds, 2 hearts, 3 spades."""
        return int(self) // 13

    @property
    def mask(self) -> int:
        """The card's bit."""
        return 1 << int(self)

    @property
    def symbol(self) -> str:
        """Text with a suit symbol, e.g. ``7♥``."""
        return RANKS[self.rank] + SUIT_SYMBOLS[self.suit]

    def __str__(self) -> str:
        return RANKS[self.rank] + SUITS[self.suit]

    def __repr__(self) -> str:
        return f"Card('{self}')"


_CARDS = tuple(int.__new__(Card, i) for i in range(NUM_CARDS))

#: the joker's card id (Kaluki; its type in the two-deck card model, rummykit.table.cards)
JOKER = 52
#: the ways to type a joker (any case)
JOKER_WORDS = ("jk", "joker", "jo")


class Joker(Card):
    """The joker of Kaluki as a card value: the int 52, text ``Jk``.
    There is one, :data:`JOKER_CARD` (``Joker()`` and ``Card("Jk")`` return it)."""

    __slots__ = ()

    def __new__(cls, card: int | str = JOKER) -> Joker:
        if card != JOKER and not (isinstance(card, str) and len(card) < 16 and card.strip().lower() in JOKER_WORDS):
            raise InvalidCardError(f"a joker is the type {JOKER} or 'Jk', got {clip(card)}")
        return JOKER_CARD

    def _none(self, what: str) -> InvalidCardError:
        return InvalidCardError(f"a joker has no {what}")

    @property
    def rank(self) -> int:
        raise self._none("rank")

    @property
    def suit(self) -> int:
        raise self._none("suit")

    @property
    def mask(self) -> int:
        raise self._none("bit in a 52-card mask")

    @property
    def symbol(self) -> str:
        return "Jk"

    def __str__(self) -> str:
        return "Jk"

    def __repr__(self) -> str:
        return "Joker()"

    def __reduce__(self) -> tuple[type[Joker], tuple[()]]:
        return (Joker, ())


#: the joker (``Joker()``, ``Card("Jk")``, ``Card(52)``)
JOKER_CARD: Joker = int.__new__(Joker, JOKER)


def deck_card(card: object) -> Card:
    """A card of the 52-card deck given as text, a card id 0..51 or a :class:`Card`; the joker
    and anything else raise :class:`InvalidCardError` (the knock games, the hand analysis)."""
    if isinstance(card, str) or _is_int(card):
        found = Card(card)
        if found is not JOKER_CARD:
            return found
        raise InvalidCardError("the joker (Jk) is a Kaluki card, not one of the 52-card deck")
    raise InvalidCardError(f"not a card: {clip(card)} (expected card text or a card id 0..51)")


def _is_int(value: object) -> TypeGuard[int]:
    """An int or a numpy integer (typed as an int), not a bool."""
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)


CardsLike = str | int | Card | Iterable[str | int | Card]


def parse_card(text: str) -> Card:
    """Parse one card token such as ``"7H"``, ``"10s"`` or ``"q♠"``."""
    if not isinstance(text, str):
        raise InvalidCardError(f"card text must be a string, got {type(text).__name__}: {clip(text)}")
    card = _TOKENS.get(text)
    if card is not None:
        return _CARDS[card]
    token = text.strip() if len(text) < 64 else ""
    rank, suit = token[:-1].upper(), token[-1:].upper()
    if rank in _RANK_OF and suit in _SUIT_OF:
        return _CARDS[_SUIT_OF[suit] * 13 + _RANK_OF[rank]]
    raise InvalidCardError(f"not a card: {clip(text)} (expected a rank A23456789TJQK and a suit CDHS)")


def parse_cards(text: str) -> list[Card]:
    """Parse card text separated by spaces and/or commas, rejecting duplicates."""
    if not isinstance(text, str):
        raise InvalidCardError(f"card text must be a string, got {type(text).__name__}: {clip(text)}")
    cards = [parse_card(t) for t in _SEPARATORS.split(text.strip()) if t]
    _reject_duplicates(cards)
    return cards


def _reject_duplicates(cards: list[Card]) -> None:
    if len(set(cards)) != len(cards):
        seen: set[int] = set()
        for c in cards:
            if c in seen:
                raise InvalidCardError(f"duplicate card: {c}")
            seen.add(c)


def _as_card(item: object) -> Card:
    if isinstance(item, str):
        return parse_card(item)
    return deck_card(item)


def _mask_bits(cards: int) -> int:
    if cards < 0 or cards & ~DECK_MASK:
        raise InvalidCardError(f"mask {clip(cards)} has bits outside the 52-card deck (0 <= mask < 2**52)")
    return cards


def to_mask(cards: CardsLike) -> int:
    """The mask of a hand given in any accepted form (see the module docstring)."""
    if isinstance(cards, int) and not isinstance(cards, (bool, Card)):
        return _mask_bits(cards)
    if isinstance(cards, Card):
        return cards.mask
    if isinstance(cards, str):
        return _text_mask(cards)
    if _is_int(cards) and getattr(cards, "ndim", 0) == 0:  # a numpy integer: a mask
        return _mask_bits(int(cards))
    if isinstance(cards, Iterable) and not isinstance(cards, (bytes, bytearray)) and getattr(cards, "ndim", 1) != 0:
        try:
            items = [_as_card(c) for c in cards]
        except TypeError:  # an iterable that fails to iterate
            raise InvalidCardError(f"not cards: {clip(cards)}") from None
        _reject_duplicates(items)
    else:
        raise InvalidCardError(
            f"cards must be card text, an iterable of cards or an int mask, got {type(cards).__name__}: {clip(cards)}"
        )
    mask = 0
    for c in items:
        mask |= 1 << c
    return mask


def _text_mask(text: str) -> int:
    mask = 0
    for token in _SEPARATORS.split(text) if "," in text else text.split():
        card = _TOKENS.get(token)
        if card is None:
            if not token:
                continue
            card = parse_card(token)
        bit = 1 << card
        if mask & bit:
            raise InvalidCardError(f"duplicate card: {_CARDS[card]}")
        mask |= bit
    return mask


def mask_ids(mask: int) -> list[int]:
    """The card ids of a mask, ascending (unchecked: for masks the engine made)."""
    ids = []
    while mask:
        low = mask & -mask
        ids.append(low.bit_length() - 1)
        mask ^= low
    return ids


def ids_mask(cards: Iterable[Any]) -> int:
    """The mask of card ids (unchecked: for ids the engine made)."""
    mask = 0
    for c in cards:
        mask |= 1 << int(c)
    return mask


def from_mask(mask: int) -> list[Card]:
    """The cards of a mask, in card-id order."""
    if not _is_int(mask) or not 0 <= mask <= DECK_MASK:
        raise InvalidCardError(f"not a 52-card mask (an int 0 <= mask < 2**52): {clip(mask)}")
    mask = int(mask)
    cards = []
    while mask:
        low = mask & -mask
        cards.append(_CARDS[low.bit_length() - 1])
        mask ^= low
    return cards


def cards_text(cards: CardsLike) -> str:
    """Space-separated text of a hand, in card-id order (Kaluki jokers, id 52 or ``Jk``, last).

    >>> cards_text([52, "7h", 0])
    'AC 7H Jk'
    """
    jokers = 0
    if isinstance(cards, Iterable) and not isinstance(cards, (str, bytes)) and getattr(cards, "ndim", 1) != 0:
        items = list(cards)  # not text, nor a 0-d array (a mask)
        rest = [c for c in items if not _is_joker(c)]
        jokers = len(items) - len(rest)
        cards = rest
    return " ".join([*(str(c) for c in from_mask(to_mask(cards))), *["Jk"] * jokers])


def _is_joker(item: object) -> bool:
    if isinstance(item, str):
        return len(item) < 16 and item.strip().lower() in JOKER_WORDS
    return _is_int(item) and item == JOKER
