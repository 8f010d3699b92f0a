"""Misbehaving agents for the tournament tests, in a module of their own so that spawned
worker processes can import them by name."""

from __future__ import annotations

import os
from typing import Any

import rummykit as rk
from rummykit.errors import ReadOnlyError, RummykitError


class ExitingAgent:
    """Plays the first legal action; ends its whole process (``os._exit``) on its ``at``-th move."""

    def __init__(self, at: int = 3) -> None:
        self.at, self.moves = at, 0

    def __call__(self, state: Any) -> Any:
        self.moves += 1
        if self.moves == self.at:
            os._exit(7)
        return state.legal_actions()[0]


class Unpicklable(Exception):
    """An exception that pickles but cannot be rebuilt (its constructor takes two arguments)."""

    def __init__(self, text: str, code: int) -> None:
        super().__init__(text)
        self.code = code


class RaisingAgent:
    """Raises an :class:`Unpicklable` on its ``at``-th move."""

    def __init__(self, at: int = 1) -> None:
        self.at, self.moves = at, 0

    def __call__(self, state: Any) -> Any:
        self.moves += 1
        if self.moves == self.at:
            raise Unpicklable("the agent gave up", 2)
        return state.legal_actions()[0]


class CheatingAgent:
    """Plays greedy's move, after trying every cheat on the state it is handed: editing the
    history in place (refused), swapping its lowest card with the stock's top (refused), then
    clearing the history past the guard and undoing the last move (only its copy changes; on
    the real state, with ``trusted``, the hand is stopped).  ``refused`` counts the refusals."""

    def __init__(self) -> None:
        self.greedy = rk.GreedyAgent()
        self.refused = 0

    def __call__(self, state: Any) -> Any:
        choice = self.greedy(state)
        seat = state.current_player
        for cheat in (
            lambda: state.history.clear(),
            lambda: state.history.append(choice),
            lambda: setattr(
                state, "hands", tuple(h | (state.hands[seat] if q == seat else 0) for q, h in enumerate(state.hands))
            ),
            lambda: setattr(state, "stock", tuple(reversed(state.stock))),
        ):
            try:
                cheat()
            except ReadOnlyError:
                self.refused += 1
        list.clear(state.history)
        try:
            state.undo()
        except RummykitError:
            pass
        return choice
