"""The scalar adapters' potential-based ``shaping="deadwood"`` (the shaped returns telescope:
an episode's shaping sums to -phi(s0) with gamma 1, and equals sum gamma^k F_k's definition
with gamma < 1) and their batched-policy opponents (one, or a pool drawn per episode)."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("pettingzoo", reason="the pettingzoo extra is not installed: pip install 'rummykit[pettingzoo]'")

import numpy as np

from rummykit.agents import PolicyAgent
from rummykit.envs import gymnasium_env, pettingzoo_raw_env
from rummykit.errors import InvalidOptionError
from rummykit.vector import deadwood_potential


def first_legal(observation: np.ndarray, legal_mask: np.ndarray) -> np.ndarray:
    return legal_mask.argmax(axis=1)


def last_legal(observation: np.ndarray, legal_mask: np.ndarray) -> np.ndarray:
    return legal_mask.shape[1] - 1 - legal_mask[:, ::-1].argmax(axis=1)


@pytest.mark.parametrize(
    ("name", "options"), [("gin", {}), ("oklahoma-rummy", {"max_turns": 30}), ("rummy", {}), ("kaluki", {})]
)
@pytest.mark.parametrize("gamma", [1.0, 0.9])
def test_gymnasium_shaping_telescopes(name: str, options: dict[str, Any], gamma: float) -> None:
    scale = 30.0
    shaped = gymnasium_env(
        name, opponent="greedy", shaping="deadwood", shaping_gamma=gamma, shaping_scale=scale, **options
    )
    plain = gymnasium_env(name, opponent="greedy", **options)
    rng = np.random.default_rng(1)
    for seed in range(3):
        shaped.reset(seed=seed)
        plain.reset(seed=seed)
        phis = [deadwood_potential(shaped.game_state, shaped.seat, scale)]
        terms, done = [], False
        while not done:
            action = int(rng.choice(np.flatnonzero(shaped.action_masks())))
            _, reward, done, _, _ = shaped.step(action)
            _, base, plain_done, _, _ = plain.step(action)
            assert plain_done == done
            terms.append(reward - base)
            phis.append(0.0 if done else deadwood_potential(shaped.game_state, shaped.seat, scale))
        expected = [gamma * after - before for before, after in zip(phis, phis[1:])]
        assert terms == pytest.approx(expected, abs=1e-9)
        if gamma == 1.0:
            assert sum(terms) == pytest.approx(-phis[0], abs=1e-9) and phis[0] < 0


@pytest.mark.parametrize("name", ["gin", "kaluki"])
def test_pettingzoo_shaping_telescopes_for_every_agent(name: str) -> None:
    scale = 25.0
    env = pettingzoo_raw_env(name, shaping="deadwood", shaping_scale=scale)
    plain = pettingzoo_raw_env(name)
    for seed in range(2):
        env.reset(seed=seed)
        plain.reset(seed=seed)
        start = {a: deadwood_potential(env.game_state, env._seat[a], scale) for a in env.agents}
        totals = {a: 0.0 for a in env.agents}  # each agent's return: the rewards last() gives it
        while env.agents:
            agent = env.agent_selection
            obs, reward, done, cut, _ = env.last()
            _, base, _, _, _ = plain.last()
            assert plain.agent_selection == agent
            totals[agent] += reward - base
            action = None if done or cut else int(np.flatnonzero(obs["action_mask"])[0])
            env.step(action)
            plain.step(action)
        assert not plain.agents
        for a, phi in start.items():
            assert totals[a] == pytest.approx(-phi, abs=1e-9)


def test_gymnasium_batched_policy_opponents_and_pools() -> None:
    env = gymnasium_env("gin", opponent=last_legal)
    by_agent = gymnasium_env("gin", opponent=PolicyAgent(last_legal))
    for seed in range(3):
        obs, _ = env.reset(seed=seed)
        other, _ = by_agent.reset(seed=seed)
        done = False
        while not done:
            assert np.array_equal(obs["observation"], other["observation"])
            action = int(np.flatnonzero(env.action_masks())[0])
            obs, reward, done, _, _ = env.step(action)
            other, reward_b, done_b, _, _ = by_agent.step(action)
            assert (reward, done) == (reward_b, done_b)
    calls = {"first": 0, "last": 0}

    def counting(fn: Any, key: str) -> Any:
        def policy(observation: np.ndarray, legal_mask: np.ndarray) -> np.ndarray:
            calls[key] += 1
            return fn(observation, legal_mask)

        return policy

    pool = gymnasium_env("gin", opponent=[counting(first_legal, "first"), counting(last_legal, "last")])
    for seed in range(12):
        pool.reset(seed=seed)
        done = False
        while not done:
            _, _, done, _, _ = pool.step(int(np.flatnonzero(pool.action_masks())[0]))
    assert calls["first"] > 0 and calls["last"] > 0
    calls.update(first=0, last=0)
    only_last = gymnasium_env(
        "gin", opponent=[counting(first_legal, "first"), counting(last_legal, "last")], opponent_probs=[0, 1]
    )
    for seed in range(4):
        only_last.reset(seed=seed)
    assert calls["first"] == 0
    with pytest.raises(InvalidOptionError, match="opponent_probs"):
        gymnasium_env("gin", opponent=[first_legal, last_legal], opponent_probs=[1.0])
    with pytest.raises(InvalidOptionError, match="opponent_probs"):
        gymnasium_env("gin", opponent=first_legal, opponent_probs=[1.0])
    with pytest.raises(InvalidOptionError, match="shaping"):
        gymnasium_env("gin", shaping="melds")
    with pytest.raises(InvalidOptionError, match="shaping_gamma"):
        pettingzoo_raw_env("gin", shaping="deadwood", shaping_gamma=2)
