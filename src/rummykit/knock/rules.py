"""Knock-game rules as data: every option of RULES.md §2.1-§2.4, the base
games, the named presets of §2.7, and their validation.

>>> r = knock_rules("oklahoma-gin", target_score=150)
>>> r.name, r.knock_limit_mode, r.spade_multiplier, r.target_score
('oklahoma_gin', 'upcard', 2, 150)
"""

from __future__ import annotations

import dataclasses
import numbers
from dataclasses import dataclass, field
from typing import Any

from rummykit.errors import InvalidOptionError
from rummykit.scoring import MODEL_ROWS, ScoringParams

__all__ = ["ALIASES", "BASE_GAMES", "PRESETS", "KnockRules", "knock_rules"]

UNLIMITED = -1
MAX_POINTS = 1_000_000  # bound on every integer option (keeps them within C int range)


@dataclass(frozen=True)
class KnockRules:
    """Every option of a knock game (names and defaults as in RULES.md §2;
    these defaults are Gin Rummy's, the base games and presets override them)."""

    name: str = "gin"
    # §2.1 players, dealing, turn basics
    num_players: int = 2
    dealer_rotation: str = "alternate"
    dealer_after_dead_hand: str = "same"
    first_turn_procedure: str = "upcard_offer"
    forbid_discarding_taken_card: bool = True
    auto_showdown: bool = True
    # §2.2 knocking, lay-offs, stock end
    knock_limit_mode: str = "fixed"
    knock_limit: int = 10
    knock_compare: str = "le"
    ace_upcard_gin_only: bool = False
    spade_multiplier: int = 1
    spade_double_boxes: bool = False
    refused_upcard_set_aside: bool = False
    allow_ace_high_run: bool = False
    allow_layoff_on_knock: bool = True
    layoff_onto_prior_layoffs: bool = False
    stock_end_rule: str = "dead_at_2"
    max_restocks: int = UNLIMITED
    # engine policy (RULES §4 Q22): a hand still going after this many turns is dead; it also bounds
    # players who take each other's discards for ever.  -1: no cap.
    max_turns: int = 1000
    knocker_arrangement: str = "min_deadwood"  # RULES §4 Q26; "best_score" may show more deadwood
    partnerships: bool = False
    # §2.3 hand scoring
    scoring_model: str = "classic_two_player"
    gin_bonus: int = 25
    undercut_bonus: int = 25
    knock_bonus: int = 0
    undercut_on_tie: bool = True
    undercutter_tiebreak: str = "first_after_knocker"
    big_gin_bonus: int | None = None
    gin_extra_boxes: int = 0
    undercut_extra_boxes: int = 0
    gin_loser_multiplier: int = 1
    gin_loser_extra: int = 0
    undercut_knocker_extra: int = 0
    collect_differences: bool = True
    losers_charged: bool = False
    # §2.4 game and match layer
    target_score: int = 100
    game_bonus: int = 100
    box_bonus: int = 25
    shutout_rule: str = "double_total"
    scoring_sheet: str = "single"
    match_mode: str = "off"
    match_games: int = 1
    game_end: str = "target"
    num_hands: int | None = None
    ring_payout_model: str = "normalized"
    ring_winner_min_share: float = 0.75
    ring_cutoff_gap: int = 50
    #: the options given explicitly (for records and repr)
    given: tuple[tuple[str, Any], ...] = field(default=(), compare=False, repr=False)

    @property
    def hand_size(self) -> int:
        """Cards dealt to each player: 10 for two players, 7 for three or four."""
        return 10 if self.num_players == 2 else 7

    @property
    def aces(self) -> str:
        """The ace mode of runs for the C core."""
        return "both" if self.allow_ace_high_run else "low"

    @property
    def scoring(self) -> ScoringParams:
        """The hand-scoring parameters of this variant."""
        return ScoringParams(
            model=self.scoring_model,
            knock_bonus=self.knock_bonus,
            undercut_bonus=self.undercut_bonus,
            gin_bonus=self.gin_bonus,
            big_gin_bonus=self.big_gin_bonus,
            collect_differences=self.collect_differences,
            losers_charged=self.losers_charged,
            gin_loser_multiplier=self.gin_loser_multiplier,
            gin_loser_extra=self.gin_loser_extra,
            undercut_knocker_extra=self.undercut_knocker_extra,
        )

    def options(self) -> dict[str, Any]:
        """Every option and its value."""
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self) if f.name not in ("name", "given")}


# The scoring parameters each model sets (RULES.md §1.6.4, one table in
# rummykit.scoring); options given explicitly override them.  big_gin_bonus
# is an option of its own.
MODEL_PARAMS: dict[str, dict[str, Any]] = {
    model: {k: v for k, v in row.items() if k != "big_gin_bonus"} for model, row in MODEL_ROWS.items()
}

#: Gin Rummy, Oklahoma Gin and Oklahoma Rummy: overrides of the defaults above.
BASE_GAMES: dict[str, dict[str, Any]] = {
    "gin": {},
    "oklahoma_gin": dict(
        first_turn_procedure="normal",
        knock_limit_mode="upcard",
        ace_upcard_gin_only=True,
        spade_multiplier=2,
        target_score=200,
    ),
    "oklahoma_rummy": dict(
        num_players=3,
        dealer_rotation="clockwise",
        first_turn_procedure="normal",
        knock_limit_mode="upcard",
        ace_upcard_gin_only=True,
        spade_multiplier=2,
        stock_end_rule="reshuffle",
        scoring_model="net_collect",
        target_score=150,
        game_bonus=0,
        box_bonus=0,
        shutout_rule="none",
        **MODEL_PARAMS["net_collect"],
    ),
}

#: Named presets (RULES.md §2.7): (base game, overrides).
PRESETS: dict[str, tuple[str, dict[str, Any]]] = {
    "gin_classic_pagat": ("gin", dict(gin_bonus=20, undercut_bonus=10, box_bonus=20, shutout_rule="double_game_bonus")),
    "gin_seed000": ("gin", dict(knock_compare="lt", match_mode="match_points")),
    "gin_multi": (
        "oklahoma_rummy",
        dict(
            knock_limit_mode="fixed",
            knock_limit=10,
            spade_multiplier=1,
            ace_upcard_gin_only=False,
            scoring_model="bonus_penalty",
            game_end="fixed_hands",
            **MODEL_PARAMS["bonus_penalty"],
        ),
    ),
    "oklahoma_gin_150": ("oklahoma_gin", dict(target_score=150, first_turn_procedure="upcard_offer")),
    "double_oklahoma": ("oklahoma_gin", dict(spade_multiplier=3)),
    "oklahoma_seed002": (
        "oklahoma_rummy",
        dict(scoring_model="bonus_penalty", game_end="fixed_hands", **MODEL_PARAMS["bonus_penalty"]),
    ),
    "oklahoma_ring_seed003": (
        "oklahoma_rummy",
        dict(scoring_model="ring_penalty", game_end="fixed_hands", **MODEL_PARAMS["ring_penalty"]),
    ),
    "partnership_oklahoma": (
        "oklahoma_rummy",
        dict(
            num_players=4,
            partnerships=True,
            scoring_model="classic_two_player",
            target_score=200,
            game_bonus=100,
            box_bonus=25,
            shutout_rule="double_total",
            **MODEL_PARAMS["classic_two_player"],
        ),
    ),
}

ALIASES: dict[str, str] = (
    {
        "gin": "gin",
        "gin-rummy": "gin",
        "gin_rummy": "gin",
        "oklahoma-gin": "oklahoma_gin",
        "oklahoma_gin": "oklahoma_gin",
        "oklahoma": "oklahoma_gin",
        "oklahoma-rummy": "oklahoma_rummy",
        "oklahoma_rummy": "oklahoma_rummy",
    }
    | {p: p for p in PRESETS}
    | {p.replace("_", "-"): p for p in PRESETS}
)

CHOICES: dict[str, tuple[Any, ...]] = {
    "dealer_rotation": ("alternate", "clockwise", "winner_deals"),
    "dealer_after_dead_hand": ("same", "next"),
    "first_turn_procedure": ("upcard_offer", "normal"),
    "knock_limit_mode": ("fixed", "upcard"),
    "knock_compare": ("le", "lt"),
    "spade_multiplier": (1, 2, 3),
    "stock_end_rule": ("dead_at_2", "dead_at_2_last_chance", "dead_on_draw", "reshuffle"),
    "knocker_arrangement": ("min_deadwood", "best_score"),
    "scoring_model": tuple(MODEL_PARAMS),
    "undercutter_tiebreak": ("first_after_knocker",),
    "big_gin_bonus": (None, 31, 50),
    "gin_loser_multiplier": (1, 2),
    "shutout_rule": ("double_total", "double_game_bonus", "double_hand_points", "none"),
    "scoring_sheet": ("single", "hollywood"),
    "match_mode": ("off", "match_points"),
    "game_end": ("target", "fixed_hands"),
    "ring_payout_model": ("normalized", "slot_scaled"),
    "ring_winner_min_share": (0.75,),
}
BOOLS = {f.name for f in dataclasses.fields(KnockRules) if f.type in ("bool", bool)}
NON_NEGATIVE_INTS = (
    "knock_limit",
    "gin_bonus",
    "undercut_bonus",
    "knock_bonus",
    "gin_extra_boxes",
    "undercut_extra_boxes",
    "gin_loser_extra",
    "undercut_knocker_extra",
    "target_score",
    "game_bonus",
    "box_bonus",
    "ring_cutoff_gap",
)


def knock_rules(game: str = "gin", **options: Any) -> KnockRules:
    """The rules of a knock game or preset (any alias) with options applied.

    Raises :class:`InvalidOptionError` naming an unknown game or option, a
    bad value, or an impossible combination.
    """
    key = ALIASES.get(game.lower().strip() if isinstance(game, str) else game)
    if key is None:
        raise InvalidOptionError(f"unknown knock game {game!r}; known: {', '.join(sorted(ALIASES))}")
    base, preset = (key, {}) if key in BASE_GAMES else PRESETS[key]
    known = {f.name for f in dataclasses.fields(KnockRules)} - {"name", "given"}
    for name in options:
        if name not in known:
            raise InvalidOptionError(f"unknown option {name!r} for {key}")
    values: dict[str, Any] = {**BASE_GAMES[base], **preset}
    model = options.get("scoring_model")
    if isinstance(model, str) and model in MODEL_PARAMS and model != values.get("scoring_model", "classic_two_player"):
        values.update(MODEL_PARAMS[model])
    values.update({k: _plain(v) for k, v in options.items()})
    for name, value in values.items():
        _check_value(name, value)
    rules = KnockRules(name=key, given=tuple(sorted(options.items())), **values)
    _check_combination(rules)
    return rules


def _plain(value: Any) -> Any:
    """numpy integers (and other exact integer types) as plain ints."""
    if isinstance(value, numbers.Integral) and not isinstance(value, (bool, int)):
        return int(value)
    return value


def _check_value(name: str, value: Any) -> None:
    if name in CHOICES and (value not in CHOICES[name] or type(value) not in {type(c) for c in CHOICES[name]}):
        raise InvalidOptionError(f"{name} must be one of {CHOICES[name]}, got {value!r}")
    if name in BOOLS and not isinstance(value, bool):
        raise InvalidOptionError(f"{name} must be true or false, got {value!r}")
    if name in NON_NEGATIVE_INTS and (type(value) is not int or not 0 <= value <= MAX_POINTS):
        raise InvalidOptionError(f"{name} must be an integer in 0..{MAX_POINTS}, got {value!r}")
    if name == "num_players" and (type(value) is not int or value not in (2, 3, 4)):
        raise InvalidOptionError(f"num_players must be 2, 3 or 4, got {value!r}")
    if name in ("max_restocks", "max_turns") and (type(value) is not int or not UNLIMITED <= value <= MAX_POINTS):
        raise InvalidOptionError(f"{name} must be -1 (unlimited) or a non-negative integer, got {value!r}")
    if (
        name in ("match_games", "num_hands")
        and value is not None
        and (type(value) is not int or not 1 <= value <= MAX_POINTS)
    ):
        raise InvalidOptionError(f"{name} must be a positive integer, got {value!r}")


def _check_combination(r: KnockRules) -> None:
    two = r.num_players == 2
    if r.first_turn_procedure == "upcard_offer" and not two:
        raise InvalidOptionError("first_turn_procedure='upcard_offer' needs 2 players")
    if r.partnerships and (r.num_players != 4 or r.scoring_model != "classic_two_player"):
        raise InvalidOptionError(
            "partnerships needs num_players=4 and scoring_model='classic_two_player' (preset 'partnership_oklahoma')"
        )
    if r.scoring_model == "classic_two_player" and not two and not r.partnerships:
        raise InvalidOptionError("scoring_model='classic_two_player' needs 2 players (or partnerships)")
    if r.scoring_sheet == "hollywood" and not two:
        raise InvalidOptionError("scoring_sheet='hollywood' is defined for 2 players only")
    if r.stock_end_rule == "dead_at_2_last_chance" and not two:
        raise InvalidOptionError("stock_end_rule='dead_at_2_last_chance' is a two-player rule")
    if r.match_mode == "match_points" and not two:
        raise InvalidOptionError("match_mode='match_points' is a two-player rule")
    if r.knock_limit_mode == "fixed" and r.ace_upcard_gin_only:
        raise InvalidOptionError("ace_upcard_gin_only needs knock_limit_mode='upcard'")
    if r.big_gin_bonus is not None and not two:
        raise InvalidOptionError("big_gin_bonus is a two-player rule")
