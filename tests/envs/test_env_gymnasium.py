"""The single-agent Gymnasium environment: Gymnasium's env checker and registry, masks as
MaskablePPO reads them, seats and dealers per episode, match episodes, rewards, seeds."""

from __future__ import annotations

import pytest

pytest.importorskip("gymnasium", reason="the pettingzoo extra is not installed: pip install 'rummykit[pettingzoo]'")

import gymnasium
import numpy as np
from gymnasium.utils.env_checker import check_env

import rummykit as rk
from rummykit.agents import signed_results
from rummykit.envs import DEFAULT_REWARD, gymnasium_env
from rummykit.envs._gymnasium import RummykitGymEnv
from rummykit.envs._registration import GYMNASIUM_IDS


@pytest.mark.parametrize(
    ("name", "players", "seat", "episode"),
    [
        ("gin", 2, 0, "hand"),
        ("oklahoma-gin", 2, None, "hand"),
        ("oklahoma-rummy", 3, 2, "hand"),
        ("kaluki", 3, None, "hand"),
        ("gin", 2, None, "match"),
        ("kaluki", 3, None, "match"),
    ],
)
def test_check_env(name: str, players: int, seat: int | None, episode: str) -> None:
    env = gymnasium_env(name, num_players=players, seat=seat, opponent="random", episode=episode)
    check_env(env, skip_render_check=True)


def test_check_env_with_the_dense_index() -> None:
    env = gymnasium_env("rummy", opponent="random", action_space="dense")
    assert env.action_space.n == 4096
    check_env(env, skip_render_check=True)
    assert gymnasium_env("rummy").action_space.n == 8463  # the fixed ids


def _episode(env: RummykitGymEnv, seed: int) -> tuple[float, int, dict[str, object]]:
    """Play one episode choosing uniformly among the masked actions: last reward, steps, last info."""
    obs, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    steps, done, reward = 0, False, 0.0
    while not done:
        state = env.game_state
        mask = env.action_masks()
        assert mask.dtype == np.bool_
        np.testing.assert_array_equal(mask, obs["action_mask"].astype(bool))
        np.testing.assert_array_equal(mask, info["action_mask"])
        assert state.current_player == env.seat == info["seat"]  # match seats in every hand
        assert info["legal_actions"] == state.legal_actions()
        obs, reward, done, truncated, info = env.step(int(rng.choice(np.flatnonzero(mask))))
        assert not truncated and (done or reward == 0.0)
        steps += 1
    assert not env.action_masks().any() and not obs["action_mask"].any()
    return reward, steps, info


def test_the_default_reward_is_win_loss() -> None:
    assert DEFAULT_REWARD == "win_loss"
    assert gymnasium_env("gin").reward_kind == "win_loss"


@pytest.mark.parametrize("reward", ["points", "win_loss"])
def test_final_reward_is_the_seat_result(reward: str) -> None:
    env = gymnasium_env("oklahoma-rummy", num_players=3, opponent="greedy", reward=reward)
    for seed in range(3):
        got, _, info = _episode(env, seed)
        state = env.game_state
        winner, seat = state.result.winner, env.seat
        assert info["result"] == state.result
        if reward == "points":
            assert got == pytest.approx(signed_results(state.returns())[seat])
        else:
            assert got == (0.0 if winner is None else 1.0 if winner == seat else -1.0)


def test_seat_and_dealer_are_drawn_per_episode_and_reproducible() -> None:
    env = gymnasium_env("oklahoma-rummy", num_players=3, opponent="random")
    seen = set()
    for seed in range(60):
        env.reset(seed=seed)
        seen.add((env.seat, env.game_state.dealer))
        first = (env.seat, env.game_state.to_json())
        env.reset(seed=seed)
        assert (env.seat, env.game_state.to_json()) == first
    assert len(seen) == 9  # every seat with every dealer
    fixed = gymnasium_env("gin", seat=1, dealer=0)
    for seed in range(5):
        fixed.reset(seed=seed)
        assert (fixed.seat, fixed.game_state.dealer) == (1, 0)


def test_opponents_play_the_other_seats() -> None:
    """A greedy opponent plays exactly GreedyAgent's moves."""
    env = gymnasium_env("gin", opponent="greedy")
    _episode(env, 4)
    state = env.game_state
    replay = rk.Game("gin").new_hand(seed=0, dealer=state.dealer, deck=state.deck)
    greedy = rk.GreedyAgent()
    for action in state.history:
        if replay.current_player != env.seat:
            assert action == greedy(replay)
        replay.apply_action(action)


def test_seed_determinism_and_agent_objects() -> None:
    a = gymnasium_env("gin", opponent="random")
    b = gymnasium_env("gin", opponent=rk.RandomAgent())
    assert _episode(a, 9)[:2] == _episode(b, 9)[:2]
    assert a.game_state.to_json() == b.game_state.to_json()


@pytest.mark.parametrize(("name", "players", "options"), [("gin", 2, {}), ("kaluki", 3, {"elimination_threshold": 60})])
def test_match_episode_is_the_engine_match(name: str, players: int, options: dict[str, object]) -> None:
    """A match episode ends when the learner's match does (or it is eliminated); the reward is
    the match's, and the match recorded every hand as the engine's Match does."""
    for reward in ("win_loss", "points"):
        env = gymnasium_env(name, num_players=players, episode="match", reward=reward, opponent="greedy", **options)
        got, steps, info = _episode(env, 2)
        match, seat = env.match, env.seat
        assert len(match.hands) >= 1 and steps > 0
        assert info["eliminated"] == (not match.is_over)
        if match.is_over:
            assert info["result"] == match.result
        else:  # Kaluki: the learner was eliminated, the others play on
            assert seat not in match.active and info["result"] is None
        if reward == "win_loss":
            assert got == (1.0 if match.is_over and match.result.winner == seat else -1.0)
        elif name == "gin":
            result = match.result
            assert got == result.totals[seat] - result.totals[1 - seat] != 0
        else:
            assert got == -match.scores[seat]


def test_match_dealer_passes_by_the_rules() -> None:
    env = gymnasium_env("gin", episode="match", opponent="greedy", target_score=60)
    _episode(env, 5)
    match = env.match
    hands, dealers = match.hands, match.dealers
    assert len(hands) >= 2
    for hand, dealer, after in zip(hands, dealers, dealers[1:]):
        assert after == (dealer if hand.winner is None else (dealer + 1) % 2)


def test_illegal_action_ends_the_episode_or_raises() -> None:
    env = gymnasium_env("gin", illegal_reward=-5.0)
    obs, _ = env.reset(seed=1)
    before = env.game_state.to_json()
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    obs, reward, done, truncated, info = env.step(illegal)
    assert (reward, done, truncated, info["illegal_action"]) == (-5.0, True, False, illegal)
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
    with pytest.raises(rk.InvalidOptionError, match="dealer"):
        gymnasium_env("gin", dealer=-1)
    with pytest.raises(rk.InvalidOptionError, match="episode"):
        gymnasium_env("gin", episode="game")
    with pytest.raises(rk.InvalidOptionError, match="unknown agent"):
        gymnasium_env("gin", opponent="grandmaster")
    with pytest.raises(rk.InvalidOptionError, match="render_mode") as err:
        gymnasium_env("gin", render_mode="rgb_array")
    assert isinstance(err.value, TypeError)  # what Stable-Baselines3's make_vec_env retries on


def test_render_ansi() -> None:
    env = gymnasium_env("oklahoma-gin", render_mode="ansi", seat=0)
    env.reset(seed=3)
    text = env.render()
    assert text is not None and text.startswith("oklahoma_gin: ") and "seat 0 to act" in text


def test_registered_ids_make_every_game() -> None:
    assert len(GYMNASIUM_IDS) == 10
    for env_id, (game, episode) in GYMNASIUM_IDS.items():
        env = gymnasium.make(env_id, opponent="random")
        assert env.spec is not None and env.spec.id == env_id
        inner = env.unwrapped
        assert isinstance(inner, RummykitGymEnv)
        assert inner.game.name == game.replace("-", "_") and inner.episode.kind == episode
        obs, info = env.reset(seed=0)
        assert env.observation_space.contains(obs)
        assert env.get_wrapper_attr("action_masks")().sum() == len(info["legal_actions"])
        env.close()
    made = gymnasium.make("rummykit/OklahomaRummy-v0", num_players=4, reward="points")
    assert made.unwrapped.game.num_players == 4 and made.unwrapped.reward_kind == "points"


def test_vector_env_from_the_registry() -> None:
    envs = gymnasium.make_vec("rummykit/Gin-v0", num_envs=3, vectorization_mode="sync", opponent="random")
    obs, info = envs.reset(seed=1)
    assert obs["observation"].shape == (3, 1699)
    masks = np.stack(envs.call("action_masks"))
    assert masks.shape == (3, 686) and masks.any(axis=1).all()
    actions = np.array([np.flatnonzero(m)[0] for m in masks])
    envs.step(actions)
    envs.close()
