"""Benchmarks of the knock-game engine (Gin, Oklahoma Gin, Oklahoma Rummy).

Random play driven through ``legal_actions()`` + ``apply_action()`` from
Python, ``clone()``, ``legal_actions()`` and ``observation_tensor()``;
compared with OpenSpiel's ``gin_rummy`` in the same run when ``pyspiel`` is
installed.  Targets (issue 15): random two-player Gin >= 20x OpenSpiel's
speed, ``clone()`` >= 40x OpenSpiel's, ``observation_tensor()`` <= 5 µs.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from benchutil import openspiel_random_play, ratio, record

import rummykit as rk

HANDS = 200


def random_hands(game: rk.KnockGame, hands: int, seed: int) -> int:
    """Plays `hands` random hands, dealt from one numpy Generator (as a user
    dealing many hands would; a fresh Generator per int seed costs more than
    the deal); returns the number of actions."""
    rng = random.Random(seed)
    deals = np.random.default_rng(seed)
    actions = 0
    for _ in range(hands):
        state = game.new_hand(seed=deals)
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
        actions += len(state.history)
    return actions


@pytest.mark.parametrize(
    ("name", "options", "key"),
    [
        ("gin", {}, "gin2"),
        ("oklahoma-gin", {}, "okgin2"),
        ("oklahoma-rummy", {"num_players": 3, "max_turns": 300}, "ok3"),
        ("oklahoma-rummy", {"num_players": 4, "max_turns": 300}, "ok4"),
    ],
)
def test_random_play(benchmark, figures, name, options, key):
    game = rk.Game(name, **options)
    actions = benchmark.pedantic(random_hands, args=(game, HANDS, 1), rounds=3, iterations=1)
    assert actions > HANDS * 20
    value = record(benchmark, figures, f"knock_{key}_hand", f"random {name} {game.num_players}p hand", HANDS, unit="us")
    if value is not None:
        figures.add(
            f"knock_{key}_rate",
            f"random {name} {game.num_players}p hands/s",
            1e6 / value,
            "/s",
            target=">= 20x OpenSpiel" if key == "gin2" else "",
        )
        # per step, for the table games' "within 2x of Gin's" (test_bench_table.py)
        figures.add(f"knock_{key}_step", f"random {name} {game.num_players}p step", value * HANDS / actions, "us")


def mid_hand_state() -> rk.KnockState:
    state = rk.Game("gin").new_hand(seed=7, dealer=0)
    rng = random.Random(7)
    while len(state.history) < 20 or state.phase_name != "discard":
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def test_clone(benchmark, figures):
    state = mid_hand_state()
    copies = benchmark(lambda: [state.clone() for _ in range(1000)])
    assert copies[0].hands == state.hands and copies[0] is not state
    record(
        benchmark,
        figures,
        "knock_clone",
        "KnockState.clone() (gin, 20 actions in)",
        1000,
        unit="us",
        target=">= 40x OpenSpiel",
    )


@pytest.mark.parametrize(
    ("name", "options", "key"),
    [("gin", {}, "gin2"), ("oklahoma-rummy", {"num_players": 4}, "ok4"), ("gin", {"auto_showdown": False}, "manual")],
)
def test_observation_tensor(benchmark, figures, name, options, key):
    """observation_tensor() of every seat at 20 points of a seeded random hand, the end included."""
    game = rk.Game(name, **options)
    state = game.new_hand(seed=11, dealer=0)
    rng = random.Random(11)
    states = []
    while not state.is_terminal():
        states.append(state.clone())
        state.apply_action(rng.choice(state.legal_actions()))
    states = states[:: max(1, len(states) // 19)] + [state]
    calls = [(s, seat) for s in states for seat in range(game.num_players)]
    out = benchmark(lambda: [s.observation_tensor(seat) for s, seat in calls])
    assert all(t.shape == out[0].shape for t in out)
    record(
        benchmark,
        figures,
        f"knock_obs_{key}",
        f"observation_tensor() ({name} {game.num_players}p{', manual showdown' if key == 'manual' else ''})",
        len(calls),
        unit="us",
        target="<= 5 us",
    )


def test_legal_actions(benchmark, figures):
    state = mid_hand_state()

    def fresh() -> list[int]:
        for _ in range(1000):
            state._legal = None  # time the computation, not the cache
            legal = state.legal_actions()
        return legal

    legal = benchmark(fresh)
    assert legal == sorted(legal) and len(legal) >= 10
    record(
        benchmark,
        figures,
        "knock_legal",
        "legal_actions() in the discard step (uncached)",
        1000,
        unit="us",
        target="<= 2 us",
    )


def test_openspiel_random_play(benchmark, figures):
    pytest.importorskip("pyspiel", reason="pyspiel (open-spiel) is not installed")
    actions, _ = benchmark.pedantic(openspiel_random_play, args=(50, 1), rounds=3, iterations=1)
    assert actions > 50 * 20
    record(benchmark, figures, "openspiel_gin_hand", "OpenSpiel gin_rummy random hand", 50, unit="us")
    ratio(
        benchmark,
        figures,
        "knock_vs_openspiel",
        "random gin hands: rummykit / OpenSpiel speed",
        "openspiel_gin_hand",
        "knock_gin2_hand",
    )


def test_openspiel_clone(benchmark, figures):
    pyspiel = pytest.importorskip("pyspiel", reason="pyspiel (open-spiel) is not installed")
    state = pyspiel.load_game("gin_rummy").new_initial_state()
    rng = random.Random(3)
    while state.move_number() < 30:
        if state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    benchmark(lambda: [state.clone() for _ in range(1000)])
    record(benchmark, figures, "openspiel_clone", "OpenSpiel gin_rummy clone()", 1000, unit="us")
    ratio(
        benchmark,
        figures,
        "clone_vs_openspiel",
        "clone(): rummykit / OpenSpiel speed",
        "openspiel_clone",
        "knock_clone",
    )
