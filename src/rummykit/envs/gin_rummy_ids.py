"""rummykit's knock-game action ids and OpenSpiel's ``gin_rummy`` action ids (``docs/openspiel.md``).

OpenSpiel's card ids order the suits spades, clubs, diamonds, hearts (``As`` = 0, ``Ac`` =
13); rummykit's clubs, diamonds, hearts, spades (``AC`` = 0, ``AS`` = 39).  The ranks agree.

>>> openspiel_card("AS"), openspiel_card("AC"), str(rummykit_card(13))
(0, 13, 'AC')
>>> to_openspiel_gin("knock 9C"), to_openspiel_gin("take"), to_openspiel_gin("meld 7H 8H 9H")
((55, 21), (52,), (160,))
>>> from_openspiel_gin(21), from_openspiel_gin(21, after_knock=True), str(Action(from_openspiel_gin(160)))
(8, 60, 'meld 7H 8H 9H')

No pyspiel import: the tables follow OpenSpiel's ``gin_rummy_utils`` layout (the tests check
them against a loaded ``gin_rummy``).
"""

from __future__ import annotations

from rummykit.cards import Card
from rummykit.errors import IllegalActionError
from rummykit.knock.actions import (
    BIG_GIN,
    DONE,
    DRAW_STOCK,
    KNOCK,
    LAYOFF,
    MELD,
    MELD_INDEX,
    PASS,
    TAKE,
    Action,
    parse_action,
)

__all__ = [
    "OS_DRAW_STOCK",
    "OS_DRAW_UPCARD",
    "OS_KNOCK",
    "OS_MELD",
    "OS_MELD_TABLE",
    "OS_NUM_ACTIONS",
    "OS_PASS",
    "from_openspiel_gin",
    "openspiel_card",
    "rummykit_card",
    "to_openspiel_gin",
]

OS_DRAW_UPCARD = 52
OS_DRAW_STOCK = 53
OS_PASS = 54
OS_KNOCK = 55
OS_MELD = 56
OS_NUM_ACTIONS = 241


def openspiel_card(card: int | str) -> int:
    """OpenSpiel's id of a rummykit card."""
    suit, rank = divmod(int(Card(card)), 13)
    return (suit + 1) % 4 * 13 + rank


def rummykit_card(os_card: int) -> Card:
    """The rummykit card of OpenSpiel's card id ``os_card`` (0-51)."""
    if isinstance(os_card, bool) or not isinstance(os_card, int) or not 0 <= os_card < 52:
        raise IllegalActionError(f"not an OpenSpiel card id (0..51): {os_card!r}")
    suit, rank = divmod(os_card, 13)
    return Card((suit + 3) % 4 * 13 + rank)


def _os_melds() -> tuple[int, ...]:
    """OpenSpiel's melds as rummykit masks, in its order: per rank the 3-sets leaving out
    s, c, d, h, then the 4-set; then the runs by length (3, 4, 5), suit (s, c, d, h), low card."""
    melds = []
    for rank in range(13):
        cards = [int(rummykit_card(s * 13 + rank)) for s in range(4)]
        for left_out in cards:
            melds.append(sum(1 << c for c in cards if c != left_out))
        melds.append(sum(1 << c for c in cards))
    for length in (3, 4, 5):
        for os_suit in range(4):
            for low in range(14 - length):
                melds.append(sum(1 << int(rummykit_card(os_suit * 13 + r)) for r in range(low, low + length)))
    return tuple(melds)


#: OpenSpiel's meld actions as rummykit masks: action ``OS_MELD + i`` lays ``OS_MELD_TABLE[i]``
OS_MELD_TABLE: tuple[int, ...] = _os_melds()
_OS_MELD_INDEX = {m: i for i, m in enumerate(OS_MELD_TABLE)}
assert OS_MELD + len(OS_MELD_TABLE) == OS_NUM_ACTIONS


def _run_parts(mask: int) -> list[int]:
    """A run of 6+ cards as OpenSpiel melds (at most 5 cards each, at least 3), low cards first."""
    cards = [c for c in range(52) if mask >> c & 1]
    parts = []
    while len(cards) > 5:
        take = 5 if len(cards) - 5 >= 3 else len(cards) - 3
        parts.append(sum(1 << c for c in cards[:take]))
        cards = cards[take:]
    parts.append(sum(1 << c for c in cards))
    return parts


def to_openspiel_gin(action: int | str | Action) -> tuple[int, ...]:
    """The OpenSpiel ``gin_rummy`` actions that do what rummykit ``action`` does.

    A knock is two OpenSpiel actions (knock, then the discard); OpenSpiel's knocker then
    lays its melds itself, which rummykit does automatically.  A lay-off is the card alone
    (OpenSpiel finds the meld).  A run of more than five cards is several OpenSpiel melds.
    ``big gin`` and ace-high runs have no OpenSpiel counterpart (IllegalActionError).
    """
    if isinstance(action, str):
        a = parse_action(action)
    elif isinstance(action, Action):
        a = action
    else:
        a = Action.from_id(action)
    i = a.id
    if i < KNOCK:
        return (openspiel_card(i),)
    if i < DRAW_STOCK:
        return OS_KNOCK, openspiel_card(i - KNOCK)
    simple = {DRAW_STOCK: OS_DRAW_STOCK, TAKE: OS_DRAW_UPCARD, PASS: OS_PASS, DONE: OS_PASS}
    if i in simple:
        return (simple[i],)
    if i == BIG_GIN:
        raise IllegalActionError("big gin has no OpenSpiel gin_rummy counterpart")
    if i < LAYOFF:
        mask = a.meld
        assert mask is not None
        parts = [mask] if mask in _OS_MELD_INDEX else _run_parts(mask)
        if any(p not in _OS_MELD_INDEX for p in parts):
            raise IllegalActionError(f"{a}: OpenSpiel gin_rummy has no ace-high runs")
        return tuple(OS_MELD + _OS_MELD_INDEX[p] for p in parts)
    assert a.card is not None
    return (openspiel_card(a.card),)


def from_openspiel_gin(os_action: int, *, after_knock: bool = False) -> int:
    """The rummykit action id of OpenSpiel ``gin_rummy`` action ``os_action``.

    A card id is a discard, or with ``after_knock`` (the card right after OpenSpiel's knock)
    the knock with that card.  OpenSpiel's knock (55) alone has no rummykit id: pass the card
    that follows it.  Pass (54) maps to ``pass``; in a showdown it is ``done``.  A lay-off card
    needs the knocker's meld slot, which only the state knows: map it with ``lay off C on M``.
    """
    if isinstance(os_action, bool) or not isinstance(os_action, int) or not 0 <= os_action < OS_NUM_ACTIONS:
        raise IllegalActionError(f"not an OpenSpiel gin_rummy action id (0..{OS_NUM_ACTIONS - 1}): {os_action!r}")
    if os_action < 52:
        card = int(rummykit_card(os_action))
        return KNOCK + card if after_knock else card
    if os_action == OS_KNOCK:
        raise IllegalActionError("OpenSpiel's knock is one rummykit action with the card after it (after_knock=True)")
    if os_action >= OS_MELD:
        return MELD + MELD_INDEX[OS_MELD_TABLE[os_action - OS_MELD]]
    return {OS_DRAW_UPCARD: TAKE, OS_DRAW_STOCK: DRAW_STOCK, OS_PASS: PASS}[os_action]
