"""Misbehaving agents for the tournament tests, in a module of their own so that spawned
worker processes can import them by name."""

from __future__ import annotations

import os
from typing import Any


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
