"""rummykit.vector.VectorGame against the scalar states: every row stepped in
lockstep with a KnockState / TableState of the same deal (masks, players,
observations, rewards, ends and restarts), illegal actions, threads and bad
arguments.  RUMMYKIT_LONG=1 plays longer runs."""

from __future__ import annotations

import doctest
import threading
from typing import Any

import numpy as np
import pytest
from long_runs import LONG

from rummykit.agents import GreedyAgent
from rummykit.envs._common import hand_rewards
from rummykit.errors import IllegalActionError, InvalidOptionError, RummykitError
from rummykit.knock.observe import observation_tensor as knock_tensor
from rummykit.table.observe import observation_tensor as table_tensor
from rummykit.vector import VectorGame

SCALE = 10 if LONG else 1

#: (game, options, rows, steps): enough steps for some hands to end (random play is slow to end
#: them: Oklahoma Rummy restocks forever, Rummy takes about 600 actions, Kaluki 350; max_turns caps some)
GAMES: list[tuple[str, dict[str, Any], int, int]] = [
    ("gin", {}, 6, 250),
    ("gin", {"auto_showdown": False}, 4, 250),
    ("oklahoma-gin", {}, 4, 250),
    ("oklahoma-rummy", {"max_turns": 50}, 3, 300),
    ("oklahoma-rummy", {"num_players": 3, "max_turns": 40}, 3, 300),
    ("oklahoma-rummy", {"num_players": 4, "max_turns": 40}, 2, 300),
    ("rummy", {}, 2, 800),
    ("rummy", {"action_space": "dense", "max_turns": 60}, 2, 300),
    ("rummy", {"num_players": 3, "max_turns": 60}, 3, 300),
    ("rummy", {"num_players": 6, "max_turns": 40}, 2, 300),
    ("kaluki", {}, 2, 500),
    ("kaluki", {"action_space": "dense", "max_turns": 60}, 2, 300),
    ("kaluki", {"num_players": 3, "max_turns": 60}, 2, 300),
]


def random_actions(vg: VectorGame, rng: np.random.Generator, knock_first: bool = False) -> np.ndarray:
    """One legal action per row, uniformly among the row's mask; with ``knock_first``, a knock or
    big gin (knock-game ids 52..103 and 107) mostly when there is one, so that hands end sooner."""
    out = []
    for row in vg.legal_mask:
        legal = np.flatnonzero(row)
        knocks = legal[((legal >= 52) & (legal < 104)) | (legal == 107)]
        out.append(rng.choice(knocks if knock_first and knocks.size and rng.random() < 0.7 else legal))
    return np.array(out)


def tensor(state: Any, player: int) -> np.ndarray:
    return knock_tensor(state, player) if state.game.family == "knock" else table_tensor(state, player)


def check_row(vg: VectorGame, i: int, state: Any) -> None:
    """Row i's arrays are those of the scalar state."""
    legal = state.legal_actions()
    assert vg.num_legal[i] == len(legal)
    assert np.flatnonzero(vg.legal_mask[i]).tolist() == vg.index.legal(state)  # fixed ids: exactly the moves'
    if vg.action_space == "dense" or vg.game.family == "knock":
        assert vg.index.legal(state) == (list(range(len(legal))) if vg.action_space == "dense" else legal)
    assert vg.current_player[i] == state.current_player
    assert np.array_equal(vg.observation[i], tensor(state, state.current_player))


@pytest.mark.parametrize(("name", "options", "batch", "steps"), GAMES)
def test_rows_step_in_lockstep_with_scalar_states(name: str, options: dict[str, Any], batch: int, steps: int) -> None:
    vg = VectorGame(name, batch=batch, seed=5, **options)
    assert vg.num_players == vg.game.num_players
    assert vg.legal_mask.shape == (batch, vg.num_actions) and vg.legal_mask.dtype == np.bool_
    assert vg.observation.shape == (batch, vg.obs_dim) and vg.observation.dtype == np.float32
    states = [vg.state(i) for i in range(batch)]
    for i, state in enumerate(states):
        assert state.history == [] and state.dealer == vg._core.row(i)[1]
        check_row(vg, i, state)
    rng = np.random.default_rng(7)
    ended = 0
    for step in range(steps * SCALE):
        actions = random_actions(vg, rng, knock_first=step % 2 == 0)
        rewards = vg.step(actions)
        assert rewards.shape == (batch, vg.num_players) and rewards.dtype == np.float32
        for i in range(batch):
            state = states[i]
            state.apply_action(vg.index.decode(state, actions[i]))
            assert bool(vg.terminated[i]) == state.is_terminal()
            if state.is_terminal():
                ended += 1
                assert rewards[i].tolist() == hand_rewards(state, "win_loss")
                hands = vg.hands_played(i)
                states[i] = vg.state(i)  # the row's next deal
                assert states[i].history == [] and states[i].deck != state.deck and hands >= 1
            else:
                assert not rewards[i].any()
            check_row(vg, i, states[i])
        if step % 97 == 0:  # the replayed state agrees with the lockstep one
            i = step % batch
            again = vg.state(i)
            assert again.history == states[i].history and again.hands == states[i].hands
    assert ended > 0


@pytest.mark.parametrize("name", ["gin", "oklahoma-rummy", "rummy", "kaluki"])
def test_sample_actions_draws_each_rows_legal_actions_uniformly(name: str) -> None:
    vg = VectorGame(name, batch=8, seed=3)
    rng = np.random.default_rng(11)
    for _ in range(30):  # into the hands, where rows have many legal actions (melds, lay-offs)
        vg.step(vg.sample_actions(rng))
    draws = np.array([vg.sample_actions(rng) for _ in range(3000)])  # (3000, batch)
    assert draws.dtype == np.int32
    for i in range(vg.batch):
        legal = np.flatnonzero(vg.legal_mask[i])
        assert np.isin(draws[:, i], legal).all()
        n = legal.size
        if n > 1:  # chi-square against uniform: mean n - 1, sd sqrt(2 (n - 1)); 6 sd is far in the tail
            counts = np.array([(draws[:, i] == a).sum() for a in legal])
            expected = draws.shape[0] / n
            stat = float(((counts - expected) ** 2 / expected).sum())
            assert stat < (n - 1) + 6 * np.sqrt(2 * (n - 1)), (i, n, stat)


def test_sample_actions_refuses_what_is_not_a_generator_and_changes_nothing() -> None:
    vg = VectorGame("gin", batch=3, seed=2)
    before = (vg.num_legal.copy(), vg.legal_mask.copy(), vg.observation.copy())
    for bad in (None, 7, np.random.RandomState(0)):
        with pytest.raises(InvalidOptionError, match="numpy.random.Generator"):
            vg.sample_actions(bad)  # type: ignore[arg-type]
    assert not vg.num_legal.flags.writeable
    after = (vg.num_legal, vg.legal_mask, vg.observation)
    assert all(np.array_equal(a, b) for a, b in zip(before, after))


def test_the_core_refuses_what_is_not_a_games_rules() -> None:
    from rummykit import _core

    with pytest.raises(RummykitError, match="knock or table game's rules"):
        _core.VectorCore(object(), 2, 1)  # type: ignore[arg-type]


def test_the_same_seed_and_actions_give_the_same_arrays_for_any_threads() -> None:
    for name in ("gin", "rummy"):
        one, four = VectorGame(name, batch=37, seed=9), VectorGame(name, batch=37, seed=9, threads=4)
        other = VectorGame(name, batch=37, seed=10)
        assert not np.array_equal(one.observation, other.observation)
        rng = np.random.default_rng(1)
        for _ in range(60):
            actions = random_actions(one, rng)
            assert np.array_equal(one.step(actions), four.step(actions))
            for a, b in ((one.legal_mask, four.legal_mask), (one.observation, four.observation)):
                assert np.array_equal(a, b)
            assert np.array_equal(one.current_player, four.current_player)
            assert np.array_equal(one.terminated, four.terminated)
        one.reset()
        assert np.array_equal(one.observation, VectorGame(name, batch=37, seed=9).observation)


def test_rows_have_their_own_deals() -> None:
    vg = VectorGame("gin", batch=8, seed=3)
    decks = {tuple(vg.state(i).deck) for i in range(8)}
    assert len(decks) == 8
    # a row does not depend on the batch size around it
    small = VectorGame("gin", batch=3, seed=3)
    assert np.array_equal(small.observation, vg.observation[:3])


@pytest.mark.parametrize("name", ["gin", "kaluki"])
def test_an_illegal_action_raises_naming_the_row_and_changes_nothing(name: str) -> None:
    vg = VectorGame(name, batch=5, seed=2)
    rng = np.random.default_rng(0)
    vg.step(random_actions(vg, rng))
    before = [a.copy() for a in (vg.legal_mask, vg.observation, vg.current_player, vg.terminated)]
    histories = [vg.state(i).history for i in range(5)]
    actions = random_actions(vg, rng)
    illegal = int(np.flatnonzero(~vg.legal_mask[3])[0])
    actions[3] = illegal
    with pytest.raises(IllegalActionError, match=f"row 3: action {illegal} "):
        vg.step(actions)
    actions[3] = -1
    with pytest.raises(IllegalActionError, match="row 3: action -1 "):
        vg.step(actions)
    actions[3] = 2**40
    with pytest.raises(IllegalActionError, match="row 3"):
        vg.step(actions)
    after = (vg.legal_mask, vg.observation, vg.current_player, vg.terminated)
    assert all(np.array_equal(a, b) for a, b in zip(before, after))
    assert [vg.state(i).history for i in range(5)] == histories


def test_bad_arguments_raise_clear_errors() -> None:
    with pytest.raises(InvalidOptionError, match="batch"):
        VectorGame("gin", batch=0)
    with pytest.raises(InvalidOptionError, match="batch"):
        VectorGame("gin", batch=2.5)  # type: ignore[arg-type]
    with pytest.raises(InvalidOptionError, match="threads"):
        VectorGame("gin", batch=2, threads=0)
    with pytest.raises(InvalidOptionError, match="seed"):
        VectorGame("gin", batch=2, seed=-1)
    with pytest.raises(InvalidOptionError):
        VectorGame("no-such-game", batch=2)
    with pytest.raises(InvalidOptionError):
        VectorGame("gin", batch=2, no_such_option=1)
    vg = VectorGame("gin", batch=2, seed=1)
    with pytest.raises(InvalidOptionError, match="shape"):
        vg.step(np.zeros(3, dtype=np.int64))
    with pytest.raises(InvalidOptionError, match="integer"):
        vg.step(np.zeros(2, dtype=np.float64))
    with pytest.raises(InvalidOptionError, match="row"):
        vg.state(2)
    with pytest.raises(ValueError, match="read-only"):
        vg.legal_mask[0, 0] = True
    assert repr(vg) == "VectorGame('gin', batch=2, seed=1, threads=1)"


def greedy_replay_ok(state: Any, learner: int) -> bool:
    """Every move of ``state``'s history by a seat other than ``learner`` is the greedy policy's."""
    greedy = GreedyAgent()
    start = state.clone()
    while start.history:
        start.undo()
    for action in state.history:
        if start.current_player != learner and greedy(start) != action:
            return False
        start.apply_action(action)
    return True


@pytest.mark.parametrize(
    ("name", "options"),
    [("gin", {}), ("oklahoma-rummy", {"max_turns": 40}), ("rummy", {"num_players": 3}), ("kaluki", {})],
)
def test_greedy_opponents_answer_each_learner_move(name: str, options: dict[str, Any]) -> None:
    vg = VectorGame(name, batch=3, seed=4, **options)
    vg.set_opponents("greedy")
    greedy = GreedyAgent()
    states = [vg.state(i) for i in range(3)]
    learners = vg.current_player.tolist()
    assert len({tuple(vg.state(i).deck) for i in range(3)}) == 3
    rng = np.random.default_rng(3)
    ended = 0
    for _ in range(120 * SCALE):
        actions = random_actions(vg, rng, knock_first=True)
        rewards = vg.step(actions)
        for i in range(3):
            state, learner = states[i], learners[i]
            assert state.current_player == learner and greedy_replay_ok(state, learner)
            state.apply_action(vg.index.decode(state, actions[i]))
            while not state.is_terminal() and state.current_player != learner:
                state.apply_action(greedy(state))
            assert bool(vg.terminated[i]) == state.is_terminal()
            if state.is_terminal():
                ended += 1
                assert rewards[i].tolist() == hand_rewards(state, "win_loss")
                states[i], learners[i] = vg.state(i), int(vg.current_player[i])
            check_row(vg, i, states[i])
            assert vg.current_player[i] == learners[i]
    assert ended > 0
    vg.set_opponents(None)
    assert all(vg.state(i).history == [] for i in range(3))
    with pytest.raises(InvalidOptionError, match="policy"):
        vg.set_opponents("best")


def test_module_docstring_examples() -> None:
    import rummykit.vector

    failures, tried = doctest.testmod(rummykit.vector, optionflags=doctest.ELLIPSIS)
    assert tried > 0 and failures == 0


def test_a_second_thread_cannot_step_while_one_steps() -> None:
    vg = VectorGame("kaluki", batch=256, seed=1, threads=1, action_space="dense")
    errors: list[Exception] = []
    actions = np.zeros(256, dtype=np.int64)  # the first legal action of every row (the dense index)

    def run() -> None:
        for _ in range(30):
            try:
                vg.step(actions)
            except RummykitError as e:
                if "another thread" not in str(e):
                    raise
                errors.append(e)

    threads = [threading.Thread(target=run) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    # each step either ran or was refused whole: the rows stay the scalar engine's hands
    for i in range(0, 256, 51):
        check_row(vg, i, vg.state(i))
