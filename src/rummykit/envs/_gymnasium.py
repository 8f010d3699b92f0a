"""The single-agent Gymnasium environment (see :func:`rummykit.envs.gymnasium_env`)."""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt

from rummykit.agents import Agent
from rummykit.envs._common import (
    DEFAULT_REWARD,
    RENDER_MODES,
    ActionIndex,
    OpponentPool,
    Shaping,
    action_index,
    check_render_mode,
    check_reward,
    make_game,
    render_text,
)
from rummykit.envs._episode import Episode, check_seat
from rummykit.envs._pettingzoo import observation_box
from rummykit.errors import IllegalActionError, InvalidOptionError

__all__ = ["RummykitGymEnv"]


class RummykitGymEnv(gymnasium.Env[dict[str, Any], np.int64]):
    """One hand (``episode="hand"``) or one match (``episode="match"``) per episode from one
    seat's point of view; ``opponent`` plays the other seats.

    ``opponent`` is an agent spec for :func:`rummykit.make_agent` (``"greedy"``), an agent, a
    batched policy ``fn(observation, legal_mask) -> actions`` (played through
    :class:`~rummykit.agents.PolicyAgent`), or a list of these: a pool, one member drawn per
    episode with ``opponent_probs`` (uniform if None), for self-play against frozen snapshots.

    The learner's seat is ``seat`` (None: drawn per episode) and the dealer ``dealer`` (None:
    drawn per episode; in a match, the first dealer, the deal then passing by the game's
    rules); both draws come from the generator ``reset(seed=...)`` seeds, so the same seed
    gives the same episode.  ``env.seat`` is the learner's seat this episode.

    Observations are a dict of ``"observation"`` (the seat's ``observation_tensor``) and
    ``"action_mask"`` (int8); :meth:`action_masks` (what sb3-contrib's MaskablePPO reads) and
    ``info["action_mask"]`` give the same mask as booleans.  The reward comes on the step that
    ends the learner's episode (0 before; see :class:`rummykit.envs._episode.Episode`).  A hand
    episode that ends before the learner has acted is dealt again (it gives nothing to learn
    from).  Actions: ``action_space`` (:class:`rummykit.envs.ActionIndex`: ``"fixed"``, one id per
    move, or the table games' ``"dense"`` per-state index).  ``info["legal_actions"]`` lists the
    engine ids behind the actions; ``env.game_state``
    is the engine state of the hand in progress, ``env.match`` the match of a match episode.

    ``shaping="deadwood"`` adds potential-based shaping to every step's reward
    (:class:`rummykit.envs._common.Shaping`, ``shaping_gamma``, ``shaping_scale``: the
    semantics of :class:`rummykit.vector.VectorGame`'s, ``s'`` the state at the learner's next
    move).

    An illegal action (one the mask rules out) ends the episode with ``illegal_reward`` and
    ``info["illegal_action"]``, the hand left unplayed; with ``illegal_reward=None`` it raises
    :class:`rummykit.IllegalActionError` instead.
    """

    metadata = {"render_modes": list(RENDER_MODES)}

    def __init__(
        self,
        game: Any,
        opponent: str | Agent = "greedy",
        seat: int | None = None,
        num_players: int | None = None,
        reward: str = DEFAULT_REWARD,
        render_mode: str | None = None,
        illegal_reward: float | None = -1.0,
        episode: str = "hand",
        dealer: int | None = None,
        opponent_probs: Any = None,
        shaping: str | None = None,
        shaping_gamma: float = 1.0,
        shaping_scale: float = 100.0,
        action_space: str = "fixed",
        **options: Any,
    ) -> None:
        check_render_mode(render_mode)
        self.shaping = Shaping(shaping, shaping_gamma, shaping_scale)
        self.game = make_game(game, num_players, options)
        self.index = ActionIndex(self.game, action_space)
        n = self.game.num_players
        self._fixed_seat = check_seat("seat", seat, n)
        self._opponents = OpponentPool(opponent, opponent_probs)
        self.opponent = opponent
        self.seat = self._fixed_seat if self._fixed_seat is not None else 0
        self.reward_kind = check_reward(reward)
        self.episode = Episode(self.game, episode, self.reward_kind, dealer)
        self.render_mode = render_mode
        self.illegal_reward = illegal_reward
        self._over = True
        mask = gymnasium.spaces.Box(low=0, high=1, shape=(self.index.size,), dtype=np.int8)
        box = observation_box(self.game)
        self._tensor_size = box.shape[0]
        self.observation_space = gymnasium.spaces.Dict({"observation": box, "action_mask": mask})
        self.action_space = gymnasium.spaces.Discrete(self.index.size)
        self._agents: list[Agent] = []

    @property
    def game_state(self) -> Any:
        """The engine state of the hand in progress (a :class:`rummykit.GameState`; None before reset)."""
        return self.episode.state

    @property
    def match(self) -> Any:
        """The :class:`rummykit.Match` of a match episode (None for hand episodes)."""
        return self.episode.match

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        super().reset(seed=seed)
        rng = self.np_random
        n = self.game.num_players
        while True:
            self.seat = self._fixed_seat if self._fixed_seat is not None else int(rng.integers(n))
            self.episode.start(rng)
            self._agents = self._opponents.draw(rng, n)  # a pool: one member per episode
            self._play_others()
            if self.seat not in self.episode.final:
                self._over = False
                self.shaping.start(self.episode.state, [self.seat])
                return self._observe(), self._info()

    def _play_others(self) -> None:
        episode = self.episode
        while self.seat not in episode.final and episode.current_seat() != self.seat:
            seat = episode.current_seat()
            assert seat is not None
            episode.play(self._agents[seat](episode.seat_state(seat)))

    def _mask(self) -> npt.NDArray[np.int8]:
        if self._over or self.seat in self.episode.final:
            return np.zeros(self.index.size, dtype=np.int8)
        return self.index.mask(self.episode.state)

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal actions of the learner now (all False once the episode is over): the
        method sb3-contrib's ``MaskablePPO`` calls."""
        return self._mask().astype(bool)

    def _observe(self) -> dict[str, Any]:
        state = self.episode.state
        hand_seat = self.episode.hand_seat(self.seat)
        if hand_seat is None:  # eliminated (Kaluki): no longer at the table
            tensor = np.zeros(self._tensor_size, dtype=np.float32)
        else:
            tensor = state.observation_tensor(hand_seat)
        return {"observation": tensor, "action_mask": self._mask()}

    def _info(self) -> dict[str, Any]:
        state = self.episode.state
        info: dict[str, Any] = {"seat": self.seat, "action_mask": self._mask().astype(bool)}
        if self.seat in self.episode.final:
            if self.episode.kind == "hand":
                info["result"] = state.result
            else:  # the match result, or None for a seat eliminated while the others play on
                info["result"] = self.episode.match.result
                info["eliminated"] = not self.episode.match.is_over
        else:
            info["legal_actions"] = state.legal_actions()
        return info

    def step(self, action: int | np.int64) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        """Play ``action`` for the learner, then the other seats until it is the learner's turn
        again or its episode is over."""
        if self._over:
            raise InvalidOptionError("the episode is over (or not started): call reset()")
        state = self.episode.state
        try:
            action_id = self.index.decode(state, action)
        except IllegalActionError:
            if self.illegal_reward is None:
                raise
            self._over = True
            info = {"seat": self.seat, "action_mask": self._mask().astype(bool), "illegal_action": action_index(action)}
            return self._observe(), float(self.illegal_reward), True, False, info
        self.episode.apply(action_id)
        self._play_others()
        done = self.seat in self.episode.final
        reward = (self.episode.final[self.seat] if done else 0.0) + self.shaping.step(
            self.episode.state, self.seat, done
        )
        info = self._info()
        self._over = done
        if self.render_mode == "human":
            self.render()
        return self._observe(), reward, done, False, info

    def render(self) -> str | None:
        """The table as text (``ansi``: returned; ``human``: printed)."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() without a render_mode: pass render_mode='ansi' or 'human'")
            return None
        text = render_text(self.episode.state)
        if self.render_mode == "human":
            print(text)
            return None
        return text
