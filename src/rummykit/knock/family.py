"""The knock games' facts (Gin, Oklahoma Gin, Oklahoma Rummy): the :class:`Family` record
that :mod:`rummykit.games` registers."""

from __future__ import annotations

from typing import Any

from rummykit import _core
from rummykit.engine.family import Family
from rummykit.knock import playouts, rules
from rummykit.knock.actions import NUM_ACTIONS, Action
from rummykit.knock.game import KnockGame
from rummykit.knock.match import KnockMatch
from rummykit.knock.showdown import OUTCOMES
from rummykit.knock.state import END, SHOWDOWN, KnockState

__all__ = ["KNOCK"]


def _greedy(state: KnockState, max_knock_deadwood: int | None) -> int:
    """The C greedy policy (csrc/src/policy.c, RK_POLICY_GREEDY)."""
    return int(state._greedy_action(-1 if max_knock_deadwood is None else max_knock_deadwood))


def _match_points(match: Any, seat: int) -> float:
    """The seat's net: Hollywood's net, or the settled difference between two parties, or
    its total."""
    result = match.result
    if result.hollywood_net is not None:
        return float(result.hollywood_net[seat])
    if any(g.totals is not None for g in result.games):  # settled between two parties
        return float(result.totals[seat] - result.totals[(seat + 1) % len(result.totals)])
    return float(result.totals[seat])


def _posterior(state: KnockState, seat: int, count: int, rng: Any, model: Any, *, moves: int) -> list[Any] | None:
    """Soft-greedy posterior determinizations (:mod:`rummykit.inference`), before the knock."""
    if state.phase in (SHOWDOWN, END):
        return None
    from rummykit.inference import posterior_determinizations  # numpy, on first use

    samples: list[Any] = posterior_determinizations(state, seat, count, rng, model, moves=moves)
    return samples


KNOCK = Family(
    name="knock",
    game=KnockGame,
    state=KnockState,
    match=KnockMatch,
    action=Action,
    num_fixed_actions=NUM_ACTIONS,
    action_index="engine",
    outcomes=OUTCOMES,
    greedy=_greedy,
    aliases=rules.ALIASES,
    presets={name: base for name, (base, _) in rules.PRESETS.items()},
    base_games=tuple(rules.BASE_GAMES),
    options=lambda name: rules.option_table(rules.knock_rules(name)),
    match_points=_match_points,
    observe_module="rummykit.knock.observe",
    records_module="rummykit.knock.record",
    view="rummykit.knock.view:KnockView",
    knocks=True,
    core_outcomes=_core.KNOCK_OUTCOMES,
    playouts=playouts.runner,
    rules_sections={
        "gin": ("Gin Rummy", "Scoring", "Common rules"),
        "oklahoma_gin": ("Oklahoma Gin", "Gin Rummy", "Scoring", "Common rules"),
        "oklahoma_rummy": ("Oklahoma Rummy", "Oklahoma Gin", "Gin Rummy", "Scoring", "Common rules"),
    },
    posterior=_posterior,
)
