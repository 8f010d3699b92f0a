"""Observations, observation tensors, information-state strings and
determinization of the table games (rummykit.table.observe): at the nodes
of random hands, for every seat, nothing hidden leaks and a determinized
state looks exactly the same to its seat, holds every card once and plays
on (a short run by default; RUMMYKIT_LONG=1 or -m long plays many more
hands)."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import rummykit as rk
from rummykit import _core
from rummykit.errors import IllegalActionError, InvalidOptionError
from rummykit.table import observe
from rummykit.table.actions import DRAW, LAYOFF, RELEASE_RUN, TAKE
from rummykit.table.cards import JOKER, card_type, type_counts, type_text, types_of
from rummykit.table.record import from_json, to_json
from rummykit.table.state import TableState

VARIANTS: list[tuple[str, dict[str, Any]]] = [
    ("rummy", {}),
    ("rummy", {"num_players": 4}),
    ("rummy", {"num_players": 6}),
    ("rummy", {"num_players": 3, "restock_method": "turn_over"}),
    ("rummy", {"taken_discard_must_be_melded": True, "ace_rank": "high_or_low"}),
    ("kaluki", {}),
    ("kaluki", {"num_players": 4}),
    ("kalooki_51", {"num_players": 3}),
]
IDS = [f"{name}-{i}" for i, (name, _) in enumerate(VARIANTS)]


def hurry(state: TableState, rng: random.Random) -> int:
    """A random legal action, but most often a meld or a lay-off when there
    is one (so that hands end sooner and the table fills)."""
    legal = state.legal_actions()
    plays = [a for a in legal if a >= LAYOFF]
    if plays and rng.random() < 0.8:
        return rng.choice(plays)
    return rng.choice(legal)


def play_out(state: TableState, rng: random.Random, longest: int = 3_000) -> None:
    while not state.is_terminal():
        legal = state.legal_actions()
        assert legal, f"no legal action in {state!r}"
        state.apply_action(hurry(state, rng))
        assert len(state.history) < longest


def nodes(final: TableState) -> list[TableState]:
    """Every state of a hand, from the deal to the end."""
    out = [final.clone()]
    state = final.clone()
    while state.history:
        state.undo()
        out.append(state.clone())
    return out[::-1]


def types(state: TableState, seat: int) -> list[int]:
    return types_of(state.hands[seat])


def all_cards(state: TableState) -> tuple[int, int]:
    """(mask, count) of the physical cards in hands, stock, pile and table."""
    zones = list(state.hands) + [1 << c for c in state.stock] + [1 << c for c in state.discards]
    zones += [1 << c for m in state.table for c in m.cards]
    mask = 0
    for z in zones:
        mask |= z
    return mask, sum(z.bit_count() for z in zones)


def public(state: TableState) -> tuple[Any, ...]:
    """The public fields, cards as types."""
    return (
        state.phase,
        state.player,
        state.turns,
        state.restocks,
        state.opened,
        state.played,
        state.taken,
        state.must,
        state.open_value,
        state.pending,
        state.turn_melds,
        state.ends,
        state.fresh,
        state.built_other,
        len(state.stock),
        [card_type(c) for c in state.discards],
        state.table_text(),
        [m.owner for m in state.table],
        [h.bit_count() for h in state.hands],
        state.history,
    )


def reshuffled(state: TableState) -> bool:
    return state.restocks > 0 and state.rules.restock_method != "turn_over"


def check_determinization(state: TableState, p: int, seed: int, rng: random.Random, *, deep: bool) -> None:
    det = observe.determinize(state, p, np.random.default_rng(seed))
    assert det is not state
    # the same to p
    assert observe.observation(det, p) == observe.observation(state, p)
    assert np.array_equal(observe.observation_tensor(det, p), observe.observation_tensor(state, p))
    assert observe.information_state_string(det, p) == observe.information_state_string(state, p)
    assert public(det) == public(state) and types(det, p) == types(state, p)
    if state.current_player == p:
        assert det.legal_actions() == state.legal_actions()
    elif not state.is_terminal():
        assert det.legal_actions(), "the other seat to move can finish its turn"
    if state.is_terminal():
        assert [types(det, q) for q in range(det.n)] == [types(state, q) for q in range(state.n)]
        assert det.result == state.result and sorted(map(card_type, det.stock)) == sorted(map(card_type, state.stock))
    # every card once, and a deck that deals p's cards where they were
    size = det.rules.deck_size
    assert all_cards(det) == ((1 << size) - 1, size)
    assert sorted(det.deck) == list(range(size))
    n, hand = det.n, det.rules.hand_size
    seats = [(det.dealer + 1 + i) % n for i in range(hand * n)] + [-1]
    assert [card_type(c) for c, s in zip(det.deck, seats) if s in (p, -1)] == [
        card_type(c) for c, s in zip(state.deck, seats) if s in (p, -1)
    ]
    # reproducible from the seed; a world p cannot tell apart gives the same sample
    again = observe.determinize(state, p, seed)
    assert (again.hands, again.stock, again.deck, again.shuffle_seed) == (
        det.hands,
        det.stock,
        det.deck,
        det.shuffle_seed,
    )
    if deep:
        twin = observe.determinize(state, p, seed + 1)
        other = observe.determinize(twin, p, seed)
        assert (other.hands, other.stock, other.deck) == (det.hands, det.stock, det.deck)
        # the record replays it (the past reshuffles are not those of the new seed)
        if not reshuffled(state):
            copy = from_json(to_json(det))
            assert public(copy) == public(det)
            assert [types(copy, q) for q in range(n)] == [types(det, q) for q in range(n)]
        # undo goes back to the deal, p's view agreeing with the real one's on the way
        back, real = det.clone(), state.clone()
        looks = set(rng.sample(range(len(state.history)), min(2, len(state.history))))
        while back.history:
            back.undo()
            real.undo()
            if len(back.history) in looks:
                assert observe.information_state_string(back, p) == observe.information_state_string(real, p)
        assert types(back, p) == types(real, p)
        with pytest.raises(IllegalActionError):
            back.undo()
    # it plays on, and clones
    copy = det.clone()
    play_out(det, rng)
    assert det.result is not None and all_cards(det)[1] == size
    assert copy.history == state.history


def check_no_leak(state: TableState, p: int) -> None:
    obs = observe.observation(state, p)
    assert obs.hand == tuple(types(state, p)) and obs.player == p
    over = state.is_terminal()
    for q in range(state.n):
        known = type_counts(0)
        for t in obs.known_cards[q]:
            known[t] += 1
        held = type_counts(state.hands[q])
        assert all(k <= h for k, h in zip(known, held)), "a known card is in the hand"
        if q == p or over:
            assert obs.seen_cards[q] == tuple(types(state, q))
        else:
            assert obs.seen_cards[q] == obs.known_cards[q]
    assert (obs.result is state.result) if over else obs.result is None
    assert "shuffle_seed" not in repr(obs)
    tensor = observe.observation_tensor(state, p)
    assert tensor.shape == (observe.OBSERVATION_TENSOR_SIZE,) and tensor.dtype == np.float32
    assert tensor.min() >= 0.0 and tensor.max() <= 1.0
    at = {name: start for name, start, _ in observe.OBSERVATION_LAYOUT}
    copies = 2 if state.rules.is_kaluki else 1
    plane = tensor[at["hand"] : at["hand"] + 52] * copies
    assert plane.tolist() == type_counts(state.hands[p])[:52]
    for r in range(1, 6):
        start = at["seen_others"] + (r - 1) * 53
        seen = tensor[start : start + 52] * copies
        expected = type_counts(0)[:52]
        if r < state.n:
            for t in obs.seen_cards[(p + r) % state.n]:
                if t != JOKER:
                    expected[t] += 1
        assert seen.tolist() == expected


def check_hands(
    name: str, options: dict[str, Any], hands: int, per_hand: int, seed: int, deep_every: int
) -> dict[str, int]:
    """Random hands; at ``per_hand`` nodes of each (every node if 0; always
    the end and the nodes after a restock), every seat."""
    game = rk.Game(name, **options)
    rng = random.Random(seed)
    seen = {"nodes": 0, "restocks": 0, "ends": 0, "mid_turn": 0}
    for i in range(hands):
        final = game.new_hand(seed=seed * 100_000 + i)
        play_out(final, rng)
        seen["restocks"] += final.restocks
        states = nodes(final)
        if per_hand:
            picked = set(rng.sample(range(len(states)), min(per_hand, len(states))))
            first = next((k for k, s in enumerate(states) if s.restocks), -1)
            picked |= {len(states) - 1, first, first + 1} - {-1, len(states)}
            states = [s for k, s in enumerate(states) if k in picked]
        for k, state in enumerate(states):
            seen["nodes"] += 1
            seen["ends"] += state.is_terminal()
            seen["mid_turn"] += state.phase_name == "play" and state.history[-1] != DRAW
            for p in range(game.num_players):
                check_no_leak(state, p)
                check_determinization(state, p, rng.randrange(2**32), rng, deep=k % deep_every == 0)
    return seen


def no_last_resort(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make determinize fail if its sampler gives up (the real world kept)."""
    world = _core.table_world

    def sampled_only(state: TableState, player: int, seed: int) -> tuple[TableState, bool]:
        other, sampled = world(state, player, seed)
        assert sampled, "determinize fell back to the real cards"
        return other, sampled

    monkeypatch.setattr(_core, "table_world", sampled_only)


@pytest.mark.parametrize(("name", "options"), VARIANTS, ids=IDS)
def test_determinize_at_nodes(name: str, options: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    """Some nodes of a few hands (RUMMYKIT_LONG=1: every node of many)."""
    no_last_resort(monkeypatch)
    seen = check_hands(name, options, 2, 4, seed=1, deep_every=3)
    assert seen["ends"] == 2 and seen["nodes"] >= 10 and seen["mid_turn"] > 0


@pytest.mark.long
@pytest.mark.parametrize(("name", "options"), VARIANTS, ids=IDS)
def test_long_determinize_at_every_node(name: str, options: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    no_last_resort(monkeypatch)
    seen = check_hands(name, options, 3, 0, seed=2, deep_every=5)
    more = check_hands(name, options, 20, 8, seed=3, deep_every=2)
    seen["restocks"] += more["restocks"]
    assert seen["restocks"] > 0 or name == "kalooki_51"


def find_state(name: str, options: dict[str, Any], want: Any, seed: int = 7, tries: int = 200) -> TableState:
    """The first node of random hands for which ``want(state)`` holds."""
    game = rk.Game(name, **options)
    rng = random.Random(seed)
    for i in range(tries):
        final = game.new_hand(seed=seed * 100_000 + i)
        play_out(final, rng)
        for state in nodes(final):
            if want(state):
                return state
    raise AssertionError("no such state found")


def test_reshuffle_restock_keeps_the_groups() -> None:
    """After a reshuffle the stock holds only cards of the restocked pile."""
    state = find_state("rummy", {"num_players": 4}, lambda s: s.restocks == 1 and len(s.stock) >= 5)
    before = state.clone()
    while before.restocks:
        before.undo()
    pile = sorted(card_type(c) for c in before.discards[:-1])
    for p in range(4):
        for seed in range(5):
            det = observe.determinize(state, p, seed)
            assert set(map(card_type, det.stock)) <= set(pile)
            check_determinization(state, p, seed, random.Random(seed), deep=True)


def test_turned_over_stock_is_public() -> None:
    """A turned-over stock's order is public: the cards drawn from it are
    known, and every determinization keeps the stock as it is."""
    state = find_state(
        "rummy",
        {"num_players": 3, "restock_method": "turn_over"},
        lambda s: s.restocks and s.history[-1] == DRAW and len(s.stock) >= 3,
    )
    drawer = state.player
    back = state.clone()
    back.undo()
    card = card_type((state.hands[drawer] & ~back.hands[drawer]).bit_length() - 1)
    for p in range(3):
        assert card in observe.observation(state, p).known_cards[drawer]
        for seed in range(5):
            assert observe.determinize(state, p, seed).stock == state.stock


def test_two_determinizations_differ() -> None:
    state = find_state("kaluki", {}, lambda s: len(s.history) >= 12 and s.table and not s.is_terminal())
    p = state.player
    a, b = observe.determinize(state, p, 1), observe.determinize(state, p, 2)
    q = 1 - p
    assert types(a, q) != types(b, q) or a.stock != b.stock
    assert a.deck != state.deck and a.shuffle_seed != state.shuffle_seed
    assert types(a, p) == types(b, p) == types(state, p)
    gen = np.random.default_rng(3)
    c, d = observe.determinize(state, p, gen), observe.determinize(state, p, gen)
    assert (c.hands, c.stock) != (d.hands, d.stock)


def test_end_keeps_hands_and_resamples_only_the_stock_order() -> None:
    state = find_state("rummy", {}, lambda s: s.is_terminal() and len(s.stock) > 3)
    orders = {tuple(observe.determinize(state, 0, seed).stock) for seed in range(20)}
    assert len(orders) > 1 and all(sorted(o) == sorted(state.stock) for o in orders)


def test_kaluki_known_cards_are_types() -> None:
    """A seat that took a card, holding another copy of it, and then played
    one copy is no longer known to hold that card, whichever physical copy
    the engine moved (``state.known`` tracks physical cards)."""
    game = rk.Game("kaluki", num_players=3)
    rng = random.Random(8)
    found = 0
    for i in range(60):
        final = game.new_hand(seed=900 + i)
        play_out(final, rng)
        states = nodes(final)
        for prev, cur in zip(states, states[1:]):
            q = prev.player
            if prev.phase_name != "play" or cur.history[-1] in (DRAW, TAKE):
                continue
            before = observe.observation(prev, (q + 1) % 3).known_cards[q]
            played = type_counts(prev.hands[q] & ~cur.hands[q])
            for t in set(before):
                if played[t] and type_counts(prev.hands[q])[t] == 2 and before.count(t) == 1:
                    found += 1
                    for p in range(3):
                        assert t not in observe.observation(cur, p).known_cards[q]
                        check_determinization(cur, p, 5, random.Random(5), deep=False)
        if found >= 3:
            break
    assert found >= 1


def test_released_joker_is_known() -> None:
    state = find_state(
        "kaluki",
        {"num_players": 3},
        lambda s: s.history and RELEASE_RUN <= s.history[-1] and s.history[-1] < 7024,
        tries=400,
    )
    for p in range(3):
        obs = observe.observation(state, p)
        assert JOKER in obs.known_cards[state.player] and obs.pending > 0
        check_determinization(state, p, 3, random.Random(3), deep=True)


def test_opponent_hidden_cards_do_not_change_the_view() -> None:
    """Swap, in the deck, a card another seat holds unseen to the end with a
    card left in the stock: the same actions replay, and seat p's
    observation, tensor and string agree at every node before the end."""
    rng = random.Random(11)
    checked = 0
    for name, options in VARIANTS[:2] + VARIANTS[5:7]:
        game = rk.Game(name, **options)
        for i in range(6):
            final = game.new_hand(seed=500 + i)
            play_out(final, rng)
            p = 0
            q = 1
            hidden = [
                c for c in range(final.rules.deck_size) if final.hands[q] >> c & 1 and not final.known[q] >> c & 1
            ]
            if not hidden or not final.stock or final.restocks:
                continue
            a, b = rng.choice(hidden), rng.choice(final.stock)
            deck = [b if c == a else a if c == b else c for c in final.deck]
            other = game.new_hand(seed=0, dealer=final.dealer, deck=deck)
            other = other.with_fields(shuffle_seed=final.shuffle_seed)
            real = game.new_hand(seed=0, dealer=final.dealer, deck=list(final.deck))
            real = real.with_fields(shuffle_seed=final.shuffle_seed)
            try:
                for action in final.history[:-1]:
                    assert observe.information_state_string(other, p) == observe.information_state_string(real, p)
                    assert observe.observation(other, p) == observe.observation(real, p)
                    assert np.array_equal(observe.observation_tensor(other, p), observe.observation_tensor(real, p))
                    other.play(action)
                    real.apply_action(action)
                    checked += 1
            except IllegalActionError:
                continue  # the swapped card changed what q could do
    assert checked > 100


def test_information_state_string_text() -> None:
    state = rk.Game("rummy").new_hand(seed=4, dealer=0)
    state.play("draw")
    back = state.clone()
    back.undo()
    drawn = card_type((state.hands[1] & ~back.hands[1]).bit_length() - 1)
    s1, s0 = observe.information_state_string(state, 1), observe.information_state_string(state, 0)
    upcard = type_text(card_type(state.deck[20]))
    assert s1.splitlines()[0] == f"rummy() seat 1 of 2, dealer 0, upcard {upcard}"
    assert s1.splitlines()[-1] == f"1: draw {type_text(drawn)}" and s0.splitlines()[-1] == "1: draw"
    assert s0.splitlines()[1].startswith("dealt ") and s0 != s1
    text = type_text(drawn)
    state.play(f"discard {text}")
    state.play("take")
    assert observe.information_state_string(state, 1).splitlines()[-1] == f"0: take {text}"
    assert observe.observation(state, 1).known_cards[0] == (drawn,)


def test_restock_is_a_public_event() -> None:
    state = find_state("rummy", {"num_players": 4}, lambda s: s.restocks >= 1)
    for p in range(4):
        assert re.search(r"^restock \d+; \d: draw", observe.information_state_string(state, p), re.M)


def test_tensor_layout_is_documented_and_fixed() -> None:
    layout = observe.OBSERVATION_LAYOUT
    assert layout[0][1] == 0 and layout[-1][2] == observe.OBSERVATION_TENSOR_SIZE
    assert all(a[2] == b[1] for a, b in zip(layout, layout[1:])) and all(a < b for _, a, b in layout)
    doc = observe.__doc__ or ""
    rows = re.findall(r"^(\w+)\s+(\d+)\s+(\d+)\s+\S", doc, re.M)
    assert [(name, int(a), int(b)) for name, a, b in rows] == layout
    assert f"({observe.OBSERVATION_TENSOR_SIZE})" in doc
    guide = (Path(__file__).resolve().parents[2] / "docs" / "vector.md").read_text(encoding="utf-8")
    assert re.findall(r"^\| `(\w+)` \| (\d+)-(\d+) \| ", guide, re.M) == [(n, str(a), str(b)) for n, a, b in layout]
    for n in range(2, 7):
        assert observe.observation_tensor_size(n) == observe.OBSERVATION_TENSOR_SIZE
    for bad in (1, 7, True, "2"):
        with pytest.raises(InvalidOptionError):
            observe.observation_tensor_size(bad)  # type: ignore[arg-type]
    for name, options in VARIANTS:
        state = rk.Game(name, **options).new_hand(seed=1)
        assert state.observation_tensor(0).shape == (observe.OBSERVATION_TENSOR_SIZE,)


def test_tensor_contents() -> None:
    state = find_state(
        "kaluki",
        {"num_players": 3},
        lambda s: s.phase_name == "play" and s.taken >= 0 and len(s.table) >= 2 and s.player == 2,
        tries=400,
    )
    p = 1
    t = observe.observation_tensor(state, p)
    at = {name: (a, b) for name, a, b in observe.OBSERVATION_LAYOUT}

    def part(name: str) -> list[float]:
        a, b = at[name]
        return [float(x) for x in t[a:b]]

    assert part("current_player") == [0, 1, 0, 0, 0, 0]
    assert part("dealer")[(state.dealer - p) % 3] == 1 and sum(part("dealer")) == 1
    assert part("num_players") == [0, 1, 0, 0, 0] and part("game") == [0, 1]
    assert part("phase") == [0, 1, 0]
    assert part("taken")[state.taken] == 1 and sum(part("taken")) == 1
    hand = type_counts(state.hands[p])
    assert part("hand") == pytest.approx([h / 2 for h in hand[:52]] + [hand[52] / 2])
    assert part("top_discard")[card_type(state.discards[-1])] == 0.5 if state.discards else True
    on_table = [0] * 53
    for m in state.table:
        for c in m.cards:
            on_table[card_type(c)] += 1
    both = [a + b for a, b in zip(part("table_sets"), part("table_runs"))]
    assert both == pytest.approx([k / 2 for k in on_table])
    owned = part("table_owned")
    assert sum(owned) == pytest.approx(sum(both))
    assert part("hand_sizes") == pytest.approx([state.hands[(p + r) % 3].bit_count() / 16 for r in range(3)] + [0] * 3)
    assert part("stock_size") == pytest.approx([len(state.stock) / 106])
    assert part("initial_meld_min") == pytest.approx([0.4])
    assert part("opened")[:3] == [float(state.opened >> ((p + r) % 3) & 1) for r in range(3)]


def test_history_planes_keep_each_seats_moves_in_order() -> None:
    state = rk.Game("rummy").new_hand(seed=1, dealer=0)
    at = {name: start for name, start, _ in observe.OBSERVATION_LAYOUT}

    def value(player: int, name: str, seat: int, t: int) -> float:
        return float(state.observation_tensor(player)[at[name] + 53 * ((seat - player) % 2) + t])

    upcard = card_type(state.discards[-1])
    state.play("draw")  # seat 1 declines the upcard
    assert value(0, "recent_passes", 1, upcard) == value(1, "recent_passes", 1, upcard) == 1.0
    discard = state.legal_actions()[0]
    state.apply_action(discard)
    state.play("take")  # seat 0 takes it
    assert value(1, "recent_discards", 1, discard) == 1.0 and value(1, "recent_takes", 0, discard) == 1.0
    mine = next(a for a in state.legal_actions() if a != discard)
    state.apply_action(mine)
    state.play("draw")  # seat 1 declines seat 0's discard
    assert value(0, "recent_passes", 1, mine) == 1.0 and value(0, "recent_passes", 1, upcard) == 7 / 8
    history = state.observation_tensor(0)[at["recent_discards"] :]
    assert np.count_nonzero(history) == 5  # seat 1: a discard and two passes; seat 0: a take and a discard


def test_a_forbidden_take_is_no_pass() -> None:
    """Kaluki's unopened_discard_draw="forbidden": an unopened seat's draw declines nothing
    (but the first turn's upcard, under first_turn_upcard_free)."""
    passes = {name: start for name, start, _ in observe.OBSERVATION_LAYOUT}["recent_passes"]
    for free, want in ((False, 0), (True, 1)):
        state = rk.Game("kaluki", unopened_discard_draw="forbidden", first_turn_upcard_free=free).new_hand(seed=3)
        assert state.discards and state.legal_actions() == ([DRAW, TAKE] if free else [DRAW])
        state.play("draw")
        assert np.count_nonzero(state.observation_tensor(0)[passes:]) == want


def test_bad_player_raises() -> None:
    state = rk.Game("kaluki").new_hand(seed=1)
    for bad in (-1, 2, True, "0", None):
        for f in (observe.observation, observe.observation_tensor, observe.information_state_string):
            with pytest.raises(InvalidOptionError, match="player"):
                f(state, bad)  # type: ignore[arg-type]
        with pytest.raises(InvalidOptionError, match="player"):
            observe.determinize(state, bad, 1)  # type: ignore[arg-type]
    with pytest.raises(InvalidOptionError, match="rng"):
        observe.determinize(state, 0, "seed")


def test_state_methods_delegate_here() -> None:
    state = rk.Game("rummy", num_players=3).new_hand(seed=2)
    state.play("draw")
    assert state.observation(1) == observe.observation(state, 1)
    assert np.array_equal(state.observation_tensor(1), observe.observation_tensor(state, 1))
    assert state.information_state_string(1) == observe.information_state_string(state, 1)
    det = state.determinize(1, 5)
    assert det.hands == observe.determinize(state, 1, 5).hands


def test_last_resort_keeps_the_real_cards(monkeypatch: pytest.MonkeyPatch) -> None:
    """When no sample fits, the other seats keep the cards they hold and
    only the stock order is resampled; the state still looks the same.
    (The C sampler gives up after TABLE_MAX_TRIES samples, keeping the real
    cards and shuffling the stock as its stock mode does: here every call
    gives up at once.)"""
    world = _core.table_world

    def last_resort(state: TableState, player: int, seed: int) -> tuple[TableState, bool]:
        other, sampled = world(state, player, seed, 0)
        assert not sampled
        return other, sampled

    monkeypatch.setattr(_core, "table_world", last_resort)
    state = find_state("kaluki", {"num_players": 3}, lambda s: len(s.history) > 20 and len(s.stock) > 5)
    for p in range(3):
        det = observe.determinize(state, p, 4)
        assert [types(det, q) for q in range(3)] == [types(state, q) for q in range(3)]
        assert sorted(map(card_type, det.stock)) == sorted(map(card_type, state.stock))
        check_determinization(state, p, 4, random.Random(4), deep=False)
    orders = {tuple(map(card_type, observe.determinize(state, 0, seed).stock)) for seed in range(5)}
    assert len(orders) > 1
