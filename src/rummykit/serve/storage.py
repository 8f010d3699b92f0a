"""Where the server keeps its tables: the :class:`Storage` interface and its SQLite implementation.

A table is one row: its id, a version number (bumped by every change), the seats (JSON), the
SHA-256 digests of the human seats' tokens (the tokens themselves are never stored), the bot
seed, the match record (``Match.to_json()``) and the last finished hand as each seat saw it at
its end (JSON, for the hand-end screen; the match record holds the hand itself).  Every change
is a read-modify-write inside one transaction (:meth:`Storage.update`), so two server processes
on the same database never lose a move: the second writer waits for the first and then sees
its version.

A larger deployment implements the same five methods over a server database (PostgreSQL:
``SELECT ... FOR UPDATE`` in :meth:`Storage.update`, the version column as here) and passes
it to :func:`rummykit.serve.app.create_app`; nothing else in the server touches storage.
"""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from typing import Protocol

__all__ = ["SQLiteStorage", "Storage", "TableRow"]


@dataclass(frozen=True)
class TableRow:
    """One stored table.  ``seats``, ``match`` and ``last_hand`` are JSON text ("" for no hand
    finished yet); ``token_digests`` holds one hex SHA-256 digest per seat ("" for a bot seat)."""

    id: str
    version: int
    seats: str
    token_digests: tuple[str, ...]
    bot_seed: int
    match: str
    last_hand: str = ""


class Storage(Protocol):
    """The server's whole use of its database."""

    def create(self, row: TableRow) -> None:
        """Store a new table (its id must be new)."""

    def load(self, table_id: str) -> TableRow | None:
        """The table, or None if there is none with this id."""

    def update(self, table_id: str, change: Callable[[TableRow], TableRow | None]) -> TableRow | None:
        """In one transaction: read the table, call ``change(row)``, and if it returns a row
        store its ``match`` and ``last_hand`` with the version bumped by one and return the new
        row.  ``change`` returning None (or raising) leaves the table as it was; None is
        returned (or the exception propagates).  A missing table raises KeyError."""

    def versions(self, table_ids: Iterable[str]) -> dict[str, int]:
        """The current version of each of these tables (missing ones left out)."""

    def close(self) -> None:
        """Release the database."""


_SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    version INTEGER NOT NULL,
    seats TEXT NOT NULL,
    token_digests TEXT NOT NULL,
    bot_seed INTEGER NOT NULL,
    match TEXT NOT NULL,
    last_hand TEXT NOT NULL,
    updated REAL NOT NULL
)
"""


class SQLiteStorage:
    """:class:`Storage` in one SQLite file (``":memory:"`` is refused: every thread and process
    must see the same database).  WAL journal: readers never wait for the writer; one
    connection per thread; writers take the write lock at the start of their transaction
    (``BEGIN IMMEDIATE``) and wait up to ``busy_timeout`` seconds for another process's."""

    def __init__(self, path: str, busy_timeout: float = 10.0) -> None:
        if path == ":memory:" or not path:
            raise ValueError("SQLiteStorage needs a file path (tables must outlive a connection)")
        self.path = path
        self.busy_timeout = busy_timeout
        self._local = threading.local()
        self._connections: list[sqlite3.Connection] = []
        self._lock = threading.Lock()
        connection = self._connection()
        connection.execute("PRAGMA journal_mode=WAL")
        connection.execute(_SCHEMA)

    def _connection(self) -> sqlite3.Connection:
        connection: sqlite3.Connection | None = getattr(self._local, "connection", None)
        if connection is None:
            connection = sqlite3.connect(
                self.path, timeout=self.busy_timeout, isolation_level=None, check_same_thread=False
            )
            # WAL with synchronous=NORMAL: a commit is durable against a process crash (the
            # WAL file holds it) and is fsynced at checkpoints; a power cut may lose the last moves
            connection.execute("PRAGMA synchronous=NORMAL")
            self._local.connection = connection
            with self._lock:
                self._connections.append(connection)
        return connection

    _COLUMNS = "id, version, seats, token_digests, bot_seed, match, last_hand"

    @staticmethod
    def _row(values: tuple[str, int, str, str, int, str, str]) -> TableRow:
        table_id, version, seats, digests, bot_seed, match, last_hand = values
        return TableRow(table_id, version, seats, tuple(digests.split(",")), bot_seed, match, last_hand)

    def create(self, row: TableRow) -> None:
        self._connection().execute(
            f"INSERT INTO tables ({self._COLUMNS}, updated) VALUES (?,?,?,?,?,?,?,?)",
            (
                row.id,
                row.version,
                row.seats,
                ",".join(row.token_digests),
                row.bot_seed,
                row.match,
                row.last_hand,
                time.time(),
            ),
        )

    def load(self, table_id: str) -> TableRow | None:
        values = self._connection().execute(f"SELECT {self._COLUMNS} FROM tables WHERE id = ?", (table_id,)).fetchone()
        return None if values is None else self._row(values)

    def update(self, table_id: str, change: Callable[[TableRow], TableRow | None]) -> TableRow | None:
        connection = self._connection()
        connection.execute("BEGIN IMMEDIATE")
        try:
            values = connection.execute(f"SELECT {self._COLUMNS} FROM tables WHERE id = ?", (table_id,)).fetchone()
            if values is None:
                raise KeyError(table_id)
            row = self._row(values)
            changed = change(row)
            if changed is None:
                connection.execute("ROLLBACK")
                return None
            new = replace(row, version=row.version + 1, match=changed.match, last_hand=changed.last_hand)
            connection.execute(
                "UPDATE tables SET version = ?, match = ?, last_hand = ?, updated = ? WHERE id = ?",
                (new.version, new.match, new.last_hand, time.time(), table_id),
            )
            connection.execute("COMMIT")
            return new
        except BaseException:
            if connection.in_transaction:
                connection.execute("ROLLBACK")
            raise

    def versions(self, table_ids: Iterable[str]) -> dict[str, int]:
        ids = list(table_ids)
        result: dict[str, int] = {}
        connection = self._connection()
        for start in range(0, len(ids), 500):
            chunk = ids[start : start + 500]
            marks = ",".join("?" * len(chunk))
            for table_id, version in connection.execute(f"SELECT id, version FROM tables WHERE id IN ({marks})", chunk):
                result[table_id] = version
        return result

    def close(self) -> None:
        with self._lock:
            for connection in self._connections:
                connection.close()
            self._connections.clear()
        self._local = threading.local()
