"""Games and states pickle (worker processes, replay buffers) and deep-copy:
the copy has the same legal actions, record and undo history as the original."""

from __future__ import annotations

import copy
import pickle
import random

import pytest

import rummykit as rk
from rummykit.errors import RummykitError


@pytest.mark.parametrize("name", rk.game_names(aliases=True))
def test_states_pickle_and_deepcopy(name: str) -> None:
    state = rk.Game(name).new_hand(seed=1)
    rng = random.Random(2)
    for _ in range(30):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    for other in (pickle.loads(pickle.dumps(state)), copy.deepcopy(state)):
        assert other is not state and other.history == state.history
        assert other.legal_actions() == state.legal_actions() and other.to_json() == state.to_json()
        other.undo()
        assert other.history == state.history[:-1]
        assert len(state.history) == len(other.history) + 1  # the original is untouched


def test_a_table_state_pickled_with_another_layout_is_refused() -> None:
    state = rk.Game("rummy").new_hand(seed=1)
    func, args = state.__reduce__()
    with pytest.raises(RummykitError, match="layout"):
        func(*args[:4], args[4][:-8], *args[5:])
