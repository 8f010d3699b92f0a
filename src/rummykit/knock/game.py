"""A knock game (Gin Rummy, Oklahoma Gin, Oklahoma Rummy): rules plus the
entry points that create hands and score them."""

from __future__ import annotations

import numbers
from collections.abc import Iterable, Sequence
from typing import Any

from rummykit import _core
from rummykit._random import as_generator
from rummykit._rules import core_rules
from rummykit.cards import CardsLike, deck_card, to_mask
from rummykit.engine.game import Game
from rummykit.engine.options import InstanceDoc, options_help
from rummykit.errors import IllegalActionError, InvalidCardError, InvalidOptionError, clip
from rummykit.knock.rules import KnockRules, knock_rules, option_table
from rummykit.knock.showdown import HandResult, score_knock
from rummykit.knock.state import KnockState
from rummykit.knock.variants_doc import VARIANT_DOCS
from rummykit.scoring import settle

__all__ = ["KnockGame"]

#: the help text of each set of rules (built on first use)
_DOCS: dict[KnockRules, str] = {}


def _game_doc(game: KnockGame) -> str:
    """The variant's sources and deviations, then every option with its value here."""
    rules = game.rules
    doc = _DOCS.get(rules)
    if doc is None:
        notes = VARIANT_DOCS[rules.name]
        table = options_help(option_table(rules).values(), indent="    ")
        doc = f"{notes}\n\n    Options (this game's values; ``rummykit.game_options(name)``):\n{table}\n"
        if len(_DOCS) < 256:
            _DOCS[rules] = doc
    return doc


class KnockGame(Game):
    """Gin Rummy, Oklahoma Gin or Oklahoma Rummy with a set of options.

    >>> game = KnockGame("oklahoma-gin")
    >>> state = game.new_hand(seed=1, dealer=0)
    >>> state.current_player, state.phase_name, len(state.stock)
    (1, 'draw', 31)
    """

    family = "knock"

    rules: KnockRules

    def __init__(self, name: str = "gin", **options: Any) -> None:
        self.rules = knock_rules(name, **options)
        self.core_rules = core_rules(self.rules.aces)  # the C core's card rules (ace mode, values)
        self.spec = _core.KnockSpec(self.core_rules, self.rules)  # the rules as the C engine reads them

    @property
    def match_end(self) -> int | None:
        rules = self.rules
        if rules.game_end != "target" or rules.scoring_sheet != "single":
            return None
        if rules.match_mode != "off" or rules.losers_charged:
            return None
        return int(rules.target_score)

    @property
    def hand_analysis(self) -> str:
        return "one_deck"

    def winning_seats(self, winner: int | None) -> tuple[int, ...]:
        """The seats that win with ``winner``: with ``partnerships``, its partner too."""
        if winner is None:
            return ()
        return (winner, (winner + 2) % self.num_players) if self.rules.partnerships else (winner,)

    def new_hand(
        self, seed: Any = None, dealer: int | None = None, deck: Sequence[int | str] | None = None
    ) -> KnockState:
        """Deal a hand.  ``seed`` is an int, a ``numpy.random.Generator`` or
        None (fresh entropy); ``deck`` gives the card order explicitly, top
        first (tests and replays); ``dealer`` defaults to a seeded draw."""
        rng = as_generator(seed)
        n = self.rules.num_players
        if dealer is None:
            dealer = int(rng.integers(n))
        elif not isinstance(dealer, numbers.Integral) or isinstance(dealer, bool) or not 0 <= int(dealer) < n:
            raise InvalidOptionError(f"dealer must be a seat 0..{n - 1}, got {clip(dealer)}")
        dealer = int(dealer)
        if deck is None:
            order = rng.permutation(52).tolist()
        else:
            if isinstance(deck, (str, bytes)) or not isinstance(deck, Iterable) or getattr(deck, "ndim", 1) == 0:
                raise InvalidCardError(f"deck must be a list of 52 cards, got {type(deck).__name__}: {clip(deck)}")
            order = [int(deck_card(c)) for c in deck]
            if len(order) != 52 or len(set(order)) != 52:
                raise InvalidCardError(
                    f"deck must hold each of the 52 cards once, got {len(order)} cards, {len(set(order))} distinct"
                )
        return KnockState(self, order, dealer, int(rng.integers(2**62)))

    def showdown(
        self,
        knocker: CardsLike,
        defenders: Sequence[CardsLike],
        upcard: int | str | None = None,
        knocker_melds: object = None,
    ) -> HandResult:
        """Score a knock directly.  ``knocker`` is the knocker's final cards
        after the knock discard, ``defenders`` the other hands in turn order
        after the knocker, ``upcard`` the hand's original upcard (knock limit,
        ace rule, spade multiplier), in any hand if it was taken.  Lists in
        the result are in that order: ``winner`` 0 is the knocker, i is
        ``defenders[i-1]``.  An illegal knock raises
        :class:`IllegalActionError`."""
        if (
            isinstance(defenders, (str, bytes))
            or getattr(defenders, "ndim", 1) == 0
            or not isinstance(defenders, Iterable)
        ):
            raise InvalidCardError(f"defenders must be a list of hands, got {clip(defenders)}")
        hands = [to_mask(knocker)] + [to_mask(d) for d in defenders]
        if len(hands) != self.rules.num_players:
            raise IllegalActionError(f"{self.rules.name} has {self.rules.num_players} players, got {len(hands)} hands")
        seen = 0
        for h in hands:
            if h & seen:
                raise InvalidCardError("a card is in two hands")
            seen |= h
        # The upcard is often taken, so it may be in any hand: it fixes the
        # limit, the ace rule and the multiplier wherever it is (docs/rules.md, Oklahoma Gin).
        return score_knock(self.rules, hands, None if upcard is None else deck_card(upcard), knocker_melds)

    def settle(self, points: Sequence[int], boxes: Sequence[int]) -> list[int]:
        """The two-player game settlement (docs/rules.md, Two-player settlement) with this game's
        game bonus, box bonus and shutout rule."""
        r = self.rules
        return settle(points, boxes, game_bonus=r.game_bonus, box_bonus=r.box_bonus, shutout_rule=r.shutout_rule)


#: ``help(game)``: this variant's sources and deviations and its options with their values here
KnockGame.__doc__ = InstanceDoc(KnockGame.__doc__, _game_doc)  # type: ignore[assignment]
