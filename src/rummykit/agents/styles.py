"""Knock-game players of fixed styles, the opponents strength is measured against
(``docs/strength.md``, The opponent panel):

* :class:`EAAISimpleAgent` (``eaai-simple``): the baseline of the EAAI-2021 Gin Rummy AI
  challenge, ``SimpleGinRummyPlayer``, as published with the challenge's framework.
* :class:`PatientAgent` (``patient``): greedy's draws and discards, but it knocks only in its
  first turns or for gin, and otherwise waits to undercut a knocker.
* :class:`NoisyGreedyAgent` (``noisy``): greedy that makes a random move now and then, every game.
* :class:`LevelAgent` (``level:1`` .. ``level:5``, :data:`LEVELS`): opponents of graded strength
  for every game, from a beginner to ``best``.

The other styles of the panel are settings of :class:`~rummykit.agents.GreedyAgent`:
``greedy:max_knock_deadwood=0`` hunts gin, ``greedy:max_knock_deadwood=K`` knocks at K or less.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rummykit import _core
from rummykit._random import as_generator
from rummykit.agents.base import _check_int, _check_seconds, make_agent, register, register_alias
from rummykit.errors import InvalidOptionError, clip

if TYPE_CHECKING:
    import numpy as np

__all__ = ["GAME_LEVELS", "LEVELS", "EAAISimpleAgent", "LevelAgent", "NoisyGreedyAgent", "PatientAgent"]


def _needs_knocking(state: Any, name: str) -> None:
    """The style is written for games with knocking (the knock action codec): raise for others."""
    if not state.game.family_record.knocks:
        raise InvalidOptionError(f"{name} plays the knock games (Gin, Oklahoma), not {state.game.name} (no knocking)")


class EAAISimpleAgent:
    """``SimpleGinRummyPlayer``, the baseline of the EAAI-2021 Gin Rummy challenge (seeded):

    1. **Upcard offer and draw**: take the face-up card iff it is part of some meld of the hand
       plus that card; else pass, or draw from the stock.
    2. **Discard**: a card chosen at random among those that leave the least deadwood, never the
       face-up card just taken and never a card that would repeat a (drawn card, discarded card)
       pair already played this hand (if every card would, the pair rule is dropped).
    3. **Knock** with that discard as soon as the deadwood left allows it (gin at 0).

    The challenge's framework lays off for it; rummykit's showdown does the same.  It plays
    every knock game (the knock limit is the game's).

    >>> import rummykit as rk
    >>> state = rk.Game("gin_eaai").new_hand(seed=3, dealer=0)
    >>> EAAISimpleAgent(seed=1)(state) in state.legal_actions()
    True
    """

    def __init__(self, seed: int | np.random.Generator | None = None) -> None:
        self._rng = as_generator(seed)
        self._history: list[int] = []  # the hand's actions at the last call: a new hand resets the pairs
        self._pairs: set[frozenset[int]] = set()
        self._before = 0  # the hand (mask) before the draw of this turn

    def spawn(self, seed: int | np.random.Generator | None) -> EAAISimpleAgent:
        """A new agent seeded with ``seed``."""
        return EAAISimpleAgent(seed)

    def __repr__(self) -> str:
        return "EAAISimpleAgent()"

    def __call__(self, state: Any) -> int:
        from rummykit.knock.actions import DRAW_STOCK, KNOCK, PASS, TAKE

        _needs_knocking(state, "eaai-simple")
        history = list(state.history)
        if history[: len(self._history)] != self._history:  # another hand
            self._pairs.clear()
        self._history = history
        legal = state.legal_actions()
        me = state.current_player
        hand = state.hands[me]
        rules = state._core_rules
        if TAKE in legal or DRAW_STOCK in legal or PASS in legal:
            self._before = hand
            top = state.top_discard
            if TAKE in legal and top is not None:
                card = int(top)
                if any(m >> card & 1 for m in _core.melds(rules, hand | 1 << card)):
                    return TAKE
            return DRAW_STOCK if DRAW_STOCK in legal else PASS if PASS in legal else int(legal[0])
        discards = {int(a) for a in legal if a < KNOCK and a != state.taken}  # never the card just taken
        if not discards:  # knock-only or a manual showdown: greedy's choice
            return int(state._greedy_action(-1))
        drawn = hand & ~self._before
        drawn_card = drawn.bit_length() - 1 if drawn and drawn & (drawn - 1) == 0 else -1
        after = dict(_core.deadwood_after_discards(rules, hand))
        allowed = [c for c in sorted(discards) if frozenset((drawn_card, c)) not in self._pairs] or sorted(discards)
        least = min(after[c] for c in allowed)
        ties = [c for c in allowed if after[c] == least]
        card = ties[int(self._rng.integers(len(ties)))]
        self._pairs.add(frozenset((drawn_card, card)))
        return KNOCK + card if KNOCK + card in legal else card


class PatientAgent:
    """Greedy's draws and discards (:class:`~rummykit.agents.GreedyAgent`), knocking only in
    its first ``knock_turns`` turns or, later, with ``late_knock`` deadwood or less (0: gin
    only): it lets the opponent knock into its undercut.

    >>> import rummykit as rk
    >>> state = rk.Game("gin").new_hand(seed=3, dealer=0)
    >>> PatientAgent()(state) in state.legal_actions()
    True
    """

    def __init__(self, knock_turns: int = 3, late_knock: int = 0, seed: object = None) -> None:
        self.knock_turns = _check_int("knock_turns", knock_turns, 0)
        self.late_knock = _check_int("late_knock", late_knock, 0)

    def spawn(self, seed: object) -> PatientAgent:
        """The same policy (it uses no randomness)."""
        return self

    def __repr__(self) -> str:
        return f"PatientAgent(knock_turns={self.knock_turns}, late_knock={self.late_knock})"

    def __call__(self, state: Any) -> int:
        _needs_knocking(state, "patient")
        early = state.turns < self.knock_turns * state.n  # its own first turns
        return int(state._greedy_action(-1 if early else self.late_knock))


class NoisyGreedyAgent:
    """Greedy (:class:`~rummykit.agents.GreedyAgent`) that, with probability ``mistakes`` at each
    decision with a choice, plays a uniformly random legal action instead: a beginner, in
    every game.

    >>> import rummykit as rk
    >>> state = rk.Game("rummy").new_hand(seed=3)
    >>> NoisyGreedyAgent(0.5, seed=1)(state) in state.legal_actions()
    True
    """

    def __init__(self, mistakes: float = 0.3, seed: int | np.random.Generator | None = None) -> None:
        from rummykit.agents.base import _is_number

        if not _is_number(mistakes) or not 0 <= mistakes <= 1:
            raise InvalidOptionError(f"mistakes must be a probability 0..1, got {clip(mistakes)}")
        self.mistakes = float(mistakes)
        self._rng = as_generator(seed)

    def spawn(self, seed: int | np.random.Generator | None) -> NoisyGreedyAgent:
        """A new agent with this setting, seeded with ``seed``."""
        return NoisyGreedyAgent(self.mistakes, seed)

    def __repr__(self) -> str:
        return f"NoisyGreedyAgent({self.mistakes})"

    def __call__(self, state: Any) -> int:
        from rummykit.agents.simple import GreedyAgent

        legal = state.legal_actions()
        if len(legal) > 1 and self._rng.random() < self.mistakes:
            return int(legal[int(self._rng.integers(len(legal)))])
        return GreedyAgent()(state)


#: ``make_agent("level:N")``: the agent spec of each level, weakest first, in every game but those
#: of :data:`GAME_LEVELS`.
LEVELS: dict[int, str] = {
    1: "noisy:mistakes=0.12",
    2: "noisy:mistakes=0.05",
    3: "greedy",
    4: "best:samples=12,playouts=8,particles=128,table_samples=24,meld_taker=0",
    5: "best",
}
_GIN_LEVELS = {1: "noisy:mistakes=0.15", 2: "noisy:mistakes=0.08"}
#: in Rummy and Kaluki ``best`` wins about three games in four against greedy, room for one
#: step, not two: greedy is level 4 and noisy greedy levels 1-3
_RUMMY_LEVELS = {1: "noisy:mistakes=0.18", 2: "noisy:mistakes=0.12", 3: "noisy:mistakes=0.06", 4: "greedy"}
_KALUKI_LEVELS = {1: "noisy:mistakes=0.33", 2: "noisy:mistakes=0.22", 3: "noisy:mistakes=0.12", 4: "greedy"}
#: Kalooki 51's opening of 51 points leaves a random move less to spoil, and the small search
#: more to gain (three games in four against greedy)
_KALOOKI_51_LEVELS = {1: "noisy:mistakes=0.45", 2: "noisy:mistakes=0.3"}
#: the levels a game (by name) plays with other specs, so that each level still wins about two
#: games in three against the one below: a random move costs more in Gin, whose turns hold two
#: decisions, and less in Kaluki, whose turns hold more (melds, lay-offs, releases)
#: (``docs/strength.md``).
GAME_LEVELS: dict[str, dict[int, str]] = {
    **dict.fromkeys(("gin", "gin_eaai", "gin_classic_pagat", "gin_matchplay"), _GIN_LEVELS),
    "kaluki": _KALUKI_LEVELS,
    "kalooki_51": _KALOOKI_51_LEVELS,
    "rummy": _RUMMY_LEVELS,
}


def _is_search(spec: str) -> bool:
    """Whether the agent of ``spec`` searches (``time_per_move`` bounds it) rather than answering at once."""
    return spec.startswith("best")


def _searches(level: int) -> bool:
    """Whether ``level`` searches in some game rather than answering at once in every game."""
    return any(_is_search(specs.get(level, LEVELS[level])) for specs in (LEVELS, *GAME_LEVELS.values()))


class LevelAgent:
    """A graded opponent for every game, from level 1 (a beginner) to level 5 (``best``).

    ``make_agent("level:N")`` is level N: the agent of spec :data:`LEVELS` ``[N]`` (noisy
    greedy, greedy, a small search, ``best``), or the game's own where :data:`GAME_LEVELS` tunes
    the ladder for it, so that in every game each level wins about two games in three against
    the one below.  ``time_per_move`` bounds the search of levels 4 and 5; the others answer at
    once, as level 4 does in Rummy and Kaluki (greedy there).

    >>> import rummykit as rk
    >>> LevelAgent(4).spec("rummy"), LevelAgent(4, time_per_move=0.02).spec("gin")
    ('greedy', 'best:samples=12,playouts=8,particles=128,table_samples=24,meld_taker=0,time_per_move=0.02')
    >>> state = rk.Game("kaluki").new_hand(seed=3)
    >>> LevelAgent(2, seed=1)(state) in state.legal_actions()
    True
    """

    def __init__(
        self, level: int = 3, time_per_move: float | None = None, seed: int | np.random.Generator | None = None
    ) -> None:
        self.level = _check_int("level", level, 1, len(LEVELS))
        self.time_per_move = _check_seconds(time_per_move)
        if self.time_per_move is not None and not _searches(self.level):
            raise InvalidOptionError(f"level {self.level} answers at once: time_per_move bounds levels 4 and 5")
        self._seed = int(as_generator(seed).integers(2**63))
        self._agents: dict[str, Any] = {}  # per game name
        self._info: Any = None  # the match's word before a hand, passed on at the hand's first call

    def spec(self, game: str) -> str:
        """The agent spec this level plays ``game`` (a game name, ``rummykit.Game(...).name``) with."""
        spec = GAME_LEVELS.get(game, {}).get(self.level, LEVELS[self.level])
        if self.time_per_move is not None and _is_search(spec):
            spec += ("," if ":" in spec else ":") + f"time_per_move={self.time_per_move!r}"
        return spec

    def agent(self, game: str) -> Any:
        """The agent this level plays ``game`` (a game name) with."""
        if game not in self._agents:
            self._agents[game] = make_agent(self.spec(game), self._seed)
        return self._agents[game]

    def spawn(self, seed: int | np.random.Generator | None) -> LevelAgent:
        """A new agent of this level, seeded with ``seed``."""
        return LevelAgent(self.level, self.time_per_move, seed)

    def __repr__(self) -> str:
        return f"LevelAgent({self.level})"

    def new_hand(self, info: Any) -> None:
        """The match so far (:class:`~rummykit.agents.MatchInfo`), told to the level's agent of
        the hand's game at its first move."""
        self._info = info

    def __call__(self, state: Any) -> int:
        agent = self.agent(state.game.name)
        if self._info is not None:
            tell = getattr(agent, "new_hand", None)
            if tell is not None:
                tell(self._info)
            self._info = None
        return int(agent(state))


register("eaai-simple", EAAISimpleAgent)
register("noisy", NoisyGreedyAgent)
register("ladder", LevelAgent)
for _level in LEVELS:
    register_alias(f"level:{_level}", f"ladder:level={_level}", () if _searches(_level) else ("time_per_move",))
register("patient", PatientAgent)
