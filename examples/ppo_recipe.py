"""The training recipe: masked PPO (sb3-contrib) on rummykit's vector env, with progress.

    pip install ".[sb3]"
    python examples/ppo_recipe.py --game gin --opponent greedy --minutes 60 --warm-start 4 --lr 1e-4 --ent-coef 0.003
    python examples/ppo_recipe.py --game gin --opponent greedy --minutes 60          # PPO from scratch
    python examples/ppo_recipe.py --game rummy --opponent random --minutes 20

Trains sb3-contrib's ``MaskablePPO`` on :func:`rummykit.envs.sb3.vec_env`: ``--num-envs`` hands
stepped in one C call, the opponents played in C (greedy or random), the learner's seat drawn
per hand, reward ``win_loss`` plus the potential-based ``shaping="deadwood"`` (it changes no
optimal policy, and gives a signal on every step instead of one per hand).  The network reads
the observation alone (the mask only masks the logits): a shared ``--trunk`` layer, then
``--net`` layers per head (policy and value).

``--warm-start M`` (knock games) first spends M of the ``--minutes`` cloning the greedy agent,
read off the observation's deadwood planes (:func:`greedy_teacher`, which plays every hand as
``"greedy"`` does), with a TD(0) value target on the same play (:func:`warm_start`); PPO then
starts from a policy that plays about as greedy does, and a critic of that play.  Without it,
PPO learns from scratch.

Every ``--eval-every`` steps it prints a progress line: the elapsed minutes (the warm start
included), the process's CPU minutes, the load average, the steps, and the deterministic
policy's win rate among the decided hands of ``--progress-hands`` seeded hands against the
opponent (played in a VectorGame, all hands at once).  At the end (the ``--timesteps``,
``--minutes`` or ``--cpu-minutes`` budget, whichever comes first) it evaluates the policy on ``--eval-hands`` seeded
hands with :func:`rummykit.rl.evaluate` (a tournament: the Wilson 95% interval of the win rate
of decided hands) and prints a JSON summary with the whole curve.  ``--save PATH`` keeps the
model (sb3's zip), ``--load PATH`` goes on training one.

Flags: ``--game``, ``--opponent`` (greedy or random), ``--timesteps``, ``--minutes``, ``--cpu-minutes``,
``--num-envs`` (256), ``--n-steps`` (32 per env and rollout), ``--batch-size`` (1024),
``--epochs`` (4), ``--lr`` (3e-4), ``--gamma`` (0.995, the shaping's too), ``--trunk`` (256),
``--net`` (256), ``--ent-coef`` (0.01), ``--gae-lambda`` (0.95), ``--shaping-scale`` (50),
``--no-shaping``, ``--eval-every`` (200,000 steps), ``--progress-hands`` (1,000),
``--eval-hands`` (2,000), ``--seed`` (0), ``--threads`` (torch's, 1), ``--warm-start`` (0
minutes), ``--warm-lr`` (1e-3), ``--warm-explore`` (0.2: the share of the policy's own moves
while cloning), ``--save``, ``--load``.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.torch_layers import BaseFeaturesExtractor

import rummykit.rl
from rummykit.envs.sb3 import masked_policy, vec_env
from rummykit.knock.actions import BIG_GIN, DRAW_STOCK, KNOCK, PASS, TAKE
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


class ObservationTrunk(BaseFeaturesExtractor):  # type: ignore[misc]
    """The shared first layer of both heads: a linear map of the observation alone (the mask
    is applied to the logits, not read) and a ReLU."""

    def __init__(self, observation_space: gymnasium.spaces.Dict, features_dim: int = 256) -> None:
        super().__init__(observation_space, features_dim)
        size = observation_space["observation"].shape[0]
        self.layer = torch.nn.Sequential(torch.nn.Linear(size, features_dim), torch.nn.ReLU())

    def forward(self, observations: dict[str, torch.Tensor]) -> torch.Tensor:
        return self.layer(observations["observation"])  # type: ignore[no-any-return]


def greedy_teacher(game: str) -> Any:
    """The greedy agent's moves read off a knock observation's deadwood planes, as a batched
    policy (for the warm start): take the top discard when ``take_deadwood < deadwood``, else
    pass or draw; take at the last chance; big gin when legal; else throw ``best_discard``,
    knocking with it when legal."""
    vg = VectorGame(game, 1)
    at = {name: (start, stop) for name, start, stop in vg.obs_layout()}
    if "best_discard" not in at:
        raise SystemExit(f"--warm-start needs a knock game's deadwood planes; {game} has none")
    ids = {"draw stock": DRAW_STOCK, "take": TAKE, "pass": PASS, "big gin": BIG_GIN}
    phase, dw, take_dw = at["phase"][0], at["deadwood"][0], at["take_deadwood"][0]
    best = slice(*at["best_discard"])

    def fn(observation: npt.NDArray[np.float32], legal_mask: npt.NDArray[np.bool_]) -> npt.NDArray[np.int64]:
        rows = np.arange(len(observation))
        ph = observation[:, phase : phase + 9].argmax(1)  # PHASES order: offers 0-1, forced draw 2, draw 3,
        card = observation[:, best].argmax(1)  # discard 4, last chance 5, knock only 6
        held = observation[:, best].max(1) > 0
        act = legal_mask.argmax(1).astype(np.int64)
        take = legal_mask[:, ids["take"]]
        decline = np.where(legal_mask[:, ids["pass"]], ids["pass"], ids["draw stock"])
        better = observation[:, take_dw] < observation[:, dw]
        act = np.where(np.isin(ph, (0, 1, 3)), np.where(take & better, ids["take"], decline), act)
        act = np.where(ph == 5, np.where(take, ids["take"], decline), act)
        throw = np.where(legal_mask[rows, card] & held, card, act)
        throw = np.where(legal_mask[rows, KNOCK + card] & held, KNOCK + card, throw)
        throw = np.where(legal_mask[:, ids["big gin"]], ids["big gin"], throw)
        return np.where(np.isin(ph, (4, 6)), throw, act)  # type: ignore[no-any-return]

    return fn


def warm_start(model: Any, args: argparse.Namespace, deadline: float, options: dict[str, Any]) -> int:
    """Behaviour cloning of :func:`greedy_teacher` until ``deadline``: ``--num-envs`` hands
    against the opponent (reward and shaping ``options`` as in training), each step one
    gradient step on every row: the policy's masked cross-entropy on the teacher's move plus
    the value head's TD(0) error on the previous step (``r + gamma * V(s')``), so PPO starts
    with a critic of the cloned play.  The rows play the teacher's move, or with probability
    ``--warm-explore`` the policy's sample (so it also sees the states it leads to).  Returns
    the states learned from."""
    teacher = greedy_teacher(args.game)
    vg = VectorGame(args.game, args.num_envs, seed=args.seed + 1, **options)
    vg.set_opponents(args.opponent)
    rng = np.random.default_rng(args.seed)
    policy, seen, before = model.policy, 0, None
    for group in policy.optimizer.param_groups:  # PPO's learn() sets its own rate again
        group["lr"] = args.warm_lr

    def tensors(observation: npt.NDArray[np.float32], mask: npt.NDArray[np.bool_]) -> dict[str, torch.Tensor]:
        return {"observation": torch.as_tensor(observation), "action_mask": torch.as_tensor(mask.view(np.int8))}

    while not seen or time.perf_counter() < deadline:  # one step at least
        observation, mask = np.array(vg.observation), np.array(vg.legal_mask)
        obs = tensors(observation, mask)
        target = teacher(observation, mask)
        dist = policy.get_distribution(obs, action_masks=mask)
        loss = -dist.log_prob(torch.as_tensor(target)).mean()
        if before is not None:  # the previous states' values toward r + gamma V(now), 0 past a hand's end
            old_obs, reward, ended = before
            with torch.no_grad():
                now = policy.predict_values(obs).squeeze(-1)
            goal = torch.as_tensor(reward) + args.gamma * now * torch.as_tensor(~ended, dtype=torch.float32)
            loss = loss + 0.5 * torch.nn.functional.mse_loss(policy.predict_values(old_obs).squeeze(-1), goal)
        policy.optimizer.zero_grad()
        loss.backward()
        policy.optimizer.step()
        with torch.no_grad():
            sampled = dist.sample().numpy()
        seats = vg.current_player.copy()
        rewards = vg.step(np.where(rng.random(len(target)) < args.warm_explore, sampled, target))
        before = (obs, rewards[np.arange(len(seats)), seats], np.array(vg.terminated))
        seen += len(target)
    return seen


class Progress(BaseCallback):  # type: ignore[misc]
    """Prints a progress line every ``every`` steps and stops at the time budget."""

    def __init__(self, args: argparse.Namespace, options: dict[str, Any], start: float) -> None:
        super().__init__()
        self.args, self.options = args, options
        self.start = start
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
            "cpu_minutes": round(time.process_time() / 60, 2),
            "load": round(os.getloadavg()[0], 2),
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
        cpu_left = time.process_time() < 60 * self.args.cpu_minutes
        return (time.perf_counter() - self.start) < 60 * self.args.minutes and cpu_left


def main(argv: list[str] | None = None) -> dict[str, Any]:
    """Train, print progress, evaluate; returns (and prints) the summary."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="gin", help="a rummykit game name (default gin)")
    parser.add_argument("--opponent", default="greedy", help="greedy or random, played in C (default greedy)")
    parser.add_argument("--timesteps", type=int, default=50_000_000, help="the most training steps")
    parser.add_argument("--minutes", type=float, default=60.0, help="the most training minutes (default 60)")
    parser.add_argument("--cpu-minutes", type=float, default=float("inf"), help="the most CPU minutes of the process")
    parser.add_argument("--num-envs", type=int, default=256, help="hands stepped together (default 256)")
    parser.add_argument("--n-steps", type=int, default=32, help="PPO rollout length per env (default 32)")
    parser.add_argument("--batch-size", type=int, default=1024, help="PPO minibatch (default 1024)")
    parser.add_argument("--epochs", type=int, default=4, help="PPO epochs per rollout (default 4)")
    parser.add_argument("--lr", type=float, default=3e-4, help="learning rate (default 3e-4)")
    parser.add_argument("--gamma", type=float, default=0.995, help="discount, also the shaping's (default 0.995)")
    parser.add_argument("--trunk", type=int, default=256, help="width of the shared first layer (default 256)")
    parser.add_argument("--net", default="256", help="hidden layers of each head after the trunk (default 256)")
    parser.add_argument("--ent-coef", type=float, default=0.01, help="entropy bonus (default 0.01)")
    parser.add_argument("--gae-lambda", type=float, default=0.95, help="GAE lambda (default 0.95)")
    parser.add_argument("--shaping-scale", type=float, default=50.0, help="deadwood per unit of shaping (default 50)")
    parser.add_argument("--no-shaping", action="store_true", help="win/loss reward only")
    parser.add_argument("--eval-every", type=int, default=200_000, help="steps between progress lines")
    parser.add_argument("--progress-hands", type=int, default=1000, help="hands per progress line (default 1000)")
    parser.add_argument("--eval-hands", type=int, default=2000, help="final evaluation hands (default 2000)")
    parser.add_argument("--seed", type=int, default=0, help="training seed (default 0)")
    parser.add_argument("--threads", type=int, default=1, help="torch threads (default 1)")
    parser.add_argument("--warm-start", type=float, default=0.0, help="minutes of cloning greedy first (default 0)")
    parser.add_argument("--warm-lr", type=float, default=1e-3, help="warm start: learning rate (default 1e-3)")
    parser.add_argument("--warm-explore", type=float, default=0.2, help="warm start: share of policy moves (0.2)")
    parser.add_argument("--save", default=None, help="where to save the trained model (sb3 zip)")
    parser.add_argument("--load", default=None, help="go on training this saved model (sb3 zip)")
    args = parser.parse_args(argv)
    torch.set_num_threads(args.threads)
    clock = time.perf_counter()  # the --minutes budget counts from here, the warm start included

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
            gae_lambda=args.gae_lambda,
            ent_coef=args.ent_coef,
            policy_kwargs={
                "net_arch": {"pi": net, "vf": net},
                "features_extractor_class": ObservationTrunk,
                "features_extractor_kwargs": {"features_dim": args.trunk},
            },
            seed=args.seed,
            verbose=0,
            device="cpu",
        )
    warm = 0
    if args.warm_start > 0:
        warm = warm_start(model, args, clock + 60 * min(args.warm_start, args.minutes), shaping)
        print(json.dumps({"warm_start_minutes": round((time.perf_counter() - clock) / 60, 2), "states": warm}))
    progress = Progress(args, {}, clock)
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
        "warm_start_states": warm,
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
