"""Invariants of random play in every knock variant and player count
(a short run by default; RUMMYKIT_LONG=1 plays >= 10,000 hands)."""

from __future__ import annotations

import random

import pytest

import rummykit as rk

VARIANTS = [
    ("gin", {}),
    ("gin", {"first_turn_procedure": "normal", "stock_end_rule": "dead_at_2_last_chance"}),
    ("gin", {"stock_end_rule": "dead_on_draw", "big_gin_bonus": 31, "allow_ace_high_run": True}),
    ("gin_classic_pagat", {}),
    ("oklahoma-gin", {}),
    ("oklahoma-gin", {"stock_end_rule": "reshuffle", "max_restocks": 1, "knocker_arrangement": "best_score"}),
    ("oklahoma_gin_150", {"refused_upcard_set_aside": True}),
    ("oklahoma-rummy", {"num_players": 3, "max_turns": 300}),
    ("oklahoma-rummy", {"num_players": 4, "layoff_onto_prior_layoffs": True, "max_restocks": 2}),
    ("oklahoma_seed002", {"num_players": 4, "max_restocks": 2}),
    ("oklahoma_ring_seed003", {"num_players": 3, "max_restocks": 2}),
    ("gin_multi", {"num_players": 3, "max_restocks": 2}),
    ("gin", {"auto_showdown": False}),
    ("partnership_oklahoma", {"max_turns": 300}),
    ("oklahoma-rummy", {"num_players": 4, "auto_showdown": False, "layoff_onto_prior_layoffs": True, "max_turns": 300}),
]


def play_random(state: rk.KnockState, rng: random.Random, max_actions: int = 5_000) -> None:
    deck = (1 << 52) - 1
    while not state.is_terminal():
        legal = state.legal_actions()
        assert legal and legal == sorted(set(legal))
        cards = sum(state.hands) | sum(1 << c for c in state.stock) | sum(1 << c for c in state.discards)
        aside = [c for c in (state.set_aside, state.knock_card) if c >= 0]  # refused upcard, face-down knock card
        cards |= sum(1 << c for c in aside)
        count = sum(h.bit_count() for h in state.hands) + len(state.stock) + len(state.discards) + len(aside)
        assert cards == deck and count == 52, "cards conserved, none in two places"
        state.apply_action(rng.choice(legal))
        assert len(state.history) <= max_actions, "the hand terminates"
    assert state.legal_actions() == [] and state.result is not None


def check_hands(name: str, options: dict[str, object], count: int, seed: int) -> None:
    game = rk.Game(name, **options)
    rng = random.Random(seed)
    for i in range(count):
        state = game.new_hand(seed=seed * 100_000 + i)
        play_random(state, rng)
        result = state.result
        assert result is not None
        assert len(result.points) == game.num_players
        if result.outcome == "dead":
            assert result.points == (0,) * game.num_players and result.boxes == (0,) * game.num_players
        else:
            assert result.winner is not None and result.boxes[result.winner] >= 1
            if not game.rules.partnerships:
                assert sum(result.points) == result.credits[result.winner] - sum(result.charges)
            if game.rules.scoring_model == "net_collect":
                bonus = {"gin": 20, "knock": 10, "undercut": 10}[result.outcome] * result.multiplier
                assert sum(result.points) == bonus, "net_collect is zero-sum apart from the bonus"
        # undo back to the deal and replay: the same end
        replay = state.clone()
        actions = list(replay.history)
        while replay.history:
            replay.undo()
        fresh = game.new_hand(seed=seed * 100_000 + i)
        assert (replay.hands, replay.stock, replay.discards, replay.phase) == (
            fresh.hands,
            fresh.stock,
            fresh.discards,
            fresh.phase,
        )
        for a in actions:
            replay.apply_action(a)
        assert replay.result == state.result and replay.hands == state.hands


@pytest.mark.parametrize(("name", "options"), VARIANTS, ids=[f"{n}-{i}" for i, (n, _) in enumerate(VARIANTS)])
def test_random_play_invariants(name: str, options: dict[str, object]) -> None:
    check_hands(name, options, 40, seed=1)


@pytest.mark.long
@pytest.mark.parametrize(("name", "options"), VARIANTS, ids=[f"{n}-{i}" for i, (n, _) in enumerate(VARIANTS)])
def test_long_random_play_invariants(name: str, options: dict[str, object]) -> None:
    check_hands(name, options, 700, seed=2)


def test_clone_is_independent() -> None:
    state = rk.Game("gin").new_hand(seed=4)
    copy = state.clone()
    copy.apply_action(copy.legal_actions()[0])
    assert len(state.history) == 0 and len(copy.history) == 1
    assert state.legal_actions() == [105, 106]


def test_same_seed_same_hand() -> None:
    a, b = rk.Game("oklahoma-rummy").new_hand(seed=9), rk.Game("oklahoma-rummy").new_hand(seed=9)
    assert (a.hands, a.stock, a.dealer, a.upcard) == (b.hands, b.stock, b.dealer, b.upcard)
    import numpy as np

    c = rk.Game("oklahoma-rummy").new_hand(seed=np.random.default_rng(9))
    assert c.hands == a.hands
