"""Shared fixtures for the rummykit benchmark suite.

Hands are numpy ``uint64`` arrays of card masks (bit ``suit * 13 + rank``,
see README.md "Mask layout"), drawn from ``numpy.random.default_rng`` with
fixed seeds so every run measures the same hands.

Tests stash their headline figures with the ``figures`` fixture; a summary
table (figure, target, speed-up over the pure-Python reference and over
OpenSpiel) is printed at the end of the session.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pytest

TESTS_DIR = Path(__file__).resolve().parent.parent / "tests"
for _path in (TESTS_DIR, Path(__file__).resolve().parent):  # tests/reference/deadwood.py, benchutil.py
    if str(_path) not in sys.path:
        sys.path.insert(0, str(_path))

#: hands per batch benchmark
BATCH_SIZE = 200_000

SEED_RANDOM_10 = 20261202
SEED_RANDOM_11 = 20261203
SEED_DENSE_10 = 20261204


def random_masks(n: int, size: int, seed: int) -> np.ndarray:
    """``n`` masks of ``size`` distinct cards drawn uniformly from the deck."""
    rng = np.random.default_rng(seed)
    out = np.empty(n, dtype=np.uint64)
    chunk = 50_000  # keeps the (chunk, 52) key matrix small
    for lo in range(0, n, chunk):
        m = min(chunk, n - lo)
        cards = np.argpartition(rng.random((m, 52)), size - 1, axis=1)[:, :size]
        out[lo : lo + m] = np.bitwise_or.reduce(np.uint64(1) << cards.astype(np.uint64), axis=1)
    return out


def dense_masks(n: int, size: int, seed: int) -> np.ndarray:
    """``n`` meld-dense masks: ``size`` cards of all suits on a window of 3-5
    adjacent ranks (widened to hold ``size`` cards; it may wrap past the king,
    e.g. Q K A 2, like ``reference.dense_hand``)."""
    if not 0 < size <= 20:
        raise ValueError("size must be in 1..20")
    rng = np.random.default_rng(seed)
    min_width = -(-size // 4)
    width = np.maximum(rng.integers(3, 6, size=n), min_width)  # 3..5 ranks
    start = rng.integers(0, 13, size=n)
    slots = np.arange(20)  # 5 ranks x 4 suits
    keys = rng.random((n, 20))
    keys[slots[None, :] // 4 >= width[:, None]] = np.inf  # outside the window
    chosen = np.argpartition(keys, size - 1, axis=1)[:, :size]
    ranks = (start[:, None] + chosen // 4) % 13
    cards = (chosen % 4) * 13 + ranks
    return np.bitwise_or.reduce(np.uint64(1) << cards.astype(np.uint64), axis=1)


def meld_built_masks(n: int, seed: int) -> np.ndarray:
    """``n`` 10-card masks built from melds (knock-ready hands): random 3- and
    4-card sets and 3- and 4-card runs added while they fit in 10 cards, then
    random cards up to 10.  Mean least deadwood is about 3."""
    rng = np.random.default_rng(seed)
    out = np.empty(n, dtype=np.uint64)
    for i in range(n):
        mask = 0
        for _ in range(100):
            if mask.bit_count() >= 9:
                break
            if rng.random() < 0.5:
                rank, skip = int(rng.integers(13)), int(rng.integers(5))
                add = sum(1 << (13 * s + rank) for s in range(4) if s != skip)
            else:
                suit, length = int(rng.integers(4)), 3 + int(rng.integers(2))
                start = int(rng.integers(14 - length))
                add = sum(1 << (13 * suit + start + k) for k in range(length))
            if not add & mask and (mask | add).bit_count() <= 10:
                mask |= add
        while mask.bit_count() < 10:
            mask |= 1 << int(rng.integers(52))
        out[i] = mask
    return out


@pytest.fixture(scope="session")
def meld_built10() -> np.ndarray:
    return meld_built_masks(50_000, SEED_DENSE_10 + 1)


@pytest.fixture(scope="session")
def random10() -> np.ndarray:
    """BATCH_SIZE random 10-card hands."""
    return random_masks(BATCH_SIZE, 10, SEED_RANDOM_10)


@pytest.fixture(scope="session")
def random11() -> np.ndarray:
    """BATCH_SIZE random 11-card hands (a hand after the draw)."""
    return random_masks(BATCH_SIZE, 11, SEED_RANDOM_11)


@pytest.fixture(scope="session")
def dense10() -> np.ndarray:
    """BATCH_SIZE meld-dense 10-card hands."""
    return dense_masks(BATCH_SIZE, 10, SEED_DENSE_10)


# --------------------------------------------------------------------------
# figures collected during the run, summarised at the end
# --------------------------------------------------------------------------


@dataclass
class Figure:
    name: str
    value: float  # in `unit`
    unit: str
    target: str = ""
    note: str = ""


@dataclass
class Figures:
    rows: dict[str, Figure] = field(default_factory=dict)

    def add(self, key: str, name: str, value: float, unit: str, target: str = "", note: str = "") -> None:
        self.rows[key] = Figure(name, value, unit, target, note)

    def get(self, key: str) -> float | None:
        row = self.rows.get(key)
        return None if row is None else row.value


FIGURES_KEY = pytest.StashKey[Figures]()


@pytest.fixture(scope="session")
def figures(request: pytest.FixtureRequest) -> Figures:
    """The session's figure collector (read by pytest_terminal_summary)."""
    return request.config.stash.setdefault(FIGURES_KEY, Figures())


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    figs = config.stash.get(FIGURES_KEY, None)
    if figs is None or not figs.rows:
        return
    tr = terminalreporter
    tr.section("rummykit benchmark figures (median)")
    width = max(len(r.name) for r in figs.rows.values())
    for row in figs.rows.values():
        value = f"{row.value:,.1f} {row.unit}" if row.value < 1000 else f"{row.value:,.0f} {row.unit}"
        line = f"{row.name:<{width}}  {value:>14}"
        if row.target:
            line += f"   target {row.target}"
        if row.note:
            line += f"   {row.note}"
        tr.write_line(line)
