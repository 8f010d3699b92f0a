"""Seats see only their own: agents are handed their seat's copy of the hand, so cheating
agents (reading another hand, undoing the opponent's move, editing the history, swapping a
card with the stock) learn and gain nothing, or are caught."""

from __future__ import annotations

from typing import Any

import pytest
from match_helpers import IDS, MATCHES

import rummykit as rk
from rummykit.errors import IllegalActionError

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
    state.history.clear()
    state.history.append(0)
    return choice


def _swap_with_the_stock(state: Any) -> Any:
    choice = GREEDY(state)  # chosen before the swap: the swap itself must gain nothing
    seat = state.current_player
    hands = list(state.hands)
    stock = list(state.stock)
    if stock and hands[seat]:
        mine = (hands[seat] & -hands[seat]).bit_length() - 1  # its lowest card id
        hands[seat] ^= (1 << mine) | (1 << stock[-1])
        stock[-1] = mine
        state.hands, state.stock = tuple(hands), tuple(stock)
    return choice


@pytest.mark.parametrize(("name", "options"), MATCHES, ids=IDS)
@pytest.mark.parametrize("cheat", [_undo_the_opponent, _edit_the_history, _swap_with_the_stock])
def test_a_cheating_agent_changes_only_its_copy(name: str, options: dict[str, Any], cheat: Any) -> None:
    honest = _honest(name, options)
    match = rk.Match(name, seed=3, **options)
    match.agents = (cheat,) + (GREEDY,) * (match.num_players - 1)
    assert match.play() == honest.result and match.to_json() == honest.to_json()
    # handed the real state, the agents that change it are caught (the change, or the move it spoilt)
    if cheat is not _swap_with_the_stock:
        trusting = rk.Match(name, seed=3, trusted=True, **options)
        trusting.agents = (cheat,) + (GREEDY,) * (trusting.num_players - 1)
        with pytest.raises(IllegalActionError, match="seat 0: "):
            trusting.play()


def test_a_card_swapped_in_cannot_be_played() -> None:
    def swap_and_discard_it(state: Any) -> Any:
        if state.phase_name != "discard":
            return GREEDY(state)
        seat = state.current_player
        hands, stock = list(state.hands), list(state.stock)
        mine = (hands[seat] & -hands[seat]).bit_length() - 1
        wanted = stock[-1]
        hands[seat] ^= (1 << mine) | (1 << wanted)
        stock[-1] = mine
        state.hands, state.stock = tuple(hands), tuple(stock)
        return f"discard {rk.Card(wanted)}"

    match = rk.Match("gin", [swap_and_discard_it, GREEDY], seed=5)
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
        state.history.clear()
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
