"""Meld enumeration and the Kaluki opening lookahead of the plain Python
table engine (tests/reference/table.py): every new meld a hand can lay
(``new_melds``, and ``meld_options`` built from per-row tables of it), and
whether the cards left can still complete an opening (``can_open``) or a
Hunt (``can_hunt``) on top of the C kernel rk_multi_best.  The C engine
(csrc/src/table.c) is checked against them through the reference engine.
"""

from __future__ import annotations

from rummykit import _core
from rummykit.table.actions import pattern_id
from rummykit.table.cards import JOKER, TYPE_MASK, joker_count
from rummykit.table.melds import MAX_RUN, RUN, SET, Geometry, Pattern
from rummykit.table.rules import TableRules

#: a new meld as the engine's legal-move search sees it: (action id, mask of
#: the natural types it uses, jokers it uses, its count)
MeldOption = tuple[int, int, int, int]
_ROW = 0x1FFF
_MAX_JOKERS = 4  # kalooki_51
_STARTS = sum(0x7FF << 13 * s for s in range(4))  # ranks A..J of each suit: x, x+1, x+2 in the suit
_ACES = sum(1 << 13 * s for s in range(4))
#: meld_options' tables per geometry, filled on first use: (rank, suits, jokers -> sets; [jokers][suit, ranks] -> runs)
_TABLES: dict[Geometry, tuple[dict[int, tuple[MeldOption, ...]], list[list[tuple[MeldOption, ...] | None]]]] = {}


def _tables(geo: Geometry) -> tuple[dict[int, tuple[MeldOption, ...]], list[list[tuple[MeldOption, ...] | None]]]:
    found = _TABLES.get(geo)
    if found is None:
        found = _TABLES[geo] = ({}, [[None] * (4 << 13) for _ in range(_MAX_JOKERS + 1)])
    return found


def new_melds(geo: Geometry, present: int, jokers: int) -> list[Pattern]:
    """Every meld pattern that can be laid from a hand holding the natural
    types in ``present`` (52-bit mask) and ``jokers`` jokers.  Jokers only
    stand in runs where the hand lacks the natural card."""
    return _new_sets(present, jokers) + _new_runs(geo, present, jokers)


def _new_sets(present: int, jokers: int) -> list[Pattern]:
    out: list[Pattern] = []
    for rank in range(13):
        avail = 0
        for s in range(4):
            if present >> (s * 13 + rank) & 1:
                avail |= 1 << s
        if not avail or avail.bit_count() + jokers < 3:
            continue
        sub = avail
        while sub:
            n = sub.bit_count()
            for j in range(max(0, 3 - n), min(jokers, 4 - n) + 1):
                out.append(Pattern(SET, rank, sub, j, 0))
            sub = (sub - 1) & avail
    return out


def _new_runs(geo: Geometry, present: int, jokers: int) -> list[Pattern]:
    out: list[Pattern] = []
    starts = 13 if geo.wrap else geo.npos - 2
    for suit in range(4):
        if not present >> (suit * 13) & 0x1FFF:
            continue
        held = [present >> geo.type_at(suit, p) & 1 for p in range(geo.npos)]  # by position
        for start in range(starts):
            missing = 0
            mask = 0
            natural = False
            limit = MAX_RUN if geo.wrap else min(MAX_RUN, geo.npos - start)
            for i in range(limit):
                if held[(start + i) % 13 if geo.wrap else start + i]:
                    natural = True
                else:
                    missing += 1
                    if missing > jokers:
                        break
                    mask |= 1 << i
                if i >= 2 and natural:
                    out.append(Pattern(RUN, suit, start, i + 1, mask))
    return out


def meld_options(geo: Geometry, present: int, jokers: int) -> list[MeldOption]:
    """The melds of :func:`new_melds` (same hand, same patterns) as
    :data:`MeldOption` tuples, in no particular order.  The legal-move search
    calls this at every step, so the answer is assembled from tables on the
    geometry, filled on first use by new_melds' set and run enumerators: sets
    by rank and the suits held, runs by the ranks held in one suit."""
    c0, c1, c2, c3 = present & _ROW, present >> 13 & _ROW, present >> 26 & _ROW, present >> 39 & _ROW
    # ranks held in enough suits for a set: 3, 2 (one joker) or 1 (two or more) of the 4
    if jokers >= 2:
        ranks = c0 | c1 | c2 | c3
    elif jokers:
        ranks = (c0 | c1) & (c2 | c3) | c0 & c1 | c2 & c3
    else:
        ranks = c0 & c1 & (c2 | c3) | c2 & c3 & (c0 | c1)
        # no set, and no three ranks in a row in any suit (also Q K A and K A 2): no meld at all
        if not ranks and not (
            present & present >> 1 & present >> 2 & _STARTS
            or present >> 12 & present & (present >> 11 | present >> 1) & _ACES
        ):
            return []
    sets, runs = _tables(geo)
    out: list[MeldOption] = []
    while ranks:
        low = ranks & -ranks
        ranks ^= low
        r = low.bit_length() - 1
        suits = (c0 >> r & 1) | (c1 >> r & 1) << 1 | (c2 >> r & 1) << 2 | (c3 >> r & 1) << 3
        key = (r << 4 | suits) << 3 | jokers
        found = sets.get(key)
        if found is None:
            found = sets[key] = _options(geo, sum(1 << (s * 13 + r) for s in range(4) if suits >> s & 1), jokers, SET)
        out += found
    table = runs[jokers]
    k0, k1, k2, k3 = c0, 1 << 13 | c1, 2 << 13 | c2, 3 << 13 | c3
    r0, r1, r2, r3 = table[k0], table[k1], table[k2], table[k3]
    if r0 is None:
        r0 = _run_options(geo, c0, jokers)[0]
    if r1 is None:
        r1 = _run_options(geo, c1, jokers)[1]
    if r2 is None:
        r2 = _run_options(geo, c2, jokers)[2]
    if r3 is None:
        r3 = _run_options(geo, c3, jokers)[3]
    out += r0
    out += r1
    out += r2
    out += r3
    return out


def _run_options(geo: Geometry, row: int, jokers: int) -> list[tuple[MeldOption, ...]]:
    """Fill meld_options' run tables for one row of ranks in all four suits
    (the same runs, moved to another suit), and return them by suit."""
    clubs = _options(geo, row, jokers, RUN)
    step = pattern_id(Pattern(RUN, 1, 0, 3, 0)) - pattern_id(Pattern(RUN, 0, 0, 3, 0))  # one suit further
    out = []
    for s in range(4):
        found = tuple((i + s * step, naturals << 13 * s, k, value) for i, naturals, k, value in clubs)
        _tables(geo)[1][jokers][s << 13 | row] = found
        out.append(found)
    return out


def _options(geo: Geometry, present: int, jokers: int, kind: int) -> tuple[MeldOption, ...]:
    out = []
    for p in _new_sets(present, jokers) if kind == SET else _new_runs(geo, present, jokers):
        types = p.types(geo)
        naturals = sum(1 << t for t in types if t != JOKER)
        out.append((pattern_id(p), naturals, types.count(JOKER), p.value(geo)))
    return tuple(out)


#: a hand as card types: (types with one copy or more, types with two, jokers)
_Types = tuple[int, int, int]
#: memoised answers; cleared when they grow past _MAX_MEMO (a long tournament meets many hands)
_OPEN: dict[tuple[bool, int, bool, int, int, int, int, int], bool] = {}
_HUNT: dict[tuple[bool, int, bool, int, int, int, int], bool] = {}
_MAX_MEMO = 1 << 16


def _types(hand: int) -> _Types:
    low, high = hand & TYPE_MASK, hand >> 52 & TYPE_MASK
    return low | high, low & high, joker_count(hand)


def _best_value(rules: TableRules, hand: _Types, include: int) -> tuple[int, bool] | None:
    """The opening value of the most valuable melds of ``hand`` that meld
    ``include``, and whether a card is left; None if ``include`` cannot be melded."""
    one, two, jokers = hand
    raw = _core.multi_best(one, two, jokers, _core.MULTI_VALUE, include, rules.ace_low_runs, rules.joker_penalty)
    if raw is None:
        return None
    value: int = raw[1]
    return value, raw[3] != (0, 0, 0)


def can_open(rules: TableRules, hand: int, need: int, include: int) -> bool:
    """Whether new melds from ``hand`` (a physical mask) can be worth at
    least ``need`` and meld ``include``, keeping a card to discard when the
    rules need one."""
    types = _types(hand)
    key = (rules.ace_low_runs, rules.joker_penalty, rules.go_out_requires_discard, *types, max(need, 1), include)
    found = _OPEN.get(key)
    if found is None:
        if len(_OPEN) >= _MAX_MEMO:
            _OPEN.clear()
        found = _OPEN[key] = _can_open(rules, types, max(need, 1), include)
    return found


def _can_open(rules: TableRules, hand: _Types, need: int, include: int) -> bool:
    best = _best_value(rules, hand, include)
    if best is None or best[0] < need:
        return False
    if best[1] or not rules.go_out_requires_discard:
        return True
    # the best opening melds every card: keep one back (rare)
    one, two, jokers = hand
    for t in range(JOKER + 1):
        if t == JOKER:
            if not jokers:
                continue
            rest = (one, two, jokers - 1)
            still = jokers > 1
        else:
            bit = 1 << t
            if not one & bit:
                continue
            rest = (one, two & ~bit, jokers) if two & bit else (one & ~bit, two, jokers)
            still = bool(rest[0] & bit)
        if t == include and not still:
            continue
        best = _best_value(rules, rest, include)
        if best is not None and best[0] >= need:
            return True
    return False


def can_hunt(rules: TableRules, hand: int, include: int) -> bool:
    """Whether ``hand`` can be melded down to exactly the one card left for
    the final discard (or to nothing without ``go_out_requires_discard``),
    whatever the count: a Hunt with ``hunt_requires_opening_min`` false."""
    types = _types(hand)
    key = (rules.ace_low_runs, rules.joker_penalty, rules.go_out_requires_discard, *types, include)
    found = _HUNT.get(key)
    if found is None:
        if len(_HUNT) >= _MAX_MEMO:
            _HUNT.clear()
        one, two, jokers = types
        raw = _core.multi_best(one, two, jokers, _core.MULTI_PENALTY, include, rules.ace_low_runs, rules.joker_penalty)
        if raw is None:
            found = False
        else:
            left_one, left_two, left_jokers = raw[3]
            left = left_one.bit_count() + left_two.bit_count() + left_jokers
            found = left == (1 if rules.go_out_requires_discard else 0)
        _HUNT[key] = found
    return found
