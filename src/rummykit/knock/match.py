"""The game and match layer of the knock games (docs/rules.md, Gin Rummy (Game), Oklahoma Gin (Target), Oklahoma Rummy
(Game end),
Scoring, Dealing and turn options dealer options, Game and match options, D4, D5, D25, D27-D29).

A :class:`Match` seats one agent per player, deals seeded hands, plays them out through the
checked path (``state.play``), records every :class:`HandResult`, rotates the dealer and ends
games and the match by the variant's rules:

* ``game_end = "target"``: the first player whose hand points reach ``target_score`` after a hand
  wins the game at once.  Two players whose losers are not charged (``losers_charged`` false,
  as in ``classic_two_player``) are settled with :func:`rummykit.settle` (game bonus, boxes,
  shutout; docs/rules.md, Two-player settlement); otherwise (3-4 players, ``net_collect``...) the net score stands.
* ``partnerships`` (D30): seats 0+2 play against 1+3.  Each hand credits both partners with
  the side's points and box, so partners' scores stay equal; a target game is settled side
  against side with Two-player settlement, each seat getting its side's total, and a game or match winner is
  reported as the side's first seat (0 for seats 0+2, 1 for 1+3).
* ``game_end = "fixed_hands"``: ``num_hands`` hands (default 2 x players, D25), then rank by
  net; with ``pool=...`` the ring payout of Ring payout.  Dead hands are redealt and do not count.
* ``scoring_sheet = "hollywood"``: every won hand goes on a :class:`HollywoodSheet`; the match
  ends when its three columns are closed (Hollywood).
* ``match_mode = "match_points"``: ``match_games`` games, each worth match points (Match points).

>>> import rummykit as rk
>>> from rummykit.knock.match import Match
>>> def agent(state):  # knock if it can, else draw stock, else pass or discard the highest id
...     legal = state.legal_actions()
...     knocks = [a for a in legal if 52 <= a < 104]
...     return knocks[0] if knocks else 104 if 104 in legal else legal[-1]
>>> match = Match("gin", [agent, agent], seed=7)
>>> result = match.play()
>>> result.winner is not None and max(match.scores) >= 100
True
>>> list(result.totals) == match.game.settle(match.scores, match.boxes)
True
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rummykit.errors import InvalidOptionError, clip

if TYPE_CHECKING:
    import numpy as np
from rummykit.engine.game import Game
from rummykit.engine.match import Match as AnyMatch
from rummykit.knock.actions import Action
from rummykit.knock.game import KnockGame
from rummykit.knock.rules import KnockRules
from rummykit.knock.showdown import HandResult
from rummykit.knock.state import KnockState

if TYPE_CHECKING:
    import numpy as np
from rummykit.scoring import HollywoodSheet, match_points, ring_payout, settle

__all__ = ["Agent", "GameResult", "KnockMatch", "Match", "MatchResult"]

#: What an agent may return: an action id, action text (``"discard 7H"``) or an :class:`Action`.
AgentAction = int | str | Action
#: An agent: called with the state of a hand when it is its seat's turn.
Agent = Callable[[KnockState], AgentAction]

_COLUMNS = 3


@dataclass(frozen=True)
class GameResult:
    """One completed game of a match (or one closed Hollywood column).

    ``points`` and ``boxes`` are each seat's hand points and boxes in that game (for a Hollywood
    column: the column's score and boxes, 0 without an entry); ``hands_won`` counts hands won
    (for a column: wins entered in it; with partnerships: the side's wins); ``hands`` counts the
    hands dealt during the game, dead ones included.  ``totals`` is the docs/rules.md "Two-player settlement" settlement
    (two
    players or two sides of partners, a model without loser charges, a target game; with
    partnerships each seat holds its side's total), else None.  ``match_points`` is the Match points
    award in match mode.

    >>> GameResult(0, (104, 38), (4, 2), (4, 2), 7, (304, 88), (200, 50)).net
    216
    """

    winner: int | None
    points: tuple[int, ...]
    boxes: tuple[int, ...]
    hands_won: tuple[int, ...]
    hands: int
    totals: tuple[int, ...] | None
    match_points: tuple[int, ...] | None = None

    @property
    def net(self) -> int | None:
        """The winner's settlement net ``total_W - total_Lo`` (None without a settlement);
        with partnerships side against side."""
        if self.totals is None or self.winner is None:
            return None
        # the next seat is the loser (two players) or holds the losing side's total (partners)
        return self.totals[self.winner] - self.totals[(self.winner + 1) % len(self.totals)]


@dataclass(frozen=True)
class MatchResult:
    """The end of a match.

    * ``winner``: the seat that won (None on a tie).  For a one-game match it is the game
      winner; with ``match_points`` the seat with most match points; for several games without
      match points, or for Hollywood, the seat with the best ``totals``.  With partnerships the
      winning side's first seat (0 or 1).
    * ``totals``: per seat, the settlement totals summed over the games (two-player settled
      games), the Hollywood column totals summed over the columns, or else the net hand points
      (credits - charges) summed over the match.
    * ``scores`` / ``boxes``: hand points and boxes over the whole match.
    * ``hand_count``: hands dealt, dead hands included; ``dead_hands``: how many were dead.
    * ``games``: each completed game (each Hollywood column, in column order).
    * ``standings``: the seats, best first (the winner first, with partnerships the winner's
      side first, then by match points or totals, ties in seat order).
    * ``hollywood``: each column's settlement ``[total_0, total_1]``; ``hollywood_net``: per seat
      the sum over the columns of its total minus the other's.
    * ``match_points``: per seat (match mode).  ``payout``: the ring payout per seat (with a pool).

    >>> r = MatchResult(1, (0, 574), (0, 112), (0, 3), 4, 1, (), (1, 0))
    >>> r.winner, r.payout
    (1, None)
    """

    winner: int | None
    totals: tuple[int, ...]
    scores: tuple[int, ...]
    boxes: tuple[int, ...]
    hand_count: int
    dead_hands: int
    games: tuple[GameResult, ...]
    standings: tuple[int, ...]
    hollywood: tuple[tuple[int, ...], ...] | None = None
    hollywood_net: tuple[int, ...] | None = None
    match_points: tuple[int, ...] | None = None
    payout: tuple[int, ...] | None = None

    # the names every game's match result has (rummykit.table.match.TableMatchResult too)

    #: what ``scores`` count: ``"points"`` (``"penalties"`` in Kaluki and penalty Rummy)
    score_kind = "points"

    @property
    def points(self) -> tuple[int, ...]:
        """Per seat, the points scored over the match (``scores``)."""
        return self.scores

    @property
    def penalties(self) -> None:
        """None: the knock games score points."""
        return None

    @property
    def ranking(self) -> tuple[tuple[int, ...], ...]:
        """The places, best first, one seat each (``standings``)."""
        return tuple((seat,) for seat in self.standings)


def _build_game(game: object, options: dict[str, Any]) -> KnockGame:
    if isinstance(game, str):
        built = Game(game, **options)
    elif isinstance(game, KnockGame):
        built = KnockGame(game.rules.name, **{**dict(game.rules.given), **options}) if options else game
    else:
        raise InvalidOptionError(f"game must be a knock game or its name, got {clip(game)}")
    if not isinstance(built, KnockGame):
        raise InvalidOptionError(
            f"KnockMatch plays the knock games only, got {clip(built)} (rummykit.Match plays every game)"
        )
    return built


def _unique_best(values: Sequence[int]) -> int | None:
    """The index of the single highest value (None on a tie)."""
    best = max(values)
    tied = [seat for seat, v in enumerate(values) if v == best]
    return tied[0] if len(tied) == 1 else None


class KnockMatch(AnyMatch):
    """A match of a knock game (``rummykit.Match(game, ...)`` makes one for a knock game;
    this module's ``Match`` is this class), played step by step or by agents
    (:mod:`rummykit.engine.match`).

    ``game`` is a :class:`KnockGame` or a game name (then ``Game(game, **options)``; with a
    KnockGame, ``options`` are added to its own).  ``agents[i]`` (optional) plays seat i: it is
    called with its seat's copy of the hand (a :class:`KnockState`) whenever seat i is to act
    and returns an action id, text or :class:`Action`, which is applied to the real hand with
    the checked ``state.play``.

    ``seed`` (an int, a numpy Generator or None) drives the match: the first dealer (unless
    ``first_dealer`` is given) and then every hand's seed.  ``pool`` (minor currency units) asks
    for the ring payout of docs/rules.md "Ring payout" at the end of a ``fixed_hands`` match.

    Dealer: ``dealer_rotation`` ``alternate``/``clockwise`` pass the deal to the next seat,
    ``winner_deals`` to the hand winner; after a dead hand the same dealer deals again
    (``dealer_after_dead_hand = "same"``, docs/rules.md, D29) or the next seat (``"next"``).  The rotation
    carries on across games.  Dead hands are recorded in :attr:`hands` but never count toward
    ``num_hands``.

    >>> def agent(state):
    ...     legal = state.legal_actions()
    ...     knocks = [a for a in legal if 52 <= a < 104]
    ...     return knocks[0] if knocks else 104 if 104 in legal else legal[-1]
    >>> match = Match("oklahoma-rummy", [agent] * 3, seed=1, first_dealer=0,
    ...               game_end="fixed_hands", num_hands=2, max_turns=60)
    >>> match.dealer, match.is_over
    (0, False)
    >>> result = match.play()
    >>> result.hand_count - result.dead_hands, sum(result.scores) >= 0
    (2, True)
    """

    family = "knock"
    game: KnockGame

    def __init__(
        self,
        game: KnockGame | str,
        agents: Sequence[Agent] | None = None,
        *,
        num_players: int | None = None,
        seed: int | np.random.Generator | None = None,
        first_dealer: int | None = None,
        pool: int | None = None,
        trusted: bool = False,
        **options: Any,
    ) -> None:
        first_dealer = self._setup(game, agents, num_players, seed, first_dealer, trusted, options)
        rules = self.rules
        n = rules.num_players
        self._check_options(rules, pool)
        self.pool: int | None = pool
        self._n = n
        self._dealer: int = first_dealer
        self._num_hands = rules.num_hands if rules.num_hands is not None else 2 * n
        # partners score as one side (docs/rules.md, D30): seats 0 and 1 stand for the two sides
        self._sides = rules.partnerships
        self._settled = (n == 2 or self._sides) and not rules.losers_charged and rules.game_end == "target"
        # the whole match
        self._hands: list[HandResult] = []
        self._dealers: list[int] = []
        self._seeds: list[int] = []
        self._dead = 0
        self._total_scores = [0] * n
        self._total_boxes = [0] * n
        self._games: list[GameResult] = []
        self._match_points: list[int] | None = [0] * n if rules.match_mode == "match_points" else None
        self._sheet: HollywoodSheet | None = (
            HollywoodSheet(rules.target_score) if rules.scoring_sheet == "hollywood" else None
        )
        self._column_won = [[0] * n for _ in range(_COLUMNS)]
        self._column_hands = [0] * _COLUMNS
        self._result: MatchResult | None = None
        # the game in progress
        self._scores = [0] * n
        self._boxes = [0] * n
        self._won = [0] * n
        self._game_hands = 0
        self._game_counted = 0

    def _build_game(self, game: object, options: dict[str, Any]) -> KnockGame:
        return _build_game(game, options)

    def _next_dealer(self) -> int:
        return self._dealer

    def _standing_extras(self) -> dict[str, Any]:
        extras: dict[str, Any] = {
            "boxes": list(self._boxes),
            "total_scores": list(self._total_scores),
            "games_won": [sum(1 for g in self._games if g.winner == seat) for seat in range(self._n)],
        }
        if self._match_points is not None:
            extras["match_points"] = list(self._match_points)
        result = self._result
        if result is not None:
            extras["totals"] = list(result.totals)
            extras["standings"] = list(result.standings)
        return extras

    def _match_options(self) -> dict[str, Any]:
        return {} if self.pool is None else {"pool": self.pool}

    @staticmethod
    def _check_options(rules: KnockRules, pool: int | None) -> None:
        if rules.game_end not in ("target", "fixed_hands"):
            raise InvalidOptionError(f"Match supports game_end 'target' or 'fixed_hands', got {clip(rules.game_end)}")
        if rules.game_end == "target" and rules.target_score < 1:
            raise InvalidOptionError(f"target_score must be at least 1, got {rules.target_score}")
        if rules.scoring_sheet == "hollywood" and (
            rules.match_mode != "off" or rules.match_games != 1 or rules.game_end != "target"
        ):
            raise InvalidOptionError(
                "scoring_sheet='hollywood' is a match of its own: it needs match_mode='off', "
                "match_games=1 and game_end='target'"
            )
        if rules.match_mode == "match_points" and rules.game_end != "target":
            raise InvalidOptionError("match_mode='match_points' needs game_end='target' (each game needs a winner)")
        if pool is not None:
            if isinstance(pool, bool) or not isinstance(pool, int) or pool < 0:
                raise InvalidOptionError(f"pool must be a non-negative int (minor currency units), got {clip(pool)}")
            if rules.game_end != "fixed_hands" or rules.scoring_sheet != "single" or rules.match_mode != "off":
                raise InvalidOptionError(
                    "a ring payout pool needs game_end='fixed_hands' (no Hollywood, no match points)"
                )
            if rules.ring_winner_min_share != 0.75:
                raise InvalidOptionError(
                    f"ring_winner_min_share {clip(rules.ring_winner_min_share)} is not supported "
                    "(the payout keeps 0.75)"
                )

    # --- views --------------------------------------------------------------

    @property
    def rules(self) -> KnockRules:
        """The game's rules."""
        return self.game.rules

    @property
    def hands(self) -> list[HandResult]:
        """Every hand played so far, dead hands included, in order (a copy)."""
        return list(self._hands)

    @property
    def dealers(self) -> list[int]:
        """The dealer of each hand in :attr:`hands`."""
        return list(self._dealers)

    @property
    def hand_seeds(self) -> list[int]:
        """The seed of each hand in :attr:`hands`: ``game.new_hand(seed, dealer)`` redeals it."""
        return list(self._seeds)

    @property
    def scores(self) -> tuple[int, ...]:
        """Per seat, the hand points (net: credits - charges) of the game in progress, or of the
        last game once the match is over.  A Hollywood match is one game: the whole match."""
        return tuple(self._scores)

    @property
    def boxes(self) -> tuple[int, ...]:
        """Per seat, the boxes of the game in progress (of the last game once over)."""
        return tuple(self._boxes)

    @property
    def total_scores(self) -> tuple[int, ...]:
        """Per seat, the hand points over the whole match."""
        return tuple(self._total_scores)

    @property
    def games(self) -> list[GameResult]:
        """The completed games (in a Hollywood match: the closed columns, once it is over)."""
        return list(self._games)

    @property
    def match_points(self) -> tuple[int, ...] | None:
        """Per seat, the match points so far (None unless ``match_mode='match_points'``)."""
        return None if self._match_points is None else tuple(self._match_points)

    @property
    def hollywood(self) -> HollywoodSheet | None:
        """A copy of the Hollywood sheet (None unless ``scoring_sheet='hollywood'``)."""
        return copy.deepcopy(self._sheet)

    @property
    def dealer(self) -> int:
        """The seat that deals the next hand."""
        return self._dealer

    @property
    def is_over(self) -> bool:
        """Whether the match has ended."""
        return self._result is not None

    @property
    def result(self) -> MatchResult | None:
        """The result once the match is over, else None."""
        return self._result

    # --- playing ------------------------------------------------------------

    def _new_hand(self, seed: int) -> KnockState:
        return self.game.new_hand(seed=seed, dealer=self._dealer)

    # --- bookkeeping --------------------------------------------------------

    def _record(self, result: HandResult) -> None:
        rules, n = self.rules, self._n
        dealer = self._dealer
        self._hands.append(result)
        self._dealers.append(dealer)
        self._seeds.append(self._hand_seed)
        self._game_hands += 1
        if self._sheet is not None:
            for column, closed in enumerate(self._sheet.closed):
                if not closed:
                    self._column_hands[column] += 1
        winner = result.winner
        if winner is None:  # a dead hand: redealt, counts for nothing
            self._dead += 1
            self._dealer = dealer if rules.dealer_after_dead_hand == "same" else (dealer + 1) % n
            return
        for seat in range(n):
            self._scores[seat] += result.points[seat]
            self._boxes[seat] += result.boxes[seat]
            self._total_scores[seat] += result.points[seat]
            self._total_boxes[seat] += result.boxes[seat]
        for seat in self._side_of(winner):
            self._won[seat] += 1
        self._game_counted += 1
        self._dealer = winner if rules.dealer_rotation == "winner_deals" else (dealer + 1) % n
        if self._sheet is not None:
            self._record_hollywood(self._sheet, winner, result)
            return
        if rules.game_end == "target":
            crossed = [seat for seat in range(n) if self._scores[seat] >= rules.target_score]
            if crossed:
                best = winner if winner in crossed else max(crossed, key=lambda s: (self._scores[s], -s))
                self._end_game(best % 2 if self._sides else best)
        elif self._game_counted >= self._num_hands:
            self._end_game(self._best(self._scores))

    def _side_of(self, seat: int) -> tuple[int, ...]:
        """The seats that score with ``seat``: its side with partnerships, else itself."""
        return (seat, (seat + 2) % 4) if self._sides else (seat,)

    def _best(self, values: Sequence[int]) -> int | None:
        """The seat (with partnerships: the side's first seat) with the single best value."""
        return _unique_best(values[:2] if self._sides else values)

    def _record_hollywood(self, sheet: HollywoodSheet, winner: int, result: HandResult) -> None:
        before = sheet.boxes
        sheet.record(winner, result.points[winner], result.boxes[winner])
        after = sheet.boxes
        for column in range(_COLUMNS):
            if after[column][winner] != before[column][winner]:
                self._column_won[column][winner] += 1
        if not sheet.finished:
            return
        rules = self.rules
        settlements = sheet.settlement(
            game_bonus=rules.game_bonus, box_bonus=rules.box_bonus, shutout_rule=rules.shutout_rule
        )
        scores, boxes = sheet.scores, sheet.boxes
        for column in range(_COLUMNS):
            totals = settlements[column]
            assert totals is not None
            points = tuple(p or 0 for p in scores[column])
            self._games.append(
                GameResult(
                    winner=0 if points[0] > points[1] else 1,
                    points=points,
                    boxes=tuple(b or 0 for b in boxes[column]),
                    hands_won=tuple(self._column_won[column]),
                    hands=self._column_hands[column],
                    totals=tuple(totals),
                )
            )
        self._finish()

    def _end_game(self, winner: int | None) -> None:
        rules = self.rules
        totals: tuple[int, ...] | None = None
        if self._settled:
            parties = 2  # two players, or the two sides whose totals seats 0 and 1 hold
            settled = settle(
                self._scores[:parties],
                self._boxes[:parties],
                game_bonus=rules.game_bonus,
                box_bonus=rules.box_bonus,
                shutout_rule=rules.shutout_rule,
            )
            totals = tuple(settled[seat % parties] for seat in range(self._n))
        awarded: tuple[int, ...] | None = None
        if self._match_points is not None:
            assert winner is not None  # target games always have one
            awarded = tuple(match_points(self._won, winner))
            for seat, points in enumerate(awarded):
                self._match_points[seat] += points
        self._games.append(
            GameResult(
                winner=winner,
                points=tuple(self._scores),
                boxes=tuple(self._boxes),
                hands_won=tuple(self._won),
                hands=self._game_hands,
                totals=totals,
                match_points=awarded,
            )
        )
        if len(self._games) >= rules.match_games:
            self._finish()
            return
        n = self._n
        self._scores, self._boxes, self._won = [0] * n, [0] * n, [0] * n
        self._game_hands = self._game_counted = 0

    def _finish(self) -> None:
        n, games = self._n, self._games
        hollywood: tuple[tuple[int, ...], ...] | None = None
        hollywood_net: tuple[int, ...] | None = None
        if self._sheet is not None:
            hollywood = tuple(g.totals for g in games if g.totals is not None)
            totals = tuple(sum(t[seat] for t in hollywood) for seat in range(n))
            hollywood_net = tuple(sum(2 * t[seat] - sum(t) for t in hollywood) for seat in range(n))
        elif self._settled:
            totals = tuple(sum(g.totals[seat] for g in games if g.totals is not None) for seat in range(n))
        else:
            totals = tuple(self._total_scores)
        mp = None if self._match_points is None else tuple(self._match_points)
        if mp is not None:
            winner = _unique_best(mp)
        elif len(games) == 1:
            winner = games[0].winner
        else:
            winner = self._best(totals)
        key = mp if mp is not None else totals
        won = () if winner is None else self._side_of(winner)
        standings = tuple(sorted(range(n), key=lambda s: (s not in won, -key[s], s)))
        payout: tuple[int, ...] | None = None
        if self.pool is not None:
            payout = tuple(
                ring_payout(
                    self.pool,
                    totals,
                    model=self.rules.ring_payout_model,
                    cutoff_gap=self.rules.ring_cutoff_gap,
                    first_after=(self._dealers[-1] + 1) % n,
                )
            )
        self._result = MatchResult(
            winner=winner,
            totals=totals,
            scores=tuple(self._total_scores),
            boxes=tuple(self._total_boxes),
            hand_count=len(self._hands),
            dead_hands=self._dead,
            games=tuple(games),
            standings=standings,
            hollywood=hollywood,
            hollywood_net=hollywood_net,
            match_points=mp,
            payout=payout,
        )


#: the knock-game match (the name this module always had; ``rummykit.Match`` plays every game)
Match = KnockMatch
