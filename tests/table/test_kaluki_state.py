"""The Kaluki state machine: options, random-play invariants, undo/clone,
records and bad input."""

from __future__ import annotations

import random

import pytest
from long_runs import LONG
from table_helpers import check_invariants, position, random_hand, texts

import rummykit as rk
from rummykit.errors import RummykitError
from rummykit.table.cards import JOKER, parse_types
from rummykit.table.record import from_json, to_json

ALL = 0b11111
HANDS = 40 if LONG else 2


def test_presets_and_deck() -> None:
    assert rk.Game("kalooki_51").rules.deck_size == 108
    state = rk.Game("kalooki_51", num_players=5).new_hand(seed=2)
    assert len(state.stock) == 108 - 65 - 1
    assert rk.Game("kalooki_51").card_penalty("Jk") == 25


def test_joker_discard_allowed() -> None:
    assert "discard Jk" in texts(position(rk.Game("kaluki"), ["Jk 2C", "KC"], opened=ALL))
    assert "discard Jk" not in texts(
        position(rk.Game("kaluki", joker_discard_allowed=False), ["Jk 2C", "KC"], opened=ALL)
    )


def test_taken_copy_restriction() -> None:
    # the restriction holds the physical card taken, not its other copy (docs/rules.md, Turn basics)
    state = position(rk.Game("kaluki"), ["9H 2C", "KC"], discards="9H", phase="draw", opened=ALL)
    state.play("take")
    taken = state.taken_card
    assert texts(state) == ["discard 2C", "discard 9H"]
    state.play("discard 9H")
    assert state.discards[-1] != taken and state.hands[0] >> taken & 1  # the held copy went
    assert texts(position(rk.Game("kaluki"), ["9H", "KC"], discards="9H", phase="draw", opened=ALL)) == [
        "draw",
        "take",
    ]  # the held 9H can go after taking the other
    alone = position(rk.Game("kaluki"), ["2C", "KC"], discards="9H", phase="draw", opened=ALL)
    alone.play("take")
    assert texts(alone) == ["discard 2C"]  # the taken card itself stays


@pytest.mark.parametrize(
    ("rule", "first", "can_take"),
    [
        ("forbidden", False, False),
        ("free", False, True),
        ("only_if_used_in_opening", True, True),
    ],
)
def test_unopened_discard_draw(rule: str, first: bool, can_take: bool) -> None:
    game = rk.Game("kaluki", unopened_discard_draw=rule, first_turn_upcard_free=first)
    state = position(game, ["2C 5D 9S", "KC"], discards="KH", phase="draw", opened=0, turns=0)
    assert (texts(state) == ["draw", "take"]) == can_take


def test_go_out_requires_discard() -> None:
    strict = position(rk.Game("kaluki"), ["7H 8H 9H", "KC"], opened=ALL)
    assert "meld 7H 8H 9H" not in texts(strict)
    free = position(rk.Game("kaluki", go_out_requires_discard=False), ["7H 8H 9H", "KC"], opened=ALL, played=1)
    free.play("meld 7H 8H 9H")
    assert free.result is not None and free.result.outcome == "call_off"


@pytest.mark.parametrize(("allows", "outcome"), [(True, "hunt"), (False, "call_off")])
def test_hunt_allows_building(allows: bool, outcome: str) -> None:
    game = rk.Game("kaluki", hunt_allows_building=allows)
    state = position(game, ["TS 2C", "KC"], table=(("7S 8S 9S", 1),), opened=ALL, played=0b10)
    state.play("build TS on 1 high")
    state.play("discard 2C")
    assert state.result is not None and state.result.outcome == outcome


def test_bad_options() -> None:
    for options, words in [
        ({"kaluki_jokers": 3}, "kaluki_jokers"),
        ({"num_players": 6}, "2..5"),
        ({"restock_method": "block"}, "restock_method"),
        ({"ace_rank": "high"}, "rummy option"),
        ({"kaluki_buy_in": True}, "kaluki_buy_in"),
        ({"max_build_per_run_end": 3}, "max_build"),
    ]:
        with pytest.raises(rk.InvalidOptionError, match=words):
            rk.Game("kaluki", **options)  # type: ignore[arg-type]


def test_bad_input_leaves_the_state_unchanged() -> None:
    state = position(rk.Game("kaluki"), ["JS QS KS AS 2D", "KC"], table=(("8S 9S TS", 1), ("5H 5D Jk", 1)), opened=ALL)
    state.play("build JS on 1 high")
    state.play("build QS on 1 high")
    before = (state.hands, state.table, state.ends, list(state.history), state.legal_actions())
    for text, words in [
        ("build KS on 1 high", "max_build_per_run_end"),
        ("meld AS 2S 3S", "not a valid set or run"),
        ("release 5C 5S from 2", "5C is not in seat 0's hand"),
        ("meld QS KS Jk", "ambiguous joker"),
        ("discard Jk", "not in seat 0's hand"),
    ]:
        with pytest.raises(rk.IllegalActionError, match=words):
            state.play(text)
    assert (state.hands, state.table, state.ends, state.history, state.legal_actions()) == before


def test_random_play_invariants() -> None:
    pytest.importorskip("rummykit.multideck")
    for n in (2, 3, 4, 5):
        for name in ("kaluki", "kalooki_51"):
            game = rk.Game(name, num_players=n)
            for seed in range(HANDS):
                state = random_hand(game, seed, check_invariants)
                assert state.result is not None


@pytest.mark.parametrize(
    "options",
    [
        {"two_joker_set_release": "one_natural", "max_build_per_run_end": "unlimited", "ace_low_runs": True},
        {
            "building_counts_toward_opening": True,
            "unopened_may_release_joker": True,
            "hunt_requires_opening_min": False,
        },
        {"unopened_discard_draw": "free", "joker_discard_allowed": False, "go_out_requires_discard": False},
    ],
)
def test_random_play_options_never_stuck(options: dict[str, object]) -> None:
    pytest.importorskip("rummykit.multideck")
    game = rk.Game("kaluki", num_players=3, **options)
    for seed in range(HANDS):
        random_hand(game, seed, check_invariants)


def test_undo_clone_records() -> None:
    pytest.importorskip("rummykit.multideck")
    game = rk.Game("kaluki", num_players=3)
    state = game.new_hand(seed=4)
    rng = random.Random(4)
    seen = []
    while not state.is_terminal():
        seen.append((state.hands, state.table, state.legal_actions()))
        state.apply_action(rng.choice(state.legal_actions()))
    copy = from_json(to_json(state))
    assert copy.result == state.result and copy.history == state.history
    other = state.clone()
    while seen:
        state.undo()
        assert (state.hands, state.table, state.legal_actions()) == seen.pop()
    assert other.is_terminal()


def test_a_hand_of_only_jokers_may_discard_one_without_joker_discard_allowed() -> None:
    """Engine reading (rummykit.table.state): the turn can always end."""
    game = rk.Game("kaluki", joker_discard_allowed=False)
    state = position(game, ["Jk", "KC QC"], opened=ALL)
    assert state.legal_actions() == [JOKER]
    state = position(game, ["Jk 7D", "KC QC"], opened=ALL)
    assert state.legal_actions() == parse_types("7D")  # the natural card only: jokers stay


def test_a_hand_edited_state_is_checked_before_play() -> None:
    state = rk.Game("kaluki").new_hand(seed=1)
    hands = state.hands
    state = state.with_fields(hands=(hands[0] | hands[1], hands[1]))  # seat 1's cards in two hands
    with pytest.raises(RummykitError, match="a card in two places"):
        state.legal_actions()
    state = state.with_fields(hands=hands)
    assert state.legal_actions()


def test_an_unopened_release_is_offered_only_if_the_joker_can_then_be_placed() -> None:
    """docs/hardening.md, fuzz_table finding 4: the opening search may let the
    released joker stand for a card the hand also holds, where no meld step
    puts a joker; such a release would leave the turn with no legal action."""
    game = rk.Game("kaluki", unopened_may_release_joker=True)
    table = (("5C 6C Jk=7C", 1),)
    # 8D 9D TD + 8D Jk TD is 54 only with the joker as 9D, which the hand holds
    stuck = position(game, ["8D 9D TD 8D TD 7C 2S 4H 6S KC", "KC QC"], table=table, opened=0b10)
    assert not [t for t in texts(stuck) if t.startswith("release")]
    placed = position(game, ["8D 9D TD QD 7C 2S 4H 6S KC", "KC QC"], table=table, opened=0b10)
    placed.play("release 7C from 1")
    assert texts(placed) == ["meld 8D 9D TD Jk=JD QD"]
