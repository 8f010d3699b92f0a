"""The table games' rules reach C through its field table (rk_table_rules_fields):
every entry is a TableRules option or a value rummykit.table.rules derives,
a value outside what the C struct accepts is refused, naming the option, and the
table is the schema of the options it holds (their type, range and choices)."""

from __future__ import annotations

import re

import pytest

import rummykit as rk
from rummykit import _core
from rummykit.table.rules import OPTIONS, table_rules
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


@pytest.mark.parametrize("row", _core.TABLE_RULES_FIELDS, ids=[row[0] for row in _core.TABLE_RULES_FIELDS])
def test_schema_is_the_c_table(row: tuple[str, int, int, int, str | None]) -> None:
    # every option the engine reads takes its type, range and choices from the C field table
    name, kind, lo, hi, text = row
    for game in ("rummy", "kaluki"):
        option = OPTIONS[game].get(name)
        if option is None:
            continue
        if kind == _core.FIELD_CHOICE:
            assert text is not None and option.type is str
            assert option.choices is not None and set(option.choices) <= set(text.split("|"))
        elif kind == _core.FIELD_FLAG:
            assert option.type is bool
        else:
            assert option.type is int and option.maximum is not None and option.maximum <= hi
            assert option.unlimited == (lo == -1)
            # the values the option offers: C's text, if any
            assert option.choices == (None if text is None else tuple(int(v) for v in text.split("|")))


@pytest.mark.parametrize(
    ("game", "options", "message"),
    [
        ("rummy", {"restock_method": "shuffle"}, "restock_method must be one of: reshuffle_keep_top, turn_over, block"),
        (
            "rummy",
            {"rummy_bonus": "triple"},
            "rummy_bonus must be one of: double, flat_25, flat_10, none; got 'triple'",
        ),
        (
            "kaluki",
            {"two_joker_set_release": "none"},
            "two_joker_set_release must be one of: two_naturals, one_natural",
        ),
        ("kaluki", {"max_build_per_run_end": 3}, "max_build_per_run_end must be one of: unlimited, 2; got 3"),
        ("kaluki", {"ace_low_runs": "yes"}, "ace_low_runs must be true or false; got 'yes'"),
        ("rummy", {"max_turns": 10**7}, "max_turns must be -1 or 'unlimited' (no limit) or an integer in 0..1000000"),
    ],
)
def test_c_schema_drives_validation(game: str, options: dict[str, object], message: str) -> None:
    with pytest.raises(rk.InvalidOptionError, match=re.escape(message)):
        table_rules(game, **options)
