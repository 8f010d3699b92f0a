"""Rules parameters for the C core: ace mode and card values, cached."""

from __future__ import annotations

import contextlib
import numbers
from collections.abc import Mapping, Sequence

from rummykit import _core
from rummykit.cards import RANKS
from rummykit.errors import InvalidOptionError, RummykitError, clip

__all__ = ["ACE_MODES", "DEFAULT_VALUES", "Values", "core_rules"]

ACE_MODES = {"low": _core.ACES_LOW, "high": _core.ACES_HIGH, "both": _core.ACES_BOTH}
DEFAULT_VALUES = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10)

#: 13 values indexed by rank (A..K), or a mapping from rank text to value
#: overriding the defaults, e.g. ``{"A": 11}``.
Values = Sequence[int] | Mapping[str, int] | None

#: built rules by key: the ace mode alone for default values
cache: dict[object, _core.Rules] = {}


def core_rules(aces: str = "low", values: Values = None) -> _core.Rules:
    """The C rules object for an ace mode and card values (cached).

    ``values``: 13 ints 1..255 (A..K; a list, a tuple or a 1-d numpy integer array), a
    mapping from rank text to value overriding the defaults, or None for the defaults.
    Anything else raises :class:`InvalidOptionError` naming what is accepted.
    """
    try:  # the hot path: rules already built for these arguments
        return cache[aces if values is None else (aces, _values_key(values))]
    except (KeyError, TypeError):  # not built yet, or values in a form not cached as given
        pass
    if not isinstance(aces, str) or aces not in ACE_MODES:
        raise InvalidOptionError(f"aces must be one of {', '.join(ACE_MODES)}, got {clip(aces)}")
    try:
        normal = _normalise_values(values)
    except RummykitError:
        raise
    except (TypeError, ValueError):  # a sequence or mapping that cannot be read
        raise InvalidOptionError(f"{_VALUES_EXPECTED}, got {clip(values)}") from None
    key = aces if values is None else (aces, normal)
    rules = cache.get(key)
    if rules is None:
        rules = cache[key] = _core.Rules(ACE_MODES[aces], normal)
    if values is not None:
        with contextlib.suppress(TypeError):  # also under the form given, when it is plain
            cache[(aces, _values_key(values))] = rules
    return rules


_VALUES_EXPECTED = "values must be 13 ints 1..255 (A..K) or a mapping from rank text to value"


def _values_key(values: object) -> object:
    """The cache key of values given as plain ints (13 in a list or tuple, or a dict from
    rank text to int); TypeError for any other form, which is then checked in full."""
    if isinstance(values, dict) and len(values) <= len(RANKS):
        pairs = tuple(sorted(values.items()))  # TypeError for keys of mixed types
        if all(type(k) is str and type(v) is int for k, v in pairs):
            return pairs
    elif isinstance(values, (list, tuple)) and len(values) == len(RANKS):
        ints = tuple(values)
        if all(type(v) is int for v in ints):
            return ints
    raise TypeError("not a plain form of values")


def _rank_key(rank: object) -> str | None:
    """The rank letter of a mapping key (``"A"``, ``"10"``/``"T"``, ``"k"``, 2..10), or None."""
    if isinstance(rank, str):
        key = rank.upper()
    elif isinstance(rank, int) and not isinstance(rank, bool) and 2 <= rank <= 10:
        key = str(rank)
    else:
        return None
    key = "T" if key == "10" else key
    return key if key in RANKS else None


def _normalise_values(values: object) -> tuple[int, ...]:
    if values is None:
        return DEFAULT_VALUES
    if getattr(values, "ndim", None) == 1 and getattr(getattr(values, "dtype", None), "kind", "") in ("i", "u"):
        values = values.tolist()  # type: ignore[attr-defined]  # a numpy array of ints
    if isinstance(values, Mapping):
        result: list[object] = list(DEFAULT_VALUES)
        for rank, value in values.items():
            key = _rank_key(rank)
            if key is None:
                raise InvalidOptionError(f"values: unknown rank {clip(rank)} (expected A, 2..10 or T, J, Q, K)")
            result[RANKS.index(key)] = value
    elif isinstance(values, Sequence) and not isinstance(values, str) and len(values) == len(RANKS):
        result = list(values)
    else:
        raise InvalidOptionError(f"{_VALUES_EXPECTED}, got {clip(values)}")
    for rank, value in zip(RANKS, result):
        if not isinstance(value, numbers.Integral) or isinstance(value, bool) or not 1 <= int(value) <= 255:
            raise InvalidOptionError(f"values: {rank} must be an int in 1..255, got {clip(value)}")
    return tuple(int(v) for v in result)  # type: ignore[call-overload]
