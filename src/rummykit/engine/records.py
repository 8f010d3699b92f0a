"""The one JSON reader of hand and match records, for every game (:func:`load`), and
match records: a whole match, saved at any point (between hands or in the middle of
one) as JSON, and resumed.

``match.to_json()`` writes the record; ``rummykit.from_json(text)`` reads it back into a
match that continues exactly as the original would (the same deals, the same scores):
the reader makes the match anew from its game, options and generator, and replays every
hand's actions through the checked path (``state.play``), so a record of an illegal move
is refused.  Format (version 1)::

    {
     "format": "rummykit.match",
     "version": 1,
     "rummykit": "0.1.0",                 the package version that wrote it
     "family": "table",
     "game": "kaluki",
     "options": {"num_players": 3},       the game's options as given
     "match": {},                         the match's own settings (a knock pool)
     "seed": 5,                           the match seed (null: a generator or fresh entropy)
     "first_dealer": 2,
     "rng": {...},                        the match generator's state after the first dealer
     "hands": [{"seed": 123, "actions": ["draw", "meld 7H 8H 9H", ...]}, ...],
     "current": {"seed": 456, "actions": [...]},   the hand in progress, or null
     "scores": [12, 0, 40]                the standing, checked against the replay
    }

Only :func:`json.loads` reads it (through :func:`load`): data, never code.
A malformed record raises :class:`~rummykit.errors.InvalidOptionError`, an illegal action
:class:`~rummykit.errors.IllegalActionError` naming the hand and the action.  No game family
is imported here.

>>> import rummykit as rk
>>> m = rk.Match("rummy", num_players=3, seed=8)
>>> state = m.deal()
>>> state.play("draw")
>>> copy = rk.from_json(m.to_json())
>>> copy.state.history == m.state.history, copy.scores == m.scores
(True, True)
"""

from __future__ import annotations

import json
import numbers
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NoReturn

from rummykit.errors import IllegalActionError, InvalidOptionError, RummykitError, clip

if TYPE_CHECKING:
    from rummykit.engine.match import Match
    from rummykit.engine.protocol import GameState

__all__ = [
    "MATCH_FORMAT",
    "MATCH_VERSION",
    "load",
    "match_from_record",
    "match_to_json",
    "match_to_record",
    "play_recorded",
]


def _bad(message: str) -> NoReturn:
    raise InvalidOptionError(f"hand record: {message}")


def _short(value: object, limit: int = 60) -> str:
    """``repr(value)``, clipped for an error message."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _object_pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            _bad(f"duplicated key {_short(key)}")
        out[key] = value
    return out


def _no_constant(name: str) -> NoReturn:
    _bad(f"{name} is not a number a record may hold")


def load(text: object, limit: int) -> Any:
    """JSON text (str or bytes, at most ``limit`` characters or bytes) as data:
    UTF-8, duplicate keys and NaN/Infinity refused
    (:class:`~rummykit.errors.InvalidOptionError`); the reader
    :func:`rummykit.from_json` uses for every game's records."""
    if isinstance(text, (bytes, bytearray)):
        if len(text) > limit:
            _bad(f"too large: {len(text)} bytes (at most {limit})")
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError as e:
            _bad(f"not UTF-8 text: {e.reason} at byte {e.start}")
    if not isinstance(text, str):
        _bad(f"expected JSON text (str or bytes), got {type(text).__name__}")
    if len(text) > limit:
        _bad(f"too large: {len(text)} characters (at most {limit})")
    try:
        return json.loads(text, object_pairs_hook=_object_pairs, parse_constant=_no_constant)
    except RummykitError:
        raise
    except json.JSONDecodeError as e:
        _bad(f"not JSON: {e.msg} at line {e.lineno} column {e.colno}")
    except (ValueError, RecursionError) as e:  # e.g. an int of too many digits, nesting too deep
        message = str(e)
        _bad(f"not JSON: {message if len(message) <= 500 else message[:497] + '...'}")


MATCH_FORMAT = "rummykit.match"
MATCH_VERSION = 1
_KEYS = (
    "format",
    "version",
    "rummykit",
    "family",
    "game",
    "options",
    "match",
    "seed",
    "first_dealer",
    "rng",
    "hands",
    "current",
    "scores",
)
#: the bit generators a record's ``rng`` may name (numpy's)
_BIT_GENERATORS = ("PCG64", "PCG64DXSM", "Philox", "SFC64", "MT19937")


def _plain(value: Any) -> Any:
    """A generator state as JSON data (numpy arrays and integers as lists and ints)."""
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if hasattr(value, "tolist"):
        return value.tolist()
    return value


def _hand_entry(seed: int, actions: list[str]) -> dict[str, Any]:
    return {"seed": seed, "actions": actions}


def match_to_record(match: Match) -> dict[str, Any]:
    """The record of ``match`` as a dict (see the module docstring)."""
    from rummykit._version import __version__

    state = match.state
    current = None
    if match.in_hand and state is not None:
        current = _hand_entry(match._hand_seed, [state.action_text(a) for a in state.history])
    return {
        "format": MATCH_FORMAT,
        "version": MATCH_VERSION,
        "rummykit": __version__,
        "family": match.family,
        "game": match.rules.name,
        "options": dict(match.rules.given),
        "match": match._match_options(),
        "seed": match.seed,
        "first_dealer": match.first_dealer,
        "rng": _plain(match._rng_start),
        "hands": [_hand_entry(seed, list(actions)) for seed, actions in match._hand_texts],
        "current": current,
        "scores": list(match.scores),
    }


def match_to_json(match: Match) -> str:
    """The record as JSON text, one key per line (a hand per line)."""
    record = match_to_record(match)
    lines = []
    for key, value in record.items():
        if key == "hands" and value:
            hands = ",\n  ".join(json.dumps(h, separators=(", ", ": ")) for h in value)
            lines.append(f' "hands": [\n  {hands}\n ]')
        else:
            lines.append(f" {json.dumps(key)}: {json.dumps(value, separators=(', ', ': '))}")
    return "{\n" + ",\n".join(lines) + "\n}\n"


def _bad_match(message: str) -> NoReturn:
    raise InvalidOptionError(f"bad match record: {message}")


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _generator(data: object) -> Any:
    """The numpy Generator whose state ``data`` is, checked."""
    import numpy as np

    if not isinstance(data, dict) or data.get("bit_generator") not in _BIT_GENERATORS:
        _bad_match(f"rng must be a numpy generator state naming one of {', '.join(_BIT_GENERATORS)}")
    bit_generator = getattr(np.random, data["bit_generator"])()
    try:
        bit_generator.state = data
    except (TypeError, ValueError, KeyError, OverflowError) as err:
        _bad_match(f"rng: not a {data['bit_generator']} state ({clip(err)})")
    return np.random.Generator(bit_generator)


def _hand(entry: object, where: str) -> tuple[int, list[str]]:
    if (
        not isinstance(entry, dict)
        or sorted(entry) != ["actions", "seed"]
        or not _is_int(entry["seed"])
        or not isinstance(entry["actions"], list)
        or not all(isinstance(a, str) for a in entry["actions"])
    ):
        _bad_match(f"{where} must be an object with an int seed and a list of action texts")
    return entry["seed"], entry["actions"]


def _replay(match: Match, entry: object, where: str) -> None:
    """Deal the next hand of ``match`` and play the recorded actions on it."""
    seed, actions = _hand(entry, where)
    if match.is_over:
        _bad_match(f"{where}: the match was over before it")
    state = match.deal()
    if match._hand_seed != seed:
        _bad_match(f"{where}: seed {seed} is not the one the match's generator draws ({match._hand_seed})")
    play_recorded(state, actions, f"bad match record: {where}, ")


def play_recorded(state: GameState, actions: list[str], where: str) -> None:
    """Play a record's action texts on ``state`` in order; an action after the end of the hand,
    or one the state refuses, raises :class:`IllegalActionError` ``"{where}action {i} ({text!r})
    ..."`` (``where`` names the record)."""
    for i, text in enumerate(actions):
        if state.is_terminal():
            raise IllegalActionError(f"{where}action {i} ({text!r}) after the end of the hand")
        try:
            state.play(text)
        except RummykitError as err:
            raise IllegalActionError(f"{where}action {i} ({text!r}): {err}") from err


def match_from_record(record: object, make: Callable[..., Match]) -> Match:
    """The match a record's data describes, made by ``make`` (``rummykit.Match``) and replayed
    (see the module docstring)."""
    if not isinstance(record, dict) or record.get("format") != MATCH_FORMAT:
        _bad_match(f"not a match record (format {MATCH_FORMAT!r})")
    if sorted(record) != sorted(_KEYS):
        _bad_match(f"keys: missing {sorted(set(_KEYS) - set(record))}, unknown {sorted(set(record) - set(_KEYS))}")
    if record["version"] != MATCH_VERSION or not _is_int(record["version"]):
        _bad_match(f"unknown version {clip(record['version'])} (this reader knows {MATCH_VERSION})")
    if not isinstance(record["game"], str) or not isinstance(record["options"], dict):
        _bad_match("game must be text and options an object")
    if not isinstance(record["match"], dict) or not all(isinstance(k, str) for k in record["match"]):
        _bad_match("match must be an object of the match's settings")
    seed, first_dealer = record["seed"], record["first_dealer"]
    if seed is not None and not _is_int(seed):
        _bad_match("seed must be an int or null")
    if not _is_int(first_dealer):
        _bad_match("first_dealer must be a seat")
    hands, current = record["hands"], record["current"]
    if not isinstance(hands, list):
        _bad_match("hands must be a list")
    rng = _generator(record["rng"])
    try:
        match = make(record["game"], first_dealer=first_dealer, **record["options"], **record["match"])
    except RummykitError as err:
        raise type(err)(f"bad match record: {err}") from None
    except TypeError as err:  # a setting the match does not take
        _bad_match(f"match settings: {clip(err)}")
    if match.family != record["family"]:
        _bad_match(f"family {clip(record['family'])} is not the game's ({match.family})")
    match.seed = seed
    match._rng = rng
    match._rng_start = dict(rng.bit_generator.state)
    for number, entry in enumerate(hands, 1):
        _replay(match, entry, f"hand {number}")
        try:
            match.finish_hand()
        except RummykitError:
            _bad_match(f"hand {number} is not finished (only the current hand may be)")
    if current is not None:
        _replay(match, current, "the current hand")
    scores = record["scores"]
    if not isinstance(scores, list) or not all(isinstance(v, numbers.Integral) for v in scores):
        _bad_match("scores must be a list of ints")
    if list(match.scores) != scores:
        _bad_match(f"the stored scores {scores} are not the replay's {list(match.scores)}")
    return match
