"""Views as data: every view of random matches of every game is plain JSON that the shipped
schema validates, and holds nothing its seat may not know (two states that differ only in
cards hidden from the seat give the same view)."""

from __future__ import annotations

import json
import os
import random
from typing import Any

import jsonschema
import numpy as np
import pytest
from match_helpers import IDS, MATCHES, mixed_agent

import rummykit as rk
from rummykit.engine.views import SCHEMA_PATH, view_schema
from rummykit.errors import InvalidOptionError

LONG = os.environ.get("RUMMYKIT_LONG", "") not in ("", "0")

VALIDATOR = jsonschema.Draft202012Validator(view_schema())


def test_the_schema_is_a_valid_json_schema_shipped_in_the_package() -> None:
    jsonschema.Draft202012Validator.check_schema(view_schema())
    assert SCHEMA_PATH.parent.name == "engine" and SCHEMA_PATH.is_file()


def _check(view: dict[str, Any]) -> None:
    VALIDATOR.validate(view)
    assert json.loads(json.dumps(view)) == view  # plain JSON types only


@pytest.mark.parametrize(("name", "options"), MATCHES, ids=IDS)
def test_every_view_of_random_matches_fits_the_schema(name: str, options: dict[str, Any]) -> None:
    every = 1 if LONG else 9
    match = rk.Match(name, seed=4, **options)
    agent = mixed_agent(4)
    _check(match.view())
    while not match.is_over and match.hands_played < (50 if LONG else 3):
        state = match.deal()
        step = 0
        while not state.is_terminal():
            if step % every == 0:
                for seat in (None, *range(match.num_players)):
                    view = match.view(seat, since=max(0, len(state.history) - 4))
                    _check(view)
                    assert view["action_count"] == len(state.history)
                    assert view["legal"] == [] or [a["id"] for a in view["legal"]] == state.legal_actions()
                    assert (view["legal"] != []) == (seat == state.current_player)
                    assert seat is not None or view["hand"] == []
                _check(state.view(state.current_player))
            state.play(agent(state))
            step += 1
        match.finish_hand()
        for seat in (None, *range(match.num_players)):
            view = match.view(seat, since=0)
            _check(view)
            assert view["result"] is not None and len(view["events"]) == len(state.history)
    assert match.view(0)["match"]["hands_played"] == match.hands_played


def _positions(name: str, options: dict[str, Any], seed: int, count: int) -> list[Any]:
    """States along random hands of the game (a whole match's hands, Kaluki eliminations too)."""
    match = rk.Match(name, seed=seed, **options)
    agent = mixed_agent(seed)
    rng = random.Random(seed)
    out = []
    while not match.is_over and len(out) < count:
        state = match.deal()
        while not state.is_terminal():
            if rng.random() < 0.15:
                out.append(state.clone())
            state.play(agent(state))
        match.finish_hand()
    return out


@pytest.mark.parametrize(("name", "options"), MATCHES, ids=IDS)
def test_a_view_holds_nothing_hidden_from_its_seat(name: str, options: dict[str, Any]) -> None:
    """Hidden-card swaps: a determinization for a seat (the cards hidden from it resampled) gives
    that seat the same view, and the spectator the same view as any seat's determinization."""
    gen = np.random.default_rng(1)
    changed = 0
    for state in _positions(name, options, seed=2, count=60 if LONG else 8):
        for seat in range(state.n):
            other = state.determinize(seat, gen)
            changed += any(other.hand(q) != state.hand(q) for q in range(state.n) if q != seat)
            assert other.view(seat, since=0) == state.view(seat, since=0)
            assert other.view(None, since=0) == state.view(None, since=0)
    assert changed > 0  # the swaps did change hidden cards


def test_views_refuse_a_bad_seat_or_index() -> None:
    state = rk.Game("gin").new_hand(seed=1, dealer=0)
    with pytest.raises(InvalidOptionError, match="seat"):
        state.view(2)
    with pytest.raises(InvalidOptionError, match="since"):
        state.view(0, since=1)
    match = rk.Match("rummy", num_players=3, seed=1)
    assert match.view(1)["phase"] == "not_dealt" and match.view(1)["match"]["in_hand"] is False
    with pytest.raises(InvalidOptionError, match="seat"):
        match.view(3)


def test_events_tell_what_changed_since_an_index() -> None:
    state = rk.Game("gin").new_hand(seed=1, dealer=0)
    for text in ("pass", "pass", "draw stock"):
        state.play(text)
    own, other = state.view(1, since=1), state.view(0, since=1)
    assert [e["index"] for e in own["events"]] == [1, 2]
    assert own["events"][-1]["text"].startswith("seat 1: draw stock ")  # the seat sees its own draw
    assert other["events"][-1] == {"index": 2, "seat": 1, "text": "seat 1: draw stock", "id": 104}
