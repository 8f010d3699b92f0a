"""Refusal messages: the C engine names the rule (rk_knock_why, rk_table_why),
each family words it once (rummykit.knock.reasons, rummykit.table.reasons)."""

from __future__ import annotations

import random

import pytest

import rummykit as rk
from rummykit._core import KNOCK_REASONS, TABLE_REASONS
from rummykit.knock import reasons as knock_reasons
from rummykit.knock.actions import NUM_ACTIONS as KNOCK_ACTIONS
from rummykit.table import reasons as table_reasons
from rummykit.table.actions import LAYOFF, MELD_RUN, MELD_SET, RELEASE_RUN, RELEASE_SET

GAMES = ["gin", "oklahoma-gin", "oklahoma-rummy", "rummy", "kaluki"]


def sample_ids(state: object, rng: random.Random) -> list[int]:
    """Every knock id; for a table state the discards, draws, lay-offs and releases on the table
    (and one slot past it), a sample of sets and runs, and the legal runs' neighbours."""
    if isinstance(state, rk.KnockState):
        return list(range(KNOCK_ACTIONS))
    slots = len(state.table) + 1  # type: ignore[attr-defined]
    ids = list(range(55))
    for slot in range(slots):
        ids += [LAYOFF + (slot * 53 + t) * 2 + e for t in range(53) for e in (0, 1)]
        ids += [RELEASE_RUN + slot * 52 + t for t in range(52)] + [RELEASE_SET + slot * 16 + m for m in range(16)]
    ids += rng.sample(range(MELD_SET, MELD_SET + 13 * 64), 40)
    runs = [a for a in state.legal_actions() if a >= MELD_RUN]  # type: ignore[attr-defined]
    ids += [a + d for a in runs for d in (1, 8192, -8192)]
    ids += rng.sample(range(MELD_RUN, MELD_RUN + 4 * 14 * 14 * 8192), 40)
    return ids


@pytest.mark.parametrize("game", GAMES)
def test_every_illegal_action_is_refused_with_its_rule(game: str) -> None:
    rng = random.Random(game)
    state = rk.Game(game).new_hand(seed=5)
    generic = ("not allowed now", "not legal now", "{", "}")
    for _ in range(10 if game == "kaluki" else 24):
        if state.is_terminal():
            break
        legal = set(state.legal_actions())
        for action_id in sample_ids(state, rng):
            why = state.why_illegal(action_id)
            assert (why is None) == (action_id in legal), (action_id, why)
            if why is not None:
                assert why and not any(g in why for g in generic), why
                try:
                    head = state.action_text(action_id).split()[0]
                except rk.IllegalActionError:  # a meld id no hand of this game can lay: no action text
                    head = f"action {action_id}"
                assert head in why, why
        state.apply_action(max(legal) if rng.random() < 0.6 else rng.choice(sorted(legal)))


@pytest.mark.parametrize("game", GAMES)
def test_checked_verbs_are_one_implementation(game: str) -> None:
    state = rk.Game(game).new_hand(seed=2)
    legal = state.legal_actions()
    seat = state.current_player
    other = (seat + 1) % state.n
    action = legal[0]
    assert state.can_act(action) and state.verify_action(action) == action and state.why_illegal(action) is None
    with pytest.raises(rk.IllegalActionError, match=f"out of turn: it is seat {seat}'s turn, not {other}'s"):
        state.play(action, player=other)
    assert state.why_illegal(action, player=other) is not None
    assert state.legal_actions() == legal
    state.play(action, player=seat)
    assert state.history == [action]


def test_every_reason_has_one_message_that_formats() -> None:
    knock = rk.Game("gin").new_hand(seed=1)
    for reason in KNOCK_REASONS[1:]:
        text = knock_reasons.message(knock, reason, 0, (7, 9), 1)
        assert text and "{" not in text
    assert set(knock_reasons.MESSAGES) == set(KNOCK_REASONS[1:])
    for game in ("rummy", "kaluki"):
        table = rk.Game(game).new_hand(seed=1)
        for reason in TABLE_REASONS[1:]:
            text = table_reasons.message(table, reason, 0, 3, 1)
            assert text and "{" not in text
    assert set(table_reasons.MESSAGES) == set(TABLE_REASONS[1:])
    assert len(set(knock_reasons.MESSAGES.values())) == len(knock_reasons.MESSAGES)
    assert len(set(table_reasons.MESSAGES.values())) == len(table_reasons.MESSAGES)


def test_terminal_why_no_knock_asks_the_engine() -> None:
    from rummykit.knock.view import why_no_knock

    state = rk.Game("gin").new_hand(seed=1)
    assert why_no_knock(state).startswith("knock: take the upcard or pass first")
    state.play("pass")
    state.play("pass")
    state.play("draw stock")
    text = why_no_knock(state)
    assert "over the knock limit 10" in text or "this leaves deadwood" in text
