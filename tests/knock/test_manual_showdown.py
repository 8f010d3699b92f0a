"""Manual showdown (auto_showdown=False): defenders declare melds and lay-offs as actions."""

from __future__ import annotations

import pytest

import rummykit as rk
from rummykit import IllegalActionError


def o02_state(**options: object) -> rk.KnockState:
    """EX-O02 in play: seat 1 knocks with 7-8-9-TH, Q-Q-Q (deadwood 6) after drawing KD."""
    knocker = ["7H", "8H", "9H", "TH", "QC", "QD", "QS", "2S", "3D", "AC"]
    defender = ["9C", "TC", "JC", "5S", "5D", "5C", "JH", "6H", "4C", "4D"]
    used = set(knocker + defender + ["2C", "KD"])
    rest = [str(c) for c in rk.from_mask((1 << 52) - 1) if str(c) not in used]
    deck = [c for pair in zip(knocker, defender) for c in pair] + ["2C", "KD"] + rest
    game = rk.Game("gin", first_turn_procedure="normal", auto_showdown=False, **options)
    state = game.new_hand(deck=deck, dealer=0)
    state.play("draw stock", player=1)
    state.play("knock KD", player=1)
    return state


def test_ex_o02_declared_layoffs() -> None:
    state = o02_state()
    assert state.phase_name == "showdown" and state.current_player == 0
    legal = {str(rk.Action(a)) for a in state.legal_actions()}
    assert {"meld 9C TC JC", "meld 5C 5D 5S", "lay off 6H on 2", "lay off JH on 2", "done"} <= legal
    assert "lay off 4C on 2" not in legal
    for action in ("lay off 6H on 2", "lay off JH on 2", "meld 9C TC JC", "meld 5C 5D 5S", "done"):
        state.play(action, player=0)
    result = state.result
    assert result is not None and state.is_terminal()
    assert (result.outcome, result.winner, result.deadwood, result.points) == ("knock", 1, (8, 6), (0, 2))
    assert [str(c) for lo in result.layoffs[0] for c in lo.cards] == ["6H", "JH"]


def test_declaring_nothing_leaves_all_deadwood() -> None:
    state = o02_state()
    state.play("done")
    assert state.result is not None and state.result.deadwood == (68, 6) and state.result.points == (0, 62)


def test_chained_layoffs_must_be_in_order_and_undo() -> None:
    state = o02_state()
    state.play("lay off 6H on 2")
    before = state.legal_actions()
    with pytest.raises(IllegalActionError, match="undeclared"):
        state.play("lay off 6H on 2")  # already laid off
    state.play("lay off JH on 2")
    state.undo()
    assert state.legal_actions() == before


def test_no_layoffs_when_banned() -> None:
    state = o02_state(allow_layoff_on_knock=False)
    assert not any(str(rk.Action(a)).startswith("lay off") for a in state.legal_actions())
