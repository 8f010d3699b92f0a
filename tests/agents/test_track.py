"""The particle filter's C walk (``rk_track``, ``_core.track_particles``) against a plain
Python restatement of its rules (``rummykit/track.h``), story by story with the same random
numbers: the same stories, the same weights."""

from __future__ import annotations

import math

import numpy as np
import pytest
from reference.knock import meld_take

import rummykit as rk
from rummykit import _core
from rummykit._rules import core_rules
from rummykit.agents import GreedyAgent, make_agent, tracking

MASK64 = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15
TAKE_CHOICE, DRAW, ADD, DISCARD, LAST_CHANCE = range(5)


def _mix64(z: int) -> int:
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return z ^ (z >> 31)


class SplitMix:
    """rk_rng (rummykit/rng.h): splitmix64, Lemire's bounded draws."""

    def __init__(self, seed: int, stream: int) -> None:
        self.state = _mix64(seed ^ _mix64((stream + 0x632BE59BD9B4E019) & MASK64))

    def next(self) -> int:
        self.state = (self.state + GOLDEN) & MASK64
        return _mix64(self.state)

    def below(self, n: int) -> int:
        m = (self.next() >> 32) * n
        if m & 0xFFFFFFFF < n:
            threshold = (-n % (1 << 32)) % n
            while m & 0xFFFFFFFF < threshold:
                m = (self.next() >> 32) * n
        return m >> 32

    def uniform(self) -> float:
        return (self.next() >> 11) * 2.0**-53


def _cards(mask: int) -> list[int]:
    return [c for c in range(52) if mask >> c & 1]


def _pick(rng: SplitMix, mask: int) -> int:
    cards = _cards(mask)
    return cards[rng.below(len(cards))]


def oracle(rules, events, dealt, used, draws, logw, rate, beta, eps, high, knock_max, size, free, seed, taker):  # type: ignore[no-untyped-def]
    """The filter story by story (one list per field), as track.h states it."""

    def dw(mask: int) -> int:
        return int(_core.deadwood_batch(rules, [mask])[0])

    dealt, used, logw, rate = [int(x) for x in dealt], [int(x) for x in used], list(logw), list(rate)
    taker = [int(x) for x in taker]
    draws = [list(map(int, row)) for row in draws]
    n = len(dealt)
    rng = SplitMix(seed, 0)
    for i in range(n):  # fill the deals
        for _ in range(size - dealt[i].bit_count()):
            allowed = free & ~used[i]
            if not allowed:
                logw[i] = -math.inf
                break
            card = _pick(rng, allowed)
            dealt[i] |= 1 << card
            used[i] |= 1 << card
    hand = list(dealt)
    for kind, card, flag, extra in events:
        for i in range(n):
            if logw[i] == -math.inf:
                continue
            if kind == ADD:
                hand[i] |= 1 << card
            elif kind == DRAW:
                if draws[i][card] < 0:
                    left = free & ~used[i]
                    if not left:
                        logw[i] = -math.inf
                        continue
                    draws[i][card] = _pick(rng, left)
                    used[i] |= 1 << draws[i][card]
                hand[i] |= 1 << draws[i][card]
            elif kind in (TAKE_CHOICE, LAST_CHANCE):
                least = min(dw((hand[i] | 1 << card) & ~(1 << c)) for c in _cards(hand[i]) if c != card)
                if kind == LAST_CHANCE:
                    logw[i] += math.log(1 - eps / 2 if (least <= knock_max) == bool(flag) else eps / 2)
                elif taker[i]:
                    takes = meld_take(rules, hand[i], card, knock_max)
                    logw[i] += math.log(1 - eps / 2 if takes == bool(flag) else eps / 2)
                else:
                    prob = 1.0 / (1.0 + math.exp(-beta * (dw(hand[i]) - least - 0.5)))
                    prob = (1 - eps) * prob + eps / 2
                    logw[i] += math.log(prob if flag else 1 - prob)
            else:  # a discard
                if not hand[i] >> card & 1:
                    logw[i] = -math.inf
                    continue
                legal = [c for c in _cards(hand[i]) if c != extra]
                after = {c: dw(hand[i] & ~(1 << c)) for c in legal}
                scores = {c: -beta * after[c] + high * (c % 13) / 12 for c in legal}
                top = max(scores.values())
                soft = {c: math.exp(-beta * after[c] + high * (c % 13) / 12 - top) for c in legal}
                total = sum(soft[c] for c in legal)
                logp = math.log((1 - eps) * soft.get(card, 0.0) / total + eps / len(legal))
                if not flag & 2:
                    can = min(after.values()) <= knock_max
                    knocked = flag & 1
                    able, unable = (rate[i], eps / 2) if knocked else (1 - rate[i], 1 - eps / 2)
                    logp += math.log(able if can else unable)
                logw[i] += logp
                hand[i] &= ~(1 << card)
        if kind == ADD:
            continue
        top = max(logw)
        if top == -math.inf:
            return None
        w = [math.exp(x - top) for x in logw]
        total = sum(w)
        squares = sum((x / total) ** 2 for x in w)
        if 1.0 / squares >= n / 2:
            continue
        u, cumulative, j, index = rng.uniform(), w[0] / total, 0, []
        for i in range(n):
            position = (u + i) / n
            while (cumulative < position or w[j] == 0) and j + 1 < n:
                j += 1
                cumulative += w[j] / total
            index.append(j)
        dealt, hand, used = [dealt[j] for j in index], [hand[j] for j in index], [used[j] for j in index]
        rate, draws, logw = [rate[j] for j in index], [list(draws[j]) for j in index], [0.0] * n
        taker = [taker[j] for j in index]
    if all(x == -math.inf for x in logw):
        return None
    return dealt, hand, draws, logw, rate, used, taker


def _positions(name: str, options: dict[str, object], opponent: str, hands: int) -> list[rk.KnockState]:
    game = rk.Game(name, **options)
    me, out = GreedyAgent(max_knock_deadwood=0), []
    for s in range(hands):
        them = make_agent(opponent, seed=s)
        state = game.new_hand(seed=s)
        while not state.is_terminal():
            if state.current_player == 0 and len(state.history) > 4:
                out.append(state.clone())
            state.apply_action(me(state) if state.current_player == 0 else them(state))
    return out


@pytest.mark.parametrize(
    ("name", "options", "opponent", "beta", "high", "mixed", "takers"),
    [
        ("gin_eaai", {}, "eaai-simple", 1.0, 0.0, True, True),
        ("gin", {}, "greedy", 1.0, 1.0, False, False),
        ("oklahoma-gin", {}, "patient", 0.7, 0.0, True, False),
        ("gin", {}, "greedy", 1.0, 0.0, True, True),
        (
            "gin",
            {"knock_compare": "lt", "allow_ace_high_run": True, "stock_end_rule": "dead_at_2_last_chance"},
            "greedy",
            1.0,
            0.5,
            False,
            True,
        ),
    ],
)
def test_the_c_walk_matches_the_oracle(
    name: str, options: dict[str, object], opponent: str, beta: float, high: float, mixed: bool, takers: bool
) -> None:
    rng = np.random.default_rng(3)
    compared = resampled = 0
    for state in _positions(name, options, opponent, 5)[::4]:
        ev = tracking.public_events(state, 0, rng)
        n = 24
        dealt, draws, ok = tracking._place_hidden_discards(ev, n, rng)
        reserved = sum(1 << c for c, _ in ev.hidden_discards)
        rate = np.where(np.arange(n) % 2 == 0, 0.05, 0.975) if mixed else np.full(n, 0.975)
        taker = (np.arange(n) % 3 == 0 if takers else np.zeros(n)).astype(np.uint8)
        logw = np.where(ok, 0.0, -np.inf)
        events = np.array(ev.events, dtype=np.int8).reshape(-1, 4)
        seed = int(rng.integers(1 << 63))
        rules = core_rules(state.rules.aces)
        args = (
            events,
            dealt,
            dealt | np.uint64(reserved),
            draws,
            logw,
            rate,
            beta,
            0.05,
            high,
            ev.knock_max,
            ev.hand_size,
            ev.free & ~reserved,
            seed,
            taker,
        )
        got = _core.track_particles(rules, *args)
        want = oracle(rules, events.tolist(), *args[1:])
        assert (got is None) == (want is None)
        if got is None:
            continue
        g_dealt, g_hand, g_draws, g_logw, g_rate, g_used, g_taker = got
        w_dealt, w_hand, w_draws, w_logw, w_rate, w_used, w_taker = want
        assert g_dealt.tolist() == w_dealt and g_hand.tolist() == w_hand and g_used.tolist() == w_used
        assert g_draws.tolist() == w_draws and g_rate.tolist() == w_rate and g_taker.tolist() == w_taker
        assert np.allclose(g_logw, w_logw, rtol=1e-12, atol=1e-12)
        size = len(state.hand(1))
        assert all(h.bit_count() == size for h, lw in zip(w_hand, w_logw) if lw > -math.inf)
        compared += 1
        resampled += len(set(w_dealt)) < n
    assert compared >= 10 and resampled >= 3


def test_bad_arguments_are_refused() -> None:
    rules = core_rules("low")
    one = np.zeros(1, dtype=np.uint64)
    ok = (
        [],
        one,
        one,
        np.zeros((1, 0), np.int8),
        np.zeros(1),
        np.full(1, 0.9),
        1.0,
        0.05,
        0.0,
        10,
        10,
        (1 << 52) - 1,
        1,
    )
    assert _core.track_particles(rules, *ok) is not None
    assert _core.track_particles(rules, *ok, np.ones(1, np.uint8)) is not None
    with pytest.raises(ValueError):  # a take style is 0 or 1, one a story
        _core.track_particles(rules, *ok, np.full(1, 2, np.uint8))
    with pytest.raises(ValueError):
        _core.track_particles(rules, *ok, np.ones(2, np.uint8))
    for k, bad in ((0, [[9, 0, 0, 0]]), (0, [[1, 0, 0, 0]]), (0, [[3, 60, 0, 0]]), (7, 0.0), (10, 0), (10, 60)):
        args = list(ok)
        args[k] = bad
        with pytest.raises(ValueError):
            _core.track_particles(rules, *args)
    with pytest.raises(ValueError):
        _core.track_particles(
            rules,
            [],
            np.zeros(0, np.uint64),
            np.zeros(0, np.uint64),
            np.zeros((0, 0), np.int8),
            np.zeros(0),
            np.zeros(0),
            1.0,
            0.05,
            0.0,
            10,
            10,
            1,
            1,
        )


def test_systematic_matches_searchsorted() -> None:
    """``_core.systematic`` (``rk_systematic_next``) against numpy: the first index whose
    cumulative share reaches each of the ``count`` evenly spaced positions."""
    rng = np.random.default_rng(5)
    for _ in range(2000):
        n = int(rng.integers(1, 40))
        w = rng.random(n) * (rng.random(n) < 0.7)
        if w.sum() == 0:
            continue
        w /= w.sum()
        count, u = int(rng.integers(1, 80)), float(rng.random())
        want = np.minimum(np.searchsorted(np.cumsum(w), (u + np.arange(count)) / count), n - 1)
        got = _core.systematic(w, count, u)
        assert (got == want).all() and (w[got] > 0).all()


@pytest.mark.parametrize(
    "weights, u", [([], 0.5), ([0.0, 0.0], 0.5), ([1.0, -0.5], 0.5), ([1.0, np.nan], 0.5), ([1.0], 1.0), ([1.0], -0.1)]
)
def test_systematic_refuses_bad_input(weights: list[float], u: float) -> None:
    with pytest.raises(ValueError):
        _core.systematic(np.array(weights, dtype=np.float64), 4, u)
