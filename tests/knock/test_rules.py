"""The variant registry: aliases, presets, options and their validation."""

from __future__ import annotations

import pytest

import rummykit as rk
from rummykit import InvalidOptionError


@pytest.mark.parametrize(
    ("alias", "name"),
    [
        ("gin", "gin"),
        ("gin-rummy", "gin"),
        ("Gin_Rummy", "gin"),
        ("oklahoma", "oklahoma_gin"),
        ("oklahoma-gin", "oklahoma_gin"),
        ("oklahoma-rummy", "oklahoma_rummy"),
        ("double-oklahoma", "double_oklahoma"),
        ("gin_classic_pagat", "gin_classic_pagat"),
        ("oklahoma_ring_seed003", "oklahoma_ring"),
        ("oklahoma-ring-seed003", "oklahoma_ring"),
        ("oklahoma_seed002", "oklahoma_bonus_penalty"),
        ("gin_seed000", "gin_matchplay"),
        ("gin-matchplay", "gin_matchplay"),
    ],
)
def test_aliases(alias: str, name: str) -> None:
    assert rk.Game(alias).name == name


def test_defaults_per_game() -> None:
    gin, ok2, ok34 = rk.Game("gin").rules, rk.Game("oklahoma-gin").rules, rk.Game("oklahoma-rummy").rules
    assert (gin.knock_limit_mode, gin.first_turn_procedure, gin.target_score, gin.spade_multiplier) == (
        "fixed",
        "upcard_offer",
        100,
        1,
    )
    assert (ok2.knock_limit_mode, ok2.first_turn_procedure, ok2.target_score, ok2.spade_multiplier) == (
        "upcard",
        "normal",
        200,
        2,
    )
    assert ok2.ace_upcard_gin_only and ok34.ace_upcard_gin_only
    assert (ok34.num_players, ok34.hand_size, ok34.stock_end_rule, ok34.scoring_model) == (
        3,
        7,
        "reshuffle",
        "net_collect",
    )
    assert (ok34.knock_bonus, ok34.undercut_bonus, ok34.gin_bonus, ok34.target_score) == (10, 10, 20, 150)


def test_presets() -> None:
    pagat = rk.Game("gin_classic_pagat").rules
    assert (pagat.gin_bonus, pagat.undercut_bonus, pagat.box_bonus, pagat.shutout_rule) == (
        20,
        10,
        20,
        "double_game_bonus",
    )
    multi = rk.Game("gin_multi").rules
    assert (multi.knock_limit_mode, multi.spade_multiplier, multi.scoring_model, multi.gin_loser_multiplier) == (
        "fixed",
        1,
        "bonus_penalty",
        2,
    )
    ring = rk.Game("oklahoma_ring_seed003").rules
    assert (ring.gin_loser_extra, ring.undercut_knocker_extra, ring.game_end) == (25, 10, "fixed_hands")
    assert rk.Game("double_oklahoma").rules.spade_multiplier == 3
    assert rk.Game("oklahoma_gin_150").rules.target_score == 150


def test_options_as_keywords() -> None:
    game = rk.Game("oklahoma-gin", target_score=150, spade_multiplier=3)
    assert (game.rules.target_score, game.rules.spade_multiplier) == (150, 3)
    assert repr(game) == "Game('oklahoma_gin', spade_multiplier=3, target_score=150)"
    # choosing a scoring model sets its parameters; explicit ones still win
    model = rk.Game("oklahoma-rummy", scoring_model="bonus_penalty", gin_bonus=30).rules
    assert (model.undercut_bonus, model.gin_bonus, model.collect_differences) == (20, 30, False)


@pytest.mark.parametrize(
    ("name", "options", "named"),
    [
        ("poker", {}, "unknown game"),
        ("gin", {"knock_limt": 5}, "knock_limt"),
        ("gin", {"spade_multiplier": 4}, "spade_multiplier"),
        ("gin", {"knock_compare": "lte"}, "knock_compare"),
        ("gin", {"undercut_on_tie": "yes"}, "undercut_on_tie"),
        ("gin", {"target_score": -5}, "target_score"),
        ("gin", {"num_players": 3}, "upcard_offer"),
        ("oklahoma-rummy", {"num_players": 5}, "num_players"),
        ("oklahoma-rummy", {"scoring_sheet": "hollywood"}, "hollywood"),
        ("gin", {"ace_upcard_gin_only": True}, "ace_upcard_gin_only"),
        ("gin", {"max_restocks": -2}, "max_restocks"),
        ("oklahoma-rummy", {"num_players": 4, "partnerships": True}, "partnerships"),
        (
            "oklahoma-rummy",
            {"num_players": 3, "partnerships": True, "scoring_model": "classic_two_player"},
            "partnerships",
        ),
        ("gin", {"big_gin_bonus": 40}, "big_gin_bonus"),
    ],
)
def test_bad_options_are_named(name: str, options: dict[str, object], named: str) -> None:
    with pytest.raises(InvalidOptionError, match=named):
        rk.Game(name, **options)


def test_bad_new_hand_arguments() -> None:
    game = rk.Game("gin")
    with pytest.raises(InvalidOptionError, match="dealer"):
        game.new_hand(seed=1, dealer=2)
    with pytest.raises(InvalidOptionError, match="seed"):
        game.new_hand(seed=-1)
    with pytest.raises(rk.InvalidCardError, match="52"):
        game.new_hand(deck=list(range(51)))
    with pytest.raises(rk.InvalidCardError, match="distinct"):
        game.new_hand(deck=[0] * 52)


def test_every_variant_documents_sources_and_deviations() -> None:
    from rummykit.knock.rules import BASE_GAMES, PRESETS

    for name in list(BASE_GAMES) + list(PRESETS):
        doc = rk.Game(name).__doc__
        assert doc and "docs/rules.md" in doc, name
