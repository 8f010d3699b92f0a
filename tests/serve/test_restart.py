"""A restarted server, and a second server process on the same database, continue every table exactly."""

from __future__ import annotations

import json
import random

import pytest
from serve_helpers import Server, need_serve

need_serve()
connect = pytest.importorskip("websockets.sync.client").connect


def _play(server: Server, table: str, tokens: list[str | None], moves: int, rng: random.Random) -> None:
    for _ in range(moves):
        views = [server.view(table, t) for t in tokens if t is not None]
        mover = next(v for v in views if v["legal"])
        action = rng.choice(mover["legal"])
        status, answer = server.move(table, tokens[mover["seat"]], action["id"], key="action")
        assert status == 200, answer


def test_restart_continues_every_table(tmp_path) -> None:  # type: ignore[no-untyped-def]
    db = str(tmp_path / "tables.sqlite3")
    rng = random.Random(1)
    first = Server(db).start()
    tables = {}
    try:
        for game, n in (("gin", 2), ("oklahoma_rummy", 3), ("rummy", 2), ("kaluki", 3)):
            table, tokens = first.create(game, [{"type": "human"}] * n, seed=n)
            _play(first, table, tokens, 25, rng)
            tables[table] = (tokens, [first.view(table, t) for t in tokens], first.view(table))
    finally:
        assert "Traceback" not in first.stop()
    second = Server(db).start()
    try:
        for table, (tokens, views, spectator) in tables.items():
            assert [second.view(table, t) for t in tokens] == views
            assert second.view(table) == spectator
            _play(second, table, tokens, 10, rng)  # and play on
    finally:
        assert "Traceback" not in second.stop()


def test_two_processes_share_a_database(tmp_path) -> None:  # type: ignore[no-untyped-def]
    db = str(tmp_path / "tables.sqlite3")
    a, b = Server(db).start(), Server(db).start()
    try:
        table, tokens = a.create("gin", [{"type": "human"}, {"type": "human"}], seed=4)
        with connect(f"ws://127.0.0.1:{b.port}/ws/tables/{table}?token={tokens[0]}", open_timeout=10) as socket:
            assert json.loads(socket.recv(timeout=10)) == b.view(table, tokens[0])
            rng = random.Random(2)
            for step in range(30):  # the moves alternate between the two processes
                server = (a, b)[step % 2]
                views = [server.view(table, t) for t in tokens]
                mover = next(v for v in views if v["legal"])
                status, answer = server.move(table, tokens[mover["seat"]], rng.choice(mover["legal"])["id"], "action")
                assert status == 200, answer
                assert a.view(table, tokens[0]) == b.view(table, tokens[0])
            # b's socket hears of a's moves too (b polls the versions of its tables)
            last = None
            while last != b.view(table, tokens[0]):
                last = json.loads(socket.recv(timeout=10))
    finally:
        assert "Traceback" not in a.stop()
        assert "Traceback" not in b.stop()
