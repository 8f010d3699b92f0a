"""The verbs every hand of every game has: :class:`GameState`.

A hand of a knock game (Gin, Oklahoma Gin, Oklahoma Rummy: ``KnockState``)
and of a table game (Rummy, Kaluki: ``TableState``) both satisfy this
protocol, so code written against it (agents, the hand loop, matches,
tournaments, the framework adapters) runs every game.  No game family is
imported here.

Cards: ``hand(seat)`` and ``top_discard`` are :class:`~rummykit.cards.Card`
values in every game.  In Kaluki (two decks and jokers) a card value is its
type: the two copies of ``7H`` are the same ``Card('7H')``, and a joker is
``rummykit.table.cards.JOKER_CARD``, a ``Card`` subclass that is the int 52
with text ``Jk`` and no rank or suit.

Actions are ints; ``action_text(id)`` names one in this state and
``parse_action(text)`` reads it back (for every legal action).  ``play``
takes text, an action object or an id and checks it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from rummykit.cards import Card

__all__ = ["GameState", "tensor_layout"]


@runtime_checkable
class GameState(Protocol):
    """One hand of any game (``rummykit.Game(name).new_hand()``).

    ``isinstance(state, GameState)`` checks that the verbs are there (not
    their signatures).  Seats are ``0..n-1``; ``current_player`` is -4
    (OpenSpiel's terminal id) once the hand is over.
    """

    n: int  # the number of seats
    dealer: int

    @property
    def history(self) -> list[int]: ...  # the action ids played, in order (read-only: ReadOnlyError)

    stock: tuple[int, ...]  # card ids (Kaluki: physical ids), the top last
    discards: tuple[int, ...]  # likewise

    @property
    def game(self) -> Any: ...  # the KnockGame or TableGame that dealt the hand

    @property
    def rules(self) -> Any: ...  # the game's rules record

    @property
    def result(self) -> Any: ...  # None while the hand is on; then .outcome, .winner, .points

    @property
    def phase_name(self) -> str: ...

    @property
    def current_player(self) -> int: ...

    @property
    def seats(self) -> tuple[int, ...]: ...  # the seats in the hand (a match's eliminated players sit out)

    @property
    def top_discard(self) -> Card | None: ...

    def legal_actions(self) -> list[int]: ...

    def apply_action(self, action_id: int) -> None: ...

    def play(self, action: Any, *, player: int | None = None) -> None: ...

    def undo(self) -> None: ...

    def clone(self) -> GameState: ...

    def is_terminal(self) -> bool: ...

    def returns(self) -> list[int]: ...

    def hand(self, seat: int) -> list[Card]: ...

    def hand_text(self, seat: int) -> str: ...  # the hand as card text, sorted

    def table_text(self) -> list[str]: ...  # the table melds as text (none in the knock games)

    def action_text(self, action_id: int) -> str: ...

    def parse_action(self, text: str) -> int: ...

    def observation(self, player: int) -> Any: ...

    def observation_tensor(self, player: int) -> npt.NDArray[np.float32]: ...

    def information_state_string(self, player: int) -> str: ...

    def determinize(self, player: int, rng: Any = None) -> GameState: ...

    def view(self, seat: int | None = None, since: int | None = None) -> dict[str, Any]: ...

    def to_json(self) -> str: ...


def tensor_layout(names: Sequence[str], starts: Sequence[int]) -> list[tuple[str, int, int]]:
    """The slices of an observation tensor as (name, start, stop), in order:
    ``starts`` are the C encoder's slice starts followed by the tensor's size."""
    return [(name, start, stop) for name, start, stop in zip(names, starts[:-1], starts[1:], strict=True)]
