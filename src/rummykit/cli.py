"""The ``rummykit`` command line (also ``python -m rummykit``).

Subcommands: ``play`` (a match against an agent in the terminal), ``tournament`` (agents
against each other, with statistics), ``league`` (whole games, round robin, with ratings),
``agents`` (the agents and their settings), ``analyse`` (melds, deadwood and the best discard of a
hand; Kaluki hands with jokers too), ``replay`` (step through a hand or match record),
``rules`` (the games, presets and each game's options), ``bench`` (a quick speed report) and
``serve`` (the game server and browser table; the ``serve`` extra).
"""

from __future__ import annotations

import argparse
import importlib
import signal
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rummykit.analysis import best_discard, best_melds, discard_deadwoods
from rummykit.cards import to_mask
from rummykit.errors import InvalidCardError, InvalidOptionError, RummykitError
from rummykit.render import card_markup, plural

if TYPE_CHECKING:
    from rich.console import Console

_JOKER_WORDS = frozenset({"jk", "joker", "jo", "🃏"})


def _console() -> Console:
    from rummykit.render import console

    return console()


def _game_options(game: str, texts: Sequence[str]) -> dict[str, Any]:
    """``--option name=value`` texts as typed values for ``game`` (unknown names and bad
    values raise InvalidOptionError naming the valid ones)."""
    from rummykit.engine.options import parse_assignment
    from rummykit.games import game_options

    options = game_options(game)
    return dict(parse_assignment(options, text, game) for text in texts)


def _hand_analysis(game: str | None) -> str | None:
    """The hand analysis of ``game`` (``"one_deck"``, ``"two_decks"`` or None), None for no game."""
    if game is None:
        return None
    from rummykit.games import Game

    return Game(game).hand_analysis


def _analyse(args: argparse.Namespace) -> int:
    text = " ".join(args.cards)
    tokens = text.replace(",", " ").split()
    analysis = _hand_analysis(args.game)
    if analysis == "two_decks" or any(t.lower() in _JOKER_WORDS for t in tokens):
        return _analyse_two_decks(args, text)
    if args.game is not None:
        if analysis != "one_deck":
            raise InvalidOptionError(f"analyse --game: {args.game} is not a one-deck knock game or kaluki")
    try:
        hand = to_mask(text)
    except InvalidCardError as err:
        if "duplicate" in str(err):
            raise InvalidCardError(f"{err} (a two-deck Kaluki hand? add --game kaluki)") from None
        raise
    n = hand.bit_count()
    if args.forbidden and not (n == 11 or args.discard):
        raise InvalidOptionError(
            f"--forbidden names a card the discard may not be, for an 11-card hand or with --discard; "
            f"this hand has {plural(n, 'card')}"
        )
    _show_one_deck(hand, args)
    return 0


def _show_one_deck(hand: int, args: argparse.Namespace) -> None:
    from rich.table import Table

    console = _console()
    n = hand.bit_count()
    best = best_melds(hand, aces=args.aces)
    console.print(f"[bold]{plural(n, 'card')}[/], least deadwood [bold]{best.deadwood}[/]")
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
        shown = "  ".join(f"\\[{' '.join(card_markup(c) for c in m.cards)}]" for m in after.melds)
        left = " ".join(card_markup(c) for c in after.deadwood_cards) or "no deadwood"
        best_text = f"best discard [bold]{card_markup(choice.card)}[/] leaves deadwood [bold]{choice.deadwood}[/]"
        console.print(f"{best_text}: {shown} {left}")
        per_card = sorted(discard_deadwoods(hand, aces=args.aces).items(), key=lambda kv: (kv[1], -kv[0]))
        console.print("after each discard: " + ", ".join(f"{card_markup(c)} {dw}" for c, dw in per_card))


def _analyse_two_decks(args: argparse.Namespace, text: str) -> int:
    """A Kaluki hand (two decks and jokers): least penalty, opening value, best discard."""
    from rich.table import Table

    from rummykit.games import Game
    from rummykit.multideck import JOKER, MultiArrangement, multi_best_melds, multi_opening, parse_multi

    game = args.game or "kaluki"
    chosen = Game(game)
    rules: Any = chosen.rules
    if chosen.hand_analysis != "two_decks":
        raise InvalidOptionError(f"a hand with jokers is a Kaluki hand: --game {game} is not kaluki")
    settings = dict(ace_low_runs=rules.ace_low_runs, joker_penalty=rules.joker_penalty)
    types = parse_multi(text)
    n = len(types)
    console = _console()

    def markup(cards: Sequence[int]) -> str:
        return " ".join(card_markup(t) for t in cards) or "-"

    def meld_markup(arrangement: MultiArrangement) -> str:
        return "\n".join(
            " ".join(
                f"{card_markup(JOKER)}={card_markup(r)}" if c == JOKER and m.kind == "run" else card_markup(c)
                for c, r in zip(m.cards, m.represents)
            )
            for m in arrangement.melds
        )

    best = multi_best_melds(types, **settings)
    assert best is not None
    console.print(
        f"[bold]{plural(n, 'card')}[/] ({rules.name}, two decks), least penalty [bold]{best.penalty}[/] "
        f"(cards left in hand; a joker costs {rules.joker_penalty})"
    )
    table = Table(show_header=True, header_style="bold")
    table.add_column("melds")
    table.add_column("left in hand")
    table.add_row(meld_markup(best) or "-", markup(best.left))
    console.print(table)
    need = rules.initial_meld_min
    opening = multi_opening(types, need, **settings)
    if opening is not None:
        console.print(f"can open: melds worth [bold]{opening.value}[/] ({need} needed)")
    else:
        most = multi_best_melds(types, objective="value", **settings)
        value = most.value if most is not None else 0
        console.print(f"cannot open yet: the melds are worth at most {value} ({need} needed)")
    forbidden = parse_multi(args.forbidden)[0] if args.forbidden else None
    if args.forbidden and not (n == rules.hand_size + 1 or args.discard):
        raise InvalidOptionError(
            f"--forbidden names a card the discard may not be, for a {rules.hand_size + 1}-card hand or with "
            f"--discard; this hand has {plural(n, 'card')}"
        )
    if n == rules.hand_size + 1 or args.discard:
        after: dict[int, int] = {}
        for t in sorted(set(types)):
            if t == forbidden:
                continue
            rest = list(types)
            rest.remove(t)
            left = multi_best_melds(rest, **settings)
            assert left is not None
            after[t] = left.penalty
        per_card = sorted(after.items(), key=lambda kv: (kv[1], -kv[0]))
        card, penalty = per_card[0]
        console.print(f"best discard [bold]{card_markup(card)}[/] leaves penalty [bold]{penalty}[/]")
        console.print("after each discard: " + ", ".join(f"{card_markup(c)} {p}" for c, p in per_card))
    return 0


def _play(args: argparse.Namespace) -> int:
    from rummykit.games import game_options
    from rummykit.play import play

    options = game_options(args.game)
    chosen: dict[str, Any] = {}
    if args.players is not None:
        chosen.update(_game_options(args.game, [f"num_players={args.players}"]))
    if args.target is not None:
        key = next((k for k in ("target_score", "elimination_threshold") if k in options), None)
        if key is None:
            raise InvalidOptionError(f"{args.game} has no target score")
        chosen.update(_game_options(args.game, [f"{key}={args.target}"]))
    chosen.update(_game_options(args.game, args.option))
    vs = args.vs if args.vs != "ismcts" else f"ismcts:iterations={args.iterations}"
    return play(args.game, vs, args.seed, options=chosen, save=args.save)


def _tournament(args: argparse.Namespace) -> int:
    from rummykit.executor import Interrupted
    from rummykit.tournaments import tournament

    if args.plot:
        try:
            importlib.import_module("matplotlib")
        except ImportError:
            raise InvalidOptionError(
                "--plot needs matplotlib: pip install 'rummykit[plot]' (or pip install matplotlib)"
            ) from None
    from rummykit.agents import make_agent
    from rummykit.agents.external import required_game

    if args.game is None:  # the game an external agent plays (its rules added by tournament), else Oklahoma Gin
        need = required_game([make_agent(a) for a in args.agents])
        args.game = need[0] if need is not None else "oklahoma-gin"
    options = _game_options(args.game, args.option)  # tournament() seats one agent per seat
    stopped = None
    try:
        result = tournament(
            args.agents,
            args.game,
            hands=args.hands,
            seed=args.seed,
            workers=args.workers,
            progress=args.progress,
            backend=args.backend,
            address=args.address,
            save_records=args.save_records,
            **options,
        )
    except Interrupted as stop:  # SIGINT or SIGTERM: the hands so far, marked partial, are written
        if stop.result is None:
            raise
        stopped, result = stop, stop.result
    console = _console()
    console.print(result.table())
    for note in result.notes():
        console.print(note)
    for path, write in ((args.json, result.to_json), (args.csv, result.to_csv), (args.plot, result.plot)):
        if path:
            write(path)
            console.print(f"wrote {path}")
    if args.save_records:
        console.print(f"wrote {plural(result.hands, 'hand record')} to {args.save_records}")
    if stopped is not None:
        console.print(f"stopped by {signal.Signals(stopped.signum).name}: partial result of {result.hands} hands")
        return 128 + stopped.signum
    return 0


def _league(args: argparse.Namespace) -> int:
    from rummykit import __version__
    from rummykit.agents import make_agent
    from rummykit.agents.external import required_game
    from rummykit.league import check_output_path, league

    for path in (args.json,):  # before the run: a long run never ends in an unwritable file
        if path:
            check_output_path(path)
    if args.game is None:  # the game an external agent plays (its rules added by league), else the EAAI rules
        need = required_game([make_agent(a) for a in args.agents])
        args.game = need[0] if need is not None else "gin_eaai"
    options = _game_options(args.game, args.option)
    result = league(
        args.agents,
        args.game,
        games=args.games,
        seed=args.seed,
        workers=args.workers,
        progress=args.progress,
        **options,
    )
    console = _console()
    console.print(result.table())
    given = ", ".join(f"{k}={v}" for k, v in options.items()) or "the game's defaults"
    console.print(
        f"rummykit {__version__}; game {result.game} ({given}); seed {result.seed}; {result.games_per_pair} games a "
        f"pair (each deal sequence twice, seats swapped); {result.workers} worker(s); {result.seconds:.1f} s"
    )
    if args.json:
        result.to_json(args.json)
        console.print(f"wrote {args.json}")
    return 0


def _agents(args: argparse.Namespace) -> int:
    from rummykit.agents import AGENT_NAMES
    from rummykit.agents.base import agent_settings, agent_summary

    rows = []
    for name in AGENT_NAMES:
        settings = ", ".join(f"{k}={v}" for k, v in agent_settings(name).items()) or "-"
        rows.append((name, settings, agent_summary(name)))
    console = _console()
    _print_rows(console, sys.stdout.isatty(), ("agent", "settings (defaults)", "what"), rows)
    console.print('settings go after a colon: "patient:knock_turns=2", "best:samples=64,time_per_move=0.02"')
    return 0


def read_record_file(path: str, limit: int | None = None) -> str:
    """The text of a record file (``-``: standard input), bounded before it is parsed: at most
    ``limit`` bytes are accepted (default: the longest match record) and at most one more is
    read, so that an endless stream (``/dev/zero``) or a huge file ends at once; the bytes must
    be UTF-8.  Anything else raises :class:`InvalidOptionError` naming the problem (OSError for
    a file that cannot be opened)."""
    from rummykit.play import MAX_MATCH_RECORD_CHARS

    limit = MAX_MATCH_RECORD_CHARS if limit is None else limit
    where = "standard input" if path == "-" else path
    if path == "-":
        stream = getattr(sys.stdin, "buffer", None)
        data = stream.read(limit + 1) if stream is not None else sys.stdin.read(limit + 1).encode("utf-8")
    else:
        with open(path, "rb") as file:
            data = file.read(limit + 1)
    if len(data) > limit:
        raise InvalidOptionError(f"{where}: larger than {limit:,} bytes: not a record rummykit reads")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        raise InvalidOptionError(
            f"{where}: not UTF-8 text ({err.reason} at byte {err.start}): a record is JSON text"
        ) from None


def _replay(args: argparse.Namespace) -> int:
    from rummykit.play import replay

    text = read_record_file(args.record)
    interactive = sys.stdin.isatty() and args.record != "-" and not args.all
    return replay(text, read=input if interactive else None)


def _rules_section(name: str) -> str:
    """The rules of game or preset ``name`` as docs/rules.md (shipped in the wheel) gives them:
    its game's section, then the sections it builds on."""
    from importlib.resources import files

    from rummykit.games import Game, game_options, game_presets

    game_options(name)  # an unknown name raises, naming the games
    key = _canonical_name(name)
    base = game_presets().get(key, key)
    shipped = files("rummykit").joinpath("docs", "rules.md")
    source = Path(__file__).resolve().parents[2] / "docs" / "rules.md"  # a source checkout
    text = shipped.read_text(encoding="utf-8") if shipped.is_file() else source.read_text(encoding="utf-8")
    sections = {part.split("\n", 1)[0].strip(): part for part in text.split("\n## ")[1:]}
    note = f"{key}: a preset of {base} (rummykit rules {key} lists what it changes)\n\n" if key != base else ""
    headings = Game(base).family_record.rules_sections[base]
    return note + "\n\n".join("## " + sections[heading].rstrip() for heading in headings)


def _rules(args: argparse.Namespace) -> int:
    from rummykit.games import all_aliases, game_names, game_options, game_presets

    console = _console()
    tty = sys.stdout.isatty()
    presets = game_presets()
    if args.name is None:
        aliases: dict[str, list[str]] = {}
        for alias, key in all_aliases().items():
            if alias != key:
                aliases.setdefault(key, []).append(alias)
        names: list[tuple[str, ...]] = [
            (
                name,
                f"preset of {presets[name]}" if name in presets else "game",
                ", ".join(sorted(aliases.get(name, []))),
            )
            for name in sorted(game_names(aliases=False), key=lambda g: (presets.get(g, g), g in presets, g))
        ]
        _print_rows(console, tty, ("name", "what", "also called"), names)
        console.print("the options of one: rummykit rules NAME; play one with rummykit play NAME --option name=value")
        return 0
    if args.text:
        console.print(_rules_section(args.name), markup=False, highlight=False)
        return 0
    from rummykit.engine.options import allowed_text, show_value

    options = game_options(args.name)
    base = game_options(presets[key]) if (key := _canonical_name(args.name)) in presets else None
    rows: list[tuple[str, ...]] = []
    for o in options.values():
        default = show_value(o, o.default)
        if base is not None and base[o.name].default != o.default:
            default += f" (preset; {presets[key]}: {show_value(o, base[o.name].default)})"
        rows.append((o.name, default, allowed_text(o), o.doc))
    what = f"a preset of {presets[key]}" if key in presets else "a game"
    console.print(f"{key}: {what}; {plural(len(rows), 'option')} (rummykit play {key} --option name=value)")
    _print_rows(console, tty, ("option", "default", "allowed", "meaning"), rows)
    return 0


def _canonical_name(name: str) -> str:
    from rummykit.games import all_aliases

    key = name.lower().strip()
    return all_aliases().get(key, key)


def _print_rows(console: Any, tty: bool, header: Sequence[str], rows: Sequence[Sequence[str]]) -> None:
    """A rich table on a terminal (the last column takes the room left); piped, one plain
    line per row: ``name = default  [allowed]  meaning`` for options, else aligned cells."""
    if tty:
        from rich.table import Table

        table = Table(show_header=True, header_style="bold", expand=True)
        ratios = {"default": 2, "allowed": 2, "meaning": 4, "what": 1, "also called": 2}
        for i, title in enumerate(header):
            table.add_column(title, no_wrap=i == 0, ratio=None if i == 0 else ratios.get(title, 1), overflow="fold")
        for row in rows:
            table.add_row(*row)
        console.print(table)
        return
    from rich.markup import escape

    if tuple(header[:3]) == ("option", "default", "allowed"):
        for name, default, allowed, meaning in rows:
            console.print(escape(f"{name} = {default}  [{allowed}]  {meaning}"))
        return
    widths = [max((len(r[i]) for r in rows), default=0) for i in range(len(header))]
    for row in rows:
        console.print(escape("  ".join(c.ljust(w) for c, w in zip(row[:-1], widths)) + "  " + row[-1]).rstrip())


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
    from rummykit.playouts import playouts

    rng = np.random.default_rng(0)
    rules = core_rules("low")
    masks = np.array([sum(1 << int(c) for c in rng.choice(52, 10, replace=False)) for _ in range(20_000)], np.uint64)
    single = [int(m) for m in masks[:1000]]
    game = Game("oklahoma-gin")
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


def _per_minute(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 <= value < 1e9:
        raise argparse.ArgumentTypeError(f"a rate is a number of requests a minute, 0 for no limit; got {text!r}")
    return value


def _serve(args: argparse.Namespace) -> int:
    from rummykit.serve import serve

    if args.host not in ("127.0.0.1", "localhost", "::1"):
        print(f"rummykit: serving on {args.host}: anyone who can reach it can open tables", file=sys.stderr)
    serve(
        host=args.host,
        port=args.port,
        db=args.db,
        log_level=args.log_level,
        move_rate=args.move_rate,
        table_rate=args.table_rate,
    )
    return 0


def build_parser() -> argparse.ArgumentParser:
    from rummykit import __version__
    from rummykit.agents import AGENT_NAMES

    parser = argparse.ArgumentParser(prog="rummykit", description="The rummykit engine.")
    parser.add_argument("--version", action="version", version=f"rummykit {__version__}")
    commands = parser.add_subparsers(dest="command", required=True)
    option_help = "a game option, name=value (repeatable; rummykit rules GAME lists them)"

    play = commands.add_parser("play", help="play a match against an agent in the terminal")
    play.add_argument(
        "game",
        nargs="?",
        default="gin",
        help="game name (default gin): gin, oklahoma-gin, oklahoma-rummy, rummy, kaluki, or a preset (rummykit rules)",
    )
    play.add_argument(
        "--vs",
        default="greedy",
        help="the opponent: greedy (default), ismcts, random, any agent spec or module:attribute",
    )
    play.add_argument("--iterations", type=int, default=200, help="ISMCTS iterations per move (default 200)")
    play.add_argument("--seed", type=int, default=None, help="seed of the match (default: fresh entropy)")
    play.add_argument("--players", type=int, help="number of players (you and the agents; default: the game's)")
    play.add_argument(
        "--target", type=int, help="the score that ends the match (Kaluki: the penalty total that puts a player out)"
    )
    play.add_argument("--option", action="append", default=[], metavar="NAME=VALUE", help=option_help)
    play.add_argument(
        "--save", metavar="FILE", help="write the match record (every hand, for rummykit replay) after each hand"
    )
    play.set_defaults(run=_play)

    tour = commands.add_parser(
        "tournament",
        help="agents play many seeded hands against each other",
        description=(
            "Agents play seeded hands, each deal once per seat rotation.  In the CSV and JSON every "
            "per-agent value is indexed by agent (the order given): seat_J / seats[J] is the seat agent J "
            "sat in (seat 0 deals), points_J / points[J] its points, winner an agent index (empty or null: "
            "a dead hand, nobody won)."
        ),
    )
    tour.add_argument(
        "agents",
        nargs="+",
        help=f"one agent per seat: {', '.join(AGENT_NAMES)}, with settings: ismcts:iterations=100, "
        "or module:attribute (an agent, agent factory or batched policy of yours) "
        "(openspiel-simple and rlcard-novice need their extras: pip install 'rummykit[openspiel]' / '[rlcard]')",
    )
    tour.add_argument(
        "--game",
        help="game name (default oklahoma-gin; gin with openspiel-simple or rlcard-novice, whose rules are added)",
    )
    tour.add_argument("--option", action="append", default=[], metavar="NAME=VALUE", help=option_help)
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
    tour.add_argument(
        "--save-records", metavar="DIR", help="write each hand's record (hand_N.json, for rummykit replay) into DIR"
    )
    tour.set_defaults(run=_tournament)

    lg = commands.add_parser(
        "league",
        help="agents play whole games against each other, round robin, with ratings",
        description=(
            "Every pair of agents plays --games whole games (an even number: each seeded deal sequence "
            "is played twice, seats swapped).  Reports games won with 95% intervals clustered by mirrored "
            "pair, hands won, points per hand, and Bradley-Terry ratings on the Elo scale."
        ),
    )
    lg.add_argument("agents", nargs="+", help="two or more agents (rummykit agents lists them and their settings)")
    lg.add_argument(
        "--game", help="a two-player game (default gin_eaai; gin with openspiel-simple, whose rules are added)"
    )
    lg.add_argument("--option", action="append", default=[], metavar="NAME=VALUE", help=option_help)
    lg.add_argument("--games", type=int, default=100, help="games per pair, even (default 100)")
    lg.add_argument("--seed", type=int, default=0, help="seed of the deals and agents (default 0)")
    lg.add_argument("--workers", type=int, default=1, help="worker processes (default 1)")
    lg.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None, help="progress bar")
    lg.add_argument("--json", help="write the options, version, seeds, statistics and every game as JSON")
    lg.set_defaults(run=_league)

    agents = commands.add_parser("agents", help="the agents and their settings")
    agents.set_defaults(run=_agents)

    analyse = commands.add_parser("analyse", aliases=["analyze"], help="best melds, deadwood and discard of a hand")
    analyse.add_argument(
        "cards", nargs="+", help='card text, e.g. "AS 2S 3S 7H 7D 7C 9S TS JS KD"; a joker (Kaluki): Jk'
    )
    analyse.add_argument("--aces", choices=["low", "high", "both"], default="low", help="ace rank in runs")
    analyse.add_argument(
        "--game", help="the game whose rules to use: kaluki for a two-deck hand (jokers imply it), or a knock game"
    )
    analyse.add_argument(
        "--forbidden", help="a card the discard may not be (just taken): with an 11-card hand or --discard"
    )
    analyse.add_argument("--discard", action="store_true", help="show the best discard for any hand size")
    analyse.set_defaults(run=_analyse)

    replay = commands.add_parser("replay", help="step through a hand record (state.to_json()) or a match record")
    replay.add_argument("record", help="the JSON record file (- for stdin): a hand, or a match from play --save")
    replay.add_argument("--all", action="store_true", help="print every step without waiting")
    replay.set_defaults(run=_replay)

    rules = commands.add_parser("rules", help="the games and presets, or one game's options")
    rules.add_argument("name", nargs="?", help="a game or preset: list its options (default: list the games)")
    rules.add_argument("--text", action="store_true", help="print the game's rules (docs/rules.md) instead")
    rules.set_defaults(run=_rules)

    bench = commands.add_parser("bench", help="a quick speed report of the core and playouts")
    bench.set_defaults(run=_bench)

    serve = commands.add_parser(
        "serve", help="the game server and browser table (pip install 'rummykit[serve]'; docs/serve.md)"
    )
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1: this machine)")
    serve.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    serve.add_argument("--db", default="rummykit.sqlite3", help="the SQLite database of tables (rummykit.sqlite3)")
    serve.add_argument("--log-level", default="info", choices=["critical", "error", "warning", "info", "debug"])
    serve.add_argument(
        "--move-rate",
        type=_per_minute,
        default=600,
        metavar="N",
        help="move requests a minute per seat, N at once at most (default 600; 0: no limit); over it: 429",
    )
    serve.add_argument(
        "--table-rate",
        type=_per_minute,
        default=30,
        metavar="N",
        help="new tables a minute per client address, N at once at most (default 30; 0: no limit); over it: 429",
    )
    serve.set_defaults(run=_serve)
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
