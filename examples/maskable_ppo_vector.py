"""MaskablePPO (sb3-contrib) learning Gin against greedy on the vector env, evaluated before and after.

    pip install ".[sb3]"
    python examples/maskable_ppo_vector.py --timesteps 300000 --eval-hands 300

The same learner as examples/maskable_ppo.py, trained on rummykit's Gymnasium vector env
(``rummykit.envs.gymnasium_vector_env``: ``--num-envs`` hands stepped in one C call, the greedy
opponent played in C, the learner's seat drawn per hand, reward +1 win / -1 loss / 0 dead hand)
through ``rummykit.envs.sb3.vec_env`` (Stable-Baselines3's ``VecEnv`` interface, with the masks
MaskablePPO reads).  The spaces are those of the scalar env, so the policy is evaluated exactly
as in examples/maskable_ppo.py: on the same seeded hands of ``rummykit/Gin-v0`` before and after
training (deterministic actions).  Prints a JSON summary.
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

import numpy as np
import torch
from maskable_ppo import evaluate
from sb3_contrib import MaskablePPO

from rummykit.envs.sb3 import vec_env


def main(argv: list[str] | None = None) -> dict[str, Any]:
    """Train and evaluate; returns (and prints) the summary."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--opponent", default="greedy", help="greedy or random, played in C (default greedy)")
    parser.add_argument("--timesteps", type=int, default=300_000, help="training steps (default 300000)")
    parser.add_argument("--num-envs", type=int, default=64, help="hands stepped together (default 64)")
    parser.add_argument("--n-steps", type=int, default=64, help="PPO rollout length per env (default 64)")
    parser.add_argument("--eval-hands", type=int, default=300, help="evaluation hands before and after (default 300)")
    parser.add_argument("--seed", type=int, default=0, help="training seed (default 0)")
    parser.add_argument("--threads", type=int, default=1, help="torch threads (default 1: the network is small)")
    args = parser.parse_args(argv)
    torch.set_num_threads(args.threads)

    env = vec_env("gin", num_envs=args.num_envs, opponent=args.opponent, seed=args.seed)
    rollout = args.num_envs * args.n_steps
    model = MaskablePPO(
        "MultiInputPolicy",
        env,
        n_steps=args.n_steps,
        batch_size=min(512, rollout),
        gamma=1.0,  # one reward at the end of the hand
        seed=args.seed,
        verbose=0,
        device="cpu",
    )
    env_id = "rummykit/Gin-v0"
    before = evaluate(model, env_id, args.eval_hands, args.opponent)
    start = time.perf_counter()
    model.learn(total_timesteps=args.timesteps)
    seconds = time.perf_counter() - start
    after = evaluate(model, env_id, args.eval_hands, args.opponent)
    summary = {
        "env": "rummykit.envs.gymnasium_vector_env('gin')",
        "eval_env": env_id,
        "opponent": args.opponent,
        "num_envs": args.num_envs,
        "timesteps": int(model.num_timesteps),
        "train_seconds": round(seconds, 1),
        "steps_per_second": round(model.num_timesteps / seconds, 1),
        "before": before,
        "after": after,
        "versions": {"numpy": np.__version__, "torch": torch.__version__},
    }
    print(json.dumps(summary, indent=2))
    return summary


if __name__ == "__main__":
    main()
