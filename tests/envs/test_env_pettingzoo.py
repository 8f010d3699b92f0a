"""The PettingZoo AEC environment: PettingZoo's own API and seed tests on the wrapped and bare
environments, its conventions (env()/raw_env(), illegal moves, stepping before reset), masks,
rewards, dealers, match episodes with eliminations, text."""

from __future__ import annotations

import doctest
import subprocess
import sys
from typing import Any

import pytest

pytest.importorskip("pettingzoo", reason="the pettingzoo extra is not installed: pip install 'rummykit[pettingzoo]'")

import numpy as np
from pettingzoo.test import api_test, render_test, seed_test
from pettingzoo.utils.wrappers import OrderEnforcingWrapper

import rummykit as rk
import rummykit.envs
from rummykit.agents import signed_results
from rummykit.envs import DENSE_ACTIONS, ActionIndex, pettingzoo_env, pettingzoo_raw_env, rummykit_v0
from rummykit.envs._pettingzoo import RummykitAECEnv
from rummykit.table import fixed

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
    api_test(pettingzoo_raw_env(name, num_players=players, **options), num_cycles=cycles)
    seed_test(lambda: pettingzoo_env(name, num_players=players, **options), num_cycles=cycles)


@pytest.mark.parametrize(("name", "players"), _variants())
def test_api_and_seed(name: str, players: int) -> None:
    # table games' observation tensors replay the history (~20 ms a step late in a hand):
    # short hands (max_turns) reach the end of the hand quickly; the long test plays whole ones
    _api_and_seed(name, players, 300, **({} if (name, players) in KNOCK else {"max_turns": 12}))


@pytest.mark.parametrize(
    ("name", "players"), [("gin", 2), ("oklahoma-rummy", 3), pytest.param("kaluki", 3, marks=NO_TABLE)]
)
def test_api_and_seed_match_episodes(name: str, players: int) -> None:
    _api_and_seed(name, players, 300, episode="match", **({"max_turns": 12} if name == "kaluki" else {}))


@pytest.mark.long
@pytest.mark.parametrize(("name", "players"), [pytest.param(*v, marks=NO_TABLE) for v in TABLE])
def test_api_and_seed_whole_table_hands(name: str, players: int) -> None:
    _api_and_seed(name, players, 1000)


def _play(env: Any, seed: int) -> dict[str, float]:
    """Play one episode choosing uniformly among the masked actions; each agent's total reward."""
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    totals = {a: 0.0 for a in env.possible_agents}
    for agent in env.agent_iter():
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
                assert totals[agent] == pytest.approx(signed_results(returns)[seat])
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


def test_default_reward_and_dealer_drawn_per_episode() -> None:
    env = pettingzoo_env("oklahoma-rummy", num_players=3)
    assert env.unwrapped.reward == "win_loss"
    dealers = set()
    for seed in range(20):
        env.reset(seed=seed)
        dealers.add(env.game_state.dealer)
        assert env.agent_selection == f"player_{env.game_state.current_player}"
    assert dealers == {0, 1, 2}
    fixed = pettingzoo_env("gin", dealer=1)
    fixed.reset(seed=3)
    assert fixed.game_state.dealer == 1


def test_env_and_raw_env_follow_pettingzoo_conventions() -> None:
    wrapped, raw = rummykit_v0.env("gin"), rummykit_v0.raw_env("gin")
    assert isinstance(wrapped, OrderEnforcingWrapper) and isinstance(wrapped.unwrapped, RummykitAECEnv)
    assert type(raw) is RummykitAECEnv and raw.metadata["is_parallelizable"] is False
    assert raw.metadata["name"] == "rummykit_v0"
    # before reset: PettingZoo's own error through the wrapper, a clear one from the bare env
    with pytest.raises(AssertionError, match="reset"):
        wrapped.step(0)
    with pytest.raises(AttributeError, match="before reset"):
        _ = wrapped.agent_selection
    with pytest.raises(rk.InvalidOptionError, match="reset"):
        raw.step(0)


def test_illegal_action_raises_on_the_raw_env_and_changes_nothing() -> None:
    env = pettingzoo_raw_env("gin")
    env.reset(seed=2)
    before = env.game_state.to_json()
    illegal = int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"] == 0)[0])
    with pytest.raises(rk.IllegalActionError, match="not legal"):
        env.step(illegal)
    with pytest.raises(rk.InvalidOptionError, match="None"):
        env.step(None)
    assert env.game_state.to_json() == before


@pytest.mark.filterwarnings("ignore:.*illegal move.*:UserWarning")
def test_illegal_action_ends_the_wrapped_episode_like_pettingzoo_classic() -> None:
    env = pettingzoo_env("gin", illegal_reward=-3.0)
    env.reset(seed=2)
    mover = env.agent_selection
    illegal = int(np.flatnonzero(env.observe(mover)["action_mask"] == 0)[0])
    env.step(illegal)
    assert all(env.terminations.values())
    rewards = {}
    for agent in env.agent_iter():
        obs, reward, done, cut, info = env.last()
        rewards[agent] = reward
        env.step(None)
    assert rewards == {mover: -3.0, next(a for a in env.possible_agents if a != mover): 0.0}


@pytest.mark.parametrize("reward", ["win_loss", "points"])
def test_kaluki_match_eliminated_agents_leave_and_the_others_play_on(reward: str) -> None:
    env = pettingzoo_env("kaluki", num_players=3, episode="match", reward=reward, elimination_threshold=60)
    rng = np.random.default_rng(0)
    env.reset(seed=2)
    inner = env.unwrapped
    ended: dict[str, tuple[float, bool]] = {}
    for agent in env.agent_iter():
        obs, r, done, cut, info = env.last()
        if done:
            ended[agent] = (r, inner.match.is_over)
            if not inner.match.is_over:  # out of the game: nothing to see, nothing to do
                assert not obs["observation"].any() and not obs["action_mask"].any()
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    match = inner.match
    assert match.is_over and len(match.hands) > 1
    early = [a for a, (_, over) in ended.items() if not over]
    assert early  # seed 2: someone is out before the end
    for agent, (r, _) in ended.items():
        seat = int(agent.split("_")[1])
        if reward == "win_loss":
            assert r == (1.0 if seat == match.result.winner else -1.0)
        else:
            assert r == -match.scores[seat]


def test_match_rewards_and_hands_are_the_engine_match() -> None:
    env = pettingzoo_env("gin", episode="match", reward="points", target_score=50)
    totals = _play(env, 4)
    result = env.match.result
    assert result is not None and len(env.match.hands) >= 2
    assert totals == {
        "player_0": result.totals[0] - result.totals[1],
        "player_1": result.totals[1] - result.totals[0],
    }


def test_bad_options() -> None:
    with pytest.raises(rk.InvalidOptionError, match="reward"):
        pettingzoo_env("gin", reward="score")
    with pytest.raises(rk.InvalidOptionError, match="render_mode"):
        pettingzoo_env("gin", render_mode="rgb_array")
    with pytest.raises(rk.InvalidOptionError, match="needs 2 players"):
        pettingzoo_env("gin", num_players=3)
    with pytest.raises(rk.InvalidOptionError, match="game name"):
        pettingzoo_env(rk.Game("gin"), num_players=2, target_score=50)
    with pytest.raises(rk.InvalidOptionError, match="episode"):
        pettingzoo_env("gin", episode="set")
    with pytest.raises(rk.InvalidOptionError, match="dealer"):
        pettingzoo_env("gin", dealer=2)


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
    index = ActionIndex(game, "dense")
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


def test_fixed_ids_for_table_games() -> None:
    game = rk.Game("kaluki")
    index = ActionIndex(game)
    assert not index.dense and index.size == fixed.NUM_ACTIONS
    state = game.new_hand(seed=0, dealer=0)
    state.apply_action(state.legal_actions()[0])  # draw: now a meld with a sparse id is legal
    legal = state.legal_actions()
    ids = [fixed.fixed_id(a) for a in legal]
    assert max(legal) > fixed.NUM_ACTIONS and index.legal(state) == sorted(ids)
    assert [index.decode(state, f) for f in ids] == legal
    assert [index.encode(state, a) for a in legal] == ids
    assert np.flatnonzero(index.mask(state)).tolist() == sorted(ids)
    assert index.text(state, ids[-1]) == state.action_text(legal[-1])
    assert index.text(state, 53) == "action 53 (not legal now)"
    with pytest.raises(rk.IllegalActionError, match="not legal"):
        index.decode(state, 53)
    with pytest.raises(rk.InvalidOptionError, match="action_space"):
        ActionIndex(game, "sparse")


def test_knock_games_use_the_engine_ids() -> None:
    game = rk.Game("gin")
    index = ActionIndex(game)
    state = game.new_hand(seed=1, dealer=0)
    assert not index.dense and index.size == 686
    assert index.legal(state) == state.legal_actions() == [105, 106]
    assert index.decode(state, 106) == index.encode(state, 106) == 106
    assert index.text(state, 106) == state.action_text(106)
    with pytest.raises(rk.InvalidOptionError, match="no dense action index"):
        ActionIndex(game, "dense")


def test_envs_docstrings() -> None:
    for module in (rummykit.envs, rummykit_v0):
        failures, tried = doctest.testmod(module)
        assert tried > 0 and failures == 0


def test_import_rummykit_does_not_import_the_frameworks() -> None:
    """``import rummykit`` imports none; ``rummykit.envs`` only Gymnasium (to register its ids)."""
    frameworks = "('pettingzoo', 'gymnasium', 'pyspiel', 'ray')"
    code = f"import sys, rummykit; print([m for m in {frameworks} if m in sys.modules])"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
    code = f"import sys, rummykit.envs; print([m for m in {frameworks} if m in sys.modules])"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "['gymnasium']"


def test_api_with_the_dense_index() -> None:
    """The table games' dense per-state index (``action_space="dense"``) passes the same checks."""
    _api_and_seed("rummy", 3, 20, action_space="dense")
    env = pettingzoo_raw_env("kaluki", action_space="dense")
    assert env.action_space("player_0").n == DENSE_ACTIONS
