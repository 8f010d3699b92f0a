"""What one seat may know in Rummy or Kaluki, for search and learning: the
observation, a fixed-length observation tensor, a perfect-recall
information-state string and determinization (resampling the hidden
cards).  The same verbs as :mod:`rummykit.knock.observe`.

>>> import rummykit as rk
>>> state = rk.Game("rummy").new_hand(seed=1, dealer=0)
>>> state.play("draw")
>>> obs = observation(state, 0)
>>> obs.phase, obs.current_player, obs.hand_sizes, obs.stock_size
('play', 1, (10, 11), 30)
>>> observation_tensor(state, 0).shape
(2340,)
>>> print(information_state_string(state, 1))
rummy() seat 1 of 2, dealer 0, upcard JS
dealt 4C 8D JD QD KD 2H 5H 6H TH QH
1: draw 3H
>>> information_state_string(state, 0).splitlines()[-1]
'1: draw'
>>> other = determinize(state, 0, rng=7)
>>> observation(other, 0) == observation(state, 0), other.hands[1] == state.hands[1]
(True, False)

Public and private information
------------------------------

Cards are seen as **types** (:mod:`rummykit.table.cards`: 0-51, 52 a
joker): the two copies of a Kaluki card are the same card for the rules and
for what anyone sees.  (The engine's physical ids are not part of an
observation: which copy it moves depends on the rest of the hand.)

Everyone sees every action (a meld, lay-off, release or discard names its
cards, a take the card it took), the table melds (each joker with the card
it stands for, each meld's owner), the discard pile, the number of cards in
each hand and in the stock, each restock (how many cards went into the
stock) and the opened flags.  A seat also knows its own dealt hand and the
cards it drew.  The cards *known* to be in a hand are those it took from
the discard pile, jokers it released from the table, and (``restock_method
= "turn_over"``, whose stock order everyone can follow) cards it drew from
a turned-over stock, each until it plays a card of that type (a played card
of a known type may be the known one).  Hidden: the other hands apart from
those known cards, the stock order, the other seats' stock draws, the deck
order and ``shuffle_seed`` (future restocks).  At the end of the hand
(phase ``end``) every hand is shown, with the result.

Observation tensor
------------------

``observation_tensor(state, player)`` is a float32 vector of
:data:`OBSERVATION_TENSOR_SIZE` (2340) entries for both games and every
player count (2-6).  Seats are relative to the observer: relative seat
``r`` is seat ``(player + r) % n``.  Card planes have 53 entries, one per
type (52: the jokers); an entry is the number of such cards divided by the
copies the game has (1 in Rummy, 2 in Kaluki; the number of jokers for the
joker entry), so every entry is in [0, 1].  :data:`OBSERVATION_LAYOUT`
lists the same slices.

================  =====  =====  ================================================
name              start  stop   content
================  =====  =====  ================================================
current_player    0      6      one-hot relative seat to act (all 0 at the end)
dealer            6      12     one-hot relative seat of the dealer
num_players       12     17     one-hot: 2, 3, 4, 5 or 6 players
game              17     19     one-hot: Rummy, Kaluki
phase             19     22     one-hot phase (``PHASES`` order)
hand              22     75     own hand
top_discard       75     128    top card of the discard pile (all 0 if empty)
discard_rest      128    181    the rest of the discard pile
known_self        181    234    own cards the others know
known_others      234    499    5 x 53: cards relative seats 1-5 are known to hold
seen_others       499    764    5 x 53: cards of relative seats 1-5 in view
hand_sizes        764    770    cards held by relative seats 0-5, / 16
stock_size        770    771    cards in the stock, / cards in the game
restocks          771    772    restocks so far, min(restocks, 10) / 10
opened            772    778    relative seats that have opened (Rummy: all)
played            778    784    relative seats that have put a card on the table
table_sets        784    837    the cards of the table's sets (jokers at 52)
table_runs        837    890    the cards of the table's runs (jokers at 52)
joker_stands_for  890    943    the cards the table's jokers stand for
table_owned       943    1261   6 x 53: the cards of melds owned by relative seats 0-5
taken             1261   1314   the card taken from the discard pile this turn
must              1314   1367   a card that must go on the table before the discard
open_value        1367   1368   count laid toward the opening this turn, min(v, 100) / 100
pending           1368   1369   released jokers still to place, / 4
turn_melds        1369   1370   melds laid this turn, min(m, 10) / 10
fresh             1370   1371   1 if the mover had put nothing on the table before this turn
built_other       1371   1372   1 if the mover built on another seat's meld this turn
initial_meld_min  1372   1373   Kaluki opening minimum, / 100 (0 in Rummy)
turns             1373   1374   turns so far, min(turns, 1000) / 1000
winner            1374   1380   one-hot relative seat that went out (at the end)
hand_values       1380   1386   value left in each relative seat's hand, min(v, 200) / 200
recent_discards   1386   1704   6 x 53: relative seats 0-5's last 8 discards, by recency
recent_takes      1704   2022   6 x 53: their last 8 cards taken from the discard pile
recent_passes     2022   2340   6 x 53: their last 8 top discards declined
================  =====  =====  ================================================

The three history planes keep the order of the public moves: in the plane
of relative seat ``r``, a type's entry is ``(8 - j) / 8`` if it was the
card of seat ``r``'s ``j``-th newest move of that kind (``j`` = 0 the
newest; the newest if several), 0 if none of its last 8.  A discard names
its card; a take, the card taken; a pass, the top discard declined: a draw
from the stock while there was a discard pile, unless the rules forbade
the take (Kaluki's ``unopened_discard_draw = "forbidden"`` for a seat that
has not opened, the first turn's upcard excepted under
``first_turn_upcard_free``), which everyone can tell.  Whether a hand could
have used the card is not asked: that depends on cards the others do not
see.  The engine keeps these moves in its state (``rk_table_state.recent``).

``seen_others`` holds the cards of another hand the observer can see: its
known cards, and at the end the whole hand.  Absent seats (fewer than six
players) are all zero.

How it is kept
--------------

A state keeps a public step log as it plays (``TableState._steps``, one
entry per action, made in C by ``rk_table_step``, csrc/include/rummykit/table.h:
who acted, the cards it put down, the card it drew or took, each restock,
and how many cards of each type everyone knows each seat holds); ``undo``
takes an entry back, ``clone`` copies the log and an unpickled state
rebuilds it from its undo entries.  The observation, the tensor (filled in
C from the state and the log), the information-state string and the
determinization read the log and the state: none replays the history, so
the tensor costs the same at any point of a hand.
tests/reference/table_observe.py keeps the plain Python version that walks
the history, which these are checked against step by step.

Determinization
---------------

``determinize(state, player, rng)`` samples a full state that ``player``
cannot tell from ``state``, consistent with everything ``player`` has seen
(policy-free: it does not ask what the other seats' choices reveal).  Each
card another seat holds unseen came from one of its *places*: a dealt card,
or a stock draw of a *group* (group 0: the first stock; group ``k``: the
pile that the ``k``-th reshuffle put into the stock; the cards of a
turned-over stock are public).  Going through the public history, each
card another seat plays that is not a known card is given to one of its
earlier places whose group still has an unplaced copy of it (a random one),
and at the end of the hand so are the cards shown; the other places and the
stock take the rest of each group's cards, shuffled.  (One played card at a
time: close to, not exactly, uniform over the consistent deals.)  Two
conditions on the hidden cards are kept: a seat that laid a run with a
joker standing for a card held no such card then (the engine puts jokers
only where the hand lacks the natural card), and another seat to move in
the middle of its turn (an opening under way, a released joker to place, a
taken card to meld) must be able to finish it: samples where it cannot are
drawn again.  So is a sample that runs out of places (with two decks a
played card can have copies in two groups: late in a two-deck hand, with
most cards shown, one sample in several hundred may fit).  After 20,000 such
samples (rare: seen at the end of long Kaluki 4-player hands at 500) the
other seats keep the cards they really hold, drew and were dealt, and only
the stock order is resampled.  Other rules that look
at the hidden cards (e.g. a step may not leave only the taken card) are
not conditioned on, but a discard is never the card taken from the pile
that turn (docs/rules.md, Turn basics), so a discarded copy of it was held
unseen.  (The past actions are replayed on the sampled world without
checking them legal: a world where such a rule would have refused a past
step of another seat is kept.)

All of it is C (``rk_table_world_of``, csrc/src/table_hidden.c), from one
walk of the step log (the places, the played cards and the bans:
``rk_table_hidden_of``, :func:`rummykit.table.playouts.hidden_spec`) and the
sampler :func:`rummykit.playouts` runs (``rk_table_determinize``, with the
same draws).  The sample rebuilds a deck (the deal, the upcard, the draws
from the first stock, then what is left of it) and the history is replayed
on it (``rk_table_replay``); a reshuffle restock in the past puts the
sampled order of that group into the stock; a sample whose replay breaks
down is drawn again.  So ``player``'s dealt cards and draws, the table, the
discard pile, every public field and the whole history are kept (the engine
may hold other copies of a Kaluki card than ``state`` does: only types are
observed), and the new state has a step log of its own (the other seats'
draws are the sampled cards).  ``undo`` works back to the deal: the undo
entries are made when first needed (undo, pickling), by replaying the
world again.  ``shuffle_seed`` is drawn afresh from ``rng``: future
restocks are unknown too.  ``to_json()`` writes the rebuilt deck; its
replay (``from_json``) gives the determinized state again when no reshuffle
restock lies in the past (the restocks of the past are not those the new
seed would make).
"""

from __future__ import annotations

import numbers
from collections.abc import Iterable
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from rummykit import _core
from rummykit._random import as_generator
from rummykit.engine.protocol import tensor_layout
from rummykit.errors import InvalidOptionError, clip
from rummykit.table.actions import DRAW, TAKE
from rummykit.table.cards import JOKER, card_type, type_text, types_of
from rummykit.table.melds import SET
from rummykit.table.scoring import TableResult
from rummykit.table.state import PHASES, TableState

__all__ = [
    "MAX_PLAYERS",
    "NUM_TYPES",
    "OBSERVATION_LAYOUT",
    "OBSERVATION_TENSOR_SIZE",
    "ObservedMeld",
    "TableObservation",
    "determinize",
    "information_state_string",
    "observation",
    "observation_tensor",
    "observation_tensor_size",
]

#: The most seats a table game has (Rummy); the tensor always has room for them.
MAX_PLAYERS = 6
#: Card types: 52 naturals and the joker.
NUM_TYPES = JOKER + 1
_END = PHASES.index("end")
#: a step log entry's bytes (rk_table_step, csrc/include/rummykit/table.h): seat, flags, card drawn or taken, ...
_SEAT, _FLAGS, _CAME, _MOVED = 0, 1, 2, 5
_RESTOCKED = _core.TABLE_STEP_RESTOCK  # flag: a restock came just before this draw
_NO_CARD = _core.TABLE_NO_CARD

#: The slices of the tensor, in order (their starts come from the C encoder, rk_table_obs_starts).
_NAMES = (
    "current_player",
    "dealer",
    "num_players",
    "game",
    "phase",
    "hand",
    "top_discard",
    "discard_rest",
    "known_self",
    "known_others",
    "seen_others",
    "hand_sizes",
    "stock_size",
    "restocks",
    "opened",
    "played",
    "table_sets",
    "table_runs",
    "joker_stands_for",
    "table_owned",
    "taken",
    "must",
    "open_value",
    "pending",
    "turn_melds",
    "fresh",
    "built_other",
    "initial_meld_min",
    "turns",
    "winner",
    "hand_values",
    "recent_discards",
    "recent_takes",
    "recent_passes",
)
_STARTS = _core.TABLE_TENSOR_STARTS

#: The tensor's slices: (name, start, stop), in order, covering it exactly.
OBSERVATION_LAYOUT: list[tuple[str, int, int]] = tensor_layout(_NAMES, _STARTS)
#: The length of every observation tensor (both games, any player count).
OBSERVATION_TENSOR_SIZE: int = _STARTS[-1]
_AT = {name: start for name, start, _ in OBSERVATION_LAYOUT}


def observation_tensor_size(num_players: int) -> int:
    """The length of the observation tensor for ``num_players`` seats (the
    same, :data:`OBSERVATION_TENSOR_SIZE`, for 2 to 6)."""
    if not isinstance(num_players, int) or isinstance(num_players, bool) or not 2 <= num_players <= MAX_PLAYERS:
        raise InvalidOptionError(f"num_players must be 2..{MAX_PLAYERS}, got {clip(num_players)}")
    return OBSERVATION_TENSOR_SIZE


def _check_player(state: TableState, player: object) -> int:
    """``player`` as an int if it is a seat of ``state`` (a numpy integer too, not a bool)."""
    if type(player) is int and 0 <= player < state.n:
        return player
    if isinstance(player, numbers.Integral) and not isinstance(player, bool) and 0 <= int(player) < state.n:
        return int(player)
    raise InvalidOptionError(f"player must be a seat 0..{state.n - 1}, got {clip(player)}")


def _expand(counts: Iterable[int]) -> tuple[int, ...]:
    return tuple(t for t, k in enumerate(counts) for _ in range(k))


def _dealt(state: TableState, seat: int) -> list[int]:
    """The physical cards dealt to ``seat``, in deal order (none to a seat absent from the hand)."""
    order = state.deal_seats
    k = len(order)
    return [] if seat not in order else [state.deck[i] for i in range(order.index(seat), state.rules.hand_size * k, k)]


# --- the observation ---------------------------------------------------------------


class ObservedMeld(NamedTuple):
    """A table meld as everyone sees it: ``cards`` are types (52: a joker),
    ``stands_for`` the card each one stands for, in the meld's order."""

    kind: str  # "set" or "run"
    cards: tuple[int, ...]
    stands_for: tuple[int, ...]
    owner: int
    text: str


@dataclass(frozen=True)
class TableObservation:
    """What seat ``player`` may know now (cards as types, see the module
    docstring).

    ``known_cards[q]`` are the cards seat ``q`` is known to hold (for the
    observer's seat too: what the others know of it); ``seen_cards[q]`` all
    the cards of seat ``q``'s hand in view (the observer's own hand, at the
    end every hand).  ``built_ends`` gives, per table slot, the cards built
    this turn on a run's (low, high) end.  ``taken``, ``must``,
    ``open_value``, ``pending``, ``turn_melds``, ``fresh`` and
    ``built_other`` describe the turn in progress (docs/rules.md, Decision points;
    ``rummykit.table.state``).  ``result`` is set at the end of the hand,
    when ``current_player`` is -4.
    """

    player: int
    num_players: int
    game: str
    current_player: int
    phase: str
    dealer: int
    hand: tuple[int, ...]
    melds: tuple[ObservedMeld, ...]
    discard_pile: tuple[int, ...]  # bottom first, top last
    known_cards: tuple[tuple[int, ...], ...]
    seen_cards: tuple[tuple[int, ...], ...]
    hand_sizes: tuple[int, ...]
    stock_size: int
    restocks: int
    turns: int
    opened: tuple[bool, ...]
    played: tuple[bool, ...]
    taken: int | None
    must: int | None
    open_value: int
    pending: int
    turn_melds: int
    built_ends: tuple[tuple[int, int], ...]
    fresh: bool
    built_other: bool
    initial_meld_min: int | None
    result: TableResult | None = None


def _meld_view(state: TableState) -> tuple[ObservedMeld, ...]:
    geo = state.geo
    return tuple(
        ObservedMeld(
            "set" if m.kind == SET else "run",
            tuple(card_type(c) for c in m.cards),
            tuple(m.represents(geo)),
            m.owner,
            m.text(geo),
        )
        for m in state.table
    )


def observation(state: TableState, player: int) -> TableObservation:
    """What seat ``player`` may know now (see the module docstring)."""
    player = _check_player(state, player)
    n = state.n
    known = tuple(_expand(k) for k in _core.table_known_counts(state))
    over = state.phase == _END
    hands = [tuple(types_of(h)) for h in state.hands]
    return TableObservation(
        player=player,
        num_players=n,
        game=state.rules.name,
        current_player=state.current_player,
        phase=PHASES[state.phase],
        dealer=state.dealer,
        hand=hands[player],
        melds=_meld_view(state),
        discard_pile=tuple(card_type(c) for c in state.discards),
        known_cards=known,
        seen_cards=tuple(hands[q] if q == player or over else known[q] for q in range(n)),
        hand_sizes=tuple(h.bit_count() for h in state.hands),
        stock_size=len(state.stock),
        restocks=state.restocks,
        turns=state.turns,
        opened=tuple(bool(state.opened >> q & 1) for q in range(n)),
        played=tuple(bool(state.played >> q & 1) for q in range(n)),
        taken=state.taken if state.taken >= 0 else None,
        must=state.must if state.must >= 0 else None,
        open_value=state.open_value,
        pending=state.pending,
        turn_melds=state.turn_melds,
        built_ends=tuple((e & 15, e >> 4 & 15) for e in state.ends),
        fresh=state.fresh,
        built_other=state.built_other,
        initial_meld_min=state.rules.initial_meld_min if state.rules.is_kaluki else None,
        result=state.result if over else None,
    )


def observation_tensor(state: TableState, player: int) -> npt.NDArray[np.float32]:
    """``player``'s observation as a float32 vector of
    :data:`OBSERVATION_TENSOR_SIZE` entries (layout in the module docstring),
    filled in C from the state and its step log (``state.observation_tensor``
    is the same call)."""
    return _core.table_observation_tensor(state, player)


# --- information-state string ------------------------------------------------


def _rules_text(state: TableState) -> str:
    given = ", ".join(f"{k}={v!r}" for k, v in state.rules.given)
    return f"{state.rules.name}({given})"


def _types_text(types: Iterable[int]) -> str:
    return " ".join(type_text(t) for t in types) or "-"


def information_state_string(state: TableState, player: int) -> str:
    """Everything seat ``player`` has seen, with perfect recall, as text:
    the rules, the seat, the dealer, the upcard, its dealt hand (in card
    order), then one line per action (``seat: action``; a restock first
    says how many cards went into the stock), its own draws and every take
    naming the card, then, at the end of the hand, every hand and the
    result.  Two states give the same text exactly when ``player`` cannot
    tell them apart."""
    player = _check_player(state, player)
    size, n = state.rules.hand_size, state.n
    lines = [
        f"{_rules_text(state)} seat {player} of {n}, dealer {state.dealer}, "
        f"upcard {type_text(card_type(state.deck[size * len(state.deal_seats)]))}",
        "dealt " + _types_text(sorted(card_type(c) for c in _dealt(state, player))),
    ]
    turned = " turned over" if state.rules.restock_method == "turn_over" else ""
    for action, step in zip(state.history, _core.table_step_log(state)):
        seat, came = step[_SEAT], step[_CAME]
        text = state.action_text(action)
        if action == TAKE or (action == DRAW and came != _NO_CARD and seat == player):
            text += " " + type_text(came)
        if step[_FLAGS] & _RESTOCKED:
            text = f"restock {step[_MOVED]}{turned}; {seat}: {text}"
        else:
            text = f"{seat}: {text}"
        lines.append(text)
    if state.phase == _END:
        lines.append("hands " + " | ".join(_types_text(types_of(h)) for h in state.hands))
        r = state.result
        if r is not None:
            lines.append(
                f"result {r.outcome}, winner {r.winner}, hand values {list(r.hand_values)}, points {list(r.points)}, "
                f"penalties {list(r.penalties)}, bonuses {list(r.bonuses)}"
            )
    return "\n".join(lines)


# --- determinization ---------------------------------------------------------


def determinize(state: TableState, player: int, rng: object = None) -> TableState:
    """A full state that seat ``player`` cannot tell from ``state``, the
    cards hidden from it resampled with ``rng`` (a numpy ``Generator``, an
    int seed or None; the C determinization, rk_table_world_of, draws from a
    generator seeded by it); see the module docstring."""
    player = _check_player(state, player)
    gen = as_generator(rng, "rng")
    other: TableState = _core.table_world(state, player, gen.bit_generator.random_raw())[0]
    return other
