"""The training recipe: masked PPO (sb3-contrib) on rummykit's vector env, with progress.

    pip install ".[sb3]"
    nice -n 10 python examples/ppo_recipe.py --game gin --opponent greedy --minutes 60
    python examples/ppo_recipe.py --game rummy --opponent random --minutes 20

Trains sb3-contrib's ``MaskablePPO`` on :func:`rummykit.envs.sb3.vec_env`: ``--num-envs`` hands
stepped in one C call, the opponents played in C (greedy or random), the learner's seat drawn
per hand, reward ``win_loss`` plus the potential-based ``shaping="deadwood"`` (it changes no
optimal policy, and gives a signal on every step instead of one per hand).  Every
``--eval-every`` steps it prints a progress line: the elapsed minutes, the steps, and the
deterministic policy's win rate among the decided hands of ``--progress-hands`` seeded hands
against the opponent (played in a VectorGame, all hands at once).  At the end (the
``--timesteps`` or ``--minutes`` budget, whichever comes first) it evaluates the policy on
``--eval-hands`` seeded hands with :func:`rummykit.rl.evaluate` (a tournament: the Wilson 95%
interval of the win rate of decided hands) and prints a JSON summary with the whole curve.
``--save PATH`` keeps the model (sb3's zip).
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

import numpy as np
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback

import rummykit.rl
from rummykit.envs.sb3 import masked_policy, vec_env
from rummykit.tournaments import wilson_interval
from rummykit.vector import VectorGame

PROGRESS_SEED = 7_000_000  # progress hands are seeded apart from training and the final evaluation
EVAL_SEED = 1_000_000


def progress_win_rate(fn: Any, game: str, opponent: str, hands: int, **options: Any) -> tuple[float, int, int]:
    """``fn``'s wins among the decided hands of one seeded hand per row of a VectorGame
    against ``opponent`` (played in C): (win rate, wins, decided)."""
    vg = VectorGame(game, hands, seed=PROGRESS_SEED, **options)
    vg.set_opponents(opponent)
    done = np.zeros(hands, dtype=bool)
    won = np.zeros(hands, dtype=bool)
    decided = np.zeros(hands, dtype=bool)
    while not done.all():
        seats = vg.current_player.copy()
        actions = np.asarray(fn(vg.observation, vg.legal_mask), dtype=np.int32)
        vg.step(actions)
        ended = vg.terminated & ~done
        winners = vg.hand_winner
        decided |= ended & (winners >= 0)
        won |= ended & (winners == seats)
        done |= ended
    wins, n = int(won.sum()), int(decided.sum())
    return (wins / n if n else 0.0), wins, n


class Progress(BaseCallback):  # type: ignore[misc]
    """Prints a progress line every ``every`` steps and stops at the time budget."""

    def __init__(self, args: argparse.Namespace, options: dict[str, Any]) -> None:
        super().__init__()
        self.args, self.options = args, options
        self.start = time.perf_counter()
        self.next_eval = 0
        self.curve: list[dict[str, Any]] = []

    def record(self) -> None:
        fn = masked_policy(self.model)
        rate, wins, decided = progress_win_rate(
            fn, self.args.game, self.args.opponent, self.args.progress_hands, **self.options
        )
        low, high = wilson_interval(wins, decided) if decided else (0.0, 1.0)
        point = {
            "minutes": round((time.perf_counter() - self.start) / 60, 2),
            "steps": int(self.num_timesteps),
            "win_rate": round(rate, 4),
            "ci95": [round(low, 4), round(high, 4)],
            "decided": decided,
        }
        self.curve.append(point)
        print(json.dumps(point), flush=True)

    def _on_step(self) -> bool:
        if self.num_timesteps >= self.next_eval:
            self.record()
            self.next_eval = self.num_timesteps + self.args.eval_every
        return (time.perf_counter() - self.start) < 60 * self.args.minutes


def main(argv: list[str] | None = None) -> dict[str, Any]:
    """Train, print progress, evaluate; returns (and prints) the summary."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="gin", help="a rummykit game name (default gin)")
    parser.add_argument("--opponent", default="greedy", help="greedy or random, played in C (default greedy)")
    parser.add_argument("--timesteps", type=int, default=50_000_000, help="the most training steps")
    parser.add_argument("--minutes", type=float, default=60.0, help="the most training minutes (default 60)")
    parser.add_argument("--num-envs", type=int, default=256, help="hands stepped together (default 256)")
    parser.add_argument("--n-steps", type=int, default=32, help="PPO rollout length per env (default 32)")
    parser.add_argument("--batch-size", type=int, default=1024, help="PPO minibatch (default 1024)")
    parser.add_argument("--epochs", type=int, default=4, help="PPO epochs per rollout (default 4)")
    parser.add_argument("--lr", type=float, default=3e-4, help="learning rate (default 3e-4)")
    parser.add_argument("--gamma", type=float, default=0.995, help="discount, also the shaping's (default 0.995)")
    parser.add_argument("--net", default="256,256", help="hidden layers of both heads (default 256,256)")
    parser.add_argument("--shaping-scale", type=float, default=50.0, help="deadwood per unit of shaping (default 50)")
    parser.add_argument("--no-shaping", action="store_true", help="win/loss reward only")
    parser.add_argument("--eval-every", type=int, default=200_000, help="steps between progress lines")
    parser.add_argument("--progress-hands", type=int, default=1000, help="hands per progress line (default 1000)")
    parser.add_argument("--eval-hands", type=int, default=2000, help="final evaluation hands (default 2000)")
    parser.add_argument("--seed", type=int, default=0, help="training seed (default 0)")
    parser.add_argument("--threads", type=int, default=1, help="torch threads (default 1)")
    parser.add_argument("--save", default=None, help="where to save the trained model (sb3 zip)")
    parser.add_argument("--load", default=None, help="go on training this saved model (sb3 zip)")
    args = parser.parse_args(argv)
    torch.set_num_threads(args.threads)

    shaping: dict[str, Any] = {}
    if not args.no_shaping:
        shaping = {"shaping": "deadwood", "shaping_gamma": args.gamma, "shaping_scale": args.shaping_scale}
    env = vec_env(args.game, num_envs=args.num_envs, opponent=args.opponent, seed=args.seed, **shaping)
    net = [int(x) for x in args.net.split(",") if x]
    if args.load:
        model = MaskablePPO.load(args.load, env=env, device="cpu")
    else:
        model = MaskablePPO(
            "MultiInputPolicy",
            env,
            n_steps=args.n_steps,
            batch_size=args.batch_size,
            n_epochs=args.epochs,
            learning_rate=args.lr,
            gamma=args.gamma,
            gae_lambda=0.95,
            ent_coef=0.01,
            policy_kwargs={"net_arch": net},
            seed=args.seed,
            verbose=0,
            device="cpu",
        )
    progress = Progress(args, {})
    start_steps = int(model.num_timesteps)
    start = time.perf_counter()
    model.learn(total_timesteps=args.timesteps, callback=progress, reset_num_timesteps=not args.load)
    seconds = time.perf_counter() - start
    progress.record()
    if args.save:
        model.save(args.save)
    final = rummykit.rl.evaluate(masked_policy(model), args.game, args.opponent, args.eval_hands, EVAL_SEED)
    summary = {
        "game": args.game,
        "opponent": args.opponent,
        "num_envs": args.num_envs,
        "shaping": None if args.no_shaping else "deadwood",
        "timesteps": int(model.num_timesteps),
        "train_minutes": round(seconds / 60, 2),
        "steps_per_second": round((model.num_timesteps - start_steps) / seconds, 1),
        "curve": progress.curve,
        "final": {
            "hands": final.hands,
            "decided": final.decided,
            "wins": final.wins,
            "win_rate": round(final.win_rate, 4),
            "ci95": [round(final.ci95[0], 4), round(final.ci95[1], 4)],
        },
        "versions": {"numpy": np.__version__, "torch": torch.__version__},
    }
    print(json.dumps(summary, indent=2))
    return summary


if __name__ == "__main__":
    main()
