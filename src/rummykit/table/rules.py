"""Table-game rules as data: traditional Rummy and Kaluki (RULES.md §1.4,
§1.5), every option of §2.1, §2.5 and §2.6, the presets of §2.7, and their
validation.

One frozen record serves both games; ``game`` says which, and each option
belongs to one game or to both (an option of the other game is rejected).

>>> r = table_rules("kalooki_51")
>>> r.game, r.initial_meld_min, r.kaluki_jokers, r.joker_penalty
('kaluki', 51, 4, 25)
>>> table_rules("rummy", num_players=4).hand_size
7
"""

from __future__ import annotations

import dataclasses
import numbers
from dataclasses import dataclass, field
from typing import Any

from rummykit.errors import InvalidOptionError

__all__ = ["ALIASES", "PRESETS", "UNLIMITED", "TableRules", "table_rules"]

UNLIMITED = -1
MAX_POINTS = 1_000_000


@dataclass(frozen=True)
class TableRules:
    """Every option of a table game (names and defaults as in RULES.md §2;
    ``max_melds_per_turn`` and ``max_build_per_run_end`` use -1 for
    ``"unlimited"``, which is also accepted as text)."""

    name: str = "rummy"
    game: str = "rummy"  # "rummy" or "kaluki"
    # §2.1 players, dealing, turn basics
    num_players: int = 2
    dealer_rotation: str = "clockwise"
    dealer_after_dead_hand: str = "same"
    first_turn_procedure: str = "normal"
    forbid_discarding_taken_card: bool = True
    restock_method: str = "reshuffle_keep_top"
    max_restocks: int = UNLIMITED
    # engine policy (RULES §4 Q22): a hand still going after this many turns is dead.  -1: no cap.
    max_turns: int = 1000
    go_out_requires_discard: bool = False
    # §2.6 Rummy
    ace_rank: str = "low"
    ace_value: int = 1
    allow_wraparound: bool = False
    rummy_bonus: str = "double"
    no_go_out_first_turn: bool = False
    max_melds_per_turn: int = UNLIMITED
    taken_discard_must_be_melded: bool = False
    rummy_scoring: str = "winner_collects"
    target_score: int = 100
    # §2.5 Kaluki
    kaluki_jokers: int = 2
    initial_meld_min: int = 40
    building_counts_toward_opening: bool = False
    unopened_discard_draw: str = "only_if_used_in_opening"
    first_turn_upcard_free: bool = False
    ace_low_runs: bool = False
    joker_penalty: int = 15
    two_joker_set_release: str = "two_naturals"
    max_build_per_run_end: int = 2
    released_joker_must_be_played: bool = True
    unopened_may_release_joker: bool = False
    call_off_bonus: int = 20
    hunt_bonus: int = 40
    hunt_penalty_mode: str = "double"
    hunt_allows_building: bool = True
    hunt_requires_opening_min: bool = True
    elimination_threshold: int = 150
    elimination_compare: str = "ge"
    kaluki_bonus_accounting: str = "separate"
    kaluki_buy_in: bool = False
    joker_discard_allowed: bool = True
    #: the options given explicitly (for records and repr)
    given: tuple[tuple[str, Any], ...] = field(default=(), compare=False, repr=False)

    @property
    def is_kaluki(self) -> bool:
        return self.game == "kaluki"

    @property
    def hand_size(self) -> int:
        """Cards dealt to each player (RULES §0.5): Kaluki 13; Rummy 10 / 7 / 6."""
        if self.is_kaluki:
            return 13
        return 10 if self.num_players == 2 else 7 if self.num_players <= 4 else 6

    @property
    def deck_size(self) -> int:
        """Physical cards: 52, or 104 plus the jokers."""
        return 104 + self.kaluki_jokers if self.is_kaluki else 52

    def options(self) -> dict[str, Any]:
        """Every option of this game and its value."""
        return {name: getattr(self, name) for name in sorted(OPTIONS[self.game])}


_COMMON = {
    "num_players",
    "dealer_rotation",
    "dealer_after_dead_hand",
    "first_turn_procedure",
    "forbid_discarding_taken_card",
    "restock_method",
    "max_restocks",
    "max_turns",
    "go_out_requires_discard",
}
_RUMMY = {
    "ace_rank",
    "ace_value",
    "allow_wraparound",
    "rummy_bonus",
    "no_go_out_first_turn",
    "max_melds_per_turn",
    "taken_discard_must_be_melded",
    "rummy_scoring",
    "target_score",
}
_KALUKI = {f.name for f in dataclasses.fields(TableRules) if f.name not in _COMMON | _RUMMY | {"name", "game", "given"}}
#: the options each game accepts
OPTIONS: dict[str, frozenset[str]] = {"rummy": frozenset(_COMMON | _RUMMY), "kaluki": frozenset(_COMMON | _KALUKI)}

BASE_GAMES: dict[str, dict[str, Any]] = {
    "rummy": {},
    "kaluki": dict(game="kaluki", go_out_requires_discard=True),
}
#: Named presets (RULES.md §2.7): (base game, overrides).
PRESETS: dict[str, tuple[str, dict[str, Any]]] = {
    "kalooki_51": ("kaluki", dict(initial_meld_min=51, kaluki_jokers=4, joker_penalty=25)),
}
ALIASES: dict[str, str] = {
    "rummy": "rummy",
    "traditional_rummy": "rummy",
    "traditional-rummy": "rummy",
    "rum": "rummy",
    "kaluki": "kaluki",
    "kalooki": "kaluki",
    "kalookie": "kaluki",
    "kalooki_40": "kaluki",
    "kalooki-40": "kaluki",
    "kalooki_51": "kalooki_51",
    "kalooki-51": "kalooki_51",
    "kaluki_51": "kalooki_51",
}

CHOICES: dict[str, tuple[Any, ...]] = {
    "dealer_rotation": ("clockwise", "alternate", "winner_deals"),
    "dealer_after_dead_hand": ("same", "next"),
    "first_turn_procedure": ("normal",),
    "ace_rank": ("low", "high", "high_or_low"),
    "ace_value": (1, 11, 15),
    "rummy_bonus": ("double", "flat_25", "flat_10", "none"),
    "rummy_scoring": ("winner_collects", "penalty"),
    "kaluki_jokers": (2, 4),
    "initial_meld_min": (40, 51),
    "unopened_discard_draw": ("only_if_used_in_opening", "forbidden", "free"),
    "joker_penalty": (15, 25),
    "two_joker_set_release": ("two_naturals", "one_natural"),
    "call_off_bonus": (20,),
    "hunt_bonus": (40,),
    "hunt_penalty_mode": ("double", "plus_25"),
    "elimination_compare": ("ge", "gt"),
    "kaluki_bonus_accounting": ("separate", "subtract_from_penalty"),
    "released_joker_must_be_played": (True,),
    "kaluki_buy_in": (False,),
}
_RESTOCK = {"rummy": ("reshuffle_keep_top", "turn_over", "block"), "kaluki": ("reshuffle_keep_top",)}
_UNLIMITED_TEXT = ("max_melds_per_turn", "max_build_per_run_end", "max_restocks")
_SMALL_CHOICES = {"max_melds_per_turn": (UNLIMITED, 1), "max_build_per_run_end": (UNLIMITED, 2)}
BOOLS = {f.name for f in dataclasses.fields(TableRules) if f.type in ("bool", bool)}


def table_rules(game: str = "rummy", **options: Any) -> TableRules:
    """The rules of Rummy, Kaluki or a preset (any alias) with options applied.

    Raises :class:`InvalidOptionError` naming an unknown game or option, a
    bad value (with the allowed values), or an option of the other game.
    """
    key = ALIASES.get(game.lower().strip() if isinstance(game, str) else game)
    if key is None:
        raise InvalidOptionError(f"unknown table game {game!r}; known: {', '.join(sorted(ALIASES))}")
    base, preset = (key, {}) if key in BASE_GAMES else PRESETS[key]
    kind = "kaluki" if base == "kaluki" else "rummy"
    for name in options:
        if name not in OPTIONS[kind]:
            other = "rummy" if kind == "kaluki" else "kaluki"
            hint = f" (a {other} option)" if name in OPTIONS[other] else ""
            raise InvalidOptionError(f"unknown option {name!r} for {key}{hint}")
    values: dict[str, Any] = {**BASE_GAMES[base], **preset}
    values.update({k: _plain(k, v) for k, v in options.items()})
    for name, value in values.items():
        _check_value(kind, name, value)
    return TableRules(name=key, given=tuple(sorted(options.items())), **values)


def _plain(name: str, value: Any) -> Any:
    """numpy integers as plain ints; ``"unlimited"`` as -1."""
    if name in _UNLIMITED_TEXT and value == "unlimited":
        return UNLIMITED
    if isinstance(value, numbers.Integral) and not isinstance(value, (bool, int)):
        return int(value)
    return value


def _check_value(kind: str, name: str, value: Any) -> None:
    allowed: tuple[Any, ...] | None = CHOICES.get(name) or _SMALL_CHOICES.get(name)
    if name == "restock_method":
        allowed = _RESTOCK[kind]
    if allowed is not None and (value not in allowed or type(value) not in {type(c) for c in allowed}):
        shown = tuple("unlimited" if v == UNLIMITED and name in _UNLIMITED_TEXT else v for v in allowed)
        raise InvalidOptionError(f"{name} must be one of {shown}, got {value!r}")
    if name in BOOLS and not isinstance(value, bool):
        raise InvalidOptionError(f"{name} must be true or false, got {value!r}")
    if name == "num_players":
        low, high = (2, 5) if kind == "kaluki" else (2, 6)
        if type(value) is not int or not low <= value <= high:
            raise InvalidOptionError(f"num_players must be {low}..{high} for {kind}, got {value!r}")
    if name in ("target_score", "elimination_threshold") and (type(value) is not int or not 1 <= value <= MAX_POINTS):
        raise InvalidOptionError(f"{name} must be an integer in 1..{MAX_POINTS}, got {value!r}")
    if name in ("max_restocks", "max_turns") and (type(value) is not int or not UNLIMITED <= value <= MAX_POINTS):
        raise InvalidOptionError(f"{name} must be -1 (unlimited) or a non-negative integer, got {value!r}")
