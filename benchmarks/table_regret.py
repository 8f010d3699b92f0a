"""How far the table games' choices are from a long search: the regret of ``best``'s draws and
discards (and of greedy's) against a reference that scores every candidate with many more
determinizations, in points of a hand.

Positions: every draw and discard of the seat greedy plays in greedy-against-greedy hands (a
fixed set for every agent).  The reference scores each candidate (the draw choices; every
discard) on ``--reference`` weighted determinizations (the search's own sampler) x 20 greedy C
playouts, the same playouts for every candidate; an agent's regret at a position is the
reference's best score less the score of the agent's choice.  The reference shares the search's
model (its sampler and greedy playouts), so this measures how much of the search's choice is
noise, not whether the model is right: that is what whole games show
(``benchmarks/strength.py``).  Run from the repository root::

    python benchmarks/table_regret.py --game rummy --deals 10 best best:table_z=0
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import rummykit as rk
from rummykit.agents import make_agent
from rummykit.agents.best import _table_discards, _table_samples
from rummykit.playouts import playouts


def positions(game: str, deals: int, seed: int) -> list[tuple[object, list[int], int, bool]]:
    """(state, candidates, greedy's choice, whether a draw) at the draws and discards of the
    seat ``deal % 2`` in greedy-against-greedy hands."""
    g, greedy = rk.Game(game, num_players=2), make_agent("greedy")
    out = []
    for deal in range(deals):
        state = g.new_hand(seed=seed + deal)
        while not state.is_terminal():
            move = int(greedy(state))
            kind = state.game.family_record.action(move).kind
            if state.current_player == deal % 2 and kind in ("draw", "take", "discard") and state.restocks < 2:
                legal = [int(a) for a in state.legal_actions()]
                action = state.game.family_record.action
                draw = kind != "discard"
                if draw:
                    candidates = sorted(a for a in legal if action(a).kind in ("draw", "take"))
                else:
                    candidates = _table_discards(state, [a for a in legal if action(a).kind == "discard"], 64)
                if len(candidates) > 1:
                    out.append((state.clone(), candidates, move, draw))
            state.apply_action(move)
    return out


def reference(state: object, candidates: list[int], count: int, rng: np.random.Generator) -> np.ndarray:
    """Each candidate's mean signed points on ``count`` weighted determinizations x 20 playouts."""
    me = state.current_player  # type: ignore[attr-defined]
    samples = _table_samples(state, me, count, 2, 1.0, rng)
    seed = int(rng.integers(2**62))
    scores = []
    for action in candidates:
        parts = []
        for k, sample in enumerate(samples):
            child = sample.clone()
            child.apply_action(action)
            points, _ = playouts(child, 20, resample="stock", seed=seed + k)
            parts.append(points[:, me] - points[:, 1 - me])
        scores.append(np.concatenate(parts).mean())
    return np.array(scores)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("agents", nargs="+", help="agent specs (greedy is always measured)")
    parser.add_argument("--game", default="rummy", choices=["rummy", "kaluki"])
    parser.add_argument("--deals", type=int, default=10)
    parser.add_argument("--seed", type=int, default=7000)
    parser.add_argument("--reference", type=int, default=400, help="determinizations of the reference")
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    found = positions(args.game, args.deals, args.seed)
    start = time.process_time()
    regrets: dict[str, list[float]] = {"greedy": [], **{spec: [] for spec in args.agents}}
    draws = []
    for state, candidates, greedy, draw in found:
        ref = reference(state, candidates, args.reference, rng)
        draws.append(draw)
        for spec in regrets:
            move = greedy if spec == "greedy" else int(make_agent(spec, seed=1)(state))
            regrets[spec].append(float(ref.max() - ref[candidates.index(move)]))
    kinds = np.array(draws)
    print(f"{args.game}: {len(found)} positions from {args.deals} deals (seed {args.seed}), reference {args.reference}")
    print(f"{'agent':<48} {'all':>6} {'draws':>6} {'discards':>8}")
    for spec, values in regrets.items():
        v = np.array(values)
        print(f"{spec:<48} {v.mean():6.2f} {v[kinds].mean():6.2f} {v[~kinds].mean():8.2f}")
    print(f"CPU {time.process_time() - start:.0f} s")


if __name__ == "__main__":
    main()
