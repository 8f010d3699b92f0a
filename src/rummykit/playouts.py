"""Fast playouts in C for every game: many hands played to the end from
determinizations of a state, for Monte Carlo evaluation and search.

>>> import rummykit as rk
>>> state = rk.Game("oklahoma-gin").new_hand(seed=3)
>>> points, outcomes = rk.playouts(state, 1000, seed=1)
>>> points.shape, points.dtype, outcomes.shape, outcomes.dtype
((1000, 2), dtype('int32'), (1000,), dtype('uint8'))
>>> bool(set(outcomes.tolist()) <= {DEAD, GIN, BIG_GIN, KNOCK, UNDERCUT})
True
>>> same, _ = rk.playouts(state, 1000, seed=1, threads=2)
>>> bool((same == points).all())
True
>>> OUTCOMES[GIN], OUTCOMES[DEAD]
('gin', 'dead')

Each playout resamples the cards hidden from the seat to move (as
:func:`rummykit.knock.observe.determinize` does: cards seen taken from the
discard pile stay with their holder, restocked cards stay in their group,
the stock order and the future restock seed are drawn afresh), then every
seat plays the policy to the end of the hand, scored with the full rules of
the variant (the knocker's arrangement, optimal lay-offs, undercuts, the
spade multiplier, big gin, the stock-floor rule).  The C kernel is the
``KnockState`` state machine: with the same deck, options and policy it
reaches the same end and the same points (``tests/knock/test_playouts.py``).

Table games (Rummy, Kaluki: a :class:`~rummykit.table.state.TableState`)
work the same way on the C table engine (``csrc/src/table.c``, the engine of
``TableState`` itself): each playout resamples the cards hidden from the
seat to move as :func:`rummykit.table.observe.determinize` does (cards seen
taken stay with their holder, each card a seat played came from one of its
earlier places, restocked cards stay in their group, a joker laid in a run
says its owner held no such card; see :mod:`rummykit.table.playouts`), then
plays every seat to the end of the hand.  The returns are
``TableState.returns()`` (the scoring options of the game, e.g. winner
collects or penalties; not zero-sum), and the outcome codes:

==========  ====  =====================================================
code        name  meaning
==========  ====  =====================================================
DEAD        0     dead hand: stock out, restock limit, or ``max_turns``
BLOCKED     5     Rummy, ``restock_method="block"``: the stock ran out
RUMMY       6     Rummy: went out in one turn from a fresh hand
OUT         7     Rummy: went out
HUNT        8     Kaluki: went out in one turn from a fresh hand (a Hunt)
CALL_OFF    9     Kaluki: went out (called off)
==========  ====  =====================================================

:data:`OUTCOMES` names every code of both families (1-4 are the knock
games': gin, big gin, knock, undercut), so ``OUTCOMES[code]`` is
``TableState.result.outcome`` for the table games too.

>>> rummy = rk.Game("rummy", num_players=4).new_hand(seed=2)
>>> returns, codes = rk.playouts(rummy, 200, seed=1, threads=2)
>>> returns.shape, bool(set(codes.tolist()) <= {DEAD, RUMMY, OUT})
((200, 4), True)
>>> OUTCOMES[OUT]
'out'

Policies:

* ``"greedy"``: :class:`rummykit.agents.GreedyAgent` (``max_knock_deadwood``
  as there: None knocks as soon as allowed, 0 waits for gin; knock games
  only);
* ``"careful"``: :class:`rummykit.agents.CarefulAgent` (greedy with a
  one-draw look-ahead and the opponent's takes and discards in mind;
  ``max_knock_deadwood`` as greedy's; knock games only);
* ``"random"``: a uniformly random legal action (splitmix64 seeded per
  playout; not the numpy stream of :class:`~rummykit.agents.RandomAgent`).

Playout ``i`` depends only on ``(seed, i)``: the same seed gives the same
arrays for any number of threads.  Points are each seat's hand points
(``KnockState.returns()``: after the multiplier, 0 for a dead hand); match
options (boxes, game bonuses, Hollywood sheets) do not enter.  With
``auto_showdown=False`` every seat declares in the showdown as the greedy
policy does; a state already in the manual showdown is refused
(``InvalidOptionError``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rummykit import _core
from rummykit.engine.family import state_family
from rummykit.engine.parallel import split
from rummykit.errors import InvalidOptionError, clip

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from rummykit.engine.protocol import GameState


__all__ = [
    "BIG_GIN",
    "BLOCKED",
    "CALL_OFF",
    "DEAD",
    "GIN",
    "HUNT",
    "KNOCK",
    "OUT",
    "OUTCOMES",
    "POLICIES",
    "RESAMPLE",
    "RUMMY",
    "UNDERCUT",
    "playouts",
]

#: outcome names by code (the names of ``HandResult.outcome`` and ``TableResult.outcome``): the knock
#: outcomes by their C code, then the table outcomes that are not knock ones (rk_table_outcome order)
OUTCOMES: tuple[str, ...] = _core.KNOCK_OUTCOMES + tuple(
    o for o in _core.TABLE_OUTCOMES if o is not None and o not in _core.KNOCK_OUTCOMES
)
#: outcome codes of :func:`playouts`
DEAD, GIN, BIG_GIN, KNOCK, UNDERCUT, BLOCKED, RUMMY, OUT, HUNT, CALL_OFF = range(len(OUTCOMES))
_CODES = {name: code for code, name in enumerate(OUTCOMES)}
#: policy names
POLICIES: dict[str, int] = {
    "greedy": _core.POLICY_GREEDY,
    "careful": _core.POLICY_CAREFUL,
    "random": _core.POLICY_RANDOM,
}
#: the ``resample`` modes (see :func:`playouts`)
RESAMPLE: tuple[str, ...] = ("hidden", "stock", "none")


def _seed(seed: Any) -> int:
    import numpy as np  # on first use: `import rummykit` stays light

    if seed is None:
        return int(np.random.SeedSequence().generate_state(1, np.uint64)[0])
    if isinstance(seed, np.random.Generator):
        return int(seed.integers(2**63))
    if isinstance(seed, (int, np.integer)) and not isinstance(seed, bool) and 0 <= int(seed) < 2**64:
        return int(seed)
    raise InvalidOptionError(f"seed must be an int in 0..2**64-1, a numpy Generator or None, got {clip(seed)}")


#: the most playouts of one call (the C loop counts them in an int)
MAX_PLAYOUTS = 2**31 - 1
#: the most threads of one call
MAX_THREADS = 1024


def _check_count(name: str, value: Any, minimum: int, maximum: int = 2**31 - 1) -> int:
    import numpy as np  # on first use: `import rummykit` stays light

    if not isinstance(value, (int, np.integer)) or isinstance(value, bool) or not minimum <= int(value) <= maximum:
        raise InvalidOptionError(f"{name} must be an int {minimum}..{maximum}, got {clip(value)}")
    return int(value)


def playouts(
    state: GameState,
    n: int,
    *,
    policy: str = "greedy",
    seed: Any = None,
    threads: int = 1,
    max_knock_deadwood: int | None = None,
    resample: str = "hidden",
) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.uint8]]:
    """Play ``n`` hands to the end from determinizations of ``state`` for
    the seat to move, in C with the GIL released.

    ``resample`` says what each playout draws afresh: ``"hidden"`` (the
    default) every card hidden from the seat to move, as described in the
    module docstring; ``"stock"`` only the order of the stock (and the
    future restocks), every hand played as it is (for a state that is
    already a determinization, such as a search node); ``"none"`` nothing:
    the state exactly as it is, stock order and ``shuffle_seed`` included,
    so greedy playouts all reach the same end and only the random policy
    varies.

    Returns ``(points, outcomes)``: ``points[i, seat]`` (int32, hand points
    in seat order: ``state.returns()`` at the end of the playout) and
    ``outcomes[i]`` (uint8: :data:`DEAD`, :data:`GIN`, :data:`BIG_GIN`,
    :data:`KNOCK`, :data:`UNDERCUT`; table games: :data:`DEAD`,
    :data:`BLOCKED`, :data:`RUMMY`, :data:`OUT`, :data:`HUNT`,
    :data:`CALL_OFF`).  A table game's stock that was turned over
    (``restock_method="turn_over"``) is public and is not reshuffled.
    ``policy`` is
    ``"greedy"``, ``"careful"`` or ``"random"`` (see the module docstring); ``seed`` an int
    (0..2**64-1), a numpy Generator or None; ``threads`` splits the
    playouts over that many threads (the results do not depend on it).
    A finished hand gives its own result ``n`` times.

    >>> import rummykit as rk
    >>> state = rk.Game("gin").new_hand(seed=5)
    >>> points, outcomes = rk.playouts(state, 500, policy="random", seed=2)
    >>> int((points[outcomes == DEAD] != 0).sum())
    0
    >>> exact, _ = rk.playouts(state, 50, resample="none", seed=2)
    >>> bool((exact == exact[0]).all())
    True
    >>> rk.playouts(state, 10, policy="clever")
    Traceback (most recent call last):
    ...
    rummykit.errors.InvalidOptionError: policy must be one of ['careful', 'greedy', 'random'], got 'clever'
    """
    n = _check_count("n", n, 0, MAX_PLAYOUTS)
    threads = _check_count("threads", threads, 1, MAX_THREADS)
    if not isinstance(policy, str) or policy not in POLICIES:
        raise InvalidOptionError(f"policy must be one of {sorted(POLICIES)}, got {clip(policy)}")
    if not isinstance(resample, str) or resample not in RESAMPLE:
        raise InvalidOptionError(f"resample must be one of {list(RESAMPLE)}, got {clip(resample)}")
    if max_knock_deadwood is None:
        knock_at = -1
    else:
        knock_at = _check_count("max_knock_deadwood", max_knock_deadwood, 0)
    family = state_family(state)
    if family is None:
        raise InvalidOptionError(f"playouts need a game state (KnockState or TableState), got {clip(state)}")
    if policy == "careful" and not family.knocks:
        raise InvalidOptionError(f"policy 'careful' plays the knock games only ({state.game.name} has no knocking)")
    if knock_at != -1 and not family.knocks:
        raise InvalidOptionError(
            f"max_knock_deadwood applies to the knock games only ({state.game.name} has no knocking)"
        )
    c_seed = _seed(seed)
    import numpy as np  # on first use: `import rummykit` stays light

    try:
        points = np.zeros((n, state.n), dtype=np.int32)
        outcomes = np.zeros(n, dtype=np.uint8)
    except MemoryError:
        raise InvalidOptionError(f"n={n:,} playouts do not fit in memory ({(4 * state.n + 1) * n:,} bytes)") from None
    if state.is_terminal():  # a finished hand gives its own result n times
        points[:] = state.returns()
        outcomes[:] = _CODES[state.result.outcome]
        return points, outcomes
    run = family.playouts(state, resample, POLICIES[policy], knock_at, c_seed)
    split(lambda lo, hi: run(lo, hi, points[lo:hi], outcomes[lo:hi]), n, threads)
    # the C codes of the family (``family.core_outcomes``) -> the codes of OUTCOMES
    codes = [255 if name is None else _CODES[name] for name in family.core_outcomes]
    return points, np.asarray(codes, dtype=np.uint8)[outcomes]
