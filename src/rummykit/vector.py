"""Batched play for reinforcement learning: ``batch`` independent hands of one
game stepped by one C call (csrc/include/rummykit/vector.h).

>>> import numpy as np
>>> from rummykit.vector import VectorGame
>>> vg = VectorGame("gin", batch=4, seed=1)
>>> vg.legal_mask.shape, vg.observation.shape, vg.current_player.shape
((4, 686), (4, 917), (4,))
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
player to move).  Knock games (Gin, Oklahoma Gin, Oklahoma Rummy) use the
engine's action ids (686); table games (Rummy, Kaluki) the dense per-state
index of :mod:`rummykit.envs`: action ``k`` of a row is the ``k``-th of its
sorted ``legal_actions()``, out of 4096 slots.

A step copies the actions, then checks every row's action: an illegal one
raises :class:`~rummykit.errors.IllegalActionError` naming the row, and nothing
changes.  Then every row plays (in C, without the GIL, on ``threads``
threads), and a hand that ends is scored ``win_loss`` (+1 to the winner, -1
to the others, 0 to all in a hand without a winner: the default reward of
the :mod:`rummykit.envs` adapters) and restarts at once from the row's next
deal: the step's ``rewards`` and ``terminated`` are the ended hand's, the
arrays show the new hand.  Row ``i``'s deals come from its own stream of the
seed, so the same seed and actions give the same arrays for any ``threads``.
"""

from __future__ import annotations

import numbers
from typing import Any

import numpy as np
import numpy.typing as npt

from rummykit import _core
from rummykit.engine.protocol import GameState
from rummykit.errors import IllegalActionError, InvalidOptionError, clip
from rummykit.games import Game

__all__ = ["VectorGame"]

_POLICIES: dict[str | None, int] = {None: -1, "random": _core.POLICY_RANDOM, "greedy": _core.POLICY_GREEDY}

#: The most threads one vector game steps on.
MAX_THREADS: int = _core.VECTOR_MAX_THREADS


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

    def __init__(self, name: str, batch: int, seed: int | None = None, threads: int = 1, **options: Any) -> None:
        self.game = Game(name, **options)
        self.batch = _int_arg("batch", batch, 1, 1 << 24)
        self.threads = _int_arg("threads", threads, 1, MAX_THREADS)
        if seed is None:
            seed = int(np.random.SeedSequence().generate_state(1, np.uint64)[0])
        self.seed = _int_arg("seed", seed, 0, (1 << 64) - 1)
        #: the players of each hand, the action slots and the observation length
        self.num_players: int = self.game.num_players
        self.num_actions: int = self.game.num_distinct_actions
        self.obs_dim: int = self.game.observation_tensor_size
        self._core = _core.VectorCore(self.game.spec, self.batch, self.threads)  # type: ignore[attr-defined]
        views = {name: np.asarray(buffer) for name, buffer in self._core.buffers().items()}
        self._rewards = views["rewards"]
        # engine ids (knock games): each row's legal ids in increasing order (C writes them), for sample_actions
        self._legal_ids: npt.NDArray[np.int32] | None = views.get("legal_ids")
        self._rows = np.arange(self.batch)
        self._core.reset(self.seed)
        self.legal_mask: npt.NDArray[np.bool_] = views["legal_mask"]
        self.observation: npt.NDArray[np.float32] = views["observation"]
        self.current_player: npt.NDArray[np.int32] = views["current_player"]
        self.terminated: npt.NDArray[np.bool_] = views["terminated"]
        self.num_legal: npt.NDArray[np.int32] = views["num_legal"]

    def __repr__(self) -> str:
        return f"VectorGame({self.game.rules.name!r}, batch={self.batch}, seed={self.seed}, threads={self.threads})"

    def reset(self, seed: int | None = None) -> None:
        """Deal every row its first hand again, from ``seed`` (an int 0..2**64-1; None: the
        seed of the last reset or of the construction)."""
        if seed is not None:
            self.seed = _int_arg("seed", seed, 0, (1 << 64) - 1)
        self._core.reset(self.seed)

    def set_opponents(self, policy: str | None) -> None:
        """Let ``policy`` (``"random"`` or ``"greedy"``, the policies of
        :class:`rummykit.agents.RandomAgent` and :class:`~rummykit.agents.GreedyAgent`,
        played in C) play every seat but one per row, the learner's, drawn per
        deal from the row's stream; None: every seat is the caller's again.
        Deals every row again from its first deal.  Then ``current_player``
        is each row's learner seat, a step plays the learner's action and the
        opponents' replies up to its next move (its rewards and
        ``terminated`` cover them), and a hand that ends before the learner's
        first move is dealt again."""
        if not (policy is None or isinstance(policy, str)) or policy not in _POLICIES:
            raise InvalidOptionError(f"policy must be 'random', 'greedy' or None, got {clip(policy)}")
        self._core.set_opponents(_POLICIES[policy])
        self._core.reset(self.seed)

    def sample_actions(self, rng: np.random.Generator) -> npt.NDArray[np.int32]:
        """One uniformly random legal action per row, (batch,) int32, drawn from
        ``rng`` (one ``rng.random(batch)`` call) in numpy without scanning the
        mask: for random opponents, exploration and benchmarks."""
        if not isinstance(rng, np.random.Generator):
            raise InvalidOptionError(f"rng must be a numpy.random.Generator, got {clip(rng)}")
        self._core.check_idle()
        k = (rng.random(self.batch) * self.num_legal).astype(np.int32)  # floor: 0 .. num_legal - 1
        if self._legal_ids is None:
            return k  # table games: action k is the k-th legal action
        return self._legal_ids[self._rows, k]

    def step(self, actions: npt.ArrayLike) -> npt.NDArray[np.float32]:
        """Play ``actions[i]`` (an integer array of shape (batch,), read-only
        or not) in row ``i``; returns the step's rewards, (batch, num_players)
        float32 (a new array)."""
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
        self._core.step(np.ascontiguousarray(arr))
        return self._rewards.copy()

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
