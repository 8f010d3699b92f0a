"""Type stub of the private compiled bridge (see _core.pyx)."""

from collections.abc import Sequence
from typing import Any, TypeAlias, TypeVar

import numpy as np
import numpy.typing as npt

ACES_LOW: int
ACES_HIGH: int
ACES_BOTH: int
KNOCK_MIN_DEADWOOD_ONLY: int
KNOCK_NO_LAYOFFS: int
MELD_SET: int
MELD_RUN: int
JOKER: int
MULTI_PENALTY: int
MULTI_VALUE: int

_RawArrangement: TypeAlias = tuple[tuple[int, ...], int, int]
_RawMultiMeld: TypeAlias = tuple[int, tuple[int, ...], tuple[int, ...], int]
_RawMultiArrangement: TypeAlias = tuple[list[_RawMultiMeld], int, int, tuple[int, int, int]]
_RawLayoff: TypeAlias = tuple[int, tuple[int, ...], _RawArrangement]

class NoKnockError(ValueError): ...

class Rules:
    aces: int
    values: tuple[int, ...]
    def __init__(self, aces: int, values: Any) -> None: ...

def deadwood(rules: Rules, mask: int) -> int: ...
def mask_value(rules: Rules, mask: int) -> int: ...
def meld_kind(rules: Rules, mask: int) -> int: ...
def melds(rules: Rules, mask: int) -> list[int]: ...
def best_arrangement(rules: Rules, mask: int) -> _RawArrangement: ...
def arrangements(rules: Rules, mask: int, max_deadwood: int, limit: int) -> list[_RawArrangement] | None: ...
def best_discard(rules: Rules, mask: int, forbidden: int) -> tuple[int, int]: ...
def deadwood_after_discards(rules: Rules, mask: int) -> list[tuple[int, int]]: ...
def layoff(rules: Rules, knocker_melds: list[int], defender: int) -> _RawLayoff: ...
def choose_knock(
    rules: Rules, knocker: int, defender: int, limit: int, flags: int
) -> tuple[_RawArrangement, _RawLayoff, int, int]: ...
def deadwood_batch(rules: Rules, masks: npt.ArrayLike) -> np.ndarray[Any, np.dtype[np.int16]]: ...
def best_discard_batch(
    rules: Rules, masks: npt.ArrayLike
) -> tuple[np.ndarray[Any, np.dtype[np.int16]], np.ndarray[Any, np.dtype[np.int8]]]: ...
def discard_actions(rules: Rules, mask: int, forbidden: int, knock_max: int, knock_base: int) -> list[int]: ...
def track_particles(
    rules: Rules,
    events: npt.ArrayLike,
    dealt: npt.ArrayLike,
    used: npt.ArrayLike,
    draws: npt.ArrayLike,
    logw: npt.ArrayLike,
    rate: npt.ArrayLike,
    beta: float,
    epsilon: float,
    high: float,
    knock_max: int,
    hand_size: int,
    free: int,
    seed: int,
    taker: npt.ArrayLike | None = None,
) -> tuple[Any, Any, Any, Any, Any, Any, Any] | None: ...
def systematic(weights: npt.ArrayLike, count: int, u: float) -> np.ndarray[Any, np.dtype[np.intp]]: ...

TRACK_TAKE_CHOICE: int
TRACK_DRAW: int
TRACK_ADD: int
TRACK_DISCARD: int
TRACK_LAST_CHANCE: int

def multi_best(
    one: int, two: int, jokers: int, objective: int, include_type: int, ace_low_runs: bool, joker_penalty: int
) -> _RawMultiArrangement | None: ...
def multi_penalty(one: int, two: int, jokers: int, ace_low_runs: bool, joker_penalty: int) -> int: ...
def multi_penalty_batch(
    counts: npt.ArrayLike, ace_low_runs: bool, joker_penalty: int
) -> np.ndarray[Any, np.dtype[np.int32]]: ...

# ---- playouts
KNOCK_OUTCOMES: tuple[str, ...]
KALUKI_VALUES: tuple[int, ...]
KNOCK_ACTION_IDS: dict[str, int]
POLICY_RANDOM: int
POLICY_GREEDY: int
POLICY_CAREFUL: int
FIELD_INT: int
FIELD_INT_OR_NONE: int
FIELD_FLAG: int
FIELD_IS: int
FIELD_CHOICE: int
KNOCK_RULES_FIELDS: tuple[tuple[str, int, int, int, str | None], ...]
KNOCK_SCORING_MODELS: dict[str, dict[str, int]]
KNOCK_RULES_SIZE: int

_RawResult: TypeAlias = tuple[int, int, int, tuple[int, ...], tuple[int, ...], int, int]

class PlayoutSpec:
    has_hidden: bool
    num_players: int
    def __init__(
        self,
        rules: Any,
        position: tuple[Any, ...],
        hidden: tuple[list[int], list[int], list[int]] | None = None,
    ) -> None: ...

def restock_shuffle(seed: int, restock: int, cards: Any) -> tuple[int, ...]: ...
def playout_check(rules: Rules, spec: PlayoutSpec) -> None: ...
def run_playouts(
    rules: Rules,
    spec: PlayoutSpec,
    policy: int,
    max_knock_deadwood: int,
    seed: int,
    first: int,
    points: np.ndarray[Any, np.dtype[np.int32]],
    outcomes: np.ndarray[Any, np.dtype[np.uint8]],
    seat: int = -1,
    seat_policy: int = -1,
    seat_max_knock: int = -2,
) -> None: ...
def run_playouts_hands(
    rules: Rules,
    spec: PlayoutSpec,
    opponent: int,
    hands: np.ndarray[Any, np.dtype[np.uint64]],
    policy: int,
    max_knock_deadwood: int,
    seed: int,
    points: np.ndarray[Any, np.dtype[np.int32]],
    outcomes: np.ndarray[Any, np.dtype[np.uint8]],
    signed: np.ndarray[Any, np.dtype[np.int64]],
    seat: int,
    seat_policy: int,
    seat_max_knock: int = -2,
    opponent_max_knock: np.ndarray[Any, np.dtype[np.int32]] | None = None,
    opponent_meld_takes: np.ndarray[Any, np.dtype[np.uint8]] | None = None,
) -> None: ...
def playout_once(
    rules: Rules, spec: PlayoutSpec, policy: int, max_knock_deadwood: int, seed: int
) -> tuple[int, int, int, tuple[int, ...], tuple[int, ...], int, int, tuple[int, ...]]: ...
def policy_trace(rules: Rules, spec: PlayoutSpec, policy: int, max_knock_deadwood: int, seed: int) -> list[int]: ...

_Details: TypeAlias = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], int]
_Seen: TypeAlias = tuple[tuple[int, ...], int, int]

def knock_rules_values(rules: Any) -> dict[str, int]: ...
def knock_rules_defaults(game: int, num_players: int) -> dict[str, int]: ...

KNOCK_BASE_GAMES: dict[str, int]

def knock_rules_ok(rules: Any) -> bool: ...
def determinize_once(spec: PlayoutSpec, seed: int, index: int) -> tuple[tuple[int, ...], tuple[int, ...]]: ...
def knock_public(spec: PlayoutSpec, state: KnockCore) -> None: ...
def knock_hide(spec: PlayoutSpec, state: KnockCore, player: int) -> None: ...

# ---- table games (csrc/src/table.c) ----

TABLE_RULES_FIELDS: tuple[tuple[str, int, int, int, str | None], ...]
TABLE_MAX_KALUKI_PLAYERS: int
TABLE_RULE_FIELDS: tuple[str, ...]
TABLE_REASONS: tuple[str, ...]
TABLE_OUTCOMES: tuple[str | None, ...]
TABLE_ACTION_IDS: dict[str, int]

def table_layoff_id(slot: int, card_type: int, end: int) -> int: ...
def table_set_id(rank: int, suits: int, jokers: int) -> int: ...
def table_run_id(suit: int, start: int, length: int, joker_mask: int) -> int: ...
def table_run_of(action_id: int) -> tuple[int, int, int, int]: ...

TABLE_FIXED_IDS: dict[str, int]
TABLE_HEADS: tuple[tuple[str, int], ...]
TABLE_KINDS: tuple[str, ...]
TABLE_KIND_HEADS: tuple[tuple[int, ...], ...]

def table_fixed_id(action_id: int) -> int: ...
def table_fixed_ids(ids: np.ndarray[Any, np.dtype[np.int32]], out: np.ndarray[Any, np.dtype[np.int32]]) -> None: ...
def table_fixed_first(fixed: int) -> int: ...
def table_fixed_resolve(legal: np.ndarray[Any, np.dtype[np.int32]], fixed: int) -> int: ...

_I32: TypeAlias = np.ndarray[Any, np.dtype[np.int32]]

def table_fixed_factor(fixed: _I32, out: _I32) -> int: ...
def table_fixed_unfactor(heads: _I32, out: _I32) -> int: ...

class TableSpec:
    args: tuple[tuple[int, ...], dict[str, int]]
    def __init__(self, values: tuple[int, ...], fields: dict[str, int]) -> None: ...
    def is_action(self, action_id: int) -> bool: ...

_TableScore: TypeAlias = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[int, ...]]

def table_score_values(spec: TableSpec, outcome: int, winner: int, values: Sequence[int]) -> _TableScore: ...

_S = TypeVar("_S", bound="_HandCore")
_Meld: TypeAlias = tuple[int, int, int, tuple[int, ...], int]

def explain_knock(
    rules: Rules, knock_rules: Any, hands: list[int], upcard: int, big_gin: bool, melds: Any = None
) -> tuple[tuple[tuple[int, ...], int, int], tuple[Any, ...]]: ...
def score_knock(
    rules: Rules, knock_rules: Any, hands: list[int], upcard: int, big_gin: bool, melds: Any = None
) -> tuple[Any, ...]: ...

SCORING_FIELDS: tuple[str, ...]

def score_hand(
    params: dict[str, Any], deadwood: Any, knocker: int, outcome: int, winner: int, multiplier: int
) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]: ...
def knock_limits(knock_rules: Any, upcard: int) -> tuple[int, bool, int, int]: ...
def step_code(seat: int, card: int, restocked: int, drew: bool, removed: bool, added: bool, unseen: bool) -> int: ...
def step_fields(code: int) -> tuple[int, int, int, bool, bool, bool, bool]: ...

KNOCK_TENSOR_STARTS: tuple[int, ...]
KNOCK_REASONS: tuple[str, ...]

class KnockSpec:
    core: Rules
    rules: Any
    def __init__(self, core: Rules, rules: Any) -> None: ...

class History(list[int]):
    """A hand's action ids: the list methods that change it raise ReadOnlyError."""

class _HandCore:
    """What the C states of both families have (a stub-only base: at run time
    KnockCore and TableCore are separate extension types)."""

    @property
    def history(self) -> History: ...
    _legal: list[int] | None
    _views: dict[str, Any] | None
    game: Any
    rules: Any
    @property
    def deck(self) -> tuple[int, ...]: ...
    n: int
    dealer: int
    hands: tuple[int, ...]
    known: tuple[int, ...]
    stock: tuple[int, ...]
    discards: tuple[int, ...]
    phase: int
    player: int
    taken: int
    restocks: int
    turns: int
    shuffle_seed: int
    @property
    def current_player(self) -> int: ...
    def legal_actions(self) -> list[int]: ...
    def _seat_deadwood(self, seat: int) -> int: ...
    def apply_action(self, action_id: Any) -> None: ...
    def undo(self) -> None: ...
    def is_terminal(self) -> bool: ...
    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]: ...
    def _changed(self) -> None: ...
    def clone(self: _S) -> _S: ...
    def with_fields(self: _S, **fields: Any) -> _S: ...

class KnockCore(_HandCore):
    """The C state of a knock-game hand (rummykit.knock.state.KnockState's base)."""

    _steps: list[int]
    drawn: tuple[tuple[int, ...], ...]
    set_aside: int
    knock_card: int
    @property
    def _upcard(self) -> int: ...
    @property
    def _knock(self) -> tuple[int, bool, bool, tuple[int, ...], int]: ...
    @property
    def _showdown_raw(self) -> tuple[tuple[int, ...], tuple[int, ...], bool] | None: ...
    @property
    def _limits(self) -> tuple[int, bool, int, int]: ...
    @property
    def _undo_depth(self) -> int: ...
    def _deal(self, spec: KnockSpec, deck: Any, dealer: int, shuffle_seed: int) -> None: ...
    def _knock_melds(self, card: int, melds: list[int]) -> None: ...
    def _why(self, action_id: int, seat: int = -1) -> tuple[str, tuple[int, int]]: ...
    def _greedy_action(self, max_knock_deadwood: int, meld_takes: bool = False) -> int: ...
    def _policy_action(self, policy: int, max_knock_deadwood: int, meld_takes: bool = False) -> int: ...
    def _observation_tensor(self, player: int, out: Any) -> None: ...
    def _forget_undo(self) -> None: ...
    def _result_raw(self) -> tuple[Any, ...] | None: ...
    def _seen(self, player: int, seat: int) -> int: ...
    def _knock_card_seen(self, player: int) -> bool: ...
    def _card_groups(self) -> tuple[int, ...]: ...
    def _determinize(self: _S, player: int, seed: int, max_tries: int = ...) -> _S: ...
    def returns(self) -> list[int]: ...

class TableCore(_HandCore):
    """The C state of a table-game hand (rummykit.table.state.TableState's base)."""

    _steps: list[bytes | None]
    geo: Any
    ends: tuple[int, ...]
    opened: int
    played: int
    absent: int
    @property
    def deal_seats(self) -> tuple[int, ...]: ...
    taken_card: int
    must: int
    pending: int
    fresh: bool
    built_other: bool
    open_value: int
    turn_melds: int
    @property
    def outcome(self) -> int: ...
    @property
    def winner(self) -> int | None: ...
    def _deal(self, spec: TableSpec, deck: Any, dealer: int, shuffle_seed: int, absent: int = 0) -> None: ...
    def _table_raw(self) -> list[_Meld]: ...
    def _set_table_raw(self, melds: list[_Meld]) -> None: ...
    def _why(self, action_id: int, seat: int = -1) -> tuple[str, int]: ...
    def _is_action(self, action_id: int) -> bool: ...
    def _score(self) -> _TableScore: ...

# ---- what a seat knows of a table hand (src/rummykit/_table_observe.pxi) ----

TABLE_TENSOR_STARTS: tuple[int, ...]

def table_observation_tensor(
    state: TableCore, player: int, out: np.ndarray[Any, np.dtype[np.float32]] | None = None
) -> np.ndarray[Any, np.dtype[np.float32]]: ...
def table_known_counts(state: TableCore) -> list[list[int]]: ...
def table_step_log(state: TableCore) -> list[bytes]: ...

TABLE_STEP_HEAD: int
TABLE_STEP_RESTOCK: int
TABLE_NO_CARD: int
#: (pools, places, fills, bans, known, stock_group, now): rummykit.table.playouts.HiddenLists
_HiddenLists: TypeAlias = tuple[
    list[list[int]],
    list[tuple[int, int, int]],
    list[tuple[int, int, int]],
    list[tuple[int, int, int]],
    list[list[int]],
    int,
    int,
]

class TableHidden:
    n_places: int
    def __init__(
        self,
        mode: int,
        observer: int,
        stock_group: int,
        now: int = ...,
        pool: Sequence[Sequence[int]] = ...,
        places: Sequence[tuple[int, int, int]] = ...,
        fills: Sequence[tuple[int, int, int]] = ...,
        bans: Sequence[tuple[int, int, int]] = ...,
        known: Sequence[Sequence[int]] = ...,
    ) -> None: ...
    def lists(self) -> _HiddenLists: ...

def table_hidden_spec(state: TableCore, player: int) -> TableHidden: ...
def table_hidden_lists(state: TableCore, player: int) -> _HiddenLists: ...

_TC = TypeVar("_TC", bound=TableCore)

def table_world(state: _TC, player: int, seed: int, max_tries: int = ...) -> tuple[_TC, bool]: ...

# ---- table-game policies, determinization and playouts (csrc/src/table_policy.c, table_playouts.c) ----

TABLE_POLICY_RANDOM: int
TABLE_POLICY_GREEDY: int
TABLE_RESAMPLE_STOCK: int
TABLE_RESAMPLE_HIDDEN: int
TABLE_MAX_TRIES: int
TABLE_PLAYOUT_MAX_ACTIONS: int

def table_greedy(state: TableCore) -> int: ...
def table_hidden_check(state: TableCore, hidden: TableHidden | None) -> None: ...
def table_determinize(
    state: TableCore, hidden: TableHidden | None, seed: int
) -> tuple[bool, tuple[int, ...], tuple[int, ...], tuple[int, ...], int, tuple[int, ...]]: ...
def run_table_playouts(
    state: TableCore,
    hidden: TableHidden | None,
    policy: int,
    seed: int,
    first: int,
    returns: np.ndarray[Any, np.dtype[np.int32]],
    outcomes: np.ndarray[Any, np.dtype[np.uint8]],
    winners: np.ndarray[Any, np.dtype[np.int8]],
) -> None: ...

# _vector.pxi (csrc/include/rummykit/vector.h)
KNOCK_NUM_ACTIONS: int
VECTOR_TABLE_ACTIONS: int
TABLE_FIXED_ACTIONS: int
VECTOR_SPACES: dict[str, int]
VECTOR_MAX_THREADS: int
VECTOR_SKIP: int
MAX_LEGAL: int

class ReadOnlyBuffer:
    def __buffer__(self, flags: int) -> memoryview: ...

class VectorCore:
    spec: KnockSpec | TableSpec
    batch: int
    def __init__(
        self, spec: KnockSpec | TableSpec, batch: int, threads: int, deadwood: bool = ..., dense: bool = ...
    ) -> None: ...
    def buffers(self) -> dict[str, ReadOnlyBuffer]: ...
    def check_idle(self) -> None: ...
    def set_opponents(self, policy: int) -> None: ...
    def reset(self, seed: int) -> None: ...
    def step(self, actions: np.ndarray[Any, np.dtype[np.int32]], some: bool = False) -> None: ...
    def row(self, i: int) -> tuple[list[int], int, int, list[int], int]: ...
