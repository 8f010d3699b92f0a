"""Fuzzing the Python edge with hypothesis: card text, action text (knock and
table states), option values and hand-history JSON.

Whatever the input, a call either succeeds or raises a
:class:`rummykit.errors.RummykitError` (a ``ValueError``) with a message;
never another exception type, and a refused action leaves the state as it
was (same ``to_json()`` and ``legal_actions()``).  Short by default;
RUMMYKIT_LONG=1 runs many more examples.
"""

from __future__ import annotations

import dataclasses
import json
import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from long_runs import LONG

import rummykit as rk
from rummykit.errors import RummykitError
from rummykit.knock import record as knock_record
from rummykit.knock.rules import KnockRules
from rummykit.table import record as table_record
from rummykit.table.rules import TableRules

EXAMPLES = settings(
    max_examples=5_000 if LONG else 150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    derandomize=not LONG,  # the default run is reproducible
)

CARD_ALPHABET = "A23456789TJQK10CDHSJkcdhs♣♦♥♠ ,\t\n-*?"
card_text = st.text(alphabet=CARD_ALPHABET, max_size=40) | st.text(max_size=20)


def fails_cleanly(call: Any, *args: Any, **kwargs: Any) -> object:
    """Run call: its result, or None after a RummykitError with a message.
    Any other exception propagates and fails the test."""
    try:
        return call(*args, **kwargs)
    except RummykitError as e:
        assert isinstance(e, ValueError) and str(e)
        return None


@EXAMPLES
@given(card_text)
def test_card_text(text: str) -> None:
    cards = fails_cleanly(rk.parse_cards, text)
    mask = fails_cleanly(rk.to_mask, text)
    assert (cards is None) == (mask is None)
    if isinstance(cards, list):
        assert rk.to_mask(cards) == mask
        assert rk.parse_cards(rk.cards_text(cards)) == sorted(cards)
        for call in (rk.deadwood, rk.best_melds, rk.melds, rk.discard_deadwoods):
            fails_cleanly(call, text)
    fails_cleanly(rk.parse_card, text)
    fails_cleanly(rk.parse_action, text)


# --- action text on states ------------------------------------------------------------

GAMES = [("gin", {}), ("oklahoma-gin", {}), ("oklahoma-rummy", {"num_players": 4}), ("rummy", {}), ("kaluki", {})]


def walked(game: int, seed: int, steps: int) -> Any:
    """A state of GAMES[game] after `steps` seeded random legal actions (fewer at the end)."""
    name, options = GAMES[game]
    state = rk.Game(name, **options).new_hand(seed=seed, dealer=0)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def action_words(state: Any) -> list[str]:
    """The words of the state's legal action texts, to splice into fuzzed text."""
    texts = [str(rk.Action(a)) if state.game.family == "knock" else state.action_text(a) for a in state.legal_actions()]
    return sorted({w for t in texts for w in t.split()} | {"draw", "stock", "take", "knock", "discard", "meld", "pass"})


@EXAMPLES
@given(
    st.integers(0, len(GAMES) - 1),
    st.integers(0, 2**32),
    st.integers(0, 60),
    st.data(),
)
def test_action_text(game: int, seed: int, steps: int, data: st.DataObject) -> None:
    state = walked(game, seed, steps)
    words = action_words(state)
    text = data.draw(
        st.lists(st.sampled_from(words) | st.text(max_size=6), max_size=6).map(" ".join) | st.text(max_size=30),
        label="action text",
    )
    before = (state.to_json(), state.legal_actions())
    legal_before = fails_cleanly(state.verify_action, text)
    try:
        state.play(text)
    except RummykitError as e:
        assert str(e) and legal_before is None
        assert (state.to_json(), state.legal_actions()) == before
        return
    assert legal_before is not None and state.history[-1] == legal_before


@EXAMPLES
@given(
    st.integers(0, len(GAMES) - 1),
    st.integers(0, 2**32),
    st.integers(0, 40),
    st.one_of(st.integers(-(2**70), 2**70), st.none(), st.floats(), st.booleans(), st.text(max_size=5)),
)
def test_action_ids(game: int, seed: int, steps: int, action: object) -> None:
    state = walked(game, seed, steps)
    before = (state.to_json(), state.legal_actions())
    if (type(action) is int and action in before[1]) or (isinstance(action, str) and state.can_act(action)):
        state.apply_action(action)  # a legal id, or legal action text such as "STOCK"
        return
    for verb in (state.apply_action, state.play):
        assert fails_cleanly(verb, action) is None
        assert (state.to_json(), state.legal_actions()) == before


any_value = st.one_of(
    st.integers(-(2**70), 2**70),
    st.integers(0, 700),
    st.integers(0, 8 * 10**6),
    st.none(),
    st.floats(),
    st.booleans(),
    st.text(max_size=30),
    st.text(alphabet="discardknockmeldlayofftakedrawpassonfrom 0123456789AJQKTCDHS", max_size=30),
    st.lists(st.integers(), max_size=3),
    st.binary(max_size=5),
)


@EXAMPLES
@given(any_value)
def test_action_constructors(value: object) -> None:
    """Action(x), TableAction(x) and their from_id: a valid action or a short RummykitError;
    an Action that was made always has a kind, a text and an id 0..685 that round-trips."""
    from rummykit.knock.actions import NUM_ACTIONS

    for make in (rk.Action, rk.Action.from_id, rk.TableAction, rk.TableAction.from_id):
        try:
            action = make(value)
        except RummykitError as err:
            assert 0 < len(str(err)) < 300
            continue
        assert type(action.id) is int and action.kind != "?"
        if isinstance(action, rk.Action):
            assert 0 <= action.id < NUM_ACTIONS and rk.Action(str(action)) == action
    for parse in (rk.parse_action, rk.parse_card, rk.parse_cards):
        fails_cleanly(parse, value)


# --- option values -----------------------------------------------------------------------

KNOCK_OPTIONS = sorted(f.name for f in dataclasses.fields(KnockRules) if f.name not in ("name", "given"))
TABLE_OPTIONS = sorted(f.name for f in dataclasses.fields(TableRules) if f.name not in ("name", "given", "game"))
json_scalars = st.none() | st.booleans() | st.integers(-(2**40), 2**40) | st.floats() | st.text(max_size=12)
option_values = json_scalars | st.lists(json_scalars, max_size=3) | st.sampled_from([1, 2, 3, 4, 10, 0, -1, "none"])


@EXAMPLES
@given(
    st.sampled_from(rk.game_names(aliases=True)),
    st.dictionaries(st.sampled_from(KNOCK_OPTIONS + TABLE_OPTIONS + ["colour"]), option_values, max_size=3),
    st.integers(0, 2**32),
)
def test_option_values(name: str, options: dict[str, Any], seed: int) -> None:
    game = fails_cleanly(rk.Game, name, **options)
    if game is None:
        return
    state = game.new_hand(seed=seed)  # an accepted game always deals and plays
    state.apply_action(state.legal_actions()[0])


# --- hand-history JSON -----------------------------------------------------------------------


def finished_record(name: str, seed: int, **options: Any) -> str:
    state = rk.Game(name, **options).new_hand(seed=seed, dealer=0)
    rng = random.Random(seed)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    text: str = state.to_json()
    return text


RECORDS = [
    (knock_record.from_json, finished_record("gin", 1)),
    (knock_record.from_json, finished_record("oklahoma-rummy", 2, num_players=3)),
    (table_record.from_json, finished_record("rummy", 3)),
    (table_record.from_json, finished_record("kaluki", 4)),
]
json_values = st.recursive(
    json_scalars,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=6,
)


@EXAMPLES
@given(st.integers(0, len(RECORDS) - 1), st.data())
def test_record_json(which: int, data: st.DataObject) -> None:
    read, text = RECORDS[which]
    record = json.loads(text)
    kind = data.draw(st.sampled_from(["value", "action", "deck", "truncate", "splice", "option"]), label="damage")
    if kind == "value":
        record[data.draw(st.sampled_from(sorted(record)))] = data.draw(json_values, label="value")
    elif kind == "action" and record["actions"]:
        i = data.draw(st.integers(0, len(record["actions"]) - 1))
        record["actions"][i] = data.draw(st.text(max_size=20) | json_values, label="action")
    elif kind == "deck":
        i, j = data.draw(st.integers(0, len(record["deck"]) - 1)), data.draw(st.integers(0, len(record["deck"]) - 1))
        record["deck"][i] = record["deck"][j]
    elif kind == "option":
        record["options"] = data.draw(
            st.dictionaries(st.sampled_from(KNOCK_OPTIONS + TABLE_OPTIONS), option_values, max_size=2)
        )
    damaged = json.dumps(record)
    if kind == "truncate":
        damaged = text[: data.draw(st.integers(0, len(text) - 1))]
    elif kind == "splice":
        at = data.draw(st.integers(0, len(text)))
        damaged = text[:at] + data.draw(st.text(max_size=8), label="spliced") + text[at:]
    state = fails_cleanly(read, damaged)
    if state is not None:  # a damaged record that still reads is a real hand: it writes back and reads again
        assert read(state.to_json()).to_json() == state.to_json()  # type: ignore[attr-defined]
