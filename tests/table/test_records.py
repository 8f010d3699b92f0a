"""Hand records of the table games (rummykit.table.record): golden Rummy and
Kaluki hands (tests/data/golden/table, written by make_table_golden.py),
round trips of random hands and of every prefix, and hostile records."""

from __future__ import annotations

import importlib.util
import json
import os
import random
from collections.abc import Callable
from types import ModuleType
from typing import Any

import pytest

import rummykit as rk
from rummykit.agents import GreedyAgent
from rummykit.errors import IllegalActionError, InvalidCardError, InvalidOptionError, RummykitError
from rummykit.table.actions import DRAW, TAKE
from rummykit.table.cards import card_type, types_of
from rummykit.table.record import FORMAT, VERSION, from_json, from_record, to_json, to_record
from rummykit.table.state import TableState

GOLDEN = os.path.join(os.path.dirname(os.path.dirname(__file__)), "data", "golden")
TABLE_GOLDEN = os.path.join(GOLDEN, "table")
GOLDEN_RECORDS = sorted(f for f in os.listdir(TABLE_GOLDEN) if f.endswith(".json"))


def load(name: str) -> str:
    with open(os.path.join(TABLE_GOLDEN, name), encoding="utf-8") as f:
        return f.read()


def golden_module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("make_table_golden", os.path.join(GOLDEN, "make_table_golden.py"))
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def snapshot(state: TableState) -> tuple[Any, ...]:
    """Everything a replay must reproduce (cards as types: a record names
    cards, and the replay reads the k-th copy of a card as deck k's)."""
    return (
        state.rules,
        state.rules.given,
        state.dealer,
        [card_type(c) for c in state.deck],
        state.shuffle_seed,
        state.phase,
        state.player,
        [types_of(h) for h in state.hands],
        [card_type(c) for c in state.stock],
        [card_type(c) for c in state.discards],
        state.table_text(),
        [m.owner for m in state.table],
        [types_of(k) for k in state.known],
        state.opened,
        state.played,
        state.turns,
        state.restocks,
        state.taken,
        state.must,
        state.open_value,
        state.pending,
        state.result,
        state.history,
        state.legal_actions(),
    )


def assert_round_trip(state: TableState) -> None:
    text = to_json(state)
    copy = from_json(text)
    assert snapshot(copy) == snapshot(state)
    assert to_json(copy) == text
    if state.history:  # the replayed undo stack works too
        a, b = state.clone(), copy
        a.undo()
        b.undo()
        assert snapshot(a) == snapshot(b)


# --- golden records --------------------------------------------------------------------


def test_golden_records_exist() -> None:
    for prefix in ("rummy_2p_", "rummy_4p_", "kaluki_2p_", "kaluki_4p_"):
        assert sum(f.startswith(prefix) for f in GOLDEN_RECORDS) >= 3


@pytest.mark.parametrize("name", GOLDEN_RECORDS)
def test_golden_record_replays(name: str) -> None:
    """The engine replays each record exactly, and the greedy agent, dealt
    the recorded deck, plays the recorded actions again."""
    text = load(name)
    record = json.loads(text)
    state = from_json(text)
    assert state.is_terminal() and state.result is not None
    r = state.result
    assert record["result"] == {
        "outcome": r.outcome,
        "winner": r.winner,
        "hand_values": list(r.hand_values),
        "points": list(r.points),
        "penalties": list(r.penalties),
        "bonuses": list(r.bonuses),
    }
    assert to_json(state) == text
    again = from_record(dict(record, actions=[], result=None))
    agent = GreedyAgent()
    while not again.is_terminal():
        again.apply_action(agent(again))
    assert again.history == state.history and again.result == state.result


def test_golden_files_are_fresh() -> None:
    expected = golden_module().files()
    present = {f: load(f) for f in os.listdir(TABLE_GOLDEN) if f.endswith((".json", ".txt"))}
    assert sorted(present) == sorted(expected), "run tests/data/golden/make_table_golden.py"
    for name, text in expected.items():
        assert present[name] == text, f"{name} is stale: run tests/data/golden/make_table_golden.py"


@pytest.mark.parametrize("name", GOLDEN_RECORDS)
def test_prefixes_of_a_golden_record_round_trip(name: str) -> None:
    record = json.loads(load(name))
    actions = record["actions"]
    for k in sorted({0, 1, len(actions) - 1, len(actions)} | set(range(0, len(actions), 9))):
        state = from_record(dict(record, actions=actions[:k], result=None))
        assert len(state.history) == k
        assert_round_trip(state)


def test_golden_set_covers_games_and_restocks() -> None:
    outcomes = {json.loads(load(f))["result"]["outcome"] for f in GOLDEN_RECORDS}
    assert {"out", "call_off"} <= outcomes
    traces = [load(f) for f in os.listdir(TABLE_GOLDEN) if f.endswith(".txt")]
    assert any("[restock" in t for t in traces) and any("Jk=" in t for t in traces)


# --- round trips of random hands ------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "options"),
    [
        ("rummy", {}),
        ("rummy", {"num_players": 5, "restock_method": "turn_over", "ace_rank": "high"}),
        ("kaluki", {"num_players": 3}),
        ("kalooki_51", {}),
    ],
)
def test_round_trip_random_hands(name: str, options: dict[str, Any]) -> None:
    game = rk.Game(name, **options)
    rng = random.Random(name)
    for i in range(3):
        state = game.new_hand(seed=100 + i)
        assert_round_trip(state)
        cut = rng.randrange(1, 40)
        while not state.is_terminal():
            legal = state.legal_actions()
            plays = [a for a in legal if a > TAKE]
            state.apply_action(rng.choice(plays) if plays and rng.random() < 0.8 else rng.choice(legal))
            if len(state.history) == cut:
                assert_round_trip(state)
        assert_round_trip(state)


def test_record_layout() -> None:
    state = rk.Game("kaluki", num_players=3, joker_penalty=25).new_hand(seed=3, dealer=1)
    state.play("draw")
    text = to_json(state)
    record = json.loads(text)
    assert record == to_record(state) and text.isascii()
    assert record["format"] == FORMAT and record["version"] == VERSION and record["family"] == "table"
    assert record["game"] == "kaluki" and record["options"] == {"joker_penalty": 25, "num_players": 3}
    assert len(record["deck"]) == 106 and record["deck"].count("Jk") == 2 and record["deck"].count("AS") == 2
    assert record["actions"] == ["draw"] and record["result"] is None
    assert state.to_json() == text and snapshot(TableState.from_json(text)) == snapshot(state)


# --- hostile records ------------------------------------------------------------------------


def base(name: str = "rummy_2p_1.json") -> dict[str, Any]:
    record: dict[str, Any] = json.loads(load(name))
    return record


def changed(name: str = "rummy_2p_1.json", **changes: Any) -> Callable[[], str]:
    return lambda: json.dumps(dict(base(name), **changes))


def truncated() -> str:
    text = load("kaluki_2p_1.json")
    return text[: len(text) // 2]


def duplicated_card(name: str) -> Callable[[], str]:
    """The deck with one card written twice, another missing."""

    def make() -> str:
        record = base(name)
        deck = record["deck"]
        deck[deck.index(next(c for c in deck if c != deck[0]))] = deck[0]
        return json.dumps(record)

    return make


def illegal_action(name: str, index: int, action: str) -> Callable[[], str]:
    def make() -> str:
        record = base(name)
        record["actions"] = record["actions"][:index] + [action] + record["actions"][index + 1 :]
        return json.dumps(record)

    return make


def unopened_take() -> str:
    """Kaluki: the first seat takes the upcard though it cannot open with it."""
    record = base("kaluki_2p_1.json")
    state = from_record(dict(record, actions=[], result=None))
    assert TAKE not in state.legal_actions()
    record["actions"] = ["take"] + record["actions"][1:]
    return json.dumps(record)


def not_in_hand() -> str:
    record = base()
    state = from_record(dict(record, actions=record["actions"][:1], result=None))
    assert state.phase_name == "play"
    held = {card_type(c) for c in range(52) if state.hands[state.player] >> c & 1}
    missing = next(t for t in range(52) if t not in held)
    record["actions"][1] = f"discard {rk.Card(missing)}"
    return json.dumps(record)


HOSTILE: list[tuple[str, Callable[[], str], type[RummykitError], str]] = [
    ("truncated JSON", truncated, InvalidOptionError, "not JSON"),
    ("not an object", lambda: "[1, 2]", InvalidOptionError, "not a JSON object"),
    ("version 2", changed(version=2), InvalidOptionError, "unknown version 2"),
    ("version as text", changed(version="1"), InvalidOptionError, "unknown version"),
    ("version true", changed(version=True), InvalidOptionError, "unknown version"),
    ("knock family", changed(family="knock"), InvalidOptionError, "family"),
    ("other format", changed(format="pgn"), InvalidOptionError, "format"),
    ("unknown game", changed(game="canasta"), InvalidOptionError, "unknown table game"),
    ("option of the other game", changed(options={"kaluki_jokers": 4}), InvalidOptionError, "kaluki option"),
    ("bad dealer", changed(dealer=9), InvalidOptionError, "dealer"),
    ("negative seed", changed(shuffle_seed=-1), InvalidOptionError, "shuffle_seed"),
    ("duplicated Rummy card", duplicated_card("rummy_2p_1.json"), InvalidCardError, "each of the 52 cards"),
    ("third copy of a Kaluki card", duplicated_card("kaluki_4p_1.json"), InvalidCardError, "each of the 106 cards"),
    ("short deck", lambda: json.dumps(dict(base(), deck=base()["deck"][:-1])), InvalidCardError, "52 cards"),
    ("bad card text", lambda: json.dumps(dict(base(), deck=["ZZ"] + base()["deck"][1:])), InvalidCardError, "ZZ"),
    ("discard before drawing", illegal_action("rummy_2p_1.json", 0, "discard 2C"), IllegalActionError, "action 0"),
    ("discard of a card not held", not_in_hand, IllegalActionError, "action 1"),
    ("Kaluki take without an opening", unopened_take, IllegalActionError, "action 0"),
    ("action text that does not parse", illegal_action("kaluki_2p_1.json", 3, "fly"), IllegalActionError, "action 3"),
    (
        "action after the end",
        lambda: json.dumps(dict(base(), actions=base()["actions"] + ["draw"])),
        IllegalActionError,
        "after the end of the hand",
    ),
    (
        "a result the replay does not give",
        changed(result=dict(base()["result"], winner=1 - base()["result"]["winner"])),
        InvalidOptionError,
        "stored result",
    ),
    (
        "unfinished hand with a result",
        lambda: json.dumps(dict(base(), actions=base()["actions"][:-1])),
        InvalidOptionError,
        "stored result",
    ),
    (
        "missing key",
        lambda: json.dumps({k: v for k, v in base().items() if k != "deck"}),
        InvalidOptionError,
        "missing \\['deck'\\]",
    ),
    ("extra key", changed(comment="x"), InvalidOptionError, "unknown \\['comment'\\]"),
]


@pytest.mark.parametrize(("what", "make", "error", "words"), HOSTILE, ids=[h[0] for h in HOSTILE])
def test_hostile_records_are_rejected(
    what: str, make: Callable[[], str], error: type[RummykitError], words: str
) -> None:
    with pytest.raises(error, match=words):
        from_json(make())


def test_draw_and_take_names_in_records() -> None:
    """Records name draws and takes without their cards (the deck gives them)."""
    record = base("kaluki_2p_1.json")
    assert "draw" in record["actions"] and all(not a.startswith("draw ") for a in record["actions"])
    state = from_json(json.dumps(record))
    assert DRAW in state.history
