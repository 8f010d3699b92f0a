"""Rules parameters for the C core: ace mode and card values, cached."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from rummykit import _core
from rummykit.cards import RANKS
from rummykit.errors import InvalidOptionError

__all__ = ["ACE_MODES", "DEFAULT_VALUES", "Values", "core_rules"]

ACE_MODES = {"low": _core.ACES_LOW, "high": _core.ACES_HIGH, "both": _core.ACES_BOTH}
DEFAULT_VALUES = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10)

#: 13 values indexed by rank (A..K), or a mapping from rank text to value
#: overriding the defaults, e.g. ``{"A": 11}``.
Values = Sequence[int] | Mapping[str, int] | None

#: built rules by key: the ace mode alone for default values
cache: dict[object, _core.Rules] = {}


def core_rules(aces: str = "low", values: Values = None) -> _core.Rules:
    """The C rules object for an ace mode and card values (cached)."""
    key: object = aces if values is None else (aces, _values_key(values))
    try:
        return cache[key]
    except (KeyError, TypeError):
        pass
    if not isinstance(aces, str) or aces not in ACE_MODES:
        raise InvalidOptionError(f"aces must be one of {sorted(ACE_MODES)}, got {aces!r}")
    rules = _core.Rules(ACE_MODES[aces], _normalise_values(values))
    cache[key] = rules
    return rules


def _values_key(values: Values) -> object:
    if isinstance(values, Mapping):
        return tuple(sorted(values.items()))
    return tuple(values) if values is not None else None


def _normalise_values(values: Values) -> tuple[int, ...]:
    if values is None:
        return DEFAULT_VALUES
    if isinstance(values, Mapping):
        result = list(DEFAULT_VALUES)
        for rank, value in values.items():
            key = "T" if str(rank).upper() == "10" else str(rank).upper()
            if key not in RANKS:
                raise InvalidOptionError(f"values: unknown rank {rank!r}")
            result[RANKS.index(key)] = value
    elif isinstance(values, Sequence) and not isinstance(values, str) and len(values) == 13:
        result = list(values)
    else:
        raise InvalidOptionError(f"values must be 13 ints (A..K) or a rank mapping, got {values!r}")
    for rank, value in zip(RANKS, result):
        if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= 255:
            raise InvalidOptionError(f"values: {rank} must be an int in 1..255, got {value!r}")
    return tuple(result)
