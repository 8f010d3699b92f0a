"""Card text, Card objects and the public mask layout."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import rummykit as rk
from rummykit import Card, InvalidCardError


def test_layout_is_suit_major_with_aces_low() -> None:
    assert Card("AC").id == 0 and Card("KC").id == 12
    assert Card("AD").id == 13 and Card("AH").id == 26 and Card("KS").id == 51
    assert rk.to_mask("AC 2C") == 0b11
    assert rk.to_mask("KS") == 1 << 51


@pytest.mark.parametrize(
    "text",
    ["AS 2S 3S", "As,2s,3s", "as, 2S ,3s", "A♠ 2♠ 3♠", "AS\t2S\n3S", ["AS", "2S", "3S"], [39, 40, 41]],
)
def test_hand_forms(text: object) -> None:
    assert rk.to_mask(text) == (1 << 39) | (1 << 40) | (1 << 41)  # type: ignore[arg-type]


def test_ten_and_symbols() -> None:
    assert Card("10H") == Card("TH") == Card("th") == Card("10♥") == Card("T♡")
    assert Card("Q♠").symbol == "Q♠" and str(Card("q♠")) == "QS"
    assert repr(Card(0)) == "Card('AC')"
    assert Card(Card("7D")) == Card("7D")
    assert (Card("7D").rank, Card("7D").suit, Card("7D").mask) == (6, 1, 1 << 19)


def test_mask_round_trip() -> None:
    for mask in (0, 1, rk.to_mask("AS KD 7H"), (1 << 52) - 1):
        assert rk.to_mask(rk.from_mask(mask)) == mask
    assert rk.from_mask(rk.to_mask("KS AC")) == [Card("AC"), Card("KS")]
    assert rk.cards_text("KS,AC") == "AC KS"


@pytest.mark.parametrize(
    ("bad", "named"),
    [
        ("AS 1S", "1S"),
        ("AS 2X", "2X"),
        ("AS 2", "'2'"),
        ("11S", "11S"),
        ("AS AS", "duplicate card: AS"),
        ("as,AS", "duplicate card: AS"),
        (["AS", "AS"], "duplicate card: AS"),
        ([39, 39], "duplicate card: AS"),
        ([52], "52"),
        ([-1], "-1"),
        ([True], "True"),
        ([1.5], "1.5"),
        (1 << 52, "outside"),
        (-1, "outside"),
        (3.0, "3.0"),
        (None, "None"),
    ],
)
def test_bad_cards_are_named(bad: object, named: str) -> None:
    with pytest.raises(InvalidCardError, match=named.replace("(", r"\(")):
        rk.to_mask(bad)  # type: ignore[arg-type]


def test_invalid_card_error_is_a_value_error() -> None:
    assert issubclass(InvalidCardError, ValueError)
    with pytest.raises(ValueError):
        Card("ZZ")
    with pytest.raises(InvalidCardError):
        Card(53)  # 52 is the Kaluki joker
    with pytest.raises(InvalidCardError):
        rk.from_mask(1 << 60)


def test_numpy_integers_are_card_ids_and_masks() -> None:
    assert Card(np.int64(32)) == Card("7H") and type(Card(np.uint8(3))) is Card
    assert rk.to_mask(np.int64(3)) == 3 and rk.to_mask(np.array([0, 1])) == 3
    assert rk.from_mask(np.uint64(5)) == [Card("AC"), Card("3C")]
    with pytest.raises(InvalidCardError, match="outside"):
        rk.to_mask(np.uint64(1 << 60))
    with pytest.raises(InvalidCardError, match="cards must be"):
        rk.to_mask(np.array(5))  # a 0-d array: iterable in name only


@pytest.mark.parametrize(
    "call",
    [rk.parse_card, rk.parse_cards, rk.to_mask, rk.cards_text, Card, rk.deadwood, rk.as_meld],
    ids=lambda f: f.__name__,
)
@pytest.mark.parametrize(
    "huge",
    ["7" * 1_000_000, "AS " * 300_000 + "ZZ", 10**5000, [0] * 100_000 + [99]],
    ids=["1e6 chars", "3e5 cards", "10**5000", "1e5 ids"],
)
def test_huge_inputs_give_short_messages(call: Any, huge: object) -> None:
    try:
        call(huge)
    except InvalidCardError as err:
        assert len(str(err)) < 300
    else:
        raise AssertionError("accepted")
