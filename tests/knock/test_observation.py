"""Observations, observation tensors, information-state strings and
determinization of knock games (rummykit.knock.observe): at every node of
random hands, for every seat, nothing hidden leaks and a determinized state
looks exactly the same to its seat (a short run by default; RUMMYKIT_LONG=1
or -m long plays many more hands)."""

from __future__ import annotations

import random
import re
from typing import Any

import numpy as np
import pytest

import rummykit as rk
from rummykit import _core
from rummykit.errors import InvalidOptionError
from rummykit.knock import observe
from rummykit.knock.actions import DRAW_STOCK, KNOCK, TAKE
from rummykit.knock.state import KNOCK_ONLY, LAST_CHANCE, SHOWDOWN, KnockState

DECK = (1 << 52) - 1

VARIANTS: list[tuple[str, dict[str, Any]]] = [
    ("gin", {}),
    ("oklahoma-gin", {}),
    ("oklahoma-rummy", {"num_players": 3, "max_turns": 200}),
    ("oklahoma-rummy", {"num_players": 4, "max_turns": 200}),
    ("gin", {"stock_end_rule": "dead_at_2_last_chance"}),
    ("gin", {"stock_end_rule": "dead_at_2_last_chance", "forbid_discarding_taken_card": False}),
    ("gin", {"refused_upcard_set_aside": True, "stock_end_rule": "dead_on_draw", "big_gin_bonus": 31}),
    ("oklahoma-gin", {"stock_end_rule": "reshuffle", "max_restocks": 2, "first_turn_procedure": "upcard_offer"}),
    ("gin", {"auto_showdown": False, "stock_end_rule": "dead_at_2_last_chance"}),
    ("oklahoma-rummy", {"num_players": 3, "max_turns": 200, "auto_showdown": False}),
]
IDS = [f"{name}-{i}" for i, (name, _) in enumerate(VARIANTS)]


def choose(state: KnockState, rng: random.Random) -> int:
    """A random legal action; but half the time a knock when one is legal,
    and often the discard leaving the least deadwood (so that many hands
    reach a showdown, and sooner)."""
    legal = state.legal_actions()
    knocks = [a for a in legal if KNOCK <= a < DRAW_STOCK]
    if knocks and rng.random() < 0.5:
        return rng.choice(knocks)
    discards = [a for a in legal if a < KNOCK]
    if discards and rng.random() < 0.6:
        after = dict(_core.deadwood_after_discards(state._core_rules, state.hands[state.player]))
        return min(discards, key=lambda a: (after[a], a))
    return rng.choice(legal)


def play_out(state: KnockState, rng: random.Random, policy: Any = choose) -> None:
    while not state.is_terminal():
        legal = state.legal_actions()
        assert legal, f"no legal action in {state!r}"
        state.apply_action(policy(state, rng))
        assert len(state.history) < 25_000  # the turn cap (5,000 turns at most here) ends every hand


def hurry(state: KnockState, rng: random.Random) -> int:
    """A random legal action that knocks when it can and most often
    discards the card leaving the least deadwood (short play-outs)."""
    legal = state.legal_actions()
    knocks = [a for a in legal if KNOCK <= a < DRAW_STOCK]
    if knocks:
        return rng.choice(knocks)
    if legal[0] < KNOCK and rng.random() < 0.9:
        after = dict(_core.deadwood_after_discards(state._core_rules, state.hands[state.player]))
        return min((a for a in legal if a < KNOCK), key=lambda a: (after[a], a))
    return rng.choice(legal)


def uniform(state: KnockState, rng: random.Random) -> int:
    """A uniformly random legal action."""
    return rng.choice(state.legal_actions())


def random_hand(game: rk.KnockGame, seed: int, rng: random.Random) -> KnockState:
    """A finished random hand (its history and undo stack give every node)."""
    state = game.new_hand(seed=seed)
    play_out(state, rng)
    return state


def nodes(final: KnockState) -> list[KnockState]:
    """Every state of a hand, from the deal to the end."""
    out = [final.clone()]
    state = final.clone()
    while state.history:
        state.undo()
        out.append(state.clone())
    return out[::-1]


def all_cards(state: KnockState) -> tuple[int, int]:
    """(mask, count) of the cards in hands, stock, discard pile, set aside
    and face-down knock card: the 52 cards, each once."""
    zones = list(state.hands) + [sum(1 << c for c in state.stock), sum(1 << c for c in state.discards)]
    if state.set_aside >= 0:
        zones.append(1 << state.set_aside)
    if state.knock_card >= 0:
        zones.append(1 << state.knock_card)
    mask = 0
    for z in zones:
        mask |= z
    return mask, sum(z.bit_count() for z in zones)


def public_groups(state: KnockState) -> tuple[list[int], list[list[int]], list[int]]:
    """The test's own walk of the step log: per card its restock group, per
    seat and group the cards it holds that nobody saw go in, per seat its
    stock draws."""
    group, pile, restocks = [0] * 52, [int(state.upcard)], 0
    hidden = [[state.rules.hand_size] for _ in range(state.n)]
    draws = [0] * state.n
    for code in state._steps:
        seat, card, restocked, drew, removed, added, unseen = _core.step_fields(code)
        if restocked:
            restocks += 1
            for c in pile[:-1]:
                group[c] = restocks
            for counts in hidden:
                counts.append(0)
            pile = pile[-1:]
        if drew:
            hidden[seat][restocks] += 1
            draws[seat] += 1
        if unseen and card >= 0:
            hidden[seat][group[card]] -= 1
        if removed:
            pile.pop()
        if added:
            pile.append(card)
    return group, hidden, draws


def check_replay(state: KnockState) -> None:
    """The step log's per-seat hidden-card counts agree with the hands, and its
    groups with the engine's (``_card_groups``, the walk of rk_knock_hidden)."""
    group, hidden, draws = public_groups(state)
    assert list(state._card_groups()) == group
    for q in range(state.n):
        counts = [0] * len(hidden[q])
        for c in rk.from_mask(state.hands[q] & ~state.known[q]):
            counts[group[c]] += 1
        assert counts == hidden[q]
        assert draws[q] == len(state.drawn[q])
    for card in state.stock:
        assert group[card] == state.restocks, "the stock holds only cards of the last restock"


def rebuild(det: KnockState) -> KnockState:
    """Replay ``det.history`` with checked actions from ``det.deck``, each
    stock draw taking the card of the drawer's log (a restock puts the pile
    into the stock; each later draw must find its card there)."""
    fresh = det.game.new_hand(deck=list(det.deck), dealer=det.dealer)
    logs = [iter(d) for d in det.drawn]
    for action in det.history:
        if action == DRAW_STOCK:
            limit = det.rules.max_restocks
            if not fresh.stock and len(fresh.discards) >= 2 and (limit < 0 or fresh.restocks < limit):
                fresh = fresh.with_fields(
                    stock=fresh.discards[:-1], discards=fresh.discards[-1:], restocks=fresh.restocks + 1
                )
            if fresh.stock:
                card = next(logs[fresh.player])
                if fresh.restocks:
                    assert card in fresh.stock, "a draw after a restock takes a card of the restocked pile"
                    fresh = fresh.with_fields(stock=tuple(c for c in fresh.stock if c != card) + (card,))
                assert fresh.stock[-1] == card
        if KNOCK <= action < DRAW_STOCK and det.showdown is not None:
            # the automatic arrangement looked at the real defenders' hands: show the same melds
            fresh.knock(action - KNOCK, melds=det.showdown.shown)
            continue
        fresh.play(action, player=fresh.current_player)
    return fresh


def check_determinization(state: KnockState, p: int, seed: int, rng: random.Random, *, deep: bool) -> None:
    det = observe.determinize(state, p, np.random.default_rng(seed))
    assert det is not state and det._undo_depth == 0
    with pytest.raises(rk.IllegalActionError):
        det.undo()
    # the same to p
    assert observe.observation(det, p) == observe.observation(state, p)
    assert np.array_equal(observe.observation_tensor(det, p), observe.observation_tensor(state, p))
    assert observe.information_state_string(det, p) == observe.information_state_string(state, p)
    if state.current_player == p:
        assert det.legal_actions() == state.legal_actions()
    # the public and p's own parts kept, the counts kept
    knock_hidden = state.knock_card >= 0 and observe.observation(state, p).knock_card is None
    if knock_hidden:  # a manual showdown, seen by a defender: the face-down card is resampled
        assert state.phase == SHOWDOWN and state.showdown is not None and state.showdown.knocker != p
        at = [i for i, a in enumerate(state.history) if KNOCK <= a < DRAW_STOCK]
        assert len(at) == 1 and det.history[at[0]] == KNOCK + det.knock_card
        assert det.history[: at[0]] == state.history[: at[0]] and det.history[at[0] + 1 :] == state.history[at[0] + 1 :]
    else:
        assert det.history == state.history and det.knock_card == state.knock_card
    assert det.discards == state.discards and det.known == state.known and det.showdown == state.showdown
    assert det.hands[p] == state.hands[p] and det.drawn[p] == state.drawn[p]
    assert [h.bit_count() for h in det.hands] == [h.bit_count() for h in state.hands]
    assert [len(d) for d in det.drawn] == [len(d) for d in state.drawn]
    assert (det.phase, det.player, det.taken, det.set_aside, det.restocks, det.turns, det.shown_melds) == (
        state.phase,
        state.player,
        state.taken,
        state.set_aside,
        state.restocks,
        state.turns,
        state.shown_melds,
    )
    assert len(det.stock) == len(state.stock)
    assert all(det.known[q] & state.hands[q] == det.known[q] & det.hands[q] for q in range(state.n))
    if state.is_terminal():
        assert det.hands == state.hands and det.result == state.result and sorted(det.stock) == sorted(state.stock)
    # the 52 cards, and a deck that is a permutation of them with p's dealt cards where they were
    assert all_cards(det) == (DECK, 52)
    assert sorted(det.deck) == list(range(52)) and det.deck[det.rules.hand_size * det.n] == state.upcard
    n = state.n
    seats = [(det.dealer + 1 + i) % n for i in range(det.rules.hand_size * n)]
    assert [c for c, s in zip(det.deck, seats) if s == p] == [c for c, s in zip(state.deck, seats) if s == p]
    if deep:
        # leak-free: only what p knows goes in (a world p cannot tell apart gives the same sample)
        twin = observe.determinize(state, p, seed + 1)
        again = observe.determinize(twin, p, np.random.default_rng(seed))
        assert (again.hands, again.stock, again.deck, again.drawn, again.shuffle_seed) == (
            det.hands,
            det.stock,
            det.deck,
            det.drawn,
            det.shuffle_seed,
        )
        # the rebuilt deck and draw logs fit the whole public history
        fresh = rebuild(det)
        assert (fresh.hands, fresh.discards, fresh.known, fresh.drawn, fresh.phase, fresh.player, fresh.result) == (
            det.hands,
            det.discards,
            det.known,
            det.drawn,
            det.phase,
            det.player,
            det.result,
        )
        assert sorted(fresh.stock) == sorted(det.stock)
        if not det.restocks:
            assert fresh.stock == det.stock
    # it plays on to the end
    play_out(det, rng, uniform if deep else hurry)
    assert det.result is not None and all_cards(det)[0] == DECK


def in_view(state: KnockState, p: int, q: int) -> int:
    """The cards of seat q's hand that seat p may see: its own hand, the
    cards q took from the discard pile, in a manual showdown the knocker's
    hand and the declared cards, at the end every hand."""
    if q == p or state.is_terminal():
        return state.hands[q]
    sd = state.showdown
    if state.phase == SHOWDOWN and sd is not None:
        return state.hands[q] if q == sd.knocker else state.known[q] & state.hands[q] | sd.used[q]
    return state.known[q] & state.hands[q]


def check_no_leak(state: KnockState, p: int) -> None:
    obs = observe.observation(state, p)
    over = state.is_terminal()
    assert obs.hand == tuple(rk.from_mask(state.hands[p]))
    for q in range(state.n):
        assert rk.to_mask(obs.known_cards[q]) == state.known[q] & state.hands[q]
        assert rk.to_mask(obs.seen_cards[q]) == in_view(state, p, q)
    if not over:
        assert obs.result is None and obs.current_player == state.player
        if obs.knock_card is not None:
            sd = state.showdown
            assert sd is not None and (p == sd.knocker or state.known[sd.knocker] >> state.knock_card & 1)
    else:
        assert obs.result is state.result and obs.current_player == -4
        assert obs.knock_card == (rk.Card(state.knock_card) if state.knock_card >= 0 else None)
    assert "shuffle_seed" not in repr(obs)
    tensor = observe.observation_tensor(state, p)
    assert tensor.shape == (observe.OBSERVATION_TENSOR_SIZE,) and tensor.dtype == np.float32
    assert tensor.min() >= 0.0 and tensor.max() <= 1.0
    at = {name: start for name, start, _ in observe.OBSERVATION_LAYOUT}

    def plane(name: str, r: int = 0) -> int:
        start = at[name] + 52 * r
        return rk.to_mask([c for c in range(52) if tensor[start + c]])

    assert plane("hand") == state.hands[p]
    for r in range(1, 4):
        q = (p + r) % state.n
        assert plane("known_others", r - 1) == (state.known[q] & state.hands[q] if r < state.n else 0)
        assert plane("seen_others", r - 1) == (in_view(state, p, q) if r < state.n else 0)
    assert plane("knock_card") == (1 << obs.knock_card if obs.knock_card is not None else 0)


SPECIAL = (KNOCK_ONLY, LAST_CHANCE, SHOWDOWN)


def check_hands(
    name: str, options: dict[str, Any], full: int, sampled: int, seed: int, deep_every: int, longest: int = 10**9
) -> dict[str, int]:
    """Random hands: every node of ``full`` ones (of at most ``longest``
    actions), then a few nodes (and every end, last-chance and showdown
    node) of ``sampled`` more; at each, every seat."""
    game = rk.Game(name, **options)
    rng = random.Random(seed)
    seen = {"nodes": 0, "knock_only": 0, "showdown": 0, "restocks": 0, "showdowns": 0}
    deal = seed * 100_000
    for i in range(full + sampled):
        final = random_hand(game, deal, rng)
        deal += 1
        while i < full and len(final.history) > longest:
            final = random_hand(game, deal, rng)
            deal += 1
        seen["showdowns"] += final.result is not None and not final.result.is_dead
        seen["restocks"] += final.restocks
        states = nodes(final)
        if i >= full:
            picked = set(rng.sample(range(len(states)), min(3, len(states))))
            states = [st for k, st in enumerate(states) if k in picked or st.is_terminal() or st.phase in SPECIAL]
        for k, state in enumerate(states):
            seen["nodes"] += 1
            seen["knock_only"] += state.phase == KNOCK_ONLY
            seen["showdown"] += state.phase == SHOWDOWN
            check_replay(state)
            for p in range(game.num_players):
                check_no_leak(state, p)
                deep = k % deep_every == 0 or state.is_terminal() or state.phase in SPECIAL
                check_determinization(state, p, rng.randrange(2**32), rng, deep=deep)
    return seen


def many_players(options: dict[str, Any]) -> bool:
    return options.get("num_players", 2) > 2 or options.get("stock_end_rule") == "reshuffle"


@pytest.mark.parametrize(("name", "options"), VARIANTS, ids=IDS)
def test_determinize_at_every_node(name: str, options: dict[str, Any]) -> None:
    """Every node of a few hands, some nodes of more (RUMMYKIT_LONG=1: many)."""
    sampled = 6 if many_players(options) else 8
    seen = check_hands(name, options, 1, sampled, seed=1, deep_every=8, longest=150)
    assert seen["nodes"] > 50 and seen["showdowns"] > 0


@pytest.mark.long
@pytest.mark.parametrize(("name", "options"), VARIANTS, ids=IDS)
def test_long_determinize_at_every_node(name: str, options: dict[str, Any]) -> None:
    seen = check_hands(name, options, 10, 500, seed=2, deep_every=1)
    if options.get("stock_end_rule") == "dead_at_2_last_chance":
        assert seen["knock_only"] > 0
    if options.get("auto_showdown") is False:
        assert seen["showdown"] > 0
    if "rummy" in name or options.get("stock_end_rule") == "reshuffle":
        assert seen["restocks"] > 0


def find_state(name: str, options: dict[str, Any], want: Any, seed: int = 7, tries: int = 2_000) -> KnockState:
    """The first node of random hands for which ``want(state)`` holds."""
    game = rk.Game(name, **options)
    rng = random.Random(seed)
    for i in range(tries):
        for state in nodes(random_hand(game, seed * 100_000 + i, rng)):
            if want(state):
                return state
    raise AssertionError("no such state found")


@pytest.mark.parametrize("forbid", [True, False])
def test_last_chance_taker_can_still_knock(forbid: bool) -> None:
    """After the other seat takes the last-chance discard it must be able to
    knock (with another card than the one taken): every determinization
    deals it a hand that can."""
    options = {"stock_end_rule": "dead_at_2_last_chance", "forbid_discarding_taken_card": forbid}
    state = find_state("gin", options, lambda s: s.phase == KNOCK_ONLY)
    k, p = state.player, 1 - state.player
    for seed in range(30):
        det = observe.determinize(state, p, seed)
        assert det.hands[k] & det.known[k] == state.hands[k] & state.known[k]
        hand, taken = det.hands[k], det.taken
        assert any(c != taken and dw <= det.limit for c, dw in _core.deadwood_after_discards(det._core_rules, hand))
    rng = random.Random(2)
    for q in (k, p):
        check_no_leak(state, q)
        check_determinization(state, q, 5, rng, deep=True)


def check_long_hand(options: dict[str, Any], seed: int, every: int, deep_at: int) -> KnockState:
    """A greedy hand of Oklahoma Rummy replayed from its deal: at every ``every``-th node and
    the last few, every seat's determinization (``deep_at`` of them deep, the last one
    included); returns the finished hand."""
    game = rk.Game("oklahoma-rummy", **options)
    final = rk.play_hand(game, [rk.GreedyAgent()] * game.num_players, seed=seed, dealer=0, trusted=True)
    state = game.new_hand(seed=np.random.default_rng(seed), dealer=0)
    assert state.deck == final.deck
    rng = random.Random(seed)
    n = len(final.history)
    picked = [i for i in range(n + 1) if i % every == 0 or i > n - 3]
    deep = set(picked[:: max(1, len(picked) // deep_at)][: deep_at - 1]) | {n}
    for i in range(n + 1):
        if i in picked:
            for p in range(game.num_players):
                check_determinization(state, p, rng.randrange(2**32), rng, deep=i in deep)
        if i < n:
            state.apply_action(final.history[i])
    assert state.history == final.history and state.result == final.result
    return final


@pytest.mark.parametrize(
    ("options", "seed", "restocks"),
    [({"num_players": 3}, 0, 30), ({"num_players": 4, "max_turns": 5000}, 6, 200)],
    ids=["3p-cap", "4p-5000-turns"],
)
def test_determinize_long_hands(options: dict[str, Any], seed: int, restocks: int) -> None:
    """Hands of thousands of actions (2,000: the turn cap; 10,000 with a higher one) and
    30 to 217 restocks, in which seats draw far more cards than a deck holds: every seat's
    determinization along the way looks the same to it and fits the whole history."""
    final = check_long_hand(options, seed, every=250, deep_at=2)
    assert final.restocks > restocks and max(len(d) for d in final.drawn) > 52


@pytest.mark.long
@pytest.mark.parametrize("num_players", [3, 4])
def test_long_determinize_long_hands(num_players: int) -> None:
    """Many greedy hands (1 to 2 in 40 run to the turn cap), nodes every 20 actions."""
    capped = 0
    for seed in range(60):
        final = check_long_hand({"num_players": num_players}, seed, every=20, deep_at=3)
        capped += len(final.history) >= 1000
    assert capped > 0


def test_restocked_cards_stay_in_their_group() -> None:
    """After a restock the stock holds only cards of the restocked pile, and
    the other hands only what they can hold, in every determinization."""
    state = find_state(
        "oklahoma-rummy",
        {"num_players": 3},
        lambda s: s.restocks >= 1 and len(s.stock) >= 5 and any(len(d) > 3 for d in s.drawn) and not s.is_terminal(),
    )
    group, hidden, _ = public_groups(state)
    for p in range(3):
        for seed in range(10):
            det = observe.determinize(state, p, seed)
            assert all(group[c] == state.restocks for c in det.stock)
            for q in range(3):
                counts = [0] * len(hidden[q])
                for c in rk.from_mask(det.hands[q] & ~det.known[q]):
                    counts[group[c]] += 1
                assert counts == hidden[q]
            rebuild(det)


def test_two_determinizations_differ() -> None:
    state = find_state("gin", {}, lambda s: len(s.history) >= 12 and not s.is_terminal())
    p = state.player
    a, b = observe.determinize(state, p, 1), observe.determinize(state, p, 2)
    q = 1 - p
    assert a.hands[q] != b.hands[q] or a.stock != b.stock
    assert a.hands[q] != state.hands[q] or a.stock != state.stock
    assert a.shuffle_seed != state.shuffle_seed and a.deck != state.deck
    assert a.hands[p] == b.hands[p] == state.hands[p]
    # a Generator is used as given, and also works repeatedly
    gen = np.random.default_rng(3)
    c, d = observe.determinize(state, p, gen), observe.determinize(state, p, gen)
    assert (c.hands, c.stock) != (d.hands, d.stock)


def test_end_keeps_hands_and_resamples_only_the_stock_order() -> None:
    state = find_state("gin", {}, lambda s: s.is_terminal() and len(s.stock) > 3)
    orders = {observe.determinize(state, 0, seed).stock for seed in range(20)}
    assert len(orders) > 1 and all(sorted(o) == sorted(state.stock) for o in orders)
    for seed in range(5):
        det = observe.determinize(state, 0, seed)
        assert det.hands == state.hands and det.result == state.result and det.is_terminal()


def test_showdown_revealed_only_at_the_end() -> None:
    state = find_state(
        "oklahoma-rummy", {"num_players": 3}, lambda s: s.history and KNOCK <= s.history[-1] < DRAW_STOCK
    )
    before = state.clone()
    before.undo()
    knocker, card = before.player, rk.Card(state.history[-1] - KNOCK)
    for p in range(3):
        obs = observe.observation(before, p)
        assert obs.result is None and obs.knock_card is None and obs.knocker is None
        assert all(rk.to_mask(obs.seen_cards[q]) == before.known[q] & before.hands[q] for q in range(3) if q != p)
        assert "result" not in observe.information_state_string(before, p)
        after = observe.observation(state, p)
        assert after.phase == "end" and after.current_player == -4 and after.knocker == knocker
        assert after.result == state.result and after.result is not None and after.result.knocker == knocker
        assert after.knock_card == card
        assert after.seen_cards == tuple(tuple(rk.from_mask(h)) for h in state.hands)
        text = observe.information_state_string(state, p)
        assert "result" in text and f"{knocker}: knock {card}" in text and "\nshown [" in text


def test_manual_showdown_shows_the_knocker_hand_not_the_knock_card() -> None:
    state = find_state(
        "oklahoma-rummy",
        {"num_players": 3, "auto_showdown": False},
        lambda s: (
            s.phase == SHOWDOWN
            and s.showdown is not None
            and s.showdown.used[s.player]
            and not s.known[s.showdown.knocker] >> s.knock_card & 1
        ),
    )
    sd = state.showdown
    assert sd is not None
    k, card, mover = sd.knocker, rk.Card(state.knock_card), state.player
    for p in range(3):
        obs = observe.observation(state, p)
        assert obs.showdown == sd and obs.knocker == k and obs.result is None
        assert rk.to_mask(obs.seen_cards[k]) == state.hands[k] and rk.to_mask(obs.seen_cards[mover]) & sd.used[mover]
        text = observe.information_state_string(state, p)
        assert f"shown {sd.shown}" in text and "result" not in text
        if p == k:
            assert obs.knock_card == card and f"{k}: knock {card}" in text
        else:
            assert obs.knock_card is None and f"\n{k}: knock\n" in text and f"knock {card}" not in text
            cards = {observe.determinize(state, p, seed).knock_card for seed in range(30)}
            assert len(cards) > 1 and all(not c >> 0 & 0 for c in cards)
    final = state.clone()
    play_out(final, random.Random(1))
    assert observe.observation(final, (k + 1) % 3).knock_card == card


def test_information_state_perfect_recall() -> None:
    """Two hands with the same cards for seat p but the rest of the deck
    shuffled, played with the same actions: p's strings agree exactly while
    p has drawn the same cards (and the hand is not over), and then their
    observations agree too."""
    rng = random.Random(5)
    game = rk.Game("oklahoma-rummy", num_players=3)
    agreed = differed = 0
    for i in range(40):
        deck = list(range(52))
        rng.shuffle(deck)
        dealer, p = rng.randrange(3), rng.randrange(3)
        places = [j for j in range(22) if (dealer + 1 + j) % 3 != p and j != 21]
        places += range(22, 52)
        moved = [deck[j] for j in places]
        rng.shuffle(moved)
        deck2 = list(deck)
        for j, c in zip(places, moved):
            deck2[j] = c
        a = game.new_hand(deck=deck, dealer=dealer)
        b = game.new_hand(deck=deck2, dealer=dealer)
        while True:
            same = a.drawn[p] == b.drawn[p] and (not a.is_terminal() or (a.hands == b.hands and a.result == b.result))
            sa, sb = a.information_state_string(p), b.information_state_string(p)
            assert (sa == sb) == same
            if same:
                agreed += 1
                assert a.observation(p) == b.observation(p)
                assert np.array_equal(a.observation_tensor(p), b.observation_tensor(p))
                if a.current_player == p:
                    assert a.legal_actions() == b.legal_actions()
            else:
                differed += 1
            if a.is_terminal() or b.is_terminal():
                break
            common = sorted(set(a.legal_actions()) & set(b.legal_actions()))
            if not common:
                break
            action = choose(a, rng) if a.current_player == p else rng.choice(common)
            if action not in common:
                break
            a.apply_action(action)
            b.apply_action(action)
    assert agreed > 50 and differed > 5


def test_information_state_string_text() -> None:
    game = rk.Game("gin")
    state = game.new_hand(seed=4, dealer=0)
    for text in ("pass", "pass", "draw stock"):
        state.play(text)
    drawn = state.drawn[1][0]
    s1, s0 = observe.information_state_string(state, 1), observe.information_state_string(state, 0)
    assert s1.splitlines()[0] == f"gin() seat 1 of 2, dealer 0, upcard {state.upcard}"
    assert s1.splitlines()[-1] == f"1: draw stock {rk.Card(drawn)}" and s0.splitlines()[-1] == "1: draw stock"
    assert str(rk.Card(drawn)) not in s0.replace(f"upcard {state.upcard}", "")
    assert s0 != s1 and "dealt " in s0
    state.play(f"discard {rk.Card(drawn)}")
    state.play("take")
    assert observe.information_state_string(state, 0).splitlines()[-1] == f"0: take {rk.Card(drawn)}"
    other = rk.Game("gin", knock_limit=9).new_hand(seed=4, dealer=0)
    fresh = game.new_hand(seed=4, dealer=0)
    assert observe.information_state_string(other, 0) != observe.information_state_string(fresh, 0)


def test_restock_is_a_public_event() -> None:
    state = find_state("oklahoma-rummy", {"num_players": 3}, lambda s: s.restocks >= 1)
    for p in range(3):
        assert re.search(r"^restock \d+; \d: draw stock", observe.information_state_string(state, p), re.M)


def test_tensor_layout_is_documented_and_fixed() -> None:
    layout = observe.OBSERVATION_LAYOUT
    assert layout[0][1] == 0 and layout[-1][2] == observe.OBSERVATION_TENSOR_SIZE
    assert all(a[2] == b[1] for a, b in zip(layout, layout[1:])) and all(a < b for _, a, b in layout)
    doc = observe.__doc__ or ""
    rows = re.findall(r"^(\w+)\s+(\d+)\s+(\d+)\s+\S", doc, re.M)
    assert [(name, int(a), int(b)) for name, a, b in rows] == layout
    assert str(observe.OBSERVATION_TENSOR_SIZE) in doc
    for n in (2, 3, 4):
        assert observe.observation_tensor_size(n) == observe.OBSERVATION_TENSOR_SIZE
    for bad in (1, 5, True, "2"):
        with pytest.raises(InvalidOptionError):
            observe.observation_tensor_size(bad)  # type: ignore[arg-type]
    for name, options in VARIANTS:
        state = rk.Game(name, **options).new_hand(seed=1)
        assert observe.observation_tensor(state, 0).shape == (observe.OBSERVATION_TENSOR_SIZE,)


def test_tensor_contents() -> None:
    state = find_state(
        "oklahoma-rummy",
        {"num_players": 3},
        lambda s: s.phase_name == "discard" and s.taken >= 0 and len(s.discards) >= 2 and s.player == 2,
    )
    p = 1
    t = observe.observation_tensor(state, p)
    at = {name: (a, b) for name, a, b in observe.OBSERVATION_LAYOUT}

    def plane(name: str) -> int:
        a, b = at[name]
        return rk.to_mask([c for c in range(b - a) if t[a + c]])

    def plane_of(r: int) -> int:
        a = at["seen_others"][0] + 52 * r
        return rk.to_mask([c for c in range(52) if t[a + c]])

    def part(name: str) -> list[float]:
        a, b = at[name]
        return [float(x) for x in t[a:b]]

    assert part("current_player") == [0, 1, 0, 0]  # seat 2 is one after seat 1
    assert part("dealer")[(state.dealer - p) % 3] == 1 and sum(part("dealer")) == 1
    assert part("num_players") == [0, 1, 0]
    assert part("phase")[state.phase] == 1 and sum(part("phase")) == 1
    assert plane("hand") == state.hands[p]
    assert plane("top_discard") == 1 << state.discards[-1]
    assert plane("discard_rest") == rk.to_mask(list(state.discards[:-1]))
    assert plane("known_self") == state.known[p]
    assert plane("upcard") == state.upcard.mask and plane("taken") == 1 << state.taken
    assert plane("set_aside") == 0 and plane("knock_card") == 0 and plane("table") == 0
    assert [plane_of(r) for r in range(3)] == [state.known[2] & state.hands[2], state.known[0] & state.hands[0], 0]
    assert part("hand_sizes") == pytest.approx([h / 11 for h in (7, 8, 7)] + [0])
    assert part("stock_size") == pytest.approx([len(state.stock) / 52])
    assert part("knock_limit") == pytest.approx([state.limit / 10])
    assert part("multiplier") == pytest.approx([state.multiplier / 3])
    assert part("gin_only") == [float(state.gin_only)]


def test_bad_arguments() -> None:
    state = rk.Game("gin").new_hand(seed=1)
    for bad in (-1, 2, True):
        with pytest.raises(InvalidOptionError):
            observe.observation(state, bad)
        with pytest.raises(InvalidOptionError):
            observe.determinize(state, bad, 1)
    with pytest.raises(InvalidOptionError):
        observe.determinize(state, 0, -3)
    with pytest.raises(InvalidOptionError):
        observe.determinize(state, 0, "seed")
    assert observe.determinize(state, 0, None).hands[0] == state.hands[0]


def test_take_names_its_card_and_offer_states() -> None:
    state = rk.Game("gin").new_hand(seed=2, dealer=1)
    state.play("take")
    up = state.upcard
    for p in range(2):
        assert observe.information_state_string(state, p).splitlines()[-1] == f"0: take {up}"
        obs = observe.observation(state, p)
        assert obs.taken == up and obs.known_cards[0] == (up,) and obs.discard_pile == ()
    assert observe.observation(state, 0).hand_sizes == (11, 10)
    assert TAKE not in state.legal_actions()


def test_explicit_knock_melds_are_public() -> None:
    """A knock with melds given explicitly: the shown arrangement is in every
    seat's view and string, and determinization keeps it."""
    for auto in (True, False):
        state = find_state(
            "oklahoma-rummy",
            {"num_players": 3, "auto_showdown": auto},
            lambda s: any(KNOCK <= a < DRAW_STOCK for a in s.legal_actions()),
        )
        action = next(a for a in state.legal_actions() if KNOCK <= a < DRAW_STOCK)
        card = rk.Card(action - KNOCK)
        melds = rk.best_melds(state.hands[state.player] & ~card.mask).melds
        state.knock(card, melds=list(melds))
        assert state.shown_melds is not None
        for p in range(3):
            text = observe.information_state_string(state, p)
            assert "\nshown [" in text
            det = observe.determinize(state, p, 3)
            assert det.shown_melds == state.shown_melds and observe.information_state_string(det, p) == text
            play_out(det, random.Random(p))


def test_last_chance_taker_keeps_its_cards_when_samples_run_out() -> None:
    """A last-chance taker must be able to knock; if no sample allows it the
    taker keeps its real hidden cards and the rest is still resampled."""
    rng = random.Random(4)
    game = rk.Game("gin", first_turn_procedure="normal", stock_end_rule="dead_at_2_last_chance")
    found = 0
    for seed in range(400):
        state = game.new_hand(seed=seed, dealer=0)
        while not state.is_terminal():
            legal = state.legal_actions()
            if state.phase_name == "last_chance":
                state.apply_action(105 if 105 in legal else 106)
                break
            # draw from the stock, discard the drawn card: the stock runs down to the floor
            state.apply_action(104 if 104 in legal else min(a for a in legal if a < 52))
        if state.phase_name != "knock_only":
            continue
        found += 1
        watcher = (state.player + 1) % 2
        other = state._determinize(watcher, rng.randrange(2**32), 0)  # no sample tried: the last resort
        assert observe.observation(other, watcher) == observe.observation(state, watcher)
        assert other.hands[state.player] == state.hands[state.player]
        assert other.legal_actions() == state.legal_actions()
    assert found > 0


def test_history_planes_keep_each_seats_moves_in_order() -> None:
    state = rk.Game("gin").new_hand(seed=1, dealer=0)
    at = {name: start for name, start, _ in observe.OBSERVATION_LAYOUT}
    upcard = state.discards[-1]

    def value(player: int, name: str, seat: int, card: int) -> float:
        tensor = observe.observation_tensor(state, player)
        return float(tensor[at[name] + 52 * ((seat - player) % 2) + card])

    for action in ("pass", "pass", "draw stock"):  # both pass the upcard; seat 1's forced draw is no pass
        state.play(action)
    assert value(0, "recent_passes", 1, upcard) == value(1, "recent_passes", 0, upcard) == 1.0
    discard = state.legal_actions()[0]
    state.apply_action(discard)
    assert value(0, "recent_discards", 1, discard) == 1.0
    state.play("draw stock")  # seat 0 declines seat 1's discard
    assert value(1, "recent_passes", 0, discard) == 1.0 and value(1, "recent_passes", 0, upcard) == 7 / 8
    mine = state.legal_actions()[0]
    state.apply_action(mine)
    state.play("take")  # seat 1 takes it back at once
    assert value(0, "recent_takes", 1, mine) == 1.0 and value(0, "recent_discards", 0, mine) == 1.0
    tensor = observe.observation_tensor(state, 0)
    history = tensor[at["recent_discards"] : at["deadwood"]]
    assert np.count_nonzero(history) == 6  # each seat: 2 passes and 1 discard, or 1 pass, 1 discard and 1 take


def test_deadwood_planes_read_the_own_hand() -> None:
    """The deadwood planes of a dealt hand, against rummykit.analysis (tests/knock/test_core.py
    checks them against the plain oracle over random states)."""
    from rummykit.analysis import best_discard, deadwood, discard_deadwoods

    state = rk.Game("gin").new_hand(seed=3, dealer=0)
    for action in ("pass", "pass", "draw stock"):
        state.play(action)
    at = {name: (start, stop) for name, start, stop in observe.OBSERVATION_LAYOUT}
    seat = state.player
    tensor = observe.observation_tensor(state, seat)
    hand = state.hands[seat]
    assert tensor[at["deadwood"][0]] == np.float32(deadwood(hand) / 100)
    after = discard_deadwoods(hand)
    for card, left in after.items():
        assert tensor[at["discard_deadwood"][0] + card.id] == np.float32(left / 100)
        melded = left > deadwood(hand) - min(card.rank + 1, 10)
        assert tensor[at["melded"][0] + card.id] == float(melded)
    best = np.flatnonzero(tensor[slice(*at["best_discard"])])
    assert list(best) == [best_discard(hand).card.id]
    other = observe.observation_tensor(state, 1 - seat)  # the other seat's planes read its own hand
    assert other[at["deadwood"][0]] == np.float32(deadwood(state.hands[1 - seat]) / 100)


def test_deadwood_planes_stay_in_bounds_past_100() -> None:
    """Eleven unmatched high cards hold 106 deadwood: the plane is capped at 1, the tensor stays
    inside the [0, 1] box the environments declare, and the cards below 100 keep their scale."""
    from rummykit.analysis import deadwood

    high = [int(rk.Card(c)) for c in "KS KH QC QD JS JH TC TD 9S 9H".split()]
    rest = [c for c in range(52) if c not in high and c != rk.Card("8C")]
    deck = [0] * 52
    deck[0:20:2] = high  # the non-dealer's cards
    deck[1:20:2] = rest[:10]
    deck[20] = int(rk.Card("8C"))  # the upcard
    deck[21:] = rest[10:]
    state = rk.Game("gin").new_hand(deck=deck, dealer=0)
    state.play("take")
    hand = state.hands[1]
    assert deadwood(hand) == 106
    at = {name: start for name, start, _ in observe.OBSERVATION_LAYOUT}
    tensor = observe.observation_tensor(state, 1)
    assert tensor.min() >= 0.0 and tensor.max() <= 1.0
    assert tensor[at["deadwood"]] == 1.0
    assert tensor[at["discard_deadwood"] + int(rk.Card("KS"))] == np.float32(96 / 100)


@pytest.mark.parametrize(
    ("game", "options"), [("gin", {}), ("gin", {"allow_ace_high_run": True}), ("oklahoma-rummy", {"num_players": 4})]
)
def test_deadwood_planes_match_the_plain_oracle(game: str, options: dict[str, Any]) -> None:
    """Every seat's deadwood planes over random play, against tests/reference/deadwood.py."""
    from reference import deadwood as oracle

    rng = random.Random(5)
    checked = 0
    for hand_seed in range(3):
        state = rk.Game(game, **options).new_hand(seed=hand_seed, dealer=0)
        aces = state.rules.aces
        while not state.is_terminal() and checked < 60:
            for seat in range(state.n):
                tensor = observe.observation_tensor(state, seat)
                want = np.zeros(observe.OBSERVATION_TENSOR_SIZE, dtype=np.float32)
                hand = oracle.from_mask(state.hands[seat])
                least = oracle.min_deadwood(hand, aces)
                at = {name: start for name, start, _ in observe.OBSERVATION_LAYOUT}
                want[at["deadwood"]] = min(least / 100, 1)
                if state.discards and state.discards[-1] not in hand:
                    top = state.discards[-1]
                    want[at["take_deadwood"]] = min(oracle.best_discard(hand | {top}, top, aces)[1] / 100, 1)
                for card, left in oracle.deadwood_after_each_discard(hand, aces).items():
                    want[at["discard_deadwood"] + card] = min(left / 100, 1)
                    want[at["melded"] + card] = left > least - oracle.DEFAULT_VALUES[card % 13]
                forbidden = state.taken if state.taken in hand else None
                if hand - {forbidden}:
                    want[at["best_discard"] + oracle.best_discard(hand, forbidden, aces)[0]] = 1
                start = at["deadwood"]
                assert np.array_equal(tensor[start:], want[start:]), (game, hand_seed, seat, state.history)
            checked += 1
            state.apply_action(rng.choice(state.legal_actions()))
    assert checked >= 60
