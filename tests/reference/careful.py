"""The careful policy of the knock games (rummykit.agents.CarefulAgent; C: csrc/src/policy.c,
RK_POLICY_CAREFUL), written plainly over a state's fields: every look-ahead by brute force over
the unseen cards and the cards to throw, the live outs by trying every pair of cards, the
opponents' moves from a walk of the history (reference.knock._recent_moves).  The least
deadwood of a hand is the C core's (``_core.deadwood``, itself checked against
reference.deadwood); everything the policy builds on it is here.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

from reference.deadwood import is_valid_meld
from reference.knock import _knock_greedy, _recent_moves
from rummykit import _core
from rummykit._rules import core_rules
from rummykit.knock.actions import BIG_GIN, DRAW_STOCK, KNOCK, PASS, TAKE
from rummykit.knock.state import Phase

SLACK = 4  # discards searched: up to this much above the least deadwood
RECENT = 8  # the moves of each kind remembered per seat


def _cards(mask: int) -> list[int]:
    return [c for c in range(52) if mask >> c & 1]


def _value(card: int) -> int:
    return min(card % 13 + 1, 10)


def _near(a: int, b: int) -> bool:
    """The same rank, or the same suit within two ranks (aces low), and not the same card."""
    if a == b:
        return False
    return a % 13 == b % 13 or (a // 13 == b // 13 and abs(a % 13 - b % 13) <= 2)


def careful_action(state: Any, max_knock_deadwood: int | None = None) -> int:
    """The careful policy's action for the seat to move (see CarefulAgent)."""
    phase, p = state.phase, state.player
    rules = core_rules(state.rules.aces)
    hand = state.hands[p]
    if phase not in (Phase.OFFER_NONDEALER, Phase.OFFER_DEALER, Phase.DRAW, Phase.DISCARD):
        return _knock_greedy(state, max_knock_deadwood)

    def deadwood(mask: int) -> int:
        return int(_core.deadwood(rules, mask))

    # what the seat knows
    seen = set(_cards(hand)) | set(state.discards)
    if state.set_aside is not None and state.set_aside >= 0:
        seen.add(int(state.set_aside))
    moves = _recent_moves(state)
    took: set[int] = set()
    threw: set[int] = set()
    for q in range(state.n):
        if q == p:
            continue
        seen |= set(_cards(state.known[q]))
        took |= set(_cards(state.known[q])) | set(moves[q][1][:RECENT])
        threw |= set(moves[q][0][:RECENT])
    unseen = [c for c in range(52) if c not in seen]
    knock_max = state.knock_max

    def cost(d: int) -> int:  # quarter points
        return 4 * d + 20 * (d > knock_max)

    def best_after_draw(cards: int) -> int:
        return min(deadwood(cards & ~(1 << c)) for c in _cards(cards))

    def ahead(keep: int, now: int) -> int:
        if not unseen:
            return cost(now)
        return sum(cost(min(now, best_after_draw(keep | 1 << u))) for u in unseen) // len(unseen)

    def outs(keep: int) -> int:
        held = _cards(keep)
        return sum(
            1 for u in unseen if any(is_valid_meld((u, a, b), state.rules.aces) for a, b in combinations(held, 2))
        )

    if phase != Phase.DISCARD:
        if state.discards:
            top = state.discards[-1]
            with_top = hand | 1 << top
            taken = min(deadwood(with_top & ~(1 << c)) for c in _cards(hand))
            kept = deadwood(hand)
            if taken < kept and cost(taken) < ahead(hand, kept):
                return TAKE
        return DRAW_STOCK if phase == Phase.DRAW else PASS
    legal = state.legal_actions()
    if legal[-1] == BIG_GIN:
        return BIG_GIN
    forbid = state.taken if state.rules.forbid_discarding_taken_card else None
    allowed = [c for c in _cards(hand) if c != forbid]
    after = {c: deadwood(hand & ~(1 << c)) for c in allowed}
    least = min(after.values())
    greedy_card = max((c for c in allowed if after[c] == least), key=lambda c: (_value(c), c))
    if KNOCK + greedy_card in legal and (max_knock_deadwood is None or least <= max_knock_deadwood):
        return KNOCK + greedy_card

    def key(c: int) -> tuple[int, int, int]:
        keep = hand & ~(1 << c)
        wanted = c not in took and any(_near(c, t) for t in took)
        shunned = any(c % 13 == t % 13 for t in threw)
        score = ahead(keep, after[c]) - 4 * outs(keep) + 16 * (int(wanted) - int(shunned))
        return score, -_value(c), -c

    return min((c for c in allowed if after[c] <= least + SLACK), key=key)
