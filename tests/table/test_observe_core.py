"""The table games' observation read off the step log (TableCore._steps,
src/rummykit/_table_observe.pxi) and its tensor filled in Cython, in
lockstep with the Python oracle of tests/reference/table_observe.py, which
walks the whole history for every answer: at every step of random hands
(Rummy 2-6 players, Kaluki 2-5, Kalooki 51, many options, restocks of both
kinds, the end of the hand), for every seat, the tensors are identical, and
so are the observations, the information-state strings and the
determinization's bookkeeping (every few steps: the oracle is slow).  Undo,
clone, pickling and fields set by hand keep the log in step.  A short run
by default; RUMMYKIT_LONG=1 plays many more hands."""

from __future__ import annotations

import pickle
import random
from typing import Any

import numpy as np
import pytest
from reference import table_observe as ref

import rummykit as rk
from rummykit import _core
from rummykit.errors import InvalidOptionError, RummykitError
from rummykit.table import observe
from rummykit.table.actions import DRAW, LAYOFF, TAKE
from rummykit.table.cards import card_type
from rummykit.table.playouts import hidden_lists
from rummykit.table.state import TableState

VARIANTS: list[tuple[str, dict[str, Any]]] = [
    ("rummy", {}),
    ("rummy", {"num_players": 3, "restock_method": "turn_over"}),
    ("rummy", {"num_players": 4}),
    ("rummy", {"num_players": 5, "max_restocks": 1}),
    ("rummy", {"num_players": 6}),
    ("rummy", {"taken_discard_must_be_melded": True, "ace_rank": "high_or_low"}),
    ("rummy", {"num_players": 3, "allow_wraparound": True, "forbid_discarding_taken_card": False}),
    ("rummy", {"num_players": 4, "restock_method": "block"}),
    ("kaluki", {}),
    ("kaluki", {"num_players": 3, "two_joker_set_release": "one_natural", "unopened_may_release_joker": True}),
    ("kaluki", {"num_players": 4, "ace_low_runs": True, "max_build_per_run_end": -1}),
    ("kaluki", {"num_players": 5, "kaluki_jokers": 4, "joker_discard_allowed": False}),
    ("kalooki_51", {"num_players": 3}),
    ("kaluki", {"unopened_discard_draw": "forbidden", "first_turn_upcard_free": True}),
    ("kaluki", {"num_players": 3, "unopened_discard_draw": "forbidden"}),
]
IDS = [f"{name}-{i}" for i, (name, _) in enumerate(VARIANTS)]


def hurry(state: TableState, rng: random.Random) -> int:
    """A random legal action, most often a meld or a lay-off when there is one
    (the table fills, jokers are released, hands end sooner)."""
    legal = state.legal_actions()
    plays = [a for a in legal if a >= LAYOFF]
    if plays and rng.random() < 0.8:
        return rng.choice(plays)
    takes = [a for a in legal if a == TAKE]
    return rng.choice(takes if takes and rng.random() < 0.3 else legal)


def same_view(state: TableState, player: int, *, deep: bool) -> None:
    """The library and the oracle agree on what ``player`` sees of ``state``."""
    got = observe.observation_tensor(state, player)
    want = ref.observation_tensor(state, player)
    assert got.dtype == want.dtype == np.float32 and got.shape == want.shape
    differ = {name for name, a, b in observe.OBSERVATION_LAYOUT for i in np.flatnonzero(got != want) if a <= i < b}
    assert not differ, f"seat {player}, step {len(state.history)}: {sorted(differ)} differ"
    if deep:
        assert observe.observation(state, player) == ref.observation(state, player)
        assert observe.information_state_string(state, player) == ref.information_state_string(state, player)
        if not state.is_terminal() or player == 0:
            assert hidden_lists(state, player) == ref.hidden_lists(state, player)


def play_lockstep(game: Any, seed: int, deep_every: int) -> dict[str, int]:
    """One random hand, checked at every step for every seat; undo, clone and
        pickle at a few steps (the library's views of every seat are recorded at
    every step, to check undo against).  Returns what the hand went through."""
    rng = random.Random(seed)
    state = game.new_hand(seed=seed)
    tensors: list[list[np.ndarray]] = []
    seen = {"steps": 0, "restocks": 0, "ends": 0, "takes": 0, "unseen plays": 0}
    checks = set(rng.sample(range(1, 400), 6))
    while True:
        k = len(state.history)
        # one seat a step (the oracle walks the history for every answer), every seat at the end
        seats = range(state.n) if state.is_terminal() else [k % state.n]
        for p in seats:
            same_view(state, p, deep=k % deep_every == 0 or state.is_terminal())
        tensors.append([observe.observation_tensor(state, p) for p in range(state.n)])
        assert len(state._steps) == len(state.history) == k
        if k in checks or state.is_terminal():
            check_copies(state, tensors, rng)
        if state.is_terminal():
            break
        state.apply_action(hurry(state, rng))
    seen["steps"] = len(state.history)
    seen["restocks"] = state.restocks
    seen["ends"] = 1
    seen["takes"] = state.history.count(TAKE)
    seen["unseen plays"] = sum(any(b & 0x80 for b in step[8 + 53 * state.n :][: step[3]]) for step in state._steps)
    return seen


def check_copies(state: TableState, tensors: list[list[np.ndarray]], rng: random.Random) -> None:
    """A clone and an unpickled copy log the same steps and see the same; undo
    goes back to the views recorded on the way (and apply comes forward again)."""
    copy = pickle.loads(pickle.dumps(state))
    assert copy._steps == state._steps
    clone = state.clone()
    assert clone._steps == state._steps and clone._steps is not state._steps
    p = rng.randrange(state.n)
    assert np.array_equal(observe.observation_tensor(copy, p), tensors[-1][p])
    back = min(len(state.history), rng.randint(1, 12))
    redo = state.history[len(state.history) - back :]
    for i in range(back):
        clone.undo()
        for q in range(state.n):
            assert np.array_equal(observe.observation_tensor(clone, q), tensors[-2 - i][q])
    assert clone._steps == state._steps[: len(clone.history)]
    same_view(clone, p, deep=True)
    for action in redo:
        clone.apply_action(action)
    assert clone._steps == state._steps


def check_variant(name: str, options: dict[str, Any], hands: int, seed: int, deep_every: int) -> dict[str, int]:
    game = rk.Game(name, **options)
    total: dict[str, int] = {}
    for i in range(hands):
        for key, value in play_lockstep(game, seed * 1000 + i, deep_every).items():
            total[key] = total.get(key, 0) + value
    return total


@pytest.mark.parametrize(("name", "options"), VARIANTS, ids=IDS)
def test_lockstep_with_the_history_walk(name: str, options: dict[str, Any]) -> None:
    seen = check_variant(name, options, 1, seed=1, deep_every=7)
    assert seen["ends"] == 1 and seen["steps"] > 10


@pytest.mark.long
@pytest.mark.parametrize(("name", "options"), VARIANTS, ids=IDS)
def test_long_lockstep_with_the_history_walk(name: str, options: dict[str, Any]) -> None:
    seen = check_variant(name, options, 12, seed=2, deep_every=2)
    assert seen["takes"] and seen["unseen plays"]
    if options.get("restock_method") != "block" and name != "kalooki_51":
        assert seen["restocks"]


def seed_with(game: Any, want: Any, first: int = 0) -> int:
    """The first hand seed from ``first`` on whose random hand (as play_lockstep plays it) ends with ``want``."""
    for seed in range(first, first + 200):
        rng = random.Random(seed)
        state = game.new_hand(seed=seed)
        while not state.is_terminal():
            state.apply_action(hurry(state, rng))
        if want(state):
            return seed
    raise AssertionError("no such hand")


@pytest.mark.parametrize("method", ["reshuffle_keep_top", "turn_over"])
def test_restocks_in_lockstep(method: str) -> None:
    """A hand with a restock of each kind (the short runs above may have none)."""
    game = rk.Game("rummy", num_players=4, restock_method=method)
    seed = seed_with(game, lambda s: s.restocks >= 1 and len(s.history) < 200)
    seen = play_lockstep(game, seed, deep_every=10)
    assert seen["restocks"] and seen["takes"] and seen["unseen plays"]


# --- the log itself -----------------------------------------------------------------


def find(game: Any, want: Any, seed: int = 3, tries: int = 100) -> TableState:
    """The first node of random hands where ``want(state)`` holds."""
    for i in range(tries):
        rng = random.Random(seed * 1000 + i)
        state = game.new_hand(seed=seed * 1000 + i)
        while not state.is_terminal():
            if want(state):
                return state
            state.apply_action(hurry(state, rng))
    raise AssertionError("no such state")


def test_entries_say_who_did_what() -> None:
    """The bytes of an entry: the seat, a take's card for everyone, a draw's only in the log
    (the string shows it to the drawer), the known counts per seat."""
    state = find(
        rk.Game("rummy", num_players=3), lambda s: len(s.history) > 6 and s.history[-1] == TAKE and DRAW in s.history
    )
    step = state._steps[-1]
    seat, came = step[0], step[2]
    before = state.clone()
    before.undo()
    assert seat == before.player and came == card_type(state.taken_card) == state.taken
    counts = _core.table_known_counts(state)
    assert counts[seat][came] >= 1 and len(counts) == 3 and all(len(c) == 53 for c in counts)
    assert step[8 + 53 * seat + came] == counts[seat][came]
    draw = next(i for i, a in enumerate(state.history) if a == DRAW)
    drawer = state._steps[draw][0]
    lines = [observe.information_state_string(state, p).splitlines()[2 + draw] for p in range(3)]
    assert all(line.startswith(f"{drawer}: draw") for line in lines)
    assert [len(line.split()) for line in lines] == [3 if p == drawer else 2 for p in range(3)]


def test_fields_set_by_hand_are_read_as_the_last_step() -> None:
    """Setting a field changes what the last action did as the log reads it, as
    the history walk (the undo entry against the state) reads it."""
    state = find(rk.Game("rummy", num_players=3), lambda s: len(s.history) > 6 and s.history[-1] == TAKE)
    seat = state._steps[-1][0]
    taken = state.taken_card
    other = next(c for c in state.stock)
    state = state.with_fields(discards=(*state.discards, other))
    state = state.with_fields(stock=tuple(c for c in state.stock if c != other))
    state = state.with_fields(hands=tuple(h for h in state.hands))  # unchanged: a set marks the log all the same
    assert state._steps[-1] is None
    for p in range(3):
        same_view(state, p, deep=True)
    assert state._steps[-1] is not None and state._steps[-1][2] == card_type(taken)
    # the taken card swapped for another one in the hand: the log says the other was taken
    hand = state.hands[seat]
    swap = next(c for c in state.stock if not hand >> c & 1)
    state = state.with_fields(stock=tuple(taken if c == swap else c for c in state.stock))
    state = state.with_fields(
        hands=tuple((h & ~(1 << taken)) | 1 << swap if q == seat else h for q, h in enumerate(state.hands))
    )
    state = state.with_fields(known=tuple(0 if q == seat else k for q, k in enumerate(state.known)))
    state = state.with_fields(taken=card_type(swap), taken_card=swap)
    for p in range(3):
        same_view(state, p, deep=True)
    assert _core.table_known_counts(state)[seat][card_type(swap)] >= 1
    state.apply_action(state.legal_actions()[0])  # the next entry follows the edited state
    for p in range(3):
        same_view(state, p, deep=True)


def test_an_inconsistent_state_raises_before_it_is_read() -> None:
    state = rk.Game("kaluki").new_hand(seed=2)
    state.play("draw")
    state = state.with_fields(hands=(state.hands[0], state.hands[1] | state.hands[0]))  # a card in two hands
    out = np.zeros(observe.OBSERVATION_TENSOR_SIZE, dtype=np.float32)
    for read in (
        lambda: observe.observation_tensor(state, 0),
        lambda: observe.observation(state, 0),
        lambda: observe.information_state_string(state, 0),
        lambda: observe.determinize(state, 0, 1),
        lambda: _core.table_observation_tensor(state, 0, out),
    ):
        with pytest.raises(RummykitError, match="inconsistent"):
            read()
    assert not out.any()


def test_bad_arguments_to_the_tensor() -> None:
    state = rk.Game("rummy").new_hand(seed=2)
    for bad in (np.zeros(10, dtype=np.float32), np.zeros(observe.OBSERVATION_TENSOR_SIZE, dtype=np.float64)):
        with pytest.raises(RummykitError, match="float32"):
            _core.table_observation_tensor(state, 0, bad)
    with pytest.raises((TypeError, ValueError, BufferError)):
        strided = np.zeros((2, observe.OBSERVATION_TENSOR_SIZE), dtype=np.float32)[:, 0]  # not contiguous
        _core.table_observation_tensor(state, 0, strided)
    out = np.ones(observe.OBSERVATION_TENSOR_SIZE, dtype=np.float32)
    assert _core.table_observation_tensor(state, 1, out) is out
    assert np.array_equal(out, ref.observation_tensor(state, 1))
    with pytest.raises(InvalidOptionError, match="player"):
        _core.table_observation_tensor(state, 2, np.zeros(observe.OBSERVATION_TENSOR_SIZE, dtype=np.float32))
    for bad in (np.int64(1), np.int32(0)):
        assert np.array_equal(observe.observation_tensor(state, bad), observe.observation_tensor(state, int(bad)))


def test_a_pickle_without_matching_history_is_refused() -> None:
    state = rk.Game("rummy").new_hand(seed=2)
    state.play("draw")
    cls, (kind, game, deck, dealer, raw, stack, history) = state.__reduce__()
    with pytest.raises(RummykitError, match="history"):
        cls(kind, game, deck, dealer, raw, stack, history + [DRAW])
    copy = cls(kind, game, deck, dealer, raw, stack, history)
    assert copy._steps == state._steps


def test_determinize_replays_the_sampled_world() -> None:
    """The determinized state's own log is that of its replay: its views are
    those of the real state for the observer at every step back to the deal."""
    state = find(rk.Game("kaluki", num_players=3), lambda s: len(s.history) > 40 and s.phase_name == "play")
    for p in range(3):
        det = state.determinize(p, p)
        assert len(det._steps) == len(det.history) == len(state.history)
        real = state.clone()
        while True:
            assert np.array_equal(det.observation_tensor(p), real.observation_tensor(p))
            if not det.history:
                break
            det.undo()
            real.undo()
