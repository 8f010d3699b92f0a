"""The single-agent Gymnasium environment (see :func:`rummykit.envs.gymnasium_env`)."""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np

from rummykit.agents import Agent, make_agent
from rummykit.envs._common import ActionIndex, check_reward, hand_rewards, make_game, render_text
from rummykit.envs._pettingzoo import RENDER_MODES, observation_box
from rummykit.errors import IllegalActionError, InvalidOptionError

__all__ = ["RummykitGymEnv"]


class RummykitGymEnv(gymnasium.Env[dict[str, Any], np.int64]):
    """One hand per episode from one seat's point of view; ``opponent`` plays the others.

    Observations (a dict of ``"observation"`` and ``"action_mask"``), actions and the final
    reward are those of :class:`rummykit.envs._pettingzoo.RummykitAECEnv` for ``seat``; the
    reward comes on the step that ends the hand (0 before).  ``reset(seed=...)`` seeds the
    deals and the opponents' agents.  A hand that ends before ``seat`` has acted is dealt
    again (it gives the learner nothing to learn from).  ``info["legal_actions"]`` lists the
    engine ids behind the actions; ``env.game_state`` is the engine state.

    An illegal action (one the mask rules out) ends the episode with ``illegal_reward`` and
    ``info["illegal_action"]``, the hand left unplayed; with ``illegal_reward=None`` it raises
    :class:`rummykit.IllegalActionError` instead.
    """

    metadata = {"render_modes": list(RENDER_MODES)}

    def __init__(
        self,
        game: Any,
        opponent: str | Agent = "greedy",
        seat: int = 0,
        num_players: int | None = None,
        reward: str = "points",
        render_mode: str | None = None,
        illegal_reward: float | None = -1.0,
        **options: Any,
    ) -> None:
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise InvalidOptionError(f"render_mode must be None, 'ansi' or 'human', got {render_mode!r}")
        self.game = make_game(game, num_players, options)
        n = self.game.num_players
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
            raise InvalidOptionError(f"seat must be a seat 0..{n - 1}, got {seat!r}")
        make_agent(opponent)  # fail fast on a bad name
        self.opponent, self.seat = opponent, seat
        self.reward_kind = check_reward(reward)
        self.render_mode = render_mode
        self.illegal_reward = illegal_reward
        self._over = True
        self.index = ActionIndex(self.game)
        mask = gymnasium.spaces.Box(low=0, high=1, shape=(self.index.size,), dtype=np.int8)
        self.observation_space = gymnasium.spaces.Dict({"observation": observation_box(self.game), "action_mask": mask})
        self.action_space = gymnasium.spaces.Discrete(self.index.size)
        self.game_state: Any = None  # a GameState after reset()
        self._agents: list[Agent] = []

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        super().reset(seed=seed)
        rng = self.np_random
        while True:
            self.game_state = self.game.new_hand(seed=rng, dealer=0)
            self._agents = [make_agent(self.opponent, int(rng.integers(2**63))) for _ in range(self.game.num_players)]
            self._play_others()
            if not self.game_state.is_terminal():
                self._over = False
                return self._observe(), self._info()

    def _play_others(self) -> None:
        state = self.game_state
        while not state.is_terminal() and state.current_player != self.seat:
            state.play(self._agents[state.current_player](state))

    def _observe(self) -> dict[str, Any]:
        state = self.game_state
        mask = np.zeros(self.index.size, dtype=np.int8) if state.is_terminal() else self.index.mask(state)
        return {"observation": state.observation_tensor(self.seat), "action_mask": mask}

    def _info(self) -> dict[str, Any]:
        state = self.game_state
        if state.is_terminal():
            return {"result": state.result}
        return {"legal_actions": state.legal_actions()}

    def step(self, action: int | np.int64) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        """Play ``action`` for the learner, then the other seats until it is the learner's turn
        again or the hand is over; an illegal action raises :class:`rummykit.IllegalActionError`."""
        state = self.game_state
        if self._over:
            raise InvalidOptionError("the episode is over (or not started): call reset()")
        try:
            action_id = self.index.decode(state, int(action))
        except IllegalActionError:
            if self.illegal_reward is None:
                raise
            self._over = True
            return self._observe(), float(self.illegal_reward), True, False, {"illegal_action": int(action)}
        state.apply_action(action_id)
        self._play_others()
        self._over = state.is_terminal()
        reward = hand_rewards(state, self.reward_kind)[self.seat] if self._over else 0.0
        if self.render_mode == "human":
            self.render()
        return self._observe(), reward, self._over, False, self._info()

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
