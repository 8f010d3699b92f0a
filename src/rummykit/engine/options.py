"""Game options as data: one :class:`Option` per option, its validation,
parsing of command-line text, and "did you mean" suggestions.

A game family declares its options once as a schema (a sequence of
:class:`Option` without defaults: defaults come from the family's rules
objects); :func:`rummykit.game_options` fills in each game's defaults.
Where the C engine reads an option, its type, range and choices come from
the C field table (:func:`field_option`) and its C values convert back with
:func:`field_value`: the declaration in Python gives only the docs.

>>> opt = Option("spade_multiplier", 2, (1, 2, 3), "Multiplier when the upcard is a spade.")
>>> parse_value(opt, "3")
3
>>> parse_value(Option("auto_showdown", True, None, "Score knocks at once.", bool), "no")
False
"""

from __future__ import annotations

import builtins
import difflib
import numbers
import textwrap
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from rummykit import _core
from rummykit.errors import InvalidOptionError, clip

__all__ = [
    "InstanceDoc",
    "MAX_POINTS",
    "NO_DEFAULT",
    "UNLIMITED",
    "Option",
    "allowed_text",
    "check_value",
    "coerce",
    "describe",
    "field_option",
    "field_value",
    "options_help",
    "parse_assignment",
    "parse_value",
    "players_error",
    "show_value",
    "suggest",
    "unknown_name_error",
]

#: the value of a count option (``unlimited=True``) meaning "no limit"
UNLIMITED = -1
#: bound on every integer option (keeps them within C int range)
MAX_POINTS = 1_000_000


class _NoDefault:
    """The default of a schema declaration: filled in per game."""

    def __repr__(self) -> str:
        return "NO_DEFAULT"

    def __reduce__(self) -> str:
        return "NO_DEFAULT"


#: placeholder default of a schema declaration (the game's rules give the value)
NO_DEFAULT: Any = _NoDefault()

_TRUE = ("true", "yes", "1", "on", "y", "t")
_FALSE = ("false", "no", "0", "off", "n", "f")


@dataclass(frozen=True)
class Option:
    """One game option.

    ``default`` is the game's default (:data:`NO_DEFAULT` in a family's schema),
    ``choices`` the fixed set of values or None for a free number (then
    ``minimum``..``maximum``), ``doc`` what it does in a player's words, ``type``
    the value type (bool, int, str or float).  ``unlimited``: -1 (also given as
    ``"unlimited"``) means no limit; ``nullable``: None (``"none"``) is accepted.
    """

    name: str
    default: object = NO_DEFAULT
    choices: tuple[Any, ...] | None = None
    doc: str = ""
    type: builtins.type = int
    minimum: float | None = None
    maximum: float | None = None
    unlimited: bool = False
    nullable: bool = False

    def check(self, value: object) -> None:
        """Raise :class:`InvalidOptionError` unless ``value`` is allowed."""
        check_value(self, value)

    def parse(self, text: str) -> Any:
        """The typed value of command-line text (see :func:`parse_value`)."""
        return parse_value(self, text)


#: one row of a C field table (``rummykit._core.KNOCK_RULES_FIELDS``): the option's name, its
#: field type (``_core.FIELD_*``), the least and most C value, and the choice text ('|'-separated)
FieldRow = tuple[str, int, int, int, "str | None"]


def field_option(row: FieldRow, declared: Option) -> Option:
    """``declared`` (name and doc) with the type, range and choices of its C field table ``row``.

    A text field that C reads as "equals this text" (``FIELD_IS``) knows one of its choices:
    ``declared.choices`` lists them all (it must hold C's).  An integer field's choices are the
    values its C text lists, if any (``-1`` of an ``INT_OR_NONE`` field is None); ``declared``
    gives none."""
    name, kind, low, high, text = row
    if name != declared.name:
        raise ValueError(f"field {name} declared as {declared.name}")
    if kind == _core.FIELD_FLAG:
        return replace(declared, type=bool, choices=None)
    if kind == _core.FIELD_CHOICE:
        return replace(declared, type=str, choices=tuple(str(text).split("|")))
    if kind == _core.FIELD_IS:
        if declared.choices is None or text not in declared.choices:
            raise ValueError(f"{name}: the declared choices must include {text!r}")
        return replace(declared, type=str)
    nullable = kind == _core.FIELD_INT_OR_NONE
    unlimited = not nullable and low == UNLIMITED
    least = 0 if nullable or unlimited else low
    if declared.choices is not None:
        raise ValueError(f"{name}: the values of a C int field are its C text, not declared")
    choices = None
    if text is not None:
        values = [int(x) for x in str(text).split("|")]
        if not all(low <= v <= high for v in values):
            raise ValueError(f"{name}: the values {text} must lie in {low}..{high}")
        choices = tuple(None if nullable and v == -1 else v for v in values)
    return replace(
        declared, type=int, choices=choices, minimum=least, maximum=high, unlimited=unlimited, nullable=nullable
    )


def field_value(row: FieldRow, raw: int) -> object:
    """The option value of a C field's int (the inverse of filling the field): a flag as a bool,
    a choice index as its text, -1 of an ``INT_OR_NONE`` field as None.  A ``FIELD_IS`` field
    holding 0 names no one choice: :data:`NO_DEFAULT` (the caller gives the value)."""
    _name, kind, _low, _high, text = row
    if kind == _core.FIELD_FLAG:
        return bool(raw)
    if kind == _core.FIELD_CHOICE:
        return str(text).split("|")[raw]
    if kind == _core.FIELD_IS:
        return text if raw else NO_DEFAULT
    if kind == _core.FIELD_INT_OR_NONE and raw == -1:
        return None
    return raw


def show_value(option: Option, value: object) -> str:
    """A value as a player would type it: true/false, none, unlimited, plain text."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    if option.unlimited and value == UNLIMITED and type(value) is int:
        return "unlimited"
    return str(value)


def allowed_text(option: Option) -> str:
    """The accepted values as a player types them, e.g. ``"one of: le, lt"`` or ``"2..6"``."""
    if option.choices is not None:
        shown = [show_value(option, c) for c in option.choices]
        return shown[0] if len(shown) == 1 else f"one of: {', '.join(shown)}"
    if option.type is bool:
        return "true or false"
    parts: list[str] = []
    if option.unlimited:
        parts.append(f"{UNLIMITED} or 'unlimited' (no limit)")
    if option.nullable:
        parts.append("none")
    low = option.minimum if option.minimum is not None else 0
    high = option.maximum if option.maximum is not None else MAX_POINTS
    if option.type is int:
        low_i, high_i = int(low), int(high)
        if option.unlimited and low_i == UNLIMITED:
            low_i = 0
        span = f"{low_i}..{high_i}" if high_i - low_i < 100 else f"an integer in {low_i}..{high_i}"
    elif option.type is float:
        span = f"a number in {low}..{high}"
    else:
        span = "text"
    return " or ".join([*parts, span]) if parts else span


def describe(option: Option) -> str:
    """One line: name, default, accepted values and meaning (for help text)."""
    default = "" if option.default is NO_DEFAULT else f" = {show_value(option, option.default)}"
    return f"{option.name}{default}  [{allowed_text(option)}]  {option.doc}"


def options_help(options: Iterable[Option], indent: str = "    ", docs: bool = True) -> str:
    """Help text: one line per option (``name = default  [accepted values]``),
    followed by its meaning on the next line when ``docs``."""
    lines: list[str] = []
    for o in options:
        default = "" if o.default is NO_DEFAULT else f" = {show_value(o, o.default)}"
        lines.append(f"{indent}{o.name}{default}  [{allowed_text(o)}]")
        if docs and o.doc:
            lines.extend(textwrap.wrap(o.doc, 96, initial_indent=indent * 2, subsequent_indent=indent * 2))
    return "\n".join(lines)


class InstanceDoc:
    """A class's ``__doc__`` that is the class docstring on the class and
    ``describe(instance)`` on an instance, so ``help(game)`` shows that
    game's own options: ``Cls.__doc__ = InstanceDoc(Cls.__doc__, describe)``."""

    def __init__(self, class_doc: str | None, describe: Callable[[Any], str]) -> None:
        self.class_doc = class_doc
        self.describe = describe

    def __get__(self, obj: object, cls: object = None) -> str | None:
        return self.class_doc if obj is None else self.describe(obj)


def _bad(option: Option, value: object, suffix: str = "") -> InvalidOptionError:
    meaning = f" ({option.name}: {option.doc})" if option.doc else ""
    return InvalidOptionError(f"{option.name} must be {allowed_text(option)}{suffix}; got {clip(value)}{meaning}")


def coerce(option: Option, value: object) -> object:
    """``value`` in the option's own terms: numpy integer, bool and float scalars as
    int, bool and float, ``"unlimited"`` as -1 for a count with no limit; else unchanged
    (a numpy array too: :func:`check_value` refuses it)."""
    if option.unlimited and isinstance(value, str) and value.strip().lower() == "unlimited":
        return UNLIMITED
    if isinstance(value, numbers.Integral) and not isinstance(value, (bool, int)):
        return int(value)
    if type(value).__module__ == "numpy":
        # only a numpy value imports numpy here; the import statement waits for a thread still
        # importing it (a look into sys.modules would see the half-imported module)
        import numpy as np

        if isinstance(value, (np.bool_, np.floating)):
            return value.item()
    return value


def check_value(option: Option, value: object, suffix: str = "") -> None:
    """Raise :class:`InvalidOptionError` (naming the option, the accepted
    values and what the option means) unless ``value`` is allowed.
    ``suffix`` is added after the accepted values (e.g. ``" for kaluki"``)."""
    if value is None and (option.nullable or (option.choices is not None and None in option.choices)):
        return
    if option.choices is not None:  # the type first: `in` on a numpy array is elementwise
        if type(value) not in {type(c) for c in option.choices} or value not in option.choices:
            raise _bad(option, value, suffix)
        return
    if option.type is bool:
        if not isinstance(value, bool):
            raise _bad(option, value, suffix)
        return
    if option.type is int:
        low = option.minimum if option.minimum is not None else 0
        high = option.maximum if option.maximum is not None else MAX_POINTS
        if type(value) is not int or not (low <= value <= high or (option.unlimited and value == UNLIMITED)):
            raise _bad(option, value, suffix)
        return
    if option.type is float:
        low = option.minimum if option.minimum is not None else 0
        high = option.maximum if option.maximum is not None else MAX_POINTS
        if not isinstance(value, (int, float)) or isinstance(value, bool) or not low <= value <= high:
            raise _bad(option, value, suffix)
        return
    if not isinstance(value, option.type):
        raise _bad(option, value, suffix)


def parse_value(option: Option, text: str) -> Any:
    """The typed value of command-line text for ``option``: ``true``/``false``
    (also yes/no, 1/0, on/off) for a bool, an integer or number, ``none``
    where None is allowed, ``unlimited`` for a count with no limit, choice
    text case-insensitively with ``-`` for ``_``.  Raises
    :class:`InvalidOptionError` naming the option, the accepted values and
    what the option means."""
    if not isinstance(option, Option):
        raise InvalidOptionError(f"option must be an Option (rummykit.game_options(game)[name]), got {clip(option)}")
    if not isinstance(text, str):
        raise InvalidOptionError(f"{option.name}: expected text to parse, got {clip(text)}")
    raw = text.strip()
    word = raw.lower()
    if word in ("none", "null") and (option.nullable or (option.choices is not None and None in option.choices)):
        return None
    value: Any
    if option.type is bool:
        if word in _TRUE:
            value = True
        elif word in _FALSE:
            value = False
        else:
            raise _bad(option, text)
    elif option.type is int:
        if option.unlimited and word in ("unlimited", "inf", "infinite"):
            value = UNLIMITED
        else:
            try:
                value = int(word.replace("_", ""), 10)
            except ValueError:
                raise _bad(option, text) from None
    elif option.type is float:
        try:
            value = float(word)
        except ValueError:
            raise _bad(option, text) from None
    else:
        value = raw
        if option.choices is not None and raw not in option.choices:
            folded = word.replace("-", "_")
            value = next((c for c in option.choices if isinstance(c, str) and c.lower() == folded), raw)
    check_value(option, value)
    return value


def parse_assignment(options: Mapping[str, Option], text: str, game: str = "") -> tuple[str, Any]:
    """``"name=value"`` as ``(name, typed value)`` for one of ``options``
    (e.g. ``rummykit.game_options(game)``).  An unknown name raises
    :class:`InvalidOptionError` with the closest match."""
    name, sep, value = text.partition("=")
    name = name.strip().replace("-", "_")
    if not sep:
        raise InvalidOptionError(f"expected name=value, got {clip(text)}")
    if name not in options:
        raise unknown_name_error("option", name, options, f" for {game}" if game else "")
    return name, parse_value(options[name], value)


def suggest(name: object, candidates: Iterable[str]) -> str | None:
    """The candidate closest to ``name`` (difflib), or None if none is close."""
    if not isinstance(name, str):
        return None
    pool = list(candidates)
    key = name.strip().lower()
    found = difflib.get_close_matches(key, pool, n=1, cutoff=0.6)
    if not found:
        found = difflib.get_close_matches(key.replace("-", "_"), pool, n=1, cutoff=0.6)
    return found[0] if found else None


def unknown_name_error(
    kind: str, name: object, valid: Iterable[str], where: str = "", hint: str = "", aliases: Mapping[str, str] = {}
) -> InvalidOptionError:
    """The error for an unknown option or game name: the closest valid name
    ("did you mean ...?") and the list of valid names.  ``where`` follows the
    name (e.g. ``" for gin"``), ``hint`` follows that (e.g. ``" (a kaluki
    option)"``, then no other name is suggested); ``aliases`` (other accepted
    name -> valid name) are matched too, and their valid name suggested."""
    names = sorted(valid)
    best = None if hint else suggest(name, [*names, *aliases])
    if best is not None:
        best = aliases.get(best, best)
    guess = f" (did you mean {best!r}?)" if best is not None else ""
    return InvalidOptionError(f"unknown {kind} {clip(name, 40)}{where}{hint}{guess}; valid {kind}s: {', '.join(names)}")


def players_error(
    err: InvalidOptionError,
    key: str,
    options: Mapping[str, Any],
    names: Iterable[str],
    build: Callable[[str, dict[str, Any]], object],
) -> InvalidOptionError:
    """``err`` (raised building game ``key`` with ``options``) as it should reach a player:
    where the player count is what does not fit, the games and presets of the family that
    take that many players (``build(name, options)`` succeeds) are named in the message."""
    n = options.get("num_players")
    if type(n) is not int:
        return err
    try:  # is the player count what does not fit?
        build(key, {k: v for k, v in options.items() if k != "num_players"})
    except InvalidOptionError:
        return err
    fits = []
    for name in names:
        if name != key:
            try:
                build(name, dict(options))
            except InvalidOptionError:
                continue
            fits.append(name)
    if not fits:
        return err
    stem = key.split("_")[0]
    fits.sort(key=lambda name: (not name.startswith(stem), name))  # the same game's presets first
    also = f" (or {', '.join(fits[1:])})" if len(fits) > 1 else ""
    return InvalidOptionError(f"{key} is not played by {n} players ({err}); for {n} players play {fits[0]}{also}")


# --- options every game has, declared once ------------------------------------------------------

#: Who deals the next hand (the choices each family allows are all three).
DEALER_ROTATION = Option(
    "dealer_rotation",
    choices=("alternate", "clockwise", "winner_deals"),
    type=str,
    doc="Who deals the next hand: the players take turns (alternate), the deal passes to the left "
    "(clockwise), or the winner of the hand deals (winner_deals).",
)
#: After a hand nobody wins.
DEALER_AFTER_DEAD_HAND = Option(
    "dealer_after_dead_hand",
    choices=("same", "next"),
    type=str,
    doc="After a hand nobody wins: the same dealer deals again, or the deal passes on.",
)
#: The taken-discard rule (docs/rules.md, Turn basics).
FORBID_DISCARDING_TAKEN_CARD = Option(
    "forbid_discarding_taken_card",
    type=bool,
    doc="You may not discard the card you just took from the discard pile in the same turn.",
)
#: The engine's turn cap (docs/rules.md, D22).
MAX_TURNS = Option(
    "max_turns",
    minimum=0,
    unlimited=True,
    doc="Engine safeguard: a hand still going after this many turns is dead; -1 or 'unlimited' for no cap.",
)
