"""The PettingZoo AEC environment (see :func:`rummykit.envs.pettingzoo_env`)."""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from pettingzoo import AECEnv

from rummykit.envs._common import ActionIndex, check_reward, hand_rewards, make_game, render_text
from rummykit.errors import InvalidOptionError

__all__ = ["RummykitAECEnv", "observation_box"]

RENDER_MODES = ("ansi", "human")


def observation_box(game: Any) -> gymnasium.spaces.Box:
    """The space of ``state.observation_tensor(seat)``: its length read from a fresh hand; the
    observe modules scale every entry into [0, 1] (0/1 planes, one-hots and fractions)."""
    size = len(game.new_hand(seed=0, dealer=0).observation_tensor(0))
    return gymnasium.spaces.Box(low=0.0, high=1.0, shape=(size,), dtype=np.float32)


class RummykitAECEnv(AECEnv):  # type: ignore[misc]
    """One hand of a rummykit game per episode, as a PettingZoo AEC environment.

    Agents are ``"player_0"`` ... (seat ``i`` is ``"player_i"``; seat 0 deals).  Each
    observation is a dict: ``"observation"``, the seat's ``observation_tensor`` (float32), and
    ``"action_mask"`` (int8, 1 for each legal action of the agent to move, all 0 for the others).
    Actions follow :class:`rummykit.envs._common.ActionIndex`: engine ids for the knock games, a
    dense per-state index for Rummy and Kaluki (``info["legal_actions"]`` lists the engine ids
    behind the indices).  Rewards come only at the end of the hand (see ``reward``); the
    deal and the restock shuffles are drawn inside the environment from the generator that
    ``reset(seed=...)`` seeds.  ``env.game_state`` is the engine state (a :class:`rummykit.GameState`:
    ``KnockState`` or ``TableState``) for anything else.
    """

    metadata = {"name": "rummykit_v0", "render_modes": list(RENDER_MODES), "is_parallelizable": False}

    def __init__(
        self,
        game: Any,
        num_players: int | None = None,
        reward: str = "points",
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise InvalidOptionError(f"render_mode must be None, 'ansi' or 'human', got {render_mode!r}")
        self.game = make_game(game, num_players, options)
        self.reward = check_reward(reward)
        self.render_mode = render_mode
        self.index = ActionIndex(self.game)
        self.possible_agents = [f"player_{i}" for i in range(self.game.num_players)]
        self._seat = {agent: i for i, agent in enumerate(self.possible_agents)}
        box = observation_box(self.game)
        mask = gymnasium.spaces.Box(low=0, high=1, shape=(self.index.size,), dtype=np.int8)
        self.observation_spaces = {
            a: gymnasium.spaces.Dict({"observation": box, "action_mask": mask}) for a in self.possible_agents
        }
        self.action_spaces = {a: gymnasium.spaces.Discrete(self.index.size) for a in self.possible_agents}
        self._rng = np.random.default_rng()
        self.game_state: Any = None  # a GameState after reset()

    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new hand; ``seed`` reseeds the environment's generator (deals and restocks)."""
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        self.game_state = self.game.new_hand(seed=self._rng, dealer=0)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._select()

    def _select(self) -> None:
        state = self.game_state
        self.agent_selection = self.possible_agents[state.current_player]
        self.infos[self.agent_selection] = {"legal_actions": state.legal_actions()}

    def observe(self, agent: str) -> dict[str, Any]:
        state, seat = self.game_state, self._seat[agent]
        to_act = not state.is_terminal() and state.current_player == seat
        mask = self.index.mask(state) if to_act else np.zeros(self.index.size, dtype=np.int8)
        return {"observation": state.observation_tensor(seat), "action_mask": mask}

    def step(self, action: int | None) -> None:
        """Play ``action`` for ``agent_selection`` (None once the agent is done); an illegal
        action raises :class:`rummykit.IllegalActionError` and changes nothing."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise InvalidOptionError(f"{agent} is to act: None is only for agents that are done")
        state = self.game_state
        state.apply_action(self.index.decode(state, action))
        self._cumulative_rewards[agent] = 0.0
        self.infos[agent] = {}
        if state.is_terminal():
            for a, r in zip(self.possible_agents, hand_rewards(state, self.reward)):
                self.rewards[a] = r
                self.terminations[a] = True
            self.infos = {a: {"result": state.result} for a in self.agents}
        else:
            self._select()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """The table as text (``ansi``: returned; ``human``: printed)."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() without a render_mode: pass render_mode='ansi' or 'human'")
            return None
        text = render_text(self.game_state)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release."""
