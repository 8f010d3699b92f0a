"""What the framework adapters share: the game lookup, the action index, rewards and text.

Only numpy and rummykit are imported here; each adapter imports its framework itself.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from rummykit.agents.base import Agent, make_agent, signed_results
from rummykit.agents.policy import PolicyAgent, _required_positional
from rummykit.engine.action_space import ACTION_SPACES, ActionIndex, action_index
from rummykit.engine.protocol import GameState
from rummykit.errors import InvalidOptionError, clip
from rummykit.games import Game
from rummykit.table.family import TABLE
from rummykit.vector import REWARDS as VECTOR_REWARDS
from rummykit.vector import check_shaping, deadwood_potential, pool_cumulative

__all__ = [
    "ACTION_SPACES",
    "DEFAULT_REWARD",
    "DENSE_ACTIONS",
    "RENDER_MODES",
    "OpponentPool",
    "REWARDS",
    "ActionIndex",
    "RenderModeError",
    "Shaping",
    "action_index",
    "action_text",
    "action_text_before",
    "check_render_mode",
    "check_reward",
    "hand_rewards",
    "make_game",
    "opponent_agent",
    "render_text",
]

#: The action slots of a table game (Rummy, Kaluki) in the dense per-state index.
DENSE_ACTIONS: int = TABLE.num_dense_actions  # type: ignore[assignment]
#: The reward schemes: ``win_loss`` (+1 to the winner, -1 to the others, 0 to all without a
#: winner) or ``points`` (zero-sum for a hand: the seat's ``returns()`` less the others' mean;
#: the match score for a match).
REWARDS = VECTOR_REWARDS
#: The reward of every adapter unless told otherwise: bounded and the same scale in every game.
DEFAULT_REWARD = "win_loss"


class RenderModeError(InvalidOptionError, TypeError):
    """A render mode the environments do not have (they render text: ``ansi`` and ``human``).
    Also a ``TypeError``: Stable-Baselines3's ``make_vec_env`` asks for ``rgb_array`` first and
    retries without a render mode on a TypeError."""


#: The render modes of the environments.
RENDER_MODES = ("ansi", "human")


def check_render_mode(render_mode: str | None) -> str | None:
    """``render_mode`` if it is None or one of :data:`RENDER_MODES`, else :class:`RenderModeError`."""
    if render_mode is not None and render_mode not in RENDER_MODES:
        raise RenderModeError(f"render_mode must be None, 'ansi' or 'human', got {clip(render_mode)}")
    return render_mode


def make_game(game: Game | str, num_players: int | None, options: dict[str, Any]) -> Game:
    """``game`` as a game object: a name goes to ``Game(name, num_players=..., **options)``."""
    if isinstance(game, str):
        if num_players is not None:
            options = {"num_players": num_players, **options}
        return Game(game, **options)
    if not isinstance(game, Game):
        raise InvalidOptionError(f"game must be a game name or a Game, got {clip(game)}")
    if options or (num_players is not None and num_players != game.num_players):
        raise InvalidOptionError("num_players and options go with a game name, not with a game object")
    return game


def check_reward(reward: str) -> str:
    """``reward`` if it is one of :data:`REWARDS`, else :class:`InvalidOptionError`."""
    if reward not in REWARDS:
        raise InvalidOptionError(f"reward must be one of {', '.join(REWARDS)}, got {reward!r}")
    return reward


def hand_rewards(state: GameState, reward: str) -> list[float]:
    """Each seat's reward for a finished hand: its ``returns()`` less the mean of the other
    seats' (``points``: zero-sum, a lost hand costs, as ``VectorGame(reward="points")``), or +1
    for the hand's winner and -1 for every other seat (``win_loss``; 0 for all in a dead hand)."""
    if reward == "points":
        return signed_results(state.returns())
    winner = state.result.winner
    if winner is None:
        return [0.0] * state.n
    return [1.0 if seat == winner else -1.0 for seat in range(state.n)]


class Shaping:
    """The scalar adapters' ``shaping="deadwood"``: potential-based reward shaping (Ng, Harada
    and Russell, 1999), as :class:`rummykit.vector.VectorGame`'s.  Each seat's reward at each
    of its steps gains ``F = gamma * phi(s') - phi(s)``, ``phi = -deadwood / scale``
    (:func:`rummykit.vector.deadwood_potential`) and ``phi = 0`` once the seat's episode
    ended, so with ``gamma = 1`` an episode's shaping sums to ``-phi(s0)`` whatever is played
    and the optimal policy is the unshaped reward's.  ``shaping=None``: no shaping (0)."""

    def __init__(self, shaping: str | None, gamma: float, scale: float) -> None:
        check_shaping(shaping, gamma, scale)
        self.kind, self.gamma, self.scale = shaping, float(gamma), float(scale)
        self._phi: dict[int, float] = {}

    def start(self, state: GameState, seats: Any) -> None:
        """A new episode: the potential of each of ``seats`` in ``state``."""
        self._phi = {seat: deadwood_potential(state, seat, self.scale) for seat in seats} if self.kind else {}

    def step(self, state: GameState, seat: int, done: bool) -> float:
        """``seat``'s shaping since its last step (or the start), ``state`` now; ``done``: its
        episode ended (phi = 0)."""
        if self.kind is None:
            return 0.0
        phi = 0.0 if done else deadwood_potential(state, seat, self.scale)
        shaped = self.gamma * phi - self._phi.get(seat, 0.0)
        self._phi[seat] = phi
        return shaped


def action_text(state: GameState, action_id: int) -> str:
    """An engine action id as text, in ``state`` (table games name meld slots by the table)."""
    return state.action_text(action_id)


def render_text(state: GameState) -> str:
    """The whole hand as text (every hand face up: for people watching, not for the seats)."""
    lines = [f"{state.rules.name}: {state.phase_name}, " + _to_act(state)]
    top = state.top_discard
    lines.append(f"stock {len(state.stock)}, discard pile {len(state.discards)}, top {top if top else '-'}")
    for seat in range(state.n):
        cards = " ".join(str(c) for c in state.hand(seat))
        lines.append(f"seat {seat}: {cards}")
    for slot, meld in enumerate(state.table_text(), start=1):
        lines.append(f"table {slot}: {meld}")
    if state.history:
        lines.append("last: " + action_text_before(state))
    if state.is_terminal():
        lines.append(f"result: {state.result.outcome}, winner {state.result.winner}, returns {state.returns()}")
    return "\n".join(lines)


def _to_act(state: GameState) -> str:
    return "hand over" if state.is_terminal() else f"seat {state.current_player} to act"


def action_text_before(state: GameState) -> str:
    """The last action as text, named in the state it was played in."""
    before = state.clone()
    before.undo()
    return action_text(before, state.history[-1])


def opponent_agent(spec: Any, seed: int) -> Agent:
    """An opponent: a batched policy ``fn(observation, legal_mask)`` (a callable of two
    positional parameters, no ``spawn``) in a :class:`~rummykit.agents.PolicyAgent`, else
    :func:`rummykit.make_agent`'s agent."""
    if not isinstance(spec, str) and callable(spec) and not isinstance(spec, type) and not hasattr(spec, "spawn"):
        if _required_positional(spec) == 2:
            return PolicyAgent(spec)
    return make_agent(spec, seed)


class OpponentPool:
    """The ``opponent`` of the scalar adapters: an agent spec for :func:`rummykit.make_agent`
    (``"greedy"``), an agent, a batched policy ``fn(observation, legal_mask) -> actions`` (played
    through :class:`~rummykit.agents.PolicyAgent`), or a list of these: a pool, one member drawn
    per episode with ``probs`` (uniform if None).  Bad names and weights raise
    :class:`InvalidOptionError` here, before any episode."""

    def __init__(self, opponent: Any, probs: Any = None) -> None:
        members = list(opponent) if isinstance(opponent, (list, tuple)) else [opponent]
        if not members:
            raise InvalidOptionError("opponent: an empty pool")
        for member in members:
            opponent_agent(member, 0)  # fail fast on a bad name
        if probs is not None and len(members) == 1:
            raise InvalidOptionError("opponent_probs needs a pool (a list) of opponents")
        self.members = members
        self._cumulative = None if len(members) == 1 else pool_cumulative(probs, len(members), "opponent_probs")

    def draw(self, rng: np.random.Generator, count: int) -> list[Agent]:
        """``count`` agents of one member (drawn from ``rng`` for a pool), each seeded from ``rng``."""
        member = self.members[0]
        if self._cumulative is not None:
            k = int(np.searchsorted(self._cumulative, rng.random(), side="right"))
            member = self.members[min(k, len(self.members) - 1)]
        return [opponent_agent(member, int(rng.integers(2**63))) for _ in range(count)]
