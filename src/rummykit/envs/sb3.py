"""Stable-Baselines3 / sb3-contrib glue (``pip install "rummykit[sb3]"``: torch, sb3-contrib).

* :class:`SB3VecEnv`: Stable-Baselines3's ``VecEnv`` over :class:`rummykit.vector.VectorGame`
  (thousands of hands per C call, the opponents played in C or by batched policies), with the
  per-env ``action_masks`` that sb3-contrib's ``MaskablePPO`` reads; :func:`vec_env` builds one.
* :func:`masked_policy`: a trained ``MaskablePPO`` model as a *batched policy*
  ``fn(observation, legal_mask) -> actions``, for :func:`rummykit.rl.evaluate`,
  :class:`rummykit.agents.PolicyAgent` (tournaments, the command line) and
  :meth:`rummykit.vector.VectorGame.set_opponents` (self-play); ``frozen=True`` copies the
  network first, a snapshot that later training leaves alone (a league's pool).

>>> from rummykit.envs.sb3 import vec_env
>>> from sb3_contrib import MaskablePPO
>>> env = vec_env("gin", num_envs=8, opponent="random", seed=1)
>>> model = MaskablePPO("MultiInputPolicy", env, n_steps=8, batch_size=64, seed=1, device="cpu")
>>> _ = model.learn(64)
>>> fn = masked_policy(model)
>>> import rummykit.rl
>>> rummykit.rl.evaluate(fn, "gin", "random", hands=4, seed=2).hands
4

Observations are the Gymnasium adapters' dicts (``"observation"``: the learner's
``observation_tensor``; ``"action_mask"``: int8), so a model trained here also plays the scalar
``rummykit/...-v0`` envs.  Importing this module imports torch and Stable-Baselines3; importing
:mod:`rummykit` or :mod:`rummykit.envs` does not.
"""

from __future__ import annotations

import copy
from typing import Any

import numpy as np
import numpy.typing as npt
import torch
from stable_baselines3.common.vec_env import VecEnv

from rummykit.envs._vector import RummykitVectorEnv
from rummykit.errors import InvalidOptionError, clip

__all__ = ["SB3VecEnv", "masked_policy", "vec_env"]


class SB3VecEnv(VecEnv):  # type: ignore[misc,unused-ignore]
    """Stable-Baselines3's ``VecEnv`` over a :class:`rummykit.envs._vector.RummykitVectorEnv`
    (``envs``), which restarts ended hands in the same step, as Stable-Baselines3 expects.
    ``env_method("action_masks")`` (what MaskablePPO calls every step) reads the masks of
    every row in one copy; ``seed(s)`` seeds the next ``reset``."""

    def __init__(self, envs: RummykitVectorEnv) -> None:
        if not isinstance(envs, RummykitVectorEnv):
            raise InvalidOptionError(f"SB3VecEnv wraps a rummykit vector env, got {clip(envs)}")
        self.envs = envs
        self._actions: npt.NDArray[np.int64] | None = None
        super().__init__(envs.num_envs, envs.single_observation_space, envs.single_action_space)

    @property
    def vector_game(self) -> Any:
        """The :class:`rummykit.vector.VectorGame` underneath."""
        return self.envs.vector_game

    def reset(self) -> Any:
        """Deal every row a hand (seeded by the last ``seed()``; fresh entropy if none)."""
        seed = self._seeds[0] if self._seeds else None
        obs, _ = self.envs.reset(seed=seed)
        self._reset_seeds()
        return obs

    def step_async(self, actions: npt.NDArray[np.int64]) -> None:
        self._actions = actions

    def step_wait(self) -> Any:
        if self._actions is None:
            raise InvalidOptionError("step_wait() without step_async(actions)")
        obs, rewards, terminated, _, _ = self.envs.step(self._actions)
        self._actions = None
        return obs, rewards, terminated, [{} for _ in range(self.num_envs)]

    def close(self) -> None:
        self.envs.close()

    def get_attr(self, attr_name: str, indices: Any = None) -> list[Any]:
        return [getattr(self.envs, attr_name)] * len(list(self._get_indices(indices)))

    def set_attr(self, attr_name: str, value: Any, indices: Any = None) -> None:
        setattr(self.envs, attr_name, value)

    def env_method(self, method_name: str, *args: Any, indices: Any = None, **kwargs: Any) -> list[Any]:
        rows = list(self._get_indices(indices))
        if method_name == "action_masks":
            masks = self.envs.action_masks()
            return [masks[i] for i in rows]
        raise AttributeError(f"the rummykit vector env has no per-env method {method_name!r}")

    def env_is_wrapped(self, wrapper_class: type, indices: Any = None) -> list[bool]:
        return [False] * len(list(self._get_indices(indices)))


def vec_env(
    game: str = "gin",
    num_envs: int = 64,
    opponent: Any = "greedy",
    seed: int | None = None,
    threads: int = 1,
    **options: Any,
) -> SB3VecEnv:
    """An :class:`SB3VecEnv` of ``num_envs`` hands of ``game`` (``options`` as for
    :func:`rummykit.envs.gymnasium_vector_env`: ``reward``, ``shaping``, ``shaping_gamma``,
    ``shaping_scale``, the game's options), the other seats played by ``opponent``
    (``"greedy"``/``"random"`` in C, a batched policy or a list of them, see
    :meth:`rummykit.vector.VectorGame.set_opponents`), seeded with ``seed``."""
    env = SB3VecEnv(RummykitVectorEnv(game, num_envs=num_envs, opponent=opponent, threads=threads, **options))
    if seed is not None:
        env.seed(seed)
    return env


def masked_policy(model: Any, deterministic: bool = True, frozen: bool = False) -> Any:
    """``model`` (a ``MaskablePPO``, or anything with its ``policy``) as a batched policy
    ``fn(observation, legal_mask) -> actions``: the masked action of each row (the most
    likely one with ``deterministic``, else sampled by torch's generator).  ``frozen``: the
    policy network is copied now, so training the model further does not change ``fn``."""
    policy = getattr(model, "policy", None)
    if policy is None or not callable(getattr(policy, "predict", None)):
        raise InvalidOptionError(f"masked_policy needs a MaskablePPO model (with .policy), got {clip(model)}")
    if frozen:  # a new network of the same make with the weights copied (deepcopy refuses sb3's cached tensors)
        copied = type(policy)(**policy._get_constructor_parameters())
        copied.load_state_dict(copy.deepcopy(policy.state_dict()))
        copied.set_training_mode(False)
        policy = copied

    def fn(observation: npt.NDArray[np.float32], legal_mask: npt.NDArray[np.bool_]) -> npt.NDArray[np.int64]:
        mask = np.array(legal_mask, dtype=np.bool_)  # a writeable copy (VectorGame's arrays are read-only)
        obs = {"observation": np.array(observation, dtype=np.float32), "action_mask": mask.view(np.int8)}
        with torch.no_grad():
            actions, _ = policy.predict(obs, action_masks=mask, deterministic=deterministic)
        return np.asarray(actions, dtype=np.int64).reshape(-1)

    fn.__qualname__ = f"masked_policy({type(model).__name__})"
    return fn
