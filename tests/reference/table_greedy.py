"""The greedy policy of the table games in plain Python: the oracle of the C
policy (``rk_table_greedy``, csrc/src/table_policy.c) that
:class:`rummykit.agents.GreedyAgent` plays, formerly
``rummykit.agents.simple._table_greedy``.  It decides by applying actions to
clones and comparing hands, where the C policy decodes action ids, so the
two reach each decision by different routes (tests/table/test_playouts.py
checks them step by step)."""

from __future__ import annotations

from typing import Any

from rummykit.table.actions import DRAW as TABLE_DRAW
from rummykit.table.actions import LAYOFF as TABLE_LAYOFF
from rummykit.table.actions import MELD_SET as TABLE_MELD
from rummykit.table.actions import RELEASE_RUN as TABLE_RELEASE
from rummykit.table.actions import TAKE as TABLE_TAKE
from rummykit.table.actions import TableAction
from rummykit.table.cards import JOKER as TABLE_JOKER
from rummykit.table.cards import card_type, present_types, type_counts


def _type_count(mask: int, t: int) -> int:
    """Copies of card type ``t`` (a natural card, or 52: a joker) in a table-game hand."""
    return type_counts(mask)[t]


def _useful_types(mask: int, is_kaluki: bool) -> int:
    """The natural types in a table-game hand that are part of a pair towards a meld: another
    card of the same rank (of another suit in Kaluki), or of the same suit within two ranks."""
    present = present_types(mask)
    counts = type_counts(mask)
    useful = 0
    for t in range(52):
        if not present >> t & 1:
            continue
        rank, suit = t % 13, t // 13
        same_rank = sum(present >> (s * 13 + rank) & 1 for s in range(4) if s != suit)
        if not is_kaluki and counts[t] > 1:
            same_rank += 1
        near = any(present >> (suit * 13 + r) & 1 for r in range(max(0, rank - 2), min(13, rank + 3)) if r != rank)
        if (
            same_rank
            or near
            or (rank == 0 and present >> (suit * 13 + 12) & 1)
            or (rank == 12 and present >> (suit * 13) & 1)
        ):  # Q-K-A runs: an ace and a king or queen of its suit
            useful |= 1 << t
    return useful


def _after(state: Any, action: int) -> Any:
    child = state.clone()
    child.apply_action(action)
    return child


def table_greedy(state: Any) -> int:
    """The greedy policy of the table games (Rummy, Kaluki; see :class:`GreedyAgent`)."""
    legal: list[int] = state.legal_actions()
    p = state.player
    hand = state.hands[p]
    if state.phase_name == "draw":
        if TABLE_TAKE not in legal:
            return TABLE_DRAW
        if state.rules.is_kaluki and not state.is_opened(p):
            return TABLE_TAKE  # offered to an unopened player only when it can open with it
        t = card_type(state.discards[-1])
        taken = _after(state, TABLE_TAKE)
        held = _type_count(taken.hands[p], t)
        for action in taken.legal_actions():  # does a meld or a lay-off use the card?
            if action >= TABLE_MELD or TABLE_LAYOFF <= action < TABLE_RELEASE:
                if _type_count(_after(taken, action).hands[p], t) < held:
                    return TABLE_TAKE
        return TABLE_DRAW
    size = hand.bit_count()
    melds = [a for a in legal if a >= TABLE_MELD]
    if melds:  # the meld that puts down the most cards, then the lowest id
        return min(melds, key=lambda a: (_after(state, a).hands[p].bit_count() - size, a))
    values = state.geo.values
    layoffs = [a for a in legal if TABLE_LAYOFF <= a < TABLE_RELEASE and TableAction(a).card != TABLE_JOKER]
    if layoffs:  # the highest-penalty card, then the highest type, then the lowest id
        return min(layoffs, key=lambda a: (-values[TableAction(a).card or 0], -(TableAction(a).card or 0), a))
    discards = [a for a in legal if a <= TABLE_JOKER]
    if not discards:  # only joker placements or joker lay-offs remain
        return legal[0]
    useful = _useful_types(hand, state.rules.is_kaluki)

    def order(t: int) -> tuple[bool, int, int]:  # useless first, then the highest penalty and type
        return t == TABLE_JOKER or bool(useful >> t & 1), -values[t], -t

    return min(discards, key=order)
