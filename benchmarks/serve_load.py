"""Load benchmark of ``rummykit serve``: N tables of people and bots on a loopback port.

A real server process (uvicorn, one worker, a fresh SQLite database) and one client process
that seats the people: every person holds a WebSocket for the pushes and a keep-alive HTTP
connection for the moves, waits for its turn, thinks (uniformly 0.5-1.5 x ``--think``
seconds) and posts a legal move (mostly one that ends the hand sooner: knock, meld, lay off).
The bots (greedy) move on the server.  The tables: half Gin (a person against a bot), a quarter
Kaluki (a person and two bots), a quarter Oklahoma Gin (two people).  A finished match is
replaced by a new table.

Reported: the moves per second (the people's and the bots', counted from the tables'
versions), the move latency (a person's POST to its answer) p50/p90/p99/max, the server's
memory (RSS) per table and its CPU time per move::

    pip install ".[serve]"
    python benchmarks/serve_load.py --tables 200 --seconds 60

Loopback only; the run ends by itself after ``--seconds``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from typing import Any

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tests", "serve"))

from serve_helpers import Server  # noqa: E402
from websockets.asyncio.client import connect  # noqa: E402

KINDS = [
    ("gin", [{"type": "human"}, {"type": "bot", "agent": "greedy"}]),
    ("gin", [{"type": "human"}, {"type": "bot", "agent": "greedy"}]),
    ("kaluki", [{"type": "human"}, {"type": "bot", "agent": "greedy"}, {"type": "bot", "agent": "greedy"}]),
    ("oklahoma_gin", [{"type": "human"}, {"type": "human"}]),
]


class Http:
    """One keep-alive HTTP/1.1 connection (a minimal client: JSON in, JSON out)."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def request(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
        assert self.reader is not None
        data = json.dumps(body).encode() if body is not None else b""
        head = f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        self.writer.write(f"{head}Content-Length: {len(data)}\r\n\r\n".encode() + data)
        await self.writer.drain()
        status = int((await self.reader.readline()).split()[1])
        length = 0
        while (line := await self.reader.readline()) not in (b"\r\n", b""):
            name, _, value = line.decode().partition(":")
            if name.lower() == "content-length":
                length = int(value)
        data = await self.reader.readexactly(length)
        if status != 200 and not data.startswith(b"{"):
            raise RuntimeError(f"the server answered {status}: {data[:200]!r}")
        return status, json.loads(data)

    async def close(self) -> None:
        if self.writer is not None:
            self.writer.close()


def _choose(legal: list[dict[str, Any]], rng: random.Random) -> int:
    ending = [a for a in legal if a["text"].split()[0] in ("knock", "meld", "lay")]
    return int(rng.choice(ending if ending and rng.random() < 0.8 else legal)["id"])


async def person(
    port: int, table: str, token: str, think: float, stop: float, latencies: list[float], rng: random.Random
) -> None:
    """One person at a table: moves on its turn until the match ends or time is up."""
    http = Http(port)
    try:
        async with connect(f"ws://127.0.0.1:{port}/ws/tables/{table}?token={token}", max_size=2**22) as socket:
            while time.monotonic() < stop:
                try:
                    view = json.loads(await asyncio.wait_for(socket.recv(), stop - time.monotonic()))
                except (asyncio.TimeoutError, TimeoutError):
                    return
                if view["match"]["is_over"]:
                    return
                if not view["legal"]:
                    continue
                await asyncio.sleep(think * rng.uniform(0.5, 1.5))
                if time.monotonic() >= stop:
                    return
                start = time.perf_counter()
                status, answer = await http.request(
                    "POST", f"/api/tables/{table}/moves", {"token": token, "action": _choose(view["legal"], rng)}
                )
                latencies.append(time.perf_counter() - start)
                if status != 200:
                    raise RuntimeError(f"move refused: {answer}")
    finally:
        await http.close()


async def run_tables(port: int, tables: int, think: float, seconds: float, seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    latencies: list[float] = []
    created: list[str] = []
    tasks: set[asyncio.Task[None]] = set()
    stop = time.monotonic() + seconds

    async def seat(index: int) -> None:
        while time.monotonic() < stop:
            game, seats = KINDS[index % len(KINDS)]
            http = Http(port)
            status, answer = await http.request("POST", "/api/tables", {"game": game, "seats": seats})
            await http.close()
            assert status == 200, answer
            created.append(answer["table"])
            people = [
                person(port, answer["table"], t, think, stop, latencies, random.Random(rng.random()))
                for t in answer["tokens"]
                if t is not None
            ]
            await asyncio.gather(*people)

    for index in range(tables):
        tasks.add(asyncio.create_task(seat(index)))
    await asyncio.gather(*tasks)
    return {"latencies": latencies, "tables": created}


def _rss_kib(pid: int) -> int:
    with open(f"/proc/{pid}/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("VmRSS:"))


def _cpu_seconds(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=200, help="tables played at once (default 200)")
    parser.add_argument("--seconds", type=float, default=60.0, help="how long the load runs (default 60)")
    parser.add_argument("--think", type=float, default=1.0, help="a person's mean think time, seconds (default 1)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        db = os.path.join(scratch, "tables.sqlite3")
        server = Server(db, flags=["--table-rate", "0"]).start()  # every table is opened from this one address
        assert server.process is not None
        pid = server.process.pid
        try:
            rss_before = _rss_kib(pid)
            cpu_before = _cpu_seconds(pid)
            start = time.perf_counter()
            result = asyncio.run(run_tables(server.port, args.tables, args.think, args.seconds, args.seed))
            elapsed = time.perf_counter() - start
            rss_after = _rss_kib(pid)
            cpu = _cpu_seconds(pid) - cpu_before
        finally:
            errors = server.stop()
            if "Traceback" in errors:
                print(errors[-3000:], file=sys.stderr)
        with sqlite3.connect(db) as connection:
            moves = connection.execute("SELECT SUM(version) FROM tables").fetchone()[0] or 0
    latencies = sorted(result["latencies"])
    tables = len(result["tables"])

    def at(q: float) -> float:
        return 1000 * latencies[min(len(latencies) - 1, int(q * len(latencies)))]

    report = {
        "tables at once": args.tables,
        "tables played": tables,
        "seconds": round(elapsed, 1),
        "moves (people and bots)": moves,
        "moves/s": round(moves / elapsed, 1),
        "people's moves": len(latencies),
        "latency p50 ms": round(at(0.50), 2),
        "latency p90 ms": round(at(0.90), 2),
        "latency p99 ms": round(at(0.99), 2),
        "latency max ms": round(1000 * latencies[-1], 2) if latencies else None,
        "latency mean ms": round(1000 * statistics.fmean(latencies), 2) if latencies else None,
        "server RSS before MiB": round(rss_before / 1024, 1),
        "server RSS after MiB": round(rss_after / 1024, 1),
        "RSS per table KiB": round((rss_after - rss_before) / max(tables, 1), 1),
        "server CPU s per move (ms)": round(1000 * cpu / max(moves, 1), 2),
        "server CPU use (cores)": round(cpu / elapsed, 2),
    }
    for key, value in report.items():
        print(f"{key:>28}: {value}")
    if "Traceback" in errors:
        print(errors, file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
