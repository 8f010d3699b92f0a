"""What one seat may know in a knock game, for search and learning: the
observation, a fixed-length observation tensor, a perfect-recall
information-state string and determinization (resampling the hidden cards).

>>> import rummykit as rk
>>> state = rk.Game("gin").new_hand(seed=1, dealer=0)
>>> for action in ("pass", "pass", "draw stock"):
...     state.play(action)
>>> obs = observation(state, 0)
>>> obs.phase, obs.current_player, obs.hand_sizes, obs.stock_size
('discard', 1, (10, 11), 30)
>>> observation_tensor(state, 0).shape
(917,)
>>> print(information_state_string(state, 1))
gin() seat 1 of 2, dealer 0, upcard JS
dealt 4C 8D JD QD KD 2H 5H 6H TH QH
1: pass
0: pass
1: draw stock 3H
>>> information_state_string(state, 0).splitlines()[-1]
'1: draw stock'
>>> other = determinize(state, 0, rng=7)
>>> observation(other, 0) == observation(state, 0), other.hands[1] == state.hands[1]
(True, False)

Public and private information
------------------------------

Everyone sees the upcard, the discard pile, every action (a discard names
its card, a take names the top discard it took), the number of cards in
each hand and in the stock, each restock (how many cards went back into the
stock, and so which ones) and the cards each seat took from the discard pile
and still holds (``KnockState.known``).  A seat also knows its own dealt
hand and the cards it drew from the stock.  Hidden from it: the other hands
apart from those known cards, the stock order, the other seats' stock draws,
the deck order and ``shuffle_seed`` (future restocks).

A knock puts a card face down: only the knocker sees it, until the end of
the hand (the others can still name it when it is a card they saw the
knocker take).  In a manual showdown (``auto_showdown=False``) the knocker's
hand is shown (``KnockState.showdown``) and each defender's declared melds
and lay-offs are public; the defenders' other cards stay hidden.  At the end
of the hand (phase ``end``) every hand is shown, with the knock card and the
result; only the stock order, the deck order, the other seats' draw logs and
``shuffle_seed`` stay hidden.

Observation tensor
------------------

``observation_tensor(state, player)`` is a float32 vector of
:data:`OBSERVATION_TENSOR_SIZE` (917) entries for every variant (2-4
players).  Seats are relative to the observer: relative seat ``r`` is seat
``(player + r) % n``.  Card planes have 52 entries, one per card id
(``suit * 13 + rank``).  :data:`OBSERVATION_LAYOUT` lists the same slices.

==============  =====  =====  ==================================================
name            start  stop   content
==============  =====  =====  ==================================================
current_player  0      4      one-hot relative seat to act (all 0 at the end)
dealer          4      8      one-hot relative seat of the dealer
num_players     8      11     one-hot: 2, 3 or 4 players
phase           11     20     one-hot phase (``PHASES`` order)
hand            20     72     own hand
top_discard     72     124    top card of the discard pile (all 0 if empty)
discard_rest    124    176    the rest of the discard pile
known_self      176    228    own cards the others saw this seat take
known_others    228    384    3 x 52: cards relative seats 1-3 took and hold
seen_others     384    540    3 x 52: all cards of relative seats 1-3 in view
hand_sizes      540    544    cards held by relative seats 0-3, / 11
stock_size      544    545    cards in the stock, / 52
upcard          545    597    the hand's original upcard
knock_limit     597    598    knock limit, / 10
gin_only        598    599    1 if only gin may end the hand
multiplier      599    600    spade multiplier of the hand, / 3
taken           600    652    card taken from the discard pile this turn
set_aside       652    704    refused upcard set aside
restocks        704    705    restocks so far, min(restocks, 10) / 10
knocker         705    709    one-hot relative seat of the knocker (after a knock)
knock_card      709    761    the face-down knock card, when in view
declared_self   761    813    own cards declared in a manual showdown
table           813    865    the knocker's melds as the defender to move may extend them
shown_melds     865    917    the cards of the knocker's shown melds
==============  =====  =====  ==================================================

``seen_others`` holds the cards of another hand the observer can see: its
known cards, in a manual showdown the knocker's whole hand and a defender's
declared cards, and at the end every hand.  Absent seats (fewer than four
players) are all zero.

Determinization
---------------

``determinize(state, player, rng)`` samples a full state that ``player``
cannot tell from ``state``: uniformly among the deals consistent with
everything ``player`` has seen, ignoring what the other seats' choices might
reveal (it is policy-free).  Each hidden card belongs to a *group*: group 0
if it was never seen, group ``k`` if it was last seen going into the stock at
restock ``k``.  Replaying the public history fixes how many hidden cards of
each group every other seat holds (a stock draw adds one of the current
group, letting go of an unseen card removes one of that card's group), and
the stock holds only cards of the latest group; a hidden knock card is one
card of its group.  The cards of each group are shuffled among its places.
When the seat to move is another seat that took the last-chance discard
(phase ``knock_only``), it must be able to knock: samples where it cannot
are drawn again, and if 2,000 samples all fail (such hands can be rare) that
seat keeps the hidden cards it really holds while the rest is resampled.
In a manual showdown the knocker's automatic arrangement
is kept as shown, although the engine chose it looking at the actual
defenders' hands (see ``KnockRules.knocker_arrangement``): a determinization
does not condition on that choice.

The new state keeps ``player``'s hand and draw log, the discard pile, the
known and shown cards, the set-aside card, the counts, phase, current
player, history and the showdown and result.  A knock card hidden from
``player`` is resampled, and the knock action of the history with it.  The
other seats' dealt hands and draw logs are rebuilt to fit the sampled cards
and the public history (each unseen card another seat discarded or knocked
goes to one of its dealt places or an earlier stock draw of the card's
group), and ``deck`` is rebuilt from them: the deal, the upcard, the draws
from the first stock in order, then the stock.  The restocks of the new
state's past are not those its ``shuffle_seed`` would make; that seed is
drawn afresh from ``rng`` (future restocks are unknown too).  The undo stack
is dropped: a determinized state cannot be undone past the point where it
was made.
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass
from itertools import chain
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from rummykit import _core
from rummykit._random import Uniforms, as_generator
from rummykit.analysis import Arrangement
from rummykit.cards import NUM_CARDS, Card, from_mask, ids_mask
from rummykit.engine.protocol import tensor_layout
from rummykit.errors import InvalidOptionError, RummykitError, clip
from rummykit.knock.actions import (
    BIG_GIN,
    DRAW_STOCK,
    KNOCK,
    NUM_ACTIONS,
    TAKE,
    Action,
)
from rummykit.knock.showdown import HandResult
from rummykit.knock.state import (
    END,
    KNOCK_ONLY,
    PHASES,
    SHOWDOWN,
    KnockState,
    Showdown,
)

__all__ = [
    "MAX_PLAYERS",
    "OBSERVATION_LAYOUT",
    "OBSERVATION_TENSOR_SIZE",
    "KnockObservation",
    "determinize",
    "information_state_string",
    "observation",
    "observation_tensor",
    "observation_tensor_size",
]

#: The most seats a knock game has; the tensor always has room for them.
MAX_PLAYERS = 4

#: The slices of the tensor, in order (their starts come from the C encoder, rk_knock_obs_starts).
_NAMES = (
    "current_player",
    "dealer",
    "num_players",
    "phase",
    "hand",
    "top_discard",
    "discard_rest",
    "known_self",
    "known_others",
    "seen_others",
    "hand_sizes",
    "stock_size",
    "upcard",
    "knock_limit",
    "gin_only",
    "multiplier",
    "taken",
    "set_aside",
    "restocks",
    "knocker",
    "knock_card",
    "declared_self",
    "table",
    "shown_melds",
)
_STARTS = _core.KNOCK_TENSOR_STARTS

#: The tensor's slices: (name, start, stop), in order, covering it exactly.
OBSERVATION_LAYOUT: list[tuple[str, int, int]] = tensor_layout(_NAMES, _STARTS)
#: The length of every observation tensor (any variant, any player count).
OBSERVATION_TENSOR_SIZE: int = _STARTS[-1]
_AT = {name: start for name, start, _ in OBSERVATION_LAYOUT}
_DECK = (1 << NUM_CARDS) - 1


def observation_tensor_size(num_players: int) -> int:
    """The length of the observation tensor for ``num_players`` seats (the
    same, :data:`OBSERVATION_TENSOR_SIZE`, for 2, 3 and 4)."""
    if not isinstance(num_players, int) or isinstance(num_players, bool) or not 2 <= num_players <= MAX_PLAYERS:
        raise InvalidOptionError(f"num_players must be 2, 3 or 4, got {clip(num_players)}")
    return OBSERVATION_TENSOR_SIZE


# --- what a seat sees ----------------------------------------------------------


def _check_player(state: KnockState, player: object) -> int:
    """``player`` as an int if it is a seat of ``state`` (a numpy integer too, not a bool)."""
    if isinstance(player, numbers.Integral) and not isinstance(player, bool) and 0 <= int(player) < state.n:
        return int(player)
    raise InvalidOptionError(f"player must be a seat 0..{state.n - 1}, got {clip(player)}")


def _knocker(state: KnockState) -> int:
    """The seat that knocked (or went big gin), -1 if none has."""
    if state.showdown is not None:
        return state.showdown.knocker
    if state.result is not None and state.result.knocker is not None:
        return state.result.knocker
    return -1


def _seen(state: KnockState, player: int, seat: int) -> int:
    """The cards of ``seat``'s hand that ``player`` can see."""
    hand = state.hands[seat]
    if seat == player or state.phase == END:
        return hand
    seen = state.known[seat] & hand
    showdown = state.showdown
    if state.phase == SHOWDOWN and showdown is not None:
        if seat == showdown.knocker:
            return hand
        seen |= showdown.used[seat]
    return seen


def _knock_card_seen(state: KnockState, player: int) -> bool:
    """Whether ``player`` can name the face-down knock card: the knocker can,
    everyone can at the end, and the others when it is a card they saw the
    knocker take (it is then missing from the shown hand)."""
    card = state.knock_card
    if card < 0:
        return False
    return state.phase == END or player == _knocker(state) or bool(state.known[_knocker(state)] >> card & 1)


def _cards(mask: int) -> tuple[Card, ...]:
    return tuple(from_mask(mask))


def _card_or_none(card: int) -> Card | None:
    return Card(card) if card >= 0 else None


@dataclass(frozen=True)
class KnockObservation:
    """What seat ``player`` may know now.

    ``known_cards[q]`` are the cards seat ``q`` took from the discard pile
    and still holds (for the observer's own seat too; its whole hand is in
    ``hand``).  ``seen_cards[q]`` are all the cards of seat ``q``'s hand in
    view: its known cards, the observer's own hand, in a manual showdown
    the knocker's hand and the defenders' declared cards, at the end every
    hand.  ``knock_card`` is the face-down knock card when in view (to the
    knocker, at the end, or when it is a known card); ``showdown`` the
    manual showdown (all public); ``result`` is set at the end of the hand,
    when ``current_player`` is -4.
    """

    player: int
    num_players: int
    current_player: int
    phase: str
    dealer: int
    hand: tuple[Card, ...]
    discard_pile: tuple[Card, ...]  # bottom first, top last
    known_cards: tuple[tuple[Card, ...], ...]
    seen_cards: tuple[tuple[Card, ...], ...]
    hand_sizes: tuple[int, ...]
    stock_size: int
    upcard: Card
    knock_limit: int
    gin_only: bool
    multiplier: int
    taken: Card | None
    set_aside: Card | None
    restocks: int
    turns: int
    knocker: int | None = None
    knock_card: Card | None = None
    showdown: Showdown | None = None
    result: HandResult | None = None


def observation(state: KnockState, player: int) -> KnockObservation:
    """What seat ``player`` may know now (see the module docstring)."""
    player = _check_player(state, player)
    n = state.n
    knocker = _knocker(state)
    return KnockObservation(
        player=player,
        num_players=n,
        current_player=state.current_player,
        phase=PHASES[state.phase],
        dealer=state.dealer,
        hand=_cards(state.hands[player]),
        discard_pile=tuple(Card(c) for c in state.discards),
        known_cards=tuple(_cards(k & h) for k, h in zip(state.known, state.hands)),
        seen_cards=tuple(_cards(_seen(state, player, q)) for q in range(n)),
        hand_sizes=tuple(h.bit_count() for h in state.hands),
        stock_size=len(state.stock),
        upcard=state.upcard,
        knock_limit=state.limit,
        gin_only=state.gin_only,
        multiplier=state.multiplier,
        taken=_card_or_none(state.taken),
        set_aside=_card_or_none(state.set_aside),
        restocks=state.restocks,
        turns=state.turns,
        knocker=knocker if knocker >= 0 else None,
        knock_card=Card(state.knock_card) if _knock_card_seen(state, player) else None,
        showdown=state.showdown,
        result=state.result if state.phase == END else None,
    )


# --- the observation tensor ------------------------------------------------------


def _plane(out: npt.NDArray[np.float32], start: int, mask: int) -> None:
    while mask:
        low = mask & -mask
        out[start + low.bit_length() - 1] = 1.0
        mask ^= low


def _shown_arrangement(state: KnockState) -> Arrangement | None:
    """The knocker's shown arrangement (public from the knock on)."""
    if state.showdown is not None:
        return state.showdown.shown
    return state.result.knocker_melds if state.result is not None else None


def observation_tensor(state: KnockState, player: int) -> npt.NDArray[np.float32]:
    """``player``'s observation as a float32 vector of
    :data:`OBSERVATION_TENSOR_SIZE` entries (layout in the module docstring),
    filled in C from the state's fields."""
    out = np.zeros(OBSERVATION_TENSOR_SIZE, dtype=np.float32)
    state._observation_tensor(
        player if type(player) is int and 0 <= player < state.n else _check_player(state, player), out
    )
    return out


# --- the public history ------------------------------------------------------


class _Step(NamedTuple):
    """One action as everyone saw it."""

    seat: int
    action: int
    card: int  # the card it moved (discard, knock, take), else -1
    restocked: int  # cards shuffled into the stock just before this draw (0: none)
    drew: bool = False  # a stock draw that took a card (not one that found no stock)


@dataclass
class _Replay:
    """The public history read off the state's step log: what every seat
    saw, and for each seat the hidden-card bookkeeping of determinization."""

    steps: list[_Step]
    group: list[int]  # per card: the last restock that put it into the stock (0: never)
    hidden: list[list[int]]  # per seat, per group: cards it holds that were not seen going in
    draws: list[list[tuple[int, int]]]  # per seat: (time, group) of each stock draw
    sinks: list[list[tuple[int, int, int]]]  # per seat: (time, card, group) of such cards it let go
    knocker: int  # the seat that knocked or went big gin, -1 if none
    knock_time: int  # the index of that action in the history, -1 if none
    knock_unseen: bool  # the knock card was not a known card
    restocks: int


def _replay(state: KnockState) -> _Replay:
    """Walk the history with the engine's log of each step (``_core.step_fields``:
    seat, card moved, restock, draw, pile change); no rule is replayed.  The
    one hidden card it reads, a face-down knock card, only goes to the
    determinization bookkeeping."""
    n, size = state.n, state.rules.hand_size
    pile = [int(state.upcard)]
    restocks = 0
    knocker, knock_time, knock_unseen = -1, -1, False
    group = [0] * NUM_CARDS
    hidden = [[size] for _ in range(n)]
    draws: list[list[tuple[int, int]]] = [[] for _ in range(n)]
    sinks: list[list[tuple[int, int, int]]] = [[] for _ in range(n)]
    steps: list[_Step] = []
    if len(state._steps) != len(state.history):
        raise RummykitError("inconsistent state: the step log does not match the history")
    for time, (action, code) in enumerate(zip(state.history, state._steps)):
        s, card, restocked, drew, removed, added, unseen = _core.step_fields(code)
        if restocked:
            restocks += 1
            for c in pile[:-1]:
                group[c] = restocks
            for counts in hidden:
                counts.append(0)
            pile = pile[-1:]
        if drew:
            hidden[s][restocks] += 1
            draws[s].append((time, restocks))
        if unseen and card >= 0:
            hidden[s][group[card]] -= 1
            sinks[s].append((time, card, group[card]))
        if KNOCK <= action < DRAW_STOCK or action == BIG_GIN:
            knocker, knock_time, knock_unseen = s, time, unseen and action != BIG_GIN
        if removed:
            pile.pop()
        if added:
            pile.append(card)
        steps.append(_Step(s, action, card, restocked, drew))
    return _Replay(steps, group, hidden, draws, sinks, knocker, knock_time, knock_unseen, restocks)


# --- information-state string ------------------------------------------------


_CARD_TEXT = tuple(str(Card(c)) for c in range(NUM_CARDS))
_ACTION_TEXT = tuple(str(Action(a)) for a in range(NUM_ACTIONS))


def _rules_text(state: KnockState) -> str:
    given = ", ".join(f"{k}={v!r}" for k, v in state.rules.given)
    return f"{state.rules.name}({given})"


def _step_text(step: _Step, drawn: int, knock_seen: bool) -> str:
    action = step.action
    if action == DRAW_STOCK:
        text = "draw stock" if drawn < 0 else "draw stock " + _CARD_TEXT[drawn]
    elif action == TAKE:
        text = "take " + _CARD_TEXT[step.card]
    elif KNOCK <= action < DRAW_STOCK and not knock_seen:
        text = "knock"
    else:
        text = _ACTION_TEXT[action]
    if step.restocked:
        return f"restock {step.restocked}; {step.seat}: {text}"
    return f"{step.seat}: {text}"


def _result_text(result: HandResult) -> str:
    return (
        f"result {result.outcome}, winner {result.winner}, knocker {result.knocker}, "
        f"deadwood {list(result.deadwood)}, points {list(result.points)}, boxes {list(result.boxes)}"
    )


def _dealt(state: KnockState, seat: int) -> int:
    n = state.n
    mask = 0
    for i in range((seat - state.dealer - 1) % n, state.rules.hand_size * n, n):
        mask |= 1 << state.deck[i]
    return mask


def information_state_string(state: KnockState, player: int) -> str:
    """Everything seat ``player`` has seen, with perfect recall, as text:
    the rules, the seat, the dealer, the upcard, its dealt hand (in card
    order: the order of the deal is not kept), then one line per action
    (``seat: action``; a restock first names how many cards it put into the
    stock), its own stock draws naming the card, a knock naming its card
    only to the knocker (to everyone at the end, or when it is a known
    card), the knocker's shown arrangement, then, at the end of the hand,
    every hand and the result.  Two states give the same text exactly when
    ``player`` cannot tell them apart."""
    player = _check_player(state, player)
    replay = _replay(state)
    lines = [
        f"{_rules_text(state)} seat {player} of {state.n}, dealer {state.dealer}, upcard {state.upcard}",
        "dealt " + " ".join(str(c) for c in from_mask(_dealt(state, player))),
    ]
    own = iter(state.drawn[player])
    knock_seen = _knock_card_seen(state, player)
    for time, step in enumerate(replay.steps):
        drawn = next(own) if step.drew and step.seat == player else -1
        lines.append(_step_text(step, drawn, knock_seen))
        if time == replay.knock_time:
            shown = _shown_arrangement(state)
            if shown is not None:
                lines.append(f"shown {shown}")
    if state.phase == END:
        lines.append("hands " + " | ".join(" ".join(str(c) for c in from_mask(h)) for h in state.hands))
        if state.result is not None:
            lines.append(_result_text(state.result))
    return "\n".join(lines)


# --- determinization ---------------------------------------------------------


#: how many deals determinize tries for a last-chance taker that must be able to knock
_MAX_TRIES = 2_000


def determinize(state: KnockState, player: int, rng: Any = None) -> KnockState:
    """A full state that seat ``player`` cannot tell from ``state``, the
    cards hidden from it resampled uniformly with ``rng`` (a numpy
    ``Generator``, an int seed or None); see the module docstring.  The new
    state has no undo history."""
    player = _check_player(state, player)
    gen = as_generator(rng, "rng")
    draw = Uniforms(gen)
    replay = _replay(state)
    n = state.n
    groups = len(replay.hidden[0])
    group = replay.group
    others = [q for q in range(n) if q != player]

    # the cards player sees, and how many unseen cards of each group each seat holds
    seen = {q: _seen(state, player, q) for q in others}
    visible = state.hands[player] | ids_mask(state.discards)
    for q in range(n):
        visible |= state.known[q]
    for q in others:
        visible |= seen[q]
    if state.set_aside >= 0:
        visible |= 1 << state.set_aside
    knock_hidden = state.knock_card >= 0 and not _knock_card_seen(state, player)
    knock_group = group[state.knock_card] if knock_hidden else -1  # public: the knocker's count that fell
    if state.knock_card >= 0 and not knock_hidden:
        visible |= 1 << state.knock_card
    places: dict[int, list[int]] = {}
    for q in others:
        count = list(replay.hidden[q])
        for c in from_mask(seen[q] & ~state.known[q]):
            count[group[c]] -= 1
        places[q] = count
    pools: list[list[int]] = [[] for _ in range(groups)]
    for c in from_mask(_DECK & ~visible):
        pools[group[c]].append(int(c))
    for g, pool in enumerate(pools):
        want = sum(places[q][g] for q in others) + (len(state.stock) if g == replay.restocks else 0)
        want += g == knock_group
        if want != len(pool):
            raise RummykitError(f"inconsistent state: {len(pool)} hidden cards of group {g}, places for {want}")

    # deal the hidden cards; a last-chance taker to move must be able to knock.  Such hands can
    # be rare among the consistent deals: after _MAX_TRIES rejected samples the taker keeps the
    # hidden cards it really holds (a deal consistent with everything `player` knows) and only
    # the rest is resampled.
    mover = state.player if state.phase == KNOCK_ONLY and state.player != player else -1
    for attempt in range(_MAX_TRIES + 1):
        keep = mover >= 0 and attempt == _MAX_TRIES
        held: dict[int, list[list[int]]] = {q: [] for q in others}
        stock: list[int] = []
        knock_card = state.knock_card
        for g, pool in enumerate(pools):
            kept = [c for c in from_mask(state.hands[mover] & ~seen[mover]) if group[c] == g] if keep else []
            cards = [int(c) for c in kept] + draw.shuffled([c for c in pool if c not in kept])
            at = 0
            for q in ([mover] if keep else []) + [q for q in others if not (keep and q == mover)]:
                held[q].append(cards[at : at + places[q][g]])
                at += places[q][g]
            if g == knock_group:
                knock_card, at = cards[at], at + 1
            if g == replay.restocks:
                stock = cards[at:]
        if keep or mover < 0 or _can_still_knock(state, seen[mover] | ids_mask(chain.from_iterable(held[mover]))):
            break

    hands = list(state.hands)
    drawn = list(state.drawn)
    dealt: list[list[int]] = [[] for _ in range(n)]
    for q in others:
        hands[q] = seen[q] | ids_mask(chain.from_iterable(held[q]))
        unseen_held = [list(cards) for cards in held[q]]
        for c in from_mask(seen[q] & ~state.known[q]):
            unseen_held[group[c]].append(int(c))
        sinks = replay.sinks[q]
        if knock_hidden and q == replay.knocker:
            sinks = [(t, knock_card if t == replay.knock_time else c, g) for t, c, g in sinks]
        dealt[q], drawn[q] = _rebuild_history(state.rules.hand_size, replay.draws[q], sinks, unseen_held, draw, q)
    first = (player - state.dealer - 1) % n
    dealt[player] = [state.deck[i] for i in range(first, state.rules.hand_size * n, n)]

    other = state.clone()
    other.hands = tuple(hands)
    other.stock = tuple(stock)
    other.drawn = tuple(drawn)
    if knock_hidden:
        other.knock_card = knock_card
        other.history[replay.knock_time] = KNOCK + knock_card
        seat, _, restocked, drew, removed, added, unseen = _core.step_fields(other._steps[replay.knock_time])
        other._steps[replay.knock_time] = _core.step_code(seat, knock_card, restocked, drew, removed, added, unseen)
    other.deck = _rebuild_deck(state, replay, dealt, drawn, stock)
    other.shuffle_seed = int(gen.integers(2**62))
    other._forget_undo()
    return other


def _can_still_knock(state: KnockState, hand: int) -> bool:
    """Whether the last-chance taker's hand (the taken card included) could
    knock with a discard other than the taken card: the condition under
    which ``take`` was legal (``KnockState._last_chance_knock_exists``)."""
    taken = state.taken
    knock_max = state.knock_max
    return any(c != taken and dw <= knock_max for c, dw in _core.deadwood_after_discards(state._core_rules, hand))


def _rebuild_history(
    size: int,
    draws: list[tuple[int, int]],
    sinks: list[tuple[int, int, int]],
    held: list[list[int]],
    draw: Uniforms,
    seat: int,
) -> tuple[list[int], tuple[int, ...]]:
    """A dealt hand and a draw log for ``seat`` that fit the public history:
    each card it let go unseen (``sinks``: time, card, group) fills one of
    its dealt places or an earlier stock draw of the card's group, chosen at
    random; the unseen cards it holds (``held``, by group) fill the rest.
    Returns (dealt cards, drawn cards in order)."""
    places: list[tuple[int, int]] = [(-1, 0)] * size + draws  # (time, group)
    cards = [-1] * len(places)
    by_group: dict[int, list[int]] = {}
    for i, (_, g) in enumerate(places):
        by_group.setdefault(g, []).append(i)
    for time, card, g in sinks:
        free = [i for i in by_group.get(g, []) if cards[i] < 0 and places[i][0] < time]
        if not free:
            raise RummykitError(f"inconsistent history: seat {seat} let go of {Card(card)} it cannot hold")
        cards[free[draw.below(len(free))]] = card
    for g in range(max(len(held), max(by_group) + 1)):
        free = [i for i in by_group.get(g, []) if cards[i] < 0]
        mine = held[g] if g < len(held) else []
        if len(free) != len(mine):
            raise RummykitError(
                f"inconsistent history: seat {seat} holds {len(mine)} unseen cards of group {g}, places for {len(free)}"
            )
        for i, c in zip(free, draw.shuffled(mine)):
            cards[i] = c
    return draw.shuffled(cards[:size]), tuple(cards[size:])


def _rebuild_deck(
    state: KnockState, replay: _Replay, dealt: list[list[int]], drawn: list[tuple[int, ...]], stock: list[int]
) -> tuple[int, ...]:
    """The deck order (top first) behind the rebuilt dealt hands and draws:
    the deal, the upcard, the draws from the first stock in order, then what
    is left of it (the stock, if there was no restock)."""
    n, size = state.n, state.rules.hand_size
    deck = [dealt[(state.dealer + 1 + i) % n][i // n] for i in range(size * n)]
    deck.append(int(state.upcard))
    first_stock: list[tuple[int, int]] = []
    for seat in range(n):
        for (time, g), card in zip(replay.draws[seat], drawn[seat]):
            if g == 0:
                first_stock.append((time, card))
    deck.extend(card for _, card in sorted(first_stock))
    if replay.restocks == 0:
        deck.extend(reversed(stock))
    if len(deck) != NUM_CARDS or ids_mask(deck) != _DECK:
        raise RummykitError("inconsistent state: the rebuilt deck is not the 52 cards")
    return tuple(deck)
