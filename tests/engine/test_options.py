"""Game options as data: ``game_options``, the schemas that drive
validation, ``parse_value``, "did you mean" errors, preset names and help text."""

from __future__ import annotations

import dataclasses
import doctest
import json
import pydoc
from typing import Any

import pytest

import rummykit as rk
from rummykit.engine import options as engine_options
from rummykit.engine.options import NO_DEFAULT, UNLIMITED, Option, parse_assignment, parse_value, show_value
from rummykit.knock import rules as knock
from rummykit.knock.rules import KnockRules
from rummykit.table import rules as table
from rummykit.table.rules import TableRules

CANONICAL = rk.game_names(aliases=False)
NOT_OPTIONS = {"name", "given", "game"}


def rules_of(name: str) -> KnockRules | TableRules:
    return rk.Game(name).rules


def test_engine_package_imports_no_game_family() -> None:
    import ast
    import pathlib

    import rummykit.engine

    for path in pathlib.Path(rummykit.engine.__file__).parent.glob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module:
                assert not node.module.startswith(("rummykit.knock", "rummykit.table", "rummykit.games")), path


def test_option_fields() -> None:
    names = [f.name for f in dataclasses.fields(Option)]
    assert names[:5] == ["name", "default", "choices", "doc", "type"]
    with pytest.raises(dataclasses.FrozenInstanceError):
        rk.game_options("gin")["target_score"].default = 5  # type: ignore[misc]


def test_schemas_cover_every_rules_field() -> None:
    knock_fields = {f.name for f in dataclasses.fields(KnockRules)} - NOT_OPTIONS
    assert {o.name for o in knock.SCHEMA} == knock_fields
    table_fields = {f.name for f in dataclasses.fields(TableRules)} - NOT_OPTIONS
    assert {o.name for s in table.SCHEMA.values() for o in s} == table_fields
    # every declaration is a schema entry: no default written there
    for option in [*knock.SCHEMA, *table.SCHEMA["rummy"], *table.SCHEMA["kaluki"]]:
        assert option.default is NO_DEFAULT, option.name
        assert option.doc.endswith((".", ")")) and len(option.doc) < 450, option.name
        assert option.type in (bool, int, str, float), option.name


@pytest.mark.parametrize("name", CANONICAL)
def test_game_options_defaults_are_what_the_rules_use(name: str) -> None:
    rules = rules_of(name)
    options = rk.game_options(name)
    assert options == rk.game_options(name.upper())
    assert set(options) == set(rules.options())
    assert "num_players" in options
    for key, option in options.items():
        assert option.name == key
        value = getattr(rules, key)
        assert option.default == value and type(option.default) is type(value), (name, key)
        # the default itself passes the option's own check
        option.check(option.default)
        if option.choices is not None:
            assert option.default in option.choices, (name, key)
            for choice in option.choices:
                option.check(choice)


def test_effective_defaults_per_game_and_preset() -> None:
    assert rk.game_options("oklahoma-gin")["target_score"].default == 200
    assert rk.game_options("gin")["target_score"].default == 100
    assert rk.game_options("oklahoma_rummy")["num_players"].default == 3
    assert rk.game_options("gin_matchplay")["knock_compare"].default == "lt"
    assert rk.game_options("gin_seed000")["match_mode"].default == "match_points"
    assert rk.game_options("kalooki_51")["initial_meld_min"].default == 51
    assert rk.game_options("rummy")["max_melds_per_turn"].default == UNLIMITED
    assert rk.game_options("gin")["big_gin_bonus"].choices == (None, 31, 50)
    assert rk.game_options("kaluki")["restock_method"].choices == ("reshuffle_keep_top",)
    assert rk.game_options("rummy")["restock_method"].choices == ("reshuffle_keep_top", "turn_over", "block")
    assert rk.game_options("gin")["target_score"].choices is None
    assert "ace_rank" in rk.game_options("rummy") and "ace_rank" not in rk.game_options("kaluki")


@pytest.mark.parametrize("name", CANONICAL)
def test_every_choice_is_accepted_or_refused_by_a_combination_rule(name: str) -> None:
    """Each listed choice passes the value check; setting it alone either
    works and is kept, or fails on a combination rule (never "must be")."""
    for key, option in rk.game_options(name).items():
        for choice in option.choices or ():
            try:
                game = rk.Game(name, **{key: choice})
            except rk.InvalidOptionError as error:
                assert "must be" not in str(error), (name, key, choice, str(error))
                continue
            assert getattr(game.rules, key) == choice


@pytest.mark.parametrize(
    ("name", "key", "value"),
    [
        ("gin", "spade_multiplier", 4),
        ("gin", "spade_multiplier", True),
        ("gin", "knock_compare", "lte"),
        ("gin", "undercut_on_tie", "yes"),
        ("gin", "target_score", -5),
        ("gin", "target_score", 2.5),
        ("gin", "big_gin_bonus", 40),
        ("gin", "max_restocks", -2),
        ("gin", "num_hands", 0),
        ("rummy", "max_melds_per_turn", 2),
        ("rummy", "num_players", 7),
        ("kaluki", "num_players", 6),
        ("kaluki", "kaluki_jokers", 3),
        ("kaluki", "restock_method", "block"),
    ],
)
def test_bad_values_name_option_values_and_meaning(name: str, key: str, value: object) -> None:
    option = rk.game_options(name)[key]
    with pytest.raises(rk.InvalidOptionError) as info:
        rk.Game(name, **{key: value})
    message = str(info.value)
    assert f"{key} must be" in message
    assert engine_options.allowed_text(option) in message
    assert option.doc in message


def test_big_gin_bonus_message_says_what_it_is() -> None:
    with pytest.raises(rk.InvalidOptionError, match="all 11 cards"):
        rk.Game("gin", big_gin_bonus=40)


def test_unknown_option_suggests_the_closest() -> None:
    with pytest.raises(rk.InvalidOptionError) as info:
        rk.Game("gin", targt_score=5)
    message = str(info.value)
    assert "did you mean 'target_score'?" in message
    assert all(name in message for name in rk.game_options("gin"))
    with pytest.raises(rk.InvalidOptionError, match="did you mean 'initial_meld_min'"):
        rk.Game("kaluki", initial_meld=51)
    with pytest.raises(rk.InvalidOptionError, match="a kaluki option"):
        rk.Game("rummy", initial_meld_min=51)


@pytest.mark.parametrize(
    ("typo", "meant"),
    [("ginn", "gin"), ("kalooky", "kaluki"), ("oklahoma_gim", "oklahoma_gin"), ("gin_seed00", "gin_matchplay")],
)
def test_unknown_game_suggests_the_closest(typo: str, meant: str) -> None:
    with pytest.raises(rk.InvalidOptionError, match=f"did you mean '{meant}'"):
        rk.Game(typo)
    with pytest.raises(rk.InvalidOptionError, match="unknown game"):
        rk.game_options(typo)


def test_unknown_game_lists_the_games() -> None:
    with pytest.raises(rk.InvalidOptionError) as info:
        rk.Game("poker")
    assert all(name in str(info.value) for name in CANONICAL)
    assert "did you mean" not in str(info.value)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("gin_seed000", "gin_matchplay"),
        ("oklahoma_seed002", "oklahoma_bonus_penalty"),
        ("oklahoma_ring_seed003", "oklahoma_ring"),
        ("oklahoma-ring-seed003", "oklahoma_ring"),
    ],
)
def test_old_preset_names_still_load(old: str, new: str) -> None:
    assert rk.Game(old).name == new
    assert rk.Game(old).rules == rk.Game(new).rules
    assert old in rk.game_names(aliases=True) and new in rk.game_names()
    assert new in rk.game_names(aliases=False) and old not in rk.game_names(aliases=False)
    assert rk.game_options(old) == rk.game_options(new)


def test_hand_record_with_an_old_preset_name_loads() -> None:
    from rummykit.knock.record import from_record, to_json

    state = rk.KnockGame("oklahoma_ring", num_players=3, max_restocks=2).new_hand(seed=5, dealer=0)
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    text = to_json(state)
    assert '"oklahoma_ring"' in text
    old = from_record(json.loads(text.replace('"oklahoma_ring"', '"oklahoma_ring_seed003"')))
    assert old.rules == state.rules and old.returns() == state.returns()


def test_game_names_and_presets() -> None:
    canonical = rk.game_names(aliases=False)
    assert canonical == sorted(canonical) and len(canonical) == len(set(canonical))
    assert set(canonical) <= set(rk.game_names(aliases=True))
    for name in canonical:
        assert rk.Game(name).name == name
    presets = rk.game_presets()
    assert presets["gin_matchplay"] == "gin" and presets["kalooki_51"] == "kaluki"
    assert set(presets) < set(canonical)
    for alias in rk.game_names(aliases=True):
        rk.Game(alias)


BOOL_TEXT = [("true", True), ("False", False), ("yes", True), ("no", False), ("1", True), ("0", False)]


@pytest.mark.parametrize(("text", "value"), BOOL_TEXT)
def test_parse_bool(text: str, value: bool) -> None:
    assert parse_value(rk.game_options("gin")["undercut_on_tie"], text) is value


def test_parse_values() -> None:
    gin, rummy = rk.game_options("gin"), rk.game_options("rummy")
    assert parse_value(gin["target_score"], " 250 ") == 250
    assert parse_value(gin["spade_multiplier"], "3") == 3
    assert parse_value(gin["big_gin_bonus"], "none") is None
    assert parse_value(gin["big_gin_bonus"], "31") == 31
    assert parse_value(gin["num_hands"], "None") is None
    assert parse_value(gin["max_restocks"], "unlimited") == UNLIMITED
    assert parse_value(gin["max_restocks"], "-1") == UNLIMITED
    assert parse_value(gin["knock_compare"], "LT") == "lt"
    assert parse_value(gin["stock_end_rule"], "dead-at-2") == "dead_at_2"
    assert parse_value(gin["ring_winner_min_share"], "0.75") == 0.75
    assert parse_value(rummy["max_melds_per_turn"], "unlimited") == UNLIMITED
    assert parse_assignment(gin, "target-score=150", "gin") == ("target_score", 150)


@pytest.mark.parametrize(
    ("game", "key", "text"),
    [
        ("gin", "undercut_on_tie", "maybe"),
        ("gin", "target_score", "ten"),
        ("gin", "target_score", "none"),
        ("gin", "target_score", "-3"),
        ("gin", "spade_multiplier", "5"),
        ("gin", "knock_compare", "less"),
        ("gin", "big_gin_bonus", "40"),
        ("gin", "max_restocks", "lots"),
        ("gin", "max_restocks", "none"),
        ("gin", "num_players", "3.5"),
        ("rummy", "max_melds_per_turn", "2"),
    ],
)
def test_parse_errors_name_option_values_and_meaning(game: str, key: str, text: str) -> None:
    option = rk.game_options(game)[key]
    with pytest.raises(rk.InvalidOptionError) as info:
        parse_value(option, text)
    message = str(info.value)
    assert key in message and engine_options.allowed_text(option) in message and option.doc in message


def test_parse_assignment_errors() -> None:
    gin = rk.game_options("gin")
    with pytest.raises(rk.InvalidOptionError, match="did you mean 'target_score'"):
        parse_assignment(gin, "targt_score=5", "gin")
    with pytest.raises(rk.InvalidOptionError, match="name=value"):
        parse_assignment(gin, "target_score", "gin")


@pytest.mark.parametrize("name", CANONICAL)
def test_parse_value_round_trips_every_choice_and_default(name: str) -> None:
    for option in rk.game_options(name).values():
        for value in [option.default, *(option.choices or ())]:
            parsed = parse_value(option, show_value(option, value))
            assert parsed == value and type(parsed) is type(value), (name, option.name, value)
            # the parsed value is one Game accepts as a keyword
            try:
                game = rk.Game(name, **{option.name: parsed})
            except rk.InvalidOptionError as error:
                assert "must be" not in str(error)
            else:
                assert getattr(game.rules, option.name) == value


def test_game_options_values_build_the_same_rules() -> None:
    for name in CANONICAL:
        defaults: dict[str, Any] = {k: o.default for k, o in rk.game_options(name).items()}
        assert rk.Game(name, **defaults).rules == rules_of(name), name


def test_help_of_game_lists_every_game_and_option() -> None:
    text = pydoc.plain(pydoc.render_doc(rk.Game))
    for name in CANONICAL:
        assert name in text
        for key, option in rk.game_options(name).items():
            assert key in text
    for base in ("gin", "oklahoma_gin", "oklahoma_rummy", "rummy", "kaluki"):
        for option in rk.game_options(base).values():
            assert f"{option.name} = {show_value(option, option.default)}" in text
            assert engine_options.allowed_text(option) in text
    assert "gin_matchplay" in text and "knock_compare=lt" in text


@pytest.mark.parametrize("name", CANONICAL)
def test_help_of_a_game_shows_its_options_and_values(name: str) -> None:
    game = rk.Game(name, max_turns=500)
    text = pydoc.plain(pydoc.render_doc(game))
    for key, value in game.options().items():
        assert key in text
    assert "max_turns = 500" in text
    assert game.options() == game.rules.options()
    assert game.options()["max_turns"] == 500
    # the class docstring is unchanged
    class_doc = type(game).__doc__
    assert class_doc and "max_turns" not in class_doc


def test_engine_doctests() -> None:
    failures, tried = doctest.testmod(engine_options)
    assert tried > 0 and failures == 0
    import rummykit.games

    failures, tried = doctest.testmod(rummykit.games)
    assert tried > 0 and failures == 0


def test_numpy_ints_and_unlimited_text_are_accepted() -> None:
    np = pytest.importorskip("numpy")
    game = rk.Game("gin", target_score=np.int64(150), max_restocks="unlimited")
    assert game.rules.target_score == 150 and type(game.rules.target_score) is int
    assert game.rules.max_restocks == UNLIMITED
    rummy = rk.Game("rummy", max_melds_per_turn="unlimited").rules
    assert isinstance(rummy, TableRules) and rummy.max_melds_per_turn == UNLIMITED


def test_options_pickle() -> None:
    import pickle

    options = rk.game_options("oklahoma_ring")
    assert pickle.loads(pickle.dumps(options)) == options
    schema = pickle.loads(pickle.dumps(knock.SCHEMA))
    assert schema == knock.SCHEMA and schema[0].default is NO_DEFAULT


def test_every_knock_variant_has_its_notes() -> None:
    from rummykit.knock.rules import BASE_GAMES, PRESETS
    from rummykit.knock.variants_doc import VARIANT_DOCS

    assert set(VARIANT_DOCS) == set(BASE_GAMES) | set(PRESETS)


def test_plain_option_values_never_look_at_numpy(monkeypatch: pytest.MonkeyPatch) -> None:
    """Options given while another thread is still importing numpy (its module in sys.modules,
    half made): plain values are read without it, a numpy value still as its Python value."""
    import sys
    import types

    import numpy as np

    half = types.ModuleType("numpy")  # what another thread's import has made so far: nothing
    monkeypatch.setitem(sys.modules, "numpy", half)
    assert rk.Game("gin", knock_limit=8, big_gin_bonus=50).rules.knock_limit == 8
    assert rk.Game("kaluki", elimination_threshold=150).rules.elimination_threshold == 150
    options = rk.game_options("gin")
    assert engine_options.coerce(options["knock_limit"], 7) == 7
    monkeypatch.setitem(sys.modules, "numpy", np)
    assert type(engine_options.coerce(options["knock_limit"], np.int64(7))) is int


def test_the_values_of_a_c_int_field_are_not_declared_in_python() -> None:
    """An int option's values come from its C field's text; declaring them again raises."""
    from rummykit import _core
    from rummykit.engine.options import Option, field_option

    row = next(r for r in _core.TABLE_RULES_FIELDS if r[0] == "joker_penalty")
    assert field_option(row, Option("joker_penalty")).choices == (15, 25)
    with pytest.raises(ValueError, match="C text"):
        field_option(row, Option("joker_penalty", choices=(15, 25)))
    knock = next(r for r in _core.KNOCK_RULES_FIELDS if r[0] == "big_gin_bonus")
    assert field_option(knock, Option("big_gin_bonus")).choices == (None, 31, 50)
