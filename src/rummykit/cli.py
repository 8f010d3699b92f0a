"""The ``rummykit`` command line (also ``python -m rummykit``).

Subcommands: ``play`` (a match against an agent in the terminal), ``tournament`` (agents
against each other, with statistics), ``analyse`` (melds, deadwood and the best discard of a
hand), ``replay`` (step through a hand history) and ``bench`` (a quick speed report).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rummykit.analysis import best_discard, best_melds, discard_deadwoods
from rummykit.cards import to_mask
from rummykit.errors import RummykitError
from rummykit.play import card_markup

if TYPE_CHECKING:
    from rich.console import Console


def _console() -> Console:
    from rich.console import Console

    return Console(highlight=False)


def _analyse(args: argparse.Namespace) -> int:
    from rich.table import Table

    console = _console()
    hand = to_mask(" ".join(args.cards))
    n = hand.bit_count()
    best = best_melds(hand, aces=args.aces)
    console.print(f"[bold]{n} cards[/], least deadwood [bold]{best.deadwood}[/]")
    table = Table(show_header=True, header_style="bold")
    table.add_column("melds")
    table.add_column("deadwood")
    table.add_row(
        "\n".join(" ".join(card_markup(c) for c in m.cards) for m in best.melds) or "-",
        " ".join(card_markup(c) for c in best.deadwood_cards) or "-",
    )
    console.print(table)
    if n == 11 or args.discard:
        choice = best_discard(hand, forbidden=args.forbidden, aces=args.aces)
        after = best_melds(hand & ~(1 << choice.card), aces=args.aces)
        console.print(
            f"best discard [bold]{card_markup(choice.card)}[/] leaves deadwood [bold]{choice.deadwood}[/]: {after}"
        )
        per_card = sorted(discard_deadwoods(hand, aces=args.aces).items(), key=lambda kv: (kv[1], -kv[0]))
        console.print("after each discard: " + ", ".join(f"{card_markup(c)} {dw}" for c, dw in per_card))
    return 0


def _play(args: argparse.Namespace) -> int:
    from rummykit.play import play

    vs = args.vs if args.vs != "ismcts" else f"ismcts:iterations={args.iterations}"
    return play(args.game, vs, args.seed)


def _tournament(args: argparse.Namespace) -> int:
    from rummykit.tournaments import tournament

    result = tournament(
        args.agents,
        args.game,
        hands=args.hands,
        seed=args.seed,
        workers=args.workers,
        progress=args.progress,
        backend=args.backend,
        address=args.address,
    )
    console = _console()
    console.print(result.table())
    for path, write in ((args.json, result.to_json), (args.csv, result.to_csv), (args.plot, result.plot)):
        if path:
            write(path)
            console.print(f"wrote {path}")
    return 0


def _replay(args: argparse.Namespace) -> int:
    from rummykit.play import replay

    text = Path(args.record).read_text(encoding="utf-8") if args.record != "-" else sys.stdin.read()
    interactive = sys.stdin.isatty() and args.record != "-" and not args.all
    return replay(text, read=input if interactive else None)


def _rate(run: Callable[[], int], seconds: float = 0.4) -> float:
    """Operations per second of ``run`` (which returns how many it did), timed for about ``seconds``."""
    count, start = 0, time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        count += run()
    return count / elapsed


def _bench(args: argparse.Namespace) -> int:
    import numpy as np
    from rich.table import Table

    from rummykit import _core
    from rummykit._rules import core_rules
    from rummykit.agents import GreedyAgent, ISMCTSAgent, RandomAgent, greedy_rollout
    from rummykit.analysis import deadwood_batch
    from rummykit.games import Game
    from rummykit.knock.game import KnockGame
    from rummykit.playouts import playouts

    rng = np.random.default_rng(0)
    rules = core_rules("low")
    masks = np.array([sum(1 << int(c) for c in rng.choice(52, 10, replace=False)) for _ in range(20_000)], np.uint64)
    single = [int(m) for m in masks[:1000]]
    game = KnockGame("oklahoma-gin")
    hands = iter(range(10**9))

    def hands_of(agent: Callable[[object], int], of: Any = game) -> Callable[[], int]:
        def run() -> int:
            state = of.new_hand(seed=next(hands))
            while not state.is_terminal():
                state.apply_action(agent(state))
            return 1

        return run

    def determinize() -> int:
        for _ in range(50):
            state.determinize(1, rng)
        return 50

    def rollouts() -> int:
        state = game.new_hand(seed=next(hands))
        for _ in range(20):
            greedy_rollout(state.clone(), rng)
        return 20

    def c_playouts(policy: str) -> Callable[[], int]:
        def run() -> int:
            playouts(game.new_hand(seed=next(hands)), 2000, policy=policy, seed=1)
            return 2000

        return run

    state = game.new_hand(seed=1)
    middle = game.new_hand(seed=2)  # a discard after 16 greedy actions: the opponent model has choices to read
    while len(middle.history) < 16 or middle.phase_name != "discard":
        middle.apply_action(GreedyAgent()(middle))
    ismcts = ISMCTSAgent(iterations=100, seed=1)
    rows = [
        ("C core: least deadwood, batch (10 cards)", _rate(lambda: len(deadwood_batch(masks))), "hands/s"),
        (
            "C core: least deadwood, one call",
            _rate(lambda: sum(1 for m in single if _core.deadwood(rules, m) >= 0)),
            "calls/s",
        ),
        (
            "C core: best discard, one call (11 cards)",
            _rate(lambda: sum(1 for m in single if _core.best_discard(rules, m | 1 << 51, -1)[0] >= 0)),
            "calls/s",
        ),
        ("hands, random vs random (Oklahoma Gin)", _rate(hands_of(RandomAgent(seed=1))), "hands/s"),
        ("hands, greedy vs greedy (Oklahoma Gin)", _rate(hands_of(GreedyAgent())), "hands/s"),
        ("hands, random (Rummy 2p)", _rate(hands_of(RandomAgent(seed=1), Game("rummy"))), "hands/s"),
        ("hands, random (Kaluki 4p)", _rate(hands_of(RandomAgent(seed=1), Game("kaluki", num_players=4))), "hands/s"),
        ("Python greedy rollouts", _rate(rollouts), "playouts/s"),
        ("C playouts, greedy (1 thread)", _rate(c_playouts("greedy")), "playouts/s"),
        ("C playouts, random (1 thread)", _rate(c_playouts("random")), "playouts/s"),
        ("determinize", _rate(determinize), "states/s"),
        ("ISMCTS move, 100 iterations, mid-hand", _rate(lambda: 1 if ismcts(middle) >= 0 else 0, 1.0), "moves/s"),
    ]
    table = Table(title="rummykit bench (one core)", title_justify="left")
    table.add_column("what")
    table.add_column("rate", justify="right")
    table.add_column("unit")
    for what, rate, unit in rows:
        table.add_row(what, f"{rate:,.0f}", unit)
    _console().print(table)
    return 0


def build_parser() -> argparse.ArgumentParser:
    from rummykit.agents import AGENT_NAMES

    parser = argparse.ArgumentParser(prog="rummykit", description="The rummykit engine.")
    commands = parser.add_subparsers(dest="command", required=True)

    play = commands.add_parser("play", help="play a match against an agent in the terminal")
    play.add_argument(
        "game",
        nargs="?",
        default="gin",
        help="game name (default gin): gin, oklahoma-gin, oklahoma-rummy, rummy, kaluki",
    )
    play.add_argument("--vs", default="greedy", help="the opponent: greedy (default), ismcts or random")
    play.add_argument("--iterations", type=int, default=200, help="ISMCTS iterations per move (default 200)")
    play.add_argument("--seed", type=int, default=None, help="seed of the match (default: fresh entropy)")
    play.set_defaults(run=_play)

    tour = commands.add_parser("tournament", help="agents play many seeded hands against each other")
    tour.add_argument(
        "agents", nargs="+", help=f"one agent per seat: {', '.join(AGENT_NAMES)}, with settings: ismcts:iterations=100"
    )
    tour.add_argument("--game", default="oklahoma-gin", help="game name (default oklahoma-gin)")
    tour.add_argument("--hands", type=int, default=1000, help="hands to play (default 1000)")
    tour.add_argument("--seed", type=int, default=0, help="seed of the deals and agents (default 0)")
    tour.add_argument("--workers", type=int, default=1, help="worker processes (default 1)")
    tour.add_argument(
        "--backend", choices=["local", "ray"], default="local", help="local processes (default) or Ray tasks"
    )
    tour.add_argument("--address", help="the Ray cluster to join (with --backend ray; default: a local Ray)")
    tour.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None, help="progress bar")
    tour.add_argument("--json", help="write the summary and every hand as JSON")
    tour.add_argument("--csv", help="write one CSV row per hand")
    tour.add_argument("--plot", help="write a PNG of the running score difference and outcome mix (matplotlib)")
    tour.set_defaults(run=_tournament)

    analyse = commands.add_parser("analyse", aliases=["analyze"], help="best melds, deadwood and discard of a hand")
    analyse.add_argument("cards", nargs="+", help='card text, e.g. "AS 2S 3S 7H 7D 7C 9S TS JS KD"')
    analyse.add_argument("--aces", choices=["low", "high", "both"], default="low", help="ace rank in runs")
    analyse.add_argument("--forbidden", help="a card that may not be discarded (just taken)")
    analyse.add_argument("--discard", action="store_true", help="show the best discard for any hand size")
    analyse.set_defaults(run=_analyse)

    replay = commands.add_parser("replay", help="step through a hand history (state.to_json())")
    replay.add_argument("record", help="the JSON record file (- for stdin)")
    replay.add_argument("--all", action="store_true", help="print every step without waiting")
    replay.set_defaults(run=_replay)

    bench = commands.add_parser("bench", help="a quick speed report of the core and playouts")
    bench.set_defaults(run=_bench)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    args = build_parser().parse_args(argv)
    try:
        return int(args.run(args))
    except RummykitError as error:
        print(f"rummykit: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except OSError as error:
        print(f"rummykit: {error}", file=sys.stderr)
        return 2
