"""The C core against the brute-force reference (tests/reference/deadwood.py).

The default run checks 10,000 random hands of 10 cards and 1,000 of 11 (the
reference's discards are slower), meld-dense hands, every size 0..20,
crafted adversarial hands and every subset of a few dense rank blocks;
RUMMYKIT_LONG=1 (or -m long) checks 40,000 hands of 10 and 11 cards and
1,600 of every size 0..20.
"""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest
from reference import deadwood as ref

import rummykit as rk

ACES = ("low", "high", "both")
ACE_ELEVEN = (11, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10)


def mask(hand: frozenset[int]) -> int:
    return ref.to_mask(hand)


def hands(seed: int, count: int, size: int, dense: bool = False) -> list[frozenset[int]]:
    rng = random.Random(seed)
    make = ref.dense_hand if dense else ref.random_hand
    return [make(rng, size) for _ in range(count)]


def check_deadwood(
    sample: list[frozenset[int]], aces: str = "low", values: tuple[int, ...] = ref.DEFAULT_VALUES
) -> None:
    got = rk.deadwood_batch(np.array([mask(h) for h in sample], dtype=np.uint64), aces=aces, values=values)
    for hand, dw in zip(sample, got.tolist()):
        assert dw == ref.min_deadwood(hand, aces, values), ref.hand_str(hand)


def check_discards(
    sample: list[frozenset[int]], aces: str = "low", values: tuple[int, ...] = ref.DEFAULT_VALUES
) -> None:
    masks = np.array([mask(h) for h in sample], dtype=np.uint64)
    batch_dw, batch_card = rk.best_discard_batch(masks, aces=aces, values=values)
    for hand, dw, card in zip(sample, batch_dw.tolist(), batch_card.tolist()):
        expect = ref.deadwood_after_each_discard(hand, aces, values)
        got = rk.discard_deadwoods(mask(hand), aces=aces, values=values)
        assert {int(c): d for c, d in got.items()} == expect, ref.hand_str(hand)
        assert (card, dw) == ref.best_discard(hand, None, aces, values), ref.hand_str(hand)


# --- the default run ---------------------------------------------------------


def test_ten_card_deadwood_10000_hands() -> None:
    check_deadwood(hands(1, 10_000, 10))


def test_eleven_card_discards_1000_hands() -> None:
    check_discards(hands(2, 1_000, 11))


@pytest.mark.parametrize("aces", ACES)
def test_meld_dense_hands(aces: str) -> None:
    check_deadwood(hands(3, 800, 10, dense=True), aces)
    check_discards(hands(4, 300, 11, dense=True), aces)


@pytest.mark.parametrize("aces", ACES)
def test_every_size_0_to_20(aces: str) -> None:
    for size in range(21):
        check_deadwood(hands(100 + size, 40, size) + hands(200 + size, 40, size, dense=True), aces)


@pytest.mark.parametrize("aces", ACES)
def test_other_card_values(aces: str) -> None:
    check_deadwood(hands(5, 500, 10, dense=True), aces, ACE_ELEVEN)
    check_discards(hands(6, 200, 11, dense=True), aces, ACE_ELEVEN)
    odd = tuple(random.Random(7).randint(1, 40) for _ in range(13))
    check_deadwood(hands(8, 500, 12, dense=True), aces, odd)


def test_forbidden_discard() -> None:
    rng = random.Random(9)
    for hand in hands(10, 500, 11) + hands(11, 500, 11, dense=True):
        forbidden = rng.choice(sorted(hand))
        expect = ref.best_discard(hand, forbidden)
        assert tuple(rk.best_discard(mask(hand), forbidden=forbidden)) == expect, ref.hand_str(hand)


BLOCKS = {
    "5-6-7": [r for r in (4, 5, 6)],
    "A-2-3": [0, 1, 2],
    "Q-K-A": [11, 12, 0],
    "J-Q-K": [10, 11, 12],
}


@pytest.mark.parametrize("block", sorted(BLOCKS))
@pytest.mark.parametrize("aces", ACES)
def test_every_subset_of_dense_rank_blocks(block: str, aces: str) -> None:
    cards = [s * 13 + r for r in BLOCKS[block] for s in range(4)]
    subsets = [frozenset(c for i, c in enumerate(cards) if bits >> i & 1) for bits in range(1 << len(cards))]
    check_deadwood(subsets, aces)


ADVERSARIAL = [
    "7C 7D 7H 7S 5C 6C 8C 9C 5H 6H 8H",  # four of a kind crossing runs in two suits
    "7C 7D 7H 7S 6C 8C 6D 8D 6H 8H 6S",  # crossing runs in every suit
    "AC 2C 3C 4C 5C 6C 7C 8C 9C TC JC",  # one long run
    "AC 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC",
    "QS KS AS 2S 3S AH AD AC KH QH JH",  # Q-K-A and A-2-3 corners with four aces
    "AC 2C 3C 4H 4D 4S 7D 8D 9D TD 5S",  # gin plus one
    "3C 3D 3H 3S 4C 4D 4H 4S 5C 5D 5H",  # three dense ranks
    "2C 3C 4C 2D 3D 4D 2H 3H 4H 2S 3S",
    "9C TC JC 9D TD JD 9H TH JH QC QD",
]


@pytest.mark.parametrize("text", ADVERSARIAL)
@pytest.mark.parametrize("aces", ACES)
def test_adversarial_hands(text: str, aces: str) -> None:
    hand = ref.parse_hand(text)
    assert rk.deadwood(text, aces=aces) == ref.min_deadwood(hand, aces)
    if len(hand) == 11:
        assert {int(c): d for c, d in rk.discard_deadwoods(text, aces=aces).items()} == ref.deadwood_after_each_discard(
            hand, aces
        )


def as_sets(found: list[rk.Arrangement]) -> set[frozenset[frozenset[int]]]:
    return {frozenset(frozenset(int(c) for c in m.cards) for m in a.melds) for a in found}


@pytest.mark.parametrize("aces", ACES)
def test_all_arrangements_match_reference(aces: str) -> None:
    for hand in hands(12, 300, 9, dense=True) + hands(13, 200, 12, dense=True):
        least = ref.min_deadwood(hand, aces)
        assert as_sets(rk.arrangements(mask(hand), aces=aces)) == ref.arrangements(hand, aces), ref.hand_str(hand)
        bounded = rk.arrangements(mask(hand), aces=aces, max_deadwood=least + 6)
        assert as_sets(bounded) == ref.arrangements(hand, aces, max_deadwood=least + 6), ref.hand_str(hand)
        best = rk.best_melds(mask(hand), aces=aces)
        assert best.deadwood == least and best == rk.arrangements(mask(hand), aces=aces)[0]


@pytest.mark.parametrize("aces", ACES)
def test_layoffs_match_reference(aces: str) -> None:
    rng = random.Random(14)
    checked = 0
    for _ in range(1_500):
        deal = rng.sample(range(52), 20) if rng.random() < 0.5 else sorted(ref.dense_hand(rng, 20))
        rng.shuffle(deal)
        knocker, defender = frozenset(deal[:10]), frozenset(deal[10:])
        options = sorted(ref.arrangements(knocker, aces, max_deadwood=100), key=lambda a: sorted(map(sorted, a)))
        shown = rng.choice(options)
        result = rk.layoff([ref.to_mask(m) for m in shown], mask(defender), aces=aces)
        assert result.deadwood == ref.layoff_deadwood(shown, defender, aces), ref.hand_str(defender)
        laid = sum(c.mask for lo in result.layoffs for c in lo.cards)
        assert rk.deadwood(mask(defender) & ~laid, aces=aces) == result.deadwood
        checked += bool(shown)
    assert checked > 500


@pytest.mark.parametrize("aces", ACES)
def test_knock_choice_matches_reference(aces: str) -> None:
    rng = random.Random(15)
    for _ in range(500):
        deal = sorted(ref.dense_hand(rng, 20))
        rng.shuffle(deal)
        knocker, defender = frozenset(deal[:10]), frozenset(deal[10:])
        for only_least in (False, True):
            expect = ref.knock_value(knocker, defender, 10, aces, min_deadwood_only=only_least)
            if expect is None:
                with pytest.raises(rk.InvalidMeldError):
                    rk.choose_knock(mask(knocker), mask(defender), aces=aces, min_deadwood_only=only_least)
                continue
            got = rk.choose_knock(mask(knocker), mask(defender), aces=aces, min_deadwood_only=only_least)
            assert got.margin == expect, (ref.hand_str(knocker), ref.hand_str(defender))
            assert got.arrangement.deadwood <= 10
            assert got.defender.deadwood - got.arrangement.deadwood == got.margin


# --- the long run --------------------------------------------------------------


@pytest.mark.long
def test_long_40000_hands_of_10_and_11() -> None:
    for chunk in range(4):
        check_deadwood(hands(1000 + chunk, 10_000, 10))
        check_discards(hands(2000 + chunk, 10_000, 11))


@pytest.mark.long
@pytest.mark.parametrize("aces", ACES)
def test_long_every_size_0_to_20(aces: str) -> None:
    for size in range(21):
        check_deadwood(hands(3000 + size, 800, size) + hands(4000 + size, 800, size, dense=True), aces)


@pytest.mark.long
def test_long_every_subset_of_four_ranks() -> None:
    cards = [s * 13 + r for r in (4, 5, 6, 7) for s in range(4)]
    subsets = [frozenset(itertools.compress(cards, [bits >> i & 1 for i in range(16)])) for bits in range(1 << 16)]
    check_deadwood(subsets)
