"""One hand played by agents, for every game: the loop that matches,
tournaments and scripts share.

An agent is a callable ``agent(state) -> action`` called when its seat is to
act; the action is an id, action text or an action object (``Action``,
``TableAction``), applied to the real hand with the checked ``state.play``.
Seats see only their own: an agent is handed its seat's copy of the hand
(``state.determinize(seat, rng)``: the cards hidden from the seat and the
stock resampled, everything it may know the same, the same legal actions),
never the real state, so it can neither read another hand nor change the
game.  ``trusted=True`` hands it the real state instead (faster; for agents
you wrote yourself): one that changes it is caught.

>>> import rummykit as rk
>>> state = play_hand(rk.Game("rummy", num_players=3), [rk.GreedyAgent()] * 3, seed=4, dealer=0)
>>> state.is_terminal(), len(state.returns())
(True, 3)
"""

from __future__ import annotations

import numbers
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from rummykit._random import as_generator
from rummykit.engine.protocol import GameState
from rummykit.errors import IllegalActionError, InvalidOptionError, RummykitError, clip

if TYPE_CHECKING:
    from rummykit.engine.game import Game

__all__ = ["Agent", "play_hand", "play_out"]

#: An agent: called with the hand's state when its seat is to act; returns an action id, text or action object.
Agent = Callable[[Any], Any]

S = TypeVar("S", bound=GameState)


def _as_choice(choice: object) -> object:
    """An agent's answer as ``state.play`` takes it, or None if it is no action at all."""
    if isinstance(choice, (int, str)):
        return choice
    if isinstance(choice, numbers.Integral):  # a numpy integer
        return int(choice)
    if isinstance(getattr(choice, "id", None), int):  # Action, TableAction
        return choice
    return None


def _check_agents(agents: object) -> None:
    """A sequence of callables (agents), else InvalidOptionError."""
    if isinstance(agents, (str, bytes)) or not isinstance(agents, Sequence) or not all(callable(a) for a in agents):
        raise InvalidOptionError(f"agents must be a sequence of agents (callables), one per seat, got {clip(agents)}")


def play_out(
    state: S,
    agents: Sequence[Agent],
    names: Sequence[str] | None = None,
    *,
    trusted: bool | Sequence[bool] = False,
    rng: Any = None,
) -> S:
    """Let ``agents[seat]`` act for each seat until ``state`` ends; returns ``state``.

    Each agent is handed its seat's copy of the hand (``state.determinize(seat, rng)``,
    ``rng`` a seed or numpy Generator) unless ``trusted`` (see the module docstring; one
    flag for every seat, or one per seat).
    An illegal or malformed action, or a trusted agent that changes the state, raises
    :class:`IllegalActionError` naming the seat (``names[seat]`` when given, else
    ``"seat i"``); the state is then left where it was (not rolled back).
    """
    _check_agents(agents)
    if len(agents) != state.n:
        raise InvalidOptionError(f"{state.n} agents needed, one per seat, got {len(agents)}")
    seats_trusted = [trusted] * state.n if isinstance(trusted, bool) else [bool(t) for t in trusted]
    if len(seats_trusted) != state.n:
        raise InvalidOptionError(f"trusted must be True, False or one flag per seat, got {clip(trusted)}")
    gen = None if all(seats_trusted) else as_generator(rng, "rng")
    while not state.is_terminal():
        seat = state.current_player
        before = len(state.history)
        choice = agents[seat](state if gen is None or seats_trusted[seat] else state.determinize(seat, gen))
        if len(state.history) != before or state.current_player != seat:
            who = names[seat] if names is not None else f"seat {seat}"
            raise IllegalActionError(f"{who}: the agent changed the state instead of returning an action")
        action = _as_choice(choice)
        if action is None:
            who = names[seat] if names is not None else f"seat {seat}"
            raise IllegalActionError(f"{who}: the agent returned {clip(choice)}, not an action")
        try:
            state.play(action, player=seat)
        except RummykitError as err:
            who = names[seat] if names is not None else f"seat {seat}"
            raise IllegalActionError(f"{who}: {err}") from err
    return state


def play_hand(
    game: Game, agents: Sequence[Agent], seed: Any = None, dealer: int | None = None, *, trusted: bool = False
) -> GameState:
    """Deal a hand of ``game`` (``game.new_hand(seed, dealer)``) and let the
    agents, one per seat, play it to the end (:func:`play_out`: each agent handed its
    seat's copy unless ``trusted``); returns the finished state (``returns()``,
    ``result``, ``to_json()``...)."""
    from rummykit.engine.game import Game  # at run time: engine.game is imported first

    if not isinstance(game, Game):
        raise InvalidOptionError(f"game must be a Game (rummykit.Game(name)), got {clip(game)}")
    _check_agents(agents)
    gen = as_generator(seed)
    state = game.new_hand(seed=gen, dealer=dealer)
    return play_out(state, agents, trusted=trusted, rng=gen)
