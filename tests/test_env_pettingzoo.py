"""The PettingZoo AEC environment: PettingZoo's own API and seed tests, masks, rewards, text."""

from __future__ import annotations

import doctest
import subprocess
import sys

import pytest

pytest.importorskip("pettingzoo", reason="the pettingzoo extra is not installed: pip install 'rummykit[pettingzoo]'")

import numpy as np
from pettingzoo.test import api_test, render_test, seed_test

import rummykit as rk
import rummykit.envs
from rummykit.envs import DENSE_ACTIONS, ActionIndex, pettingzoo_env

# Dict observations with an action mask are PettingZoo's own convention for card games
# (its classic environments); api_test still warns that it prefers a plain Box.
pytestmark = [
    pytest.mark.filterwarnings("ignore:Observation space for each agent probably:UserWarning"),
    pytest.mark.filterwarnings("ignore:Observation is not a NumPy array:UserWarning"),
]

KNOCK = [("gin", 2), ("oklahoma-gin", 2), ("oklahoma-rummy", 2), ("oklahoma-rummy", 3), ("oklahoma-rummy", 4)]
TABLE = [("rummy", 2), ("rummy", 3), ("rummy", 4), ("kaluki", 2), ("kaluki", 3), ("kaluki", 4)]


def _table_observes() -> bool:
    return hasattr(rk.TableState, "observation_tensor")


NO_TABLE = pytest.mark.skipif(not _table_observes(), reason="TableState has no observation_tensor yet")


def _variants() -> list[object]:
    return [*KNOCK, *(pytest.param(*v, marks=NO_TABLE) for v in TABLE)]


def _api_and_seed(name: str, players: int, cycles: int, **options: object) -> None:
    api_test(pettingzoo_env(name, num_players=players, **options), num_cycles=cycles)
    seed_test(lambda: pettingzoo_env(name, num_players=players, **options), num_cycles=cycles)


@pytest.mark.parametrize(("name", "players"), _variants())
def test_api_and_seed(name: str, players: int) -> None:
    # table games' observation tensors replay the history (~20 ms a step late in a hand):
    # short hands (max_turns) reach the end of the hand quickly; the long test plays whole ones
    _api_and_seed(name, players, 300, **({} if (name, players) in KNOCK else {"max_turns": 12}))


@pytest.mark.long
@pytest.mark.parametrize(("name", "players"), [pytest.param(*v, marks=NO_TABLE) for v in TABLE])
def test_api_and_seed_whole_table_hands(name: str, players: int) -> None:
    _api_and_seed(name, players, 1000)


def _play(env: rummykit.envs._pettingzoo.RummykitAECEnv, seed: int) -> dict[str, float]:
    """Play one hand choosing uniformly among the masked actions; each agent's total reward."""
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    totals = {a: 0.0 for a in env.possible_agents}
    while env.agents:
        agent = env.agent_selection
        obs, reward, done, cut, info = env.last()
        totals[agent] += reward
        if done or cut:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        assert sorted(legal) == env.index.legal(env.game_state)
        assert info["legal_actions"] == env.game_state.legal_actions()
        env.step(int(rng.choice(legal)))
    return totals


@pytest.mark.parametrize("reward", ["points", "win_loss"])
def test_rewards_are_the_hand_result(reward: str) -> None:
    env = pettingzoo_env("oklahoma-rummy", num_players=3, reward=reward)
    for seed in range(4):
        totals = _play(env, seed)
        state = env.game_state
        returns = state.returns()
        winner = state.result.winner
        for seat, agent in enumerate(env.possible_agents):
            if reward == "points":
                assert totals[agent] == returns[seat]
            else:
                assert totals[agent] == (0.0 if winner is None else 1.0 if seat == winner else -1.0)


def test_observations_are_the_engine_tensors_and_only_the_mover_has_a_mask() -> None:
    env = pettingzoo_env("gin")
    env.reset(seed=5)
    state = env.game_state
    for seat, agent in enumerate(env.possible_agents):
        obs = env.observe(agent)
        np.testing.assert_array_equal(obs["observation"], state.observation_tensor(seat))
        assert obs["action_mask"].dtype == np.int8
        assert bool(obs["action_mask"].any()) == (seat == state.current_player)
        assert env.observation_space(agent).contains(obs)


def test_same_seed_same_hand_and_reset_without_seed_continues() -> None:
    a, b = pettingzoo_env("oklahoma-gin"), pettingzoo_env("oklahoma-gin")
    _play(a, 11)
    _play(b, 11)
    assert a.game_state.to_json() == b.game_state.to_json()
    a.reset()
    assert a.game_state.deck != b.game_state.deck


def test_illegal_action_raises_and_changes_nothing() -> None:
    env = pettingzoo_env("gin")
    env.reset(seed=2)
    before = env.game_state.to_json()
    illegal = int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"] == 0)[0])
    with pytest.raises(rk.IllegalActionError, match="not legal"):
        env.step(illegal)
    with pytest.raises(rk.InvalidOptionError, match="None"):
        env.step(None)
    assert env.game_state.to_json() == before


def test_bad_options() -> None:
    with pytest.raises(rk.InvalidOptionError, match="reward"):
        pettingzoo_env("gin", reward="score")
    with pytest.raises(rk.InvalidOptionError, match="render_mode"):
        pettingzoo_env("gin", render_mode="rgb_array")
    with pytest.raises(rk.InvalidOptionError, match="needs 2 players"):
        pettingzoo_env("gin", num_players=3)
    with pytest.raises(rk.InvalidOptionError, match="game name"):
        pettingzoo_env(rk.Game("gin"), num_players=2, target_score=50)


def test_game_object_and_options() -> None:
    env = pettingzoo_env("oklahoma-gin", spade_multiplier=3)
    assert env.game.rules.spade_multiplier == 3
    assert pettingzoo_env(rk.Game("gin")).game.name == "gin"


@pytest.mark.parametrize("name", ["oklahoma-rummy", pytest.param("kaluki", marks=NO_TABLE)])
def test_pettingzoo_render_test(name: str) -> None:
    render_test(lambda render_mode=None: pettingzoo_env(name, num_players=3, render_mode=render_mode))


def test_ansi_and_human_rendering(capsys: pytest.CaptureFixture[str]) -> None:
    env = pettingzoo_env("gin", render_mode="ansi")
    _play(env, 3)
    text = env.render()
    assert text is not None
    assert text.startswith("gin: end, hand over")
    assert "result:" in text and "seat 1:" in text and "last:" in text
    human = pettingzoo_env("gin", render_mode="human")
    human.reset(seed=3)
    human.step(int(np.flatnonzero(human.observe(human.agent_selection)["action_mask"])[0]))
    assert "seat 0:" in capsys.readouterr().out


def test_dense_index_for_table_games() -> None:
    game = rk.Game("kaluki")
    index = ActionIndex(game)
    assert index.dense and index.size == DENSE_ACTIONS
    state = game.new_hand(seed=0, dealer=0)
    state.apply_action(state.legal_actions()[0])  # draw: now a meld with a sparse id is legal
    legal = state.legal_actions()
    assert len(legal) > 2 and max(legal) > DENSE_ACTIONS
    assert index.legal(state) == list(range(len(legal)))
    assert [index.decode(state, k) for k in range(len(legal))] == legal
    assert index.encode(state, legal[-1]) == len(legal) - 1
    assert index.mask(state).sum() == len(legal)
    with pytest.raises(rk.IllegalActionError, match="not legal"):
        index.decode(state, len(legal))


def test_knock_games_use_the_engine_ids() -> None:
    game = rk.Game("gin")
    index = ActionIndex(game)
    state = game.new_hand(seed=1, dealer=0)
    assert not index.dense and index.size == 686
    assert index.legal(state) == state.legal_actions() == [105, 106]
    assert index.decode(state, 106) == index.encode(state, 106) == 106


def test_envs_docstrings() -> None:
    failures, tried = doctest.testmod(rummykit.envs)
    assert tried > 0 and failures == 0


def test_import_rummykit_does_not_import_the_frameworks() -> None:
    frameworks = "('pettingzoo', 'gymnasium', 'pyspiel', 'ray')"
    code = f"import sys, rummykit, rummykit.envs; print([m for m in {frameworks} if m in sys.modules])"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
