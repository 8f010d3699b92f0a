"""Seeded random play of Rummy and Kaluki pinned to digests recorded before
the table engine's speed work (legal action lists, actions and returns of
every step), and the engine's fast paths cross-checked against the plain
implementations they replace."""

from __future__ import annotations

import hashlib
import pickle
import random
from typing import Any

import pytest

import rummykit as rk
from rummykit.multideck import multi_best_melds, multi_opening
from rummykit.table.actions import pattern_id
from rummykit.table.cards import types_of
from rummykit.table.melds import meld_options, new_melds
from rummykit.table.opening import can_hunt, can_open

#: (game, options, sha256 of play_digest's record of 4 seeded random hands)
TRACES: list[tuple[str, dict[str, Any], str]] = [
    ("rummy", {}, "d198d59359ef387c4b38d106b891a3eed26a85ca83375f0187861ba0d755e402"),
    (
        "rummy",
        {"num_players": 4, "allow_wraparound": True},
        "e41960ec56af578382aaee8e81b098b0e8bcc09f969b710fa227bd5d01b17604",
    ),
    (
        "rummy",
        {"num_players": 3, "ace_rank": "high_or_low"},
        "64bbeb197044310e7ee6bba8666215954e432f316720484b544832ed5d4fc5d4",
    ),
    (
        "rummy",
        {"taken_discard_must_be_melded": True, "max_melds_per_turn": 1},
        "fce75cc8fa9039e75c45dd7706eea0a2cba02da6a0a83e96e6ff37ac1ba184e7",
    ),
    (
        "rummy",
        {"num_players": 6, "restock_method": "turn_over", "go_out_requires_discard": True},
        "5535eec002e51b8bfde1b893e9adcbdbadff21dae964acbf8512627094f90a28",
    ),
    ("kaluki", {}, "484f87418c6578aef7517ddaae5e9bf175f2a9411755423d2e00ae98505a1734"),
    ("kaluki", {"num_players": 4}, "441246a373c8110049b3d494a63319293bc17e76441e4aa4aba27a1610a9211c"),
    (
        "kaluki",
        {"num_players": 3, "unopened_may_release_joker": True, "building_counts_toward_opening": True},
        "a2daa1f694a4ca3df0d1f9d38b1157f2b74752769beec6d2bf0d857ce7b81e3d",
    ),
    (
        "kalooki_51",
        {"num_players": 3, "hunt_requires_opening_min": False, "two_joker_set_release": "one_natural"},
        "d40a679d8ddb65846b8754732f233e15e1f0c75a998a922790db64911792df9c",
    ),
    (
        "kaluki",
        {"ace_low_runs": True, "go_out_requires_discard": False, "unopened_discard_draw": "free"},
        "79593eafcbb1666187bec401944c21da4dc0e631af1151dcb02cfda7a8362757",
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


def test_geometry_pickles_without_its_tables() -> None:
    game = rk.Game("kaluki", num_players=4)
    play_digest("kaluki", {"num_players": 4}, hands=1)  # fills the shared geometry's tables
    assert any(row is not None for row in game.geo.runs[0])
    text = pickle.dumps(game)
    assert len(text) < 5_000  # a tournament sends games to its worker processes
    assert pickle.loads(text).geo is game.geo
