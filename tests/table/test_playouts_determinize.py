"""The C determinization of the table games' playouts
(``rk_table_determinize``, fed by :func:`rummykit.table.playouts.hidden_spec`)
against the Python one of tests/reference/table_observe.py (the sampler
:func:`rummykit.table.observe.determinize` used before it became the C one):

* every C sample is a world the observer cannot tell from the real one: its
  sampled places rebuild a deck whose replay of the whole history gives the
  same observation and information-state string, and the hands and stock the
  C sampler built (at nodes of random hands of every variant: restocks,
  turned-over stocks, jokers in runs, Kalooki 51, the end of the hand, another
  seat in the middle of its turn);
* it is uniform where the worlds can be counted (the chi-square test of
  tests/engine/test_determinize_uniform.py, against exact enumeration);
* it has the distribution of the Python sampler (``ref._sample``) on
  positions with restocks and joker bans (two-sample chi-square tests on
  which cards each seat holds and on the top of the stock).
"""

from __future__ import annotations

import functools
import random
from collections import Counter
from typing import Any

import numpy as np
import pytest
from engine.test_determinize_uniform import ALPHA, SEED, World, _samples, chi2_critical, table_late
from long_runs import LONG
from reference import table_observe as ref

import rummykit as rk
from rummykit import _core
from rummykit._random import Uniforms
from rummykit.table import observe
from rummykit.table.actions import DRAW, LAYOFF, MELD_RUN
from rummykit.table.cards import JOKER, card_type, types_of
from rummykit.table.playouts import HiddenLists, hidden_lists, hidden_spec
from rummykit.table.state import TableState

VARIANTS: list[tuple[str, dict[str, Any]]] = [
    ("rummy", {}),
    ("rummy", {"num_players": 4}),
    ("rummy", {"num_players": 3, "restock_method": "turn_over"}),
    ("rummy", {"taken_discard_must_be_melded": True, "ace_rank": "high_or_low"}),
    ("kaluki", {}),
    ("kaluki", {"num_players": 4}),
    ("kalooki_51", {"num_players": 3}),
]
IDS = [f"{name}-{i}" for i, (name, _) in enumerate(VARIANTS)]


def hurry(state: TableState, rng: random.Random) -> int:
    """A random legal action, most often a meld or lay-off when there is one."""
    legal = state.legal_actions()
    plays = [a for a in legal if a >= LAYOFF]
    return rng.choice(plays if plays and rng.random() < 0.8 else legal)


def played_hand(game: Any, seed: int) -> list[TableState]:
    """Every state of a randomly played hand."""
    state = game.new_hand(seed=seed)
    rng = random.Random(seed)
    out = [state.clone()]
    while not state.is_terminal():
        state.apply_action(hurry(state, rng))
        out.append(state.clone())
    return out


def replayed(state: TableState, player: int, places: list[tuple[int, int, int]], sample: tuple[Any, ...]) -> TableState:
    """The C sample as observe.determinize builds a state: a deck from the
    sampled places (dealt cards, stock draws) and stock, the history replayed
    on it (reshuffle restocks take the sampled order of their group)."""
    _, _, _, stock, _, place_types = sample
    steps = ref._walk(state)
    rules, n, size = state.rules, state.n, state.rules.hand_size
    dealt: dict[int, list[int]] = {q: [] for q in range(n)}
    drawn: dict[int, int] = {}
    for (q, _, time), t in zip(places, place_types):
        if time < 0:
            dealt[q].append(t)
        else:
            drawn[time] = t
    dealt[player] = [card_type(c) for c in ref._dealt(state, player)]
    for time, st in enumerate(steps):  # the observer's draws and a turned-over stock's are known
        if st.action == DRAW and st.came and time not in drawn:
            drawn[time] = ref._low_type(st.came)
    turn_over = rules.restock_method == "turn_over"
    reshuffles = [time for time, st in enumerate(steps) if st.pile is not None and not turn_over]
    stocks: list[list[int]] = [[]]
    for time, st in enumerate(steps):
        if st.action == DRAW and st.pile is not None:
            stocks.append([])
        if time in drawn:
            stocks[-1].append(drawn[time])
    stocks[-1].extend(card_type(c) for c in reversed(stock))
    deck = [dealt[(state.dealer + 1 + i) % n][i // n] for i in range(size * n)]
    deck.append(card_type(state.deck[size * n]))
    deck.extend(stocks[0])
    other = state.game.new_hand(seed=0, dealer=state.dealer, deck=ref._physical(deck))
    for time, action in enumerate(state.history):
        if time not in reshuffles:
            other.apply_action(action)
            continue
        pile: dict[int, list[int]] = {}
        for c in other.discards[:-1]:
            pile.setdefault(card_type(c), []).append(c)
        order = [pile[t].pop() for t in stocks[reshuffles.index(time) + 1]]
        seat, hand = other.player, other.hands[other.player]
        other.apply_action(action)
        other = other.with_fields(hands=other.hands[:seat] + (hand | 1 << order[0],) + other.hands[seat + 1 :])
        other = other.with_fields(stock=tuple(reversed(order[1:])))
    return other


def check_sample(state: TableState, player: int, seed: int) -> dict[str, int]:
    """One C sample, rebuilt here independently of the library (``replayed``),
    and ``observe.determinize`` with the generator that gives the same C seed."""
    lists = hidden_lists(state, player)
    assert lists == ref.hidden_lists(state, player)  # the step log gives the bookkeeping of the history
    c_seed = int(np.random.default_rng(seed).bit_generator.random_raw())
    sample = _core.table_determinize(state, hidden_spec(state, player), c_seed)
    sampled, hands, known, stock, shuffle_seed, _ = sample
    assert sampled, "the C sampler fell back to the real cards"
    assert types_of(hands[player]) == types_of(state.hands[player])
    assert [card_type(c) for c in stock] != [] or not state.stock
    other = replayed(state, player, lists.places, sample)
    assert observe.observation(other, player) == observe.observation(state, player)
    assert observe.information_state_string(other, player) == observe.information_state_string(state, player)
    for q in range(state.n):
        assert types_of(other.hands[q]) == types_of(hands[q]), f"seat {q}"
        assert known[q] & ~hands[q] == 0
    assert [card_type(c) for c in other.stock] == [card_type(c) for c in stock]
    assert shuffle_seed != state.shuffle_seed
    det = observe.determinize(state, player, np.random.default_rng(seed))
    assert [types_of(h) for h in det.hands] == [types_of(h) for h in other.hands]
    assert [card_type(c) for c in det.stock] == [card_type(c) for c in other.stock]
    assert [card_type(c) for c in det.deck] == [card_type(c) for c in other.deck]
    assert det.history == state.history and det.shuffle_seed == shuffle_seed
    return {"fills": len(lists.fills), "bans": len(lists.bans), "groups": len(lists.pools)}


@pytest.mark.parametrize(("name", "options"), VARIANTS, ids=IDS)
def test_c_samples_are_worlds_the_observer_cannot_tell_apart(name: str, options: dict[str, Any]) -> None:
    game = rk.Game(name, **options)
    seen: Counter[str] = Counter()
    for hand in range(6 if LONG else 1):
        states = played_hand(game, 40 + hand)
        every = 1 if LONG else max(1, len(states) // 12)
        for i, state in enumerate(states[::every] + [states[-1]]):
            for player in range(state.n):
                counts = check_sample(state, player, seed=i * 10 + player)
                seen.update({k: int(v > (k == "groups")) for k, v in counts.items()})
                seen["mid turn"] += state.phase_name == "play" and player != state.player
                seen["end"] += state.is_terminal()
                seen["nodes"] += 1
    assert seen["fills"] and seen["mid turn"] and seen["end"], seen


def test_jokers_in_runs_ban_their_cards() -> None:
    """A Kaluki hand where a seat laid runs with jokers: the bans are in the spec and the
    samples replay."""
    game = rk.Game("kaluki", num_players=3)
    for seed in range(200):
        states = played_hand(game, seed)
        final = states[-1]
        if any(a >= MELD_RUN and a % 8192 for a in final.history):
            break
    found = 0
    for state in states:
        for player in range(state.n):
            if hidden_lists(state, player).bans:
                found += 1
                if found % 5 == 1:
                    check_sample(state, player, seed=found)
    assert found


# --- uniform where it can be counted ----------------------------------------


@pytest.mark.parametrize("name", ["rummy", "kaluki"])
def test_c_determinize_is_uniform(name: str) -> None:
    state, seat, kind = table_late(name, duplicates=name == "kaluki")
    world = World(state, seat, kind)
    expected = world.expected()
    samples = _samples(state, seat, kind)
    hidden = hidden_spec(state, seat)
    observed: Counter[tuple[Any, ...]] = Counter()

    class Sampled:  # what World.key reads
        def __init__(self, hands: tuple[int, ...], known: tuple[int, ...], stock: tuple[int, ...]) -> None:
            self.hands, self.known, self.stock = hands, known, stock

    for i in range(samples):
        _, hands, known, stock, _, _ = _core.table_determinize(state, hidden, SEED + i)
        key = world.key(Sampled(hands, known, stock))
        assert key in expected, "a world that seat could tell apart"
        observed[key] += 1
    stat = sum((observed[k] - samples * p) ** 2 / (samples * p) for k, p in expected.items())
    assert stat < chi2_critical(len(expected) - 1, ALPHA), f"chi-square {stat:.1f}"


# --- the same distribution as the Python sampler ------------------------------


def python_world(state: TableState, player: int, steps: list[Any], draw: Uniforms) -> tuple[list[list[int]], list[int]]:
    """The held types per seat and the stock (top first) of one ref._sample."""
    while True:
        plan = ref._sample(state, player, steps, draw)
        if plan is not None:
            return [sorted(h) for h in plan.held], plan.stock


def c_world(state: TableState, hidden: Any, seed: int) -> tuple[list[list[int]], list[int]]:
    _, hands, _, stock, _, _ = _core.table_determinize(state, hidden, seed)
    return [types_of(h) for h in hands], [card_type(c) for c in reversed(stock)]


def two_sample_stats(a: list[Any], b: list[Any]) -> tuple[float, int]:
    """Chi-square statistic of the 2 x k table of two samples of a category, and its degrees of freedom."""
    ca, cb = Counter(a), Counter(b)
    cats = sorted(set(ca) | set(cb), key=repr)
    na, nb = len(a), len(b)
    stat = 0.0
    for c in cats:
        total = ca[c] + cb[c]
        for count, n in ((ca[c], na), (cb[c], nb)):
            want = total * n / (na + nb)
            stat += (count - want) ** 2 / want
    return stat, len(cats) - 1


def find(game: Any, want: Any, seeds: range) -> TableState:
    for seed in seeds:
        for state in played_hand(game, seed):
            if want(state):
                return state
    raise AssertionError("no such position")


POSITIONS = {
    "rummy restocked": lambda: find(
        rk.Game("rummy", num_players=4),
        lambda s: s.restocks >= 1 and s.phase_name == "draw" and len(s.stock) >= 6 and len(s.history) > 60,
        range(100),
    ),
    "kaluki bans": lambda: find(
        rk.Game("kaluki", num_players=3),
        lambda s: s.phase_name == "draw" and any(hidden_lists(s, s.player).bans for _ in [0]) and len(s.stock) > 10,
        range(200),
    ),
}


@functools.cache
def python_samples(name: str) -> tuple[TableState, list[tuple[list[list[int]], list[int]]]]:
    state = POSITIONS[name]()
    draw = Uniforms(np.random.default_rng(SEED))
    steps = ref._walk(state)
    return state, [python_world(state, state.player, steps, draw) for _ in range(SAMPLES)]


def worst(name: str, lists: HiddenLists) -> tuple[float, str]:
    """The largest chi-square statistic over its critical value, of the
    two-sample tests between the Python sampler and the C sampler given
    ``lists``: the top of the stock, and how many cards of each type each
    other seat holds (Bonferroni over them)."""
    state, py = python_samples(name)
    player = state.player
    hidden = _core.TableHidden(_core.TABLE_RESAMPLE_HIDDEN, player, lists.stock_group, lists.now, *lists[:5])
    c = [c_world(state, hidden, SEED + i) for i in range(SAMPLES)]
    tests: list[tuple[str, list[Any], list[Any]]] = [("stock top", [w[1][0] for w in py], [w[1][0] for w in c])]
    for q in range(state.n):
        if q == player:
            continue
        for t in range(JOKER + 1):
            a = [w[0][q].count(t) for w in py]
            b = [w[0][q].count(t) for w in c]
            if len(set(a) | set(b)) > 1:
                tests.append((f"seat {q} type {t}", a, b))
    # every other seat holds as many cards in both
    others = [q for q in range(state.n) if q != player]
    assert {tuple(len(w[0][q]) for q in others) for w in py} == {tuple(len(w[0][q]) for q in others) for w in c}
    out = []
    for label, a, b in tests:
        stat, df = two_sample_stats(a, b)
        out.append((stat / chi2_critical(df, ALPHA / len(tests)), label))
    return max(out)


SAMPLES = 4000 if LONG else 1200


@pytest.mark.parametrize("name", list(POSITIONS))
def test_c_and_python_samplers_agree(name: str) -> None:
    state, _ = python_samples(name)
    lists = hidden_lists(state, state.player)
    assert lists.fills and (lists.bans or len(lists.pools) > 1)
    ratio, label = worst(name, lists)
    assert ratio < 1, f"{name}, {label}: chi-square {ratio:.2f} times its critical value"


@pytest.mark.long
def test_the_two_sample_tests_catch_a_wrong_spec() -> None:
    """The power of the test above: the same samples and thresholds reject a
    C sampler that ignores the restock groups, or the joker bans."""
    state, _ = python_samples("rummy restocked")
    lists = hidden_lists(state, state.player)
    merged = [sum(column) for column in zip(*lists.pools)]
    one_group = lists._replace(pools=[merged], places=[(q, 0, t) for q, _, t in lists.places], stock_group=0)
    assert worst("rummy restocked", one_group)[0] > 1
    state, _ = python_samples("kaluki bans")
    lists = hidden_lists(state, state.player)
    assert worst("kaluki bans", lists._replace(bans=[]))[0] > 1
