"""Concurrent calls give the same answers as sequential ones."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

import rummykit as rk
import rummykit._rules
from rummykit.multideck import multi_penalty_batch


def test_batches_from_many_threads() -> None:
    rng = np.random.default_rng(3)
    arrays = [
        np.array([sum(1 << int(c) for c in rng.choice(52, 11, replace=False)) for _ in range(2_000)], dtype=np.uint64)
        for _ in range(8)
    ]
    expect = [(rk.deadwood_batch(a), rk.best_discard_batch(a)) for a in arrays]

    def run(i: int) -> bool:
        a = arrays[i % len(arrays)]
        dw, (bdw, card) = rk.deadwood_batch(a, aces="low"), rk.best_discard_batch(a)
        e_dw, (e_bdw, e_card) = expect[i % len(arrays)]
        return bool((dw == e_dw).all() and (bdw == e_bdw).all() and (card == e_card).all())

    with ThreadPoolExecutor(max_workers=8) as pool:
        assert all(pool.map(run, range(64)))


def test_scalar_calls_from_many_threads() -> None:
    hands = ["7S 8S 9S KC KD KH KS 2H 3C 4D 5S", "AS 2S 3S 7H 7D 7C 9S TS JS KD 5C"]
    expect = [(rk.best_discard(h), rk.best_melds(h)) for h in hands]

    def run(i: int) -> bool:
        h = hands[i % 2]
        return (rk.best_discard(h), rk.best_melds(h)) == expect[i % 2]

    with ThreadPoolExecutor(max_workers=8) as pool:
        assert all(pool.map(run, range(400)))


def random_counts(rng: np.random.Generator, rows: int, cards: int) -> np.ndarray:
    """Kaluki hands as (rows, 53) counts: `cards` cards from two decks and four jokers."""
    counts = np.zeros((rows, 53), dtype=np.uint8)
    for row in counts:
        for physical in rng.choice(108, cards, replace=False):
            row[min(int(physical) % 54, 52)] += 1  # 52, 53: the jokers of each deck
    return counts


def test_multi_penalty_batch_from_many_threads() -> None:
    rng = np.random.default_rng(5)
    arrays = [random_counts(rng, 150, 13) for _ in range(4)]
    settings = [(False, 15), (True, 25)]
    expect = {
        (i, s): multi_penalty_batch(a, ace_low_runs=s[0], joker_penalty=s[1])
        for i, a in enumerate(arrays)
        for s in settings
    }

    def run(k: int) -> bool:
        i, s = k % len(arrays), settings[k // len(arrays) % 2]
        return bool((multi_penalty_batch(arrays[i], ace_low_runs=s[0], joker_penalty=s[1]) == expect[i, s]).all())

    with ThreadPoolExecutor(max_workers=8) as pool:
        assert all(pool.map(run, range(32)))


def test_rules_built_concurrently_agree() -> None:
    """Threads that each ask for new rules (ace modes, card values) at once get the same answers:
    the rules cache may build a table twice but never hands out a half-built one."""
    rng = np.random.default_rng(9)
    hands = np.array([sum(1 << int(c) for c in rng.choice(52, 10, replace=False)) for _ in range(300)], dtype=np.uint64)
    variants = [
        (aces, tuple(int(v) for v in rng.integers(1, 30, 13))) for aces in ("low", "high", "both") for _ in range(3)
    ]
    expect = [rk.deadwood_batch(hands, aces=a, values=list(v)) for a, v in variants]
    rk._rules.cache.clear()  # each thread now races to build the tables

    def run(k: int) -> bool:
        aces, values = variants[k % len(variants)]
        return bool((rk.deadwood_batch(hands, aces=aces, values=list(values)) == expect[k % len(variants)]).all())

    with ThreadPoolExecutor(max_workers=9) as pool:
        assert all(pool.map(run, range(54)))


@pytest.mark.parametrize(("name", "options"), [("gin", {}), ("oklahoma-rummy", {"num_players": 4})])
def test_playouts_threads_and_concurrent_callers(name: str, options: dict[str, object]) -> None:
    """rk.playouts with threads=k equals threads=1, and Python threads calling it at once
    (each itself threaded) get the sequential answers."""
    states = [rk.Game(name, **options).new_hand(seed=s) for s in range(4)]
    for state in states[:2]:  # a few actions in
        state.apply_action(state.legal_actions()[0])
    calls = [(i, policy, seed) for i in range(len(states)) for policy in ("greedy", "random") for seed in (1, 2)]
    expect = {c: rk.playouts(states[c[0]], 60, policy=c[1], seed=c[2], threads=1) for c in calls}
    for c in calls[:4]:
        points, outcomes = rk.playouts(states[c[0]], 60, policy=c[1], seed=c[2], threads=3)
        assert (points == expect[c][0]).all() and (outcomes == expect[c][1]).all()

    def run(k: int) -> bool:
        c = calls[k % len(calls)]
        points, outcomes = rk.playouts(states[c[0]], 60, policy=c[1], seed=c[2], threads=2)
        return bool((points == expect[c][0]).all() and (outcomes == expect[c][1]).all())

    with ThreadPoolExecutor(max_workers=6) as pool:
        assert all(pool.map(run, range(3 * len(calls))))


@pytest.mark.parametrize("name", ["gin", "oklahoma-rummy", "rummy", "kaluki"])
def test_one_state_shared_by_threads_stays_consistent(name: str) -> None:
    """Threads changing one state at once: each call either works or raises
    (RummykitError naming the other thread, IllegalActionError for a move the
    other thread made stale); the state always stays a position its own
    history reaches from the deal."""
    import threading

    game = rk.Game(name)
    state = game.new_hand(seed=5, dealer=0)
    errors: list[BaseException] = []

    def hammer(seed: int) -> None:
        rng = np.random.default_rng(seed)
        for _ in range(3_000):
            try:
                roll = rng.random()
                if state.is_terminal() or roll < 0.2:
                    if state.history:
                        state.undo()
                elif roll < 0.3:
                    copy = state.clone()
                    assert len(copy.history) == len(copy._steps)
                else:
                    legal = state.legal_actions()
                    if legal:
                        state.apply_action(legal[int(rng.integers(len(legal)))])
            except (rk.IllegalActionError, rk.RummykitError):
                pass
            except BaseException as e:  # pragma: no cover - reported below
                errors.append(e)

    threads = [threading.Thread(target=hammer, args=(i,)) for i in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    fresh = game.new_hand(seed=5, dealer=0)
    for action in state.history:
        fresh.apply_action(action)
    assert (fresh.hands, fresh.stock, fresh.discards, fresh.phase, fresh.player) == (
        state.hands,
        state.stock,
        state.discards,
        state.phase,
        state.player,
    )
