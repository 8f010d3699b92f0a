"""Generic engine machinery shared by every game family (no game family is
imported here): option declarations, their validation and parsing, and the
:class:`GameState` protocol every hand satisfies."""

from rummykit.engine.options import (
    NO_DEFAULT,
    UNLIMITED,
    Option,
    allowed_text,
    check_value,
    describe,
    options_help,
    parse_assignment,
    parse_value,
    suggest,
    unknown_name_error,
)
from rummykit.engine.protocol import GameState

__all__ = [
    "NO_DEFAULT",
    "GameState",
    "UNLIMITED",
    "Option",
    "allowed_text",
    "check_value",
    "describe",
    "options_help",
    "parse_assignment",
    "parse_value",
    "suggest",
    "unknown_name_error",
]
