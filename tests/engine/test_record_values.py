"""The knock and table record readers refuse the same malformed values: a float, a bool or
text where an integer belongs (a stored result's points, a winner, the dealer, the seed),
each a RummykitError; the untouched record reads back."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

import rummykit as rk

GAMES = ["gin", "oklahoma-rummy", "rummy", "kaluki"]


def _record(name: str) -> dict[str, Any]:
    game = rk.Game(name)
    for seed in range(50):  # a hand with a winner, so that the result holds a seat
        state = rk.play_hand(game, [rk.GreedyAgent()] * game.num_players, seed=seed)
        record: dict[str, Any] = json.loads(state.to_json())
        if record["result"]["winner"] is not None:
            return record
    raise AssertionError(f"no {name} hand with a winner")


def _ints(record: dict[str, Any]) -> list[tuple[str, Callable[[dict[str, Any]], dict[str, Any]]]]:
    """(where, the holder and key) of every integer in the record's result and header."""
    places: list[tuple[str, Any, Any]] = [("dealer", record, "dealer"), ("shuffle_seed", record, "shuffle_seed")]
    for key, value in record["result"].items():
        if isinstance(value, list):
            places += [(f"result.{key}[{i}]", value, i) for i, v in enumerate(value) if isinstance(v, int)]
        elif isinstance(value, int) and not isinstance(value, bool):
            places.append((f"result.{key}", record["result"], key))
    return places  # type: ignore[return-value]


@pytest.mark.parametrize("name", GAMES)
def test_both_readers_refuse_floats_bools_and_text_for_integers(name: str) -> None:
    record = _record(name)
    rk.from_json(json.dumps(record))  # the untouched record reads
    places = _ints(record)
    assert any(where == "result.winner" for where, *_ in places) and len(places) >= 5
    for where, holder, key in places:
        value = holder[key]
        for bad in (float(value), value + 0.5, bool(value % 2), str(value)):
            holder[key] = bad
            with pytest.raises(rk.RummykitError):
                rk.from_json(json.dumps(record))
            holder[key] = value
