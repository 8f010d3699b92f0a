"""The game layer of the table games (docs/rules.md, Kaluki (Game), Rummy (Game), Dealing and turn options).

* Rummy: hands until a player's cumulative score reaches ``target_score``
  (``winner_collects``: that player wins); under ``rummy_scoring =
  "penalty"`` the game ends when a penalty total reaches the target and the
  lowest total wins (a tie for lowest: no winner).
* Kaluki: after each hand every player whose penalty total reaches
  ``elimination_threshold`` (``ge``; ``gt``: passes it) is out; the others
  play on, the deal passing clockwise among them, until one is left: the
  winner.  ``ranking`` lists places best first: the survivor, then players
  in reverse order of elimination; players eliminated in the same hand rank
  by lower penalty, then higher bonus (docs/rules.md, D17), else share the place.

Dealer: clockwise (``alternate`` is the same with two players), or the hand
winner (``winner_deals``); after a dead hand the same dealer deals again
(``dealer_after_dead_hand = "same"``) or the next.  A blocked Rummy hand is
scored (penalty scoring) and the deal passes on.

>>> import random
>>> rng = random.Random(0)
>>> def agent(state):
...     return rng.choice(state.legal_actions())
>>> match = TableMatch("rummy", [agent, agent], seed=1, first_dealer=0, target_score=30)
>>> result = match.play()
>>> result.winner is not None and max(result.scores) >= 30
True

``rummykit.Match`` makes a TableMatch for Rummy and Kaluki:

>>> import rummykit as rk
>>> type(rk.Match("kaluki", [agent] * 3, seed=2)).__name__
'TableMatch'
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from rummykit.engine.match import Match
from rummykit.errors import InvalidOptionError, clip
from rummykit.table.game import TableGame
from rummykit.table.rules import TableRules
from rummykit.table.scoring import TableResult
from rummykit.table.state import TableState

__all__ = ["TableMatch", "TableMatchResult"]

#: An agent: called with the state of a hand when it is its seat's turn; returns an id, text or TableAction.
TableAgent = Callable[[TableState], Any]


@dataclass(frozen=True)
class TableMatchResult:
    """The end of a table-game match.  ``scores``: per seat, Rummy points
    (winner-collects) or penalty totals (penalty scoring, Kaluki), as ``score_kind``
    says, also under the name ``points`` or ``penalties`` (the other is None);
    ``bonuses``: Kaluki bonus tallies; ``ranking``: places best first, each
    a tuple of seats sharing it (``standings``: the seats in that order); ``totals``:
    what each seat nets, its points or minus its penalties.  The knock games' result
    (:class:`rummykit.knock.match.MatchResult`) has the same names."""

    winner: int | None
    scores: tuple[int, ...]
    bonuses: tuple[int, ...]
    ranking: tuple[tuple[int, ...], ...]
    hand_count: int
    dead_hands: int
    score_kind: str = "points"

    @property
    def points(self) -> tuple[int, ...] | None:
        """Per seat, the points scored (None in a penalty game)."""
        return self.scores if self.score_kind == "points" else None

    @property
    def penalties(self) -> tuple[int, ...] | None:
        """Per seat, the penalty total (None in a points game)."""
        return self.scores if self.score_kind == "penalties" else None

    @property
    def totals(self) -> tuple[int, ...]:
        """Per seat, what it nets: its points, or minus its penalties."""
        return self.scores if self.score_kind == "points" else tuple(-s for s in self.scores)

    @property
    def standings(self) -> tuple[int, ...]:
        """The seats, best first (``ranking`` flattened)."""
        return tuple(seat for place in self.ranking for seat in place)


class TableMatch(Match):
    """A Rummy or Kaluki game (``rummykit.Match(game, ...)`` makes one for a table game),
    played step by step or by agents (:mod:`rummykit.engine.match`).

    ``game`` is a :class:`TableGame` or a name (then ``TableGame(game, **options)``).
    Seats are the match's for the whole match: in Kaluki an eliminated seat stays in
    every later hand's state as a seat absent from it (``state.absent``: no cards,
    never to move); :attr:`active` lists the seats still playing.
    """

    family = "table"
    game: TableGame

    def __init__(
        self,
        game: TableGame | str,
        agents: Sequence[TableAgent] | None = None,
        *,
        num_players: int | None = None,
        seed: Any = None,
        first_dealer: int | None = None,
        trusted: bool = False,
        **options: Any,
    ) -> None:
        self.dealer = self._setup(game, agents, num_players, seed, first_dealer, trusted, options)
        n = self.rules.num_players
        self.active: list[int] = list(range(n))
        self._scores = [0] * n
        self._bonuses = [0] * n
        self.hands: list[TableResult] = []
        self.hand_seats: list[tuple[int, ...]] = []
        self._dead = 0
        self._eliminated: list[list[int]] = []  # per elimination event, in order
        self._result: TableMatchResult | None = None

    def _build_game(self, game: object, options: dict[str, Any]) -> TableGame:
        if isinstance(game, str):
            return TableGame(game, **options)
        if isinstance(game, TableGame):
            return TableGame(game.rules.name, **{**dict(game.rules.given), **options}) if options else game
        raise InvalidOptionError(f"game must be a table game or its name, got {clip(game)}")

    @property
    def rules(self) -> TableRules:
        return self.game.rules

    @property
    def seats_in_play(self) -> tuple[int, ...]:
        """The match seats not yet put out (Kaluki eliminates players)."""
        return tuple(self.active)

    @property
    def is_over(self) -> bool:
        return self._result is not None

    @property
    def result(self) -> TableMatchResult | None:
        """The result once the match is over, else None."""
        return self._result

    @property
    def scores(self) -> tuple[int, ...]:
        """Per seat: Rummy points (winner-collects), or penalty totals (penalty scoring, Kaluki)."""
        return tuple(self._scores)

    @property
    def bonuses(self) -> tuple[int, ...]:
        """Per seat, the Kaluki bonus tallies."""
        return tuple(self._bonuses)

    @property
    def eliminated(self) -> tuple[tuple[int, ...], ...]:
        """The seats eliminated (Kaluki), one tuple per hand that put seats out, in order."""
        return tuple(tuple(group) for group in self._eliminated)

    def _next_dealer(self) -> int:
        return self.dealer

    def _standing_extras(self) -> dict[str, Any]:
        extras: dict[str, Any] = {
            "bonuses": list(self._bonuses),
            "active": list(self.active),
            "eliminated": [list(group) for group in self._eliminated],
        }
        if self._result is not None:
            extras["ranking"] = [list(place) for place in self._result.ranking]
        return extras

    def _new_hand(self, seed: int) -> TableState:
        absent = [s for s in range(self.rules.num_players) if s not in self.active]
        return self.game.new_hand(seed=seed, dealer=self.dealer, absent=absent)

    def _next_active(self, seat: int) -> int:
        n = self.rules.num_players
        for i in range(1, n + 1):
            if (seat + i) % n in self.active:
                return (seat + i) % n
        return seat

    def _record(self, result: TableResult) -> None:
        rules = self.rules
        seats = tuple(self.active)
        self.hands.append(result)
        self.hand_seats.append(seats)
        if result.outcome == "dead":
            self._dead += 1
            if rules.dealer_after_dead_hand == "next":
                self.dealer = self._next_active(self.dealer)
            return
        subtract = rules.is_kaluki and rules.kaluki_bonus_accounting == "subtract_from_penalty"
        for seat in seats:
            if rules.is_kaluki or rules.rummy_scoring == "penalty":
                self._scores[seat] += result.penalties[seat] - (result.bonuses[seat] if subtract else 0)
            else:
                self._scores[seat] += result.points[seat]
            self._bonuses[seat] += result.bonuses[seat]
        winner = result.winner
        if rules.dealer_rotation == "winner_deals" and winner is not None:
            self.dealer = winner
        else:
            self.dealer = self._next_active(self.dealer)
        if rules.is_kaluki:
            self._eliminate()
        else:
            self._check_rummy_end()

    def _eliminate(self) -> None:
        rules = self.rules
        limit = rules.elimination_threshold
        scores = self._scores
        out = [
            s for s in self.active if (scores[s] >= limit if rules.elimination_compare == "ge" else scores[s] > limit)
        ]
        if not out:
            return
        self._eliminated.append(out)
        self.active = [s for s in self.active if s not in out]
        if self.dealer not in self.active and self.active:
            self.dealer = self._next_active(self.dealer)
        if len(self.active) <= 1:
            ranking: list[tuple[int, ...]] = [tuple(self.active)] if self.active else []
            for group in reversed(self._eliminated):
                keys = sorted({(scores[s], -self._bonuses[s]) for s in group})
                for key in keys:
                    ranking.append(tuple(s for s in group if (scores[s], -self._bonuses[s]) == key))
            winner = self.active[0] if self.active else None
            self._finish(winner, tuple(ranking))

    def _check_rummy_end(self) -> None:
        target = self.rules.target_score
        if max(self._scores) < target:
            return
        penalty = self.rules.rummy_scoring == "penalty"
        order = sorted(set(self._scores), reverse=not penalty)
        ranking = tuple(tuple(s for s in range(len(self._scores)) if self._scores[s] == v) for v in order)
        winner = ranking[0][0] if len(ranking[0]) == 1 else None
        self._finish(winner, ranking)

    def _finish(self, winner: int | None, ranking: tuple[tuple[int, ...], ...]) -> None:
        rules = self.rules
        kind = "penalties" if rules.is_kaluki or rules.rummy_scoring == "penalty" else "points"
        self._result = TableMatchResult(
            winner, tuple(self._scores), tuple(self._bonuses), ranking, len(self.hands), self._dead, kind
        )
