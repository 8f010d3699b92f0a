"""determinize(seat, rng) samples the worlds consistent with what ``seat``
knows uniformly: a chi-square test against an exact
enumeration, on positions late in a hand where few cards are unknown.

What ``seat`` cannot see is the other hands less their known cards (cards
seen taken from the pile and still held) and the stock, in order.  A world
puts those physical cards back into these places: every way of doing so is
a deal as likely as any other (no restock has happened, so every unseen
card is in one group, and no joker on the table bans a card), so the exact
distribution is counted by enumerating all of them.  The statistic is the
world as the rules see it: each other seat's hidden cards as a multiset of
card types and the stock as a sequence of types.  With two decks (Kaluki)
the two copies of a card are the same type, so several physical worlds give
one statistic and the expected frequencies are not uniform (hypergeometric).

The chi-square statistic over many determinizations (a fixed seed: the test
is deterministic) is compared with the critical value at significance 1e-4
(computed here: scipy is not a test dependency).  ``test_a_biased_sampler_fails`` shows that the test
catches a classic bias: the naive shuffle (swap each place with any place).
"""

from __future__ import annotations

import functools
import math
import random
from collections import Counter
from collections.abc import Callable, Iterator
from itertools import combinations, permutations
from typing import Any

import numpy as np
import pytest

import rummykit as rk
from rummykit.knock.actions import DRAW_STOCK, KNOCK
from rummykit.table.actions import TableAction
from rummykit.table.cards import card_type

#: the significance of the test
ALPHA = 1e-4


def chi2_sf(x: float, df: int) -> float:
    """P(X > x) for X chi-square with ``df`` degrees of freedom: the
    regularized upper incomplete gamma function Q(df/2, x/2) (a series below
    a + 1, a continued fraction above, as in Numerical Recipes)."""
    a, x = df / 2.0, x / 2.0
    if x <= 0:
        return 1.0
    log_front = -x + a * math.log(x) - math.lgamma(a)
    if x < a + 1:
        term = total = 1.0 / a
        n = a
        while abs(term) > abs(total) * 1e-15:
            n += 1
            term *= x / n
            total += term
        return 1.0 - math.exp(log_front) * total
    tiny = 1e-300
    b = x + 1.0 - a
    c, d = 1.0 / tiny, 1.0 / b
    h = d
    for i in range(1, 10_000):
        an = -i * (i - a)
        b += 2.0
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1.0 / d
        h *= d * c
        if abs(d * c - 1.0) < 1e-15:
            break
    return math.exp(log_front) * h


def chi2_critical(df: int, alpha: float = ALPHA) -> float:
    """The x with chi2_sf(x, df) = alpha (bisection)."""
    lo, hi = 0.0, df + 100.0 * math.sqrt(df) + 100.0
    for _ in range(200):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if chi2_sf(mid, df) > alpha else (lo, mid)
    return lo


def test_chi2_critical() -> None:
    # for even df, P(X > x) = exp(-x/2) sum_{i < df/2} (x/2)^i / i!; solved for 1e-4
    for df, value in ((10, 35.564014), (100, 161.318657), (1000, 1174.933497)):
        assert chi2_critical(df) == pytest.approx(value, rel=1e-6)
    assert chi2_sf(9.0, 3) == pytest.approx(0.029291, rel=1e-4)  # tables: chi2(3) > 9 has p 0.0293


# --- positions --------------------------------------------------------------


def _bits(mask: int) -> list[int]:
    return [c for c in range(mask.bit_length()) if mask >> c & 1]


def _knock_policy(state: Any, rng: random.Random) -> int:
    """A random legal action that never knocks (so the hand runs to the end of the stock)."""
    legal = state.legal_actions()
    return rng.choice([a for a in legal if not KNOCK <= a < DRAW_STOCK] or legal)


def _table_policy(state: Any, rng: random.Random) -> int:
    """Draw from the stock most of the time; melds and lay-offs half of the time."""
    legal = state.legal_actions()
    kinds = {a: TableAction.from_id(a).kind for a in legal}
    draws = [a for a in legal if kinds[a] in ("draw", "take")]
    if draws:
        plain = [a for a in draws if kinds[a] == "draw"]
        return rng.choice(draws) if rng.random() < 0.3 or not plain else plain[0]
    plays = [a for a in legal if kinds[a] != "discard"]
    if plays and rng.random() < 0.5:
        return rng.choice(plays)
    return rng.choice([a for a in legal if kinds[a] == "discard"] or legal)


class World:
    """The places ``seat`` cannot see in ``state``: the other seats'
    hidden cards and the stock; ``kind`` maps a physical card to its type."""

    def __init__(self, state: Any, seat: int, kind: Callable[[int], int]) -> None:
        self.seat, self.kind = seat, kind
        self.others = [q for q in range(state.n) if q != seat]
        self.hidden = {q: _bits(state.hands[q] & ~state.known[q]) for q in self.others}
        self.stock = list(state.stock)
        self.unseen = sorted(c for q in self.others for c in self.hidden[q]) + sorted(self.stock)

    def key(self, state: Any) -> tuple[Any, ...]:
        """The statistic: each other seat's hidden types (sorted), the stock's types in order."""
        hands = tuple(tuple(sorted(self.kind(c) for c in _bits(state.hands[q] & ~state.known[q]))) for q in self.others)
        return hands, tuple(self.kind(c) for c in state.stock)

    def worlds(self) -> Iterator[tuple[Any, ...]]:
        """The statistic of every physical world: the stock an ordered choice
        of the unseen cards, the other seats' hidden cards the rest."""
        s = len(self.stock)
        for stock in permutations(self.unseen, s):
            rest = list(self.unseen)
            for c in stock:
                rest.remove(c)
            yield from self._hands(rest, 0, (), tuple(self.kind(c) for c in stock))

    def _hands(self, rest: list[int], i: int, hands: tuple[Any, ...], stock: tuple[int, ...]) -> Iterator[Any]:
        if i == len(self.others) - 1:
            yield hands + (tuple(sorted(self.kind(c) for c in rest)),), stock
            return
        for mine in combinations(rest, len(self.hidden[self.others[i]])):
            left = [c for c in rest if c not in mine]
            yield from self._hands(left, i + 1, hands + (tuple(sorted(self.kind(c) for c in mine)),), stock)

    def expected(self) -> dict[tuple[Any, ...], float]:
        counts = Counter(self.worlds())
        total = sum(counts.values())
        return {key: n / total for key, n in counts.items()}


def find_position(
    game: Any,
    policy: Callable[[Any, random.Random], int],
    good: Callable[[Any], bool],
    seeds: range,
) -> Any:
    """The first state of a seeded hand (played by ``policy``) where ``good`` holds."""
    for seed in seeds:
        state = game.new_hand(seed=seed, dealer=0)
        rng = random.Random(seed)
        while not state.is_terminal():
            if good(state):
                return state
            state.apply_action(policy(state, rng))
    raise AssertionError("no such position in the seeds tried")


def _identity(c: int) -> int:
    return c


def _cells(state: Any, kind: Callable[[int], int]) -> int:
    return len(World(state, state.player, kind).expected())


@functools.cache
def gin_late() -> tuple[Any, int, Callable[[int], int]]:
    """Gin, stock of 3: the other seat took cards from the pile (known) and holds 4-5 unseen cards."""

    def good(s: Any) -> bool:
        if s.phase_name != "draw" or len(s.stock) > 3:
            return False
        q = 1 - s.player
        return (
            s.known[q] != 0 and 4 <= (s.hands[q] & ~s.known[q]).bit_count() <= 5 and 100 <= _cells(s, _identity) <= 250
        )

    state = find_position(rk.Game("gin"), _knock_policy, good, range(1, 200))
    return state, state.player, _identity


@functools.cache
def table_late(game: str, duplicates: bool) -> tuple[Any, int, Callable[[int], int]]:
    """Rummy or Kaluki, a stock of 2-3 before the first restock, melds on the
    table; Kaluki: two copies of a type among the unseen cards."""

    def good(s: Any) -> bool:
        if s.phase_name != "draw" or not 2 <= len(s.stock) <= 3 or s.restocks or not s.table:
            return False
        q = 1 - s.player
        hidden = _bits(s.hands[q] & ~s.known[q])
        if not 4 <= len(hidden) <= 6:
            return False
        types = [card_type(c) for c in hidden + list(s.stock)]
        if duplicates and len(set(types)) == len(types):
            return False
        world = World(s, s.player, card_type).expected()
        return 30 <= len(world) and 1 / min(world.values()) <= 150

    state = find_position(rk.Game(game), _table_policy, good, range(1, 400))
    return state, state.player, card_type


# --- the test ---------------------------------------------------------------


def chi_square(
    state: Any, seat: int, kind: Callable[[int], int], samples: int, seed: int
) -> list[tuple[str, float, float]]:
    """(statistic, its chi-square value, its critical value) of ``samples``
    determinizations for ``seat``, for the world's statistic and its margins
    (each other seat's hidden cards, each place of the stock): several
    tests, so each at ALPHA / their number (Bonferroni)."""
    world = World(state, seat, kind)
    expected = world.expected()
    assert sum(expected.values()) == pytest.approx(1.0)
    observed: Counter[tuple[Any, ...]] = Counter()
    gen = np.random.default_rng(seed)
    view = state.observation(seat)
    history = state.information_state_string(seat)

    def types(masks: tuple[int, ...]) -> list[list[int]]:
        return [sorted(kind(c) for c in _bits(m)) for m in masks]

    for i in range(samples):
        other = state.determinize(seat, gen)
        key = world.key(other)
        assert key in expected, "a world that seat could tell apart"
        # as types: which copy of a Kaluki card is which is not seen
        assert types(other.known) == types(state.known)
        assert types(other.hands)[seat] == types(state.hands)[seat]
        if i < 50:
            assert other.observation(seat) == view
            assert other.information_state_string(seat) == history
        observed[key] += 1
    margins: dict[str, Callable[[tuple[Any, ...]], Any]] = {"world": lambda key: key}
    for i, q in enumerate(world.others):
        margins[f"seat {q}"] = lambda key, i=i: key[0][i]
    for i in range(len(world.stock)):
        margins[f"stock {i}"] = lambda key, i=i: key[1][i]
    out = []
    for name, margin in margins.items():
        want: Counter[Any] = Counter()
        got: Counter[Any] = Counter()
        for key, p in expected.items():
            want[margin(key)] += p
        for key, n in observed.items():
            got[margin(key)] += n
        if len(want) < 2:
            continue
        stat = sum((got[k] - samples * p) ** 2 / (samples * p) for k, p in want.items())
        out.append((name, stat, chi2_critical(len(want) - 1, ALPHA / len(margins))))
    return out


def _samples(state: Any, seat: int, kind: Callable[[int], int], per_cell: float = 20) -> int:
    """Enough samples for ``per_cell`` expected hits in the least likely cell."""
    return math.ceil(per_cell / min(World(state, seat, kind).expected().values()))


POSITIONS: dict[str, Callable[[], tuple[Any, int, Callable[[int], int]]]] = {
    "gin": gin_late,
    "rummy": lambda: table_late("rummy", duplicates=False),
    "kaluki": lambda: table_late("kaluki", duplicates=True),
}
SEED = 20261203


@pytest.mark.parametrize("name", list(POSITIONS))
def test_determinize_is_uniform(name: str) -> None:
    state, seat, kind = POSITIONS[name]()
    world = World(state, seat, kind)
    if name == "kaluki":  # duplicate types: the expected frequencies are not all equal
        assert len(set(world.expected().values())) > 1
    assert 30 <= len(world.expected()) <= 250
    for margin, stat, critical in chi_square(state, seat, kind, _samples(state, seat, kind), SEED):
        assert stat < critical, f"{name}, {margin}: chi-square {stat:.1f} > {critical:.1f}"


@pytest.mark.long
@pytest.mark.parametrize("name", list(POSITIONS))
def test_a_biased_sampler_fails(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The test's power: the same samples and thresholds reject a biased
    determinize, one that returns the real world 5% of the time."""
    state, seat, kind = POSITIONS[name]()
    samples = _samples(state, seat, kind)
    unbiased = type(state).determinize
    coin = random.Random(1)

    def biased(self: Any, player: int, rng: Any = None) -> Any:
        return self.clone() if coin.random() < 0.05 else unbiased(self, player, rng)

    monkeypatch.setattr(type(state), "determinize", biased)
    assert any(stat > critical for _, stat, critical in chi_square(state, seat, kind, samples, SEED))
