"""MaskablePPO (sb3-contrib) learning Gin against the greedy agent, evaluated before and after.

    pip install ".[pettingzoo]" sb3-contrib
    python examples/maskable_ppo.py --timesteps 50000 --eval-hands 300

The environment is rummykit's Gymnasium env (``rummykit/Gin-v0``: one hand per episode, the
learner's seat and the dealer drawn per episode, reward +1 win / -1 loss / 0 dead hand), with
``action_masks()``, which MaskablePPO reads without a wrapper.  The policy is evaluated on the
same seeded hands before and after training (deterministic actions), and the script prints
a JSON summary: wins, losses and dead hands, the win rate among decided hands with its 95%
Wilson interval, and the training time.
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

import gymnasium
import numpy as np
import torch
from sb3_contrib import MaskablePPO

import rummykit.envs  # noqa: F401  (registers the rummykit/... Gymnasium ids)
from rummykit.tournaments import wilson_interval

EVAL_SEED = 1_000_000  # evaluation hands are seeded apart from the training hands


def evaluate(model: Any, env_id: str, hands: int, opponent: str) -> dict[str, Any]:
    """Play ``hands`` seeded hands with the model's deterministic masked actions."""
    env = gymnasium.make(env_id, opponent=opponent)
    wins = losses = dead = 0
    for hand in range(hands):
        obs, _ = env.reset(seed=EVAL_SEED + hand)
        done, reward = False, 0.0
        while not done:
            masks = env.get_wrapper_attr("action_masks")()
            action, _ = model.predict(obs, action_masks=masks, deterministic=True)
            obs, reward, done, _, _ = env.step(int(action))
        wins += reward > 0
        losses += reward < 0
        dead += reward == 0
    env.close()
    decided = wins + losses
    low, high = wilson_interval(wins, decided) if decided else (0.0, 1.0)
    return {
        "hands": hands,
        "wins": wins,
        "losses": losses,
        "dead": dead,
        "win_rate": wins / decided if decided else None,
        "ci95": [round(low, 4), round(high, 4)],
    }


def main(argv: list[str] | None = None) -> dict[str, Any]:
    """Train and evaluate; returns (and prints) the summary."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="Gin", help="Gymnasium id without prefix and version (default Gin)")
    parser.add_argument("--opponent", default="greedy", help="the agent playing the other seat (default greedy)")
    parser.add_argument("--timesteps", type=int, default=50_000, help="training steps (default 50000)")
    parser.add_argument("--eval-hands", type=int, default=300, help="evaluation hands before and after (default 300)")
    parser.add_argument("--n-steps", type=int, default=2048, help="PPO rollout length (default 2048)")
    parser.add_argument("--seed", type=int, default=0, help="training seed (default 0)")
    parser.add_argument("--threads", type=int, default=1, help="torch threads (default 1: the network is small)")
    args = parser.parse_args(argv)
    torch.set_num_threads(args.threads)

    env_id = f"rummykit/{args.game}-v0"
    env = gymnasium.make(env_id, opponent=args.opponent)
    env.reset(seed=args.seed)
    model = MaskablePPO(
        "MultiInputPolicy",
        env,
        n_steps=args.n_steps,
        batch_size=min(256, args.n_steps),
        gamma=1.0,  # one reward at the end of the hand
        seed=args.seed,
        verbose=0,
        device="cpu",
    )
    before = evaluate(model, env_id, args.eval_hands, args.opponent)
    start = time.perf_counter()
    model.learn(total_timesteps=args.timesteps)
    seconds = time.perf_counter() - start
    after = evaluate(model, env_id, args.eval_hands, args.opponent)
    summary = {
        "env": env_id,
        "opponent": args.opponent,
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
