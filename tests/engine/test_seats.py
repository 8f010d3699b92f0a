"""Seats see only their own: agents are handed their seat's copy of the hand, so cheating
agents (reading another hand, undoing the opponent's move, editing the history, swapping a
card with the stock) learn and gain nothing, or are caught."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from match_helpers import IDS, MATCHES
from tournament_agents import CheatingAgent

import rummykit as rk
from rummykit.errors import IllegalActionError, ReadOnlyError

GREEDY = rk.GreedyAgent()


def _honest(name: str, options: dict[str, Any]) -> rk.Match:
    match = rk.Match(name, seed=3, **options)
    match.agents = (GREEDY,) * match.num_players
    match.play()
    return match


class Peeker:
    """Reads every other hand it is handed and compares it with the real one."""

    def __init__(self) -> None:
        self.match: Any = None
        self.same = self.looks = 0

    def __call__(self, state: Any) -> Any:
        real = self.match.state
        assert state is not real
        for seat in range(state.n):
            if seat != state.current_player and real.hand(seat):
                self.looks += 1
                self.same += state.hand(seat) == real.hand(seat)
        return GREEDY(state)


@pytest.mark.parametrize(("name", "options"), MATCHES, ids=IDS)
def test_a_peeking_agent_sees_resampled_hands(name: str, options: dict[str, Any]) -> None:
    peeker = Peeker()
    match = rk.Match(name, seed=3, **options)
    peeker.match = match
    match.agents = (peeker,) + (GREEDY,) * (match.num_players - 1)
    match.play()
    assert peeker.looks > 0 and peeker.same < peeker.looks / 2  # what it read was mostly not the real hand


def _undo_the_opponent(state: Any) -> Any:
    choice = GREEDY(state)
    try:  # take back the opponent's move and play another for it (a knock copy has no undo stack)
        state.undo()
        state.apply_action(state.legal_actions()[-1])
    except IllegalActionError:
        pass
    return choice


def _edit_the_history(state: Any) -> Any:
    choice = GREEDY(state)
    history = list(state.history)
    for edit in (
        lambda h: h.clear(),
        lambda h: h.append(0),
        lambda h: h.pop(),
        lambda h: h.__setitem__(slice(None), [0]),
        lambda h: h.__delitem__(0),
        lambda h: h.__iadd__([0]),
    ):
        with pytest.raises(ReadOnlyError, match="history is read-only"):
            edit(state.history)
    with pytest.raises(ReadOnlyError):
        state.history = []
    assert state.history == history  # refused, nothing changed
    list.clear(state.history)  # past the guard on purpose: only its copy changes (trusted: caught)
    return choice


def _swapped(state: Any) -> tuple[tuple[int, ...], tuple[int, ...], int] | None:
    """The hands and stock with the seat's lowest card swapped for the stock's top, and that card."""
    seat = state.current_player
    hands, stock = list(state.hands), list(state.stock)
    if not stock or not hands[seat]:
        return None
    mine = (hands[seat] & -hands[seat]).bit_length() - 1  # its lowest card id
    wanted = stock[-1]
    hands[seat] ^= (1 << mine) | (1 << wanted)
    stock[-1] = mine
    return tuple(hands), tuple(stock), wanted


def _swap_with_the_stock(state: Any) -> Any:
    choice = GREEDY(state)  # chosen before the swap: the swap itself must gain nothing
    swap = _swapped(state)
    if swap is not None:
        hands, stock = state.hands, state.stock
        with pytest.raises(ReadOnlyError, match="fields are read-only"):
            state.hands, state.stock = swap[0], swap[1]
        assert (state.hands, state.stock) == (hands, stock)  # refused, nothing changed
        state.with_fields(hands=swap[0], stock=swap[1])  # a changed copy: the state is left as it was
        assert (state.hands, state.stock) == (hands, stock)
    return choice


@pytest.mark.parametrize(("name", "options"), MATCHES, ids=IDS)
@pytest.mark.parametrize("cheat", [_undo_the_opponent, _edit_the_history, _swap_with_the_stock])
def test_a_cheating_agent_changes_only_its_copy(name: str, options: dict[str, Any], cheat: Any) -> None:
    honest = _honest(name, options)
    match = rk.Match(name, seed=3, **options)
    match.agents = (cheat,) + (GREEDY,) * (match.num_players - 1)
    assert match.play() == honest.result and match.to_json() == honest.to_json()
    trusting = rk.Match(name, seed=3, trusted=True, **options)
    trusting.agents = (cheat,) + (GREEDY,) * (trusting.num_players - 1)
    if cheat is _swap_with_the_stock:  # handed the real state, its swap is refused all the same
        assert trusting.play() == honest.result and trusting.to_json() == honest.to_json()
        return
    # handed the real state, the agents that change it past the guards are caught
    with pytest.raises(IllegalActionError, match="seat 0: "):
        trusting.play()


def test_a_card_swapped_in_cannot_be_played() -> None:
    def swap_and_discard_it(state: Any) -> Any:
        if state.phase_name != "discard":
            return GREEDY(state)
        swap = _swapped(state)
        assert swap is not None
        try:
            state.hands, state.stock = swap[0], swap[1]
        except ReadOnlyError:
            pass
        return f"discard {rk.Card(swap[2])}"

    for trusted in (False, True):
        match = rk.Match("gin", [swap_and_discard_it, GREEDY], seed=5, trusted=trusted)
        with pytest.raises(IllegalActionError, match="seat 0"):
            match.play()


def test_play_hand_hands_out_copies_and_trusted_the_real_state() -> None:
    seen: list[Any] = []

    def agent(state: Any) -> Any:
        seen.append(state)
        return GREEDY(state)

    game = rk.Game("rummy", num_players=3)
    real = rk.play_hand(game, [agent] * 3, seed=4, dealer=0)
    assert all(s is not real for s in seen)
    seen.clear()
    trusted = rk.play_hand(game, [agent] * 3, seed=4, dealer=0, trusted=True)
    assert all(s is trusted for s in seen) and trusted.history == real.history


def test_tournament_agents_get_copies() -> None:
    def cheat(state: Any) -> Any:
        choice = GREEDY(state)
        with pytest.raises(ReadOnlyError):
            state.history.clear()
        list.clear(state.history)  # past the guard: its copy only
        return choice

    honest = rk.tournament(["greedy", "random"], "gin", hands=4, seed=1)
    cheating = rk.tournament([cheat, "random"], "gin", hands=4, seed=1)
    assert [r.points for r in cheating.records] == [r.points for r in honest.records]


def test_long_knock_hands_with_restocks_are_played_with_copies() -> None:
    """A seat that drew more cards than a deck holds (several restocks) still gets a copy, and the
    hand ends as it does with trusted agents (greedy looks only at what its seat may know)."""
    game = rk.Game("oklahoma-rummy", num_players=3)
    copied = rk.play_hand(game, [rk.GreedyAgent()] * 3, seed=0, dealer=0)
    trusted = rk.play_hand(game, [rk.GreedyAgent()] * 3, seed=0, dealer=0, trusted=True)
    assert max(len(d) for d in copied.drawn) > 52
    assert copied.history == trusted.history


def test_an_agent_from_a_module_spec_gets_copies_in_a_tournament() -> None:
    """Only the library's own agents, named by text, are handed the real state: one loaded
    from a ``"module:attribute"`` spec is not (with ``trusted`` its cheats stop the hand)."""
    from rummykit.agents.base import is_library_spec

    assert is_library_spec("greedy") and is_library_spec("level:5:time_per_move=0.02")
    assert not is_library_spec("tournament_agents:CheatingAgent") and not is_library_spec(GREEDY)
    honest = rk.tournament(["greedy", "random"], "oklahoma-rummy", hands=4, seed=2)
    cheating = rk.tournament(["tournament_agents:CheatingAgent", "random"], "oklahoma-rummy", hands=4, seed=2)
    assert [r.points for r in cheating.records] == [r.points for r in honest.records]
    with pytest.raises(rk.AgentError, match="changed the state"):
        rk.tournament(["tournament_agents:CheatingAgent", "random"], "gin", hands=2, seed=2, trusted=True)


@pytest.mark.parametrize("workers", [1, 2])
def test_a_cheating_agent_gains_nothing_in_a_tournament(workers: int) -> None:
    """In the worker processes too (every backend plays its hands through the same loop)."""
    honest = rk.tournament(["greedy", "random"], "oklahoma-rummy", hands=4, seed=2, workers=workers)
    cheating = rk.tournament([CheatingAgent(), "random"], "oklahoma-rummy", hands=4, seed=2, workers=workers)
    assert [r.points for r in cheating.records] == [r.points for r in honest.records]
    with pytest.raises(rk.AgentError, match="changed the state"):
        rk.tournament([CheatingAgent(), "random"], "gin", hands=2, seed=2, trusted=True)


def test_a_cheating_opponent_gains_nothing_in_the_gymnasium_adapter() -> None:
    pytest.importorskip("gymnasium", reason="the pettingzoo extra is not installed: pip install 'rummykit[pettingzoo]'")
    from rummykit.envs import gymnasium_env

    records = []
    for opponent in ("greedy", CheatingAgent()):
        env = gymnasium_env("kaluki", opponent=opponent, num_players=3)
        _, info = env.reset(seed=5)
        done = False
        while not done:
            _, _, terminated, truncated, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
            done = terminated or truncated
        records.append(env.game_state.to_json())
        if isinstance(opponent, CheatingAgent):
            assert opponent.refused > 0
    assert records[0] == records[1]
