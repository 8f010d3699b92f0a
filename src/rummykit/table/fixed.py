"""The table games' fixed action space (Rummy, Kaluki): one id per move, the same move in
every state, for learners (csrc/include/rummykit/table.h, THE FIXED ACTION SPACE).

The engine's ids (:mod:`rummykit.table.actions`) already name a move by what it is, but they
are sparse (the run melds span 6.4 million ids, one per joker placement).  The fixed ids
pack them into :data:`NUM_ACTIONS` (8,463) slots:

=========================================  ==============================================
fixed id                                   move
=========================================  ==============================================
0-52                                       discard a card of type C (52 = joker)
53, 54                                     draw, take
``LAYOFF`` + (S*53+C)*2+E                  lay off C on table meld S at end E (0 low, 1 high)
``RELEASE_RUN`` + S*52 + C                 release the joker standing for C in run S
``RELEASE_SET`` + S*16 + M                 add naturals of the suits in M to set S, taking
                                           its joker(s)
``MELD_SET`` + R*64 + M*4 + J              meld a set of rank R, suits M, J jokers
``MELD_RUN`` + (U*14+P)*11 + L-3           meld a run of suit U from position P, L cards;
                                           jokers stand for the naturals the hand lacks
=========================================  ==============================================

Cards are types: with two decks (Kaluki) the engine picks the copy.  Table melds are slots,
0-based in the order laid (at most :data:`rummykit.table.actions.MAX_SLOTS`).  A run's joker
placement is the engine's: it lists at most one run of each suit, start and length, so no two
legal moves share a fixed id (:func:`engine_id` would take the lowest engine id if they did;
the tests count this over random hands of every option set, and it has not happened).

The factored form (:data:`HEADS`, :func:`factor`, :func:`unfactor`) writes a fixed id as an
action kind and its arguments, one head each, for autoregressive policies: :data:`KINDS` and
:data:`KIND_HEADS` say which heads a kind uses; the others are -1.  :func:`head_mask` is the
mask of one head given the heads chosen before it, read off the flat legal mask: choosing the
kind, then the kind's heads in :data:`KIND_HEADS` order (or any order), each from its mask,
reaches exactly the legal fixed ids.

>>> import rummykit as rk
>>> from rummykit.table import fixed
>>> state = rk.Game("rummy").new_hand(seed=1)
>>> fixed.legal(state)                          # draw or take
[53, 54]
>>> fixed.factor([53, fixed.MELD_RUN])[:, :1].ravel().tolist()   # the kind head
[1, 7]
>>> fixed.head_mask(fixed.mask(state), "kind").nonzero()[0].tolist()   # draw, take
[1, 2]
"""

from __future__ import annotations

import numbers
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from rummykit import _core
from rummykit.cards import SUITS
from rummykit.errors import IllegalActionError, InvalidOptionError, clip
from rummykit.table.actions import TableAction, is_action_id

if TYPE_CHECKING:
    from rummykit.table.game import TableGame
    from rummykit.table.state import TableState

__all__ = [
    "HEADS",
    "KINDS",
    "KIND_HEADS",
    "LAYOFF",
    "MELD_RUN",
    "MELD_SET",
    "NUM_ACTIONS",
    "RELEASE_RUN",
    "RELEASE_SET",
    "engine_id",
    "factor",
    "fixed_id",
    "fixed_text",
    "head_mask",
    "legal",
    "mask",
    "unfactor",
]

_IDS = _core.TABLE_FIXED_IDS
LAYOFF: int = _IDS["layoff"]
RELEASE_RUN: int = _IDS["release_run"]
RELEASE_SET: int = _IDS["release_set"]
MELD_SET: int = _IDS["meld_set"]
MELD_RUN: int = _IDS["meld_run"]
#: the number of fixed ids
NUM_ACTIONS: int = _IDS["num_actions"]
#: the factored form's heads, in order: ``(name, number of values)``
HEADS: tuple[tuple[str, int], ...] = _core.TABLE_HEADS
#: the action kinds, by the ``kind`` head's value
KINDS: tuple[str, ...] = _core.TABLE_KINDS
#: kind -> the names of the heads it uses (``kind`` first)
KIND_HEADS: dict[str, tuple[str, ...]] = {
    kind: tuple(HEADS[h][0] for h in heads) for kind, heads in zip(KINDS, _core.TABLE_KIND_HEADS)
}


_HEAD = {name: h for h, (name, _) in enumerate(HEADS)}


def _as_int(name: str, value: object) -> int:
    if isinstance(value, numbers.Integral) and not isinstance(value, bool):
        return int(value)
    raise InvalidOptionError(f"{name} must be an integer, got {clip(value)}")


def fixed_id(action_id: int) -> int:
    """The fixed id of an engine action id (one id per move, the same move in every state);
    :class:`IllegalActionError` for anything that is no action id."""
    if is_action_id(action_id) and (found := _core.table_fixed_id(int(action_id))) >= 0:
        return int(found)
    raise IllegalActionError(f"not a table-game action id: {clip(action_id)}")


def _fixed_of(legal: Sequence[int]) -> npt.NDArray[np.int32]:
    ids = np.asarray(legal, dtype=np.int32)
    out = np.empty(len(ids), np.int32)
    _core.table_fixed_ids(ids, out)
    return out


def legal(state: TableState) -> list[int]:
    """The fixed ids of the state's legal moves, ascending (one per legal move)."""
    return sorted(set(_fixed_of(state.legal_actions()).tolist()))


def mask(state: TableState) -> npt.NDArray[np.bool_]:
    """(NUM_ACTIONS,) bool: True at the fixed id of each legal move (all False at the end)."""
    out = np.zeros(NUM_ACTIONS, dtype=np.bool_)
    out[_fixed_of(state.legal_actions())] = True
    return out


def engine_id(legal_ids: Sequence[int], fixed: int) -> int | None:
    """The engine id that fixed id ``fixed`` is among ``legal_ids`` (a state's sorted
    ``legal_actions()``): the lowest with that fixed id, None if no legal move has it."""
    fixed = _as_int("fixed", fixed)
    if not 0 <= fixed < NUM_ACTIONS:
        return None
    found = _core.table_fixed_resolve(np.asarray(legal_ids, dtype=np.int32), fixed)
    return None if found < 0 else int(found)


def factor(ids: npt.ArrayLike) -> npt.NDArray[np.int32]:
    """The factored form of fixed ids: (n, len(HEADS)) int32, one row per id, -1 in the heads
    its kind does not use.  :class:`IllegalActionError` for an id that is no move's (out of
    range, a set release of no suits, a set meld of under 3 or over 4 cards)."""
    arr = np.atleast_1d(np.asarray(ids))
    if arr.ndim != 1 or arr.dtype.kind not in "iu":
        raise InvalidOptionError(f"ids must be integers in one dimension, got {arr.dtype} {arr.shape}")
    bad_range = np.flatnonzero((arr < 0) | (arr >= NUM_ACTIONS))
    if bad_range.size:
        raise IllegalActionError(f"not a fixed action id: {clip(arr[bad_range[0]])} (0..{NUM_ACTIONS - 1})")
    out = np.empty((len(arr), len(HEADS)), np.int32)
    bad = _core.table_fixed_factor(np.ascontiguousarray(arr, dtype=np.int32), out)
    if bad >= 0:
        raise IllegalActionError(f"fixed id {int(arr[bad])} is no move's (a set of no suits, or not 3-4 cards)")
    return out


def unfactor(heads: npt.ArrayLike) -> npt.NDArray[np.int32]:
    """The fixed ids of factored rows ((n, len(HEADS)) integers, or one row): (n,) int32.  The
    heads a row's kind does not use are ignored; :class:`IllegalActionError` for a row whose
    kind or used heads are out of range."""
    arr = np.asarray(heads)
    if arr.ndim == 1:
        arr = arr[None, :]
    if arr.ndim != 2 or arr.shape[1] != len(HEADS) or arr.dtype.kind not in "iu":
        raise InvalidOptionError(f"heads must be integers of shape (n, {len(HEADS)}), got {arr.dtype} {arr.shape}")
    clipped = np.clip(arr, -1, 2**16).astype(np.int32)  # out-of-range stays out of range, without overflow
    out = np.empty(len(arr), np.int32)
    bad = _core.table_fixed_unfactor(np.ascontiguousarray(clipped), out)
    if bad >= 0:
        raise IllegalActionError(f"row {bad}: {arr[bad].tolist()} is no move (heads {[h for h, _ in HEADS]})")
    return out


_FACTORED: npt.NDArray[np.int32] | None = None


def _factored() -> npt.NDArray[np.int32]:
    """(NUM_ACTIONS, len(HEADS)): the factored form of every fixed id (all -1 for an id that is no
    move's), made on first use."""
    global _FACTORED
    if _FACTORED is None:
        table = np.empty((NUM_ACTIONS, len(HEADS)), np.int32)
        _core.table_fixed_factor(np.arange(NUM_ACTIONS, dtype=np.int32), table)
        table.flags.writeable = False
        _FACTORED = table
    return _FACTORED


def head_mask(mask: npt.ArrayLike, head: str, chosen: dict[str, npt.ArrayLike] | None = None) -> npt.NDArray[np.bool_]:
    """The mask of head ``head`` given the heads ``chosen`` before it, for autoregressive policies.

    ``mask`` is a flat legal mask, (NUM_ACTIONS,) or (n, NUM_ACTIONS) bool (``fixed.mask(state)``,
    ``VectorGame.legal_mask``); ``chosen`` maps head names to the values chosen so far, an int or
    one per row (``kind`` first; -1 for a head the row's kind does not use, as :func:`factor`
    writes it).  The result, (size of the head,) or (n, size) bool, is True at value ``v`` where
    some legal fixed id of the row has the chosen heads and ``head`` = ``v``: all False in a row
    whose chosen kind does not use ``head`` or whose choices no legal move has.  Choosing the kind
    from ``head_mask(mask, "kind")``, then each head of ``KIND_HEADS[kind]`` in turn from its mask
    given the ones before, reaches every legal fixed id and nothing else.
    :class:`InvalidOptionError` for a mask of the wrong shape or a head that is no head."""
    if head not in _HEAD:
        raise InvalidOptionError(f"no head {clip(head)} (heads: {', '.join(_HEAD)})")
    arr = np.asarray(mask)
    if arr.dtype != np.bool_ or arr.ndim not in (1, 2) or arr.shape[-1] != NUM_ACTIONS:
        raise InvalidOptionError(
            f"mask must be bool of shape ({NUM_ACTIONS},) or (n, {NUM_ACTIONS}), got {arr.dtype} {arr.shape}"
        )
    rows2d = arr.reshape(-1, NUM_ACTIONS)
    n = len(rows2d)
    table = _factored()
    rows, ids = np.nonzero(rows2d)
    for name, value in (chosen or {}).items():
        if name not in _HEAD:
            raise InvalidOptionError(f"chosen: no head {clip(name)} (heads: {', '.join(_HEAD)})")
        values = np.asarray(value)
        if values.dtype.kind not in "iu" or values.shape not in ((), (n,)):
            raise InvalidOptionError(
                f"chosen[{name!r}] must be an integer or {n} integers, got {values.dtype} {values.shape}"
            )
        values = np.broadcast_to(values, (n,))
        keep = table[ids, _HEAD[name]] == values[rows]
        rows, ids = rows[keep], ids[keep]
    out = np.zeros((n, HEADS[_HEAD[head]][1]), dtype=np.bool_)
    values = table[ids, _HEAD[head]]
    used = values >= 0
    out[rows[used], values[used]] = True
    return out if arr.ndim == 2 else out[0]


def fixed_text(game: TableGame, fixed: int) -> str:
    """What a fixed id means in ``game``, in any state: the move's text with slots 1-based; a
    run meld written without jokers (``meld 7H 8H 9H``: jokers stand for the naturals the hand
    lacks), a set release by its suits.  :class:`IllegalActionError` for an id that is no move
    of this game (a run this game's run positions do not have)."""
    fixed = _as_int("fixed", fixed)
    row = factor([fixed])[0]
    if KINDS[int(row[0])] == "release_set":
        slot, suits = int(row[_HEAD["slot"]]), int(row[_HEAD["suits"]])
        return f"release naturals of {''.join(SUITS[s] for s in range(4) if suits >> s & 1)} from {slot + 1}"
    first = _core.table_fixed_first(fixed)
    if not game.spec.is_action(first):
        raise IllegalActionError(f"fixed id {fixed} is no move of {game.rules.name} (a run it cannot lay)")
    return TableAction(first).text(game.geo)
