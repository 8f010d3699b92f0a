"""Knock-game rules as data: every option of docs/rules.md, Dealing and turn options, Knock options, Knock scoring
options, Game and match options, the base
games, the named presets (Presets), and their validation.

>>> r = knock_rules("oklahoma-gin", target_score=150)
>>> r.name, r.knock_limit_mode, r.spade_multiplier, r.target_score
('oklahoma_gin', 'upcard', 2, 150)
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

from rummykit import _core
from rummykit.engine.options import (
    DEALER_AFTER_DEAD_HAND,
    DEALER_ROTATION,
    FORBID_DISCARDING_TAKEN_CARD,
    MAX_POINTS,
    MAX_TURNS,
    NO_DEFAULT,
    UNLIMITED,
    FieldRow,
    Option,
    check_value,
    coerce,
    field_option,
    field_value,
    players_error,
    unknown_name_error,
)
from rummykit.errors import InvalidOptionError
from rummykit.scoring import MODEL_ROWS, ScoringParams

__all__ = [
    "ALIASES",
    "BASE_GAMES",
    "MAX_POINTS",
    "OPTIONS",
    "PRESETS",
    "RENAMED",
    "SCHEMA",
    "UNLIMITED",
    "KnockRules",
    "canonical_names",
    "knock_rules",
    "option_table",
]


@dataclass(frozen=True)
class KnockRules:
    """Every option of a knock game (names as in docs/rules.md, Options); :func:`knock_rules`
    makes them, with each base game's values (``BASE_GAMES``) and a preset's overrides."""

    name: str
    # players, dealing, turn basics (docs/rules.md, Dealing and turn options)
    num_players: int
    dealer_rotation: str
    dealer_after_dead_hand: str
    first_turn_procedure: str
    forbid_discarding_taken_card: bool
    auto_showdown: bool
    # knocking, lay-offs, stock end (docs/rules.md, Knock options)
    knock_limit_mode: str
    knock_limit: int
    knock_compare: str
    ace_upcard_gin_only: bool
    spade_multiplier: int
    spade_double_boxes: bool
    refused_upcard_set_aside: bool
    allow_ace_high_run: bool
    allow_layoff_on_knock: bool
    layoff_onto_prior_layoffs: bool
    stock_end_rule: str
    max_restocks: int
    # engine policy (docs/rules.md, D22): a hand still going after this many turns is dead; it also bounds
    # players who take each other's discards for ever.  -1: no cap.
    max_turns: int
    knocker_arrangement: str  # docs/rules.md, D26; "best_score" may show more deadwood
    partnerships: bool
    # hand scoring (docs/rules.md, Knock scoring options)
    scoring_model: str
    gin_bonus: int
    undercut_bonus: int
    knock_bonus: int
    undercut_on_tie: bool
    undercutter_tiebreak: str
    big_gin_bonus: int | None
    gin_extra_boxes: int
    undercut_extra_boxes: int
    gin_loser_multiplier: int
    gin_loser_extra: int
    undercut_knocker_extra: int
    collect_differences: bool
    losers_charged: bool
    # game and match layer (docs/rules.md, Game and match options)
    target_score: int
    game_bonus: int
    box_bonus: int
    shutout_rule: str
    scoring_sheet: str
    match_mode: str
    match_games: int
    game_end: str
    num_hands: int | None
    ring_payout_model: str
    ring_winner_min_share: float
    ring_cutoff_gap: int
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


# The scoring parameters each model sets (docs/rules.md, Multi-player scoring models, one table in
# rummykit.scoring); options given explicitly override them.  big_gin_bonus
# is an option of its own.
MODEL_PARAMS: dict[str, dict[str, Any]] = {
    model: {k: v for k, v in row.items() if k != "big_gin_bonus"} for model, row in MODEL_ROWS.items()
}

#: the C field table (rk_knock_rules_fields) by option name: the type, range and choices of every
#: option the engine reads
FIELDS: dict[str, FieldRow] = {row[0]: row for row in _core.KNOCK_RULES_FIELDS}

#: Gin Rummy's values of the options the C engine does not read (rk_knock_rules_init gives the rest)
_GIN_MATCH_LAYER: dict[str, Any] = dict(
    dealer_rotation="alternate",
    dealer_after_dead_hand="same",
    allow_ace_high_run=False,
    undercutter_tiebreak="first_after_knocker",
    target_score=100,
    game_bonus=100,
    box_bonus=25,
    shutout_rule="double_total",
    scoring_sheet="single",
    match_mode="off",
    match_games=1,
    game_end="target",
    num_hands=None,
    ring_payout_model="normalized",
    ring_winner_min_share=0.75,
    ring_cutoff_gap=50,
)
#: what each base game changes of _GIN_MATCH_LAYER (scoring_model where C says only "not classic"),
#: and its player count for rk_knock_rules_init
_BASE_OVERRIDES: dict[str, tuple[int, dict[str, Any]]] = {
    "gin": (2, {}),
    "oklahoma_gin": (2, dict(target_score=200)),
    "oklahoma_rummy": (
        3,
        dict(
            dealer_rotation="clockwise",
            scoring_model="net_collect",
            target_score=150,
            game_bonus=0,
            box_bonus=0,
            shutout_rule="none",
        ),
    ),
}


def _base_game(name: str) -> dict[str, Any]:
    players, overrides = _BASE_OVERRIDES[name]
    engine = _core.knock_rules_defaults(_core.KNOCK_BASE_GAMES[name], players)
    values = {key: field_value(FIELDS[key], raw) for key, raw in engine.items()}
    values = {key: value for key, value in values.items() if value is not NO_DEFAULT}
    return {**values, **_GIN_MATCH_LAYER, **overrides}


#: Gin Rummy, Oklahoma Gin and Oklahoma Rummy: every option's value (the engine's options from
#: rk_knock_rules_init, the match layer's from _GIN_MATCH_LAYER and _BASE_OVERRIDES).
BASE_GAMES: dict[str, dict[str, Any]] = {name: _base_game(name) for name in _core.KNOCK_BASE_GAMES}

#: Named presets (docs/rules.md, Presets): (base game, overrides).  gin_matchplay, oklahoma_bonus_penalty and
#: oklahoma_ring were gin_seed000, oklahoma_seed002 and oklahoma_ring_seed003 (their sources S000,
#: S002, S003); the old names stay accepted (RENAMED).
PRESETS: dict[str, tuple[str, dict[str, Any]]] = {
    "gin_classic_pagat": ("gin", dict(gin_bonus=20, undercut_bonus=10, box_bonus=20, shutout_rule="double_game_bonus")),
    "gin_matchplay": ("gin", dict(knock_compare="lt", match_mode="match_points")),
    # the EAAI-2021 Gin Rummy challenge: games to 100, no game, box or shutout bonus (the rest is Gin's defaults)
    "gin_eaai": ("gin", dict(game_bonus=0, box_bonus=0, shutout_rule="none")),
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
    "oklahoma_bonus_penalty": (
        "oklahoma_rummy",
        dict(scoring_model="bonus_penalty", game_end="fixed_hands", **MODEL_PARAMS["bonus_penalty"]),
    ),
    "oklahoma_ring": (
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

#: presets' earlier names (still accepted: hand records and scripts use them) -> the current name
RENAMED: dict[str, str] = {
    "gin_seed000": "gin_matchplay",
    "oklahoma_seed002": "oklahoma_bonus_penalty",
    "oklahoma_ring_seed003": "oklahoma_ring",
}

#: every accepted game name (lower case) -> the canonical base game or preset name
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
    | {old: new for old, new in RENAMED.items()}
    | {old.replace("_", "-"): new for old, new in RENAMED.items()}
)

#: The options as declared: the docs of every option, and the accepted values of those the C engine
#: does not read (SCHEMA adds the C field table's to the others).
_DECLARED: tuple[Option, ...] = (
    # players, dealing, turn basics (docs/rules.md, Dealing and turn options)
    Option(
        "num_players",
        doc="Players at the table: 2, or 3-4 (7 cards each; Oklahoma Rummy, "
        "gin_multi, partnerships) with a multi-player scoring model.",
    ),
    DEALER_ROTATION,
    DEALER_AFTER_DEAD_HAND,
    Option(
        "first_turn_procedure",
        doc="upcard_offer: the non-dealer, then the dealer, may take the first upcard before anyone draws "
        "from the stock (2 players only); normal: the first player simply draws.",
    ),
    FORBID_DISCARDING_TAKEN_CARD,
    Option(
        "auto_showdown",
        doc="After a knock the engine finds each defender's best melds and lay-offs itself; false: the "
        "defenders declare them move by move (manual showdown).",
    ),
    # knocking, lay-offs, stock end (docs/rules.md, Knock options)
    Option(
        "knock_limit_mode",
        doc="fixed: you may knock with deadwood up to knock_limit; upcard: the first upcard's value is the "
        "knock limit (Oklahoma).",
    ),
    Option("knock_limit", doc="The most deadwood you may knock with when knock_limit_mode is fixed."),
    Option(
        "knock_compare",
        doc="le: knock with deadwood at or below the limit (10 or fewer); lt: strictly below it (less than 10).",
    ),
    Option(
        "ace_upcard_gin_only",
        doc="An ace as the first upcard means the hand can only end by gin (Oklahoma; needs "
        "knock_limit_mode='upcard').",
    ),
    Option(
        "spade_multiplier",
        doc="A spade as the first upcard multiplies the hand's score by this (Oklahoma 2, Double Oklahoma 3).",
    ),
    Option(
        "spade_double_boxes",
        doc="A hand won on a spade upcard also counts spade_multiplier boxes instead of one.",
    ),
    Option(
        "refused_upcard_set_aside",
        doc="When both players pass the first upcard it leaves play and the next stock card starts the "
        "discard pile (false: it stays on the pile).",
    ),
    Option("allow_ace_high_run", type=bool, doc="Runs may end Q-K-A (the ace high) as well as A-2-3."),
    Option(
        "allow_layoff_on_knock",
        doc="Defenders may add their cards to the knocker's melds after a knock (never after gin).",
    ),
    Option(
        "layoff_onto_prior_layoffs",
        doc="With 3-4 players, a defender may lay off onto cards another defender laid off (false: onto the "
        "knocker's original melds only).",
    ),
    Option(
        "stock_end_rule",
        doc="When the stock runs low: dead_at_2 ends the hand with 2 cards left after a discard nobody knocks "
        "on; dead_at_2_last_chance lets the opponent take that discard to knock; dead_on_draw ends it on "
        "the draw leaving 2; reshuffle turns the discard pile into a new stock.",
    ),
    Option(
        "max_restocks",
        doc="How many times the stock may be rebuilt from the discards (stock_end_rule='reshuffle'); -1 or "
        "'unlimited' for no limit, then the hand is dead.",
    ),
    MAX_TURNS,
    Option(
        "knocker_arrangement",
        doc="How the engine melds a knocker's hand: the fewest deadwood points (min_deadwood), or the "
        "arrangement that scores best after the defenders' lay-offs (best_score, may show more deadwood).",
    ),
    Option(
        "partnerships",
        doc="Four players in two teams (seats 0+2 against 1+3), each side's deadwood added up and scored as "
        "a two-player hand (preset partnership_oklahoma).",
    ),
    # hand scoring (docs/rules.md, Knock scoring options)
    Option(
        "scoring_model",
        choices=tuple(MODEL_ROWS),
        doc="How a hand is scored: classic_two_player (winner scores the difference plus bonuses), "
        "net_collect (winner collects the difference from every loser), bonus_penalty (winner gets a "
        "bonus, losers get penalty points), ring_penalty (penalty points and a cash payout).  Choosing "
        "one sets the bonuses below; each may still be set on its own.",
    ),
    Option("gin_bonus", doc="Points added for going gin (all cards melded)."),
    Option(
        "undercut_bonus", doc="Points added for undercutting a knocker (defender's deadwood at or below the knocker's)."
    ),
    Option("knock_bonus", doc="Points added for winning a hand by knocking."),
    Option(
        "undercut_on_tie",
        doc="A defender whose deadwood equals the knocker's undercuts (false: ties go to the knocker).",
    ),
    Option(
        "undercutter_tiebreak",
        choices=("first_after_knocker",),
        type=str,
        doc="With 3-4 players, several defenders tied for the lowest deadwood: the first after the knocker "
        "undercuts (the only rule).",
    ),
    Option(
        "big_gin_bonus",
        doc="The bonus for big gin (all 11 cards melded after drawing, no discard); none: big gin is off "
        "(2 players only).",
    ),
    Option("gin_extra_boxes", doc="Extra boxes (hands-won credits) for a gin, on top of the usual one."),
    Option("undercut_extra_boxes", doc="Extra boxes for an undercut, on top of the usual one."),
    Option(
        "gin_loser_multiplier",
        doc="After a gin each loser's deadwood is charged this many times (multi-player models).",
    ),
    Option("gin_loser_extra", doc="Penalty points added to each loser's charge after a gin (ring game: 25)."),
    Option("undercut_knocker_extra", doc="Penalty points added to an undercut knocker's charge (ring game: 10)."),
    Option(
        "collect_differences",
        doc="The winner also scores the losers' deadwood minus their own (false: only the bonus).",
    ),
    Option("losers_charged", doc="Losers lose points (penalty points) as well as the winner scoring."),
    # game and match layer (docs/rules.md, Game and match options)
    Option("target_score", doc="Hand points that win the game."),
    Option("game_bonus", doc="Points added to the game winner's total at the end of a game."),
    Option("box_bonus", doc="Points per box (hand won) added to each player's total at the end of a game."),
    Option(
        "shutout_rule",
        choices=("double_total", "double_game_bonus", "double_hand_points", "none"),
        type=str,
        doc="When the loser won no hand: double the winner's whole total, double the game bonus, double "
        "the winner's hand points, or nothing extra.",
    ),
    Option(
        "scoring_sheet",
        choices=("single", "hollywood"),
        type=str,
        doc="single: one game at a time; hollywood: three games scored at once, a player's first win counts "
        "in game 1, the second in games 1-2, later ones in all three (2 players).",
    ),
    Option(
        "match_mode",
        choices=("off", "match_points"),
        type=str,
        doc="match_points: each game gives its winner 100 plus 25 per hand won and the loser 25 per hand "
        "won (2 players); off: games are scored on their own.",
    ),
    Option("match_games", minimum=1, doc="Games in a match."),
    Option(
        "game_end",
        choices=("target", "fixed_hands"),
        type=str,
        doc="target: the game ends when someone reaches target_score; fixed_hands: after num_hands hands.",
    ),
    Option(
        "num_hands",
        minimum=1,
        nullable=True,
        doc="Hands in a game when game_end is fixed_hands; none: twice the number of players.",
    ),
    Option(
        "ring_payout_model",
        choices=("normalized", "slot_scaled"),
        type=str,
        doc="Ring game payout of the 25% beyond the winner's 75%: normalized shares all of it among the "
        "players less than ring_cutoff_gap behind; slot_scaled gives each non-winner an equal slot "
        "scaled by closeness, the rest back to the winner.",
    ),
    Option(
        "ring_winner_min_share",
        choices=(0.75,),
        type=float,
        doc="The ring game winner's least share of the pool (fixed at 0.75).",
    ),
    Option(
        "ring_cutoff_gap",
        doc="In the ring payout, players this many penalty points or more behind the winner get nothing.",
    ),
)
#: Every knock-game option once: its meaning (docs/rules.md, Dealing and turn options, Knock options, Knock scoring
#: options, Game and match options) and accepted values, which for the options the engine reads are
#: their C field table's (FIELDS).  The defaults are not here: they are each base game's values
#: (BASE_GAMES) with a preset's overrides (``rummykit.game_options(name)`` shows them per game).
SCHEMA: tuple[Option, ...] = tuple(field_option(FIELDS[o.name], o) if o.name in FIELDS else o for o in _DECLARED)
OPTIONS: dict[str, Option] = {o.name: o for o in SCHEMA}

#: the options with a fixed set of values (from SCHEMA)
CHOICES: dict[str, tuple[Any, ...]] = {o.name: o.choices for o in SCHEMA if o.choices is not None}
#: the true/false options (from SCHEMA)
BOOLS: frozenset[str] = frozenset(o.name for o in SCHEMA if o.type is bool)


def knock_rules(game: str = "gin", **options: Any) -> KnockRules:
    """The rules of a knock game or preset (any alias) with options applied.

    Raises :class:`InvalidOptionError` naming an unknown game or option (with
    the closest name), a bad value (with the accepted values and the option's
    meaning), or an impossible combination.
    """
    key = ALIASES.get(game.lower().strip()) if isinstance(game, str) else None
    if key is None:
        raise unknown_name_error("knock game", game, canonical_names(), aliases=ALIASES)
    try:
        return _build(key, options)
    except InvalidOptionError as err:
        raise players_error(err, key, options, canonical_names(), _build) from None


def _build(key: str, options: dict[str, Any]) -> KnockRules:
    """The rules of the canonical game ``key`` with ``options`` (see :func:`knock_rules`)."""
    base, preset = (key, {}) if key in BASE_GAMES else PRESETS[key]
    for name in options:
        if name not in OPTIONS:
            raise unknown_name_error("option", name, OPTIONS, f" for {key}")
    given = {k: coerce(OPTIONS[k], v) for k, v in options.items()}
    values: dict[str, Any] = {**BASE_GAMES[base], **preset}
    model = given.get("scoring_model")
    if isinstance(model, str) and model in MODEL_PARAMS and model != values.get("scoring_model", "classic_two_player"):
        values.update(MODEL_PARAMS[model])
    values.update(given)
    for name, value in values.items():
        check_value(OPTIONS[name], value)
    rules = KnockRules(name=key, given=tuple(sorted(given.items())), **values)
    _check_combination(rules)
    return rules


def canonical_names() -> list[str]:
    """The base games and presets by their current names."""
    return [*BASE_GAMES, *PRESETS]


def _check_combination(r: KnockRules) -> None:
    two = r.num_players == 2
    if r.first_turn_procedure == "upcard_offer" and not two:
        raise InvalidOptionError("first_turn_procedure='upcard_offer' needs 2 players")
    if r.partnerships and not _core.knock_rules_ok(r):  # the engine's rule (rk_knock_rules_check)
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


def option_table(rules: KnockRules) -> dict[str, Option]:
    """Every option with its value in ``rules`` as the default."""
    return {o.name: dataclasses.replace(o, default=getattr(rules, o.name)) for o in SCHEMA}
