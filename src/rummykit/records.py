"""Hand records of every game, through one front door.

``state.to_json()`` writes a hand's record (JSON: the game and its options,
the deal and every action; see :mod:`rummykit.knock.record` for the knock
games and :mod:`rummykit.table.record` for Rummy and Kaluki).  Every record
names its ``family`` and ``game``, so :func:`from_json` reads any of them
and replays it into the right state.  (A Kaluki record names cards, not which
of the two decks a card came from, so the copy replayed may hold the other
physical copy of a card: the same cards by the rules.)

>>> import rummykit as rk
>>> for name in ("gin", "kaluki"):
...     state = rk.Game(name).new_hand(seed=2, dealer=0)
...     state.play(state.legal_actions()[0])
...     copy = from_json(to_json(state))
...     print(type(copy).__name__, copy.history == state.history, copy.hand(0) == state.hand(0))
KnockState True True
TableState True True
"""

from __future__ import annotations

from rummykit.engine.match import Match
from rummykit.engine.protocol import GameState
from rummykit.engine.records import MATCH_FORMAT
from rummykit.engine.records import load as engine_load
from rummykit.games import FAMILIES  # the registry: every family registered

__all__ = ["MAX_RECORD_CHARS", "from_json", "from_record", "load", "to_json"]

#: the longest record read (the longest limit of the families; characters, or bytes)
MAX_RECORD_CHARS: int = max(family.records.MAX_RECORD_CHARS for family in FAMILIES.values())


def load(text: object, limit: int = MAX_RECORD_CHARS) -> object:
    """Record text (str or bytes, at most ``limit`` characters or bytes) as JSON data: UTF-8,
    no duplicate keys, no NaN or Infinity, no integer of over 4,300 digits; anything else
    raises :class:`~rummykit.errors.InvalidOptionError` naming the problem.  The one JSON
    reader of hand and match records."""
    return engine_load(text, limit)


def to_json(state: GameState) -> str:
    """The hand record of ``state`` (``state.to_json()``), any game."""
    return state.to_json()


def from_record(record: object) -> GameState:
    """The state a record's data (a dict as :func:`json.loads` gives it)
    describes, replayed by its family's reader (``family_record(name).records``).  Data
    that names no known family goes to the first family's reader (the knock games'), which
    says what is wrong with it.  A match record (``match.to_json()``) gives the match."""
    if isinstance(record, dict) and record.get("format") == MATCH_FORMAT:
        return Match.from_record(record)  # type: ignore[return-value]
    name = record.get("family") if isinstance(record, dict) else None
    family = FAMILIES.get(name) if isinstance(name, str) else None
    state: GameState = (family or next(iter(FAMILIES.values()))).records.from_record(record)
    return state


def from_json(text: str | bytes) -> GameState:
    """The hand a record describes (any game), replayed to its last action
    through the checked path.  Only JSON is read (size-limited, no duplicate
    keys); a malformed or illegal record raises a
    :class:`~rummykit.errors.RummykitError` subclass naming the problem."""
    return from_record(load(text))
