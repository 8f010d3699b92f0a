"""The base class of every game: ``rummykit.Game``.

``Game(name, **options)`` makes the game called ``name`` (any game, preset
or alias): an instance of the family's subclass (``KnockGame`` for Gin,
Oklahoma Gin and Oklahoma Rummy; ``TableGame`` for Rummy and Kaluki), so
``isinstance(Game("rummy"), Game)`` holds for every game.  A family
subclass declares ``family = "<name>"``; its family's record
(:mod:`rummykit.engine.family`) names the class, and which family a game
name belongs to is told by the resolver that :mod:`rummykit.games` (the
registry) installs (:func:`set_resolver`).  No game family is imported here.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar

from rummykit.engine.family import Family, family_record
from rummykit.errors import InvalidOptionError

if TYPE_CHECKING:
    from rummykit.engine.protocol import GameState

__all__ = ["RESERVED_OPTION_NAMES", "Game", "family_of", "games_for", "set_resolver"]

#: game name -> family name (``"knock"``, ``"table"``); raises for an unknown name
_resolver: Callable[[object], str] | None = None


#: the canonical game and preset names (``rummykit.game_names(aliases=False)``)
_names: Callable[[], list[str]] | None = None


def set_resolver(resolver: Callable[[object], str], names: Callable[[], list[str]] | None = None) -> None:
    """Install the function that tells the family of a game name (and the one that lists
    the canonical game and preset names)."""
    global _resolver, _names
    _resolver = resolver
    if names is not None:
        _names = names


def games_for(family: str, players: int) -> list[str]:
    """The canonical game and preset names of ``family`` that seat ``players`` (for messages)."""
    fits = []
    for name in _names() if _names is not None else []:
        try:
            made = Game(name, num_players=players)
        except InvalidOptionError:
            continue
        if made.family == family:
            fits.append(name)
    return fits


def family_of(game: object) -> str:
    """The family name (``"knock"``, ``"table"``) of a game or a game name;
    an unknown name raises :class:`~rummykit.errors.InvalidOptionError`."""
    if isinstance(game, Game):
        return game.family
    if _resolver is None:
        raise RuntimeError("no game names: import rummykit (rummykit.games installs them)")
    return _resolver(game)


#: keywords that are never game options: the parameters of the families' constructors and
#: rules builders (``KnockGame(name, **options)``, ``table_rules(game, **options)``)
RESERVED_OPTION_NAMES = frozenset({"name", "game", "self"})


class Game:
    """A game and its options; ``Game(name, **options)`` picks the family's subclass."""

    #: the family name of a subclass (``"knock"`` or ``"table"``; its record names the class)
    family: ClassVar[str] = ""
    #: the facts of the game's family (:class:`~rummykit.engine.family.Family`), set when the
    #: registry registers it
    family_record: ClassVar[Family]

    def __new__(cls, name: object = None, /, **options: Any) -> Game:
        for key in RESERVED_OPTION_NAMES & options.keys():
            # names of the constructors' own parameters (a TypeError from them otherwise): a
            # record's options or a ** mapping may hold them
            raise InvalidOptionError(
                f"{key!r} is not a game option (the game's name is Game's first argument; "
                "rummykit rules GAME lists the options)"
            )
        if cls is Game:
            cls = family_record(family_of(name)).game
        return super().__new__(cls)

    # what every game has (the subclasses define them)
    rules: Any

    @property
    def name(self) -> str:
        """The canonical name of the game or preset (``rules.name``)."""
        return str(self.rules.name)

    @property
    def num_players(self) -> int:
        return int(self.rules.num_players)

    # --- game-level facts (OpenSpiel's game type and sizes), from the family record

    @property
    def num_distinct_actions(self) -> int:
        """The action slots a learner sees: ``num_fixed_actions``."""
        return self.family_record.num_fixed_actions

    @property
    def num_fixed_actions(self) -> int:
        """The fixed action ids, one per move and the same move in every state (686 engine ids
        in the knock games, 8,463 in the table games: :mod:`rummykit.table.fixed`)."""
        return self.family_record.num_fixed_actions

    def fixed_action(self, action_id: int) -> int:
        """The fixed id of an engine action id (the id itself in the knock games)."""
        fixed = self.family_record.fixed_action
        return int(action_id) if fixed is None else fixed(action_id)

    @property
    def observation_layout(self) -> list[tuple[str, int, int]]:
        """The slices ``(name, start, stop)`` of ``state.observation_tensor(player)``."""
        return self.family_record.observation_layout

    @property
    def observation_tensor_size(self) -> int:
        """The length of ``state.observation_tensor(player)`` (any player count)."""
        return self.family_record.observation_tensor_size

    @property
    def outcome_names(self) -> tuple[str, ...]:
        """The values a finished hand's ``result.outcome`` takes in this family."""
        return self.family_record.outcomes

    @property
    def deck_size(self) -> int:
        """The number of physical cards dealt from (52; Kaluki: two decks and jokers)."""
        return 52

    @property
    def score_kind(self) -> str:
        """``"points"`` (scores are points won: higher is better) or ``"penalties"``
        (penalty points taken: lower is better; Kaluki, Rummy with ``rummy_scoring="penalty"``)."""
        return "points"

    @property
    def match_target(self) -> int:
        """The score that ends a match: points to reach (``target_score``), or in a
        ``"penalties"`` game that puts players out, the penalty that does (Kaluki's
        ``elimination_threshold``)."""
        return int(self.rules.target_score)

    @property
    def match_end(self) -> int | None:
        """The score whose reaching ends the match (points won, or in a ``"penalties"`` game
        the penalty taken: a player at or above it has reached the end), where the match ends
        so; None where it ends otherwise (a number of games or hands, boxes, sheets...)."""
        return int(self.rules.target_score)

    @property
    def hand_analysis(self) -> str | None:
        """The hand analysis ``rummykit analyse`` does for this game: ``"one_deck"`` (least
        deadwood of a 52-card hand), ``"two_decks"`` (Kaluki: two decks and jokers) or None."""
        return None

    def winning_seats(self, winner: int | None) -> tuple[int, ...]:
        """The seats that win with ``winner`` (a partnership wins together); () for none."""
        return () if winner is None else (winner,)

    def options(self) -> dict[str, Any]:
        """Every option of this game and its value."""
        options: dict[str, Any] = self.rules.options()
        return options

    def new_hand(self, seed: Any = None, dealer: int | None = None, deck: Any = None) -> GameState:
        """Deal a hand (see the family's ``new_hand``)."""
        raise NotImplementedError

    def __repr__(self) -> str:
        given = "".join(f", {k}={v!r}" for k, v in self.rules.given)
        return f"Game({self.rules.name!r}{given})"
