"""A table game (traditional Rummy or Kaluki): rules plus the entry points
that create hands and value melds and hands.

>>> game = TableGame("kaluki")
>>> game.meld_value("QS KS Jk=AS"), game.card_penalty("KS 7D Jk")
(31, 32)
>>> state = TableGame("rummy", num_players=4).new_hand(seed=1, dealer=0)
>>> state.current_player, state.phase_name, len(state.stock)
(1, 'draw', 23)
"""

from __future__ import annotations

import numbers
from collections.abc import Iterable, Sequence
from typing import Any

from rummykit._random import as_generator
from rummykit.engine.game import Game
from rummykit.engine.options import InstanceDoc, options_help
from rummykit.errors import InvalidCardError, InvalidMeldError, InvalidOptionError, clip
from rummykit.table.cards import FIRST_JOKER, JOKER, parse_type, parse_types
from rummykit.table.melds import geometry, parse_meld
from rummykit.table.rules import TableRules, option_table, table_rules
from rummykit.table.state import TableState, table_spec

__all__ = ["TableGame"]


class TableGame(Game):
    """Traditional Rummy (2-6 players, one deck; docs/rules.md, Rummy) or Kaluki (2-5
    players, two decks and jokers; Kaluki) with a set of options (Dealing and turn options, Kaluki options,
    Rummy options).  Sources and deviations: docs/rules.md and the state docstring."""

    family = "table"

    rules: TableRules

    def __init__(self, name: str = "rummy", /, **options: Any) -> None:
        self.rules = table_rules(name, **options)
        self.geo = geometry(self.rules)
        #: the C engine's rules record and its memo, shared by the game's hands
        self.spec = table_spec(self.rules, self.geo)

    @property
    def score_kind(self) -> str:
        """``"penalties"`` in Kaluki and in Rummy with ``rummy_scoring="penalty"``, else ``"points"``."""
        return "penalties" if self.rules.is_kaluki or self.rules.rummy_scoring == "penalty" else "points"

    @property
    def match_target(self) -> int:
        return int(self.rules.elimination_threshold if self.rules.is_kaluki else self.rules.target_score)

    @property
    def match_end(self) -> int | None:
        rules = self.rules
        if rules.is_kaluki:
            return int(rules.elimination_threshold) + int(rules.elimination_compare == "gt")
        return int(rules.target_score) if rules.rummy_scoring == "winner_collects" else None

    @property
    def deck_size(self) -> int:
        return int(self.rules.deck_size)

    @property
    def hand_analysis(self) -> str | None:
        return "two_decks" if self.rules.is_kaluki else None

    @property
    def max_meld_jokers(self) -> int:
        """The most jokers a meld may hold (none in Rummy)."""
        return int(self.rules.kaluki_jokers) if self.rules.is_kaluki else 0

    def meld_value(self, meld: str) -> int:
        """The count of one meld (a joker at the card it stands for; the
        Kaluki opening count).  Raises InvalidMeldError if it is not a
        valid meld of this game."""
        if not isinstance(meld, str):
            raise InvalidMeldError(
                f"meld must be card text such as '7H 8H 9H', got {type(meld).__name__}: {clip(meld)}"
            )
        return parse_meld(self.geo, meld, self.max_meld_jokers).value(self.geo)

    def card_penalty(self, cards: str | Sequence[str | int]) -> int:
        """The value of cards left in a hand (a joker at ``joker_penalty``)."""
        types = parse_types(cards)
        if JOKER in types and not self.rules.is_kaluki:
            raise InvalidCardError("Rummy has no jokers")
        return sum(self.geo.values[t] for t in types)

    def new_hand(
        self,
        seed: Any = None,
        dealer: int | None = None,
        deck: Sequence[int | str] | None = None,
        *,
        absent: Iterable[int] = (),
    ) -> TableState:
        """Deal a hand.  ``seed`` is an int, a ``numpy.random.Generator`` or
        None; ``deck`` gives the card order explicitly, top first, as
        physical ids or card text (the k-th copy of a card in the text is
        deck k's, ``Jk`` the next joker); ``dealer`` defaults to a seeded draw.
        ``absent``: seats out of the hand (a match's eliminated players): they are
        dealt nothing and never move, the others keep their seat numbers."""
        rng = as_generator(seed)
        n = self.rules.num_players
        mask = self._absent_mask(absent)
        if dealer is None:
            dealer = int(rng.integers(n))
        elif not isinstance(dealer, numbers.Integral) or isinstance(dealer, bool) or not 0 <= int(dealer) < n:
            raise InvalidOptionError(f"dealer must be a seat 0..{n - 1}, got {clip(dealer)}")
        dealer = int(dealer)
        if mask >> dealer & 1:
            raise InvalidOptionError(f"dealer {dealer} is absent from the hand: the dealer must be a seat in it")
        size = self.rules.deck_size
        order = rng.permutation(size).tolist() if deck is None else self.physical_deck(deck)
        return TableState(self, order, dealer, int(rng.integers(2**62)), mask)

    def _absent_mask(self, absent: Iterable[int]) -> int:
        """The seats ``absent`` as a mask, checked: seats of the game, two at least left."""
        n = self.rules.num_players
        if isinstance(absent, (str, bytes)) or not isinstance(absent, Iterable):
            raise InvalidOptionError(f"absent must be a collection of seats, got {clip(absent)}")
        mask = 0
        for seat in absent:
            if not isinstance(seat, numbers.Integral) or isinstance(seat, bool) or not 0 <= int(seat) < n:
                raise InvalidOptionError(f"absent seats must be seats 0..{n - 1}, got {clip(seat)}")
            mask |= 1 << int(seat)
        if n - mask.bit_count() < 2:
            raise InvalidOptionError(f"a hand needs two seats at least: {n - mask.bit_count()} left")
        return mask

    def physical_deck(self, deck: Sequence[int | str]) -> list[int]:
        """A deck given as physical ids or card text, as physical ids,
        checked to hold every card of the game once."""
        size = self.rules.deck_size
        if isinstance(deck, (str, bytes)) or not isinstance(deck, Iterable) or getattr(deck, "ndim", 1) == 0:
            raise InvalidCardError(
                f"deck must be a list of card ids or card text, got {type(deck).__name__}: {clip(deck)}"
            )
        deck = list(deck)  # read once: an iterator is read again for the message
        order: list[int] = []
        seen: dict[int, int] = {}
        for item in deck:
            if isinstance(item, str):
                t = parse_type(item)
                k = seen.get(t, 0)
                seen[t] = k + 1
                order.append(FIRST_JOKER + k if t == JOKER else t + 52 * k)
            elif isinstance(item, numbers.Integral) and not isinstance(item, bool):
                order.append(int(item))
            else:
                raise InvalidCardError(f"not a card: {clip(item)}")
        if sorted(order) != list(range(size)):
            raise InvalidCardError(
                f"deck must hold each of the {size} cards of {self.name} once: {_deck_problem(deck, order, size)}"
            )
        return order


#: the help text of each set of rules (built on first use)
_DOCS: dict[TableRules, str] = {}
_GAME_NOTES = {
    "rummy": (
        "Traditional Rummy, 2-6 players, one deck (docs/rules.md, Rummy, Dealing and turn options, Rummy options)."
    ),
    "kaluki": (
        "Kaluki (Kalooki), 2-5 players, two decks and jokers (docs/rules.md, Kaluki, Dealing and turn options, Kaluki "
        "options)."
    ),
}


def _game_doc(game: TableGame) -> str:
    """What the game is, then every option with its value here (``help(game)``)."""
    rules = game.rules
    doc = _DOCS.get(rules)
    if doc is None:
        table = options_help(option_table(rules).values(), indent="    ")
        preset = "" if rules.name == rules.game else f"  Preset {rules.name}."
        doc = (
            f"{_GAME_NOTES[rules.game]}{preset}\n\n"
            f"    Options (this game's values; ``rummykit.game_options(name)``):\n{table}\n"
        )
        if len(_DOCS) < 256:
            _DOCS[rules] = doc
    return doc


#: ``help(game)``: the game and its options with their values here
TableGame.__doc__ = InstanceDoc(TableGame.__doc__, _game_doc)  # type: ignore[assignment]


def _deck_problem(deck: Sequence[int | str], order: list[int], size: int) -> str:
    """What is wrong with a deck that is not a permutation: its length, or
    the first card that is there too often (or an id outside the deck)."""
    if len(order) != size:
        return f"got {len(order)} cards"
    seen: set[int] = set()
    for item, physical in zip(deck, order):
        if physical in seen or not 0 <= physical < size:
            return (
                f"{item!r} is there too often"
                if isinstance(item, str)
                else f"card id {clip(item)} repeated or outside 0..{size - 1}"
            )
        seen.add(physical)
    raise AssertionError("a deck of the right length with no repeat is a permutation")
