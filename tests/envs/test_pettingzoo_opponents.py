"""PettingZoo agents played by an opponent (``pettingzoo_env(..., opponent=...)``,
``rummykit_v0.OpponentWrapper``): the same episodes as a plain AEC loop that plays those agents
with the same policy by hand, pools drawn per reset from the seed, agent specs, PettingZoo's own
API and seed tests, and the refusals."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("pettingzoo", reason="the pettingzoo extra is not installed: pip install 'rummykit[pettingzoo]'")

import numpy as np
from pettingzoo.test import api_test, seed_test

from rummykit.envs import ActionIndex, pettingzoo_env, pettingzoo_raw_env, rummykit_v0
from rummykit.errors import IllegalActionError, InvalidOptionError

pytestmark = [
    pytest.mark.filterwarnings("ignore:Observation space for each agent probably:UserWarning"),
    pytest.mark.filterwarnings("ignore:Observation is not a NumPy array:UserWarning"),
]


def by_observation(observation: np.ndarray, legal_mask: np.ndarray) -> np.ndarray:
    """A batched policy whose choice depends on what it sees: the legal action picked by a hash
    of the observation (a policy shown another observation would mostly play otherwise)."""
    out = np.empty(len(observation), dtype=np.int64)
    for row, (obs, mask) in enumerate(zip(observation, legal_mask, strict=True)):
        legal = np.flatnonzero(mask)
        out[row] = legal[int(np.round(obs.astype(np.float64) @ np.arange(1, obs.size + 1) * 7)) % len(legal)]
    return out


def first_legal(observation: np.ndarray, legal_mask: np.ndarray) -> np.ndarray:
    return legal_mask.argmax(axis=1)


def last_legal(observation: np.ndarray, legal_mask: np.ndarray) -> np.ndarray:
    return legal_mask.shape[1] - 1 - legal_mask[:, ::-1].argmax(axis=1)


def _caller_loop(
    env: Any, seed: int, played: frozenset[str] = frozenset(), fn: Any = None
) -> tuple[list[tuple[str, int]], dict[str, float]]:
    """An episode from the caller's side: its agents' moves drawn from a seeded generator (the
    moves and the rewards each agent saw on its turns).  ``played`` agents (the reference for
    the wrapper, on a plain env) are moved here by ``fn`` on a batch of one: the mover's
    observation and its legal mask in the fixed numbering."""
    rng = np.random.default_rng(seed)
    inner = env.unwrapped
    fixed = ActionIndex(inner.game)
    moves: list[tuple[str, int]] = []
    totals = {a: 0.0 for a in env.possible_agents}
    env.reset(seed=seed)
    for agent in env.agent_iter():
        obs, reward, done, cut, _ = env.last()
        totals[agent] += reward
        if done or cut:
            env.step(None)
        elif agent in played:
            state = inner.game_state
            mask = np.zeros((1, fixed.size), dtype=np.bool_)
            mask[0, fixed.legal(state)] = True
            action_id = fixed.decode(state, int(fn(obs["observation"][None, :], mask)[0]))
            env.step(inner.index.encode(state, action_id))
        else:
            action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
            moves.append((agent, action))
            env.step(action)
    return moves, totals


@pytest.mark.parametrize(
    ("name", "players", "opponents", "options"),
    [
        ("gin", 2, None, {}),
        ("oklahoma-rummy", 3, ["player_1"], {}),
        ("rummy", 3, ["player_0", "player_2"], {"max_turns": 12}),
        ("kaluki", 2, None, {"max_turns": 12, "action_space": "dense"}),
        ("gin", 2, ["player_0"], {"shaping": "deadwood", "reward": "points"}),
        ("kaluki", 3, ["player_1"], {"episode": "match", "elimination_threshold": 60, "reward": "points"}),
    ],
)
def test_opponents_play_as_a_plain_loop_would(name: str, players: int, opponents: Any, options: Any) -> None:
    played = set(opponents) if opponents is not None else {f"player_{i}" for i in range(1, players)}
    opponent_moves = 0

    def counted(observation: np.ndarray, legal_mask: np.ndarray) -> np.ndarray:
        nonlocal opponent_moves
        opponent_moves += 1
        return by_observation(observation, legal_mask)

    wrapped = pettingzoo_env(name, players, opponent=counted, opponent_agents=opponents, **options)
    plain = pettingzoo_env(name, players, **options)
    for seed in range(1 if options.get("episode") == "match" else 2):
        moves, totals = _caller_loop(wrapped, seed)
        assert moves and all(agent not in played for agent, _ in moves)
        expected, expected_totals = _caller_loop(plain, seed, frozenset(played), by_observation)
        assert moves == expected
        assert wrapped.possible_agents == [a for a in plain.possible_agents if a not in played]
        assert totals == {a: r for a, r in expected_totals.items() if a not in played}
        assert wrapped.unwrapped.game_state.is_terminal()
        assert wrapped.unwrapped.game_state.returns() == plain.unwrapped.game_state.returns()
    assert opponent_moves > 0


def test_a_pool_member_is_drawn_per_reset_from_the_seed() -> None:
    calls = {"first": 0, "last": 0}

    def counting(fn: Any, key: str) -> Any:
        def policy(observation: np.ndarray, legal_mask: np.ndarray) -> np.ndarray:
            assert observation.shape[0] == legal_mask.shape[0] == 1  # a batch of one
            calls[key] += 1
            return fn(observation, legal_mask)

        return policy

    pool = [counting(first_legal, "first"), counting(last_legal, "last")]
    env = rummykit_v0.OpponentWrapper(rummykit_v0.env("gin"), pool)
    assert env.opponent_agents == ("player_1",)
    used = []
    for seed in range(10):
        before = dict(calls)
        _caller_loop(env, seed)
        used.append(tuple(calls[k] > before[k] for k in ("first", "last")))
    assert set(used) == {(True, False), (False, True)}  # one member per episode, both drawn
    again = [_caller_loop(env, seed) for seed in (3, 4)]
    assert again == [_caller_loop(env, seed) for seed in (3, 4)]  # the same seed, the same draws
    calls.update(first=0, last=0)
    only_last = pettingzoo_env("gin", opponent=pool, opponent_probs=[0, 1])
    for seed in range(4):
        _caller_loop(only_last, seed)
    assert calls["first"] == 0 and calls["last"] > 0


def test_agent_specs_and_pettingzoo_api_and_seed_tests() -> None:
    make = lambda: pettingzoo_env("oklahoma-rummy", 3, opponent="greedy", opponent_agents="player_2")  # noqa: E731
    api_test(make(), num_cycles=200)
    seed_test(make, num_cycles=200)
    env = make()
    for seed in range(3):
        moves, _ = _caller_loop(env, seed)
        assert {agent for agent, _ in moves} <= {"player_0", "player_1"}
    raw = rummykit_v0.OpponentWrapper(pettingzoo_raw_env("gin"), ["random", by_observation])
    api_test(raw, num_cycles=200)


@pytest.mark.filterwarnings("ignore:.*illegal move.*:UserWarning")
def test_illegal_moves_the_callers_end_the_episode_the_opponents_raise() -> None:
    env = pettingzoo_env("gin", opponent=first_legal, illegal_reward=-3.0)
    env.reset(seed=1)
    obs, *_ = env.last()
    me = env.agent_selection
    assert me == "player_0"
    env.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))
    seen = {}
    for agent in env.agent_iter():  # the opponent's dead step is taken for the caller
        _, reward, done, _, _ = env.last()
        seen[agent] = (reward, done)
        env.step(None)
    assert seen == {me: (-3.0, True)} and not env.agents

    def cheat(observation: np.ndarray, legal_mask: np.ndarray) -> np.ndarray:
        return (~legal_mask).argmax(axis=1)

    env = pettingzoo_env("gin", opponent=cheat, opponent_agents=["player_0"], dealer=1)
    with pytest.raises(IllegalActionError):
        env.reset(seed=1)  # player_0 (not the dealer) moves first
    assert env.agent_selection == "player_0"  # the opponent still to move


def test_bad_opponent_options() -> None:
    for agents in (["player_2"], ["player_1", "player_1"], [], ["player_0", "player_1"], "nobody"):
        with pytest.raises(InvalidOptionError, match="opponent_agents"):
            pettingzoo_env("gin", opponent="random", opponent_agents=agents)
    with pytest.raises(InvalidOptionError, match="opponent"):
        pettingzoo_env("gin", opponent_agents=["player_1"])
    with pytest.raises(InvalidOptionError, match="opponent"):
        pettingzoo_env("gin", opponent_probs=[1.0])
    with pytest.raises(InvalidOptionError, match="opponent_probs"):
        pettingzoo_env("gin", opponent=[first_legal, last_legal], opponent_probs=[1.0])
    with pytest.raises(InvalidOptionError, match="opponent_probs"):
        pettingzoo_env("gin", opponent=first_legal, opponent_probs=[1.0])
    with pytest.raises(InvalidOptionError, match="pool"):
        pettingzoo_env("gin", opponent=[])
    with pytest.raises(InvalidOptionError):
        pettingzoo_env("gin", opponent="no-such-agent")
