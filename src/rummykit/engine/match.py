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

    def _tell_agents(self) -> None:
        """Before a hand: tell each agent with a ``new_hand`` method the match so far
        (:class:`rummykit.agents.MatchInfo`: its seat, the scores, the target, the dealer, the
        last hand's result), so that it can play the game, not only the hand."""
        from rummykit.agents.base import MatchInfo

        rules = self.rules
        target = rules.elimination_threshold if getattr(rules, "is_kaluki", False) else rules.target_score
        scores = tuple(int(x) for x in self.scores)  # type: ignore[attr-defined]
        hands = self.hands  # type: ignore[attr-defined]
        last = hands[-1] if hands else None
        dealer = int(self.dealer)  # type: ignore[attr-defined]
        for seat, agent in enumerate(self.agents):
            hook = getattr(agent, "new_hand", None)
            if callable(hook):
                hook(MatchInfo(seat, scores, target, dealer, len(hands), last))
