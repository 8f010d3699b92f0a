"""rummykit games as OpenSpiel Python games (see ``docs/openspiel.md``)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel

from rummykit.engine.game import Game
from rummykit.engine.protocol import GameState
from rummykit.envs._common import DEFAULT_REWARD, ActionIndex, check_reward, hand_rewards, make_game
from rummykit.envs._history import HISTORY, HistoryEncoder
from rummykit.errors import InvalidOptionError

__all__ = ["POINTS_BOUND", "VARIANTS", "RummykitSpielGame", "RummykitSpielState", "register"]

#: The games registered as ``python_rummykit_<variant>``.
VARIANTS = ("gin", "oklahoma_gin", "oklahoma_rummy", "rummy", "kaluki")
#: The utility bound declared with ``reward="points"`` (a loose bound on one hand's points).
POINTS_BOUND = 10_000.0
# dealer -1: a chance node draws the dealer; history: the actions the information-state tensor keeps
# action_space: "fixed" (one id per move) or "dense" (the table games' per-state index)
_DEFAULTS: dict[str, Any] = {
    "num_players": 2,
    "reward": DEFAULT_REWARD,
    "dealer": -1,
    "history": HISTORY,
    "action_space": "fixed",
}


def _game_type(variant: str) -> Any:
    return pyspiel.GameType(
        short_name=f"python_rummykit_{variant}",
        long_name=f"rummykit {variant}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=4,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=False,
        provides_observation_tensor=True,
        parameter_specification=dict(_DEFAULTS),
    )


class _Shared:
    """What every state of one game shares; a state's clone keeps the same one."""

    def __init__(self, game: Game, reward: str, dealer: int, history: int, action_space: str = "fixed") -> None:
        self.game, self.reward = game, reward
        self.index = ActionIndex(game, action_space)
        n = game.num_players
        if isinstance(dealer, bool) or not isinstance(dealer, int) or not -1 <= dealer < n:
            raise InvalidOptionError(f"dealer must be a seat 0..{n - 1} or -1 (a chance outcome), got {dealer!r}")
        self.dealer = dealer
        self.deck_size: int = game.deck_size
        self.tensor_size = len(game.new_hand(seed=0, dealer=0).observation_tensor(0))
        self.history = HistoryEncoder(n, history)

    def __deepcopy__(self, memo: dict[int, Any]) -> _Shared:
        return self


class _Hand:
    """The engine state; OpenSpiel clones a Python state by deep-copying its attributes, and
    this makes that copy the engine's own ``clone``."""

    def __init__(self, state: GameState) -> None:
        self.state = state

    def __deepcopy__(self, memo: dict[int, Any]) -> _Hand:
        return _Hand(self.state.clone())


class RummykitSpielGame(pyspiel.Game):  # type: ignore[misc]
    """A rummykit game for OpenSpiel.  Parameters: ``num_players`` and ``reward``
    (``"win_loss"``: +1 for the hand's winner, -1 for the others, 0 for a dead hand;
    ``"points"``: the engine's ``returns()`` made zero-sum, each seat's less the others' mean)."""

    def __init__(self, params: dict[str, Any] | None = None, *, variant: str = "gin", game: Any = None) -> None:
        params = {**_DEFAULTS, **(params or {})}
        reward = check_reward(params["reward"])
        rk_game = game if game is not None else make_game(variant, int(params["num_players"]), {})
        params["num_players"] = rk_game.num_players
        shared = _Shared(rk_game, reward, params["dealer"], params["history"], params["action_space"])
        max_turns = rk_game.rules.max_turns
        if max_turns < 0:
            raise InvalidOptionError("OpenSpiel needs a bounded game: max_turns must be >= 0")
        bound = 1.0 if reward == "win_loss" else POINTS_BOUND
        # each turn plays at most a draw, every card of the deck and a discard; then a showdown
        decisions = (max_turns + 2) * (shared.deck_size + 2)
        info = pyspiel.GameInfo(
            num_distinct_actions=shared.index.size,
            max_chance_outcomes=max(shared.deck_size, rk_game.num_players),
            num_players=rk_game.num_players,
            min_utility=-bound,
            max_utility=bound,
            max_game_length=shared.deck_size + decisions,
        )
        super().__init__(_game_type(rk_game.name), info, params)
        self.shared = shared

    @classmethod
    def from_rummykit(
        cls,
        game: Any,
        num_players: int,
        reward: str,
        options: dict[str, Any],
        dealer: int = -1,
        history: int = HISTORY,
        action_space: str = "fixed",
    ) -> RummykitSpielGame:
        """A game from a rummykit name (with options) or game object."""
        rk_game = make_game(game, num_players, options)
        params = {
            "num_players": rk_game.num_players,
            "reward": reward,
            "dealer": dealer,
            "history": history,
            "action_space": action_space,
        }
        return cls(params, game=rk_game)

    def new_initial_state(self) -> RummykitSpielState:
        return RummykitSpielState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> _Observer:
        return _Observer(self.shared, iig_obs_type, params)


class RummykitSpielState(pyspiel.State):  # type: ignore[misc]
    """A hand: with ``dealer=-1`` (the default) a first chance node draws the dealer
    (uniformly), then ``deck_size - 1`` chance nodes deal the deck one card at a time (top
    first; the last card follows), and the engine plays the hand."""

    def __init__(self, game: RummykitSpielGame) -> None:
        super().__init__(game)
        self._shared = game.shared
        self._dealer: int | None = None if game.shared.dealer < 0 else game.shared.dealer
        self._deck: list[int] = []
        self._hand: _Hand | None = None

    @property
    def engine_state(self) -> GameState | None:
        """The engine state (a :class:`rummykit.GameState`: ``KnockState`` / ``TableState``); None while dealing."""
        return None if self._hand is None else self._hand.state

    def current_player(self) -> int:
        if self._hand is None:
            return int(pyspiel.PlayerId.CHANCE)
        state = self._hand.state
        return int(pyspiel.PlayerId.TERMINAL) if state.is_terminal() else int(state.current_player)

    def _legal_actions(self, player: int) -> list[int]:
        assert self._hand is not None
        return self._shared.index.legal(self._hand.state)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self._dealer is None:
            n = self._shared.game.num_players
            return [(seat, 1.0 / n) for seat in range(n)]
        dealt = set(self._deck)
        rest = [c for c in range(self._shared.deck_size) if c not in dealt]
        return [(c, 1.0 / len(rest)) for c in rest]

    def _apply_action(self, action: int) -> None:
        if self._hand is not None:
            state = self._hand.state
            state.apply_action(self._shared.index.decode(state, action))
            return
        if self._dealer is None:
            self._dealer = int(action)
            return
        self._deck.append(int(action))
        size = self._shared.deck_size
        if len(self._deck) == size - 1:
            deck = self._deck + [next(iter(set(range(size)) - set(self._deck)))]
            # the restock shuffles are seeded by the deal, so they are part of the chance outcome
            state = self._shared.game.new_hand(seed=np.random.default_rng(deck), dealer=self._dealer, deck=deck)
            self._hand = _Hand(state)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"dealer {action}" if self._dealer is None else f"deal {action}"
        assert self._hand is not None
        return self._shared.index.text(self._hand.state, action)

    def is_terminal(self) -> bool:
        return self._hand is not None and bool(self._hand.state.is_terminal())

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0] * self._shared.game.num_players
        assert self._hand is not None
        return hand_rewards(self._hand.state, self._shared.reward)

    def resample_from_infostate(self, player: int, probability_sampler: Any) -> RummykitSpielState:
        """A state ``player`` cannot tell from this one, the hidden cards resampled with the
        engine's ``determinize`` (seeded from ``probability_sampler``), for ISMCTS.  Its
        ``history()`` keeps this state's chance outcomes (the real deal); its cards are the
        sampled ones."""
        other: RummykitSpielState = self.clone()
        if self._hand is not None:
            seed = int(probability_sampler() * 2**62)
            other._hand = _Hand(self._hand.state.determinize(player, seed))
        return other

    def __str__(self) -> str:
        if self._hand is None:
            if self._dealer is None:
                return "choosing the dealer"
            return f"dealer {self._dealer}, dealing: {len(self._deck)} of {self._shared.deck_size} cards dealt"
        return repr(self._hand.state)


class _Observer:
    """OpenSpiel's Python observer of one seat.  ``perfect_recall=False``: the engine's
    observation tensor.  ``perfect_recall=True``: the information-state tensor, the observation
    tensor followed by the seat's action history (:class:`rummykit.envs._history.HistoryEncoder`,
    read from the engine's perfect-recall information-state string, so it shows exactly what the
    seat has seen), and that string.  All zeros while dealing."""

    def __init__(self, shared: _Shared, iig_obs_type: Any, params: Any) -> None:
        if params:
            raise InvalidOptionError(f"observation parameters are not supported, got {params!r}")
        if iig_obs_type is None:
            iig_obs_type = pyspiel.IIGObservationType(perfect_recall=False)
        if iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER or not iig_obs_type.public_info:
            raise InvalidOptionError("rummykit games give one seat's view (public and its own private information)")
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        self._history = shared.history
        size = shared.tensor_size + (self._history.size if self.perfect_recall else 0)
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor[: shared.tensor_size]}
        if self.perfect_recall:
            self.dict["history"] = self.tensor[shared.tensor_size :]

    def set_from(self, state: RummykitSpielState, player: int) -> None:
        engine = state.engine_state
        self.tensor.fill(0.0)
        if engine is None:
            return
        self.dict["observation"][:] = engine.observation_tensor(player)
        if self.perfect_recall:
            self._history.encode(engine.information_state_string(player), player, self.dict["history"])

    def string_from(self, state: RummykitSpielState, player: int) -> str:
        engine = state.engine_state
        if engine is None:
            return f"seat {player}: dealing"
        return str(engine.information_state_string(player))


def register() -> list[str]:
    """Register every variant of :data:`VARIANTS` with pyspiel (once); the short names."""
    names = []
    registered = set(pyspiel.registered_names())
    for variant in VARIANTS:
        game_type = _game_type(variant)
        if game_type.short_name not in registered:
            pyspiel.register_game(game_type, _factory(variant))
        names.append(game_type.short_name)
    return names


def _factory(variant: str) -> type[RummykitSpielGame]:
    # a class, as OpenSpiel's own Python games register (the registry outlives the module)
    def init(self: RummykitSpielGame, params: dict[str, Any] | None = None) -> None:
        RummykitSpielGame.__init__(self, params, variant=variant)

    return type(f"RummykitSpielGame_{variant}", (RummykitSpielGame,), {"__init__": init})
