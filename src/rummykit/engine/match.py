"""The base class of every match: ``rummykit.Match``.

``Match(game, agents, seed=..., first_dealer=..., **options)`` plays ``game``
(a :class:`~rummykit.engine.game.Game` or any game name) to its end by that
game's rules, with one agent per seat: an instance of the family's subclass
(``KnockMatch``: Gin and Oklahoma games, boxes, settlements, Hollywood, match
points; ``TableMatch``: Rummy to its target, Kaluki elimination).  Each hand
is played by :func:`rummykit.engine.hand_loop.play_out`.  What every match
has: ``game``, ``rules``, ``agents``, ``play()``, ``play_hand()``,
``is_over``, ``result``, ``scores``.  No game family is imported here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from rummykit.engine.game import Game, family_of
from rummykit.engine.hand_loop import Agent
from rummykit.errors import InvalidOptionError, clip

__all__ = ["Match"]


class Match:
    """A match of any game between agents, one per seat (``Match(game, agents, ...)``
    picks the family's match class; see :mod:`rummykit.engine.match`)."""

    #: the family name of a subclass (``"knock"`` or ``"table"``)
    family: ClassVar[str] = ""
    #: family name -> its Match subclass (the first subclass declaring it)
    families: ClassVar[dict[str, type[Match]]] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if cls.family:
            Match.families.setdefault(cls.family, cls)

    def __new__(cls, game: object = None, agents: Sequence[Agent] = (), *args: Any, **kwargs: Any) -> Match:
        if cls is Match:
            if not isinstance(game, (Game, str)):
                raise InvalidOptionError(f"game must be a game or a game name, got {clip(game)}")
            cls = Match.families[family_of(game)]
        return super().__new__(cls)

    # what every match has (the subclasses set or define them)
    game: Any
    agents: tuple[Agent, ...]

    @property
    def rules(self) -> Any:
        return self.game.rules

    @property
    def seats_in_play(self) -> tuple[int, ...]:
        """The match seats still playing: every seat, unless the game puts players out
        (Kaluki; the hands are then dealt to these seats, in order)."""
        return tuple(range(self.game.num_players))
