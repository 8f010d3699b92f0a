"""Terminal UIs: a person plays a whole match against an agent (``rummykit play``), and a hand
or match record is stepped through (``rummykit replay``).

The person sits in seat 0.  Their hand is shown sorted by suit with coloured suits (one card
style everywhere: ``7♥``, a joker ``Jk``; cards are typed ``7h``, ``th``, ``jk`` or as shown);
``moves`` lists the legal moves, ``hint`` shows the greedy choice, ``help`` the commands,
``quit`` ends the match.

* Knock games (Gin, Oklahoma Gin, Oklahoma Rummy): the hand, then the melds of its
  least-deadwood arrangement and the deadwood; moves are typed as card text (``7h``
  discards, ``knock 9c``, ``knock`` alone for the best knock, ``draw``, ``take``, ``pass``).
  ``knock`` when the player cannot knock says why (draw first; the deadwood after the best
  discard is over the knock limit).
* Table games (Rummy, Kaluki): the table melds, numbered, with their owners, how many cards
  every player holds, the hand with its jokers, whether each seat has opened (Kaluki: the
  first melds must be worth ``initial_meld_min``, 40 by default); moves are the engine's
  action text (``draw``, ``take``, ``meld 7h 8h 9h``, ``lay off 7h on 2`` (the end that fits
  is found; ``low`` or ``high`` only when both fit), ``discard 7h`` or just ``7h``,
  ``release 9s from 1``).  The match is a :class:`~rummykit.table.match.TableMatch`:
  running scores after every hand.

``save`` writes a match record (``{"format": "rummykit-match", "hands": [...]}``, each hand
a ``state.to_json()`` record, the unfinished one included) after every hand and on quitting;
:func:`replay` reads it, or a single hand record.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from rummykit.agents import GreedyAgent, make_agent
from rummykit.cards import from_mask
from rummykit.engine.match import Match
from rummykit.errors import IllegalActionError, RummykitError
from rummykit.games import Game
from rummykit.knock import reasons
from rummykit.knock.actions import BIG_GIN, DRAW_STOCK, KNOCK, PASS, TAKE, Action
from rummykit.knock.game import KnockGame
from rummykit.knock.showdown import HandResult
from rummykit.knock.state import KnockState, Phase
from rummykit.records import MAX_RECORD_CHARS, from_json, from_record
from rummykit.records import load as load_json
from rummykit.render import (
    card_markup,
    cards_in_text,
    cards_markup,
    hand_markup,
    plural,
    table_card_markup,
    table_hand_markup,
    table_meld_markup,
)
from rummykit.table.actions import DRAW as TABLE_DRAW
from rummykit.table.actions import TAKE as TABLE_TAKE
from rummykit.table.match import TableMatch
from rummykit.table.scoring import TableResult
from rummykit.table.state import TableState

__all__ = ["card_markup", "hand_markup", "load_records", "play", "replay"]

MATCH_FORMAT = "rummykit-match"
#: the longest match record read (characters, or bytes for bytes input): a hand record is at
#: most rummykit.records.MAX_RECORD_CHARS
MAX_MATCH_RECORD_CHARS = 16_000_000

_TYPING = "cards: rank and suit letter (7h, th for the ten of hearts, jk a joker) or as shown (7♥)"

_HELP = f"""moves: a card to discard (7h), knock 9c (or knock: the best knock card), draw, take, pass, big gin
{_TYPING}
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


class Quit(Exception):
    """The person typed ``quit`` (or closed the input)."""


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


class _Person:
    """Seat 0: shows the table and reads moves; also the narrator of the other seats' moves."""

    def __init__(self, console: Any, read: Callable[[str], str], names: list[str]) -> None:
        self.console, self.read, self.names = console, read, names
        self.state: KnockState | None = None
        self.states: list[KnockState] = []  # every hand seen, for the match record
        self.hand_number = 0
        self._greedy = GreedyAgent()

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
                console.print(f"hint: {cards_in_text(str(Action(self._greedy(state))))}")
                continue
            if text == "moves":
                console.print("legal: " + ", ".join(cards_in_text(str(Action(a))) for a in state.legal_actions()))
                continue
            legal = state.legal_actions()
            if text in ("knock", "gin"):
                knocks = [a for a in legal if KNOCK <= a < DRAW_STOCK]
                if knocks:
                    greedy = self._greedy(state)
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


class _Watched:
    """Another seat's agent, whose moves the person is told about."""

    def __init__(self, agent: Any, seat: int, person: _Person | _TablePerson) -> None:
        self.agent, self.seat, self.person = agent, seat, person

    def __call__(self, state: Any) -> int:
        action = int(self.agent(state))
        self.person.narrate(state, state.current_player, action)  # its seat in this hand (Kaluki: fewer seats)
        return action


# --- table games (Rummy, Kaluki) ------------------------------------------------

_TABLE_HELP = f"""moves: draw, take, meld 7h 8h 9h (a joker: jk, in a run jk=9h), release 9s from 1,
       lay off 9s on 1 (onto table meld 1: the end that fits is found; add low or high only when
       both ends of a run fit), discard 7h (or just 7h)
{_TYPING}
other: moves (the legal moves), hint (the greedy move), help, quit"""

_LAY_OFF = re.compile(r"^(?:lay\s+off|layoff|build)\s+(\S+)\s+on\s+(\d+)$", re.IGNORECASE)
_END_WORD = re.compile(r"^(lay off \S+ on \d+) (?:low|high)\b")


def _held(state: TableState, names: list[str]) -> str:
    """How many cards each player holds."""
    return "cards held: " + ", ".join(
        f"{names[s]} {plural(state.hands[s].bit_count(), 'card')}" for s in range(state.n)
    )


def _table_lines(state: TableState, names: list[str]) -> list[str]:
    """The stock, the discard pile, who has opened, how many cards each player holds and the
    melds on the table with owners."""
    top = table_card_markup(state.discards[-1]) if state.discards else "empty"
    lines = [f"stock {len(state.stock)} | discard pile: {top} ({plural(len(state.discards), 'card')})"]
    if state.rules.is_kaluki:
        opened = ", ".join(f"{names[s]} {'yes' if state.is_opened(s) else 'no'}" for s in range(state.n))
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


class _TablePerson:
    """Seat 0 of a table game: shows the table and reads moves; narrates the other seats."""

    def __init__(self, console: Any, read: Callable[[str], str], names: list[str]) -> None:
        self.console, self.read = console, read
        self.match: TableMatch | None = None  # set once the match, which needs this agent, exists
        self.match_names = names
        self.state: TableState | None = None
        self.states: list[TableState] = []  # every hand seen, for the match record
        self.hand_number = 0
        self._greedy = GreedyAgent()

        self.names: list[str] = []  # by seat of the hand being played (Kaluki deals only to active players)

    def seen(self, state: TableState) -> None:
        if state is not self.state:
            assert self.match is not None
            self.names = [self.match_names[s] for s in self.match.active]  # before anyone is put out
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
                hint = _short_texts(state, legal)[legal.index(self._greedy(state))]
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
        for seat in range(state.n):
            left = table_hand_markup(state.hands[seat])
            console.print(f"{names[seat]}: left {left} (value {result.hand_values[seat]})")
        who = "nobody" if result.winner is None else names[result.winner]
        penalty = state.rules.is_kaluki or state.rules.rummy_scoring == "penalty"
        scored = ", ".join(f"{names[s]} {p}" for s, p in enumerate(result.penalties if penalty else result.points))
        console.print(f"[bold]{result.outcome}[/]: {who} went out; {'penalties' if penalty else 'points'} {scored}")


def _names(n: int) -> list[str]:
    return ["you"] + (["opponent"] if n == 2 else [f"player {s}" for s in range(1, n)])


def match_record(states: Iterable[KnockState | TableState], game: str) -> str:
    """The match record of the hands ``states`` (JSON text that :func:`replay` reads)."""
    hands = [json.loads(state.to_json()) for state in states]
    return json.dumps({"format": MATCH_FORMAT, "game": game, "hands": hands}, indent=1) + "\n"


def play(
    game: str = "gin",
    vs: str = "greedy",
    seed: int | None = None,
    *,
    options: dict[str, Any] | None = None,
    save: str | Path | None = None,
    console: Any = None,
    read: Callable[[str], str] = input,
) -> int:
    """Play a match of ``game`` (any game name: a knock game, Rummy or Kaluki, with
    ``options`` as for :func:`rummykit.Game`) against ``vs`` agents (``"greedy"``,
    ``"ismcts"``, or a :func:`~rummykit.agents.make_agent` name with settings) in the
    terminal; returns 0.  ``save``: a file for the match record, written after every hand and
    on quitting (the unfinished hand included), which :func:`replay` reads."""
    from rummykit.render import console as make_console

    console = console or make_console()
    chosen = Game(game, **(options or {}))
    knock = isinstance(chosen, KnockGame)
    n = chosen.num_players
    names = _names(n)
    person: _Person | _TablePerson = _Person(console, read, names) if knock else _TablePerson(console, read, names)
    agents: list[Any] = [person] + [_Watched(make_agent(vs, seed=seed), s, person) for s in range(1, n)]
    rules: Any = chosen.rules

    def saved() -> None:
        if save is not None and person.states:
            Path(save).write_text(match_record(person.states, rules.name), encoding="utf-8")

    match: Any = Match(chosen, agents, seed=seed)
    if knock:
        goal = f"target {match.rules.target_score}"
    else:
        assert isinstance(person, _TablePerson)
        person.match = match
        goal = (
            f"a player is out at {rules.elimination_threshold} penalty points"
            if rules.is_kaluki
            else f"target {rules.target_score}"
        )
    console.print(f"[bold]{rules.name}[/] against {vs}; you are seat 0.  Type help for the commands.")
    try:
        while not match.is_over:
            person.showdown(match.play_hand())
            saved()
            scores = ", ".join(f"{name} {score}" for name, score in zip(names, match.scores))
            boxes = f"boxes {'-'.join(str(b) for b in match.boxes)}; " if knock else ""
            console.print(f"[bold]score[/] {scores} ({boxes}{goal})")
            if not match.is_over and person.read("press Enter for the next hand> ").strip().lower() in ("q", "quit"):
                raise Quit
    except (Quit, EOFError):
        saved()
        if save is not None and person.states:
            console.print(f"saved the match record to {save}")
        console.print("bye")
        return 0
    if save is not None:
        console.print(f"saved the match record to {save}")
    final = match.result
    assert final is not None
    winner = "nobody" if final.winner is None else names[final.winner]
    totals = final.totals if knock else final.scores
    console.print(f"[bold]match over[/]: {winner} won; totals {list(totals)}")
    return 0


def _load_hand(text: str) -> KnockState | TableState:
    state = from_json(text)  # either family: the record names it
    assert isinstance(state, (KnockState, TableState))
    return state


def load_records(text: str | bytes) -> list[KnockState | TableState]:
    """The final states of a hand record (``state.to_json()`` text, either family) or of
    every hand of a match record (``rummykit play --save``): at most
    :data:`MAX_MATCH_RECORD_CHARS` characters (a hand record at most
    :data:`rummykit.records.MAX_RECORD_CHARS`), read by the hand records' JSON reader.
    Anything else raises a :class:`~rummykit.errors.RummykitError` naming the problem."""
    data = load_json(text, MAX_MATCH_RECORD_CHARS)
    if isinstance(data, dict) and data.get("format") == MATCH_FORMAT:
        hands = data.get("hands")
        if not isinstance(hands, list) or not hands:
            raise IllegalActionError("bad match record: no hands")
        states = []
        for number, hand in enumerate(hands, 1):
            try:
                state = from_record(hand)
            except RummykitError as err:
                raise type(err)(f"match record, hand {number}: {err}") from None
            assert isinstance(state, (KnockState, TableState))
            states.append(state)
        return states
    if len(text) > MAX_RECORD_CHARS:  # not a match: too large for a hand record
        load_json(text, MAX_RECORD_CHARS)  # raises InvalidOptionError saying so
    state = from_record(data)
    assert isinstance(state, (KnockState, TableState))
    return [state]


def load_record(text: str) -> KnockState | TableState:
    """The final state of a hand history of either family (``state.to_json()`` text)."""
    return _load_hand(text)


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


def _replay_hand(final: KnockState | TableState, console: Any, read: Callable[[str], str] | None, title: str) -> bool:
    """Step through one hand; False if the person typed ``q``."""
    actions = list(final.history)
    state = final.clone()
    while state.history:
        state.undo()
    step = 0
    while True:
        console.rule(f"{title}{state.rules.name}: action {step}/{len(actions)}, {state.phase_name}")
        _replay_view(state, console)
        if step == len(actions):
            summary = _replay_result(state)
            console.print(summary if summary is not None else "(the record ends before the end of the hand)")
            return True
        action = actions[step]
        text_of = state.action_text(action)
        console.print(f"next: seat {state.current_player} {cards_in_text(text_of)}")
        key = read("replay (Enter/b/q)> ").strip().lower() if read is not None else ""
        if key == "q":
            return False
        if key == "b" and step:
            state.undo()
            step -= 1
            continue
        state.apply_action(action)
        step += 1


def replay(text: str, *, console: Any = None, read: Callable[[str], str] | None = None) -> int:
    """Step through a hand record (``state.to_json()`` text of a knock game, Rummy or Kaluki)
    or every hand of a match record (``rummykit play --save``): Enter for the next action,
    ``b`` to go back, ``q`` to stop.  Without ``read`` every step is printed at once."""
    from rummykit.render import console as make_console

    console = console or make_console()
    hands = load_records(text)
    for number, final in enumerate(hands, 1):
        title = f"hand {number}/{len(hands)}, " if len(hands) > 1 else ""
        if not _replay_hand(final, console, read, title):
            break
    return 0
