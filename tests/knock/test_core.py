"""The C knock engine (``KnockState`` over csrc/src/knock_engine.c) in
lockstep with the plain Python oracle (tests/reference/knock.py): the same
deck, options and actions give the same legal actions, fields, greedy
policy choice and result (melds and lay-offs included) at every step, with
explicit knocker melds, the manual showdown, undo and clone mixed in."""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np
import pytest
from long_runs import LONG
from reference.knock import ReferenceKnockState, reference_observation_tensor
from reference.knock import _knock_greedy as reference_greedy

import rummykit as rk
from rummykit.agents import GreedyAgent
from rummykit.analysis import arrangements
from rummykit.errors import IllegalActionError, InvalidMeldError
from rummykit.knock.actions import KNOCK

VARIANTS: list[tuple[str, dict[str, Any]]] = [
    ("gin", {}),
    ("gin", {"auto_showdown": False}),
    ("gin", {"stock_end_rule": "reshuffle", "max_restocks": 2}),
    ("gin", {"stock_end_rule": "dead_at_2_last_chance"}),
    ("gin", {"knocker_arrangement": "best_score", "knock_compare": "lt", "undercut_on_tie": False}),
    ("gin", {"big_gin_bonus": 31, "forbid_discarding_taken_card": False, "refused_upcard_set_aside": True}),
    ("gin", {"allow_layoff_on_knock": False, "max_turns": 30}),
    ("oklahoma-gin", {}),
    ("oklahoma-gin", {"auto_showdown": False, "stock_end_rule": "dead_on_draw"}),
    ("oklahoma-gin", {"ace_upcard_gin_only": False, "first_turn_procedure": "normal"}),
    ("oklahoma-rummy", {}),
    ("oklahoma-rummy", {"num_players": 4, "layoff_onto_prior_layoffs": True}),
    ("oklahoma-rummy", {"num_players": 4, "auto_showdown": False, "layoff_onto_prior_layoffs": True}),
    ("oklahoma-rummy", {"stock_end_rule": "reshuffle", "knocker_arrangement": "best_score"}),
    ("partnership_oklahoma", {}),
    ("partnership_oklahoma", {"auto_showdown": False}),
]
HANDS = 300 if LONG else 12

_FIELDS = (
    "phase",
    "player",
    "hands",
    "stock",
    "discards",
    "known",
    "taken",
    "restocks",
    "set_aside",
    "knock_card",
    "turns",
    "drawn",
    "shown_melds",
    "result",
    "upcard",
    "limit",
    "gin_only",
    "multiplier",
    "history",
)


def showdown_fields(sd: Any) -> Any:
    return None if sd is None else dataclasses.astuple(sd)


def assert_same(c: rk.KnockState, ref: ReferenceKnockState, where: str) -> None:
    for name in _FIELDS:
        assert getattr(c, name) == getattr(ref, name), f"{where}: {name}"
    assert showdown_fields(c.showdown) == showdown_fields(ref.showdown), f"{where}: showdown"
    assert c.legal_actions() == ref.legal_actions(), f"{where}: legal actions"
    assert c.returns() == ref.returns(), f"{where}: returns"
    assert c.current_player == ref.current_player and c.is_terminal() == ref.is_terminal()
    for seat in range(c.n):  # the C observation tensor against the Python one, on the same state
        assert np.array_equal(c.observation_tensor(seat), reference_observation_tensor(c, seat)), f"{where}: tensor"
    if not c.is_terminal():
        for knock_at in (None, 0, 5):
            agent = GreedyAgent(knock_at)
            assert agent(c) == reference_greedy(ref, knock_at), f"{where}: greedy({knock_at})"


def explicit_melds(state: rk.KnockState, card: int, rng: np.random.Generator) -> list[Any] | None:
    """A random arrangement the knocker may show after discarding ``card`` (or None)."""
    final = state.hands[state.player] & ~(1 << card)
    options = arrangements(final, max_deadwood=state.knock_max, aces=state.rules.aces)
    if not options:
        return None
    chosen = options[int(rng.integers(len(options)))]
    melds = list(chosen.melds)
    rng.shuffle(melds)  # the order shown is the lay-off table's order
    return melds


@pytest.mark.parametrize(("game", "options"), VARIANTS, ids=[f"{g}-{i}" for i, (g, _) in enumerate(VARIANTS)])
def test_lockstep_with_the_reference(game: str, options: dict[str, Any]) -> None:
    g = rk.Game(game, **options)
    rng = np.random.default_rng(sum(map(ord, game)) + len(options))
    ends: dict[str, int] = {}
    for hand in range(HANDS):
        c = g.new_hand(seed=rng, dealer=hand % g.num_players)
        ref = ReferenceKnockState(g, list(c.deck), c.dealer, c.shuffle_seed)
        greedy = GreedyAgent(int(rng.integers(0, 11)) if hand % 2 else None)
        step = 0
        while True:
            where = f"hand {hand} step {step}"
            assert_same(c, ref, where)
            if c.is_terminal():
                break
            legal = c.legal_actions()
            action = greedy(c) if rng.random() < 0.6 else legal[int(rng.integers(len(legal)))]
            if KNOCK <= action < KNOCK + 52 and rng.random() < 0.5:
                melds = explicit_melds(c, action - KNOCK, rng)
                if melds is not None:
                    c.knock(action - KNOCK, melds)
                    ref.knock(action - KNOCK, melds)
                    step += 1
                    continue
            if rng.random() < 0.1 and c.history:  # undo and redo
                c.undo()
                ref.undo()
                assert_same(c, ref, where + " undo")
                continue
            copy = c.clone()
            c.apply_action(action)
            ref.apply_action(action)
            if rng.random() < 0.05:
                assert copy.legal_actions() == legal  # the clone did not move
            step += 1
        result = c.result
        assert result is not None
        ends[result.outcome] = ends.get(result.outcome, 0) + 1
    assert sum(ends.values()) == HANDS


def test_explicit_melds_refused_like_the_reference() -> None:
    """A knock with melds the rules refuse: the same exception type in both, the state unchanged."""
    g = rk.Game("gin")
    rng = np.random.default_rng(3)
    refused = 0
    for seed in range(200):
        c = g.new_hand(seed=seed, dealer=0)
        ref = ReferenceKnockState(g, list(c.deck), c.dealer, c.shuffle_seed)
        while not c.is_terminal():
            knocks = [a for a in c.legal_actions() if KNOCK <= a < KNOCK + 52]
            if knocks:
                card = knocks[0] - KNOCK
                final = c.hands[c.player] & ~(1 << card)
                bad = [[rk.Card(x) for x in range(52) if final >> x & 1][:3]]  # rarely a meld
                before = c.to_json()
                errors = []
                for state in (c, ref):
                    try:
                        state.knock(card, bad)
                    except (IllegalActionError, InvalidMeldError) as e:
                        errors.append(type(e))
                if errors:
                    assert len(errors) == 2 and errors[0] is errors[1]
                    assert c.to_json() == before
                    refused += 1
                break
            action = GreedyAgent()(c) if rng.random() < 0.7 else int(rng.choice(c.legal_actions()))
            if KNOCK <= action < KNOCK + 52:
                action -= KNOCK  # keep playing: discard instead
            c.apply_action(action)
            ref.apply_action(action)
    assert refused > 5
