"""VectorGame against hostile callers: arrays that cannot be made writeable, an action array
changed by another thread during a step, a step that fails leaving every row as it was, and
bad arguments raising RummykitError.  RUMMYKIT_LONG=1 races longer."""

from __future__ import annotations

import ctypes
import threading
from typing import Any

import numpy as np
import pytest
from long_runs import LONG

from rummykit.errors import IllegalActionError, InvalidOptionError, RummykitError
from rummykit.vector import VectorGame

GAMES = ["gin", "oklahoma-rummy", "rummy", "kaluki"]
ARRAYS = ["legal_mask", "observation", "current_player", "terminated", "num_legal"]
RACE_STEPS = 3000 if LONG else 150


def _snapshot(vg: VectorGame) -> tuple[Any, ...]:
    arrays = tuple(getattr(vg, name).copy() for name in ARRAYS)
    return arrays + tuple(vg._core.row(i) for i in range(vg.batch))


@pytest.mark.parametrize("name", GAMES)
def test_no_array_handed_out_can_be_made_writeable(name: str) -> None:
    vg = VectorGame(name, batch=3, seed=1)
    vg.step(vg.sample_actions(np.random.default_rng(0)))
    public = [v for k, v in vars(vg).items() if not k.startswith("_") and isinstance(v, np.ndarray)]
    assert len(public) >= len(ARRAYS)
    for array in (*public, vg._rewards, vg._legal_ids):
        if array is None:  # table games have no legal-id array
            continue
        with pytest.raises(ValueError, match="WRITEABLE"):
            array.flags.writeable = True
        with pytest.raises(ValueError, match="read-only"):
            array[...] = 0
        # nor through what the array keeps: its base exports a read-only buffer only
        owner = array.base.obj
        assert not np.asarray(owner).flags.writeable and memoryview(owner).readonly
        with pytest.raises((BufferError, TypeError)):
            ctypes.c_char.from_buffer(owner)  # asks for a writable buffer
    assert vg.step(vg.sample_actions(np.random.default_rng(1))).flags.writeable  # the rewards: a copy


@pytest.mark.parametrize("name", GAMES)
def test_an_action_array_changed_during_steps_never_plays_an_unchecked_action(name: str) -> None:
    """A thread rewrites the action array (legal ids, then garbage) while steps run on it:
    each step either plays legal actions or raises IllegalActionError with nothing changed,
    and afterwards every row still agrees with its scalar replay."""
    vg = VectorGame(name, batch=32, seed=3, threads=2)
    rng = np.random.default_rng(4)
    actions = vg.sample_actions(rng)
    good = [actions.copy()]  # the legal actions of the step about to run
    stop = threading.Event()

    def scribble() -> None:
        noise = np.random.default_rng(5)
        while not stop.is_set():
            actions[:] = noise.integers(-(2**31), 2**31 - 1, size=actions.size, dtype=np.int32)
            actions[:] = good[0]

    writer = threading.Thread(target=scribble)
    writer.start()
    played = refused = 0
    try:
        for _ in range(RACE_STEPS):
            good[0] = vg.sample_actions(rng)
            before = _snapshot(vg)
            try:
                vg.step(actions)
                played += 1
            except IllegalActionError:
                refused += 1
                after = _snapshot(vg)
                assert all(np.array_equal(a, b) for a, b in zip(before[: len(ARRAYS)], after[: len(ARRAYS)]))
                assert before[len(ARRAYS) :] == after[len(ARRAYS) :]
    finally:
        stop.set()
        writer.join()
    assert refused > 0
    for i in range(vg.batch):
        state = vg.state(i)
        assert np.flatnonzero(vg.legal_mask[i]).tolist() == vg.index.legal(state)
        assert int(vg.current_player[i]) == state.current_player


@pytest.mark.parametrize("name", ["gin", "rummy"])
def test_an_illegal_action_in_the_last_row_changes_no_row(name: str) -> None:
    vg = VectorGame(name, batch=8, seed=6, threads=3)
    rng = np.random.default_rng(7)
    for _ in range(5):
        vg.step(vg.sample_actions(rng))
    before = _snapshot(vg)
    actions = vg.sample_actions(rng)
    actions[-1] = vg.num_actions - 1 if vg._legal_ids is not None and not vg.legal_mask[-1, -1] else 4095
    with pytest.raises(IllegalActionError, match="row 7.*nothing was played"):
        vg.step(actions)
    after = _snapshot(vg)
    assert all(np.array_equal(a, b) for a, b in zip(before[: len(ARRAYS)], after[: len(ARRAYS)]))
    assert before[len(ARRAYS) :] == after[len(ARRAYS) :]


def test_a_second_thread_gets_rummykit_error_or_waits() -> None:
    vg = VectorGame("rummy", batch=256, seed=8)
    errors: list[BaseException] = []
    rng = np.random.default_rng(9)

    def run() -> None:
        local = np.random.default_rng(10)
        for _ in range(40):
            try:
                vg.step(vg.sample_actions(local))
                vg.state(0)
                vg.hands_played(1)
            except IllegalActionError:
                pass  # sampled while the other thread stepped: the rows moved on
            except RummykitError as err:
                assert "another thread" in str(err)
            except BaseException as err:  # noqa: BLE001 - collected and failed below
                errors.append(err)

    threads = [threading.Thread(target=run) for _ in range(3)]
    for t in threads:
        t.start()
    for _ in range(40):
        try:
            vg.step(vg.sample_actions(rng))
        except RummykitError:
            pass
    for t in threads:
        t.join()
    assert errors == []


def test_bad_arguments_raise_rummykit_errors() -> None:
    vg = VectorGame("gin", batch=2, seed=1)
    read_only = vg.sample_actions(np.random.default_rng(0))
    read_only.flags.writeable = False
    vg.step(read_only)  # a read-only action array is fine
    vg.step(vg.sample_actions(np.random.default_rng(1)).astype(np.int64))
    for bad in ([], {}, 3, b"random", ["random"]):
        with pytest.raises(InvalidOptionError, match="policy"):
            vg.set_opponents(bad)  # type: ignore[arg-type]
    for actions in ("ab", None, [[1, 2]], [1, [2]], [1.0, 2.0], np.array([1, 2], dtype=object), [True, False]):
        with pytest.raises(InvalidOptionError, match="actions must be"):
            vg.step(actions)  # type: ignore[arg-type]
    for actions in ([-1, 0], [2**40, 0], np.array([0, 686], dtype=np.uint64)):
        with pytest.raises(IllegalActionError, match="row"):
            vg.step(actions)
