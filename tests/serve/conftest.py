"""The server's tests: a real server process per test file (each test file skips itself
without the serve extra, pip install ".[serve]")."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator

import pytest

sys.path.append(os.path.dirname(__file__))  # after tests/ (whose conftest others import)

from serve_helpers import Server  # noqa: E402


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """One server process for a test file, on a fresh database."""
    db = tmp_path_factory.mktemp("serve") / "tables.sqlite3"
    running = Server(str(db)).start()
    yield running
    errors = running.stop()
    assert "Traceback" not in errors, errors
