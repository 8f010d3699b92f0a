"""Slow, obviously-correct reference for two-deck hands with jokers (Kaluki).

A hand is a sorted tuple of card types (0..51: suit * 13 + rank, rank 0 =
ace; 52 = joker), with at most two copies of each natural type.  Rules:
docs/rules.md, Card values and runs, Melds, Kaluki (see rummykit.multideck).

Brute force on purpose: every valid meld of the hand is listed with every
joker placement (as explicit (type, represents) positions), then every
collection of disjoint melds is enumerated (deciding the lowest natural card
left: kept in hand, or placed in one of the melds containing it).  The
outcome of each collection is the triple (value, saved penalty, include
used); both objectives and the include constraint are read off the set of
all triples.  Subresults are memoised on the remaining cards, which changes
nothing but the running time.
"""

from __future__ import annotations

import functools
import itertools
import random
from collections import Counter

JOKER = 52
VALUES = (11, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10)
RANKS, SUITS = "A23456789TJQK", "CDHS"

# A meld: (kind, ((card, represents), ...)), card = JOKER where a joker stands.
Meld = tuple[str, tuple[tuple[int, int], ...]]


def type_name(t: int) -> str:
    return "Jk" if t == JOKER else RANKS[t % 13] + SUITS[t // 13]


def hand_str(hand: tuple[int, ...]) -> str:
    return " ".join(map(type_name, hand))


def run_positions(ace_low_runs: bool) -> range:
    """Run positions: 0 = low ace (only with ace_low_runs), 1..12 = ranks 2..K, 13 = high ace."""
    return range(0 if ace_low_runs else 1, 14)


def rank_at(q: int) -> int:
    return 0 if q in (0, 13) else q


def position_value(q: int) -> int:
    return 1 if q == 0 else VALUES[rank_at(q)]


def meld_value(meld: Meld) -> int:
    """Opening value of a valid meld (a joker counts as the card it stands for)."""
    kind, cards = meld
    if kind == "set":
        return sum(VALUES[rep % 13] for _, rep in cards)
    # a run: its first card is a low ace exactly when the second is a two
    reps = [rep for _, rep in cards]
    low = reps[0] % 13 == 0 and reps[1] % 13 == 1
    return sum(1 if (i == 0 and low) else VALUES[rep % 13] for i, rep in enumerate(reps))


def is_valid_meld(meld: Meld, ace_low_runs: bool = False) -> bool:
    """Validity from the rules' words, independent of how melds are listed."""
    kind, cards = meld
    reps = [rep for _, rep in cards]
    if not all(0 <= rep < 52 for rep in reps):
        return False
    if any(card != JOKER and card != rep for card, rep in cards):
        return False  # a natural card stands for itself
    if not any(card != JOKER for card, _ in cards):
        return False  # at least one natural card
    if kind == "set":
        return 3 <= len(cards) <= 4 and len({r % 13 for r in reps}) == 1 and len({r // 13 for r in reps}) == len(reps)
    if kind != "run" or not 3 <= len(cards) <= 13 or len({r // 13 for r in reps}) != 1:
        return False
    ranks = [r % 13 for r in reps]
    high = list(range(1, 13)) + [0]  # 2..K, A
    orders = [high] + ([list(range(13))] if ace_low_runs else [])
    return any(ranks == order[i : i + len(ranks)] for order in orders for i in range(14 - len(ranks)))


def all_melds(hand: tuple[int, ...], ace_low_runs: bool = False) -> list[Meld]:
    """Every valid meld drawable from the hand, with every joker placement."""
    held = Counter(hand)
    jokers = held[JOKER]
    melds: list[Meld] = []
    for rank in range(13):
        for size in (3, 4):
            for suits_mask in range(16):
                suits = [s for s in range(4) if suits_mask >> s & 1]
                if len(suits) != size:
                    continue
                # each position: the natural card if held, or a joker
                for pick in range(1 << size):
                    cards = []
                    for i, s in enumerate(suits):
                        t = s * 13 + rank
                        cards.append((t, t) if pick >> i & 1 else (JOKER, t))
                    melds.append(("set", tuple(cards)))
    for suit in range(4):
        for lo in run_positions(ace_low_runs):
            for hi in range(lo + 2, min(lo + 13, 14)):
                span = range(lo, hi + 1)
                types = {q: suit * 13 + rank_at(q) for q in span}
                can = [q for q in span if held[types[q]]]
                # each held position: its natural card, or a joker; the others: jokers
                for k in range(max(1, len(span) - jokers), len(can) + 1):
                    for naturals in itertools.combinations(can, k):
                        cards = tuple((types[q], types[q]) if q in naturals else (JOKER, types[q]) for q in span)
                        melds.append(("run", cards))
    out = []
    seen = set()
    for meld in melds:
        need = Counter(card for card, _ in meld[1])
        if need[JOKER] > jokers or any(held[c] < n for c, n in need.items() if c != JOKER):
            continue
        if not is_valid_meld(meld, ace_low_runs):
            continue
        # a set's jokers are interchangeable: keep one placement per natural subset
        key = (meld[0], tuple(sorted(c for c, _ in meld[1]))) if meld[0] == "set" else meld
        if key in seen:
            continue
        seen.add(key)
        out.append(meld)
    return out


def card_value(t: int, joker_penalty: int) -> int:
    return joker_penalty if t == JOKER else VALUES[t % 13]


def outcomes(
    hand: tuple[int, ...], ace_low_runs: bool = False, joker_penalty: int = 15, include: int | None = None
) -> set[tuple[int, int, bool]]:
    """Every (value, saved penalty, include melded) over all collections of
    disjoint melds of the hand."""
    melds = all_melds(hand, ace_low_runs)
    info = [
        (Counter(c for c, _ in m[1]), meld_value(m), sum(card_value(c, joker_penalty) for c, _ in m[1])) for m in melds
    ]

    @functools.cache
    def solve(rest: tuple[int, ...]) -> frozenset[tuple[int, int, bool]]:
        naturals = [t for t in rest if t != JOKER]
        if not naturals:
            return frozenset({(0, 0, False)})
        x = naturals[0]
        held = Counter(rest)
        results = set()
        # x (one copy) stays in hand
        without = list(rest)
        without.remove(x)
        results |= solve(tuple(without))
        # or a meld containing x, drawn from what is left
        for need, value, saved in info:
            if need[x] == 0 or any(held[c] < n for c, n in need.items()):
                continue
            left = held - need
            sub = solve(tuple(sorted(left.elements())))
            used = include is not None and need[include] > 0
            results |= {(v + value, s + saved, u or used) for v, s, u in sub}
        return frozenset(results)

    return set(solve(tuple(sorted(hand))))


def best(
    hand: tuple[int, ...],
    objective: str = "penalty",
    include: int | None = None,
    ace_low_runs: bool = False,
    joker_penalty: int = 15,
) -> tuple[int, int] | None:
    """(value, penalty) of the best arrangement, None if include cannot be melded."""
    total = sum(card_value(t, joker_penalty) for t in hand)
    found = [
        (v, total - s) for v, s, used in outcomes(hand, ace_low_runs, joker_penalty, include) if include is None or used
    ]
    if not found:
        return None
    if objective == "penalty":
        return min(found, key=lambda vp: (vp[1], -vp[0]))
    return max(found, key=lambda vp: (vp[0], -vp[1]))


def random_hand(rng: random.Random, naturals: int, jokers: int, span: int = 0) -> tuple[int, ...]:
    """naturals cards from two decks (on `span` adjacent ranks if span > 0) plus jokers."""
    held: Counter[int] = Counter()
    lo = rng.randrange(13)
    while sum(held.values()) < naturals:
        rank = (lo + rng.randrange(span)) % 13 if span else rng.randrange(13)
        t = rng.randrange(4) * 13 + rank
        if held[t] < 2:
            held[t] += 1
    return tuple(sorted(list(held.elements()) + [JOKER] * jokers))
