"""The terminal view of the table games (Rummy, Kaluki) for ``rummykit play`` and
``rummykit replay`` (:mod:`rummykit.play` drives it).

The table melds are shown numbered, with their owners, how many cards every player holds,
the hand with its jokers, whether each seat has opened (Kaluki: the first melds must be
worth ``initial_meld_min``, 40 by default); moves are the engine's action text (``draw``,
``take``, ``meld 7h 8h 9h``, ``lay off 7h on 2`` (the end that fits is found; ``low`` or
``high`` only when both fit), ``discard 7h`` or just ``7h``, ``release 9s from 1``).  The
match is a :class:`~rummykit.table.match.TableMatch`: running scores after every hand.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import Any

from rummykit.errors import IllegalActionError, RummykitError
from rummykit.render import (
    CARD_TYPING,
    Quit,
    card_markup,
    cards_in_text,
    plural,
    table_card_markup,
    table_hand_markup,
    table_meld_markup,
)
from rummykit.table.actions import DRAW as TABLE_DRAW
from rummykit.table.actions import TAKE as TABLE_TAKE
from rummykit.table.scoring import TableResult
from rummykit.table.state import TableState

__all__ = ["TableView", "table_move"]

_TABLE_HELP = f"""moves: draw, take, meld 7h 8h 9h (a joker: jk, in a run jk=9h), release 9s from 1,
       lay off 9s on 1 (onto table meld 1: the end that fits is found; add low or high only when
       both ends of a run fit), discard 7h (or just 7h)
{CARD_TYPING}
other: moves (the legal moves), hint (the greedy move), help, quit"""

_LAY_OFF = re.compile(r"^(?:lay\s+off|layoff|build)\s+(\S+)\s+on\s+(\d+)$", re.IGNORECASE)
_END_WORD = re.compile(r"^(lay off \S+ on \d+) (?:low|high)\b")


def _held(state: TableState, names: list[str]) -> str:
    """How many cards each player holds."""
    return "cards held: " + ", ".join(f"{names[s]} {plural(state.hands[s].bit_count(), 'card')}" for s in state.seats)


def _table_lines(state: TableState, names: list[str]) -> list[str]:
    """The stock, the discard pile, who has opened, how many cards each player holds and the
    melds on the table with owners."""
    top = table_card_markup(state.discards[-1]) if state.discards else "empty"
    lines = [f"stock {len(state.stock)} | discard pile: {top} ({plural(len(state.discards), 'card')})"]
    if state.rules.is_kaluki:
        opened = ", ".join(f"{names[s]} {'yes' if state.is_opened(s) else 'no'}" for s in state.seats)
        lines.append(f"opened: {opened} (first melds worth {state.rules.initial_meld_min}+ points)")
    lines.append(_held(state, names))
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
        return f"melded {cards_in_text(rest)}"
    return cards_in_text(text.replace("lay off", "laid off").replace("release", "released"))


def _short_texts(state: TableState, actions: Iterable[int]) -> list[str]:
    """Action texts, a lay-off's end left out where only one end of that meld takes the card."""
    texts = [state.action_text(a) for a in actions]
    stems = [m.group(1) if (m := _END_WORD.match(t)) else t for t in texts]
    return [stem if stems.count(stem) == 1 else text for text, stem in zip(texts, stems)]


def table_move(state: TableState, text: str) -> int:
    """The legal action id of typed text: a bare card is a discard; ``lay off 9s on 1``
    without ``low``/``high`` takes the end that fits (both fit: it asks which).  Raises
    :class:`IllegalActionError` saying why not."""
    words = text.split()
    if len(words) == 1 and words[0].lower() not in ("draw", "take", "stock"):
        text = "discard " + text  # a bare card is a discard
    found = _LAY_OFF.match(text.strip())
    if found is None:
        return state.verify_action(text)
    card, slot = found.groups()
    ends = [state.parse_action(f"lay off {card} on {slot} {end}") for end in ("low", "high")]
    legal = [a for a in ends if a in state.legal_actions()]
    if len(legal) == 1:
        return legal[0]
    if legal:
        raise IllegalActionError(f"lay off {card} on {slot}: it fits at both ends of the run: add low or high")
    reasons = []
    for a in ends:
        try:
            state.verify_action(a)
        except IllegalActionError as err:
            reasons.append(str(err))
    specific = [r for r in reasons if not r.endswith("at that end")]
    reason = specific[0] if specific else reasons[0].replace("at that end", "at either end")
    raise IllegalActionError(_END_WORD.sub(r"\1", reason))


class TableView:
    """Seat 0 of a table game in the terminal (``rummykit play``): shows the table and reads
    moves; narrates the other seats.  Its static methods show a position and a result for
    ``rummykit replay``."""

    def __init__(self, console: Any, read: Callable[[str], str], names: list[str]) -> None:
        self.console, self.read = console, read
        self.match: Any = None  # set once the match, which needs this agent, exists
        self.match_names = names
        self.state: TableState | None = None
        self.states: list[TableState] = []  # every hand seen, for the match record
        self.hand_number = 0

        self.names: list[str] = names  # by seat: a Kaluki seat put out keeps its number

    def seen(self, state: TableState) -> None:
        if state is not self.state:
            self.state = state
            self.states.append(state)
            self.hand_number += 1
            self.console.rule(f"hand {self.hand_number}, dealer: {self.names[state.dealer]}")

    def narrate(self, state: TableState, seat: int, action: int) -> None:
        self.seen(state)
        after = state.clone()
        after.apply_action(action)
        held = plural(after.hands[seat].bit_count(), "card")
        self.console.print(f"{self.names[seat]} {_table_describe(state, action)} ({held} in hand)")

    def __call__(self, state: TableState) -> int:
        self.seen(state)
        console, me = self.console, state.current_player
        for line in _table_lines(state, self.names):
            console.print(line)
        held = plural(state.hands[me].bit_count(), "card")
        console.print(f"  your hand  {table_hand_markup(state.hands[me])}  ({held})")
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
                legal = state.legal_actions()
                hint = _short_texts(state, legal)[legal.index(state.game.family_record.greedy(state, None))]
                console.print(f"hint: {cards_in_text(hint)}")
                continue
            if low == "moves":
                console.print(
                    "legal: " + ", ".join(cards_in_text(t) for t in _short_texts(state, state.legal_actions()))
                )
                continue
            if low in ("knock", "gin"):
                console.print(
                    f"[bold red]illegal:[/] {low}: there is no knocking in {state.rules.name}: go out by melding"
                )
                continue
            try:
                return table_move(state, text)
            except RummykitError as err:
                console.print(f"[bold red]illegal:[/] {cards_in_text(str(err))}")

    def showdown(self, result: TableResult) -> None:
        state, console, names = self.state, self.console, self.names
        assert state is not None
        if result.outcome == "dead":
            console.print("[bold]the hand is dead[/]: the stock ran out; no points")
            return
        for seat in state.seats:
            left = table_hand_markup(state.hands[seat])
            console.print(f"{names[seat]}: left {left} (value {result.hand_values[seat]})")
        who = "nobody" if result.winner is None else names[result.winner]
        penalty = state.game.score_kind == "penalties"
        scored = ", ".join(f"{names[s]} {p}" for s, p in enumerate(result.penalties if penalty else result.points))
        console.print(f"[bold]{result.outcome}[/]: {who} went out; {'penalties' if penalty else 'points'} {scored}")

    def goal(self) -> str:
        """What ends the match, for the score line."""
        rules = self.match.rules
        if rules.is_kaluki:
            return f"a player is out at {rules.elimination_threshold} penalty points"
        return f"target {rules.target_score}"

    def score_note(self) -> str:
        return ""

    @staticmethod
    def final_totals(result: Any) -> list[int]:
        """The match's scores."""
        return list(result.scores)

    @staticmethod
    def show_position(state: TableState, console: Any) -> None:
        """The table and every hand face up (``rummykit replay``)."""
        for line in _table_lines(state, [f"seat {s}" for s in range(state.n)]):
            console.print(line)
        for seat in range(state.n):
            marker = "*" if seat == state.current_player else " "
            console.print(f"{marker}seat {seat}  {table_hand_markup(state.hands[seat])}")

    @staticmethod
    def result_line(result: TableResult) -> str:
        """How a hand ended, in one line (``rummykit replay``)."""
        winner = "nobody" if result.winner is None else f"seat {result.winner}"
        return f"[bold]{result.outcome}[/]: {winner} went out; returns {list(result.returns)}"
