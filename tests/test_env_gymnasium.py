"""The single-agent Gymnasium environment: Gymnasium's env checker, opponents, rewards, seeds."""

from __future__ import annotations

import pytest

pytest.importorskip("gymnasium", reason="the pettingzoo extra is not installed: pip install 'rummykit[pettingzoo]'")

import numpy as np
from gymnasium.utils.env_checker import check_env

import rummykit as rk
from rummykit.envs import gymnasium_env


def _table_observes() -> bool:
    return hasattr(rk.TableState, "observation_tensor")


@pytest.mark.parametrize(
    ("name", "players", "seat"),
    [
        ("gin", 2, 0),
        ("oklahoma-gin", 2, 1),
        ("oklahoma-rummy", 3, 2),
        pytest.param(
            "kaluki", 3, 1, marks=pytest.mark.skipif(not _table_observes(), reason="no TableState.observation_tensor")
        ),
    ],
)
def test_check_env(name: str, players: int, seat: int) -> None:
    check_env(gymnasium_env(name, num_players=players, seat=seat, opponent="random"), skip_render_check=True)


def _episode(env: rk.envs._gymnasium.RummykitGymEnv, seed: int) -> tuple[float, int]:
    obs, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    steps, done, reward = 0, False, 0.0
    while not done:
        state = env.game_state
        assert state.current_player == env.seat
        assert info["legal_actions"] == state.legal_actions()
        obs, reward, done, truncated, info = env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        assert not truncated and (done or reward == 0.0)
        steps += 1
    return reward, steps


@pytest.mark.parametrize("reward", ["points", "win_loss"])
def test_final_reward_is_the_seat_result(reward: str) -> None:
    env = gymnasium_env("oklahoma-rummy", num_players=3, seat=1, opponent="greedy", reward=reward)
    for seed in range(3):
        got, _ = _episode(env, seed)
        state = env.game_state
        winner = state.result.winner
        if reward == "points":
            assert got == state.returns()[1]
        else:
            assert got == (0.0 if winner is None else 1.0 if winner == 1 else -1.0)
        assert not env._observe()["action_mask"].any()


def test_opponents_play_the_other_seats() -> None:
    """A greedy opponent plays exactly GreedyAgent's moves."""
    env = gymnasium_env("gin", seat=0, opponent="greedy")
    _episode(env, 4)
    state = env.game_state
    replay = rk.Game("gin").new_hand(seed=0, dealer=0, deck=state.deck)
    greedy = rk.GreedyAgent()
    for action in state.history:
        if replay.current_player == 1:
            assert action == greedy(replay)
        replay.apply_action(action)


def test_seed_determinism_and_agent_objects() -> None:
    a = gymnasium_env("gin", opponent="random")
    b = gymnasium_env("gin", opponent=rk.RandomAgent())
    a_result, b_result = _episode(a, 9), _episode(b, 9)
    assert a_result == b_result
    assert a.game_state.to_json() == b.game_state.to_json()


def test_illegal_action_ends_the_episode_or_raises() -> None:
    env = gymnasium_env("gin", illegal_reward=-5.0)
    obs, _ = env.reset(seed=1)
    before = env.game_state.to_json()
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    obs, reward, done, truncated, info = env.step(illegal)
    assert (reward, done, truncated, info) == (-5.0, True, False, {"illegal_action": illegal})
    assert env.game_state.to_json() == before
    with pytest.raises(rk.InvalidOptionError, match="reset"):
        env.step(0)
    strict = gymnasium_env("gin", illegal_reward=None)
    strict.reset(seed=1)
    with pytest.raises(rk.IllegalActionError, match="not legal"):
        strict.step(illegal)
    assert strict.game_state.to_json() == before
    _episode(strict, 1)
    with pytest.raises(rk.InvalidOptionError, match="reset"):
        strict.step(0)


def test_bad_options() -> None:
    with pytest.raises(rk.InvalidOptionError, match="seat"):
        gymnasium_env("gin", seat=2)
    with pytest.raises(rk.InvalidOptionError, match="unknown agent"):
        gymnasium_env("gin", opponent="grandmaster")
    with pytest.raises(rk.InvalidOptionError, match="render_mode"):
        gymnasium_env("gin", render_mode="rgb_array")


def test_render_ansi() -> None:
    env = gymnasium_env("oklahoma-gin", render_mode="ansi")
    env.reset(seed=3)
    text = env.render()
    assert text is not None and text.startswith("oklahoma_gin: ") and "seat 0 to act" in text
