"""How well ``best``'s particle filter knows the opponent's deadwood, by particle count.

A gin hunter (``greedy:max_knock_deadwood=0``) plays seat 0 against an opponent under
``gin_eaai``; at each of seat 0's draws after the first turns the filter tracks the
opponent's hand with ``best``'s model (``beta=1``, ``epsilon=0.05``, half the stories
patient knockers, a ``--meld-taker`` share of them, by default half, taking only into
melds), and its weighted stories are compared with the real hand: the mean predicted and
real least deadwood, and the predicted and real chance that it is at most 15 and at most 20
(a hand near a knock), and the weight the stories give the meld-taking style.  Every
particle count sees the same positions.

    python benchmarks/filter_calibration.py --opponent eaai-simple --hands 100 --particles 256 1024 2048
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import rummykit as rk
from rummykit import _core
from rummykit._rules import core_rules
from rummykit.agents import make_agent, tracking
from rummykit.agents.best import PATIENT_RATE


def positions(opponent: str, hands: int, seed: int) -> list[rk.KnockState]:
    """Seat 0's draw positions (after its first turn) in ``hands`` hands."""
    game, me, out = rk.Game("gin_eaai"), make_agent("greedy:max_knock_deadwood=0"), []
    for h in range(hands):
        them = make_agent(opponent, seed=seed + h)
        state = game.new_hand(seed=seed + h)
        while not state.is_terminal():
            if state.current_player == 0 and state.phase_name == "draw" and len(state.history) > 4:
                out.append(state.clone())
            state.apply_action(me(state) if state.current_player == 0 else them(state))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--opponent", default="eaai-simple")
    parser.add_argument("--hands", type=int, default=100)
    parser.add_argument("--seed", type=int, default=2000)
    parser.add_argument("--particles", type=int, nargs="+", default=[256, 1024, 2048])
    parser.add_argument("--meld-taker", type=float, default=0.5)
    args = parser.parse_args()
    states = positions(args.opponent, args.hands, args.seed)
    rules = core_rules("low")
    real = _core.deadwood_batch(rules, np.array([s.hands[1] for s in states], dtype=np.uint64)).astype(float)
    print(
        f"{len(states)} positions against {args.opponent}; real mean deadwood {real.mean():.2f}, "
        f"P(<= 15) {np.mean(real <= 15):.3f}, P(<= 20) {np.mean(real <= 20):.3f}"
    )
    print("particles | mean predicted | bias | P(<= 15) predicted | P(<= 20) predicted | meld takers | ms a walk")
    for n in args.particles:
        rng = np.random.default_rng(5)
        mean, low15, low20, takers, seconds = [], [], [], [], 0.0
        for state in states:
            events = tracking.public_events(state, 0, rng)
            rate = np.where(rng.random(n) < 0.5, PATIENT_RATE, 0.975)
            taker = (rng.random(n) < args.meld_taker).astype(np.uint8)
            start = time.process_time()
            particles = tracking.track(state, events, n, 1.0, 0.05, rng, 0.0, rate, taker)
            seconds += time.process_time() - start
            w = particles.weights()
            dw = _core.deadwood_batch(rules, particles.hand).astype(float)
            mean.append((w * dw).sum())
            low15.append(w[dw <= 15].sum())
            low20.append(w[dw <= 20].sum())
            takers.append(w[particles.taker == 1].sum())
        print(
            f"{n:9d} | {np.mean(mean):14.2f} | {np.mean(mean) - real.mean():+4.2f} | {np.mean(low15):18.3f} | "
            f"{np.mean(low20):18.3f} | {np.mean(takers):11.3f} | {1000 * seconds / len(states):9.2f}"
        )


if __name__ == "__main__":
    main()
