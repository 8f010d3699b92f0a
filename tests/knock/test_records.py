"""Hand records of the knock games (rummykit.knock.record): round trips of
random hands in every variant, golden records, and hostile records."""

from __future__ import annotations

import importlib.util
import json
import os
import random
import re
from collections.abc import Callable
from decimal import Decimal
from types import ModuleType
from typing import Any

import numpy as np
import pytest

import rummykit as rk
from rummykit.errors import (
    IllegalActionError,
    InvalidCardError,
    InvalidMeldError,
    InvalidOptionError,
    RummykitError,
)
from rummykit.knock.actions import DRAW_STOCK, KNOCK, NUM_ACTIONS, Action
from rummykit.knock.record import (
    FORMAT,
    MAX_ACTIONS,
    VERSION,
    from_json,
    from_record,
    to_json,
    to_record,
)

GOLDEN = os.path.join(os.path.dirname(os.path.dirname(__file__)), "data", "golden")
KEYS = [
    "format",
    "version",
    "family",
    "game",
    "options",
    "dealer",
    "deck",
    "shuffle_seed",
    "actions",
    "knock_melds",
    "result",
]

VARIANTS: list[tuple[str, dict[str, Any]]] = [
    ("gin", {}),
    ("gin", {"first_turn_procedure": "normal", "stock_end_rule": "dead_at_2_last_chance"}),
    ("gin", {"stock_end_rule": "dead_on_draw", "big_gin_bonus": 31, "allow_ace_high_run": True}),
    ("gin", {"stock_end_rule": "reshuffle", "max_restocks": 3, "knock_compare": "lt"}),
    ("gin_classic_pagat", {}),
    ("oklahoma-gin", {}),
    ("oklahoma-gin", {"stock_end_rule": "reshuffle", "max_restocks": 2, "knocker_arrangement": "best_score"}),
    ("oklahoma_gin_150", {"refused_upcard_set_aside": True}),
    ("oklahoma-rummy", {"num_players": 3, "max_turns": 300}),
    ("oklahoma-rummy", {"num_players": 4, "max_turns": 300}),
    ("oklahoma_ring_seed003", {"num_players": 3, "max_restocks": 2}),
    ("oklahoma_seed002", {"num_players": 4, "max_restocks": 2, "layoff_onto_prior_layoffs": True}),
    ("gin_multi", {"num_players": 3, "max_restocks": 2, "ring_winner_min_share": 0.75}),
    ("gin", {"auto_showdown": False, "stock_end_rule": "reshuffle", "max_restocks": 1}),
    ("oklahoma-rummy", {"num_players": 3, "max_turns": 300, "auto_showdown": False}),
]


# --- helpers ---------------------------------------------------------------------


def snapshot(state: rk.KnockState) -> tuple[Any, ...]:
    """Everything a replay must reproduce."""
    return (
        state.rules,
        state.rules.given,
        state.dealer,
        state.deck,
        state.shuffle_seed,
        state.upcard,
        state.limit,
        state.gin_only,
        state.multiplier,
        state.phase,
        state.player,
        state.hands,
        state.stock,
        state.discards,
        state.known,
        state.taken,
        state.restocks,
        state.set_aside,
        state.result,
        state.knock_card,
        state.shown_melds,
        state.turns,
        state.drawn,
        state.showdown,
        state.history,
        state._undo_depth,
        state.legal_actions(),
    )


def assert_round_trip(state: rk.KnockState) -> None:
    text = to_json(state)
    copy = from_json(text)
    assert snapshot(copy) == snapshot(state)
    assert to_json(copy) == text
    if state.history:  # the rebuilt undo stack works too
        a, b = state.clone(), copy
        a.undo()
        b.undo()
        assert snapshot(a) == snapshot(b)


def explicit_knock(state: rk.KnockState, action: int, rng: random.Random) -> bool:
    """Knock with a random legal arrangement shown explicitly; False if none."""
    rules, card = state.rules, action - KNOCK
    bound = 0 if state.gin_only else state.limit - (1 if rules.knock_compare == "lt" else 0)
    final = state.hands[state.player] & ~(1 << card)
    options = rk.arrangements(final, max_deadwood=bound, aces=rules.aces)
    if not options:
        return False
    state.knock(card, melds=list(rng.choice(options).melds))
    return True


def play_random(state: rk.KnockState, rng: random.Random, on_step: Callable[[rk.KnockState], None]) -> None:
    """A random hand that mostly discards well and prefers knocking (half
    the time showing a random legal arrangement explicitly)."""
    while not state.is_terminal():
        legal = state.legal_actions()
        knocks = [a for a in legal if KNOCK <= a < DRAW_STOCK]
        discards = [a for a in legal if a < KNOCK]
        if knocks and rng.random() < 0.7:
            action = rng.choice(knocks)
            if not (rng.random() < 0.5 and explicit_knock(state, action, rng)):
                state.apply_action(action)
        elif discards and rng.random() < 0.7:
            after = rk.discard_deadwoods(state.hands[state.player], aces=state.rules.aces)
            state.apply_action(min(discards, key=lambda a: (after[rk.Card(a)], a)))
        else:
            state.apply_action(rng.choice(legal))
        on_step(state)


def load_golden(name: str) -> str:
    with open(os.path.join(GOLDEN, name), encoding="utf-8") as f:
        return f.read()


def golden_module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("make_golden", os.path.join(GOLDEN, "make_golden.py"))
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


GOLDEN_RECORDS = sorted(f for f in os.listdir(GOLDEN) if f.endswith(".json"))


# --- round trips ---------------------------------------------------------------------


@pytest.mark.parametrize(("name", "options"), VARIANTS, ids=[f"{n}-{i}" for i, (n, _) in enumerate(VARIANTS)])
def test_round_trip_random_hands(name: str, options: dict[str, Any]) -> None:
    game = rk.Game(name, **options)
    rng = random.Random(f"{name}-{sorted(options.items())}")
    seen = {"restock": 0, "explicit": 0, "mid": 0, "end": 0}
    for i in range(12):
        state = game.new_hand(seed=1000 + i)
        assert_round_trip(state)  # the fresh deal
        cut = rng.randrange(1, 60)

        def step(s: rk.KnockState, cut: int = cut) -> None:
            if len(s.history) == cut and not s.is_terminal():
                assert_round_trip(s)
                seen["mid"] += 1

        play_random(state, rng, step)
        assert_round_trip(state)
        seen["end"] += 1
        seen["restock"] += state.restocks > 0
        seen["explicit"] += state.shown_melds is not None
    assert seen["end"] == 12 and seen["mid"] > 0 and seen["explicit"] > 0
    if game.rules.stock_end_rule == "reshuffle":
        assert seen["restock"] > 0


def test_round_trip_restocks_and_presets_with_stock_draws() -> None:
    """Stock-drawing players reach restocks (the seeded shuffles replay)."""
    cases: list[tuple[str, dict[str, Any]]] = [
        ("oklahoma-rummy", {"num_players": 3, "max_turns": 120}),
        ("oklahoma_ring_seed003", {"num_players": 3, "max_restocks": 2}),
        ("gin", {"stock_end_rule": "reshuffle", "max_restocks": 1}),
    ]
    for name, options in cases:
        state = rk.Game(name, **options).new_hand(seed=5)
        while not state.is_terminal():
            legal = state.legal_actions()
            discards = [a for a in legal if a < KNOCK]
            action = DRAW_STOCK if DRAW_STOCK in legal else min(discards) if discards else legal[-1]
            state.apply_action(action)
        assert state.restocks >= 1
        assert_round_trip(state)


def test_record_layout() -> None:
    state = rk.Game("oklahoma-gin", target_score=150, stock_end_rule="reshuffle").new_hand(seed=3, dealer=1)
    state.play("draw stock")
    text = to_json(state)
    lines = text.splitlines()
    assert lines[0] == "{" and lines[-1] == "}" and len(lines) == len(KEYS) + 2
    assert [json.loads("{" + line.rstrip(",") + "}").popitem()[0] for line in lines[1:-1]] == KEYS
    assert text.isascii() and to_json(state) == text
    record = json.loads(text)
    assert record["format"] == FORMAT and record["version"] == VERSION and record["family"] == "knock"
    assert record["game"] == "oklahoma_gin" and record["dealer"] == 1
    assert record["options"] == {"stock_end_rule": "reshuffle", "target_score": 150}
    assert record["deck"] == [str(rk.Card(c)) for c in state.deck] and len(set(record["deck"])) == 52
    assert record["actions"] == ["draw stock"] and record["knock_melds"] is None and record["result"] is None
    assert to_record(state) == record
    assert snapshot(from_record(record)) == snapshot(state)


def test_state_methods_delegate_here() -> None:
    state = rk.Game("oklahoma-rummy", num_players=3).new_hand(seed=4)
    state.play("draw stock")
    assert state.to_json() == to_json(state)
    assert snapshot(rk.from_json(state.to_json())) == snapshot(state)


def test_reads_aliases_bytes_and_other_spellings() -> None:
    state = rk.Game("gin").new_hand(seed=8, dealer=0)
    state.play("pass")
    record = to_record(state)
    record["game"] = "Gin-Rummy"
    record["deck"] = [c.lower() for c in record["deck"]]
    record["actions"] = ["PASS"]
    copy = from_json(json.dumps(record).encode("utf-8"))
    assert snapshot(copy) == snapshot(state)


def test_option_values_are_plain_json() -> None:
    state = rk.Game("oklahoma-gin", spade_multiplier=np.int64(3), stock_end_rule="reshuffle").new_hand(seed=2)
    written = to_record(state)["options"]
    assert written == {"spade_multiplier": 3, "stock_end_rule": "reshuffle"}
    assert type(written["spade_multiplier"]) is int
    copy = from_json(to_json(state))
    assert copy.rules == state.rules and copy.multiplier == state.multiplier
    for value in (3.0, True, Decimal(2)):
        with pytest.raises(InvalidOptionError, match="spade_multiplier"):
            rk.Game("oklahoma-gin", spade_multiplier=value)


# --- golden records ---------------------------------------------------------------------


def test_golden_records_exist() -> None:
    assert len(GOLDEN_RECORDS) >= 9
    for prefix in ("gin_", "oklahoma_gin_", "oklahoma_rummy_3p_"):
        assert sum(f.startswith(prefix) for f in GOLDEN_RECORDS) >= 3


@pytest.mark.parametrize("name", GOLDEN_RECORDS)
def test_golden_record_replays(name: str) -> None:
    text = load_golden(name)
    stored = json.loads(text)["result"]
    state = from_json(text)
    assert state.is_terminal() and state.result is not None
    r = state.result
    assert stored == {"outcome": r.outcome, "winner": r.winner, "points": list(r.points), "deadwood": list(r.deadwood)}
    assert to_json(state) + "\n" == text


def test_golden_files_are_fresh() -> None:
    expected = golden_module().files()
    present = {f: load_golden(f) for f in os.listdir(GOLDEN) if f.endswith((".json", ".txt"))}
    assert sorted(present) == sorted(expected), "run tests/data/golden/make_golden.py"
    for name, text in expected.items():
        assert present[name] == text, f"{name} is stale: run tests/data/golden/make_golden.py"


@pytest.mark.parametrize("name", GOLDEN_RECORDS)
def test_every_prefix_of_a_golden_record_round_trips(name: str) -> None:
    record = json.loads(load_golden(name))
    knock = next((i for i, a in enumerate(record["actions"]) if a.startswith("knock")), len(record["actions"]))
    for k in range(len(record["actions"]) + 1):
        prefix = dict(
            record, actions=record["actions"][:k], result=None, knock_melds=record["knock_melds"] if k > knock else None
        )
        state = from_record(prefix)
        assert len(state.history) == k
        assert_round_trip(state)


def test_golden_set_covers_outcomes() -> None:
    outcomes = {json.loads(load_golden(f))["result"]["outcome"] for f in GOLDEN_RECORDS}
    assert {"gin", "knock", "undercut", "dead"} <= outcomes
    assert any(json.loads(load_golden(f))["knock_melds"] is not None for f in GOLDEN_RECORDS)
    assert any("[restock" in load_golden(f) for f in os.listdir(GOLDEN) if f.endswith(".txt"))


# --- hostile records -----------------------------------------------------------------------


def base() -> dict[str, Any]:
    """A finished two-player hand's record (a knock, no explicit melds)."""
    record: dict[str, Any] = json.loads(load_golden("gin_1.json"))
    return record


def replay_to(record: dict[str, Any], index: int) -> rk.KnockState:
    partial = dict(record, actions=record["actions"][:index], result=None, knock_melds=None)
    return from_record(partial)


def first_index(record: dict[str, Any], test: Callable[[rk.KnockState], bool]) -> tuple[int, rk.KnockState]:
    for i in range(len(record["actions"])):
        state = replay_to(record, i)
        if test(state):
            return i, state
    raise AssertionError("no such position")


def with_(**changes: Any) -> Callable[[], str]:
    return lambda: json.dumps(dict(base(), **changes))


def without(key: str) -> Callable[[], str]:
    def make() -> str:
        record = base()
        del record[key]
        return json.dumps(record)

    return make


def illegal_in_middle() -> str:
    record = base()
    i, state = first_index(record, lambda s: s.phase_name == "discard" and len(s.history) > 6)
    absent = next(c for c in range(52) if not state.hands[state.player] >> c & 1)
    record["actions"][i] = f"discard {rk.Card(absent)}"
    return json.dumps(record)


def knock_over_limit() -> str:
    record = base()
    i, state = first_index(
        record,
        lambda s: (
            s.phase_name == "discard"
            and len(s.history) > 10
            and not any(KNOCK <= a < DRAW_STOCK for a in s.legal_actions())
        ),
    )
    card = rk.best_discard(state.hands[state.player]).card
    record["actions"] = record["actions"][:i] + [f"knock {card}"]
    record["result"] = None
    return json.dumps(record)


def discard_when_draw_due() -> str:
    record = json.loads(load_golden("oklahoma_gin_1.json"))
    state = replay_to(record, 0)
    assert state.phase_name == "draw"
    record["actions"][0] = f"discard {state.hand(state.player)[0]}"
    return json.dumps(record)


def after_the_end() -> str:
    record = base()
    record["actions"] = record["actions"] + ["draw stock", "discard 7H"]
    return json.dumps(record)


def with_result(**changes: Any) -> Callable[[], str]:
    def make() -> str:
        record = base()
        record["result"] = dict(record["result"], **changes)
        return json.dumps(record)

    return make


def unfinished_with_result() -> str:
    record = base()
    record["actions"] = record["actions"][:-1]
    return json.dumps(record)


def explicit_record() -> dict[str, Any]:
    record: dict[str, Any] = json.loads(load_golden("gin_3.json"))
    assert record["knock_melds"]
    return record


def melds_change(melds: Any, result: bool = False) -> Callable[[], str]:
    def make() -> str:
        record = explicit_record()
        record["knock_melds"] = melds
        if not result:
            record["result"] = None
        return json.dumps(record)

    return make


def best_knock_melds() -> list[list[str]]:
    """The least-deadwood arrangement of gin_3's knocker (it showed another)."""
    record = explicit_record()
    final = from_json(json.dumps(record))
    assert final.result is not None and final.result.knocker is not None
    melds = [[str(c) for c in m.cards] for m in rk.best_melds(final.hands[final.result.knocker]).melds]
    assert melds != record["knock_melds"]
    return melds


def melds_without_knock() -> str:
    record = explicit_record()
    record["actions"] = [a for a in record["actions"] if not a.startswith("knock")]
    record["result"] = None
    return json.dumps(record)


def too_many_actions() -> str:
    record = base()
    record["actions"] = ["pass"] * (MAX_ACTIONS + 1)
    return json.dumps(record, separators=(",", ":"))


def duplicated_key() -> str:
    text = load_golden("gin_1.json")
    return text.replace('"dealer": 0,', '"dealer": 0,\n "dealer": 1,')


def swap_deck(i: int, j: int) -> Callable[[], str]:
    def make() -> str:
        record = base()
        deck = record["deck"]
        deck[i], deck[j] = deck[j], deck[i]
        return json.dumps(record)

    return make


HOSTILE: list[tuple[str, Callable[[], Any], type[RummykitError], str]] = [
    ("truncated", lambda: load_golden("gin_1.json")[:300], InvalidOptionError, r"not JSON: .* line \d+ column \d+"),
    ("empty", lambda: "", InvalidOptionError, "not JSON"),
    ("not text", lambda: 42, InvalidOptionError, "expected JSON text"),
    ("not utf-8", lambda: b'{"format": "\xff"}', InvalidOptionError, "not UTF-8"),
    ("array", lambda: "[1, 2, 3]", InvalidOptionError, "expected a JSON object, got an array"),
    ("wrong format", with_(format="rummykit.game"), InvalidOptionError, "format must be 'rummykit.hand'"),
    ("no format", without("format"), InvalidOptionError, "not a rummykit hand record: no 'format' key"),
    ("no version", without("version"), InvalidOptionError, r"missing key\(s\): version"),
    ("future version", with_(version=2), InvalidOptionError, r"unsupported version 2 \(a newer rummykit"),
    ("version zero", with_(version=0), InvalidOptionError, "unsupported version 0"),
    ("version text", with_(version="1"), InvalidOptionError, "version must be an integer"),
    ("version bool", with_(version=True), InvalidOptionError, "version must be an integer"),
    ("missing deck", without("deck"), InvalidOptionError, r"missing key\(s\): deck"),
    ("missing result", without("result"), InvalidOptionError, r"missing key\(s\): result"),
    ("extra keys", with_(comment="hi", zz=1), InvalidOptionError, r"unknown key\(s\): 'comment', 'zz'"),
    ("duplicated key", duplicated_key, InvalidOptionError, "duplicated key 'dealer'"),
    ("family", with_(family="rummy"), InvalidOptionError, "unknown game family 'rummy'"),
    ("unknown game", with_(game="poker"), InvalidOptionError, "unknown game 'poker'"),
    ("game type", with_(game=["gin"]), InvalidOptionError, "game must be a string"),
    ("unknown option", with_(options={"colour": "red"}), InvalidOptionError, "unknown option 'colour'"),
    ("options type", with_(options=[["knock_limit", 5]]), InvalidOptionError, "options must be an object"),
    ("option float", with_(options={"num_players": 2.0}), InvalidOptionError, "option num_players must be int"),
    ("option bool", with_(options={"knock_limit": True}), InvalidOptionError, "option knock_limit must be int"),
    ("option value", with_(options={"knock_limit": -3}), InvalidOptionError, "knock_limit must be an integer in"),
    (
        "option the engine cannot play",
        with_(options={"knock_limit": 2**40}),
        InvalidOptionError,
        "knock_limit|the engine cannot play it",
    ),
    ("option combo", with_(options={"num_players": 3}), InvalidOptionError, "needs 2 players"),
    (
        "option NaN",
        lambda: json.dumps(dict(base(), options={"ring_winner_min_share": float("nan")})),
        InvalidOptionError,
        "NaN is not a number",
    ),
    (
        "option inf",
        lambda: load_golden("gin_1.json").replace('"options": {}', '"options": {"ring_winner_min_share": 1e999}'),
        InvalidOptionError,
        "ring_winner_min_share must be float",
    ),
    ("dealer seat", with_(dealer=2), InvalidOptionError, r"dealer must be a seat 0\.\.1, got 2"),
    ("dealer negative", with_(dealer=-1), InvalidOptionError, "dealer must be a seat"),
    ("dealer text", with_(dealer="0"), InvalidOptionError, "dealer must be a seat"),
    (
        "deck duplicate",
        lambda: json.dumps(dict(base(), deck=base()["deck"][:51] + [base()["deck"][0]])),
        InvalidCardError,
        r"duplicate card \w\w at deck\[0\] and deck\[51\]",
    ),
    ("deck short", lambda: json.dumps(dict(base(), deck=base()["deck"][:51])), InvalidCardError, "got 51 cards"),
    ("deck long", lambda: json.dumps(dict(base(), deck=base()["deck"] + ["AS"])), InvalidCardError, "got 53 cards"),
    (
        "deck bad card",
        lambda: json.dumps(dict(base(), deck=["1S"] + base()["deck"][1:])),
        InvalidCardError,
        r"deck\[0\]: not a card: '1S'",
    ),
    (
        "deck ids",
        lambda: json.dumps(dict(base(), deck=list(range(52)))),
        InvalidCardError,
        r"deck\[0\] must be card text",
    ),
    ("deck type", with_(deck="AS 2S"), InvalidCardError, "deck must be an array"),
    ("seed negative", with_(shuffle_seed=-1), InvalidOptionError, "shuffle_seed must be an integer"),
    ("seed huge", with_(shuffle_seed=2**64), InvalidOptionError, "shuffle_seed must be an integer"),
    ("seed float", with_(shuffle_seed=1.5), InvalidOptionError, "shuffle_seed must be an integer"),
    (
        "int of 5000 digits",
        lambda: load_golden("gin_1.json").replace('"shuffle_seed": 11', '"shuffle_seed": ' + "7" * 5000),
        InvalidOptionError,
        "not JSON",
    ),
    ("actions type", with_(actions="take"), InvalidOptionError, "actions must be an array"),
    (
        "action id",
        lambda: json.dumps(dict(base(), actions=[105])),
        IllegalActionError,
        r"actions\[0\] must be action text",
    ),
    (
        "action text",
        lambda: json.dumps(dict(base(), actions=["pass", "fly away"])),
        IllegalActionError,
        r"actions\[1\]: not an action: 'fly away'",
    ),
    (
        "illegal in the middle",
        illegal_in_middle,
        IllegalActionError,
        r"actions\[\d+\] 'discard \w\w' by seat \d .* is not in seat",
    ),
    (
        "knock over the limit",
        knock_over_limit,
        IllegalActionError,
        r"actions\[\d+\] 'knock \w\w' .*over the knock limit 10",
    ),
    (
        "discard when a draw is due",
        discard_when_draw_due,
        IllegalActionError,
        r"actions\[0\] .*\(phase draw\) is illegal: discard TC: draw first",
    ),
    (
        "take when the pile is empty",
        lambda: json.dumps(dict(base(), actions=["take", "discard KS", "take", "take"], result=None)),
        IllegalActionError,
        r"actions\[3\] 'take'",
    ),
    ("after the end", after_the_end, IllegalActionError, r"the hand ended with actions\[\d+\], 2 action\(s\) follow"),
    (
        "result points",
        with_result(points=[0, 99]),
        InvalidOptionError,
        r"result.points is \[0, 99\] but the replay gives",
    ),
    (
        "result outcome",
        with_result(outcome="gin"),
        InvalidOptionError,
        "result.outcome is 'gin' but the replay gives 'undercut'",
    ),
    ("result keys", with_result(margin=3), InvalidOptionError, "result must have exactly the keys"),
    ("result types", with_result(points="15 0"), InvalidOptionError, "result.points must be an array"),
    ("result type", with_(result="knock"), InvalidOptionError, "result must be an object or null"),
    ("result of an unfinished hand", unfinished_with_result, InvalidOptionError, "the hand is unfinished after"),
    ("deck swapped", swap_deck(0, 30), RummykitError, r"actions\[\d+\]|result\."),
    ("melds not melds", melds_change([["2C", "7H", "KS"]]), InvalidMeldError, "knock_melds .*not a valid set or run"),
    ("melds over the limit", melds_change([]), IllegalActionError, r"actions\[\d+\] 'knock \w\w' .*over the limit"),
    ("melds not held", melds_change([["AC", "2C", "3C"]]), InvalidMeldError, "does not hold"),
    ("melds bad card", melds_change([["6C", "6D", "6X"]]), InvalidCardError, r"knock_melds\[0\]\[2\]: not a card"),
    (
        "melds duplicate",
        melds_change([["6C", "6D", "6C"]]),
        InvalidCardError,
        r"duplicate card 6C at knock_melds\[0\]\[0\]",
    ),
    ("melds type", melds_change("6C 6D 6H"), InvalidOptionError, "knock_melds must be an array"),
    ("melds without a knock", melds_without_knock, IllegalActionError, "knock_melds is given but no action is a knock"),
    (
        "melds changed, result kept",
        lambda: melds_change(best_knock_melds(), result=True)(),
        InvalidOptionError,
        r"result\.\w+ is .* but the replay gives",
    ),
    ("too many actions", too_many_actions, InvalidOptionError, r"too many actions: 100001 \(at most 100000\)"),
    (
        "10 MB string",
        lambda: "x" * 10_000_000,
        InvalidOptionError,
        r"too large: 10000000 characters \(at most 1000000\)",
    ),
    ("10 MB value", lambda: json.dumps(dict(base(), game="g" * 10_000_000)), InvalidOptionError, "too large"),
    ("10 MB bytes", lambda: b" " * 10_000_000, InvalidOptionError, "too large: 10000000 bytes"),
    ("deep nesting", lambda: "[" * 500_000 + "]" * 500_000, InvalidOptionError, "not JSON"),
]


@pytest.mark.parametrize(("label", "make", "error", "pattern"), HOSTILE, ids=[h[0] for h in HOSTILE])
def test_hostile_record(label: str, make: Callable[[], Any], error: type[RummykitError], pattern: str) -> None:
    text = make()
    with pytest.raises(RummykitError) as info:
        from_json(text)
    assert isinstance(info.value, error), f"{label}: {type(info.value).__name__}: {info.value}"
    if error is not RummykitError:
        assert type(info.value) is error, f"{label}: {type(info.value).__name__}: {info.value}"
    assert re.search(pattern, str(info.value)), f"{label}: {info.value}"
    assert str(info.value).startswith("hand record: ")


def test_messages_clip_long_values() -> None:
    junk = "Q" * 500_000
    for record in (
        dict(base(), format=junk),
        dict(base(), actions=["pass", junk]),
        dict(base(), game=junk),
        dict(base(), options={"stock_end_rule": junk}),
        dict(base(), deck=[junk] + base()["deck"][1:]),
    ):
        with pytest.raises(RummykitError) as info:
            from_json(json.dumps(record))
        assert len(str(info.value)) < 700


def test_determinized_states_are_written_only_if_they_replay() -> None:
    """determinize() rebuilds a deck that fits the hand; its restocks were not
    shuffled from its shuffle_seed, so after one the record cannot replay it."""
    game = rk.Game("oklahoma-rummy", num_players=3, max_turns=300)
    rng = random.Random(3)
    written = refused = 0
    for i in range(40):
        state = game.new_hand(seed=i)
        for _ in range(rng.randrange(5, 200)):
            if state.is_terminal():
                break
            legal = state.legal_actions()
            state.apply_action(DRAW_STOCK if DRAW_STOCK in legal and rng.random() < 0.8 else rng.choice(legal))
        other = state.determinize(0, rng=i)
        try:
            text = to_json(other)
        except InvalidOptionError as e:
            assert "cannot be written as a hand record" in str(e) and state.restocks > 0
            refused += 1
            continue
        copy = from_json(text)
        assert (copy.hands, copy.stock, copy.discards, copy.result) == (
            other.hands,
            other.stock,
            other.discards,
            other.result,
        )
        written += 1
    assert written > 0 and refused > 0


def test_clean_base_records_read() -> None:
    """The hostile cases' starting points are themselves valid."""
    for name in ("gin_1.json", "gin_3.json", "oklahoma_gin_1.json"):
        from_json(load_golden(name))


def test_mutated_records_raise_only_rummykit_errors() -> None:
    """Random damage to valid records: read back or rejected, never another exception."""
    rng = random.Random(7)
    sources = [load_golden(f) for f in GOLDEN_RECORDS]
    values: list[Any] = [None, 0, -1, 1, 2, 1.5, "x", "", [], {}, True, ["AS"], [["AS"]], 2**70, {"a": 1}]
    texts = [str(Action(a)) for a in range(NUM_ACTIONS)] + ["take upcard", "draw", "7h", "", "knock", "discard ZZ"]
    outcomes = {"ok": 0, "error": 0}
    for _ in range(1500):
        text = rng.choice(sources)
        record = json.loads(text)
        kind = rng.randrange(9)
        if kind == 0:
            record.pop(rng.choice(KEYS))
        elif kind == 1:
            record[rng.choice(KEYS)] = rng.choice(values)
        elif kind == 2 and record["actions"]:
            record["actions"][rng.randrange(len(record["actions"]))] = rng.choice(texts)
        elif kind == 3 and len(record["actions"]) > 1:
            i = rng.randrange(len(record["actions"]) - 1)
            record["actions"][i], record["actions"][i + 1] = record["actions"][i + 1], record["actions"][i]
        elif kind == 4:
            record["actions"] = record["actions"][: rng.randrange(len(record["actions"]) + 1)]
            if rng.random() < 0.5:
                record["result"] = None
        elif kind == 5:
            deck = record["deck"]
            i, j = rng.randrange(52), rng.randrange(52)
            deck[i], deck[j] = deck[j], deck[i]
            record["result"] = None
        elif kind == 6:
            record["options"] = {
                rng.choice(
                    [
                        "knock_limit",
                        "num_players",
                        "stock_end_rule",
                        "max_turns",
                        "spade_multiplier",
                        "big_gin_bonus",
                        "nope",
                    ]
                ): rng.choice(values)
            }
        if kind == 7:
            cut = rng.randrange(len(text))
            damaged: Any = text[:cut] + rng.choice(["", "}", '"', "0", "[", ",", "\x00"]) + text[cut + 1 :]
        elif kind == 8:
            damaged = json.dumps(record).encode("utf-8")
        else:
            damaged = json.dumps(record)
        try:
            from_json(damaged)
            outcomes["ok"] += 1
        except RummykitError as e:
            assert str(e).startswith("hand record: "), e
            outcomes["error"] += 1
    assert outcomes["error"] > 500 and outcomes["ok"] > 50
