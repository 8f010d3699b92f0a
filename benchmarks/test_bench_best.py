"""What a decision of ``best`` costs in Gin, what its particle filter costs, and what playing
every sampled opponent hand of a candidate in one C call (``_core.run_playouts_hands``) saves
over one bridge call a hand.

Run: ``python -m pytest benchmarks/test_bench_best.py --benchmark-only -n 0
--benchmark-timer=time.process_time``.  Figures are reported, never asserted; each benchmark
first checks what it times (the one-call playouts give the per-hand calls' results).
"""

from __future__ import annotations

import numpy as np
from benchutil import ratio, record

import rummykit as rk
from rummykit import _core
from rummykit._rules import core_rules
from rummykit.agents import GreedyAgent, make_agent
from rummykit.agents.best import _ALL, _spec, _spec_parts
from rummykit.cards import ids_mask, mask_ids

#: Gin positions of seat 0 from greedy hands (every third of its decisions)
HANDS = 12
#: opponent hands and playouts each of the one-call comparison (``best``'s defaults)
SAMPLES, PLAYOUTS = 64, 12


def _positions() -> list[rk.KnockState]:
    game, greedy, out = rk.Game("gin_eaai"), GreedyAgent(), []
    for seed in range(HANDS):
        state, n = game.new_hand(seed=seed), 0
        while not state.is_terminal():
            if state.current_player == 0 and n % 3 == 0:
                out.append(state.clone())
            n += 1
            state.apply_action(greedy(state))
    return out


def test_best_decision(benchmark, figures) -> None:
    """``make_agent("best")`` (seeded) on every position: ms per decision, CPU time."""
    positions = _positions()
    agent = make_agent("best", 1)

    def decide() -> list[int]:
        return [agent(state.clone()) for state in positions]

    moves = benchmark.pedantic(decide, rounds=3, iterations=1, warmup_rounds=1)
    assert all(move in state.legal_actions() for move, state in zip(moves, positions, strict=True))
    record(
        benchmark, figures, "best_gin_decision", "best, a Gin decision", len(positions), unit="ms", target="<= 20 ms"
    )


class _Case:
    """A Gin discard position after greedy's move as ``best`` scores it: the spec with no
    opponent hand and every unseen card hidden in the stock, and 64 opponent hands."""

    def __init__(self) -> None:
        state = next(s for s in _positions() if s.phase_name == "discard" and len(s.history) > 10)
        self.rules, played = core_rules(state.rules.aces), state.rules
        self.child = state.clone()
        self.child.apply_action(GreedyAgent()(state))
        seen, held = self.child.observation(0), self.child.hands[0]
        self.known = ids_mask(seen.discard_pile) | held
        self.build = lambda hand: _spec(
            played, 0, _spec_parts(seen), held, hand, mask_ids(_ALL & ~(self.known | hand)), False
        )
        self.spec = self.build(0)
        _core.knock_public(self.spec, self.child)
        rng, pool = np.random.default_rng(3), mask_ids(_ALL & ~self.known)
        size = len(state.hand(1))
        self.hands = np.array(
            [ids_mask(rng.choice(pool, size, replace=False)) for _ in range(SAMPLES)], dtype=np.uint64
        )
        self.points, self.outcomes = np.zeros((PLAYOUTS, 2), dtype=np.int32), np.zeros(PLAYOUTS, dtype=np.uint8)

    def one_call(self) -> np.ndarray:
        signed = np.zeros((SAMPLES, PLAYOUTS), dtype=np.int64)
        greedy = _core.POLICY_GREEDY
        run = (greedy, -1, 7, self.points, self.outcomes, signed, 0, greedy)
        _core.run_playouts_hands(self.rules, self.spec, 1, self.hands, *run)
        return signed

    def per_hand(self) -> np.ndarray:
        signed = np.zeros((SAMPLES, PLAYOUTS), dtype=np.int64)
        greedy = _core.POLICY_GREEDY
        for k, hand in enumerate(self.hands.tolist()):
            spec = self.build(hand)
            _core.knock_public(spec, self.child)
            _core.run_playouts(self.rules, spec, greedy, -1, 7 + k, 0, self.points, self.outcomes, 0, greedy)
            signed[k] = self.points[:, 0] - self.points[:, 1]
        return signed


def test_hand_playouts_one_call(benchmark, figures) -> None:
    """One candidate's playouts over 64 opponent hands, 12 each, in one ``run_playouts_hands``
    call (checked equal to one spec and one ``run_playouts`` call a hand); µs per hand."""
    case = _Case()
    assert (case.one_call() == case.per_hand()).all()
    benchmark.pedantic(case.one_call, rounds=10, iterations=1, warmup_rounds=1)
    record(benchmark, figures, "best_hands_one_call", "best's playouts, 64 hands in one call", SAMPLES, unit="us")


def test_hand_playouts_per_hand(benchmark, figures) -> None:
    """The same work as one spec and one ``run_playouts`` call a hand (the slow side)."""
    case = _Case()
    benchmark.pedantic(case.per_hand, rounds=10, iterations=1, warmup_rounds=1)
    record(benchmark, figures, "best_hands_per_hand", "best's playouts, a call a hand", SAMPLES, unit="us")
    ratio(
        benchmark,
        figures,
        "best_hands_speedup",
        "best's playouts: a call a hand / one call",
        "best_hands_per_hand",
        "best_hands_one_call",
    )


def test_particle_filter(benchmark, figures) -> None:
    """The opponent's hand tracked through each position's events (``tracking.track``, the
    walk in C) with ``best``'s particles: ms per position."""
    from rummykit.agents import tracking
    from rummykit.agents.best import BestAgent

    positions = [s for s in _positions() if len(s.history) > 6]
    particles, rng = BestAgent().particles, np.random.default_rng(5)
    events = [tracking.public_events(s, 0, rng) for s in positions]

    def walk() -> list[tracking.Particles]:
        return [tracking.track(s, ev, particles, 1.0, 0.05, rng) for s, ev in zip(positions, events, strict=True)]

    tracked = benchmark.pedantic(walk, rounds=3, iterations=1, warmup_rounds=1)
    assert all(len(p.hand) == particles for p in tracked)
    record(benchmark, figures, "best_filter", f"best's filter, {particles} particles", len(positions), unit="ms")
