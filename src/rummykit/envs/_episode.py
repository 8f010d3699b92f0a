"""What the environments play in one episode: one hand, or a whole match (``rummykit.Match``).

Only numpy and rummykit are imported here.  Both the Gymnasium and the PettingZoo adapters step
an :class:`Episode`; the match rules (targets, bonuses, boxes, Kaluki eliminations, the dealer's
rotation) are the engine's :class:`rummykit.Match`, never a copy.

A match episode plays the engine's step-wise match: ``match.deal()`` hands the environment a
hand to step, ``match.finish_hand()`` scores it.  Seats are the match's for the whole match (a
Kaluki seat put out is absent from the later hands, never renumbered).  The environment's own
opponents are handed their seat's copy of the hand (:meth:`Episode.seat_state`), never the
real state.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from rummykit.engine.game import Game
from rummykit.engine.match import Match
from rummykit.engine.protocol import GameState
from rummykit.envs._common import hand_rewards
from rummykit.errors import InvalidOptionError, clip

__all__ = ["EPISODES", "Episode", "check_episode", "check_seat"]

#: The episode kinds: one ``hand``, or a ``match`` to the game's end (target score, eliminations).
EPISODES = ("hand", "match")


def check_episode(episode: str) -> str:
    """``episode`` if it is one of :data:`EPISODES`, else :class:`InvalidOptionError`."""
    if episode not in EPISODES:
        raise InvalidOptionError(f"episode must be one of {', '.join(EPISODES)}, got {clip(episode)}")
    return episode


def check_seat(name: str, seat: object, n: int) -> int | None:
    """``seat`` if it is None (drawn per episode) or a seat 0..n-1, else :class:`InvalidOptionError`."""
    if seat is None:
        return None
    if isinstance(seat, bool) or not isinstance(seat, (int, np.integer)) or not 0 <= int(seat) < n:
        raise InvalidOptionError(f"{name} must be a seat 0..{n - 1} or None (drawn per episode), got {clip(seat)}")
    return int(seat)


class Episode:
    """One episode of ``game``: a hand (``kind="hand"``) or a match (``kind="match"``).

    Seats are the match's (the game's seats) in every hand. ``dealer`` None draws the (first) dealer
    per episode from the generator given to :meth:`start`. Rewards (:data:`rummykit.envs.REWARDS`)
    come when a seat's episode ends: for a hand, ``hand_rewards``; for a match, ``win_loss`` +1 to
    the match winner (with partnerships: its side), -1 to every other seat, 0 to all when nobody
    wins; ``points`` what the match pays the seat: in a knock match settled between two parties its
    settlement total (bonuses included) minus the other party's (Hollywood: ``hollywood_net``), else
    its ``MatchResult.totals`` entry; a Rummy total, or minus a penalty total (Kaluki, penalty
    Rummy). A Kaluki seat is done when it is eliminated (-1, or minus its penalty total); the match
    goes on without it.
    """

    def __init__(self, game: Game, kind: str, reward: str, dealer: int | None) -> None:
        self.game, self.kind, self.reward_kind = game, check_episode(kind), reward
        self.dealer = check_seat("dealer", dealer, game.num_players)
        self.state: Any = None
        #: per seat whose episode has ended, its reward
        self.final: dict[int, float] = {}
        self.hands = 0
        self._match: Any = None
        self._copies = np.random.default_rng(0)

    @property
    def match(self) -> Any:
        """The :class:`rummykit.Match` of a match episode (None for a hand)."""
        return self._match

    @property
    def over(self) -> bool:
        """Whether every seat's episode has ended."""
        return len(self.final) == self.game.num_players

    def start(self, rng: np.random.Generator) -> None:
        """Begin a new episode, every draw (dealer, deal, match seed) from ``rng``."""
        n = self.game.num_players
        self.final, self.hands = {}, 0
        self._copies = np.random.default_rng(0)  # the seats' copies: drawn from the public information only
        if self.kind == "hand":
            dealer = self.dealer if self.dealer is not None else int(rng.integers(n))
            self._match = None
            self.state = self.game.new_hand(seed=rng, dealer=dealer)
            if self.state.is_terminal():
                self._finish_hand()
            return
        self._match = Match(self.game, seed=int(rng.integers(2**63)), first_dealer=self.dealer)
        self._next_hand()

    def current_seat(self) -> int | None:
        """The seat to act, None when the episode is over."""
        if self.over:
            return None
        return int(self.state.current_player)

    def hand_seat(self, seat: int) -> int | None:
        """``seat`` if it plays the hand in progress (None if it is out of it: Kaluki)."""
        return seat if seat in self.state.seats else None

    def seat_state(self, seat: int) -> GameState:
        """What an agent of ``seat`` is handed: its seat's copy of the hand (a determinization)."""
        copy: GameState = self.state.determinize(seat, self._copies)
        return copy

    def apply(self, action_id: int) -> list[int]:
        """Apply the legal engine action ``action_id`` for the seat to act; the seats whose
        episode ended with it."""
        done_before = set(self.final)
        self.state.apply_action(action_id)
        return self._after(done_before)

    def play(self, choice: Any) -> list[int]:
        """Play an agent's choice (an id, text or action object, checked by ``state.play``) for
        the seat to act; the seats whose episode ended with it."""
        done_before = set(self.final)
        self.state.play(int(choice) if isinstance(choice, np.integer) else choice)
        return self._after(done_before)

    def _after(self, done_before: set[int]) -> list[int]:
        if self.state.is_terminal():
            self._finish_hand()
        return [seat for seat in self.final if seat not in done_before]

    def _finish_hand(self) -> None:
        self.hands += 1
        match = self._match
        if match is None:
            self.final = dict(enumerate(hand_rewards(self.state, self.reward_kind)))
            return
        match.finish_hand()
        active = match.seats_in_play  # Kaluki puts players out: their episodes are done
        for seat in range(self.game.num_players):
            if seat not in active and seat not in self.final and not match.is_over:
                self.final[seat] = self._match_reward(seat, eliminated=True)
        self._next_hand()

    def _next_hand(self) -> None:
        match = self._match
        assert match is not None
        while not match.is_over:
            state = match.deal()
            if not state.is_terminal():
                self.state = state
                return
            match.finish_hand()  # a hand that ends before any decision
        for seat in range(self.game.num_players):
            if seat not in self.final:
                self.final[seat] = self._match_reward(seat, eliminated=False)

    def _match_reward(self, seat: int, eliminated: bool) -> float:
        match = self._match
        assert match is not None
        result = match.result
        if self.reward_kind == "win_loss":
            if eliminated:
                return -1.0
            if result.winner is None:
                return 0.0
            return 1.0 if seat in self.game.winning_seats(result.winner) else -1.0
        return self.game.family_record.match_points(match, seat)
