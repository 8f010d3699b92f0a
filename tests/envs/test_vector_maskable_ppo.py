"""examples/maskable_ppo_vector.py: sb3-contrib's MaskablePPO on the Gymnasium vector env (through
the example's Stable-Baselines3 VecEnv adapter), a few hundred steps; the full run and its
result: docs/vector.md.  Runs in its own interpreter, as tests/envs/test_env_maskable_ppo.py does."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

if importlib.util.find_spec("sb3_contrib") is None or importlib.util.find_spec("gymnasium") is None:
    pytest.skip("sb3-contrib or gymnasium is not installed: pip install sb3-contrib", allow_module_level=True)

EXAMPLE = Path(__file__).parent.parent.parent / "examples" / "maskable_ppo_vector.py"


def test_example_trains_on_the_vector_env_and_evaluates() -> None:
    args = ["--timesteps", "512", "--num-envs", "16", "--n-steps", "16", "--eval-hands", "6"]
    out = subprocess.run(
        [sys.executable, str(EXAMPLE), *args], capture_output=True, text=True, timeout=600, check=False
    )
    assert out.returncode == 0, out.stderr[-3000:]
    summary = json.loads(out.stdout)
    assert summary["timesteps"] >= 512 and summary["num_envs"] == 16
    for phase in ("before", "after"):
        result = summary[phase]
        assert result["wins"] + result["losses"] + result["dead"] == 6
        low, high = result["ci95"]
        assert 0.0 <= low <= high <= 1.0
