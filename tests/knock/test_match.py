"""The match layer of the knock games (docs/rules.md, game end in Gin Rummy, Oklahoma Gin and Oklahoma Rummy, Scoring,
Dealing and turn options, Game and match options, D25,
Q27-Q29): seeded matches between simple agents."""

from __future__ import annotations

import functools
import random
from collections import Counter
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import rummykit as rk
from rummykit import IllegalActionError, InvalidOptionError, KnockState
from rummykit.knock.actions import BIG_GIN, DRAW_STOCK, KNOCK, PASS, Action
from rummykit.knock.match import GameResult, KnockMatch, MatchResult
from rummykit.scoring import HollywoodSheet, match_points, ring_payout, settle

#: the test agents look only at what their seat knows: trusted with the real state (no copy per decision)
Match = functools.partial(KnockMatch, trusted=True)

Agent = Callable[[KnockState], "int | str | Action"]


def simple(state: KnockState) -> int:
    """Knock if any knock is legal, else draw from the stock, else pass, else discard the
    highest card id."""
    legal = state.legal_actions()
    knocks = [a for a in legal if KNOCK <= a < DRAW_STOCK]
    if knocks:
        return knocks[0]
    if DRAW_STOCK in legal:
        return DRAW_STOCK
    if PASS in legal:
        return PASS
    return max(a for a in legal if a < KNOCK)


def random_agent(seed: int) -> Agent:
    """A random legal action (a random knock whenever one is legal)."""
    rng = random.Random(seed)

    def agent(state: KnockState) -> int:
        legal = state.legal_actions()
        knocks = [a for a in legal if KNOCK <= a < DRAW_STOCK]
        return rng.choice(knocks or legal)

    return agent


def text_agent(state: KnockState) -> str:
    """``simple`` speaking action text."""
    return str(Action(simple(state)))


def live(match: KnockMatch) -> list[rk.HandResult]:
    return [h for h in match.hands if not h.is_dead]


def sums(hands: list[rk.HandResult], n: int) -> tuple[list[int], list[int]]:
    points = [sum(h.points[s] for h in hands) for s in range(n)]
    boxes = [sum(h.boxes[s] for h in hands) for s in range(n)]
    return points, boxes


# --- Gin: target and settlement (docs/rules.md, Gin Rummy (Game), Two-player settlement)
# ---------------------------------------------


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_gin_match_reaches_the_target_and_settles(seed: int) -> None:
    match = Match("gin", [simple, random_agent(seed)], seed=seed)
    result = match.play()
    assert isinstance(result, MatchResult) and match.is_over and match.result is result
    points, boxes = sums(match.hands, 2)
    assert list(match.scores) == points and list(match.boxes) == boxes
    assert result.scores == tuple(points) and result.boxes == tuple(boxes)
    winner = result.winner
    assert winner is not None and points[winner] >= 100 > points[1 - winner]
    # the game ended at once: before the last hand nobody had reached the target
    last = match.hands[-1]
    assert not last.is_dead and last.winner == winner
    assert all(p - q < 100 for p, q in zip(points, last.points))
    expected = settle(points, boxes, game_bonus=100, box_bonus=25, shutout_rule="double_total")
    assert list(result.totals) == expected == match.game.settle(points, boxes)
    (game,) = result.games
    assert game.winner == winner and game.totals == result.totals and game.match_points is None
    assert game.hands_won == tuple(Counter(h.winner for h in live(match))[s] for s in range(2))
    assert game.hands == result.hand_count == len(match.hands)
    assert result.dead_hands == len(match.hands) - len(live(match))
    assert result.standings[0] == winner and result.payout is None and result.hollywood is None
    with pytest.raises(IllegalActionError, match="the match is over"):
        match.play_hand()


def test_settlement_uses_the_games_options() -> None:
    options: dict[str, Any] = {
        "target_score": 60,
        "game_bonus": 50,
        "box_bonus": 20,
        "shutout_rule": "double_game_bonus",
    }
    match = Match("gin", [simple, simple], seed=5, **options)
    result = match.play()
    points, boxes = sums(match.hands, 2)
    assert max(points) >= 60
    assert list(result.totals) == settle(points, boxes, game_bonus=50, box_bonus=20, shutout_rule="double_game_bonus")


def test_text_agents_and_a_game_object_with_extra_options() -> None:
    game = rk.Game("gin", knock_compare="lt")
    match = Match(game, [text_agent, text_agent], seed=3, target_score=50)
    assert match.rules.knock_compare == "lt" and match.rules.target_score == 50
    assert game.rules.target_score == 100  # the given game is not changed
    result = match.play()
    assert max(result.scores) >= 50
    same = Match(rk.Game("gin", knock_compare="lt", target_score=50), [simple, simple], seed=3).play()
    assert same == result


# --- dealer rotation (docs/rules.md, Dealing and turn options, D29)
# ---------------------------------------------------------------


def _check_rotation(match: KnockMatch, rotation: str, after_dead: str) -> None:
    dealers, hands = match.dealers, match.hands
    n = match.rules.num_players
    for i, hand in enumerate(hands):
        following = dealers[i + 1] if i + 1 < len(hands) else None
        if following is None:
            continue
        if hand.is_dead:
            assert following == (dealers[i] if after_dead == "same" else (dealers[i] + 1) % n)
        elif rotation == "winner_deals":
            assert following == hand.winner
        else:
            assert following == (dealers[i] + 1) % n


@pytest.mark.parametrize(
    ("game", "options"),
    [
        ("gin", {}),
        ("gin", {"dealer_rotation": "winner_deals"}),
        ("gin", {"dealer_after_dead_hand": "next"}),
        ("gin", {"dealer_rotation": "winner_deals", "dealer_after_dead_hand": "next"}),
        ("oklahoma-rummy", {"max_turns": 300}),
        ("oklahoma-rummy", {"dealer_rotation": "winner_deals", "max_turns": 300}),
    ],
)
def test_dealer_rotation(game: str, options: dict[str, Any]) -> None:
    g = rk.Game(game, **options)
    n = g.num_players
    match = Match(g, [simple] * n, seed=11, first_dealer=n - 1)
    assert match.dealer == n - 1
    match.play()
    assert match.dealers[0] == n - 1
    assert any(h.is_dead for h in match.hands) and len(live(match)) >= 2
    _check_rotation(match, g.rules.dealer_rotation, g.rules.dealer_after_dead_hand)


def test_same_dealer_after_a_dead_hand_and_the_next_dealer() -> None:
    match = Match("gin", [simple, simple], seed=2, first_dealer=0)
    seen_dead = seen_live = False
    while not match.is_over and not (seen_dead and seen_live):
        before = match.dealer
        hand = match.play_hand()
        if hand.is_dead:
            seen_dead = True
            assert match.dealer == before
        else:
            seen_live = True
            assert match.dealer == 1 - before
    assert seen_dead and seen_live


def test_first_dealer_from_the_seed() -> None:
    dealers = {Match("gin", [simple, simple], seed=s).dealer for s in range(20)}
    assert dealers == {0, 1}
    assert Match("gin", [simple, simple], seed=4).dealer == Match("gin", [simple, simple], seed=4).dealer


# --- Oklahoma Rummy: net_collect to 150 (docs/rules.md, Oklahoma Rummy)
# ------------------------------------------------------


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_oklahoma_rummy_three_players_to_150(seed: int) -> None:
    agents = [simple, random_agent(seed), simple]
    match = Match("oklahoma-rummy", agents, seed=seed, max_turns=300)
    assert match.rules.num_players == 3 and match.rules.scoring_model == "net_collect"
    result = match.play()
    points, _ = sums(match.hands, 3)
    assert result.scores == result.totals == tuple(points)
    winner = result.winner
    assert winner is not None and points[winner] >= 150
    assert all(p < 150 for s, p in enumerate(points) if s != winner)
    assert result.games[0].totals is None  # no settlement for 3-4 players
    bonus = {"knock": 10, "undercut": 10, "gin": 20}
    for hand in live(match):  # zero-sum apart from the bonus (docs/rules.md, Multi-player scoring models)
        assert sum(hand.points) == bonus[hand.outcome] * hand.multiplier
    assert result.standings[0] == winner and sorted(result.standings) == [0, 1, 2]


# --- fixed hands and the ring payout (docs/rules.md, D25, Ring payout)
# ---------------------------------------------------


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_ring_fixed_hands_and_payout(seed: int) -> None:
    agents = [simple, random_agent(seed), simple]
    match = Match("oklahoma_ring_seed003", agents, seed=seed, pool=10_000, num_players=3, max_restocks=2, max_turns=300)
    result = match.play()
    counted = live(match)
    assert len(counted) == 6 and result.hand_count == 6 + result.dead_hands
    # same dealer after a dead hand, so each player deals twice (docs/rules.md, D25)
    assert Counter(d for d, h in zip(match.dealers, match.hands) if not h.is_dead) == {0: 2, 1: 2, 2: 2}
    points, _ = sums(match.hands, 3)
    assert result.totals == result.scores == tuple(points)
    for hand in counted:
        assert hand.points == tuple(c - p for c, p in zip(hand.credits, hand.charges))
    assert result.payout is not None and sum(result.payout) == 10_000
    first_after = (match.dealers[-1] + 1) % 3
    assert list(result.payout) == ring_payout(10_000, points, first_after=first_after)
    best = max(points)
    tied = [s for s in range(3) if points[s] == best]
    assert result.winner == (tied[0] if len(tied) == 1 else None)
    assert [points[s] for s in result.standings] == sorted(points, reverse=True)
    assert result.games[0].totals is None and result.games[0].hands == result.hand_count


def test_fixed_hands_num_hands_and_payout_model() -> None:
    match = Match(
        "oklahoma_seed002",
        [simple] * 4,
        seed=9,
        num_players=4,
        num_hands=3,
        max_turns=300,
        pool=1_000,
        ring_payout_model="normalized",
    )
    result = match.play()
    assert len(live(match)) == 3
    assert result.payout is not None and sum(result.payout) == 1_000
    assert list(result.payout) == ring_payout(
        1_000, result.totals, model="normalized", first_after=(match.dealers[-1] + 1) % 4
    )


def test_fixed_hands_two_players_without_settlement() -> None:
    result = Match("gin", [simple, simple], seed=1, game_end="fixed_hands").play()
    assert result.hand_count - result.dead_hands == 4
    assert result.totals == result.scores and result.games[0].totals is None


# --- Hollywood (docs/rules.md, Hollywood, D27) ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("game", "options"),
    [("gin", {}), ("oklahoma-gin", {"spade_double_boxes": True}), ("gin", {"gin_extra_boxes": 2})],
)
def test_hollywood_match_closes_all_three_columns(game: str, options: dict[str, Any]) -> None:
    match = Match(game, [simple, random_agent(7)], seed=7, scoring_sheet="hollywood", **options)
    result = match.play()
    rules = match.rules
    sheet = match.hollywood
    assert sheet is not None and sheet.finished and sheet.closed == [True, True, True]
    replay = HollywoodSheet(rules.target_score)
    entered = [[0, 0] for _ in range(3)]  # per column, per seat: wins entered in it
    open_hands = [0, 0, 0]  # per column: hands dealt while it was open
    for hand in match.hands:
        open_hands = [k + (not closed) for k, closed in zip(open_hands, replay.closed)]
        if hand.winner is None:
            continue
        before = replay.boxes
        replay.record(hand.winner, hand.points[hand.winner], hand.boxes[hand.winner])
        for column in range(3):
            entered[column][hand.winner] += replay.boxes[column][hand.winner] != before[column][hand.winner]
    assert replay.scores == sheet.scores and replay.boxes == sheet.boxes
    columns = replay.settlement(game_bonus=rules.game_bonus, box_bonus=rules.box_bonus, shutout_rule=rules.shutout_rule)
    assert result.hollywood == tuple(tuple(c) for c in columns if c is not None)
    assert len(result.games) == 3 and [g.totals for g in result.games] == list(result.hollywood)
    assert result.totals == tuple(sum(c[s] for c in result.hollywood) for s in range(2))
    nets = [c[0] - c[1] for c in result.hollywood]
    assert result.hollywood_net == (sum(nets), -sum(nets))
    assert result.winner == (None if sum(nets) == 0 else 0 if sum(nets) > 0 else 1)
    assert [list(g.hands_won) for g in result.games] == entered
    assert [g.hands for g in result.games] == open_hands and max(open_hands) == result.hand_count
    for closed in result.games:
        assert closed.winner is not None and closed.points[closed.winner] >= rules.target_score
        assert closed.points[1 - closed.winner] < rules.target_score
    if options.get("spade_double_boxes"):
        assert any(h.boxes[h.winner] == 2 for h in live(match) if h.winner is not None)


# --- match points (docs/rules.md, Match points)
# ------------------------------------------------------------------------------


def test_match_points_two_games() -> None:
    match = Match("gin", [simple, random_agent(1)], seed=1, match_mode="match_points", match_games=2)
    result = match.play()
    assert len(result.games) == 2
    start = 0
    for game in result.games:
        hands = match.hands[start : start + game.hands]
        start += game.hands
        points, boxes = sums(hands, 2)
        assert game.points == tuple(points) and game.boxes == tuple(boxes)
        assert game.winner is not None and points[game.winner] >= 100
        assert game.totals == tuple(match.game.settle(points, boxes))
        won = [sum(1 for h in hands if h.winner == s) for s in range(2)]
        assert game.hands_won == tuple(won)
        assert game.match_points == tuple(match_points(won, game.winner))
    assert start == result.hand_count
    assert result.match_points == tuple(
        sum(g.match_points[s] for g in result.games if g.match_points) for s in range(2)
    )
    assert result.totals == tuple(sum(g.totals[s] for g in result.games if g.totals) for s in range(2))
    mp = result.match_points
    assert result.winner == (None if mp[0] == mp[1] else 0 if mp[0] > mp[1] else 1)
    # scores and boxes show the last game
    assert match.scores == result.games[-1].points and match.boxes == result.games[-1].boxes


def test_match_points_preset_gin_seed000() -> None:
    match = Match("gin_seed000", [simple, simple], seed=4)
    result = match.play()
    (game,) = result.games
    assert game.match_points is not None and result.match_points == game.match_points
    assert game.winner is not None and game.match_points[game.winner] == 100 + 25 * game.hands_won[game.winner]
    assert result.winner == game.winner


# --- reproducibility --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("game", "options"),
    [("gin", {}), ("oklahoma-rummy", {"max_turns": 300}), ("oklahoma-gin", {"scoring_sheet": "hollywood"})],
)
def test_same_seed_same_match(game: str, options: dict[str, Any]) -> None:
    def run(seed: int) -> tuple[KnockMatch, MatchResult]:
        n = rk.Game(game, **options).num_players
        m = Match(game, [random_agent(seed + s) for s in range(n)], seed=seed, **options)
        return m, m.play()

    a, ra = run(21)
    b, rb = run(21)
    assert a.hands == b.hands and a.hand_seeds == b.hand_seeds and a.dealers == b.dealers
    assert ra == rb and a.scores == b.scores
    c, _ = run(22)
    assert c.hand_seeds[:3] != a.hand_seeds[:3]


def test_numpy_generator_seed_and_hand_replay() -> None:
    m = Match("gin", [simple, simple], seed=np.random.default_rng(8))
    m.play()
    again = Match("gin", [simple, simple], seed=np.random.default_rng(8))
    again.play()
    assert m.hands == again.hands
    # each hand can be redealt from its seed and dealer
    state = m.game.new_hand(seed=m.hand_seeds[0], dealer=m.dealers[0])
    while not state.is_terminal():
        state.play(simple(state))
    assert state.result == m.hands[0]


def test_numpy_integer_actions_are_accepted() -> None:
    def agent(state: KnockState) -> int:
        return np.int64(simple(state))  # type: ignore[return-value]

    assert Match("gin", [agent, agent], seed=6).play() == Match("gin", [simple, simple], seed=6).play()


# --- misbehaving agents -----------------------------------------------------------------------------------


def test_an_illegal_action_names_the_seat_and_leaves_the_match_unchanged() -> None:
    broken = {"on": False}

    def sometimes_bad(state: KnockState) -> int:
        return BIG_GIN if broken["on"] else simple(state)

    match = Match("gin", [simple, sometimes_bad], seed=13)
    reference = Match("gin", [simple, simple], seed=13)
    for _ in range(3):
        assert match.play_hand() == reference.play_hand()
    before = (match.hands, match.scores, match.boxes, match.dealer, match.hand_seeds)
    broken["on"] = True
    with pytest.raises(IllegalActionError, match="seat 1: big gin"):
        match.play_hand()
    assert (match.hands, match.scores, match.boxes, match.dealer, match.hand_seeds) == before
    assert len(match.hands) == 3
    broken["on"] = False
    assert match.play_hand() == reference.play_hand()  # the match generator was restored
    assert match.hand_seeds == reference.hand_seeds


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        ("knock", "seat 0: .*not an action"),
        (None, "seat 0: the agent returned None"),
        (3.0, "seat 0: the agent returned 3.0"),
        (True, "seat 0: not an action id"),
        (999, "seat 0: not an action id"),
        ("discard 1S", "seat 0: not an action"),
    ],
)
def test_bad_agent_returns(bad: object, message: str) -> None:
    def agent(state: KnockState) -> Any:
        return bad

    match = Match("oklahoma-gin", [agent, simple], seed=1, first_dealer=1)  # seat 0 plays first
    with pytest.raises(IllegalActionError, match=message):
        match.play_hand()
    assert match.hands == []


def test_an_agent_may_not_change_the_state() -> None:
    def cheat(state: KnockState) -> int:
        state.apply_action(simple(state))
        return simple(state)

    trusting = Match("oklahoma-gin", [cheat, simple], seed=1, first_dealer=1, trusted=True)
    with pytest.raises(IllegalActionError, match="seat 0: the agent changed the state"):
        trusting.play_hand()
    assert trusting.hands == []
    # by default the agent changes its own copy only: its second action is then out of turn on the real hand
    match = Match("oklahoma-gin", [cheat, simple], seed=1, first_dealer=1, trusted=False)
    with pytest.raises(IllegalActionError, match="seat 0: "):
        match.play_hand()
    assert match.hands == [] and match.state is None


def test_an_agents_own_exception_propagates_and_changes_nothing() -> None:
    def crash(state: KnockState) -> int:
        raise RuntimeError("boom")

    match = Match("gin", [crash, crash], seed=3)
    with pytest.raises(RuntimeError, match="boom"):
        match.play_hand()
    assert match.hands == [] and match.hand_seeds == []


# --- options ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "kwargs", "message"),
    [
        (("gin", [simple]), {}, "1 agent \\(one per seat\\)"),
        (("oklahoma-rummy", [simple] * 2), {"num_players": 3}, "3 agents needed"),
        (("gin", [simple, 5]), {}, "agents must be a sequence"),
        (("gin", "ab"), {}, "agents must be a sequence"),
        (("gin", [simple] * 2), {"first_dealer": 2}, "first_dealer"),
        (("gin", [simple] * 2), {"seed": -1}, "seed"),
        (("gin", [simple] * 2), {"pool": 100}, "pool needs game_end='fixed_hands'"),
        (("oklahoma_ring_seed003", [simple] * 3), {"pool": -5}, "pool must be"),
        (("gin", [simple] * 2), {"match_mode": "match_points", "game_end": "fixed_hands"}, "match_points"),
        (("gin", [simple] * 2), {"scoring_sheet": "hollywood", "match_games": 2}, "hollywood"),
        (("gin", [simple] * 2), {"target_score": 0}, "target_score"),
        (("gin", [simple] * 2), {"no_such_option": 1}, "no_such_option"),
        (("kaluki", [simple] * 2), {}, "knock games only"),
        ((42, [simple] * 2), {}, "game must be"),
    ],
)
def test_invalid_matches(args: tuple[object, ...], kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(InvalidOptionError, match=message):
        Match(*args, **kwargs)  # type: ignore[arg-type]


def test_views_are_copies_and_progress() -> None:
    match = Match("oklahoma-rummy", [simple] * 3, seed=2, max_turns=300)
    assert match.result is None and not match.is_over and match.games == []
    assert match.match_points is None and match.hollywood is None
    match.hands.append(match.play_hand())
    assert len(match.hands) == 1
    assert "Match oklahoma_rummy" in repr(match)
    result = match.play()
    assert match.total_scores == result.scores
    assert isinstance(result.games[0], GameResult)


def test_agents_that_never_end_a_hand_are_bounded() -> None:
    def take_everything(state: KnockState) -> int:
        legal = state.legal_actions()
        if 105 in legal:
            return 105  # take the upcard / discard, for ever
        return max(a for a in legal if a < 52 and a != state.taken)

    match = rk.Match("gin", [take_everything, take_everything], seed=1, max_turns=50)
    with pytest.raises(IllegalActionError, match="did not end within 3 hands"):
        match.play(max_hands=3)
    assert all(h.outcome == "dead" for h in match.hands) and len(match.hands) == 3
