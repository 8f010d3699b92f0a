"""Every game through the one protocol (rummykit.GameState): the same checks for Gin,
Oklahoma Gin, Oklahoma Rummy, Rummy and Kaluki at every player count, touching only the
protocol's verbs (no family-specific attribute).

* a seeded random simulation to the end of the hand;
* at every step of a few hands: ``clone``, ``undo``, ``to_json``/``rummykit.from_json`` and
  pickle give back the same state, and a clone is independent;
* ``action_text``/``parse_action`` round-trip every legal action;
* a seat's observation does not depend on the others' hidden cards (two determinizations
  for the seat look the same to it), and ``determinize`` keeps what the seat knows (its
  hand, the top discard, the legal actions on its turn).

The default run is a few seconds; RUMMYKIT_LONG=1 (or ``-m long``) runs every player count,
more hands and the checks at every step of whole hands.
"""

from __future__ import annotations

import pickle
import random
from typing import Any

import numpy as np
import pytest

import rummykit as rk
from rummykit.cards import Card

#: (game, players, options): every game at its default and its smallest and largest count
QUICK = [
    ("gin", 2, {}),
    ("gin", 4, {}),
    ("gin", 2, {"auto_showdown": False}),  # the manual showdown: meld and lay-off actions
    ("oklahoma_gin", 2, {}),
    ("oklahoma_rummy", 3, {}),
    ("rummy", 2, {}),
    ("rummy", 6, {}),
    ("kaluki", 2, {}),
    ("kaluki", 5, {}),
]
COUNTS = {"gin": (2, 3, 4), "oklahoma_gin": (2, 3, 4), "oklahoma_rummy": (2, 3, 4), "rummy": range(2, 7)}
COUNTS["kaluki"] = range(2, 6)
EVERY = [(g, n, {}) for g, counts in COUNTS.items() for n in counts]
EVERY += [("gin", n, {"auto_showdown": False}) for n in (2, 3)] + [("oklahoma_gin", 2, {"auto_showdown": False})]
EVERY = [c for c in EVERY if c not in QUICK]

#: steps checked in full per hand in the quick run (the round trips replay the whole history)
QUICK_STEPS = 30


def _id(config: tuple[str, int, dict[str, Any]]) -> str:
    game, n, options = config
    return f"{game}-{n}" + "".join(f"-{k}={v}" for k, v in options.items())


def _params(configs: list[tuple[str, int, dict[str, Any]]], long: bool) -> list[Any]:
    marks = [pytest.mark.long] if long else []
    return [pytest.param(c, id=_id(c), marks=marks) for c in configs]


CONFIGS = _params(QUICK, False) + _params(EVERY, True)


def _game(config: tuple[str, int, dict[str, Any]]) -> rk.Game:
    name, n, options = config
    if name in ("gin", "oklahoma_gin") and n > 2:  # the upcard offer and classic scoring are for two
        options = {"first_turn_procedure": "normal", "scoring_model": "net_collect", **options}
    return rk.Game(name, num_players=n, max_turns=200, **options)


def _policy(rng: random.Random) -> Any:
    """Mostly greedy, sometimes random: hands end, and every kind of action turns up."""
    greedy = rk.GreedyAgent()

    def act(state: rk.GameState) -> int:
        legal = state.legal_actions()
        return rng.choice(legal) if rng.random() < 0.3 else int(greedy(state))

    return act


def snapshot(state: rk.GameState) -> tuple[Any, ...]:
    """The state as the protocol shows it (Kaluki: card types, not which deck's copy)."""
    return (
        state.current_player,
        state.is_terminal(),
        state.returns(),
        list(state.history),
        state.legal_actions(),
        [state.hand(s) for s in range(state.n)],
        state.top_discard,
        len(state.stock),
        len(state.discards),
        state.phase_name,
    )


def seat_view(state: rk.GameState, seat: int) -> tuple[Any, ...]:
    """What ``seat`` may know, as the protocol gives it."""
    return (
        state.observation_tensor(seat).tobytes(),
        state.information_state_string(seat),
        state.hand(seat),
        state.top_discard,
    )


def _hand(config: tuple[str, int, dict[str, Any]], seed: int) -> rk.GameState:
    state = _game(config).new_hand(seed=seed, dealer=seed % config[1])
    assert isinstance(state, rk.GameState)
    return state


@pytest.mark.parametrize("config", CONFIGS)
def test_random_simulation_to_the_end(config: tuple[str, int, dict[str, Any]]) -> None:
    game = _game(config)
    assert isinstance(game, rk.Game) and game.num_players == config[1]
    for seed in range(3):
        state = _hand(config, seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            legal = state.legal_actions()
            assert legal and legal == sorted(legal) and 0 <= state.current_player < state.n
            state.apply_action(rng.choice(legal))
        assert state.legal_actions() == [] and state.current_player < 0
        assert len(state.returns()) == state.n and state.result is not None
        for seat in range(state.n):
            assert all(isinstance(c, Card) for c in state.hand(seat))


def _check_step(state: rk.GameState) -> None:
    """The round trips and action text of one step."""
    before = snapshot(state)
    twin = state.clone()
    assert snapshot(twin) == before
    assert snapshot(rk.from_json(state.to_json())) == before
    assert snapshot(pickle.loads(pickle.dumps(state))) == before
    for action in state.legal_actions():
        text = state.action_text(action)
        assert isinstance(text, str) and state.parse_action(text) == action, (action, text)
    if not state.is_terminal():
        twin.apply_action(state.legal_actions()[0])  # a clone is independent
        assert snapshot(state) == before
        twin.undo()
        assert snapshot(twin) == before


@pytest.mark.parametrize("config", CONFIGS)
def test_round_trips_at_every_step(config: tuple[str, int, dict[str, Any]]) -> None:
    long = config not in QUICK
    for seed in range(5 if long else 1):
        state = _hand(config, seed)
        act = _policy(random.Random(seed))
        steps = 0
        while not state.is_terminal():
            if long or steps < QUICK_STEPS:
                _check_step(state)
            before = snapshot(state)
            state.apply_action(act(state))
            steps += 1
            if long or steps < QUICK_STEPS:
                after, action = snapshot(state), state.history[-1]
                state.undo()
                assert snapshot(state) == before
                state.apply_action(action)
                assert snapshot(state) == after
        _check_step(state)  # the finished hand


@pytest.mark.parametrize("config", CONFIGS)
def test_observation_is_independent_of_hidden_cards(config: tuple[str, int, dict[str, Any]]) -> None:
    long = config not in QUICK
    for seed in range(7, 10 if long else 8):
        state = _hand(config, seed)
        act = _policy(random.Random(seed))
        steps = 0
        while not state.is_terminal():
            if long or steps % 7 == 0:
                for seat in range(state.n):
                    view = seat_view(state, seat)
                    for rng in (1, 2):
                        other = state.determinize(seat, np.random.default_rng(rng))
                        assert isinstance(other, rk.GameState)
                        assert seat_view(other, seat) == view, (steps, seat)
                        if seat == state.current_player:
                            assert other.legal_actions() == state.legal_actions()
                            assert other.current_player == seat
            state.apply_action(act(state))
            steps += 1
