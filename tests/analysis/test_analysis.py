"""The analysis API: worked examples of docs/rules.md, result shapes, bad input."""

from __future__ import annotations

import numpy as np
import pytest

import rummykit as rk
from rummykit import Card, InvalidCardError, InvalidMeldError, InvalidOptionError

# --- worked examples (card level) (docs/rules.md, Worked examples) ---


def test_ex_g01_ordinary_knock_no_layoff() -> None:
    knocker = rk.best_melds("2S 3S 4S 6H 6D 6C TH JH QH 9C")
    assert knocker.deadwood == 9 and knocker.deadwood_cards == (Card("9C"),)
    assert rk.deadwood("KS KD KC 7D 8D 9D AH 4C TS QC") == 25
    reply = rk.layoff(knocker, "KS KD KC 7D 8D 9D AH 4C TS QC")
    assert reply.deadwood == 25 and reply.layoffs == ()
    assert reply.deadwood - knocker.deadwood == 16


def test_ex_g03_gin_hands() -> None:
    assert rk.deadwood("AC 2C 3C 4H 4D 4S 7D 8D 9D TD") == 0
    assert rk.deadwood("KS KH KC 5C 6C 7C 8S 2D 3S 2H") == 15


def test_ex_g04_knock_eligibility_after_each_discard() -> None:
    hand = "7S 8S 9S KC KD KH KS 2H 3C 4D 5S"
    assert rk.deadwood(hand) == 14
    after = rk.discard_deadwoods(hand)
    assert after[Card("5S")] == 9 and after[Card("4D")] == 10
    assert rk.best_discard(hand) == (Card("5S"), 9)
    assert rk.best_discard(hand, forbidden="5S") == (Card("4D"), 10)


def test_ex_o02_layoffs_24_to_8() -> None:
    knocker = rk.best_melds("7H 8H 9H TH QC QD QS 2S 3D AC")
    assert knocker.deadwood == 6
    defender = "9C TC JC 5S 5D 5C JH 6H 4C 4D"
    assert rk.deadwood(defender) == 24
    reply = rk.layoff(knocker, defender)
    assert reply.deadwood == 8
    assert [(str(lo.meld), lo.cards) for lo in reply.layoffs] == [("7H 8H 9H TH", (Card("6H"), Card("JH")))]
    assert {str(m) for m in reply.melds} == {"9C TC JC", "5C 5D 5S"}
    assert reply.deadwood_cards == (Card("4C"), Card("4D"))


def test_ex_o05_ace_upcard_hand() -> None:
    assert rk.deadwood("2C 3C 4C 5H 6H 7H 9S 9D 9C AD") == 1


def test_layoff_chains_and_fourth_card() -> None:
    reply = rk.layoff(["4H 5H 6H", "QC QD QS"], "7H 8H 3H 2H QH KC")
    assert reply.deadwood == 10  # 2H-3H and 7H-8H chain, QH is the 4th queen
    laid = {str(lo.meld): {str(c) for c in lo.cards} for lo in reply.layoffs}
    assert laid == {"4H 5H 6H": {"2H", "3H", "7H", "8H"}, "QC QD QS": {"QH"}}
    # 7H 8H 9H meld on their own: laying off fewer cards wins the tie
    own = rk.layoff(["4H 5H 6H"], "7H 8H 9H 3H KC")
    assert own.deadwood == 10 and [str(c) for lo in own.layoffs for c in lo.cards] == ["3H"]


def test_layoff_prefers_own_meld_only_when_better() -> None:
    # 7S can go on 4-5-6S or stay in the defender's own 7-7-7: either way 0.
    reply = rk.layoff(["4S 5S 6S"], "7S 7H 7D")
    assert reply.deadwood == 0 and reply.layoffs == ()  # fewest lay-offs on a tie


def test_ace_modes() -> None:
    assert rk.deadwood("QS KS AS") == 21
    assert rk.deadwood("QS KS AS", aces="high") == 0
    assert rk.deadwood("AS 2S 3S", aces="high") == 6
    assert rk.deadwood("QS KS AS 2S 3S", aces="both") == 5  # one ace, used once
    assert rk.deadwood("KS AS 2S", aces="both") == 13
    assert [str(m) for m in rk.melds("QS KS AS", aces="high")] == ["QS KS AS"]


def test_values_option() -> None:
    assert rk.deadwood("AS 5D", values={"A": 11}) == 16
    assert rk.deadwood("AS 5D", values=[11, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10]) == 16
    assert rk.deadwood("KS", values={"K": 13}) == 13


def test_melds_lists_everything() -> None:
    found = {str(m) for m in rk.melds("7C 7D 7H 7S 8S 9S")}
    assert found == {"7C 7D 7H 7S", "7D 7H 7S", "7C 7H 7S", "7C 7D 7S", "7C 7D 7H", "7S 8S 9S"}
    kinds = {str(m): m.kind for m in rk.melds("7C 7D 7H 8H 9H")}
    assert kinds == {"7C 7D 7H": "set", "7H 8H 9H": "run"}
    assert rk.melds("") == []


def test_best_melds_shape() -> None:
    a = rk.best_melds("AS 2S 3S 7H 7D 7C 9S TS JS KD")
    assert isinstance(a, rk.Arrangement)
    assert [str(m) for m in a.melds] == ["7C 7D 7H", "AS 2S 3S", "9S TS JS"]
    assert a.deadwood_cards == (Card("KD"),) and a.deadwood == 10
    assert str(a) == "[7C 7D 7H] [AS 2S 3S] [9S TS JS] KD (deadwood 10)"
    assert rk.best_melds("").deadwood == 0
    assert Card("AS") in a.melds[1] and len(a.melds[1]) == 3


def test_all_optimal_arrangements() -> None:
    # 7C 7D 7H 7S 8H 9H: 4-set leaves 8H 9H (17); 3-set + 7-8-9H leaves 0.
    found = rk.arrangements("7C 7D 7H 7S 8H 9H")
    assert [str(a) for a in found] == ["[7C 7D 7S] [7H 8H 9H] (deadwood 0)"]
    several = rk.arrangements("7C 7D 7H 7S 8H 9H", max_deadwood=17)
    assert [a.deadwood for a in several] == [0, 17]


def test_arrangements_are_bounded_by_limit() -> None:
    """A hand with more arrangements than ``limit`` is refused quickly, naming the way out; up to
    the limit the list is the same whatever the limit (the whole deck must not take seconds)."""
    from rummykit.analysis import ARRANGEMENTS_LIMIT, MAX_ARRANGEMENTS_LIMIT

    assert (ARRANGEMENTS_LIMIT, MAX_ARRANGEMENTS_LIMIT) == (10_000, 100_000)
    deck = (1 << 52) - 1
    for options in ({}, {"max_deadwood": 5}, {"limit": MAX_ARRANGEMENTS_LIMIT, "max_deadwood": 5}):
        with pytest.raises(InvalidOptionError, match=r"^more than [\d,]+ (optimal arrangements|arrangements with)"):
            rk.arrangements(deck, **options)  # type: ignore[arg-type]
    hand = "7C 7D 7H 7S 8H 9H 9C 9D 9S"
    every = rk.arrangements(hand, max_deadwood=60)
    assert 10 < len(every) < 100
    assert rk.arrangements(hand, max_deadwood=60, limit=len(every)) == every
    with pytest.raises(InvalidOptionError, match=rf"^more than {len(every) - 1} arrangements with deadwood <= 60 "):
        rk.arrangements(hand, max_deadwood=60, limit=len(every) - 1)
    for bad in (0, -1, MAX_ARRANGEMENTS_LIMIT + 1, 1.5, True, None, "10"):
        with pytest.raises(InvalidOptionError, match=r"^limit must be an int 1\.\.100,000, got "):
            rk.arrangements(hand, limit=bad)  # type: ignore[arg-type]


def test_choose_knock_can_show_more_deadwood() -> None:
    knocker, defender = "AS 2S 3S 4S 9D 9H 9C 2C AD 3H", "5S 6S TC JD QH KC 7C 8D 2D 4H"
    best = rk.choose_knock(knocker, defender)
    assert best.arrangement.deadwood == 10 and best.defender.deadwood == 72 and best.margin == 62
    assert best.candidates == 3
    least = rk.choose_knock(knocker, defender, min_deadwood_only=True)
    assert least.arrangement.deadwood == 6 and least.defender.deadwood == 61
    banned = rk.choose_knock(knocker, defender, allow_layoffs=False)
    assert banned.arrangement.deadwood == 6 and banned.defender.deadwood == 72
    with pytest.raises(InvalidMeldError, match="knock limit 5"):
        rk.choose_knock(knocker, defender, limit=5)


def test_gin_takes_no_layoffs() -> None:
    choice = rk.choose_knock("AS 2S 3S 4S 9D 9H 9C KS KD KH", "5S 6S TC JD QH KC 7C 8D 2D 4H")
    assert choice.arrangement.deadwood == 0 and choice.defender.layoffs == ()
    assert choice.defender.deadwood == 72


def test_batches_match_scalar() -> None:
    rng = np.random.default_rng(7)
    masks = np.array([sum(1 << int(c) for c in rng.choice(52, 11, replace=False)) for _ in range(500)], dtype=np.uint64)
    dw = rk.deadwood_batch(masks)
    assert dw.dtype == np.int16 and dw.tolist() == [rk.deadwood(int(m)) for m in masks]
    bdw, card = rk.best_discard_batch(masks)
    assert bdw.dtype == np.int16 and card.dtype == np.int8
    assert [(int(c), int(d)) for c, d in zip(card, bdw)] == [tuple(rk.best_discard(int(m))) for m in masks]
    assert rk.deadwood_batch(masks.astype(np.int64)).tolist() == dw.tolist()
    assert rk.deadwood_batch([]).tolist() == []
    assert rk.best_discard_batch(np.zeros(1, dtype=np.uint64))[1].tolist() == [-1]


# --- bad input --------------------------------------------------------------


def test_batch_bad_masks_named() -> None:
    with pytest.raises(InvalidCardError, match="index 1"):
        rk.deadwood_batch(np.array([3, 1 << 60], dtype=np.uint64))
    with pytest.raises(InvalidCardError, match="index 1"):
        rk.best_discard_batch(np.array([3, 1 << 55], dtype=np.uint64))
    with pytest.raises(InvalidCardError, match="negative"):
        rk.deadwood_batch(np.array([3, -1]))
    with pytest.raises(InvalidCardError, match="1-D integer"):
        rk.deadwood_batch(np.array([1.0]))
    with pytest.raises(InvalidCardError, match="1-D integer"):
        rk.deadwood_batch(np.zeros((2, 2), dtype=np.uint64))


@pytest.mark.parametrize(
    "call",
    [
        lambda: rk.deadwood("AS AS"),
        lambda: rk.deadwood(1 << 52),
        lambda: rk.deadwood(-5),
        lambda: rk.best_melds("XX"),
        lambda: rk.melds("AS 2S 3"),
        lambda: rk.best_discard(""),
        lambda: rk.best_discard("AS", forbidden="AS"),
        lambda: rk.best_discard("AS 2S", forbidden="3S"),
        lambda: rk.best_discard("AS 2S", forbidden="ZZ"),
        lambda: rk.choose_knock("AS 2S 3S", "AS 5D"),
    ],
)
def test_bad_cards_raise_invalid_card(call) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(InvalidCardError):
        call()


@pytest.mark.parametrize(
    ("melds", "defender", "named"),
    [
        (["AS 2S 4S"], "5D", "AS 2S 4S"),
        (["AS 2S 3S", "3S 4S 5S"], "5D", "overlap"),
        (["AS 2S 3S"], "3S 5D", "3S"),
        ("AS 2S 3S", "5D", "list of melds"),
        (["KS AS 2S"], "5D", "AS 2S KS"),
    ],
)
def test_bad_melds_named(melds: object, defender: str, named: str) -> None:
    with pytest.raises(InvalidMeldError, match=named):
        rk.layoff(melds, defender)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("kwargs", "named"),
    [
        ({"aces": "sideways"}, "aces"),
        ({"aces": ["low"]}, "aces"),
        ({"values": {"Z": 3}}, "Z"),
        ({"values": {"A": 0}}, "A must be"),
        ({"values": [1, 2]}, "13 ints"),
        ({"values": {"K": 256}}, "K must be"),
        ({"values": "abc"}, "13 ints"),
    ],
)
def test_bad_options(kwargs: dict[str, object], named: str) -> None:
    with pytest.raises(InvalidOptionError, match=named):
        rk.deadwood("AS", **kwargs)  # type: ignore[arg-type]


def test_as_meld() -> None:
    assert rk.as_meld("QS KS AS", aces="high").kind == "run"
    assert str(rk.as_meld("QS KS AS", aces="high")) == "QS KS AS"
    assert rk.as_meld("7C 7D 7H").kind == "set"
    with pytest.raises(InvalidMeldError, match="7C 7D"):
        rk.as_meld("7C 7D")
