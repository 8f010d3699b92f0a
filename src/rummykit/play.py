"""Terminal UIs: a person plays a whole match against an agent (``rummykit play``), and a hand
history is stepped through (``rummykit replay``).

The person sits in seat 0.  Their hand is shown sorted by suit with coloured suits, then the
melds of its least-deadwood arrangement and the deadwood; moves are typed as card text
(``7h`` discards, ``knock 9c``, ``draw``, ``take``, ``pass``); ``hint`` shows the greedy
choice, ``help`` the commands, ``quit`` ends the match.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rummykit.agents import GreedyAgent, make_agent
from rummykit.analysis import best_melds
from rummykit.cards import Card, from_mask
from rummykit.errors import InvalidOptionError, RummykitError
from rummykit.games import Game
from rummykit.knock.actions import BIG_GIN, DRAW_STOCK, KNOCK, PASS, TAKE, Action
from rummykit.knock.game import KnockGame
from rummykit.knock.match import Match
from rummykit.knock.showdown import HandResult
from rummykit.knock.state import KnockState, Phase

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


def card_markup(card: int) -> str:
    """Rich markup of a card with its suit colour, e.g. ``[red]7♥[/]``."""
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

    def __init__(self, agent: Any, seat: int, person: _Person) -> None:
        self.agent, self.seat, self.person = agent, seat, person

    def __call__(self, state: KnockState) -> int:
        action = int(self.agent(state))
        self.person.narrate(state, self.seat, action)
        return action


def play(
    game: str = "gin",
    vs: str = "greedy",
    seed: int | None = None,
    *,
    console: Any = None,
    read: Callable[[str], str] = input,
) -> int:
    """Play a match of ``game`` against ``vs`` agents (``"greedy"``, ``"ismcts"``, or a
    :func:`~rummykit.agents.make_agent` name with settings) in the terminal; returns 0."""
    from rich.console import Console

    console = console or Console(highlight=False)
    chosen = Game(game)
    if not isinstance(chosen, KnockGame):
        raise InvalidOptionError(f"play supports the knock games (gin, oklahoma-gin, oklahoma-rummy), not {game!r}")
    n = chosen.num_players
    names = ["you"] + (["opponent"] if n == 2 else [f"player {s}" for s in range(1, n)])
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


def replay(text: str, *, console: Any = None, read: Callable[[str], str] | None = None) -> int:
    """Step through a hand history (``state.to_json()`` text): Enter for the next action, ``b``
    to go back, ``q`` to stop.  Without ``read`` every step is printed at once."""
    from rich.console import Console

    console = console or Console(highlight=False)
    final = KnockState.from_json(text)
    actions = list(final.history)
    state = final.clone()
    while state.history:
        state.undo()
    step = 0
    while True:
        console.rule(f"{state.rules.name}: action {step}/{len(actions)}, {state.phase_name}")
        console.print(_table_line(state))
        for seat in range(state.n):
            marker = "*" if seat == state.current_player else " "
            console.print(f"{marker}seat {seat}")
            for line in hand_markup(state.hands[seat], state.rules.aces):
                console.print(line)
        if step == len(actions):
            result = state.result
            if result is not None:
                winner = "nobody" if result.winner is None else f"seat {result.winner}"
                console.print(f"[bold]{result.outcome}[/]: {winner} wins; points {list(result.points)}")
            return 0
        console.print(f"next: seat {state.current_player} {Action(actions[step])}")
        key = read("replay (Enter/b/q)> ").strip().lower() if read is not None else ""
        if key == "q":
            return 0
        if key == "b" and step:
            state.undo()
            step -= 1
            continue
        state.apply_action(actions[step])
        step += 1
