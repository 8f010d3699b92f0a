"""Threads reading one state while another plays and undoes moves on it: every public reader
either answers or raises RummykitError (the other thread is busy with the state), never
another exception type.  RUMMYKIT_LONG=1 races ten times longer."""

from __future__ import annotations

import itertools
import sys
import threading
import time
from collections import Counter
from typing import Any

import numpy as np
import pytest
from long_runs import LONG

import rummykit as rk

WRITES = 20_000 if LONG else 1_500
NOT_READERS = {"apply_action", "undo", "play"}  # the writer's verbs


def _readers(state: Any) -> list[tuple[str, tuple[Any, ...] | None]]:
    """Every public attribute of ``state``: (name, None) for a value, (name, args) for a method
    with the first argument list that works on a copy (none, a seat, a seat and a generator)."""
    found: list[tuple[str, tuple[Any, ...] | None]] = []
    for name in dir(state):
        if name.startswith("_") or name in NOT_READERS:
            continue
        value = getattr(state, name)
        if not callable(value):
            found.append((name, None))
            continue
        for args in ((), (0,), (0, np.random.default_rng(0))):
            try:
                getattr(state.clone(), name)(*args)
            except Exception:  # noqa: BLE001, S112 - not this argument list
                continue
            found.append((name, args))
            break
    return found


@pytest.mark.parametrize("name", ["gin", "oklahoma-rummy", "rummy", "kaluki"])
def test_readers_racing_a_writer_get_answers_or_rummykit_errors(name: str) -> None:
    state = rk.Game(name).new_hand(seed=5, dealer=0)
    for _ in range(6):
        state.apply_action(state.legal_actions()[0])
    readers = _readers(state)
    assert len(readers) > 30
    stop = threading.Event()
    escaped: Counter[str] = Counter()
    reads = [0]

    def read(seed: int) -> None:
        rng = np.random.default_rng(seed)
        while not stop.is_set():
            attribute, args = readers[int(rng.integers(len(readers)))]
            reads[0] += 1
            try:
                value = getattr(state, attribute)
                if args is not None:
                    value(*args)
            except rk.RummykitError:
                pass
            except BaseException as err:  # noqa: BLE001 - what this test looks for
                escaped[f"{attribute}: {type(err).__name__}: {err}"] += 1

    def write() -> None:
        rng = np.random.default_rng(1)
        try:
            deadline = time.monotonic() + 20  # on a loaded machine: until the readers ran too
            for count in itertools.count():
                if count >= WRITES and (reads[0] > 200 or time.monotonic() > deadline):
                    break
                try:
                    if state.is_terminal() or rng.random() < 0.3:
                        if state.history:
                            state.undo()
                    else:
                        legal = state.legal_actions()
                        state.apply_action(legal[int(rng.integers(len(legal)))])
                except rk.RummykitError:
                    pass
                except BaseException as err:  # noqa: BLE001 - what this test looks for
                    escaped[f"writer: {type(err).__name__}: {err}"] += 1
        finally:
            stop.set()

    threads = [threading.Thread(target=read, args=(i,)) for i in range(3)] + [threading.Thread(target=write)]
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-5)  # threads take turns every few bytecodes: calls interleave
    try:
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        sys.setswitchinterval(interval)
    assert not escaped, dict(escaped)
    assert reads[0] > 100  # the readers ran alongside the writer
