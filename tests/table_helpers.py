"""Helpers for the table-game tests: positions built by hand, random play."""

from __future__ import annotations

import random
from typing import Any

from rummykit.table.cards import FIRST_JOKER, JOKER, parse_types
from rummykit.table.game import TableGame
from rummykit.table.melds import parse_meld
from rummykit.table.state import TableMeld, TableState


def mask(text: str) -> int:
    """A physical mask: the first free copy of each card (jokers from 104)."""
    m = 0
    for t in parse_types(text):
        if t == JOKER:
            c = FIRST_JOKER
            while m >> c & 1:
                c += 1
        else:
            c = t if not m >> t & 1 else t + 52
        m |= 1 << c
    return m


def position(
    game: TableGame,
    hands: list[str],
    *,
    table: tuple[tuple[str, int], ...] = (),
    discards: str = "",
    player: int = 0,
    phase: str = "play",
    opened: int | None = None,
    played: int = 0,
    turns: int = 10,
) -> TableState:
    """A state with the given hands, table melds (text, owner), discard pile
    (bottom first) and the rest of the deck as stock; seat ``player`` to act."""
    state = game.new_hand(seed=0, dealer=(player - 1) % game.num_players)
    geo = game.geo
    used = 0
    hand_masks = []
    for h in hands:
        m = _take(h, used)
        used |= m
        hand_masks.append(m)
    melds = []
    for text, owner in table:
        p = parse_meld(geo, text, 4)
        cards = []
        for t in p.types(geo):
            c = _take_one(t, used)
            used |= 1 << c
            cards.append(c)
        melds.append(TableMeld(p.kind, p.key, p.suits if p.kind else 0, tuple(cards), owner))
    pile = []
    for t in parse_types(discards):
        c = _take_one(t, used)
        used |= 1 << c
        pile.append(c)
    stock = tuple(c for c in state.deck if not used >> c & 1)
    fields: dict[str, Any] = {
        "hands": tuple(hand_masks),
        "table": tuple(melds),
        "discards": tuple(pile),
        "stock": stock,
        "player": player,
        "phase": {"draw": 0, "play": 1}[phase],
    }
    if opened is not None:
        fields["opened"] = opened & ((1 << game.num_players) - 1)  # a mask of every seat fits any table
    return state.with_fields(**fields, played=played, turns=turns)._start_turn()


def _take_one(t: int, used: int) -> int:
    if t == JOKER:
        c = FIRST_JOKER
        while used >> c & 1:
            c += 1
        return c
    return t if not used >> t & 1 else t + 52


def _take(text: str, used: int) -> int:
    m = 0
    for t in parse_types(text):
        c = _take_one(t, used | m)
        m |= 1 << c
    return m


def texts(state: TableState) -> list[str]:
    return [state.action_text(a) for a in state.legal_actions()]


def random_hand(game: TableGame, seed: int, check: Any = None) -> TableState:
    """Play one hand with uniformly random legal actions; ``check(state)`` after every step."""
    rng = random.Random(seed)
    state = game.new_hand(seed=seed)
    while not state.is_terminal():
        legal = state.legal_actions()
        assert legal, f"stuck: {state!r}"
        state.apply_action(rng.choice(legal))
        if check is not None:
            check(state)
    return state


def check_invariants(state: TableState) -> None:
    """Every physical card in exactly one place; table melds valid; jokers placed."""
    from rummykit.table.cards import card_type
    from rummykit.table.melds import parse_meld

    places = [h for h in state.hands] + [1 << c for c in state.stock] + [1 << c for c in state.discards]
    places += [1 << c for m in state.table for c in m.cards]
    seen = 0
    for m in places:
        assert not seen & m, "a card in two places"
        seen |= m
    assert seen == (1 << state.rules.deck_size) - 1, "a card is missing"
    geo = state.geo
    for m in state.table:
        p = parse_meld(geo, m.text(geo), 4)
        assert sorted(p.types(geo)) == sorted(card_type(c) for c in m.cards)
    if state.phase == 0 or state.is_terminal():
        assert state.pending == 0
    if state.is_terminal():
        r = state.result
        assert r is not None
        values = tuple(
            sum(geo.values[card_type(c)] for c in range(state.rules.deck_size) if h >> c & 1) for h in state.hands
        )
        assert r.hand_values == values
        if r.winner is not None:
            assert state.hands[r.winner] == 0
