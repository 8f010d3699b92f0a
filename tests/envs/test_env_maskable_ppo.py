"""examples/maskable_ppo.py: sb3-contrib's MaskablePPO on the Gymnasium env, no wrapper, a few
hundred steps (the full run and its result: README "Reinforcement learning").

Each test runs in its own interpreter: torch, once imported, trips the deprecation warnings
of its lazy attributes whenever another test walks ``gc.get_objects()`` in the same worker."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

if importlib.util.find_spec("sb3_contrib") is None or importlib.util.find_spec("gymnasium") is None:
    pytest.skip("sb3-contrib or gymnasium is not installed: pip install sb3-contrib", allow_module_level=True)

EXAMPLE = Path(__file__).parent.parent.parent / "examples" / "maskable_ppo.py"


def _run(args: list[str]) -> str:
    out = subprocess.run([sys.executable, *args], capture_output=True, text=True, timeout=600, check=False)
    assert out.returncode == 0, out.stderr[-3000:]
    return out.stdout


def test_maskable_ppo_reads_the_masks_without_a_wrapper() -> None:
    """Stable-Baselines3's own helpers find ``action_masks`` through Gymnasium's wrappers (and
    ``make_vec_env``'s first try, ``render_mode="rgb_array"``, falls back on our TypeError)."""
    script = textwrap.dedent(
        """
        import warnings
        warnings.simplefilter("ignore")  # Gymnasium warns that rgb_array is not offered
        import json
        from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported
        from stable_baselines3.common.env_util import make_vec_env
        import rummykit.envs

        vec = make_vec_env("rummykit/Kaluki-v0", n_envs=2, seed=1, env_kwargs={"opponent": "random"})
        vec.reset()
        masks = get_action_masks(vec)
        print(json.dumps([is_masking_supported(vec), list(masks.shape), bool(masks.any(axis=1).all())]))
        """
    )
    supported, shape, some_legal = json.loads(_run(["-c", script]))
    assert supported and shape == [2, 8463] and some_legal  # the fixed ids of the table games


def test_example_trains_and_evaluates_for_a_few_hundred_steps() -> None:
    summary = json.loads(_run([str(EXAMPLE), "--timesteps", "256", "--n-steps", "128", "--eval-hands", "6"]))
    assert summary["timesteps"] >= 256 and summary["env"] == "rummykit/Gin-v0"
    for phase in ("before", "after"):
        result = summary[phase]
        assert result["wins"] + result["losses"] + result["dead"] == 6
        low, high = result["ci95"]
        assert 0.0 <= low <= high <= 1.0
