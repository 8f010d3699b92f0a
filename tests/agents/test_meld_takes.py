"""The meld taker's take rule (``rk_policy.meld_takes``, ``policy.h``): greedy that takes a
discard only into a meld or to knock, the rule of the published simple bots.  Checked
against a plain restatement (``reference.knock.meld_take``), against those bots' own
choices, and where ``best`` hands it to the playouts (``run_playouts_hands``)."""

from __future__ import annotations

import numpy as np
import pytest
from reference.knock import meld_take

import rummykit as rk
from rummykit import _core
from rummykit._rules import core_rules
from rummykit.agents import GreedyAgent, make_agent
from rummykit.knock.actions import DRAW_STOCK, PASS, TAKE

RULES = [
    ("gin", {}),
    ("gin_eaai", {}),
    ("oklahoma-gin", {}),
    ("gin", {"knock_compare": "lt", "allow_ace_high_run": True, "stock_end_rule": "dead_at_2_last_chance"}),
]


def _offers(name: str, options: dict[str, object], opponent: str, hands: int) -> list[tuple[rk.KnockState, int]]:
    """Every upcard offer and draw of seat 1 (``opponent``) against greedy, with its choice."""
    game, me, out = rk.Game(name, **options), GreedyAgent(), []
    for s in range(hands):
        them = make_agent(opponent, seed=s)
        state = game.new_hand(seed=s)
        while not state.is_terminal():
            if state.current_player == 1:
                action = int(them(state))
                if TAKE in state.legal_actions() and state.phase_name != "last_chance":
                    out.append((state.clone(), action))
            else:
                action = int(me(state))
            state.apply_action(action)
    return out


@pytest.mark.parametrize(("name", "options"), RULES)
def test_the_policy_takes_as_the_rule_says(name: str, options: dict[str, object]) -> None:
    taken = passed = 0
    for state, _ in _offers(name, options, "greedy", 20):
        p = state.current_player
        hand = sum(1 << int(c) for c in state.hand(p))
        top = int(state.observation(p).discard_pile[-1])
        expected = meld_take(core_rules(state.rules.aces), hand, top, state.knock_max)
        action = state._greedy_action(-1, True)
        assert action == (TAKE if expected else DRAW_STOCK if state.phase_name == "draw" else PASS)
        taken += expected
        passed += not expected
    assert taken >= 10 and passed >= 40


def test_the_rule_is_the_simple_bots_rule() -> None:
    """eaai-simple takes a card that makes some meld with its hand; the rule asks more (a meld
    of the best arrangement) or a knock: they agree on all but a few offers, where greedy's
    own rule (take whenever it lowers the deadwood) misses several times as many."""
    offers = _offers("gin_eaai", {}, "eaai-simple", 40)
    agree = sum((state._greedy_action(-1, True) == TAKE) == (action == TAKE) for state, action in offers)
    assert len(offers) > 200 and agree >= 0.95 * len(offers)
    greedy = sum((state._greedy_action(-1) == TAKE) == (action == TAKE) for state, action in offers)
    assert len(offers) - greedy >= 4 * (len(offers) - agree)


def test_the_playouts_take_the_style_of_each_hand() -> None:
    """``opponent_meld_takes``: all 0 plays as without it, 1 changes the playouts of some hands;
    one flag a hand, each 0 or 1."""
    from rummykit.agents.best import _spec, _spec_parts

    rng = np.random.default_rng(4)
    changed = 0
    state = rk.Game("gin").new_hand(seed=5)
    hunter = GreedyAgent(max_knock_deadwood=0)
    for _ in range(8):
        state.apply_action(hunter(state))
    assert state.phase_name == "draw"
    me = state.current_player
    held = sum(1 << int(c) for c in state.hand(me))
    seen = state.observation(me)
    used = held | sum(1 << int(c) for c in seen.discard_pile)
    pool = [c for c in range(52) if not used >> c & 1]
    size = len(state.hand(1 - me))
    hands = np.array(
        [sum(1 << int(c) for c in rng.choice(pool, size, replace=False)) for _ in range(8)], dtype=np.uint64
    )
    spec = _spec(state.rules, me, _spec_parts(seen), held, 0, pool, False)  # as best builds it
    rules = core_rules(state.rules.aces)

    def run(takes: np.ndarray | None) -> np.ndarray:
        signed = np.zeros((8, 16), dtype=np.int64)
        points, outcomes = np.zeros((16, 2), dtype=np.int32), np.zeros(16, dtype=np.uint8)
        args = (_core.POLICY_GREEDY, 0, 9, points, outcomes, signed, me, _core.POLICY_GREEDY)  # gin only: long hands
        _core.run_playouts_hands(rules, spec, 1 - me, hands, *args, -2, None, takes)
        return signed

    plain = run(None)
    assert (run(np.zeros(8, dtype=np.uint8)) == plain).all()
    styled = run(np.array([1, 0] * 4, dtype=np.uint8))
    assert (styled[1::2] == plain[1::2]).all()
    changed = int((styled[::2] != plain[::2]).any(axis=1).sum())
    assert changed >= 2
    with pytest.raises(ValueError, match="one flag a hand"):
        run(np.zeros(7, dtype=np.uint8))
    with pytest.raises(ValueError, match="0 or 1"):
        run(np.full(8, 2, dtype=np.uint8))
