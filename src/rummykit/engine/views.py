"""Views: what one seat (or a spectator) may know of a hand or a match, as plain JSON
data (dicts, lists, str, int, bool, None), with one schema for every game:
``rummykit/engine/view.schema.json`` (JSON Schema, shipped in the package,
:func:`view_schema`).

``state.view(seat=None, since=None)`` and ``match.view(seat=None, since=None)``:

* ``kind`` (``"hand"`` or ``"match"``), ``game``, ``family``, ``seat`` (None: a
  spectator, who sees no hand), ``num_players``, ``dealer``, ``phase``,
  ``current_player`` (None once the hand is over), ``action_count`` (the actions played
  in the hand; the index ``since`` counts in);
* ``hand``: the seat's cards as text, sorted (the joker ``Jk``); ``hand_sizes``: each
  seat's card count; ``stock_size``; ``discard_pile``: bottom first, top last;
  ``known``: per seat the cards the others saw it take and still held; ``seen``: per
  seat every card of its hand in view (the seat's own hand, known cards, shown hands,
  every hand at the end); ``melds``: the melds on the table (``owner``, ``kind``,
  ``cards``; in the knock games each seat's melds at the end of the hand);
* ``scores``: the hand's score per seat (``returns()``: 0 until it ends); ``result``:
  None, or the hand's result at its end (outcome, winner and the per-seat figures);
* ``last_actions``: the latest actions in words as the seat saw them (``"seat 1:
  discard 7H"``: since the seat's own last action, else the last round);
  ``events``: with ``since=k``, one entry per action from index ``k`` on
  (``index``, ``seat``, ``text``, ``id``: the engine id, or None where it would tell a
  card hidden from the seat);
* ``legal``: the legal actions of the seat to move as ``{"id", "text"}`` (``[]`` for
  the others and the spectator).

A view holds nothing the seat may not know: the words of the actions are the seat's
information-state lines (``information_state_string``), and everything else comes from
``state.observation(seat)``.  ``match.view`` adds ``match``: the standing (``scores``,
``hands_played``, ``is_over``, ``in_hand``, ``winner``, ``dealer`` and the family's own
entries such as ``boxes`` and ``eliminated``).  No game family is imported here.

>>> import json, rummykit as rk
>>> state = rk.Game("gin").new_hand(seed=1, dealer=0)
>>> view = state.view(1)
>>> view["hand"][:3], view["hand_sizes"], view["legal"][0]
(['4C', '8D', 'JD'], [10, 10], {'id': 105, 'text': 'take'})
>>> json.loads(json.dumps(view)) == view
True
"""

from __future__ import annotations

import dataclasses
import json
import numbers
import re
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rummykit.cards import Card
from rummykit.errors import InvalidOptionError, RummykitError, clip

if TYPE_CHECKING:
    from rummykit.engine.match import Match
    from rummykit.engine.protocol import GameState

__all__ = ["SCHEMA_PATH", "card_text", "hand_view", "match_view", "view_schema"]

#: the JSON Schema of every view (shipped in the package)
SCHEMA_PATH = Path(__file__).with_name("view.schema.json")
#: an action line of an information-state string: an optional restock note, the seat, the words
_LINE = re.compile(r"^(?:(restock [^;]*); )?(\d+): (.*)$")
_JOKER = 52
_CARD_TEXTS = (*(str(Card(value)) for value in range(_JOKER)), "Jk")


@cache
def view_schema() -> dict[str, Any]:
    """The JSON Schema (a dict) that every view satisfies."""
    schema: dict[str, Any] = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    return schema


def card_text(card: object) -> str:
    """A card (a :class:`~rummykit.cards.Card`, or a card type 0..52 where 52 is the joker) as
    text: ``"7H"``, ``"Jk"``."""
    value = int(card)  # type: ignore[call-overload]
    return _CARD_TEXTS[value] if 0 <= value <= _JOKER else str(Card(value))


def _texts(cards: Any) -> list[str]:
    return [card_text(c) for c in cards]


def _check_seat(seat: object, n: int) -> int | None:
    if seat is None:
        return None
    if isinstance(seat, numbers.Integral) and not isinstance(seat, bool) and 0 <= int(seat) < n:
        return int(seat)
    raise InvalidOptionError(f"seat must be a seat 0..{n - 1} or None (a spectator), got {clip(seat)}")


def _plain(value: Any) -> Any:
    """Result figures as JSON data: ints, text, None and lists of them; anything else is left out."""
    if value is None or isinstance(value, (str, bool)):
        return value
    if isinstance(value, numbers.Integral):
        return int(value)
    if isinstance(value, tuple) and all(isinstance(v, numbers.Integral) for v in value):
        return [int(v) for v in value]
    return _SKIP


_SKIP = object()


def _result(state: GameState) -> dict[str, Any] | None:
    result = state.result
    if result is None:
        return None
    out: dict[str, Any] = {"returns": [int(v) for v in state.returns()]}
    for field in dataclasses.fields(result):
        value = _plain(getattr(result, field.name))
        if value is not _SKIP:
            out[field.name] = value
    return out


def _meld(owner: int | None, kind: object, cards: Any) -> dict[str, Any]:
    name = str(getattr(kind, "name", kind)).lower()
    return {"owner": owner, "kind": name, "cards": _texts(cards)}


def _melds(obs: Any) -> list[dict[str, Any]]:
    """The melds in view: the table's (table games), or each seat's at the end of a knock hand."""
    table = getattr(obs, "melds", None)
    if table is not None:
        return [_meld(m.owner, m.kind, m.cards) for m in table]
    result = obs.result
    if result is None or not getattr(result, "melds", ()):
        return []
    return [_meld(seat, m.kind, m.cards) for seat, melds in enumerate(result.melds) for m in melds]


def _lines(state: GameState, seat: int | None) -> list[tuple[int, str, str]]:
    """Every action of the hand as ``(actor, words, line)`` as ``seat`` saw it (a spectator:
    as a seat other than the actor saw it), from the information-state lines; ``line`` is
    the words with the seat and any restock note."""
    count = len(state.history)
    if not count:
        return []
    viewers = [seat] if seat is not None else [0, 1]
    found = {}
    for viewer in viewers:
        lines = state.information_state_string(viewer).splitlines()[2 : 2 + count]
        found[viewer] = [_LINE.match(line) for line in lines]
        if len(lines) < count or not all(found[viewer]):
            raise RummykitError("the hand changed while its view was made (another thread?): ask again")
    out = []
    for index in range(count):
        line = found[viewers[0]][index]
        assert line is not None, "an information-state line per action"
        actor = int(line.group(2))
        if seat is None and actor == viewers[0]:
            line = found[viewers[1]][index]
            assert line is not None
        restock, words = line.group(1), line.group(3)
        out.append((actor, words, f"seat {actor}: {words}" + (f" ({restock})" if restock else "")))
    return out


def _events(state: GameState, lines: list[tuple[int, str, str]], since: int) -> list[dict[str, Any]]:
    """The actions from index ``since`` on (``lines``: :func:`_lines`), each with its id where
    the words tell it."""
    history = list(state.history)
    events = []
    for index in range(since, len(lines)):
        actor, words, line = lines[index]
        action = history[index]
        text = state.action_text(action)
        known = words == text or words.startswith(text + " ")
        events.append({"index": index, "seat": actor, "text": line, "id": int(action) if known else None})
    return events


def _last_actions(lines: list[tuple[int, str, str]], seat: int | None, n: int) -> list[str]:
    """The words of the actions since ``seat``'s own last action (a spectator, or a seat
    that has not acted: the last round of ``n`` actions)."""
    start = max(0, len(lines) - n)
    if seat is not None:
        own = [index for index, (actor, _, _) in enumerate(lines) if actor == seat]
        if own:
            start = own[-1] + 1
    return [line for _, _, line in lines[start:]]


def hand_view(state: GameState, seat: int | None = None, since: int | None = None) -> dict[str, Any]:
    """What ``seat`` (None: a spectator) may know of the hand ``state`` as plain JSON data
    (see the module docstring); ``since``: an action index, for ``events``."""
    n = state.n
    seat = _check_seat(seat, n)
    count = len(state.history)
    if since is not None and (
        not isinstance(since, numbers.Integral) or isinstance(since, bool) or not 0 <= since <= count
    ):
        raise InvalidOptionError(f"since must be an action index 0..{count} or None, got {clip(since)}")
    over = state.is_terminal()
    obs = state.observation(0 if seat is None else seat)
    known = [_texts(cards) for cards in obs.known_cards]
    if seat is None and not over:
        seen = [list(cards) for cards in known]  # a spectator sees no hand: only the known cards
    else:
        seen = [_texts(cards) for cards in obs.seen_cards]
    lines = _lines(state, seat)
    to_move = None if over else int(state.current_player)
    legal = []
    if seat is not None and seat == to_move:
        legal = [{"id": int(a), "text": state.action_text(a)} for a in state.legal_actions()]
    return {
        "kind": "hand",
        "game": state.rules.name,
        "family": state.game.family,
        "seat": seat,
        "num_players": n,
        "dealer": int(state.dealer),
        "phase": state.phase_name,
        "current_player": to_move,
        "action_count": count,
        "hand": [] if seat is None else _texts(obs.hand),
        "hand_sizes": [int(k) for k in obs.hand_sizes],
        "stock_size": int(obs.stock_size),
        "discard_pile": _texts(obs.discard_pile),
        "known": known,
        "seen": seen,
        "melds": _melds(obs),
        "scores": [int(v) for v in state.returns()],
        "result": _result(state),
        "last_actions": _last_actions(lines, seat, n),
        "events": [] if since is None else _events(state, lines, since),
        "legal": legal,
    }


def _no_hand(match: Match, seat: int | None) -> dict[str, Any]:
    """The hand part of a match view before the first deal."""
    n = match.num_players
    return {
        "kind": "hand",
        "game": match.rules.name,
        "family": match.family,
        "seat": seat,
        "num_players": n,
        "dealer": int(match.first_dealer),
        "phase": "not_dealt",
        "current_player": None,
        "action_count": 0,
        "hand": [],
        "hand_sizes": [0] * n,
        "stock_size": 0,
        "discard_pile": [],
        "known": [[] for _ in range(n)],
        "seen": [[] for _ in range(n)],
        "melds": [],
        "scores": [0] * n,
        "result": None,
        "last_actions": [],
        "events": [],
        "legal": [],
    }


def match_view(match: Match, seat: int | None = None, since: int | None = None) -> dict[str, Any]:
    """What ``seat`` (None: a spectator) may know of ``match``: the current hand's view
    (the last hand's between hands) and the standing under ``match``."""
    n = match.num_players
    seat = _check_seat(seat, n)
    state = match.state
    view = _no_hand(match, seat) if state is None else hand_view(state, seat, since)
    view["kind"] = "match"
    view["match"] = match.standing()
    return view
