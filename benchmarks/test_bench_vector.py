"""Benchmarks of batched play (rummykit.vector.VectorGame, issue 17).

``VectorGame(name, batch=4096)`` stepped with random legal actions drawn in
numpy (``VectorGame.sample_actions``: one ``rng.random(batch)`` and a gather
from the legal ids; a second Gin figure picks them by scanning
``legal_mask`` instead), the observation array copied out every step (as a
learner reads it), one thread; steps/s counts row steps (one action in one
hand).  Compared in the same run with OpenSpiel's ``gin_rummy`` random
play from Python (players' actions/s, the deal included in their time) when ``pyspiel`` is
installed, and the Gymnasium vector env with SyncVectorEnv of the scalar env
when gymnasium is.  Targets: Gin >= 30x OpenSpiel and >= 1,000,000 steps/s on
one core; the Gymnasium vector env >= 20x SyncVectorEnv.
"""

from __future__ import annotations

import numpy as np
import pytest
from benchutil import openspiel_random_play, ratio, record, wall_speedup

from rummykit.vector import VectorGame

BATCH = 4096
STEPS = 10  # per round


def random_legal(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One legal action per row, uniform among the row's True entries, 0 for a row without
    any (no Python loop: the flat indices of the True entries, each row's range of them
    found by binary search)."""
    rows, width = mask.shape
    edges = np.arange(rows + 1, dtype=np.int64) * width
    flat = np.append(np.flatnonzero(mask.reshape(-1)), 0)
    bounds = np.searchsorted(flat[:-1], edges)
    counts = np.diff(bounds)
    picked = flat[bounds[:-1] + (rng.random(rows) * counts).astype(np.int64)] - edges[:-1]
    return np.where(counts > 0, picked, 0)


def run_steps(vg: VectorGame, rng: np.random.Generator, seen: np.ndarray, steps: int) -> int:
    """``steps`` steps of every row; returns the hands that ended."""
    ended = 0
    for _ in range(steps):
        np.copyto(seen, vg.observation)
        vg.step(vg.sample_actions(rng))
        ended += int(vg.terminated.sum())
    return ended


def run_steps_from_mask(vg: VectorGame, rng: np.random.Generator, seen: np.ndarray, steps: int) -> None:
    """``run_steps`` with the actions picked by scanning ``legal_mask`` (random_legal)."""
    for _ in range(steps):
        np.copyto(seen, vg.observation)
        vg.step(random_legal(vg.legal_mask, rng))


GAMES = [
    ("gin", {}, "gin"),
    ("oklahoma-gin", {}, "okgin"),
    ("oklahoma-rummy", {}, "okrummy3"),
    ("rummy", {}, "rummy2"),
    ("kaluki", {}, "kaluki2"),
    # the table games' dense per-state index (for search) beside their fixed ids (the default)
    ("rummy", {"action_space": "dense"}, "rummy2_dense"),
    ("kaluki", {"action_space": "dense"}, "kaluki2_dense"),
]


@pytest.mark.parametrize(("name", "options", "key"), GAMES)
def test_vector_steps(benchmark, figures, name, options, key):
    vg = VectorGame(name, batch=BATCH, seed=1, **options)
    rng = np.random.default_rng(1)
    seen = np.empty_like(vg.observation)
    benchmark.pedantic(run_steps, args=(vg, rng, seen, STEPS), rounds=5, iterations=1, warmup_rounds=1)
    # the rows are still the scalar engine's hands after the timed steps
    state = vg.state(BATCH - 1)
    assert np.flatnonzero(vg.legal_mask[BATCH - 1]).size == len(state.legal_actions())
    name += " (dense index)" if options.get("action_space") == "dense" else ""
    value = record(benchmark, figures, f"vector_{key}_step", f"VectorGame {name} step of one row", BATCH * STEPS)
    if value is not None:
        figures.add(
            f"vector_{key}_rate",
            f"VectorGame {name} steps/s (batch {BATCH}, 1 thread, numpy random actions)",
            1e9 / value,
            "/s",
            target=">= 1,000,000/s" if key == "gin" else "",
        )


def test_vector_gin_mask_sampling(benchmark, figures):
    vg = VectorGame("gin", batch=BATCH, seed=1)
    rng = np.random.default_rng(1)
    seen = np.empty_like(vg.observation)
    benchmark.pedantic(run_steps_from_mask, args=(vg, rng, seen, STEPS), rounds=5, iterations=1, warmup_rounds=1)
    name = "VectorGame gin step of one row, actions from the mask"
    value = record(benchmark, figures, "vector_gin_step_mask", name, BATCH * STEPS)
    if value is not None:
        figures.add("vector_gin_rate_mask", "VectorGame gin steps/s, actions from the mask", 1e9 / value, "/s")


def test_vector_gin_two_threads(benchmark, figures):
    vg = VectorGame("gin", batch=BATCH, seed=1, threads=2)
    rng = np.random.default_rng(1)
    seen = np.empty_like(vg.observation)
    benchmark.pedantic(run_steps, args=(vg, rng, seen, STEPS), rounds=5, iterations=1, warmup_rounds=1)
    record(benchmark, figures, "vector_gin_step_t2", "VectorGame gin step of one row, 2 threads (CPU)", BATCH * STEPS)
    one = VectorGame("gin", batch=BATCH, seed=1)
    wall_speedup(
        benchmark,
        figures,
        "vector_gin_t2_speedup",
        "VectorGame gin, 2 threads over 1",
        lambda: run_steps(one, rng, seen, STEPS),
        lambda: run_steps(vg, rng, seen, STEPS),
    )


def test_openspiel_gin_steps(benchmark, figures):
    pytest.importorskip("pyspiel", reason="pyspiel (open-spiel) is not installed")
    _, decisions = openspiel_random_play(5, 1)  # the players' actions: VectorGame deals inside its steps
    assert decisions > 5 * 20
    benchmark.pedantic(openspiel_random_play, args=(5, 1), rounds=5, iterations=1)
    record(benchmark, figures, "openspiel_gin_action", "OpenSpiel gin_rummy random player action", decisions)
    ratio(
        benchmark,
        figures,
        "vector_vs_openspiel",
        "random gin steps: VectorGame / OpenSpiel speed (target >= 30x)",
        "openspiel_gin_action",
        "vector_gin_step",
    )
    ratio(
        benchmark,
        figures,
        "vector_mask_vs_openspiel",
        "random gin steps, actions from the mask: VectorGame / OpenSpiel speed",
        "openspiel_gin_action",
        "vector_gin_step_mask",
    )


def gym_steps(envs, last: list, rng: np.random.Generator, steps: int) -> None:
    """``steps`` steps of a Gymnasium vector env with random legal actions from the masks of
    the last observation (``last[0]``, kept there for the next round)."""
    for _ in range(steps):
        last[0] = envs.step(random_legal(last[0]["action_mask"].astype(bool), rng))[0]


def test_gymnasium_vector_env_steps(benchmark, figures):
    pytest.importorskip("gymnasium", reason="gymnasium is not installed")
    import rummykit.envs

    envs = rummykit.envs.gymnasium_vector_env("gin", num_envs=1024, opponent="greedy")
    last = [envs.reset(seed=1)[0]]
    rng = np.random.default_rng(1)
    benchmark.pedantic(gym_steps, args=(envs, last, rng, STEPS), rounds=5, iterations=1, warmup_rounds=1)
    record(
        benchmark,
        figures,
        "gym_vector_step",
        "Gymnasium vector env (gin, 1024 envs, greedy), one env step",
        1024 * STEPS,
    )


def test_gymnasium_sync_vector_env_steps(benchmark, figures):
    gymnasium = pytest.importorskip("gymnasium", reason="gymnasium is not installed")
    import rummykit.envs  # noqa: F401  (registers the ids)

    envs = gymnasium.vector.SyncVectorEnv([lambda: gymnasium.make("rummykit/Gin-v0", opponent="greedy")] * 8)
    last = [envs.reset(seed=1)[0]]
    rng = np.random.default_rng(1)
    benchmark.pedantic(gym_steps, args=(envs, last, rng, 50), rounds=5, iterations=1, warmup_rounds=1)
    record(benchmark, figures, "gym_sync_step", "SyncVectorEnv of 8 scalar envs (gin, greedy), one env step", 8 * 50)
    ratio(
        benchmark,
        figures,
        "gym_vector_vs_sync",
        "Gymnasium env steps: vector env / SyncVectorEnv speed (target >= 20x)",
        "gym_sync_step",
        "gym_vector_step",
    )
