"""The table games' side of :func:`rummykit.playouts`: what a seat knows of a
Rummy or Kaluki hand, as the C determinization reads it (the C playouts
score each hand themselves, rk_table_score).

The C determinization (``rk_table_determinize``, csrc/src/table_hidden.c)
samples as :func:`rummykit.table.observe.determinize` does (see its module
docstring): the cards another seat holds unseen came from its *places*
(dealt cards, stock draws of a group); walking the public history, each
card it played that nobody knew it held goes to a random earlier place whose
group still has a copy; then each group's cards left are dealt to its open
places and to the stock, and a sample that runs out of places is drawn
again (after 500 such, the real cards stay and only the stock order is
drawn).  The places, the cards played and the bans are read off the
state's step log in C (:func:`hidden_spec`, rk_table_hidden_of); every
playout then samples in C.  The playouts' sampler builds the state directly
rather than replaying the history; :func:`rummykit.table.observe.determinize`
draws the same sample and rebuilds the whole world behind it, and
tests/table/test_playouts_determinize.py checks both against the Python
sampler of tests/reference/table_observe.py.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, NamedTuple

from rummykit import _core
from rummykit.errors import RummykitError

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from rummykit.table.state import TableState

__all__ = [
    "HiddenLists",
    "hidden_lists",
    "hidden_spec",
    "runner",
    "spec",
    "stock_spec",
]


def _turned(state: TableState) -> bool:
    """Whether the stock is a turned-over pile (its order public)."""
    return state.rules.restock_method == "turn_over" and state.restocks > 0


def stock_spec(state: TableState) -> _core.TableHidden:
    """Every hand as it is; the stock order (unless it is public) and the
    future restocks drawn afresh by each playout."""
    return _core.TableHidden(_core.TABLE_RESAMPLE_STOCK, state.player, -1 if _turned(state) else 0)


class HiddenLists(NamedTuple):
    """The fields of rk_table_hidden (csrc/include/rummykit/table.h) as lists."""

    pools: list[list[int]]  # per group, 53 counts
    places: list[tuple[int, int, int]]  # (seat, group, time): dealt (time -1) first, then draws in order
    fills: list[tuple[int, int, int]]  # (seat, type, time), in time order
    bans: list[tuple[int, int, int]]  # (seat, type, time)
    known: list[list[int]]  # per seat, 53 counts
    stock_group: int
    now: int  # the history length (the time of the cards shown at the end)


def hidden_spec(state: TableState, player: int) -> _core.TableHidden:
    """What ``player`` knows of the hand, for the C determinization
    (rk_table_hidden_of, read off the state's step log in C)."""
    return _core.table_hidden_spec(state, player)


def hidden_lists(state: TableState, player: int) -> HiddenLists:
    """:func:`hidden_spec` as lists: each group's cards less those
    ``player`` was dealt or drew and the upcard, the other seats' places,
    the cards they played that nobody knew they held (and, at the end of the
    hand, the cards they show), the joker bans and the known cards
    (tests/reference/table_observe.py reads them off the history instead)."""
    return HiddenLists(*hidden_spec(state, player).lists())


def _inconsistent() -> RummykitError:
    return RummykitError(
        "inconsistent state for determinization: the hidden cards do not fit what the history says "
        "(a position whose fields were set by hand has no such history: use resample='stock' or 'none')"
    )


def spec(state: TableState, resample: str) -> _core.TableHidden | None:
    """The spec of a ``resample`` mode of :func:`rummykit.playouts`, checked against the state."""
    hidden: _core.TableHidden | None = None
    if resample == "hidden":
        hidden = hidden_spec(state, state.player)
    elif resample == "stock":
        hidden = stock_spec(state)
    try:
        _core.table_hidden_check(state, hidden)
    except RummykitError:
        raise _inconsistent() from None
    return hidden


def runner(
    state: TableState, resample: str, policy: int, knock_at: int, seed: int
) -> Callable[[int, int, npt.NDArray[np.int32], npt.NDArray[np.uint8]], None]:
    """``run(lo, hi, returns, outcomes)``: playouts ``lo .. hi - 1`` of a hand not over into the
    arrays (outcome codes: ``_core.TABLE_OUTCOMES``), in C with the GIL released; the table
    games have no knocking (``knock_at`` -1)."""
    import numpy as np

    hidden = spec(state, resample)

    def run(lo: int, hi: int, returns: npt.NDArray[np.int32], outcomes: npt.NDArray[np.uint8]) -> None:
        winners = np.zeros(hi - lo, dtype=np.int8)
        _core.run_table_playouts(state, hidden, policy, seed, lo, returns, outcomes, winners)

    return run
