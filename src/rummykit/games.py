"""``rummykit.Game``: look up a game or preset by name and apply options."""

from __future__ import annotations

from typing import Any

from rummykit.errors import InvalidOptionError
from rummykit.knock.game import KnockGame
from rummykit.knock.rules import ALIASES as KNOCK_ALIASES
from rummykit.table.game import TableGame
from rummykit.table.rules import ALIASES as TABLE_ALIASES

__all__ = ["Game", "game_names"]


def game_names() -> list[str]:
    """Every game, preset and alias name ``Game`` accepts."""
    return sorted(set(KNOCK_ALIASES) | set(TABLE_ALIASES))


def Game(name: str, **options: Any) -> KnockGame | TableGame:
    """The game called ``name`` (any alias or preset) with ``options``: a
    :class:`KnockGame` (Gin, Oklahoma) or a :class:`TableGame` (Rummy,
    Kaluki), both with the same ``new_hand`` / state verbs.

    >>> Game("oklahoma-gin", target_score=150, spade_multiplier=3)
    Game('oklahoma_gin', spade_multiplier=3, target_score=150)
    >>> Game("kalooki", num_players=4)
    Game('kaluki', num_players=4)
    """
    key = name.lower().strip() if isinstance(name, str) else None
    if key in KNOCK_ALIASES:
        return KnockGame(name, **options)
    if key in TABLE_ALIASES:
        return TableGame(name, **options)
    raise InvalidOptionError(f"unknown game {name!r}; known: {', '.join(game_names())}")
