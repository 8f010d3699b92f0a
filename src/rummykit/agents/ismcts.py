"""Information-set Monte Carlo tree search: :class:`ISMCTSAgent`, its rollouts
(:func:`greedy_rollout`, :func:`random_rollout`, the C playouts of every game)
and :func:`hand_reward`."""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from rummykit._random import as_generator
from rummykit.agents.base import (
    _check_int,
    _check_product,
    _check_seconds,
    _is_number,
    register,
    signed_results,
)
from rummykit.agents.simple import GreedyAgent
from rummykit.engine.family import state_family
from rummykit.engine.protocol import GameState
from rummykit.errors import InvalidOptionError, clip
from rummykit.playouts import playouts as run_playouts

if TYPE_CHECKING:
    import numpy as np

__all__ = [
    "DEFAULT_ITERATIONS",
    "MODELS",
    "ISMCTSAgent",
    "Rollout",
    "greedy_rollout",
    "hand_reward",
    "random_rollout",
]


# --- ISMCTS ---------------------------------------------------------------------

#: A rollout plays a determinised state to the end of the hand (it may change the state) and
#: returns each seat's hand points (``state.returns()``).
Rollout = Callable[[Any, "np.random.Generator"], Sequence[float]]

_GREEDY = GreedyAgent()


def greedy_rollout(state: Any, rng: np.random.Generator) -> list[int]:
    """Every seat plays :class:`GreedyAgent` to the end of the hand."""
    while not state.is_terminal():
        state.apply_action(_GREEDY(state))
    return list(state.returns())


def random_rollout(state: Any, rng: np.random.Generator) -> list[int]:
    """Every seat plays uniformly random legal actions to the end of the hand."""
    while not state.is_terminal():
        legal = state.legal_actions()
        state.apply_action(legal[int(rng.integers(len(legal)))])
    return list(state.returns())


#: the iterations per move of an ISMCTSAgent given no budget
DEFAULT_ITERATIONS = 200
#: the most iterations of one move, also under ``time_per_move`` (the tree grows a node an iteration)
MAX_ITERATIONS = 100_000
#: the most playouts of one move (``iterations x rollouts``; under a clock alone, the iterations stop there)
MAX_MOVE_PLAYOUTS = 2**20
#: the determinization models of ISMCTSAgent (``model=``)
MODELS = ("soft-greedy", "uniform")

#: the margin (hand points) worth half of the margin part of the reward
REWARD_SCALE = 25.0


def hand_reward(points: float, margin: float = 0.5) -> float:
    """A seat's signed result of a hand (:func:`~rummykit.agents.base.signed_results`:
    negative for a lost hand) as a reward in [0, 1]: a share ``1 - margin`` for the result
    (1 won, 0.5 dead or even, 0 lost) and a share ``margin`` for the margin squashed
    smoothly, ``points / (|points| + 25)`` mapped to [0, 1].  ``margin=0`` plays for the
    win alone.

    >>> hand_reward(0), hand_reward(25), hand_reward(-25), hand_reward(-25, margin=0)
    (0.5, 0.875, 0.125, 0.0)
    """
    sign = (points > 0) - (points < 0)
    return 0.5 + 0.5 * (1 - margin) * sign + 0.5 * margin * points / (abs(points) + REWARD_SCALE)


class _Node:
    """A tree node: the statistics of the action that led here, from the view of the seat
    that chose it (``player``)."""

    __slots__ = ("available", "children", "player", "reward", "visits")

    def __init__(self, player: int) -> None:
        self.player = player
        self.children: dict[int, _Node] = {}
        self.visits = 0
        self.reward = 0.0
        self.available = 1


def _c_playable(state: Any) -> bool:
    """Whether the C playouts play this state's game (every game of rummykit; not a foreign state)."""
    return state_family(state) is not None


class ISMCTSAgent:
    """Single-observer information-set MCTS (Cowling, Powley and Whitehouse 2012) with an
    opponent model.

    **Determinizations.**  At each move the agent draws ``samples`` full states the seat to
    move cannot tell from the real one.  With ``model="soft-greedy"`` (the default, knock
    games) they come from the posterior of :mod:`rummykit.inference`: uniform
    determinizations (``state.determinize``) weighted by how likely the other seats' takes,
    passes, discards and knocks are under :class:`~rummykit.inference.SoftGreedyModel`
    (greedy softened by ``beta``, mixed with a uniform choice of weight ``epsilon``): ``2 *
    samples`` proposals, ``samples`` of them drawn by weight and each moved by ``moves``
    Metropolis-Hastings card exchanges.  ``model="uniform"`` (and every
    table game) uses ``state.determinize`` alone.  Iteration ``i`` plays sample
    ``i % samples``.

    **Search.**  Each iteration walks one shared tree keyed by action ids, choosing among the
    actions legal in its sample by UCB1 with availability counts
    (``mean + exploration * sqrt(ln(available) / visits)``), adds one node and evaluates it
    with a rollout; each seat's :func:`hand_reward` of its signed result (its points less the
    others' mean, so a lost hand counts as lost; ``margin``: the share of the points
    margin in it, the rest for the result; the default 0 plays for the win alone, which beat
    ``margin=0.5`` in the measurements) is added to the nodes of the actions that
    seat chose.  The default rollout is ``rollouts`` greedy playouts in C
    (:func:`rummykit.playouts` with ``resample="stock"``: the sample's hands as they are,
    the stock reshuffled for each playout) whose rewards are averaged, in every game.
    ``rollout`` replaces it with a Python :data:`Rollout`.
    The move is the most visited root action (ties: the lowest id); a lone legal action is
    played without search.

    ``greedy_bias`` is a progressive bias towards the :class:`GreedyAgent` move at every node:
    it is expanded first and gets ``greedy_bias / (visits + 1)`` added to its UCB score, so a
    small budget plays close to greedy and the search departs from it only on evidence.

    **Budget.**  ``iterations`` per move (:data:`DEFAULT_ITERATIONS` when neither budget is
    given), or ``time_per_move`` seconds (the clock starts when the agent is called, so the
    sampling counts; at least one iteration runs; the moves then depend on the machine and are
    no longer reproducible); with both, the search stops at the first.  With an iteration
    budget the same seed gives the same moves.  Ranges (else
    :class:`~rummykit.errors.InvalidOptionError` naming the setting): ``iterations``
    1..:data:`MAX_ITERATIONS` (100,000, also the most a ``time_per_move`` search runs: the
    tree grows by one node an iteration), ``rollouts`` 1..1024 with ``iterations x rollouts``
    at most :data:`MAX_MOVE_PLAYOUTS` (1,048,576, also where a ``time_per_move`` search stops),
    ``samples`` 1..4096, ``moves`` 0..1000, ``time_per_move`` up to an hour.
    ``docs/strength.md`` has the measured strength: at the default 200 iterations it beat
    greedy in 55.4% of 998 decided Oklahoma Gin hands (95% interval 52.3% - 58.5%).

    >>> import rummykit as rk
    >>> state = rk.Game("oklahoma-gin").new_hand(seed=2)
    >>> agent = ISMCTSAgent(iterations=20, seed=5)
    >>> agent(state) == ISMCTSAgent(iterations=20, seed=5)(state)
    True
    """

    def __init__(
        self,
        iterations: int | None = None,
        *,
        time_per_move: float | None = None,
        exploration: float = 0.7,
        greedy_bias: float = 1.0,
        rollouts: int = 8,
        samples: int = 24,
        model: str = "soft-greedy",
        beta: float = 0.5,
        epsilon: float = 0.1,
        moves: int = 20,
        margin: float = 0.0,
        rollout: Rollout | None = None,
        seed: int | np.random.Generator | None = None,
    ) -> None:
        time_per_move = _check_seconds(time_per_move)
        if time_per_move is None and iterations is None:
            iterations = DEFAULT_ITERATIONS
        if iterations is not None:
            iterations = _check_int("iterations", iterations, 1, MAX_ITERATIONS)
        rollouts = _check_int("rollouts", rollouts, 1, 1024)
        samples = _check_int("samples", samples, 1, 4096)
        moves = _check_int("moves", moves, 0, 1000)
        if iterations is not None:
            _check_product("iterations x rollouts", iterations * rollouts, MAX_MOVE_PLAYOUTS)
        for name, value in (("exploration", exploration), ("greedy_bias", greedy_bias)):
            if not _is_number(value) or value < 0:
                raise InvalidOptionError(f"{name} must be a finite number >= 0, got {clip(value)}")
        if not _is_number(margin) or not 0 <= margin <= 1:
            raise InvalidOptionError(f"margin must be a number in [0, 1], got {clip(margin)}")
        if not isinstance(model, str) or model not in MODELS:
            raise InvalidOptionError(f"model must be one of {', '.join(MODELS)}, got {clip(model)}")
        if rollout is not None and not callable(rollout):
            raise InvalidOptionError(f"rollout must be a callable (state, rng) -> points, got {clip(rollout)}")
        self.iterations = iterations
        # the most iterations of a move: the budget, or under a clock alone the ranges' bound
        self._cap = iterations or min(MAX_ITERATIONS, MAX_MOVE_PLAYOUTS // rollouts)
        self.time_per_move = time_per_move
        self.exploration = float(exploration)
        self.greedy_bias = float(greedy_bias)
        self.rollouts = rollouts
        self.samples = samples
        self.model = model
        from rummykit.inference import SoftGreedyModel  # numpy on first use: `import rummykit` stays light

        self.opponent_model = SoftGreedyModel(beta, epsilon)  # validates beta and epsilon
        self.moves = moves
        self.margin = float(margin)
        self.rollout = rollout
        self._rng = as_generator(seed)

    def spawn(self, seed: int | np.random.Generator | None) -> ISMCTSAgent:
        """A new agent with these settings, seeded with ``seed``."""
        return ISMCTSAgent(
            self.iterations,
            time_per_move=self.time_per_move,
            exploration=self.exploration,
            greedy_bias=self.greedy_bias,
            rollouts=self.rollouts,
            samples=self.samples,
            model=self.model,
            beta=self.opponent_model.beta,
            epsilon=self.opponent_model.epsilon,
            moves=self.moves,
            margin=self.margin,
            rollout=self.rollout,
            seed=seed,
        )

    def __repr__(self) -> str:
        budget = f"time_per_move={self.time_per_move}" if self.iterations is None else f"iterations={self.iterations}"
        return f"ISMCTSAgent({budget})"

    def _determinizations(self, state: Any, seat: int) -> list[Any]:
        family = state_family(state)
        if self.model == "soft-greedy" and family is not None and family.posterior is not None:
            model = self.opponent_model
            samples = family.posterior(state, seat, self.samples, self._rng, model, moves=self.moves)
            if samples is not None:
                return samples
        return [state.determinize(seat, self._rng) for _ in range(self.samples)]

    def __call__(self, state: Any) -> int:
        if not isinstance(state, GameState):
            raise InvalidOptionError(
                f"ISMCTSAgent needs a state with determinize (every rummykit game has it), not {clip(state)}"
            )
        start = time.perf_counter()
        legal = state.legal_actions()
        if len(legal) == 1:
            return int(legal[0])
        root = _Node(-1)
        seat = state.current_player
        pool = self._determinizations(state, seat)
        deadline = None if self.time_per_move is None else start + self.time_per_move
        evaluate = self._leaf_points(state)
        # the playouts of one sample share their stock shuffles whatever the actions before them:
        # common random numbers, so that actions are compared on the same futures
        seed = int(self._rng.integers(2**62))
        done = 0
        while done == 0 or (done < self._cap and (deadline is None or time.perf_counter() < deadline)):
            k = done % len(pool)
            self._iterate(root, pool[k].clone(), evaluate, seed + k)
            done += 1
        best = max(root.children.items(), key=lambda kv: (kv[1].visits, -kv[0]))
        return best[0]

    def _leaf_points(self, state: Any) -> Callable[[Any, int], list[float]]:
        """How a leaf is scored (given a playout seed): each seat's mean :func:`hand_reward`
        over its rollouts."""
        rng, margin = self._rng, self.margin
        if self.rollout is not None or not _c_playable(state):
            rollout = self.rollout or greedy_rollout
            return lambda leaf, seed: [hand_reward(x, margin) for x in signed_results(rollout(leaf, rng))]
        rollouts = self.rollouts

        def c_playouts(leaf: Any, seed: int) -> list[float]:
            points, _ = run_playouts(leaf, rollouts, seed=seed, resample="stock")
            rows = [signed_results(row) for row in points.tolist()]
            return [sum(hand_reward(row[p], margin) for row in rows) / rollouts for p in range(points.shape[1])]

        return c_playouts

    def _iterate(self, root: _Node, state: Any, evaluate: Callable[[Any, int], list[float]], seed: int) -> None:
        rng, c, bias = self._rng, self.exploration, self.greedy_bias
        node, path = root, [root]
        while not state.is_terminal():
            legal = state.legal_actions()
            hint = _GREEDY(state) if bias else -1  # the greedy move: expanded first, and favoured
            children = node.children
            untried = [a for a in legal if a not in children]
            if untried:
                action = hint if hint in untried else untried[int(rng.integers(len(untried)))]
                child = children[action] = _Node(state.current_player)
                state.apply_action(action)
                path.append(child)
                break
            best_action, best_score = -1, -math.inf
            for a in legal:
                child = children[a]
                child.available += 1
                n = child.visits
                score = child.reward / n + c * math.sqrt(math.log(child.available) / n)
                if a == hint:
                    score += bias / (n + 1)
                if score > best_score:
                    best_action, best_score = a, score
            node = children[best_action]
            state.apply_action(best_action)
            path.append(node)
        if state.is_terminal():
            rewards = [hand_reward(x, self.margin) for x in signed_results(state.returns())]
        else:
            rewards = evaluate(state, seed)
        for node in path[1:]:
            node.visits += 1
            node.reward += rewards[node.player]


register("ismcts", ISMCTSAgent)
