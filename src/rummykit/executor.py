"""Chunks of independent work (hands, matches) played on worker processes or Ray tasks, for
:func:`rummykit.tournament` and the other runners built on it.

:func:`run_chunks` calls ``work(context, chunk, mark)`` for every chunk and hands each
answer to ``on_result`` in the calling process, in the order the chunks finish:

- **bounded**: the chunks are drawn from their iterable as workers free up (at most
  :data:`IN_FLIGHT` per worker at a time), so memory does not grow with the number of chunks
  (an endless generator is fine);
- **stoppable**: SIGINT and SIGTERM stop the run at once (each worker is stopped and
  reaped), raising :class:`Interrupted`; the caller keeps what ``on_result`` received;
- **failing fast**: the first chunk that raises stops the run (the other workers are
  stopped) and its exception is raised here (one that cannot cross between processes as an
  :class:`~rummykit.errors.AgentError` with its type and text); a worker process that dies
  (``os._exit``, a crash, killed) raises :class:`~rummykit.errors.AgentError` naming what it
  was doing: ``describe(chunk, a, b)``, where ``a`` and ``b`` are the two ints the worker
  last passed to ``mark`` (-1 before any).

``work`` must be a module-level function and ``context`` picklable (both are sent once to
each worker process; worker processes are spawned, so a script must start the run under
``if __name__ == "__main__":``).  With ``workers=1`` and the local backend, everything runs
in the calling process (``mark`` then does nothing) and an exception is raised as it is.

>>> totals = []
>>> run_chunks(lambda context, chunk, mark: context * sum(chunk), 10, [range(3), range(3, 5)],
...            lambda chunk, answer: totals.append(answer))
>>> totals
[30, 70]
"""

from __future__ import annotations

import collections
import pickle
import signal
import threading
import traceback
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from types import FrameType
from typing import Any, TypeVar

from rummykit.errors import AgentError, InvalidOptionError, clip

__all__ = ["IN_FLIGHT", "STOP_SECONDS", "Interrupted", "Mark", "run_chunks"]

C = TypeVar("C")  # the context every chunk gets
I = TypeVar("I")  # noqa: E741 - a chunk
R = TypeVar("R")  # a chunk's answer

#: ``mark(a, b)``: two ints saying where a chunk is (a tournament: the hand and the seat to act)
Mark = Callable[[int, int], None]

#: the most chunks handed to one worker at a time (one played, one waiting)
IN_FLIGHT = 2
#: seconds a stopped worker process gets to end before it is killed
STOP_SECONDS = 0.5


class Interrupted(KeyboardInterrupt):
    """SIGINT or SIGTERM (``signum``) stopped a run; every worker it started is gone.

    A ``KeyboardInterrupt``, so code that stops on Ctrl-C stops here too.  ``result`` is what
    the runner made of the chunks finished before the signal (:func:`rummykit.tournament`: a
    :class:`~rummykit.tournaments.TournamentResult` with ``partial=True``), None if nothing."""

    def __init__(self, signum: int) -> None:
        super().__init__(f"stopped by {signal.Signals(signum).name}")
        self.signum = signum
        self.result: Any = None


def _raise_interrupted(signum: int, frame: FrameType | None) -> None:
    raise Interrupted(signum)


_HELD: list[int] = []


def _hold(signum: int, frame: FrameType | None) -> None:
    _HELD.append(signum)  # a signal during the clean-up: raised once the workers are gone


@contextmanager
def _signals() -> Iterator[None]:
    """SIGINT and SIGTERM raise :class:`Interrupted` inside the block (in the main thread;
    elsewhere signals cannot be caught and the block runs as it is)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    old = {s: signal.signal(s, _raise_interrupted) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for s, handler in old.items():
            signal.signal(s, handler)


@contextmanager
def _no_signals() -> Iterator[None]:
    """Signals held (not lost) while the workers are being stopped; the first one is raised
    as :class:`Interrupted` after the block unless an exception is already on its way."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    old = {s: signal.signal(s, _hold) for s in (signal.SIGINT, signal.SIGTERM)}
    _HELD.clear()
    try:
        yield
    finally:
        for s, handler in old.items():
            signal.signal(s, handler)
    if _HELD:
        raise Interrupted(_HELD[0])


def _check_workers(workers: object) -> int:
    if isinstance(workers, int) and not isinstance(workers, bool) and workers >= 1:
        return workers
    raise InvalidOptionError(f"workers must be an int >= 1, got {clip(workers)}")


def run_chunks(
    work: Callable[[C, I, Mark], R],
    context: C,
    chunks: Iterable[I],
    on_result: Callable[[I, R], None],
    describe: Callable[[I, int, int], str] = lambda chunk, a, b: f"chunk {clip(chunk)}",
    *,
    workers: int = 1,
    backend: str = "local",
) -> None:
    """Call ``work(context, chunk, mark)`` for each chunk on ``workers`` processes (or, with
    ``backend="ray"``, as Ray tasks on the Ray this process already initialised, ``workers``
    of them at a time per :data:`IN_FLIGHT`) and pass each answer to ``on_result(chunk, answer)``
    here; see the module text for what stops a run and what is raised."""
    workers = _check_workers(workers)
    with _signals():
        if backend == "ray":
            _run_ray(work, context, iter(chunks), on_result, describe, workers)
        elif workers == 1:
            for chunk in chunks:
                on_result(chunk, work(context, chunk, _no_mark))
        else:
            _run_processes(work, context, iter(chunks), on_result, describe, workers)


def _no_mark(a: int, b: int) -> None:
    return None


# --- worker processes -------------------------------------------------------------


def _worker(conn: Any, work: Callable[..., Any], context: Any, marks: Any, slot: int) -> None:
    """A worker process: chunks from ``conn`` until None (or the parent is gone), each answered
    with ("ok", answer) or ("error", pickled exception or None, text)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C reaches the whole group: the parent stops us

    def mark(a: int, b: int) -> None:
        marks[2 * slot] = a
        marks[2 * slot + 1] = b

    while True:
        try:
            chunk = conn.recv()
        except (EOFError, OSError):
            return  # the parent is gone
        if chunk is None:
            return
        mark(-1, -1)
        try:
            answer = work(context, chunk, mark)
        except BaseException as err:  # noqa: BLE001 - every failure goes back to the parent
            text = f"{type(err).__name__}: {err}"
            payload: bytes | None = None
            try:
                data = pickle.dumps(err)
                pickle.loads(data)  # some exceptions pickle but cannot be rebuilt
                payload = data
            except Exception:  # noqa: BLE001, S110 - sent as text instead
                pass
            message: tuple[Any, ...] = ("error", payload, text, traceback.format_exc())
        else:
            message = ("ok", answer)
        try:
            conn.send(message)
        except (OSError, ValueError):
            return  # the parent is gone


def _run_processes(
    work: Callable[[C, I, Mark], R],
    context: C,
    chunks: Iterator[I],
    on_result: Callable[[I, R], None],
    describe: Callable[[I, int, int], str],
    workers: int,
) -> None:
    # imported here: `import rummykit` stays light
    import multiprocessing
    from multiprocessing.connection import wait

    # spawn: the same behaviour on every platform, and no fork of a threaded parent
    ctx = multiprocessing.get_context("spawn")
    marks = ctx.RawArray("q", [-1] * (2 * workers))
    procs: list[Any] = []
    conns: list[Any] = []
    queues: list[collections.deque[I]] = [collections.deque() for _ in range(workers)]
    more = True

    def feed(k: int) -> None:
        nonlocal more
        while more and len(queues[k]) < IN_FLIGHT:
            chunk = next(chunks, None)
            if chunk is None:
                more = False
                return
            queues[k].append(chunk)
            try:
                conns[k].send(chunk)
            except (OSError, ValueError):
                return  # the worker died: its sentinel says so

    def died(k: int) -> AgentError:
        procs[k].join(STOP_SECONDS)  # its exit code
        code = procs[k].exitcode
        how = f"exit code {code}" if code is None or code >= 0 else f"signal {signal.Signals(-code).name}"
        where = describe(queues[k][0], marks[2 * k], marks[2 * k + 1])
        return AgentError(f"{where}: the worker process died ({how})")

    try:
        for k in range(workers):
            parent_end, child_end = ctx.Pipe()
            proc = ctx.Process(target=_worker, args=(child_end, work, context, marks, k), daemon=True)
            conns.append(parent_end)
            procs.append(proc)
            proc.start()
            child_end.close()
        for k in range(workers):
            feed(k)
        while any(queues):
            waiting = {conns[k]: k for k in range(workers) if queues[k]}
            sentinels = {procs[k].sentinel: k for k in range(workers) if queues[k]}
            for ready in wait([*waiting, *sentinels]):
                k = waiting[ready] if ready in waiting else sentinels[ready]
                if not queues[k]:
                    continue  # handled by the other of its two handles in this round
                if not conns[k].poll():
                    if procs[k].is_alive() and ready in waiting:
                        continue
                    raise died(k)
                try:
                    message = conns[k].recv()
                except (EOFError, OSError):
                    raise died(k) from None
                chunk = queues[k].popleft()
                if message[0] == "error":
                    _, payload, text, remote = message
                    if payload is not None:
                        err = pickle.loads(payload)
                        if hasattr(err, "add_note"):
                            err.add_note(f"in a worker process:\n{remote}")
                        raise err
                    raise AgentError(f"{describe(chunk, marks[2 * k], marks[2 * k + 1])}: {text}")
                on_result(chunk, message[1])
                feed(k)
        for conn in conns:
            try:
                conn.send(None)  # done: the workers end by themselves
            except (OSError, ValueError):
                pass
    finally:
        with _no_signals():
            _stop(procs, conns)


def _stop(procs: list[Any], conns: list[Any]) -> None:
    """End and reap every worker process: politely (SIGTERM), then SIGKILL after
    :data:`STOP_SECONDS`."""
    import time

    for proc in procs:
        if proc.is_alive() and proc.exitcode is None:
            try:
                proc.terminate()
            except (OSError, ValueError):
                pass
    deadline = time.monotonic() + STOP_SECONDS
    for proc in procs:
        proc.join(max(0.0, deadline - time.monotonic()))
        if proc.exitcode is None:
            proc.kill()
            proc.join()
        proc.close()
    for conn in conns:
        conn.close()


# --- Ray --------------------------------------------------------------------------


def _ray_chunk(work: Callable[..., Any], context: Any, chunk: Any) -> Any:
    return work(context, chunk, _no_mark)


def _run_ray(
    work: Callable[[C, I, Mark], R],
    context: C,
    chunks: Iterator[I],
    on_result: Callable[[I, R], None],
    describe: Callable[[I, int, int], str],
    workers: int,
) -> None:
    import ray

    # no retries: a task whose worker died is reported, not played again
    play: Any = ray.remote(max_retries=0)(_ray_chunk)
    shared = ray.put(work), ray.put(context)  # sent once, not with every task
    pending: dict[Any, I] = {}
    try:
        for chunk in chunks:
            pending[play.remote(*shared, chunk)] = chunk
            while len(pending) >= workers * IN_FLIGHT:
                _ray_collect(ray, pending, on_result, describe)
        while pending:
            _ray_collect(ray, pending, on_result, describe)
    finally:
        with _no_signals():
            for ref in pending:
                try:
                    ray.cancel(ref, force=True)
                except Exception:  # noqa: BLE001, S110 - a task that already ended cannot be cancelled
                    pass


def _ray_collect(
    ray: Any, pending: dict[Any, I], on_result: Callable[[I, Any], None], describe: Callable[[I, int, int], str]
) -> None:
    (done,), _ = ray.wait(list(pending), num_returns=1)
    chunk = pending.pop(done)
    try:
        answer = ray.get(done)
    except ray.exceptions.RayTaskError as err:  # the work raised: its own exception
        cause = getattr(err, "cause", None)
        if isinstance(cause, Exception):
            raise cause from None
        raise AgentError(f"{describe(chunk, -1, -1)}: {err}") from None
    except ray.exceptions.RayError as err:  # the worker died (WorkerCrashedError), the task was lost...
        raise AgentError(f"{describe(chunk, -1, -1)}: the Ray task failed: {type(err).__name__}") from None
    on_result(chunk, answer)
