"""The manual showdown (``auto_showdown=False``) of the C knock engine
against ``KnockState``: random hands that end in knocks, played with the
same actions in both engines, give the same legal actions at every step
(the defenders' meld, lay-off and done ids included), the same final hands
and the same result.  A short run by default, a long one with
``RUMMYKIT_LONG=1``."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import LONG

import rummykit as rk
from rummykit import _core
from rummykit.agents import GreedyAgent
from rummykit.analysis import arrangements
from rummykit.errors import IllegalActionError, InvalidMeldError
from rummykit.knock.actions import DONE, DRAW_STOCK, KNOCK, MELD
from rummykit.knock.state import SHOWDOWN
from rummykit.playouts import OUTCOMES, _position

VARIANTS = [
    ("gin", {}),
    ("gin", {"big_gin_bonus": 31, "knock_compare": "lt"}),
    ("gin", {"allow_layoff_on_knock": False, "gin_extra_boxes": 1, "undercut_extra_boxes": 2}),
    ("gin", {"allow_ace_high_run": True, "knocker_arrangement": "best_score"}),
    ("oklahoma-gin", {"spade_double_boxes": True}),
    ("oklahoma-rummy", {}),
    ("oklahoma-rummy", {"num_players": 4, "layoff_onto_prior_layoffs": True}),
    ("partnership_oklahoma", {}),
    ("gin", {"stock_end_rule": "dead_at_2_last_chance", "refused_upcard_set_aside": True}),
    ("gin_multi", {"num_players": 3}),
    ("oklahoma_ring_seed003", {"num_players": 4}),
]


def pick(rng: np.random.Generator, state: rk.KnockState, greedy: GreedyAgent) -> int:
    """The greedy agent until the knock (a random legal action now and then);
    in the showdown a random meld or lay-off, done one time in five."""
    legal = state.legal_actions()
    if state.phase == SHOWDOWN:
        if len(legal) > 1 and rng.random() < 0.8:
            return int(rng.choice([a for a in legal if MELD <= a < DONE]))
        return int(rng.choice(legal))
    return greedy(state) if rng.random() < 0.9 else int(rng.choice(legal))


@pytest.mark.parametrize(("game", "options"), VARIANTS)
def test_manual_showdown_lockstep(game: str, options: dict[str, object]) -> None:
    g = rk.KnockGame(game, auto_showdown=False, **options)
    rng = np.random.default_rng(len(game) * 7 + len(options))
    showdowns = 0
    greedy = GreedyAgent()
    for i in range(400 if LONG else 40):
        state = g.new_hand(seed=rng, dealer=i % g.rules.num_players)
        spec = _core.PlayoutSpec(state.rules, _position(state, state.hands, state.stock))
        python_legal = []
        while not state.is_terminal():
            python_legal.append(state.legal_actions())
            state.apply_action(pick(rng, state, greedy))
        steps, result, final, details, seen = _core.replay_actions(state._core_rules, spec, state.history, True)
        assert seen == (state.known, state.set_aside, int(state.knock_card)), f"hand {i}"
        assert steps == python_legal, f"hand {i}"
        assert final == state.hands
        want = state.result
        assert result is not None and want is not None
        outcome, knocker, winner, points, deadwood, multiplier, _ = result
        assert OUTCOMES[outcome] == want.outcome and tuple(points) == want.points, f"hand {i}"
        assert details == (want.credits, want.charges, want.boxes, want.knock_limit), f"hand {i}"
        if want.outcome != "dead":
            assert (knocker, winner, tuple(deadwood)) == (want.knocker, want.winner, want.deadwood)
            showdowns += any(MELD <= a < DONE for a in state.history)
    assert showdowns > 5


KNOCK_VARIANTS = [
    ("gin", {}),
    ("gin", {"auto_showdown": False}),
    ("oklahoma-gin", {"auto_showdown": False, "knock_compare": "lt"}),
    ("oklahoma-rummy", {}),
    ("oklahoma-rummy", {"num_players": 4, "auto_showdown": False, "layoff_onto_prior_layoffs": True}),
    ("partnership_oklahoma", {"auto_showdown": False}),
]


@pytest.mark.parametrize(("game", "options"), KNOCK_VARIANTS)
def test_knock_with_melds_lockstep(game: str, options: dict[str, object]) -> None:
    """``state.knock(card, melds=...)`` against ``rk_knock_melds``: the same
    refusals (bad melds, too much deadwood), the same showdown and result."""
    g = rk.KnockGame(game, **options)
    rng = np.random.default_rng(len(game) * 5 + len(options))
    greedy = GreedyAgent()
    knocked = refused = 0
    for i in range(200 if LONG else 30):
        state = g.new_hand(seed=rng, dealer=i % g.rules.num_players)
        spec = _core.PlayoutSpec(state.rules, _position(state, state.hands, state.stock))
        while not state.is_terminal() and not any(KNOCK <= a < DRAW_STOCK for a in state.legal_actions()):
            state.apply_action(greedy(state))
        if state.is_terminal():
            continue
        before = list(state.history)
        card = int(rng.choice([a - KNOCK for a in state.legal_actions() if KNOCK <= a < DRAW_STOCK]))
        final = state.hands[state.player] & ~(1 << card)
        cands = arrangements(final, max_deadwood=state.limit + 10, aces=state.rules.aces)
        melds = [m.mask for m in cands[int(rng.integers(len(cands)))].melds] if cands else []
        rng.shuffle(melds)
        if melds and rng.random() < 0.2:
            melds.pop()
        try:
            state.knock(card, melds)
        except (InvalidMeldError, IllegalActionError) as e:
            expected = InvalidMeldError if isinstance(e, InvalidMeldError) else _core.NoKnockError
            with pytest.raises(expected):
                _core.replay_knock_melds(state._core_rules, spec, before, card, melds, [])
            refused += 1
            continue
        python_legal = []
        while not state.is_terminal():
            python_legal.append(state.legal_actions())
            state.apply_action(pick(rng, state, greedy))
        after = state.history[len(before) + 1 :]
        steps, result, hands, details, seen = _core.replay_knock_melds(
            state._core_rules, spec, before, card, melds, after
        )
        assert seen == (state.known, state.set_aside, int(state.knock_card)), f"hand {i}"
        assert steps == python_legal and hands == state.hands, f"hand {i}"
        want = state.result
        assert result is not None and want is not None
        assert details == (want.credits, want.charges, want.boxes, want.knock_limit), f"hand {i}"
        outcome, knocker, winner, points, deadwood, _, _ = result
        assert (OUTCOMES[outcome], knocker, winner, tuple(points), tuple(deadwood)) == (
            want.outcome,
            want.knocker,
            want.winner,
            want.points,
            want.deadwood,
        ), f"hand {i}"
        knocked += 1
    assert knocked > 5
