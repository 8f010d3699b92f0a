"""Tournaments that stop: SIGINT and SIGTERM end a run of any size at once with every worker
process gone and the hands so far written, marked partial; memory does not grow with
``hands``; the first agent that raises or kills its worker stops the run, named.

The signal tests run the command line as a process group of its own and count its processes
(parent, workers, the resource tracker) before and after.  By default a few cases run;
RUMMYKIT_LONG=1 runs SIGINT and SIGTERM against 1, 2 and 4 workers."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from long_runs import LONG
from tournament_agents import ExitingAgent, RaisingAgent

import rummykit as rk
from rummykit.executor import Interrupted, run_chunks


def _session(sid: int) -> list[int]:
    """The live (not zombie) processes of session ``sid``."""
    pids = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        if fields[0] != "Z" and int(fields[3]) == sid:
            pids.append(int(entry))
    return pids


def _rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS"):
            return int(line.split()[1])
    raise AssertionError("no VmRSS")


CASES = [(1, signal.SIGTERM), (2, signal.SIGINT)]
if LONG:
    CASES = [(w, s) for w in (1, 2, 4) for s in (signal.SIGINT, signal.SIGTERM)]


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="counts processes through /proc")
@pytest.mark.parametrize(("workers", "signum"), CASES)
def test_a_signal_stops_a_huge_run_with_every_worker_gone(tmp_path: Path, workers: int, signum: int) -> None:
    out = tmp_path / "r.json"
    command = [sys.executable, "-m", "rummykit", "tournament", "random", "random", "--game", "gin"]
    command += ["--hands", str(10**9), "--workers", str(workers), "--json", str(out), "--no-progress"]
    command += ["--save-records", str(tmp_path / "hands")]
    proc = subprocess.Popen(command, start_new_session=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        expected = 1 if workers == 1 else 2 + workers  # the parent; with workers, them and the resource tracker
        deadline = time.monotonic() + 60
        while len(_session(proc.pid)) < expected and time.monotonic() < deadline:
            time.sleep(0.05)
        assert len(_session(proc.pid)) == expected
        while not any((tmp_path / "hands").glob("*.json")) and time.monotonic() < deadline:
            time.sleep(0.05)  # until the first hands are in
        rss = _rss_kb(proc.pid)
        time.sleep(1.0)
        assert _rss_kb(proc.pid) - rss < 8_000  # no growth with hands=10**9 (it was 50 MB/s)
        sent = time.monotonic()
        proc.send_signal(signum)
        stdout, stderr = proc.communicate(timeout=10)
        took = time.monotonic() - sent
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert took < 2.0, stderr
    assert proc.returncode == 128 + signum, stderr
    while _session(proc.pid) and time.monotonic() < sent + 2.0:
        time.sleep(0.02)  # a process that closed its files may take a moment more to end
    assert _session(proc.pid) == []  # within 2 s of the signal: no worker, no resource tracker left
    assert f"stopped by {signal.Signals(signum).name}".encode() in stdout
    data = json.loads(out.read_text())
    assert data["partial"] is True and data["hands_requested"] == 10**9
    assert data["hands"] == len(data["records"]) > 0


def test_interrupted_carries_the_partial_result() -> None:
    calls = []

    def work(context: None, chunk: range, mark: object) -> int:
        if chunk.start == 30:
            signal.raise_signal(signal.SIGTERM)
        return len(chunk)

    with pytest.raises(Interrupted) as caught:
        run_chunks(work, None, (range(i, i + 10) for i in range(0, 10**9, 10)), lambda c, n: calls.append(n))
    assert caught.value.signum == signal.SIGTERM and calls == [10, 10, 10]
    assert signal.getsignal(signal.SIGTERM) is signal.SIG_DFL  # the handler was put back


@pytest.mark.parametrize("workers", [1, 2])
def test_the_first_agent_error_stops_the_run_and_names_it(workers: int) -> None:
    start = time.monotonic()
    named = r"deal \d+ \(hand \d+\): agent 1 \(<tournament_agents.Raising.* in seat \d raised Unpicklable: the agent"
    with pytest.raises(rk.AgentError, match=named):
        rk.tournament(["random", RaisingAgent(at=1)], "gin", hands=10**6, seed=1, workers=workers, progress=False)
    assert time.monotonic() - start < 30  # not the whole run


def test_a_dying_worker_is_named() -> None:
    named = r"deal \d+ \(hand \d+\): agent 1 \(<tournament_agents.Exiting.* in seat \d: the worker process died \(exit"
    with pytest.raises(rk.AgentError, match=named) as caught:
        rk.tournament(["random", ExitingAgent(at=3)], "gin", hands=10**6, seed=1, workers=2, progress=False)
    assert str(caught.value).endswith("died (exit code 7)")


def test_an_interrupted_library_run_keeps_its_hands(tmp_path: Path) -> None:
    class StopAt:
        def __init__(self) -> None:
            self.moves = 0

        def __call__(self, state: object) -> object:
            self.moves += 1
            if self.moves == 8000:  # in the third chunk of 50 hands
                signal.raise_signal(signal.SIGINT)
            return state.legal_actions()[0]  # type: ignore[attr-defined]

    with pytest.raises(Interrupted) as caught:
        rk.tournament(["random", StopAt()], "gin", hands=10**6, seed=1, progress=False, save_records=tmp_path)
    partial = caught.value.result
    assert partial.partial and partial.hands_requested == 10**6 and 0 < partial.hands < 10**6
    assert [r.hand for r in partial.records] == list(range(partial.hands))
    assert json.loads(partial.to_json())["partial"] is True
    assert len(list(tmp_path.glob("hand_*.json"))) == partial.hands
