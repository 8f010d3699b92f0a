"""A fixed-size tensor of what one seat has seen happen in a hand, for information-state tensors.

The source is the engine's perfect-recall ``information_state_string(player)``: one line per
action, ``seat: action`` (a restock first names how many cards went back), with the seat's own
stock draws naming their card and everything hidden from it left out.  Reading the history from
that text, rather than from the engine's action ids, means the tensor can never show more than
the string does: two states that ``player`` cannot tell apart give the same tensor.

Layout (:attr:`HistoryEncoder.size` floats): two header entries, the number of actions seen
(``min(count, history) / history``) and 1 if older actions were dropped, then ``history``
slots of :data:`SLOT` entries, the most recent action first:

==========  =====  ===========================================================================
entries     count  content
==========  =====  ===========================================================================
seat        6      one-hot seat that acted, relative to the observer (``(seat - player) % n``)
kind        13     one-hot action kind (:data:`KINDS`; ``other`` for text it does not know)
end         2      a lay-off's end: low, high (table games)
slot        1      the table meld a lay-off or release names, / 32 (capped at 1)
restock     2      1 if a restock came first; the cards it moved, / 104
cards       53     the cards the action names (count per card id ``suit * 13 + rank``; a joker
                   in entry 52)
==========  =====  ===========================================================================

With ``history`` slots the tensor keeps the last ``history`` actions: it is perfect recall
(different histories give different tensors) for hands of up to ``history`` actions, and the
observation tensor it follows in OpenSpiel always holds the present (hands, discard pile,
table).  Lines after the hand's end (every hand shown, the result) are not encoded: the
observation tensor shows the end.
"""

from __future__ import annotations

import re

import numpy as np
import numpy.typing as npt

from rummykit.errors import InvalidOptionError

__all__ = ["HISTORY", "KINDS", "SLOT", "HistoryEncoder"]

#: The default number of actions kept.
HISTORY = 64
#: The action kinds, as the engines write them (card names, numbers and ends removed).
KINDS = (
    "pass",
    "draw stock",
    "draw",
    "take",
    "discard",
    "knock",
    "big gin",
    "meld",
    "lay off on",
    "release from",
    "done",
    "shown",
    "other",
)
_SEATS = 6  # the most players of any game (Rummy)
_CARDS = 53
#: Floats per action slot.
SLOT = _SEATS + len(KINDS) + 2 + 1 + 2 + _CARDS

_KIND = {kind: i for i, kind in enumerate(KINDS)}
_RANKS = "A23456789TJQK"
_SUITS = "CDHS"
_LINE = re.compile(r"(?:restock (\d+)(?: turned over)?; )?(\d+): (.*)$")
_CARD = re.compile(r"\[?(Jk|[A2-9TJQK][CDHS])(?:=[A2-9TJQK][CDHS])?\]?,?$")
_NUMBER = re.compile(r"\d+$")
_KIND_AT, _END_AT = _SEATS, _SEATS + len(KINDS)
_SLOT_AT = _END_AT + 2
_RESTOCK_AT = _SLOT_AT + 1
_CARDS_AT = _RESTOCK_AT + 2


def _card_index(text: str) -> int:
    return 52 if text == "Jk" else _SUITS.index(text[1]) * 13 + _RANKS.index(text[0])


class HistoryEncoder:
    """Encodes one seat's information-state string into ``size`` floats (module docstring)."""

    def __init__(self, num_players: int, history: int = HISTORY) -> None:
        if isinstance(history, bool) or not isinstance(history, int) or history < 1:
            raise InvalidOptionError(f"history must be an int >= 1 (actions kept), got {history!r}")
        if not 2 <= num_players <= _SEATS:
            raise InvalidOptionError(f"num_players must be 2..{_SEATS}, got {num_players!r}")
        self.num_players, self.history = num_players, history
        self.size = 2 + history * SLOT

    def lines(self, info_state: str) -> list[tuple[str, str | None]]:
        """The action lines of ``info_state`` (after the two header lines, before the end):
        ``(line, None)`` for actions, ``(line, "shown")`` for a knocker's shown hand."""
        out: list[tuple[str, str | None]] = []
        for line in info_state.splitlines()[2:]:
            if line.startswith(("hands ", "result ")):
                break
            out.append((line, "shown" if line.startswith("shown ") else None))
        return out

    def encode(
        self, info_state: str, player: int, out: npt.NDArray[np.float32] | None = None
    ) -> npt.NDArray[np.float32]:
        """The tensor of ``info_state`` (the engine's ``information_state_string(player)``),
        written into ``out`` (``size`` floats, zeroed first) when given."""
        if out is None:
            out = np.zeros(self.size, np.float32)
        else:
            out.fill(0.0)
        lines = self.lines(info_state)
        kept = lines[-self.history :]
        out[0] = len(kept) / self.history
        out[1] = 1.0 if len(lines) > len(kept) else 0.0
        for k, (line, special) in enumerate(reversed(kept)):
            self._encode_line(line, special, player, out[2 + k * SLOT : 2 + (k + 1) * SLOT])
        return out

    def _encode_line(self, line: str, special: str | None, player: int, slot: npt.NDArray[np.float32]) -> None:
        if special is not None:
            words = line.split()[1:]
            slot[_KIND_AT + _KIND[special]] = 1.0
        else:
            match = _LINE.match(line)
            if match is None:
                slot[_KIND_AT + _KIND["other"]] = 1.0
                return
            restocked, seat, text = match.groups()
            if restocked is not None:
                slot[_RESTOCK_AT] = 1.0
                slot[_RESTOCK_AT + 1] = int(restocked) / 104
            slot[(int(seat) - player) % self.num_players] = 1.0
            words = text.split()
            kind: list[str] = []
            number = False
            for word in words:
                if _CARD.match(word):
                    continue
                if _NUMBER.match(word):
                    if not number:  # the table meld a lay-off or release names
                        slot[_SLOT_AT] = min(int(word) / 32, 1.0)
                        number = True
                elif word in ("low", "high"):
                    slot[_END_AT + (word == "high")] = 1.0
                else:
                    kind.append(word)
            slot[_KIND_AT + _KIND.get(" ".join(kind), _KIND["other"])] = 1.0
        for word in words:
            card = _CARD.match(word)
            if card is not None:
                slot[_CARDS_AT + _card_index(card.group(1))] += 1.0
