"""Where the server keeps its tables: the :class:`Storage` interface and its SQLite implementation.

A table is one row: its id, a version number (bumped by every change), the seats (JSON), the
SHA-256 digests of the human seats' tokens (the tokens themselves are never stored), the bot
seed, a snapshot of the match record (``Match.to_json()``) and the last finished hand as each
seat saw it at its end (JSON, for the hand-end screen; the match record holds the hand
itself); and the moves played since the snapshot, one small row each.  A change is either one
move appended (most changes) or a new snapshot, which drops the moves it holds (the server
writes one at the end of each hand and every few moves).  Every change is a read-modify-write
inside one transaction (:meth:`Storage.update`), so two server processes on the same database
never lose a move: the second writer waits for the first and then sees its version.

A larger deployment implements the same five methods over a server database (PostgreSQL:
``SELECT ... FOR UPDATE`` in :meth:`Storage.update`, the version column and the moves table
as here) and passes it to :func:`rummykit.serve.app.create_app`; nothing else in the server
touches storage.
"""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from typing import Protocol

__all__ = ["SQLiteStorage", "Storage", "TableRow"]


#: a move as stored: (seat, action id)
Move = tuple[int, int]


@dataclass(frozen=True)
class TableRow:
    """One stored table.  ``seats``, ``match`` and ``last_hand`` are JSON text ("" for no hand
    finished yet); ``token_digests`` holds one hex SHA-256 digest per seat ("" for a bot seat);
    ``moves`` are the moves played since ``match`` was written, in order (the table is the
    match replayed with them; ``version`` counts them too)."""

    id: str
    version: int
    seats: str
    token_digests: tuple[str, ...]
    bot_seed: int
    match: str
    last_hand: str = ""
    moves: tuple[Move, ...] = ()


class Storage(Protocol):
    """The server's whole use of its database."""

    def create(self, row: TableRow) -> None:
        """Store a new table (its id must be new)."""

    def load(self, table_id: str) -> TableRow | None:
        """The table, or None if there is none with this id."""

    def update(self, table_id: str, change: Callable[[TableRow], TableRow | None]) -> TableRow | None:
        """In one transaction: read the table, call ``change(row)``, and if it returns a row
        store it with the version bumped by one and return the new row: a row whose ``moves``
        are the read row's and one more appends that move (its ``match`` and ``last_hand``
        must be the read row's); a row with no moves is a new snapshot (its ``match`` and
        ``last_hand`` replace the stored ones and the stored moves are dropped).  ``change``
        returning None (or raising) leaves the table as it was; None is returned (or the
        exception propagates).  A missing table raises KeyError."""

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
);
CREATE TABLE IF NOT EXISTS moves (
    table_id TEXT NOT NULL,
    version INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    action INTEGER NOT NULL,
    PRIMARY KEY (table_id, version)
) WITHOUT ROWID;
"""


class SQLiteStorage:
    """:class:`Storage` in one SQLite file (``":memory:"`` is refused: every thread and process
    must see the same database).  WAL journal: readers never wait for the writer; one
    connection per thread; writers take the write lock at the start of their transaction
    (``BEGIN IMMEDIATE``) and wait up to ``busy_timeout`` seconds for another process's.  The
    writers of one process take turns on a lock of their own first: SQLite's busy handler
    waits by sleeping (up to 100 ms a try), so threads left to meet at the database lock would
    wait far longer than the few hundred microseconds a write takes."""

    def __init__(self, path: str, busy_timeout: float = 10.0) -> None:
        if path == ":memory:" or not path:
            raise ValueError("SQLiteStorage needs a file path (tables must outlive a connection)")
        self.path = path
        self.busy_timeout = busy_timeout
        self._local = threading.local()
        self._connections: list[sqlite3.Connection] = []
        self._lock = threading.Lock()
        self._write = threading.Lock()
        connection = self._connection()
        connection.execute("PRAGMA journal_mode=WAL")
        connection.executescript(_SCHEMA)

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
        if row.moves:
            raise ValueError("a new table is stored as a snapshot, without moves")
        with self._write:
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
        connection = self._connection()
        connection.execute("BEGIN")  # one read transaction: the row and its moves as of one moment
        try:
            return self._read(connection, table_id)
        finally:
            connection.execute("COMMIT")

    def _read(self, connection: sqlite3.Connection, table_id: str) -> TableRow | None:
        values = connection.execute(f"SELECT {self._COLUMNS} FROM tables WHERE id = ?", (table_id,)).fetchone()
        if values is None:
            return None
        moves = connection.execute("SELECT seat, action FROM moves WHERE table_id = ? ORDER BY version", (table_id,))
        return replace(self._row(values), moves=tuple(moves))

    def update(self, table_id: str, change: Callable[[TableRow], TableRow | None]) -> TableRow | None:
        connection = self._connection()
        with self._write:
            connection.execute("BEGIN IMMEDIATE")
            try:
                row = self._read(connection, table_id)
                if row is None:
                    raise KeyError(table_id)
                changed = change(row)
                if changed is None:
                    connection.execute("ROLLBACK")
                    return None
                version, now = row.version + 1, time.time()
                if changed.moves:
                    same = changed.match == row.match and changed.last_hand == row.last_hand
                    if changed.moves[:-1] != row.moves or not same:
                        raise ValueError("a change either appends one move or writes a snapshot without moves")
                    seat, action = changed.moves[-1]
                    connection.execute(
                        "INSERT INTO moves (table_id, version, seat, action) VALUES (?,?,?,?)",
                        (table_id, version, seat, action),
                    )
                    update = "UPDATE tables SET version = ?, updated = ? WHERE id = ?"
                    connection.execute(update, (version, now, table_id))
                else:
                    connection.execute("DELETE FROM moves WHERE table_id = ?", (table_id,))
                    connection.execute(
                        "UPDATE tables SET version = ?, match = ?, last_hand = ?, updated = ? WHERE id = ?",
                        (version, changed.match, changed.last_hand, now, table_id),
                    )
                connection.execute("COMMIT")
                return replace(changed, version=version)
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
