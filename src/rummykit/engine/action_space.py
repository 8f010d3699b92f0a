"""The action numbering a learner sees (:class:`ActionIndex`): every adapter of
:mod:`rummykit.envs` and :class:`rummykit.vector.VectorGame` number moves with it."""

from __future__ import annotations

import numbers
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from rummykit.engine.protocol import GameState
from rummykit.errors import IllegalActionError, InvalidOptionError, clip

if TYPE_CHECKING:
    from rummykit.engine.game import Game

__all__ = ["ACTION_SPACES", "ActionIndex", "action_index"]

#: The action spaces (``action_space=``): ``"fixed"`` (one id per move, the same in every
#: state; the default) or ``"dense"`` (the table games' per-state index, for search).
ACTION_SPACES = ("fixed", "dense")


def action_index(action: object) -> int:
    """``action`` as an int if it is an integer (a Python or numpy integer, or a 0-d integer
    array); else :class:`InvalidOptionError` (a float, a bool, text: never truncated or parsed)."""
    if isinstance(action, np.ndarray) and action.shape == () and action.dtype.kind in "iu":
        return int(action)
    if isinstance(action, numbers.Integral) and not isinstance(action, bool):
        return int(action)
    raise InvalidOptionError(f"an action is an integer index, got {clip(action)}")


class ActionIndex:
    """The action numbering a framework sees, ``action_space``: ``"fixed"`` (the default) or
    ``"dense"``.

    ``"fixed"``: one id per move, the same move in every state, out of
    ``game.num_fixed_actions``: the knock games' engine ids as they are
    (:data:`rummykit.knock.actions.NUM_ACTIONS` = 686), the table games' fixed ids
    (:mod:`rummykit.table.fixed`, 8,463: discard a card type, draw, take, lay off a type on a
    table meld's end, release a joker, meld a set by rank and suits or a run by suit, start and
    length).  ``"dense"`` (the table games only, for search): action ``k`` is
    ``state.legal_actions()[k]`` (the sorted engine ids), out of :data:`DENSE_ACTIONS` slots, so
    ``k`` means different moves in different states.  Either way ``decode(state, a)`` gives the
    engine id and :meth:`text` the move's text.
    """

    def __init__(self, game: Game, action_space: str = "fixed") -> None:
        record = game.family_record
        if action_space not in ACTION_SPACES:
            want = ", ".join(ACTION_SPACES)
            raise InvalidOptionError(f"action_space must be one of {want}, got {clip(action_space)}")
        self.space = action_space
        self.dense = action_space == "dense"
        if self.dense and record.num_dense_actions is None:
            raise InvalidOptionError(f"{game.name} has no dense action index: its engine ids are its fixed actions")
        self.size: int = record.num_dense_actions if self.dense else record.num_fixed_actions  # type: ignore[assignment]
        self._fixed = record.fixed_action  # None: the engine ids are the fixed ids

    def legal(self, state: GameState) -> list[int]:
        """The legal actions of ``state`` in this numbering, sorted."""
        legal: list[int] = state.legal_actions()
        if self.dense:
            if len(legal) > self.size:
                raise IllegalActionError(f"{len(legal)} legal actions, more than the {self.size} action slots")
            return list(range(len(legal)))
        if self._fixed is None:
            return legal
        return sorted({self._fixed(a) for a in legal})

    def mask(self, state: GameState) -> npt.NDArray[np.int8]:
        """1 for each legal action of ``state`` (all 0 at the end of the hand)."""
        out = np.zeros(self.size, dtype=np.int8)
        out[self.legal(state)] = 1
        return out

    def decode(self, state: GameState, action: object) -> int:
        """The engine id of ``action`` (an integer: a Python or numpy integer or a 0-d integer
        array, not a bool); :class:`InvalidOptionError` for anything else (``105.7``, ``True``,
        ``"3"``), :class:`IllegalActionError` if it is not legal now."""
        action = action_index(action)
        legal: list[int] = state.legal_actions()
        if self.dense:
            if 0 <= action < len(legal):
                return legal[action]
        elif self._fixed is None:
            if action in legal:
                return action
        else:
            for action_id in legal:  # ascending: the lowest engine id of the fixed id
                if self._fixed(action_id) == action:
                    return action_id
        raise IllegalActionError(f"action {action} is not legal now (legal: {self.legal(state)})")

    def encode(self, state: GameState, action_id: int) -> int:
        """The index of the legal engine id ``action_id`` in this numbering."""
        if self.dense:
            return state.legal_actions().index(action_id)
        return action_id if self._fixed is None else self._fixed(action_id)

    def text(self, state: GameState, action: int) -> str:
        """The move that ``action`` is in ``state`` (its engine id's text); an action not legal
        now: the engine id's text in the knock games, else ``"action N (not legal now)"``."""
        try:
            return state.action_text(self.decode(state, action))
        except IllegalActionError:
            if not self.dense and self._fixed is None:
                return state.action_text(action)
            return f"action {action} (not legal now)"
