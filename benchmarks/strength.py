"""Agent strength: seeded tournaments of rummykit's agents against the standard baselines and
against each other, with 95% intervals, points per hand and milliseconds per decision; and
whole games (``--table games``, ``--table levels``: :func:`rummykit.league.league`, each deal
sequence played twice with the seats swapped).

Run from the repository root (the baselines need their extras: ``pip install -e
".[openspiel,rlcard]"``)::

    python benchmarks/strength.py                       # every table, the sizes below
    python benchmarks/strength.py --table games --seed 1
    python benchmarks/strength.py --table baselines --hands 200
    python benchmarks/strength.py --row best-openspiel  # one row
    python benchmarks/strength.py --list
    python benchmarks/strength.py --row best-greedy-rummy --agent best:table_pool=1 --hands 200 --seed 3

``hands`` is the hand table of ``docs/strength.md`` (``best`` against OpenSpiel's simple bot,
RLCard's novice agent and ``greedy`` in every game); ``baselines`` the simpler agents against
the baselines; ``games`` whole games of ``best`` against the opponent panel and ``greedy``;
``levels`` each level against the one below, in every game.  ``--games N`` plays N games in
every whole-game row (even); whole-game columns: games won with a 95% interval clustered by
mirrored pair, hands won and points per hand (the first agent's less the other's, per hand
dealt) with clustered intervals.  ``--hands N`` plays N hands in every row instead of its own count;
``--agent SPEC`` plays the agent spec ``SPEC`` (e.g. ``best:samples=32``) in place of each
row's first agent (the pilots of ``docs/strength.md``).

Columns: the win rate of the first agent over the decided (not dead) hands with its Wilson 95%
interval; points per hand: the mean of the first agent's signed result (its points less the
mean of the others' points) with a 95% interval over the deals (each deal is played once per
seat rotation, so the hands of a deal are not independent); milliseconds per decision of the
first agent (CPU time of the process, which plays every hand on one thread, so one core's
time even on a busy machine; every call, the single-choice ones too).
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections import defaultdict
from dataclasses import dataclass, field, replace
from typing import Any

import rummykit as rk
from rummykit.agents import make_agent
from rummykit.tournaments import Z95


@dataclass(frozen=True)
class Row:
    key: str
    agent: str
    opponent: str
    game: str
    hands: int
    options: dict[str, Any] = field(default_factory=dict)
    label: str = ""


ISSUE = [
    Row("greedy-openspiel", "greedy", "openspiel-simple", "gin", 2000),
    Row("ismcts-openspiel", "ismcts", "openspiel-simple", "gin", 500),
    Row("greedy-rlcard", "greedy", "rlcard-novice", "gin", 2000),
    Row("ismcts-rlcard", "ismcts", "rlcard-novice", "gin", 500),
    Row("ismcts-greedy", "ismcts", "greedy", "oklahoma-gin", 300),
    Row("careful-greedy-gin", "careful", "greedy", "gin", 20000, label="gin (standard rules)"),
    Row("careful-greedy-oklahoma-gin", "careful", "greedy", "oklahoma-gin", 20000),
    Row("careful-eaai", "careful", "eaai-simple", "gin_eaai", 20000),
]
BEST = [
    Row("best-openspiel", "best", "openspiel-simple", "gin", 2000),
    Row("best-rlcard", "best", "rlcard-novice", "gin", 1000),
    Row("best-greedy-gin", "best", "greedy", "gin", 1000, label="gin (standard rules)"),
    Row("best-greedy-oklahoma-gin", "best", "greedy", "oklahoma-gin", 1000),
    Row(
        "best-greedy-oklahoma-rummy-3",
        "best",
        "greedy",
        "oklahoma-rummy",
        600,
        {"num_players": 3},
        "oklahoma-rummy, 3 players",
    ),
    Row(
        "best-greedy-oklahoma-rummy-4",
        "best",
        "greedy",
        "oklahoma-rummy",
        600,
        {"num_players": 4},
        "oklahoma-rummy, 4 players",
    ),
    Row("best-greedy-rummy", "best", "greedy", "rummy", 600),
    Row("best-greedy-kaluki", "best", "greedy", "kaluki", 600),
]


@dataclass(frozen=True)
class GameRow:
    key: str
    agent: str
    opponent: str
    game: str
    games: int
    options: dict[str, Any] = field(default_factory=dict)
    label: str = ""


OLD = "best:game_value=0,learn=0"  # best playing each hand for its points
GAME_ROWS = [
    GameRow("best-eaai", "best", "eaai-simple", "gin_eaai", 2000),
    GameRow("best-patient", "best", "patient", "gin_eaai", 2000),
    GameRow("best-ginhunter", "best", "greedy:max_knock_deadwood=0", "gin_eaai", 1000),
    GameRow("best-knock5", "best", "greedy:max_knock_deadwood=5", "gin_eaai", 1000),
    GameRow("best-old", "best", OLD, "gin_eaai", 1000),
    GameRow("old-eaai", OLD, "eaai-simple", "gin_eaai", 1000),
    GameRow("old-patient", OLD, "patient", "gin_eaai", 1000),
    GameRow("best-openspiel-games", "best", "openspiel-simple", "gin", 2000, label="gin, OpenSpiel's rules"),
    GameRow("best-greedy-oklahoma-gin-games", "best", "greedy", "oklahoma-gin", 2000),
    GameRow("best-greedy-rummy-games", "best", "greedy", "rummy", 2000, {"num_players": 2}),
    GameRow("best-greedy-kaluki-games", "best", "greedy", "kaluki", 2000, {"num_players": 2}),
]
LEVEL_GAMES = [
    ("gin_eaai", {}),
    ("oklahoma-gin", {}),
    ("rummy", {"num_players": 2}),
    ("kaluki", {"num_players": 2}),
    ("kalooki_51", {"num_players": 2}),
]
LEVEL_ROWS = [
    GameRow(f"level{k + 1}-level{k}-{g}", f"level:{k + 1}", f"level:{k}", g, 1000, o)
    for g, o in LEVEL_GAMES
    for k in range(1, 5)
]
TABLES: dict[str, list[Any]] = {"baselines": ISSUE, "hands": BEST, "games": GAME_ROWS, "levels": LEVEL_ROWS}

_CALLS: dict[str, list[float]] = defaultdict(list)


class Timed:
    """An agent spec whose every call is timed into ``_CALLS[label]`` (the tournament spawns
    one per hand with the hand's seed, as it does for a name)."""

    def __init__(self, spec: str, label: str, agent: Any = None) -> None:
        self.spec, self.label, self.agent = spec, label, agent

    def spawn(self, seed: Any) -> Timed:
        return Timed(self.spec, self.label, make_agent(self.spec, seed))

    def __call__(self, state: Any) -> int:
        start = time.process_time()
        action = int(self.agent(state))
        _CALLS[self.label].append(time.process_time() - start)
        return action

    def __getattr__(self, name: str) -> Any:  # required_game, label, new_hand of the agent
        if name in ("required_game", "label", "new_hand") and self.agent is not None:
            return getattr(self.agent, name)
        raise AttributeError(name)

    def __repr__(self) -> str:
        return self.spec


def run(row: Row, hands: int, seed: int) -> dict[str, Any]:
    n = row.options.get("num_players", 2)
    _CALLS.clear()
    agents = [Timed(row.agent, "agent"), *[Timed(row.opponent, "opponent") for _ in range(n - 1)]]
    start = time.perf_counter()
    result = rk.tournament(agents, row.game, hands=hands, seed=seed, progress=sys.stderr.isatty(), **row.options)
    seconds = time.perf_counter() - start
    first = result.agents[0]
    # the first agent's signed result per hand, averaged per deal (its hands are correlated)
    per_deal: dict[int, list[float]] = defaultdict(list)
    for r in result.records:
        total = sum(r.points)
        per_deal[r.deal].append((n * r.points[0] - total) / (n - 1))
    means = [sum(v) / len(v) for v in per_deal.values()]
    mean = sum(means) / len(means)
    spread = math.sqrt(sum((x - mean) ** 2 for x in means) / max(1, len(means) - 1) / len(means))
    calls = _CALLS["agent"]
    return {
        "row": row,
        "game": result.game,
        "hands": result.hands,
        "decided": first.decided,
        "wins": first.wins,
        "win_rate": first.win_rate,
        "ci": first.ci95,
        "points": mean,
        "points_ci": (mean - Z95 * spread, mean + Z95 * spread),
        "ms": 1000 * sum(calls) / max(1, len(calls)),
        "opponent_ms": 1000 * sum(_CALLS["opponent"]) / max(1, len(_CALLS["opponent"])),
        "outcomes": result.outcomes,
        "seconds": seconds,
    }


def run_games(row: GameRow, games: int, seed: int) -> dict[str, Any]:
    from rummykit.league import league

    _CALLS.clear()
    start = time.perf_counter()
    agents = [Timed(row.agent, "agent"), Timed(row.opponent, "opponent")]
    result = league(agents, row.game, games=games, seed=seed, progress=sys.stderr.isatty(), **row.options)
    calls = _CALLS["agent"]
    return {
        "row": row,
        "pair": result.pairs[0],
        "game": result.game,
        "ms": 1000 * sum(calls) / max(1, len(calls)),
        "seconds": time.perf_counter() - start,
    }


def games_markdown(out: dict[str, Any], seed: int) -> str:
    row: GameRow = out["row"]
    p = out["pair"]
    game = row.label or (f"{row.game}, 2 players" if row.options.get("num_players") == 2 else row.game)
    return (
        f"| {row.agent} | {row.opponent} | {game} | {p.games:,} | {p.win_rate:.1%} ({p.ci95[0]:.1%}-{p.ci95[1]:.1%}) "
        f"| {p.hand_rate:.1%} ({p.hand_ci95[0]:.1%}-{p.hand_ci95[1]:.1%}) | {p.points_per_hand:+.1f} "
        f"({p.points_ci95[0]:+.1f} to {p.points_ci95[1]:+.1f}) | {out['ms']:.2f} | {seed} |".replace(
            "| 0.00 |", "| <0.01 |"
        )
    )


GAMES_HEADER = (
    "| agent | opponent | game | games | games won (95% CI) | hands won (95% CI) | points/hand (95% CI) "
    "| ms/decision | seed |\n|---|---|---|---:|---|---|---|---:|---:|"
)


def markdown(out: dict[str, Any], seed: int) -> str:
    row: Row = out["row"]
    low, high = out["ci"]
    plow, phigh = out["points_ci"]
    game = row.label or row.game
    return (
        f"| {row.agent} | {row.opponent} | {game} | {out['hands']:,} | "
        f"{out['win_rate']:.1%} ({low:.1%}-{high:.1%}) | {out['points']:+.1f} ({plow:+.1f} to {phigh:+.1f}) | "
        f"{out['ms']:.2f} | {seed} |"
    )


HEADER = (
    "| agent | opponent | game | hands | win rate of decided hands (95% CI) | points/hand (95% CI) "
    "| ms/decision | seed |\n|---|---|---|---:|---|---|---:|---:|"
)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--table", choices=[*TABLES, "all"], default="all")
    parser.add_argument("--row", action="append", default=[], help="only this row (repeatable; see --list)")
    parser.add_argument("--hands", type=int, help="hands per row (default: each row's own count)")
    parser.add_argument("--games", type=int, help="games per whole-game row, even (default: each row's own count)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--list", action="store_true", help="list the rows and exit")
    parser.add_argument("--agent", help="this agent spec in place of each row's first agent")
    args = parser.parse_args(argv)
    rows = [r for name, t in TABLES.items() if args.table in (name, "all") for r in t]
    if args.row:
        rows = [r for t in TABLES.values() for r in t if r.key in args.row]
        if len(rows) != len(set(args.row)):
            parser.error(f"unknown row; known: {', '.join(r.key for t in TABLES.values() for r in t)}")
    if args.agent:
        rows = [replace(r, agent=args.agent) for r in rows]
    if args.list:
        for r in rows:
            size = f"{r.hands} hands" if isinstance(r, Row) else f"{r.games} games"
            print(f"{r.key}: {r.agent} vs {r.opponent}, {r.label or r.game}, {size}")
        return 0
    game_rows = [r for r in rows if isinstance(r, GameRow)]
    if game_rows:
        print(GAMES_HEADER)
    for row in game_rows:
        out = run_games(row, args.games or row.games, args.seed)
        print(games_markdown(out, args.seed), flush=True)
        print(f"<!-- {row.key}: {out['pair'].wins:g}/{out['pair'].games} games; {out['seconds']:.0f} s -->", flush=True)
    rows = [r for r in rows if isinstance(r, Row)]
    if rows:
        print(HEADER)
    for row in rows:
        out = run(row, args.hands or row.hands, args.seed)
        print(markdown(out, args.seed), flush=True)
        outcomes = ", ".join(f"{k} {v}" for k, v in out["outcomes"].items())
        print(
            f"<!-- {row.key}: {out['wins']}/{out['decided']} decided; {outcomes}; {out['seconds']:.0f} s; "
            f"opponent {out['opponent_ms']:.2f} ms/decision -->",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
