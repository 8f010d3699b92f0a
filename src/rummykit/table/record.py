"""Hand records of the table games: a Rummy or Kaluki hand as JSON text,
and back.

A record holds the game and its options, the deal, the restock seed and
every action as text; ``from_json`` deals the recorded deck and replays each
action through the checked path (``state.play``), so a record of an illegal
hand is rejected.  The deck is card text, top first; the k-th copy of a card
in it is read as deck k's copy (the rules never tell copies apart, so the
replay is the same hand card for card).  Format (version 1), one key per
line::

    {
     "format": "rummykit.hand",
     "version": 1,
     "family": "table",
     "game": "kaluki",
     "options": {"num_players": 3},
     "dealer": 0,
     "deck": ["7H", "Jk", "KS", ...],
     "shuffle_seed": 4230288999919739692,
     "actions": ["draw", "meld 7H 8H 9H", "discard KS"],
     "absent": [1],   (only in a hand with seats out of it: a match's eliminated players)
     "result": {"outcome": "call_off", "winner": 0, "hand_values": [...], "points": [...],
                "penalties": [...], "bonuses": [...]}
    }

``result`` is null for an unfinished hand; for a finished one it is checked
against the replay.  Errors are :class:`~rummykit.errors.RummykitError`
subclasses: InvalidOptionError for a malformed record (not JSON, wrong
format, family, version, keys or types, an unknown game or option, a bad
dealer or seed, a result the replay does not reproduce), InvalidCardError for
a bad deck, IllegalActionError for an action that does not parse or is
illegal (its index is named).  A record longer than ``MAX_RECORD_CHARS``
(2,000,000 characters, or bytes for ``bytes`` input) is refused before it
is parsed; only :mod:`json` reads a record, so it is data, never code
(through :func:`rummykit.engine.records.load`, the reader of every game:
UTF-8, no duplicate keys, no NaN or Infinity, no integer of over 4,300
digits).  Options named ``name``, ``game`` or ``self`` are refused as no
game option (:data:`rummykit.engine.game.RESERVED_OPTION_NAMES`).

>>> from rummykit.table.game import TableGame
>>> state = TableGame("rummy").new_hand(seed=3, dealer=0)
>>> state.play("draw")
>>> copy = from_json(to_json(state))
>>> copy.history == state.history and copy.hands == state.hands
True
"""

from __future__ import annotations

import json
from typing import Any, NoReturn

from rummykit.engine.records import load, play_recorded
from rummykit.errors import InvalidOptionError, RummykitError, clip
from rummykit.table.cards import card_type, type_text
from rummykit.table.state import TableState

__all__ = ["FORMAT", "MAX_RECORD_CHARS", "VERSION", "from_json", "to_json", "to_record"]

FORMAT = "rummykit.hand"
VERSION = 1
#: the longest record read, in characters (bytes for ``bytes`` input)
MAX_RECORD_CHARS = 2_000_000
_KEYS = ("format", "version", "family", "game", "options", "dealer", "deck", "shuffle_seed", "actions", "result")
_RESULT_KEYS = ("outcome", "winner", "hand_values", "points", "penalties", "bonuses")


def _result_dict(state: TableState) -> dict[str, Any] | None:
    r = state.result
    if r is None:
        return None
    return {
        "outcome": r.outcome,
        "winner": r.winner,
        "hand_values": list(r.hand_values),
        "points": list(r.points),
        "penalties": list(r.penalties),
        "bonuses": list(r.bonuses),
    }


def to_record(state: TableState) -> dict[str, Any]:
    """The record of ``state`` as a dict (see the module docstring)."""
    record = {
        "format": FORMAT,
        "version": VERSION,
        "family": "table",
        "game": state.rules.name,
        "options": dict(state.rules.given),
        "dealer": state.dealer,
        "deck": [type_text(card_type(c)) for c in state.deck],
        "shuffle_seed": state.shuffle_seed,
        "actions": [state.action_text(a) for a in state.history],  # table slots keep their rank
        "result": _result_dict(state),
    }
    if state.absent:  # only then: the seats out of the hand (a match's eliminated players)
        record["absent"] = [s for s in range(state.n) if state.absent >> s & 1]
    return record


def to_json(state: TableState) -> str:
    """The record as JSON text, one key per line."""
    record = to_record(state)
    lines = [f" {json.dumps(k)}: {json.dumps(v, separators=(', ', ': '))}" for k, v in record.items()]
    return "{\n" + ",\n".join(lines) + "\n}\n"


def _bad(message: str) -> NoReturn:
    raise InvalidOptionError(f"bad hand record: {message}")


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _same_json(stored: object, expected: object) -> bool:
    """``stored`` (read from JSON) equals ``expected`` value for value and type alike: ``1.0``
    and ``true`` are not ``1`` (as the knock reader refuses them)."""
    if isinstance(expected, (list, tuple)):
        return (
            isinstance(stored, list)
            and len(stored) == len(expected)
            and all(_same_json(a, b) for a, b in zip(stored, expected))
        )
    if isinstance(expected, dict):
        return (
            isinstance(stored, dict)
            and stored.keys() == expected.keys()
            and all(_same_json(stored[k], v) for k, v in expected.items())
        )
    return type(stored) is type(expected) and stored == expected


def from_json(text: str | bytes) -> TableState:
    """Rebuild a state by replaying a record (see the module docstring)."""
    return from_record(load(text, MAX_RECORD_CHARS))


def from_record(record: object) -> TableState:
    """Rebuild a state from a record dict."""
    try:
        return _from_record(record)
    except RummykitError:
        raise
    except (ArithmeticError, LookupError, TypeError, ValueError, RecursionError) as err:
        # a safety net, as in the knock reader: whatever a record holds is a bad record, never a crash
        _bad(f"the engine cannot play it ({type(err).__name__}: {clip(err, 200)})")


def _from_record(record: object) -> TableState:
    from rummykit.table.game import TableGame

    if not isinstance(record, dict):
        _bad("not a JSON object")
    if record.get("format") == FORMAT and record.get("family") != "table":
        _bad(f"family must be 'table', got {record.get('family')!r} (rummykit.from_json reads every game's records)")
    if tuple(sorted(set(record) - {"absent"})) != tuple(sorted(_KEYS)):
        missing = sorted(set(_KEYS) - set(record))
        extra = sorted(set(record) - set(_KEYS) - {"absent"})
        _bad(f"keys: missing {missing}, unknown {extra}")
    if record["format"] != FORMAT or record["family"] != "table":
        _bad(f"format must be {FORMAT!r} and family 'table'")
    if record["version"] != VERSION or not _is_int(record["version"]):
        _bad(f"unknown version {record['version']!r} (this reader knows {VERSION})")
    if not isinstance(record["game"], str) or not isinstance(record["options"], dict):
        _bad("game must be text and options an object")
    if not _is_int(record["dealer"]) or not _is_int(record["shuffle_seed"]) or not 0 <= record["shuffle_seed"] < 2**64:
        _bad("dealer and shuffle_seed must be integers (0 <= shuffle_seed < 2**64)")
    deck, actions = record["deck"], record["actions"]
    if not isinstance(deck, list) or not all(isinstance(c, str) for c in deck):
        _bad("deck must be a list of card text")
    if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
        _bad("actions must be a list of action text")
    try:
        game = TableGame(record["game"], **record["options"])
        absent = record.get("absent", [])
        if not isinstance(absent, list) or not all(_is_int(s) for s in absent):
            _bad("absent must be a list of seats")
        state = game.new_hand(dealer=record["dealer"], deck=deck, absent=absent)
    except RummykitError as err:
        raise type(err)(f"bad hand record: {err}") from None
    state = state.with_fields(shuffle_seed=record["shuffle_seed"])
    play_recorded(state, actions, "bad hand record: ")
    stored = record["result"]
    if stored is not None:
        if not isinstance(stored, dict) or tuple(sorted(stored)) != tuple(sorted(_RESULT_KEYS)):
            _bad(f"result must be null or an object with keys {list(_RESULT_KEYS)}")
        if not _same_json(stored, _result_dict(state)):
            _bad(f"the stored result {stored} is not the replay's {_result_dict(state)}")
    return state
