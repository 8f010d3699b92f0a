"""Terminal UIs: a person plays a whole match against an agent (``rummykit play``), and a hand
history is stepped through (``rummykit replay``).

The person sits in seat 0.  Their hand is shown sorted by suit with coloured suits; ``hint``
shows the greedy choice, ``help`` the commands, ``quit`` ends the match.

* Knock games (Gin, Oklahoma Gin, Oklahoma Rummy): the hand, then the melds of its
  least-deadwood arrangement and the deadwood; moves are typed as card text (``7h``
  discards, ``knock 9c``, ``draw``, ``take``, ``pass``).
* Table games (Rummy, Kaluki): the table melds, numbered, with their owners, the hand with
  its jokers, whether each seat has opened (Kaluki: the first melds must be worth
  ``initial_meld_min``, 40 by default); moves are the engine's action text
  (``draw``, ``take``, ``meld 7h 8h 9h``, ``lay off 7h on 2``, ``discard 7h`` or just ``7h``,
  ``release 9s from 1``); ``moves`` lists the legal ones.  The match is a
  :class:`~rummykit.table.match.TableMatch`: running scores after every hand.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from rummykit.agents import GreedyAgent, make_agent
from rummykit.analysis import best_melds
from rummykit.cards import Card, from_mask
from rummykit.errors import RummykitError
from rummykit.games import Game
from rummykit.knock.actions import BIG_GIN, DRAW_STOCK, KNOCK, PASS, TAKE, Action
from rummykit.knock.game import KnockGame
from rummykit.knock.match import Match
from rummykit.knock.showdown import HandResult
from rummykit.knock.state import KnockState, Phase
from rummykit.table.actions import DRAW as TABLE_DRAW
from rummykit.table.actions import TAKE as TABLE_TAKE
from rummykit.table.cards import JOKER, card_type, types_of
from rummykit.table.match import TableMatch
from rummykit.table.scoring import TableResult
from rummykit.table.state import TableState

__all__ = ["card_markup", "hand_markup", "play", "replay"]

SUIT_STYLES = ("green", "blue", "red", "bold")  # four-colour deck: clubs, diamonds, hearts, spades

_HELP = """moves: a card to discard (7h), knock 9c (or knock: the best knock card), draw, take, pass, big gin
other: hint (the greedy move), help, quit"""

_PROMPTS = {
    Phase.OFFER_NONDEALER: "take the upcard {top} or pass?",
    Phase.OFFER_DEALER: "take the upcard {top} or pass?",
    Phase.FORCED_STOCK_DRAW: "draw from the stock (draw)",
    Phase.DRAW: "draw from the stock (draw) or take {top} (take)?",
    Phase.DISCARD: "discard a card (e.g. {example}) or knock with one (knock {example})",
    Phase.LAST_CHANCE: "take {top} to knock at once, or pass (the hand is then dead)",
    Phase.KNOCK_ONLY: "you must knock: knock <card>",
}


class Quit(Exception):
    """The person typed ``quit`` (or closed the input)."""


JOKER_STYLE = "bold magenta"


def card_markup(card: int) -> str:
    """Rich markup of a card (an id, or :data:`~rummykit.table.cards.JOKER` for a joker)
    with its suit colour, e.g. ``[red]7♥[/]``."""
    if card == JOKER:
        return f"[{JOKER_STYLE}]Jk[/]"
    c = Card(card)
    return f"[{SUIT_STYLES[c.suit]}]{c.symbol}[/]"


def _cards_markup(cards: Any) -> str:
    return " ".join(card_markup(c) for c in cards) or "-"


def hand_markup(mask: int, aces: str = "low") -> list[str]:
    """Lines showing a hand: by suit, then the least-deadwood melds and the deadwood."""
    cards = from_mask(mask)
    by_suit = "   ".join(
        _cards_markup([c for c in cards if c.suit == s]) for s in range(4) if any(c.suit == s for c in cards)
    )
    best = best_melds(mask, aces=aces)
    melds = "  ".join(f"[{_cards_markup(m.cards)}]" for m in best.melds) or "none"
    return [
        f"  hand      {by_suit}",
        f"  melds     {melds}",
        f"  deadwood  {_cards_markup(best.deadwood_cards)} ({best.deadwood})",
    ]


def _table_line(state: KnockState) -> str:
    """The upcard, knock limit, multiplier, stock and top discard."""
    limit = "gin only" if state.gin_only else f"knock at {state.limit}"
    multiplier = f", scores x{state.multiplier}" if state.multiplier != 1 else ""
    top = card_markup(state.discards[-1]) if state.discards else "empty"
    return f"upcard {card_markup(state.upcard)} ({limit}{multiplier}) | stock {len(state.stock)} | discard pile: {top}"


def _describe(state: KnockState, action: int) -> str:
    """What another player did, as the person may see it (a knock card stays face down)."""
    if action == DRAW_STOCK:
        return "drew from the stock"
    if action == TAKE:
        return f"took {card_markup(state.discards[-1])} from the discard pile"
    if action == PASS:
        return "passed"
    if action == BIG_GIN:
        return "showed big gin"
    if action < KNOCK:
        return f"discarded {card_markup(action)}"
    if action < DRAW_STOCK:
        return "knocked"
    return str(Action(action))


class _Person:
    """Seat 0: shows the table and reads moves; also the narrator of the other seats' moves."""

    def __init__(self, console: Any, read: Callable[[str], str], names: list[str]) -> None:
        self.console, self.read, self.names = console, read, names
        self.state: KnockState | None = None
        self.hand_number = 0
        self._greedy = GreedyAgent()

    def seen(self, state: KnockState) -> None:
        if state is not self.state:
            self.state = state
            self.hand_number += 1
            dealer = self.names[state.dealer]
            self.console.rule(f"hand {self.hand_number}: {dealer} deal{'s' if state.dealer else ''}")

    def narrate(self, state: KnockState, seat: int, action: int) -> None:
        self.seen(state)
        self.console.print(f"{self.names[seat]} {_describe(state, action)}")

    def __call__(self, state: KnockState) -> int:
        self.seen(state)
        console = self.console
        console.print(_table_line(state))
        for line in hand_markup(state.hands[0], state.rules.aces):
            console.print(line)
        if state.taken >= 0 and state.phase == Phase.DISCARD:
            console.print(f"  (you took {card_markup(state.taken)})")
        elif state.phase == Phase.DISCARD and state.drawn[0]:
            console.print(f"  (you drew {card_markup(state.drawn[0][-1])})")
        top = card_markup(state.discards[-1]) if state.discards else "-"
        hand = from_mask(state.hands[0])
        console.print(_PROMPTS[state.phase].format(top=top, example=str(hand[-1]).lower()))
        while True:
            try:
                text = self.read("your move> ").strip().lower()
            except EOFError:
                raise Quit from None
            if text in ("quit", "q", "exit"):
                raise Quit
            if text in ("help", "?", ""):
                console.print(_HELP)
                continue
            if text == "hint":
                console.print(f"hint: {Action(self._greedy(state))}")
                continue
            if text in ("knock", "gin"):
                knocks = [a for a in state.legal_actions() if KNOCK <= a < DRAW_STOCK]
                if knocks:
                    return self._greedy(state) if self._greedy(state) in knocks else knocks[0]
            try:
                return state.verify_action(text)
            except RummykitError as err:
                console.print(f"[bold red]illegal:[/] {err}")

    def showdown(self, result: HandResult) -> None:
        state, console = self.state, self.console
        assert state is not None
        if result.is_dead:
            console.print("[bold]the hand is dead[/]: no points")
            return
        knocker = result.knocker
        for seat in range(state.n):
            name = self.names[seat]
            if seat == knocker and result.knocker_melds is not None:
                shown = result.knocker_melds
                melds, dead = shown.melds, list(shown.deadwood_cards)
                console.print(f"{name} knocked: " + "  ".join(f"[{_cards_markup(m.cards)}]" for m in melds))
            else:
                melds = result.melds[seat] if result.melds else ()
                used = sum(m.mask for m in melds) | sum(c.mask for lay in result.layoffs[seat] for c in lay.cards)
                dead = from_mask(state.hands[seat] & ~used)
                laid = "; ".join(
                    f"{_cards_markup(lay.cards)} on [{_cards_markup(lay.meld.cards)}]" for lay in result.layoffs[seat]
                )
                console.print(
                    f"{name}: "
                    + ("  ".join(f"[{_cards_markup(m.cards)}]" for m in melds) or "no melds")
                    + (f", laid off {laid}" if laid else "")
                )
            console.print(f"   deadwood {_cards_markup(dead)} ({result.deadwood[seat]})")
        assert result.winner is not None
        points = result.points[result.winner]
        console.print(
            f"[bold]{result.outcome}[/]: {self.names[result.winner]} score{'s' if result.winner else ''} {points}"
        )


class _Watched:
    """Another seat's agent, whose moves the person is told about."""

    def __init__(self, agent: Any, seat: int, person: _Person | _TablePerson) -> None:
        self.agent, self.seat, self.person = agent, seat, person

    def __call__(self, state: Any) -> int:
        action = int(self.agent(state))
        self.person.narrate(state, self.seat, action)
        return action


# --- table games (Rummy, Kaluki) ------------------------------------------------

_TABLE_HELP = """moves: draw, take, meld 7h 8h 9h (a joker: jk, in a run jk=9h), lay off 7h on 2 [low|high],
       release 9s from 1, discard 7h (or just 7h)
other: moves (the legal moves), hint (the greedy move), help, quit"""


def table_card_markup(physical: int) -> str:
    """Rich markup of a physical table-game card (a joker: ``Jk``)."""
    return card_markup(card_type(physical))


def table_hand_markup(mask: int) -> str:
    """A table-game hand sorted by suit, suits apart, jokers last."""
    types = types_of(mask)
    groups = [[t for t in types if t != JOKER and t // 13 == s] for s in range(4)]
    groups.append([t for t in types if t == JOKER])
    return "   ".join(" ".join(card_markup(t) for t in g) for g in groups if g) or "-"


def table_meld_markup(state: TableState, slot: int) -> str:
    """Table meld ``slot`` (0-based) in colour, a joker as ``Jk=7♥`` (the card it stands for)."""
    meld = state.table[slot]
    return " ".join(
        card_markup(card_type(c)) if c < 104 else f"{card_markup(JOKER)}={card_markup(t)}"
        for c, t in zip(meld.cards, meld.represents(state.geo))
    )


def _table_lines(state: TableState, names: list[str]) -> list[str]:
    """The stock, the discard pile, who has opened and the melds on the table with owners."""
    top = table_card_markup(state.discards[-1]) if state.discards else "empty"
    lines = [f"stock {len(state.stock)} | discard pile: {top} ({len(state.discards)} cards)"]
    if state.rules.is_kaluki:
        opened = ", ".join(f"{names[s]} {'yes' if state.is_opened(s) else 'no'}" for s in range(state.n))
        lines.append(f"opened: {opened} (first melds worth {state.rules.initial_meld_min}+ points)")
    if not state.table:
        lines.append("table: no melds yet")
    for slot, meld in enumerate(state.table):
        lines.append(f"  {slot + 1:>2}. {table_meld_markup(state, slot)}   ({names[meld.owner]})")
    return lines


def _table_describe(state: TableState, action: int) -> str:
    """What a seat did (before the action is applied), as everyone sees it."""
    if action == TABLE_DRAW:
        return "drew from the stock"
    if action == TABLE_TAKE:
        return f"took {table_card_markup(state.discards[-1])} from the discard pile"
    text = state.action_text(action)
    verb, _, rest = text.partition(" ")
    if verb == "discard":
        return f"discarded {card_markup(action)}"
    if verb == "meld":
        return f"melded {rest}"
    return text.replace("lay off", "laid off").replace("release", "released")


class _TablePerson:
    """Seat 0 of a table game: shows the table and reads moves; narrates the other seats."""

    def __init__(self, console: Any, read: Callable[[str], str], names: list[str]) -> None:
        self.console, self.read = console, read
        self.match: TableMatch | None = None  # set once the match, which needs this agent, exists
        self.match_names = names
        self.state: TableState | None = None
        self.hand_number = 0
        self._greedy = GreedyAgent()

    @property
    def names(self) -> list[str]:
        """The names by seat of the hand being played (Kaluki deals only to active players)."""
        assert self.match is not None
        return [self.match_names[s] for s in self.match.active]

    def seen(self, state: TableState) -> None:
        if state is not self.state:
            self.state = state
            self.hand_number += 1
            self.console.rule(f"hand {self.hand_number}, dealer: {self.names[state.dealer]}")

    def narrate(self, state: TableState, seat: int, action: int) -> None:
        self.seen(state)
        self.console.print(f"{self.names[seat]} {_table_describe(state, action)}")

    def __call__(self, state: TableState) -> int:
        self.seen(state)
        console, me = self.console, state.current_player
        for line in _table_lines(state, self.names):
            console.print(line)
        console.print(f"  your hand  {table_hand_markup(state.hands[me])}  ({state.hands[me].bit_count()} cards)")
        if state.rules.is_kaluki and not state.is_opened(me) and state.open_value:
            console.print(f"  (melded {state.open_value} points towards opening this turn)")
        if state.must >= 0:
            console.print(f"  (you took {card_markup(state.must)}: it must go on the table this turn)")
        if state.phase_name == "draw":
            console.print("draw from the stock (draw) or take the top discard (take)?")
        else:
            console.print("meld, lay off, release a joker, or discard to end your turn (help: the commands)")
        while True:
            try:
                text = self.read("your move> ").strip()
            except EOFError:
                raise Quit from None
            low = text.lower()
            if low in ("quit", "q", "exit"):
                raise Quit
            if low in ("help", "?", ""):
                console.print(_TABLE_HELP)
                continue
            if low == "hint":
                console.print(f"hint: {state.action_text(self._greedy(state))}")
                continue
            if low == "moves":
                console.print("legal: " + ", ".join(state.action_text(a) for a in state.legal_actions()))
                continue
            if len(low.split()) == 1 and low not in ("draw", "take", "stock"):
                text = "discard " + text  # a bare card is a discard
            try:
                return state.verify_action(text)
            except RummykitError as err:
                console.print(f"[bold red]illegal:[/] {err}")

    def showdown(self, result: TableResult) -> None:
        state, console, names = self.state, self.console, self.names
        assert state is not None
        if result.outcome == "dead":
            console.print("[bold]the hand is dead[/]: the stock ran out; no points")
            return
        for seat in range(state.n):
            left = table_hand_markup(state.hands[seat])
            console.print(f"{names[seat]}: left {left} (value {result.hand_values[seat]})")
        who = "nobody" if result.winner is None else names[result.winner]
        penalty = state.rules.is_kaluki or state.rules.rummy_scoring == "penalty"
        scored = ", ".join(f"{names[s]} {p}" for s, p in enumerate(result.penalties if penalty else result.points))
        console.print(f"[bold]{result.outcome}[/]: {who} went out; {'penalties' if penalty else 'points'} {scored}")


def _play_table(game: Any, vs: str, seed: int | None, console: Any, read: Callable[[str], str]) -> int:
    """A table-game match (:class:`TableMatch`) of the person against ``vs`` agents."""
    n = game.rules.num_players
    names = _names(n)
    person = _TablePerson(console, read, names)
    agents: list[Any] = [person] + [_Watched(make_agent(vs, seed=seed), s, person) for s in range(1, n)]
    match = person.match = TableMatch(game, agents, seed=seed)
    rules = game.rules
    goal = (
        f"a player is out at {rules.elimination_threshold} penalty points"
        if rules.is_kaluki
        else f"target {rules.target_score}"
    )
    console.print(f"[bold]{rules.name}[/] against {vs}; you are seat 0.  Type help for the commands.")
    try:
        while not match.is_over:
            person.showdown(match.play_hand())
            scores = ", ".join(f"{name} {score}" for name, score in zip(names, match.scores))
            console.print(f"[bold]score[/] {scores} ({goal})")
            if not match.is_over and person.read("press Enter for the next hand> ").strip().lower() in ("q", "quit"):
                raise Quit
    except (Quit, EOFError):
        console.print("bye")
        return 0
    final = match.result
    assert final is not None
    winner = "nobody" if final.winner is None else names[final.winner]
    console.print(f"[bold]match over[/]: {winner} won; totals {list(final.scores)}")
    return 0


def _names(n: int) -> list[str]:
    return ["you"] + (["opponent"] if n == 2 else [f"player {s}" for s in range(1, n)])


def play(
    game: str = "gin",
    vs: str = "greedy",
    seed: int | None = None,
    *,
    console: Any = None,
    read: Callable[[str], str] = input,
) -> int:
    """Play a match of ``game`` (any game name: a knock game, Rummy or Kaluki) against ``vs``
    agents (``"greedy"``, ``"ismcts"``, or a :func:`~rummykit.agents.make_agent` name with
    settings) in the terminal; returns 0."""
    from rich.console import Console

    console = console or Console(highlight=False)
    chosen = Game(game)
    if not isinstance(chosen, KnockGame):
        return _play_table(chosen, vs, seed, console, read)
    n = chosen.num_players
    names = _names(n)
    person = _Person(console, read, names)
    agents: list[Any] = [person] + [_Watched(make_agent(vs, seed=seed), s, person) for s in range(1, n)]
    match = Match(chosen, agents, seed=seed)
    console.print(f"[bold]{chosen.name}[/] against {vs}; you are seat 0.  Type help for the commands.")
    try:
        while not match.is_over:
            result = match.play_hand()
            person.showdown(result)
            scores = ", ".join(f"{name} {score}" for name, score in zip(names, match.scores))
            boxes = "-".join(str(b) for b in match.boxes)
            console.print(f"[bold]score[/] {scores} (boxes {boxes}; target {match.rules.target_score})")
            if not match.is_over and person.read("press Enter for the next hand> ").strip().lower() in ("q", "quit"):
                raise Quit
    except (Quit, EOFError):
        console.print("bye")
        return 0
    final = match.result
    assert final is not None
    winner = "nobody" if final.winner is None else names[final.winner]
    console.print(f"[bold]match over[/]: {winner} won; totals {list(final.totals)}")
    return 0


def load_record(text: str) -> KnockState | TableState:
    """The final state of a hand history of either family (``state.to_json()`` text)."""
    try:
        family = json.loads(text).get("family") if text.lstrip().startswith("{") else None
    except json.JSONDecodeError:
        family = None  # the record reader names the problem
    if family == "table":
        return TableState.from_json(text)
    return KnockState.from_json(text)


def _replay_view(state: KnockState | TableState, console: Any) -> None:
    """Every hand of the replayed state (and the knock upcard line or the table melds)."""
    if isinstance(state, TableState):
        for line in _table_lines(state, [f"seat {s}" for s in range(state.n)]):
            console.print(line)
        for seat in range(state.n):
            marker = "*" if seat == state.current_player else " "
            console.print(f"{marker}seat {seat}  {table_hand_markup(state.hands[seat])}")
        return
    console.print(_table_line(state))
    for seat in range(state.n):
        marker = "*" if seat == state.current_player else " "
        console.print(f"{marker}seat {seat}")
        for line in hand_markup(state.hands[seat], state.rules.aces):
            console.print(line)


def _replay_result(state: KnockState | TableState) -> str | None:
    result = state.result
    if result is None:
        return None
    winner = "nobody" if result.winner is None else f"seat {result.winner}"
    if isinstance(result, TableResult):
        return f"[bold]{result.outcome}[/]: {winner} went out; returns {list(result.returns)}"
    return f"[bold]{result.outcome}[/]: {winner} wins; points {list(result.points)}"


def replay(text: str, *, console: Any = None, read: Callable[[str], str] | None = None) -> int:
    """Step through a hand history (``state.to_json()`` text of a knock game, Rummy or Kaluki):
    Enter for the next action, ``b`` to go back, ``q`` to stop.  Without ``read`` every step
    is printed at once."""
    from rich.console import Console

    console = console or Console(highlight=False)
    final = load_record(text)
    actions = list(final.history)
    state = final.clone()
    while state.history:
        state.undo()
    step = 0
    while True:
        console.rule(f"{state.rules.name}: action {step}/{len(actions)}, {state.phase_name}")
        _replay_view(state, console)
        if step == len(actions):
            summary = _replay_result(state)
            if summary is not None:
                console.print(summary)
            return 0
        action = actions[step]
        text_of = state.action_text(action) if isinstance(state, TableState) else str(Action(action))
        console.print(f"next: seat {state.current_player} {text_of}")
        key = read("replay (Enter/b/q)> ").strip().lower() if read is not None else ""
        if key == "q":
            return 0
        if key == "b" and step:
            state.undo()
            step -= 1
            continue
        state.apply_action(action)
        step += 1
