"""rummykit.envs.sb3: MaskablePPO trains a few hundred steps on SB3VecEnv (greedy in C, and a pool
of its own frozen snapshots through VectorGame.set_opponents), and masked_policy plays the model
as a batched policy (evaluate, PolicyAgent), legal in every row, frozen snapshots unchanged by
later training."""

from __future__ import annotations

import doctest
import importlib.util

import pytest

if importlib.util.find_spec("sb3_contrib") is None or importlib.util.find_spec("pettingzoo") is None:
    pytest.skip("the sb3 extra is not installed: pip install 'rummykit[sb3]'", allow_module_level=True)

import numpy as np
import torch
from sb3_contrib import MaskablePPO

import rummykit.envs.sb3
from rummykit.agents import PolicyAgent
from rummykit.envs.sb3 import SB3VecEnv, masked_policy, vec_env
from rummykit.errors import InvalidOptionError
from rummykit.rl import evaluate
from rummykit.tournaments import tournament
from rummykit.vector import VectorGame

torch.set_num_threads(1)


def small_model(env: SB3VecEnv) -> MaskablePPO:
    return MaskablePPO(
        "MultiInputPolicy", env, n_steps=16, batch_size=128, n_epochs=1, seed=0, device="cpu",
        policy_kwargs={"net_arch": [32]},
    )  # fmt: skip


@pytest.mark.parametrize(("name", "shaping"), [("gin", "deadwood"), ("kaluki", None)])
def test_maskable_ppo_trains_and_plays_as_a_batched_policy(name: str, shaping: str | None) -> None:
    env = vec_env(name, num_envs=16, opponent="greedy", seed=1, shaping=shaping)
    model = small_model(env)
    model.learn(total_timesteps=512)
    assert model.num_timesteps >= 512
    fn = masked_policy(model)
    vg = VectorGame(name, 8, seed=2)
    for _ in range(5):  # every row's action is legal (VectorGame.step raises otherwise)
        actions = fn(vg.observation, vg.legal_mask)
        assert actions.shape == (8,) and vg.legal_mask[np.arange(8), actions].all()
        vg.step(actions)
    result = evaluate(fn, name, "random", hands=4, seed=3)
    assert result.hands == 4 and result.decided <= 4
    played = tournament([PolicyAgent(fn), "random"], name, hands=2, seed=1, progress=False)
    assert played.hands == 2


def test_self_play_against_a_pool_of_frozen_snapshots() -> None:
    env = vec_env("gin", num_envs=16, opponent="random", seed=1)
    model = small_model(env)
    model.learn(total_timesteps=256)
    frozen = masked_policy(model, frozen=True)
    live = masked_policy(model)
    vg = VectorGame("gin", 16, seed=5)
    before = frozen(vg.observation, vg.legal_mask)
    assert np.array_equal(before, live(vg.observation, vg.legal_mask))
    league = vec_env("gin", num_envs=16, opponent=[frozen, live], opponent_probs=[0.5, 0.5], seed=2)
    model.set_env(league)
    model.learn(total_timesteps=256, reset_num_timesteps=False)
    assert model.num_timesteps >= 512
    assert np.array_equal(frozen(vg.observation, vg.legal_mask), before)  # the snapshot stays
    with pytest.raises(InvalidOptionError, match="MaskablePPO"):
        masked_policy(object())
    with pytest.raises(InvalidOptionError, match="vector env"):
        SB3VecEnv(object())  # type: ignore[arg-type]


def test_module_docstring_examples() -> None:
    failures, tried = doctest.testmod(rummykit.envs.sb3)
    assert tried > 0 and failures == 0


def test_the_recipe_prints_progress_and_its_summary() -> None:
    import json
    import subprocess
    import sys
    from pathlib import Path

    recipe = Path(__file__).parent.parent.parent / "examples" / "ppo_recipe.py"
    args = ["--timesteps", "512", "--num-envs", "16", "--n-steps", "16", "--batch-size", "128", "--net", "32"]
    args += ["--trunk", "32", "--eval-every", "256", "--progress-hands", "20", "--eval-hands", "10"]
    args += ["--warm-start", "0.01"]
    out = subprocess.run([sys.executable, str(recipe), *args], capture_output=True, text=True, timeout=600, check=False)
    assert out.returncode == 0, out.stderr[-3000:]
    text = out.stdout
    progress = [json.loads(line) for line in text.splitlines() if line.startswith('{"minutes"')]
    assert len(progress) >= 2 and all(0 <= p["win_rate"] <= 1 for p in progress)
    summary = json.loads(text[text.index("{\n") :])
    assert summary["timesteps"] >= 512 and summary["final"]["hands"] == 10
    assert summary["curve"] == progress  # every progress line, the last after training
    assert summary["warm_start_states"] > 0


def test_the_recipes_teacher_plays_as_greedy() -> None:
    """The warm start's teacher (greedy read off the deadwood planes) plays every seeded hand
    as the greedy agent does: the same wins and points."""
    import importlib.util as util
    from pathlib import Path

    path = Path(__file__).parent.parent.parent / "examples" / "ppo_recipe.py"
    spec = util.spec_from_file_location("ppo_recipe", path)
    assert spec is not None and spec.loader is not None
    recipe = util.module_from_spec(spec)
    spec.loader.exec_module(recipe)
    teacher = evaluate(recipe.greedy_teacher("gin"), "gin", "greedy", hands=60, seed=5)
    greedy = evaluate("greedy", "gin", "greedy", hands=60, seed=5)
    assert (teacher.wins, teacher.decided, teacher.mean_points) == (greedy.wins, greedy.decided, greedy.mean_points)
    random = evaluate("random", "gin", "greedy", hands=60, seed=5)
    assert random.mean_points != greedy.mean_points
