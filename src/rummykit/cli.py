"""The ``rummykit`` command line."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from rummykit.analysis import best_discard, best_melds, discard_deadwoods
from rummykit.cards import Card, to_mask
from rummykit.errors import RummykitError

_SUIT_STYLE = {0: "green", 1: "blue", 2: "red", 3: "white"}


def _styled(card: Card) -> str:
    return f"[bold {_SUIT_STYLE[card.suit]}]{card.symbol}[/]"


def _analyse(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.table import Table

    console = Console(highlight=False)
    hand = to_mask(" ".join(args.cards))
    n = hand.bit_count()
    best = best_melds(hand, aces=args.aces)
    console.print(f"[bold]{n} cards[/], least deadwood [bold]{best.deadwood}[/]")
    table = Table(show_header=True, header_style="bold")
    table.add_column("melds")
    table.add_column("deadwood")
    table.add_row(
        "\n".join(" ".join(_styled(c) for c in m.cards) for m in best.melds) or "-",
        " ".join(_styled(c) for c in best.deadwood_cards) or "-",
    )
    console.print(table)
    if n == 11 or args.discard:
        choice = best_discard(hand, forbidden=args.forbidden, aces=args.aces)
        after = best_melds(hand & ~(1 << choice.card), aces=args.aces)
        console.print(
            f"best discard [bold]{_styled(choice.card)}[/] leaves deadwood [bold]{choice.deadwood}[/]: {after}"
        )
        per_card = sorted(discard_deadwoods(hand, aces=args.aces).items(), key=lambda kv: (kv[1], -kv[0]))
        console.print("after each discard: " + ", ".join(f"{_styled(c)} {dw}" for c, dw in per_card))
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="rummykit", description="The rummykit engine.")
    commands = parser.add_subparsers(dest="command", required=True)
    analyse = commands.add_parser("analyse", aliases=["analyze"], help="best melds, deadwood and discard of a hand")
    analyse.add_argument("cards", nargs="+", help='card text, e.g. "AS 2S 3S 7H 7D 7C 9S TS JS KD"')
    analyse.add_argument("--aces", choices=["low", "high", "both"], default="low", help="ace rank in runs")
    analyse.add_argument("--forbidden", help="a card that may not be discarded (just taken)")
    analyse.add_argument("--discard", action="store_true", help="show the best discard for any hand size")
    analyse.set_defaults(run=_analyse)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    args = build_parser().parse_args(argv)
    try:
        return int(args.run(args))
    except RummykitError as error:
        print(f"rummykit: {error}", file=sys.stderr)
        return 2
