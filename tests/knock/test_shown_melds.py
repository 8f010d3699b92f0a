"""The knocker's melds in C against the Python showdown: the scoring of a
knock with explicit knocker melds (``rk_score_knock_shown``, for
``KnockState.knock(card, melds=...)``) against
``showdown.resolve_knock(knocker_melds=...)`` (the same result, or both
refuse: a bad or overlapping meld, too much deadwood left), and the
automatic arrangement (``rk_knock_arrangement``) against
``showdown.knocker_arrangement``."""

from __future__ import annotations

import numpy as np
import pytest
from long_runs import LONG
from reference.knock import knocker_arrangement, limit_and_multiplier, resolve_knock

import rummykit as rk
from rummykit import _core
from rummykit.analysis import arrangements
from rummykit.errors import IllegalActionError, InvalidMeldError
from rummykit.knock.showdown import score_knock

VARIANTS = [
    ("gin", {}),
    ("gin", {"knock_compare": "lt", "big_gin_bonus": 31}),
    ("gin", {"allow_layoff_on_knock": False, "gin_extra_boxes": 2, "undercut_extra_boxes": 1}),
    ("oklahoma-gin", {"spade_double_boxes": True}),
    ("oklahoma-rummy", {"layoff_onto_prior_layoffs": True}),
    ("oklahoma-rummy", {"num_players": 4}),
    ("oklahoma_ring_seed003", {}),
    ("partnership_oklahoma", {}),
    ("gin_multi", {"num_players": 3, "allow_ace_high_run": True}),
]


def near_hand(rng: np.random.Generator, free: list[int], size: int) -> list[int]:
    """``size`` cards from ``free``, most near one rank (melds and lay-offs)."""
    start = int(rng.integers(13))
    window = [c for c in free if (c % 13 - start) % 13 < 5]
    rng.shuffle(window)
    take = window[: size - 2]
    rest = [c for c in free if c not in take]
    rng.shuffle(rest)
    return take + rest[: size - len(take)]


def shown_candidates(rng: np.random.Generator, hand: int, limit: int, aces: str) -> list[int]:
    """Melds to show: an arrangement in a random order, sometimes one meld
    dropped (more deadwood), sometimes a random non-meld or a stray card."""
    cands = arrangements(hand, max_deadwood=limit + 12, aces=aces)
    melds = [m.mask for m in cands[int(rng.integers(len(cands)))].melds] if cands else []
    rng.shuffle(melds)
    roll = rng.random()
    if roll < 0.15 and melds:
        melds.pop()
    elif roll < 0.2:
        cards = [c for c in range(52) if hand >> c & 1]
        melds.append(sum(1 << int(c) for c in rng.choice(cards, 3, replace=False)))
    elif roll < 0.23:
        melds.append(next(1 << c for c in range(52) if not hand >> c & 1) | 3)
    return melds


@pytest.mark.parametrize(("game", "options"), VARIANTS)
def test_shown_melds_equal_resolve_knock(game: str, options: dict[str, object]) -> None:
    rules = rk.Game(game, **options).rules
    core = rk.KnockGame(game, **options).new_hand(seed=0)._core_rules
    rng = np.random.default_rng(len(options) * 17 + len(game))
    agreed = refused = 0
    while agreed + refused < (2000 if LONG else 150):
        free = list(range(52))
        upcard = int(rng.integers(52))
        free.remove(upcard)
        hands = []
        for _ in range(rules.num_players):
            hand = near_hand(rng, free, rules.hand_size)
            free = [c for c in free if c not in hand]
            hands.append(sum(1 << c for c in hand))
        limit, gin_only, multiplier = limit_and_multiplier(rules, rk.Card(upcard))
        least = _core.deadwood(core, hands[0])
        if least and (gin_only or least > limit - (rules.knock_compare == "lt")):
            continue  # the hand cannot knock at all
        melds = shown_candidates(rng, hands[0], limit, rules.aces)
        big = bool(rules.big_gin_bonus is not None and rng.integers(4) == 0)
        try:
            want = resolve_knock(
                rules, hands, limit=limit, gin_only=gin_only, multiplier=multiplier, knocker_melds=melds, big_gin=big
            )
        except (InvalidMeldError, IllegalActionError) as e:  # not melds, or over the limit, or big gin with deadwood
            with pytest.raises(type(e)):
                score_knock(rules, hands, rk.Card(upcard), melds, big_gin=big)
            refused += 1
            continue
        got = score_knock(rules, hands, rk.Card(upcard), melds, big_gin=big)
        assert got == want  # every field: points, credits, charges, boxes, melds and lay-offs
        agreed += 1
    assert agreed > 20 and refused > 5


ARRANGEMENT_VARIANTS = [
    *VARIANTS,
    ("gin", {"knocker_arrangement": "best_score"}),
    ("oklahoma-rummy", {"knocker_arrangement": "best_score", "layoff_onto_prior_layoffs": True}),
    ("partnership_oklahoma", {"knocker_arrangement": "best_score"}),
]


@pytest.mark.parametrize(("game", "options"), ARRANGEMENT_VARIANTS)
def test_automatic_arrangement_equals_knocker_arrangement(game: str, options: dict[str, object]) -> None:
    rules = rk.Game(game, **options).rules
    core = rk.KnockGame(game, **options).new_hand(seed=0)._core_rules
    rng = np.random.default_rng(len(options) * 13 + len(game))
    tried = 0
    while tried < (1000 if LONG else 50):
        free = list(range(52))
        upcard = int(rng.integers(52))
        free.remove(upcard)
        hands = []
        for _ in range(rules.num_players):
            hand = near_hand(rng, free, rules.hand_size)
            free = [c for c in free if c not in hand]
            hands.append(sum(1 << c for c in hand))
        limit, gin_only, multiplier = limit_and_multiplier(rules, rk.Card(upcard))
        least = _core.deadwood(core, hands[0])
        if least and (gin_only or least > limit - (rules.knock_compare == "lt")):
            continue
        tried += 1
        want = knocker_arrangement(rules, hands, limit=limit, gin_only=gin_only, multiplier=multiplier)
        assert score_knock(rules, hands, rk.Card(upcard)).knocker_melds == want
