"""Two-deck + joker hand analysis (rummykit.multideck) against the brute
force in tests/reference/multideck.py: the worked examples of docs/rules.md, Kaluki examples
(EX-K02, EX-K03, EX-K07), random and adversarial hands, both objectives and
the include constraint.  RUMMYKIT_LONG=1 (or -m long) checks thousands more
random hands."""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest
from reference import multideck as ref

from rummykit.errors import InvalidCardError, InvalidOptionError
from rummykit.multideck import (
    JOKER,
    MultiArrangement,
    multi_best_melds,
    multi_opening,
    multi_penalty_batch,
    parse_multi,
)


def check(
    hand: tuple[int, ...], include: int | None = None, ace_low_runs: bool = False, joker_penalty: int = 15
) -> None:
    """Both objectives equal the brute force; every meld valid and drawn from the hand."""
    for objective in ("penalty", "value"):
        got = multi_best_melds(
            list(hand), objective=objective, include=include, ace_low_runs=ace_low_runs, joker_penalty=joker_penalty
        )
        expect = ref.best(hand, objective, include, ace_low_runs, joker_penalty)
        text = f"{ref.hand_str(hand)} objective={objective} include={include} ace_low={ace_low_runs}"
        if expect is None:
            assert got is None, text
            continue
        assert got is not None, text
        assert (got.value, got.penalty) == expect, text
        check_arrangement(hand, got, include, ace_low_runs, joker_penalty)


def check_arrangement(
    hand: tuple[int, ...], a: MultiArrangement, include: int | None, ace_low_runs: bool, joker_penalty: int
) -> None:
    left = Counter(hand)
    for meld in a.melds:
        pairs = tuple(zip(meld.cards, meld.represents))
        assert ref.is_valid_meld((meld.kind, pairs), ace_low_runs), str(meld)
        assert meld.value == ref.meld_value((meld.kind, pairs)), str(meld)
        for card in meld.cards:
            assert left[card] > 0, str(meld)
            left[card] -= 1
    assert tuple(sorted(left.elements())) == a.left
    assert a.value == sum(m.value for m in a.melds)
    assert a.penalty == sum(ref.card_value(t, joker_penalty) for t in a.left)
    if include is not None:
        assert any(include in m.cards for m in a.melds)


def types(text: str) -> tuple[int, ...]:
    return tuple(parse_multi(text))


# --- docs/rules.md, Kaluki examples ------------------------------


@pytest.mark.parametrize(
    ("hand", "value", "ace_low_runs"),
    [
        ("TS JS QS 5H 5D 5C", 45, False),  # EX-K02 (a): legal opening
        ("TS JS QS 3H 3D 3C", 39, False),  # (b): illegal
        ("QS KS Jk 3H 3D 3C", 40, False),  # (c): Jk = AS counts 11
        ("7C 8C 9C", 24, False),  # (d)
        ("QH KH AH", 31, False),  # (e)
        ("AD 2D 3D", 0, False),  # (e): A-2-3 invalid by default
        ("AD 2D 3D", 6, True),  # (e): with ace_low_runs, 1 + 2 + 3
    ],
)
def test_ex_k02_opening_counts(hand: str, value: int, ace_low_runs: bool) -> None:
    best = multi_best_melds(hand, objective="value", ace_low_runs=ace_low_runs)
    assert best is not None and best.value == value
    assert ref.best(types(hand), "value", None, ace_low_runs) == (value, best.penalty)
    opening = multi_opening(hand, ace_low_runs=ace_low_runs)
    assert (opening is not None) == (value >= 40)
    check(types(hand), ace_low_runs=ace_low_runs)


def test_ex_k02_joker_identity() -> None:
    best = multi_best_melds("QS KS Jk 3H 3D 3C", objective="value")
    assert best is not None
    assert [str(m) for m in best.melds] == ["3C 3D 3H", "QS KS Jk=AS"]
    assert best.melds[1].represents[2] == parse_multi("AS")[0]


def test_ex_k03_discard_pick_up() -> None:
    nine_h = parse_multi("9H")[0]
    taken = multi_opening("9H 9S 9D JC QC KC", include="9H")
    assert taken is not None and taken.value == 57
    assert multi_opening("9H 9S 9D 2C 3C 4C", include=nine_h) is None  # 27 + 9 = 36
    best = multi_best_melds("9H 9S 9D 2C 3C 4C", objective="value", include="9H")
    assert best is not None and best.value == 36
    # could open with JC QC KC + 8S 8D 8H (54) but 9H stays in hand
    assert multi_opening("9H JC QC KC 8S 8D 8H", include="9H") is None
    assert multi_best_melds("9H JC QC KC 8S 8D 8H", include="9H") is None
    opening = multi_opening("9H JC QC KC 8S 8D 8H")
    assert opening is not None and opening.value == 54 and opening.left == (nine_h,)
    for hand in ("9H 9S 9D JC QC KC", "9H 9S 9D 2C 3C 4C", "9H JC QC KC 8S 8D 8H"):
        check(types(hand), include=nine_h)


def test_ex_k07_penalties() -> None:
    for hand, p15, p25 in (("KS 7D Jk", 32, 42), ("AH 3C", 14, 14)):
        assert multi_best_melds(hand).penalty == p15  # type: ignore[union-attr]
        assert multi_best_melds(hand, joker_penalty=25).penalty == p25  # type: ignore[union-attr]


# --- adversarial hands ------------------------------------------------------------

ADVERSARIAL = [
    "5H 6H 7H 5H 6H 7H",  # two copies of a run
    "5H 5H 5D",  # duplicates never share a set
    "5H 5H 5D 5D 5C Jk",
    "5C 5D 5H 5S Jk",  # full set: the joker stands in for a natural
    "5C 5D 5H 5S 5C 5D 5H 5S Jk Jk",
    "Jk Jk",
    "Jk Jk Jk Jk",
    "KC Jk Jk",
    "AC Jk Jk",
    "AC AC 2C 3C QC KC Jk",
    "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC Jk",  # 13-card run plus a joker
    "QS KS AS 2S 3S Jk",
    "4D 6D 8D TD QD Jk Jk",  # gaps only jokers can fill
    "3H 3H 4H 4H 5H 5H Jk Jk",
    "9C 9D 9H 9S TC TD TH TS JC Jk",
]


@pytest.mark.parametrize("hand", ADVERSARIAL)
@pytest.mark.parametrize("ace_low_runs", [False, True])
def test_adversarial(hand: str, ace_low_runs: bool) -> None:
    t = types(hand)
    check(t, ace_low_runs=ace_low_runs)
    for include in sorted(set(t))[:4]:
        check(t, include=include, ace_low_runs=ace_low_runs)


# --- random hands -----------------------------------------------------------------


def random_cases(seed: int, count: int) -> list[tuple[tuple[int, ...], int | None, bool, int]]:
    rng = random.Random(seed)
    cases = []
    for i in range(count):
        size = rng.randint(3, 14)
        jokers = min(rng.choice((0, 1, 2, 2)), size)
        hand = ref.random_hand(rng, size - jokers, jokers, span=rng.choice((0, 3, 4, 5)))
        include = rng.choice(hand) if i % 3 == 0 else None
        cases.append((hand, include, i % 4 == 1, 25 if i % 5 == 2 else 15))
    return cases


def test_random_hands_against_brute_force() -> None:
    for hand, include, ace_low_runs, jp in random_cases(2026, 100):
        check(hand, include, ace_low_runs, jp)


@pytest.mark.long
def test_long_random_hands_against_brute_force() -> None:
    for hand, include, ace_low_runs, jp in random_cases(7, 2000):
        check(hand, include, ace_low_runs, jp)


# --- batch, parsing, errors --------------------------------------------------------


def counts_of(hand: tuple[int, ...]) -> np.ndarray:
    row = np.zeros(53, dtype=np.uint8)
    for t in hand:
        row[t] += 1
    return row


@pytest.mark.parametrize(("ace_low_runs", "jp"), [(False, 15), (True, 25)])
def test_batch_equals_scalar(ace_low_runs: bool, jp: int) -> None:
    rng = random.Random(5)
    hands = [ref.random_hand(rng, 12, rng.randint(0, 2), span=rng.choice((0, 4))) for _ in range(300)]
    got = multi_penalty_batch(np.array([counts_of(h) for h in hands]), ace_low_runs=ace_low_runs, joker_penalty=jp)
    assert got.dtype == np.int32 and got.shape == (300,)
    scalar = [multi_best_melds(list(h), ace_low_runs=ace_low_runs, joker_penalty=jp) for h in hands]
    assert got.tolist() == [a.penalty for a in scalar if a is not None]
    assert multi_penalty_batch(np.zeros((0, 53), dtype=np.uint8)).shape == (0,)


def test_parse_multi() -> None:
    assert parse_multi("QS KS Jk 5H 5H") == [30, 30, 50, 51, JOKER]
    assert parse_multi(["jk", "JOKER", "🃏", 52]) == [JOKER] * 4
    assert parse_multi("10h,th") == [35, 35]
    for bad in ("5H 5H 5H", "Jk Jk Jk Jk Jk", "ZZ", [53], [-1], [True], 7):
        with pytest.raises(InvalidCardError):
            parse_multi(bad)  # type: ignore[arg-type]


def test_bad_options() -> None:
    with pytest.raises(InvalidOptionError):
        multi_best_melds("5H 6H 7H", objective="score")
    for jp in (-1, 256, 1.5, True):
        with pytest.raises(InvalidOptionError):
            multi_best_melds("5H 6H 7H", joker_penalty=jp)  # type: ignore[arg-type]
    with pytest.raises(InvalidOptionError):
        multi_best_melds("5H 6H 7H", include="8H")
    with pytest.raises(InvalidOptionError):
        multi_best_melds("5H 6H 7H", include=JOKER)
    with pytest.raises(InvalidCardError):
        multi_best_melds("5H 6H 7H", include="XX")
    with pytest.raises(InvalidOptionError):
        multi_opening("5H 6H 7H", minimum=-1)
    with pytest.raises(InvalidCardError):
        multi_penalty_batch(np.full((1, 53), 3, dtype=np.uint8))
    with pytest.raises(InvalidCardError):
        multi_penalty_batch(np.zeros((2, 52), dtype=np.uint8))


def test_include_joker() -> None:
    best = multi_best_melds("5H 6H 7H Jk", objective="value", include="Jk")
    assert best is not None and JOKER in best.melds[0].cards
    assert multi_best_melds("5H 9C Jk", include=JOKER) is None
    check(types("5H 6H 7H Jk"), include=JOKER)
