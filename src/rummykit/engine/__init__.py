"""Generic engine machinery shared by every game family (no game family is
imported here): option declarations, their validation and parsing, the
:class:`GameState` protocol every hand satisfies, the :class:`Family` record of
each family's facts (the registry, :mod:`rummykit.games`, registers one per
family), the :class:`Game` and :class:`Match` base classes, and the hand loop
(:func:`play_out`, :func:`play_hand`)."""

from rummykit.engine.family import FAMILIES, Family, family_record, state_family
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
    "FAMILIES",
    "NO_DEFAULT",
    "UNLIMITED",
    "Family",
    "Game",
    "GameState",
    "Match",
    "Option",
    "allowed_text",
    "check_value",
    "describe",
    "family_of",
    "family_record",
    "options_help",
    "parse_assignment",
    "parse_value",
    "play_hand",
    "play_out",
    "state_family",
    "suggest",
    "unknown_name_error",
]
