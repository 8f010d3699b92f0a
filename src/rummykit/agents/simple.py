"""The simple agents: :class:`RandomAgent` (a uniformly random legal action),
:class:`GreedyAgent` (a fixed one-ply policy, played by the C core: the same code as the
C playouts, ``rk_policy_action`` in the knock games and ``rk_table_greedy`` in the table
games) and :class:`CarefulAgent` (a stronger fixed policy for the knock games, also C)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rummykit._random import as_generator
from rummykit.agents.base import _check_int, register

if TYPE_CHECKING:
    import numpy as np

__all__ = ["CarefulAgent", "GreedyAgent", "RandomAgent"]


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

    Table games (Rummy, Kaluki; ``max_knock_deadwood`` is not used; the policy is C,
    ``rk_table_greedy`` in ``csrc/src/table_policy.c``, the one the playouts use):

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
        return int(state.game.family_record.greedy(state, self.max_knock_deadwood))  # the family's C policy

    def __repr__(self) -> str:
        name = type(self).__name__
        return f"{name}()" if self.max_knock_deadwood is None else f"{name}({self.max_knock_deadwood})"


# --- careful ------------------------------------------------------------------


class CarefulAgent(GreedyAgent):
    """Greedy that looks one stock draw ahead and watches the opponent (deterministic; the C
    policy ``RK_POLICY_CAREFUL``, the one ``rummykit.playouts(..., policy="careful")`` plays).

    Knock games; what the seat to move knows: the *unseen* cards (not in its hand, the discard
    pile, the set-aside upcard or the cards it saw another seat take and keep); the *wanted*
    cards (the same rank as, or the same suit within two ranks of, a card another seat holds
    known or took in its last 8 takes) and the *shunned* ones (the rank of a card another
    seat threw in its last 8 discards).  ``cost(d) = d + 5 * [d > the most a knock may leave]`` for a
    deadwood ``d``; ``ahead(K, d)`` is the mean over the unseen cards ``u`` of
    ``cost(min(d, least deadwood of K + u less its best card))``, ``d`` being the least
    deadwood of the 10-card hand ``K`` (in quarter points, rounded down).

    1. **Upcard offer and draw.**  ``d_take`` as greedy's: take iff ``d_take < d_keep`` and
       ``cost(d_take) < ahead(H, d_keep)`` (the upcard beats a stock draw on average), else
       pass or draw.
    2. **Discard.**  Big gin if legal; knock with greedy's card when greedy would (with
       ``max_knock_deadwood`` as greedy's).  Otherwise, among the legal cards ``c`` leaving at
       most 4 more than the least deadwood, the least ``ahead(H - c, dw(c)) - outs(H - c) + 4 *
       ([c wanted] - [c shunned])``, ``outs`` the unseen cards that make a meld with two cards
       of the hand; ties to the highest card value, then the highest card id.
    3. **The rest** (forced draw, last chance, knock-only, manual showdown) as greedy.

    In the table games (Rummy, Kaluki) it plays :class:`GreedyAgent`.  It wins 56% of the
    decided hands of Gin against greedy (``docs/strength.md``).

    >>> import rummykit as rk
    >>> state = rk.Game("gin").new_hand(seed=1)
    >>> CarefulAgent()(state) in state.legal_actions()
    True
    """

    def __call__(self, state: Any) -> int:
        if not state.game.family_record.knocks:
            return super().__call__(state)
        from rummykit import _core

        knock_at = -1 if self.max_knock_deadwood is None else self.max_knock_deadwood
        return int(state._policy_action(_core.POLICY_CAREFUL, knock_at))


register("random", RandomAgent)
register("greedy", GreedyAgent)
register("careful", CarefulAgent)
