"""Trained policies as agents: :class:`PolicyAgent` wraps a batched policy, and
:func:`load_agent` reads a ``module:attribute`` agent spec (``rummykit tournament
mymod:policy greedy``).

A *batched policy* is ``fn(observation, legal_mask) -> actions``: numpy in, numpy out, as a
learner sees :class:`rummykit.vector.VectorGame` rows: ``observation`` (n, obs_dim) float32,
the mover's ``observation_tensor``; ``legal_mask`` (n, num_actions) bool; ``actions`` (n,)
integers in the same numbering (the fixed ids, one per move in every state: the knock games'
engine ids, Rummy's and Kaluki's :mod:`rummykit.table.fixed` ids; :class:`rummykit.envs.ActionIndex`).

>>> import numpy as np
>>> import rummykit as rk
>>> first_legal = lambda obs, mask: mask.argmax(axis=1)
>>> agent = PolicyAgent(first_legal)
>>> state = rk.Game("gin").new_hand(seed=1)
>>> agent(state) == state.legal_actions()[0]
True
"""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt

from rummykit.agents.base import register_spec_loader
from rummykit.engine.action_space import ActionIndex
from rummykit.errors import IllegalActionError, InvalidOptionError, clip

__all__ = ["BatchedPolicy", "PolicyAgent", "as_agent", "load_agent"]

#: ``fn(observation, legal_mask) -> actions`` (see the module docstring)
BatchedPolicy = Callable[[npt.NDArray[np.float32], npt.NDArray[np.bool_]], Any]


class PolicyAgent:
    """An agent that plays a batched policy ``fn`` on a batch of one: the state's
    ``observation_tensor`` of the player to move and its legal mask go in as (1, ...) arrays,
    the action ``fn`` returns (in the learner's numbering) comes out as the engine id.  An
    action that is not legal raises :class:`~rummykit.errors.IllegalActionError`.  The policy
    is used as it is: ``spawn`` (a tournament's fresh agent per hand) keeps it."""

    def __init__(self, fn: BatchedPolicy, seed: object = None) -> None:
        if not callable(fn):
            raise InvalidOptionError(f"a batched policy must be callable, got {clip(fn)}")
        self.fn = fn

    def __repr__(self) -> str:
        return f"PolicyAgent({getattr(self.fn, '__qualname__', type(self.fn).__name__)})"

    def spawn(self, seed: object = None) -> PolicyAgent:
        """The same policy (it carries no random state of the agent's)."""
        return PolicyAgent(self.fn)

    def __call__(self, state: Any) -> int:
        index = ActionIndex(state.game)
        legal = np.zeros((1, index.size), dtype=np.bool_)
        legal[0, index.legal(state)] = True
        obs = np.asarray(state.observation_tensor(state.current_player), dtype=np.float32)[None, :]
        out = np.asarray(self.fn(obs, legal)).reshape(-1)
        if out.size != 1 or out.dtype.kind not in "iu":
            raise IllegalActionError(f"the policy must return one integer action for a batch of one, got {clip(out)}")
        return index.decode(state, int(out[0]))


def _required_positional(fn: Any) -> int | None:
    """How many positional parameters ``fn`` needs, None if its signature cannot be read."""
    try:
        params = inspect.signature(fn).parameters.values()
    except (TypeError, ValueError):
        return None
    kinds = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    return sum(1 for p in params if p.kind in kinds and p.default is inspect.Parameter.empty)


def load_agent(spec: str, seed: int | np.random.Generator | None = None) -> Any:
    """The agent of a ``"module:attribute"`` spec (``"mypkg.policies:best"``): ``module`` is
    imported and ``attribute`` (dots reach inside it) is

    * an agent with a ``spawn`` method: spawned with ``seed``;
    * a class, or a callable that needs no positional argument: an *agent factory*, called
      with ``seed=seed`` when it takes a ``seed`` parameter (else with nothing), and what it
      returns is the agent;
    * a callable that needs two positional arguments: a *batched policy*
      ``fn(observation, legal_mask) -> actions``, wrapped in :class:`PolicyAgent`;
    * a callable that needs one: an *agent*, ``agent(state) -> action id``, used as it is.

    A module that cannot be imported, or an attribute it lacks or that is none of these,
    raises :class:`~rummykit.errors.InvalidOptionError` naming the spec."""
    module_name, _, attribute = spec.strip().partition(":")
    if not module_name or not attribute:
        raise InvalidOptionError(f"an agent spec from a module is 'module:attribute', got {clip(spec)}")
    try:
        obj: Any = importlib.import_module(module_name)
    except ImportError as err:
        raise InvalidOptionError(f"agent {clip(spec)}: cannot import {clip(module_name)}: {clip(str(err))}") from None
    for part in attribute.split("."):
        if not part.isidentifier() or not hasattr(obj, part):
            raise InvalidOptionError(f"agent {clip(spec)}: {clip(module_name)} has no {clip(attribute)}")
        obj = getattr(obj, part)
    return as_agent(obj, seed, spec)


def as_agent(obj: Any, seed: int | np.random.Generator | None = None, name: str | None = None) -> Any:
    """``obj`` as an agent, by what it is (:func:`load_agent`'s rules): an agent with ``spawn``
    (spawned with ``seed``), an agent factory, a batched policy (wrapped in
    :class:`PolicyAgent`) or an agent ``agent(state)``.  ``name`` names it in errors."""
    what = clip(name if name is not None else obj)
    if not callable(obj):
        raise InvalidOptionError(f"agent {what} is not callable")
    spawn = getattr(obj, "spawn", None)
    if not isinstance(obj, type) and callable(spawn):
        return spawn(seed)
    needed = 0 if isinstance(obj, type) else _required_positional(obj)
    if needed == 0:
        takes_seed = "seed" in inspect.signature(obj).parameters
        agent = obj(seed=seed) if takes_seed else obj()
        if not callable(agent):
            raise InvalidOptionError(f"agent factory {what} returned {clip(agent)}, not an agent")
        return agent
    if needed == 2:
        return PolicyAgent(obj)
    if needed == 1:
        return obj
    raise InvalidOptionError(
        f"agent {what} must be an agent, an agent factory or a batched policy fn(observation, legal_mask)"
    )


register_spec_loader(load_agent)
