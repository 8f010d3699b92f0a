"""The panel's fixed-style players against slow references: eaai-simple (the EAAI-2021
challenge's SimpleGinRummyPlayer) and patient; the gin_eaai preset's rules."""

from __future__ import annotations

import pytest

import rummykit as rk
from rummykit.agents import EAAISimpleAgent, PatientAgent, make_agent
from rummykit.knock.actions import DRAW_STOCK, KNOCK, PASS, TAKE
from tests.reference.deadwood import all_melds, deadwood_after_each_discard, from_mask


def _in_meld(hand: frozenset[int], card: int) -> bool:
    return any(card in meld for meld in all_melds(hand | {card}))


def test_gin_eaai_preset_is_the_challenge_rules() -> None:
    rules = rk.Game("gin_eaai").rules
    assert (rules.target_score, rules.gin_bonus, rules.undercut_bonus, rules.undercut_on_tie) == (100, 25, 25, True)
    assert (rules.big_gin_bonus, rules.game_bonus, rules.box_bonus, rules.shutout_rule) == (None, 0, 0, "none")
    assert (rules.first_turn_procedure, rules.stock_end_rule, rules.knock_limit, rules.knock_compare) == (
        "upcard_offer",
        "dead_at_2",
        10,
        "le",
    )
    assert (rules.dealer_rotation, rules.dealer_after_dead_hand) == ("alternate", "same")
    assert rk.Game("gin-eaai").rules == rules


def test_gin_eaai_match_scores_without_bonuses_and_keeps_the_starter_after_a_dead_hand() -> None:
    gin_hunter = make_agent("greedy:max_knock_deadwood=0")
    match = rk.Match("gin_eaai", [gin_hunter, make_agent("eaai-simple", 1)], seed=4)
    result = match.play()
    assert max(result.scores) >= 100 and list(result.totals) == list(result.scores)  # no game, box or shutout bonus
    for k, hand in enumerate(match.hands[:-1]):
        follows = match.dealers[k + 1]
        if hand.winner is None:  # cancelled: the same dealer, so the same starting player
            assert follows == match.dealers[k]
        else:
            assert follows == 1 - match.dealers[k]
        if hand.outcome == "gin":
            assert hand.points[hand.winner] == 25 + hand.deadwood[1 - hand.winner]


def test_a_gin_eaai_hand_is_cancelled_when_a_discard_leaves_two_cards() -> None:
    def never_knocks(state: rk.GameState) -> int:  # draws from the stock, throws the lowest card id
        legal = state.legal_actions()
        return DRAW_STOCK if DRAW_STOCK in legal else PASS if PASS in legal else min(legal)

    dead = 0
    for seed in range(5):
        state = rk.Game("gin_eaai").new_hand(seed=seed, dealer=0)
        while not state.is_terminal():
            state.apply_action(never_knocks(state))
        if state.result.outcome == "dead":
            dead += 1
            assert state.observation(0).stock_size == 2 and state.history[-1] < KNOCK  # a plain discard
    assert dead > 0


def _check_eaai_hand(seed: int, game: str) -> int:
    """Both seats played by eaai-simple; every decision checked against the published policy.
    Returns the decisions checked."""
    state = rk.Game(game).new_hand(seed=seed, dealer=seed % 2)
    agents = [EAAISimpleAgent(seed=seed), EAAISimpleAgent(seed=seed + 1)]
    pairs: list[set[frozenset[int]]] = [set(), set()]
    before = [0, 0]
    checked = 0
    limit = state.rules.knock_limit
    while not state.is_terminal():
        me = state.current_player
        legal = state.legal_actions()
        hand = from_mask(state.hands[me])
        action = agents[me](state)
        assert action in legal
        if TAKE in legal or DRAW_STOCK in legal or PASS in legal:
            before[me] = state.hands[me]
            top = int(state.top_discard) if state.top_discard is not None else -1
            wanted = TAKE if TAKE in legal and top >= 0 and _in_meld(hand, top) else None
            assert action == (wanted or (DRAW_STOCK if DRAW_STOCK in legal else PASS))
        else:
            drawn = from_mask(state.hands[me] & ~before[me])
            (drawn_card,) = drawn
            card = action - KNOCK if action >= KNOCK else action
            after = deadwood_after_each_discard(hand)
            allowed = [c for c in hand if c != state.taken and frozenset((drawn_card, c)) not in pairs[me]]
            least = min(after[c] for c in allowed)
            assert card in allowed and after[card] == least
            assert (action >= KNOCK) == (least <= limit)
            pairs[me].add(frozenset((drawn_card, card)))
        checked += 1
        state.apply_action(action)
    return checked


@pytest.mark.parametrize("game", ["gin_eaai", "gin"])
def test_eaai_simple_plays_the_published_policy(game: str) -> None:
    assert sum(_check_eaai_hand(seed, game) for seed in range(12)) > 100


def test_eaai_simple_is_seeded_and_resets_its_pairs_each_hand() -> None:
    a, b = make_agent("eaai-simple", 5), make_agent("eaai-simple", 5)
    for seed in range(3):
        s1 = rk.Game("gin_eaai").new_hand(seed=seed, dealer=0)
        s2 = s1.clone()
        while not s1.is_terminal():
            act = a(s1) if s1.current_player == 0 else make_agent("greedy")(s1)
            assert (b(s2) if s2.current_player == 0 else make_agent("greedy")(s2)) == act
            s1.apply_action(act)
            s2.apply_action(act)
    assert a._pairs  # the last hand's pairs, none from the earlier hands
    assert len({frozenset(p) for p in a._pairs}) == len(a._pairs)


def test_patient_knocks_only_early_or_for_gin() -> None:
    greedy_any = make_agent("greedy")
    knocks = 0
    for seed in range(30):
        state = rk.Game("gin").new_hand(seed=seed, dealer=0)
        agent = PatientAgent(knock_turns=2)
        while not state.is_terminal():
            action = agent(state)
            early = state.turns < 4
            expected = state._greedy_action(-1 if early else 0)
            assert action == expected
            if action >= KNOCK and action < DRAW_STOCK:
                knocks += 1
                assert early or rk.analysis.deadwood(state.hands[state.current_player] & ~(1 << (action - KNOCK))) == 0
            state.apply_action(action if state.current_player == 0 else greedy_any(state))
    assert knocks > 0


def test_style_agents_refuse_table_games_and_bad_settings() -> None:
    state = rk.Game("rummy").new_hand(seed=1)
    for name in ("eaai-simple", "patient"):
        with pytest.raises(rk.InvalidOptionError, match="knock games"):
            make_agent(name)(state)
    with pytest.raises(rk.InvalidOptionError, match="knock_turns"):
        make_agent("patient:knock_turns=-1")
