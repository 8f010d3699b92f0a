"""The plain Python knock-game state machine and showdown scoring: the
oracle that the C engine (rummykit.knock.state.KnockState over
csrc/src/knock_engine.c and knock_score.c) is checked against, step by
step (tests/knock/test_core.py).  It is the engine rummykit shipped before
the C one, kept as it was: the rules written out plainly.
"""

# mypy: ignore-errors
from __future__ import annotations

from dataclasses import dataclass, replace
from operator import attrgetter
from typing import Any

import numpy as np

from rummykit import _core
from rummykit._rules import core_rules
from rummykit.analysis import Arrangement, Layoff, Meld, arrangements, as_meld, best_melds, layoff
from rummykit.cards import Card, from_mask
from rummykit.errors import IllegalActionError, InvalidMeldError, InvalidOptionError, check_seat, clip
from rummykit.knock.actions import (
    BIG_GIN,
    DONE,
    DRAW_STOCK,
    KNOCK,
    LAYOFF,
    LAYOFF_SLOTS,
    MELD,
    MELD_INDEX,
    PASS,
    TAKE,
    Action,
    parse_action,
)
from rummykit.knock.observe import OBSERVATION_LAYOUT, OBSERVATION_TENSOR_SIZE
from rummykit.knock.rules import KnockRules
from rummykit.knock.showdown import HandResult
from rummykit.knock.state import (
    DISCARD,
    DRAW,
    END,
    FORCED_STOCK_DRAW,
    KNOCK_ONLY,
    LAST_CHANCE,
    OFFER_DEALER,
    OFFER_NONDEALER,
    PHASES,
    SHOWDOWN,
    Phase,
)
from rummykit.scoring import HandScore


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
    score = _score_hand(
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
    two = _score_hand(
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


def _score_hand(params, *, knocker, deadwood, outcome, winner, multiplier=1):  # type: ignore[no-untyped-def]
    """rummykit.scoring.score_hand's formula (docs/rules.md, "Multi-player scoring models")."""
    dw = tuple(deadwood)
    w = dw[winner]
    gin = outcome in ("gin", "big_gin")
    credits = [0] * len(dw)
    charges = [0] * len(dw)
    collected = sum(d - w for seat, d in enumerate(dw) if seat != winner)
    credits[winner] = (params.bonus(outcome) + (collected if params.collect_differences else 0)) * multiplier
    if params.losers_charged:
        for seat, d in enumerate(dw):
            if seat == winner:
                continue
            charge = params.gin_loser_multiplier * d + params.gin_loser_extra if gin else d - w
            if outcome == "undercut" and seat == knocker:
                charge += params.undercut_knocker_extra
            charges[seat] = charge * multiplier
    return HandScore(
        points=tuple(c - p for c, p in zip(credits, charges)),
        credits=tuple(credits),
        charges=tuple(charges),
        winner=winner,
        outcome=outcome,
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


@dataclass(frozen=True)
class Showdown:
    """A manual showdown in progress (``auto_showdown=False``)."""

    knocker: int
    shown: Arrangement  # what the knocker shows
    table: tuple[int, ...]  # the knocker's melds as the defender to move may extend them
    can_lay_off: bool  # not after gin, nor with allow_layoff_on_knock=False
    big_gin: bool
    used: tuple[int, ...]  # per seat: cards declared (melded or laid off)
    melds: tuple[tuple[int, ...], ...]  # per seat: melds declared
    layoffs: tuple[tuple[tuple[int, int], ...], ...]  # per seat: (knocker meld slot, card) laid off


# the fields an action may change, in snapshot order
_FIELDS = (
    "phase",
    "player",
    "hands",
    "stock",
    "discards",
    "known",
    "taken",
    "restocks",
    "set_aside",
    "result",
    "knock_card",
    "shown_melds",
    "turns",
    "drawn",
    "showdown",
)
_snapshot = attrgetter(*_FIELDS)


def _put(values: tuple[Any, ...], i: int, value: Any) -> tuple[Any, ...]:
    return values[:i] + (value,) + values[i + 1 :]


class ReferenceKnockState:
    """One hand of a knock game.  Create it with ``game.new_hand()``.

    OpenSpiel-style verbs for AI (``legal_actions``, ``apply_action``,
    ``clone``, ``undo``, ``is_terminal``, ``returns``) and checked verbs for
    people (``play("discard 7H")``, ``can_*``/``verify_*``).
    """

    __slots__ = (
        "game",
        "rules",
        "n",
        "dealer",
        "upcard",
        "limit",
        "gin_only",
        "multiplier",
        "deck",
        "shuffle_seed",
        "_core_rules",
        "_knock_max",
        "history",
        "_stack",
        "_legal",
        *_FIELDS,
    )

    game: Any
    hands: tuple[int, ...]
    stock: tuple[int, ...]  # top of the stock last
    discards: tuple[int, ...]  # top of the pile last
    known: tuple[int, ...]  # per seat: cards others saw them take from the discard pile
    result: HandResult | None

    def __init__(self, game: Any, deck: list[int], dealer: int, shuffle_seed: int) -> None:
        rules = game.rules
        n = rules.num_players
        self.game, self.rules, self.n, self.dealer = game, rules, n, dealer
        self.deck, self.shuffle_seed = tuple(deck), shuffle_seed
        self._core_rules = core_rules(rules.aces)
        size = rules.hand_size
        hands = [0] * n
        for i in range(size * n):  # one card at a time, from the dealer's left
            hands[(dealer + 1 + i) % n] |= 1 << deck[i]
        upcard = deck[size * n]
        self.upcard = Card(upcard)
        self.limit, self.gin_only, self.multiplier = limit_and_multiplier(rules, self.upcard)
        # the most deadwood a knock may leave (gin is always allowed)
        self._knock_max = 0 if self.gin_only else self.limit - (rules.knock_compare == "lt")
        self.hands = tuple(hands)
        self.stock = tuple(reversed(deck[size * n + 1 :]))
        self.discards = (upcard,)
        self.known = (0,) * n
        self.taken = -1
        self.restocks = 0
        self.set_aside = -1
        self.result = None
        self.knock_card = -1
        self.shown_melds: tuple[int, ...] | None = None  # an explicit knock arrangement
        self.turns = 0  # completed turns
        self.drawn: tuple[tuple[int, ...], ...] = ((),) * n  # per seat, the cards drawn from the stock
        self.showdown: Showdown | None = None
        self.player = (dealer + 1) % n
        self.phase = OFFER_NONDEALER if rules.first_turn_procedure == "upcard_offer" else DRAW
        self.history: list[int] = []
        self._stack: list[tuple[Any, ...]] = []
        self._legal: list[int] | None = None

    # --- views ----------------------------------------------------------

    @property
    def current_player(self) -> int:
        """The seat to act (-4, OpenSpiel's terminal id, when the hand is over)."""
        return -4 if self.phase == END else self.player

    @property
    def phase_name(self) -> str:
        """The phase as text: ``"draw"``, ``"discard"``, ..."""
        return PHASES[self.phase]

    def is_terminal(self) -> bool:
        return self.phase == END

    def returns(self) -> list[int]:
        """Each seat's points for the hand (0 until it ends, and for a dead hand)."""
        return list(self.result.points) if self.result is not None else [0] * self.n

    def hand(self, seat: int) -> list[Card]:
        return from_mask(self.hands[check_seat(seat, self.n)])

    @property
    def top_discard(self) -> Card | None:
        return Card(self.discards[-1]) if self.discards else None

    def __repr__(self) -> str:
        return (
            f"<ReferenceKnockState {self.rules.name} {PHASES[self.phase]} player={self.player} "
            f"stock={len(self.stock)} upcard={self.upcard} actions={len(self.history)}>"
        )

    # --- legal actions (the one source of truth) --------------------------

    def legal_actions(self) -> list[int]:
        """The legal action ids, sorted (empty at the end of the hand)."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
        return legal.copy()

    def _knock_deadwoods(self) -> list[tuple[int, int]]:
        return _core.deadwood_after_discards(self._core_rules, self.hands[self.player])

    def _can_knock(self, deadwood: int) -> bool:
        return deadwood <= self._knock_max

    def _compute_legal(self) -> list[int]:
        phase = self.phase
        if phase == DISCARD or phase == KNOCK_ONLY:
            forbid = self.taken if self.rules.forbid_discarding_taken_card else -1
            hand = self.hands[self.player]
            legal: list[int] = _core.discard_actions(self._core_rules, hand, forbid, self._knock_max, KNOCK)
            if phase == KNOCK_ONLY:
                return [a for a in legal if a >= KNOCK]
            if self.rules.big_gin_bonus is not None and _core.deadwood(self._core_rules, hand) == 0:
                legal.append(BIG_GIN)
            return legal
        if phase == DRAW:
            return [DRAW_STOCK, TAKE] if self.discards else [DRAW_STOCK]
        if phase == OFFER_NONDEALER or phase == OFFER_DEALER:
            return [TAKE, PASS]
        if phase == FORCED_STOCK_DRAW:
            return [DRAW_STOCK]
        if phase == LAST_CHANCE:
            return [TAKE, PASS] if self._last_chance_knock_exists() else [PASS]
        if phase == SHOWDOWN:
            return self._showdown_actions()
        return []

    def _showdown_actions(self) -> list[int]:
        sd, p = self.showdown, self.player
        assert sd is not None
        rest = self.hands[p] & ~sd.used[p]
        legal = [MELD + MELD_INDEX[m] for m in _core.melds(self._core_rules, rest)]
        if sd.can_lay_off:
            for slot, meld in enumerate(sd.table):
                for card in from_mask(rest):
                    if _core.meld_kind(self._core_rules, meld | 1 << card):
                        legal.append(LAYOFF + card * LAYOFF_SLOTS + slot)
        legal.append(DONE)
        return sorted(legal)

    def _last_chance_knock_exists(self) -> bool:
        card = self.discards[-1]
        hand = self.hands[self.player] | (1 << card)
        forbid = card if self.rules.forbid_discarding_taken_card else -1
        pairs = _core.deadwood_after_discards(self._core_rules, hand)
        return any(c != forbid and self._can_knock(dw) for c, dw in pairs)

    # --- the checked verb the oracle needs --------------------------------------

    def verify_action(self, action: int | str | Action) -> int:
        """The action id if it is legal now, else IllegalActionError (the oracle names no rule)."""
        action_id = self.parse_action(action) if isinstance(action, str) else Action(action).id
        if action_id not in self.legal_actions():
            raise IllegalActionError(f"{Action(action_id)}: not legal now")
        return action_id

    def can_act(self, action: int | str | Action) -> bool:
        try:
            self.verify_action(action)
        except IllegalActionError:
            return False
        return True

    def verify_discard(self, card: int | str) -> None:
        self.verify_action(Action(int(Card(card))))

    def can_discard(self, card: int | str) -> bool:
        return self.can_act(Action(int(Card(card))))

    def verify_knock(self, card: int | str) -> None:
        self.verify_action(Action(KNOCK + int(Card(card))))

    def can_knock(self, card: int | str) -> bool:
        return self.can_act(Action(KNOCK + int(Card(card))))

    def action_text(self, action_id: int) -> str:
        return str(Action(action_id))

    def parse_action(self, text: str) -> int:
        return parse_action(text).id

    # --- transitions -------------------------------------------------------

    def apply_action(self, action_id: int) -> None:
        """Apply a legal action id.  Anything else (an illegal or unknown id, a
        non-int) raises :class:`IllegalActionError` and changes nothing; the
        check is one look-up in the cached legal actions."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
        if type(action_id) is not int or action_id not in legal:
            action_id = self.verify_action(action_id)  # raises naming the problem, or the plain id
        self._stack.append(_snapshot(self))
        self.history.append(action_id)
        self._legal = None
        phase, p = self.phase, self.player
        if action_id < KNOCK:
            self._discard(p, action_id)
        elif action_id < DRAW_STOCK:
            self._knock(p, action_id - KNOCK)
        elif action_id == DRAW_STOCK:
            self._draw_stock(p)
        elif action_id == TAKE:
            self._take(p, phase)
        elif action_id == PASS:
            self._pass(phase)
        elif action_id == BIG_GIN:
            self._end_with_knock(p, self.hands[p], big_gin=True)
        else:
            self._declare(p, action_id)

    def undo(self) -> None:
        """Take back the last action."""
        if not self._stack:
            raise IllegalActionError("nothing to undo")
        for name, value in zip(_FIELDS, self._stack.pop()):
            setattr(self, name, value)
        self.history.pop()
        self._legal = None

    def clone(self) -> ReferenceKnockState:
        """An independent copy (history and undo stack included)."""
        other = object.__new__(ReferenceKnockState)
        for name in ReferenceKnockState.__slots__:
            setattr(other, name, getattr(self, name))
        other.history = list(self.history)
        other._stack = list(self._stack)
        return other

    def _set_hand(self, p: int, mask: int) -> None:
        h = self.hands
        self.hands = h[:p] + (mask,) + h[p + 1 :]

    def _set_known(self, p: int, mask: int) -> None:
        k = self.known
        if k[p] != mask:
            self.known = k[:p] + (mask,) + k[p + 1 :]

    def _next_turn(self) -> None:
        self.turns += 1
        if 0 <= self.rules.max_turns <= self.turns:
            self._end_dead()
            return
        self.player = (self.player + 1) % self.n
        self.phase = DRAW
        self.taken = -1

    def _discard(self, p: int, card: int) -> None:
        bit = 1 << card
        h = self.hands
        self.hands = h[:p] + (h[p] & ~bit,) + h[p + 1 :]
        if self.known[p] & bit:
            self._set_known(p, self.known[p] & ~bit)
        self.discards = self.discards + (card,)
        rule = self.rules.stock_end_rule
        if rule != "reshuffle" and len(self.stock) <= 2:
            if rule == "dead_at_2_last_chance" and self.phase == DISCARD:
                self.player, self.phase, self.taken = (p + 1) % self.n, LAST_CHANCE, -1
                return
            self._end_dead()
            return
        self._next_turn()

    def _draw_stock(self, p: int) -> None:
        if not self.stock and not self._restock():
            self._end_dead()
            return
        stock = self.stock
        card = stock[-1]
        self.stock = stock[:-1]
        h, d = self.hands, self.drawn
        self.hands = h[:p] + (h[p] | 1 << card,) + h[p + 1 :]
        self.drawn = d[:p] + (d[p] + (card,),) + d[p + 1 :]
        self.phase, self.taken = DISCARD, -1
        if self.rules.stock_end_rule == "dead_on_draw" and len(self.stock) <= 2:
            self._end_dead()

    def _restock(self) -> bool:
        """docs/rules.md, Restocking reshuffle_keep_top: the top discard stays; the rest
        is shuffled (seeded by the hand and the restock count) into the stock
        with the C core's restock shuffle, the one the C playouts use."""
        limit = self.rules.max_restocks
        if len(self.discards) < 2 or (limit >= 0 and self.restocks >= limit):
            return False
        self.stock = _core.restock_shuffle(self.shuffle_seed, self.restocks, self.discards[:-1])
        self.discards = self.discards[-1:]
        self.restocks += 1
        return True

    def _take(self, p: int, phase: int) -> None:
        discards = self.discards
        card = discards[-1]
        self.discards = discards[:-1]
        h, k = self.hands, self.known
        self.hands = h[:p] + (h[p] | 1 << card,) + h[p + 1 :]
        self.known = k[:p] + (k[p] | 1 << card,) + k[p + 1 :]
        self.taken = card
        self.phase = KNOCK_ONLY if phase == LAST_CHANCE else DISCARD

    def _pass(self, phase: int) -> None:
        if phase == OFFER_NONDEALER:
            self.player, self.phase = self.dealer, OFFER_DEALER
        elif phase == OFFER_DEALER:
            self.player, self.phase = (self.dealer + 1) % self.n, FORCED_STOCK_DRAW
            if self.rules.refused_upcard_set_aside:
                self.set_aside, self.discards = self.discards[-1], self.discards[:-1]
        else:  # LAST_CHANCE refused
            self._end_dead()

    def _knock(self, p: int, card: int) -> None:
        # known[p] keeps a knock card the others saw p take: they can name it
        self.knock_card = card
        self._end_with_knock(p, self.hands[p] & ~(1 << card))

    def _end_with_knock(self, p: int, final: int, *, big_gin: bool = False, knocker_melds: object = None) -> None:
        order = [(p + i) % self.n for i in range(self.n)]
        hands = [final] + [self.hands[s] for s in order[1:]]
        options = dict(
            limit=self.limit,
            gin_only=self.gin_only,
            multiplier=self.multiplier,
            knocker_melds=knocker_melds,
            big_gin=big_gin,
        )
        if self.rules.auto_showdown:
            result = resolve_knock(self.rules, hands, **options)  # type: ignore[arg-type]
            self._set_hand(p, final)
            self.result = result.reorder(order, self.n)
            self.phase = END
            return
        shown = knocker_arrangement(self.rules, hands, **options)  # type: ignore[arg-type]
        self._set_hand(p, final)
        table = tuple(m.mask for m in shown.melds)
        self.showdown = Showdown(
            knocker=p,
            shown=shown,
            table=table,
            big_gin=big_gin,
            can_lay_off=shown.deadwood > 0 and self.rules.allow_layoff_on_knock and bool(table),
            used=(0,) * self.n,
            melds=((),) * self.n,
            layoffs=((),) * self.n,
        )
        self.player, self.phase = order[1], SHOWDOWN

    def _declare(self, p: int, action_id: int) -> None:
        """A defender's meld, lay-off or ``done`` in a manual showdown."""
        sd = self.showdown
        assert sd is not None
        action = Action(action_id)
        if action.meld is not None:
            self.showdown = replace(
                sd,
                used=_put(sd.used, p, sd.used[p] | action.meld),
                melds=_put(sd.melds, p, sd.melds[p] + (action.meld,)),
            )
        elif action.slot is not None and action.card is not None:
            bit = 1 << action.card
            self.showdown = replace(
                sd,
                used=_put(sd.used, p, sd.used[p] | bit),
                table=_put(sd.table, action.slot, sd.table[action.slot] | bit),
                layoffs=_put(sd.layoffs, p, sd.layoffs[p] + ((action.slot, action.card),)),
            )
        else:  # done
            nxt = (p + 1) % self.n
            if nxt == sd.knocker:
                self._end_declared(sd)
                return
            base = sd.table if self.rules.layoff_onto_prior_layoffs else tuple(m.mask for m in sd.shown.melds)
            self.showdown = replace(sd, table=base)
            self.player = nxt

    def _end_declared(self, sd: Showdown) -> None:
        aces = self.rules.aces
        order = [(sd.knocker + i) % self.n for i in range(self.n)]
        deadwood: list[int] = [sd.shown.deadwood]
        melds: list[tuple[Meld, ...]] = [sd.shown.melds]
        layoffs: list[tuple[Layoff, ...]] = [()]
        for seat in order[1:]:
            deadwood.append(_core.mask_value(self._core_rules, self.hands[seat] & ~sd.used[seat]))
            melds.append(tuple(as_meld(m, aces=aces) for m in sd.melds[seat]))
            by_slot: dict[int, list[Card]] = {}
            for slot, card in sd.layoffs[seat]:
                by_slot.setdefault(slot, []).append(Card(card))
            layoffs.append(
                tuple(Layoff(sd.shown.melds[slot], tuple(sorted(cards))) for slot, cards in sorted(by_slot.items()))
            )
        replies = Replies(tuple(deadwood), tuple(melds), tuple(layoffs))
        result = declared_result(
            self.rules, sd.shown, replies, limit=self.limit, multiplier=self.multiplier, big_gin=sd.big_gin
        )
        self.result = result.reorder(order, self.n)
        self.phase = END

    def _end_dead(self) -> None:
        self.result = dead_hand(self.n, self.multiplier, self.limit)
        self.phase = END

    def knock(self, card: int | str, melds: object = None) -> None:
        """Knock discarding ``card`` and showing explicit ``melds`` (a list of
        melds, or an Arrangement); ``melds=None`` is the automatic choice.
        Checked like :meth:`play`."""
        c = Card(card)
        action_id = self.verify_action(Action(KNOCK + c))
        if melds is None:
            self.apply_action(action_id)
            return
        self._stack.append(_snapshot(self))
        try:
            self.knock_card = c
            self._end_with_knock(self.player, self.hands[self.player] & ~c.mask, knocker_melds=melds)
        except Exception:
            for name, value in zip(_FIELDS, self._stack.pop()):
                setattr(self, name, value)
            raise
        shown = self.showdown.shown if self.showdown is not None else self.result.knocker_melds if self.result else None
        assert shown is not None
        self.shown_melds = tuple(m.mask for m in shown.melds)
        self.history.append(action_id)
        self._legal = None


# --- the greedy policy (rummykit.agents.GreedyAgent; C: csrc/src/policy.c) --------------------

_OFFER = (Phase.OFFER_NONDEALER, Phase.OFFER_DEALER)


def _knock_greedy(state: Any, max_knock_deadwood: int | None) -> int:
    """The greedy policy of the knock games (see :class:`GreedyAgent`)."""
    phase, p = state.phase, state.player
    hand = state.hands[p]
    rules = core_rules(state.rules.aces)
    if phase == Phase.DRAW or phase in _OFFER:
        if state.discards:
            top = state.discards[-1]
            _, take = _core.best_discard(rules, hand | 1 << top, top)
            if take < _core.deadwood(rules, hand):
                return TAKE
        return DRAW_STOCK if phase == Phase.DRAW else PASS
    if phase == Phase.FORCED_STOCK_DRAW:
        return DRAW_STOCK
    if phase == Phase.LAST_CHANCE:
        return TAKE if TAKE in state.legal_actions() else PASS
    if phase == Phase.DISCARD or phase == Phase.KNOCK_ONLY:
        legal = state.legal_actions()
        if legal[-1] == BIG_GIN:
            return BIG_GIN
        forbid = state.taken if state.rules.forbid_discarding_taken_card else -1
        # rk_best_discard: least deadwood, ties to the highest card value, then the highest id.
        # A knock is legal exactly when that deadwood is within the limit, so the best knock card
        # and the best discard card are the same card.
        card, after = _core.best_discard(rules, hand, forbid)
        if KNOCK + card in legal and (
            phase == Phase.KNOCK_ONLY or max_knock_deadwood is None or after <= max_knock_deadwood
        ):
            return KNOCK + card
        return card
    if phase == Phase.SHOWDOWN:
        return _knock_declaration(state, rules)
    raise InvalidOptionError(f"no action at the end of the hand ({state!r})")


def meld_take(rules: _core.Rules, hand: int, card: int, knock_max: int) -> bool:
    """The meld taker's rule (policy.h, meld_takes) restated: after taking ``card`` and
    throwing the best other card (least deadwood, then the highest value, then the highest
    id), take iff the deadwood left allows a knock or no least-deadwood arrangement leaves
    ``card`` as deadwood."""

    def after(c: int) -> tuple[int, int, int]:
        left = (hand | 1 << card) & ~(1 << c)
        return int(_core.deadwood_batch(rules, [left])[0]), -_core.mask_value(rules, 1 << c), -c

    thrown = min((c for c in range(52) if hand >> c & 1 and c != card), key=after)
    least = after(thrown)[0]
    if least <= knock_max:
        return True
    optimal = _core.arrangements(rules, (hand | 1 << card) & ~(1 << thrown), -1, 1 << 20)
    assert optimal
    return all(not deadwood >> card & 1 for _, deadwood, _ in optimal)


def _knock_declaration(state: Any, rules: _core.Rules) -> int:
    """Manual showdown: the least-deadwood melds one at a time, then lay-offs, then ``done``."""
    sd = state.showdown
    assert sd is not None
    p = state.player
    melds, _, _ = _core.best_arrangement(rules, state.hands[p] & ~sd.used[p])
    if melds:
        return MELD + MELD_INDEX[melds[0]]
    layoffs = [a for a in state.legal_actions() if LAYOFF <= a < DONE]
    if not layoffs:
        return DONE

    def order(action: int) -> tuple[int, int, int]:  # the highest-valued card, the highest id, the first meld
        card = (action - LAYOFF) // LAYOFF_SLOTS
        return -rules.values[card % 13], -card, action

    return min(layoffs, key=order)


_AT = {name: start for name, start, _ in OBSERVATION_LAYOUT}


def _knocker(state: Any) -> int:
    """The seat that knocked (or went big gin), -1 if none has."""
    if state.showdown is not None:
        return int(state.showdown.knocker)
    if state.result is not None and state.result.knocker is not None:
        return int(state.result.knocker)
    return -1


def _seen(state: Any, player: int, seat: int) -> int:
    """The cards of ``seat``'s hand that ``player`` can see (the module docstring of rummykit.knock.observe)."""
    hand = int(state.hands[seat])
    if seat == player or state.phase == END:
        return hand
    if state.phase == SHOWDOWN and state.showdown is not None:
        if seat == state.showdown.knocker:
            return hand
        return (int(state.known[seat]) & hand) | int(state.showdown.used[seat])
    return int(state.known[seat]) & hand


def _knock_card_seen(state: Any, player: int) -> bool:
    """Whether ``player`` can name the face-down knock card: the knocker, everyone at the end,
    the others when they saw the knocker take it."""
    card = state.knock_card
    if card < 0:
        return False
    knocker = _knocker(state)
    return state.phase == END or player == knocker or bool(state.known[knocker] >> card & 1)


# --- the observation tensor (rummykit.knock.observe; C: KnockCore._observation_tensor) -------------

NUM_CARDS = 52


def _plane(out: Any, start: int, mask: int) -> None:
    while mask:
        low = mask & -mask
        out[start + low.bit_length() - 1] = 1.0
        mask ^= low


def _shown_arrangement(state: Any) -> Arrangement | None:
    """The knocker's shown arrangement (public from the knock on)."""
    if state.showdown is not None:
        return state.showdown.shown
    return state.result.knocker_melds if state.result is not None else None


def reference_observation_tensor(state: Any, player: int) -> Any:
    """``player``'s observation as a float32 vector of
    :data:`OBSERVATION_TENSOR_SIZE` entries (layout in the module docstring)."""
    n = state.n
    out = np.zeros(OBSERVATION_TENSOR_SIZE, dtype=np.float32)
    if state.phase != END:
        out[_AT["current_player"] + (state.player - player) % n] = 1.0
    out[_AT["dealer"] + (state.dealer - player) % n] = 1.0
    out[_AT["num_players"] + n - 2] = 1.0
    out[_AT["phase"] + int(state.phase)] = 1.0
    _plane(out, _AT["hand"], state.hands[player])
    if state.discards:
        _plane(out, _AT["top_discard"], 1 << state.discards[-1])
        rest = 0
        for c in state.discards[:-1]:
            rest |= 1 << c
        _plane(out, _AT["discard_rest"], rest)
    _plane(out, _AT["known_self"], state.known[player] & state.hands[player])
    for r in range(1, n):
        q = (player + r) % n
        _plane(out, _AT["known_others"] + (r - 1) * NUM_CARDS, state.known[q] & state.hands[q])
        _plane(out, _AT["seen_others"] + (r - 1) * NUM_CARDS, _seen(state, player, q))
    for r in range(n):
        out[_AT["hand_sizes"] + r] = state.hands[(player + r) % n].bit_count() / 11.0
    out[_AT["stock_size"]] = len(state.stock) / 52.0
    _plane(out, _AT["upcard"], state.upcard.mask)
    out[_AT["knock_limit"]] = state.limit / 10.0
    out[_AT["gin_only"]] = float(state.gin_only)
    out[_AT["multiplier"]] = state.multiplier / 3.0
    if state.taken >= 0:
        _plane(out, _AT["taken"], 1 << state.taken)
    if state.set_aside >= 0:
        _plane(out, _AT["set_aside"], 1 << state.set_aside)
    out[_AT["restocks"]] = min(state.restocks, 10) / 10.0
    knocker = _knocker(state)
    if knocker >= 0:
        out[_AT["knocker"] + (knocker - player) % n] = 1.0
    if _knock_card_seen(state, player):
        _plane(out, _AT["knock_card"], 1 << state.knock_card)
    showdown = state.showdown
    if showdown is not None:
        _plane(out, _AT["declared_self"], showdown.used[player])
        table = 0
        for meld in showdown.table:
            table |= meld
        _plane(out, _AT["table"], table)
    shown = _shown_arrangement(state)
    if shown is not None:
        _plane(out, _AT["shown_melds"], sum(m.mask for m in shown.melds))
    recent = _recent_moves(state)
    for kind, name in enumerate(("recent_discards", "recent_takes", "recent_passes")):
        for r in range(n):
            start = _AT[name] + r * NUM_CARDS
            for j, card in reversed(list(enumerate(recent[(player + r) % n][kind][:8]))):
                out[start + card] = (8 - j) / 8  # the newest of a card's moves writes last
    _deadwood_planes(state, player, out)
    return out


def _deadwood_planes(state: Any, player: int, out: Any) -> None:
    """The deadwood planes of ``player``'s hand (the deadwood kernels are checked against the plain
    oracle in tests/core; tests/knock/test_observation.py checks these planes against it too)."""
    rules, hand = core_rules(state.rules.aces), int(state.hands[player])
    if not hand:
        return
    least = _core.deadwood(rules, hand)
    out[_AT["deadwood"]] = least / 100.0
    top = state.discards[-1] if state.discards else -1
    if top >= 0 and not hand >> top & 1:
        out[_AT["take_deadwood"]] = _core.best_discard(rules, hand | 1 << top, top)[1] / 100.0
    for card, left in _core.deadwood_after_discards(rules, hand):
        out[_AT["discard_deadwood"] + card] = left / 100.0
        out[_AT["melded"] + card] = float(left > least - min(card % 13 + 1, 10))
    forbidden = state.taken if state.taken >= 0 and hand >> state.taken & 1 else -1
    if hand != (1 << forbidden if forbidden >= 0 else 0):
        out[_AT["best_discard"] + _core.best_discard(rules, hand, forbidden)[0]] = 1.0


def _recent_moves(state: Any) -> list[list[list[int]]]:
    """A walk of the hand's history from its deal: per seat, its discards, takes and passes
    (the top discard it declined: an offer or the last chance passed, or a stock draw in the
    draw phase with a discard pile), each newest first."""
    walk = state.game.family_record.state(state.game, list(state.deck), state.dealer, state.shuffle_seed)
    moves: list[list[list[int]]] = [[[], [], []] for _ in range(state.n)]
    for action in state.history:
        if KNOCK <= action < DRAW_STOCK or action == BIG_GIN:
            break  # the hand's last draw-and-discard move (the showdown that may follow has none)
        p, phase = walk.player, walk.phase
        top = walk.discards[-1] if walk.discards else None
        if action < KNOCK:
            moves[p][0].insert(0, action)
        elif action == TAKE:
            moves[p][1].insert(0, top)
        elif action == PASS or (action == DRAW_STOCK and phase == DRAW and top is not None):
            moves[p][2].insert(0, top)
        walk.apply_action(action)
    return moves
