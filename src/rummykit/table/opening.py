"""The Kaluki opening lookahead (RULES §1.4): can the cards left in a hand
still complete an opening (or, with ``hunt_requires_opening_min`` false, a
Hunt)?  Built on :mod:`rummykit.multideck`; every answer keeps at least one
card for the compulsory discard (``go_out_requires_discard``).  ``include``
is a type (``JOKER``: any joker) that must be melded, or -1."""

from __future__ import annotations

from rummykit.table.cards import types_of
from rummykit.table.rules import TableRules

__all__ = ["can_hunt", "can_open"]


def can_open(rules: TableRules, hand: int, need: int, include: int) -> bool:
    """Whether new melds from ``hand`` (a physical mask) can be worth at
    least ``need`` and meld ``include``, keeping a card to discard when the
    rules need one."""
    from rummykit.multideck import multi_opening

    cards = types_of(hand)
    inc = include if include >= 0 else None
    arr = multi_opening(
        cards, max(need, 1), include=inc, ace_low_runs=rules.ace_low_runs, joker_penalty=rules.joker_penalty
    )
    if arr is None:
        return False
    if arr.left or not rules.go_out_requires_discard:
        return True
    # the best opening melds every card: keep one back (rare)
    for t in sorted(set(cards)):
        rest = list(cards)
        rest.remove(t)
        if (t != include or include in rest) and multi_opening(
            rest, max(need, 1), include=inc, ace_low_runs=rules.ace_low_runs, joker_penalty=rules.joker_penalty
        ) is not None:
            return True
    return False


def can_hunt(rules: TableRules, hand: int, include: int) -> bool:
    """Whether ``hand`` can be melded down to exactly the one card left for
    the final discard (or to nothing without ``go_out_requires_discard``),
    whatever the count: a Hunt with ``hunt_requires_opening_min`` false."""
    from rummykit.multideck import multi_best_melds

    arr = multi_best_melds(
        types_of(hand),
        objective="penalty",
        include=include if include >= 0 else None,
        ace_low_runs=rules.ace_low_runs,
        joker_penalty=rules.joker_penalty,
    )
    return arr is not None and len(arr.left) == (1 if rules.go_out_requires_discard else 0)
