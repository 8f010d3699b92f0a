"""The table games' C greedy policy and playouts.

* The C greedy policy (``rk_table_greedy``, which :class:`GreedyAgent` plays)
  against the Python oracle ``tests/reference/table_greedy.py`` at every step
  of many hands, both games, several player counts and options; the hands are
  driven partly at random so that the policy meets varied positions, and the
  test counts that every branch of the policy was taken.
* ``rk.playouts`` on table states: a playout of the state as it is
  (``resample="none"``) ends where the Python engine driven by the oracle
  ends, with the same returns and outcome; the same seed gives the same
  arrays for any number of threads; bad input raises.
* ISMCTS rolls out table games with the C playouts.

The C determinization is checked in tests/table/test_playouts_determinize.py.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import numpy as np
import pytest
from long_runs import LONG
from reference.table_greedy import table_greedy as oracle
from table_helpers import position

import rummykit as rk
from rummykit import _core
from rummykit.agents import GreedyAgent, ISMCTSAgent
from rummykit.agents import ismcts as ismcts_module
from rummykit.errors import InvalidOptionError, RummykitError
from rummykit.playouts import BLOCKED, CALL_OFF, DEAD, HUNT, OUT, OUTCOMES, RUMMY
from rummykit.table.actions import DRAW, LAYOFF, MELD_SET, RELEASE_RUN, TAKE, TableAction
from rummykit.table.cards import JOKER
from rummykit.table.state import TableState

VARIANTS: list[tuple[str, dict[str, Any]]] = [
    ("rummy", {}),
    ("rummy", {"num_players": 3, "restock_method": "turn_over"}),
    ("rummy", {"num_players": 4}),
    ("rummy", {"num_players": 5, "restock_method": "block"}),
    ("rummy", {"num_players": 6}),
    ("rummy", {"taken_discard_must_be_melded": True, "ace_rank": "high_or_low"}),
    ("rummy", {"allow_wraparound": True, "max_melds_per_turn": 1, "no_go_out_first_turn": True}),
    ("rummy", {"rummy_scoring": "penalty", "rummy_bonus": "flat_25", "forbid_discarding_taken_card": False}),
    ("kaluki", {}),
    ("kaluki", {"num_players": 3, "ace_low_runs": True, "building_counts_toward_opening": True}),
    ("kaluki", {"num_players": 4, "unopened_discard_draw": "free", "first_turn_upcard_free": True}),
    ("kaluki", {"num_players": 5}),
    ("kalooki_51", {"num_players": 3}),
    (
        "kaluki",
        {
            "two_joker_set_release": "one_natural",
            "unopened_may_release_joker": True,
            "joker_discard_allowed": False,
            "hunt_requires_opening_min": False,
            "max_build_per_run_end": -1,
            "kaluki_bonus_accounting": "subtract_from_penalty",
            "hunt_penalty_mode": "plus_25",
        },
    ),
]
IDS = [f"{name}-{i}" for i, (name, _) in enumerate(VARIANTS)]
INDEXED = [(i, name, options) for i, (name, options) in enumerate(VARIANTS)]
HANDS = 100 if LONG else 8


def drive(state: TableState, rng: random.Random) -> int:
    """The action that moves the hand on: greedy most of the time, else a random
    legal action, often a play (so that releases and odd positions come up)."""
    legal = state.legal_actions()
    if rng.random() < 0.6:
        return GreedyAgent()(state)
    plays = [a for a in legal if a >= LAYOFF]
    return rng.choice(plays if plays and rng.random() < 0.7 else legal)


def branch(state: TableState, action: int) -> str:
    """Which rule of the policy chose ``action``."""
    if state.phase_name == "draw":
        return {DRAW: "draw", TAKE: "take"}[action]
    if action >= MELD_SET:
        return "meld"
    if LAYOFF <= action < RELEASE_RUN and TableAction(action).card != JOKER:
        return "lay off"
    if action <= JOKER:
        return "discard"
    return "no discard"


@pytest.mark.parametrize(("index", "name", "options"), INDEXED, ids=IDS)
def test_greedy_policy_in_lockstep_with_the_python_oracle(index: int, name: str, options: dict[str, Any]) -> None:
    game = rk.Game(name, **options)
    rng = random.Random(index)
    seen: Counter[str] = Counter()
    for hand in range(HANDS):
        state = game.new_hand(seed=hand, dealer=hand % game.num_players)
        while not state.is_terminal():
            action = GreedyAgent()(state)
            assert action == oracle(state), f"hand {hand}, after {state.history}"
            assert action in state.legal_actions()
            seen[branch(state, action)] += 1
            state.apply_action(drive(state, rng))
    assert seen["draw"] and seen["discard"] and sum(seen.values()) >= 30 * HANDS, seen


def test_every_branch_of_the_policy_is_tested() -> None:
    """The branches the lockstep test reaches, over a few variants (a joker
    to place with nothing else to do is rare in play: built below)."""
    seen: Counter[str] = Counter()
    rng = random.Random(5)
    for name, options in (("rummy", {"num_players": 4}), VARIANTS[-1]):
        game = rk.Game(name, **options)
        for hand in range(8):
            state = game.new_hand(seed=100 + hand)
            while not state.is_terminal():
                action = GreedyAgent()(state)
                assert action == oracle(state)
                seen[branch(state, action)] += 1
                state.apply_action(drive(state, rng))
    assert set(seen) == {"draw", "take", "meld", "lay off", "discard"}, seen


def test_a_released_joker_with_nothing_else_to_do() -> None:
    """A released joker to place, no meld and no natural lay-off: the lowest legal id."""
    game = rk.Game("kaluki")
    state = position(game, ["Jk 2C 9D", "AS 2S 3S KH"], table=(("5H 6H 7H", 1),), player=0, opened=3, played=3)
    state = state.with_fields(pending=1)
    assert [state.action_text(a) for a in state.legal_actions()] == ["lay off Jk on 1 low", "lay off Jk on 1 high"]
    assert GreedyAgent()(state) == oracle(state) == state.legal_actions()[0]
    assert branch(state, GreedyAgent()(state)) == "no discard"


def test_greedy_ties_and_usefulness_by_hand() -> None:
    """Positions built by hand: the biggest meld first, the highest lay-off, a
    useless card discarded before a higher useful one."""
    game = rk.Game("rummy")
    # two melds: the four-card set goes first, though a three-card run has a lower id
    state = position(game, ["7C 7D 7H 7S 2C 3C 4C KD", "AS 2S 3S"], player=0)
    assert GreedyAgent()(state) == oracle(state)
    assert state.action_text(GreedyAgent()(state)) == "meld 7C 7D 7H 7S"
    # a lay-off: the ten (10 points) before the four
    state = position(game, ["TS 4D 9H", "AC 2C 3C"], table=(("JS QS KS", 1), ("5D 6D 7D", 1)), player=0)
    assert state.action_text(GreedyAgent()(state)) == "lay off TS on 1 low"
    assert GreedyAgent()(state) == oracle(state)
    # the discard: KH is useful (with QH), 9C is not: 9C goes though KH is worth more
    state = position(game, ["KH QH 9C 2D", "AC 2C 3C"], player=0)
    assert state.action_text(GreedyAgent()(state)) == "discard 9C"
    assert GreedyAgent()(state) == oracle(state)


def test_greedy_at_the_end_raises() -> None:
    state = rk.Game("rummy").new_hand(seed=1)
    while not state.is_terminal():
        state.apply_action(GreedyAgent()(state))
    with pytest.raises(InvalidOptionError, match="end of the hand"):
        GreedyAgent()(state)


# --- playouts -----------------------------------------------------------------


def mid_hand_states(name: str, options: dict[str, Any], hands: int, seed: int) -> list[TableState]:
    """A few states from the middle of randomly driven hands."""
    game = rk.Game(name, **options)
    rng = random.Random(seed)
    out = []
    for hand in range(hands):
        state = game.new_hand(seed=seed * 100 + hand)
        stop = rng.randrange(1, 60)
        while not state.is_terminal() and len(state.history) < stop:
            state.apply_action(drive(state, rng))
        if not state.is_terminal():
            out.append(state)
    return out


@pytest.mark.parametrize(("index", "name", "options"), INDEXED, ids=IDS)
def test_exact_playout_ends_where_the_python_engine_ends(index: int, name: str, options: dict[str, Any]) -> None:
    """resample="none": the C playout of the state as it is (stock order and
    restock seed included) reaches the end that the Python-driven engine and
    the oracle policy reach, with the same returns and outcome."""
    states = mid_hand_states(name, options, 6 if LONG else 2, seed=index)
    assert states
    for state in states:
        returns, codes = rk.playouts(state, 3, seed=1, resample="none")
        end = state.clone()
        while not end.is_terminal():
            end.apply_action(oracle(end))
        assert end.result is not None
        for i in range(3):
            assert returns[i].tolist() == end.returns()
            assert OUTCOMES[codes[i]] == end.result.outcome


def test_playouts_keep_the_state_and_are_seeded() -> None:
    state = mid_hand_states("kaluki", {"num_players": 3}, 3, seed=4)[0]
    before = (state.hands, state.stock, state.history, state.shuffle_seed)
    a = rk.playouts(state, 60, seed=9)
    assert (state.hands, state.stock, state.history, state.shuffle_seed) == before
    for threads in (2, 3):
        b = rk.playouts(state, 60, seed=9, threads=threads)
        assert np.array_equal(a[0], b[0]) and np.array_equal(a[1], b[1])
    head = rk.playouts(state, 20, seed=9)  # playout i depends on (seed, i) only
    assert np.array_equal(head[0], a[0][:20])
    other = rk.playouts(state, 60, seed=10)
    assert not np.array_equal(other[0], a[0])
    gen = rk.playouts(state, 5, seed=np.random.default_rng(3))
    assert gen[0].shape == (5, 3)


@pytest.mark.parametrize(("name", "options"), [VARIANTS[0], VARIANTS[3], VARIANTS[7], VARIANTS[8], VARIANTS[-1]])
def test_playout_returns_and_outcomes(name: str, options: dict[str, Any]) -> None:
    """Returns are the scoring of each outcome: the winner's hand is empty, a
    dead hand scores 0, and the outcome codes are the game's."""
    game = rk.Game(name, **options)
    state = game.new_hand(seed=3)
    allowed = {DEAD, HUNT, CALL_OFF} if game.rules.is_kaluki else {DEAD, BLOCKED, RUMMY, OUT}
    for policy in ("greedy", "random"):
        returns, codes = rk.playouts(state, 200, policy=policy, seed=2)
        assert returns.dtype == np.int32 and codes.dtype == np.uint8 and returns.shape == (200, game.num_players)
        assert set(codes.tolist()) <= allowed
        assert (returns[codes == DEAD] == 0).all()
        if game.rules.is_kaluki:
            assert (returns[codes != DEAD] <= (game.rules.hunt_bonus if "subtract" in str(options) else 0)).all()
        elif game.rules.rummy_scoring == "winner_collects":
            assert (returns >= 0).all()


def test_stock_and_none_modes() -> None:
    state = mid_hand_states("rummy", {"num_players": 3}, 3, seed=8)[0]
    exact, codes = rk.playouts(state, 20, seed=1, resample="none")
    assert (exact == exact[0]).all() and (codes == codes[0]).all()
    stock, _ = rk.playouts(state, 200, seed=1, resample="stock")
    assert len({tuple(r) for r in stock.tolist()}) > 1
    random_exact, _ = rk.playouts(state, 200, policy="random", seed=1, resample="none")
    assert len({tuple(r) for r in random_exact.tolist()}) > 1


def test_a_turned_over_stock_is_not_reshuffled() -> None:
    game = rk.Game("rummy", num_players=3, restock_method="turn_over")
    rng = random.Random(2)
    for hand in range(50):
        state = game.new_hand(seed=hand)
        while not state.is_terminal() and not (state.restocks and state.phase_name == "draw"):
            state.apply_action(drive(state, rng))
        if not state.is_terminal():
            break
    assert state.restocks and not state.is_terminal()
    for resample in ("stock", "hidden"):
        hidden = rk.table.playouts.spec(state, resample)
        for seed in range(3):
            _, hands, _, stock, _, _ = _core.table_determinize(state, hidden, seed)
            assert stock == state.stock


def test_a_finished_hand_gives_its_result() -> None:
    state = rk.Game("kaluki").new_hand(seed=2)
    while not state.is_terminal():
        state.apply_action(GreedyAgent()(state))
    returns, codes = rk.playouts(state, 4, seed=1)
    assert returns.tolist() == [state.returns()] * 4
    assert state.result is not None and {OUTCOMES[c] for c in codes.tolist()} == {state.result.outcome}


def test_bad_input() -> None:
    state = rk.Game("rummy").new_hand(seed=1)
    for kwargs, match in (
        ({"policy": "clever"}, "policy"),
        ({"resample": "all"}, "resample"),
        ({"seed": -1}, "seed"),
        ({"threads": 0}, "threads"),
        ({"max_knock_deadwood": 5}, "knock games only"),
    ):
        with pytest.raises(InvalidOptionError, match=match):
            rk.playouts(state, 10, **kwargs)
    with pytest.raises(InvalidOptionError, match="n must be"):
        rk.playouts(state, -1)
    assert rk.playouts(state, 0)[0].shape == (0, 2)
    # a position set by hand has no history to read the hidden cards from
    built = position(rk.Game("rummy"), ["7C 8C 9C 2D", "AS 2S 3S KH"], player=0)
    with pytest.raises(RummykitError, match="resample='stock'"):
        rk.playouts(built, 5, seed=1)
    for resample in ("stock", "none"):
        returns, _ = rk.playouts(built, 5, seed=1, resample=resample)
        assert returns.shape == (5, 2)
    broken = rk.Game("rummy").new_hand(seed=1)
    broken = broken.with_fields(hands=(broken.hands[0], broken.hands[0]))  # a card in two hands
    with pytest.raises(RummykitError, match="inconsistent"):
        rk.playouts(broken, 5, resample="none")
    with pytest.raises(RummykitError, match="hidden-card spec"):
        _core.TableHidden(_core.TABLE_RESAMPLE_HIDDEN, 0, 0, 0, [[0] * 52])
    with pytest.raises(RummykitError, match="do not fit"):
        _core.table_hidden_check(state, _core.TableHidden(_core.TABLE_RESAMPLE_HIDDEN, 0, 0, 0, [[0] * 53]))


# --- ISMCTS -----------------------------------------------------------------


def test_ismcts_rolls_out_table_games_in_c(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_python_rollout(state: Any, rng: Any) -> list[int]:
        raise AssertionError("the Python rollout ran")

    monkeypatch.setattr(ismcts_module, "greedy_rollout", no_python_rollout)
    for name, options in (("rummy", {"num_players": 3}), ("kaluki", {})):
        state = rk.Game(name, **options).new_hand(seed=4)
        state.apply_action(DRAW)
        agent = ISMCTSAgent(iterations=30, samples=4, seed=2)
        action = agent(state)
        assert action in state.legal_actions()
        assert ISMCTSAgent(iterations=30, samples=4, seed=2)(state) == action
