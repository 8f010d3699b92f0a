"""Action ids, typed Actions and action text round-trip."""

from __future__ import annotations

import numpy as np
import pytest

import rummykit as rk
from rummykit import Action, IllegalActionError, parse_action
from rummykit.analysis import deadwood
from rummykit.errors import clip
from rummykit.knock.actions import DONE, KNOCK, LAYOFF, MELD, MELD_TABLE, NUM_ACTIONS, TAKE


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


@pytest.mark.parametrize(
    "bad",
    [7588, NUM_ACTIONS, -1, 10**6, 10**100, 10**5000, None, 1.5, float("nan"), True, [1], b"7H", np.array([1]), 1j],
    ids=lambda v: clip(v, 30),
)
def test_action_refuses_what_is_not_an_id(bad: object) -> None:
    """Action(x) and Action.from_id(x): IllegalActionError saying what was expected, never a
    KeyError or TypeError later (str(Action(10**6)) used to raise KeyError)."""
    for make in (Action, Action.from_id):
        with pytest.raises(IllegalActionError, match=rf"not an action id: .* 0\.\.{NUM_ACTIONS - 1}") as info:
            make(bad)  # type: ignore[arg-type]
        assert len(str(info.value)) < 150
    assert "card" not in str(pytest.raises(IllegalActionError, Action, -1).value)


def test_action_reads_text_and_numpy_ids() -> None:
    assert Action("discard 7H") == Action(32) == Action(np.int64(32)) == Action(Action(32))  # type: ignore[arg-type]
    assert type(Action(np.int16(32)).id) is int  # type: ignore[arg-type]
    assert Action("knock 9c").id == 52 + rk.Card("9C") and Action(" Draw_Stock ") == Action(104)
    assert Action.from_id(np.uint8(5)) == Action(5)  # type: ignore[arg-type]
    with pytest.raises(IllegalActionError, match="not an action id"):
        Action.from_id("discard 7H")  # type: ignore[arg-type]
    with pytest.raises(IllegalActionError, match="expected e.g. 'discard 7H'"):
        Action("discard the joker")  # type: ignore[arg-type]
    assert {str(Action(i)) for i in range(NUM_ACTIONS)} == {
        str(parse_action(str(Action(i)))) for i in range(NUM_ACTIONS)
    }


@pytest.mark.parametrize(
    ("text", "named"),
    [
        (None, "not action text: None"),
        (7, "not action text: 7"),
        ("A" * 1_000_000, "too long"),
        ("lay off 7H on 9", "lay off 7H on 1"),
        ("lay off 7H on ²", "lay off 7H on 1"),
        ("lay off 7H on " + "1" * 5000, "too long"),
        ("meld 7H 8H", "not a meld"),
        ("meld 7H ZZ", "ZZ"),
        ("fly", "expected e.g."),
    ],
    ids=lambda v: clip(v, 30),
)
def test_parse_action_says_what_was_expected(text: object, named: str) -> None:
    with pytest.raises(IllegalActionError, match=named) as info:
        parse_action(text)  # type: ignore[arg-type]
    assert len(str(info.value)) < 300


def test_table_action_ids() -> None:
    from rummykit.table.actions import DRAW, MELD_RUN, MELD_SET, TAKE
    from rummykit.table.actions import LAYOFF as T_LAYOFF
    from rummykit.table.actions import NUM_ACTIONS as T_NUM

    for good in (0, 52, DRAW, TAKE, T_LAYOFF, MELD_SET, MELD_SET + 13 * 64 - 1, MELD_RUN, T_NUM - 1):
        assert rk.TableAction(good).id == good == rk.TableAction.from_id(np.int64(good)).id  # type: ignore[arg-type]
        assert rk.TableAction(good).kind != "?"
    for bad in (-1, TAKE + 1, T_LAYOFF - 1, MELD_SET + 13 * 64, MELD_RUN - 1, T_NUM, 10**100, None, 1.5, True, [1]):
        for make in (rk.TableAction, rk.TableAction.from_id):
            with pytest.raises(IllegalActionError, match="not a table-game action id"):
                make(bad)  # type: ignore[arg-type]
    assert rk.TableAction("draw").id == DRAW  # type: ignore[arg-type]
    state = rk.Game("rummy").new_hand(seed=1, dealer=0)
    assert state.parse_action("draw") == DRAW and state.action_text(np.int64(DRAW)) == "draw"  # type: ignore[arg-type]
    for text, named in (
        ("lay off 7H on 41", "slot 1..40"),
        ("lay off 7H on ³", "slot 1..40"),
        ("release 7H from " + "9" * 5000, "too long"),
        ("release 7H from 99", "release 7H from 1"),
        ("discard Q", "not an action"),
        ("hop", "expected e.g."),
        (None, "not action text"),
    ):
        with pytest.raises(IllegalActionError, match=named):
            state.parse_action(text)  # type: ignore[arg-type]


@pytest.mark.parametrize("game", ["gin", "oklahoma-gin"])
def test_knocks_are_the_discards_that_reach_the_limit(game: str) -> None:
    """Near-threshold hands (meld-dense, and random): each knock id is legal
    exactly when the hand without that card is within the hand's knock limit
    (the engine skips the search when no card can get there; brute force
    here)."""
    g = rk.Game(game)
    rng = np.random.default_rng(15)
    for trial in range(300):
        if trial % 3:  # meld-dense: 11 cards from 3-5 adjacent ranks
            start, width = int(rng.integers(13)), int(rng.integers(3, 6))
            pool = [s * 13 + (start + r) % 13 for r in range(width) for s in range(4)]
        else:
            pool = list(range(52))
        eleven = [int(c) for c in rng.choice(pool, 11, replace=False)]
        rest = [int(c) for c in rng.permutation([c for c in range(52) if c not in eleven])]
        deck = [0] * 52
        deck[0:20:2], deck[20] = eleven[:10], eleven[10]  # seat 0's ten cards, then the upcard
        deck[1:20:2], deck[21:] = rest[:10], rest[10:]
        state = g.new_hand(deck=deck, dealer=1)
        state.apply_action(TAKE)
        assert state.phase_name == "discard" and state.hands[0] == sum(1 << c for c in eleven)
        forbid = state.taken if g.rules.forbid_discarding_taken_card else -1
        knocks = {a - KNOCK for a in state.legal_actions() if KNOCK <= a < KNOCK + 52}
        expected = {
            c
            for c in eleven
            if c != forbid and deadwood([rk.Card(x) for x in eleven if x != c], aces=g.rules.aces) <= state.knock_max
        }
        assert knocks == expected, (trial, sorted(eleven))
