"""A real ``rummykit serve`` process on a loopback port, for the server's tests."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Sequence
from typing import Any


def need_serve() -> None:
    """Skip the calling test module without the serve extra."""
    import pytest

    for name in ("starlette", "uvicorn", "websockets"):
        pytest.importorskip(name)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """``python -m rummykit serve`` on 127.0.0.1 with the database ``db``; ``request`` talks JSON to it."""

    def __init__(self, db: str, port: int | None = None, flags: Sequence[str] = ()) -> None:
        self.db = db
        self.flags = list(flags)  # more command-line flags, e.g. ["--move-rate", "3"]
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> Server:
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "rummykit",
                "serve",
                "--port",
                str(self.port),
                "--db",
                self.db,
                "--log-level",
                "warning",
                *self.flags,
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(
                    f"the server exited: {self.process.stderr.read().decode() if self.process.stderr else ''}"
                )
            try:
                with urllib.request.urlopen(self.url + "/api/games", timeout=2):
                    return self
            except (urllib.error.URLError, ConnectionError, OSError):
                time.sleep(0.1)
        self.stop()
        raise RuntimeError("the server did not start in 30 s")

    def stop(self) -> str:
        """Stop the server; its error output."""
        if self.process is None:
            return ""
        self.process.terminate()
        try:
            _, err = self.process.communicate(timeout=15)
        except subprocess.TimeoutExpired:
            self.process.kill()
            _, err = self.process.communicate()
        self.process = None
        return err.decode(errors="replace")

    def request(self, method: str, path: str, body: Any = None, raw: bytes | None = None) -> tuple[int, Any]:
        """(status, JSON answer) of one request."""
        data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
        request = urllib.request.Request(self.url + path, data=data, method=method)
        if data is not None:
            request.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(request, timeout=30) as answer:
                return answer.status, json.loads(answer.read())
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read())

    def create(self, game: str, seats: list[dict[str, Any]], **extra: Any) -> tuple[str, list[str | None]]:
        status, answer = self.request("POST", "/api/tables", {"game": game, "seats": seats, **extra})
        assert status == 200, answer
        return answer["table"], answer["tokens"]

    def view(self, table: str, token: str | None = None) -> dict[str, Any]:
        status, answer = self.request("GET", f"/api/tables/{table}/view" + (f"?token={token}" if token else ""))
        assert status == 200, answer
        return dict(answer)

    def move(self, table: str, token: str | None, move: Any, key: str = "move") -> tuple[int, Any]:
        return self.request("POST", f"/api/tables/{table}/moves", {"token": token, key: move})
