"""Table-game rules as data: traditional Rummy and Kaluki (docs/rules.md, Kaluki,
Rummy), every option of Dealing and turn options, Kaluki options, Rummy options, the presets (Presets), and their
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

from dataclasses import dataclass, field, replace
from typing import Any

from rummykit import _core
from rummykit.engine.options import (
    DEALER_AFTER_DEAD_HAND,
    DEALER_ROTATION,
    FORBID_DISCARDING_TAKEN_CARD,
    MAX_POINTS,
    MAX_TURNS,
    UNLIMITED,
    FieldRow,
    Option,
    check_value,
    coerce,
    field_option,
    players_error,
    unknown_name_error,
)
from rummykit.errors import InvalidOptionError

__all__ = [
    "ALIASES",
    "BASE_GAMES",
    "MAX_POINTS",
    "OPTIONS",
    "PRESETS",
    "SCHEMA",
    "UNLIMITED",
    "TableRules",
    "canonical_names",
    "table_rules",
    "option_table",
]


@dataclass(frozen=True)
class TableRules:
    """Every option of a table game (names and defaults as in docs/rules.md, Options;
    ``max_melds_per_turn`` and ``max_build_per_run_end`` use -1 for
    ``"unlimited"``, which is also accepted as text)."""

    name: str = "rummy"
    game: str = "rummy"  # "rummy" or "kaluki"
    # players, dealing, turn basics (docs/rules.md, Dealing and turn options)
    num_players: int = 2
    dealer_rotation: str = "clockwise"
    dealer_after_dead_hand: str = "same"
    first_turn_procedure: str = "normal"
    forbid_discarding_taken_card: bool = True
    restock_method: str = "reshuffle_keep_top"
    max_restocks: int = UNLIMITED
    # engine policy (docs/rules.md, D22): a hand still going after this many turns is dead.  -1: no cap.
    max_turns: int = 1000
    go_out_requires_discard: bool = False
    # Rummy (docs/rules.md, Rummy options)
    ace_rank: str = "low"
    ace_value: int = 1
    allow_wraparound: bool = False
    rummy_bonus: str = "double"
    no_go_out_first_turn: bool = False
    max_melds_per_turn: int = UNLIMITED
    taken_discard_must_be_melded: bool = False
    rummy_scoring: str = "winner_collects"
    target_score: int = 100
    # Kaluki (docs/rules.md, Kaluki options)
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
        """Cards dealt to each player (docs/rules.md, Dealing): Kaluki 13; Rummy 10 / 7 / 6."""
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


#: The options both table games have (docs/rules.md, Dealing and turn options; the accepted values of num_players and
#: restock_method differ by game: see SCHEMA), as declared: the docs of every option, and the accepted values
#: of those the C engine does not read.  No defaults here: they are TableRules' field defaults with each
#: base game's and preset's overrides.
_COMMON: tuple[Option, ...] = (
    Option("num_players", doc="Players at the table (Rummy 2-6, Kaluki 2-5)."),
    DEALER_ROTATION,
    DEALER_AFTER_DEAD_HAND,
    Option(
        "first_turn_procedure",
        choices=("normal",),
        type=str,
        doc="The first player simply draws (the only rule in table games).",
    ),
    FORBID_DISCARDING_TAKEN_CARD,
    Option(
        "restock_method",
        doc="When the stock is empty: shuffle the discards except the top one into a new stock "
        "(reshuffle_keep_top); turn the pile over unshuffled (turn_over, Rummy); or end the hand "
        "with no winner (block, Rummy).",
    ),
    Option(
        "max_restocks",
        doc="How many times the stock may be rebuilt; -1 or 'unlimited' for no limit, else the hand is "
        "dead when the stock runs out again.",
    ),
    MAX_TURNS,
    Option(
        "go_out_requires_discard",
        doc="You must keep a card to discard when you go out (false: you may go out by melding and "
        "laying off everything).",
    ),
)
_RUMMY: tuple[Option, ...] = (
    Option(
        "ace_rank",
        choices=("low", "high", "high_or_low"),
        type=str,
        doc="Where the ace goes in runs: A-2-3 only (low), Q-K-A only (high), or either (high_or_low).",
    ),
    Option("ace_value", choices=(1, 11, 15), doc="Points an ace left in the hand counts."),
    Option("allow_wraparound", type=bool, doc="Runs may go round the corner, e.g. K-A-2."),
    Option(
        "rummy_bonus",
        doc="Going rummy (all cards played in one turn, nothing melded before): double the winner's "
        "points, add 25 or 10, or nothing.",
    ),
    Option("no_go_out_first_turn", doc="Nobody may go out on their first turn."),
    Option(
        "max_melds_per_turn",
        doc="New melds a player may lay down per turn: 1, or -1/'unlimited' for any number.",
    ),
    Option(
        "taken_discard_must_be_melded",
        doc="A card taken from the discard pile must be melded or laid off in the same turn.",
    ),
    Option(
        "rummy_scoring",
        doc="winner_collects: the winner scores the cards left in the other hands, first to target_score "
        "wins; penalty: each loser adds their own cards to a penalty total and when someone reaches "
        "target_score the lowest total wins.",
    ),
    Option("target_score", minimum=1, doc="The score that ends the game."),
)
_KALUKI: tuple[Option, ...] = (
    Option("kaluki_jokers", choices=(2, 4), doc="Jokers in the two-deck pack (106 or 108 cards)."),
    Option(
        "initial_meld_min",
        doc="The least total value of the melds a player first lays down (their opening).",
    ),
    Option(
        "building_counts_toward_opening",
        doc="Cards added to melds on the table count toward the opening total.",
    ),
    Option(
        "unopened_discard_draw",
        doc="Before opening, you may take the discard only to use it in your opening at once "
        "(only_if_used_in_opening), never (forbidden), or freely (free).",
    ),
    Option(
        "first_turn_upcard_free",
        doc="The first player may take the upcard on their first turn without opening with it.",
    ),
    Option("ace_low_runs", doc="Runs may also be A-2-3 (the ace low, counting 1 there)."),
    Option("joker_penalty", doc="Penalty points for a joker left in the hand."),
    Option(
        "two_joker_set_release",
        doc="Taking a joker from a 3-card set with two jokers: add two missing naturals (two_naturals), "
        "or one natural for one joker (one_natural).",
    ),
    Option(
        "max_build_per_run_end",
        doc="Cards you may add to the same end of one run in one turn: 2, or -1/'unlimited'.",
    ),
    Option(
        "released_joker_must_be_played",
        choices=(True,),
        type=bool,
        doc="A joker taken from the table must be played again in the same turn (always on).",
    ),
    Option(
        "unopened_may_release_joker",
        doc="A player who has not opened may take a joker from the table by putting the natural card in its place.",
    ),
    Option("call_off_bonus", doc="Bonus points for going out (fixed at 20)."),
    Option("hunt_bonus", doc="Bonus points for a Hunt: all 13 cards put down in one turn (fixed at 40)."),
    Option(
        "hunt_penalty_mode",
        doc="After a Hunt the others' penalties are doubled (double) or get 25 more (plus_25).",
    ),
    Option("hunt_allows_building", doc="A Hunt may include cards added to other players' melds."),
    Option("hunt_requires_opening_min", doc="A Hunt must still meet the opening total (initial_meld_min)."),
    Option("elimination_threshold", minimum=1, doc="Penalty points at which a player is out of the game."),
    Option(
        "elimination_compare",
        choices=("ge", "gt"),
        type=str,
        doc="Out on reaching the threshold (ge) or only on going over it (gt).",
    ),
    Option(
        "kaluki_bonus_accounting",
        doc="Bonus points are kept as their own tally (separate) or taken off the caller's penalty "
        "total (subtract_from_penalty).",
    ),
    Option(
        "kaluki_buy_in",
        choices=(False,),
        type=bool,
        doc="Buying back in after elimination (not supported: always false).",
    ),
    Option(
        "joker_discard_allowed",
        doc="A joker from the hand may be discarded (a joker just taken from the table never may).",
    ),
)
#: the C field table (rk_table_rules_fields) by name: the type, range and choices of every option the
#: engine reads (and of the values the rules derive, which are no options)
FIELDS: dict[str, FieldRow] = {row[0]: row for row in _core.TABLE_RULES_FIELDS}


def _schema(declared: tuple[Option, ...]) -> tuple[Option, ...]:
    return tuple(field_option(FIELDS[o.name], o) if o.name in FIELDS else o for o in declared)


#: Every option of each table game once: its meaning (docs/rules.md, Dealing and turn options, Kaluki
#: options, Rummy options) and accepted values, which for the options the engine reads are their C
#: field table's (FIELDS), narrowed where a game plays fewer (Kaluki's players and restock method,
#: the choices declared above).
SCHEMA: dict[str, tuple[Option, ...]] = {
    "rummy": _schema((*_COMMON, *_RUMMY)),
    "kaluki": tuple(
        replace(o, maximum=_core.TABLE_MAX_KALUKI_PLAYERS)
        if o.name == "num_players"
        else replace(o, choices=("reshuffle_keep_top",))
        if o.name == "restock_method"
        else o
        for o in _schema((*_COMMON, *_KALUKI))
    ),
}
#: the options each game accepts, by name
OPTIONS: dict[str, dict[str, Option]] = {game: {o.name: o for o in schema} for game, schema in SCHEMA.items()}

BASE_GAMES: dict[str, dict[str, Any]] = {
    "rummy": {},
    "kaluki": dict(game="kaluki", go_out_requires_discard=True),
}
#: Named presets (docs/rules.md, Presets): (base game, overrides).
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

#: the options with a fixed set of values per game (from SCHEMA)
CHOICES: dict[str, dict[str, tuple[Any, ...]]] = {
    game: {name: o.choices for name, o in options.items() if o.choices is not None} for game, options in OPTIONS.items()
}
#: the true/false options (from SCHEMA)
BOOLS: frozenset[str] = frozenset(o.name for schema in SCHEMA.values() for o in schema if o.type is bool)


def table_rules(game: str = "rummy", /, **options: Any) -> TableRules:
    """The rules of Rummy, Kaluki or a preset (any alias) with options applied.

    Raises :class:`InvalidOptionError` naming an unknown game or option (with
    the closest name), a bad value (with the accepted values and the option's
    meaning), or an option of the other game.
    """
    key = ALIASES.get(game.lower().strip()) if isinstance(game, str) else None
    if key is None:
        raise unknown_name_error("table game", game, canonical_names(), aliases=ALIASES)
    try:
        return _build(key, options)
    except InvalidOptionError as err:
        raise players_error(err, key, options, canonical_names(), _build) from None


def _build(key: str, options: dict[str, Any]) -> TableRules:
    """The rules of the canonical game ``key`` with ``options`` (see :func:`table_rules`)."""
    base, preset = (key, {}) if key in BASE_GAMES else PRESETS[key]
    kind = "kaluki" if base == "kaluki" else "rummy"
    accepted = OPTIONS[kind]
    for name in options:
        if name not in accepted:
            other = "rummy" if kind == "kaluki" else "kaluki"
            hint = f" (a {other} option)" if name in OPTIONS[other] else ""
            raise unknown_name_error("option", name, accepted, f" for {key}", hint)
    values: dict[str, Any] = {**BASE_GAMES[base], **preset}
    given = {k: coerce(accepted[k], v) for k, v in options.items()}
    values.update(given)
    for name, value in values.items():
        if name != "game":
            check_value(accepted[name], value, f" for {kind}" if name == "num_players" else "")
    return TableRules(name=key, given=tuple(sorted(given.items())), **values)


def canonical_names() -> list[str]:
    """The base games and presets by their current names."""
    return [*BASE_GAMES, *PRESETS]


def option_table(rules: TableRules) -> dict[str, Option]:
    """Every option of the rules' game with its value in ``rules`` as the default."""
    return {o.name: replace(o, default=getattr(rules, o.name)) for o in SCHEMA[rules.game]}
