"""The checked verbs for people, one implementation for every family:
``verify_action``, ``can_act``, ``why_illegal`` and ``play``.

The family's C engine decides why an action is refused (a reason code from
``rk_knock_why`` / ``rk_table_why``, read through the state's ``_why``); the
family's message table (``rummykit.knock.reasons``, ``rummykit.table.reasons``)
words the code, through the state's ``_why_text``.  No rule is checked here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rummykit.errors import IllegalActionError, check_seat

__all__ = ["CheckedVerbs"]


class CheckedVerbs:
    """Mixin of the checked verbs over a family state's ``legal_actions``,
    ``apply_action``, ``parse_action`` and the hooks below."""

    __slots__ = ()

    if TYPE_CHECKING:  # what the verbs read

        @property
        def n(self) -> int: ...
        def legal_actions(self) -> list[int]: ...
        def apply_action(self, action_id: int) -> None: ...
        def parse_action(self, text: str) -> int: ...
        def _id_of(self, action: Any) -> int:
            """The id of a typed action or an id (IllegalActionError for anything else)."""

        def _why(self, action_id: int, seat: int = -1) -> tuple[str, Any]:
            """The C engine's reason (a name, ``"legal"`` for a legal action) and its detail."""

        def _why_text(self, reason: str, action_id: int, detail: Any, seat: int) -> str:
            """The family's message for a reason."""

    def verify_action(self, action: Any) -> int:
        """The action id (text, a typed action or an id) if it is legal now; else
        :class:`IllegalActionError` naming the rule that forbids it."""
        action_id = self._as_id(action)
        if action_id in self.legal_actions():
            return action_id
        raise IllegalActionError(self._refusal(action_id, -1) or f"{action!r}: not legal now")

    def can_act(self, action: Any) -> bool:
        """Whether ``action`` is legal now (False for text that is not an action)."""
        try:
            self.verify_action(action)
        except IllegalActionError:
            return False
        return True

    def why_illegal(self, action: Any, *, player: int | None = None) -> str | None:
        """None if ``action`` is legal now (for ``player``, when given), else the
        message naming the rule that forbids it.  Text that is not an action
        raises :class:`IllegalActionError`."""
        seat = -1 if player is None else check_seat(player, self.n)
        return self._refusal(self._as_id(action), seat)

    def play(self, action: Any, *, player: int | None = None) -> None:
        """Apply a checked action given as text, a typed action or an id.  With
        ``player``, also check that it is that seat's turn."""
        if player is None:
            self.apply_action(self.verify_action(action))
            return
        seat = check_seat(player, self.n)
        action_id = self._as_id(action)
        message = self._refusal(action_id, seat)
        if message is not None:
            raise IllegalActionError(message)
        self.apply_action(action_id)

    def _as_id(self, action: Any) -> int:
        if isinstance(action, str):
            return self.parse_action(action)
        return self._id_of(action)

    def _refusal(self, action_id: int, seat: int) -> str | None:
        reason, detail = self._why(action_id, seat)
        return None if reason == "legal" else self._why_text(reason, action_id, detail, seat)
