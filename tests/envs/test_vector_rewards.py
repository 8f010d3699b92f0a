"""VectorGame's rewards and hand reports against the scalar engine: ``reward="points"`` (zero-sum,
from ``state.returns()``), ``shaping="deadwood"`` (potential-based: it telescopes over a hand),
``hand_points``, ``hand_outcome``/``hand_winner``, ``obs_layout`` and ``action_text``, every row
stepped in lockstep with a scalar state of the same deal."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from long_runs import LONG

from rummykit.analysis import deadwood
from rummykit.errors import IllegalActionError, InvalidOptionError
from rummykit.vector import VectorGame

SCALE = 10 if LONG else 1

#: (game, options, rows, steps): enough random steps for hands of every game to end
GAMES: list[tuple[str, dict[str, Any], int, int]] = [
    ("gin", {}, 6, 200),
    ("oklahoma-gin", {}, 4, 200),
    ("oklahoma-rummy", {"num_players": 3, "max_turns": 40}, 3, 250),
    ("rummy", {}, 2, 700),
    ("rummy", {"num_players": 3, "max_turns": 60, "rummy_scoring": "penalty"}, 3, 250),
    ("kaluki", {"num_players": 3, "max_turns": 60}, 2, 300),
]

#: every game (its presets and scorings), with turn limits where random play would not end hands
GAMES_ALL: list[tuple[str, dict[str, Any]]] = [
    ("gin", {}),
    ("oklahoma-gin", {}),
    ("oklahoma-rummy", {"max_turns": 30}),
    ("rummy", {"max_turns": 30}),
    ("rummy", {"max_turns": 30, "num_players": 4, "rummy_scoring": "penalty"}),
    ("kaluki", {"max_turns": 30}),
    ("kaluki", {"max_turns": 30, "num_players": 4}),
]


def knocking(vg: VectorGame, rng: np.random.Generator) -> np.ndarray:
    """Random legal actions, but a knock (knock-game ids 52..103) whenever one is legal: hands end."""
    actions = vg.sample_actions(rng)
    if vg.game.family == "knock":
        knocks = vg.legal_mask[:, 52:104]
        rows = knocks.any(axis=1)
        actions[rows] = 52 + knocks[rows].argmax(axis=1)
    return actions


def potential(state: Any, seat: int, scale: float) -> float:
    """phi of ``seat``: minus its deadwood (knock games) or the value of its cards (table games)."""
    cards = state.hand(seat)
    if state.game.family == "knock":
        return -deadwood(cards) / scale
    return -sum(state.geo.values[int(c)] for c in cards) / scale


@pytest.mark.parametrize(("name", "options", "batch", "steps"), GAMES)
def test_points_rewards_hand_points_and_shaping_follow_the_scalar_engine(
    name: str, options: dict[str, Any], batch: int, steps: int
) -> None:
    gamma, scale = 0.9, 50.0
    vg = VectorGame(
        name, batch, seed=4, reward="points", shaping="deadwood", shaping_gamma=gamma, shaping_scale=scale, **options
    )
    plain = VectorGame(name, batch, seed=4, reward="points", **options)
    unit = VectorGame(name, batch, seed=4, reward="points", shaping="deadwood", shaping_scale=scale, **options)
    n = vg.num_players
    states = [vg.state(i) for i in range(batch)]
    phi = np.array([[potential(s, q, scale) for q in range(n)] for s in states])
    start = phi.copy()  # phi(s0) of each row's hand
    telescoped = np.zeros((batch, n))  # gamma = 1: a hand's shaping sums to -phi(s0) (phi = 0 at its end)
    rng = np.random.default_rng(3)
    ended = 0
    for _ in range(steps * SCALE):
        actions = vg.sample_actions(rng)
        rewards, base = vg.step(actions), plain.step(actions)
        telescoped += unit.step(actions) - base
        assert np.array_equal(vg.terminated, plain.terminated)
        assert not vg.hand_points.flags.writeable
        for i in range(batch):
            state = states[i]
            state.apply_action(vg.index.decode(state, int(actions[i])))
            if state.is_terminal():
                ended += 1
                returns = [float(x) for x in state.returns()]
                assert vg.hand_points[i].tolist() == returns
                assert vg.outcome_names[vg.hand_outcome[i]] == state.result.outcome
                assert vg.hand_winner[i] == (-1 if state.result.winner is None else state.result.winner)
                for q in range(n):  # the seat's points less the others' mean
                    others = (sum(returns) - returns[q]) / (n - 1)
                    assert base[i, q] == pytest.approx(returns[q] - others, abs=1e-4)
                assert abs(float(base[i].sum())) < 1e-3  # zero-sum
                after = np.zeros(n)
                assert telescoped[i] == pytest.approx(-start[i], abs=1e-4)
                states[i] = vg.state(i)
                start[i] = [potential(states[i], q, scale) for q in range(n)]
                telescoped[i] = 0
                new_phi = start[i]
            else:
                assert not vg.hand_points[i].any() and vg.hand_outcome[i] == -1 and vg.hand_winner[i] == -1
                assert not base[i].any()
                after = np.array([potential(state, q, scale) for q in range(n)])
                new_phi = after
            assert rewards[i] - base[i] == pytest.approx(gamma * after - phi[i], abs=1e-4)
            phi[i] = new_phi
    assert ended > 0


def test_points_rewards_are_zero_sum_in_every_game_and_a_loss_costs() -> None:
    decided = 0
    for name, options in GAMES_ALL:
        vg = VectorGame(name, 16, seed=1, reward="points", **options)
        rng = np.random.default_rng(2)
        for _ in range(150):
            rewards = vg.step(knocking(vg, rng))
            assert np.abs(rewards.sum(axis=1)).max() < 1e-3
            won = np.flatnonzero(vg.hand_winner >= 0)
            decided += won.size
            for row in won:  # the winner gains what the others lose
                assert (
                    rewards[row, vg.hand_winner[row]] > 0 and (np.delete(rewards[row], vg.hand_winner[row]) < 0).all()
                )
    assert decided > 0


def test_obs_layout_names_the_observation_columns() -> None:
    for name in ("gin", "kaluki"):
        vg = VectorGame(name, 2, seed=1)
        layout = vg.obs_layout()
        assert layout == list(vg.game.observation_layout) and layout[0][1] == 0 and layout[-1][2] == vg.obs_dim
        assert all(stop == nxt for (_, _, stop), (_, nxt, _) in zip(layout, layout[1:]))


@pytest.mark.parametrize("name", ["gin", "rummy", "kaluki"])
def test_action_text_is_the_scalar_states_text_of_the_move(name: str) -> None:
    vg = VectorGame(name, 3, seed=8)
    rng = np.random.default_rng(5)
    for _ in range(25):
        for i in range(3):
            state = vg.state(i)
            for a in np.flatnonzero(vg.legal_mask[i])[:5]:
                action_id = vg.index.decode(state, int(a))
                assert vg.action_text(i, int(a)) == state.action_text(action_id)
        vg.step(vg.sample_actions(rng))
    illegal = int(np.flatnonzero(~vg.legal_mask[0])[0])
    with pytest.raises(IllegalActionError, match="row 0"):
        vg.action_text(0, illegal)
    with pytest.raises(InvalidOptionError, match="row"):
        vg.action_text(3, 0)


def test_bad_reward_and_shaping_arguments_raise() -> None:
    with pytest.raises(InvalidOptionError, match="reward"):
        VectorGame("gin", 2, reward="score")
    with pytest.raises(InvalidOptionError, match="shaping"):
        VectorGame("gin", 2, shaping="melds")
    with pytest.raises(InvalidOptionError, match="shaping_gamma"):
        VectorGame("gin", 2, shaping="deadwood", shaping_gamma=1.5)
    with pytest.raises(InvalidOptionError, match="shaping_scale"):
        VectorGame("gin", 2, shaping="deadwood", shaping_scale=0)
