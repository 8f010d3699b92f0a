"""Pure-Python scoring machinery: hand scores, game settlement, Hollywood, match points, ring pay.

Everything here follows docs/rules.md, Gin Rummy (hand scoring table), Oklahoma Gin (spade multiplier), Scoring
(shared scoring machinery) and Decisions.  The functions take plain numbers (deadwood, points, boxes,
nets), not cards, so they can be used by any game engine or on their own.

>>> params = ScoringParams.for_model("net_collect")
>>> score_hand(params, knocker=0, deadwood=[5, 12, 20], outcome="knock", winner=0).points
(32, -7, -15)
>>> settle([104, 38], [4, 2])
[304, 88]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields, replace
from typing import Any

from rummykit import _core
from rummykit.engine.options import field_value
from rummykit.errors import IllegalActionError, InvalidOptionError, clip

_FIELDS = {row[0]: row for row in _core.KNOCK_RULES_FIELDS}

__all__ = [
    "HAND_OUTCOMES",
    "MODEL_ROWS",
    "RING_PAYOUT_MODELS",
    "SCORING_MODELS",
    "SHUTOUT_RULES",
    "HandScore",
    "HollywoodSheet",
    "ScoringParams",
    "match_points",
    "ring_payout",
    "score_hand",
    "settle",
]

#: Each scoring model's row of the docs/rules.md "Multi-player scoring models" table (every field of ScoringParams but
#: ``model``): the C table of the models (rk_knock_scoring_model_apply) read through the knock field table; no
#: model has big gin (``big_gin_bonus`` is an option of its own).
MODEL_ROWS: dict[str, dict[str, Any]] = {
    model: {
        **{name: field_value(_FIELDS[name], raw) for name, raw in row.items()},
        "big_gin_bonus": None,
    }
    for model, row in _core.KNOCK_SCORING_MODELS.items()
}

#: The scoring models of docs/rules.md, Multi-player scoring models, Knock scoring options ``scoring_model``.
SCORING_MODELS = tuple(MODEL_ROWS)
#: The hand outcomes ``score_hand`` accepts.
HAND_OUTCOMES = (*_core.KNOCK_OUTCOMES[1:], "tie_knocker_wins")
#: The shutout rules of Two-player settlement, Game and match options ``shutout_rule``.
SHUTOUT_RULES = ("double_total", "double_game_bonus", "double_hand_points", "none")
#: The ring payout models of Ring payout, Game and match options ``ring_payout_model``.
RING_PAYOUT_MODELS = ("normalized", "slot_scaled")

_INT_FIELDS = (
    "knock_bonus",
    "undercut_bonus",
    "gin_bonus",
    "gin_loser_multiplier",
    "gin_loser_extra",
    "undercut_knocker_extra",
)
_BOOL_FIELDS = ("collect_differences", "losers_charged")


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_int(name: str, value: object, minimum: int = 0) -> int:
    """``value`` if it is an int (not a bool) ≥ ``minimum``, else InvalidOptionError."""
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise InvalidOptionError(f"{name} must be an int >= {minimum}, got {clip(value)}")
    return value


def _check_ints(name: str, values: object, minimum: int | None = 0) -> tuple[int, ...]:
    """A tuple of the ints in ``values`` (each ≥ ``minimum`` unless it is None)."""
    if not isinstance(values, Sequence) or isinstance(values, str):
        raise InvalidOptionError(f"{name} must be a sequence of ints, got {clip(values)}")
    result = tuple(values)
    for i, value in enumerate(result):
        if not _is_int(value) or (minimum is not None and value < minimum):
            bound = "" if minimum is None else f" >= {minimum}"
            raise InvalidOptionError(f"{name}[{i}] must be an int{bound}, got {clip(value)}")
    return result


def _check_seat(name: str, seat: object, seats: int) -> int:
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < seats:
        raise InvalidOptionError(f"{name} must be a seat in 0..{seats - 1}, got {clip(seat)}")
    return seat


# ---------------------------------------------------------------------------------------------
# Hand scoring (docs/rules.md, Gin Rummy, Oklahoma Gin, Oklahoma Rummy, Multi-player scoring models)


@dataclass(frozen=True)
class ScoringParams:
    """The parameters of the docs/rules.md "Multi-player scoring models" hand-scoring formula.

    Build one with :meth:`for_model`, which fills in a model's row of the docs/rules.md "Multi-player scoring models"
    table; any
    field may then be overridden on its own.  ``big_gin_bonus=None`` means big gin is off.

    >>> ScoringParams.for_model("bonus_penalty").gin_loser_multiplier
    2
    >>> ScoringParams.for_model("classic_two_player", gin_bonus=20, undercut_bonus=10).gin_bonus
    20
    """

    model: str
    knock_bonus: int
    undercut_bonus: int
    gin_bonus: int
    big_gin_bonus: int | None
    collect_differences: bool
    losers_charged: bool
    gin_loser_multiplier: int
    gin_loser_extra: int
    undercut_knocker_extra: int

    def __post_init__(self) -> None:
        if not isinstance(self.model, str) or self.model not in MODEL_ROWS:
            raise InvalidOptionError(
                f"unknown scoring model {clip(self.model)} (expected one of {list(SCORING_MODELS)})"
            )
        for name in _INT_FIELDS:
            _check_int(name, getattr(self, name))
        if self.big_gin_bonus is not None:
            _check_int("big_gin_bonus", self.big_gin_bonus)
        for name in _BOOL_FIELDS:
            if not isinstance(getattr(self, name), bool):
                raise InvalidOptionError(f"{name} must be a bool, got {clip(getattr(self, name))}")

    @classmethod
    def for_model(cls, model: str, **overrides: Any) -> ScoringParams:
        """The docs/rules.md "Multi-player scoring models" row of ``model``, with ``overrides`` applied field by field.

        >>> p = ScoringParams.for_model("ring_penalty")
        >>> (p.undercut_bonus, p.gin_loser_extra, p.undercut_knocker_extra)
        (20, 25, 10)
        >>> ScoringParams.for_model("net_collect", spade=2)
        Traceback (most recent call last):
        ...
        rummykit.errors.InvalidOptionError: unknown scoring parameter 'spade' ...
        """
        if not isinstance(model, str) or model not in MODEL_ROWS:
            raise InvalidOptionError(f"unknown scoring model {clip(model)} (expected one of {list(SCORING_MODELS)})")
        row = dict(MODEL_ROWS[model])
        for name, value in overrides.items():
            if name not in row:
                raise InvalidOptionError(f"unknown scoring parameter {clip(name)} (expected some of {sorted(row)})")
            row[name] = value
        return cls(model=model, **row)

    def with_options(self, **overrides: Any) -> ScoringParams:
        """A copy with some fields replaced (validated like the constructor).

        >>> ScoringParams.for_model("net_collect").with_options(big_gin_bonus=31).big_gin_bonus
        31
        """
        known = {f.name for f in fields(self)}
        for name in overrides:
            if name not in known:
                raise InvalidOptionError(f"unknown scoring parameter {clip(name)}")
        return replace(self, **overrides)

    def bonus(self, outcome: str) -> int:
        """The winner's bonus for a hand outcome (``tie_knocker_wins`` uses ``knock_bonus``).

        >>> ScoringParams.for_model("net_collect").bonus("gin")
        20
        """
        if outcome in ("knock", "tie_knocker_wins"):
            return self.knock_bonus
        if outcome == "undercut":
            return self.undercut_bonus
        if outcome == "gin":
            return self.gin_bonus
        if outcome == "big_gin":
            if self.big_gin_bonus is None:
                raise InvalidOptionError("outcome 'big_gin' but big gin is off (big_gin_bonus=None)")
            return self.big_gin_bonus
        raise InvalidOptionError(f"unknown outcome {clip(outcome)} (expected one of {list(HAND_OUTCOMES)})")


@dataclass(frozen=True)
class HandScore:
    """The score of one hand, per seat.

    ``credits`` and ``charges`` (penalty points) are after the multiplier, and
    ``points[i] == credits[i] - charges[i]`` is seat i's net change for the hand.
    """

    points: tuple[int, ...]
    credits: tuple[int, ...]
    charges: tuple[int, ...]
    winner: int
    outcome: str


def _check_outcome(outcome: str, knocker: int, winner: int, deadwood: tuple[int, ...]) -> None:
    """Raise InvalidOptionError unless ``outcome``/``winner`` fit the deadwood (docs/rules.md, Gin Rummy, Oklahoma
    Rummy)."""
    k = deadwood[knocker]
    w = deadwood[winner]
    defenders = [d for seat, d in enumerate(deadwood) if seat != knocker]
    if outcome in ("gin", "big_gin", "knock", "tie_knocker_wins") and winner != knocker:
        raise InvalidOptionError(f"outcome {clip(outcome)}: the winner must be the knocker {knocker}")
    if outcome in ("gin", "big_gin"):
        if k != 0:
            raise InvalidOptionError(f"outcome {clip(outcome)} needs knocker deadwood 0, got {k}")
        return
    if k == 0:
        raise InvalidOptionError(f"knocker deadwood 0 is gin, not {clip(outcome)}")
    if outcome == "undercut":
        if winner == knocker:
            raise InvalidOptionError("outcome 'undercut': the winner must be a defender")
        if w > k:
            raise InvalidOptionError(f"outcome 'undercut': winner deadwood {w} > knocker's {k}")
    elif outcome == "tie_knocker_wins" and min(defenders) != k:
        raise InvalidOptionError(f"outcome 'tie_knocker_wins' needs a defender with deadwood {k}, got {defenders}")
    for seat, d in enumerate(deadwood):
        if d < w:
            raise InvalidOptionError(f"outcome {clip(outcome)}: seat {seat} has deadwood {d} < the winner's {w}")


def score_hand(
    params: ScoringParams,
    *,
    knocker: int,
    deadwood: Sequence[int],
    outcome: str,
    winner: int,
    multiplier: int = 1,
) -> HandScore:
    """Score one Gin-family hand with the docs/rules.md "Multi-player scoring models" formula.

    ``deadwood[i]`` is seat i's final deadwood (after lay-offs; the knocker's shown deadwood at
    index ``knocker``).  ``outcome`` is one of ``gin``, ``big_gin``, ``knock``, ``undercut``,
    ``tie_knocker_wins`` (docs/rules.md, Gin Rummy: ``d = k`` with ``undercut_on_tie = false``); ``winner`` is the
    hand winner chosen by the caller (the knocker, or the undercutter after the D7
    tie-break).  ``multiplier`` is the spade multiplier (Oklahoma Gin), applied to credits and charges.

    With W = winner and w = its deadwood (0 for gin)::

        credit_W = bonus[outcome] + (collect_differences ? sum_j (d_j - w) : 0)
        charge_j = (gin or big_gin ? gin_loser_multiplier * d_j + gin_loser_extra : d_j - w)
                   + (undercut and j == knocker ? undercut_knocker_extra : 0)   if losers_charged

    For two seats with ``classic_two_player`` this is the docs/rules.md "Gin Rummy" table (losers are not charged).
    ``knock`` also accepts a defender tied with the knocker: it scores like ``tie_knocker_wins``.

    EX-G02 (undercut, k 9, d 7) and EX-M01 (net_collect, upcard 8S):

    >>> classic = ScoringParams.for_model("classic_two_player")
    >>> score_hand(classic, knocker=0, deadwood=[9, 7], outcome="undercut", winner=1).points
    (0, 27)
    >>> net = ScoringParams.for_model("net_collect")
    >>> s = score_hand(net, knocker=0, deadwood=[5, 12, 20], outcome="knock", winner=0,
    ...                multiplier=2)
    >>> s.points, s.credits, s.charges
    ((64, -14, -30), (64, 0, 0), (0, 14, 30))
    """
    if not isinstance(params, ScoringParams):
        raise InvalidOptionError(f"params must be a ScoringParams, got {clip(params)}")
    dw = _check_ints("deadwood", deadwood)
    if len(dw) < 2:
        raise InvalidOptionError(f"deadwood needs one entry per seat (at least 2), got {dw}")
    knocker = _check_seat("knocker", knocker, len(dw))
    winner = _check_seat("winner", winner, len(dw))
    multiplier = _check_int("multiplier", multiplier, 1)
    params.bonus(outcome)  # an unknown outcome, or big gin while it is off, raises
    _check_outcome(outcome, knocker, winner, dw)

    code = _OUTCOME_CODES[outcome]
    values = {name: getattr(params, name) for name in _core.SCORING_FIELDS}
    points, credits, charges = _core.score_hand(values, dw, knocker, code, winner, multiplier)
    return HandScore(points=points, credits=credits, charges=charges, winner=winner, outcome=outcome)


#: the C engine's outcome codes (csrc/src/knock_score.c, rk_score_hand does the arithmetic); a tie the
#: knocker wins scores as a knock
_OUTCOME_CODES = {name: code for code, name in enumerate(_core.KNOCK_OUTCOMES)} | {
    "tie_knocker_wins": _core.KNOCK_OUTCOMES.index("knock")
}


# ---------------------------------------------------------------------------------------------
# Two-player settlement (docs/rules.md, Two-player settlement)


def settle(
    points: Sequence[int],
    boxes: Sequence[int],
    *,
    game_bonus: int = 100,
    box_bonus: int = 25,
    shutout_rule: str = "double_total",
) -> list[int]:
    """The two-player game settlement of docs/rules.md, Two-player settlement: ``[total_0, total_1]``.

    The winner is the player with more hand points; a tie raises InvalidOptionError.
    ``total_W = P_W + game_bonus + box_bonus * B_W`` and ``total_Lo = P_Lo + box_bonus * B_Lo``.
    If the loser has no box (shutout), ``shutout_rule`` applies to the winner's total:
    ``double_total`` (x2), ``double_game_bonus`` (+game_bonus), ``double_hand_points``
    (+P_W) or ``none``.  The net is ``total_W - total_Lo``.

    EX-G10 and EX-G11:

    >>> settle([104, 38], [4, 2])
    [304, 88]
    >>> settle([0, 112], [0, 3]), settle([112, 0], [3, 0], shutout_rule="double_hand_points")
    ([0, 574], [399, 0])
    """
    if shutout_rule not in SHUTOUT_RULES:
        raise InvalidOptionError(f"unknown shutout_rule {clip(shutout_rule)} (expected one of {list(SHUTOUT_RULES)})")
    game_bonus = _check_int("game_bonus", game_bonus)
    box_bonus = _check_int("box_bonus", box_bonus)
    pts = _check_ints("points", points)
    bxs = _check_ints("boxes", boxes)
    if len(pts) != 2 or len(bxs) != 2:
        raise InvalidOptionError(f"settle is for two players: got {len(pts)} points and {len(bxs)} boxes")
    if pts[0] == pts[1]:
        raise InvalidOptionError(f"settle: tied hand points {pts[0]} cannot end a game")
    win = 0 if pts[0] > pts[1] else 1
    lose = 1 - win
    totals = [pts[i] + box_bonus * bxs[i] for i in range(2)]
    totals[win] += game_bonus
    if bxs[lose] == 0:
        if shutout_rule == "double_total":
            totals[win] *= 2
        elif shutout_rule == "double_game_bonus":
            totals[win] += game_bonus
        elif shutout_rule == "double_hand_points":
            totals[win] += pts[win]
    return totals


# ---------------------------------------------------------------------------------------------
# Hollywood scoring (docs/rules.md, Hollywood)

_COLUMNS = 3


class HollywoodSheet:
    """A Hollywood sheet: three simultaneous games G1-G3 (docs/rules.md, Hollywood, D27), two players only.

    ``scores[c][p]`` is player p's score in column c (None where p has no entry there),
    ``boxes`` has the same shape.  A player's 1st win goes into G1, the 2nd into G1+G2, the
    3rd and later into all three; a column closes when a player reaches ``target_score``.

    EX-G14 (target 100; wins of 32, 28, 45):

    >>> sheet = HollywoodSheet(100)
    >>> for points in (32, 28, 45):
    ...     sheet.record(0, points)
    >>> sheet.scores, sheet.closed
    ([[105, None], [73, None], [45, None]], [True, False, False])
    >>> sheet.settlement()
    [[560, 0], None, None]
    """

    def __init__(self, target_score: int, players: int = 2) -> None:
        self._target = _check_int("target_score", target_score, 1)
        if not _is_int(players) or players != 2:
            raise InvalidOptionError(f"Hollywood scoring is for 2 players only, got {clip(players)}")
        self._players: int = players
        self._scores: list[list[int | None]] = [[None] * players for _ in range(_COLUMNS)]
        self._boxes: list[list[int | None]] = [[None] * players for _ in range(_COLUMNS)]
        self._closed = [False] * _COLUMNS
        self._opened: list[list[int]] = [[] for _ in range(players)]

    @property
    def target_score(self) -> int:
        """Each column's target."""
        return self._target

    @property
    def players(self) -> int:
        """The number of players (always 2)."""
        return self._players

    @property
    def scores(self) -> list[list[int | None]]:
        """Per column, per player: the running score, or None where the player has no entry."""
        return [list(column) for column in self._scores]

    @property
    def boxes(self) -> list[list[int | None]]:
        """Per column, per player: the boxes, or None where the player has no entry."""
        return [list(column) for column in self._boxes]

    @property
    def closed(self) -> list[bool]:
        """Per column: whether it is closed (someone reached the target there)."""
        return list(self._closed)

    @property
    def finished(self) -> bool:
        """Whether all three columns are closed (the match is over)."""
        return all(self._closed)

    def opened(self, player: int) -> list[int]:
        """The column indices (0-2) in which ``player`` has an entry, in opening order."""
        return list(self._opened[_check_seat("player", player, self._players)])

    def record(self, winner: int, points: int, boxes: int = 1) -> None:
        """Enter a won hand worth ``points`` (after the spade multiplier) for ``winner``.

        ``boxes`` is the number of boxes the win is worth in each column it enters (1, or more
        with extra boxes / ``spade_double_boxes``).

        >>> sheet = HollywoodSheet(100)
        >>> sheet.record(0, 18); sheet.record(1, 12); sheet.record(0, 25)
        >>> sheet.scores
        [[43, 12], [25, None], [None, None]]
        """
        if self.finished:
            raise IllegalActionError("the Hollywood sheet is finished: all three games are closed")
        if not _is_int(winner) or not 0 <= winner < self._players:
            raise IllegalActionError(f"winner must be a player 0..{self._players - 1}, got {clip(winner)}")
        if not _is_int(points) or points < 0:
            raise IllegalActionError(f"points must be an int >= 0, got {clip(points)}")
        if not _is_int(boxes) or boxes < 1:
            raise IllegalActionError(f"boxes must be an int >= 1, got {clip(boxes)}")
        opened = self._opened[winner]
        # Step 1: open the first column after max(opened) (or from G1) that is not closed.
        if len(opened) < _COLUMNS:
            start = max(opened) + 1 if opened else 0
            for column in range(start, _COLUMNS):
                if not self._closed[column]:
                    opened.append(column)
                    self._scores[column][winner] = 0
                    self._boxes[column][winner] = 0
                    break
        # Step 2: add the points and the boxes to every open column of the winner.
        for column in opened:
            if not self._closed[column]:
                self._scores[column][winner] = (self._scores[column][winner] or 0) + points
                self._boxes[column][winner] = (self._boxes[column][winner] or 0) + boxes
        # Step 3: close every column in which a player has reached the target.
        for column in range(_COLUMNS):
            if any(s is not None and s >= self._target for s in self._scores[column]):
                self._closed[column] = True

    def settlement(self, **settle_kwargs: Any) -> list[list[int] | None]:
        """Per column: :func:`settle` of its scores and boxes when closed, else None.

        A player without an entry counts as 0 points and 0 boxes (so the shutout applies).
        ``settle_kwargs`` are ``game_bonus``, ``box_bonus`` and ``shutout_rule``.
        """
        result: list[list[int] | None] = []
        for column in range(_COLUMNS):
            if not self._closed[column]:
                result.append(None)
                continue
            points = [s or 0 for s in self._scores[column]]
            boxes = [b or 0 for b in self._boxes[column]]
            result.append(settle(points, boxes, **settle_kwargs))
        return result


# ---------------------------------------------------------------------------------------------
# Match points (docs/rules.md, Match points)


def match_points(hands_won: Sequence[int], winner: int) -> list[int]:
    """Match points for one completed game (docs/rules.md, Match points, S000 "Matchplay").

    The game winner gets ``100 + 25 * hands won``, every other player ``25 * hands won``.

    EX-G05:

    >>> match_points([4, 2], winner=0)
    [200, 50]
    """
    won = _check_ints("hands_won", hands_won)
    if len(won) < 2:
        raise InvalidOptionError(f"hands_won needs one entry per player (at least 2), got {won}")
    winner = _check_seat("winner", winner, len(won))
    return [25 * n + (100 if seat == winner else 0) for seat, n in enumerate(won)]


# ---------------------------------------------------------------------------------------------
# Ring payout (docs/rules.md, Ring payout, D24)


def ring_payout(
    pool: int,
    nets: Sequence[int],
    *,
    model: str = "normalized",
    cutoff_gap: int = 50,
    first_after: int = 0,
) -> list[int]:
    """The ring (cash) game payout of docs/rules.md, Ring payout: integer pay per seat, summing to ``pool``.

    ``nets`` are final net scores, higher is better (for ``ring_penalty``: credits minus
    penalty points, so pass penalty totals negated).  With W the first place and
    ``gap_i = net_W - net_i``, a player is eligible iff ``gap_i < cutoff_gap`` and has
    ``r_i = (cutoff_gap - gap_i) / cutoff_gap``.  ``normalized`` (the default) pays
    ``floor(pool * 0.25 * r_i / sum of eligible r)``, so the whole 25% goes to the eligible
    players whenever there is one; ``slot_scaled`` pays ``floor(pool * 0.25 * r_i / (n - 1))``,
    each non-winner's slot scaled by closeness.  W gets the rest.  Players tied for first
    share their pay equally; the remainder units go one each, in seat order starting at seat
    ``first_after`` (the seat left of the last dealer), to the tied players.

    EX-M08 (penalty totals A 30, B 55, C 70, D 95):

    >>> ring_payout(10_000, [-30, -55, -70, -95])
    [7501, 1785, 714, 0]
    >>> ring_payout(10_000, [-30, -55, -70, -95], model="slot_scaled")
    [9418, 416, 166, 0]
    >>> ring_payout(9_000, [-20, -20, -45])
    [4125, 4125, 750]
    """
    if not isinstance(model, str) or model not in RING_PAYOUT_MODELS:
        raise InvalidOptionError(
            f"unknown ring payout model {clip(model)} (expected one of {list(RING_PAYOUT_MODELS)})"
        )
    pool = _check_int("pool", pool)
    cutoff_gap = _check_int("cutoff_gap", cutoff_gap, 1)
    net = _check_ints("nets", nets, minimum=None)
    n = len(net)
    if n < 2:
        raise InvalidOptionError(f"ring_payout needs at least 2 players, got {n}")
    first_after = _check_seat("first_after", first_after, n)

    best = max(net)
    tied = [seat for seat in range(n) if net[seat] == best]
    first = tied[0]
    # closeness on the cut-off scale, times cutoff_gap: r_i * cutoff_gap (0 if not eligible)
    weight = [max(cutoff_gap - (best - net[seat]), 0) for seat in range(n)]
    weight[first] = 0
    if model == "slot_scaled":
        denominator = 4 * cutoff_gap * (n - 1)
    else:
        denominator = 4 * sum(weight)
    pay = [pool * weight[seat] // denominator if denominator else 0 for seat in range(n)]
    pay[first] = pool - sum(pay)

    if len(tied) > 1:
        shared = sum(pay[seat] for seat in tied)
        share, remainder = divmod(shared, len(tied))
        order = sorted(tied, key=lambda seat: (seat - first_after) % n)
        for rank, seat in enumerate(order):
            pay[seat] = share + (1 if rank < remainder else 0)
    return pay
