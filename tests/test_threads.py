"""Concurrent calls give the same answers as sequential ones."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import numpy as np

import rummykit as rk


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
