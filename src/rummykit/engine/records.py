"""The one JSON reader of hand and match records, for every game: :func:`load`."""

from __future__ import annotations

import json
from typing import Any, NoReturn

from rummykit.errors import InvalidOptionError, RummykitError

__all__ = ["load"]


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
