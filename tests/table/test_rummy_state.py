"""The Rummy state machine: random play invariants for every player count,
undo, clone, records, action text and bad input."""

from __future__ import annotations

import random

import pytest
from long_runs import LONG
from table_helpers import check_invariants, position, random_hand

import rummykit as rk
from rummykit.table.record import from_json, to_json

HANDS = 80 if LONG else 6


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_random_play_invariants(n: int) -> None:
    game = rk.Game("rummy", num_players=n)
    for seed in range(HANDS):
        state = random_hand(game, seed, check_invariants)
        assert state.current_player == -4 and state.legal_actions() == []
        result = state.result
        assert result is not None
        if result.outcome in ("out", "rummy"):
            assert result.points[result.winner] == sum(result.hand_values) * (2 if result.outcome == "rummy" else 1)


@pytest.mark.parametrize(
    "options",
    [
        {"ace_rank": "high_or_low", "allow_wraparound": True},
        {"restock_method": "turn_over", "max_restocks": 2},
        {"restock_method": "block"},
        {"taken_discard_must_be_melded": True, "go_out_requires_discard": True, "no_go_out_first_turn": True},
        {"max_melds_per_turn": 1, "forbid_discarding_taken_card": False, "rummy_scoring": "penalty"},
    ],
)
def test_random_play_options_never_stuck(options: dict[str, object]) -> None:
    game = rk.Game("rummy", num_players=3, **options)
    for seed in range(HANDS // 2):
        random_hand(game, seed, check_invariants)


def test_undo_restores_exactly_and_clone_is_independent() -> None:
    state = rk.Game("rummy", num_players=3).new_hand(seed=5)
    rng = random.Random(5)
    snapshots = []
    while not state.is_terminal():
        snapshots.append(
            (state.hands, state.table, state.stock, state.discards, state.legal_actions(), state.current_player)
        )
        state.apply_action(rng.choice(state.legal_actions()))
    copy = state.clone()
    while snapshots:
        state.undo()
        assert (
            state.hands,
            state.table,
            state.stock,
            state.discards,
            state.legal_actions(),
            state.current_player,
        ) == snapshots.pop()
    assert copy.is_terminal() and not state.is_terminal()
    with pytest.raises(rk.IllegalActionError, match="nothing to undo"):
        state.undo()
    other = state.clone()
    other.apply_action(other.legal_actions()[0])
    assert state.history == [] and other.history != []


def test_action_text_round_trips() -> None:
    game = rk.Game("rummy", num_players=2, ace_rank="high_or_low")
    rng = random.Random(3)
    for seed in range(6):
        state = game.new_hand(seed=seed)
        while not state.is_terminal():
            for a in state.legal_actions():
                assert state.parse_action(state.action_text(a)) == a
                assert rk.TableAction.from_id(a).id == a
            state.apply_action(rng.choice(state.legal_actions()))


def test_records_round_trip() -> None:
    game = rk.Game("rummy", num_players=4, restock_method="turn_over")
    for seed in range(5):
        state = random_hand(game, seed)
        copy = from_json(to_json(state))
        assert copy.history == state.history and copy.result == state.result
        assert rk.TableState.from_json(state.to_json()).result == state.result


@pytest.mark.parametrize(
    ("mutate", "error"),
    [
        (lambda r: r.replace('"family": "table"', '"family": "knock"'), rk.InvalidOptionError),
        (lambda r: r.replace('"version": 1', '"version": 9'), rk.InvalidOptionError),
        (lambda r: r.replace('"deck": ["', '"deck": ["AS", "'), rk.InvalidCardError),
        (lambda r: r.replace('"actions": ["', '"actions": ["discard ZZ", "'), rk.IllegalActionError),
        (lambda r: r.replace('"outcome": "', '"outcome": "x'), rk.InvalidOptionError),
        (lambda r: r[:40], rk.InvalidOptionError),
    ],
)
def test_bad_records_rejected(mutate: object, error: type[Exception]) -> None:
    state = random_hand(rk.Game("rummy"), 1)
    with pytest.raises(error):
        from_json(mutate(to_json(state)))  # type: ignore[operator]


def test_bad_input_leaves_the_state_unchanged() -> None:
    state = position(rk.Game("rummy"), ["7H 8H 9H 2C", "KC QC"], played=1)
    before = (state.hands, state.table, state.history[:], state.legal_actions())
    for text, words in [
        ("meld 7H 8H TH", "not a valid set or run"),
        ("discard 5S", "not in seat 0's hand"),
        ("lay off 2C on 1", "no table meld 1"),
        ("draw", "already drawn"),
        ("fly away", "not an action"),
        ("meld 2C 3C 4C", "not in seat 0's hand"),
    ]:
        with pytest.raises(rk.IllegalActionError, match=words):
            state.play(text)
    with pytest.raises(rk.IllegalActionError, match="out of turn"):
        state.play("discard 2C", player=1)
    with pytest.raises(rk.IllegalActionError):
        state.play(999_999_999)
    assert (state.hands, state.table, state.history, state.legal_actions()) == before


def test_game_factory_and_names() -> None:
    for name in ("rummy", "kaluki", "kalooki", "kalooki_51"):
        assert name in rk.game_names(aliases=True)
        assert isinstance(rk.Game(name), rk.TableGame)
    with pytest.raises(rk.InvalidMeldError):
        rk.Game("rummy").meld_value("7H 8H TH")
