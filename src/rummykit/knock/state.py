"""The knock-game state (docs/rules.md, Decision points): deal, upcard offer,
draw, discard or knock, the stock floor, restocks, and the showdown.

The state machine is C (csrc/src/knock_engine.c, rk_position): KnockState
reads and writes its fields as attributes; ``apply_action`` keeps the
position's bytes before the action so that ``undo`` is a copy back and
``clone`` a struct copy sharing them.  tests/reference/knock.py holds the
plain Python state machine that the C one is checked against, step by step.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from typing import TYPE_CHECKING, Any

from rummykit import _core
from rummykit._core import KnockCore
from rummykit.analysis import Arrangement, as_meld
from rummykit.cards import Card, deck_card, from_mask
from rummykit.engine.family import family_record
from rummykit.engine.verbs import CheckedVerbs
from rummykit.errors import InvalidMeldError, check_seat
from rummykit.knock import reasons
from rummykit.knock.actions import (
    KNOCK,
    Action,
    parse_action,
)
from rummykit.knock.showdown import HandResult, declarations, explicit_melds, knock_rejected, knock_result

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from rummykit.knock.game import KnockGame
    from rummykit.knock.observe import KnockObservation
    from rummykit.knock.rules import KnockRules

__all__ = ["PHASES", "KnockState", "KnockVerbs", "Phase", "Showdown"]


class Phase(IntEnum):
    """The decision points of docs/rules.md, Decision points (END: the hand is over)."""

    OFFER_NONDEALER = 0
    OFFER_DEALER = 1
    FORCED_STOCK_DRAW = 2
    DRAW = 3
    DISCARD = 4  # discard or knock
    LAST_CHANCE = 5  # dead_at_2_last_chance: take the discard to knock, or pass
    KNOCK_ONLY = 6  # after taking the last-chance discard
    SHOWDOWN = 7  # auto_showdown=False: each defender declares melds and lay-offs
    END = 8


OFFER_NONDEALER, OFFER_DEALER, FORCED_STOCK_DRAW, DRAW, DISCARD, LAST_CHANCE, KNOCK_ONLY, SHOWDOWN, END = Phase
PHASES = tuple(p.name.lower() for p in Phase)


@dataclass(frozen=True)
class Showdown:
    """A manual showdown in progress (``auto_showdown=False``)."""

    knocker: int
    shown: Arrangement  # what the knocker shows
    table: tuple[int, ...]  # the knocker's melds as the defender to move may extend them
    can_lay_off: bool  # not after gin, nor with allow_layoff_on_knock=False
    big_gin: bool
    used: tuple[int, ...]  # per seat: cards declared (melded or laid off)
    melds: tuple[tuple[int, ...], ...]  # per seat: melds declared
    layoffs: tuple[tuple[tuple[int, int], ...], ...]  # per seat: (knocker meld slot, card) laid off


class KnockVerbs:
    """The knock-only checked verbs (discard, knock) and the action text of a
    knock state (KnockState); ``verify_action`` and ``can_act`` come from the state."""

    __slots__ = ()

    if TYPE_CHECKING:  # what the verbs read

        def verify_action(self, action: int | str | Action) -> int: ...
        def can_act(self, action: int | str | Action) -> bool: ...

    def verify_discard(self, card: int | str) -> None:
        self.verify_action(Action(deck_card(card)))

    def can_discard(self, card: int | str) -> bool:
        return self.can_act(Action(deck_card(card)))

    def verify_knock(self, card: int | str) -> None:
        self.verify_action(Action(KNOCK + deck_card(card)))

    def can_knock(self, card: int | str) -> bool:
        return self.can_act(Action(KNOCK + deck_card(card)))

    # --- action text (the same verbs as TableState) ---------------------------

    def action_text(self, action_id: int) -> str:
        """An action id as text (``parse_action`` reads it back): ``"discard 7H"``."""
        return str(Action.from_id(action_id))

    def parse_action(self, text: str) -> int:
        """The id of action text (:func:`rummykit.knock.actions.parse_action`);
        IllegalActionError if it does not parse.  Legality is not checked."""
        return parse_action(text).id


class KnockState(KnockCore, CheckedVerbs, KnockVerbs):
    """One hand of a knock game.  Create it with ``game.new_hand()``.

    OpenSpiel-style verbs for AI (``legal_actions``, ``apply_action``,
    ``clone``, ``undo``, ``is_terminal``, ``returns``) and checked verbs for
    people (``play("discard 7H")``, ``can_*``/``verify_*``).

    Data for readers: ``hands`` and ``known`` (per seat, card masks; known:
    the cards others saw a seat take from the discard pile and not discard
    since), ``stock`` and ``discards`` (card ids, top last), ``drawn`` (per
    seat, the cards it drew from the stock), ``taken``, ``set_aside``,
    ``knock_card`` (card ids or -1), ``history`` (action ids).  They are
    read-only (:class:`~rummykit.errors.ReadOnlyError`): the state changes
    only through its verbs; ``with_fields(hands=..., stock=...)`` returns a
    copy with fields set (tests and tools build positions that way), checked
    before its next legal-action list.
    """

    __slots__ = ()

    game: KnockGame
    rules: KnockRules

    def __init__(self, game: KnockGame, deck: list[int], dealer: int, shuffle_seed: int) -> None:
        rules = game.rules
        self.game, self.rules, self.n, self.dealer = game, rules, rules.num_players, dealer
        self._deal(game.spec, deck, dealer, shuffle_seed)

    # --- views ----------------------------------------------------------

    @property
    def seats(self) -> tuple[int, ...]:
        """The seats in this hand, in turn order from seat 0 (every seat: nobody sits out a
        knock-game hand)."""
        return tuple(range(self.n))

    @property
    def upcard(self) -> Card:
        """The hand's original upcard (knock limit, ace rule, spade multiplier)."""
        return Card(self._upcard)

    @property
    def limit(self) -> int:
        """The hand's knock limit."""
        return int(self._limits[0])

    @property
    def gin_only(self) -> bool:
        """Only gin may end the hand (an ace upcard with ace_upcard_gin_only)."""
        return bool(self._limits[1])

    @property
    def multiplier(self) -> int:
        """The spade multiplier of the hand's points."""
        return int(self._limits[2])

    @property
    def knock_max(self) -> int:
        """The most deadwood a knock may leave this hand (0 when only gin ends it), from the
        engine's knock limit rule (``knock_limit_mode``, ``knock_compare``, the upcard)."""
        return int(self._limits[3])

    @property
    def _core_rules(self) -> _core.Rules:
        return self.game.core_rules

    # --- the checked verbs' hooks (rummykit.engine.verbs) -----------------

    def _id_of(self, action: int | Action) -> int:
        return action.id if isinstance(action, Action) else Action.from_id(action).id

    def _why_text(self, reason: str, action_id: int, detail: tuple[int, int], seat: int) -> str:
        return reasons.message(self, reason, action_id, detail, seat)

    @property
    def phase_name(self) -> str:
        """The phase as text: ``"draw"``, ``"discard"``, ..."""
        return PHASES[self.phase]

    def hand(self, seat: int) -> list[Card]:
        """The cards ``seat`` holds, sorted."""
        return from_mask(self.hands[check_seat(seat, self.n)])

    def hand_text(self, seat: int) -> str:
        """The cards ``seat`` holds as text, sorted (``"AC 7C 8C TC ..."``)."""
        return " ".join(str(c) for c in self.hand(seat))

    def table_text(self) -> list[str]:
        """The melds on the table as text: none in a knock game (melds are shown at the knock,
        :attr:`showdown`), so an empty list."""
        return []

    @property
    def top_discard(self) -> Card | None:
        discards = self.discards
        return Card(discards[-1]) if discards else None

    @property
    def result(self) -> HandResult | None:
        """How the hand ended and its points (None while it is on)."""
        views = self._views
        if views is not None and "result" in views:
            return views["result"]  # type: ignore[no-any-return]
        raw = self._result_raw()
        result = None if raw is None else knock_result(self, raw)
        if self._views is None:
            self._views = {}
        self._views["result"] = result
        return result

    @property
    def shown_melds(self) -> tuple[int, ...] | None:
        """The knocker's melds when given explicitly (``knock(card, melds)``), else None."""
        _, _, given, shown, _ = self._knock
        return shown if given else None

    @property
    def showdown(self) -> Showdown | None:
        """The manual showdown (``auto_showdown=False``) in progress or over, else None."""
        raw = self._showdown_raw
        if raw is None:
            return None
        table, used, can_lay_off = raw
        knocker, big_gin, _, _, _ = self._knock
        melds, layoffs = declarations(self.history, knocker, self.n)
        return Showdown(knocker, self._shown(), table, can_lay_off, big_gin, used, melds, layoffs)

    def _shown(self) -> Arrangement:
        """The knocker's melds as shown (the manual showdown, or explicit melds)."""
        knocker, _, _, shown, deadwood = self._knock
        aces = self.rules.aces
        rest = self.hands[knocker] & ~sum(shown)
        return Arrangement(tuple(as_meld(m, aces=aces) for m in shown), tuple(from_mask(rest)), deadwood)

    def __repr__(self) -> str:
        return (
            f"<KnockState {self.rules.name} {PHASES[self.phase]} player={self.player} "
            f"stock={len(self.stock)} upcard={self.upcard} actions={len(self.history)}>"
        )

    # --- information for AI (rummykit.knock.observe) -----------------------
    # The readers that take several looks at the state read a copy (0.3 us): another thread's
    # change meanwhile cannot mix two positions (the copy raises RummykitError while one is under way).

    def observation(self, player: int) -> KnockObservation:
        """What ``player`` may know now."""
        seen: KnockObservation = self.game.family_record.observe.observation(self.clone(), player)
        return seen

    def observation_tensor(self, player: int) -> npt.NDArray[np.float32]:
        """``observation(player)`` as a float32 vector (layout: rummykit.knock.observe)."""
        tensor: npt.NDArray[np.float32] = self.game.family_record.observe.observation_tensor(self, player)
        return tensor

    def information_state_string(self, player: int) -> str:
        """Everything ``player`` has seen, with perfect recall, as text."""
        text: str = self.game.family_record.observe.information_state_string(self.clone(), player)
        return text

    def view(self, seat: int | None = None, since: int | None = None) -> dict[str, Any]:
        """What ``seat`` (None: a spectator) may know of the hand as plain JSON data, one
        schema for every game (:mod:`rummykit.engine.views`); ``since``: an action index,
        for the ``events`` since then."""
        from rummykit.engine.views import hand_view

        return hand_view(self, seat, since)

    def determinize(self, player: int, rng: Any = None) -> KnockState:
        """A full state that looks exactly the same to ``player``, the hidden
        cards resampled with ``rng`` (seed or numpy Generator).  It cannot be
        undone past this point."""
        sample: KnockState = self.game.family_record.observe.determinize(self.clone(), player, rng)
        return sample

    # --- hand histories (rummykit.knock.record) ------------------------------

    def to_json(self) -> str:
        """The hand history as JSON; ``rummykit.from_json`` replays it."""
        text: str = self.game.family_record.records.to_json(self)
        return text

    @classmethod
    def from_json(cls, text: str) -> KnockState:
        """Replay a hand history; a malformed or illegal record raises a
        ``RummykitError`` subclass naming the problem."""
        state: KnockState = family_record("knock").records.from_json(text)
        return state

    def knock(self, card: int | str, melds: object = None) -> None:
        """Knock discarding ``card`` and showing explicit ``melds`` (a list of
        melds, or an Arrangement); ``melds=None`` is the automatic choice.
        Checked like :meth:`play`."""
        c = deck_card(card)
        action_id = self.verify_action(Action(KNOCK + c))
        if melds is None:
            self.apply_action(action_id)
            return
        shown = explicit_melds(self.rules, melds)
        try:
            self._knock_melds(int(c), [m.mask for m in shown])
        except (_core.NoKnockError, InvalidMeldError) as e:
            raise knock_rejected(self.rules, self.hands[self.player] & ~c.mask, shown, self._limits, e) from None
