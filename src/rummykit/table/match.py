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
>>> type(rk.Match("kaluki", [agent] * 3, seed=2, num_players=3)).__name__
'TableMatch'
"""

from __future__ import annotations

import numbers
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from rummykit._random import as_generator
from rummykit.engine.hand_loop import play_out
from rummykit.engine.match import Match
from rummykit.errors import IllegalActionError, InvalidOptionError, clip
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
    (winner-collects) or penalty totals (penalty scoring, Kaluki);
    ``bonuses``: Kaluki bonus tallies; ``ranking``: places best first, each
    a tuple of seats sharing it."""

    winner: int | None
    scores: tuple[int, ...]
    bonuses: tuple[int, ...]
    ranking: tuple[tuple[int, ...], ...]
    hand_count: int
    dead_hands: int


class TableMatch(Match):
    """A Rummy or Kaluki game between agents, one per seat (``rummykit.Match(game, ...)``
    makes one for a table game).

    ``game`` is a :class:`TableGame` or a name (then ``TableGame(game,
    **options)``).  Agents get the real state; like the knock ``Match`` they
    must look only at what their seat may know.  In Kaluki, hands after an
    elimination are dealt to the remaining players: the state's seat i is
    match seat ``match.active[i]`` (:attr:`seats` of the hand).
    """

    family = "table"
    game: TableGame

    def __init__(
        self,
        game: TableGame | str,
        agents: Sequence[TableAgent],
        *,
        seed: Any = None,
        first_dealer: int | None = None,
        **options: Any,
    ) -> None:
        if isinstance(game, str):
            self.game = TableGame(game, **options)
        elif isinstance(game, TableGame):
            self.game = TableGame(game.rules.name, **{**dict(game.rules.given), **options}) if options else game
        else:
            raise InvalidOptionError(f"game must be a table game or its name, got {clip(game)}")
        rules = self.game.rules
        n = rules.num_players
        if (
            isinstance(agents, (str, bytes))
            or not isinstance(agents, Sequence)
            or len(agents) != n
            or not all(callable(a) for a in agents)
        ):
            raise InvalidOptionError(f"{rules.name} needs {n} agents (callables), one per seat")
        self.agents = tuple(agents)
        self._rng = as_generator(seed)
        if first_dealer is None:
            first_dealer = int(self._rng.integers(n))
        elif (
            isinstance(first_dealer, numbers.Integral) and not isinstance(first_dealer, bool) and 0 <= first_dealer < n
        ):
            first_dealer = int(first_dealer)
        else:
            raise InvalidOptionError(f"first_dealer must be a seat 0..{n - 1} or None, got {clip(first_dealer)}")
        self.dealer = first_dealer
        self.active: list[int] = list(range(n))
        self.scores = [0] * n
        self.bonuses = [0] * n
        self.hands: list[TableResult] = []
        self.hand_seats: list[tuple[int, ...]] = []
        self._dead = 0
        self._eliminated: list[list[int]] = []  # per elimination event, in order
        self._games: dict[int, TableGame] = {n: self.game}
        self.result: TableMatchResult | None = None

    @property
    def rules(self) -> TableRules:
        return self.game.rules

    @property
    def seats_in_play(self) -> tuple[int, ...]:
        """The match seats not yet put out (Kaluki eliminates players)."""
        return tuple(self.active)

    @property
    def is_over(self) -> bool:
        return self.result is not None

    def play(self, max_hands: int = 10_000) -> TableMatchResult:
        """Play hands until the game is over; IllegalActionError after ``max_hands`` hands."""
        if not isinstance(max_hands, numbers.Integral) or isinstance(max_hands, bool) or max_hands < 1:
            raise InvalidOptionError(f"max_hands must be an int >= 1, got {clip(max_hands)}")
        for _ in range(int(max_hands)):
            if self.result is not None:
                return self.result
            self.play_hand()
        if self.result is None:
            raise IllegalActionError(f"the game did not end within {max_hands} hands")
        return self.result

    def _hand_game(self) -> TableGame:
        k = len(self.active)
        if k not in self._games:
            self._games[k] = TableGame(self.rules.name, **{**dict(self.rules.given), "num_players": k})
        return self._games[k]

    def play_hand(self) -> TableResult:
        """Deal and play the next hand, record it and return its result (in match seats);
        agents with a ``new_hand`` method are told the match so far first
        (:class:`rummykit.agents.MatchInfo`)."""
        if self.result is not None:
            raise IllegalActionError("the match is over")
        self._tell_agents()
        seats = tuple(self.active)
        saved = self._rng.bit_generator.state
        try:
            seed = int(self._rng.integers(2**62))
            state = self._hand_game().new_hand(seed=seed, dealer=seats.index(self.dealer))
            result = self._play_out(state, seats)
        except BaseException:
            self._rng.bit_generator.state = saved
            raise
        self._record(result, seats)
        return result

    def _play_out(self, state: TableState, seats: tuple[int, ...]) -> TableResult:
        play_out(state, [self.agents[s] for s in seats], [f"seat {s}" for s in seats])
        assert state.result is not None
        return state.result

    def _next_active(self, seat: int) -> int:
        n = self.rules.num_players
        for i in range(1, n + 1):
            if (seat + i) % n in self.active:
                return (seat + i) % n
        return seat

    def _record(self, result: TableResult, seats: tuple[int, ...]) -> None:
        rules = self.rules
        self.hands.append(result)
        self.hand_seats.append(seats)
        if result.outcome == "dead":
            self._dead += 1
            if rules.dealer_after_dead_hand == "next":
                self.dealer = self._next_active(self.dealer)
            return
        subtract = rules.is_kaluki and rules.kaluki_bonus_accounting == "subtract_from_penalty"
        for i, seat in enumerate(seats):
            if rules.is_kaluki or rules.rummy_scoring == "penalty":
                self.scores[seat] += result.penalties[i] - (result.bonuses[i] if subtract else 0)
            else:
                self.scores[seat] += result.points[i]
            self.bonuses[seat] += result.bonuses[i]
        winner = None if result.winner is None else seats[result.winner]
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
        out = [
            s
            for s in self.active
            if (self.scores[s] >= limit if rules.elimination_compare == "ge" else self.scores[s] > limit)
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
                keys = sorted({(self.scores[s], -self.bonuses[s]) for s in group})
                for key in keys:
                    ranking.append(tuple(s for s in group if (self.scores[s], -self.bonuses[s]) == key))
            winner = self.active[0] if self.active else None
            self._finish(winner, tuple(ranking))

    def _check_rummy_end(self) -> None:
        target = self.rules.target_score
        if max(self.scores) < target:
            return
        penalty = self.rules.rummy_scoring == "penalty"
        order = sorted(set(self.scores), reverse=not penalty)
        ranking = tuple(tuple(s for s in range(len(self.scores)) if self.scores[s] == v) for v in order)
        winner = ranking[0][0] if len(ranking[0]) == 1 else None
        self._finish(winner, ranking)

    def _finish(self, winner: int | None, ranking: tuple[tuple[int, ...], ...]) -> None:
        self.result = TableMatchResult(
            winner, tuple(self.scores), tuple(self.bonuses), ranking, len(self.hands), self._dead
        )
