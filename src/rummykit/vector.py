"""Batched play for reinforcement learning: ``batch`` independent hands of one
game stepped by one C call (csrc/include/rummykit/vector.h).

>>> import numpy as np
>>> from rummykit.vector import VectorGame
>>> vg = VectorGame("gin", batch=4, seed=1)
>>> vg.legal_mask.shape, vg.observation.shape, vg.current_player.shape
((4, 686), (4, 1699), (4,))
>>> rng = np.random.default_rng(0)
>>> actions = vg.sample_actions(rng)            # one uniformly random legal action per row
>>> bool(vg.legal_mask[np.arange(4), actions].all())
True
>>> rewards = vg.step(actions)
>>> rewards.shape, rewards.dtype, vg.terminated.dtype
((4, 2), dtype('float32'), dtype('bool'))
>>> vg.state(0).current_player == int(vg.current_player[0])
True

Each row is one hand, exactly as the scalar state plays it: the same deal
(:meth:`VectorGame.state` replays a row through the scalar engine), the same
legal actions, the same observation tensor (``observation_tensor`` of the
player to move).  Actions are fixed ids, one per move and the same move in every
state (``action_space="fixed"``, the default): the knock games' engine ids (686),
the table games' fixed ids (8,463, :mod:`rummykit.table.fixed`: discard a card type,
draw, take, lay off a type on a table meld's end, release a joker, meld a set by rank
and suits or a run by suit, start and length; ``legal_mask`` is exactly the legal
moves' ids).  ``action_space="dense"`` (table games only, for search) numbers a row's
moves instead: action ``k`` is the ``k``-th of its sorted ``legal_actions()``, out of
4096 slots.

A step copies the actions, then checks every row's action: an illegal one
raises :class:`~rummykit.errors.IllegalActionError` naming the row, and nothing
changes.  Then every row plays (in C, without the GIL, on ``threads``
threads), and a hand that ends is scored and restarts at once from the row's
next deal: the step's ``rewards``, ``terminated``, ``hand_points`` and
``hand_outcome`` are the ended hand's, the other arrays show the new hand.
Row ``i``'s deals come from its own stream of the seed, so the same seed and
actions give the same arrays for any ``threads``.

Rewards (``reward=``): ``"win_loss"`` (the default, as in the
:mod:`rummykit.envs` adapters) gives +1 to the winner of an ended hand, -1 to
the others, 0 to all in a hand without a winner; ``"points"`` gives each seat
its hand points less the mean of the other seats' (zero-sum: a lost hand
costs what the others gained; :func:`rummykit.agents.signed_results`).  A hand's points are ``state.returns()`` of
the scalar engine: points won in the points games (a Gin loser's 0), minus
the penalty taken in the penalty games (``game.score_kind == "penalties"``),
so higher is better in every game.  ``shaping="deadwood"`` adds
potential-based shaping (Ng, Harada and Russell, 1999) to every step's
rewards: ``F = gamma * phi(s') - phi(s)`` per seat, with
``phi = -deadwood / scale`` (knock games: the deadwood of the seat's cards
as they lie; table games: the value of the cards it holds) and
``phi = 0`` once a hand ended, so a hand's shaping sums to ``-phi(s0)``
(with ``gamma = 1``) and the optimal policy is that of the unshaped reward.

>>> vg = VectorGame("gin", batch=2, seed=3, reward="points")
>>> vg.obs_layout()[:2]
[('current_player', 0, 4), ('dealer', 4, 8)]
>>> [vg.action_text(0, int(a)) for a in np.flatnonzero(vg.legal_mask[0])]  # the first turn's upcard
['take', 'pass']
"""

from __future__ import annotations

import numbers
from typing import Any

import numpy as np
import numpy.typing as npt

from rummykit import _core
from rummykit.agents.base import signed_results
from rummykit.engine.action_space import ActionIndex
from rummykit.engine.protocol import GameState
from rummykit.errors import IllegalActionError, InvalidOptionError, clip
from rummykit.games import Game

__all__ = ["REWARDS", "SHAPINGS", "VectorGame", "check_shaping", "deadwood_potential", "pool_cumulative"]

#: ``reward=`` of :class:`VectorGame` (and of the :mod:`rummykit.envs` adapters)
REWARDS = ("win_loss", "points")
#: ``shaping=`` of :class:`VectorGame`: None or potential-based shaping on deadwood
SHAPINGS = (None, "deadwood")

_POLICIES: dict[str | None, int] = {None: -1, "random": _core.POLICY_RANDOM, "greedy": _core.POLICY_GREEDY}

#: The most threads one vector game steps on.
MAX_THREADS: int = _core.VECTOR_MAX_THREADS


def check_shaping(shaping: Any, gamma: Any, scale: Any) -> None:
    """:class:`~rummykit.errors.InvalidOptionError` unless ``shaping`` is one of
    :data:`SHAPINGS`, ``gamma`` a number in 0..1 and ``scale`` a positive number."""
    if not (shaping is None or isinstance(shaping, str)) or shaping not in SHAPINGS:
        raise InvalidOptionError(f"shaping must be None or 'deadwood', got {clip(shaping)}")
    for arg, value, lo in (("shaping_gamma", gamma, 0.0), ("shaping_scale", scale, None)):
        ok = isinstance(value, numbers.Real) and not isinstance(value, bool) and np.isfinite(float(value))
        if not ok or (lo is not None and not lo <= float(value) <= 1.0) or (lo is None and float(value) <= 0):
            want = "a number in 0..1" if lo is not None else "a positive number"
            raise InvalidOptionError(f"{arg} must be {want}, got {clip(value)}")


def pool_cumulative(probs: Any, size: int, name: str = "probs") -> npt.NDArray[np.float64]:
    """The cumulative draw probabilities of a pool of ``size`` opponents, from ``probs`` (one
    non-negative weight per member, not all 0; None: uniform), else
    :class:`~rummykit.errors.InvalidOptionError` naming ``name``."""
    if probs is None:
        return np.arange(1, size + 1) / size
    p = np.asarray(probs, dtype=np.float64)
    if p.shape != (size,) or not np.all(np.isfinite(p)) or np.any(p < 0) or p.sum() <= 0:
        raise InvalidOptionError(f"{name} must be one non-negative weight per member of the pool, got {clip(probs)}")
    return np.cumsum(p / p.sum())


def deadwood_potential(state: GameState, seat: int, scale: float) -> float:
    """The shaping potential ``phi = -deadwood / scale`` of ``seat`` in ``state`` (knock games:
    the least deadwood of its cards as they lie; table games: the value of the cards it holds),
    the value :class:`VectorGame` shapes with (0 is for ended hands: the caller's to apply)."""
    return -float(state._seat_deadwood(seat)) / float(scale)  # type: ignore[attr-defined]


def _read_only_view(array: npt.NDArray[Any]) -> npt.NDArray[Any]:
    view = array.view()
    view.flags.writeable = False
    return view


def _int_arg(name: str, value: object, lo: int, hi: int) -> int:
    if isinstance(value, numbers.Integral) and not isinstance(value, bool) and lo <= int(value) <= hi:
        return int(value)
    raise InvalidOptionError(f"{name} must be an int {lo}..{hi}, got {clip(value)}")


class VectorGame:
    """``batch`` hands of the game ``name`` (with ``options``, as
    ``rummykit.Game(name, **options)``) stepped together.

    ``seed`` (an int 0..2**64-1, or None for fresh entropy) fixes every
    row's deals; ``threads`` (1..256) splits the rows of a step among
    threads.  The arrays are read-only views that every step updates in
    place: ``legal_mask`` (batch, num_actions) bool, ``num_legal`` (batch,)
    int32, the number of True entries of each row of the mask,
    ``observation`` (batch, obs_dim) float32, ``current_player`` (batch,)
    int32, and ``terminated`` (batch,) bool, the hands the last step ended.  One
    thread at a time: a call from a second thread while a step or reset runs raises
    :class:`~rummykit.errors.RummykitError`.

    The arrays are views of memory only the C core writes: ``flags.writeable = True``
    raises ``ValueError`` (numpy's), and the core never reads them back, nor the caller's
    action array after copying it, so no caller can make a step play an unchecked action
    or touch memory outside the game.  Bad arguments raise
    :class:`~rummykit.errors.RummykitError` subclasses (``actions`` of another shape or
    type: :class:`~rummykit.errors.InvalidOptionError`).
    """

    def __init__(
        self,
        name: str,
        batch: int,
        seed: int | None = None,
        threads: int = 1,
        reward: str = "win_loss",
        shaping: str | None = None,
        *,
        shaping_gamma: float = 1.0,
        shaping_scale: float = 100.0,
        action_space: str = "fixed",
        **options: Any,
    ) -> None:
        if not isinstance(reward, str) or reward not in REWARDS:
            raise InvalidOptionError(f"reward must be one of {', '.join(REWARDS)}, got {clip(reward)}")
        check_shaping(shaping, shaping_gamma, shaping_scale)
        #: the reward scheme, the shaping (None or "deadwood") and its discount and scale
        self.reward: str = reward
        self.shaping: str | None = shaping
        self.shaping_gamma = float(shaping_gamma)
        self.shaping_scale = float(shaping_scale)
        self.game = Game(name, **options)
        self.batch = _int_arg("batch", batch, 1, 1 << 24)
        self.threads = _int_arg("threads", threads, 1, MAX_THREADS)
        if seed is None:
            seed = int(np.random.SeedSequence().generate_state(1, np.uint64)[0])
        self.seed = _int_arg("seed", seed, 0, (1 << 64) - 1)
        #: the action numbering (``action_space``: ``"fixed"`` or ``"dense"``), as the scalar adapters'
        self.index = ActionIndex(self.game, action_space)
        self.action_space: str = action_space
        #: the players of each hand, the action slots and the observation length
        self.num_players: int = self.game.num_players
        self.num_actions: int = self.index.size
        self.obs_dim: int = self.game.observation_tensor_size
        spec = self.game.spec  # type: ignore[attr-defined]
        self._core = _core.VectorCore(spec, self.batch, self.threads, shaping is not None, dense=self.index.dense)
        views = {name: np.asarray(buffer) for name, buffer in self._core.buffers().items()}
        self._rewards = views["rewards"]
        self._hand_score = views["hand_score"]
        self._deadwood: npt.NDArray[np.int32] | None = views.get("deadwood")
        self._potential: npt.NDArray[np.float32] | None = None  # phi of each row and seat before the step
        self._hand_points: npt.NDArray[np.float32] | None = None  # hand_points, computed on first use
        family = self.game.family_record
        # the C core's hand scores: the returns, or the values held (scored here by the family)
        self._hand_returns = family.hand_returns
        #: the outcome names by code: ``outcome_names[hand_outcome[i]]`` (``hand_outcome`` -1: none)
        self.outcome_names: tuple[str | None, ...] = family.core_outcomes
        # each row's legal actions in increasing order (C writes them; not in the dense index), for sample_actions
        self._legal_ids: npt.NDArray[np.int32] | None = views.get("legal_ids")
        self._rows = np.arange(self.batch)
        self._core.reset(self.seed)
        self.legal_mask: npt.NDArray[np.bool_] = views["legal_mask"]
        self.observation: npt.NDArray[np.float32] = views["observation"]
        self.current_player: npt.NDArray[np.int32] = views["current_player"]
        self.terminated: npt.NDArray[np.bool_] = views["terminated"]
        self.num_legal: npt.NDArray[np.int32] = views["num_legal"]
        #: (batch,) int32: the outcome code of the hand the last step ended in each row (names:
        #: ``outcome_names``), -1 in a row whose hand did not end
        self.hand_outcome: npt.NDArray[np.int32] = views["outcome"]
        #: (batch,) int32: the winner of the hand the last step ended, -1 for none (or no hand ended)
        self.hand_winner: npt.NDArray[np.int32] = views["winner"]
        self._core_terminated, self._core_outcome, self._core_winner = (
            self.terminated,
            self.hand_outcome,
            self.hand_winner,
        )
        # batched opponents (set_opponents): the pool, its cumulative probabilities, and per row the
        # learner's seat, the pool member, the deal number and whether the learner moved this hand
        self._pool: list[Any] | None = None
        self._pool_cumulative: npt.NDArray[np.float64] | None = None
        self._learner = np.zeros(self.batch, dtype=np.int64)
        self._member = np.zeros(self.batch, dtype=np.int64)
        self._deal = np.zeros(self.batch, dtype=np.uint64)
        self._moved = np.zeros(self.batch, dtype=np.bool_)
        self._start_potential()

    def __repr__(self) -> str:
        extra = f", reward={self.reward!r}" if self.reward != "win_loss" else ""
        extra += f", shaping={self.shaping!r}" if self.shaping is not None else ""
        return (
            f"VectorGame({self.game.rules.name!r}, batch={self.batch}, seed={self.seed}, threads={self.threads}{extra})"
        )

    def _start_potential(self) -> None:
        """After a reset: phi of the new hands (shaping), no hand points."""
        self._hand_points = None
        if self._deadwood is not None:
            self._potential = self._deadwood.astype(np.float32) / np.float32(-self.shaping_scale)

    @property
    def hand_points(self) -> npt.NDArray[np.float32]:
        """(batch, num_players) float32: the points of the hands the last step ended
        (``state.returns()`` of the scalar engine: points won, or minus the penalty taken in
        the penalty games), 0 in the rows whose hand did not end (a new read-only array per step)."""
        if self._hand_points is None:
            if self._pool is not None:  # the hands kept by the last step (set_opponents)
                points = self._own_points.copy()
            else:
                points = np.zeros((self.batch, self.num_players), dtype=np.float32)
                ended = np.flatnonzero(self._core_outcome >= 0)
                points[ended] = self._core_points(ended)
            points.flags.writeable = False
            self._hand_points = points
        return self._hand_points

    def _core_points(self, rows: npt.NDArray[np.intp]) -> npt.NDArray[np.float32]:
        """The points of the hands the last core step ended in ``rows`` (hand_points)."""
        points = self._hand_score[rows].astype(np.float32)
        if self._hand_returns is not None:
            for k, row in enumerate(rows):
                outcome = self.outcome_names[int(self._core_outcome[row])]
                winner = int(self._core_winner[row])
                values = [int(x) for x in self._hand_score[row]]
                points[k] = self._hand_returns(self.game.rules, str(outcome), None if winner < 0 else winner, values)
        return points

    def obs_layout(self) -> list[tuple[str, int, int]]:
        """The observation's named slices ``(name, start, stop)``, in order, covering
        ``observation``'s columns (the game's ``observation_layout``; docs/vector.md)."""
        return list(self.game.observation_layout)

    def action_text(self, row: int, a: int) -> str:
        """The move that action ``a`` is in row ``row`` now, as the scalar state writes it
        (replays the row: for inspection, not for every step); with the fixed ids the same
        kind and cards in every state.  ``a`` not legal there:
        :class:`~rummykit.errors.IllegalActionError`."""
        i = _int_arg("row", row, 0, self.batch - 1)
        a = _int_arg("action", a, 0, self.num_actions - 1)
        if not self.legal_mask[i, a]:
            raise IllegalActionError(f"row {i}: action {a} is not legal now")
        state = self.state(i)
        return state.action_text(self.index.decode(state, a))

    def reset(self, seed: int | None = None) -> None:
        """Deal every row its first hand again, from ``seed`` (an int 0..2**64-1; None: the
        seed of the last reset or of the construction)."""
        if seed is not None:
            self.seed = _int_arg("seed", seed, 0, (1 << 64) - 1)
        self._core.reset(self.seed)
        self._start_pool()
        self._start_potential()

    def set_opponents(self, policy: Any, probs: npt.ArrayLike | None = None) -> None:
        """Let ``policy`` play every seat but one per row, the learner's; None: every seat is
        the caller's again.  ``policy`` is ``"random"`` or ``"greedy"`` (the policies of
        :class:`rummykit.agents.RandomAgent` and :class:`~rummykit.agents.GreedyAgent`, played
        in C; the learner's seat drawn per deal from the row's stream), or a *batched policy*
        ``fn(observation, legal_mask) -> actions`` (numpy in and out, this game's arrays and
        action numbering) or a pool of them (a list: one is drawn per row and deal, with
        ``probs``, uniform if None; frozen snapshots of a learner for self-play and leagues).
        A batched policy is called once per opponent move on the rows where an opponent it
        plays is to move (``observation[rows]``, ``legal_mask[rows]``), and must return one
        legal action per row (else :class:`~rummykit.errors.IllegalActionError`, the game then
        to be reset).  The learner's seat and the pool member of deal ``d`` of row ``i`` are
        drawn from a hash of ``(seed, i, d)`` (:meth:`learner_draws`), so a row's play does not
        depend on the others.

        Deals every row again from its first deal.  Then ``current_player`` is each row's
        learner seat, a step plays the learner's action and the opponents' replies up to its
        next move (its rewards, ``terminated``, ``hand_points``, ``hand_outcome`` and
        ``hand_winner`` cover them), and a hand that ends before the learner's first move is
        dealt again."""
        pool: list[Any] | None = None
        if policy is not None and not isinstance(policy, str):
            pool = list(policy) if isinstance(policy, (list, tuple)) else [policy]
            if not pool or not all(callable(fn) and not isinstance(fn, type) for fn in pool):
                raise InvalidOptionError(
                    f"policy must be 'random', 'greedy', None, a batched policy or a list of them, got {clip(policy)}"
                )
        elif policy not in _POLICIES:
            raise InvalidOptionError(f"policy must be 'random', 'greedy' or None, got {clip(policy)}")
        if probs is not None and pool is None:
            raise InvalidOptionError(f"probs needs a pool of batched policies, got policy {clip(policy)}")
        cumulative = None if pool is None else pool_cumulative(probs, len(pool))
        self._core.set_opponents(_POLICIES[None] if pool is not None else _POLICIES[policy])
        self._pool = pool
        self._pool_cumulative = cumulative
        self._core.reset(self.seed)
        self._start_pool()
        self._start_potential()

    def _start_pool(self) -> None:
        """After a reset: the batched opponents' arrays, and their moves up to each learner's."""
        if self._pool is None:
            self.terminated, self.hand_outcome = self._core_terminated, self._core_outcome
            self.hand_winner = self._core_winner
            return
        self._own_terminated = np.zeros(self.batch, dtype=np.bool_)
        self._own_outcome = np.full(self.batch, -1, dtype=np.int32)
        self._own_winner = np.full(self.batch, -1, dtype=np.int32)
        self._own_points = np.zeros((self.batch, self.num_players), dtype=np.float32)
        self._own_rewards = np.zeros((self.batch, self.num_players), dtype=np.float32)
        self.terminated, self.hand_outcome, self.hand_winner = (
            _read_only_view(self._own_terminated),
            _read_only_view(self._own_outcome),
            _read_only_view(self._own_winner),
        )
        self._deal[:] = 0
        self._moved[:] = False
        self._learner[:], self._member[:] = self.learner_draws(self._rows, self._deal)
        self._play_pool()

    def _absorb(self) -> None:
        """After a core step under batched opponents: keep the hands that ended after the
        learner's first move (the step's), draw the next deals' learner and pool member."""
        ended = np.flatnonzero(self._core_terminated)
        if not ended.size:
            return
        keep = ended[self._moved[ended]]
        if keep.size:
            self._own_terminated[keep] = True
            self._own_outcome[keep] = self._core_outcome[keep]
            self._own_winner[keep] = self._core_winner[keep]
            self._own_points[keep] = self._core_points(keep)
            self._own_rewards[keep] = self._rewards[keep]
        self._deal[ended] += np.uint64(1)
        self._learner[ended], self._member[ended] = self.learner_draws(ended, self._deal[ended])
        self._moved[ended] = False

    def _play_pool(self) -> None:
        """The batched opponents' moves until every row's learner is to move."""
        assert self._pool is not None
        while True:
            need = self.current_player != self._learner
            if not need.any():
                return
            actions = np.full(self.batch, _core.VECTOR_SKIP, dtype=np.int32)
            for k, fn in enumerate(self._pool):
                rows = np.flatnonzero(need & (self._member == k))
                if not rows.size:
                    continue
                out = np.asarray(fn(self.observation[rows], self.legal_mask[rows]))
                if out.shape != (rows.size,) or out.dtype.kind not in "iu":
                    raise IllegalActionError(
                        f"an opponent policy must return ({rows.size},) integer actions, got {clip(out)}"
                    )
                bad = np.flatnonzero((out < 0) | (out >= self.num_actions))
                if bad.size:
                    raise IllegalActionError(f"row {rows[bad[0]]}: opponent action {out[bad[0]]} is not legal")
                actions[rows] = out
            self._core.step(actions, True)
            self._absorb()

    def learner_draws(self, rows: npt.ArrayLike, deals: npt.ArrayLike) -> tuple[npt.NDArray[np.int64], ...]:
        """With batched opponents (:meth:`set_opponents`): the learner's seat and the pool
        member of deal ``deals[k]`` (0 for a row's first deal after a reset) of row ``rows[k]``:
        ``u = splitmix64(seed + 0x9E3779B97F4A7C15 * (1 + row) + 0xD1B54A32D192ED03 * deal)``
        (wrapping 64-bit arithmetic), seat ``u % num_players``, member the first ``j`` with
        ``(u >> 11) / 2**53 < cumsum(probs)[j]`` (the last if none)."""
        r = np.asarray(rows, dtype=np.uint64)
        d = np.asarray(deals, dtype=np.uint64)
        x = np.uint64(self.seed) + np.uint64(0x9E3779B97F4A7C15) * (r + np.uint64(1))
        x = x + np.uint64(0xD1B54A32D192ED03) * d
        x = (x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        x = (x ^ (x >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        x = x ^ (x >> np.uint64(31))
        seats = (x % np.uint64(self.num_players)).astype(np.int64)
        size = len(self._pool) if self._pool is not None else 1
        cumulative = self._pool_cumulative if self._pool_cumulative is not None else pool_cumulative(None, size)
        u = (x >> np.uint64(11)).astype(np.float64) / float(1 << 53)
        members = np.minimum(np.searchsorted(cumulative, u, side="right"), size - 1).astype(np.int64)
        return seats, members

    def sample_actions(self, rng: np.random.Generator) -> npt.NDArray[np.int32]:
        """One uniformly random legal action per row, (batch,) int32, drawn from
        ``rng`` (one ``rng.random(batch)`` call) in numpy without scanning the
        mask: for random opponents, exploration and benchmarks."""
        if not isinstance(rng, np.random.Generator):
            raise InvalidOptionError(f"rng must be a numpy.random.Generator, got {clip(rng)}")
        self._core.check_idle()
        k = (rng.random(self.batch) * self.num_legal).astype(np.int32)  # floor: 0 .. num_legal - 1
        if self._legal_ids is None:
            return k  # the dense index: action k is the k-th legal action
        return self._legal_ids[self._rows, k]

    def step(self, actions: npt.ArrayLike) -> npt.NDArray[np.float32]:
        """Play ``actions[i]`` (an integer array of shape (batch,), read-only
        or not) in row ``i``; returns the step's rewards, (batch, num_players)
        float32 (a new array): ``reward`` and ``shaping`` (module docstring)."""
        try:
            arr = np.asarray(actions)
        except (TypeError, ValueError, OverflowError) as err:  # ragged lists, objects numpy refuses
            raise InvalidOptionError(f"actions must be an integer array of shape ({self.batch},): {err}") from None
        if arr.shape != (self.batch,) or arr.dtype.kind not in "iu":
            raise InvalidOptionError(
                f"actions must be an integer array of shape ({self.batch},), got {arr.dtype} {arr.shape}"
            )
        if arr.dtype != np.int32:
            arr = arr.copy()  # checked and converted as one snapshot
            bad = np.flatnonzero((arr < 0) | (arr >= self.num_actions))
            if bad.size:
                row = int(bad[0])
                raise IllegalActionError(f"row {row}: action {arr[row]} is not legal (nothing was played)")
            arr = arr.astype(np.int32)
        # the core copies the int32 array before checking it: changing it meanwhile cannot slip an id in
        if self._pool is None:
            self._core.step(np.ascontiguousarray(arr))
            self._hand_points = None
            win_loss = self._rewards
        else:
            self._core.step(np.ascontiguousarray(arr))  # every row's learner is to move: all play
            for own in (self._own_terminated, self._own_points, self._own_rewards):
                own[...] = 0
            self._own_outcome[:] = -1
            self._own_winner[:] = -1
            self._moved[:] = True
            self._absorb()
            self._play_pool()
            self._hand_points = None
            win_loss = self._own_rewards
        rewards: npt.NDArray[np.float32]
        if self.reward == "points":
            points = self.hand_points
            rewards = np.zeros_like(points)
            for done in np.flatnonzero(self.hand_outcome >= 0):  # the others are 0: no hand ended
                rewards[done] = signed_results(points[done].tolist())
        else:
            rewards = win_loss.copy()
        if self._deadwood is not None and self._potential is not None:
            after = self._deadwood.astype(np.float32) / np.float32(-self.shaping_scale)
            ended = self.terminated[:, None]
            shaped = np.where(ended, np.float32(0), np.float32(self.shaping_gamma) * after) - self._potential
            rewards = rewards + shaped.astype(np.float32)
            self._potential = after
        return rewards

    def state(self, i: int) -> GameState:
        """A scalar state equal to row ``i`` now: its deal replayed through
        the scalar engine (a new object: changing it leaves the row alone)."""
        i = _int_arg("row", i, 0, self.batch - 1)
        deck, dealer, shuffle_seed, log, _ = self._core.row(i)
        state: GameState = self.game.family_record.state(self.game, deck, dealer, shuffle_seed)
        for action in log:
            state.apply_action(action)
        return state

    def hands_played(self, i: int) -> int:
        """How many hands row ``i`` has finished."""
        return int(self._core.row(_int_arg("row", i, 0, self.batch - 1))[4])
