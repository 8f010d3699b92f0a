"""Table melds of Rummy and Kaluki: run geometry, meld patterns, validity
with jokers, values, building (lay-offs) and joker release.

A **run** lives on a line of rank *positions*: its cards are at positions
``start .. start + length - 1`` (modulo 13 with ``allow_wraparound``), and
position ``p`` holds rank ``(p + shift) % 13`` of the run's suit:

==============================  =====  =====  ====  =========================
ace mode                        npos   shift  wrap  positions
==============================  =====  =====  ====  =========================
Rummy ``low``                   13     0      no    A 2 .. K
Rummy ``high``, Kaluki          13     1      no    2 3 .. K A
Rummy ``high_or_low``,          14     0      no    A 2 .. K A (one ace per
Kaluki ``ace_low_runs``                             run: at most 13 cards)
Rummy ``allow_wraparound``      13     0      yes   .. Q K A 2 ..
==============================  =====  =====  ====  =========================

A **set** is 3 or 4 cards of one rank, naturals of distinct suits, jokers
standing for missing suits, at least one natural.

A meld **pattern** says which card types a new meld uses: a set is (rank,
suits of its naturals, number of jokers); a run is (suit, start, length,
mask of the positions that are jokers).  The engine picks the physical
copies (:func:`rummykit.table.cards.physical_copy`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

from rummykit import _core
from rummykit._core import TABLE_RULE_FIELDS, TableSpec
from rummykit.errors import InvalidMeldError
from rummykit.table.cards import JOKER, card_type, parse_type, type_text
from rummykit.table.rules import TableRules

__all__ = ["SET", "RUN", "Geometry", "Pattern", "TableMeld", "geometry", "parse_meld", "table_spec"]

SET, RUN = 0, 1
MAX_RUN = 13


@dataclass(frozen=True)
class Geometry:
    """How runs and values work under one set of rules (see the module table)."""

    npos: int
    shift: int
    wrap: bool
    values: tuple[int, ...]  # hand value by type, 53 entries (joker last)
    low_ace_one: bool  # Kaluki ace_low_runs: the ace at position 0 (A-2-3) counts 1 in a meld

    def __reduce__(self) -> tuple[Any, tuple[int, int, bool, tuple[int, ...], bool]]:
        # unpickled geometries are interned too
        return _interned, (self.npos, self.shift, self.wrap, self.values, self.low_ace_one)

    def rank_at(self, p: int) -> int:
        return (p + self.shift) % 13

    def type_at(self, suit: int, p: int) -> int:
        return suit * 13 + (p + self.shift) % 13

    def positions(self, start: int, length: int) -> range | list[int]:
        if self.wrap:
            return [(start + i) % 13 for i in range(length)]
        return range(start, start + length)

    def fits(self, start: int, length: int) -> bool:
        if not 3 <= length <= MAX_RUN:
            return False
        return 0 <= start < 13 if self.wrap else 0 <= start and start + length <= self.npos

    def position_value(self, suit: int, p: int) -> int:
        if self.low_ace_one and p == 0:
            return 1
        return self.values[self.type_at(suit, p)]


_GEOMETRIES: dict[tuple[int, int, bool, tuple[int, ...], bool], Geometry] = {}


def geometry(rules: TableRules) -> Geometry:
    """The run geometry and card values of ``rules`` (one shared instance per
    geometry)."""
    if rules.is_kaluki:
        values = _core.KALUKI_VALUES
        key = (
            14 if rules.ace_low_runs else 13,
            0 if rules.ace_low_runs else 1,
            False,
            values * 4 + (rules.joker_penalty,),
            rules.ace_low_runs,
        )
    else:
        values = (rules.ace_value,) + tuple(range(2, 10)) + (10,) * 4
        npos, shift = {"low": (13, 0), "high": (13, 1), "high_or_low": (14, 0)}[rules.ace_rank]
        if rules.allow_wraparound:
            npos, shift = 13, 0
        key = (npos, shift, rules.allow_wraparound, values * 4 + (0,), False)
    return _interned(*key)


def table_spec(rules: TableRules, geo: Geometry) -> TableSpec:
    """The rules record of the C engine (rk_table_rules) for ``rules``."""
    derived = {
        "is_kaluki": rules.is_kaluki,
        "deck_size": rules.deck_size,
        "npos": geo.npos,
        "shift": geo.shift,
        "wrap": geo.wrap,
        "low_ace_one": geo.low_ace_one,
    }
    fields = {name: derived[name] if name in derived else getattr(rules, name) for name in TABLE_RULE_FIELDS}
    return TableSpec(geo.values, fields)


def _interned(npos: int, shift: int, wrap: bool, values: tuple[int, ...], low_ace_one: bool) -> Geometry:
    key = (npos, shift, wrap, values, low_ace_one)
    geo = _GEOMETRIES.get(key)
    if geo is None:
        geo = _GEOMETRIES[key] = Geometry(*key)
    return geo


class Pattern(NamedTuple):
    """A new meld over card types (see the module docstring)."""

    kind: int
    key: int  # set: rank; run: suit
    suits: int  # set: the naturals' suits (bit mask); run: the start position
    span: int  # set: jokers; run: length
    jokers: int  # run: mask of joker positions (bit i = position start + i); set: 0

    def types(self, geo: Geometry) -> list[int]:
        """The types the meld uses, jokers as JOKER."""
        if self.kind == SET:
            return [s * 13 + self.key for s in range(4) if self.suits >> s & 1] + [JOKER] * self.span
        return [
            JOKER if self.jokers >> i & 1 else geo.type_at(self.key, p)
            for i, p in enumerate(geo.positions(self.suits, self.span))
        ]

    def represents(self, geo: Geometry) -> list[int]:
        """The type each card stands for (a set joker: its rank in suit order of the missing suits)."""
        if self.kind == SET:
            missing = [s * 13 + self.key for s in range(4) if not self.suits >> s & 1]
            return [s * 13 + self.key for s in range(4) if self.suits >> s & 1] + missing[: self.span]
        return [geo.type_at(self.key, p) for p in geo.positions(self.suits, self.span)]

    def value(self, geo: Geometry) -> int:
        """The meld's count (Kaluki opening): each card at its represented value."""
        if self.kind == SET:
            return geo.values[self.key] * (self.suits.bit_count() + self.span)
        return sum(geo.position_value(self.key, p) for p in geo.positions(self.suits, self.span))

    def text(self, geo: Geometry) -> str:
        if self.kind == SET:
            return " ".join(type_text(t) for t in self.types(geo))
        return " ".join(
            f"Jk={type_text(geo.type_at(self.key, p))}" if self.jokers >> i & 1 else type_text(geo.type_at(self.key, p))
            for i, p in enumerate(geo.positions(self.suits, self.span))
        )


class TableMeld(NamedTuple):
    """A meld on the table: ``cards`` are physical ids (a run's in position
    order from ``start``; a set's in the order placed)."""

    kind: int
    key: int  # set: rank; run: suit
    start: int  # run: first position; set: 0
    cards: tuple[int, ...]
    owner: int

    def natural_suits(self) -> int:
        """A set's naturals' suits as a bit mask."""
        m = 0
        for c in self.cards:
            if c < 104:
                m |= 1 << (c % 52 // 13)
        return m

    def joker_count(self) -> int:
        return sum(1 for c in self.cards if c >= 104)

    def represents(self, geo: Geometry) -> list[int]:
        """The type each card stands for (set jokers: the missing suits in order)."""
        if self.kind == SET:
            naturals = self.natural_suits()
            missing = iter(s * 13 + self.key for s in range(4) if not naturals >> s & 1)
            return [card_type(c) if c < 104 else next(missing) for c in self.cards]
        return [geo.type_at(self.key, p) for p in geo.positions(self.start, len(self.cards))]

    def text(self, geo: Geometry) -> str:
        if self.kind == SET:
            return " ".join(type_text(card_type(c)) for c in self.cards)
        return " ".join(
            f"Jk={type_text(t)}" if c >= 104 else type_text(t) for c, t in zip(self.cards, self.represents(geo))
        )


def check_pattern(geo: Geometry, p: Pattern, max_jokers: int) -> None:
    """Raise InvalidMeldError unless ``p`` is a valid meld."""
    if p.kind == SET:
        n = p.suits.bit_count() + p.span
        if not 0 <= p.key < 13 or not 1 <= p.suits < 16 or not 3 <= n <= 4 or p.span > max_jokers:
            raise InvalidMeldError("a set is 3 or 4 cards of one rank, distinct suits, at least one natural")
        return
    if not 0 <= p.key < 4 or not geo.fits(p.suits, p.span):
        raise InvalidMeldError("a run is 3 to 13 consecutive cards of one suit (no wrap-around unless allowed)")
    if p.jokers >> p.span or p.jokers.bit_count() > max_jokers or p.jokers == (1 << p.span) - 1:
        raise InvalidMeldError("a run needs at least one natural card")


def parse_meld(geo: Geometry, text: str, max_jokers: int) -> Pattern:
    """Parse meld text (``"7H 8H 9H"``, ``"QS KS Jk=AS"``, ``"JH JD Jk"``)
    into a valid :class:`Pattern`; raise InvalidMeldError (or
    InvalidCardError for bad card text) otherwise.

    Bare jokers stand for unnamed missing suits, which only a set has
    (docs/rules.md, Kaluki: a run joker's identity is declared, compulsorily where
    it is ambiguous): ``"5H Jk Jk"`` is three fives (15), and the run is
    written ``"5H Jk=6H Jk=7H"`` (18).  A bare joker reads as a run card
    only where the run leaves it one place (``"QS Jk AS"``)."""
    naturals: list[int] = []
    named: list[int] = []  # identities of jokers given as Jk=XX
    bare = 0
    for token in text.split():
        head, eq, ident = token.partition("=")
        t = parse_type(head)
        if eq:
            if t != JOKER:
                raise InvalidMeldError(f"only a joker takes an identity: {token!r}")
            i = parse_type(ident)
            if i == JOKER:
                raise InvalidMeldError(f"a joker stands for a natural card: {token!r}")
            named.append(i)
        elif t == JOKER:
            bare += 1
        else:
            naturals.append(t)
    jokers = bare + len(named)
    if not naturals:
        raise InvalidMeldError(f"a meld needs at least one natural card: {text!r}")
    if jokers > max_jokers:
        raise InvalidMeldError(f"too many jokers for this game: {text!r}")
    ranks = {t % 13 for t in naturals + named}
    if len(ranks) == 1 and len(naturals) == len({t // 13 for t in naturals}):
        suits = sum(1 << (t // 13) for t in naturals)
        named_suits = [t // 13 for t in named]
        if len(set(named_suits)) != len(named_suits) or any(suits >> s & 1 for s in named_suits):
            raise InvalidMeldError(f"a set's jokers stand for missing suits: {text!r}")
        p = Pattern(SET, naturals[0] % 13, suits, jokers, 0)
        check_pattern(geo, p, max_jokers)
        return p
    return _parse_run(geo, naturals, named, bare, text, max_jokers)


def _parse_run(geo: Geometry, naturals: list[int], named: list[int], bare: int, text: str, max_jokers: int) -> Pattern:
    suits = {t // 13 for t in naturals + named}
    if len(suits) != 1:
        raise InvalidMeldError(f"not a set or run: {text!r}")
    suit = suits.pop()
    length = len(naturals) + len(named) + bare
    starts = range(13) if geo.wrap else range(geo.npos - length + 1)
    found: list[Pattern] = []
    for start in starts:
        if not geo.fits(start, length):
            continue
        want = [geo.type_at(suit, p) for p in geo.positions(start, length)]
        nat, nam = sorted(naturals), sorted(named)
        mask = 0
        free = []
        for i, t in enumerate(want):
            if t in nat and (t not in nam):
                nat.remove(t)
            elif t in nam:
                nam.remove(t)
                mask |= 1 << i
            else:
                free.append(i)
        if nat or nam or len(free) != bare:
            continue
        for i in free:
            mask |= 1 << i
        found.append(Pattern(RUN, suit, start, length, mask))
    if not found:
        raise InvalidMeldError(f"not a valid set or run: {text!r}")
    if len({(p.suits, p.jokers) for p in found}) > 1 and bare:
        raise InvalidMeldError(f"ambiguous joker: give its identity, e.g. Jk=AS: {text!r}")
    check_pattern(geo, found[0], max_jokers)
    return found[0]
