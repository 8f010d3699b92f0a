"""Helpers shared by the benchmark modules: run loops at C speed and record
per-item figures in ``extra_info`` and the end-of-session table."""

from __future__ import annotations

import shutil
import statistics
import subprocess
import time
from collections import deque
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def consume(iterator) -> None:
    """Run an iterator to its end at C speed (no per-item Python bytecode)."""
    deque(iterator, maxlen=0)


def median_seconds(benchmark) -> float | None:
    """Median seconds per round of the finished benchmark (None if disabled)."""
    stats = getattr(benchmark, "stats", None)
    return None if stats is None else float(stats.stats.median)


def min_seconds(benchmark) -> float | None:
    stats = getattr(benchmark, "stats", None)
    return None if stats is None else float(stats.stats.min)


def wall_speedup(benchmark, figures, key, name, one_thread, two_threads, rounds=3):
    """The wall-clock speed-up of ``two_threads()`` over ``one_thread()`` (medians of ``rounds``
    calls each, interleaved), as a figure: CPU time (``--benchmark-timer=time.process_time``)
    adds the threads' times up, so a threaded run must be compared by the wall clock."""
    if getattr(benchmark, "disabled", False):
        return None
    times: tuple[list[float], list[float]] = ([], [])
    for _ in range(rounds):
        for fn, out in ((one_thread, times[0]), (two_threads, times[1])):
            start = time.perf_counter()
            fn()
            out.append(time.perf_counter() - start)
    value = statistics.median(times[0]) / statistics.median(times[1])
    benchmark.extra_info["wall_speedup_2_threads"] = round(value, 2)
    figures.add(key, name, value, "x", note="wall clock, the same work on 1 and 2 threads")
    return value


def record(benchmark, figures, key, name, per_round, unit="ns", target="", note=""):
    """Store median/min per item in extra_info and the session table.
    ``per_round`` items are processed per round; ``unit`` is ns, us or ms."""
    scale = {"ns": 1e9, "us": 1e6, "ms": 1e3}[unit]
    med = median_seconds(benchmark)
    if med is None:
        return None
    value = med / per_round * scale
    benchmark.extra_info[f"{unit}_per_item_median"] = round(value, 3)
    benchmark.extra_info[f"{unit}_per_item_min"] = round(min_seconds(benchmark) / per_round * scale, 3)
    benchmark.extra_info["items_per_round"] = per_round
    if target:
        benchmark.extra_info["target"] = target
    figures.add(key, name, value, unit, target, note)
    return value


def ratio(benchmark, figures, key, name, slow_key, fast_key, note=""):
    """Speed-up slow/fast of two recorded figures (same unit assumed ns/us/ms)."""
    slow, fast = figures.rows.get(slow_key), figures.rows.get(fast_key)
    if slow is None or fast is None:
        return None
    scale = {"ns": 1.0, "us": 1e3, "ms": 1e6}
    value = slow.value * scale[slow.unit] / (fast.value * scale[fast.unit])
    benchmark.extra_info[f"speedup_{key}"] = round(value, 1)
    figures.add(key, name, value, "x", note=note)
    return value


def compile_c_bench(source: str, out_dir: Path) -> Path | None:
    """benchmarks/c/<source> compiled with the core sources of the working tree
    (-O3 -DNDEBUG, as the Release build); None when no C compiler is found."""
    cc = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    if cc is None:
        return None
    exe = out_dir / Path(source).stem
    sources = sorted(str(p) for p in (REPO / "csrc" / "src").glob("*.c"))
    cmd = [cc, "-std=c99", "-O3", "-DNDEBUG", f"-I{REPO / 'csrc' / 'include'}", str(REPO / "benchmarks" / "c" / source)]
    # -lm: exp and log of the particle filter (csrc/src/track.c)
    subprocess.run([*cmd, *sources, "-o", str(exe), "-lm"], check=True, capture_output=True, timeout=120)
    return exe


def openspiel_random_play(hands: int, seed: int) -> tuple[int, int]:
    """``hands`` random hands of OpenSpiel's ``gin_rummy`` from Python (chance
    moves drawn from their outcomes); returns (all actions, the players'
    actions)."""
    import random

    import pyspiel

    game = pyspiel.load_game("gin_rummy")
    rng = random.Random(seed)
    actions = decisions = 0
    for _ in range(hands):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice(state.chance_outcomes())[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
                decisions += 1
            actions += 1
    return actions, decisions
