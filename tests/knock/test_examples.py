"""Worked examples of docs/rules.md (Gin Rummy, Oklahoma Gin and Oklahoma Rummy examples) played through the knock
engine."""

from __future__ import annotations

import pytest

import rummykit as rk
from rummykit import Card, IllegalActionError


def test_ex_g01_ordinary_knock() -> None:
    r = rk.Game("gin").showdown("2S 3S 4S 6H 6D 6C TH JH QH 9C", ["KS KD KC 7D 8D 9D AH 4C TS QC"])
    assert (r.outcome, r.winner, r.deadwood, r.points, r.boxes) == ("knock", 0, (9, 25), (16, 0), (1, 0))
    assert r.layoffs == ((), ())


def test_ex_g03_gin() -> None:
    r = rk.Game("gin").showdown("AC 2C 3C 4H 4D 4S 7D 8D 9D TD", ["KS KH KC 5C 6C 7C 8S 2D 3S 2H"])
    assert (r.outcome, r.winner, r.deadwood, r.points) == ("gin", 0, (0, 15), (40, 0))


def test_ex_g08_gin_against_zero() -> None:
    r = rk.Game("gin").showdown("AC 2C 3C 4H 4D 4S 7D 8D 9D TD", ["KS KH KC 5C 6C 7C 8S 9S TS JS"])
    assert (r.outcome, r.winner, r.points) == ("gin", 0, (25, 0))


def test_ex_g02_undercut_and_g07_tie() -> None:
    # knocker deadwood 9 (9C), defender 7 after melding
    knocker, defender = "2S 3S 4S 6H 6D 6C TH JH QH 9C", "KS KD KC 7D 8D 9D AH 2C 4C 5S"
    r = rk.Game("gin").showdown(knocker, [defender])
    assert r.deadwood[1] == 12 - 5 and (r.outcome, r.winner, r.points) == ("undercut", 1, (0, 9 - 7 + 25))
    tie = "KS KD KC 7D 8D 9D AH 2C 4C 2D"
    r = rk.Game("gin").showdown(knocker, [tie])
    assert r.deadwood == (9, 9) and (r.outcome, r.winner, r.points) == ("undercut", 1, (0, 25))
    r = rk.Game("gin", undercut_on_tie=False).showdown(knocker, [tie])
    assert (r.outcome, r.winner, r.points, r.boxes) == ("knock", 0, (0, 0), (1, 0))


@pytest.mark.parametrize(
    ("game", "upcard", "points"),
    [("gin", None, 2), ("oklahoma-gin", "7D", 2), ("oklahoma-gin", "7S", 4)],
)
def test_ex_o02_layoffs_24_to_8(game: str, upcard: str | None, points: int) -> None:
    r = rk.Game(game).showdown("7H 8H 9H TH QC QD QS 2S 3D AC", ["9C TC JC 5S 5D 5C JH 6H 4C 4D"], upcard=upcard)
    assert r.deadwood == (6, 8) and r.points == (points, 0)
    assert [str(c) for lo in r.layoffs[1] for c in lo.cards] == ["6H", "JH"]


def test_ex_o02_knock_over_the_upcard_limit_is_illegal() -> None:
    with pytest.raises(IllegalActionError, match="deadwood 6 over the knock limit 5"):
        rk.Game("oklahoma-gin").showdown(
            "7H 8H 9H TH QC QD QS 2S 3D AC", ["9C TC JC 5S 5D 5C JH 6H 4C 4D"], upcard="5H"
        )


def test_ex_o01_knock_limit_from_upcard() -> None:
    game = rk.Game("oklahoma-gin")
    knocker, defender = "AC 4D 2S 3S 4S 5S 6H 6D 6C 6S", ["KS KD KC 7D 8D 9D 2H 4C TS QC"]
    assert game.showdown(knocker, defender, upcard="5H").outcome == "knock"
    assert game.showdown(knocker, defender, upcard="KH").outcome == "knock"
    for upcard in ("4H", "AH"):
        with pytest.raises(IllegalActionError):
            game.showdown(knocker, defender, upcard=upcard)


def test_ex_o05_ace_upcard_gin_only() -> None:
    knocker, defender = "2C 3C 4C 5H 6H 7H 9S 9D 9C AD", ["KS KD KC 7D 8D 9H AH 4D TS QC"]
    with pytest.raises(IllegalActionError, match="gin only"):
        rk.Game("oklahoma-gin").showdown(knocker, defender, upcard="AS")
    r = rk.Game("oklahoma-gin", ace_upcard_gin_only=False).showdown(knocker, defender, upcard="AS")
    assert r.deadwood[0] == 1 and r.multiplier == 2


def test_ex_o06_ace_of_spades_gin() -> None:
    r = rk.Game("oklahoma-gin").showdown(
        "AC 2C 3C 4H 4D 4S 7D 8D 9D TD", ["KS KH KC 5C 6C 7C 8S 2D 3S 7H"], upcard="AS"
    )
    assert r.deadwood == (0, 20) and r.points == (90, 0)


def test_ex_o08_double_oklahoma() -> None:
    game = rk.Game("double-oklahoma")
    r = game.showdown("AC 2C 3C 4H 4D 4S 7D 8D 9D 3H", ["KS KH KC QS QH QD 8S 6H 3S 2H"], upcard="9S")
    assert r.deadwood == (3, 19) and r.points == ((19 - 3) * 3, 0)


def test_ex_m01_three_players_net_collect() -> None:
    game = rk.Game("oklahoma-rummy")
    a, b, c = "AC 2C 3C 4H 4D 4S 5S", "KS KH KC 2D 3H 2S 5D", "5C 6C 7C 8C 8H TH 2H"
    r = game.showdown(a, [b, c], upcard="8D")
    assert r.deadwood == (5, 12, 20) and r.points == (32, -7, -15)
    r = game.showdown(a, [b, c], upcard="8S")
    assert r.points == (64, -14, -30)


def test_ex_m04_defender_tie_goes_first_after_knocker() -> None:
    game = rk.Game("oklahoma-rummy")
    r = game.showdown("AC 2C 3C 4H 4D 4S 6S", ["KS KH KC 7D 8D 9D 6H", "5C 6C 7C QS QH QD 6D"], upcard="8C")
    assert r.deadwood == (6, 6, 6) and (r.outcome, r.winner, r.points) == ("undercut", 1, (0, 10, 0))


def test_ex_g04_knock_eligibility_in_play() -> None:
    # deal so that seat 1 holds 7S 8S 9S KC KD KH KS 2H 3C 4D and draws 5S
    hand1 = ["7S", "8S", "9S", "KC", "KD", "KH", "KS", "2H", "3C", "4D"]
    rest = [str(c) for c in rk.from_mask((1 << 52) - 1 & ~rk.to_mask(hand1 + ["5S", "QD"]))]
    hand0 = rest[:10]
    deck = [c for pair in zip(hand1, hand0) for c in pair] + ["QD", "5S"] + rest[10:]
    for compare, legal_4d in (("le", True), ("lt", False)):
        state = rk.Game("gin", knock_compare=compare, first_turn_procedure="normal").new_hand(deck=deck, dealer=0)
        state.play("draw stock", player=1)
        assert Card("5S") in state.hand(1)
        assert state.can_knock("5S")
        assert state.can_knock("4D") is legal_4d


def test_ex_g16_upcard_offer() -> None:
    state = rk.Game("gin").new_hand(seed=3, dealer=0)
    upcard = state.upcard
    assert state.phase_name == "offer_nondealer" and state.legal_actions() == [105, 106]
    state.play("pass")
    assert state.phase_name == "offer_dealer" and state.current_player == 0
    state.play("take upcard")
    with pytest.raises(IllegalActionError, match="just taken"):
        state.play(f"discard {upcard}")
    with pytest.raises(IllegalActionError, match="just taken"):
        state.play(f"knock {upcard}")
    both_pass = rk.Game("gin").new_hand(seed=3, dealer=0)
    both_pass.play("pass")
    both_pass.play("pass")
    assert both_pass.phase_name == "forced_stock_draw" and both_pass.legal_actions() == [104]
    assert both_pass.top_discard == upcard


def test_ex_g09_stock_floor_dead_at_2() -> None:
    state = rk.Game("gin", first_turn_procedure="normal").new_hand(seed=5, dealer=0)
    draws = 0
    while not state.is_terminal():
        state.play("draw stock")
        draws += 1
        discard = next(a for a in state.legal_actions() if a < 52)
        state.apply_action(discard)
    assert draws == 29 and len(state.stock) == 2
    assert state.result is not None and state.result.outcome == "dead" and state.returns() == [0, 0]


def test_ex_g09_dead_on_draw() -> None:
    state = rk.Game("gin", first_turn_procedure="normal", stock_end_rule="dead_on_draw").new_hand(seed=5, dealer=0)
    draws = 0
    while not state.is_terminal():
        state.play("draw stock")
        draws += 1
        if not state.is_terminal():
            state.apply_action(next(a for a in state.legal_actions() if a < 52))
    assert draws == 29 and state.result is not None and state.result.outcome == "dead"


def test_out_of_turn_and_bad_actions_leave_the_state_unchanged() -> None:
    state = rk.Game("oklahoma-gin").new_hand(seed=2, dealer=0)
    before = (state.hands, state.stock, state.discards, state.phase, list(state.history))
    for bad, rule in [
        ("discard 7H", "draw first"),
        ("knock 9C", "draw first"),
        ("pass", "not allowed"),
        (999, "not an action id"),
        ("fly away", "not an action"),
    ]:
        with pytest.raises(IllegalActionError, match=rule):
            state.play(bad)
    with pytest.raises(IllegalActionError, match="out of turn"):
        state.play("draw stock", player=0)
    assert (state.hands, state.stock, state.discards, state.phase, list(state.history)) == before


def test_q30_partnerships_settle_side_totals() -> None:
    game = rk.Game("partnership_oklahoma")
    assert (game.num_players, game.rules.scoring_model, game.rules.target_score) == (4, "classic_two_player", 200)
    hands = ["KS KH KC 7D 8D 9D 6H", "5C 6C 7C QS QH QD 6D", "2D 3D 9H TH JC 9C 8C"]
    r = game.showdown("AC 2C 3C 4H 4D 4S 6S", hands, upcard="8H")
    # sides: knocker 6 + partner 6 = 12 against 6 + 51 = 57
    assert (r.outcome, r.winner, r.deadwood) == ("knock", 0, (6, 6, 6, 51))
    assert r.points == (45, 0, 45, 0) and r.boxes == (1, 0, 1, 0)
    # the opponents undercut when their side total is not above the knocker's side
    r = game.showdown(
        "AC 2C 3C 4H 4D 4S 6S", ["KS KH KC 7D 8D 9D 6H", "2D 3D 9H TH JC 9C 8C", "5C 6C 7C QS QH QD 6D"], upcard="8H"
    )
    # sides: 6 + 51 = 57 against 6 + 6 = 12: the first opponent after the knocker undercuts
    assert (r.outcome, r.winner, r.deadwood) == ("undercut", 1, (6, 6, 51, 6))
    assert r.points == (0, 57 - 12 + 25, 0, 57 - 12 + 25) and r.boxes == (0, 1, 0, 1)


def test_q30_partnerships_need_four_players() -> None:
    with pytest.raises(rk.InvalidOptionError, match="partnerships"):
        rk.Game("oklahoma-rummy", num_players=3, partnerships=True)


@pytest.mark.parametrize(
    ("knocker", "defenders", "upcard", "melds", "error", "named"),
    [
        (
            "AC 2C 3C 4H 4D 4S 7D 8D 9D TD",
            ["AC KH KC 5C 6C 7C 8S 2D 3S 2H"],
            None,
            None,
            rk.InvalidCardError,
            "two hands",
        ),
        ("AC 2C 3C 4H 4D 4S 7D 8D 9D TD", [], None, None, IllegalActionError, "2 players"),
        ("AC 2C 3C 4H 4D 4S 7D 8D 9D XX", ["KS"], None, None, rk.InvalidCardError, "XX"),
        (
            "AC 2C 3C 4H 4D 4S 7D 8D 9D TD",
            ["KS KH KC 5C 6C 7C 8S 2D 3S 2H"],
            None,
            ["AC 2C 4H"],
            rk.InvalidMeldError,
            "AC 2C 4H",
        ),
        (
            "AC 2C 3C 4H 4D 4S 7D 8D 9D TD",
            ["KS KH KC 5C 6C 7C 8S 2D 3S 2H"],
            None,
            ["AC 2C 3C", "3C 4C 5C"],
            rk.InvalidMeldError,
            "3C",
        ),
        (
            "AC 2C 3C 4H 4D 4S 7D 8D 9D TD",
            ["KS KH KC 5C 6C 7C 8S 2D 3S 2H"],
            None,
            ["AC 2C 3C"],
            IllegalActionError,
            "deadwood 46",
        ),
    ],
)
def test_showdown_bad_input_is_named(knocker, defenders, upcard, melds, error, named) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(error, match=named):
        rk.Game("gin").showdown(knocker, defenders, upcard=upcard, knocker_melds=melds)


def test_showdown_needs_the_upcard_when_it_sets_the_limit() -> None:
    with pytest.raises(IllegalActionError, match="upcard"):
        rk.Game("oklahoma-gin").showdown("AC 2C 3C 4H 4D 4S 7D 8D 9D TD", ["KS KH KC 5C 6C 7C 8S 2D 3S 2H"])
