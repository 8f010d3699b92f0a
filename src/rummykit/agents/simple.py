"""The simple agents: :class:`RandomAgent` (a uniformly random legal action) and
:class:`GreedyAgent` (a fixed one-ply policy, played by the C core: the same code as the
C playouts, ``rk_policy_action`` in the knock games and ``rk_table_greedy`` in the table
games)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rummykit._random import as_generator
from rummykit.agents.base import _check_int, register

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
        return "GreedyAgent()" if self.max_knock_deadwood is None else f"GreedyAgent({self.max_knock_deadwood})"


register("random", RandomAgent)
register("greedy", GreedyAgent)
