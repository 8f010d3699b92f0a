"""Agents: callables ``agent(state) -> action id`` that play any seat of a hand.

* :class:`RandomAgent` picks a legal action uniformly at random.
* :class:`GreedyAgent` plays the fixed one-ply policy documented on the class (the C
  playout kernel plays exactly the same policy).
* :class:`ISMCTSAgent` runs information-set Monte Carlo tree search over ``state.determinize``.

Every agent is seeded (``seed=`` an int, a numpy Generator or None) and reads only what
the seat to move may know.  ``agent.spawn(seed)`` returns a fresh agent with the same
settings and a new seed: the tournament runner gives each hand its own agents this way,
so that results do not depend on how hands are spread over worker processes.
:func:`make_agent` builds an agent from a name such as ``"ismcts:iterations=200"``.

>>> import rummykit as rk
>>> state = rk.Game("oklahoma-gin").new_hand(seed=3)
>>> agents = [GreedyAgent(), RandomAgent(seed=1)]
>>> while not state.is_terminal():
...     state.apply_action(agents[state.current_player](state))
>>> state.result.outcome in ("gin", "knock", "undercut", "dead")
True

The package: :mod:`rummykit.agents.base` (the :class:`Agent` protocol and the
:func:`make_agent` registry), :mod:`rummykit.agents.simple` (random and greedy),
:mod:`rummykit.agents.ismcts` (the search).
"""

from __future__ import annotations

from rummykit.agents import base, external
from rummykit.agents.base import Agent, MatchInfo, make_agent, register, signed_results
from rummykit.agents.best import BestAgent
from rummykit.agents.ismcts import (
    DEFAULT_ITERATIONS,
    MODELS,
    ISMCTSAgent,
    Rollout,
    greedy_rollout,
    hand_reward,
    random_rollout,
)
from rummykit.agents.policy import PolicyAgent
from rummykit.agents.simple import CarefulAgent, GreedyAgent, RandomAgent
from rummykit.agents.styles import EAAISimpleAgent, PatientAgent

del external  # imported for its registrations (openspiel-simple, rlcard-novice)

#: the agent names :func:`make_agent` knows
AGENT_NAMES = base.AGENT_NAMES

__all__ = [
    "AGENT_NAMES",
    "DEFAULT_ITERATIONS",
    "MODELS",
    "MatchInfo",
    "PatientAgent",
    "PolicyAgent",
    "Agent",
    "BestAgent",
    "CarefulAgent",
    "EAAISimpleAgent",
    "GreedyAgent",
    "ISMCTSAgent",
    "RandomAgent",
    "Rollout",
    "greedy_rollout",
    "hand_reward",
    "make_agent",
    "random_rollout",
    "register",
    "signed_results",
]
