"""Hand analysis on the C core: melds, least deadwood, discards, lay-offs.

Every function takes cards in any form :func:`rummykit.to_mask` accepts and
the rules keywords ``aces`` (``"low"``: A-2-3 is a run, Q-K-A is not;
``"high"``: the reverse; ``"both"``: either, never K-A-2) and ``values``
(card values per rank, default A=1, 2-9 face value, T-K=10).

>>> deadwood("2S 3S 4S 6H 6D 6C TH JH QH 9C")
9
>>> best_discard("7S 8S 9S KC KD KH KS 2H 3C 4D 5S")
Discard(card=Card('5S'), deadwood=9)
>>> print(best_melds("AS 2S 3S 7H 7D 7C 9S TS JS KD"))
[7C 7D 7H] [AS 2S 3S] [9S TS JS] KD (deadwood 10)
"""

from __future__ import annotations

import numbers
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple

from rummykit import _core
from rummykit._rules import Values, core_rules
from rummykit.cards import DECK_MASK, Card, CardsLike, deck_card, from_mask, to_mask
from rummykit.errors import InvalidCardError, InvalidMeldError, InvalidOptionError, clip

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = [
    "ARRANGEMENTS_LIMIT",
    "Arrangement",
    "Discard",
    "KnockChoice",
    "Layoff",
    "LayoffResult",
    "MAX_ARRANGEMENTS_LIMIT",
    "Meld",
    "arrangements",
    "as_meld",
    "best_discard",
    "best_discard_batch",
    "best_melds",
    "choose_knock",
    "deadwood",
    "deadwood_batch",
    "discard_deadwoods",
    "layoff",
    "melds",
]


@dataclass(frozen=True, slots=True)
class Meld:
    """A valid set or run.  ``cards`` are in rank order for runs (an ace
    after the king in Q-K-A) and in suit order for sets."""

    mask: int
    kind: str  # "set" or "run"

    @property
    def cards(self) -> tuple[Card, ...]:
        cards = from_mask(self.mask)
        if self.kind == "run" and cards[0].rank == 0 and cards[-1].rank == 12:
            cards = cards[1:] + cards[:1]  # Q-K-A: the ace ranks high
        return tuple(cards)

    def __iter__(self):  # type: ignore[no-untyped-def]
        return iter(self.cards)

    def __len__(self) -> int:
        return self.mask.bit_count()

    def __contains__(self, card: object) -> bool:
        return isinstance(card, int) and 0 <= card < 52 and bool(self.mask >> card & 1)

    def __str__(self) -> str:
        return " ".join(map(str, self.cards))

    def __repr__(self) -> str:
        return f"Meld('{self}')"


@dataclass(frozen=True, slots=True)
class Arrangement:
    """Disjoint melds of a hand and the deadwood left over."""

    melds: tuple[Meld, ...]
    deadwood_cards: tuple[Card, ...]
    deadwood: int

    def __str__(self) -> str:
        parts = [f"[{m}]" for m in self.melds] + [str(c) for c in self.deadwood_cards]
        return " ".join(parts + [f"(deadwood {self.deadwood})"])


class Discard(NamedTuple):
    """The best discard and the deadwood left after it."""

    card: Card
    deadwood: int


@dataclass(frozen=True, slots=True)
class Layoff:
    """Cards a defender lays off on one of the knocker's melds."""

    meld: Meld
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class LayoffResult:
    """A defender's best reply to a knock: lay-offs, then their own melds."""

    deadwood: int
    layoffs: tuple[Layoff, ...]
    melds: tuple[Meld, ...]
    deadwood_cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class KnockChoice:
    """The knocker's arrangement and the known defender's best reply to it."""

    arrangement: Arrangement
    defender: LayoffResult
    margin: int  # defender deadwood - knocker deadwood
    candidates: int  # legal arrangements compared


def _meld(rules: _core.Rules, mask: int) -> Meld:
    return Meld(mask, "set" if _core.meld_kind(rules, mask) == _core.MELD_SET else "run")


def _arrangement(rules: _core.Rules, raw: tuple[tuple[int, ...], int, int]) -> Arrangement:
    meld_masks, dead_mask, dw = raw
    return Arrangement(tuple(_meld(rules, m) for m in meld_masks), tuple(from_mask(dead_mask)), dw)


def _mask(cards: CardsLike) -> int:
    return cards if type(cards) is int and 0 <= cards <= DECK_MASK else to_mask(cards)


#: the largest deadwood bound or knock limit (a C int); larger ones mean nothing more
MAX_BOUND = 2**31 - 1


def deadwood(cards: CardsLike, *, aces: str = "low", values: Values = None) -> int:
    """Least deadwood of a hand of any size (0..52 cards).

    >>> deadwood("AC 2C 3C 4H 4D 4S 7D 8D 9D TD")
    0
    >>> deadwood("QS KS AS"), deadwood("QS KS AS", aces="high")
    (21, 0)
    """
    return _core.deadwood(
        core_rules(aces, values), cards if type(cards) is int and 0 <= cards <= DECK_MASK else to_mask(cards)
    )


def best_melds(cards: CardsLike, *, aces: str = "low", values: Values = None) -> Arrangement:
    """One arrangement with the least deadwood.

    Ties are broken in a fixed order: ranks from the ace up, preferring a
    set to a run and either to deadwood at each rank.
    """
    rules = core_rules(aces, values)
    return _arrangement(rules, _core.best_arrangement(rules, _mask(cards)))


def _count(name: str, value: object) -> int:
    """An int option 0..MAX_BOUND (numpy integers too), or InvalidOptionError naming it."""
    if isinstance(value, numbers.Integral) and not isinstance(value, bool) and 0 <= int(value) <= MAX_BOUND:
        return int(value)
    raise InvalidOptionError(f"{name} must be an int 0..{MAX_BOUND}, got {clip(value)}")


def _flag(name: str, value: object) -> bool:
    """A yes/no option: a bool (a numpy bool too), or InvalidOptionError naming it."""
    if isinstance(value, bool):
        return value
    if type(value).__name__ == "bool" and getattr(value, "shape", None) == ():  # numpy.bool
        return bool(value)
    raise InvalidOptionError(f"{name} must be True or False, got {clip(value)}")


#: the default and the largest ``limit`` of :func:`arrangements` (each result becomes Python
#: objects at about 50 microseconds apiece: 100,000 of them take about 5 s)
ARRANGEMENTS_LIMIT = 10_000
MAX_ARRANGEMENTS_LIMIT = 100_000


def arrangements(
    cards: CardsLike,
    *,
    max_deadwood: int | None = None,
    aces: str = "low",
    values: Values = None,
    limit: int = ARRANGEMENTS_LIMIT,
) -> list[Arrangement]:
    """Every arrangement with deadwood <= ``max_deadwood`` (default: every
    optimal one).  Runs that could be joined are always shown joined.

    Sorted by deadwood, then in the tie-break order of :func:`best_melds`.

    ``limit`` (1..100,000, default 10,000) bounds the work: a hand with more
    arrangements than that raises :class:`InvalidOptionError` instead of listing
    them (the search stops there, within milliseconds).  A 10- or 11-card hand
    has a few dozen even at ``max_deadwood=100``; the whole deck has 313,457
    optimal ones, and 4,409,316 within deadwood 5.

    >>> for a in arrangements("7H 8H 9H 9C 9D", max_deadwood=18):
    ...     print(a)
    [9C 9D 9H] 7H 8H (deadwood 15)
    [7H 8H 9H] 9C 9D (deadwood 18)
    """
    rules = core_rules(aces, values)
    bound = -1 if max_deadwood is None else _count("max_deadwood", max_deadwood)
    if not (
        isinstance(limit, numbers.Integral) and not isinstance(limit, bool) and 1 <= limit <= MAX_ARRANGEMENTS_LIMIT
    ):
        raise InvalidOptionError(f"limit must be an int 1..{MAX_ARRANGEMENTS_LIMIT:,}, got {clip(limit)}")
    raw = _core.arrangements(rules, _mask(cards), bound, int(limit))
    if raw is None:
        which = "optimal arrangements" if max_deadwood is None else f"arrangements with deadwood <= {bound}"
        raise InvalidOptionError(
            f"more than {int(limit):,} {which} (limit={int(limit)}): "
            f"pass a lower max_deadwood or a higher limit (at most {MAX_ARRANGEMENTS_LIMIT:,})"
        )
    found = [_arrangement(rules, a) for a in raw]
    return sorted(found, key=lambda a: a.deadwood)


def melds(cards: CardsLike, *, aces: str = "low", values: Values = None) -> list[Meld]:
    """Every set and run contained in the hand (overlapping ones included).

    >>> melds("AS 2S 3S 4S")
    [Meld('AS 2S 3S'), Meld('AS 2S 3S 4S'), Meld('2S 3S 4S')]
    """
    rules = core_rules(aces, values)
    found = [_meld(rules, m) for m in _core.melds(rules, _mask(cards))]
    return sorted(found, key=lambda m: [int(c) for c in from_mask(m.mask)])


def as_meld(cards: CardsLike, *, aces: str = "low", values: Values = None) -> Meld:
    """The cards as a :class:`Meld`; :class:`InvalidMeldError` if they are not one."""
    if isinstance(cards, Meld):
        return cards
    rules = core_rules(aces, values)
    mask = to_mask(cards)
    kind = _core.meld_kind(rules, mask)
    if not kind:
        raise InvalidMeldError(f"not a valid set or run: '{' '.join(map(str, from_mask(mask)))}'")
    return Meld(mask, "set" if kind == _core.MELD_SET else "run")


def _card_or_none(card: str | int | None) -> int:
    if card is None:
        return -1
    return int(deck_card(card))


def best_discard(
    cards: CardsLike,
    *,
    forbidden: str | int | None = None,
    aces: str = "low",
    values: Values = None,
) -> Discard:
    """The discard leaving the least deadwood, in one pass over the hand.

    ``forbidden`` is a card that may not be discarded (the card just taken
    from the discard pile).  Ties go to the highest-valued card, then to the
    highest card id.
    """
    mask = _mask(cards)
    f = _card_or_none(forbidden)
    if f >= 0 and not mask >> f & 1:
        raise InvalidCardError(f"forbidden card {Card(f)} is not in the hand")
    if mask & ~(1 << f if f >= 0 else 0) == 0:
        raise InvalidCardError("no card to discard")
    card, dw = _core.best_discard(core_rules(aces, values), mask, f)
    return Discard(Card(card), dw)


def discard_deadwoods(cards: CardsLike, *, aces: str = "low", values: Values = None) -> dict[Card, int]:
    """For every card of the hand, the least deadwood left after discarding it.

    >>> discard_deadwoods("7S 8S 9S 5S")[Card("5S")]
    0
    """
    pairs = _core.deadwood_after_discards(core_rules(aces, values), _mask(cards))
    return {Card(c): dw for c, dw in pairs}


def _meld_masks(rules: _core.Rules, knocker_melds: object) -> list[Meld]:
    if isinstance(knocker_melds, Arrangement):
        return list(knocker_melds.melds)
    if isinstance(knocker_melds, (str, int)) or not isinstance(knocker_melds, Iterable):
        raise InvalidMeldError(f"knocker_melds must be a list of melds, got {clip(knocker_melds)}")
    if getattr(knocker_melds, "ndim", 1) == 0:  # a 0-d numpy array: iterable in name only
        raise InvalidMeldError(f"knocker_melds must be a list of melds, got {clip(knocker_melds)}")
    result: list[Meld] = []
    seen = 0
    for item in knocker_melds:
        meld = item if isinstance(item, Meld) else _meld_of(rules, to_mask(item))
        if meld.mask & seen:
            raise InvalidMeldError(f"melds overlap: '{meld}' shares a card with another meld")
        seen |= meld.mask
        result.append(meld)
    return result


def _meld_of(rules: _core.Rules, mask: int) -> Meld:
    kind = _core.meld_kind(rules, mask)
    if not kind:
        raise InvalidMeldError(f"not a valid set or run: '{' '.join(map(str, from_mask(mask)))}'")
    return Meld(mask, "set" if kind == _core.MELD_SET else "run")


def _layoff_result(rules: _core.Rules, shown: list[Meld], raw: tuple) -> LayoffResult:  # type: ignore[type-arg]
    dw, laid, rest = raw
    arrangement = _arrangement(rules, rest)
    layoffs = tuple(Layoff(m, tuple(from_mask(c))) for m, c in zip(shown, laid) if c)
    return LayoffResult(dw, layoffs, arrangement.melds, arrangement.deadwood_cards)


def layoff(
    knocker_melds: Arrangement | Iterable[object],
    defender_cards: CardsLike,
    *,
    aces: str = "low",
    values: Values = None,
) -> LayoffResult:
    """The defender's least final deadwood after laying off on the knocker's
    melds (a 3-set takes its 4th card; runs grow at either end, chained) and
    melding the rest.  Among equal results, the fewest cards are laid off.

    >>> r = layoff(["7H 8H 9H TH", "QC QD QS"], "9C TC JC 5S 5D 5C JH 6H 4C 4D")
    >>> r.deadwood, [str(lo.cards[0]) for lo in r.layoffs], len(r.layoffs[0].cards)
    (8, ['6H'], 2)
    """
    rules = core_rules(aces, values)
    shown = _meld_masks(rules, knocker_melds)
    defender = to_mask(defender_cards)
    shared = defender & sum(m.mask for m in shown)
    if shared:
        raise InvalidMeldError(f"card {from_mask(shared)[0]} is both in a meld and in the defender's hand")
    return _layoff_result(rules, shown, _core.layoff(rules, [m.mask for m in shown], defender))


def choose_knock(
    knocker_cards: CardsLike,
    defender_cards: CardsLike,
    *,
    limit: int = 10,
    min_deadwood_only: bool = False,
    allow_layoffs: bool = True,
    aces: str = "low",
    values: Values = None,
) -> KnockChoice:
    """The knocker's best arrangement against a known defender.

    Among the arrangements of the knocker's (final, post-discard) cards with
    deadwood <= ``limit`` (only the least-deadwood ones if
    ``min_deadwood_only``, the rule of docs/rules.md, D26), the one leaving the
    defender the largest margin (defender deadwood - knocker deadwood) after
    their best lay-offs.  Showing more deadwood can pay: it may deny lay-offs.
    A hand that can go gin always goes gin.  Raises ``InvalidMeldError`` if
    no arrangement is within the limit.
    """
    rules = core_rules(aces, values)
    knocker, defender = to_mask(knocker_cards), to_mask(defender_cards)
    if knocker & defender:
        raise InvalidCardError(f"card {from_mask(knocker & defender)[0]} is in both hands")
    flags = (_core.KNOCK_MIN_DEADWOOD_ONLY if _flag("min_deadwood_only", min_deadwood_only) else 0) | (
        0 if _flag("allow_layoffs", allow_layoffs) else _core.KNOCK_NO_LAYOFFS
    )
    try:
        arr, reply, margin, candidates = _core.choose_knock(rules, knocker, defender, _count("limit", limit), flags)
    except _core.NoKnockError:
        raise InvalidMeldError(
            f"no arrangement within the knock limit {limit}: least deadwood is {_core.deadwood(rules, knocker)}"
        ) from None
    arrangement = _arrangement(rules, arr)
    return KnockChoice(arrangement, _layoff_result(rules, list(arrangement.melds), reply), margin, candidates)


def deadwood_batch(
    masks: npt.ArrayLike, *, aces: str = "low", values: Values = None
) -> np.ndarray[Any, np.dtype[np.int16]]:
    """Least deadwood of each mask of a 1-D integer array (int16 result).
    The GIL is released while the C loop runs."""
    return _core.deadwood_batch(core_rules(aces, values), masks)


def best_discard_batch(
    masks: npt.ArrayLike, *, aces: str = "low", values: Values = None
) -> tuple[np.ndarray[Any, np.dtype[np.int16]], np.ndarray[Any, np.dtype[np.int8]]]:
    """The best discard of each mask: (int16 deadwood, int8 card id; -1 for
    an empty hand).  The GIL is released while the C loop runs."""
    return _core.best_discard_batch(core_rules(aces, values), masks)
