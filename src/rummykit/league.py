"""Leagues: whole games between agents, round robin, with mirrored deal sequences and ratings.

:func:`league` plays every pair of ``agents`` ``games`` whole games of a two-player game
(a :class:`rummykit.Match` to the game's end: Gin and Oklahoma Gin to their target, Rummy to
its target, Kaluki to an elimination).  Games come in mirrored pairs: sequence ``s`` (its first
dealer and every hand's deal, from ``numpy.random.SeedSequence(seed, spawn_key=(0, s))``) is
played twice, the agents' seats swapped, so each agent gets the other's cards of every hand
as long as the two games run alike.  Every pair of agents plays the same sequences, and each
agent's seed in each game comes from the same ``seed``, so a league is repeatable for any
number of ``workers``.

Before each hand the match tells an agent with a ``new_hand`` method the match so far
(:class:`rummykit.agents.MatchInfo`: its seat, the scores, the target, the dealer, the last
hand's result): the agents that play the game, not the hand (``best``), read it.

Statistics per pair (:class:`PairStats`, from the first agent's side): games won, with a 95%
interval clustered by mirrored pair (the two games of a sequence are not independent);
hands won of the hands someone won; points per hand (the first agent's hand points less the
other's, over every hand dealt, a dead one counting 0), each with a clustered interval too.
Ratings: a Bradley-Terry fit to every game (:func:`bradley_terry`), shown on the Elo scale.

>>> result = league(["greedy", "random"], "gin_eaai", games=4, seed=1)
>>> pair = result.pairs[0]
>>> pair.games, pair.wins, result.ratings()[0] > result.ratings()[1]
(4, 4.0, True)
"""

from __future__ import annotations

import json
import math
import numbers
import os
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rummykit._random import MAX_SEED
from rummykit.agents import make_agent
from rummykit.agents.external import game_for
from rummykit.errors import InvalidOptionError, clip
from rummykit.executor import Mark, run_chunks
from rummykit.games import Game

__all__ = [
    "GameRecord",
    "LeagueResult",
    "PairStats",
    "bradley_terry",
    "check_output_path",
    "league",
    "play_game",
]

Z95 = 1.959963984540054  # the two-sided 95% normal quantile
#: the most games of one pair in a league
MAX_GAMES = 10**7
#: the most agents of a league
MAX_AGENTS = 64
#: the most hands of one game before it is given up as endless (agents that never end a hand)
MAX_HANDS_PER_GAME = 2000


@dataclass(frozen=True)
class GameRecord:
    """One whole game: agents ``first`` and ``second`` (indices into the league's agents) of
    mirrored ``sequence``; ``swapped``: ``second`` sat in seat 0.  ``winner`` an agent index
    (None: no winner); ``hands`` dealt (dead ones included), ``dead`` of them dead; ``won``
    and ``points``: hands won and hand points (summed) of ``first`` and ``second``."""

    first: int
    second: int
    sequence: int
    swapped: bool
    winner: int | None
    hands: int
    dead: int
    won: tuple[int, int]
    points: tuple[int, int]


def _cluster_mean(ys: Sequence[float]) -> tuple[float, tuple[float, float]]:
    """The mean of per-cluster values and its normal 95% interval (clusters independent)."""
    n = len(ys)
    mean = sum(ys) / n if n else 0.0
    if n < 2:
        return mean, (-math.inf, math.inf)
    var = sum((y - mean) ** 2 for y in ys) / (n - 1) / n
    half = Z95 * math.sqrt(var)
    return mean, (mean - half, mean + half)


def _cluster_ratio(num: Sequence[float], den: Sequence[float]) -> tuple[float, tuple[float, float]]:
    """The ratio sum(num) / sum(den) over clusters and its 95% interval (the linearised,
    cluster-robust standard error of a ratio estimator)."""
    n, total = len(num), sum(den)
    if total == 0:
        return 0.0, (-math.inf, math.inf)
    r = sum(num) / total
    if n < 2:
        return r, (-math.inf, math.inf)
    mean_den = total / n
    var = sum((a - r * b) ** 2 for a, b in zip(num, den)) / (n - 1) / n / mean_den**2
    half = Z95 * math.sqrt(var)
    return r, (r - half, r + half)


@dataclass(frozen=True)
class PairStats:
    """Agent ``first`` against agent ``second`` (indices): ``wins`` of ``games`` (``first``'s,
    a game without a winner counting half to each) with its pair-clustered 95% interval
    ``ci95``; ``hand_rate`` of the decided hands won by ``first`` and ``points_per_hand`` of
    ``first`` less ``second`` per hand dealt, each with its clustered interval."""

    first: int
    second: int
    games: int
    wins: float
    win_rate: float
    ci95: tuple[float, float]
    hands: int
    hands_won: int
    decided: int
    hand_rate: float
    hand_ci95: tuple[float, float]
    points_per_hand: float
    points_ci95: tuple[float, float]


def _pair_stats(first: int, second: int, records: Sequence[GameRecord]) -> PairStats:
    by_sequence: dict[int, list[GameRecord]] = {}
    for r in records:
        by_sequence.setdefault(r.sequence, []).append(r)
    clusters = list(by_sequence.values())

    def score(r: GameRecord) -> float:
        return 1.0 if r.winner == first else 0.5 if r.winner is None else 0.0

    wins = sum(score(r) for r in records)
    rate, ci = _cluster_mean([sum(score(r) for r in c) / len(c) for c in clusters])
    won = [sum(r.won[0] for r in c) for c in clusters]
    decided = [sum(r.won[0] + r.won[1] for r in c) for c in clusters]
    hand_rate, hand_ci = _cluster_ratio(won, decided)
    diff = [sum(r.points[0] - r.points[1] for r in c) for c in clusters]
    dealt = [sum(r.hands for r in c) for c in clusters]
    points, points_ci = _cluster_ratio(diff, dealt)
    clip01 = (max(0.0, ci[0]), min(1.0, ci[1]))
    return PairStats(
        first,
        second,
        len(records),
        wins,
        rate,
        clip01,
        sum(dealt),
        sum(won),
        sum(decided),
        hand_rate,
        (max(0.0, hand_ci[0]), min(1.0, hand_ci[1])),
        points,
        points_ci,
    )


def bradley_terry(wins: Sequence[Sequence[float]], prior: float = 0.5, iterations: int = 10_000) -> list[float]:
    """Bradley-Terry strengths from ``wins[i][j]`` (games ``i`` won against ``j``), on the
    Elo scale: ``400 * log10(strength)``, centred on 0, so that a gap of ``d`` means an expected
    score of ``1 / (1 + 10 ** (-d / 400))``.  Each pair that met gets ``prior`` extra wins
    each way (so that an agent that won every game gets a finite rating); the fit is the
    minorization-maximization iteration, run to convergence.

    >>> [round(x) for x in bradley_terry([[0, 75], [25, 0]], prior=0)]
    [95, -95]
    """
    n = len(wins)
    w = [
        [float(wins[i][j]) + (prior if i != j and wins[i][j] + wins[j][i] > 0 else 0.0) for j in range(n)]
        for i in range(n)
    ]
    p = [1.0] * n
    for _ in range(iterations):
        new = []
        for i in range(n):
            games = sum((w[i][j] + w[j][i]) / (p[i] + p[j]) for j in range(n) if j != i)
            total = sum(w[i])
            new.append(total / games if games > 0 and total > 0 else p[i])
        scale = math.exp(sum(math.log(x) for x in new) / n) if all(x > 0 for x in new) else 1.0
        new = [x / scale for x in new]
        done = max(abs(math.log(a / b)) for a, b in zip(new, p)) < 1e-10
        p = new
        if done:
            break
    return [400 * math.log10(x) if x > 0 else -math.inf for x in p]


@dataclass(frozen=True)
class LeagueResult:
    """What :func:`league` returns.  Equality ignores the timing fields."""

    game: str
    names: tuple[str, ...]
    seed: int
    games_per_pair: int
    options: tuple[tuple[str, Any], ...]
    records: tuple[GameRecord, ...] = field(repr=False)
    workers: int = field(default=1, compare=False)
    seconds: float = field(default=0.0, compare=False)

    @property
    def pairs(self) -> tuple[PairStats, ...]:
        """Every pair (``i < j``, from ``i``'s side)."""
        n = len(self.names)
        return tuple(
            _pair_stats(i, j, [r for r in self.records if (r.first, r.second) == (i, j)])
            for i in range(n)
            for j in range(i + 1, n)
        )

    def wins(self) -> list[list[float]]:
        """``wins[i][j]``: games agent ``i`` won against agent ``j`` (a game without a winner half each)."""
        n = len(self.names)
        table = [[0.0] * n for _ in range(n)]
        for r in self.records:
            if r.winner is None:
                table[r.first][r.second] += 0.5
                table[r.second][r.first] += 0.5
            else:
                loser = r.second if r.winner == r.first else r.first
                table[r.winner][loser] += 1
        return table

    def ratings(self) -> list[float]:
        """Each agent's Bradley-Terry rating on the Elo scale (:func:`bradley_terry`)."""
        return bradley_terry(self.wins())

    def summary(self) -> dict[str, Any]:
        """Everything but the games, as plain data (what :meth:`to_json` writes first)."""
        from rummykit import __version__

        ratings = self.ratings()
        return {
            "rummykit": __version__,
            "game": self.game,
            "options": dict(self.options),
            "agents": list(self.names),
            "seed": self.seed,
            "games_per_pair": self.games_per_pair,
            "mirrored": "each deal sequence is played twice, seats swapped",
            "seeding": "deal sequence s: numpy SeedSequence(seed, spawn_key=(0, s)); the agent in seat k of "
            "agents i < j: SeedSequence(seed, spawn_key=(1, i, j, s, swapped, k))",
            "workers": self.workers,
            "seconds": round(self.seconds, 3),
            "ratings": {name: round(x, 1) for name, x in zip(self.names, ratings)},
            "pairs": [
                {
                    "agent": self.names[s.first],
                    "opponent": self.names[s.second],
                    "games": s.games,
                    "wins": s.wins,
                    "win_rate": round(s.win_rate, 4),
                    "ci95": [round(x, 4) for x in s.ci95],
                    "hands": s.hands,
                    "hands_won": s.hands_won,
                    "decided_hands": s.decided,
                    "hand_rate": round(s.hand_rate, 4),
                    "hand_ci95": [round(x, 4) for x in s.hand_ci95],
                    "points_per_hand": round(s.points_per_hand, 3),
                    "points_ci95": [round(x, 3) for x in s.points_ci95],
                }
                for s in self.pairs
            ],
        }

    def to_json(self, path: str | Path | None = None) -> str:
        """The summary and every game as JSON (also written to ``path`` if given)."""
        data = self.summary()
        data["records"] = [
            {
                "agents": [self.names[r.first], self.names[r.second]],
                "sequence": r.sequence,
                "swapped": r.swapped,
                "winner": None if r.winner is None else self.names[r.winner],
                "hands": r.hands,
                "dead": r.dead,
                "won": list(r.won),
                "points": list(r.points),
            }
            for r in self.records
        ]
        text = json.dumps(data, indent=1)
        if path is not None:
            check_output_path(path).write_text(text + "\n", encoding="utf-8")
        return text

    def table(self) -> Any:
        """The pairs and ratings as a ``rich.table.Table``."""
        from rich.table import Table

        table = Table(title=f"{self.game}: {self.games_per_pair} games a pair, seed {self.seed}", title_justify="left")
        for column in ("agent", "opponent", "games won", "95% CI", "hands won", "points/hand (95% CI)"):
            table.add_column(column, justify="left" if column in ("agent", "opponent") else "right")
        for s in self.pairs:
            table.add_row(
                self.names[s.first],
                self.names[s.second],
                f"{s.wins:g}/{s.games} = {s.win_rate:.1%}",
                f"{s.ci95[0]:.1%}-{s.ci95[1]:.1%}",
                f"{s.hand_rate:.1%}",
                f"{s.points_per_hand:+.2f} ({s.points_ci95[0]:+.2f} to {s.points_ci95[1]:+.2f})",
            )
        ratings = sorted(zip(self.ratings(), self.names), reverse=True)
        table.caption = "ratings (Bradley-Terry, Elo scale): " + ", ".join(f"{n} {r:+.0f}" for r, n in ratings)
        table.caption_justify = "left"
        return table


def check_output_path(path: object) -> Path:
    """``path`` as a file that can be written: text or a path object whose folder exists and
    that is not a folder itself; else :class:`InvalidOptionError` (checked before a run, so
    that a long run never ends in an unwritable file)."""
    if not isinstance(path, (str, os.PathLike)) or not str(path):
        raise InvalidOptionError(f"an output path must be text or a path, got {clip(path)}")
    where = Path(path)
    if where.is_dir():
        raise InvalidOptionError(f"output path {where} is a folder, not a file")
    folder = where.parent if str(where.parent) else Path(".")
    if not folder.is_dir():
        raise InvalidOptionError(f"output path {where}: the folder {folder} does not exist")
    if not os.access(folder, os.W_OK) or (where.exists() and not os.access(where, os.W_OK)):
        raise InvalidOptionError(f"output path {where} cannot be written")
    return where


def play_game(match: Any, max_hands: int = MAX_HANDS_PER_GAME) -> Any:
    """Play ``match`` (a :class:`rummykit.Match`, which tells agents with a ``new_hand`` method
    the match so far before each hand) to its end and return its result;
    :class:`InvalidOptionError` after ``max_hands`` hands."""
    for _ in range(max_hands):
        if match.is_over:
            return match.result
        match.play_hand()
    if not match.is_over:
        raise InvalidOptionError(f"a game did not end within {max_hands} hands (agents that never end a hand?)")
    return match.result


def _sequence_rng(seed: int, *key: int) -> Any:
    import numpy as np

    return np.random.default_rng(np.random.SeedSequence(seed, spawn_key=key))


def _hand_points(result: Any) -> tuple[int, ...]:
    """A hand's points per seat: its returns (points won, or minus the penalty taken)."""
    return tuple(int(x) for x in result.returns)


def _play_one(
    game: Game, specs: Sequence[Any], seed: int, first: int, second: int, s: int, swapped: bool
) -> GameRecord:
    from rummykit.engine.match import Match

    order = (second, first) if swapped else (first, second)
    agents = [
        make_agent(specs[a], _sequence_rng(seed, 1, first, second, s, int(swapped), seat))
        for seat, a in enumerate(order)
    ]
    match: Any = Match(game, agents, seed=_sequence_rng(seed, 0, s))
    result = play_game(match)
    seat_of = (1, 0) if swapped else (0, 1)  # the seats of first and second
    won = [0, 0]
    points = [0, 0]
    for hand in match.hands:
        if hand.winner is not None:
            won[seat_of.index(hand.winner)] += 1
        p = _hand_points(hand)
        points[0] += p[seat_of[0]]
        points[1] += p[seat_of[1]]
    winner = None if result.winner is None else order[result.winner]
    return GameRecord(
        first,
        second,
        s,
        swapped,
        winner,
        result.hand_count,
        result.dead_hands,
        (won[0], won[1]),
        (points[0], points[1]),
    )


Chunk = tuple[int, int, range]  # first, second, sequences
Context = tuple[Game, tuple[Any, ...], int]


def _play_chunk(context: Context, chunk: Chunk, mark: Mark) -> list[GameRecord]:
    game, specs, seed = context
    first, second, sequences = chunk
    out = []
    for s in sequences:
        mark(s, 0)
        out.append(_play_one(game, specs, seed, first, second, s, False))
        mark(s, 1)
        out.append(_play_one(game, specs, seed, first, second, s, True))
    return out


def _chunks(n: int, sequences: int, size: int) -> Iterator[Chunk]:
    for start in range(0, sequences, size):
        for i in range(n):
            for j in range(i + 1, n):
                yield i, j, range(start, min(sequences, start + size))


def _int_option(name: str, value: object, low: int, high: int) -> int:
    if isinstance(value, numbers.Integral) and not isinstance(value, bool) and low <= int(value) <= high:
        return int(value)
    raise InvalidOptionError(f"{name} must be an int in {low:,}..{high:,}, got {clip(value)}")


def league(
    agents: Sequence[Any],
    game: str | Game = "gin_eaai",
    *,
    games: int = 100,
    seed: int = 0,
    workers: int = 1,
    progress: bool | None = None,
    **options: Any,
) -> LeagueResult:
    """Play ``games`` whole games (an even number: mirrored pairs) of a two-player ``game``
    between every pair of ``agents`` (2..64 agent names or agents, as for
    :func:`rummykit.tournament`; with ``workers > 1`` they must be picklable) and return the
    games and statistics.  ``game`` is a game name (with ``options``) or a game object; an
    external agent (``openspiel-simple``) sets the rules it was written for.  ``seed``
    (0..2**128-1) fixes every deal and agent seed; ``workers`` processes share the games (the
    result is the same for any count).  ``progress`` shows a bar on stderr (default: when
    stderr is a terminal)."""
    seed = _int_option("seed", seed, 0, MAX_SEED)
    games = _int_option("games", games, 2, MAX_GAMES)
    if games % 2:
        raise InvalidOptionError(f"games must be even (each deal sequence is played twice, seats swapped), got {games}")
    workers = _int_option("workers", workers, 1, 1024)
    if isinstance(agents, (str, bytes)) or not isinstance(agents, Sequence) or not 2 <= len(agents) <= MAX_AGENTS:
        raise InvalidOptionError(f"a league needs 2..{MAX_AGENTS} agents, got {clip(agents)}")
    if progress is not None and not isinstance(progress, bool):
        raise InvalidOptionError(f"progress must be True, False or None, got {clip(progress)}")
    built = [make_agent(spec) for spec in agents]  # fails fast on a bad name or setting
    chosen = game_for(built, game, dict(options)) if isinstance(game, str) else game_for(built, game, {})
    if not isinstance(game, str) and options:
        raise InvalidOptionError("options go with a game name, not with a game object")
    if not isinstance(chosen, Game):
        raise InvalidOptionError(f"game must be a game name or a Game object, got {clip(game)}")
    if chosen.num_players != 2:
        raise InvalidOptionError(f"a league plays two-player games; {chosen.name} has {chosen.num_players} players")
    specs = tuple(agents)
    names = tuple(s if isinstance(s, str) else repr(s) for s in specs)
    sequences = games // 2
    n = len(specs)
    size = max(1, min(10, sequences // max(1, workers * 4)))
    total = games * n * (n - 1) // 2
    records: list[GameRecord] = []
    start = time.perf_counter()
    show = sys.stderr.isatty() if progress is None else progress
    bar = _progress(total, f"{chosen.name}: league of {n}") if show else None

    def collect(chunk: Chunk, answer: list[GameRecord]) -> None:
        records.extend(answer)
        if bar is not None:
            bar.advance(bar.task_ids[0], len(answer))

    context: Context = (chosen, specs, seed)
    if bar is not None:
        with bar:
            run_chunks(_play_chunk, context, _chunks(n, sequences, size), collect, _describe(names), workers=workers)
    else:
        run_chunks(_play_chunk, context, _chunks(n, sequences, size), collect, _describe(names), workers=workers)
    records.sort(key=lambda r: (r.first, r.second, r.sequence, r.swapped))
    return LeagueResult(
        chosen.name,
        names,
        seed,
        games,
        tuple(sorted(chosen.rules.options().items())),
        tuple(records),
        workers=workers,
        seconds=time.perf_counter() - start,
    )


def _describe(names: Sequence[str]) -> Callable[[Chunk, int, int], str]:
    def describe(chunk: Chunk, a: int, b: int) -> str:
        first, second, sequences = chunk
        where = f"sequence {a}, {'swapped' if b else 'first'} game" if a >= 0 else f"sequences {sequences.start}.."
        return f"league game {clip(names[first])} against {clip(names[second])} ({where})"

    return describe


def _progress(total: int, label: str) -> Any:
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    bar = Progress(TextColumn(label), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    bar.add_task(label, total=total)
    return bar
