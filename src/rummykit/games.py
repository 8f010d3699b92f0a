"""``rummykit.Game``: look up a game or preset by name and apply options;
``game_options`` and ``game_names`` make the games and their options
discoverable (also ``help(rummykit.Game)``)."""

from __future__ import annotations

import textwrap
from dataclasses import replace

from rummykit.engine.family import FAMILIES, Family, register
from rummykit.engine.game import Game, set_resolver
from rummykit.engine.options import NO_DEFAULT, Option, options_help, show_value, unknown_name_error
from rummykit.errors import InvalidOptionError, clip
from rummykit.knock.family import KNOCK
from rummykit.knock.game import KnockGame
from rummykit.table.family import TABLE
from rummykit.table.game import TableGame

__all__ = ["FAMILIES", "Game", "KnockGame", "TableGame", "all_aliases", "game_names", "game_options", "game_presets"]

# the registry: one line per family
register(KNOCK)
register(TABLE)


def all_aliases() -> dict[str, str]:
    """Every name :func:`Game` accepts (lower case) -> the canonical name of its game or preset."""
    return {alias: key for family in FAMILIES.values() for alias, key in family.aliases.items()}


def game_names(aliases: bool = False) -> list[str]:
    """The canonical names of the games and presets (sorted: the ``rules.name`` of the
    games they make); with ``aliases=True`` every name :func:`Game` accepts (other
    spellings and earlier names too)."""
    if not isinstance(aliases, bool) and not (
        getattr(aliases, "shape", None) == () and getattr(getattr(aliases, "dtype", None), "kind", "") == "b"
    ):  # a numpy bool too; an array's truth is ambiguous
        raise InvalidOptionError(f"aliases must be True or False, got {clip(aliases)}")
    if aliases:
        return sorted(all_aliases())
    return sorted(name for family in FAMILIES.values() for name in (*family.base_games, *family.presets))


def game_presets() -> dict[str, str]:
    """Each preset's canonical name -> the base game it varies
    (``"gin_matchplay": "gin"``; docs/rules.md, Presets)."""
    return {name: base for family in FAMILIES.values() for name, base in family.presets.items()}


def _canonical(name: object) -> tuple[Family, str]:
    """``(family, canonical name)`` of any accepted game name."""
    key = name.lower().strip() if isinstance(name, str) else ""
    for family in FAMILIES.values():
        if key in family.aliases:
            return family, family.aliases[key]
    raise unknown_name_error("game", name, game_names(), aliases=all_aliases())


def game_options(name: str) -> dict[str, Option]:
    """Every option of the game, preset or alias ``name`` as :class:`Option`
    records (``name``, ``default``, ``choices``, ``doc``, ``type``...), with
    ``default`` the value that game uses when the option is not given.

    >>> game_options("oklahoma-gin")["target_score"].default
    200
    >>> game_options("gin")["knock_compare"].choices
    ('le', 'lt')
    """
    family, key = _canonical(name)
    return family.options(key)


def _family(name: object) -> str:
    """The family (``"knock"``, ``"table"``) of a game name; unknown names raise."""
    return _canonical(name)[0].name


set_resolver(_family, lambda: game_names(aliases=False))


_GAME_DOC = """The game called ``name`` (any alias or preset) with ``options``: a
    :class:`KnockGame` (Gin, Oklahoma Gin, Oklahoma Rummy) or a :class:`TableGame`
    (Rummy, Kaluki), both subclasses of ``Game`` with the same ``new_hand`` and
    hands with the same verbs (:class:`rummykit.GameState`).

    >>> Game("oklahoma-gin", target_score=150, spade_multiplier=3)
    Game('oklahoma_gin', spade_multiplier=3, target_score=150)
    >>> Game("kalooki", num_players=4)
    Game('kaluki', num_players=4)
    >>> isinstance(Game("rummy"), Game), type(Game("rummy")).__name__, type(Game("gin")).__name__
    (True, 'TableGame', 'KnockGame')
"""


def _games_help() -> str:
    """The games, presets and options part of ``Game``'s docstring."""
    aliases: dict[str, list[str]] = {}
    for alias, key in all_aliases().items():
        if alias != key:
            aliases.setdefault(key, []).append(alias)
    lines = [
        "",
        "Games and presets (other accepted names in brackets), with every option as",
        "``name = default  [accepted values]``; a preset lists only what it changes:",
    ]
    meanings: dict[str, Option] = {}
    bases = [base for family in FAMILIES.values() for base in family.base_games]
    presets = game_presets()
    for key in [*bases, *presets]:
        options = game_options(key)
        also = f"  [{', '.join(sorted(aliases.get(key, [])))}]" if aliases.get(key) else ""
        lines.append("")
        if key in presets:
            base = game_options(presets[key])
            changed = [
                f"{o.name}={show_value(o, o.default)}" for o in options.values() if o.default != base[o.name].default
            ]
            text = f"{key}{also}: {presets[key]} with " + (", ".join(changed) or "its defaults")
            lines.extend(textwrap.wrap(text, 100, subsequent_indent="    ", break_on_hyphens=False))
            continue
        lines.append(f"{key}{also}:")
        lines.append(options_help(options.values(), indent="    ", docs=False))
        for o in options.values():
            meanings.setdefault(o.name, replace(o, default=NO_DEFAULT))
    lines += ["", "What each option means (accepted values as in gin, rummy or kaluki above):"]
    lines.append(options_help(meanings.values(), indent="    ", docs=True))
    return "\n".join(lines)


Game.__doc__ = _GAME_DOC + "\n".join("    " + line if line else "" for line in _games_help().splitlines())
