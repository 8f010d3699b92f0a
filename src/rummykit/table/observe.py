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
(1386,)
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
:data:`OBSERVATION_TENSOR_SIZE` (1386) entries for both games and every
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
================  =====  =====  ================================================

``seen_others`` holds the cards of another hand the observer can see: its
known cards, and at the end the whole hand.  Absent seats (fewer than six
players) are all zero.

Determinization
---------------

``determinize(state, player, rng)`` samples a full state that ``player``
cannot tell from ``state``, consistent with everything ``player`` has seen
(policy-free: it does not ask what the other seats' choices reveal).  Each
card another seat holds unseen came from one of its *places*: a dealt card,
or a stock draw of a *group* (group 0: the first stock; group ``k``: the
pile that the ``k``-th reshuffle put into the stock; the cards of a
turned-over stock are public).  Walking the public history, each card
another seat plays that is not a known card is given to one of its earlier
places whose group still has an unplaced copy of it (a random one), and at
the end of the hand so are the cards shown; the other places and the stock
take the rest of each group's cards, shuffled.  (One played card at a
time: close to, not exactly, uniform over the consistent deals.)  Two
conditions on the hidden cards are kept: a seat that laid a run with a
joker standing for a card held no such card then (the engine puts jokers
only where the hand lacks the natural card), and another seat to move in
the middle of its turn (an opening under way, a released joker to place, a
taken card to meld) must be able to finish it: samples where it cannot are
drawn again.  So is a sample that runs out of places (with two decks a
played card can have copies in two groups).  After 500 such samples (not
seen in testing) the other seats keep the cards they really hold, drew and
were dealt, and only the stock order is resampled.  Other rules that look
at the hidden cards (e.g. a step may not leave only the taken card) are
not conditioned on, but a discard is never the card taken from the pile
that turn (docs/rules.md, Turn basics), so a discarded copy of it was held unseen.

The new state is built by dealing the rebuilt deck (the deal, the upcard,
the draws from the first stock, then what is left of it) and replaying
the history with ``apply_action``; a reshuffle restock in the past puts
the sampled order of that group into the stock.  So ``player``'s dealt
cards and draws, the table, the discard pile, every public field and the
whole history are kept (the engine may hold other copies of a Kaluki card
than ``state`` does: only types are observed), and ``undo`` works back to
the deal.  ``shuffle_seed`` is drawn afresh from ``rng``: future restocks
are unknown too.  ``to_json()`` writes the rebuilt deck; its replay
(``from_json``) gives the determinized state again when no reshuffle
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

from rummykit._random import Uniforms, as_generator
from rummykit.errors import IllegalActionError, InvalidOptionError, RummykitError, clip
from rummykit.table.actions import DRAW, MELD_RUN, TAKE, id_pattern
from rummykit.table.cards import FIRST_JOKER, JOKER, card_type, type_counts, type_text, types_of
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

_SIZES: tuple[tuple[str, int], ...] = (
    ("current_player", MAX_PLAYERS),
    ("dealer", MAX_PLAYERS),
    ("num_players", MAX_PLAYERS - 1),
    ("game", 2),
    ("phase", len(PHASES)),
    ("hand", NUM_TYPES),
    ("top_discard", NUM_TYPES),
    ("discard_rest", NUM_TYPES),
    ("known_self", NUM_TYPES),
    ("known_others", (MAX_PLAYERS - 1) * NUM_TYPES),
    ("seen_others", (MAX_PLAYERS - 1) * NUM_TYPES),
    ("hand_sizes", MAX_PLAYERS),
    ("stock_size", 1),
    ("restocks", 1),
    ("opened", MAX_PLAYERS),
    ("played", MAX_PLAYERS),
    ("table_sets", NUM_TYPES),
    ("table_runs", NUM_TYPES),
    ("joker_stands_for", NUM_TYPES),
    ("table_owned", MAX_PLAYERS * NUM_TYPES),
    ("taken", NUM_TYPES),
    ("must", NUM_TYPES),
    ("open_value", 1),
    ("pending", 1),
    ("turn_melds", 1),
    ("fresh", 1),
    ("built_other", 1),
    ("initial_meld_min", 1),
    ("turns", 1),
    ("winner", MAX_PLAYERS),
    ("hand_values", MAX_PLAYERS),
)


def _layout() -> list[tuple[str, int, int]]:
    out, start = [], 0
    for name, size in _SIZES:
        out.append((name, start, start + size))
        start += size
    return out


#: The tensor's slices: (name, start, stop), in order, covering it exactly.
OBSERVATION_LAYOUT: list[tuple[str, int, int]] = _layout()
#: The length of every observation tensor (both games, any player count).
OBSERVATION_TENSOR_SIZE: int = OBSERVATION_LAYOUT[-1][2]
_AT = {name: start for name, start, _ in OBSERVATION_LAYOUT}


def observation_tensor_size(num_players: int) -> int:
    """The length of the observation tensor for ``num_players`` seats (the
    same, :data:`OBSERVATION_TENSOR_SIZE`, for 2 to 6)."""
    if not isinstance(num_players, int) or isinstance(num_players, bool) or not 2 <= num_players <= MAX_PLAYERS:
        raise InvalidOptionError(f"num_players must be 2..{MAX_PLAYERS}, got {clip(num_players)}")
    return OBSERVATION_TENSOR_SIZE


def _check_player(state: TableState, player: object) -> int:
    """``player`` as an int if it is a seat of ``state`` (a numpy integer too, not a bool)."""
    if isinstance(player, numbers.Integral) and not isinstance(player, bool) and 0 <= int(player) < state.n:
        return int(player)
    raise InvalidOptionError(f"player must be a seat 0..{state.n - 1}, got {clip(player)}")


# --- the history, step by step ------------------------------------------------


class _Step(NamedTuple):
    """One action: who acted and which cards left and entered their hand.
    ``came`` of a stock draw is hidden from the other seats."""

    seat: int
    action: int
    out: int  # physical cards that left the hand (their types are public)
    came: int  # physical cards that came in (a draw, a take, released jokers)
    pile: tuple[int, ...] | None  # the discard pile a restock just before this draw emptied


def _view(s: TableState) -> tuple[int, tuple[int, ...], tuple[int, ...], int]:
    return s.player, s.hands, s.discards, s.restocks


def _step(
    action: int,
    before: tuple[int, tuple[int, ...], tuple[int, ...], int],
    after_hands: tuple[int, ...],
    after_restocks: int,
) -> _Step:
    seat, hands, discards, restocks = before
    old, new = hands[seat], after_hands[seat]
    return _Step(seat, action, old & ~new, new & ~old, discards if after_restocks > restocks else None)


def _walk(state: TableState) -> list[_Step]:
    """The steps of ``state.history``, read off the undo stack (a state
    without one, e.g. one whose fields were set by hand, is replayed from
    its deck instead)."""
    n = len(state.history)
    s = state.clone()
    steps: list[_Step] = []
    try:
        for i in range(n - 1, -1, -1):
            hands, restocks = s.hands, s.restocks
            s.undo()
            steps.append(_step(state.history[i], _view(s), hands, restocks))
    except IllegalActionError:
        return _walk_forward(state)
    steps.reverse()
    return steps


def _walk_forward(state: TableState) -> list[_Step]:
    s = state.game.new_hand(seed=0, dealer=state.dealer, deck=list(state.deck))
    s.shuffle_seed = state.shuffle_seed
    steps = []
    for action in state.history:
        before = _view(s)
        s.apply_action(action)
        steps.append(_step(action, before, s.hands, s.restocks))
    return steps


def _bit_types(mask: int) -> list[int]:
    """The types of the physical cards in ``mask``, sorted (a few cards:
    faster than ``types_of``)."""
    out = []
    while mask:
        low = mask & -mask
        out.append(card_type(low.bit_length() - 1))
        mask ^= low
    out.sort()  # the order of physical ids is not public
    return out


def _low_type(mask: int) -> int:
    return card_type((mask & -mask).bit_length() - 1)


def _kept_taken(state: TableState, steps: list[_Step]) -> list[int]:
    """Per step: the type of the card its seat took from the pile this turn
    while that card is still held and may not be discarded (docs/rules.md, Turn basics: the
    physical card taken, not its other copy), else -1.  The engine puts the
    taken card on the table before another copy, so it is held until a step
    plays it."""
    out = []
    card = -1
    for st in steps:
        if st.action in (DRAW, TAKE):
            card = _low_card(st.came) if st.action == TAKE and state.rules.forbid_discarding_taken_card else -1
        out.append(card_type(card) if card >= 0 else -1)
        if card >= 0 and st.out >> card & 1:
            card = -1
    return out


def _low_card(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


def _public_step(count: list[int], st: _Step, turned: bool, kept: int = -1) -> list[int]:
    """Update ``count`` (how many cards of each type everyone knows the
    acting seat holds) with its step; ``turned``: the stock was turned over
    (its order is public); ``kept``: the type of a taken card still held
    (:func:`_kept_taken`).  Returns the types it played that were not known
    (a played card of a known type may be the known one, but a discard is
    never the taken card)."""
    if st.action == DRAW:
        if turned and st.came:
            count[_low_type(st.came)] += 1
        return []
    if st.action == TAKE:
        count[_low_type(st.came)] += 1
        return []
    unseen = []
    for t in _bit_types(st.out):
        if count[t] > (t == kept and st.action <= JOKER):
            count[t] -= 1
        else:
            unseen.append(t)
    for t in _bit_types(st.came):  # released jokers
        count[t] += 1
    return unseen


def _known(state: TableState, steps: list[_Step]) -> list[list[int]]:
    """Per seat, per type: how many cards of it everyone knows the seat holds
    (see the module docstring)."""
    known = [[0] * NUM_TYPES for _ in range(state.n)]
    turned = False
    for st, kept in zip(steps, _kept_taken(state, steps)):
        if st.pile is not None:
            turned = state.rules.restock_method == "turn_over"
        _public_step(known[st.seat], st, turned, kept)
    return known


def _expand(counts: Iterable[int]) -> tuple[int, ...]:
    return tuple(t for t, k in enumerate(counts) for _ in range(k))


def _dealt(state: TableState, seat: int) -> list[int]:
    """The physical cards dealt to ``seat``, in deal order."""
    n = state.n
    return [state.deck[i] for i in range((seat - state.dealer - 1) % n, state.rules.hand_size * n, n)]


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


def _seen(state: TableState, player: int, known: list[list[int]], seat: int) -> tuple[int, ...]:
    if seat == player or state.phase == _END:
        return tuple(types_of(state.hands[seat]))
    return _expand(known[seat])


def observation(state: TableState, player: int) -> TableObservation:
    """What seat ``player`` may know now (see the module docstring)."""
    player = _check_player(state, player)
    n = state.n
    known = _known(state, _walk(state))
    over = state.phase == _END
    return TableObservation(
        player=player,
        num_players=n,
        game=state.rules.name,
        current_player=state.current_player,
        phase=PHASES[state.phase],
        dealer=state.dealer,
        hand=tuple(types_of(state.hands[player])),
        melds=_meld_view(state),
        discard_pile=tuple(card_type(c) for c in state.discards),
        known_cards=tuple(_expand(k) for k in known),
        seen_cards=tuple(_seen(state, player, known, q) for q in range(n)),
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


# --- the observation tensor ------------------------------------------------------


def _put_counts(
    out: npt.NDArray[np.float32], start: int, counts: Iterable[int], scale: npt.NDArray[np.float32]
) -> None:
    out[start : start + NUM_TYPES] = np.asarray(list(counts), dtype=np.float32) * scale


def observation_tensor(state: TableState, player: int) -> npt.NDArray[np.float32]:
    """``player``'s observation as a float32 vector of
    :data:`OBSERVATION_TENSOR_SIZE` entries (layout in the module docstring)."""
    player = _check_player(state, player)
    n, rules = state.n, state.rules
    known = _known(state, _walk(state))
    over = state.phase == _END
    copies = 2 if rules.is_kaluki else 1
    scale = np.full(NUM_TYPES, 1.0 / copies, dtype=np.float32)
    scale[JOKER] = 1.0 / rules.kaluki_jokers if rules.is_kaluki else 0.0
    out = np.zeros(OBSERVATION_TENSOR_SIZE, dtype=np.float32)

    def rel(seat: int) -> int:
        return (seat - player) % n

    if not over:
        out[_AT["current_player"] + rel(state.player)] = 1.0
    out[_AT["dealer"] + rel(state.dealer)] = 1.0
    out[_AT["num_players"] + n - 2] = 1.0
    out[_AT["game"] + int(rules.is_kaluki)] = 1.0
    out[_AT["phase"] + int(state.phase)] = 1.0
    _put_counts(out, _AT["hand"], type_counts(state.hands[player]), scale)
    if state.discards:
        top = [0] * NUM_TYPES
        top[card_type(state.discards[-1])] = 1
        _put_counts(out, _AT["top_discard"], top, scale)
        rest = [0] * NUM_TYPES
        for c in state.discards[:-1]:
            rest[card_type(c)] += 1
        _put_counts(out, _AT["discard_rest"], rest, scale)
    _put_counts(out, _AT["known_self"], known[player], scale)
    for r in range(1, n):
        q = (player + r) % n
        _put_counts(out, _AT["known_others"] + (r - 1) * NUM_TYPES, known[q], scale)
        seen = type_counts(state.hands[q]) if over else known[q]
        _put_counts(out, _AT["seen_others"] + (r - 1) * NUM_TYPES, seen, scale)
    for q in range(n):
        out[_AT["hand_sizes"] + rel(q)] = state.hands[q].bit_count() / 16.0
        out[_AT["opened"] + rel(q)] = float(state.opened >> q & 1)
        out[_AT["played"] + rel(q)] = float(state.played >> q & 1)
    out[_AT["stock_size"]] = len(state.stock) / rules.deck_size
    out[_AT["restocks"]] = min(state.restocks, 10) / 10.0
    sets, runs, stands = [0] * NUM_TYPES, [0] * NUM_TYPES, [0] * NUM_TYPES
    owned = [[0] * NUM_TYPES for _ in range(n)]
    for m in state.table:
        zone = sets if m.kind == SET else runs
        for c, t in zip(m.cards, m.represents(state.geo)):
            zone[card_type(c)] += 1
            owned[m.owner][card_type(c)] += 1
            if c >= FIRST_JOKER:
                stands[t] += 1
    _put_counts(out, _AT["table_sets"], sets, scale)
    _put_counts(out, _AT["table_runs"], runs, scale)
    _put_counts(out, _AT["joker_stands_for"], stands, scale)
    for q in range(n):
        _put_counts(out, _AT["table_owned"] + rel(q) * NUM_TYPES, owned[q], scale)
    for name, t in (("taken", state.taken), ("must", state.must)):
        if t >= 0:
            out[_AT[name] + t] = 1.0
    out[_AT["open_value"]] = min(state.open_value, 100) / 100.0
    out[_AT["pending"]] = state.pending / 4.0
    out[_AT["turn_melds"]] = min(state.turn_melds, 10) / 10.0
    out[_AT["fresh"]] = float(state.fresh)
    out[_AT["built_other"]] = float(state.built_other)
    out[_AT["initial_meld_min"]] = rules.initial_meld_min / 100.0 if rules.is_kaluki else 0.0
    out[_AT["turns"]] = min(state.turns, 1000) / 1000.0
    result = state.result
    if over and result is not None:
        if result.winner is not None:
            out[_AT["winner"] + rel(result.winner)] = 1.0
        for q, v in enumerate(result.hand_values):
            out[_AT["hand_values"] + rel(q)] = min(v, 200) / 200.0
    return out


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
        f"upcard {type_text(card_type(state.deck[size * n]))}",
        "dealt " + _types_text(sorted(card_type(c) for c in _dealt(state, player))),
    ]
    turn_over = state.rules.restock_method == "turn_over"
    for st in _walk(state):
        text = state.action_text(st.action)
        if st.action == TAKE or (st.action == DRAW and st.came and st.seat == player):
            text += " " + type_text(_low_type(st.came))
        if st.pile is not None:
            moved = len(st.pile) if turn_over else len(st.pile) - 1
            text = f"restock {moved}{' turned over' if turn_over else ''}; {st.seat}: {text}"
        else:
            text = f"{st.seat}: {text}"
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


class _Plan(NamedTuple):
    """A sampled world: the types dealt to each seat (deal order), the type
    of each stock draw (by history index), the stock left, top first, and
    the types each seat holds now."""

    dealt: list[list[int]]
    drawn: dict[int, int]
    stock: list[int]
    held: list[list[int]]


#: how many samples determinize draws before it keeps the other seats' real places
_MAX_TRIES = 500


class _Places:
    """The places (dealt cards and stock draws) of the other seats' unseen
    cards, filled as the public history shows what they held.  A run laid
    with a joker standing for a card says its owner held no such card then
    (the engine puts jokers only where the hand lacks the natural card):
    ``banned`` keeps (time, type) per seat."""

    def __init__(self, draw: Uniforms) -> None:
        self.draw = draw
        self.seat: list[int] = []
        self.time: list[int] = []
        self.group: list[int] = []
        self.card: list[int] = []
        self.open: dict[int, list[int]] = {}
        self.banned: dict[int, list[tuple[int, int]]] = {}

    def add(self, seat: int, time: int, group: int) -> int:
        self.seat.append(seat)
        self.time.append(time)
        self.group.append(group)
        self.card.append(-1)
        self.open.setdefault(seat, []).append(len(self.card) - 1)
        return len(self.card) - 1

    def allowed(self, i: int, t: int, until: int) -> bool:
        """Whether place ``i`` may hold type ``t`` from its time to ``until``."""
        return not any(x == t and self.time[i] < when < until for when, x in self.banned.get(self.seat[i], ()))

    def fill(self, seat: int, t: int, time: int, pools: list[list[int]]) -> bool:
        """Put type ``t`` in an open place of ``seat`` from before ``time``
        whose group still has a copy of it; False if there is none."""
        free = self.open.get(seat, [])
        fits = [i for i in free if self.time[i] < time and pools[self.group[i]][t] > 0 and self.allowed(i, t, time)]
        if not fits:
            return False
        i = fits[self.draw.below(len(fits))]
        self.card[i] = t
        pools[self.group[i]][t] -= 1
        free.remove(i)
        return True

    def fill_rest(self, group: int, pool: list[int], stock_size: int) -> list[int] | None:
        """Deal the cards of ``pool`` to the open places of ``group`` at
        random, the rest to the stock (returned, top first); None if some
        place can take none of the cards left."""
        cards = self.draw.shuffled(_expand(pool))
        free = [i for i, c in enumerate(self.card) if c < 0 and self.group[i] == group]
        if len(cards) != len(free) + stock_size:
            raise RummykitError(
                f"inconsistent state: {len(cards)} hidden cards of group {group}, places for {len(free) + stock_size}"
            )
        never = 1 << 62
        for i in self.draw.shuffled(free):
            j = next((j for j, t in enumerate(cards) if self.allowed(i, t, never)), -1)
            if j < 0:
                return None
            self.card[i] = cards.pop(j)
            self.open[self.seat[i]].remove(i)
        return cards


def _sample(state: TableState, player: int, steps: list[_Step], draw: Uniforms) -> _Plan | None:
    """A world ``player`` cannot tell from ``state`` (None: this sample ran
    out of places for a played card; see the module docstring)."""
    rules, n, size = state.rules, state.n, state.rules.hand_size
    full = [2 if rules.is_kaluki else 1] * 52 + [rules.kaluki_jokers if rules.is_kaluki else 0]
    turn_over = rules.restock_method == "turn_over"
    # each group's cards less those player holds or drew (known from the start: they pin copies)
    pools = [list(full)]
    pools[0][card_type(state.deck[size * n])] -= 1
    for c in _dealt(state, player):
        pools[0][card_type(c)] -= 1
    restocked = False
    for st in steps:
        if st.pile is not None:
            restocked = True
            if not turn_over:
                pools.append([0] * NUM_TYPES)
                for c in st.pile[:-1]:
                    pools[-1][card_type(c)] += 1
        if st.action == DRAW and st.seat == player and st.came and not (turn_over and restocked):
            pools[-1][_low_type(st.came)] -= 1
    places = _Places(draw)
    dealt = {q: [places.add(q, -1, 0) for _ in range(size)] for q in range(n) if q != player}
    drawn: dict[int, int] = {}  # history index -> type (fixed) or ~place
    known = [[0] * NUM_TYPES for _ in range(n)]
    group, turned = 0, False
    for time, (st, kept) in enumerate(zip(steps, _kept_taken(state, steps))):
        q = st.seat
        if st.pile is not None:
            turned = turn_over
            group += not turn_over
        unseen = _public_step(known[q], st, turned, kept)
        if st.action == DRAW:
            if st.came:
                drawn[time] = _low_type(st.came) if turned or q == player else ~places.add(q, time, group)
        elif q != player:
            if st.action >= MELD_RUN:
                pattern = id_pattern(st.action)
                places.banned.setdefault(q, []).extend(
                    (time, x) for t, x in zip(pattern.types(state.geo), pattern.represents(state.geo)) if t == JOKER
                )
            for t in unseen:
                if not places.fill(q, t, time, pools):
                    return None
    if state.phase == _END:  # every hand is shown
        for q in dealt:
            shown = type_counts(state.hands[q])
            for t in _expand(max(0, a - b) for a, b in zip(shown, known[q])):
                if not places.fill(q, t, len(steps), pools):
                    return None
    # the open places and the stock take the rest of each group's cards
    holding = {q: list(free) for q, free in places.open.items()}
    stock = [card_type(c) for c in reversed(state.stock)]
    for g, pool in enumerate(pools):
        rest = places.fill_rest(g, pool, len(stock) if g == group and not turned else 0)
        if rest is None:
            return None
        if g == group and not turned:
            stock = rest
    held = [list(_expand(k)) for k in known]
    for q, free in holding.items():
        held[q].extend(places.card[i] for i in free)
    hands = [
        [card_type(c) for c in _dealt(state, q)] if q == player else draw.shuffled(places.card[i] for i in dealt[q])
        for q in range(n)
    ]
    return _Plan(hands, {time: places.card[~d] if d < 0 else d for time, d in drawn.items()}, stock, held)


def _real(state: TableState, steps: list[_Step], draw: Uniforms) -> _Plan:
    """The world as it is, the stock order resampled (the last resort)."""
    hands = [[card_type(c) for c in _dealt(state, q)] for q in range(state.n)]
    drawn = {time: _low_type(st.came) for time, st in enumerate(steps) if st.action == DRAW and st.came}
    stock = [card_type(c) for c in reversed(state.stock)]
    if state.rules.restock_method != "turn_over" or not state.restocks:
        stock = draw.shuffled(stock)
    return _Plan(hands, drawn, stock, [types_of(h) for h in state.hands])


def _can_act(state: TableState, seat: int, types: list[int]) -> bool:
    """Whether ``seat``, to move, would have a legal action holding ``types``:
    a copy of the state where it holds copies of those types taken from the
    hands and the stock (its own first), the cards it gives up put in the
    stock, so that every card is still in one place."""
    trial = state.clone()
    hands = list(trial.hands)
    stock = trial.stock
    loose = sum(hands) | _to_mask(stock)  # hands are disjoint, so the sum is their union
    new = 0
    for t in types:
        copies = range(FIRST_JOKER, state.rules.deck_size) if t == JOKER else (t, t + 52)
        free = [c for c in copies if loose >> c & 1 and not new >> c & 1]
        if not free:
            return False  # not a sample of this state's unseen cards
        new |= 1 << min(free, key=lambda c: (not hands[seat] >> c & 1, c))
    given_up = hands[seat] & ~new
    hands = [h & ~new for h in hands]
    hands[seat] = new
    trial.hands = tuple(hands)
    trial.known = tuple(k & h for k, h in zip(trial.known, hands))
    trial.stock = tuple(c for c in stock if not new >> c & 1) + tuple(_bit_cards(given_up))
    return bool(trial.legal_actions())


def _bit_cards(mask: int) -> list[int]:
    return [c for c in range(mask.bit_length()) if mask >> c & 1]


def _to_mask(cards: Iterable[int]) -> int:
    mask = 0
    for c in cards:
        mask |= 1 << c
    return mask


def _physical(types: list[int]) -> list[int]:
    """Physical ids for a deck of types (the k-th copy of a type is deck k's)."""
    seen = [0] * NUM_TYPES
    out = []
    for t in types:
        k = seen[t]
        seen[t] += 1
        out.append(FIRST_JOKER + k if t == JOKER else t + 52 * k)
    return out


def determinize(state: TableState, player: int, rng: object = None) -> TableState:
    """A full state that seat ``player`` cannot tell from ``state``, the
    cards hidden from it resampled with ``rng`` (a numpy ``Generator``, an
    int seed or None); see the module docstring."""
    player = _check_player(state, player)
    gen = as_generator(rng, "rng")
    draw = Uniforms(gen)
    steps = _walk(state)
    # the other seat to move, mid-turn, must be able to finish its turn (an opening under way,
    # a released joker, a taken card that must be melded: conditions on its hidden cards)
    mover = state.player if state.phase_name == "play" and state.player != player else -1
    for _ in range(_MAX_TRIES):
        plan = _sample(state, player, steps, draw)
        if plan is not None and (mover < 0 or _can_act(state, mover, plan.held[mover])):
            break
    else:
        plan = _real(state, steps, draw)
    rules, n, size = state.rules, state.n, state.rules.hand_size
    reshuffles = [time for time, st in enumerate(steps) if st.pile is not None and rules.restock_method != "turn_over"]
    # the draws from each stock, in order: the first stock's go into the deck
    stocks: list[list[int]] = [[]]
    for time, st in enumerate(steps):
        if st.action == DRAW and st.pile is not None:
            stocks.append([])
        if time in plan.drawn:
            stocks[-1].append(plan.drawn[time])
    stocks[-1].extend(plan.stock)
    deck = [plan.dealt[(state.dealer + 1 + i) % n][i // n] for i in range(size * n)]
    deck.append(card_type(state.deck[size * n]))
    deck.extend(stocks[0])
    if len(deck) != rules.deck_size:
        raise RummykitError(f"inconsistent state: the rebuilt deck has {len(deck)} cards, not {rules.deck_size}")
    other = state.game.new_hand(seed=gen, dealer=state.dealer, deck=_physical(deck))
    for time, action in enumerate(state.history):
        if time not in reshuffles:
            other.apply_action(action)
            continue
        # a reshuffle: the sampled order of this group, whatever the new seed would shuffle
        pile: dict[int, list[int]] = {}
        for c in other.discards[:-1]:
            pile.setdefault(card_type(c), []).append(c)
        order = [pile[t].pop() for t in stocks[reshuffles.index(time) + 1]]
        seat = other.player
        hand = other.hands[seat]
        other.apply_action(action)
        other.hands = other.hands[:seat] + (hand | 1 << order[0],) + other.hands[seat + 1 :]
        other.stock = tuple(reversed(order[1:]))
    return other
