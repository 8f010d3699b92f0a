"""docs/rules.md, Rummy examples: the Rummy worked examples, with exact numbers."""

from __future__ import annotations

import pytest
from table_helpers import position, texts

import rummykit as rk
from rummykit.table.match import TableMatch
from rummykit.table.scoring import score_hand


@pytest.mark.parametrize(("n", "stock"), [(2, 31), (3, 30), (4, 23), (5, 21), (6, 15)])
def test_ex_r01_stock_sizes(n: int, stock: int) -> None:
    state = rk.Game("rummy", num_players=n).new_hand(seed=1)
    assert len(state.stock) == stock
    assert all(bin(h).count("1") == {2: 10, 3: 7, 4: 7, 5: 6, 6: 6}[n] for h in state.hands)


def _going_out(played: int, **options: object) -> rk.TableResult:
    """3 players; A (seat 0) melds 7H 8H 9H and discards KS to go out; B and C keep their cards."""
    game = rk.Game("rummy", num_players=3, **options)
    state = position(game, ["7H 8H 9H KS", "KC 9D 2S", "AH AD 5C"], played=played)
    assert isinstance(state, rk.TableState)
    state.play("meld 7H 8H 9H")
    state.play("discard KS")
    assert state.is_terminal() and state.result is not None
    return state.result


def test_ex_r02_going_out() -> None:
    result = _going_out(played=0b001)
    assert result.outcome == "out" and result.winner == 0
    assert result.hand_values == (0, 21, 7)
    assert result.points == (28, 0, 0)
    assert rk.Game("rummy").card_penalty("KC 9D 2S") == 21


@pytest.mark.parametrize(("bonus", "points"), [("double", 56), ("flat_25", 53), ("flat_10", 38), ("none", 28)])
def test_ex_r03_going_rummy(bonus: str, points: int) -> None:
    result = _going_out(played=0, rummy_bonus=bonus)
    assert result.outcome == "rummy"
    assert result.points == (points, 0, 0)


def test_going_out_by_melding_without_discard() -> None:
    game = rk.Game("rummy", num_players=3)
    state = position(game, ["7H 8H 9H", "KC 9D 2S", "AH AD 5C"], played=1)
    state.play("meld 7H 8H 9H")
    assert state.result is not None and state.result.outcome == "out" and state.result.points == (28, 0, 0)


def test_ex_r04_lay_offs() -> None:
    game = rk.Game("rummy", num_players=2)
    hand = "6H 7H JH QH 3H 2C 5D"
    state = position(game, [hand, "KC KD"], table=(("8H 9H TH", 1), ("3C 3D 3S", 1)))
    legal = texts(state)
    assert "lay off JH on 1 high" in legal and "lay off 7H on 1 low" in legal
    assert not any(t.startswith("lay off QH") or t.startswith("lay off 6H") for t in legal)  # gaps
    assert [t for t in legal if t.endswith("on 2 low")] == ["lay off 3H on 2 low"]
    with pytest.raises(rk.IllegalActionError, match="does not extend"):
        state.play("lay off QH on 1 high")
    state.play("lay off JH on 1 high")
    state.play("lay off QH on 1 high")  # chains: JH then QH
    state.play("lay off 7H on 1 low")
    state.play("lay off 6H on 1 low")
    assert state.table_text()[0] == "6H 7H 8H 9H TH JH QH"
    state.play("lay off 3H on 2")
    assert state.table_text()[1] == "3C 3D 3S 3H"


def test_ex_r05_discard_restriction() -> None:
    game = rk.Game("rummy", num_players=2)
    state = position(game, ["7H 8H 9H", "KC KD"], discards="2C 7S", phase="draw", played=1)
    state.play("take")
    assert "discard 7S" not in texts(state)
    with pytest.raises(rk.IllegalActionError, match="just taken"):
        state.play("discard 7S")
    # melding 7H 8H 9H would leave only 7S: illegal
    with pytest.raises(rk.IllegalActionError, match="unable to end the turn"):
        state.play("meld 7H 8H 9H")
    state.play("discard 9H")


def test_ex_r05_taken_card_played_to_go_out() -> None:
    game = rk.Game("rummy", num_players=2)
    state = position(game, ["7H 8H", "KC KD"], discards="2C 9H", phase="draw", played=1)
    state.play("take")
    state.play("meld 7H 8H 9H")
    assert state.result is not None and state.result.outcome == "out"


def test_ex_r06_restock_reshuffle_keep_top() -> None:
    game = rk.Game("rummy", num_players=2)
    state = position(game, ["AC 5C", "KC QC"], discards="4H 9C KD 2S", phase="draw", played=1)
    state = state.with_fields(stock=())
    state = state.with_fields(discards=tuple(c for c in state.discards))
    state.play("draw")
    assert [rk.Card(c) for c in state.discards] == [rk.Card("2S")]
    drawn = state.hands[0] & ~rk.to_mask("AC 5C")
    assert rk.from_mask(drawn)[0] in {rk.Card(c) for c in ("4H", "9C", "KD")}
    assert state.restocks == 1 and len(state.stock) == 2


def test_ex_r06_restock_turn_over() -> None:
    game = rk.Game("rummy", num_players=2, restock_method="turn_over")
    state = position(game, ["AC 5C", "KC QC"], discards="4H 9C KD 2S", phase="draw", played=1)
    state = state.with_fields(stock=())
    assert texts(state) == ["draw", "take"]
    state.play("draw")
    assert rk.from_mask(state.hands[0] & ~rk.to_mask("AC 5C")) == [rk.Card("4H")]
    assert [str(rk.Card(c)) for c in reversed(state.stock)] == ["9C", "KD", "2S"]
    assert state.discards == ()


def test_ex_r07_game_end() -> None:
    match = TableMatch("rummy", [lambda s: 0, lambda s: 0], seed=0, first_dealer=1)
    match._scores = [90, 40]
    match._record(score_hand(match.rules, "out", 0, [0, 15]))
    assert match.result is not None and match.result.winner == 0 and match.result.scores == (105, 40)
