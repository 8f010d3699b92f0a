"""The Gymnasium vector environment over :class:`rummykit.vector.VectorGame`
(see :class:`RummykitVectorEnv`)."""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from rummykit.envs._common import DEFAULT_REWARD, check_reward
from rummykit.envs._episode import check_episode
from rummykit.envs._pettingzoo import observation_box
from rummykit.errors import InvalidOptionError, clip
from rummykit.vector import VectorGame

__all__ = ["RummykitVectorEnv"]


class RummykitVectorEnv(gymnasium.vector.VectorEnv):  # type: ignore[type-arg,unused-ignore]
    """``num_envs`` hands of ``game`` (a name, with ``options`` as for ``rummykit.Game``)
    stepped in one C call: in each, the learner plays one seat (drawn per hand from the
    seeded row streams) and ``opponent`` the others: ``"greedy"`` or ``"random"`` (played in
    C), a batched policy ``fn(observation, legal_mask) -> actions`` or a list of them drawn
    per hand with ``opponent_probs`` (:meth:`rummykit.vector.VectorGame.set_opponents`).

    The spaces are the batched ones of the scalar env (:class:`RummykitGymEnv`):
    observations a dict of ``"observation"`` (the learner's ``observation_tensor``) and
    ``"action_mask"`` (int8), actions one index per sub-environment (engine ids in the knock
    games, the dense per-state index in Rummy and Kaluki).  :meth:`action_masks` gives the
    masks as booleans (what sb3-contrib's MaskablePPO reads).  The reward is the learner's
    :class:`~rummykit.vector.VectorGame` reward: ``win_loss`` (+1, -1, 0 for a hand without a
    winner) or ``points`` (zero-sum hand points) on the step that ends the hand, which covers
    the opponents' replies, plus the potential-based ``shaping="deadwood"`` on every step if
    asked for (``shaping_gamma``, ``shaping_scale`` go to the VectorGame); only one-hand
    episodes (``episode="hand"``).

    Ended hands restart in the same step (``metadata["autoreset_mode"]`` SAME_STEP): the
    observation returned is the next hand's, and the ended hand's last observation is not
    kept (no hand is ever truncated, so nothing needs it for bootstrapping).  A hand that
    ends before the learner's first move is dealt again.  An illegal action in any
    sub-environment raises :class:`rummykit.IllegalActionError` naming it, nothing played.
    ``threads`` splits the rows of a step among threads (the results do not depend on it).
    """

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}

    def __init__(
        self,
        game: str = "gin",
        num_envs: int = 64,
        opponent: Any = "greedy",
        reward: str = DEFAULT_REWARD,
        episode: str = "hand",
        threads: int = 1,
        copy: bool = True,
        shaping: str | None = None,
        opponent_probs: Any = None,
        **options: Any,
    ) -> None:
        if check_episode(episode) != "hand":
            raise InvalidOptionError("the vector env plays one-hand episodes")
        if isinstance(opponent, str) and opponent not in ("greedy", "random"):
            raise InvalidOptionError(f"opponent must be 'greedy' or 'random' (played in C), got {clip(opponent)}")
        if opponent is None:
            raise InvalidOptionError("the vector env needs an opponent: 'greedy', 'random' or batched policies")
        self.vector_game = VectorGame(game, num_envs, 0, threads, check_reward(reward), shaping, **options)
        self.vector_game.set_opponents(opponent, opponent_probs)
        self.opponent = opponent
        self.copy = copy
        self.num_envs = self.vector_game.batch
        size = self.vector_game.num_actions
        mask = gymnasium.spaces.Box(low=0, high=1, shape=(size,), dtype=np.int8)
        self.single_observation_space = gymnasium.spaces.Dict(
            {"observation": observation_box(self.vector_game.game), "action_mask": mask}
        )
        self.single_action_space = gymnasium.spaces.Discrete(size)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self._rows = np.arange(self.num_envs)
        self._truncated = np.zeros(self.num_envs, dtype=np.bool_)

    @property
    def seats(self) -> npt.NDArray[np.int32]:
        """The learner's seat in each sub-environment's hand now."""
        return self.vector_game.current_player.copy()

    def reset(
        self, *, seed: int | list[int] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """Deal every sub-environment a hand; ``seed`` (an int) fixes all of them (one stream
        per sub-environment), None draws fresh entropy."""
        if isinstance(seed, list):
            raise InvalidOptionError("the vector env takes one int seed for all sub-environments")
        super().reset(seed=seed)
        self.vector_game.reset(int(self.np_random.integers(2**63)))
        return self._observe(), {}

    def _observe(self) -> dict[str, Any]:
        vg = self.vector_game
        obs = vg.observation.copy() if self.copy else vg.observation
        return {"observation": obs, "action_mask": vg.legal_mask.view(np.int8).copy()}

    def step(
        self, actions: npt.ArrayLike
    ) -> tuple[dict[str, Any], npt.NDArray[np.float32], npt.NDArray[np.bool_], npt.NDArray[np.bool_], dict[str, Any]]:
        """Play each sub-environment's learner action and the opponents' replies."""
        vg = self.vector_game
        seats = vg.current_player.copy()
        rewards = vg.step(actions)[self._rows, seats]
        return self._observe(), rewards, vg.terminated.copy(), self._truncated.copy(), {}

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """Each sub-environment's legal actions now, (num_envs, actions) booleans."""
        return self.vector_game.legal_mask.copy()
