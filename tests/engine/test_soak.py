"""Soak: random play across every variant and player count, with the
invariants checked after every action, and memory that stays flat.

Every action: the legal actions are sorted and distinct, every card is in
exactly one place (tests/knock/test_invariants.py and
tests/table_helpers.py hold those checks), the hand ends within a bound.
Every hand: the points add up where the game is zero-sum (net_collect knock
scoring apart from its bonus; Rummy's winner takes the losers' hand
values).  Every few hands: a clone agrees, undo back to the deal gives the
deal, and replaying the history gives the same record.  A short run by
default; RUMMYKIT_LONG=1 plays over a million actions (see SOAK_ACTIONS).
"""

from __future__ import annotations

import gc
import random
import tracemalloc
from typing import Any

import pytest
from knock.test_invariants import VARIANTS as KNOCK_VARIANTS
from knock.test_invariants import play_random
from long_runs import LONG
from table_helpers import check_invariants

import rummykit as rk

TABLE_VARIANTS: list[tuple[str, dict[str, Any]]] = [
    *[("rummy", {"num_players": n}) for n in (2, 3, 4, 5, 6)],
    ("rummy", {"ace_rank": "high_or_low", "allow_wraparound": True, "restock_method": "turn_over"}),
    *[("kaluki", {"num_players": n}) for n in (2, 3, 4, 5)],
    ("kalooki_51", {"num_players": 3}),
    ("kaluki", {"num_players": 3, "ace_low_runs": True, "max_build_per_run_end": "unlimited"}),
]
VARIANTS = [*KNOCK_VARIANTS, *TABLE_VARIANTS]
IDS = [f"{name}-{i}" for i, (name, _) in enumerate(VARIANTS)]

#: actions per variant: the long run plays >= 1,000,000 in all
SOAK_ACTIONS = 1_000_000 // len(VARIANTS) + 1 if LONG else 400
MAX_ACTIONS_PER_HAND = 5_000
REPLAY_EVERY = 5


def play_table(state: Any, rng: random.Random) -> None:
    while not state.is_terminal():
        legal = state.legal_actions()
        assert legal and legal == sorted(set(legal)), "legal actions sorted and distinct"
        state.apply_action(rng.choice(legal))
        check_invariants(state)
        assert len(state.history) <= MAX_ACTIONS_PER_HAND, "the hand terminates"
    assert state.legal_actions() == [] and state.result is not None


def check_points(game: Any, state: Any) -> None:
    result = state.result
    assert len(result.points) == game.num_players
    if game.family == "knock":
        if result.outcome == "dead":
            assert result.points == (0,) * game.num_players
        elif game.rules.scoring_model == "net_collect":
            bonus = {"gin": 20, "knock": 10, "undercut": 10}[result.outcome] * result.multiplier
            assert sum(result.points) == bonus, "net_collect is zero-sum apart from the bonus"
    elif game.rules.game == "rummy" and result.outcome in ("out", "rummy"):
        assert sum(result.points) == sum(result.hand_values) * (2 if result.outcome == "rummy" else 1)


def check_replay(game: Any, seed: int, state: Any) -> None:
    """Clone, undo to the deal and replay agree with the hand played."""
    copy = state.clone()
    assert copy.to_json() == state.to_json() and copy.legal_actions() == state.legal_actions()
    actions = list(copy.history)
    while copy.history:
        copy.undo()
    fresh = game.new_hand(seed=seed)
    assert copy.to_json() == fresh.to_json() and copy.legal_actions() == fresh.legal_actions()
    for a in actions:
        copy.apply_action(a)
    assert copy.to_json() == state.to_json() and copy.result == state.result
    assert type(state).from_json(state.to_json()).to_json() == state.to_json()


def soak(name: str, options: dict[str, Any], actions: int, seed: int) -> int:
    """Play hands of the variant until `actions` actions are played; the hands played."""
    game = rk.Game(name, **options)
    rng = random.Random(seed)
    played = hands = 0
    while played < actions:
        hand_seed = seed * 1_000_003 + hands
        state = game.new_hand(seed=hand_seed)
        if game.family == "knock":
            play_random(state, rng, MAX_ACTIONS_PER_HAND)
        else:
            play_table(state, rng)
        check_points(game, state)
        if hands % REPLAY_EVERY == 0:
            check_replay(game, hand_seed, state)
        played += len(state.history)
        hands += 1
    return hands


@pytest.mark.parametrize(("name", "options"), VARIANTS, ids=IDS)
def test_soak(name: str, options: dict[str, Any]) -> None:
    assert soak(name, options, SOAK_ACTIONS, seed=17) >= 1


def traced_after(game: Any, seeds: range) -> int:
    """Traced memory (bytes) after playing a random hand for each seed, the states dropped."""
    for seed in seeds:
        rng = random.Random(seed)
        state = game.new_hand(seed=seed)
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
        state.to_json()
    del state
    gc.collect()
    return tracemalloc.get_traced_memory()[0]


#: the most traced memory N -> 3N replayed hands may add: no engine keeps anything per hand (the
#: table games' memo of Kaluki opening answers is a fixed C table allocated with the game)
GROWTH_BOUND = {name: 16 * 1024 for name in ("gin", "oklahoma-rummy", "rummy", "kaluki")}


@pytest.mark.parametrize("name", sorted(GROWTH_BOUND))
def test_memory_stays_flat(name: str) -> None:
    """Traced memory after 3N hands exceeds that after N by less than a small bound,
    and no state outlives its hand.

    The hands are played once first: the engine memoises pure functions of
    card patterns (rules tables, meld options), bounded by the number of
    patterns, and a replay finds them warm."""
    game = rk.Game(name)
    n = 40 if LONG else 6
    alive = live_states()
    traced_after(game, range(3 * n))
    tracemalloc.start()
    try:
        base = traced_after(game, range(n))
        grown = traced_after(game, range(3 * n))
    finally:
        tracemalloc.stop()
    assert grown - base < GROWTH_BOUND[name], f"{name}: {grown - base} bytes more after {3 * n} hands than after {n}"
    assert live_states() <= alive, "a state outlived its hand"


def live_states() -> int:
    # type(o), not isinstance: isinstance reads __class__, which deprecated module proxies (torch's,
    # when an extras test imported it into this worker) answer with a warning
    return sum(issubclass(type(o), (rk.KnockState, rk.TableState)) for o in gc.get_objects())
