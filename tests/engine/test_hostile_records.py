"""Hostile hand records for the table games (Rummy, Kaluki), records fed to
the wrong family's reader, and records that try to smuggle in code.

The knock-game cases (truncated, oversized, wrong version, bad decks,
illegal sequences...) live in tests/knock/test_records.py; this file runs
the same classes against ``rummykit.table.record`` and checks that a record
is only ever read as data: no pickle, no eval, whatever it holds.
"""

from __future__ import annotations

import base64
import json
import pickle
import random
import re
from collections.abc import Callable
from typing import Any

import pytest

import rummykit as rk
from rummykit.errors import IllegalActionError, InvalidCardError, InvalidOptionError, RummykitError
from rummykit.knock import record as knock_record
from rummykit.table import record as table_record


def finished(name: str, seed: int, **options: Any) -> rk.TableState:
    """A hand of ``name`` played to its end by seeded random legal actions."""
    state = rk.Game(name, **options).new_hand(seed=seed, dealer=0)
    rng = random.Random(seed)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    assert isinstance(state, rk.TableState)
    return state


RUMMY = finished("rummy", 3).to_json()
KALUKI = finished("kaluki", 5, num_players=3).to_json()


def base(text: str = RUMMY) -> dict[str, Any]:
    record: dict[str, Any] = json.loads(text)
    return record


def with_(**changes: Any) -> Callable[[], str]:
    return lambda: json.dumps(dict(base(), **changes))


def without(key: str) -> Callable[[], str]:
    return lambda: json.dumps({k: v for k, v in base().items() if k != key})


def deck_change(change: Callable[[list[str]], list[str]], text: str = RUMMY) -> Callable[[], str]:
    def make() -> str:
        record = base(text)
        return json.dumps(dict(record, deck=change(list(record["deck"])), actions=[], result=None))

    return make


def actions_change(change: Callable[[list[str]], list[str]], text: str = RUMMY) -> Callable[[], str]:
    def make() -> str:
        record = base(text)
        return json.dumps(dict(record, actions=change(list(record["actions"])), result=None))

    return make


def swap_first_draw_and_discard(actions: list[str]) -> list[str]:
    return [actions[1], actions[0], *actions[2:]]


def duplicate_card(deck: list[str]) -> list[str]:
    """Rummy has one deck: a second copy of its first card replaces another card."""
    return [deck[0], deck[0], *deck[2:]]


HOSTILE: list[tuple[str, Callable[[], Any], type[RummykitError], str]] = [
    ("truncated", lambda: RUMMY[: len(RUMMY) // 2], InvalidOptionError, "not JSON"),
    ("truncated to nothing", lambda: "", InvalidOptionError, "not JSON"),
    ("not text", lambda: 42, InvalidOptionError, r"expected JSON text \(str or bytes\), got int"),
    ("array", lambda: "[1, 2]", InvalidOptionError, "not a JSON object"),
    ("not utf-8", lambda: b'{"format": "\xff"}', InvalidOptionError, "not UTF-8 text"),
    ("deep nesting", lambda: "[" * 200_000 + "]" * 200_000, InvalidOptionError, "not JSON"),
    ("oversized", lambda: " " * (table_record.MAX_RECORD_CHARS + 1) + "{}", InvalidOptionError, "too large"),
    ("oversized value", with_(game="g" * table_record.MAX_RECORD_CHARS), InvalidOptionError, "too large"),
    ("future version", with_(version=2), InvalidOptionError, "unknown version 2"),
    ("version zero", with_(version=0), InvalidOptionError, "unknown version 0"),
    ("version text", with_(version="1"), InvalidOptionError, "unknown version '1'"),
    ("version bool", with_(version=True), InvalidOptionError, "unknown version True"),
    ("missing version", without("version"), InvalidOptionError, r"missing \['version'\]"),
    ("extra key", with_(comment="hi"), InvalidOptionError, r"unknown \['comment'\]"),
    ("wrong format", with_(format="rummykit.game"), InvalidOptionError, "format must be"),
    ("unknown game", with_(game="poker"), InvalidOptionError, "unknown"),
    ("option unknown", with_(options={"colour": "red"}), InvalidOptionError, "colour"),
    ("option value", with_(options={"num_players": 9}), InvalidOptionError, "num_players"),
    # the constructors' own parameter names (a TypeError once): refused as no option, as in the knock reader
    ("option named name", with_(options={"name": "x"}), InvalidOptionError, "'name' is not a game option"),
    ("option named game", with_(options={"game": "gin"}), InvalidOptionError, "'game' is not a game option"),
    ("option named self", with_(options={"self": 1}), InvalidOptionError, "'self' is not a game option"),
    ("5000-digit int", lambda: RUMMY.replace('"dealer": 0', '"dealer": ' + "9" * 5000), InvalidOptionError, "not JSON"),
    ("NaN", lambda: RUMMY.replace('"dealer": 0', '"dealer": NaN'), InvalidOptionError, "NaN is not a number"),
    (
        "duplicate key",
        lambda: RUMMY.replace('"dealer": 0', '"dealer": 0, "dealer": 1'),
        InvalidOptionError,
        "duplicated",
    ),
    ("dealer text", with_(dealer="0"), InvalidOptionError, "dealer and shuffle_seed must be integers"),
    ("dealer seat", with_(dealer=7), InvalidOptionError, "dealer"),
    ("seed huge", with_(shuffle_seed=2**64), InvalidOptionError, "shuffle_seed"),
    ("seed float", with_(shuffle_seed=1.5), InvalidOptionError, "shuffle_seed"),
    ("deck type", with_(deck="AS 2S"), InvalidOptionError, "deck must be a list of card text"),
    ("deck short", deck_change(lambda d: d[:-1]), InvalidCardError, "deck"),
    ("deck long", deck_change(lambda d: [*d, "AS"]), InvalidCardError, "deck"),
    ("deck duplicated card", deck_change(duplicate_card), InvalidCardError, "deck"),
    ("deck bad card", deck_change(lambda d: ["ZZ", *d[1:]]), InvalidCardError, "ZZ"),
    ("kaluki third copy", deck_change(lambda d: [d[0], d[0], d[0], *d[3:]], KALUKI), InvalidCardError, "deck"),
    ("actions type", with_(actions="draw"), InvalidOptionError, "actions must be a list of action text"),
    ("action not text", with_(actions=[1, 2]), InvalidOptionError, "actions must be a list of action text"),
    ("illegal sequence", actions_change(swap_first_draw_and_discard), IllegalActionError, r"action 0 \('discard"),
    ("action garbage", actions_change(lambda a: ["shuffle the deck", *a]), IllegalActionError, "action 0"),
    ("after the end", actions_change(lambda a: [*a, "draw"]), IllegalActionError, "after the end of the hand"),
    (
        "result forged",
        with_(result=dict(base()["result"], winner=1 - base()["result"]["winner"])),
        InvalidOptionError,
        "is not the replay's",
    ),
    ("result type", with_(result="won"), InvalidOptionError, "result must be null or an object"),
]


@pytest.mark.parametrize("label,make,error,pattern", HOSTILE, ids=[h[0] for h in HOSTILE])
def test_hostile_table_record(label: str, make: Callable[[], Any], error: type[RummykitError], pattern: str) -> None:
    with pytest.raises(error, match=pattern) as info:
        table_record.from_json(make())
    assert "hand record" in str(info.value)


def test_base_records_read() -> None:
    """The starting points of the hostile cases are themselves valid."""
    for text in (RUMMY, KALUKI):
        assert table_record.from_json(text).to_json() == text


def test_size_limit_is_documented_and_enforced_at_the_boundary() -> None:
    """The limit holds on the text length (characters, or bytes for bytes)."""
    padded = RUMMY + " " * (table_record.MAX_RECORD_CHARS - len(RUMMY))
    assert table_record.from_json(padded).to_json() == RUMMY
    with pytest.raises(InvalidOptionError, match=r"too large: 2000001 characters \(at most 2000000\)"):
        table_record.from_json(padded + " ")
    with pytest.raises(InvalidOptionError, match=r"too large: 2000001 bytes \(at most 2000000\)"):
        table_record.from_json((padded + " ").encode())
    assert "MAX_RECORD_CHARS" in (table_record.__doc__ or "")


def test_records_of_the_other_family_are_refused() -> None:
    knock = rk.Game("gin").new_hand(seed=1, dealer=0).to_json()
    with pytest.raises(InvalidOptionError, match="family"):
        table_record.from_json(knock)
    with pytest.raises(InvalidOptionError, match="family"):
        knock_record.from_json(RUMMY)


class Tripwire:
    """Unpickling this calls ``Tripwire.fire``: a record reader that unpickles trips it."""

    fired = False

    @classmethod
    def fire(cls) -> None:
        cls.fired = True

    def __reduce__(self) -> tuple[Any, ...]:
        return (Tripwire.fire, ())


PICKLE = pickle.dumps(Tripwire())
CODE = "__import__('tests.engine.test_hostile_records', fromlist=['x']).Tripwire.fire()"
READERS = [("knock", knock_record.from_json), ("table", table_record.from_json)]


@pytest.mark.parametrize("family,read", READERS, ids=[r[0] for r in READERS])
def test_a_pickle_payload_is_rejected_as_data(family: str, read: Callable[[Any], Any]) -> None:
    """Raw pickle bytes, and pickles inside valid JSON, are refused and never unpickled."""
    Tripwire.fired = False
    assert pickle.loads(PICKLE) is None and Tripwire.fired  # the payload is live
    Tripwire.fired = False
    with pytest.raises(InvalidOptionError):
        read(PICKLE)
    record = base() if family == "table" else json.loads(rk.Game("gin").new_hand(seed=1, dealer=0).to_json())
    wrapped = base64.b64encode(PICKLE).decode()
    for key in ("game", "deck", "actions", "options", "result"):
        value: Any = {"game": wrapped, "deck": [wrapped], "actions": [wrapped], "options": {"seed": wrapped}}.get(
            key, {"pickle": wrapped}
        )
        with pytest.raises(RummykitError):
            read(json.dumps(dict(record, **{key: value})))
    assert not Tripwire.fired


@pytest.mark.parametrize("family,read", READERS, ids=[r[0] for r in READERS])
def test_python_code_in_a_record_is_rejected_as_data(family: str, read: Callable[[Any], Any]) -> None:
    """Code where a reader expects names, cards or actions is an unknown name, never run."""
    Tripwire.fired = False
    exec(CODE)  # the payload is live
    assert Tripwire.fired
    Tripwire.fired = False
    record = base() if family == "table" else json.loads(rk.Game("gin").new_hand(seed=1, dealer=0).to_json())
    cases = {
        "game": CODE,
        "deck": [CODE, *record["deck"][1:]],
        "actions": [CODE],
        "options": {CODE: 1},
        "dealer": CODE,
        "version": CODE,
    }
    for key, value in cases.items():
        with pytest.raises(RummykitError) as info:
            read(json.dumps(dict(record, **{key: value})))
        assert re.search(r"hand record", str(info.value)), str(info.value)
    with pytest.raises(RummykitError):  # code instead of a record
        read(CODE)
    assert not Tripwire.fired
