"""``rummykit play`` driven through a pseudo-terminal, typing moves as a person would."""

from __future__ import annotations

import io
import os
import re
import sys

import pytest
from rich.console import Console
from table_helpers import position

import rummykit as rk
from rummykit.play import play
from rummykit.render import cards_in_text
from rummykit.table.view import _short_texts, table_move

ASCII_CARD = re.compile(r"(?<![\w=])(10|[2-9TJQKA])[CDHS](?!\w)")  # a card shown as 7H, not 7♥


def session(game: str, moves: list[str], seed: int = 3, auto: int = 0, **options: object) -> str:
    """What ``play`` shows for typed ``moves``, then ``auto`` more answers that play the hints
    (then quit), as plain text."""
    out = io.StringIO()
    typed = iter(moves)
    left = [auto]

    def read(prompt: str) -> str:
        out.write(prompt + "\n")
        move = next(typed, "@auto")
        if move == "@auto":
            left[0] -= 1
            last = out.getvalue().splitlines()[-2:-1]
            if left[0] < 0:
                return "quit"
            if prompt.startswith("press Enter"):
                return ""
            move = "@hint" if last and last[0].startswith("hint: ") else "hint"
        if move == "@hint":  # the move the last hint gave
            move = re.findall(r"hint: ([^\n]+)", out.getvalue())[-1]
        return move

    console = Console(file=out, width=300, highlight=False, color_system=None)
    assert play(game, seed=seed, options=dict(options), console=console, read=read) == 0
    return out.getvalue()


def screen(text: str) -> str:
    return "\n".join(line for line in text.splitlines() if not line.startswith("your move>"))


def test_lay_off_end_is_inferred_when_one_end_fits() -> None:
    state = position(rk.Game("rummy"), ["TS 2C 5D 6S", "KC QC"], table=(("7S 8S 9S", 1),))
    assert state.action_text(table_move(state, "lay off ts on 1")) == "lay off TS on 1 high"
    assert state.action_text(table_move(state, "lay off 6♠ on 1")) == "lay off 6S on 1 low"
    assert state.action_text(table_move(state, "build 6s on 1 low")) == "lay off 6S on 1 low"
    with pytest.raises(rk.IllegalActionError, match="2C does not extend 7S 8S 9S at either end"):
        table_move(state, "lay off 2c on 1")
    with pytest.raises(rk.IllegalActionError, match="at that end"):
        table_move(state, "lay off 6s on 1 high")
    assert state.action_text(table_move(state, "5d")) == "discard 5D"  # a bare card discards
    kaluki = position(rk.Game("kaluki"), ["Jk 2C 5D 6S", "KC QC"], table=(("7S 8S 9S", 1),), opened=3)
    with pytest.raises(rk.IllegalActionError, match="fits at both ends of the run: add low or high"):
        table_move(kaluki, "lay off jk on 1")
    assert kaluki.action_text(table_move(kaluki, "lay off jk on 1 high")) == "lay off Jk on 1 high"
    assert _short_texts(kaluki, kaluki.legal_actions())[-3:] == [
        "lay off 6S on 1",  # one end takes it: the end is left out
        "lay off Jk on 1 low",
        "lay off Jk on 1 high",
    ]


def test_knock_alone_says_why_not() -> None:
    shown = session("gin", ["knock", "pass", "knock", "draw", "knock"])
    assert "illegal: knock: take the upcard or pass first" in shown
    assert "illegal: knock: draw first (draw or take)" in shown
    assert re.search(
        r"illegal: knock ..: deadwood (\d+) is over the knock limit 10 "
        r"\(a knock may leave at most 10 points of deadwood\)",
        shown,
    )


def test_moves_hint_and_errors_in_every_game_use_one_card_style() -> None:
    for game in ("gin", "oklahoma-rummy", "rummy", "kaluki"):
        shown = session(game, ["moves", "hint", "draw", "moves", "hint", "discard kc", "meld 2x 3x 4x", "big gin"])
        assert "legal: " in shown and "hint: " in shown and "illegal: " in shown, game
        assert not ASCII_CARD.search(screen(shown)), (game, ASCII_CARD.search(screen(shown)))
        assert not re.search(r"\b1 cards", shown)


def test_errors_explain_options_they_name() -> None:
    shown = session("gin", ["pass", "draw", "big gin"])
    assert "this game has no big gin bonus (a bonus for melding all eleven cards" in shown
    assert "phase offer" not in session("gin", ["draw"])  # a phase in words: "during the upcard offer"
    assert "knocking" in session("rummy", ["knock"])


def test_table_errors_say_what_the_option_they_name_means() -> None:
    game = rk.Game("kaluki")
    low = position(game, ["TS JS QS 3H 3D 3C 2C 9D", "KC QC"], opened=0)
    with pytest.raises(rk.IllegalActionError, match=r"initial_meld_min=40 \(the first melds must be worth 40 points"):
        low.play("meld TS JS QS")
    part = position(game, ["TS JS QS 5H 5D 5C 2C 9D", "KC QC"], opened=0)
    part.play("meld TS JS QS")
    with pytest.raises(rk.IllegalActionError, match="must be worth 40 points together; 30 so far"):
        part.play("discard 2C")


def test_table_games_show_every_hand_size() -> None:
    shown = session("kaluki", ["draw", "hint", "@hint", "draw"], num_players=3)
    assert "cards held: you 13 cards, player 1 13 cards, player 2 13 cards" in shown
    assert "cards held: you 14 cards" in shown
    assert re.search(r"player [12] \w.* \(1[34] cards in hand\)", shown)  # each move by another player


def test_kaluki_match_to_the_end_as_players_go_out() -> None:
    shown = session("kaluki", [], seed=1, auto=2000, num_players=3, elimination_threshold=40)
    assert "match over" in shown  # hands after a player is out have fewer seats: names and counts follow


def test_render_docstring_examples() -> None:
    import doctest

    import rummykit.render

    assert doctest.testmod(rummykit.render).failed == 0


def test_help_explains_lay_off_ends() -> None:
    shown = session("rummy", ["help"])
    assert "lay off 9s on 1" in shown and "add low or high only when" in shown
    assert cards_in_text("discard 7H, Jk=9S, option max_melds_per_turn") == (
        "discard [red]7♥[/], [bold magenta]Jk[/]=[bold]9♠[/], option max_melds_per_turn"
    )


pexpect = pytest.importorskip("pexpect")

PROMPTS = ["your move> ", "press Enter for the next hand> ", pexpect.EOF]


def test_play_a_hand_of_gin_in_a_terminal() -> None:
    env = dict(os.environ, COLUMNS="100", TERM="dumb")  # dumb: plain text, easy to match
    child = pexpect.spawn(
        sys.executable, ["-m", "rummykit", "play", "gin", "--seed", "3"], env=env, encoding="utf-8", timeout=30
    )
    try:
        child.expect("gin against greedy")
        child.expect("upcard 3♠ \\(knock at 10\\)")
        child.expect(PROMPTS[0])
        child.sendline("knock 2x")  # not a card
        child.expect("illegal: not an action")
        child.expect(PROMPTS[0])
        child.sendline("7h")  # a discard before drawing
        child.expect("illegal: ")
        child.expect(PROMPTS[0])
        moves = 0
        while True:
            child.sendline("hint")
            child.expect(r"hint: ([^\r\n]+)")
            move = child.match.group(1).strip()
            child.expect(PROMPTS[0])  # the prompt after the hint
            child.sendline(move)
            moves += 1
            found = child.expect(PROMPTS + ["match over"])
            if found != 0:
                break
        assert found == 1, "the hand should end before the match does"
        assert moves >= 3
        showdown = child.before
        assert re.search(r"(gin|knock|undercut|big_gin): (you|opponent) scores? \d+|the hand is dead", showdown)
        assert re.search(r"score you \d+, opponent \d+ \(boxes \d-\d; target 100\)", showdown)
        assert "deadwood" in showdown
        child.sendline("quit")
        child.expect("bye")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    assert child.exitstatus == 0


def test_play_a_hand_of_rummy_in_a_terminal() -> None:
    env = dict(os.environ, COLUMNS="120", TERM="dumb")
    child = pexpect.spawn(
        sys.executable, ["-m", "rummykit", "play", "rummy", "--seed", "3"], env=env, encoding="utf-8", timeout=30
    )
    try:
        child.expect("rummy against greedy")
        child.expect("table: no melds yet")
        child.expect(r"your hand  ([^\r\n]+)\(10 cards\)")  # 2 players: 10 cards each
        assert re.search("[♣♦♥♠]", child.match.group(1))
        child.expect(PROMPTS[0])
        child.sendline("meld 2x 3x 4x")  # not cards
        child.expect("illegal: not an action")
        child.expect(PROMPTS[0])
        child.sendline("discard 7h")  # a discard before drawing
        child.expect("illegal: ")
        child.expect(PROMPTS[0])
        child.sendline("moves")
        child.expect("legal: draw, take")
        child.expect(PROMPTS[0])
        child.sendline("lay off 9s on 1")
        child.expect("illegal: ")
        child.expect(PROMPTS[0])
        moves = 0
        while True:
            child.sendline("hint")
            child.expect(r"hint: ([^\r\n]+)")
            move = child.match.group(1).strip()
            child.expect(PROMPTS[0])
            # type discards as a bare card, as a person would
            child.sendline(move.split()[1].lower() if move.startswith("discard") else move)
            moves += 1
            found = child.expect(PROMPTS + ["match over"])
            if found != 0:
                break
        assert found == 1, "the hand should end before the match does"
        assert moves >= 3
        end = child.before
        assert re.search(r"(out|rummy|blocked): (you|opponent|nobody) went out", end) or "the hand is dead" in end
        assert re.search(r"score you \d+, opponent \d+ \(target \d+\)", end)
        child.sendline("quit")
        child.expect("bye")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    assert child.exitstatus == 0


def test_rules_in_a_terminal_is_a_table() -> None:
    env = dict(os.environ, COLUMNS="120", TERM="dumb")
    child = pexpect.spawn(sys.executable, ["-m", "rummykit", "rules", "kaluki"], env=env, encoding="utf-8", timeout=30)
    try:
        child.expect("option")
        child.expect("meaning")
        child.expect("joker_penalty")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    assert child.exitstatus == 0
