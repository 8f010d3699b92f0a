"""The Gymnasium vector env (rummykit.envs._vector.RummykitVectorEnv) over VectorGame:
registration with make_vec, seeding, rewards of the learner's seat, agreement with the
scalar states, bad arguments."""

from __future__ import annotations

import doctest
import importlib.util

import numpy as np
import pytest

if importlib.util.find_spec("gymnasium") is None:
    pytest.skip("gymnasium is not installed: pip install 'rummykit[pettingzoo]'", allow_module_level=True)

import gymnasium

import rummykit.agents
import rummykit.envs
from rummykit.agents import signed_results
from rummykit.envs._common import hand_rewards
from rummykit.errors import IllegalActionError, InvalidOptionError


def random_actions(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    return np.array([rng.choice(np.flatnonzero(row)) for row in masks])


HAND_IDS = [env_id for env_id, (_, kind) in rummykit.envs._registration.GYMNASIUM_IDS.items() if kind == "hand"]


@pytest.mark.parametrize("env_id", HAND_IDS)
def test_make_vec_steps_every_game_and_agrees_with_the_scalar_states(env_id: str) -> None:
    envs = gymnasium.make_vec(env_id, num_envs=3)
    env = envs.unwrapped
    assert envs.metadata["autoreset_mode"] == gymnasium.vector.AutoresetMode.SAME_STEP
    obs, _ = envs.reset(seed=5)
    again = gymnasium.make_vec(env_id, num_envs=3)
    assert np.array_equal(again.reset(seed=5)[0]["observation"], obs["observation"])
    assert obs["observation"].shape == (3, env.vector_game.obs_dim)
    rng = np.random.default_rng(1)
    for _ in range(40):
        masks = env.action_masks()
        assert np.array_equal(masks, obs["action_mask"].astype(bool))
        seats = env.seats
        states = [env.vector_game.state(i) for i in range(3)]
        actions = random_actions(masks, rng)
        obs, rewards, terminated, truncated, _ = envs.step(actions)
        assert not truncated.any() and rewards.dtype == np.float32
        for i in range(3):
            state = states[i]
            assert state.current_player == seats[i]
            if not terminated[i]:
                assert rewards[i] == 0
                continue
            # the ended hand: the learner's action, then the opponents to the end
            state.apply_action(env.vector_game.index.decode(state, int(actions[i])))
            greedy = rummykit.agents.GreedyAgent()
            while not state.is_terminal():
                state.apply_action(greedy(state))
            assert rewards[i] == hand_rewards(state, "win_loss")[seats[i]]
        for i, state in enumerate(env.vector_game.state(i) for i in range(3)):
            assert state.current_player == env.seats[i]
            tensor = state.observation_tensor(state.current_player)
            assert np.array_equal(obs["observation"][i], tensor)


def test_seeds_and_learner_seats() -> None:
    envs = rummykit.envs.gymnasium_vector_env("gin", num_envs=64, opponent="random")
    first = envs.reset(seed=1)[0]["observation"]
    assert not np.array_equal(first, envs.reset(seed=2)[0]["observation"])
    assert set(envs.seats.tolist()) == {0, 1}  # drawn per hand
    envs.reset(seed=None)


def test_points_reward_is_the_learners_zero_sum_hand_points() -> None:
    envs = rummykit.envs.gymnasium_vector_env("oklahoma-rummy", num_envs=8, reward="points", max_turns=20)
    envs.reset(seed=4)
    vg, rng, ended = envs.vector_game, np.random.default_rng(0), 0
    for _ in range(150):
        seats = envs.seats.copy()
        _, rewards, terminated, _, _ = envs.step(vg.sample_actions(rng))
        expected = [signed_results(vg.hand_points[i].tolist())[seats[i]] for i in range(8)]
        assert np.array_equal(terminated, vg.hand_outcome >= 0) and np.allclose(rewards, expected)
        ended += int(terminated.sum())
    assert ended > 0


def test_bad_arguments_and_illegal_actions() -> None:
    with pytest.raises(InvalidOptionError, match="opponent"):
        rummykit.envs.gymnasium_vector_env("gin", num_envs=2, opponent="best")
    with pytest.raises(InvalidOptionError, match="reward"):
        gymnasium.make_vec("rummykit/Gin-v0", num_envs=2, reward="score")
    envs = rummykit.envs.gymnasium_vector_env("rummy", num_envs=2)
    with pytest.raises(InvalidOptionError, match="one int seed"):
        envs.reset(seed=[1, 2])
    envs.reset(seed=3)
    with pytest.raises(IllegalActionError, match="row 1"):
        envs.step(np.array([53, 4000]))  # row 0 draws (the learner is to draw); 4000 lays off on no meld


def test_docstring_example() -> None:
    finder = doctest.DocTestFinder()
    runner = doctest.DocTestRunner()
    for test in finder.find(rummykit.envs.gymnasium_vector_env, "gymnasium_vector_env"):
        runner.run(test)
    assert runner.summarize(verbose=False) == (0, 4)
