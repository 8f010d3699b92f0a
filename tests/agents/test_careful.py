"""The careful policy (CarefulAgent, C RK_POLICY_CAREFUL) against the plain oracle of
tests/reference/careful.py over many positions of several knock variants, its playouts against
the agent's moves, and its edge over greedy.  Default: a few hundred positions; RUMMYKIT_LONG=1
(marker ``long``): thousands."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from long_runs import LONG as LONG_RUN
from reference.careful import careful_action

import rummykit as rk
from rummykit import _core
from rummykit.agents import CarefulAgent, GreedyAgent, make_agent
from rummykit.errors import InvalidOptionError
from rummykit.knock.state import Phase

VARIANTS = [
    ("gin", {}),
    ("gin", {"allow_ace_high_run": True, "forbid_discarding_taken_card": False}),
    ("gin_eaai", {}),
    ("oklahoma-gin", {}),
    ("oklahoma-rummy", {"num_players": 3}),
    ("gin", {"refused_upcard_set_aside": True, "stock_end_rule": "dead_at_2_last_chance"}),
]
CHOICES = (Phase.OFFER_NONDEALER, Phase.OFFER_DEALER, Phase.DRAW, Phase.DISCARD)


def _positions(game: str, options: dict[str, Any], hands: int, seed: int) -> Any:
    """The decision positions of hands where each move is careful's, greedy's or random."""
    rng = np.random.default_rng(seed)
    g = rk.Game(game, **options)
    for k in range(hands):
        state = g.new_hand(seed=seed * 1000 + k)
        while not state.is_terminal():
            if state.phase in CHOICES:
                yield state
            legal = state.legal_actions()
            pick = rng.random()
            if pick < 0.15:
                action = int(legal[int(rng.integers(len(legal)))])
            elif pick < 0.55:
                action = GreedyAgent()(state)
            else:
                action = CarefulAgent()(state)
            state.apply_action(action)


def _check(game: str, options: dict[str, Any], hands: int, seed: int) -> int:
    checked = 0
    for state in _positions(game, options, hands, seed):
        for knock_at in (None, 3):
            c = state._policy_action(_core.POLICY_CAREFUL, -1 if knock_at is None else knock_at)
            assert c in state.legal_actions()
            assert c == careful_action(state, knock_at), (game, options, state.history, knock_at)
            checked += 1
    return checked


@pytest.mark.parametrize(("game", "options"), VARIANTS)
def test_careful_equals_the_oracle(game: str, options: dict[str, Any]) -> None:
    assert _check(game, options, hands=2, seed=1) > 20


@pytest.mark.long
@pytest.mark.skipif(not LONG_RUN, reason="RUMMYKIT_LONG=1")
@pytest.mark.parametrize(("game", "options"), VARIANTS)
def test_careful_equals_the_oracle_long(game: str, options: dict[str, Any]) -> None:
    assert _check(game, options, hands=60, seed=2) > 1000


@pytest.mark.parametrize("game", ["gin", "oklahoma-gin", "oklahoma-rummy"])
def test_careful_playouts_play_the_agent(game: str) -> None:
    """A playout with nothing resampled is the hand the agent plays to its end."""
    for k in range(6):
        state = rk.Game(game).new_hand(seed=40 + k)
        for _ in range(k):  # start some playouts mid-hand
            state.apply_action(GreedyAgent()(state))
        points, _ = rk.playouts(state, 1, policy="careful", resample="none", seed=3)
        agent = CarefulAgent()
        while not state.is_terminal():
            state.apply_action(agent(state))
        assert list(points[0]) == list(state.returns())


def test_careful_beats_greedy() -> None:
    """Seeded: the same deals every run, so this fails only if the policy changes for the worse."""
    result = rk.tournament(["careful", "greedy"], "gin", hands=1000, seed=1)
    careful, greedy = result.agents
    assert careful.wins > 1.1 * greedy.wins and careful.mean_points > greedy.mean_points


def test_careful_settings_and_games() -> None:
    assert make_agent("careful:max_knock_deadwood=0").max_knock_deadwood == 0
    with pytest.raises(InvalidOptionError, match="max_knock_deadwood"):
        make_agent("careful:max_knock_deadwood=-1")
    rummy = rk.Game("rummy").new_hand(seed=1)
    assert CarefulAgent()(rummy) == GreedyAgent()(rummy)  # greedy in the table games
    with pytest.raises(InvalidOptionError, match="knock games only"):
        rk.playouts(rummy, 2, policy="careful")
    state = rk.Game("gin").new_hand(seed=1)
    with pytest.raises(InvalidOptionError, match="POLICY_GREEDY or POLICY_CAREFUL"):
        state._policy_action(_core.POLICY_RANDOM, -1)


def test_best_plays_careful_playouts() -> None:
    state = rk.Game("gin").new_hand(seed=5)
    for _ in range(3):
        state.apply_action(GreedyAgent()(state))
    agent = make_agent("best:playout_policy=careful,samples=4,playouts=4", seed=1)
    assert agent(state) in state.legal_actions()
    assert agent.spawn(2).playout_policy == "careful"
    with pytest.raises(InvalidOptionError, match="playout_policy"):
        make_agent("best:playout_policy=clever")


def test_best_plays_gin_hunting_playouts() -> None:
    """``playout_knock=0``: its own seat knocks only for gin in the playouts, which moves the
    candidates' scores; bad values are refused."""
    from rummykit.agents import BestAgent

    differ = 0
    for seed in range(6):
        state = rk.Game("gin").new_hand(seed=seed)
        for _ in range(8):
            state.apply_action(GreedyAgent()(state))
        hands = [sum(1 << int(c) for c in state.hand(1 - state.current_player))] * 4
        candidates = [int(a) for a in state.legal_actions()]
        scores = [
            BestAgent(4, playouts=8, playout_knock=knock, seed=1)._tracked_scores(state, candidates, hands)
            for knock in (-1, 0)
        ]
        differ += scores[0] != scores[1]
    assert differ
    agent = make_agent("best:playout_knock=0,samples=4,playouts=4", seed=1)
    assert agent(state) in state.legal_actions() and agent.spawn(2).playout_knock == 0
    for bad in ("-2", "101", "0.5"):
        with pytest.raises(InvalidOptionError, match="playout_knock"):
            make_agent(f"best:playout_knock={bad}")


@pytest.mark.parametrize(
    ("seat_policy", "seat_knock", "agent"),
    [(_core.POLICY_CAREFUL, -2, CarefulAgent()), (_core.POLICY_GREEDY, 0, GreedyAgent(max_knock_deadwood=0))],
    ids=["careful", "gin-hunter"],
)
def test_playouts_with_a_policy_per_seat(seat_policy: int, seat_knock: int, agent: object) -> None:
    """Seat 0 careful (or greedy knocking only for gin), seat 1 greedy: each playout is the hand
    those two agents play."""
    from rummykit.knock.playouts import exact_spec

    differ = 0
    for k in range(8):
        state = rk.Game("gin").new_hand(seed=60 + k)
        spec = exact_spec(state)
        points = np.zeros((1, 2), dtype=np.int32)
        outcomes = np.zeros(1, dtype=np.uint8)
        rules = state._core_rules
        _core.run_playouts(rules, spec, _core.POLICY_GREEDY, -1, 1, 0, points, outcomes, 0, seat_policy, seat_knock)
        differ += list(points[0]) != list(rk.playouts(state, 1, resample="none", seed=1)[0][0])
        agents = [agent, GreedyAgent()]
        while not state.is_terminal():
            state.apply_action(agents[state.current_player](state))
        assert list(points[0]) == list(state.returns())
    assert differ  # seat 0 did not play greedy
    with pytest.raises(ValueError, match="seat_max_knock"):
        _core.run_playouts(rules, spec, _core.POLICY_GREEDY, -1, 1, 0, points, outcomes, 0, seat_policy, -3)
