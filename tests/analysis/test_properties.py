"""Hypothesis properties of the analysis API."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

import rummykit as rk

ACES = st.sampled_from(["low", "high", "both"])


def hand_of(min_size: int = 0, max_size: int = 16) -> st.SearchStrategy[frozenset[int]]:
    dense = st.integers(0, 12).flatmap(
        lambda lo: st.frozensets(
            st.builds(lambda r, s: s * 13 + (lo + r) % 13, st.integers(0, 4), st.integers(0, 3)),
            min_size=min(min_size, 20),
            max_size=min(max_size, 20),
        )
    )
    spread = st.frozensets(st.integers(0, 51), min_size=min_size, max_size=max_size)
    return st.one_of(dense, spread)


def value(mask: int) -> int:
    return sum(min(c.rank + 1, 10) for c in rk.from_mask(mask))


@settings(max_examples=300, deadline=None)
@given(hand_of(), ACES)
def test_best_arrangement_is_a_partition_with_the_least_deadwood(hand: frozenset[int], aces: str) -> None:
    mask = rk.to_mask(sorted(hand))
    best = rk.best_melds(mask, aces=aces)
    assert best.deadwood == rk.deadwood(mask, aces=aces) == value(rk.to_mask(best.deadwood_cards))
    covered = 0
    for meld in best.melds:
        assert rk.as_meld(meld.mask, aces=aces) == meld
        assert covered & meld.mask == 0
        covered |= meld.mask
    assert covered | rk.to_mask(best.deadwood_cards) == mask


@settings(max_examples=300, deadline=None)
@given(hand_of(1), ACES)
def test_removing_a_card_costs_at_most_its_value(hand: frozenset[int], aces: str) -> None:
    mask = rk.to_mask(sorted(hand))
    full = rk.deadwood(mask, aces=aces)
    after = rk.discard_deadwoods(mask, aces=aces)
    for card, dw in after.items():
        assert dw == rk.deadwood(mask & ~card.mask, aces=aces)
        assert full <= dw + value(card.mask)
    choice = rk.best_discard(mask, aces=aces)
    assert choice.deadwood == min(after.values()) == after[choice.card]


@settings(max_examples=200, deadline=None)
@given(hand_of(), st.permutations([0, 1, 2, 3]), ACES)
def test_suits_are_interchangeable(hand: frozenset[int], perm: list[int], aces: str) -> None:
    relabelled = [perm[c // 13] * 13 + c % 13 for c in hand]
    assert rk.deadwood(sorted(hand), aces=aces) == rk.deadwood(relabelled, aces=aces)


@settings(max_examples=200, deadline=None)
@given(hand_of())
def test_both_aces_is_at_least_as_good(hand: frozenset[int]) -> None:
    cards = sorted(hand)
    both = rk.deadwood(cards, aces="both")
    assert both <= rk.deadwood(cards, aces="low") and both <= rk.deadwood(cards, aces="high")


@settings(max_examples=200, deadline=None)
@given(hand_of(10, 20), ACES, st.randoms(use_true_random=False))
def test_layoffs_only_help_and_partition_the_defender(hand: frozenset[int], aces: str, rnd) -> None:  # type: ignore[no-untyped-def]
    cards = sorted(hand)
    rnd.shuffle(cards)
    knocker, defender = rk.to_mask(cards[: len(cards) // 2]), rk.to_mask(cards[len(cards) // 2 :])
    shown = rk.best_melds(knocker, aces=aces)
    reply = rk.layoff(shown, defender, aces=aces)
    assert reply.deadwood <= rk.deadwood(defender, aces=aces)
    laid = sum(c.mask for lo in reply.layoffs for c in lo.cards)
    own = sum(m.mask for m in reply.melds)
    assert laid & own == 0 and laid | own | rk.to_mask(reply.deadwood_cards) == defender
    for lo in reply.layoffs:
        assert rk.as_meld(lo.meld.mask | sum(c.mask for c in lo.cards), aces=aces)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(["AS", "as", "A♠", "10h", "Th", "kd", "K♦", "7c"]), max_size=8))
def test_text_forms_agree(tokens: list[str]) -> None:
    cards = [rk.Card(t) for t in tokens]
    if len(set(cards)) != len(cards):
        return
    assert rk.to_mask(" ".join(tokens)) == rk.to_mask(",".join(tokens)) == rk.to_mask(cards)
