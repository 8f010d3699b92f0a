"""Action ids, typed Actions and action text round-trip."""

from __future__ import annotations

import pytest

import rummykit as rk
from rummykit import Action, IllegalActionError, parse_action
from rummykit.knock.actions import DONE, LAYOFF, MELD, MELD_TABLE, NUM_ACTIONS


def test_every_id_round_trips_through_text() -> None:
    for action_id in range(NUM_ACTIONS):
        action = Action.from_id(action_id)
        assert parse_action(str(action)) == action
        assert parse_action(str(action)).id == action_id


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("discard 7H", "discard 7H"),
        ("7h", "discard 7H"),
        ("Knock 9c", "knock 9C"),
        ("draw", "draw stock"),
        ("take upcard", "take"),
        ("draw discard", "take"),
        ("PASS", "pass"),
        ("big gin", "big gin"),
        ("meld 9h 7h 8h", "meld 7H 8H 9H"),
        ("lay off jh on 2", "lay off JH on 2"),
        ("done", "done"),
    ],
)
def test_text_forms(text: str, expected: str) -> None:
    assert str(parse_action(text)) == expected


@pytest.mark.parametrize("text", ["", "discard", "discard 1H", "knock", "meld 7H 8H", "lay off 7H on 5", "jump", 7])
def test_bad_action_text_is_named(text: object) -> None:
    with pytest.raises(IllegalActionError, match="not a"):
        parse_action(text)  # type: ignore[arg-type]


def test_layout() -> None:
    assert len(MELD_TABLE) == LAYOFF - MELD == 369
    assert DONE == NUM_ACTIONS - 1
    assert Action(KNOCK_9C := 52 + rk.Card("9C")).card == rk.Card("9C") and Action(KNOCK_9C).kind == "knock"
    assert Action(LAYOFF + 4 * rk.Card("7H") + 1).slot == 1
    with pytest.raises(IllegalActionError, match="not an action id"):
        Action.from_id(NUM_ACTIONS)
