"""Knock states built from bytes: every byte of a pickled
state's struct and of its undo entries tampered, one at a time, with
hostile values.  Loading either refuses with a RummykitError, or gives a
state that every verb handles: getters, legal actions, observation,
result, undo to the deal and play to the end.  A crash would end the run."""

from __future__ import annotations

import pickle
from typing import Any

import numpy as np
import pytest
from long_runs import LONG

import rummykit as rk
from rummykit.agents import GreedyAgent
from rummykit.errors import RummykitError

VALUES = (0x00, 0x01, 0x34, 0x7F, 0x80, 0xFF)


def positions() -> list[rk.KnockState]:
    """A fresh deal, mid-hand states, a manual showdown and finished hands."""
    out = []
    rng = np.random.default_rng(1)
    for name, options in (
        ("gin", {}),
        ("oklahoma-rummy", {"num_players": 4, "stock_end_rule": "reshuffle"}),
        ("gin", {"auto_showdown": False}),
    ):
        game = rk.Game(name, **options)
        state = game.new_hand(seed=3, dealer=0)
        out.append(state.clone())
        while not state.is_terminal():
            legal = state.legal_actions()
            action = GreedyAgent(8)(state) if rng.random() < 0.7 else legal[int(rng.integers(len(legal)))]
            state.apply_action(action)
            if len(state.history) in (7, 30) or state.phase_name == "showdown":
                out.append(state.clone())
        out.append(state)
    return out


def exercise(state: Any) -> None:
    """Every verb on a loaded state: it must answer or raise a RummykitError."""
    try:
        state.hands, state.stock, state.discards, state.known, state.drawn, repr(state)
        for seat in range(state.n):
            state.observation_tensor(seat)
            state.information_state_string(seat)
            if not state.is_terminal():
                state.determinize(seat, 1).legal_actions()
        state.legal_actions()
        state.result, state.showdown, state.returns()
        copy = state.clone()
        while copy._undo_depth:
            copy.undo()
            copy.legal_actions()
        for _ in range(400):
            if state.is_terminal():
                break
            state.apply_action(state.legal_actions()[0])
        state.result
    except RummykitError:
        pass


def tampered(raw: bytes, offset: int, value: int) -> bytes:
    return raw[:offset] + bytes([value]) + raw[offset + 1 :]


@pytest.mark.parametrize("index", range(len(positions())))
def test_every_byte_of_the_struct_and_undo_entries(index: int) -> None:
    state = positions()[index]
    func, args = state.__reduce__()
    cls, game, deck, raw, stack, history, steps, drawn = args
    refused = loaded = 0
    step = 1 if LONG else 3
    targets: list[tuple[str, int]] = [("raw", o) for o in range(0, len(raw), step)]
    if stack:
        targets += [("entry", o) for o in range(0, len(raw), step * 2)]
    for where, offset in targets:
        for value in VALUES:
            if where == "raw":
                bad = (cls, game, deck, tampered(raw, offset, value), stack, history, steps, drawn)
            else:
                bad = (cls, game, deck, raw, [*stack[:-1], tampered(stack[-1], offset, value)], history, steps, drawn)
            try:
                other = func(*bad)
            except RummykitError:
                refused += 1
                continue
            loaded += 1
            exercise(other)
    assert refused > 0 and loaded > 0


def test_a_pickle_round_trip_and_bad_containers() -> None:
    for state in positions():
        copy = pickle.loads(pickle.dumps(state))
        assert copy.to_json() == state.to_json() and copy.legal_actions() == state.legal_actions()
    state = positions()[2]
    func, (cls, game, deck, raw, stack, history, steps, drawn) = state.__reduce__()
    for bad in (
        (cls, game, deck, raw[:-1], stack, history, steps, drawn),  # another layout
        (cls, game, deck, raw, stack, history[:-1], steps, drawn),  # history and step log disagree
        (cls, game, deck, raw, stack, history, [*steps[:-1], -1], drawn),  # a bad step
        (cls, game, deck, raw, [*stack, stack[-1]], history, steps, drawn),  # more undo entries than actions
        (cls, game, deck, raw, stack, history, steps, ((99,),) * state.n),  # a draw log of non-cards
        (cls, game, deck, raw, stack, history, steps, "drawn"),
    ):
        with pytest.raises(RummykitError):
            func(*bad)
