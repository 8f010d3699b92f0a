"""The Kaluki opening lookahead (RULES §1.4): can the cards left in a hand
still complete an opening (or, with ``hunt_requires_opening_min`` false, a
Hunt)?  Built on the C kernel of :mod:`rummykit.multideck`
(``rk_multi_best``); every answer keeps at least one card for the
compulsory discard (``go_out_requires_discard``).  ``include`` is a type
(``JOKER``: any joker) that must be melded, or -1.

Random play asks the same questions about the same hands many times (every
meld step of an unopened player, every ``take``), so the answers are
memoised by the hand's card types.
"""

from __future__ import annotations

from rummykit import _core
from rummykit.table.cards import JOKER, TYPE_MASK, joker_count
from rummykit.table.rules import TableRules

__all__ = ["can_hunt", "can_open"]

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
