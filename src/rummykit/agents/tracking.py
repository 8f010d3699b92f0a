"""Who holds what: a particle filter over the opponent's hidden cards in a two-player knock
game, for :class:`rummykit.agents.BestAgent`.

A particle is one story of the opponent's hand: the ten cards it was dealt and the card of
each of its stock draws, drawn from the cards the observer has not seen.  The filter walks
the hand's public events in order and weights each story by how likely the opponent's
choices are under a softened greedy model (:class:`rummykit.inference.SoftGreedyModel`'s
rules; the walk over the events is C, ``rk_track`` in ``rummykit/track.h``):

* **take or not** (upcard offer, draw): ``sigmoid(beta * (d_keep - d_take - 0.5))``; a
  meld-taking story (``taker``) takes exactly when the card lands in a meld or lets it knock;
* **which discard**: a softmax over the legal cards ``c`` of ``-beta * deadwood(H - c)``;
* **knock**: a seat that could knock knocks with probability ``knock_rate`` (by default
  ``1 - epsilon / 2``: as soon as it can), a seat that could not did not (a miss costs
  ``epsilon``); at the last chance it takes the discard exactly when that lets it knock;
* every probability mixed with a uniform choice of weight ``epsilon``.

Cards the opponent discarded without having taken them must have come from its deal or its
stock draws before the discard: each is first placed in one of those slots, uniformly, so
that no story contradicts a discard.  When the weights degenerate (effective sample size
below half the particles) the particles are resampled; the copies then part ways at the
opponent's next stock draws.  The observer's own cards come from one determinization of the
state (``state.determinize``: its own deal and draws are what it saw) replayed from its hand
record (``to_json``), so the filter reads nothing the observer may not know.

:func:`sample_states` turns weighted particles into full states (``game.new_hand(deck=...)``
and the hand's actions replayed) that look exactly the same to the observer.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from rummykit import _core
from rummykit._rules import core_rules
from rummykit.cards import Card
from rummykit.knock.actions import DRAW_STOCK, KNOCK, PASS, TAKE

__all__ = [
    "Events",
    "Particles",
    "Untracked",
    "can_track",
    "public_events",
    "sample_hands",
    "sample_stories",
    "sample_states",
    "track",
]


class Untracked(Exception):
    """No story of the opponent's hand explains the events (the caller falls back to uniform
    determinizations)."""


# event kinds (rk_track_event.kind)
TAKE_CHOICE, DRAW, ADD, DISCARD, LAST_CHANCE = (
    _core.TRACK_TAKE_CHOICE,
    _core.TRACK_DRAW,
    _core.TRACK_ADD,
    _core.TRACK_DISCARD,
    _core.TRACK_LAST_CHANCE,
)


def can_track(state: Any) -> bool:
    """Whether the filter models this hand: a two-player knock game without restocks, set-aside
    upcards or a manual showdown (the deck order then says every card's place)."""
    rules = state.rules
    return (
        state.game.family_record.knocks
        and rules.num_players == 2
        and rules.stock_end_rule != "reshuffle"
        and not rules.refused_upcard_set_aside
        and rules.auto_showdown
    )


@dataclass
class Events:
    """The public events of a hand from one seat's view: the opponent's choices in order
    (``(kind, card, flag, extra)``), the deck of one determinization (the observer's own
    cards are right in it), where each seat's cards sit in that deck, and the cards the
    opponent could hold (``free``: not the observer's, not the upcard)."""

    me: int
    opponent: int
    dealer: int
    deck: list[int]
    events: list[tuple[int, int, int, int]]
    opp_deal_slots: list[int]  # deck indices of the opponent's dealt cards
    opp_draw_slots: list[int]  # deck indices of the opponent's stock draws, in order
    first_undrawn: int  # deck index of the first card still in the stock
    free: int  # mask of the cards the opponent's deal, its draws and the stock hold
    hidden_discards: list[tuple[int, int]]  # (card, draws before) for each discard from hidden cards
    knock_max: int
    hand_size: int


def public_events(state: Any, me: int, rng: np.random.Generator) -> Events:
    """The opponent's choices so far and the layout of the deck, from ``me``'s view."""
    sample = state.determinize(me, rng)
    record = json.loads(sample.to_json())
    deck = [int(Card(c)) for c in record["deck"]]
    dealer = int(record["dealer"])
    n, size = 2, state.rules.hand_size
    q = 1 - me
    replay = state.game.new_hand(seed=0, dealer=dealer, deck=deck)
    knock_max = state.knock_max
    forbid = state.rules.forbid_discarding_taken_card
    base = size * n + 1
    events: list[tuple[int, int, int, int]] = []
    draws: list[int] = []
    mine = 0
    for i in range(size * n):
        if (dealer + 1 + i) % n == me:
            mine |= 1 << deck[i]
    taken_by_q = 0
    took_now = -1
    hidden: list[tuple[int, int]] = []
    drawn = 0
    for action in state.history:
        player, phase = replay.current_player, replay.phase_name
        top = int(replay.discards[-1]) if replay.discards else -1
        if action == DRAW_STOCK:
            if player == q:
                draws.append(base + drawn)
                events.append((DRAW, len(draws) - 1, 0, 0))
            else:
                mine |= 1 << deck[base + drawn]
            drawn += 1
        if player == q:
            if phase in ("offer_nondealer", "offer_dealer", "draw"):
                if action in (TAKE, PASS, DRAW_STOCK) and top >= 0:
                    events.insert(len(events) - (action == DRAW_STOCK), (TAKE_CHOICE, top, int(action == TAKE), 0))
                if action == TAKE:
                    events.append((ADD, top, 0, 0))
                    taken_by_q |= 1 << top
                    took_now = top
            elif phase == "last_chance":
                events.append((LAST_CHANCE, top, int(action == TAKE), 0))
                if action == TAKE:
                    events.append((ADD, top, 0, 0))
                    taken_by_q |= 1 << top
                    took_now = top
            elif phase in ("discard", "knock_only") and action < DRAW_STOCK:
                card = action % KNOCK
                knocked = int(action >= KNOCK)
                blocked = took_now if forbid else -1
                events.append((DISCARD, card, knocked | (phase == "knock_only") << 1, blocked))
                if not taken_by_q >> card & 1:
                    hidden.append((card, len(draws)))
                taken_by_q &= ~(1 << card)
                took_now = -1
        elif phase in ("discard", "knock_only"):
            took_now = -1
        replay.apply_action(action)
    deal_slots = [i for i in range(size * n) if (dealer + 1 + i) % n == q]
    free = ((1 << 52) - 1) & ~mine & ~(1 << deck[size * n])
    return Events(me, q, dealer, deck, events, deal_slots, draws, base + drawn, free, hidden, knock_max, size)


# --- the filter -----------------------------------------------------------------------------


@dataclass
class Particles:
    """Weighted stories of the opponent's hand: ``dealt`` and ``hand`` (P,) card masks,
    ``draws`` (P, draws) card ids, ``logw`` log weights, ``rate`` (P,) the story's knock rate,
    ``taker`` (P,) 1 where the story's opponent takes a discard only into a meld or to knock."""

    dealt: npt.NDArray[np.uint64]
    hand: npt.NDArray[np.uint64]
    draws: npt.NDArray[np.int8]
    logw: npt.NDArray[np.float64]
    rate: npt.NDArray[np.float64]
    taker: npt.NDArray[np.uint8]

    def weights(self) -> npt.NDArray[np.float64]:
        w: npt.NDArray[np.float64] = np.exp(self.logw - self.logw.max())
        w /= w.sum()
        return w


def _place_hidden_discards(ev: Events, n: int, rng: np.random.Generator) -> tuple[Any, Any, Any]:
    """Each card the opponent discarded from its hidden cards put in a slot before the discard:
    one of its dealt cards or one of its earlier stock draws, uniformly among the free slots;
    returns the dealt masks, the (P, draws) draws (-1: open) and which rows found slots."""
    dealt_count = np.zeros(n, dtype=np.int64)
    dealt = np.zeros(n, dtype=np.uint64)
    draws = np.full((n, len(ev.opp_draw_slots)), -1, dtype=np.int8)
    ok = np.ones(n, dtype=bool)
    rows = np.arange(n)
    for card, before in ev.hidden_discards:
        open_draws = draws[:, :before] < 0
        free_deal = ev.hand_size - dealt_count
        total = free_deal + open_draws.sum(axis=1)
        ok &= total > 0
        u = np.floor(rng.random(n) * np.maximum(total, 1)).astype(np.int64)
        to_deal = u < free_deal
        dealt[to_deal] |= np.uint64(1 << card)
        dealt_count += to_deal
        into = ~to_deal & ok
        if before and into.any():
            k = (u - free_deal)[into]
            slot = (np.cumsum(open_draws[into], axis=1) > k[:, None]).argmax(axis=1)
            draws[rows[into], slot] = card
    return dealt, draws, ok


def track(
    state: Any,
    ev: Events,
    n: int,
    beta: float,
    epsilon: float,
    rng: np.random.Generator,
    high: float = 0.0,
    knock_rate: float | npt.NDArray[np.float64] | None = None,
    taker: npt.NDArray[np.uint8] | None = None,
) -> Particles:
    """``n`` weighted particles of the opponent's hand after the events of ``ev`` (the walk is
    C: ``rk_track``, ``rummykit/track.h``); ``high`` adds ``high * rank / 12`` (ace 0, king 12)
    to a discard's softmax score: a greedy player breaks deadwood ties towards the high cards.
    ``knock_rate``: the probability that the opponent knocks when it can (None: ``1 -
    epsilon / 2``, a player who knocks as soon as it can), or one rate per particle (a mixture
    of styles: the weights then also weigh the styles); a patient opponent's low rate keeps
    the stories where it could have knocked.  ``taker`` (None: none): one flag per particle,
    1 for a story whose opponent takes a discard only into a meld or to knock (the simple
    bots' rule, ``rk_policy.meld_takes``) instead of whenever that lowers its deadwood."""
    dealt, draws, ok = _place_hidden_discards(ev, n, rng)
    reserved = 0
    for card, _ in ev.hidden_discards:
        reserved |= 1 << card
    rate = np.broadcast_to(np.asarray(1 - epsilon / 2 if knock_rate is None else knock_rate, dtype=np.float64), n)
    events = np.array(ev.events, dtype=np.int8).reshape(-1, 4)
    out = _core.track_particles(
        core_rules(state.rules.aces),
        events,
        dealt,
        dealt | np.uint64(reserved),
        draws,
        np.where(ok, 0.0, -np.inf),
        rate,
        beta,
        epsilon,
        high,
        ev.knock_max,
        ev.hand_size,
        ev.free & ~reserved,
        int(rng.integers(1 << 63)),
        taker,
    )
    if out is None:
        raise Untracked("no particle explains the opponent's choices")
    dealt, hand, draws, logw, rate, _, taker = out
    return Particles(dealt, hand, draws, logw, rate, taker)


def sample_hands(particles: Particles, count: int, rng: np.random.Generator) -> list[int]:
    """``count`` opponent hands (card masks) drawn from the particles by weight (systematic
    resampling: each particle about ``count`` times its weight)."""
    return sample_stories(particles, count, rng)[0]


def sample_stories(
    particles: Particles, count: int, rng: np.random.Generator
) -> tuple[list[int], npt.NDArray[np.float64], npt.NDArray[np.uint8]]:
    """:func:`sample_hands` with each hand's knock rate and take style (its story's)."""
    index = _core.systematic(particles.weights(), count, rng.random())
    return [int(m) for m in particles.hand[index]], particles.rate[index], particles.taker[index]


def sample_states(state: Any, ev: Events, particles: Particles, count: int, rng: np.random.Generator) -> list[Any]:
    """``count`` full states drawn from the particles by weight: each particle's deal and
    draws put in the deck, the rest of the free cards shuffled into the stock, the hand's
    actions replayed."""
    index = _core.systematic(particles.weights(), count, rng.random())
    out = []
    deal_slots, draw_slots = ev.opp_deal_slots, ev.opp_draw_slots
    free_cards = [c for c in range(52) if ev.free >> c & 1]
    game, history = state.game, state.history
    for i in index:
        deck = list(ev.deck)
        mask = int(particles.dealt[i])
        dealt = [c for c in range(52) if mask >> c & 1]
        drawn = particles.draws[i].tolist()
        for slot, card in zip(deal_slots, dealt):
            deck[slot] = card
        for slot, card in zip(draw_slots, drawn):
            deck[slot] = card
        placed = set(dealt) | set(drawn)
        rest = [c for c in free_cards if c not in placed]
        rng.shuffle(rest)
        deck[ev.first_undrawn :] = rest
        sample = game.new_hand(seed=0, dealer=ev.dealer, deck=deck)
        for action in history:
            sample.apply_action(action)
        out.append(sample)
    return out
