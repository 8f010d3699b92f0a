"""Hostile files for the command line: ``rummykit replay``, the one command that
reads a file, bounds what it reads before parsing and ends any bad file with one line on
stderr naming the problem and exit status 2, never a traceback.

Binary, Latin-1 and UTF-16 files, an empty file, a directory, a missing file, ``/dev/zero``
and a file over the size limit (file and standard input), 5,000-digit integers, NaN, deep
nesting, duplicate keys, options named ``name``, ``game`` or ``self``, match records with bad
hands, and a few hundred mutations of real hand and match records (cut short, bytes changed,
values of every JSON type put in every key) go through ``rummykit.cli.main`` in-process
(an exception escaping it fails the test); a few go through the installed command.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import rummykit as rk
from rummykit import cli
from rummykit.play import MAX_MATCH_RECORD_CHARS, match_record


def _hand(game: str, actions: int, **options: Any) -> Any:
    state = rk.Game(game, **options).new_hand(seed=4, dealer=0)
    rng = random.Random(actions)
    while len(state.history) < actions and not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    return state


RECORDS = {
    "gin": _hand("gin", 12).to_json(),
    "rummy": _hand("rummy", 15, num_players=3).to_json(),
    "kaluki": _hand("kaluki", 20).to_json(),
}


def _with(record: str, **changes: Any) -> str:
    data = json.loads(record)
    data.update(changes)
    return json.dumps(data)


def _replay(path: Path | str, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    """Exit status and stderr of ``rummykit replay --all PATH`` run in this process."""
    status = cli.main(["replay", "--all", str(path)])
    return status, capsys.readouterr().err


def _one_line_error(status: int, err: str, what: str) -> None:
    lines = err.strip().splitlines()
    assert status == 2 and len(lines) == 1 and lines[0].startswith("rummykit: "), (what, status, err[-500:])
    assert "Traceback" not in err and len(lines[0]) <= 2100, (what, err[-500:])  # errors.MAX_MESSAGE + prefix


HOSTILE_FILES: dict[str, tuple[bytes, str]] = {
    "binary": (bytes(range(256)) * 8, "not UTF-8 text"),
    "latin-1": (RECORDS["rummy"].replace('"rummy"', '"rummé"').encode("latin-1"), "not UTF-8 text"),
    "utf-16": (RECORDS["gin"].encode("utf-16"), "not UTF-8 text"),
    "empty": (b"", "not JSON"),
    "not json": (b"hello", "not JSON"),
    "5000-digit dealer": (RECORDS["rummy"].replace('"dealer": 0', '"dealer": ' + "9" * 5000).encode(), "not JSON"),
    "5000-digit seed": (
        RECORDS["gin"].replace('"shuffle_seed": ', '"shuffle_seed": 1' + "0" * 5000 + ', "x": ').encode(),
        "not JSON",
    ),
    "big dealer": (_with(RECORDS["kaluki"], dealer=10**4000).encode(), "dealer"),
    "NaN": (RECORDS["kaluki"].replace('"dealer": 0', '"dealer": NaN').encode(), "NaN"),
    "deep": (b"[" * 100_000, "not JSON"),
    "duplicate key": (RECORDS["rummy"].replace('"dealer": 0', '"dealer": 0, "dealer": 1').encode(), "duplicated key"),
    "table option name": (_with(RECORDS["rummy"], options={"name": "x"}).encode(), "'name' is not a game option"),
    "table option game": (_with(RECORDS["kaluki"], options={"game": "gin"}).encode(), "'game' is not a game option"),
    "table option self": (_with(RECORDS["rummy"], options={"self": 1}).encode(), "'self' is not a game option"),
    "knock option name": (_with(RECORDS["gin"], options={"name": "x"}).encode(), "'name' is not a game option"),
    "knock option self": (_with(RECORDS["gin"], options={"self": 1}).encode(), "'self' is not a game option"),
    "match without hands": (b'{"format": "rummykit-match", "hands": []}', "no hands"),
    "match of a number": (b'{"format": "rummykit-match", "hands": [7]}', "match record, hand 1"),
    "match, a bad second hand": (
        json.dumps({"format": "rummykit-match", "hands": [json.loads(RECORDS["gin"]), {"format": 1}]}).encode(),
        "match record, hand 2",
    ),
    "over the size limit": (b" " * (MAX_MATCH_RECORD_CHARS + 1), "larger than 16,000,000 bytes"),
    "a hand record over its limit": (b" " * (rk.records.MAX_RECORD_CHARS + 1) + b"{}", "too large"),
}


@pytest.mark.parametrize("name", list(HOSTILE_FILES))
def test_hostile_file(name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data, message = HOSTILE_FILES[name]
    path = tmp_path / "record.json"
    path.write_bytes(data)
    status, err = _replay(path, capsys)
    _one_line_error(status, err, name)
    assert message in err, err


def test_files_that_cannot_be_read(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for path, message in ((tmp_path / "missing.json", "No such file"), (tmp_path, "Is a directory")):
        status, err = _replay(path, capsys)
        _one_line_error(status, err, str(path))
        assert message in err


def test_reads_stop_at_the_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    """At most limit + 1 bytes are read, from a file or standard input: an endless stream ends."""

    class Endless:
        def __init__(self) -> None:
            self.asked: list[int] = []

        def read(self, n: int = -1) -> bytes:
            assert n > 0, "an unbounded read"
            self.asked.append(n)
            return b"\0" * n

    endless = Endless()
    monkeypatch.setattr(sys, "stdin", type("Stdin", (), {"buffer": endless})())
    with pytest.raises(rk.InvalidOptionError, match="standard input: larger than 1,000 bytes"):
        cli.read_record_file("-", limit=1000)
    assert endless.asked == [1001]
    if Path("/dev/zero").exists():
        with pytest.raises(rk.InvalidOptionError, match="/dev/zero: larger than 1,000 bytes"):
            cli.read_record_file("/dev/zero", limit=1000)


def _mutations(text: str, rng: random.Random) -> list[str | bytes]:
    """Real records made hostile: cut short, bytes changed, and every key's value replaced by
    a value of each JSON type (and a few of the values inside the deck and actions)."""
    out: list[str | bytes] = [text[: rng.randrange(len(text))] for _ in range(12)]
    raw = text.encode()
    for _ in range(12):
        b = bytearray(raw)
        for _ in range(rng.randint(1, 4)):
            b[rng.randrange(len(b))] = rng.randrange(256)
        out.append(bytes(b))
    data = json.loads(text)
    values: list[Any] = [None, True, -1, 2**70, 1.5, "", "x" * 300, [], [1], {}, {"a": None}]
    for key in data:
        for value in rng.sample(values, 5):
            out.append(json.dumps({**data, key: value}))
    for key in ("deck", "actions", "hands"):  # a match record has hands instead
        if key not in data:
            continue
        for value in rng.sample(values, 4):
            items = list(data[key])
            items[rng.randrange(len(items))] = value
            out.append(json.dumps({**data, key: items}))
    return out


@pytest.mark.parametrize("game", list(RECORDS))
def test_mutated_records(game: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rng = random.Random(game)
    path = tmp_path / "record.json"
    texts = _mutations(RECORDS[game], rng)
    states = [rk.from_json(RECORDS[game])]
    texts += _mutations(match_record(states, states[0].rules.name), rng)[:24]
    for i, text in enumerate(texts):
        path.write_bytes(text if isinstance(text, bytes) else text.encode())
        status, err = _replay(path, capsys)
        if status == 0:
            continue  # a change the reader may accept (e.g. a cut inside trailing whitespace)
        _one_line_error(status, err, f"mutation {i}: {text[:200]!r}")


def test_the_installed_command(tmp_path: Path) -> None:
    """End to end: the console script on a binary file, on /dev/zero and on stdin."""
    binary = tmp_path / "binary.json"
    binary.write_bytes(bytes(range(256)))
    runs = [(["replay", str(binary)], b"", "not UTF-8 text")]
    if Path("/dev/zero").exists():
        runs.append((["replay", "/dev/zero"], b"", "larger than 16,000,000 bytes"))
    runs.append(
        (["replay", "-"], RECORDS["rummy"].replace('"dealer": 0', '"dealer": ' + "7" * 5000).encode(), "not JSON")
    )
    for args, stdin, message in runs:
        done = subprocess.run(
            [sys.executable, "-m", "rummykit", *args], input=stdin, capture_output=True, timeout=120, check=False
        )
        err = done.stderr.decode()
        assert done.returncode == 2 and len(err.strip().splitlines()) == 1 and message in err, (args, err[-500:])
