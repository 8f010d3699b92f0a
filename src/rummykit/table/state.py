"""The table-game state machine (docs/rules.md, Decision points: Rummy and Kaluki):
deal, draw (restocks), melds, lay-offs / builds, joker release, the Kaluki
opening, discard, going out, and the hand's result.

One class serves both games; behaviour comes from the rules record.  The
state machine is C (csrc/src/table_*.c, rk_table_state): TableState reads and
writes its fields as attributes; ``apply_action`` keeps the state's bytes
before the action so that ``undo`` is a copy back and ``clone`` a struct
copy sharing them.  tests/reference/table.py holds the plain Python state
machine that the C one is checked against, step by step.

Engine readings (documented choices):

* The taken-discard restriction (docs/rules.md, Turn basics) holds the physical card taken
  from the pile (``taken_card``; ``taken`` is its type), not its other
  copy: ``discard 7H`` with both copies of 7H held discards the other one.
  Actions name card types, so the engine picks the copy: a discard never
  takes the taken card, and a card put on the table is the taken card
  first (a joker standing in for a released one excepted), which leaves
  the player every choice a physical table would.
* A player is never offered a step after which they could not finish the
  turn (docs/rules.md, Turn basics): every play must leave a card they may discard (or an
  empty hand where going out without a discard is allowed).
* Kaluki opening: an unopened player lays the opening as meld steps; while
  it is below ``initial_meld_min`` (or the taken discard is not yet in it)
  only meld steps that can still complete it are offered (an exact
  lookahead on the Kaluki hand kernel rk_multi_best) and no discard.  The player is opened once
  the melds laid this turn reach the minimum.  ``take`` by an unopened
  player is offered only if such an opening exists: together they are the
  atomic ``draw_discard_and_open`` of docs/rules.md, Kaluki.
* ``max_build_per_run_end`` counts per turn, per end, per run (docs/rules.md, D15: ``ends``, cleared at each turn): a
third card at the same end in
  one turn is refused, and allowed again on a later turn; jokers built on
  count, naturals put in for a released joker do not.
* A released joker puts the player in a "place it" state: only joker
  placements follow until it is placed.  A release is offered only if the
  table can take the released jokers as builds (a conservative check).
* ``joker_discard_allowed = False``: a hand of nothing but jokers (and
  perhaps the taken card) may still discard a joker, so that the turn can end.
* ``taken_discard_must_be_melded`` (Rummy): the taken card must be the
  first card played after the draw (in a meld or a lay-off).
* ``restock_method = "block"``: the hand ends (blocked) when a turn ends
  with the stock empty.
* ``hunt_allows_building = False``: a call-off in a turn that built on
  another player's meld is a plain call-off, not a Hunt.
"""

from __future__ import annotations

from enum import IntEnum
from typing import TYPE_CHECKING, Any

from rummykit._core import TABLE_OUTCOMES, TableCore
from rummykit._core import table_observation_tensor as _table_observation_tensor
from rummykit.cards import Card
from rummykit.engine.family import family_record
from rummykit.engine.verbs import CheckedVerbs
from rummykit.errors import IllegalActionError, InvalidOptionError, check_seat, clip
from rummykit.table import reasons
from rummykit.table.actions import MELD_SET, NUM_ACTIONS, RELEASE_RUN, TableAction, action_text, parse_table_action
from rummykit.table.cards import card_type, type_card, type_text, types_of
from rummykit.table.melds import SET, Geometry, TableMeld, table_spec
from rummykit.table.rules import TableRules
from rummykit.table.scoring import OUTCOMES, TableResult

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from rummykit.table.game import TableGame
    from rummykit.table.observe import TableObservation

__all__ = ["OUTCOMES", "PHASES", "TablePhase", "TableState", "table_spec"]


class TablePhase(IntEnum):
    """The decision points (END: the hand is over)."""

    DRAW = 0
    PLAY = 1  # meld, lay off / build, release a joker, discard
    END = 2


PHASES = tuple(p.name.lower() for p in TablePhase)


class TableState(TableCore, CheckedVerbs):
    """One hand of Rummy or Kaluki.  Create it with ``game.new_hand()``.

    OpenSpiel-style verbs for AI (``legal_actions``, ``apply_action``,
    ``clone``, ``undo``, ``is_terminal``, ``returns``) and checked verbs for
    people (``play("meld 7H 8H 9H")``, ``can_act``/``verify_action``).

    Data for readers: ``hands`` (per seat, a mask of physical cards,
    :mod:`rummykit.table.cards`), ``stock`` and ``discards`` (tuples, top
    last), ``table`` (:class:`TableMeld` tuples in the order laid),
    ``known`` (per seat, the cards others saw them take from the discard
    pile and still hold), ``opened`` and ``played`` (seat bit masks: opened
    in Kaluki; has put a card on the table this hand).  They are read-only
    (:class:`~rummykit.errors.ReadOnlyError`): the state changes only through
    its verbs; ``with_fields(hands=..., table=...)`` returns a copy with fields
    set (tests and tools build positions that way), checked before its next
    legal-action list.
    """

    __slots__ = ()

    game: TableGame
    rules: TableRules
    geo: Geometry

    def __init__(self, game: TableGame, deck: list[int], dealer: int, shuffle_seed: int, absent: int = 0) -> None:
        rules = game.rules
        self.game, self.rules, self.geo, self.n, self.dealer = game, rules, game.geo, rules.num_players, dealer
        self._deal(game.spec, deck, dealer, shuffle_seed, absent)

    def _start_turn(self) -> TableState:
        """A copy with the per-turn fields reset (for positions built by hand)."""
        return self.with_fields(
            taken=-1,
            taken_card=-1,
            must=-1,
            open_value=0,
            turn_melds=0,
            ends=(),
            pending=0,
            fresh=not self.played >> self.player & 1,
            built_other=False,
        )

    # --- views ----------------------------------------------------------

    def _view(self, name: str) -> Any:
        views = self._views
        return None if views is None else views.get(name)

    def _keep(self, name: str, value: Any) -> Any:
        if self._views is None:
            self._views = {}
        self._views[name] = value
        return value

    @property
    def table(self) -> tuple[TableMeld, ...]:
        """The table melds (:class:`TableMeld`) in the order laid."""
        table = self._view("table")
        if table is None:
            table = self._keep("table", tuple(TableMeld(*m) for m in self._table_raw()))
        return table  # type: ignore[no-any-return]

    @table.setter
    def table(self, melds: tuple[TableMeld, ...]) -> None:
        if not isinstance(melds, (list, tuple)) or not all(isinstance(m, TableMeld) for m in melds):
            raise InvalidOptionError(f"table must be a list or tuple of TableMeld, got {clip(melds)}")
        self._set_table_raw([(m.kind, m.key, m.start, m.cards, m.owner) for m in melds])

    @property
    def result(self) -> TableResult | None:
        """How the hand ended and its points (None while it is on)."""
        outcome = TABLE_OUTCOMES[self.outcome]
        if outcome is None:
            return None
        result = self._view("result")
        if result is None:
            result = self._keep("result", TableResult(outcome, self.winner, *self._score()))
        return result  # type: ignore[no-any-return]

    @property
    def phase_name(self) -> str:
        return PHASES[self.phase]

    def returns(self) -> list[int]:
        """Each seat's return for the hand (rummykit.table.scoring; 0 until it ends)."""
        result = self.result
        return list(result.returns) if result is not None else [0] * self.n

    def hand(self, seat: int) -> list[Card]:
        """The cards seat holds, sorted: :class:`~rummykit.cards.Card` values (ints, the
        card types: the two copies of a card are equal) and, in Kaluki, the joker
        :data:`~rummykit.table.cards.JOKER_CARD` (a ``Card`` subclass, 52, ``Jk``)."""
        return [type_card(t) for t in types_of(self.hands[check_seat(seat, self.n)])]

    def hand_text(self, seat: int) -> str:
        """The cards ``seat`` holds as text, sorted (``"4C 7C TC 9H 9H Jk"``)."""
        return " ".join(type_text(t) for t in types_of(self.hands[check_seat(seat, self.n)]))

    def table_text(self) -> list[str]:
        """The table melds as text, in slot order (``lay off .. on N`` is slot N)."""
        return [m.text(self.geo) for m in self.table]

    @property
    def top_discard(self) -> Card | None:
        """The top card of the discard pile (a Card, or the joker), None if the pile is empty."""
        discards = self.discards
        return type_card(card_type(discards[-1])) if discards else None

    @property
    def seats(self) -> tuple[int, ...]:
        """The seats in this hand, in turn order from seat 0 (all of them, but the seats
        ``absent`` from it: a match's eliminated players, who hold no cards and never move)."""
        return tuple(s for s in range(self.n) if not self.absent >> s & 1)

    def is_opened(self, seat: int) -> bool:
        return bool(self.opened >> check_seat(seat, self.n) & 1)

    def __repr__(self) -> str:
        return (
            f"<TableState {self.rules.name} {PHASES[self.phase]} player={self.player} "
            f"stock={len(self.stock)} table={len(self.table)} actions={len(self.history)}>"
        )

    # --- information for AI (rummykit.table.observe) -----------------------

    def observation(self, player: int) -> TableObservation:
        """What ``player`` may know now."""
        seen: TableObservation = self.game.family_record.observe.observation(self, player)
        return seen

    def observation_tensor(self, player: int) -> npt.NDArray[np.float32]:
        """``observation(player)`` as a float32 vector (layout: rummykit.table.observe),
        filled in C."""
        return _table_observation_tensor(self, player)

    def information_state_string(self, player: int) -> str:
        """Everything ``player`` has seen, with perfect recall, as text."""
        text: str = self.game.family_record.observe.information_state_string(self, player)
        return text

    def view(self, seat: int | None = None, since: int | None = None) -> dict[str, Any]:
        """What ``seat`` (None: a spectator) may know of the hand as plain JSON data, one
        schema for every game (:mod:`rummykit.engine.views`); ``since``: an action index,
        for the ``events`` since then."""
        from rummykit.engine.views import hand_view

        return hand_view(self, seat, since)

    def determinize(self, player: int, rng: Any = None) -> TableState:
        """A full state that looks exactly the same to ``player``, the hidden
        cards resampled with ``rng`` (seed or numpy Generator); see
        rummykit.table.observe for its history and undo."""
        sample: TableState = self.game.family_record.observe.determinize(self, player, rng)
        return sample

    # --- records ----------------------------------------------------------

    def to_json(self) -> str:
        """The hand history as JSON; ``rummykit.from_json`` replays it."""
        text: str = self.game.family_record.records.to_json(self)
        return text

    @classmethod
    def from_json(cls, text: str | bytes) -> TableState:
        state: TableState = family_record("table").records.from_json(text)
        return state

    # --- action text --------------------------------------------------------

    def action_text(self, action_id: int) -> str:
        """An action id as text (``parse_action`` reads it back in this state)."""
        i = action_id if type(action_id) is int and 0 <= action_id < NUM_ACTIONS else TableAction.from_id(action_id).id
        if not self._is_action(i):
            raise IllegalActionError(f"not an action of {self.rules.name}: {i} (a meld no hand can lay here)")
        rank = 0
        if RELEASE_RUN <= i < MELD_SET:
            slot = TableAction(i).slot
            rank = self.table[slot].key if slot is not None and slot < len(self.table) else 0
        return action_text(i, self.geo, rank)

    def parse_action(self, text: str) -> int:
        """The id of action text in this state (IllegalActionError if it does not parse)."""

        def set_rank(slot: int) -> int | None:
            if slot < len(self.table) and self.table[slot].kind == SET:
                return self.table[slot].key
            return None

        return parse_table_action(text, self.geo, self.game.max_meld_jokers, set_rank)

    # --- the checked verbs' hooks (rummykit.engine.verbs) -----------------

    def _id_of(self, action: int | TableAction) -> int:
        return action.id if isinstance(action, TableAction) else TableAction.from_id(action).id

    def _why_text(self, reason: str, action_id: int, detail: int, seat: int) -> str:
        return reasons.message(self, reason, action_id, detail, seat)
