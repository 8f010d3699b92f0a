"""Exceptions raised by rummykit.  All are ``ValueError`` subclasses."""

from __future__ import annotations

import numbers
import re

__all__ = [
    "AgentError",
    "MAX_MESSAGE",
    "IllegalActionError",
    "InvalidCardError",
    "InvalidMeldError",
    "InvalidOptionError",
    "ReadOnlyError",
    "RummykitError",
    "check_seat",
    "clip",
]

#: the longest error message, a safety net: a longer one keeps its head and its tail.
#: Messages that show an input clip it with :func:`clip` and stay far shorter; the
#: longest legitimate ones list every option of a game (under 1,000 characters).
MAX_MESSAGE = 2000
#: the safety net's other cuts: a word (no spaces) longer than this, such as a huge
#: string or int shown whole, and a quoted string, list, set or dict (``'...'``,
#: ``[...]``, ``{...}``) longer than ``_LONG_GROUP``
_LONG_WORD = 100
_LONG_GROUP = 300
_WORD = re.compile(rf"\S{{{_LONG_WORD + 1},}}")
_GROUP = re.compile(
    rf"[\[{{][^\[\]{{}}]{{{_LONG_GROUP},}}[\]}}]"  # a list, set or dict
    rf"|'[^'\n]{{{_LONG_GROUP},}}'|\"[^\"\n]{{{_LONG_GROUP},}}\""  # a quoted string
)


def clip(value: object, limit: int = 60) -> str:
    """``repr(value)``, cut to ``limit`` characters (``...`` marking a cut), for error
    messages that show the offending input: a million-character string, a 10**5000 int
    (whose ``repr`` Python refuses) or an object with a failing ``repr`` give a short text.

    >>> clip("AS" * 1000, 12)
    "'ASASASAS..."
    >>> clip(10**100), clip(-(10**5000))
    ('<an int of 101 digits>', '<a negative int of about 5001 digits>')
    """
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 3 * limit:
        bits = value.bit_length()
        digits = str(len(str(abs(value)))) if bits < 14_000 else f"about {int(bits * 0.30103) + 1}"
        return f"<{'a negative' if value < 0 else 'an'} int of {digits} digits>"
    if isinstance(value, (str, bytes)) and len(value) > 4 * limit:
        value = value[: 2 * limit]  # repr of a prefix: no pass over a huge input
    try:
        text = repr(value)
    except Exception:  # noqa: BLE001 - a hostile __repr__ must not replace the error being raised
        return f"<{type(value).__name__} object>"
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _short(message: str) -> str:
    """``message`` with every over-long word or bracketed list cut (``...`` marking
    each cut), then cut to :data:`MAX_MESSAGE` keeping its head and its tail."""
    message = _GROUP.sub(lambda m: m[0][:36] + " ... " + m[0][-12:], message)
    message = _WORD.sub(lambda m: m[0][:36] + "..." + m[0][-12:], message)
    if len(message) <= MAX_MESSAGE:
        return message
    tail = MAX_MESSAGE // 4
    return message[: MAX_MESSAGE - tail - 5] + " ... " + message[-tail:]


class RummykitError(ValueError):
    """Base class of every error rummykit raises for bad input.

    A safety net keeps messages short when an input is shown whole: a word longer than
    100 characters (a huge string or int) and a quoted string, list, set or dict longer
    than 300 are cut, and the message to at most :data:`MAX_MESSAGE` characters,
    keeping its head and its tail.
    """

    def __init__(self, *args: object) -> None:
        if args and isinstance(args[0], str) and len(args[0]) > _LONG_WORD:
            args = (_short(args[0]), *args[1:])
        super().__init__(*args)


class InvalidCardError(RummykitError):
    """Malformed card text, a duplicate card, or a mask bit outside the deck."""


class InvalidMeldError(RummykitError):
    """Cards that do not form a valid set or run, or melds that overlap."""


class InvalidOptionError(RummykitError):
    """An unknown option, a bad option value or an impossible combination."""


class IllegalActionError(RummykitError):
    """An action the rules do not allow in this position."""


class ReadOnlyError(RummykitError):
    """A change to a hand's state other than by its verbs: assigning a field (``hands``,
    ``stock``...) or changing ``history`` in place.  ``state.with_fields(...)`` builds a
    changed copy instead."""


def check_seat(seat: object, n: int) -> int:
    """``seat`` as an int if it is a seat 0..n-1 (an int or a numpy integer, not a bool);
    else :class:`InvalidOptionError`."""
    if isinstance(seat, numbers.Integral) and not isinstance(seat, bool) and 0 <= int(seat) < n:
        return int(seat)
    raise InvalidOptionError(f"seat must be 0..{n - 1}, got {clip(seat)}")


class AgentError(RummykitError):
    """An agent failed in a tournament or match: it raised, or its worker process died; the
    message names the agent, its seat and the deal."""
