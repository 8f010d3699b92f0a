"""The HTTP and WebSocket API against a real server process on a loopback port."""

from __future__ import annotations

import json
import time

import pytest
from serve_helpers import Server, need_serve

need_serve()
connect = pytest.importorskip("websockets.sync.client").connect
InvalidStatus = pytest.importorskip("websockets.exceptions").InvalidStatus


def _wait(condition, timeout: float = 20.0):  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError("timed out")


def _my_turn(server: Server, table: str, token: str) -> dict:  # type: ignore[type-arg]
    return _wait(lambda: (v := server.view(table, token))["legal"] and v)


def test_create_view_move(server: Server) -> None:
    table, tokens = server.create("gin", [{"type": "human"}, {"type": "human"}], seed=11)
    assert len(tokens) == 2 and all(isinstance(t, str) and len(t) >= 22 for t in tokens)  # 128-bit
    views = [server.view(table, t) for t in tokens]
    spectator = server.view(table)
    assert [v["seat"] for v in views] == [0, 1] and spectator["seat"] is None
    assert spectator["hand"] == [] and spectator["legal"] == []
    assert views[0]["hand_sizes"] == views[1]["hand_sizes"] == spectator["hand_sizes"]
    assert not set(views[0]["hand"]) & set(views[1]["hand"])
    mover = views[0]["current_player"]
    assert views[mover]["legal"] and not views[1 - mover]["legal"]
    # not your turn: 400, nothing changed
    status, answer = server.move(table, tokens[1 - mover], views[mover]["legal"][0]["text"])
    assert status == 400 and "not your turn" in answer["error"]
    assert server.view(table, tokens[mover]) == views[mover]
    # a move by text, then one by id
    status, after = server.move(table, tokens[mover], views[mover]["legal"][0]["text"])
    assert status == 200 and after["seat"] == mover and after != views[mover]
    now = server.view(table, tokens[after["current_player"]])
    status, again = server.move(table, tokens[now["current_player"]], now["legal"][-1]["id"], key="action")
    assert status == 200, again


def test_bad_requests_change_nothing(server: Server) -> None:
    table, tokens = server.create("rummy", [{"type": "human"}, {"type": "human"}], seed=3)
    before = [server.view(table, t) for t in tokens]
    mover = before[0]["current_player"]
    token = tokens[mover]
    cases = [
        ({"token": token, "move": "meld AS 2S 3S"}, 400),
        ({"token": token, "move": "nonsense"}, 400),
        ({"token": token, "action": 10**6}, 400),
        ({"token": token, "action": "104"}, 400),
        ({"token": token, "action": True}, 400),
        ({"token": token, "move": "draw", "action": 0}, 400),
        ({"token": token}, 400),
        ({"token": token, "move": "draw", "extra": 1}, 400),
        ({"token": "x" * 22, "move": "draw"}, 403),
        ({"token": None, "move": "draw"}, 400),
        ({"token": ["a"], "move": "draw"}, 403),
        ([1, 2], 400),
    ]
    for body, status in cases:
        got, answer = server.request("POST", f"/api/tables/{table}/moves", body)
        assert got == status and isinstance(answer["error"], str) and "Traceback" not in answer["error"], (body, answer)
    for raw in (b"{", b"", b"\xff\xfe", b'{"token": 1, "token": 2}', b"NaN", b"[" * 10000):
        got, answer = server.request("POST", f"/api/tables/{table}/moves", raw=raw)
        assert got == 400 and "Traceback" not in answer["error"], (raw[:20], answer)
    got, answer = server.request("POST", f"/api/tables/{table}/moves", raw=b" " * 20_000)
    assert got == 413, answer
    assert [server.view(table, t) for t in tokens] == before
    assert server.request("GET", f"/api/tables/{table}/view?token=wrong")[0] == 403
    assert server.request("GET", "/api/tables/nosuchtable/view")[0] == 404
    assert server.request("POST", "/api/tables/nosuchtable/moves", {"token": "t", "move": "draw"})[0] == 404


@pytest.mark.parametrize(
    "body, words",
    [
        ({"game": "ginn", "seats": [{"type": "human"}] * 2}, "unknown game"),
        ({"game": "gin", "seats": [{"type": "human"}] * 2, "options": {"target_score": -5}}, "target_score"),
        ({"game": "gin", "seats": [{"type": "human"}] * 2, "options": {"no_such_option": 1}}, "no_such_option"),
        ({"game": "gin", "seats": [{"type": "human"}] * 3}, "players"),
        ({"game": "gin", "seats": []}, "seats"),
        ({"game": "gin", "seats": [{"type": "human"}, {"type": "alien"}]}, "seat 1"),
        ({"game": "gin", "seats": [{"type": "human"}, {"type": "bot", "agent": "nosuch"}]}, "bots"),
        ({"game": "gin", "seats": [{"type": "human"}, {"type": "bot", "agent": "ismcts:iterations=50000"}]}, "5000"),
        ({"game": "gin", "seats": [{"type": "human"}, {"type": "bot", "agent": "greedy:bogus=1"}]}, "bogus"),
        ({"game": "gin", "seats": [{"type": "human"}] * 2, "seed": "x"}, "seed"),
        ({"game": "gin", "seats": [{"type": "human"}] * 2, "seed": -1}, "seed"),
        ({"game": "gin", "seats": [{"type": "human"}] * 2, "colour": "red"}, "unknown keys"),
        ({"game": 5, "seats": [{"type": "human"}] * 2}, "game"),
        ("gin", "object"),
    ],
)
def test_bad_tables(server: Server, body: object, words: str) -> None:
    status, answer = server.request("POST", "/api/tables", body)
    assert status == 400 and words in answer["error"], answer


def test_bots_move_and_pushes(server: Server) -> None:
    table, tokens = server.create("oklahoma_gin", [{"type": "human"}, {"type": "bot", "agent": "greedy"}], seed=5)
    assert tokens[1] is None
    with connect(f"ws://127.0.0.1:{server.port}/ws/tables/{table}?token={tokens[0]}", open_timeout=10) as socket:
        first = json.loads(socket.recv(timeout=10))
        assert first["seat"] == 0
        view = _my_turn(server, table, tokens[0])
        for _ in range(6):  # a few of my moves; the bot answers each time it is its turn
            status, view = server.move(table, tokens[0], view["legal"][0]["id"], key="action")
            assert status == 200, view
            pushed = json.loads(socket.recv(timeout=10))
            assert pushed["seat"] == 0
            view = _my_turn(server, table, tokens[0])
    for query in ("?token=bad", "?token=" + tokens[0][:-1]):  # the handshake is refused
        with pytest.raises(InvalidStatus) as refused:
            connect(f"ws://127.0.0.1:{server.port}/ws/tables/{table}{query}", open_timeout=10)
        assert refused.value.response.status_code == 403
    with pytest.raises(InvalidStatus) as refused:
        connect(f"ws://127.0.0.1:{server.port}/ws/tables/nosuch", open_timeout=10)
    assert refused.value.response.status_code == 404


def test_page_and_headers(server: Server) -> None:
    import urllib.request

    with urllib.request.urlopen(server.url + "/") as page:
        assert "Content-Security-Policy" in page.headers and b"table.js" in page.read()
    for name in ("table.js", "table.css"):
        with urllib.request.urlopen(f"{server.url}/static/{name}") as answer:
            assert answer.status == 200


def test_rate_limits(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Over ``--move-rate`` (per seat token) or ``--table-rate`` (per address): 429 with
    Retry-After, nothing changed, other seats unaffected."""
    import urllib.error
    import urllib.request

    limited = Server(str(tmp_path / "tables.sqlite3"), flags=["--move-rate", "3", "--table-rate", "2"]).start()
    try:
        table, tokens = limited.create("gin", [{"type": "human"}, {"type": "human"}], seed=2)
        limited.create("gin", [{"type": "human"}, {"type": "human"}])
        status, answer = limited.request("POST", "/api/tables", {"game": "gin", "seats": [{"type": "human"}] * 2})
        assert status == 429 and "--table-rate" in answer["error"], answer
        views = [limited.view(table, t) for t in tokens]
        mover = views[0]["current_player"]
        idle = tokens[1 - mover]
        for _ in range(3):  # not this seat's turn: refused, and counted
            assert limited.move(table, idle, "pass")[0] == 400
        request = urllib.request.Request(
            f"{limited.url}/api/tables/{table}/moves",
            json.dumps({"token": idle, "move": "pass"}).encode(),
            {"Content-Type": "application/json"},
        )
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(request, timeout=30)
        assert refused.value.code == 429 and 1 <= int(refused.value.headers["Retry-After"]) <= 20
        assert "--move-rate" in json.loads(refused.value.read())["error"]
        assert [limited.view(table, t) for t in tokens] == views
        status, answer = limited.move(table, tokens[mover], views[mover]["legal"][0]["id"], key="action")
        assert status == 200, answer  # the other seat's own limit
    finally:
        assert "Traceback" not in limited.stop()
