"""The C field table of the knock rules (rk_knock_rules_fields), the one schema of the
options the engine reads: Python builds their option records from it and fills
rk_knock_rules by option name from a KnockRules, so every C field must name an
option that exists, cover the whole struct, and drive the options' validation."""

from __future__ import annotations

import dataclasses
import re

import pytest

from rummykit import _core
from rummykit.engine.options import NO_DEFAULT, field_value
from rummykit.errors import InvalidOptionError
from rummykit.knock.rules import BASE_GAMES, BOOLS, CHOICES, OPTIONS, PRESETS, KnockRules, knock_rules

FIELDS = _core.KNOCK_RULES_FIELDS
FIELDS_BY_NAME = {f[0]: f for f in FIELDS}
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


@pytest.mark.parametrize("game", [*BASE_GAMES, *PRESETS])
def test_values_read_back_from_c(game: str) -> None:
    # field_value, the one conversion of C ints to option values, inverts filling the fields
    rules = knock_rules(game)
    for name, raw in _core.knock_rules_values(rules).items():
        value = field_value(FIELDS_BY_NAME[name], raw)
        assert value is NO_DEFAULT or value == getattr(rules, name), name
        assert type(value) is type(getattr(rules, name)) or value is NO_DEFAULT, name


def test_base_games_come_from_c() -> None:
    # the engine's options of a base game are rk_knock_rules_init's (the rules' values, docs/rules.md)
    gin, okla, rummy = (knock_rules(g) for g in ("gin", "oklahoma_gin", "oklahoma_rummy"))
    assert (gin.knock_limit, gin.first_turn_procedure, gin.knock_limit_mode, gin.big_gin_bonus) == (
        10,
        "upcard_offer",
        "fixed",
        None,
    )
    assert (okla.knock_limit_mode, okla.spade_multiplier, okla.ace_upcard_gin_only) == ("upcard", 2, True)
    assert (rummy.num_players, rummy.stock_end_rule, rummy.gin_bonus, rummy.losers_charged) == (
        3,
        "reshuffle",
        20,
        True,
    )
    assert rummy.scoring_model == "net_collect" and gin.scoring_model == "classic_two_player"


@pytest.mark.parametrize(("name", "kind", "lo", "hi", "text"), FIELDS, ids=[f[0] for f in FIELDS])
def test_schema_is_the_c_table(name: str, kind: int, lo: int, hi: int, text: str | None) -> None:
    option = OPTIONS[name]
    if kind == _core.FIELD_CHOICE:
        assert text is not None and option.choices == tuple(text.split("|")) and option.type is str
    elif kind == _core.FIELD_FLAG:
        assert option.type is bool and option.choices is None
    elif kind in (_core.FIELD_INT, _core.FIELD_INT_OR_NONE):
        assert option.maximum == hi and option.minimum == max(lo, 0)
        assert option.unlimited == (kind == _core.FIELD_INT and lo == -1)
        # the values the option offers: C's text, if any (-1 of an "or none" field: None)
        offered = None if text is None else tuple(int(v) for v in text.split("|"))
        none = kind == _core.FIELD_INT_OR_NONE
        assert option.choices == (None if offered is None else tuple(None if none and v == -1 else v for v in offered))


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"spade_multiplier": 4}, "spade_multiplier must be 1..3; got 4"),
        ({"gin_loser_multiplier": 0}, "gin_loser_multiplier must be 1..2; got 0"),
        ({"knock_compare": "lte"}, "knock_compare must be one of: le, lt; got 'lte'"),
        ({"knocker_arrangement": "best"}, "knocker_arrangement must be one of: min_deadwood, best_score; got 'best'"),
        ({"max_turns": -2}, "max_turns must be -1 or 'unlimited' (no limit) or an integer in 0..1000000; got -2"),
        ({"num_players": 5}, "num_players must be 2..4; got 5"),
        ({"auto_showdown": 1}, "auto_showdown must be true or false; got 1"),
    ],
)
def test_c_schema_drives_validation(options: dict[str, object], message: str) -> None:
    with pytest.raises(InvalidOptionError, match=re.escape(message)):
        knock_rules("gin", **options)  # type: ignore[arg-type]


def test_options_reach_their_fields() -> None:
    values = _core.knock_rules_values(
        knock_rules("gin", stock_end_rule="dead_on_draw", knock_compare="lt", big_gin_bonus=31, max_turns=7)
    )
    assert values["stock_end_rule"] == 2 and values["knock_compare"] == 1
    assert values["big_gin_bonus"] == 31 and values["max_turns"] == 7
    assert _core.knock_rules_values(knock_rules("gin"))["big_gin_bonus"] == -1


def test_scoring_models_are_the_c_table() -> None:
    """The scoring models (their options' values) are C's table: ``scoring_model``'s choices,
    and each base game's defaults are its model's row (rk_knock_rules_init applies it)."""
    from rummykit.scoring import MODEL_ROWS

    assert OPTIONS["scoring_model"].choices == tuple(_core.KNOCK_SCORING_MODELS) == tuple(MODEL_ROWS)
    assert list(MODEL_ROWS)[0] == "classic_two_player"  # the one C's scoring_model field names
    for game, players in (("gin", 2), ("oklahoma_gin", 2), ("oklahoma_rummy", 3)):
        rules = knock_rules(game) if players == 2 else knock_rules(game, num_players=players)
        for name, value in MODEL_ROWS[rules.scoring_model].items():
            assert getattr(rules, name) == value, (game, name)
    for model, row in _core.KNOCK_SCORING_MODELS.items():
        rules = knock_rules("gin", scoring_model=model)
        values = _core.knock_rules_values(rules)
        assert {name: values[name] for name in row} == row, model
