"""The table games' hidden information kept in C (csrc/src/table_hidden.c) against the
plain Python oracle of tests/reference/table_observe.py, which walks the whole history
for every answer and imports none of it:

* the hidden lists (``rummykit.table.playouts.hidden_lists``: each group's unseen
  cards, the other seats' places, the cards they played unseen, the joker bans, the
  known cards) are the oracle's, for every seat, along random hands of Rummy 2-6
  players and Kaluki 2-5 (with restocks of both kinds, blocked stocks, four jokers,
  Kalooki 51, seats out of the hand as after a Kaluki elimination, the end of the hand);
* a determinized state (the C world: sampled places, rebuilt deck, replayed history)
  looks to its seat exactly as the real one does by the oracle's reading, the oracle's
  hidden lists of it are the real state's, it pickles, and undo takes it back to the
  deal with the oracle's view agreeing with the real one's on the way.

A few steps of one hand per variant by default; RUMMYKIT_LONG=1 plays more hands and
checks every step.
"""

from __future__ import annotations

import pickle
import random
from typing import Any

import pytest
from long_runs import LONG
from reference import table_observe as ref
from table.test_observe_core import hurry

import rummykit as rk
from rummykit.table.cards import card_type
from rummykit.table.playouts import hidden_lists
from rummykit.table.state import TableState

VARIANTS: list[tuple[str, dict[str, Any]]] = [
    ("rummy", {}),
    ("rummy", {"num_players": 3}),
    ("rummy", {"num_players": 4, "max_restocks": 2}),
    ("rummy", {"num_players": 5}),
    ("rummy", {"num_players": 6}),
    ("rummy", {"num_players": 3, "restock_method": "turn_over"}),
    ("rummy", {"num_players": 4, "restock_method": "block"}),
    ("rummy", {"taken_discard_must_be_melded": True, "ace_rank": "high_or_low"}),
    ("kaluki", {}),
    ("kaluki", {"num_players": 3}),
    ("kaluki", {"num_players": 4, "ace_low_runs": True}),
    ("kaluki", {"num_players": 5, "kaluki_jokers": 4, "joker_discard_allowed": False}),
    ("kalooki_51", {"num_players": 3}),
]
IDS = [f"{name}-{i}" for i, (name, _) in enumerate(VARIANTS)]


def check_world(state: TableState, player: int, seed: int, rng: random.Random) -> None:
    """A determinization of ``state`` for ``player``, read by the oracle."""
    det = state.determinize(player, seed)
    assert ref.information_state_string(det, player) == ref.information_state_string(state, player)
    assert ref.observation(det, player) == ref.observation(state, player)
    assert ref.hidden_lists(det, player) == ref.hidden_lists(state, player)
    assert sorted(det.deck) == sorted(state.deck)
    copy = pickle.loads(pickle.dumps(det))  # its undo entries are made first
    assert (copy.hands, copy.stock, copy.history, copy._steps) == (det.hands, det.stock, det.history, det._steps)
    # undo to the deal, the oracle's view agreeing with the real one's on the way
    looks = set(rng.sample(range(len(state.history)), min(2, len(state.history))))
    back, real = det.clone(), state.clone()
    while back.history:
        back.undo()
        real.undo()
        if len(back.history) in looks:
            assert ref.observation(back, player) == ref.observation(real, player)
    assert [card_type(c) for c in back.deck] == [card_type(c) for c in det.deck]


def play(name: str, options: dict[str, Any], seed: int, absent: int = 0) -> dict[str, int]:
    """One random hand, checked at a few steps (RUMMYKIT_LONG=1: every step) and at its end."""
    game = rk.Game(name, **options)
    rng = random.Random(seed)
    if absent:
        deck = list(range(game.rules.deck_size))
        rng.shuffle(deck)
        state = TableState(game, deck, dealer=0, shuffle_seed=seed, absent=absent)
    else:
        state = game.new_hand(seed=seed)
    final = state.clone()
    while not final.is_terminal():
        final.apply_action(hurry(final, rng))
    steps = len(final.history)
    # the oracle walks the whole history for every answer: a few early steps and the end by default
    checks = set(range(steps)) if LONG else set(rng.sample(range(min(steps, 150)), min(steps, 5)))
    checks.add(steps)
    seen = {"nodes": 0, "fills": 0, "bans": 0, "groups": 0}
    for k in range(steps + 1):
        if k in checks:
            for p in state.seats:
                lists = hidden_lists(state, p)
                assert lists == ref.hidden_lists(state, p), f"seat {p}, step {k}"
                seen["nodes"] += 1
                seen["fills"] += bool(lists.fills)
                seen["bans"] += bool(lists.bans)
                seen["groups"] += len(lists.pools) > 1
            check_world(state, rng.choice(state.seats), rng.randrange(2**32), rng)
        if k < steps:
            state.apply_action(final.history[k])
    assert state.is_terminal()
    return seen


@pytest.mark.parametrize(("name", "options"), VARIANTS, ids=IDS)
def test_hidden_lists_are_the_oracles(name: str, options: dict[str, Any]) -> None:
    total: dict[str, int] = {}
    for hand in range(8 if LONG else 1):
        for key, value in play(name, options, seed=100 + hand).items():
            total[key] = total.get(key, 0) + value
    assert total["nodes"] > 5 and total["fills"], total


def test_hidden_lists_with_seats_out_of_the_hand() -> None:
    """Kaluki after an elimination: the absent seat has no places and is dealt nothing."""
    seen = play("kaluki", {"num_players": 4}, seed=7, absent=0b0100)
    assert seen["nodes"] and seen["fills"]
