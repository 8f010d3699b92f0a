"""What people meet first in every game: the joker as a card, the game names, player-count
errors that name the game that fits, hand text, the knock names beside the table names."""

from __future__ import annotations

import pytest

import rummykit as rk
from rummykit.table.cards import JOKER_CARD, Joker


def test_the_joker_is_a_card_everywhere() -> None:
    assert rk.Card("Jk") is rk.Card(52) is rk.Card(" joker ") is JOKER_CARD is Joker()
    assert str(rk.Card(52)) == "Jk" and int(rk.Card("jk")) == 52
    assert rk.cards_text([0, 52]) == "AC Jk" and rk.cards_text(["Jk", "7h", "jk"]) == "7H Jk Jk"
    assert rk.cards_text("AC 7H") == "AC 7H"
    for bad in (53, -1, "Jq", 52.0):
        with pytest.raises(rk.InvalidCardError):
            rk.Card(bad)  # type: ignore[arg-type]
    with pytest.raises(rk.InvalidCardError, match="no rank"):
        rk.Card(52).rank
    hand = rk.Game("kaluki").new_hand(seed=11, dealer=0)
    jokers = [c for s in range(hand.n) for c in hand.hand(s) if c == 52]
    assert all(c is rk.Card("Jk") for c in jokers)


def test_the_knock_games_refuse_the_joker() -> None:
    state = rk.Game("gin").new_hand(seed=1, dealer=0)
    before = (state.history, state.hands)
    for verb in (state.verify_discard, state.verify_knock, state.can_discard, state.knock):
        with pytest.raises(rk.InvalidCardError, match="joker"):
            verb("Jk")
    assert (state.history, state.hands) == before
    with pytest.raises(rk.InvalidCardError, match="joker"):
        rk.Game("gin").new_hand(deck=["Jk", *range(1, 52)])
    with pytest.raises(rk.InvalidCardError, match="joker"):
        rk.to_mask([0, 52])
    with pytest.raises(rk.InvalidCardError):
        rk.best_discard([0, 1, 2, 52])


def test_game_names_lists_games_and_presets_aliases_on_request() -> None:
    names = rk.game_names()
    assert {"gin", "oklahoma_gin", "oklahoma_rummy", "rummy", "kaluki", "gin_multi"} <= set(names)
    assert "kalooki" not in names and "gin-rummy" not in names
    every = rk.game_names(aliases=True)
    assert set(names) < set(every) and {"kalooki", "gin-rummy"} <= set(every)
    assert names == sorted(names) and all(rk.Game(name).name == name for name in names)


@pytest.mark.parametrize(
    ("game", "players", "fits"),
    [("gin", 3, "gin_multi"), ("oklahoma_gin", 4, "oklahoma_bonus_penalty"), ("kaluki", 6, "rummy")],
)
def test_a_player_count_error_names_the_game_that_fits(game: str, players: int, fits: str) -> None:
    with pytest.raises(rk.InvalidOptionError) as err:
        rk.Game(game, num_players=players)
    assert f"{game} is not played by {players} players" in str(err.value)
    assert f"for {players} players play {fits}" in str(err.value)
    rk.Game(fits, num_players=players)


def test_other_errors_are_not_blamed_on_the_player_count() -> None:
    with pytest.raises(rk.InvalidOptionError) as err:
        rk.Game("gin", num_players=3, spade_multiplier=7)
    assert "spade_multiplier" in str(err.value) and "players play" not in str(err.value)
    with pytest.raises(rk.InvalidOptionError, match="2..6 for rummy"):
        rk.Game("rummy", num_players=9)


def test_the_cli_points_at_the_preset() -> None:
    import subprocess
    import sys

    out = subprocess.run(
        [sys.executable, "-m", "rummykit", "play", "gin", "--players", "3"],
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
    )
    assert out.returncode != 0 and "for 3 players play gin_multi" in out.stderr
    assert len(out.stderr.strip().splitlines()) == 1


def test_hand_text_on_every_state() -> None:
    for name in ("gin", "oklahoma_rummy", "rummy", "kaluki"):
        state = rk.Game(name).new_hand(seed=2, dealer=0)
        for seat in range(state.n):
            assert state.hand_text(seat) == " ".join(str(c) for c in state.hand(seat))


def test_knock_names_beside_the_table_names() -> None:
    assert rk.KnockAction is rk.Action and rk.KnockPhase is rk.Phase
    assert rk.KnockResult is rk.HandResult and rk.KnockMatchResult is rk.MatchResult
    assert rk.KnockGameResult is rk.GameResult and rk.parse_knock_action is rk.parse_action
    assert {"KnockAction", "KnockResult", "TableAction", "TableResult"} <= set(rk.__all__)
