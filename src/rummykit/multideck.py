"""Two-deck hands with jokers (Kaluki): the best melds, the least penalty,
openings.

A *card type* is a single-deck card id ``suit * 13 + rank`` (0..51, see
:mod:`rummykit.cards`) or :data:`JOKER` (52).  A hand holds at most two
copies of each natural type and at most four jokers; it is given as text
(``"QS KS Jk 5H 5H"``; a joker is ``Jk``, ``JK``, ``Joker`` or ``🃏``) or as
an iterable of types, card text or :class:`~rummykit.cards.Card` objects.

Melds follow docs/rules.md, Melds, Kaluki: a set is 3 or 4 cards of one rank
with natural cards of distinct suits (two copies of one card never share a
set), jokers standing for the missing suits; a run is 3 to 13 cards of one
suit in rank order, aces high only (``Q-K-A``, never ``A-2-3``) unless
``ace_low_runs`` (then both, never ``K-A-2``); a joker in a run stands for one
definite card.  Every meld holds at least one natural card.  Values: A 11,
2-9 face value, T-K 10; in a meld a joker counts as the card it stands for
and a low ace (``A-2-3``) counts 1; a joker left in hand costs
``joker_penalty`` (15; 25 is the rules option).

The analysis is exact (a branch-and-bound search in the C core) and meant
for hands of up to about 20 cards; a 14-card hand takes a few microseconds.

>>> print(multi_best_melds("QS KS Jk 3H 3D 3C 7D", objective="value"))
[3C 3D 3H] [QS KS Jk=AS] 7D (value 40, penalty 7)
>>> multi_opening("TS JS QS 3H 3D 3C") is None  # 39 < 40
True
>>> multi_opening("9S 9D JC QC KC 2D", include="9H") is None  # 9H is not in the hand
Traceback (most recent call last):
...
rummykit.errors.InvalidOptionError: include: 9H is not in the hand
"""

from __future__ import annotations

import numbers
import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rummykit import _core
from rummykit.cards import NUM_CARDS, Card, parse_card
from rummykit.errors import InvalidCardError, InvalidOptionError, clip

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = [
    "JOKER",
    "MultiArrangement",
    "MultiMeld",
    "multi_best_melds",
    "multi_opening",
    "multi_penalty_batch",
    "parse_multi",
]

#: The joker's card type.
JOKER: int = 52
MAX_JOKERS = 4
OBJECTIVES = ("penalty", "value")

_JOKER_TEXT = frozenset({"jk", "joker", "jo", "🃏"})
_SEPARATORS = re.compile(r"[\s,]+")

MultiCardsLike = str | Iterable[str | int | Card]


def _type_text(t: int) -> str:
    return "Jk" if t == JOKER else str(Card(t))


def _parse_type(item: object) -> int:
    if isinstance(item, str):
        return JOKER if item.strip().lower() in _JOKER_TEXT else int(parse_card(item))
    if isinstance(item, numbers.Integral) and not isinstance(item, bool) and 0 <= int(item) <= JOKER:
        return int(item)
    raise InvalidCardError(f"not a card type (0..52 or card text): {clip(item)}")


def parse_multi(cards: MultiCardsLike) -> list[int]:
    """The sorted card types of a two-deck hand with jokers.

    Raises :class:`~rummykit.errors.InvalidCardError` for bad text, a natural
    card held more than twice or more than four jokers.

    >>> parse_multi("QS KS Jk 5H 5H")
    [30, 30, 50, 51, 52]
    >>> parse_multi([52, "ac", 0])
    [0, 0, 52]
    """
    if isinstance(cards, str):
        items: list[Any] = [t for t in _SEPARATORS.split(cards.strip()) if t]
    else:
        try:  # a 0-d numpy array is Iterable but iterating it raises TypeError
            if isinstance(cards, bytes):
                raise TypeError
            items = list(cards)
        except TypeError:
            raise InvalidCardError(f"not cards (card text or a list of cards): {clip(cards)}") from None
    types = sorted(_parse_type(item) for item in items)
    for t, n in Counter(types).items():
        if t == JOKER and n > MAX_JOKERS:
            raise InvalidCardError(f"{n} jokers: a hand holds at most {MAX_JOKERS}")
        if t != JOKER and n > 2:
            raise InvalidCardError(f"{n} copies of {_type_text(t)}: two decks hold two")
    return types


@dataclass(frozen=True)
class MultiMeld:
    """A set or run of a two-deck hand.  ``cards`` are in meld order (a run
    from low to high, a set's natural cards by suit, then its jokers), with
    :data:`JOKER` where a joker stands; ``represents`` gives, per position,
    the natural type it stands for (a set joker: its rank in the lowest
    missing suit); ``value`` is the opening value."""

    kind: str  # "set" or "run"
    cards: tuple[int, ...]
    represents: tuple[int, ...]
    value: int

    def __str__(self) -> str:
        parts = []
        for card, rep in zip(self.cards, self.represents):
            if card == JOKER and self.kind == "run":
                parts.append(f"Jk={_type_text(rep)}")
            else:
                parts.append(_type_text(card))
        return " ".join(parts)


@dataclass(frozen=True)
class MultiArrangement:
    """Disjoint melds of a hand, their total value and what is left."""

    melds: tuple[MultiMeld, ...]
    value: int  # sum of the melds' values
    penalty: int  # cost of the cards left in hand
    left: tuple[int, ...]  # card types left in hand, sorted

    def __str__(self) -> str:
        parts = [f"[{m}]" for m in self.melds] + [_type_text(t) for t in self.left]
        return " ".join(parts + [f"(value {self.value}, penalty {self.penalty})"])


def _hand_masks(types: list[int]) -> tuple[int, int, int]:
    one = two = jokers = 0
    for t in types:
        if t == JOKER:
            jokers += 1
        elif one >> t & 1:
            two |= 1 << t
        else:
            one |= 1 << t
    return one, two, jokers


def _types_of(one: int, two: int, jokers: int) -> tuple[int, ...]:
    out = []
    for t in range(NUM_CARDS):
        out.extend([t] * ((one >> t & 1) + (two >> t & 1)))
    return tuple(out + [JOKER] * jokers)


def _check_rules(ace_low_runs: bool, joker_penalty: int) -> None:
    if not isinstance(ace_low_runs, bool):
        raise InvalidOptionError(f"ace_low_runs must be True or False, got {clip(ace_low_runs)}")
    if not isinstance(joker_penalty, int) or isinstance(joker_penalty, bool) or not 0 <= joker_penalty <= 255:
        raise InvalidOptionError(f"joker_penalty must be an integer 0..255, got {clip(joker_penalty)}")


def _include_type(include: int | str | None, types: list[int]) -> int:
    if include is None:
        return -1
    t = _parse_type(include)
    if t not in types:
        raise InvalidOptionError(f"include: {_type_text(t)} is not in the hand")
    return t


def multi_best_melds(
    hand: MultiCardsLike,
    *,
    objective: str = "penalty",
    include: int | str | None = None,
    ace_low_runs: bool = False,
    joker_penalty: int = 15,
) -> MultiArrangement | None:
    """The best collection of disjoint melds of a two-deck hand with jokers,
    jokers placed optimally.

    ``objective="penalty"`` minimises the penalty of the cards left in hand
    (ties: the larger meld value); ``"value"`` maximises the melds' opening
    value (ties: the smaller penalty).  ``include`` (a card type or text,
    ``"Jk"`` for any joker) must be in the hand, and at least one copy of it
    must then be melded: the result is ``None`` when it cannot be.  Among
    equally good arrangements the first in the C search order is returned
    (lowest card first; at each card, melds before leaving it in hand), so
    the choice is deterministic.

    >>> a = multi_best_melds("5H 6H 7H 5H 6H 7H 5C Jk KD")
    >>> print(a)
    [5H 6H 7H] [5H 6H 7H Jk=8H] 5C KD (value 44, penalty 15)
    >>> multi_best_melds("9H 8S 8D 2C", include="9H") is None
    True
    """
    if objective not in OBJECTIVES:
        raise InvalidOptionError(f"objective must be one of {OBJECTIVES}, got {clip(objective)}")
    _check_rules(ace_low_runs, joker_penalty)
    types = parse_multi(hand)
    inc = _include_type(include, types)
    one, two, jokers = _hand_masks(types)
    code = _core.MULTI_PENALTY if objective == "penalty" else _core.MULTI_VALUE
    raw = _core.multi_best(one, two, jokers, code, inc, ace_low_runs, joker_penalty)
    if raw is None:
        return None
    melds, value, penalty, left = raw
    return MultiArrangement(
        tuple(MultiMeld("set" if k == _core.MELD_SET else "run", c, r, v) for k, c, r, v in melds),
        value,
        penalty,
        _types_of(*left),
    )


def multi_opening(
    hand: MultiCardsLike,
    minimum: int = 40,
    *,
    include: int | str | None = None,
    ace_low_runs: bool = False,
    joker_penalty: int = 15,
) -> MultiArrangement | None:
    """The most valuable arrangement of the hand if it can open: its value is
    at least ``minimum`` (``initial_meld_min``, 40 or 51) and, when
    ``include`` is given (the discard a player who has not opened takes), a
    copy of it is melded; else ``None``.  The game layer still has to keep a
    card to discard (``go_out_requires_discard``).

    >>> print(multi_opening("9H 9S 9D JC QC KC 4D", include="9H"))
    [JC QC KC] [9D 9H 9S] 4D (value 57, penalty 4)
    >>> multi_opening("9H 9S 9D 2C 3C 4C", include="9H") is None  # 36 < 40
    True
    """
    if not isinstance(minimum, int) or isinstance(minimum, bool) or minimum < 0:
        raise InvalidOptionError(f"minimum must be a non-negative integer, got {clip(minimum)}")
    best = multi_best_melds(
        hand, objective="value", include=include, ace_low_runs=ace_low_runs, joker_penalty=joker_penalty
    )
    return best if best is not None and best.value >= minimum else None


def multi_penalty_batch(
    hands: npt.ArrayLike, *, ace_low_runs: bool = False, joker_penalty: int = 15
) -> np.ndarray[Any, np.dtype[np.int32]]:
    """The least penalty of each hand, given as an ``(n, 53)`` array of card
    counts (column 52: jokers); int32 array, computed without the GIL.

    >>> import numpy as np
    >>> hands = np.zeros((2, 53), dtype=np.uint8)
    >>> hands[0, [50, 51]] = 1; hands[0, JOKER] = 1  # QS KS Jk
    >>> hands[1, [6, 19]] = 1; hands[1, JOKER] = 1  # 7C 7D Jk
    >>> multi_penalty_batch(hands).tolist()
    [0, 0]
    """
    _check_rules(ace_low_runs, joker_penalty)
    return _core.multi_penalty_batch(hands, ace_low_runs, joker_penalty)
