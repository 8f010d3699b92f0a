"""The table games' side of :func:`rummykit.playouts`: what a seat knows of a
Rummy or Kaluki hand, as the C determinization reads it, the batches, and
their returns.

The C determinization (``rk_table_determinize``, csrc/src/table_playouts.c)
samples as :func:`rummykit.table.observe.determinize` does (see its module
docstring): the cards another seat holds unseen came from its *places*
(dealt cards, stock draws of a group); walking the public history, each
card it played that nobody knew it held goes to a random earlier place whose
group still has a copy; then each group's cards left are dealt to its open
places and to the stock, and a sample that runs out of places is drawn
again (after 500 such, the real cards stay and only the stock order is
drawn).  Here the history is read once (:func:`hidden_spec`) into the
places, the cards played and the bans; every playout then samples in C.
The C sampler builds the state directly rather than replaying the history,
and tests/test_table_playouts.py checks that the two samplers give the same
distribution.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, NamedTuple

from rummykit import _core
from rummykit.errors import RummykitError
from rummykit.table import observe
from rummykit.table.actions import DRAW, MELD_RUN, id_pattern
from rummykit.table.cards import JOKER, card_type, type_counts
from rummykit.table.scoring import score_hand
from rummykit.table.state import PHASES, TableState

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from rummykit.table.rules import TableRules

__all__ = ["RAW_OUTCOMES", "HiddenLists", "hidden_lists", "hidden_spec", "spec", "stock_spec", "table_returns"]

#: rk_table_outcome codes (what the C playouts report) as rummykit.table.scoring outcomes
RAW_OUTCOMES: tuple[str | None, ...] = (None, "dead", "blocked", "rummy", "out", "hunt", "call_off")
_NUM_TYPES = JOKER + 1
_END = PHASES.index("end")


def _turned(state: TableState) -> bool:
    """Whether the stock is a turned-over pile (its order public)."""
    return state.rules.restock_method == "turn_over" and state.restocks > 0


def stock_spec(state: TableState) -> _core.TableHidden:
    """Every hand as it is; the stock order (unless it is public) and the
    future restocks drawn afresh by each playout."""
    return _core.TableHidden(_core.TABLE_RESAMPLE_STOCK, state.player, -1 if _turned(state) else 0)


class HiddenLists(NamedTuple):
    """The fields of rk_table_hidden (csrc/include/rummykit/table_playouts.h) as lists."""

    pools: list[list[int]]  # per group, 53 counts
    places: list[tuple[int, int, int]]  # (seat, group, time): dealt (time -1) first, then draws in order
    fills: list[tuple[int, int, int]]  # (seat, type, time), in time order
    bans: list[tuple[int, int, int]]  # (seat, type, time)
    known: list[list[int]]  # per seat, 53 counts
    stock_group: int
    now: int  # the history length (the time of the cards shown at the end)


def hidden_spec(state: TableState, player: int) -> _core.TableHidden:
    """What ``player`` knows of the hand, for the C determinization: the
    bookkeeping of :func:`rummykit.table.observe.determinize` read off the
    public history."""
    h = hidden_lists(state, player)
    return _core.TableHidden(
        _core.TABLE_RESAMPLE_HIDDEN, player, h.stock_group, h.now, h.pools, h.places, h.fills, h.bans, h.known
    )


def hidden_lists(state: TableState, player: int) -> HiddenLists:
    """:func:`hidden_spec` as lists."""
    steps = observe._walk(state)
    rules, n, size = state.rules, state.n, state.rules.hand_size
    full = [2 if rules.is_kaluki else 1] * 52 + [rules.kaluki_jokers if rules.is_kaluki else 0]
    turn_over = rules.restock_method == "turn_over"
    # each group's cards less those the player was dealt or drew, and the upcard
    pools = [list(full)]
    pools[0][card_type(state.deck[size * n])] -= 1
    for c in observe._dealt(state, player):
        pools[0][card_type(c)] -= 1
    restocked = False
    for st in steps:
        if st.pile is not None:
            restocked = True
            if not turn_over:
                pools.append([0] * _NUM_TYPES)
                for c in st.pile[:-1]:
                    pools[-1][card_type(c)] += 1
        if st.action == DRAW and st.seat == player and st.came and not (turn_over and restocked):
            pools[-1][observe._low_type(st.came)] -= 1
    places = [(q, 0, -1) for q in range(n) if q != player for _ in range(size)]
    fills: list[tuple[int, int, int]] = []
    bans: list[tuple[int, int, int]] = []
    known = [[0] * _NUM_TYPES for _ in range(n)]
    group, turned = 0, False
    for time, (st, kept) in enumerate(zip(steps, observe._kept_taken(state, steps))):
        q = st.seat
        if st.pile is not None:
            turned = turn_over
            group += not turn_over
        unseen = observe._public_step(known[q], st, turned, kept)
        if st.action == DRAW:
            if st.came and not turned and q != player:
                places.append((q, group, time))
        elif q != player:
            if st.action >= MELD_RUN:  # a joker in a run: its owner held no such card then
                pattern = id_pattern(st.action)
                geo = state.geo
                bans.extend((q, x, time) for t, x in zip(pattern.types(geo), pattern.represents(geo)) if t == JOKER)
            fills.extend((q, t, time) for t in unseen)
    if state.phase == _END:  # every hand is shown
        for q in range(n):
            if q != player:
                shown = type_counts(state.hands[q])
                extra = observe._expand(max(0, a - b) for a, b in zip(shown, known[q]))
                fills.extend((q, t, len(steps)) for t in extra)
    if any(c < 0 for pool in pools for c in pool):
        raise _inconsistent()
    return HiddenLists(pools, places, fills, bans, known, -1 if turned else group, len(steps))


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


def table_returns(
    rules: TableRules,
    values: npt.NDArray[np.int32],
    raw: npt.NDArray[np.uint8],
    winners: npt.NDArray[np.int8],
) -> npt.NDArray[np.int32]:
    """Each playout's returns (``TableState.returns()``) from its hand values,
    rk_table_outcome and winner, scored by :func:`score_hand`.  For one outcome
    and winner the returns are an affine map of the hand values (every
    scoring option adds or multiplies), so ``score_hand`` is asked at the
    zero vector and the unit vectors and the map applied to every row; one
    row per group is scored directly as a check."""
    import numpy as np

    n_rows, n = values.shape
    out = np.zeros((n_rows, n), dtype=np.int32)
    keys = raw.astype(np.int64) * 8 + winners + 1
    for key in set(keys.tolist()):
        rows = keys == key
        outcome = RAW_OUTCOMES[key // 8]
        if outcome is None:
            raise RummykitError("a playout ended without an outcome")
        winner = None if key % 8 == 0 else key % 8 - 1
        base, slope = _affine(rules, outcome, winner, n)
        got = values[rows] @ slope + base
        first = values[rows][0].tolist()
        if got[0].tolist() != list(score_hand(rules, outcome, winner, first).returns):
            raise RummykitError("table scoring is not affine in the hand values: playouts cannot score it")
        out[rows] = got
    return out


@functools.lru_cache(maxsize=256)
def _affine(
    rules: TableRules, outcome: str, winner: int | None, n: int
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """score_hand's returns as base + values @ slope for one outcome and winner."""
    import numpy as np

    base = np.array(score_hand(rules, outcome, winner, [0] * n).returns, dtype=np.int64)
    units = [score_hand(rules, outcome, winner, [int(i == j) for i in range(n)]).returns for j in range(n)]
    return base, np.array(units, dtype=np.int64) - base
