"""``rummykit play`` driven through a pseudo-terminal, typing moves as a person would."""

from __future__ import annotations

import os
import re
import sys

import pytest

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
