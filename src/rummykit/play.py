"""Terminal UIs: a person plays a whole match against an agent (``rummykit play``), and a hand
or match record is stepped through (``rummykit replay``).

The person sits in seat 0.  Their hand is shown sorted by suit with coloured suits (one card
style everywhere: ``7♥``, a joker ``Jk``; cards are typed ``7h``, ``th``, ``jk`` or as shown);
``moves`` lists the legal moves, ``hint`` shows the greedy choice, ``help`` the commands,
``quit`` ends the match.  What the screen shows and how moves are typed is the game family's
terminal view (``game.family_record.view_class()``: :class:`rummykit.knock.view.KnockView`
for Gin, Oklahoma Gin and Oklahoma Rummy, :class:`rummykit.table.view.TableView` for Rummy
and Kaluki).

``save`` writes a match record (``{"format": "rummykit-match", "hands": [...]}``, each hand
a ``state.to_json()`` record, the unfinished one included) after every hand and on quitting;
:func:`replay` reads it, or a single hand record.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from rummykit.agents import make_agent
from rummykit.engine.match import Match
from rummykit.engine.protocol import GameState
from rummykit.errors import IllegalActionError, RummykitError
from rummykit.games import Game
from rummykit.records import MAX_RECORD_CHARS, from_json, from_record
from rummykit.records import load as load_json
from rummykit.render import Quit, card_markup, cards_in_text, hand_markup

__all__ = ["card_markup", "hand_markup", "load_records", "play", "replay"]

MATCH_FORMAT = "rummykit-match"
#: the longest match record read (characters, or bytes for bytes input): a hand record is at
#: most rummykit.records.MAX_RECORD_CHARS
MAX_MATCH_RECORD_CHARS = 16_000_000


class _Watched:
    """Another seat's agent, whose moves the person is told about."""

    def __init__(self, agent: Any, seat: int, person: Any) -> None:
        self.agent, self.seat, self.person = agent, seat, person

    def __call__(self, state: Any) -> int:
        action = int(self.agent(state))
        self.person.narrate(state, state.current_player, action)  # its seat in this hand (Kaluki: fewer seats)
        return action

    def new_hand(self, info: Any) -> None:
        """The match so far, passed on to an agent that plays the game (``best``)."""
        hook = getattr(self.agent, "new_hand", None)
        if callable(hook):
            hook(info)


def _names(n: int) -> list[str]:
    return ["you"] + (["opponent"] if n == 2 else [f"player {s}" for s in range(1, n)])


def match_record(states: Iterable[GameState], game: str) -> str:
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
    n = chosen.num_players
    names = _names(n)
    person = chosen.family_record.view_class()(console, read, names)
    agents: list[Any] = [person] + [_Watched(make_agent(vs, seed=seed), s, person) for s in range(1, n)]
    rules: Any = chosen.rules

    def saved() -> None:
        if save is not None and person.states:
            Path(save).write_text(match_record(person.states, rules.name), encoding="utf-8")

    match: Any = Match(chosen, agents, seed=seed, trusted=True)  # our own agents: the person and the narrated bots
    person.match = match
    goal = person.goal()
    console.print(f"[bold]{rules.name}[/] against {vs}; you are seat 0.  Type help for the commands.")
    try:
        while not match.is_over:
            person.showdown(match.play_hand())
            saved()
            scores = ", ".join(f"{name} {score}" for name, score in zip(names, match.scores))
            console.print(f"[bold]score[/] {scores} ({person.score_note()}{goal})")
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
    console.print(f"[bold]match over[/]: {winner} won; totals {person.final_totals(final)}")
    return 0


def load_records(text: str | bytes) -> list[GameState]:
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
            states.append(state)
        return states
    if len(text) > MAX_RECORD_CHARS:  # not a match: too large for a hand record
        load_json(text, MAX_RECORD_CHARS)  # raises InvalidOptionError saying so
    return [from_record(data)]


def load_record(text: str) -> GameState:
    """The final state of a hand history of any game (``state.to_json()`` text)."""
    return from_json(text)  # the record names its family


def _replay_result(state: GameState) -> str | None:
    result = state.result
    return None if result is None else str(state.game.family_record.view_class().result_line(result))


def _replay_hand(final: GameState, console: Any, read: Callable[[str], str] | None, title: str) -> bool:
    """Step through one hand; False if the person typed ``q``."""
    actions = list(final.history)
    state = final.clone()
    while state.history:
        state.undo()
    step = 0
    while True:
        console.rule(f"{title}{state.rules.name}: action {step}/{len(actions)}, {state.phase_name}")
        state.game.family_record.view_class().show_position(state, console)
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
