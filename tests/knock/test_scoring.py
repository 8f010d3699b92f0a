"""Scoring machinery: the worked examples of docs/rules.md (Gin Rummy, Oklahoma Gin and Oklahoma Rummy examples),
exactly, plus bad input."""

from __future__ import annotations

import dataclasses
import random

import pytest

from rummykit import IllegalActionError, InvalidOptionError
from rummykit.scoring import (
    HandScore,
    HollywoodSheet,
    ScoringParams,
    match_points,
    ring_payout,
    score_hand,
    settle,
)

CLASSIC = ScoringParams.for_model("classic_two_player")
NET = ScoringParams.for_model("net_collect")
BONUS = ScoringParams.for_model("bonus_penalty")
RING = ScoringParams.for_model("ring_penalty")

A, B, C, D = 0, 1, 2, 3


# ---------------------------------------------------------------------------------------------
# ScoringParams: the docs/rules.md "Multi-player scoring models" table


def test_model_rows() -> None:
    rows = {
        name: dataclasses.astuple(ScoringParams.for_model(name))
        for name in ("classic_two_player", "net_collect", "bonus_penalty", "ring_penalty")
    }
    # model, knock, undercut, gin, big gin, collect, charged, gin mult, gin extra, uc extra
    assert rows == {
        "classic_two_player": ("classic_two_player", 0, 25, 25, None, True, False, 1, 0, 0),
        "net_collect": ("net_collect", 10, 10, 20, None, True, True, 1, 0, 0),
        "bonus_penalty": ("bonus_penalty", 10, 20, 25, None, False, True, 2, 0, 0),
        "ring_penalty": ("ring_penalty", 0, 20, 0, None, False, True, 1, 25, 10),
    }


def test_overrides_and_frozen() -> None:
    pagat = ScoringParams.for_model("classic_two_player", gin_bonus=20, undercut_bonus=10)
    assert (pagat.gin_bonus, pagat.undercut_bonus, pagat.knock_bonus) == (20, 10, 0)
    assert NET.with_options(big_gin_bonus=31).big_gin_bonus == 31
    with pytest.raises(dataclasses.FrozenInstanceError):
        NET.gin_bonus = 5  # type: ignore[misc]


# ---------------------------------------------------------------------------------------------
# Gin Rummy hand points (classic_two_player) (docs/rules.md, Gin Rummy examples)


def classic(k: int, d: int, outcome: str, winner: int, multiplier: int = 1) -> HandScore:
    """A two-player classic hand: seat 0 knocks with ``k``, seat 1 defends with ``d``."""
    return score_hand(CLASSIC, knocker=0, deadwood=[k, d], outcome=outcome, winner=winner, multiplier=multiplier)


def test_ex_g01_knock() -> None:
    s = classic(9, 25, "knock", 0)
    assert s == HandScore(points=(16, 0), credits=(16, 0), charges=(0, 0), winner=0, outcome="knock")


def test_ex_g02_undercut() -> None:
    s = classic(9, 7, "undercut", 1)
    assert (s.points, s.credits, s.charges, s.winner) == ((0, 27), (0, 27), (0, 0), 1)


def test_ex_g03_gin() -> None:
    assert classic(0, 15, "gin", 0).points == (40, 0)


def test_ex_g07_tie() -> None:
    assert classic(7, 7, "undercut", 1).points == (0, 25)  # undercut_on_tie = true
    tie = classic(7, 7, "tie_knocker_wins", 0)  # undercut_on_tie = false: knocker wins 0
    assert (tie.points, tie.winner) == ((0, 0), 0)


def test_ex_g08_gin_against_zero() -> None:
    s = classic(0, 0, "gin", 0)
    assert (s.points, s.winner, s.outcome) == ((25, 0), 0, "gin")


def test_big_gin_classic() -> None:
    params = CLASSIC.with_options(big_gin_bonus=31)
    s = score_hand(params, knocker=1, deadwood=[12, 0], outcome="big_gin", winner=1)
    assert s.points == (0, 43)
    with pytest.raises(InvalidOptionError, match="big gin is off"):
        classic(0, 12, "big_gin", 0)


def test_classic_pagat_bonuses() -> None:
    pagat = ScoringParams.for_model("classic_two_player", gin_bonus=20, undercut_bonus=10)
    assert score_hand(pagat, knocker=0, deadwood=[9, 7], outcome="undercut", winner=1).points == (
        0,
        12,
    )
    assert score_hand(pagat, knocker=0, deadwood=[0, 15], outcome="gin", winner=0).points == (
        35,
        0,
    )


def test_classic_more_seats_collects_from_each_loser_uncharged() -> None:
    s = score_hand(CLASSIC, knocker=0, deadwood=[5, 12, 20], outcome="knock", winner=0)
    assert (s.points, s.charges) == ((22, 0, 0), (0, 0, 0))
    s = score_hand(CLASSIC, knocker=0, deadwood=[8, 6, 15], outcome="undercut", winner=1)
    assert s.points == (0, 2 + 9 + 25, 0)


# ---------------------------------------------------------------------------------------------
# Oklahoma Gin (classic_two_player × spade multiplier) (docs/rules.md, Oklahoma Gin examples)


def test_ex_o02_scores() -> None:
    assert classic(6, 8, "knock", 0).points == (2, 0)  # Gin Rummy rules
    assert classic(6, 8, "knock", 0, multiplier=1).points == (2, 0)  # upcard 7D
    assert classic(6, 8, "knock", 0, multiplier=2).points == (4, 0)  # upcard 7S


def test_ex_o03_spade_doubles_knock() -> None:
    assert classic(2, 20, "knock", 0).points == (18, 0)
    assert classic(2, 20, "knock", 0, multiplier=2).points == (36, 0)


def test_ex_o06_ace_of_spades_gin() -> None:
    assert classic(0, 20, "gin", 0, multiplier=2).points == (90, 0)


def test_ex_o07_spade_undercuts() -> None:
    assert classic(4, 4, "undercut", 1, multiplier=2).points == (0, 50)
    assert classic(4, 1, "undercut", 1, multiplier=2).points == (0, 56)


def test_ex_o08_double_oklahoma() -> None:
    assert classic(3, 19, "knock", 0, multiplier=3).points == (48, 0)


def test_ex_o09_queen_upcard() -> None:
    assert classic(10, 14, "knock", 0).points == (4, 0)


# ---------------------------------------------------------------------------------------------
# Oklahoma Rummy, 3 players, A knocks (seat 0) (docs/rules.md, Oklahoma Rummy examples)


def test_ex_m01_net_collect() -> None:
    s = score_hand(NET, knocker=A, deadwood=[5, 12, 20], outcome="knock", winner=A)
    assert (s.points, s.credits, s.charges) == ((32, -7, -15), (32, 0, 0), (0, 7, 15))
    s = score_hand(NET, knocker=A, deadwood=[5, 12, 20], outcome="knock", winner=A, multiplier=2)
    assert (s.points, s.credits, s.charges) == ((64, -14, -30), (64, 0, 0), (0, 14, 30))


def test_ex_m02_net_collect_undercut() -> None:
    s = score_hand(NET, knocker=A, deadwood=[8, 6, 15], outcome="undercut", winner=B)
    assert (s.points, s.winner) == ((-2, 21, -9), B)


def test_ex_m03_net_collect_gin() -> None:
    s = score_hand(NET, knocker=A, deadwood=[0, 14, 9], outcome="gin", winner=A)
    assert s.points == (43, -14, -9)


def test_ex_m04_net_collect_ties() -> None:
    s = score_hand(NET, knocker=A, deadwood=[6, 6, 11], outcome="undercut", winner=B)
    assert s.points == (0, 15, -5)
    s = score_hand(NET, knocker=A, deadwood=[6, 6, 6], outcome="undercut", winner=B)
    assert s.points == (0, 10, 0)
    # undercut_on_tie = false: A wins the tie
    s = score_hand(NET, knocker=A, deadwood=[6, 6, 11], outcome="tie_knocker_wins", winner=A)
    assert (s.points, s.winner) == ((15, 0, -5), A)
    assert score_hand(NET, knocker=A, deadwood=[6, 6, 11], outcome="knock", winner=A).points == (
        15,
        0,
        -5,
    )


def test_net_collect_is_zero_sum_apart_from_the_bonus() -> None:
    rng = random.Random(7)
    for _ in range(200):
        dw = [rng.randrange(1, 40) for _ in range(rng.choice((3, 4)))]
        knocker = rng.randrange(len(dw))
        m = min(d for seat, d in enumerate(dw) if seat != knocker)
        if m <= dw[knocker]:
            outcome = "undercut"
            winner = min(
                (seat for seat in range(len(dw)) if seat != knocker and dw[seat] == m),
                key=lambda seat: (seat - knocker) % len(dw),
            )
        else:
            outcome, winner = "knock", knocker
        s = score_hand(NET, knocker=knocker, deadwood=dw, outcome=outcome, winner=winner)
        assert sum(s.points) == 10
        assert all(p == c - q for p, c, q in zip(s.points, s.credits, s.charges))


def test_ex_m06_bonus_penalty() -> None:
    s = score_hand(BONUS, knocker=A, deadwood=[5, 12, 20], outcome="knock", winner=A)
    assert (s.credits, s.charges, s.points) == ((10, 0, 0), (0, 7, 15), (10, -7, -15))
    s = score_hand(BONUS, knocker=A, deadwood=[8, 6, 15], outcome="undercut", winner=B)
    assert (s.credits, s.charges, s.points) == ((0, 20, 0), (2, 0, 9), (-2, 20, -9))
    s = score_hand(BONUS, knocker=A, deadwood=[0, 14, 9], outcome="gin", winner=A)
    assert (s.credits, s.charges, s.points) == ((25, 0, 0), (0, 28, 18), (25, -28, -18))


def test_ex_m07_ring_penalty() -> None:
    s = score_hand(RING, knocker=A, deadwood=[5, 12, 20], outcome="knock", winner=A)
    assert (s.credits, s.charges) == ((0, 0, 0), (0, 7, 15))
    s = score_hand(RING, knocker=A, deadwood=[8, 6, 15], outcome="undercut", winner=B)
    assert (s.credits, s.charges) == ((0, 20, 0), (12, 0, 9))
    s = score_hand(RING, knocker=A, deadwood=[0, 14, 9], outcome="gin", winner=A)
    assert (s.credits, s.charges) == ((0, 0, 0), (0, 39, 34))
    assert s.points == (0, -39, -34)


def test_spade_multiplier_scales_credits_and_charges() -> None:
    s = score_hand(RING, knocker=A, deadwood=[8, 6, 15], outcome="undercut", winner=B, multiplier=2)
    assert (s.credits, s.charges, s.points) == ((0, 40, 0), (24, 0, 18), (-24, 40, -18))


# ---------------------------------------------------------------------------------------------
# settlement (docs/rules.md, Two-player settlement)


def test_ex_g10_settlement() -> None:
    assert settle([104, 38], [4, 2]) == [304, 88]
    assert settle([38, 104], [2, 4]) == [88, 304]


def test_ex_g11_shutout() -> None:
    assert settle([112, 0], [3, 0]) == [574, 0]
    assert settle([112, 0], [3, 0], shutout_rule="double_total") == [574, 0]
    assert settle([112, 0], [3, 0], shutout_rule="double_game_bonus") == [387, 0]
    assert settle([112, 0], [3, 0], shutout_rule="double_hand_points") == [399, 0]
    assert settle([112, 0], [3, 0], shutout_rule="none") == [287, 0]
    # preset gin_classic_pagat: box 20, double_game_bonus
    assert settle([112, 0], [3, 0], box_bonus=20, shutout_rule="double_game_bonus") == [372, 0]
    assert settle([0, 112], [0, 3], box_bonus=20, shutout_rule="double_game_bonus") == [0, 372]


def test_no_shutout_when_loser_won_a_zero_point_hand() -> None:
    # a 0-point win (tie, knocker wins: docs/rules.md, D4) still gives a box, so no shutout
    assert settle([112, 0], [3, 1]) == [287, 25]


def test_ex_o10_oklahoma_settlement() -> None:
    assert settle([206, 40], [5, 2]) == [431, 90]
    assert settle([206, 40], [7, 2]) == [481, 90]  # spade_double_boxes: 2 wins on spades


# ---------------------------------------------------------------------------------------------
# Hollywood (docs/rules.md, Hollywood)


def test_ex_g12_hollywood() -> None:
    sheet = HollywoodSheet(150)
    sheet.record(A, 25)
    assert sheet.scores == [[25, None], [None, None], [None, None]]
    sheet.record(A, 18)
    assert sheet.scores == [[43, None], [18, None], [None, None]]
    sheet.record(A, 36)
    assert sheet.scores == [[79, None], [54, None], [36, None]]
    assert sheet.boxes == [[3, None], [2, None], [1, None]]
    assert sheet.opened(A) == [0, 1, 2] and sheet.opened(B) == []
    assert sheet.closed == [False, False, False] and not sheet.finished


def test_ex_g13_hollywood_two_players() -> None:
    you, opp = 0, 1
    hands = [(you, 18), (opp, 12), (you, 25), (opp, 30), (you, 15), (you, 22), (opp, 20)]
    n = None
    expected = [
        ((18, n, n), (n, n, n)),
        ((18, n, n), (12, n, n)),
        ((43, 25, n), (12, n, n)),
        ((43, 25, n), (42, 30, n)),
        ((58, 40, 15), (42, 30, n)),
        ((80, 62, 37), (42, 30, n)),
        ((80, 62, 37), (62, 50, 20)),
    ]
    sheet = HollywoodSheet(100)
    for (winner, points), (you_row, opp_row) in zip(hands, expected):
        sheet.record(winner, points)
        assert [column[you] for column in sheet.scores] == list(you_row)
        assert [column[opp] for column in sheet.scores] == list(opp_row)
        assert sheet.closed == [False, False, False]
    assert sheet.boxes == [[4, 3], [3, 2], [2, 1]]  # You won 4 hands, Opp 3
    assert sheet.settlement() == [None, None, None]


def test_ex_g14_hollywood_closes_g1() -> None:
    sheet = HollywoodSheet(100)
    sheet.record(A, 32)
    sheet.record(A, 28)
    assert sheet.scores[0] == [60, None]
    sheet.record(A, 45)
    assert sheet.scores == [[105, None], [73, None], [45, None]]
    assert sheet.closed == [True, False, False] and not sheet.finished
    # G1 settled with docs/rules.md, Two-player settlement: B has no entry → shutout (double_total)
    assert sheet.settlement() == [[(105 + 100 + 3 * 25) * 2, 0], None, None]
    assert sheet.settlement(shutout_rule="none", box_bonus=20) == [[265, 0], None, None]


def test_hollywood_closed_column_takes_no_more_scores() -> None:
    sheet = HollywoodSheet(100)
    sheet.record(A, 60)
    sheet.record(A, 50)  # G1 110 closes, G2 50
    assert sheet.closed == [True, False, False]
    sheet.record(A, 10)  # G1 stays at 110; G2 60, G3 10
    assert sheet.scores == [[110, None], [60, None], [10, None]]
    assert sheet.boxes == [[2, None], [2, None], [1, None]]


def test_hollywood_player_shut_out_of_g1_starts_in_next_open_column() -> None:
    sheet = HollywoodSheet(100)
    sheet.record(A, 50)
    sheet.record(A, 50)  # G1 100 closes with B shut out
    sheet.record(B, 10)
    assert sheet.opened(B) == [1]
    assert sheet.scores == [[100, None], [50, 10], [None, None]]
    sheet.record(B, 5)
    assert sheet.opened(B) == [1, 2]
    assert sheet.scores == [[100, None], [50, 15], [None, 5]]
    sheet.record(B, 7)  # nothing left to open
    assert sheet.opened(B) == [1, 2]
    assert sheet.scores == [[100, None], [50, 22], [None, 12]]
    assert sheet.settlement()[0] == [(100 + 100 + 2 * 25) * 2, 0]


def test_hollywood_several_columns_close_together_and_finish() -> None:
    sheet = HollywoodSheet(100)
    sheet.record(A, 40)
    sheet.record(B, 30)
    sheet.record(A, 40)  # A: 80/40
    sheet.record(A, 60, boxes=2)  # A: 140/100/60 → G1 and G2 close
    assert sheet.closed == [True, True, False]
    assert sheet.boxes == [[4, 1], [3, None], [2, None]]
    sheet.record(B, 20)  # B: G1 closed; opens G3 (first open column after G1)
    assert sheet.scores == [[140, 30], [100, None], [60, 20]]
    sheet.record(A, 40)  # A: G3 100 → finished
    assert sheet.finished and sheet.closed == [True, True, True]
    assert sheet.settlement() == [
        [140 + 100 + 4 * 25, 30 + 25],
        [(100 + 100 + 3 * 25) * 2, 0],
        [100 + 100 + 3 * 25, 20 + 25],
    ]
    with pytest.raises(IllegalActionError, match="finished"):
        sheet.record(B, 10)


def test_hollywood_returns_copies() -> None:
    sheet = HollywoodSheet(100)
    sheet.record(A, 10)
    sheet.scores[0][0] = 99
    sheet.opened(A).append(2)
    sheet.closed[0] = True
    assert sheet.scores[0][0] == 10 and sheet.opened(A) == [0] and sheet.closed[0] is False


# ---------------------------------------------------------------------------------------------
# match points (docs/rules.md, Match points)


def test_ex_g05_match_points() -> None:
    assert match_points([4, 2], winner=0) == [200, 50]
    assert match_points([2, 4], winner=1) == [50, 200]
    assert match_points([3, 0], winner=0) == [175, 0]


# ---------------------------------------------------------------------------------------------
# ring payout (docs/rules.md, Ring payout)


def test_ex_m08_slot_scaled() -> None:
    nets = [-30, -55, -70, -95]  # penalty totals A 30, B 55, C 70, D 95, negated
    assert ring_payout(10_000, nets, model="slot_scaled") == [9_418, 416, 166, 0]


def test_ex_m08_normalized_is_the_default() -> None:
    nets = [-30, -55, -70, -95]
    assert ring_payout(10_000, nets) == [7_501, 1_785, 714, 0]
    assert ring_payout(10_000, nets, model="normalized") == [7_501, 1_785, 714, 0]


def test_ex_m08_two_players() -> None:
    # the spec's figures are slot_scaled ones; normalized gives the one eligible player the whole 25%
    assert ring_payout(5_000, [-40, -50], model="slot_scaled") == [4_000, 1_000]
    assert ring_payout(5_000, [-50, -40], model="slot_scaled") == [1_000, 4_000]
    assert ring_payout(5_000, [-40, -50]) == [3_750, 1_250]


def test_ex_m08_tie_for_first() -> None:
    assert ring_payout(9_000, [-20, -20, -45], model="slot_scaled") == [4_219, 4_219, 562]
    assert ring_payout(9_000, [-45, -20, -20], model="slot_scaled") == [562, 4_219, 4_219]
    # normalized, A as W: B 2 250 x 1/1.5 = 1 500, C 2 250 x 0.5/1.5 = 750, A 6 750; A and B split 8 250
    assert ring_payout(9_000, [-20, -20, -45]) == [4_125, 4_125, 750]


def test_ring_game_default_payout_is_normalized() -> None:
    from rummykit.knock.rules import knock_rules

    assert knock_rules("oklahoma_ring_seed003").ring_payout_model == "normalized"
    assert knock_rules("oklahoma_ring_seed003", ring_payout_model="slot_scaled").ring_payout_model == "slot_scaled"


def test_ring_tie_remainder_goes_in_seat_order_from_first_after() -> None:
    # 10 001: B's slot 1 250, A 8 751; A and B share 10 001 → 5 000 each, 1 unit left over
    slot = {"model": "slot_scaled"}
    assert ring_payout(10_001, [0, 0, -100], **slot) == [5_001, 5_000, 0]
    assert ring_payout(10_001, [0, 0, -100], first_after=1, **slot) == [5_000, 5_001, 0]
    assert ring_payout(10_001, [0, 0, -100], first_after=2, **slot) == [5_001, 5_000, 0]
    # three-way tie, 2 units left over: seats 2 then 0 get them
    assert ring_payout(11, [0, 0, 0], first_after=2) == [4, 3, 4]


def test_ring_nobody_eligible_and_cutoff() -> None:
    assert ring_payout(1_000, [0, -50, -80]) == [1_000, 0, 0]  # exactly 50 behind: not eligible
    assert ring_payout(1_000, [0, -50, -80], model="normalized") == [1_000, 0, 0]
    assert ring_payout(1_000, [0, -50, -80], cutoff_gap=100, model="slot_scaled") == [1_000 - 62 - 25, 62, 25]


def test_ring_payout_invariants() -> None:
    rng = random.Random(11)
    for _ in range(300):
        n = rng.randrange(2, 5)
        nets = [-rng.randrange(0, 120) for _ in range(n)]
        pool = rng.randrange(0, 50_000)
        for model in ("slot_scaled", "normalized"):
            pay = ring_payout(pool, nets, model=model, first_after=rng.randrange(n))
            assert sum(pay) == pool and min(pay) >= 0
            best = max(nets)
            top = [p for p, v in zip(pay, nets) if v == best]
            assert max(top) - min(top) <= 1
            if len(top) == 1:
                assert 4 * top[0] >= 3 * pool  # the winner gets at least 75 %
            for p, v in zip(pay, nets):
                if best - v >= 50:
                    assert p == 0


# ---------------------------------------------------------------------------------------------
# bad input


@pytest.mark.parametrize(
    ("call", "named"),
    [
        (lambda: ScoringParams.for_model("gin_rummy"), "unknown scoring model 'gin_rummy'"),
        (lambda: ScoringParams.for_model("net_collect", spade=2), "unknown scoring parameter"),
        (lambda: ScoringParams.for_model("net_collect", gin_bonus=-5), "gin_bonus"),
        (lambda: ScoringParams.for_model("net_collect", losers_charged=1), "losers_charged"),
        (lambda: NET.with_options(colour="red"), "unknown scoring parameter 'colour'"),
        (lambda: dataclasses.replace(NET, model="other"), "unknown scoring model 'other'"),
    ],
)
def test_bad_params(call: object, named: str) -> None:
    with pytest.raises(InvalidOptionError, match=named):
        call()  # type: ignore[operator]


@pytest.mark.parametrize(
    ("kwargs", "named"),
    [
        ({"outcome": "schneider"}, "unknown outcome 'schneider'"),
        ({"deadwood": [9, -1]}, r"deadwood\[1\]"),
        ({"deadwood": [9]}, "at least 2"),
        ({"deadwood": "95"}, "deadwood"),
        ({"knocker": 2}, "knocker"),
        ({"winner": -1}, "winner"),
        ({"winner": True}, "winner"),
        ({"multiplier": 0}, "multiplier"),
        ({"winner": 1}, "winner must be the knocker"),
        ({"deadwood": [9, 7]}, "seat 1 has deadwood 7"),
        ({"outcome": "gin"}, "knocker deadwood 0"),
        ({"deadwood": [0, 20]}, "deadwood 0 is gin"),
        ({"outcome": "undercut"}, "winner must be a defender"),
        ({"outcome": "undercut", "winner": 1}, "winner deadwood 25 > knocker's 9"),
        ({"outcome": "tie_knocker_wins"}, "needs a defender with deadwood 9"),
    ],
)
def test_bad_hands(kwargs: dict[str, object], named: str) -> None:
    call: dict[str, object] = {"knocker": 0, "deadwood": [9, 25], "outcome": "knock", "winner": 0}
    call.update(kwargs)
    with pytest.raises(InvalidOptionError, match=named):
        score_hand(CLASSIC, **call)  # type: ignore[arg-type]


def test_undercut_winner_must_have_the_least_deadwood() -> None:
    with pytest.raises(InvalidOptionError, match="seat 1 has deadwood 6 < the winner's 7"):
        score_hand(NET, knocker=0, deadwood=[8, 6, 7], outcome="undercut", winner=2)


@pytest.mark.parametrize(
    ("args", "kwargs", "named"),
    [
        (([100, 100], [3, 3]), {}, "tied hand points 100"),
        (([104, 38], [4, 2]), {"shutout_rule": "triple"}, "unknown shutout_rule 'triple'"),
        (([104, -38], [4, 2]), {}, r"points\[1\]"),
        (([104, 38], [4, -2]), {}, r"boxes\[1\]"),
        (([104, 38, 5], [4, 2, 1]), {}, "two players"),
        (([104, 38], [4, 2]), {"game_bonus": -100}, "game_bonus"),
        (([104, 38], [4, 2]), {"box_bonus": 2.5}, "box_bonus"),
    ],
)
def test_bad_settle(args: tuple[object, object], kwargs: dict[str, object], named: str) -> None:
    with pytest.raises(InvalidOptionError, match=named):
        settle(*args, **kwargs)  # type: ignore[arg-type]


def test_bad_hollywood() -> None:
    with pytest.raises(InvalidOptionError, match="2 players only"):
        HollywoodSheet(100, players=3)
    with pytest.raises(InvalidOptionError, match="target_score"):
        HollywoodSheet(0)
    sheet = HollywoodSheet(100)
    with pytest.raises(IllegalActionError, match="points must be an int >= 0"):
        sheet.record(A, -5)
    with pytest.raises(IllegalActionError, match="winner must be a player"):
        sheet.record(2, 5)
    with pytest.raises(IllegalActionError, match="boxes"):
        sheet.record(A, 5, boxes=0)
    with pytest.raises(InvalidOptionError, match="player"):
        sheet.opened(5)
    assert sheet.scores == [[None, None]] * 3  # bad records changed nothing
    sheet.record(A, 100)
    with pytest.raises(InvalidOptionError, match="unknown shutout_rule"):
        sheet.settlement(shutout_rule="bogus")


def test_recording_into_a_finished_hollywood_sheet() -> None:
    sheet = HollywoodSheet(50)
    for _ in range(3):
        sheet.record(B, 50)
    assert sheet.finished
    before = sheet.scores
    with pytest.raises(IllegalActionError, match="sheet is finished"):
        sheet.record(A, 10)
    assert sheet.scores == before


@pytest.mark.parametrize(
    ("call", "named"),
    [
        (lambda: match_points([4, 2], winner=2), "winner"),
        (lambda: match_points([4, -2], winner=0), r"hands_won\[1\]"),
        (lambda: match_points([4], winner=0), "at least 2"),
        (lambda: ring_payout(1_000, [0, -5], model="winner_takes_all"), "unknown ring payout"),
        (lambda: ring_payout(-1, [0, -5]), "pool"),
        (lambda: ring_payout(1_000, [0]), "at least 2"),
        (lambda: ring_payout(1_000, [0, -5], cutoff_gap=0), "cutoff_gap"),
        (lambda: ring_payout(1_000, [0, -5], first_after=2), "first_after"),
        (lambda: ring_payout(1_000, [0, 1.5]), r"nets\[1\]"),  # type: ignore[list-item]
    ],
)
def test_bad_match_and_ring(call: object, named: str) -> None:
    with pytest.raises(InvalidOptionError, match=named):
        call()  # type: ignore[operator]
