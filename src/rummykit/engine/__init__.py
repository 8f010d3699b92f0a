"""Generic engine machinery shared by every game family (no game family is
imported here): option declarations, their validation and parsing."""

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

__all__ = [
    "NO_DEFAULT",
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
