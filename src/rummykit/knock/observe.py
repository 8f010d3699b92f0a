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
(1699,)
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
:data:`OBSERVATION_TENSOR_SIZE` (1699) entries for every variant (2-4
players).  Seats are relative to the observer: relative seat ``r`` is seat
``(player + r) % n``.  Card planes have 52 entries, one per card id
(``suit * 13 + rank``).  :data:`OBSERVATION_LAYOUT` lists the same slices.

================  =====  =====  ==================================================
name              start  stop   content
================  =====  =====  ==================================================
current_player    0      4      one-hot relative seat to act (all 0 at the end)
dealer            4      8      one-hot relative seat of the dealer
num_players       8      11     one-hot: 2, 3 or 4 players
phase             11     20     one-hot phase (``PHASES`` order)
hand              20     72     own hand
top_discard       72     124    top card of the discard pile (all 0 if empty)
discard_rest      124    176    the rest of the discard pile
known_self        176    228    own cards the others saw this seat take
known_others      228    384    3 x 52: cards relative seats 1-3 took and hold
seen_others       384    540    3 x 52: all cards of relative seats 1-3 in view
hand_sizes        540    544    cards held by relative seats 0-3, / 11
stock_size        544    545    cards in the stock, / 52
upcard            545    597    the hand's original upcard
knock_limit       597    598    knock limit, / 10
gin_only          598    599    1 if only gin may end the hand
multiplier        599    600    spade multiplier of the hand, / 3
taken             600    652    card taken from the discard pile this turn
set_aside         652    704    refused upcard set aside
restocks          704    705    restocks so far, min(restocks, 10) / 10
knocker           705    709    one-hot relative seat of the knocker (after a knock)
knock_card        709    761    the face-down knock card, when in view
declared_self     761    813    own cards declared in a manual showdown
table             813    865    the knocker's melds as the defender to move may extend them
shown_melds       865    917    the cards of the knocker's shown melds
recent_discards   917    1125   4 x 52: relative seats 0-3's last 8 discards, by recency
recent_takes      1125   1333   4 x 52: their last 8 cards taken from the discard pile
recent_passes     1333   1541   4 x 52: their last 8 top discards declined
deadwood          1541   1542   least deadwood of the own hand, / 100
take_deadwood     1542   1543   least deadwood after taking the top discard and discarding another, / 100
discard_deadwood  1543   1595   per own card, the least deadwood after discarding it, / 100
melded            1595   1647   own cards melded in every least-deadwood arrangement
best_discard      1647   1699   the discard leaving the least deadwood (greedy's; not the card taken)
================  =====  =====  ==================================================

The deadwood entries are capped at 1: eleven unmatched high cards hold more
than 100.

The three history planes keep the order of the public moves: in the plane of
relative seat ``r``, a card's entry is ``(8 - j) / 8`` if it was the card of
seat ``r``'s ``j``-th newest move of that kind (``j`` = 0 the newest; the
newest if several), 0 if none of its last 8.  A discard names its card (a
knock's face-down card is not one); a take, the card taken; a pass, the top
discard declined: passing an upcard offer or the last chance, or drawing
from the stock in the draw phase with a discard pile (not the forced draw
after both players passed the upcard).

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
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from rummykit import _core
from rummykit._random import as_generator
from rummykit.analysis import Arrangement
from rummykit.cards import NUM_CARDS, Card, from_mask
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
    PHASES,
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
    "recent_discards",
    "recent_takes",
    "recent_passes",
    "deadwood",
    "take_deadwood",
    "discard_deadwood",
    "melded",
    "best_discard",
)
_STARTS = _core.KNOCK_TENSOR_STARTS

#: The tensor's slices: (name, start, stop), in order, covering it exactly.
OBSERVATION_LAYOUT: list[tuple[str, int, int]] = tensor_layout(_NAMES, _STARTS)
#: The length of every observation tensor (any variant, any player count).
OBSERVATION_TENSOR_SIZE: int = _STARTS[-1]
_AT = {name: start for name, start, _ in OBSERVATION_LAYOUT}


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
    # each view read once: another thread may change the state between two reads
    showdown, result = state.showdown, state.result
    if showdown is not None:
        return showdown.knocker
    if result is not None and result.knocker is not None:
        return result.knocker
    return -1


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
        seen_cards=tuple(_cards(state._seen(player, q)) for q in range(n)),
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
        knock_card=Card(state.knock_card) if state._knock_card_seen(player) else None,
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
    showdown, result = state.showdown, state.result
    if showdown is not None:
        return showdown.shown
    return result.knocker_melds if result is not None else None


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


class _Replay(NamedTuple):
    """The public history read off the state's step log (``_core.step_fields``)."""

    steps: list[_Step]
    knock_time: int  # the index of the knock or big gin in the history, -1 if none


def _replay(state: KnockState) -> _Replay:
    """Each action as everyone saw it, from the engine's step log (no rule is replayed)."""
    if len(state._steps) != len(state.history):
        raise RummykitError("inconsistent state: the step log does not match the history")
    steps: list[_Step] = []
    knock_time = -1
    for time, (action, code) in enumerate(zip(state.history, state._steps)):
        s, card, restocked, drew, _removed, _added, _unseen = _core.step_fields(code)
        if KNOCK <= action < DRAW_STOCK or action == BIG_GIN:
            knock_time = time
        steps.append(_Step(s, action, card, restocked, drew))
    return _Replay(steps, knock_time)


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
    knock_seen = state._knock_card_seen(player)
    for time, step in enumerate(replay.steps):
        drawn = next(own) if step.drew and step.seat == player else -1
        lines.append(_step_text(step, drawn, knock_seen))
        if time == replay.knock_time:
            shown = _shown_arrangement(state)
            if shown is not None:
                lines.append(f"shown {shown}")
    if state.phase == END:
        lines.append("hands " + " | ".join(" ".join(str(c) for c in from_mask(h)) for h in state.hands))
        result = state.result
        if result is not None:
            lines.append(_result_text(result))
    return "\n".join(lines)


# --- determinization ---------------------------------------------------------


def determinize(state: KnockState, player: int, rng: Any = None) -> KnockState:
    """A full state that seat ``player`` cannot tell from ``state``, the
    cards hidden from it resampled uniformly with ``rng`` (a numpy
    ``Generator``, an int seed or None; the C determinization,
    rk_knock_determinize, draws from a generator seeded by it); see the
    module docstring.  The new state has no undo history."""
    player = _check_player(state, player)
    gen = as_generator(rng, "rng")
    return state._determinize(player, int(gen.integers(2**64, dtype=np.uint64)))
