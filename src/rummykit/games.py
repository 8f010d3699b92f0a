"""``rummykit.Game``: look up a game or preset by name and apply options."""

from __future__ import annotations

from typing import Any

from rummykit.errors import InvalidOptionError
from rummykit.knock.game import KnockGame
from rummykit.knock.rules import ALIASES as KNOCK_ALIASES

__all__ = ["Game", "game_names"]


def game_names() -> list[str]:
    """Every game, preset and alias name ``Game`` accepts."""
    return sorted(KNOCK_ALIASES)


def Game(name: str, **options: Any) -> KnockGame:
    """The game called ``name`` (any alias or preset) with ``options``.

    >>> Game("oklahoma-gin", target_score=150, spade_multiplier=3)
    Game('oklahoma_gin', spade_multiplier=3, target_score=150)
    """
    if isinstance(name, str) and name.lower().strip() in KNOCK_ALIASES:
        return KnockGame(name, **options)
    raise InvalidOptionError(f"unknown game {name!r}; known: {', '.join(game_names())}")
