"""Seeded random play of Rummy and Kaluki pinned to digests (legal action
lists, actions and returns of every step; recorded before the table
engine's speed work, again when restocks moved to the C core's
rk_restock_shuffle, and the Kaluki ones again when the taken-discard
restriction came to hold the physical card taken rather than both copies
(each trace first parted from the old one at a newly legal discard of the
other copy of the taken card): the only changes to the traces), and the
engine's fast paths cross-checked against the plain implementations they
replace."""

from __future__ import annotations

import hashlib
import pickle
import random
from typing import Any

import pytest
from reference.melds import can_hunt, can_open, meld_options, new_melds

import rummykit as rk
from rummykit.multideck import multi_best_melds, multi_opening
from rummykit.table.actions import pattern_id
from rummykit.table.cards import types_of

#: (game, options, sha256 of play_digest's record of 4 seeded random hands)
TRACES: list[tuple[str, dict[str, Any], str]] = [
    ("rummy", {}, "ceefce6e78f5413763f5457768a24dea85a6d3e5d995e278078c278988ca2fb2"),
    (
        "rummy",
        {"num_players": 4, "allow_wraparound": True},
        "1bbc68b8a16505fb50c98833778fef38843dd47905e531ea904e24420c9d5bbf",
    ),
    (
        "rummy",
        {"num_players": 3, "ace_rank": "high_or_low"},
        "1bae0988f509e85dfb25b403ff0c7f59bbd2b27421fc64c1ce911ff6d9563527",
    ),
    (
        "rummy",
        {"taken_discard_must_be_melded": True, "max_melds_per_turn": 1},
        "5b6d30051827c3d2e3ddefc61a12091a96ed9ca9fc0729c7ab617314c948eedd",
    ),
    (
        "rummy",
        {"num_players": 6, "restock_method": "turn_over", "go_out_requires_discard": True},
        "5535eec002e51b8bfde1b893e9adcbdbadff21dae964acbf8512627094f90a28",
    ),
    ("kaluki", {}, "d5b761c68b7cd595a185c3a531ef4f96c3821aab79dc943e1f9a67c64bdc5fd4"),
    ("kaluki", {"num_players": 4}, "9d64dd57c87573c49c848f7309ae039dc16c47a13f629039534eed652031c6ca"),
    (
        "kaluki",
        {"num_players": 3, "unopened_may_release_joker": True, "building_counts_toward_opening": True},
        "24ee5b58a094dd0282c2047ebf9280b35085acc920ba229a87d50d9e5f26eaa6",
    ),
    (
        "kalooki_51",
        {"num_players": 3, "hunt_requires_opening_min": False, "two_joker_set_release": "one_natural"},
        "0bea6ad7fbc386150b1616300ee0d4b1ba9ef03042a102e322cb476240898dca",
    ),
    (
        "kaluki",
        {"ace_low_runs": True, "go_out_requires_discard": False, "unopened_discard_draw": "free"},
        "6734ed07566d8b5cb5edcc5c803592c91549216217aefe2a61d2c713cd2996c2",
    ),
]


def play_digest(name: str, options: dict[str, Any], hands: int = 4, seed: int = 11) -> str:
    """sha256 over every legal list, the actions and the returns of seeded random hands."""
    game = rk.Game(name, **options)
    rng = random.Random(seed)
    digest = hashlib.sha256()
    for i in range(hands):
        state = game.new_hand(seed=seed * 100 + i)
        while not state.is_terminal():
            legal = state.legal_actions()
            digest.update(repr(legal).encode())
            state.apply_action(rng.choice(legal))
        digest.update(repr((state.history, state.returns())).encode())
    return digest.hexdigest()


@pytest.mark.parametrize(("name", "options", "expected"), TRACES)
def test_seeded_random_play_is_unchanged(name: str, options: dict[str, Any], expected: str) -> None:
    assert play_digest(name, options) == expected


def random_table_hand(rng: random.Random, kaluki: bool) -> int:
    """A physical mask: 6-16 cards of a Kaluki deck (two decks, four jokers) or of one deck."""
    size = 108 if kaluki else 52
    return sum(1 << c for c in rng.sample(range(size), rng.randint(6, 16)))


@pytest.mark.parametrize(
    ("name", "options"),
    [("rummy", {}), ("rummy", {"allow_wraparound": True}), ("rummy", {"ace_rank": "high_or_low"}), ("kaluki", {})],
)
def test_meld_options_match_new_melds(name: str, options: dict[str, Any]) -> None:
    geo = rk.Game(name, **options).geo
    rng = random.Random(3)
    for _ in range(300):
        hand = random_table_hand(rng, name == "kaluki")
        present = (hand | hand >> 52) & ((1 << 52) - 1)
        jokers = (hand >> 104).bit_count()
        slow = sorted(
            (pattern_id(p), sum(1 << t for t in p.types(geo) if t < 52), p.types(geo).count(52), p.value(geo))
            for p in new_melds(geo, present, jokers)
        )
        assert sorted(meld_options(geo, present, jokers)) == slow


@pytest.mark.parametrize("options", [{}, {"go_out_requires_discard": False, "ace_low_runs": True}])
def test_opening_lookahead_matches_multideck(options: dict[str, Any]) -> None:
    rules = rk.Game("kaluki", **options).rules
    rng = random.Random(5)
    for _ in range(300):
        hand = random_table_hand(rng, True)
        types = types_of(hand)
        include = rng.choice([-1, rng.choice(types)])
        need = rng.choice([1, 20, 40, 51])
        kw = {"include": include if include >= 0 else None, "ace_low_runs": rules.ace_low_runs}
        best = multi_opening(types, need, **kw)
        expected = best is not None and (bool(best.left) or not rules.go_out_requires_discard)
        if best is not None and not expected:  # every card melded: some opening must keep one back
            expected = any(
                multi_opening(rest, need, **kw) is not None
                for t in set(types)
                if (rest := types[: types.index(t)] + types[types.index(t) + 1 :]) and (t != include or include in rest)
            )
        assert can_open(rules, hand, need, include) == expected
        arr = multi_best_melds(types, objective="penalty", **kw)
        hunt = arr is not None and len(arr.left) == (1 if rules.go_out_requires_discard else 0)
        assert can_hunt(rules, hand, include) == hunt


def test_game_pickles_small() -> None:
    game = rk.Game("kaluki", num_players=4)
    play_digest("kaluki", {"num_players": 4}, hands=1)  # fills the game's C memo
    text = pickle.dumps(game)
    assert len(text) < 5_000  # a tournament sends games to its worker processes
    copy = pickle.loads(text)
    assert copy.geo is game.geo and copy.rules == game.rules
    assert copy.new_hand(seed=3).legal_actions() == game.new_hand(seed=3).legal_actions()
