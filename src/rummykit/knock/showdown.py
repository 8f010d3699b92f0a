"""The showdown after a knock: the knocker's arrangement, the defenders'
melds and lay-offs, the outcome and the hand's points (docs/rules.md, Deadwood and lay-offs, Gin Rummy, Oklahoma Gin,
Oklahoma Rummy).

Everything here works in *knock order*: index 0 is the knocker, then the
defenders in turn order after the knocker.
"""

from __future__ import annotations

from dataclasses import dataclass

from rummykit import _core
from rummykit._rules import core_rules
from rummykit.analysis import (
    Arrangement,
    Layoff,
    Meld,
    arrangements,
    as_meld,
    best_melds,
    layoff,
)
from rummykit.cards import Card, from_mask
from rummykit.errors import IllegalActionError, InvalidMeldError, clip
from rummykit.knock.rules import KnockRules
from rummykit.scoring import HandScore, score_hand

__all__ = ["HandResult", "Replies", "declared_result", "knocker_arrangement", "resolve_knock"]


@dataclass(frozen=True)
class HandResult:
    """The end of a hand.  Lists are per player: in seat order for a game
    state's ``result``, in knock order (knocker first) for ``Game.showdown``.

    ``outcome`` is ``"gin"``, ``"big_gin"``, ``"knock"``, ``"undercut"`` or
    ``"dead"``; ``winner`` the index of the hand winner (None if dead);
    ``points`` each player's points for the hand after the multiplier, in
    the variant's scoring model (``credits`` - ``charges``); ``boxes`` the
    boxes won.
    """

    outcome: str
    winner: int | None
    knocker: int | None
    deadwood: tuple[int, ...]
    points: tuple[int, ...]
    credits: tuple[int, ...]
    charges: tuple[int, ...]
    boxes: tuple[int, ...]
    multiplier: int
    knock_limit: int
    knocker_melds: Arrangement | None = None
    melds: tuple[tuple[Meld, ...], ...] = ()
    layoffs: tuple[tuple[Layoff, ...], ...] = ()

    @property
    def is_dead(self) -> bool:
        return self.outcome == "dead"

    def reorder(self, order: list[int], n: int) -> HandResult:
        """The same result with per-player lists moved from knock order to
        seats (``order[i]`` is the seat of knock-order player i)."""

        def seats(values: tuple) -> tuple:  # type: ignore[type-arg]
            out: list[object] = [None] * n
            for i, seat in enumerate(order):
                out[seat] = values[i]
            return tuple(out)

        return HandResult(
            outcome=self.outcome,
            winner=None if self.winner is None else order[self.winner],
            knocker=order[0],
            deadwood=seats(self.deadwood),
            points=seats(self.points),
            credits=seats(self.credits),
            charges=seats(self.charges),
            boxes=seats(self.boxes),
            multiplier=self.multiplier,
            knock_limit=self.knock_limit,
            knocker_melds=self.knocker_melds,
            melds=seats(self.melds),
            layoffs=seats(self.layoffs),
        )


def dead_hand(n: int, multiplier: int, limit: int) -> HandResult:
    """A dead hand: no points, no boxes."""
    zeros = (0,) * n
    return HandResult("dead", None, None, zeros, zeros, zeros, zeros, zeros, multiplier, limit)


def _within(rules: KnockRules, deadwood: int, limit: int, gin_only: bool) -> bool:
    if deadwood == 0:
        return True  # gin is always allowed
    if gin_only:
        return False
    return deadwood < limit if rules.knock_compare == "lt" else deadwood <= limit


@dataclass(frozen=True)
class Replies:
    """Each player's final deadwood, own melds and lay-offs, knock order."""

    deadwood: tuple[int, ...]
    melds: tuple[tuple[Meld, ...], ...]
    layoffs: tuple[tuple[Layoff, ...], ...]


def _defender_replies(rules: KnockRules, hands: list[int], shown: Arrangement) -> Replies:
    """Each defender melds and, unless the knocker went gin or lay-offs are
    banned, first lays off on the knocker's melds: the original melds plus
    their own chains (plus earlier defenders' lay-offs with
    ``layoff_onto_prior_layoffs``)."""
    aces = rules.aces
    can_lay_off = shown.deadwood > 0 and rules.allow_layoff_on_knock
    table = [m.mask for m in shown.melds]
    deadwood: list[int] = [shown.deadwood]
    melds: list[tuple[Meld, ...]] = [shown.melds]
    layoffs: list[tuple[Layoff, ...]] = [()]
    for hand in hands[1:]:
        if can_lay_off and table:
            reply = layoff([as_meld(m, aces=aces) for m in table], hand, aces=aces)
            deadwood.append(reply.deadwood)
            melds.append(reply.melds)
            layoffs.append(reply.layoffs)
            if rules.layoff_onto_prior_layoffs:
                extra = {lo.meld.mask: sum(c.mask for c in lo.cards) for lo in reply.layoffs}
                table = [m | extra.get(m, 0) for m in table]
        else:
            own = best_melds(hand, aces=aces)
            deadwood.append(own.deadwood)
            melds.append(own.melds)
            layoffs.append(())
    return Replies(tuple(deadwood), tuple(melds), tuple(layoffs))


def _outcome(rules: KnockRules, deadwood: tuple[int, ...], big_gin: bool) -> tuple[str, str, int]:
    """(reported outcome, scoring outcome, winner) in knock order."""
    k = deadwood[0]
    if k == 0:
        return ("big_gin", "big_gin", 0) if big_gin else ("gin", "gin", 0)
    m = min(deadwood[1:])
    if m < k or (m == k and rules.undercut_on_tie):
        return "undercut", "undercut", deadwood.index(m, 1)
    if m == k:
        return "knock", "tie_knocker_wins", 0
    return "knock", "knock", 0


def _score(rules: KnockRules, replies: Replies, multiplier: int, big_gin: bool) -> tuple[str, int, HandScore]:
    if rules.partnerships:
        return _partnership_score(rules, replies.deadwood, multiplier, big_gin)
    outcome, scoring_outcome, winner = _outcome(rules, replies.deadwood, big_gin)
    score = score_hand(
        rules.scoring,
        knocker=0,
        deadwood=replies.deadwood,
        outcome=scoring_outcome,
        winner=winner,
        multiplier=multiplier,
    )
    return outcome, winner, score


def _partnership_score(
    rules: KnockRules, dw: tuple[int, ...], multiplier: int, big_gin: bool
) -> tuple[str, int, HandScore]:
    """docs/rules.md, D30: the knocker (0) and partner (2) against 1 and 3,
    settled as a two-player hand on the side totals.  The knocker's own
    deadwood decides gin; the gin side then wins the side difference (not
    below 0) plus the gin bonus.  Both members of the winning side are
    credited the side's points; the hand winner is the knocker, or the
    undercutting opponent with less deadwood (the first after the knocker
    on a tie)."""
    k_side, d_side = dw[0] + dw[2], dw[1] + dw[3]
    if dw[0] == 0:
        side = (0, max(d_side - k_side, 0))
        outcome, scoring_outcome, side_winner = ("big_gin" if big_gin else "gin"), ("big_gin" if big_gin else "gin"), 0
    else:
        side = (k_side, d_side)
        outcome, scoring_outcome, side_winner = _outcome(rules, side, False)
    two = score_hand(
        rules.scoring, knocker=0, deadwood=side, outcome=scoring_outcome, winner=side_winner, multiplier=multiplier
    )
    winner = 0 if side_winner == 0 else (1 if dw[1] <= dw[3] else 3)

    def per_seat(values: tuple[int, ...]) -> tuple[int, ...]:
        return tuple(values[0] if seat in (0, 2) else values[1] for seat in range(4))

    score = HandScore(
        points=per_seat(two.points),
        credits=per_seat(two.credits),
        charges=per_seat(two.charges),
        winner=winner,
        outcome=scoring_outcome,
    )
    return outcome, winner, score


def _canonical(a: Arrangement) -> list[list[int]]:
    return [[int(c) for c in from_mask(m.mask)] for m in a.melds]


def _choose_arrangement(rules: KnockRules, hands: list[int], least: int, limit: int, multiplier: int) -> Arrangement:
    """docs/rules.md, D26: among the knocker's arrangements (least-deadwood ones
    by default; every legal one with knocker_arrangement='best_score') the
    one that scores best for the knocker against the defenders' best
    replies; ties to the smaller deadwood, then the canonical order."""
    aces = rules.aces
    if least == 0:
        return best_melds(hands[0], aces=aces)
    bound = (
        least if rules.knocker_arrangement == "min_deadwood" else (limit - 1 if rules.knock_compare == "lt" else limit)
    )
    if len(hands) == 2 and rules.scoring_model == "classic_two_player":
        flags = (_core.KNOCK_MIN_DEADWOOD_ONLY if bound == least else 0) | (
            0 if rules.allow_layoff_on_knock else _core.KNOCK_NO_LAYOFFS
        )
        raw = _core.choose_knock(core_rules(aces), hands[0], hands[1], bound, flags)[0]
        return Arrangement(tuple(as_meld(m, aces=aces) for m in raw[0]), tuple(from_mask(raw[1])), raw[2])
    best: tuple[tuple[int, int], Arrangement] | None = None
    for candidate in arrangements(hands[0], max_deadwood=bound, aces=aces):
        _, _, score = _score(rules, _defender_replies(rules, hands, candidate), multiplier, False)
        key = (score.points[0], -candidate.deadwood)
        if best is None or key > best[0] or (key == best[0] and _canonical(candidate) < _canonical(best[1])):
            best = (key, candidate)
    assert best is not None  # least <= bound, so a candidate exists
    return best[1]


def _explicit_arrangement(rules: KnockRules, hand: int, melds: object) -> Arrangement:
    aces = rules.aces
    if isinstance(melds, Arrangement):
        melds = melds.melds
    try:  # a 0-d numpy array has __iter__ but iterating it raises TypeError
        if isinstance(melds, (str, bytes, int)):
            raise TypeError
        items = list(melds)  # type: ignore[call-overload]
    except TypeError:
        raise InvalidMeldError(f"knocker melds must be a list of melds, got {clip(melds)}") from None
    shown = [as_meld(m, aces=aces) for m in items]
    used = 0
    for m in shown:
        if m.mask & used:
            raise InvalidMeldError(f"melds overlap: '{m}'")
        if m.mask & ~hand:
            raise InvalidMeldError(f"meld '{m}' uses cards the knocker does not hold")
        used |= m.mask
    rest = hand & ~used
    return Arrangement(tuple(shown), tuple(from_mask(rest)), _core.mask_value(core_rules(aces), rest))


def knocker_arrangement(
    rules: KnockRules,
    hands: list[int],
    *,
    limit: int,
    gin_only: bool,
    multiplier: int,
    knocker_melds: object = None,
    big_gin: bool = False,
) -> Arrangement:
    """The arrangement the knocker shows (explicit, or chosen by docs/rules.md
    D26); :class:`IllegalActionError` for a knock the rules do not allow.
    ``hands`` in knock order."""
    least = _core.deadwood(core_rules(rules.aces), hands[0])
    if not _within(rules, least, limit, gin_only):
        rule = "gin only (ace upcard)" if gin_only else f"deadwood {least} over the knock limit {limit}"
        raise IllegalActionError(f"illegal knock: {rule}")
    if knocker_melds is None:
        shown = _choose_arrangement(rules, hands, least, limit, multiplier)
    else:
        shown = _explicit_arrangement(rules, hands[0], knocker_melds)
        if not _within(rules, shown.deadwood, limit, gin_only):
            raise IllegalActionError(
                f"illegal knock: the melds shown leave deadwood {shown.deadwood}, over the limit {limit}"
            )
    if big_gin and shown.deadwood:
        raise IllegalActionError("big gin needs all eleven cards melded")
    return shown


def resolve_knock(
    rules: KnockRules,
    hands: list[int],
    *,
    limit: int,
    gin_only: bool,
    multiplier: int,
    knocker_melds: object = None,
    big_gin: bool = False,
) -> HandResult:
    """Score a knock with the defenders' best replies; ``hands`` in knock
    order (the knocker's final cards after the knock discard first).
    Raises :class:`IllegalActionError` for a knock the rules do not allow."""
    shown = knocker_arrangement(
        rules,
        hands,
        limit=limit,
        gin_only=gin_only,
        multiplier=multiplier,
        knocker_melds=knocker_melds,
        big_gin=big_gin,
    )
    return declared_result(
        rules, shown, _defender_replies(rules, hands, shown), limit=limit, multiplier=multiplier, big_gin=big_gin
    )


def declared_result(
    rules: KnockRules,
    shown: Arrangement,
    replies: Replies,
    *,
    limit: int,
    multiplier: int,
    big_gin: bool = False,
) -> HandResult:
    """The hand result once every defender's melds and lay-offs are known
    (computed, or declared in a manual showdown); knock order."""
    outcome, winner, score = _score(rules, replies, multiplier, big_gin)
    extra = (
        rules.gin_extra_boxes
        if outcome in ("gin", "big_gin")
        else rules.undercut_extra_boxes
        if outcome == "undercut"
        else 0
    )
    won = (1 + extra) * (multiplier if rules.spade_double_boxes else 1)
    side = {winner, (winner + 2) % 4} if rules.partnerships else {winner}
    boxes = tuple(won if i in side else 0 for i in range(len(replies.deadwood)))
    return HandResult(
        outcome,
        winner,
        0,
        replies.deadwood,
        score.points,
        score.credits,
        score.charges,
        boxes,
        multiplier,
        limit,
        shown,
        replies.melds,
        replies.layoffs,
    )


def limit_and_multiplier(rules: KnockRules, upcard: Card | None) -> tuple[int, bool, int]:
    """(knock limit, gin only, multiplier) from the original upcard."""
    if rules.knock_limit_mode == "fixed":
        return rules.knock_limit, False, 1 if upcard is None or upcard.suit != 3 else rules.spade_multiplier
    if upcard is None:
        raise IllegalActionError("this variant's knock limit comes from the upcard: give upcard=")
    limit = min(upcard.rank + 1, 10)
    gin_only = upcard.rank == 0 and rules.ace_upcard_gin_only
    return limit, gin_only, rules.spade_multiplier if upcard.suit == 3 else 1
