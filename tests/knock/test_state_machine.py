"""A hypothesis state machine over the knock engine: random legal actions,
undo, clone and replay, with the invariants checked after every step."""

from __future__ import annotations

from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

import rummykit as rk

GAMES = [
    ("gin", {}),
    ("oklahoma-gin", {"stock_end_rule": "dead_at_2_last_chance"}),
    ("oklahoma-rummy", {"num_players": 4, "auto_showdown": False}),
    ("partnership_oklahoma", {}),
]
DECK = (1 << 52) - 1


class KnockMachine(RuleBasedStateMachine):
    state: rk.KnockState

    @initialize(choice=st.sampled_from(GAMES), seed=st.integers(0, 2**32))
    def deal(self, choice: tuple[str, dict[str, object]], seed: int) -> None:
        name, options = choice
        self.game = rk.Game(name, max_turns=200, **options)
        self.state = self.game.new_hand(seed=seed)
        self.seed = seed

    @precondition(lambda self: not self.state.is_terminal())
    @rule(data=st.data())
    def act(self, data: st.DataObject) -> None:
        legal = self.state.legal_actions()
        self.state.play(data.draw(st.sampled_from(legal)))

    @precondition(lambda self: bool(self.state.history))
    @rule()
    def undo_and_redo(self) -> None:
        last = self.state.history[-1]
        before = (self.state.hands, self.state.stock, self.state.discards, self.state.phase)
        self.state.undo()
        assert last in self.state.legal_actions()
        self.state.apply_action(last)
        assert (self.state.hands, self.state.stock, self.state.discards, self.state.phase) == before

    @rule()
    def clone_and_replay_agree(self) -> None:
        copy = self.state.clone()
        replay = self.game.new_hand(seed=self.seed)
        for action in self.state.history:
            replay.apply_action(action)
        for other in (copy, replay):
            assert (other.hands, other.stock, other.discards, other.phase, other.result) == (
                self.state.hands,
                self.state.stock,
                self.state.discards,
                self.state.phase,
                self.state.result,
            )

    @precondition(lambda self: not self.state.is_terminal())
    @rule(action=st.integers(0, 685))
    def illegal_actions_change_nothing(self, action: int) -> None:
        if action in self.state.legal_actions():
            return
        before = (self.state.hands, self.state.stock, self.state.discards, self.state.phase, len(self.state.history))
        try:
            self.state.play(action)
        except rk.IllegalActionError:
            pass
        else:
            raise AssertionError(f"illegal action {action} was accepted")
        assert (
            self.state.hands,
            self.state.stock,
            self.state.discards,
            self.state.phase,
            len(self.state.history),
        ) == before

    @invariant()
    def cards_are_conserved(self) -> None:
        s = self.state
        places = list(s.hands) + [1 << c for c in s.stock] + [1 << c for c in s.discards]
        places += [1 << c for c in (s.set_aside, s.knock_card) if c >= 0]
        assert sum(p.bit_count() for p in places) == 52
        union = 0
        for p in places:
            union |= p
        assert union == DECK

    @invariant()
    def legal_actions_are_sorted_and_present_until_the_end(self) -> None:
        legal = self.state.legal_actions()
        assert legal == sorted(set(legal))
        assert bool(legal) != self.state.is_terminal()


KnockMachine.TestCase.settings = settings(max_examples=60, stateful_step_count=60, deadline=None)
TestKnockMachine = KnockMachine.TestCase
