"""Table-game action ids from the C codec (csrc/include/rummykit/table.h), and action text."""

from __future__ import annotations

import numpy as np
import pytest

import rummykit as rk
from rummykit import _core
from rummykit.table.actions import MELD_RUN, TableAction, id_pattern, layoff_id, pattern_id
from rummykit.table.melds import RUN, Pattern


def test_run_ids_round_trip_through_the_c_codec() -> None:
    for suit, start, length, mask in [(0, 0, 3, 0), (3, 13, 13, 0b1010), (2, 5, 7, 1)]:
        action_id = _core.table_run_id(suit, start, length, mask)
        assert action_id == MELD_RUN + ((suit * 14 + start) * 14 + length) * 8192 + mask
        assert _core.table_run_of(action_id) == (suit, start, length, mask)
        assert id_pattern(action_id) == Pattern(RUN, suit, start, length, mask)
        assert pattern_id(id_pattern(action_id)) == action_id
    assert layoff_id(3, 52, 1) == _core.TABLE_ACTION_IDS["layoff"] + (3 * 53 + 52) * 2 + 1


def test_outcome_names_come_from_the_engine() -> None:
    from rummykit.table.scoring import OUTCOMES

    assert _core.TABLE_OUTCOMES == (None, "dead", "blocked", "rummy", "out", "hunt", "call_off")
    assert set(OUTCOMES) == set(_core.TABLE_OUTCOMES[1:])
    assert _core.KNOCK_OUTCOMES == ("dead", "gin", "big_gin", "knock", "undercut")


@pytest.mark.parametrize("game", ["rummy", "kaluki"])
def test_action_text_of_an_id_that_is_no_action_raises(game: str) -> None:
    state = rk.Game(game).new_hand(seed=1)
    with pytest.raises(rk.IllegalActionError, match="not an action of"):
        state.action_text(12345)  # a run-meld id no run of the game has
    for action_id in (0, 53, 54, _core.table_run_id(0, 1, 3, 0)):
        assert state.parse_action(state.action_text(action_id)) == action_id


def test_table_action_reads_text_and_a_bare_card_discards() -> None:
    assert TableAction("3C") == TableAction("discard 3c") == TableAction(2)
    assert TableAction("take").kind == "take" and TableAction("meld 7H 7D 7C").kind == "meld"
    assert TableAction("lay off 7H on 2 high") == TableAction(layoff_id(1, 32, 1))
    assert TableAction("release 7H 7S from 1").kind == "release"
    with pytest.raises(rk.IllegalActionError, match="depends on the game"):
        TableAction("meld 7H 8H 9H")
    kaluki, rummy = rk.Game("kaluki"), rk.Game("rummy")
    assert TableAction("meld 7H 8H 9H", kaluki) != TableAction("meld 7H 8H 9H", rummy)  # other run positions
    with pytest.raises(rk.IllegalActionError, match="too many jokers"):
        TableAction("meld 7H 7D Jk", rummy)
    with pytest.raises(rk.IllegalActionError, match="needs the state"):
        TableAction("release 7H from 1")
    with pytest.raises(rk.InvalidOptionError, match="game must be a table game"):
        TableAction("meld 7H 8H 9H", rk.Game("gin"))
    for game in ("rummy", "kaluki"):
        state = rk.Game(game).new_hand(seed=3)
        state.play("draw")
        card = state.hand(state.player)[0]
        state.play(str(card))
        assert state.history[-1] == int(card)


@pytest.mark.parametrize("game", ["rummy", "kaluki"])
def test_table_action_text_with_the_game_is_the_state_parse(game: str) -> None:
    """Every legal action's text reads, with the game and no state, as the state reads it;
    releasing one natural (a run's or a set's: only the table says) raises naming the state."""
    rng = np.random.default_rng(5)
    seen = set()
    for seed in range(6):
        state = rk.Game(game).new_hand(seed=seed)
        while not state.is_terminal():
            for action_id in state.legal_actions():
                text = state.action_text(action_id)
                kind = TableAction(action_id).kind
                seen.add(kind)
                if kind == "release" and len(text.split()) == 4:
                    with pytest.raises(rk.IllegalActionError, match="needs the state"):
                        TableAction(text, state.game)
                else:
                    assert TableAction(text, state.game).id == action_id == state.parse_action(text), text
            legal = state.legal_actions()
            state.apply_action(legal[int(rng.integers(len(legal)))])
    assert {"discard", "draw", "take", "meld", "lay off"} <= seen
