"""examples/maskable_ppo.py: sb3-contrib's MaskablePPO on the Gymnasium env, no wrapper, a few
hundred steps (the full run and its result: README "Reinforcement learning")."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

pytest.importorskip("gymnasium", reason="the pettingzoo extra is not installed: pip install 'rummykit[pettingzoo]'")
pytest.importorskip("sb3_contrib", reason="sb3-contrib is not installed: pip install sb3-contrib")

from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported
from stable_baselines3.common.env_util import make_vec_env

import rummykit.envs  # noqa: F401  (registers the Gymnasium ids)

EXAMPLE = Path(__file__).parent.parent / "examples" / "maskable_ppo.py"


# make_vec_env asks for render_mode="rgb_array" first (Gymnasium warns that it is not offered)
@pytest.mark.filterwarnings("ignore:.*render_mode='rgb_array'.*:UserWarning")
def test_maskable_ppo_reads_the_masks_without_a_wrapper() -> None:
    vec = make_vec_env("rummykit/Kaluki-v0", n_envs=2, seed=1, env_kwargs={"opponent": "random"})
    assert is_masking_supported(vec)
    vec.reset()
    masks = get_action_masks(vec)
    assert masks.shape == (2, rummykit.envs.DENSE_ACTIONS) and masks.any(axis=1).all()
    vec.close()


def test_example_trains_and_evaluates_for_a_few_hundred_steps() -> None:
    spec = importlib.util.spec_from_file_location("maskable_ppo", EXAMPLE)
    assert spec is not None and spec.loader is not None
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    summary = example.main(["--timesteps", "256", "--n-steps", "128", "--eval-hands", "6"])
    assert summary["timesteps"] >= 256 and summary["env"] == "rummykit/Gin-v0"
    for phase in ("before", "after"):
        result = summary[phase]
        assert result["wins"] + result["losses"] + result["dead"] == 6
        low, high = result["ci95"]
        assert 0.0 <= low <= high <= 1.0
