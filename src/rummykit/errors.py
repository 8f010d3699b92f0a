"""Exceptions raised by rummykit.  All are ``ValueError`` subclasses."""

from __future__ import annotations

__all__ = [
    "IllegalActionError",
    "InvalidCardError",
    "InvalidMeldError",
    "InvalidOptionError",
    "RummykitError",
]


class RummykitError(ValueError):
    """Base class of every error rummykit raises for bad input."""


class InvalidCardError(RummykitError):
    """Malformed card text, a duplicate card, or a mask bit outside the deck."""


class InvalidMeldError(RummykitError):
    """Cards that do not form a valid set or run, or melds that overlap."""


class InvalidOptionError(RummykitError):
    """An unknown option, a bad option value or an impossible combination."""


class IllegalActionError(RummykitError):
    """An action the rules do not allow in this position."""


def check_seat(seat: object, n: int) -> int:
    """``seat`` if it is a seat 0..n-1 (an int, not a bool); else :class:`InvalidOptionError`."""
    if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < n:
        return seat
    raise InvalidOptionError(f"seat must be 0..{n - 1}, got {seat!r:.60}")
