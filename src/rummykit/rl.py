"""Evaluating a trained policy: :func:`evaluate` plays it against an opponent on seeded hands
and gives its win rate among the decided hands with a Wilson 95% interval.

>>> import numpy as np
>>> first_legal = lambda obs, mask: mask.argmax(axis=1)
>>> result = evaluate(first_legal, "gin", "random", hands=20, seed=1)
>>> result.hands, 0.0 <= result.ci95[0] <= result.win_rate <= result.ci95[1] <= 1.0
(20, True)

The learning side lives in :mod:`rummykit.vector` (batched play, rewards, opponents) and the
framework adapters :mod:`rummykit.envs` (``rummykit.envs.sb3`` for Stable-Baselines3).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rummykit.agents.policy import as_agent
from rummykit.tournaments import tournament

__all__ = ["EvalResult", "evaluate"]


@dataclass(frozen=True)
class EvalResult:
    """A policy's record against an opponent: ``wins`` of the ``decided`` hands (those with a
    winner) out of ``hands`` played, ``win_rate`` = wins / decided (0 with none decided) and
    its Wilson 95% interval ``ci95``, and the mean hand points of the policy's seat
    (``state.returns()``; dead hands 0)."""

    hands: int
    decided: int
    wins: int
    win_rate: float
    ci95: tuple[float, float]
    mean_points: float


def evaluate(
    policy: Any, game: Any, opponent: Any = "greedy", hands: int = 2000, seed: int = 0, **options: Any
) -> EvalResult:
    """Play ``hands`` seeded hands of ``game`` (a name, with ``options`` as ``Game(name,
    **options)``, or a game object) between ``policy`` at seat 0 and ``opponent`` at the other
    seats, and count the policy's wins among the decided hands.

    ``policy`` is a batched policy ``fn(observation, legal_mask) -> actions`` (wrapped in
    :class:`~rummykit.agents.PolicyAgent`), an agent or an agent spec; ``opponent`` an agent
    spec (``"greedy"``, ``"random"``, ``"mypkg:policy"``) or agent.  The same ``seed`` deals the
    same hands (the dealer drawn per hand), so two policies are compared on the same deals:
    :func:`rummykit.tournaments.tournament` plays them."""
    me = policy if isinstance(policy, str) else as_agent(policy, seed, "policy")
    num_players = options.get("num_players")
    seats = int(num_players) if num_players is not None else getattr(game, "num_players", 2)
    result = tournament([me] + [opponent] * (seats - 1), game, hands=hands, seed=seed, progress=False, **options)
    stats = result.agents[0]
    return EvalResult(result.hands, stats.decided, stats.wins, stats.win_rate, stats.ci95, stats.mean_points)
