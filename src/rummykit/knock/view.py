"""The terminal view of the knock games (Gin, Oklahoma Gin, Oklahoma Rummy) for
``rummykit play`` and ``rummykit replay`` (:mod:`rummykit.play` drives it).

The hand is shown with the melds of its least-deadwood arrangement and the deadwood; moves
are typed as card text (``7h`` discards, ``knock 9c``, ``knock`` alone for the best knock,
``draw``, ``take``, ``pass``).  ``knock`` when the player cannot knock says why (draw first;
the deadwood after the best discard is over the knock limit).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rummykit.cards import from_mask
from rummykit.errors import RummykitError
from rummykit.knock import reasons
from rummykit.knock.actions import BIG_GIN, DRAW_STOCK, KNOCK, PASS, TAKE, Action
from rummykit.knock.showdown import HandResult
from rummykit.knock.state import KnockState, Phase
from rummykit.render import CARD_TYPING, Quit, card_markup, cards_in_text, cards_markup, hand_markup

__all__ = ["KnockView", "why_no_knock"]

_HELP = f"""moves: a card to discard (7h), knock 9c (or knock: the best knock card), draw, take, pass, big gin
{CARD_TYPING}
other: moves (the legal moves), hint (the greedy move), help, quit"""

_PROMPTS = {
    Phase.OFFER_NONDEALER: "take the upcard {top} or pass?",
    Phase.OFFER_DEALER: "take the upcard {top} or pass?",
    Phase.FORCED_STOCK_DRAW: "draw from the stock (draw)",
    Phase.DRAW: "draw from the stock (draw) or take {top} (take)?",
    Phase.DISCARD: "discard a card (e.g. {example}) or knock with one (knock {example})",
    Phase.LAST_CHANCE: "take {top} to knock at once, or pass (the hand is then dead)",
    Phase.KNOCK_ONLY: "you must knock: knock <card>",
    Phase.SHOWDOWN: "lay off or meld your cards against the knock (moves lists them), then done",
}


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
    return cards_in_text(str(Action(action)))


def _error_markup(message: str) -> str:
    """An engine error as markup: its cards in the screen's style."""
    return cards_in_text(message)


def why_no_knock(state: KnockState) -> str:
    """Why the player to move cannot knock now (markup), in the engine's words: before the
    draw the phase's reason, after it the knock that would leave the least deadwood."""
    hand = state.hands[state.player]
    why = [(state._why(KNOCK + c), c) for c in range(52) if hand >> c & 1] or [(state._why(KNOCK), 0)]
    limited = [w for w in why if w[0][0] in ("over_limit", "gin_only")]
    (reason, detail), card = min(limited, key=lambda w: (w[0][1][0], -w[1])) if limited else why[0]
    what = "" if limited else "knock"
    return _error_markup(reasons.message(state, reason, KNOCK + card, detail, -1, what))


class KnockView:
    """Seat 0 of a knock game in the terminal (``rummykit play``): shows the table and reads
    moves; also the narrator of the other seats' moves.  Its static methods show a position
    and a result for ``rummykit replay``."""

    def __init__(self, console: Any, read: Callable[[str], str], names: list[str]) -> None:
        self.console, self.read, self.names = console, read, names
        self.state: KnockState | None = None
        self.states: list[KnockState] = []  # every hand seen, for the match record
        self.hand_number = 0
        self.match: Any = None  # set once the match, which needs this agent, exists

    def seen(self, state: KnockState) -> None:
        if state is not self.state:
            self.state = state
            self.states.append(state)
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
        console.print(_PROMPTS[Phase(state.phase)].format(top=top, example=card_markup(hand[-1])))
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
                console.print(f"hint: {cards_in_text(str(Action(state.game.family_record.greedy(state, None))))}")
                continue
            if text == "moves":
                console.print("legal: " + ", ".join(cards_in_text(str(Action(a))) for a in state.legal_actions()))
                continue
            legal = state.legal_actions()
            if text in ("knock", "gin"):
                knocks = [a for a in legal if KNOCK <= a < DRAW_STOCK]
                if knocks:
                    greedy = state.game.family_record.greedy(state, None)
                    return greedy if greedy in knocks else knocks[0]
                console.print(f"[bold red]illegal:[/] {why_no_knock(state)}")
                continue
            try:
                return state.verify_action(text)
            except RummykitError as err:
                console.print(f"[bold red]illegal:[/] {_error_markup(str(err))}")

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
                console.print(f"{name} knocked: " + "  ".join(f"\\[{cards_markup(m.cards)}]" for m in melds))
            else:
                melds = result.melds[seat] if result.melds else ()
                used = sum(m.mask for m in melds) | sum(c.mask for lay in result.layoffs[seat] for c in lay.cards)
                dead = from_mask(state.hands[seat] & ~used)
                laid = "; ".join(
                    f"{cards_markup(lay.cards)} on \\[{cards_markup(lay.meld.cards)}]" for lay in result.layoffs[seat]
                )
                console.print(
                    f"{name}: "
                    + ("  ".join(f"\\[{cards_markup(m.cards)}]" for m in melds) or "no melds")
                    + (f", laid off {laid}" if laid else "")
                )
            console.print(f"   deadwood {cards_markup(dead)} ({result.deadwood[seat]})")
        assert result.winner is not None
        points = result.points[result.winner]
        console.print(
            f"[bold]{result.outcome}[/]: {self.names[result.winner]} score{'s' if result.winner else ''} {points}"
        )

    def goal(self) -> str:
        """What ends the match, for the score line."""
        return f"target {self.match.rules.target_score}"

    def score_note(self) -> str:
        """The boxes, for the score line."""
        return f"boxes {'-'.join(str(b) for b in self.match.boxes)}; "

    @staticmethod
    def final_totals(result: Any) -> list[int]:
        """The match's totals (after the settlement)."""
        return list(result.totals)

    @staticmethod
    def show_position(state: KnockState, console: Any) -> None:
        """Every hand face up, under the upcard line (``rummykit replay``)."""
        console.print(_table_line(state))
        for seat in range(state.n):
            marker = "*" if seat == state.current_player else " "
            console.print(f"{marker}seat {seat}")
            for line in hand_markup(state.hands[seat], state.rules.aces):
                console.print(line)

    @staticmethod
    def result_line(result: HandResult) -> str:
        """How a hand ended, in one line (``rummykit replay``)."""
        winner = "nobody" if result.winner is None else f"seat {result.winner}"
        return f"[bold]{result.outcome}[/]: {winner} wins; points {list(result.points)}"
