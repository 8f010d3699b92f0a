"""The knock games' side of :func:`rummykit.playouts`: the C playout spec of a state (what a
seat knows of it, the hidden cards in groups for the C determinization) and the runner the
family record (:data:`rummykit.knock.family.KNOCK`) hands to :func:`rummykit.playouts`.

The C kernel is the ``KnockState`` state machine: with the same deck, options and policy it
reaches the same end and the same points (``tests/knock/test_playouts.py``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from rummykit import _core
from rummykit.errors import InvalidOptionError, clip
from rummykit.knock.state import SHOWDOWN, KnockState

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = ["RESAMPLE", "exact_spec", "hidden_spec", "runner", "stock_spec"]


def _position(state: KnockState, hands: tuple[int, ...], stock: tuple[int, ...]) -> tuple[Any, ...]:
    return (
        hands,
        stock,
        state.discards,
        state.dealer,
        state.player,
        int(state.phase),
        int(state.upcard),
        state.taken,
        state.restocks,
        state.turns,
        state.shuffle_seed % 2**64,
    )


def exact_spec(state: KnockState) -> _core.PlayoutSpec:
    """The state as it is, every card in place (tests: the same deal in both engines)."""
    _check_state(state)
    spec = _core.PlayoutSpec(state.rules, _position(state, state.hands, state.stock))
    _core.knock_public(spec, state)
    return spec


def hidden_spec(state: KnockState, player: int) -> _core.PlayoutSpec:
    """What ``player`` knows of the state, with its hidden cards in groups
    for the C determinization (rk_knock_hidden, the bookkeeping of
    ``observe.determinize``)."""
    _check_state(state)
    spec = _core.PlayoutSpec(state.rules, _position(state, state.hands, ()))
    _core.knock_hide(spec, state, player)
    _core.knock_public(spec, state)
    return spec


def stock_spec(state: KnockState) -> _core.PlayoutSpec:
    """Every hand as it is, the stock cards hidden (one group, all going to the
    stock): each playout shuffles the stock and draws a new restock seed."""
    _check_state(state)
    stock = list(state.stock)
    position = _position(state, state.hands, ())
    spec = _core.PlayoutSpec(state.rules, position, (stock, [-1] * len(stock), [len(stock)]))
    _core.knock_public(spec, state)
    return spec


#: the ``resample`` modes of :func:`rummykit.playouts`: the spec each builds from a state
RESAMPLE: dict[str, Callable[[KnockState], _core.PlayoutSpec]] = {
    "hidden": lambda state: hidden_spec(state, state.player),
    "stock": stock_spec,
    "none": exact_spec,
}


def _check_state(state: KnockState) -> None:
    if not isinstance(state, KnockState):
        raise InvalidOptionError(f"a knock-game state (KnockState) was expected, got {clip(state)}")
    if state.phase == SHOWDOWN:
        raise InvalidOptionError("playouts: a state in the manual showdown (its declarations under way)")


def runner(
    state: KnockState, resample: str, policy: int, knock_at: int, seed: int
) -> Callable[[int, int, npt.NDArray[np.int32], npt.NDArray[np.uint8]], None]:
    """``run(lo, hi, points, outcomes)``: playouts ``lo .. hi - 1`` of a hand not over into the
    arrays (outcome codes: ``_core.KNOCK_OUTCOMES``), in C with the GIL released."""
    spec = RESAMPLE[resample](state)
    rules = state._core_rules
    _core.playout_check(rules, spec)

    def run(lo: int, hi: int, points: npt.NDArray[np.int32], outcomes: npt.NDArray[np.uint8]) -> None:
        _core.run_playouts(rules, spec, policy, knock_at, seed, lo, points, outcomes)

    return run
