"""The Gymnasium and PettingZoo adapters take integer actions only: a float, a bool or text
is refused (it was truncated or parsed: 105.7 played 105, True played 1), whatever the
illegal-move setting; numpy integers and 0-d integer arrays are integers."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("gymnasium", reason="the pettingzoo extra is not installed: pip install 'rummykit[pettingzoo]'")
pytest.importorskip("pettingzoo", reason="the pettingzoo extra is not installed: pip install 'rummykit[pettingzoo]'")

import rummykit as rk
from rummykit.envs import gymnasium_env, pettingzoo_env, pettingzoo_raw_env

NOT_INTEGERS = [105.7, 3.0, np.float64(3.0), True, np.bool_(True), "3", b"3", None, [3], np.array([3]), 3 + 0j]


@pytest.mark.parametrize("name", ["gin", "rummy"])
@pytest.mark.parametrize("illegal_reward", [None, -1.0])
def test_gymnasium_refuses_what_is_not_an_integer(name: str, illegal_reward: float | None) -> None:
    env = gymnasium_env(name, illegal_reward=illegal_reward)
    obs, _ = env.reset(seed=2)
    before = env.game_state.to_json()
    for bad in NOT_INTEGERS:
        with pytest.raises(rk.InvalidOptionError, match="an action is an integer index"):
            env.step(bad)
        assert env.game_state.to_json() == before
    legal = int(np.flatnonzero(obs["action_mask"])[0])
    for good in (np.int64(legal), np.array(legal, dtype=np.int32)):
        env.reset(seed=2)
        env.step(good)


@pytest.mark.parametrize("name", ["gin", "kaluki"])
def test_pettingzoo_refuses_what_is_not_an_integer(name: str) -> None:
    """The raw env raises InvalidOptionError; the wrapped env (pettingzoo_env) stops most of them
    earlier in PettingZoo's own bounds check (an AssertionError), and ours stops the rest."""
    wrapped = [105.7, 3.0, np.float64(3.0), "3"]  # PettingZoo's wrappers index masks with the others first
    for make, refused, values in (
        (pettingzoo_raw_env, rk.InvalidOptionError, [b for b in NOT_INTEGERS if b is not None]),
        (pettingzoo_env, (AssertionError, rk.InvalidOptionError), wrapped),
    ):
        env = make(name)
        env.reset(seed=3)
        agent = env.agent_selection
        before = env.unwrapped.episode.state.to_json()
        for bad in values:
            with pytest.raises(refused):
                env.step(bad)
            assert env.unwrapped.episode.state.to_json() == before and env.agent_selection == agent
        legal = int(np.flatnonzero(env.observe(agent)["action_mask"])[0])
        env.step(np.int64(legal))
        assert env.unwrapped.episode.state.to_json() != before
