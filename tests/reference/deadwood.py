"""Slow, obviously-correct pure-Python reference oracle for rummykit.

Everything here is brute force on purpose: tests compare the fast C core
against these functions, so clarity matters more than speed.

Card encoding: card id = suit * 13 + rank, with rank 0 = Ace, 1 = Two, ...,
9 = Ten, 10 = Jack, 11 = Queen, 12 = King and suit 0 = Clubs, 1 = Diamonds,
2 = Hearts, 3 = Spades.  A hand is a frozenset of card ids (any iterable of
ids is accepted and normalised).  A mask is sum(1 << id).

Ace modes ("aces"):
  "low"  - runs follow A,2,...,K   (A-2-3 valid, Q-K-A not)
  "high" - runs follow 2,...,K,A   (Q-K-A valid, A-2-3 not)
  "both" - either order, never wrapping (K-A-2 invalid)
"""

from __future__ import annotations

import functools
import random
from collections.abc import Iterable

DEFAULT_VALUES = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10)

ACE_MODES = ("low", "high", "both")

RANK_CHARS = "A23456789TJQK"
SUIT_CHARS = "CDHS"

# Rank sequences along which a run may be laid, per ace mode.
_LOW_ORDER = tuple(range(13))  # A,2,...,K
_HIGH_ORDER = tuple(range(1, 13)) + (0,)  # 2,...,K,A
_ORDERS = {
    "low": (_LOW_ORDER,),
    "high": (_HIGH_ORDER,),
    "both": (_LOW_ORDER, _HIGH_ORDER),
}


# ---------------------------------------------------------------------------
# Small helpers
# ---------------------------------------------------------------------------


def rank_of(card: int) -> int:
    """Rank 0..12 (0 = Ace) of a card id."""
    return card % 13


def suit_of(card: int) -> int:
    """Suit 0..3 (Clubs, Diamonds, Hearts, Spades) of a card id."""
    return card // 13


def make_card(rank: int, suit: int) -> int:
    """Card id from rank 0..12 and suit 0..3."""
    return suit * 13 + rank


def card_name(card: int) -> str:
    """Two-character name, e.g. 0 -> 'AC', 51 -> 'KS'."""
    return RANK_CHARS[rank_of(card)] + SUIT_CHARS[suit_of(card)]


def parse_card(text: str) -> int:
    """Parse a two-character card name such as 'TH' or 'AS' (case-insensitive;
    '10' is accepted for Ten)."""
    t = text.strip().upper()
    if t.startswith("10"):
        t = "T" + t[2:]
    if len(t) != 2 or t[0] not in RANK_CHARS or t[1] not in SUIT_CHARS:
        raise ValueError(f"bad card name {text!r}")
    return make_card(RANK_CHARS.index(t[0]), SUIT_CHARS.index(t[1]))


def parse_hand(text: str) -> frozenset[int]:
    """Parse a whitespace/comma separated list of card names into a hand."""
    names = text.replace(",", " ").split()
    cards = [parse_card(n) for n in names]
    if len(set(cards)) != len(cards):
        raise ValueError(f"duplicate card in {text!r}")
    return frozenset(cards)


def hand_str(cards: Iterable[int]) -> str:
    """Human-readable sorted listing of cards."""
    return " ".join(card_name(c) for c in sorted(cards))


def to_mask(cards: Iterable[int]) -> int:
    """Bit mask sum(1 << id)."""
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def from_mask(mask: int) -> frozenset[int]:
    """Inverse of to_mask."""
    return frozenset(i for i in range(52) if (mask >> i) & 1)


def _norm(cards: Iterable[int]) -> frozenset[int]:
    """Normalise an iterable of card ids to a frozenset, validating ids."""
    if isinstance(cards, int):
        raise TypeError("expected an iterable of card ids, not an int")
    hand = frozenset(cards)
    for c in hand:
        if not isinstance(c, int) or not 0 <= c < 52:
            raise ValueError(f"bad card id {c!r}")
    return hand


def _check_aces(aces: str) -> None:
    if aces not in _ORDERS:
        raise ValueError(f"aces must be one of {ACE_MODES}, got {aces!r}")


def deadwood_of(cards: Iterable[int], values=DEFAULT_VALUES) -> int:
    """Sum of card values of the given cards."""
    return sum(values[rank_of(c)] for c in cards)


# ---------------------------------------------------------------------------
# Melds
# ---------------------------------------------------------------------------


def _is_set(cards: frozenset[int]) -> bool:
    return len(cards) in (3, 4) and len({rank_of(c) for c in cards}) == 1


def _is_run(cards: frozenset[int], aces: str) -> bool:
    if len(cards) < 3 or len({suit_of(c) for c in cards}) != 1:
        return False
    ranks = {rank_of(c) for c in cards}
    for order in _ORDERS[aces]:
        positions = sorted(order.index(r) for r in ranks)
        if positions[-1] - positions[0] == len(positions) - 1:
            return True
    return False


def is_valid_meld(cards: Iterable[int], aces: str = "low") -> bool:
    """True iff `cards` is a set (3 or 4 cards of one rank) or a run (3+
    consecutive cards of one suit in an order allowed by the ace mode)."""
    _check_aces(aces)
    m = _norm(cards)
    return _is_set(m) or _is_run(m, aces)


@functools.cache
def _deck_melds(aces: str) -> tuple[frozenset[int], ...]:
    """Every valid meld in the full 52-card deck for an ace mode (computed
    once): all 3- and 4-card sets of each rank, and every contiguous window of
    length >= 3 along every allowed rank order in every suit.  Deduplicated
    (in "both" mode the full-suit run is produced by both orders) and sorted
    by (size, cards)."""
    found: set[frozenset[int]] = set()
    for r in range(13):
        four = [make_card(r, s) for s in range(4)]
        found.add(frozenset(four))
        for skip in four:
            found.add(frozenset(c for c in four if c != skip))
    for s in range(4):
        for order in _ORDERS[aces]:
            for start in range(13):
                for end in range(start + 3, 14):
                    found.add(frozenset(make_card(r, s) for r in order[start:end]))
    assert all(is_valid_meld(m, aces) for m in found)
    return tuple(sorted(found, key=lambda m: (len(m), sorted(m))))


def all_melds(hand: Iterable[int], aces: str = "low") -> list[frozenset[int]]:
    """Every valid meld that is a subset of `hand`, without duplicates:
    every 3- and 4-card set and every run of every length >= 3 in every
    allowed orientation.  Sorted deterministically (by size, then cards)."""
    _check_aces(aces)
    hand = _norm(hand)
    return [m for m in _deck_melds(aces) if m <= hand]


def _is_run_meld(meld: frozenset[int]) -> bool:
    """A valid meld is a run iff it has a single suit (sets have distinct suits)."""
    return len({suit_of(c) for c in meld}) == 1


# ---------------------------------------------------------------------------
# Minimum deadwood
# ---------------------------------------------------------------------------


def _melds_by_card(melds: list[frozenset[int]]) -> dict[int, list[frozenset[int]]]:
    by_card: dict[int, list[frozenset[int]]] = {}
    for m in melds:
        for c in m:
            by_card.setdefault(c, []).append(m)
    return by_card


# Order in which the brute force decides cards: rank-major (all four Aces,
# then all Twos, ...).  Any fixed order is correct; this one keeps the memo
# small for big hands because sets are decided together and runs only reach
# a few ranks ahead.
_DECISION_ORDER = tuple(sorted(range(52), key=lambda c: (rank_of(c), suit_of(c))))


def _first_card(remaining) -> int:
    """The first card of `remaining` (a frozenset) in _DECISION_ORDER."""
    return next(c for c in _DECISION_ORDER if c in remaining)


def min_deadwood(hand: Iterable[int], aces: str = "low", values=DEFAULT_VALUES) -> int:
    """Minimum deadwood over all arrangements of disjoint melds of `hand`.

    Brute force: the first undecided card (in rank-major order) is either
    deadwood, or it lies in one of the melds (from all_melds of the original
    hand) containing it that fit inside the undecided cards.  Memoised on the
    undecided cards (as a bit mask).  With non-negative values a branch that
    reaches deadwood 0 is optimal, so the search stops there.  Any hand size
    0..52 works (near-full hands take up to a few seconds)."""
    _check_aces(aces)
    hand = _norm(hand)
    melds_with: dict[int, list[int]] = {}  # card -> masks of melds containing it
    for m in all_melds(hand, aces):
        for c in m:
            melds_with.setdefault(c, []).append(to_mask(m))
    order = [c for c in _DECISION_ORDER if c in hand]
    can_stop_at_zero = min(values) >= 0
    memo: dict[int, int] = {}

    def solve(remaining: int) -> int:
        if remaining == 0:
            return 0
        if remaining in memo:
            return memo[remaining]
        c = next(c for c in order if (remaining >> c) & 1)
        best = values[rank_of(c)] + solve(remaining & ~(1 << c))  # c is deadwood
        for m in melds_with.get(c, ()):
            if best == 0 and can_stop_at_zero:
                break
            if remaining & m == m:  # meld fits inside the undecided cards
                best = min(best, solve(remaining & ~m))
        memo[remaining] = best
        return best

    return solve(to_mask(hand))


# ---------------------------------------------------------------------------
# Arrangements
# ---------------------------------------------------------------------------


def is_canonical(arrangement: Iterable[frozenset[int]], aces: str = "low") -> bool:
    """False iff two runs of the same suit in the arrangement could be merged
    into one longer valid run (i.e. their union is a valid run)."""
    runs = [frozenset(m) for m in arrangement if _is_run_meld(frozenset(m))]
    for i in range(len(runs)):
        for j in range(i + 1, len(runs)):
            a, b = runs[i], runs[j]
            if suit_of(min(a)) == suit_of(min(b)) and _is_run(a | b, aces):
                return False
    return True


def arrangements(
    hand: Iterable[int], aces: str = "low", values=DEFAULT_VALUES, max_deadwood: int | None = None
) -> set[frozenset[frozenset[int]]]:
    """All canonical arrangements (frozensets of disjoint meld frozensets) of
    `hand` whose deadwood is <= max_deadwood; if max_deadwood is None, all
    arrangements with exactly the minimum deadwood.

    Every arrangement is generated exactly once (the first undecided card is
    either deadwood or in exactly one chosen meld), branches whose deadwood
    already exceeds the bound are cut, and non-canonical arrangements (two
    mergeable same-suit runs) are discarded."""
    _check_aces(aces)
    hand = _norm(hand)
    bound = min_deadwood(hand, aces, values) if max_deadwood is None else max_deadwood
    by_card = _melds_by_card(all_melds(hand, aces))
    result: set[frozenset[frozenset[int]]] = set()

    def gen(remaining: frozenset[int], chosen: tuple, dead: int) -> None:
        if dead > bound:
            return
        if not remaining:
            arr = frozenset(chosen)
            if is_canonical(arr, aces):
                result.add(arr)
            return
        c = _first_card(remaining)
        gen(remaining - {c}, chosen, dead + values[rank_of(c)])
        for m in by_card.get(c, ()):
            if m <= remaining:
                gen(remaining - m, chosen + (m,), dead)

    gen(hand, (), 0)
    return result


def arrangement_deadwood(hand: Iterable[int], arrangement: Iterable[Iterable[int]], values=DEFAULT_VALUES) -> int:
    """Deadwood of `hand` when the given melds are laid down."""
    hand = _norm(hand)
    used: set[int] = set()
    for m in arrangement:
        used |= set(m)
    return deadwood_of(hand - used, values)


# ---------------------------------------------------------------------------
# Discards
# ---------------------------------------------------------------------------


def deadwood_after_each_discard(hand: Iterable[int], aces: str = "low", values=DEFAULT_VALUES) -> dict[int, int]:
    """{card: min_deadwood(hand - {card})} for every card in hand."""
    hand = _norm(hand)
    return {c: min_deadwood(hand - {c}, aces, values) for c in sorted(hand)}


def best_discard(
    hand: Iterable[int], forbidden: int | None = None, aces: str = "low", values=DEFAULT_VALUES
) -> tuple[int, int]:
    """(card, deadwood) minimising the deadwood left after discarding `card`,
    over cards != forbidden.  Ties: largest card value, then largest id.
    Raises ValueError if no card may be discarded."""
    hand = _norm(hand)
    candidates = [c for c in hand if c != forbidden]
    if not candidates:
        raise ValueError("no card can be discarded")
    after = deadwood_after_each_discard(hand, aces, values)
    best = min(candidates, key=lambda c: (after[c], -values[rank_of(c)], -c))
    return best, after[best]


# ---------------------------------------------------------------------------
# Lay-offs and knocking
# ---------------------------------------------------------------------------


def layoff_deadwood(
    knocker_melds: Iterable[Iterable[int]], defender: Iterable[int], aces: str = "low", values=DEFAULT_VALUES
) -> int:
    """Defender's minimum final deadwood when they may lay off cards onto the
    knocker's melds (each extended meld must remain a valid meld: sets up to
    4 cards, runs one unbroken valid run, extending either end and chaining)
    and then arrange the rest.

    Brute force: for each knocker meld in turn, try every subset of the
    still-unassigned defender cards of the same rank (set) / same suit (run)
    that keeps the meld valid; for each resulting laid-off set L take
    min_deadwood(defender - L).  Raises ValueError if a knocker meld is
    invalid or the melds overlap each other or the defender's hand."""
    _check_aces(aces)
    defender = _norm(defender)
    melds = [_norm(m) for m in knocker_melds]
    seen: set[int] = set()
    for m in melds:
        if not is_valid_meld(m, aces):
            raise ValueError(f"invalid knocker meld {hand_str(m)}")
        if m & seen:
            raise ValueError("knocker melds overlap")
        if m & defender:
            raise ValueError("knocker meld overlaps defender hand")
        seen |= m

    def candidates(m: frozenset[int]) -> list[int]:
        if _is_run_meld(m):
            s = suit_of(min(m))
            return sorted(c for c in defender if suit_of(c) == s)
        r = rank_of(min(m))
        return sorted(c for c in defender if rank_of(c) == r)

    cand = [candidates(m) for m in melds]
    laid_off_options: set[frozenset[int]] = set()

    def assign(i: int, used: frozenset[int]) -> None:
        if i == len(melds):
            laid_off_options.add(used)
            return
        free = [c for c in cand[i] if c not in used]
        for bits in range(1 << len(free)):
            extra = frozenset(free[k] for k in range(len(free)) if (bits >> k) & 1)
            if not extra or is_valid_meld(melds[i] | extra, aces):
                assign(i + 1, used | extra)

    assign(0, frozenset())
    return min(min_deadwood(defender - laid, aces, values) for laid in laid_off_options)


def knock_value(
    knocker: Iterable[int],
    defender: Iterable[int],
    limit: int,
    aces: str = "low",
    values=DEFAULT_VALUES,
    min_deadwood_only: bool = False,
) -> int | None:
    """Best (defender deadwood - knocker deadwood) the knocker can achieve.

    Considers every canonical arrangement A of the knocker with shown deadwood
    k <= limit (only k == min_deadwood if min_deadwood_only).  If any
    considered arrangement is gin (k == 0), only gin arrangements count and
    the defender cannot lay off (d = min_deadwood(defender)); otherwise
    d = layoff_deadwood(melds of A, defender).  Returns max(d - k), or None
    if no arrangement has k <= limit."""
    _check_aces(aces)
    knocker = _norm(knocker)
    defender = _norm(defender)
    kmin = min_deadwood(knocker, aces, values)
    if kmin > limit:
        return None
    if min_deadwood_only:
        arrs = arrangements(knocker, aces, values, None)
    else:
        arrs = arrangements(knocker, aces, values, limit)
    scored = [(arrangement_deadwood(knocker, a, values), a) for a in arrs]
    if any(k == 0 for k, _ in scored):
        return min_deadwood(defender, aces, values)
    return max(layoff_deadwood(a, defender, aces, values) - k for k, a in scored)


# ---------------------------------------------------------------------------
# Random hands for tests
# ---------------------------------------------------------------------------


def random_hand(rng: random.Random, size: int) -> frozenset[int]:
    """`size` distinct cards drawn uniformly from the 52-card deck."""
    if not 0 <= size <= 52:
        raise ValueError("size must be in 0..52")
    return frozenset(rng.sample(range(52), size))


def dense_hand(rng: random.Random, size: int) -> frozenset[int]:
    """`size` cards concentrated on a few (3-5) adjacent ranks, all suits, to
    produce meld-dense hands.  The rank window may wrap past the King (e.g.
    Q,K,A,2) so that ace-high and no-wrap rules get exercised.  The window is
    widened if it holds fewer than `size` cards."""
    if not 0 <= size <= 52:
        raise ValueError("size must be in 0..52")
    width = max(rng.randint(3, 5), -(-size // 4))
    start = rng.randrange(13)
    ranks = [(start + i) % 13 for i in range(min(width, 13))]
    pool = [make_card(r, s) for r in ranks for s in range(4)]
    return frozenset(rng.sample(pool, size))
