"""The table games' rules reach C through its field table (rk_table_rules_fields):
every entry is a TableRules option or a value rummykit.table.rules derives,
and a value outside what the C struct accepts is refused, naming the option."""

from __future__ import annotations

import pytest

import rummykit as rk
from rummykit import _core
from rummykit.table.state import table_spec

DERIVED = {"is_kaluki", "deck_size", "npos", "shift", "wrap", "low_ace_one", "hand_size"}  # not options


def test_every_field_is_an_option_or_derived() -> None:
    rules = rk.Game("kaluki").rules
    names = set(_core.TABLE_RULE_FIELDS)
    assert DERIVED <= names
    for name in names - DERIVED:
        assert name in rk.game_options("kaluki") or name in rk.game_options("rummy"), name
        getattr(rules, name)


@pytest.mark.parametrize("name", ["rummy", "kaluki"])
def test_specs_build_and_bad_values_are_refused(name: str) -> None:
    game = rk.Game(name)
    spec = table_spec(game.rules, game.geo)
    values, fields = spec.args
    assert set(fields) == set(_core.TABLE_RULE_FIELDS)
    for option, bad in (
        ("restock_method", "sideways"),
        ("two_joker_set_release", 3),
        ("ace_low_runs", 2),
        ("joker_penalty", 256),
        ("num_players", 7),
        ("max_turns", 2**40),
    ):
        with pytest.raises(rk.InvalidOptionError, match=option):
            _core.TableSpec(values, {**fields, option: bad})
