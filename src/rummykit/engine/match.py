"""The base class of every match: ``rummykit.Match``.

``Match(game, agents=None, *, num_players=None, seed=None, first_dealer=None,
**options)`` is a whole game of ``game`` (a :class:`~rummykit.engine.game.Game`
or any game name) by that game's rules: an instance of the family's subclass
(``KnockMatch``: Gin and Oklahoma games, boxes, settlements, Hollywood, match
points; ``TableMatch``: Rummy to its target, Kaluki elimination).

A match is played step by step, by a server or a script, or by agents:

* :meth:`Match.deal` deals the next hand and returns its state (also
  :attr:`Match.state`); the caller plays it (``state.play(text)``,
  ``apply_action``, ``undo`` within the hand);
* :meth:`Match.finish_hand` scores the finished hand and returns its result;
* :attr:`Match.is_over`, :attr:`Match.result`, :attr:`Match.scores` tell the
  standing; :meth:`Match.view` is it as plain JSON data for one seat.

``Match(game, agents).play()`` is built on the same steps, each agent playing
its seat (:func:`rummykit.engine.hand_loop.play_out`).  Seats are the match's
seats for the whole match: an eliminated Kaluki seat is dealt no cards and
never moves (``state.absent``), and is never renumbered.  ``to_json()`` saves
a match at any point (mid-hand too) and :func:`rummykit.from_json` resumes it.

>>> import rummykit as rk
>>> m = rk.Match("kaluki", num_players=3, seed=5)
>>> state = m.deal()
>>> state is m.state, state.current_player in (0, 1, 2)
(True, True)
"""

from __future__ import annotations

import numbers
from collections.abc import Sequence
from typing import Any, ClassVar

from rummykit._random import as_generator
from rummykit.engine.game import Game, family_of, games_for
from rummykit.engine.hand_loop import Agent, play_out
from rummykit.engine.protocol import GameState
from rummykit.engine.records import match_from_record, match_to_json
from rummykit.engine.views import match_view
from rummykit.errors import IllegalActionError, InvalidOptionError, RummykitError, clip

__all__ = ["Match"]


class Match:
    """A match of any game (``Match(game, agents=None, ...)`` picks the family's
    match class; see :mod:`rummykit.engine.match`).

    ``agents`` (optional): one callable per seat, for :meth:`play` and
    :meth:`play_hand`; without agents the match is played step by step
    (:meth:`deal`, ``state.play``, :meth:`finish_hand`).  The number of
    players is ``num_players``, else the number of agents, else the game's
    default.  ``seed`` (an int, a numpy Generator or None) drives the match: the
    first dealer (unless ``first_dealer`` is given) and every hand's seed.
    ``trusted=True`` hands agents the real state instead of their seat's copy
    (faster; an agent could then read hidden cards).
    """

    #: the family name of a subclass (``"knock"`` or ``"table"``)
    family: ClassVar[str] = ""
    #: family name -> its Match subclass (the first subclass declaring it)
    families: ClassVar[dict[str, type[Match]]] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if cls.family:
            Match.families.setdefault(cls.family, cls)

    def __new__(cls, game: object = None, agents: Sequence[Agent] | None = None, *args: Any, **kwargs: Any) -> Match:
        if cls is Match:
            if not isinstance(game, (Game, str)):
                raise InvalidOptionError(f"game must be a game or a game name, got {clip(game)}")
            cls = Match.families[family_of(game)]
        return super().__new__(cls)

    # what every match has (set by _setup, or by the subclasses)
    game: Any
    agents: tuple[Agent, ...] | None
    trusted: bool
    seed: int | None

    def _setup(
        self,
        game: object,
        agents: Sequence[Agent] | None,
        num_players: int | None,
        seed: Any,
        first_dealer: int | None,
        trusted: bool,
        options: dict[str, Any],
    ) -> int:
        """The common start of every match: the game (its player count from
        ``num_players`` or the agents), the agents, the generator and the first dealer
        (returned)."""
        if agents is not None and (
            isinstance(agents, (str, bytes)) or not isinstance(agents, Sequence) or not all(callable(a) for a in agents)
        ):
            raise InvalidOptionError(
                f"agents must be a sequence of agents (callables), one per seat, got {clip(agents)}"
            )
        if num_players is not None:
            options = {**options, "num_players": num_players}
        self.game = self._build_game(game, options)
        n = self.game.num_players
        if agents is not None and len(agents) != n and "num_players" not in options:
            # one agent per seat: the agents say how many play
            self.game = self._build_game_for(game, options, len(agents))
            n = self.game.num_players
        if agents is not None and len(agents) != n:
            raise InvalidOptionError(
                f"{self.game.name} has {n} seats: {n} agents needed, one per seat, got {len(agents)}"
            )
        self.agents = None if agents is None else tuple(agents)
        if not isinstance(trusted, bool):
            raise InvalidOptionError(f"trusted must be True or False, got {clip(trusted)}")
        self.trusted = trusted
        # an int seed is kept for the records (a Generator or None: the generator's state is)
        self.seed = int(seed) if isinstance(seed, numbers.Integral) and not isinstance(seed, bool) else None
        self._rng = as_generator(seed)
        if first_dealer is None:
            first_dealer = int(self._rng.integers(n))
        elif (
            isinstance(first_dealer, numbers.Integral) and not isinstance(first_dealer, bool) and 0 <= first_dealer < n
        ):
            first_dealer = int(first_dealer)
        else:
            raise InvalidOptionError(f"first_dealer must be a seat 0..{n - 1} or None, got {clip(first_dealer)}")
        self.first_dealer = first_dealer
        self._rng_start: dict[str, Any] = dict(self._rng.bit_generator.state)
        self._state: GameState | None = None
        self._open = False  # the hand in self._state is dealt and not yet finished by finish_hand
        self._hand_seed = 0
        self._hand_texts: list[tuple[int, list[str]]] = []  # per finished hand: its seed and its actions
        return first_dealer

    def _build_game(self, game: object, options: dict[str, Any]) -> Any:
        raise NotImplementedError

    def _build_game_for(self, game: object, options: dict[str, Any], players: int) -> Any:
        """The game for ``players`` seats; if it has no such variant, the error names the
        games and presets that do."""
        try:
            return self._build_game(game, {**options, "num_players": players})
        except InvalidOptionError as err:
            fits = games_for(self.family, players)
            hint = f"; for {players} players: {', '.join(fits)}" if fits else ""
            many = "agent" if players == 1 else "agents"
            raise InvalidOptionError(f"{players} {many} (one per seat): {err}{hint}") from None

    @property
    def rules(self) -> Any:
        """The game's rules."""
        return self.game.rules

    @property
    def num_players(self) -> int:
        """The number of seats."""
        return int(self.game.num_players)

    # --- the standing (the subclasses define these) --------------------------

    @property
    def is_over(self) -> bool:
        """Whether the match has ended."""
        raise NotImplementedError

    @property
    def result(self) -> Any:
        """The match result once it is over, else None."""
        raise NotImplementedError

    @property
    def scores(self) -> tuple[int, ...]:
        """Per seat, the score so far (see the family's class)."""
        raise NotImplementedError

    @property
    def hands_played(self) -> int:
        """The hands finished so far (dead hands included)."""
        return len(self._hand_texts)

    # --- the steps ------------------------------------------------------------

    @property
    def state(self) -> GameState | None:
        """The hand in progress (dealt by :meth:`deal`), or the last hand once it is
        finished; None before the first deal."""
        return self._state

    @property
    def in_hand(self) -> bool:
        """Whether a hand is dealt and not yet finished (:meth:`finish_hand`)."""
        return self._open

    def deal(self) -> GameState:
        """Deal the next hand (its seed drawn from the match's generator) and return its
        state, also kept as :attr:`state`.  :class:`RummykitError` if the match is over or
        a hand is still in progress."""
        if self.is_over:
            raise IllegalActionError("the match is over: no more hands")
        if self._open:
            raise IllegalActionError("a hand is in progress: play it to its end and call finish_hand() first")
        seed = int(self._rng.integers(2**62))
        state = self._new_hand(seed)
        self._state, self._open, self._hand_seed = state, True, seed
        return state

    def finish_hand(self) -> Any:
        """Score the finished hand of :attr:`state` in the match and return its result (the
        hand's ``state.result``).  :class:`RummykitError` if no hand is in progress or the
        hand is not over."""
        state = self._state
        if state is None or not self._open:
            raise IllegalActionError("no hand in progress: deal() one first")
        if not state.is_terminal():
            raise IllegalActionError(
                f"the hand is not finished: seat {state.current_player} is to act ({state.phase_name})"
            )
        result = state.result
        self._record(result)
        self._hand_texts.append((self._hand_seed, [state.action_text(a) for a in state.history]))
        self._open = False
        return result

    def play_hand(self) -> Any:
        """Deal the next hand, let the agents play it to the end, finish it and return its
        result.  An agent's illegal action raises :class:`IllegalActionError` naming the
        seat; then, as for any error raised by an agent, nothing is recorded and the match
        generator is restored, so the match is unchanged."""
        agents = self._need_agents()
        self._tell_agents()
        saved = self._rng.bit_generator.state
        before = self._state
        state = self.deal()
        try:
            play_out(state, agents, trusted=self.trusted)
        except BaseException:
            self._rng.bit_generator.state = saved
            self._state, self._open = before, False
            raise
        return self.finish_hand()

    def play(self, max_hands: int = 10_000) -> Any:
        """Let the agents play hands (finishing the hand in progress first) until the match
        is over, and return its result.  After ``max_hands`` hands in this call
        :class:`IllegalActionError` is raised (agents that never end a hand would redeal
        for ever); the match stays playable."""
        agents = self._need_agents()
        if not isinstance(max_hands, numbers.Integral) or isinstance(max_hands, bool) or max_hands < 1:
            raise InvalidOptionError(f"max_hands must be an int >= 1, got {clip(max_hands)}")
        if self._open:
            assert self._state is not None
            play_out(self._state, agents, trusted=self.trusted)
            self.finish_hand()
        for _ in range(int(max_hands)):
            if self.is_over:
                return self.result
            self.play_hand()
        if not self.is_over:
            raise IllegalActionError(f"the match did not end within {max_hands} hands (agents never end a hand?)")
        return self.result

    def _need_agents(self) -> tuple[Agent, ...]:
        if self.agents is None:
            raise RummykitError(
                "this match has no agents: play it step by step (deal(), state.play(...), finish_hand()) "
                "or give one agent per seat"
            )
        return self.agents

    def _new_hand(self, seed: int) -> GameState:
        """Deal the next hand of the match with ``seed`` (the family's dealer, seats)."""
        raise NotImplementedError

    def _record(self, result: Any) -> None:
        """Score a finished hand's result in the match (the family's rules)."""
        raise NotImplementedError

    # --- saving ---------------------------------------------------------------

    def to_json(self) -> str:
        """The match as JSON text (``rummykit.from_json`` resumes it exactly, mid-hand
        too): the game and its options, the package version, the seed, and every hand's
        actions (:mod:`rummykit.engine.records`)."""
        return match_to_json(self)

    @classmethod
    def from_record(cls, record: object) -> Match:
        """The match a match record's data (a dict as :func:`json.loads` gives it) describes,
        replayed (``rummykit.from_json`` reads the text)."""
        return match_from_record(record, Match)

    def _match_options(self) -> dict[str, Any]:
        """The match's own settings beyond the game's options (for its record)."""
        return {}

    # --- views ----------------------------------------------------------------

    def view(self, seat: int | None = None, since: int | None = None) -> dict[str, Any]:
        """What ``seat`` may know of the match (None: a spectator) as plain JSON data: the
        standing (``match``) and the current hand's view (``hand``, see ``state.view``).
        One schema for every game (``rummykit/engine/view.schema.json``)."""
        return match_view(self, seat, since)

    def standing(self) -> dict[str, Any]:
        """The match standing as plain JSON data: ``scores``, ``hands_played``, ``is_over``,
        ``in_hand``, ``winner`` (None until the match is over, or on a tie), ``dealer`` (of the
        hand in progress, else of the next one) and the family's own entries (``boxes``,
        ``eliminated``...)."""
        result = self.result
        winner = None if result is None or result.winner is None else int(result.winner)
        standing: dict[str, Any] = {
            "scores": [int(v) for v in self.scores],
            "hands_played": self.hands_played,
            "is_over": self.is_over,
            "in_hand": self._open,
            "winner": winner,
            "dealer": int(self._state.dealer) if self._open and self._state is not None else self._next_dealer(),
        }
        standing.update(self._standing_extras())
        return standing

    def _next_dealer(self) -> int:
        """The seat that deals the next hand."""
        raise NotImplementedError

    def _standing_extras(self) -> dict[str, Any]:
        """The family's own entries of :meth:`standing` (plain JSON data)."""
        return {}

    def __repr__(self) -> str:
        state = "over" if self.is_over else "in hand" if self._open else "between hands"
        return f"<{type(self).__name__} {self.rules.name} hands={self.hands_played} scores={list(self.scores)} {state}>"

    @property
    def seats_in_play(self) -> tuple[int, ...]:
        """The match seats still playing: every seat, unless the game puts players out
        (Kaluki; the hands are then dealt to these seats, in order)."""
        return tuple(range(self.game.num_players))

    def _tell_agents(self) -> None:
        """Before a hand: tell each agent with a ``new_hand`` method the match so far
        (:class:`rummykit.agents.MatchInfo`: its seat, the scores, the target, the dealer, the
        last hand's result), so that it can play the game, not only the hand."""
        from rummykit.agents.base import MatchInfo

        target = self.game.match_target
        scores = tuple(int(x) for x in self.scores)
        hands = self.hands  # type: ignore[attr-defined]
        last = hands[-1] if hands else None
        dealer = self._next_dealer()
        for seat, agent in enumerate(self._need_agents()):
            hook = getattr(agent, "new_hand", None)
            if callable(hook):
                hook(MatchInfo(seat, scores, target, dealer, len(hands), last, self.game))
