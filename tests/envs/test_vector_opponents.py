"""VectorGame.set_opponents with batched policies (a pool of them): every opponent move is the
policy's on the scalar state of the same deal, the results equal playing the same deals with
that policy by hand on a VectorGame without opponents, pools follow their probabilities, and
bad policies raise."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from rummykit.agents import PolicyAgent
from rummykit.envs._common import ActionIndex, hand_rewards
from rummykit.errors import IllegalActionError, InvalidOptionError
from rummykit.vector import VectorGame


def first_legal(observation: np.ndarray, legal_mask: np.ndarray) -> np.ndarray:
    return legal_mask.argmax(axis=1)


def last_legal(observation: np.ndarray, legal_mask: np.ndarray) -> np.ndarray:
    return legal_mask.shape[1] - 1 - legal_mask[:, ::-1].argmax(axis=1)


def engine_id(vg: VectorGame, state: Any, action: int) -> int:
    return int(ActionIndex(vg.game).decode(state, int(action)))


def replayed_ok(vg: VectorGame, i: int, learner: int, opponent: PolicyAgent) -> Any:
    """Row i's hand now, replayed: every move of a seat other than the learner is the
    opponent policy's; returns the replayed state."""
    state = vg.state(i)
    start = state.clone()
    while start.history:
        start.undo()
    for action in state.history:
        if start.current_player != learner:
            assert opponent(start) == action
        start.apply_action(action)
    return state


@pytest.mark.parametrize(
    ("name", "options", "steps"),
    [("gin", {}, 120), ("oklahoma-rummy", {"max_turns": 30}, 100), ("rummy", {"num_players": 3, "max_turns": 30}, 120)],
)
def test_batched_opponents_answer_each_learner_move_as_the_scalar_engine(
    name: str, options: dict[str, Any], steps: int
) -> None:
    batch = 4
    vg = VectorGame(name, batch=batch, seed=6, **options)
    vg.set_opponents(last_legal)
    opponent = PolicyAgent(last_legal)
    learners = vg.current_player.tolist()
    states = [replayed_ok(vg, i, learners[i], opponent) for i in range(batch)]
    rng = np.random.default_rng(2)
    ended = 0
    for _ in range(steps):
        actions = vg.sample_actions(rng)
        rewards = vg.step(actions)
        for i in range(batch):
            state, learner = states[i], learners[i]
            assert state.current_player == learner
            state.apply_action(engine_id(vg, state, actions[i]))
            while not state.is_terminal() and state.current_player != learner:
                state.apply_action(opponent(state))
            assert bool(vg.terminated[i]) == state.is_terminal()
            if state.is_terminal():
                ended += 1
                assert rewards[i].tolist() == hand_rewards(state, "win_loss")
                assert vg.hand_points[i].tolist() == [float(x) for x in state.returns()]
                assert vg.hand_winner[i] == (-1 if state.result.winner is None else state.result.winner)
                learners[i] = int(vg.current_player[i])
                states[i] = replayed_ok(vg, i, learners[i], opponent)
            else:
                assert not rewards[i].any() and vg.hand_outcome[i] == -1
                assert vg.state(i).history == state.history
            assert vg.current_player[i] == learners[i]
    assert ended > 0


def test_results_equal_playing_the_same_deals_by_hand() -> None:
    """The learner plays first_legal, the pool (last_legal, first_legal) the others; by hand:
    a VectorGame without opponents, each row's seats played by the policy the draws give."""
    batch, hands_wanted = 6, 5
    pooled = VectorGame("gin", batch, seed=9, reward="points")
    pooled.set_opponents([last_legal, first_legal], probs=[0.6, 0.4])
    got: list[list[tuple[list[float], list[float], int]]] = [[] for _ in range(batch)]
    while min(len(g) for g in got) < hands_wanted:
        rewards = pooled.step(first_legal(pooled.observation, pooled.legal_mask))
        for i in np.flatnonzero(pooled.terminated):
            got[i].append((rewards[i].tolist(), pooled.hand_points[i].tolist(), int(pooled.hand_winner[i])))

    manual = VectorGame("gin", batch, seed=9, reward="points")
    policies = [last_legal, first_legal]
    deal = np.zeros(batch, dtype=np.int64)
    moved = np.zeros(batch, dtype=bool)
    want: list[list[tuple[list[float], list[float], int]]] = [[] for _ in range(batch)]
    seats, members = pooled.learner_draws(np.arange(batch), deal)
    while min(len(w) for w in want) < hands_wanted:
        obs, mask = manual.observation.copy(), manual.legal_mask.copy()
        mover = manual.current_player.copy()
        learner_turn = mover == seats
        actions = first_legal(obs, mask)
        for k, fn in enumerate(policies):
            rows = ~learner_turn & (members == k)
            actions[rows] = fn(obs, mask)[rows]
        moved |= learner_turn
        rewards = manual.step(actions)
        for i in np.flatnonzero(manual.terminated):
            if moved[i]:  # a hand that ends before the learner's first move is not the learner's
                want[i].append((rewards[i].tolist(), manual.hand_points[i].tolist(), int(manual.hand_winner[i])))
            deal[i] += 1
            moved[i] = False
            seat, member = pooled.learner_draws([i], [deal[i]])
            seats[i], members[i] = seat[0], member[0]
    for i in range(batch):
        assert got[i][:hands_wanted] == want[i][:hands_wanted]


def test_a_pool_member_plays_as_its_probability_says() -> None:
    calls = {"a": 0, "b": 0}

    def member(name: str) -> Any:
        def fn(observation: np.ndarray, legal_mask: np.ndarray) -> np.ndarray:
            calls[name] += len(observation)
            assert observation.shape[1] == 1699 and legal_mask.dtype == np.bool_
            return first_legal(observation, legal_mask)

        return fn

    vg = VectorGame("gin", 64, seed=1)
    vg.set_opponents([member("a"), member("b")], probs=[1.0, 0.0])
    rng = np.random.default_rng(0)
    for _ in range(40):
        vg.step(vg.sample_actions(rng))
    assert calls["a"] > 0 and calls["b"] == 0
    seats, members = vg.learner_draws(np.arange(4000), np.zeros(4000, dtype=np.int64))
    assert set(members.tolist()) == {0}
    assert abs(np.mean(seats) - 0.5) < 0.05
    vg.set_opponents([member("a"), member("b")], probs=[1, 3])
    _, members = vg.learner_draws(np.arange(4000), np.ones(4000, dtype=np.int64))
    assert abs(np.mean(members) - 0.75) < 0.05
    vg.set_opponents(None)  # every seat the caller's again, the core's arrays back
    assert vg.state(0).history == [] and not vg.terminated.any()


def test_shaping_and_points_with_batched_opponents_telescope() -> None:
    scale = 40.0
    vg = VectorGame("gin", 16, seed=3, reward="points", shaping="deadwood", shaping_scale=scale)
    plain = VectorGame("gin", 16, seed=3, reward="points")
    for game in (vg, plain):
        game.set_opponents(last_legal)
    start = vg._deadwood[np.arange(16), vg.current_player] / scale  # phi(s0) = -start
    total = np.zeros(16)
    done = np.zeros(16, dtype=bool)
    while not done.all():
        seats = vg.current_player.copy()
        actions = first_legal(vg.observation, vg.legal_mask)
        shaped = vg.step(actions)[np.arange(16), seats]
        base = plain.step(actions)[np.arange(16), seats]
        live = ~done
        total[live] += (shaped - base)[live]
        done |= vg.terminated
    assert np.allclose(total, start, atol=1e-5)  # gamma 1: the shaping sums to -phi(s0)


def test_bad_batched_opponents_raise() -> None:
    vg = VectorGame("gin", 16, seed=1)
    for bad in ([], [first_legal, 3], [first_legal, "greedy"], int):
        with pytest.raises(InvalidOptionError, match="policy"):
            vg.set_opponents(bad)
    for probs in ([1.0], [-1.0, 2.0], [0.0, 0.0], [np.nan, 1.0]):
        with pytest.raises(InvalidOptionError, match="probs"):
            vg.set_opponents([first_legal, last_legal], probs=probs)
    with pytest.raises(InvalidOptionError, match="probs"):
        vg.set_opponents("greedy", probs=[1.0])
    with pytest.raises(IllegalActionError, match="opponent"):
        vg.set_opponents(lambda obs, mask: np.zeros(len(obs), dtype=np.float32))
    with pytest.raises(IllegalActionError, match="not legal"):
        vg.set_opponents(lambda obs, mask: (~mask).argmax(axis=1))
