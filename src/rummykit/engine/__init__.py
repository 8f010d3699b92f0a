"""Generic engine machinery shared by every game family (no game family is
imported here): option declarations, their validation and parsing, the
:class:`GameState` protocol every hand satisfies, the :class:`Game` and
:class:`Match` base classes (a family registers its subclasses), and the hand
loop (:func:`play_out`, :func:`play_hand`)."""

from rummykit.engine.game import Game, family_of
from rummykit.engine.hand_loop import play_hand, play_out
from rummykit.engine.match import Match
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
    "UNLIMITED",
    "Game",
    "GameState",
    "Match",
    "Option",
    "allowed_text",
    "check_value",
    "describe",
    "family_of",
    "options_help",
    "parse_assignment",
    "parse_value",
    "play_hand",
    "play_out",
    "suggest",
    "unknown_name_error",
]
