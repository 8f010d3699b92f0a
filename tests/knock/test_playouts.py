"""The C playout kernel against the Python engine.

* From fresh deals with fixed decks, the C greedy playout and ``KnockState``
  driven by :class:`rummykit.agents.GreedyAgent` reach the same end (the same
  actions, hands, outcome, deadwood) and the same points: 150 hands per
  variant by default, 3,000 with ``RUMMYKIT_LONG=1`` (marker ``long``).
* The C scoring (``rk_score_knock``) against ``showdown.resolve_knock`` on
  random knocks, every scoring model and showdown option (60 knocks per
  variant by default, 300 with ``RUMMYKIT_LONG=1``).
* ``rummykit.playouts``: determinization, seeds, threads, errors.
"""

from __future__ import annotations

import numpy as np
import pytest
from long_runs import LONG as LONG_RUN
from reference.knock import ReferenceKnockState, limit_and_multiplier, resolve_knock
from reference.knock import _knock_greedy as reference_greedy

import rummykit as rk
from rummykit import _core
from rummykit.agents import GreedyAgent, RandomAgent
from rummykit.knock.playouts import exact_spec, hidden_spec
from rummykit.knock.showdown import score_knock
from rummykit.playouts import DEAD, OUTCOMES

SHORT = 150
LONG = 3_000

#: (id, game, options, max_knock_deadwood)
VARIANTS = [
    ("gin", "gin", {}, None),
    ("oklahoma_gin", "oklahoma-gin", {}, None),
    ("oklahoma_rummy_3", "oklahoma-rummy", {}, None),
    ("oklahoma_rummy_4", "oklahoma-rummy", {"num_players": 4}, None),
    ("gin_last_chance", "gin", {"stock_end_rule": "dead_at_2_last_chance"}, 0),
    ("gin_dead_on_draw_lt", "gin", {"stock_end_rule": "dead_on_draw", "knock_compare": "lt"}, None),
    ("gin_reshuffle", "gin", {"stock_end_rule": "reshuffle", "max_restocks": 2, "max_turns": 120}, 0),
    ("gin_big_gin_no_forbid", "gin", {"big_gin_bonus": 31, "forbid_discarding_taken_card": False}, 0),
    ("gin_set_aside_ace_high", "gin", {"refused_upcard_set_aside": True, "allow_ace_high_run": True}, 4),
    ("gin_best_score_no_tie_undercut", "gin", {"knocker_arrangement": "best_score", "undercut_on_tie": False}, None),
    ("gin_bonus_penalty_no_layoffs", "gin", {"scoring_model": "bonus_penalty", "allow_layoff_on_knock": False}, None),
    ("oklahoma_gin_150_double", "oklahoma_gin_150", {"spade_multiplier": 3}, None),
    (
        "rummy_3_prior_layoffs_best",
        "oklahoma-rummy",
        {"layoff_onto_prior_layoffs": True, "knocker_arrangement": "best_score"},
        None,
    ),
    ("rummy_4_ring", "oklahoma_ring_seed003", {"num_players": 4, "max_restocks": 1}, 3),
    ("gin_multi_3", "gin_multi", {"max_turns": 60}, None),
    ("partnership_oklahoma", "partnership_oklahoma", {}, None),
    ("partnership_lt_no_tie", "partnership_oklahoma", {"knock_compare": "lt", "undercut_on_tie": False}, 2),
]


def python_hand(state: ReferenceKnockState, knock_at: int | None) -> list[int]:
    while not state.is_terminal():
        state.apply_action(reference_greedy(state, knock_at))
    return state.history


def compare(game_name: str, options: dict, knock_at: int | None, hands: int, seed: int) -> dict[str, int]:
    game = rk.Game(game_name, **options)
    c_knock_at = -1 if knock_at is None else knock_at
    rng = np.random.default_rng(seed)
    outcomes: dict[str, int] = {}
    for i in range(hands):
        state = game.new_hand(seed=rng, dealer=i % game.num_players)
        spec = exact_spec(state)
        c = _core.playout_once(state._core_rules, spec, _core.POLICY_GREEDY, c_knock_at, 0)
        c_actions = _core.policy_trace(state._core_rules, spec, _core.POLICY_GREEDY, c_knock_at, 0)
        ref = ReferenceKnockState(game, list(state.deck), state.dealer, state.shuffle_seed)
        actions = python_hand(ref, knock_at)
        assert c_actions == actions, f"hand {i}: the actions differ"
        result = ref.result
        assert result is not None
        outcome, knocker, winner, points, deadwood, multiplier, n_actions, final = c
        assert OUTCOMES[outcome] == result.outcome, f"hand {i}"
        assert tuple(points) == tuple(result.points), f"hand {i}: points"
        assert n_actions == len(actions)
        assert final == ref.hands
        if result.outcome != "dead":
            assert (knocker, winner) == (result.knocker, result.winner), f"hand {i}"
            assert tuple(deadwood) == tuple(result.deadwood), f"hand {i}: deadwood"
            assert multiplier == result.multiplier
        outcomes[result.outcome] = outcomes.get(result.outcome, 0) + 1
    return outcomes


@pytest.mark.parametrize(("name", "game", "options", "knock_at"), VARIANTS, ids=[v[0] for v in VARIANTS])
def test_c_playout_equals_python_engine(name: str, game: str, options: dict, knock_at: int | None) -> None:
    outcomes = compare(game, options, knock_at, SHORT, seed=sum(map(ord, name)))
    assert sum(outcomes.values()) == SHORT
    assert outcomes.get("dead", 0) < SHORT  # the hands do end in knocks


@pytest.mark.long
@pytest.mark.parametrize(("name", "game", "options", "knock_at"), VARIANTS, ids=[v[0] for v in VARIANTS])
def test_c_playout_equals_python_engine_long(name: str, game: str, options: dict, knock_at: int | None) -> None:
    outcomes = compare(game, options, knock_at, LONG, seed=1000 + sum(map(ord, name)))
    assert sum(outcomes.values()) == LONG


# --- scoring --------------------------------------------------------------

SCORING_VARIANTS = [
    ("gin", {}),
    ("gin", {"knocker_arrangement": "best_score", "knock_compare": "lt"}),
    ("gin", {"allow_layoff_on_knock": False}),
    ("gin", {"scoring_model": "net_collect", "undercut_on_tie": False}),
    ("oklahoma-gin", {"big_gin_bonus": 50}),
    ("oklahoma-rummy", {}),
    ("oklahoma-rummy", {"num_players": 4, "layoff_onto_prior_layoffs": True}),
    ("oklahoma-rummy", {"knocker_arrangement": "best_score", "layoff_onto_prior_layoffs": True}),
    ("oklahoma_seed002", {"num_players": 4, "knocker_arrangement": "best_score"}),
    ("oklahoma_ring_seed003", {}),
    ("gin_multi", {"num_players": 4, "allow_ace_high_run": True}),
    ("partnership_oklahoma", {}),
    ("partnership_oklahoma", {"knocker_arrangement": "best_score", "layoff_onto_prior_layoffs": True}),
]


def dense_hand(rng: np.random.Generator, free: list[int], size: int) -> list[int]:
    """``size`` cards from ``free``, most on a window of adjacent ranks (melds, lay-offs)."""
    start = int(rng.integers(13))
    window = [c for c in free if (c % 13 - start) % 13 < 5]
    rng.shuffle(window)
    rest = [c for c in free if c not in window[: size - 2]]
    rng.shuffle(rest)
    return window[: size - 2] + rest[: size - len(window[: size - 2])]


@pytest.mark.parametrize(("game", "options"), SCORING_VARIANTS)
def test_c_scoring_equals_resolve_knock(game: str, options: dict) -> None:
    rules = rk.Game(game, **options).rules
    core = rk.KnockGame(game, **options).new_hand(seed=0)._core_rules
    rng = np.random.default_rng(len(options) * 31 + len(game))
    size = rules.hand_size
    tried = 0
    while tried < (300 if LONG_RUN else 60):
        free = list(range(52))
        upcard = int(rng.integers(52))
        free.remove(upcard)
        hands = []
        for _ in range(rules.num_players):
            hand = dense_hand(rng, free, size)
            free = [c for c in free if c not in hand]
            hands.append(sum(1 << c for c in hand))
        limit, gin_only, multiplier = limit_and_multiplier(rules, rk.Card(upcard))
        least = _core.deadwood(core, hands[0])
        if least and (gin_only or least > limit - (rules.knock_compare == "lt")):
            continue
        tried += 1
        big = bool(least == 0 and rules.big_gin_bonus is not None and rng.integers(2))
        expected = resolve_knock(rules, hands, limit=limit, gin_only=gin_only, multiplier=multiplier, big_gin=big)
        assert score_knock(rules, hands, rk.Card(upcard), big_gin=big) == expected  # melds and lay-offs too


# --- the public function ---------------------------------------------------


def test_playouts_shapes_seeds_threads() -> None:
    state = rk.Game("oklahoma-rummy", num_players=4).new_hand(seed=11)
    points, outcomes = rk.playouts(state, 2000, seed=3)
    assert points.shape == (2000, 4) and points.dtype == np.int32 and outcomes.dtype == np.uint8
    again = rk.playouts(state, 2000, seed=3, threads=3)
    assert (again[0] == points).all() and (again[1] == outcomes).all()
    other = rk.playouts(state, 2000, seed=4)
    assert not (other[0] == points).all()
    assert (points[outcomes == DEAD] == 0).all()
    random_points, _ = rk.playouts(state, 500, policy="random", seed=3, threads=2)
    assert random_points.shape == (500, 4)
    assert rk.playouts(state, 0)[0].shape == (0, 4)


def test_playouts_keep_what_the_player_knows() -> None:
    """Determinizations keep the mover's hand, the pile and the cards others
    were seen taking; the rest is resampled."""
    game = rk.Game("gin")
    rng = np.random.default_rng(5)
    checked = 0
    for seed in range(60):
        state = game.new_hand(seed=seed)
        agents = [GreedyAgent(), RandomAgent(seed=seed)]
        for _ in range(int(rng.integers(3, 40))):
            if state.is_terminal():
                break
            state.apply_action(agents[state.current_player](state))
        if state.is_terminal():
            continue
        spec = hidden_spec(state, state.player)
        # one determinized deal, played out with the C kernel from the exact spec of
        # a Python determinization, and the C determinization itself, both run
        _core.playout_check(state._core_rules, spec)
        other = state.determinize(state.player, rng=seed)
        exact = exact_spec(other)
        _core.playout_once(other._core_rules, exact, _core.POLICY_GREEDY, -1, 0)
        points, _ = rk.playouts(state, 50, seed=seed)
        assert points.shape == (50, 2)
        if any(state.known):
            checked += 1
    assert checked > 0


@pytest.mark.parametrize(("game", "options"), [("gin", {}), ("oklahoma-rummy", {"num_players": 4, "max_turns": 400})])
def test_c_determinization_respects_information(game: str, options: dict) -> None:
    """The C deals keep everything the mover sees (own hand, the pile, cards
    seen taken, group of restocked cards: the stock holds only cards of the
    last restock), keep hand and stock sizes, and resample the rest."""
    g = rk.Game(game, **options)
    changed = checked = 0
    for seed in range(40):
        state = g.new_hand(seed=seed)
        agents = [RandomAgent(seed=seed), GreedyAgent()]
        for step in range(int(np.random.default_rng(seed).integers(5, 300))):
            if state.is_terminal():
                break
            state.apply_action(agents[step % 2](state))
        if state.is_terminal():
            continue
        p = state.player
        spec = hidden_spec(state, p)
        for i in range(5):
            hands, stock = _core.determinize_once(spec, seed, i)
            assert hands[p] == state.hands[p]
            assert len(stock) == len(state.stock)
            assert set(stock) | {c for h in hands for c in range(52) if h >> c & 1} == set(state.stock) | {
                c for h in state.hands for c in range(52) if h >> c & 1
            }
            for q in range(state.n):
                assert bin(hands[q]).count("1") == bin(state.hands[q]).count("1")
                assert hands[q] & state.known[q] == state.known[q]
            if state.restocks:  # the stock holds cards that went into it at the last restock
                group = state._card_groups()
                assert all(group[c] == state.restocks for c in stock)
            changed += hands != state.hands
            checked += 1
    assert checked > 20 and changed > checked // 2


def test_known_cards_stay_with_their_holder() -> None:
    """A card seen taken from the pile is always in its holder's hand: with
    the random policy, a seat never holds... (checked on the spec itself)."""
    state = rk.Game("gin").new_hand(seed=2)
    while not state.is_terminal():
        legal = state.legal_actions()
        state.apply_action(105 if 105 in legal else legal[0])
        if any(state.known) and state.player == 0 and not state.is_terminal():
            break
    if state.is_terminal():
        pytest.skip("no take in this hand")
    spec = hidden_spec(state, state.player)
    _core.playout_check(state._core_rules, spec)


def test_playouts_errors() -> None:
    state = rk.Game("gin").new_hand(seed=1)
    with pytest.raises(rk.InvalidOptionError, match="policy"):
        rk.playouts(state, 10, policy="smart")
    with pytest.raises(rk.InvalidOptionError, match="n must"):
        rk.playouts(state, -1)
    with pytest.raises(rk.InvalidOptionError, match="threads"):
        rk.playouts(state, 10, threads=0)
    with pytest.raises(rk.InvalidOptionError, match="seed"):
        rk.playouts(state, 10, seed=-5)
    with pytest.raises(rk.InvalidOptionError, match="max_knock_deadwood"):
        rk.playouts(state, 10, max_knock_deadwood=-1)
    with pytest.raises(rk.InvalidOptionError, match="KnockState"):
        rk.playouts("not a state", 10)  # type: ignore[arg-type]
    manual = rk.Game("gin", auto_showdown=False).new_hand(seed=1)
    points, outcomes = rk.playouts(manual, 20, seed=1)  # every seat declares greedily
    assert points.shape == (20, 2) and (outcomes != DEAD).any()
    while manual.phase_name != "showdown":
        manual.apply_action(GreedyAgent(30)(manual))
    with pytest.raises(rk.InvalidOptionError, match="manual showdown"):
        rk.playouts(manual, 10)


def test_finished_hand() -> None:
    state = rk.Game("gin").new_hand(seed=4)
    agent = GreedyAgent()
    while not state.is_terminal():
        state.apply_action(agent(state))
    points, outcomes = rk.playouts(state, 5)
    assert (points == np.array(state.returns())).all()
    assert {OUTCOMES[o] for o in outcomes.tolist()} == {state.result.outcome}  # type: ignore[union-attr]


def test_restock_shuffle_is_the_engines() -> None:
    """KnockState._restock and the C kernel share rk_restock_shuffle."""
    state = rk.Game("gin", stock_end_rule="reshuffle").new_hand(seed=9)
    pile = tuple(range(20))
    assert _core.restock_shuffle(state.shuffle_seed, 0, pile) == _core.restock_shuffle(state.shuffle_seed, 0, pile)
    assert sorted(_core.restock_shuffle(123, 1, pile)) == list(pile)
    assert _core.restock_shuffle(123, 1, pile) != _core.restock_shuffle(123, 2, pile)
