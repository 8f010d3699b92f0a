"""Opponent modelling for the knock games: determinizations weighted by how well
they explain what the other seats did.

:func:`rummykit.knock.observe.determinize` samples the cards hidden from a seat
uniformly among the deals consistent with what it saw: it ignores what the other
seats' choices reveal.  A player who passed the 7 of hearts probably holds no
hearts near it, one who has not knocked yet still holds some deadwood, one who
threw a king kept the cards it preferred.  :func:`weighted_determinizations`
keeps the uniform determinizations as proposals and gives each an importance
weight: the likelihood, under an opponent model, of every choice the other seats
made in the hand, given the hand each seat held at that moment *in that sample*
(each sample rebuilds the other seats' dealt hands and stock draws, so their
hand at every past decision is known within the sample).

The model (:class:`SoftGreedyModel`) is :class:`rummykit.agents.GreedyAgent`
softened, with ``H`` the hand at the decision and ``dw`` least deadwood:

* **take or not** (upcard offer, draw): greedy takes the top discard ``t`` iff
  ``d_take < d_keep`` (``d_take``: least deadwood of ``H + t`` less its best
  other card; ``d_keep``: of ``H``).  The model takes with probability
  ``sigmoid(beta * (d_keep - d_take - 0.5))``;
* **which discard**: a softmax over the legal cards ``c`` of
  ``-beta * dw(H - c)``;
* **knock**: when the chosen card allows a knock, greedy knocks; the model
  knocks with probability ``1 - epsilon``;
* each probability is mixed with the uniform choice, weight ``epsilon``, so that
  no sample is ruled out by one unexpected move (a human, another policy).

A forced stock draw carries no weight; the walk through the hand stops at a
last-chance pass, a knock or big gin (a last-chance take is scored like any
take).  Against the greedy agent itself the model is close to exact; against
other players it is a prior that ``beta`` (lower: softer) and ``epsilon``
(higher: more forgiving) temper.

Importance weights on uniform proposals degenerate as the hand goes on (a few
samples take all the weight), so :func:`posterior_determinizations`, which
:class:`rummykit.agents.ISMCTSAgent` uses, resamples them by weight and moves
each by Metropolis-Hastings exchanges of hidden cards (resample-move).

>>> import rummykit as rk
>>> from rummykit.agents import GreedyAgent
>>> state = rk.Game("oklahoma-gin").new_hand(seed=4)
>>> greedy = GreedyAgent()
>>> for _ in range(14):
...     state.apply_action(greedy(state))
>>> samples, weights = weighted_determinizations(state, state.player, 50, rng=1)
>>> len(samples), round(float(weights.sum()), 6)
(50, 1.0)
>>> all(s.observation(state.player) == state.observation(state.player) for s in samples)
True
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from rummykit import _core
from rummykit._random import as_generator
from rummykit.cards import mask_ids
from rummykit.engine.family import state_family
from rummykit.errors import InvalidOptionError, check_seat, clip
from rummykit.knock import observe
from rummykit.knock.actions import DRAW_STOCK, KNOCK, PASS, TAKE
from rummykit.knock.state import KnockState

__all__ = ["SoftGreedyModel", "effective_sample_size", "log_likelihoods", "weighted_determinizations"]

# event kinds of a seat's walk through the hand
_CHOOSE = 0  # chose whether to take the top discard (a = the card, b = 1 if taken)
_DRAWN = 1  # added its next stock draw
_ADD = 2  # added a card taken from the discard pile (a)
_DISCARD = 3  # let go of card a (b = 1 if it knocked with it), c = the card it could not discard, or -1


class _Event(NamedTuple):
    kind: int
    a: int = 0
    b: int = 0
    c: int = -1


@dataclass(frozen=True)
class SoftGreedyModel:
    """The opponent model of :func:`weighted_determinizations` (see the module
    docstring): greedy choices softened by ``beta`` (inverse temperature per
    deadwood point, > 0) and mixed with the uniform choice with weight
    ``epsilon`` (0 < epsilon <= 1)."""

    beta: float = 0.5
    epsilon: float = 0.1

    def __post_init__(self) -> None:
        beta, epsilon = self.beta, self.epsilon
        if isinstance(beta, bool) or not isinstance(beta, (int, float)) or not 0 < beta < math.inf:
            raise InvalidOptionError(f"beta must be a finite number > 0, got {clip(beta)}")
        if isinstance(epsilon, bool) or not isinstance(epsilon, (int, float)) or not 0 < epsilon <= 1:
            raise InvalidOptionError(f"epsilon must be a number in (0, 1], got {clip(epsilon)}")

    def take_log_prob(self, rules: _core.Rules, hand: int, top: int, took: bool) -> float:
        """log P(take or not take ``top`` | ``hand``)."""
        keep = _core.deadwood(rules, hand)
        _, take = _core.best_discard(rules, hand | 1 << top, top)
        x = self.beta * (keep - take - 0.5)
        p_take = 1.0 / (1.0 + math.exp(-x)) if x > -50 else 0.0
        p = p_take if took else 1.0 - p_take
        return math.log((1 - self.epsilon) * p + self.epsilon / 2)

    def discard_log_prob(
        self, rules: _core.Rules, hand: int, card: int, forbid: int, knocked: bool, knock_max: int
    ) -> float:
        """log P(let go of ``card``, knocking or not | ``hand``)."""
        after = [(c, dw) for c, dw in _core.deadwood_after_discards(rules, hand) if c != forbid]
        best = min(dw for _, dw in after)
        total, chosen, chosen_dw = 0.0, 0.0, best
        for c, dw in after:
            w = math.exp(-self.beta * (dw - best))
            total += w
            if c == card:
                chosen, chosen_dw = w, dw
        eps = self.epsilon
        logp = math.log((1 - eps) * chosen / total + eps / len(after))
        if chosen_dw <= knock_max:  # knocking with this card was legal: greedy would have knocked
            logp += math.log(1 - eps if knocked else eps)
        return logp


def _events(state: KnockState, player: int) -> list[list[_Event]]:
    """Per seat, the public steps of its walk through the hand (empty for ``player``): its
    choices to take or not, what came into its hand and what it let go.  The walk stops at a
    knock, big gin or the showdown (nothing there is a free choice of the draw-discard play)."""
    rules = state.rules
    replay = observe._replay(state)
    events: list[list[_Event]] = [[] for _ in range(state.n)]
    pile = [int(state.upcard)]
    offer = rules.first_turn_procedure == "upcard_offer"
    passes, started, taken = 0, False, -1
    for step in replay.steps:
        seat, action = step.seat, step.action
        mine = events[seat] if seat != player else []
        if step.restocked:
            pile = pile[-1:]
        if action == PASS:
            if started:  # a last-chance pass: the hand is over
                break
            passes += 1
            mine.append(_Event(_CHOOSE, pile[-1], 0))
            if passes == 2 and rules.refused_upcard_set_aside:
                pile.pop()
        elif action == TAKE:
            started = True
            taken = pile.pop()
            mine += [_Event(_CHOOSE, taken, 1), _Event(_ADD, taken)]
        elif action == DRAW_STOCK:
            forced = offer and not started and passes == 2
            started = True
            if pile and not forced:
                mine.append(_Event(_CHOOSE, pile[-1], 0))
            if step.drew:
                mine.append(_Event(_DRAWN))
        elif action < KNOCK:
            forbid = taken if rules.forbid_discarding_taken_card else -1
            mine.append(_Event(_DISCARD, action, 0, forbid))
            pile.append(action)
            taken = -1
        else:  # a knock, big gin or the showdown: the choices are over
            break
    return events


def _dealt(state: KnockState, seat: int) -> int:
    n = state.n
    mask = 0
    for i in range((seat - state.dealer - 1) % n, state.rules.hand_size * n, n):
        mask |= 1 << state.deck[i]
    return mask


def _log_likelihood(
    rules: _core.Rules,
    events: list[list[_Event]],
    dealt: list[int],
    drawn: list[list[int]],
    model: SoftGreedyModel,
    knock_max: int,
    memo: dict[tuple[int, ...], float],
) -> float:
    """log P(the choices in ``events``) when each seat was dealt ``dealt[seat]`` and drew
    ``drawn[seat]`` from the stock, in order.  ``memo`` keeps the log-probability of each
    (hand, choice): samples share most of their hands, the Markov chain moves all the more."""
    total = 0.0
    for seat, walk in enumerate(events):
        if not walk:
            continue
        hand = dealt[seat]
        draws = iter(drawn[seat])
        for kind, a, b, c in walk:
            if kind == _DRAWN:
                hand |= 1 << next(draws)
            elif kind == _ADD:
                hand |= 1 << a
            else:
                key = (kind, hand, a, b, c)
                logp = memo.get(key)
                if logp is None:
                    if kind == _CHOOSE:
                        logp = model.take_log_prob(rules, hand, a, bool(b))
                    else:
                        logp = model.discard_log_prob(rules, hand, a, c, bool(b), knock_max)
                    memo[key] = logp
                total += logp
                if kind == _DISCARD:
                    hand &= ~(1 << a)
    return total


def _sample_log_likelihood(
    sample: KnockState,
    events: list[list[_Event]],
    model: SoftGreedyModel,
    knock_max: int,
    memo: dict[tuple[int, ...], float],
) -> float:
    dealt = [_dealt(sample, q) for q in range(sample.n)]
    drawn = [list(d) for d in sample.drawn]
    return _log_likelihood(sample._core_rules, events, dealt, drawn, model, knock_max, memo)


class _Likelihood:
    """The log-likelihood of determinizations of one state for one player, memoised."""

    def __init__(self, state: KnockState, player: int, model: SoftGreedyModel | None) -> None:
        self.model = model or SoftGreedyModel()
        self.events = _events(state, player)
        self.rules, self.knock_max = state._core_rules, state.knock_max
        self.memo: dict[tuple[int, ...], float] = {}

    def of(self, dealt: list[int], drawn: list[list[int]]) -> float:
        return _log_likelihood(self.rules, self.events, dealt, drawn, self.model, self.knock_max, self.memo)

    def of_sample(self, sample: KnockState) -> float:
        return self.of([_dealt(sample, q) for q in range(sample.n)], [list(d) for d in sample.drawn])


def log_likelihoods(
    state: KnockState, player: int, samples: list[KnockState], model: SoftGreedyModel | None = None
) -> npt.NDArray[np.float64]:
    """The log-likelihood under ``model`` (default :class:`SoftGreedyModel`) of the other
    seats' choices in each of ``samples`` (determinizations of ``state`` for ``player``)."""
    _check(state, player, 1, model)
    if not isinstance(samples, (list, tuple)) or not all(state_family(s) is state_family(state) for s in samples):
        raise InvalidOptionError(f"samples must be a list of states of the knock game, got {clip(samples)}")
    likelihood = _Likelihood(state, player, model)
    return np.array([likelihood.of_sample(s) for s in samples], dtype=np.float64)


def effective_sample_size(weights: npt.NDArray[np.float64]) -> float:
    """Kish's effective sample size of normalised importance weights, ``1 / sum(w**2)``
    (``len(weights)`` when they are equal, 1 when one sample has them all).

    >>> effective_sample_size(np.array([0.25, 0.25, 0.25, 0.25])), effective_sample_size(np.array([1.0, 0.0]))
    (4.0, 1.0)
    """
    return float(1.0 / np.square(weights).sum())


def _count(name: str, value: object, minimum: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not minimum <= value <= 2**31 - 1:
        raise InvalidOptionError(f"{name} must be an int {minimum}..{2**31 - 1}, got {clip(value)}")
    return value


def _check(state: KnockState, player: int, n: int, model: object) -> None:
    family = state_family(state)
    if family is None or not family.knocks:  # the model reads the knock codec's choices
        game = f"{state.game.name} has no knocking" if family is not None else f"got {clip(state)}"
        raise InvalidOptionError(f"opponent modelling needs a knock-game state ({game})")
    check_seat(player, state.n)
    _count("n", n, 1)
    if model is not None and not isinstance(model, SoftGreedyModel):
        raise InvalidOptionError(f"model must be a SoftGreedyModel or None, got {clip(model)}")


def _weighted(
    state: KnockState, player: int, n: int, gen: np.random.Generator, likelihood: _Likelihood
) -> tuple[list[KnockState], npt.NDArray[np.float64]]:
    samples = [state.determinize(player, gen) for _ in range(n)]
    logw = np.array([likelihood.of_sample(s) for s in samples], dtype=np.float64)
    w = np.exp(logw - logw.max())
    return samples, w / w.sum()


def weighted_determinizations(
    state: KnockState, player: int, n: int, rng: Any = None, model: SoftGreedyModel | None = None
) -> tuple[list[KnockState], npt.NDArray[np.float64]]:
    """``n`` determinizations of ``state`` for ``player`` (``state.determinize``) and their
    normalised importance weights under ``model`` (default :class:`SoftGreedyModel`): a
    weighted sample of the deals ``player`` cannot rule out, weighted by how well each
    explains the other seats' choices (see the module docstring)."""
    _check(state, player, n, model)
    return _weighted(state, player, n, as_generator(rng, "rng"), _Likelihood(state, player, model))


def _permuted(sample: KnockState, perm: list[int]) -> KnockState:
    """``sample`` with every card ``c`` of the hands, stock, draw logs and deck replaced by
    ``perm[c]`` (``perm`` only exchanges cards hidden from the observer within a group)."""

    def mask(m: int) -> int:
        out = 0
        for c in mask_ids(m):
            out |= 1 << perm[c]
        return out

    return sample.with_fields(
        hands=tuple(mask(h) for h in sample.hands),
        stock=tuple(perm[c] for c in sample.stock),
        drawn=tuple(tuple(perm[c] for c in d) for d in sample.drawn),
        deck=tuple(perm[c] for c in sample.deck),
    )


def _rejuvenate(
    state: KnockState, player: int, sample: KnockState, likelihood: _Likelihood, steps: int, gen: np.random.Generator
) -> KnockState:
    """``steps`` Metropolis-Hastings moves from ``sample``: exchange a hidden card of another
    seat whose choices the model scores with a hidden card held elsewhere (the stock or a
    third seat) of the same restock group, accepted with the likelihood ratio.  The exchange
    keeps every observation of ``player`` (the cards are hidden from it and each takes the
    other's place in the history) and is symmetric, so the chain leaves the posterior as it is."""
    group = state._card_groups()
    scored = [q for q in range(state.n) if q != player and likelihood.events[q]]
    if not scored or not steps:
        return sample
    holding: dict[int, list[int]] = {q: [] for q in range(state.n) if q != player}
    for q in holding:
        holding[q] = mask_ids(sample.hands[q] & ~state._seen(player, q))
    holding[-1] = list(sample.stock)
    dealt = [_dealt(sample, q) for q in range(state.n)]
    drawn = [list(d) for d in sample.drawn]
    logp = likelihood.of(dealt, drawn)
    perm = list(range(52))
    for _ in range(steps):
        q = scored[int(gen.integers(len(scored)))]
        mine = holding[q]
        rest = [(h, i) for h, cards in holding.items() if h != q for i in range(len(cards))]
        if not mine or not rest:
            break
        i = int(gen.integers(len(mine)))
        h, j = rest[int(gen.integers(len(rest)))]
        x, y = mine[i], holding[h][j]
        if group[x] != group[y]:
            continue
        both = 1 << x | 1 << y
        new_dealt = [d ^ both if (d >> x & 1) != (d >> y & 1) else d for d in dealt]
        new_drawn = [[y if c == x else x if c == y else c for c in d] for d in drawn]
        new_logp = likelihood.of(new_dealt, new_drawn)
        if new_logp >= logp or gen.random() < math.exp(new_logp - logp):
            logp, dealt, drawn = new_logp, new_dealt, new_drawn
            mine[i], holding[h][j] = y, x
            perm = [y if c == x else x if c == y else c for c in perm]
    return _permuted(sample, perm)


def posterior_determinizations(
    state: KnockState,
    player: int,
    n: int,
    rng: Any = None,
    model: SoftGreedyModel | None = None,
    proposals: int | None = None,
    moves: int = 20,
) -> list[KnockState]:
    """``n`` equally weighted determinizations from the opponent-model posterior
    (resample-move): ``proposals`` (default ``2 * n``) weighted determinizations, ``n`` of
    them drawn by weight, each then moved by ``moves`` Metropolis-Hastings card exchanges.

    >>> import rummykit as rk
    >>> state = rk.Game("gin").new_hand(seed=1)
    >>> [s.observation(0) == state.observation(0) for s in posterior_determinizations(state, 0, 3, rng=1)]
    [True, True, True]
    """
    _check(state, player, n, model)
    if proposals is not None:
        _count("proposals", proposals, 1)
    _count("moves", moves, 0)
    gen = as_generator(rng, "rng")
    likelihood = _Likelihood(state, player, model)
    samples, weights = _weighted(state, player, proposals or 2 * n, gen, likelihood)
    picks = gen.choice(len(samples), size=n, p=weights)
    return [_rejuvenate(state, player, samples[int(i)], likelihood, moves, gen) for i in picks]
