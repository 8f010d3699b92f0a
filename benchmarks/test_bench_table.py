"""Benchmarks of the table-game engine (Rummy, Kaluki) and the Kaluki hand kernel.

Random play driven through ``legal_actions()`` + ``apply_action()`` from
Python (a uniformly random legal action each step, seeded), ``clone()`` and
``legal_actions()`` of a mid-hand state, ``observation_tensor()`` over a
whole hand in every game (target <= 5 µs at any point, issue #15), and the Kaluki hand analysis
(``rk_multi_best`` through ``_core.multi_best``, ``multi_best_melds``,
``multi_penalty_batch``) on 14-card hands with two jokers.  Targets (issue
#4, section 6): >= 1,000 random two-player Rummy hands per second, >= 300
four-player Kaluki hands per second, <= 5 µs per 14-card two-joker hand.

Every round plays hands it has not played before (the engine memoises
per-row meld tables and per-hand opening answers, which a replay of the
same hands would find already filled); one warm-up round fills the
per-geometry tables first, as a long run would.
"""

from __future__ import annotations

import itertools
import random
import time

import numpy as np
import pytest
from benchutil import min_seconds, ratio, record
from reference.multideck import best as reference_best

import rummykit as rk
from rummykit import _core
from rummykit.multideck import multi_best_melds, multi_penalty_batch
from rummykit.table.cards import JOKER, card_type
from rummykit.table.state import TableState

HANDS = 40
ROUNDS = 3


def check_hand(state: TableState) -> None:
    """A finished hand: every physical card in exactly one place, the hand
    values those of the cards left, the returns those the rules give."""
    seen = 0
    for mask in (*state.hands, *(1 << c for c in state.stock), *(1 << c for c in state.discards)):
        assert not seen & mask
        seen |= mask
    for meld in state.table:
        for c in meld.cards:
            assert not seen >> c & 1
            seen |= 1 << c
    assert seen == (1 << state.rules.deck_size) - 1
    result = state.result
    assert state.is_terminal() and result is not None
    values = state.geo.values
    assert result.hand_values == tuple(
        sum(values[card_type(c)] for c in range(state.rules.deck_size) if h >> c & 1) for h in state.hands
    )
    if result.winner is not None:
        assert state.hands[result.winner] == 0
    if state.rules.is_kaluki:
        assert result.returns == tuple(-p for p in result.penalties)  # bonuses kept apart (the default)
    elif result.winner is not None:
        factor = 2 if result.outcome == "rummy" else 1  # rummy_bonus "double"
        assert result.returns[result.winner] == factor * sum(result.hand_values)
        assert sum(result.returns) == result.returns[result.winner]


def random_hands(game: rk.TableGame, hands: int, seed: int, keep: bool = False) -> tuple[int, list[TableState]]:
    """Plays `hands` random hands, dealt from one numpy Generator of ``seed`` (as the knock games'
    loop in test_bench_knock.py: a fresh Generator per hand costs more than the deal); returns the
    number of actions and, with ``keep``, the finished states (kept only to be checked: holding
    every hand's undo entries makes the timed loop allocate megabytes that a loop letting each
    hand go does not)."""
    rng = random.Random(seed)
    deals = np.random.default_rng(seed)
    actions = 0
    out = []
    for _ in range(hands):
        state = game.new_hand(seed=deals)
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
        actions += len(state.history)
        if keep:
            out.append(state)
    return actions, out


GAMES = [
    ("rummy", 2, "rummy2", ">= 1,000/s"),
    ("rummy", 4, "rummy4", ""),
    ("rummy", 6, "rummy6", ""),
    ("kaluki", 2, "kaluki2", ""),
    ("kaluki", 4, "kaluki4", ">= 300/s"),
]


@pytest.mark.parametrize(("name", "players", "key", "target"), GAMES)
def test_random_play(benchmark, figures, name, players, key, target):
    game = rk.Game(name, num_players=players)
    seeds = itertools.count(1)
    last: list[int] = []

    def fresh_seed():
        last[:] = [next(seeds)]
        return (game, HANDS, last[0]), {}

    benchmark.pedantic(random_hands, setup=fresh_seed, rounds=ROUNDS, warmup_rounds=1)
    actions, played = random_hands(game, HANDS, last[0], keep=True)  # the last round's hands again, checked
    for state in played:
        check_hand(state)
    steps = actions / HANDS
    label = f"random {name} {players}p"
    value = record(benchmark, figures, f"table_{key}_hand", f"{label} hand", HANDS, unit="ms")
    benchmark.extra_info["mean_steps_per_hand"] = round(steps, 1)
    if value is not None:
        best = min_seconds(benchmark) / HANDS
        benchmark.extra_info["hands_per_second_median"] = round(1e3 / value, 1)
        benchmark.extra_info["hands_per_second_best"] = round(1 / best, 1)
        benchmark.extra_info["us_per_step_median"] = round(value * 1e3 / steps, 2)
        note = f"best round {1 / best:,.0f}/s"
        figures.add(f"table_{key}_rate", f"{label} hands/s", 1e3 / value, "/s", target=target, note=note)
        figures.add(
            f"table_{key}_steps", f"{label}: steps per hand", steps, "", note=f"{value * 1e3 / steps:.2f} us/step"
        )
        figures.add(f"table_{key}_step", f"{label} step", value * 1e3 / steps, "us")
        ratio(
            benchmark,
            figures,
            f"table_{key}_vs_gin",
            f"{label} step / random gin 2p step (target <= 2x)",
            f"table_{key}_step",
            "knock_gin2_step",
        )


def mid_hand_state(name: str, players: int, seed: int = 7) -> TableState:
    """A state in the play step, 60 actions or more into a seeded random hand
    (the first hand from seed ``seed`` on that lasts that long)."""
    game = rk.Game(name, num_players=players)
    for hand_seed in range(seed, seed + 100):
        state = game.new_hand(seed=hand_seed, dealer=0)
        rng = random.Random(hand_seed)
        while not state.is_terminal() and (len(state.history) < 60 or state.phase_name != "play"):
            state.apply_action(rng.choice(state.legal_actions()))
        if not state.is_terminal():
            return state
    raise ValueError(f"none of 100 {name} hands lasts 60 actions")


@pytest.mark.parametrize(("name", "players"), [("rummy", 2), ("kaluki", 4)])
def test_clone(benchmark, figures, name, players):
    state = mid_hand_state(name, players)
    copies = benchmark(lambda: [state.clone() for _ in range(1000)])
    copy = copies[0]
    assert copy is not state and copy.hands == state.hands and copy.history == state.history
    copy.apply_action(copy.legal_actions()[0])
    assert len(copy.history) == len(state.history) + 1  # independent of the original
    record(
        benchmark, figures, f"table_clone_{name}", f"TableState.clone() ({name} {players}p, mid-hand)", 1000, unit="us"
    )


@pytest.mark.parametrize(("name", "players"), [("rummy", 2), ("kaluki", 4)])
def test_legal_actions(benchmark, figures, name, players):
    state = mid_hand_state(name, players)
    expected = state.legal_actions()

    def fresh() -> list[int]:
        for _ in range(1000):
            state._legal = None  # time the computation, not the cache
            legal = state.legal_actions()
        return legal

    legal = benchmark(fresh)
    assert legal == expected == sorted(legal) and len(legal) >= 2
    record(
        benchmark,
        figures,
        f"table_legal_{name}",
        f"legal_actions() in the play step ({name} {players}p, uncached)",
        1000,
        unit="us",
    )


# ---------------------------------------------------------------------------
# observation tensors (issue #15: <= 5 us at any point of a hand, every game)
# ---------------------------------------------------------------------------

TENSOR_GAMES = [
    ("rummy", 2),
    ("rummy", 3),
    ("rummy", 4),
    ("rummy", 5),
    ("rummy", 6),
    ("kaluki", 2),
    ("kaluki", 3),
    ("kaluki", 4),
    ("kaluki", 5),
    ("kalooki_51", 3),
]
TENSOR_POINTS = 24
TENSOR_CALLS = 40


def hand_points(name: str, players: int, seed: int = 11) -> list[TableState]:
    """States spread over a whole seeded hand, the deal and the end included:
    melds and lay-offs are played 80% of the time they are legal (a table that
    fills as in real play), the first hand from ``seed`` on that lasts 60
    actions or more."""
    game = rk.Game(name, num_players=players)
    for hand_seed in range(seed, seed + 100):
        state = game.new_hand(seed=hand_seed, dealer=0)
        rng = random.Random(hand_seed)
        states = [state.clone()]
        while not state.is_terminal():
            legal = state.legal_actions()
            plays = [a for a in legal if a >= 64]
            state.apply_action(rng.choice(plays if plays and rng.random() < 0.8 else legal))
            states.append(state.clone())
        if len(states) > 60:
            step = (len(states) - 1) / (TENSOR_POINTS - 1)
            return [states[round(i * step)] for i in range(TENSOR_POINTS)]
    raise ValueError(f"no {name} hand lasts 60 actions")


@pytest.mark.parametrize(("name", "players"), TENSOR_GAMES)
def test_observation_tensor(benchmark, figures, name, players):
    """``state.observation_tensor(seat)`` (each seat in turn) at 24 points of a
    hand from the deal to the end, TENSOR_CALLS calls at each point; the
    slowest point is timed apart (the best of 5 loops of 200 calls,
    ``time.process_time``) and noted."""
    from reference.table_observe import observation_tensor as reference_tensor

    states = hand_points(name, players)
    calls = [(s.observation_tensor, k % s.n) for s in states for k in range(TENSOR_CALLS)]
    for s in states:  # the tensor timed is the one the history walk gives
        for p in range(s.n):
            assert np.array_equal(s.observation_tensor(p), reference_tensor(s, p))

    def run():
        for f, p in calls:
            f(p)

    benchmark(run)
    worst, where = 0.0, 0
    for i, s in enumerate(states):
        f = s.observation_tensor
        best = min(_cpu_loop(time.process_time, f, s.n) for _ in range(5))
        if best > worst:
            worst, where = best, i
    label = f"observation_tensor() ({name} {players}p, any point of a hand)"
    actions = len(states[where].history)
    note = f"slowest point {worst * 1e6:.2f} us (CPU), point {where} of {TENSOR_POINTS}, {actions} actions"
    benchmark.extra_info["slowest_point_us_cpu"] = round(worst * 1e6, 3)
    record(
        benchmark, figures, f"table_tensor_{name}{players}", label, len(calls), unit="us", target="<= 5 us", note=note
    )


@pytest.mark.parametrize(("name", "players"), [("rummy", 2), ("kaluki", 4)])
def test_determinize_and_information_state(benchmark, figures, name, players):
    """``state.determinize(seat, seed)`` (rk_table_world_of: the C sampler, the
    history replayed on the sampled deck in C) and ``information_state_string(seat)`` at
    the 24 points of a hand of the tensor benchmark, each seat in turn; one
    determinization per point is checked to look the same to its seat."""
    states = hand_points(name, players)
    for i, s in enumerate(states):
        seat = i % s.n
        det = s.determinize(seat, i)
        assert det.information_state_string(seat) == s.information_state_string(seat)
    calls = [(s, i % s.n) for i, s in enumerate(states)]

    def run():
        for s, seat in calls:
            s.determinize(seat, seat)

    benchmark(run)
    record(
        benchmark,
        figures,
        f"table_determinize_{name}",
        f"TableState.determinize() ({name} {players}p, 24 points of a hand)",
        len(calls),
        unit="us",
    )
    start = time.process_time()
    for s, seat in calls:
        s.information_state_string(seat)
    cpu = (time.process_time() - start) / len(calls)
    figures.add(
        f"table_infostate_{name}",
        f"information_state_string() ({name} {players}p, 24 points, CPU, one pass)",
        cpu * 1e6,
        "us",
    )


def _cpu_loop(clock, f, n: int, calls: int = 200) -> float:
    """Seconds of ``clock`` per call of ``f(seat)`` over ``calls`` calls (seats in turn)."""
    seats = [k % n for k in range(calls)]
    start = clock()
    for p in seats:
        f(p)
    return (clock() - start) / calls


# ---------------------------------------------------------------------------
# the Kaluki hand kernel: 14-card hands with two jokers
# ---------------------------------------------------------------------------

KERNEL_HANDS = 2_000


def two_joker_hands(n: int, seed: int) -> list[tuple[int, int, int]]:
    """``n`` (one, two, jokers) hands: 12 natural cards from two decks plus both jokers."""
    rng = random.Random(seed)
    deck = list(range(52)) * 2
    out = []
    for _ in range(n):
        one = two = 0
        for t in rng.sample(deck, 12):
            if one >> t & 1:
                two |= 1 << t
            else:
                one |= 1 << t
        out.append((one, two, 2))
    return out


@pytest.fixture(scope="module")
def kaluki14() -> list[tuple[int, int, int]]:
    return two_joker_hands(KERNEL_HANDS, 20261204)


def types_of(hand: tuple[int, int, int]) -> tuple[int, ...]:
    one, two, jokers = hand
    return (
        tuple(sorted([t for t in range(52) if one >> t & 1] + [t for t in range(52) if two >> t & 1]))
        + (JOKER,) * jokers
    )


@pytest.mark.parametrize("objective", ["value", "penalty"])
def test_multi_best_core(benchmark, figures, kaluki14, objective):
    code = _core.MULTI_VALUE if objective == "value" else _core.MULTI_PENALTY
    results = benchmark(lambda: [_core.multi_best(o, t, j, code, -1, False, 15) for o, t, j in kaluki14])
    for hand, raw in list(zip(kaluki14, results))[:5]:  # the brute force takes ~1 s a hand
        _melds, value, penalty, _left = raw
        assert reference_best(types_of(hand), objective) == (value, penalty)
    record(
        benchmark,
        figures,
        f"multi_best_{objective}",
        f"_core.multi_best, 14 cards with 2 jokers ({objective})",
        KERNEL_HANDS,
        unit="us",
        target="<= 5 us",
    )


def test_multi_best_melds_api(benchmark, figures, kaluki14):
    hands = [types_of(h) for h in kaluki14[:500]]
    results = benchmark(lambda: [multi_best_melds(h) for h in hands])
    for hand, arr in zip(kaluki14, results):
        assert arr is not None and arr.penalty == _core.multi_penalty(*hand, False, 15)
    record(
        benchmark,
        figures,
        "multi_best_melds",
        "multi_best_melds(list of types), 14 cards with 2 jokers",
        500,
        unit="us",
    )


def test_multi_penalty_batch(benchmark, figures, kaluki14):
    counts = np.zeros((len(kaluki14), 53), dtype=np.uint8)
    for i, (one, two, jokers) in enumerate(kaluki14):
        for t in range(52):
            counts[i, t] = (one >> t & 1) + (two >> t & 1)
        counts[i, JOKER] = jokers
    out = benchmark(multi_penalty_batch, counts)
    sample = range(0, len(kaluki14), 97)
    assert [int(out[i]) for i in sample] == [_core.multi_penalty(*kaluki14[i], False, 15) for i in sample]
    record(
        benchmark,
        figures,
        "multi_penalty_batch",
        "multi_penalty_batch, 14 cards with 2 jokers, per hand",
        len(kaluki14),
        unit="us",
        target="<= 5 us",
    )
