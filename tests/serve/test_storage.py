"""Tables stored move by move: the moves since the last full match record, replayed on reading.

In one process, with the server's tables module and SQLite storage (no web server): a table read
by a second ``Tables`` (another process on the same database) or a fresh one (a restart) is the
table played in a plain ``rummykit.Match`` with the same moves, at every version, across the
records written every ``SNAPSHOT_EVERY`` moves and at every hand's end.
"""

from __future__ import annotations

import random
import sqlite3
from typing import Any

import pytest

import rummykit
from rummykit.serve.storage import SQLiteStorage, TableRow
from rummykit.serve.tables import SNAPSHOT_EVERY, Tables


def _reference(match: Any, seat: int, action: int) -> None:
    """The server's move, played on a plain match: the hand scored and the next dealt at its end."""
    match.state.play(action, player=seat)
    if match.state.is_terminal():
        match.finish_hand()
        if not match.is_over:
            match.deal()


@pytest.mark.parametrize(("game", "n", "options"), [("gin", 2, {"target_score": 40}), ("kaluki", 3, {})])
def test_moves_replayed_on_the_last_record_are_the_table(tmp_path, game: str, n: int, options: dict) -> None:  # type: ignore[no-untyped-def]
    db = str(tmp_path / "tables.sqlite3")
    first, second = Tables(SQLiteStorage(db)), Tables(SQLiteStorage(db))
    table, tokens = first.create({"game": game, "options": options, "seats": [{"type": "human"}] * n, "seed": 7})
    reference = rummykit.Match(game, num_players=n, seed=7, **options)
    reference.deal()
    rng = random.Random(3)
    stored_moves, hands, played = [], 0, 0
    for step in range(150):
        if reference.is_over:
            break
        tables = (first, second)[step % 3 == 2]  # moves from both "processes"
        seat = reference.state.current_player
        action = rng.choice(reference.state.legal_actions())
        tables.move(table, seat, action)
        _reference(reference, seat, action)
        played += 1
        hands = reference.hands_played
        readers = (first, second, Tables(SQLiteStorage(db))) if step % 5 == 0 else (first, second)
        for reader in readers:
            for viewer in [None, *range(n)]:
                assert reader.view(table, viewer) == reference.view(viewer)
        with sqlite3.connect(db) as connection:
            stored_moves.append(connection.execute("SELECT COUNT(*) FROM moves").fetchone()[0])
    assert max(stored_moves) == SNAPSHOT_EVERY - 1  # a full record every SNAPSHOT_EVERY moves
    assert hands >= 1 and 0 in stored_moves[SNAPSHOT_EVERY:]
    assert first.version(table) == played


def test_a_change_appends_one_move_or_writes_a_record(tmp_path) -> None:  # type: ignore[no-untyped-def]
    storage = SQLiteStorage(str(tmp_path / "tables.sqlite3"))
    storage.create(TableRow("t", 0, "[]", ("",), 1, "record 0"))
    assert storage.update("t", lambda row: TableRow("t", 0, "[]", ("",), 1, row.match, moves=((0, 5),)))
    assert storage.update("t", lambda row: TableRow("t", 0, "[]", ("",), 1, row.match, moves=(*row.moves, (1, 6))))
    row = storage.load("t")
    assert row is not None and (row.version, row.match, row.moves) == (2, "record 0", ((0, 5), (1, 6)))
    with pytest.raises(ValueError, match="appends one move"):
        storage.update("t", lambda row: TableRow("t", 0, "[]", ("",), 1, "changed", moves=(*row.moves, (0, 7))))
    with pytest.raises(ValueError, match="appends one move"):
        storage.update("t", lambda row: TableRow("t", 0, "[]", ("",), 1, row.match, moves=((0, 7),)))
    assert storage.load("t") == row  # refused changes left it as it was
    assert storage.update("t", lambda row: TableRow("t", 0, "[]", ("",), 1, "record 3", "end"))
    row = storage.load("t")
    assert row is not None and (row.version, row.match, row.last_hand, row.moves) == (3, "record 3", "end", ())
    storage.close()
