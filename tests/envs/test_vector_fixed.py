"""VectorGame's action spaces for the table games: the fixed ids (the default) against the dense
per-state index of the same seed (the same move played either way gives the same rows), the
mask exactly the legal moves' fixed ids, ``action_text`` naming the same kind and cards for one
id in every row and state, and the knock games' 686 engine ids unchanged.  RUMMYKIT_LONG=1
plays longer runs."""

from __future__ import annotations

import re

import numpy as np
import pytest
from long_runs import LONG

from rummykit.errors import InvalidOptionError
from rummykit.table import fixed
from rummykit.vector import VectorGame

SCALE = 10 if LONG else 1


def canonical(text: str) -> str:
    """A move's text with jokers written as the cards they stand for (a run's placement is the engine's)."""
    return re.sub(r"Jk=(\S+)", r"\1", text)


@pytest.mark.parametrize(("name", "options"), [("rummy", {"num_players": 3}), ("kaluki", {}), ("kalooki_51", {})])
def test_fixed_and_dense_play_the_same_moves(name: str, options: dict[str, object]) -> None:
    batch = 3
    fixed_vg = VectorGame(name, batch, seed=9, **options)
    dense_vg = VectorGame(name, batch, seed=9, action_space="dense", **options)
    assert fixed_vg.num_actions == fixed.NUM_ACTIONS and dense_vg.num_actions == 4096
    rng = np.random.default_rng(2)
    for step in range(60 * SCALE):
        states = [fixed_vg.state(i) for i in range(batch)]
        actions = fixed_vg.sample_actions(rng)
        dense = np.empty(batch, np.int64)
        for i, state in enumerate(states):
            legal = state.legal_actions()
            ids = sorted({fixed.fixed_id(a) for a in legal})
            assert len(ids) == len(legal)  # no two legal moves share an id
            assert np.flatnonzero(fixed_vg.legal_mask[i]).tolist() == ids
            assert fixed_vg.num_legal[i] == dense_vg.num_legal[i] == len(legal)
            action_id = fixed.engine_id(legal, int(actions[i]))
            assert action_id is not None
            dense[i] = legal.index(action_id)
            if step % 10 == 0:
                a = int(actions[i])
                assert (
                    fixed_vg.action_text(i, a) == dense_vg.action_text(i, int(dense[i])) == state.action_text(action_id)
                )
        assert np.array_equal(fixed_vg.step(actions), dense_vg.step(dense))
        for arr in ("observation", "current_player", "terminated", "num_legal", "hand_outcome"):
            assert np.array_equal(getattr(fixed_vg, arr), getattr(dense_vg, arr)), arr
    for i in range(batch):
        assert fixed_vg.state(i).history == dense_vg.state(i).history


@pytest.mark.parametrize("name", ["rummy", "kaluki"])
def test_an_id_names_the_same_move_in_every_state(name: str) -> None:
    """``action_text(row, a)``: for each fixed id seen legal, the same kind and cards everywhere
    (runs with their jokers written as the cards they stand for; a set release by its slot and
    suits), and the id's state-free text (``fixed.fixed_text``)."""
    vg = VectorGame(name, 4, seed=21)
    vg.set_opponents("greedy")  # the opponents meld and lay off, so the learner meets full tables
    rng = np.random.default_rng(4)
    seen: dict[int, set[str]] = {}
    for _ in range(40 * SCALE):
        for i in range(vg.batch):
            for a in np.flatnonzero(vg.legal_mask[i]).tolist():
                text = vg.action_text(i, a)
                kind = fixed.KINDS[int(fixed.factor([a])[0, 0])]
                if kind == "release_set":
                    text = re.sub(
                        r"release (.*) from",
                        lambda m: "release " + "".join(c[-1] for c in m[1].split()) + " from",
                        text,
                    )
                    assert text.replace("release ", "release naturals of ") == fixed.fixed_text(vg.game, a)
                else:
                    assert canonical(text) == fixed.fixed_text(vg.game, a)
                seen.setdefault(a, set()).add(canonical(text))
        vg.step(vg.sample_actions(rng))
    assert all(len(texts) == 1 for texts in seen.values())
    assert len(seen) > 60


def test_knock_games_keep_their_engine_ids() -> None:
    vg = VectorGame("gin", 2, seed=1)
    assert vg.num_actions == 686 and vg.action_space == "fixed"
    state = vg.state(0)
    assert np.flatnonzero(vg.legal_mask[0]).tolist() == state.legal_actions()
    with pytest.raises(InvalidOptionError, match="no dense action index"):
        VectorGame("gin", 2, seed=1, action_space="dense")
    with pytest.raises(InvalidOptionError, match="action_space"):
        VectorGame("rummy", 2, seed=1, action_space="engine")
