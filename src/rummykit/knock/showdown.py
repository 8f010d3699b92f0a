"""The end of a knock-game hand as data: :class:`HandResult`, built from
the C engine's score of a knock (csrc/src/knock_score.c: the knocker's
arrangement, docs/rules.md D26, the defenders' lay-offs, the outcome, the
points and boxes; docs/rules.md, Deadwood and lay-offs, Gin Rummy,
Oklahoma Gin, Oklahoma Rummy) and from a manual showdown's declarations.

Lists in knock order have the knocker at index 0, then the defenders in
turn order after the knocker.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rummykit import _core
from rummykit.analysis import Arrangement, Layoff, Meld, as_meld
from rummykit.cards import Card, from_mask
from rummykit.errors import IllegalActionError, InvalidMeldError, clip
from rummykit.knock.actions import DONE, LAYOFF, MELD, Action

if TYPE_CHECKING:
    from rummykit.knock.rules import KnockRules
    from rummykit.knock.state import KnockState

__all__ = ["OUTCOMES", "HandResult", "declarations", "explicit_melds", "knock_rejected", "knock_result", "score_knock"]

#: outcome names by the C engine's code (rk_playout_result.outcome)
OUTCOMES: tuple[str, ...] = _core.KNOCK_OUTCOMES


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

    @property
    def returns(self) -> tuple[int, ...]:
        """Each seat's return for the hand (``state.returns()``): its points, as in every game."""
        return self.points

    @property
    def penalties(self) -> tuple[int, ...]:
        """What each seat is charged (the knock games score points: ``charges``), the name the
        table games' results use."""
        return self.charges

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


def _arrangement(raw: tuple[tuple[int, ...], int, int], aces: str) -> Arrangement:
    melds, rest, deadwood = raw
    return Arrangement(tuple(as_meld(m, aces=aces) for m in melds), tuple(from_mask(rest)), deadwood)


def _replies(raw_players: Any, aces: str) -> tuple[tuple[tuple[Meld, ...], ...], tuple[tuple[Layoff, ...], ...]]:
    """Each player's own melds and lay-offs from rk_explain_knock, knock order."""
    melds: list[tuple[Meld, ...]] = []
    layoffs: list[tuple[Layoff, ...]] = []
    for table, laid, own, _ in raw_players:
        melds.append(_arrangement(own, aces).melds)
        layoffs.append(tuple(Layoff(as_meld(m, aces=aces), tuple(from_mask(c))) for m, c in zip(table, laid) if c))
    layoffs[0] = ()
    return tuple(melds), tuple(layoffs)


def declarations(
    history: Sequence[int], knocker: int, n: int
) -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[tuple[int, int], ...], ...]]:
    """The defenders' declarations in a manual showdown, read off the actions
    after the knock: per seat, the melds declared and the (slot, card) lay-offs."""
    melds: list[list[int]] = [[] for _ in range(n)]
    layoffs: list[list[tuple[int, int]]] = [[] for _ in range(n)]
    start = len(history)
    while start > 0 and history[start - 1] >= MELD:
        start -= 1
    seat = (knocker + 1) % n
    for action_id in history[start:]:
        action = Action(action_id)
        if action_id == DONE:
            seat = (seat + 1) % n
        elif action_id < LAYOFF:
            melds[seat].append(action.meld or 0)
        else:
            layoffs[seat].append((action.slot or 0, int(action.card or 0)))
    return tuple(tuple(m) for m in melds), tuple(tuple(lo) for lo in layoffs)


def _from_score(raw: tuple[Any, ...], *showdown: Any) -> HandResult:
    """A HandResult from the engine's score tuple ``raw`` and, after a knock, the ``showdown``
    (the knocker's arrangement, every seat's melds and lay-offs)."""
    outcome, knocker, winner, points, credits, charges, boxes, deadwood, multiplier, limit = raw
    if outcome == 0:
        return HandResult("dead", None, None, deadwood, points, credits, charges, boxes, multiplier, limit)
    figures = (deadwood, points, credits, charges, boxes, multiplier, limit)
    return HandResult(OUTCOMES[outcome], winner, knocker, *figures, *showdown)


def knock_result(state: KnockState, raw: tuple[Any, ...]) -> HandResult:
    """The result of a finished hand from the engine's score (seats)."""
    outcome, knocker = raw[0], raw[1]
    if outcome == 0:
        return _from_score(raw)
    n, aces = state.n, state.rules.aces
    order = [(knocker + i) % n for i in range(n)]
    if state.rules.auto_showdown:
        hands = [state.hands[s] for s in order]
        _, big_gin, given, shown, _ = state._knock
        raw_shown, players = _core.explain_knock(
            state.game.core_rules, state.rules, hands, int(state.upcard), big_gin, shown if given else None
        )
        knocker_melds = _arrangement(raw_shown, aces)
        melds_k, layoffs_k = _replies(players, aces)
        melds = tuple(melds_k[order.index(s)] for s in range(n))
        layoffs = tuple(layoffs_k[order.index(s)] for s in range(n))
    else:
        knocker_melds = state._shown()
        declared, laid = declarations(state.history, knocker, n)
        melds = tuple(
            knocker_melds.melds if s == knocker else tuple(as_meld(m, aces=aces) for m in declared[s]) for s in range(n)
        )
        layoffs = tuple(_layoffs_by_slot(knocker_melds.melds, laid[s]) for s in range(n))
    return _from_score(raw, knocker_melds, melds, layoffs)


def _layoffs_by_slot(shown: tuple[Meld, ...], layoffs: tuple[tuple[int, int], ...]) -> tuple[Layoff, ...]:
    by_slot: dict[int, list[Card]] = {}
    for slot, card in layoffs:
        by_slot.setdefault(slot, []).append(Card(card))
    return tuple(Layoff(shown[slot], tuple(sorted(cards))) for slot, cards in sorted(by_slot.items()))


def explicit_melds(rules: KnockRules, melds: object) -> tuple[Meld, ...]:
    """The knocker's own melds (a list of melds, or an Arrangement) as Melds,
    checked to be melds and not to overlap (InvalidMeldError)."""
    if isinstance(melds, Arrangement):
        melds = melds.melds
    try:  # a 0-d numpy array has __iter__ but iterating it raises TypeError
        if isinstance(melds, (str, bytes, int)):
            raise TypeError
        items = list(melds)  # type: ignore[call-overload]
    except TypeError:
        raise InvalidMeldError(f"knocker melds must be a list of melds, got {clip(melds)}") from None
    shown = tuple(as_meld(m, aces=rules.aces) for m in items)
    used = 0
    for m in shown:
        if m.mask & used:
            raise InvalidMeldError(f"melds overlap: '{m}'")
        used |= m.mask
    return shown


def knock_rejected(
    rules: KnockRules, final: int, shown: tuple[Meld, ...] | None, limits: tuple[int, bool, int, int], error: Exception
) -> Exception:
    """The error for a knock the engine refused with ``error`` (NoKnockError, or
    InvalidMeldError for melds it cannot show): which rule it breaks."""
    for m in shown or ():
        if m.mask & ~final:
            return InvalidMeldError(f"meld '{m}' uses cards the knocker does not hold")
    if not isinstance(error, _core.NoKnockError):
        return error
    limit, gin_only, _, knock_max = limits  # the engine's (rk_knock_limits)
    core = _core_rules(rules)
    least = _core.deadwood(core, final)
    if gin_only and least:
        return IllegalActionError(f"illegal knock: gin only (ace upcard), deadwood {least}")
    most = f"(a knock may leave at most {knock_max})"
    if shown is None:
        return IllegalActionError(f"illegal knock: deadwood {least} over the knock limit {limit} {most}")
    left = _core.mask_value(core, final & ~sum(m.mask for m in shown))
    return IllegalActionError(f"illegal knock: the melds shown leave deadwood {left}, over the limit {limit} {most}")


def _core_rules(rules: KnockRules) -> _core.Rules:
    from rummykit._rules import core_rules

    return core_rules(rules.aces)


def score_knock(
    rules: KnockRules, hands: list[int], upcard: Card | None, knocker_melds: object = None, *, big_gin: bool = False
) -> HandResult:
    """Score a knock (``Game.showdown``): ``hands`` in knock order (the
    knocker's final cards first), the knocker's melds given or chosen by the
    engine.  :class:`IllegalActionError` for a knock the rules do not allow."""
    if upcard is None:
        if rules.knock_limit_mode != "fixed":
            raise IllegalActionError("this variant's knock limit comes from the upcard: give upcard=")
        card = 0  # the ace of clubs: no spade multiplier, and a fixed limit ignores it
    else:
        card = int(upcard)
    shown = None if knocker_melds is None else explicit_melds(rules, knocker_melds)
    masks = None if shown is None else [m.mask for m in shown]
    core = _core_rules(rules)
    try:
        raw = _core.score_knock(core, rules, hands, card, big_gin, masks)
        raw_shown, players = _core.explain_knock(core, rules, hands, card, big_gin, masks)
    except (_core.NoKnockError, InvalidMeldError) as e:
        raise knock_rejected(rules, hands[0], shown, _core.knock_limits(rules, card), e) from None
    melds, layoffs = _replies(players, rules.aces)
    return _from_score(raw, _arrangement(raw_shown, rules.aces), melds, layoffs)
