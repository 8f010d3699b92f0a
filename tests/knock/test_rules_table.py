"""The C field table of the knock rules (rk_knock_rules_fields): Python fills
rk_knock_rules by option name from a KnockRules, so every C field must name
an option that exists, read it the way the schema defines it, and cover the
whole struct."""

from __future__ import annotations

import dataclasses

import pytest

from rummykit import _core
from rummykit.knock.rules import BASE_GAMES, BOOLS, CHOICES, PRESETS, KnockRules, knock_rules

FIELDS = _core.KNOCK_RULES_FIELDS
OPTION_NAMES = {f.name for f in dataclasses.fields(KnockRules)}


def test_every_field_is_filled() -> None:
    # every field is an int and has its table entry (the C test checks the offsets)
    assert len(FIELDS) * 4 == _core.KNOCK_RULES_SIZE
    assert len({name for name, *_ in FIELDS}) == len(FIELDS)


@pytest.mark.parametrize(("name", "kind", "lo", "hi", "text"), FIELDS, ids=[f[0] for f in FIELDS])
def test_every_name_exists(name: str, kind: int, lo: int, hi: int, text: str | None) -> None:
    assert name in OPTION_NAMES
    if kind == _core.FIELD_FLAG:
        assert name in BOOLS and (lo, hi) == (0, 1)
    elif kind == _core.FIELD_IS:
        assert text in CHOICES[name] and (lo, hi) == (0, 1)
    elif kind == _core.FIELD_CHOICE:
        assert text is not None
        assert tuple(text.split("|")) == CHOICES[name] and (lo, hi) == (0, len(CHOICES[name]) - 1)
    elif kind == _core.FIELD_INT_OR_NONE:
        assert None in CHOICES.get(name, (None,)) and lo == -1
    else:
        assert kind == _core.FIELD_INT and name not in BOOLS
        assert all(lo <= v <= hi for v in CHOICES.get(name, ()))


@pytest.mark.parametrize("game", [*BASE_GAMES, *PRESETS])
def test_presets_fill_within_range(game: str) -> None:
    values = _core.knock_rules_values(knock_rules(game))
    assert list(values) == [name for name, *_ in FIELDS]
    for name, _kind, lo, hi, _text in FIELDS:
        assert lo <= values[name] <= hi, name


@pytest.mark.parametrize(
    ("game", "code", "players"),
    [("gin", 0, 2), ("oklahoma_gin", 1, 2), ("oklahoma_rummy", 2, 3), ("oklahoma_rummy", 2, 4)],
)
def test_base_games_match_c_defaults(game: str, code: int, players: int) -> None:
    rules = knock_rules(game, num_players=players)
    assert _core.knock_rules_values(rules) == _core.knock_rules_defaults(code, players)


def test_options_reach_their_fields() -> None:
    values = _core.knock_rules_values(
        knock_rules("gin", stock_end_rule="dead_on_draw", knock_compare="lt", big_gin_bonus=31, max_turns=7)
    )
    assert values["stock_end_rule"] == 2 and values["knock_compare"] == 1
    assert values["big_gin_bonus"] == 31 and values["max_turns"] == 7
    assert _core.knock_rules_values(knock_rules("gin"))["big_gin_bonus"] == -1
