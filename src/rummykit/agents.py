"""Agents: callables ``agent(state) -> action id`` that play any seat of a hand.

* :class:`RandomAgent` picks a legal action uniformly at random.
* :class:`GreedyAgent` plays the fixed one-ply policy documented on the class (the C
  playout kernel plays exactly the same policy).
* :class:`ISMCTSAgent` runs information-set Monte Carlo tree search over ``state.determinize``.

Every agent is seeded (``seed=`` an int, a numpy Generator or None) and reads only what
the seat to move may know.  ``agent.spawn(seed)`` returns a fresh agent with the same
settings and a new seed: the tournament runner gives each hand its own agents this way,
so that results do not depend on how hands are spread over worker processes.
:func:`make_agent` builds an agent from a name such as ``"ismcts:iterations=200"``.

>>> import rummykit as rk
>>> state = rk.Game("oklahoma-gin").new_hand(seed=3)
>>> agents = [GreedyAgent(), RandomAgent(seed=1)]
>>> while not state.is_terminal():
...     state.apply_action(agents[state.current_player](state))
>>> state.result.outcome in ("gin", "knock", "undercut", "dead")
True
"""

from __future__ import annotations

import math
import numbers
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from rummykit import _core
from rummykit._random import as_generator
from rummykit._rules import core_rules
from rummykit.errors import InvalidOptionError, clip
from rummykit.knock.actions import BIG_GIN, DONE, DRAW_STOCK, KNOCK, LAYOFF, LAYOFF_SLOTS, MELD, MELD_INDEX, PASS, TAKE
from rummykit.knock.state import KnockState, Phase
from rummykit.playouts import playout_rules
from rummykit.playouts import playouts as run_playouts
from rummykit.table.actions import DRAW as TABLE_DRAW
from rummykit.table.actions import LAYOFF as TABLE_LAYOFF
from rummykit.table.actions import MELD_SET as TABLE_MELD
from rummykit.table.actions import RELEASE_RUN as TABLE_RELEASE
from rummykit.table.actions import TAKE as TABLE_TAKE
from rummykit.table.actions import TableAction
from rummykit.table.cards import JOKER as TABLE_JOKER
from rummykit.table.cards import card_type, present_types, type_counts

if TYPE_CHECKING:
    import numpy as np

__all__ = [
    "AGENT_NAMES",
    "DEFAULT_ITERATIONS",
    "MODELS",
    "Agent",
    "GreedyAgent",
    "ISMCTSAgent",
    "RandomAgent",
    "Rollout",
    "greedy_rollout",
    "hand_reward",
    "make_agent",
    "random_rollout",
]


class Agent(Protocol):
    """What the tournament runner and ``rummykit play`` call: the action id for ``state``."""

    def __call__(self, state: Any) -> int: ...


#: the largest count setting (iterations, rollouts, samples...): a C int
MAX_COUNT = 2**31 - 1


def _check_int(name: str, value: object, minimum: int) -> int:
    """An int setting minimum..MAX_COUNT (numpy integers too), or InvalidOptionError naming it."""
    if not isinstance(value, numbers.Integral) or isinstance(value, bool) or not minimum <= int(value) <= MAX_COUNT:
        raise InvalidOptionError(f"{name} must be an int {minimum}..{MAX_COUNT}, got {clip(value)}")
    return int(value)


def _is_number(value: object) -> bool:
    """A finite real number (numpy ones too), not a bool."""
    if not isinstance(value, numbers.Real) or isinstance(value, bool):
        return False
    try:
        return math.isfinite(value)
    except OverflowError:  # an int too large for a float
        return False


# --- random -------------------------------------------------------------------


class RandomAgent:
    """A uniformly random legal action, from its own seeded generator.

    >>> state = __import__("rummykit").Game("gin").new_hand(seed=1)
    >>> RandomAgent(seed=7)(state) == RandomAgent(seed=7)(state)
    True
    """

    def __init__(self, seed: int | np.random.Generator | None = None) -> None:
        self._rng = as_generator(seed)

    def spawn(self, seed: int | np.random.Generator | None) -> RandomAgent:
        """A new RandomAgent seeded with ``seed``."""
        return RandomAgent(seed)

    def __call__(self, state: Any) -> int:
        legal = state.legal_actions()
        return int(legal[int(self._rng.integers(len(legal)))])

    def __repr__(self) -> str:
        return "RandomAgent()"


# --- greedy -------------------------------------------------------------------

_OFFER = (Phase.OFFER_NONDEALER, Phase.OFFER_DEALER)


def _knock_greedy(state: KnockState, max_knock_deadwood: int | None) -> int:
    """The greedy policy of the knock games (see :class:`GreedyAgent`)."""
    phase, p = state.phase, state.player
    hand = state.hands[p]
    rules = core_rules(state.rules.aces)
    if phase == Phase.DRAW or phase in _OFFER:
        if state.discards:
            top = state.discards[-1]
            _, take = _core.best_discard(rules, hand | 1 << top, top)
            if take < _core.deadwood(rules, hand):
                return TAKE
        return DRAW_STOCK if phase == Phase.DRAW else PASS
    if phase == Phase.FORCED_STOCK_DRAW:
        return DRAW_STOCK
    if phase == Phase.LAST_CHANCE:
        return TAKE if TAKE in state.legal_actions() else PASS
    if phase == Phase.DISCARD or phase == Phase.KNOCK_ONLY:
        legal = state.legal_actions()
        if legal[-1] == BIG_GIN:
            return BIG_GIN
        forbid = state.taken if state.rules.forbid_discarding_taken_card else -1
        # rk_best_discard: least deadwood, ties to the highest card value, then the highest id.
        # A knock is legal exactly when that deadwood is within the limit, so the best knock card
        # and the best discard card are the same card.
        card, after = _core.best_discard(rules, hand, forbid)
        if KNOCK + card in legal and (
            phase == Phase.KNOCK_ONLY or max_knock_deadwood is None or after <= max_knock_deadwood
        ):
            return KNOCK + card
        return card
    if phase == Phase.SHOWDOWN:
        return _knock_declaration(state, rules)
    raise InvalidOptionError(f"no action at the end of the hand ({state!r})")


def _knock_declaration(state: KnockState, rules: _core.Rules) -> int:
    """Manual showdown: the least-deadwood melds one at a time, then lay-offs, then ``done``."""
    sd = state.showdown
    assert sd is not None
    p = state.player
    melds, _, _ = _core.best_arrangement(rules, state.hands[p] & ~sd.used[p])
    if melds:
        return MELD + MELD_INDEX[melds[0]]
    layoffs = [a for a in state.legal_actions() if LAYOFF <= a < DONE]
    if not layoffs:
        return DONE

    def order(action: int) -> tuple[int, int, int]:  # the highest-valued card, the highest id, the first meld
        card = (action - LAYOFF) // LAYOFF_SLOTS
        return -rules.values[card % 13], -card, action

    return min(layoffs, key=order)


def _type_count(mask: int, t: int) -> int:
    """Copies of card type ``t`` (a natural card, or 52: a joker) in a table-game hand."""
    return type_counts(mask)[t]


def _useful_types(mask: int, is_kaluki: bool) -> int:
    """The natural types in a table-game hand that are part of a pair towards a meld: another
    card of the same rank (of another suit in Kaluki), or of the same suit within two ranks."""
    present = present_types(mask)
    counts = type_counts(mask)
    useful = 0
    for t in range(52):
        if not present >> t & 1:
            continue
        rank, suit = t % 13, t // 13
        same_rank = sum(present >> (s * 13 + rank) & 1 for s in range(4) if s != suit)
        if not is_kaluki and counts[t] > 1:
            same_rank += 1
        near = any(present >> (suit * 13 + r) & 1 for r in range(max(0, rank - 2), min(13, rank + 3)) if r != rank)
        if (
            same_rank
            or near
            or (rank == 0 and present >> (suit * 13 + 12) & 1)
            or (rank == 12 and present >> (suit * 13) & 1)
        ):  # Q-K-A runs: an ace and a king or queen of its suit
            useful |= 1 << t
    return useful


def _after(state: Any, action: int) -> Any:
    child = state.clone()
    child.apply_action(action)
    return child


def _table_greedy(state: Any) -> int:
    """The greedy policy of the table games (Rummy, Kaluki; see :class:`GreedyAgent`)."""
    legal: list[int] = state.legal_actions()
    p = state.player
    hand = state.hands[p]
    if state.phase_name == "draw":
        if TABLE_TAKE not in legal:
            return TABLE_DRAW
        if state.rules.is_kaluki and not state.is_opened(p):
            return TABLE_TAKE  # offered to an unopened player only when it can open with it
        t = card_type(state.discards[-1])
        taken = _after(state, TABLE_TAKE)
        held = _type_count(taken.hands[p], t)
        for action in taken.legal_actions():  # does a meld or a lay-off use the card?
            if action >= TABLE_MELD or TABLE_LAYOFF <= action < TABLE_RELEASE:
                if _type_count(_after(taken, action).hands[p], t) < held:
                    return TABLE_TAKE
        return TABLE_DRAW
    size = hand.bit_count()
    melds = [a for a in legal if a >= TABLE_MELD]
    if melds:  # the meld that puts down the most cards, then the lowest id
        return min(melds, key=lambda a: (_after(state, a).hands[p].bit_count() - size, a))
    values = state.geo.values
    layoffs = [a for a in legal if TABLE_LAYOFF <= a < TABLE_RELEASE and TableAction(a).card != TABLE_JOKER]
    if layoffs:  # the highest-penalty card, then the highest type, then the lowest id
        return min(layoffs, key=lambda a: (-values[TableAction(a).card or 0], -(TableAction(a).card or 0), a))
    discards = [a for a in legal if a <= TABLE_JOKER]
    if not discards:  # only joker placements or joker lay-offs remain
        return legal[0]
    useful = _useful_types(hand, state.rules.is_kaluki)

    def order(t: int) -> tuple[bool, int, int]:  # useless first, then the highest penalty and type
        return t == TABLE_JOKER or bool(useful >> t & 1), -values[t], -t

    return min(discards, key=order)


class GreedyAgent:
    """A fixed one-ply policy (deterministic; ``seed`` is accepted for a uniform interface).

    Knock games (Gin, Oklahoma Gin, Oklahoma Rummy); ``H`` is the hand of the seat to move and
    "least deadwood" the C core's best arrangement:

    1. **Upcard offer and draw.**  With ``t`` the top discard, ``d_keep`` = least deadwood of
       ``H`` and ``d_take`` = min over cards ``c`` of ``H`` of the least deadwood of
       ``H + t - c``: take iff ``d_take < d_keep``, otherwise pass (offer) or draw from the
       stock.  A forced stock draw draws.
    2. **Last chance** (``dead_at_2_last_chance``): take iff taking is legal, else pass.
    3. **Discard** (and knock-only): play ``big gin`` if it is legal.  Otherwise, for each
       legal card ``c`` let ``dw(c)`` = least deadwood of ``H - c``; the chosen card is the
       argmin of ``dw`` over the legal cards, ties broken by the highest card value (deadwood
       points), then the highest card id.  Knock with it if knocking with it is legal and
       ``dw <= max_knock_deadwood`` (``None``: any legal knock, i.e. knock as soon as allowed;
       ``0``: gin only); else discard it.  In the knock-only phase it must knock.
    4. **Manual showdown** (``auto_showdown=False``): declare the melds of the least-deadwood
       arrangement of the undeclared cards one at a time, then lay off one card at a time (the
       highest-valued legal lay-off, then the highest card id, then the first meld) while any
       is legal, then ``done``.

    Table games (Rummy, Kaluki; ``max_knock_deadwood`` is not used):

    1. **Draw.**  Kaluki, not yet opened: take the discard whenever taking is legal (the engine
       offers it only when the card can open).  Otherwise take it iff, after taking it, some
       legal meld or lay-off puts a copy of it on the table; else draw from the stock.
    2. **Play.**  Lay down the legal meld that puts down the most cards (then the lowest action
       id), one at a time while any is legal; then lay off (build) the highest-penalty natural
       card that fits (then the highest type, then the lowest id), one at a time.  Jokers are
       never laid off on their own and jokers are never released.
    3. **Discard** the highest-penalty card that is not useful (useful: a joker, or a card with
       another of its rank, or of its suit within two ranks, A-K counting as adjacent); if
       every card is useful, the highest-penalty one; ties to the highest type.

    >>> import rummykit as rk
    >>> state = rk.Game("gin").new_hand(seed=1)
    >>> GreedyAgent()(state) in state.legal_actions()
    True
    """

    def __init__(self, max_knock_deadwood: int | None = None, seed: object = None) -> None:
        if max_knock_deadwood is not None:
            max_knock_deadwood = _check_int("max_knock_deadwood", max_knock_deadwood, 0)
        self.max_knock_deadwood = max_knock_deadwood

    def spawn(self, seed: object) -> GreedyAgent:
        """The same policy (it uses no randomness)."""
        return self

    def __call__(self, state: Any) -> int:
        if state.game.family == "knock":
            return _knock_greedy(state, self.max_knock_deadwood)
        return _table_greedy(state)

    def __repr__(self) -> str:
        return "GreedyAgent()" if self.max_knock_deadwood is None else f"GreedyAgent({self.max_knock_deadwood})"


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
#: the determinization models of ISMCTSAgent (``model=``)
MODELS = ("soft-greedy", "uniform")
_AFTER_KNOCK = (Phase.SHOWDOWN, Phase.END)

#: the margin (hand points) worth half of the margin part of the reward
REWARD_SCALE = 25.0


def hand_reward(points: float, margin: float = 0.5) -> float:
    """A seat's hand points as a reward in [0, 1]: a share ``1 - margin`` for the result
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


def _c_playable(state: KnockState) -> bool:
    """Whether the C playouts play this variant (not the manual showdown, not partnerships)."""
    try:
        playout_rules(state.rules)
    except InvalidOptionError:
        return False
    return True


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
    with a rollout; each seat's :func:`hand_reward` (``margin``: the share of the points
    margin in it, the rest for the result; the default 0 plays for the win alone, which beat
    ``margin=0.5`` in the measurements) is added to the nodes of the actions that
    seat chose.  The default rollout of the knock games is ``rollouts`` greedy playouts in C
    (:func:`rummykit.playouts` with ``resample="stock"``: the sample's hands as they are,
    the stock reshuffled for each playout) whose rewards are averaged; table games play
    :func:`greedy_rollout` in Python.  ``rollout`` replaces it with a Python :data:`Rollout`.
    The move is the most visited root action (ties: the lowest id); a lone legal action is
    played without search.

    ``greedy_bias`` is a progressive bias towards the :class:`GreedyAgent` move at every node:
    it is expanded first and gets ``greedy_bias / (visits + 1)`` added to its UCB score, so a
    small budget plays close to greedy and the search departs from it only on evidence.

    **Budget.**  ``iterations`` per move (:data:`DEFAULT_ITERATIONS` when neither budget is
    given), or ``time_per_move`` seconds (the clock starts when the agent is called, so the
    sampling counts; at least one iteration runs; the moves then depend on the machine and are
    no longer reproducible); with both, the search stops at the first.  With an iteration
    budget the same seed gives the same moves.  ``docs/strength.md`` has the measured strength:
    at the default 200 iterations it beat greedy in 55.4% of 998 decided Oklahoma Gin hands
    (95% interval 52.3% - 58.5%).

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
        if time_per_move is not None:
            if not _is_number(time_per_move) or not time_per_move > 0:
                raise InvalidOptionError(
                    f"time_per_move must be a positive (finite) number of seconds, got {clip(time_per_move)}"
                )
            time_per_move = float(time_per_move)
        elif iterations is None:
            iterations = DEFAULT_ITERATIONS
        if iterations is not None:
            iterations = _check_int("iterations", iterations, 1)
        rollouts = _check_int("rollouts", rollouts, 1)
        samples = _check_int("samples", samples, 1)
        moves = _check_int("moves", moves, 0)
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
        if self.model == "soft-greedy" and isinstance(state, KnockState) and state.phase not in _AFTER_KNOCK:
            from rummykit.inference import posterior_determinizations

            model = self.opponent_model
            return posterior_determinizations(state, seat, self.samples, self._rng, model, moves=self.moves)
        return [state.determinize(seat, self._rng) for _ in range(self.samples)]

    def __call__(self, state: Any) -> int:
        if not hasattr(state, "determinize"):
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
        while done == 0 or (
            (self.iterations is None or done < self.iterations) and (deadline is None or time.perf_counter() < deadline)
        ):
            k = done % len(pool)
            self._iterate(root, pool[k].clone(), evaluate, seed + k)
            done += 1
        best = max(root.children.items(), key=lambda kv: (kv[1].visits, -kv[0]))
        return best[0]

    def _leaf_points(self, state: Any) -> Callable[[Any, int], list[float]]:
        """How a leaf is scored (given a playout seed): each seat's mean :func:`hand_reward`
        over its rollouts."""
        rng, margin = self._rng, self.margin
        if self.rollout is not None or not isinstance(state, KnockState) or not _c_playable(state):
            rollout = self.rollout or greedy_rollout
            return lambda leaf, seed: [hand_reward(x, margin) for x in rollout(leaf, rng)]
        rollouts = self.rollouts

        def c_playouts(leaf: Any, seed: int) -> list[float]:
            points, _ = run_playouts(leaf, rollouts, seed=seed, resample="stock")
            return [sum(hand_reward(float(x), margin) for x in column) / rollouts for column in points.T]

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
            rewards = [hand_reward(x, self.margin) for x in state.returns()]
        else:
            rewards = evaluate(state, seed)
        for node in path[1:]:
            node.visits += 1
            node.reward += rewards[node.player]


# --- by name ------------------------------------------------------------------

_FACTORIES: dict[str, Callable[..., Any]] = {"random": RandomAgent, "greedy": GreedyAgent, "ismcts": ISMCTSAgent}
#: the agent names :func:`make_agent` knows
AGENT_NAMES = tuple(_FACTORIES)


def _option_value(text: str) -> object:
    if text.lower() == "none":
        return None
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def make_agent(spec: str | Agent, seed: int | np.random.Generator | None = None) -> Agent:
    """An agent from a name (``"random"``, ``"greedy"``, ``"ismcts"``) with optional
    settings after a colon (``"ismcts:iterations=100,exploration=1.0"``,
    ``"greedy:max_knock_deadwood=5"``), seeded with ``seed``; an agent with a ``spawn``
    method is spawned with ``seed``; any other callable is used as it is.

    >>> make_agent("ismcts:iterations=50", seed=1)
    ISMCTSAgent(iterations=50)
    """
    if not isinstance(spec, str):
        if not callable(spec):
            raise InvalidOptionError(f"an agent must be a name or a callable, got {clip(spec)}")
        spawn = getattr(spec, "spawn", None)
        return spawn(seed) if callable(spawn) else spec
    name, _, settings = spec.partition(":")
    factory = _FACTORIES.get(name.strip().lower())
    if factory is None:
        raise InvalidOptionError(f"unknown agent {clip(name)}; known: {', '.join(AGENT_NAMES)}")
    options: dict[str, object] = {}
    for item in filter(None, (s.strip() for s in settings.split(","))):
        key, eq, value = item.partition("=")
        if not eq or not key.strip().isidentifier() or key.strip() in ("seed", "rollout"):
            raise InvalidOptionError(f"bad agent setting {clip(item)} in {clip(spec)} (expected name=value)")
        options[key.strip()] = _option_value(value.strip())
    try:
        agent: Agent = factory(seed=seed, **options)
    except TypeError as err:
        raise InvalidOptionError(f"bad settings for agent {clip(name)}: {clip(str(err), 120)}") from None
    return agent
