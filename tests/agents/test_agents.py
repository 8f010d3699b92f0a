"""Agents: the greedy policy against a slow reference, seeding, ISMCTS budgets, names."""

from __future__ import annotations

import time

import numpy as np
import pytest

import rummykit as rk
from rummykit.agents import (
    GreedyAgent,
    ISMCTSAgent,
    RandomAgent,
    greedy_rollout,
    hand_reward,
    make_agent,
    random_rollout,
    signed_results,
)
from rummykit.analysis import deadwood, discard_deadwoods
from rummykit.cards import Card
from rummykit.inference import (
    SoftGreedyModel,
    effective_sample_size,
    log_likelihoods,
    posterior_determinizations,
    weighted_determinizations,
)
from rummykit.knock.actions import BIG_GIN, DONE, DRAW_STOCK, KNOCK, MELD, PASS, TAKE

KNOCK_GAMES = [
    ("gin", {}),
    ("oklahoma-gin", {}),
    ("oklahoma-rummy", {"num_players": 3}),
    ("gin", {"stock_end_rule": "dead_at_2_last_chance", "big_gin_bonus": 31}),
    ("oklahoma-gin", {"allow_ace_high_run": True, "forbid_discarding_taken_card": False}),
]


def reference_greedy(state: rk.KnockState, max_knock: int | None = None) -> int:
    """The documented policy, spelt out with the public analysis functions."""
    legal = state.legal_actions()
    aces = state.rules.aces
    hand = state.hands[state.player]
    phase = state.phase_name
    if phase in ("offer_nondealer", "offer_dealer", "draw"):
        if TAKE in legal:
            top = state.discards[-1]
            after = discard_deadwoods(hand | 1 << top, aces=aces)
            if min(dw for c, dw in after.items() if c != top) < deadwood(hand, aces=aces):
                return TAKE
        return PASS if PASS in legal else DRAW_STOCK
    if phase == "forced_stock_draw":
        return DRAW_STOCK
    if phase == "last_chance":
        return TAKE if TAKE in legal else PASS
    assert phase in ("discard", "knock_only")
    if BIG_GIN in legal:
        return BIG_GIN
    after = discard_deadwoods(hand, aces=aces)

    def key(card: int) -> tuple[int, int, int]:
        return after[Card(card)], -min(card % 13 + 1, 10), -card

    knocks = [a - KNOCK for a in legal if KNOCK <= a < DRAW_STOCK]
    if knocks:
        best = min(knocks, key=key)
        if phase == "knock_only" or max_knock is None or after[Card(best)] <= max_knock:
            return KNOCK + best
    return min((a for a in legal if a < KNOCK), key=key)


@pytest.mark.parametrize(("name", "options"), KNOCK_GAMES)
@pytest.mark.parametrize("max_knock", [None, 0, 5])
def test_greedy_matches_the_reference_policy(name: str, options: dict[str, object], max_knock: int | None) -> None:
    game = rk.Game(name, **options)
    greedy = GreedyAgent(max_knock)
    rng = np.random.default_rng(11)
    checked = 0
    for seed in range(12):
        state = game.new_hand(seed=seed)
        while not state.is_terminal():
            action = greedy(state)
            assert action == reference_greedy(state, max_knock), (seed, state, state.history)
            checked += 1
            # a random move now and then reaches states greedy play alone would not
            legal = state.legal_actions()
            state.apply_action(legal[int(rng.integers(len(legal)))] if rng.random() < 0.3 else action)
    assert checked > 200


def test_greedy_pinned_positions() -> None:
    game = rk.Game("gin")
    # the non-dealer (seat 1) holds 2S 3S 5S 6S 7S 9D TD JD 3C KC; the upcard 4S joins two runs
    seat1 = "2S 3S 5S 6S 7S 9D TD JD 3C KC".split()
    seat0 = "AC 2C 3H 4H 5D 6C 7D 8H 9C TH".split()
    rest = [str(c) for c in rk.from_mask((1 << 52) - 1 - rk.to_mask(seat0 + seat1 + ["4S"]))]
    deck = [c for pair in zip(seat1, seat0) for c in pair] + ["4S"] + rest
    state = game.new_hand(dealer=0, deck=deck)
    assert GreedyAgent()(state) == TAKE
    state.apply_action(TAKE)
    # 2S-7S and 9D TD JD melded, 3C KC left: discarding KC leaves 3, a legal knock
    assert GreedyAgent()(state) == KNOCK + Card("KC")
    assert GreedyAgent(max_knock_deadwood=3)(state) == KNOCK + Card("KC")
    assert GreedyAgent(max_knock_deadwood=2)(state) == Card("KC")


def test_greedy_plays_a_manual_showdown_to_the_end() -> None:
    game = rk.Game("oklahoma-rummy", num_players=3, auto_showdown=False)
    greedy = GreedyAgent()
    showdowns = 0
    for seed in range(30):
        state = game.new_hand(seed=seed)
        while not state.is_terminal():
            action = greedy(state)
            if state.phase_name == "showdown":
                showdowns += 1
                assert action in state.legal_actions()
            state.apply_action(action)
    assert showdowns > 10


def test_greedy_declares_melds_before_done() -> None:
    game = rk.Game("gin", auto_showdown=False)
    state = game.new_hand(seed=4)
    greedy = GreedyAgent()
    while state.phase_name != "showdown":
        state.apply_action(greedy(state))
    actions = []
    while state.phase_name == "showdown":
        actions.append(greedy(state))
        state.apply_action(actions[-1])
    assert actions[-1] == DONE and all(a != DONE for a in actions[:-1])
    melded = [a for a in actions if MELD <= a < DONE]
    assert state.result is not None and (melded or state.result.deadwood[state.result.knocker ^ 1] > 0)


@pytest.mark.parametrize("agent", [RandomAgent(seed=3), ISMCTSAgent(iterations=30, seed=3)])
def test_seeded_agents_repeat_their_moves(agent: rk.agents.Agent) -> None:
    def play(a: rk.agents.Agent) -> list[int]:
        state = rk.Game("oklahoma-gin").new_hand(seed=8)
        greedy = GreedyAgent()
        while not state.is_terminal():
            state.apply_action(a(state) if state.current_player == 0 else greedy(state))
        return state.history

    assert play(agent.spawn(5)) == play(agent.spawn(5))  # type: ignore[attr-defined]


def test_ismcts_python_rollouts() -> None:
    state = rk.Game("gin").new_hand(seed=2)
    state.apply_action(PASS)
    state.apply_action(PASS)
    state.apply_action(DRAW_STOCK)
    for agent in (ISMCTSAgent(iterations=20, rollout=random_rollout, seed=1), ISMCTSAgent(model="uniform", seed=1)):
        assert agent(state) in state.legal_actions()
    assert len(greedy_rollout(state.determinize(state.current_player, 1), np.random.default_rng(1))) == 2


def _midhand(name: str = "oklahoma-gin", seed: int = 3, turns: int = 12, **options: object) -> rk.KnockState:
    """A state after at least ``turns`` greedy actions, at a discard of the seat to move (a
    choice among many cards); the first deal from ``seed`` on whose hand lasts that long."""
    game = rk.Game(name, **options)
    greedy = GreedyAgent()
    while True:
        state = game.new_hand(seed=seed)
        while not state.is_terminal() and (len(state.history) < turns or state.phase_name != "discard"):
            state.apply_action(greedy(state))
        if not state.is_terminal():
            return state
        seed += 1000


def test_ismcts_time_per_move_is_roughly_honoured() -> None:
    state = _midhand()
    counted: list[int] = []

    class Counting(ISMCTSAgent):
        def _iterate(self, *args: object) -> None:
            counted.append(1)
            super()._iterate(*args)  # type: ignore[arg-type]

    start = time.perf_counter()
    assert Counting(time_per_move=0.2, model="uniform", samples=2, seed=1)(state) in state.legal_actions()
    elapsed = time.perf_counter() - start
    assert 0.2 <= elapsed < 5  # generous: a loaded machine, one iteration may overrun
    assert len(counted) > 1  # more than the one iteration that always runs
    counted.clear()
    Counting(iterations=7, time_per_move=60, seed=1)(state)  # the first budget reached stops it
    assert len(counted) == 7


def test_ismcts_plays_three_players() -> None:
    state = rk.Game("oklahoma-rummy", num_players=3).new_hand(seed=1)
    agent = ISMCTSAgent(iterations=10, samples=4, seed=0)
    while not state.is_terminal():
        state.apply_action(agent(state))
    assert len(state.returns()) == 3


def test_hand_reward_is_monotone_in_zero_one() -> None:
    values = [hand_reward(x) for x in range(-300, 301, 7)]
    assert values == sorted(values) and 0 < values[0] and values[-1] < 1 and hand_reward(0) == 0.5


def test_rewards_are_signed_results() -> None:
    """A lost hand is a loss (reward 0 with margin=0), not a dead hand (0.5): the reward of
    each seat comes from its points less the other seats' mean, which sum to zero."""
    assert signed_results([25, 0]) == [25.0, -25.0] and signed_results([0, 0, 0]) == [0.0] * 3
    assert sum(signed_results([30, -10, -20, 0])) == pytest.approx(0)
    assert [hand_reward(x, margin=0) for x in signed_results([0, 31])] == [0.0, 1.0]
    assert hand_reward(signed_results([0, 31])[0]) < 0.5 < hand_reward(signed_results([0, 31])[1])
    state = _midhand("gin")
    for margin in (0.0, 0.5):  # two seats: the rewards of a leaf are zero-sum, 1 in all
        evaluate = ISMCTSAgent(iterations=1, margin=margin, seed=3)._leaf_points(state)
        rewards = evaluate(state.clone(), 7)
        assert sum(rewards) == pytest.approx(1.0)
    rewards = ISMCTSAgent(iterations=1, rollout=greedy_rollout, seed=3)._leaf_points(state)(state.clone(), 7)
    assert sorted(rewards) in ([0.0, 1.0], [0.5, 0.5])


def test_make_agent_names_and_settings() -> None:
    assert isinstance(make_agent("greedy"), GreedyAgent)
    agent = make_agent("ismcts:iterations=40,exploration=1.5", seed=2)
    assert isinstance(agent, ISMCTSAgent) and agent.iterations == 40 and agent.exploration == 1.5
    assert make_agent("greedy:max_knock_deadwood=none").max_knock_deadwood is None  # type: ignore[attr-defined]
    own = RandomAgent(seed=1)
    assert isinstance(make_agent(own, seed=4), RandomAgent) and make_agent(own, seed=4) is not own


@pytest.mark.parametrize(
    "spec",
    [
        "minimax",
        "ismcts:iterations=0",
        "ismcts:depth=3",
        "ismcts:iterations",
        "greedy:max_knock_deadwood=-1",
        "ismcts:time_per_move=0",
        "ismcts:margin=2",
        "ismcts:model=oracle",
        "ismcts:samples=0",
        "ismcts:beta=0",
        "ismcts:seed=3",
        42,
    ],
)
def test_bad_agents_raise_invalid_option(spec: object) -> None:
    with pytest.raises(rk.InvalidOptionError):
        make_agent(spec)  # type: ignore[arg-type]


def test_greedy_beats_random_in_oklahoma_gin() -> None:
    result = rk.tournament(["greedy", "random"], "oklahoma-gin", hands=100, seed=1)
    greedy = result.agents[0]
    assert greedy.wins >= 0.95 * (result.hands - result.outcomes.get("dead", 0))


@pytest.mark.parametrize(("name", "players"), [("rummy", 2), ("rummy", 4), ("kaluki", 2), ("kaluki", 3)])
def test_greedy_beats_random_at_the_table_games(name: str, players: int) -> None:
    result = rk.tournament(["greedy"] + ["random"] * (players - 1), name, hands=12, seed=1, num_players=players)
    assert result.agents[0].wins >= 10


def test_greedy_table_moves_are_legal_and_meld_first() -> None:
    game = rk.Game("rummy")
    greedy = GreedyAgent()
    for seed in range(3):
        state = game.new_hand(seed=seed)
        while not state.is_terminal():
            legal = state.legal_actions()
            action = greedy(state)
            assert action in legal
            if state.phase_name == "play" and any(a >= rk.table.actions.MELD_SET for a in legal):
                assert action >= rk.table.actions.MELD_SET
            state.apply_action(action)


def test_ismcts_refuses_states_without_determinize() -> None:
    class Opaque:  # a state with legal actions and nothing else
        game = "opaque"

        def legal_actions(self) -> list[int]:
            return [0, 1]

    with pytest.raises(rk.InvalidOptionError, match="determinize"):
        ISMCTSAgent(iterations=5)(Opaque())


@pytest.mark.parametrize(
    ("name", "options"),
    [
        ("gin", {}),
        ("oklahoma-gin", {}),
        ("oklahoma-rummy", {"num_players": 3}),
        ("gin", {"stock_end_rule": "reshuffle"}),
    ],
)
def test_posterior_samples_look_the_same_to_the_player(name: str, options: dict[str, object]) -> None:
    for seed, turns in ((1, 6), (2, 14), (5, 24)):
        state = _midhand(name, seed, turns, **options)
        me = state.player
        for sample in posterior_determinizations(state, me, 6, rng=seed, moves=30):
            assert sample.observation(me) == state.observation(me)
            assert sample.information_state_string(me) == state.information_state_string(me)
            assert sample.legal_actions() == state.legal_actions()
            assert sum(h.bit_count() for h in sample.hands) + len(sample.stock) == sum(
                h.bit_count() for h in state.hands
            ) + len(state.stock)


def test_the_model_prefers_the_true_hands_of_a_greedy_opponent() -> None:
    """Against a greedy opponent the soft-greedy likelihood ranks the real deal above most
    uniform samples, and the posterior gives the opponent tighter hands than uniform sampling."""
    from rummykit.analysis import deadwood as least_deadwood

    ranks, posterior_dw, uniform_dw, true_dw = [], [], [], []
    for seed in range(8):
        state = _midhand("oklahoma-gin", seed, 16)
        me, other = state.player, 1 - state.player
        uniform = [state.determinize(me, seed * 100 + i) for i in range(40)]
        logp = log_likelihoods(state, me, [state, *uniform])
        ranks.append(float((logp[1:] < logp[0]).mean()))
        posterior = posterior_determinizations(state, me, 10, rng=seed)
        posterior_dw.append(np.mean([least_deadwood(s.hands[other]) for s in posterior]))
        uniform_dw.append(np.mean([least_deadwood(s.hands[other]) for s in uniform]))
        true_dw.append(least_deadwood(state.hands[other]))
    assert np.mean(ranks) > 0.7
    assert np.mean(uniform_dw) - np.mean(posterior_dw) > 0.5 * (np.mean(uniform_dw) - np.mean(true_dw))


def test_weighted_determinizations_and_bad_settings() -> None:
    state = _midhand()
    samples, weights = weighted_determinizations(state, state.player, 30, rng=2)
    assert len(samples) == 30 and abs(weights.sum() - 1) < 1e-9 and 1 <= effective_sample_size(weights) <= 30
    again, same = weighted_determinizations(state, state.player, 30, rng=2)
    assert [s.hands for s in again] == [s.hands for s in samples] and (same == weights).all()
    with pytest.raises(rk.InvalidOptionError, match="beta"):
        SoftGreedyModel(beta=0)
    with pytest.raises(rk.InvalidOptionError, match="epsilon"):
        SoftGreedyModel(epsilon=1.5)
    with pytest.raises(rk.InvalidOptionError, match="knock-game state"):
        weighted_determinizations(rk.Game("rummy").new_hand(seed=1), 0, 5)  # type: ignore[arg-type]


def test_exact_and_stock_playouts_from_a_determinization() -> None:
    state = _midhand("gin", 4, 10)
    for i in range(5):
        sample = state.determinize(state.player, i)
        points, _ = rk.playouts(sample, 3, resample="none", seed=i)
        assert (points == greedy_rollout(sample.clone(), np.random.default_rng(0))).all()
        stock, _ = rk.playouts(sample, 200, resample="stock", seed=i)
        assert (stock == rk.playouts(sample, 200, resample="stock", seed=i)[0]).all()
        assert len({tuple(row) for row in stock.tolist()}) > 1  # the stock order changes the end
    with pytest.raises(rk.InvalidOptionError, match="resample"):
        rk.playouts(state, 3, resample="all")


@pytest.mark.parametrize(
    ("name", "options"),
    [("gin", {}), ("oklahoma-gin", {}), ("oklahoma-rummy", {"num_players": 4}), ("rummy", {}), ("kaluki", {})],
)
@pytest.mark.parametrize("spec", ["random", "greedy", "ismcts:iterations=10,samples=4"])
def test_every_agent_plays_every_game(name: str, options: dict[str, object], spec: str) -> None:
    game = rk.Game(name, **options)
    state = game.new_hand(seed=6)
    agents = [make_agent(spec, seed=1)] + [GreedyAgent()] * (state.n - 1)
    while not state.is_terminal():
        action = agents[state.current_player](state)
        assert action in state.legal_actions()
        state.apply_action(action)
    assert state.result is not None
