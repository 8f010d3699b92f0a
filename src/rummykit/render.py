"""Cards and hands as rich markup for the terminal (``rummykit play``, ``replay``, ``analyse``).

One card style on every screen: a rank and a suit symbol in the suit's colour (``7♥``), a
joker as ``Jk``.  Text that comes from the engine (action text such as ``discard 7H``, error
messages) goes through :func:`cards_in_text`, which shows its cards the same way; what the
player types may use either form (``7h`` or ``7♥``).
"""

from __future__ import annotations

import re
import sys
from typing import TYPE_CHECKING, Any

from rummykit.analysis import best_melds
from rummykit.cards import Card, from_mask, parse_card
from rummykit.table.cards import JOKER, card_type, types_of

if TYPE_CHECKING:
    from rich.console import Console

__all__ = [
    "CARD_TYPING",
    "Quit",
    "card_markup",
    "cards_in_text",
    "console",
    "hand_markup",
    "plural",
    "table_card_markup",
    "table_hand_markup",
    "table_meld_markup",
]

#: how cards are typed, for the help of every terminal view
CARD_TYPING = "cards: rank and suit letter (7h, th for the ten of hearts, jk a joker) or as shown (7♥)"


class Quit(Exception):
    """The person typed ``quit`` (or closed the input) in a terminal view."""


SUIT_STYLES = ("green", "blue", "red", "bold")  # four-colour deck: clubs, diamonds, hearts, spades
JOKER_STYLE = "bold magenta"

# a card token in engine text: 7H, TS, 10S, Jk (not inside a word, such as an option name)
_CARD_TOKEN = re.compile(r"(?<![\w])(?:(10|[2-9TJQKA])([CDHS])|(Jk))(?![\w])")


def console(file: Any = None) -> Console:
    """A rich console for the command line: the terminal's width on a terminal; when the
    output is piped, lines are not wrapped (a phrase is never cut in two)."""
    from rich.console import Console

    out = file if file is not None else sys.stdout
    is_tty = bool(getattr(out, "isatty", lambda: False)())
    return Console(file=file, highlight=False, soft_wrap=not is_tty)


def plural(n: int, word: str) -> str:
    """``1 card``, ``2 cards``."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def card_markup(card: int) -> str:
    """Rich markup of a card (an id, or :data:`~rummykit.table.cards.JOKER` for a joker)
    with its suit colour, e.g. ``[red]7♥[/]``."""
    if card == JOKER:
        return f"[{JOKER_STYLE}]Jk[/]"
    c = Card(card)
    return f"[{SUIT_STYLES[c.suit]}]{c.symbol}[/]"


def cards_markup(cards: Any) -> str:
    """Cards in colour, apart; ``-`` for none."""
    return " ".join(card_markup(c) for c in cards) or "-"


def cards_in_text(text: str) -> str:
    """Engine text (``meld 7H 8H Jk=9H``, an error message) as markup, its cards in the
    screen's style and anything else escaped.

    >>> cards_in_text("discard 7H [now]")
    'discard [red]7♥[/] \\\\[now]'
    """
    from rich.markup import escape

    out, last = [], 0
    for m in _CARD_TOKEN.finditer(text):
        out.append(escape(text[last : m.start()]))
        out.append(card_markup(JOKER if m.group(3) else int(parse_card(m.group(1) + m.group(2)))))
        last = m.end()
    out.append(escape(text[last:]))
    return "".join(out)


def hand_markup(mask: int, aces: str = "low") -> list[str]:
    """Lines showing a hand: by suit, then the least-deadwood melds and the deadwood."""
    cards = from_mask(mask)
    by_suit = "   ".join(
        cards_markup([c for c in cards if c.suit == s]) for s in range(4) if any(c.suit == s for c in cards)
    )
    best = best_melds(mask, aces=aces)
    melds = "  ".join(f"\\[{cards_markup(m.cards)}]" for m in best.melds) or "none"
    return [
        f"  hand      {by_suit}",
        f"  melds     {melds}",
        f"  deadwood  {cards_markup(best.deadwood_cards)} ({best.deadwood})",
    ]


def table_card_markup(physical: int) -> str:
    """Rich markup of a physical table-game card (a joker: ``Jk``)."""
    return card_markup(card_type(physical))


def table_hand_markup(mask: int) -> str:
    """A table-game hand sorted by suit, suits apart, jokers last."""
    types = types_of(mask)
    groups = [[t for t in types if t != JOKER and t // 13 == s] for s in range(4)]
    groups.append([t for t in types if t == JOKER])
    return "   ".join(" ".join(card_markup(t) for t in g) for g in groups if g) or "-"


def table_meld_markup(state: Any, slot: int) -> str:
    """Table meld ``slot`` (0-based) in colour, a joker as ``Jk=7♥`` (the card it stands for)."""
    meld = state.table[slot]
    return " ".join(
        card_markup(card_type(c)) if c < 104 else f"{card_markup(JOKER)}={card_markup(t)}"
        for c, t in zip(meld.cards, meld.represents(state.geo))
    )
