"""The simple agents: :class:`RandomAgent` (a uniformly random legal action) and
:class:`GreedyAgent` (a fixed one-ply policy; the C playout kernel plays exactly the
same policy in the knock games)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rummykit._random import as_generator
from rummykit.agents.base import _check_int, register
from rummykit.table.actions import DRAW as TABLE_DRAW
from rummykit.table.actions import LAYOFF as TABLE_LAYOFF
from rummykit.table.actions import MELD_SET as TABLE_MELD
from rummykit.table.actions import RELEASE_RUN as TABLE_RELEASE
from rummykit.table.actions import TAKE as TABLE_TAKE
from rummykit.table.actions import TableAction
from rummykit.table.cards import JOKER as TABLE_JOKER
from rummykit.table.cards import card_type, present_types, type_counts

if TYPE_CHECKING:
    import numpy as np

__all__ = ["GreedyAgent", "RandomAgent"]


# --- random -------------------------------------------------------------------


class RandomAgent:
    """A uniformly random legal action, from its own seeded generator.

    >>> state = __import__("rummykit").Game("gin").new_hand(seed=1)
    >>> RandomAgent(seed=7)(state) == RandomAgent(seed=7)(state)
    True
    """

    def __init__(self, seed: int | np.random.Generator | None = None) -> None:
        self._rng = as_generator(seed)

    def spawn(self, seed: int | np.random.Generator | None) -> RandomAgent:
        """A new RandomAgent seeded with ``seed``."""
        return RandomAgent(seed)

    def __call__(self, state: Any) -> int:
        legal = state.legal_actions()
        return int(legal[int(self._rng.integers(len(legal)))])

    def __repr__(self) -> str:
        return "RandomAgent()"


# --- greedy -------------------------------------------------------------------


def _type_count(mask: int, t: int) -> int:
    """Copies of card type ``t`` (a natural card, or 52: a joker) in a table-game hand."""
    return type_counts(mask)[t]


def _useful_types(mask: int, is_kaluki: bool) -> int:
    """The natural types in a table-game hand that are part of a pair towards a meld: another
    card of the same rank (of another suit in Kaluki), or of the same suit within two ranks."""
    present = present_types(mask)
    counts = type_counts(mask)
    useful = 0
    for t in range(52):
        if not present >> t & 1:
            continue
        rank, suit = t % 13, t // 13
        same_rank = sum(present >> (s * 13 + rank) & 1 for s in range(4) if s != suit)
        if not is_kaluki and counts[t] > 1:
            same_rank += 1
        near = any(present >> (suit * 13 + r) & 1 for r in range(max(0, rank - 2), min(13, rank + 3)) if r != rank)
        if (
            same_rank
            or near
            or (rank == 0 and present >> (suit * 13 + 12) & 1)
            or (rank == 12 and present >> (suit * 13) & 1)
        ):  # Q-K-A runs: an ace and a king or queen of its suit
            useful |= 1 << t
    return useful


def _after(state: Any, action: int) -> Any:
    child = state.clone()
    child.apply_action(action)
    return child


def _table_greedy(state: Any) -> int:
    """The greedy policy of the table games (Rummy, Kaluki; see :class:`GreedyAgent`)."""
    legal: list[int] = state.legal_actions()
    p = state.player
    hand = state.hands[p]
    if state.phase_name == "draw":
        if TABLE_TAKE not in legal:
            return TABLE_DRAW
        if state.rules.is_kaluki and not state.is_opened(p):
            return TABLE_TAKE  # offered to an unopened player only when it can open with it
        t = card_type(state.discards[-1])
        taken = _after(state, TABLE_TAKE)
        held = _type_count(taken.hands[p], t)
        for action in taken.legal_actions():  # does a meld or a lay-off use the card?
            if action >= TABLE_MELD or TABLE_LAYOFF <= action < TABLE_RELEASE:
                if _type_count(_after(taken, action).hands[p], t) < held:
                    return TABLE_TAKE
        return TABLE_DRAW
    size = hand.bit_count()
    melds = [a for a in legal if a >= TABLE_MELD]
    if melds:  # the meld that puts down the most cards, then the lowest id
        return min(melds, key=lambda a: (_after(state, a).hands[p].bit_count() - size, a))
    values = state.geo.values
    layoffs = [a for a in legal if TABLE_LAYOFF <= a < TABLE_RELEASE and TableAction(a).card != TABLE_JOKER]
    if layoffs:  # the highest-penalty card, then the highest type, then the lowest id
        return min(layoffs, key=lambda a: (-values[TableAction(a).card or 0], -(TableAction(a).card or 0), a))
    discards = [a for a in legal if a <= TABLE_JOKER]
    if not discards:  # only joker placements or joker lay-offs remain
        return legal[0]
    useful = _useful_types(hand, state.rules.is_kaluki)

    def order(t: int) -> tuple[bool, int, int]:  # useless first, then the highest penalty and type
        return t == TABLE_JOKER or bool(useful >> t & 1), -values[t], -t

    return min(discards, key=order)


class GreedyAgent:
    """A fixed one-ply policy (deterministic; ``seed`` is accepted for a uniform interface).

    Knock games (Gin, Oklahoma Gin, Oklahoma Rummy); ``H`` is the hand of the seat to move and
    "least deadwood" the C core's best arrangement:

    1. **Upcard offer and draw.**  With ``t`` the top discard, ``d_keep`` = least deadwood of
       ``H`` and ``d_take`` = min over cards ``c`` of ``H`` of the least deadwood of
       ``H + t - c``: take iff ``d_take < d_keep``, otherwise pass (offer) or draw from the
       stock.  A forced stock draw draws.
    2. **Last chance** (``dead_at_2_last_chance``): take iff taking is legal, else pass.
    3. **Discard** (and knock-only): play ``big gin`` if it is legal.  Otherwise, for each
       legal card ``c`` let ``dw(c)`` = least deadwood of ``H - c``; the chosen card is the
       argmin of ``dw`` over the legal cards, ties broken by the highest card value (deadwood
       points), then the highest card id.  Knock with it if knocking with it is legal and
       ``dw <= max_knock_deadwood`` (``None``: any legal knock, i.e. knock as soon as allowed;
       ``0``: gin only); else discard it.  In the knock-only phase it must knock.
    4. **Manual showdown** (``auto_showdown=False``): declare the melds of the least-deadwood
       arrangement of the undeclared cards one at a time, then lay off one card at a time (the
       highest-valued legal lay-off, then the highest card id, then the first meld) while any
       is legal, then ``done``.

    Table games (Rummy, Kaluki; ``max_knock_deadwood`` is not used):

    1. **Draw.**  Kaluki, not yet opened: take the discard whenever taking is legal (the engine
       offers it only when the card can open).  Otherwise take it iff, after taking it, some
       legal meld or lay-off puts a copy of it on the table; else draw from the stock.
    2. **Play.**  Lay down the legal meld that puts down the most cards (then the lowest action
       id), one at a time while any is legal; then lay off (build) the highest-penalty natural
       card that fits (then the highest type, then the lowest id), one at a time.  Jokers are
       never laid off on their own and jokers are never released.
    3. **Discard** the highest-penalty card that is not useful (useful: a joker, or a card with
       another of its rank, or of its suit within two ranks, A-K counting as adjacent); if
       every card is useful, the highest-penalty one; ties to the highest type.

    >>> import rummykit as rk
    >>> state = rk.Game("gin").new_hand(seed=1)
    >>> GreedyAgent()(state) in state.legal_actions()
    True
    """

    def __init__(self, max_knock_deadwood: int | None = None, seed: object = None) -> None:
        if max_knock_deadwood is not None:
            max_knock_deadwood = _check_int("max_knock_deadwood", max_knock_deadwood, 0)
        self.max_knock_deadwood = max_knock_deadwood

    def spawn(self, seed: object) -> GreedyAgent:
        """The same policy (it uses no randomness)."""
        return self

    def __call__(self, state: Any) -> int:
        if state.game.family == "knock":  # the C policy (csrc/src/policy.c, RK_POLICY_GREEDY)
            return int(state._greedy_action(-1 if self.max_knock_deadwood is None else self.max_knock_deadwood))
        return _table_greedy(state)

    def __repr__(self) -> str:
        return "GreedyAgent()" if self.max_knock_deadwood is None else f"GreedyAgent({self.max_knock_deadwood})"


register("random", RandomAgent)
register("greedy", GreedyAgent)
