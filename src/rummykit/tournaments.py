"""Tournaments: many seeded hands between agents, on one or more processes, with statistics.

:func:`tournament` plays ``hands`` hands of one game.  Seats rotate in blocks of one deal per
player count: deal ``d`` is played ``n`` times, agent ``j`` sitting in seat ``(j + r) % n``
in rotation ``r`` (seat 0 deals), so every agent holds every seat's cards of every deal
(duplicate style, which also cancels much of the luck of the deal).  Each deal's cards and
each agent's seed come from ``numpy.random.SeedSequence(seed, spawn_key=...)``, so the
results are the same for any number of ``workers``.

Seat convention: everything per hand is indexed by agent (the order of ``agents``), in
Python and in both exports: ``seats[j]`` (CSV ``seat_j``) is the seat agent ``j`` sat in,
seat 0 dealing; ``points[j]`` (CSV ``points_j``) its points; ``winner`` an agent index, None
(CSV empty, JSON null) for a dead hand, which nobody won.  Win rates count only the hands
someone won; mean points count every hand, a dead one as 0.  In the penalty games (Kaluki,
Rummy with ``rummy_scoring="penalty"``) points are minus the penalty each agent took, so
means are negative and the one nearest 0 is the best.

>>> result = tournament(["greedy", "random"], "oklahoma-gin", hands=20, seed=1)
>>> result.hands, result.agents[0].name, result.agents[0].wins >= 18
(20, 'greedy', True)
>>> result == tournament(["greedy", "random"], "oklahoma-gin", hands=20, seed=1, workers=2)
True

Runs stop cleanly (:mod:`rummykit.executor`): SIGINT (Ctrl-C) and SIGTERM stop the worker
processes at once and raise :class:`~rummykit.executor.Interrupted`, whose ``result`` holds
the hands finished so far (``partial=True``); the first agent that raises, or whose worker
process dies, stops the run with an :class:`~rummykit.errors.AgentError` naming the agent, its
seat and the deal.  The hands are handed to the workers as they free up, so memory does not
depend on ``hands``.

``backend="ray"`` plays the hands as Ray tasks instead (``pip install "rummykit[ray]"``), on
the cluster at ``address`` or on the Ray the script already started (``ray.init``), else on a
new local Ray started for the call; the results are the same as the local backend's.  An
``address`` where no cluster answers fails within seconds.
"""

from __future__ import annotations

import csv
import io
import json
import math
import numbers
import os
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

from rummykit._random import MAX_SEED
from rummykit.agents import Agent, make_agent
from rummykit.agents.base import is_library_spec
from rummykit.agents.external import game_for
from rummykit.engine.hand_loop import play_out
from rummykit.errors import AgentError, InvalidOptionError, RummykitError, clip
from rummykit.executor import Interrupted, Mark, run_chunks
from rummykit.games import Game

__all__ = ["AgentStats", "HandRecord", "TournamentResult", "tournament", "wilson_interval"]

Z95 = 1.959963984540054  # the two-sided 95% normal quantile


def wilson_interval(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a binomial proportion (95% by default); (0, 1) for no trials.

    >>> tuple(round(x, 4) for x in wilson_interval(95, 100))
    (0.8882, 0.9785)
    """
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    z2n = z * z / trials
    centre = (p + z2n / 2) / (1 + z2n)
    half = z * math.sqrt(p * (1 - p) / trials + z2n / (4 * trials)) / (1 + z2n)
    # exact ends for 0 or all successes (the formula gives them up to rounding)
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == trials else min(1.0, centre + half)
    return low, high


@dataclass(frozen=True)
class HandRecord:
    """One hand, indexed by agent: ``seats[j]`` is the seat agent ``j`` sat in (seat 0 deals),
    ``points[j]`` its hand points; ``winner`` is an agent index (None for a dead hand)."""

    hand: int
    deal: int
    seats: tuple[int, ...]
    outcome: str
    winner: int | None
    points: tuple[int, ...]
    actions: int


@dataclass(frozen=True)
class AgentStats:
    """One agent's results: ``wins`` of the ``decided`` (not dead) hands, the win rate with its
    Wilson 95% interval, and the mean hand points over all hands (dead hands count 0)."""

    name: str
    wins: int
    decided: int
    win_rate: float
    ci95: tuple[float, float]
    mean_points: float


def _output_path(path: object) -> Path:
    """A file to write: text or a path object (an OSError from the file system is left as it is)."""
    if isinstance(path, (str, os.PathLike)):
        return Path(path)
    raise InvalidOptionError(f"path must be text or a path, got {clip(path)}")


@dataclass(frozen=True)
class TournamentResult:
    """What :func:`tournament` returns.  Equality ignores the timing fields.

    ``partial`` is True for the result of a run stopped by a signal
    (:class:`~rummykit.executor.Interrupted`): ``records`` then holds the hands finished
    before it, ``hands_requested`` the hands asked for."""

    game: str
    names: tuple[str, ...]
    seed: int
    records: tuple[HandRecord, ...] = field(repr=False)
    workers: int = field(default=1, compare=False)
    seconds: float = field(default=0.0, compare=False)
    penalty_game: bool = field(default=False, compare=False)  # points are minus the penalties taken
    partial: bool = False
    options: dict[str, Any] = field(default_factory=dict, compare=False)  # the game's options as given
    hands_requested: int = field(default=0, compare=False)

    @property
    def hands(self) -> int:
        return len(self.records)

    @property
    def hands_per_second(self) -> float:
        return self.hands / self.seconds if self.seconds > 0 else math.inf

    @property
    def outcomes(self) -> dict[str, int]:
        """How many hands ended each way (``gin``, ``knock``, ``undercut``, ``dead``...)."""
        return dict(sorted(Counter(r.outcome for r in self.records).items()))

    @property
    def agents(self) -> tuple[AgentStats, ...]:
        decided = sum(r.winner is not None for r in self.records)
        stats = []
        for j, name in enumerate(self.names):
            wins = sum(r.winner == j for r in self.records)
            total = sum(r.points[j] for r in self.records)
            stats.append(
                AgentStats(
                    name=name,
                    wins=wins,
                    decided=decided,
                    win_rate=wins / decided if decided else 0.0,
                    ci95=wilson_interval(wins, decided),
                    mean_points=total / self.hands if self.hands else 0.0,
                )
            )
        return tuple(stats)

    def summary(self) -> dict[str, Any]:
        """The statistics as plain data (what :meth:`to_json` writes, without the hands)."""
        from rummykit._version import __version__

        return {
            "rummykit": __version__,
            "game": self.game,
            "options": dict(self.options),
            "agents": list(self.names),
            "hands": self.hands,
            "partial": self.partial,
            "hands_requested": max(self.hands_requested, self.hands),
            "seed": self.seed,
            "workers": self.workers,
            "seconds": round(self.seconds, 3),
            "hands_per_second": round(self.hands_per_second, 1) if self.seconds > 0 else None,
            "outcomes": self.outcomes,
            "results": [
                {
                    "agent": s.name,
                    "wins": s.wins,
                    "decided": s.decided,
                    "win_rate": round(s.win_rate, 4),
                    "ci95": [round(x, 4) for x in s.ci95],
                    "mean_points": round(s.mean_points, 3),
                }
                for s in self.agents
            ],
        }

    def to_json(self, path: str | Path | None = None) -> str:
        """The summary and every hand as JSON (also written to ``path`` if given); a hand's
        ``seats`` and ``points`` are indexed by agent, as in the CSV."""
        data = self.summary()
        data["records"] = [
            {
                "hand": r.hand,
                "deal": r.deal,
                "seats": list(r.seats),
                "outcome": r.outcome,
                "winner": r.winner,
                "points": list(r.points),
                "actions": r.actions,
            }
            for r in self.records
        ]
        text = json.dumps(data, indent=1)
        if path is not None:
            _output_path(path).write_text(text + "\n", encoding="utf-8")
        return text

    def to_csv(self, path: str | Path | None = None) -> str:
        """One row per hand (hand, deal, outcome, winner, each agent's seat and points:
        ``seat_j``, ``points_j`` for agent ``j``) as CSV (also written to ``path`` if given)."""
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        columns = [f"{kind}_{j}" for j in range(len(self.names)) for kind in ("seat", "points")]
        writer.writerow(["hand", "deal", "outcome", "winner", "actions", *columns])
        for r in self.records:
            cells = [v for j in range(len(self.names)) for v in (r.seats[j], r.points[j])]
            winner = "" if r.winner is None else r.winner
            writer.writerow([r.hand, r.deal, r.outcome, winner, r.actions, *cells])
        text = out.getvalue()
        if path is not None:
            _output_path(path).write_text(text, encoding="utf-8")
        return text

    def table(self) -> Any:
        """The results as a ``rich.table.Table``."""
        from rich.table import Table

        title = f"{self.game}: {self.hands} hands, seed {self.seed}"
        if self.partial:
            title += f" (PARTIAL: stopped after {self.hands} of {self.hands_requested} hands)"
        table = Table(title=title, title_justify="left")
        for column in ("agent", "wins", "win rate", "95% CI", "mean points"):
            table.add_column(column, justify="left" if column == "agent" else "right")
        for s in self.agents:
            low, high = s.ci95
            table.add_row(
                s.name, f"{s.wins}/{s.decided}", f"{s.win_rate:.1%}", f"{low:.1%}-{high:.1%}", f"{s.mean_points:+.2f}"
            )
        mix = ", ".join(f"{k} {v / self.hands:.1%}" for k, v in self.outcomes.items()) if self.hands else "-"
        rate = self.hands_per_second
        shown = f"{rate:,.0f}" if rate >= 10 else f"{rate:.2g}"
        workers = f"{self.workers} worker" + ("s" if self.workers != 1 else "")
        table.caption = f"outcomes: {mix}; {shown} hands/s on {workers}"
        table.caption_justify = "left"
        return table

    def notes(self) -> list[str]:
        """Footnotes to :meth:`table`: dead hands left out of the win rates, and what negative
        mean points mean in a penalty game."""
        notes = []
        if self.partial:
            notes.append(
                f"* partial result: the run was stopped after {self.hands} of {self.hands_requested} hands "
                "(the hands finished by then)"
            )
        dead = self.outcomes.get("dead", 0)
        if dead:
            hands = f"{dead} dead hand" + ("s" if dead != 1 else "")
            notes.append(
                f"* {hands} (nobody won) left out of wins and win rates: {self.hands - dead} decided; "
                f"mean points are over all {self.hands} hands, a dead hand counting 0"
            )
        if self.penalty_game:
            notes.append(
                f"* {self.game} is a penalty game: points are minus the penalty points each agent took "
                "(cards left in hand), so means are 0 or negative and the nearest 0 is the best"
            )
        return notes

    def plot(self, path: str | Path) -> None:
        """Save a PNG: the running score difference (two agents; else each agent's running
        points) and the outcome mix.  Needs matplotlib (``pip install rummykit[plot]``)."""
        import importlib

        path = _output_path(path)
        try:  # imported by name: matplotlib is an optional extra (and untyped here without it)
            matplotlib = importlib.import_module("matplotlib")
        except ImportError:
            raise InvalidOptionError(
                "plot needs matplotlib: pip install 'rummykit[plot]' (or pip install matplotlib)"
            ) from None
        matplotlib.use("Agg")
        plt = importlib.import_module("matplotlib.pyplot")

        fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4), gridspec_kw={"width_ratios": [3, 1]})
        running = [0] * len(self.names)
        series: list[list[int]] = [[] for _ in self.names]
        for r in self.records:
            for j, points in enumerate(r.points):
                running[j] += points
                series[j].append(running[j])
        hands = range(1, self.hands + 1)
        if len(self.names) == 2:
            left.plot(hands, [a - b for a, b in zip(*series)])
            left.set_ylabel(f"{self.names[0]} - {self.names[1]} (points)")
            left.axhline(0, color="grey", linewidth=0.5)
        else:
            for name, values in zip(self.names, series):
                left.plot(hands, values, label=name)
            left.set_ylabel("running points")
            left.legend()
        left.set_xlabel("hand")
        left.set_title(f"{self.game}, seed {self.seed}")
        outcomes = self.outcomes
        right.bar(list(outcomes), [v / max(1, self.hands) for v in outcomes.values()])
        right.set_title("outcome mix")
        fig.tight_layout()
        fig.savefig(path, format="png")
        plt.close(fig)


# --- playing ----------------------------------------------------------------------


def _seed_sequence(seed: int, *key: int) -> Any:
    import numpy as np

    return np.random.SeedSequence(seed, spawn_key=key)


Played = tuple[HandRecord, str | None]  # a hand's record and, when kept, its hand record text
#: what every chunk of a tournament gets: the game, the agents, the seed, whether to keep the hand records
#: and whether the agents are trusted with the real state
Context = tuple[Game, Sequence["str | Agent"], int, bool, bool]


class _Seated:
    """An agent called for one seat of one hand: it marks the hand and the seat first, so
    that a worker process that dies inside the agent is reported with them."""

    __slots__ = ("agent", "hand", "mark", "seat")

    def __init__(self, agent: Any, hand: int, seat: int, mark: Mark) -> None:
        self.agent, self.hand, self.seat, self.mark = agent, hand, seat, mark

    def __call__(self, state: Any) -> Any:
        self.mark(self.hand, self.seat)
        choice = self.agent(state)
        self.mark(self.hand, -1)
        return choice

    def __getattr__(self, name: str) -> Any:
        return getattr(self.agent, name)


def _agent_name(specs: Sequence[str | Agent], j: int) -> str:
    return f"agent {j} ({clip(specs[j])})"


def _play_hand(
    game: Game, specs: Sequence[str | Agent], seed: int, hand: int, keep: bool, mark: Mark, trusted: bool = False
) -> Played:
    """Hand number ``hand``: its deal, seat rotation, agents and the seats' copies of the hand
    handed to them (unless ``trusted``) all derive from ``seed``; with ``keep``, also the hand's
    record (``state.to_json()``).  An agent that raises or plays an illegal action gives
    :class:`AgentError` naming it, its seat and the deal."""
    import numpy as np

    n = len(specs)
    deal, rotation = divmod(hand, n)
    seats = tuple((s - rotation) % n for s in range(n))  # the agent in each seat: j in (j + rotation) % n
    mark(hand, -1)
    agents = [make_agent(spec, np.random.default_rng(_seed_sequence(seed, 1, hand, j))) for j, spec in enumerate(specs)]
    state = game.new_hand(seed=np.random.default_rng(_seed_sequence(seed, 0, deal)), dealer=0)
    names = [f"{_agent_name(specs, seats[s])} in seat {s}" for s in range(n)]
    try:
        copies = np.random.default_rng(_seed_sequence(seed, 2, hand))  # the seats' copies handed to the agents
        seated = [_Seated(agents[seats[s]], hand, s, mark) for s in range(n)]
        # the library's own agents look only at what their seat knows; a module's may not
        mine = [trusted or is_library_spec(specs[seats[s]]) for s in range(n)]
        play_out(state, seated, names, trusted=mine, rng=copies)
    except RummykitError as err:  # play_out's own errors name the agent and seat
        raise AgentError(f"deal {deal} (hand {hand}): {err}") from err
    except Exception as err:
        who = "an agent" if state.is_terminal() else names[state.current_player]
        raise AgentError(f"deal {deal} (hand {hand}): {who} raised {type(err).__name__}: {err}") from err
    result = state.result
    points = state.returns()
    by_agent = tuple(int(points[(j + rotation) % n]) for j in range(n))
    winner = None if result.winner is None else seats[result.winner]
    agent_seats = tuple((j + rotation) % n for j in range(n))
    record = HandRecord(hand, deal, agent_seats, result.outcome, winner, by_agent, len(state.history))
    return record, state.to_json() if keep else None


def _play_chunk(context: Context, hands: range, mark: Mark) -> list[Played]:
    """The hands of one chunk (the executor's work)."""
    game, specs, seed, keep, trusted = context
    return [_play_hand(game, specs, seed, i, keep, mark, trusted) for i in hands]


def _describe(specs: Sequence[str | Agent]) -> Callable[[range, int, int], str]:
    """Where a chunk was when its worker died: the hand and the seat it marked."""

    def describe(hands: range, hand: int, seat: int) -> str:
        n = len(specs)
        everyone = ", ".join(_agent_name(specs, j) for j in range(n))
        if hand < 0:  # no mark (Ray): the chunk's hands and every agent
            first, last = hands.start, hands.stop - 1
            return f"hands {first}..{last} (deals {first // n}..{last // n}; {everyone})"
        deal, rotation = divmod(hand, n)
        if seat < 0:
            return f"deal {deal} (hand {hand}), outside the agents' moves ({everyone})"
        return f"deal {deal} (hand {hand}): {_agent_name(specs, (seat - rotation) % n)} in seat {seat}"

    return describe


def _chunks(hands: int, workers: int) -> Iterator[range]:
    size = max(1, min(50, hands // (workers * 8)))  # small enough for a smooth progress bar
    for start in range(0, hands, size):
        yield range(start, min(hands, start + size))


def _progress(total: int, label: str) -> Any:
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TaskProgressColumn,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    rate = TextColumn("{task.fields[rate]}")
    progress = Progress(
        TextColumn(label),
        BarColumn(),
        MofNCompleteColumn(),
        TaskProgressColumn(),
        rate,
        TimeElapsedColumn(),
        TextColumn("ETA"),
        TimeRemainingColumn(),
        transient=False,
    )
    progress.add_task(label, total=total, rate="")
    return progress


def _ray_workers(address: str | None, workers: int) -> tuple[Any, bool, int]:
    """Ray (initialised for the call unless it already was), whether it was started here,
    and the workers to use: at least one per CPU of the cluster."""
    try:
        import ray
    except ImportError:
        raise InvalidOptionError("backend='ray' needs Ray: pip install 'rummykit[ray]'") from None
    started = not ray.is_initialized()
    if started:
        _ray_init(ray, address)
    resources = cast(Callable[[], dict[str, float]], ray.cluster_resources)  # untyped in Ray
    return ray, started, max(workers, int(resources().get("CPU", 1)))


#: seconds to wait for a Ray cluster's port to answer before giving up on ``address``
RAY_CONNECT_TIMEOUT = 5.0


def _ray_endpoint(address: str) -> tuple[str, int] | None:
    """The host and port of a Ray ``address`` (None for ``auto`` and ``local``)."""
    if address in ("auto", "local"):
        return None
    host, sep, port = address.removeprefix("ray://").rpartition(":")
    if not sep or not host or not port.isdigit():
        raise InvalidOptionError(f"address must be host:port, ray://host:port, auto or local, got {clip(address)}")
    return host.strip("[]"), int(port)


def _ray_init(ray: Any, address: str | None) -> None:
    """``ray.init`` for a tournament: a new local Ray without ``address`` (never a cluster
    named by ``RAY_ADDRESS`` or left over from ``ray start``); with one, a check that its
    port answers first, since Ray itself waits minutes for a wrong address."""
    import socket

    if address is None:
        ray.init(address="local")
        return
    endpoint = _ray_endpoint(address)
    if endpoint is not None:
        try:
            socket.create_connection(endpoint, timeout=RAY_CONNECT_TIMEOUT).close()
        except OSError as err:
            raise InvalidOptionError(f"no Ray cluster answers at {address}: {err}") from None
    try:
        ray.init(address=address)
    except (ConnectionError, ValueError, RuntimeError) as err:
        raise InvalidOptionError(f"could not join the Ray cluster at {address}: {err}") from err


BACKENDS = ("local", "ray")
#: the most hands of one tournament (a billion: days of play even for the fastest agents)
MAX_HANDS = 10**9
#: the most worker processes of one tournament
MAX_WORKERS = 1024


def _int_option(name: str, value: object, low: int, high: int, span: str) -> int:
    """``value`` as an int if it is an integer (a numpy integer too, not a bool) in low..high."""
    if isinstance(value, numbers.Integral) and not isinstance(value, bool) and low <= int(value) <= high:
        return int(value)
    raise InvalidOptionError(f"{name} must be an int in {span}, got {clip(value)}")


def tournament(
    agents: Sequence[str | Agent],
    game: Any,
    *,
    hands: int = 1000,
    seed: int = 0,
    workers: int = 1,
    progress: bool | None = None,
    backend: str = "local",
    address: str | None = None,
    save_records: str | Path | None = None,
    trusted: bool = False,
    **options: Any,
) -> TournamentResult:
    """Play ``hands`` hands of ``game`` (a game object, or a name for ``Game(game, **options)``,
    with as many players as ``agents`` unless ``num_players`` is given) between ``agents``, one
    per seat: names for :func:`rummykit.agents.make_agent`
    (``"random"``, ``"greedy"``, ``"best"``, ``"ismcts:iterations=100"``) or agents (each hand
    gets ``agent.spawn(hand_seed)`` when the agent has ``spawn``, else the agent itself).
    The external baselines ``"openspiel-simple"`` and ``"rlcard-novice"`` play Gin on the rules
    they were written for, which they add to the options (:mod:`rummykit.agents.external`):
    ``tournament(["best", "openspiel-simple"], "gin")``.

    ``hands`` is 1..10**9 (:data:`MAX_HANDS`).  ``seed`` (an int 0..2**128-1) fixes every deal
    and every agent seed; ``workers`` processes (1..1024) share the hands (agents must then be
    picklable) and the result is the same for any count.
    ``progress`` shows a progress bar with the rate and ETA on stderr (default: when stderr
    is a terminal).  With ``workers > 1`` a script must call it under
    ``if __name__ == "__main__":`` (worker processes are spawned and import the script).

    ``backend="ray"`` spreads the hands over Ray tasks (at least one chunk per CPU of the
    cluster): on the Ray already initialised, else ``ray.init(address=address)`` for the call
    (None: a new local Ray; ``host:port``, ``ray://host:port``, ``auto``; a host:port that does
    not answer within :data:`RAY_CONNECT_TIMEOUT` seconds raises :class:`InvalidOptionError`).
    The cluster's workers need rummykit installed.  Same seed, same result.

    ``save_records``: a directory (made if missing) for each hand's record,
    ``hand_<number>.json`` (``state.to_json()``), which ``rummykit replay`` reads.

    An agent given as an object is handed its seat's copy of the hand (a determinization drawn
    from ``seed``), never the real state; ``trusted=True`` hands it the real state (faster; for
    agents you trust).  The library's own agents, named by text, get the real state; an agent
    loaded from a ``"module:attribute"`` spec gets its seat's copy unless ``trusted``.
    The JSON output carries the game's options, the seed and the package version.
    """
    import numpy as np  # on first use: `import rummykit` stays light

    seed = _int_option("seed", seed, 0, MAX_SEED, "0..2**128-1")
    hands = _int_option("hands", hands, 1, MAX_HANDS, f"1..{MAX_HANDS:,}")
    workers = _int_option("workers", workers, 1, MAX_WORKERS, f"1..{MAX_WORKERS}")
    if not isinstance(backend, str) or backend not in BACKENDS:
        raise InvalidOptionError(f"backend must be one of {', '.join(BACKENDS)}, got {clip(backend)}")
    if address is not None and not isinstance(address, str):
        raise InvalidOptionError(f"address must be a Ray cluster address (text) or None, got {clip(address)}")
    if address is not None and backend != "ray":
        raise InvalidOptionError("address is the Ray cluster's: it goes with backend='ray'")
    if address is not None:
        _ray_endpoint(address)
    if not isinstance(trusted, bool):
        raise InvalidOptionError(f"trusted must be True or False, got {clip(trusted)}")
    if progress is not None and not isinstance(progress, (bool, np.bool_)):
        raise InvalidOptionError(
            f"progress must be True, False or None (a bar when stderr is a terminal), got {clip(progress)}"
        )
    sequence = isinstance(agents, Sequence) and not isinstance(agents, str)
    # built once here to fail fast on a bad name or setting; an external agent (openspiel-simple,
    # rlcard-novice) fixes the rules it was written for (agents.external.game_for)
    built = [make_agent(spec) for spec in agents] if sequence else []
    if isinstance(game, str):
        count = len(agents) if sequence else None
        if count is not None and "num_players" not in options and count != Game(game).num_players:
            try:  # one agent per seat: the count says how many play
                game = game_for(built, game, {**options, "num_players": count})
            except InvalidOptionError as err:
                raise InvalidOptionError(
                    f"{game} for {count} agent{'s' * (count != 1)} (one per seat): {err}"
                ) from None
        else:
            game = game_for(built, game, options)
    elif options:
        raise InvalidOptionError("options go with a game name, not with a game object")
    else:
        game = game_for(built, game, {})
    if not isinstance(game, Game):
        raise InvalidOptionError(f"game must be a game name or a Game object, got {clip(game)}")
    if not sequence or len(agents) != game.num_players:
        raise InvalidOptionError(f"{game.name} needs {game.num_players} agents, one per seat, got {clip(agents)}")
    specs = list(agents)
    names = tuple(s if isinstance(s, str) else repr(s) for s in specs)
    workers = min(workers, hands)
    save = None
    if save_records is not None:
        folder = Path(save_records)
        folder.mkdir(parents=True, exist_ok=True)
        width = len(str(hands - 1))

        def save(record: HandRecord, text: str) -> None:
            (folder / f"hand_{record.hand:0{width}d}.json").write_text(text + "\n", encoding="utf-8")

    show = sys.stderr.isatty() if progress is None else bool(progress)
    start = time.perf_counter()
    penalty = game.score_kind == "penalties"
    records: list[HandRecord] = []
    bar = _progress(hands, f"{game.name}: {' vs '.join(names)}") if show else None

    def on_result(chunk: range, played: list[Played]) -> None:
        for record, text in played:
            if save is not None and text is not None:
                save(record, text)
            records.append(record)
        if bar is not None:
            task = bar.task_ids[0]
            bar.advance(task, len(played))
            rate = len(records) / max(1e-9, time.perf_counter() - start)
            bar.update(task, rate=f"{rate:,.1f} hands/s")

    def result(partial: bool) -> TournamentResult:
        return TournamentResult(
            game.name,
            names,
            seed,
            tuple(sorted(records, key=lambda r: r.hand)),
            workers=workers,
            seconds=time.perf_counter() - start,
            penalty_game=penalty,
            partial=partial,
            hands_requested=hands,
            options=dict(game.rules.given),
        )

    def run() -> None:
        nonlocal workers
        context: Context = (game, specs, seed, save is not None, trusted)
        describe = _describe(specs)
        if backend != "ray":
            run_chunks(_play_chunk, context, _chunks(hands, workers), on_result, describe, workers=workers)
            return
        ray, started, workers = _ray_workers(address, workers)
        try:
            chunks = _chunks(hands, workers)
            run_chunks(_play_chunk, context, chunks, on_result, describe, workers=workers, backend="ray")
        finally:
            if started:
                ray.shutdown()

    try:
        if bar is not None:
            with bar:
                run()
        else:
            run()
    except Interrupted as stop:
        stop.result = result(partial=True)
        raise
    return result(partial=False)
