"""What a hand's result is worth in the game: the probability of winning the game from each
pair of scores, for the two-player games that end at a target (Gin and Oklahoma Gin to their
``target_score``, Rummy with ``winner_collects`` to its target, Kaluki at its
``elimination_threshold``).

A hand moves one player towards the end by ``x`` points (its points; in Kaluki the penalty
the other player takes).  :func:`win_table` solves, for every pair of scores ``(a, b)`` below
the end ``T``, the probability ``W[a, b]`` that the player at ``a`` wins the game when each hand
is won by either player with probability 1/2 and its ``x`` is drawn from the game's hand-points
distribution::

    W[a, b] = sum_x p(x) * (W[a + x, b] + W[a, b + x]) / 2,   W = 1 once a >= T > b, 0 once b >= T > a

(the anti-diagonals ``a + b`` solved from the end inwards, numpy).  The distributions of ``x``
come from greedy self-play in C (:func:`hand_points`), made by ``scripts/game_values.py`` and
shipped in ``game_values.json`` for the named games; for other rules they are made on first use
from fewer hands (seeded: the same table every time).  :func:`hand_value` turns a hand's signed
result into the change of the win probability it causes.

>>> table = win_table(__import__("rummykit").Game("gin_eaai"))
>>> table.shape, round(float(table[0, 0]), 3)
((100, 100), 0.5)
>>> bool(table[90, 0] > table[50, 0] > table[0, 50])
True
"""

from __future__ import annotations

import json
from functools import cache, lru_cache
from importlib import resources
from typing import Any

import numpy as np
import numpy.typing as npt

__all__ = ["DATA", "end_of", "hand_points", "hand_value", "histogram_key", "win_table"]

#: the shipped hand-points distributions (scripts/game_values.py writes it)
DATA = "game_values.json"
#: hands played for a distribution made on first use (rules without a shipped one)
FALLBACK_DEALS, FALLBACK_PER_DEAL = 400, 10


def end_of(game: Any) -> int | None:
    """The score that ends a two-player game (a player at or above it has reached the end), or
    None where the game does not end that way (more players, fixed hands, penalty Rummy...):
    ``game.match_end`` for two players."""
    if game.num_players != 2:
        return None
    end: int | None = game.match_end
    return end


def histogram_key(rules: Any) -> str:
    """The shipped distribution that fits ``rules``: the game's name, with the options given
    (the end score aside, which the table solves for) after a colon."""
    given = [f"{k}={v}" for k, v in sorted(rules.given) if k not in ("target_score", "elimination_threshold")]
    return str(rules.name) + (":" + ",".join(given) if given else "")


def hand_points(game: Any, deals: int, per_deal: int, seed: int) -> dict[int, int]:
    """How often a hand of ``game`` (two players, greedy against greedy in C) moved its winner
    ``x`` points towards the end: ``{x: count}``, dead hands left out.  ``deals`` seeded deals
    (``numpy.random.SeedSequence(seed)``), ``per_deal`` playouts each."""
    from rummykit.playouts import playouts

    rng = np.random.default_rng(np.random.SeedSequence(seed))
    counts: dict[int, int] = {}
    for _ in range(deals):
        state = game.new_hand(seed=int(rng.integers(2**62)), dealer=int(rng.integers(2)))
        points, _ = playouts(state, per_deal, seed=int(rng.integers(2**62)))
        signed = np.abs(points[:, 0].astype(np.int64) - points[:, 1])
        for x, n in zip(*np.unique(signed[signed > 0], return_counts=True)):
            counts[int(x)] = counts.get(int(x), 0) + int(n)
    return counts


@cache
def _shipped() -> dict[str, dict[int, int]]:
    text = resources.files("rummykit.agents").joinpath(DATA).read_text(encoding="utf-8")
    return {key: {int(x): int(n) for x, n in entry["counts"].items()} for key, entry in json.loads(text).items()}


@lru_cache(maxsize=64)
def _solve(counts: tuple[tuple[int, int], ...], end: int) -> npt.NDArray[np.float64]:
    xs = np.array([min(x, end) for x, _ in counts], dtype=np.intp)
    ps = np.array([n for _, n in counts], dtype=np.float64)
    ps /= ps.sum()
    size = 2 * end + 1
    ext = np.zeros((size, size))
    a, b = np.indices((size, size))
    ext[(a >= end) & (b < end)] = 1.0  # the player at a reached the end first
    for s in range(2 * end - 2, -1, -1):  # the anti-diagonal a + b = s, from the end inwards
        rows = np.arange(max(0, s - end + 1), min(end - 1, s) + 1)
        cols = s - rows
        mine = ext[rows[:, None] + xs[None, :], cols[:, None]]
        theirs = ext[rows[:, None], cols[:, None] + xs[None, :]]
        ext[rows, cols] = ((mine + theirs) * ps[None, :]).sum(axis=1) / 2
    ext.setflags(write=False)
    return ext


def _extended(game: Any) -> npt.NDArray[np.float64] | None:
    """The solved table of ``game`` with its terminal rows and columns (``2 * end + 1``
    square), or None where the game does not end at a score."""
    rules = game.rules
    end = end_of(game)
    if end is None or end < 1:
        return None
    counts = _shipped().get(histogram_key(rules))
    if counts is None:
        counts = _fallback(game)
    if not counts:
        return None
    return _solve(tuple(sorted(counts.items())), end)


@lru_cache(maxsize=16)
def _fallback(game: Any) -> dict[int, int]:
    return hand_points(game, FALLBACK_DEALS, FALLBACK_PER_DEAL, seed=0)


def win_table(game: Any) -> npt.NDArray[np.float64] | None:
    """``W[a, b]``: the probability that the player at score ``a`` wins a two-player game of
    ``game`` against one at ``b`` (scores below the end; in Kaluki ``a`` is the penalty total
    of the other player), or None for games that do not end at a score."""
    ext = _extended(game)
    if ext is None:
        return None
    end = (ext.shape[0] - 1) // 2
    table: npt.NDArray[np.float64] = ext[:end, :end]
    return table


def hand_value(game: Any, mine: int, theirs: int) -> npt.NDArray[np.float64] | None:
    """The change of the win probability a hand's signed result ``d`` causes, for ``d`` in
    ``-2 * end .. 2 * end`` (index ``d + 2 * end``), from scores ``mine`` and ``theirs``
    (Kaluki: the other player's penalty total and one's own); None where :func:`win_table` is."""
    ext = _extended(game)
    if ext is None:
        return None
    end = (ext.shape[0] - 1) // 2
    a, b = min(max(mine, 0), end - 1), min(max(theirs, 0), end - 1)
    d = np.arange(-2 * end, 2 * end + 1)
    after = ext[np.minimum(a + np.maximum(d, 0), 2 * end), np.minimum(b + np.maximum(-d, 0), 2 * end)]
    change: npt.NDArray[np.float64] = after - ext[a, b]
    return change
