"""The server's tables: the one module that talks to the match API.

A table is a step-wise :class:`rummykit.Match` with seats (a person holding a token, or a bot
named by an agent spec), kept in a :class:`~rummykit.serve.storage.Storage`.  Every change (a
person's move, a bot's move, the next hand dealt) is one storage transaction that reads the
table, applies the change and stores it: the move alone (seat and action id), or at the end of
a hand and every :data:`SNAPSHOT_EVERY` moves the whole match record (``Match.to_json()``); a
table is read back as its last record with the moves since replayed.  So any number of server
processes can share the database.  Each process keeps the live :class:`Match` of the tables it
serves in memory, tagged with the version it was read at, and reads the table again only when
another process has changed it.  The views of the live match are computed when a seat asks or
is pushed to, once per seat and version.

Everything here is synchronous and thread-safe: the web layer (:mod:`rummykit.serve.app`) calls
it from worker threads, off the event loop.  Bad requests raise :class:`ServeError` subclasses
of :class:`~rummykit.errors.RummykitError` (``status`` is the HTTP status); a move the rules
refuse raises the library's own error, and the table is left as it was.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
import threading
from collections import OrderedDict
from collections.abc import Callable, Collection
from dataclasses import dataclass, field, replace
from typing import Any

import rummykit
from rummykit.agents import make_agent
from rummykit.analysis import deadwood
from rummykit.cards import to_mask
from rummykit.errors import IllegalActionError, RummykitError, clip
from rummykit.knock.actions import DRAW_STOCK, KNOCK
from rummykit.serve.storage import Storage, TableRow

__all__ = [
    "BOT_AGENTS",
    "MAX_BOT_SETTING",
    "Forbidden",
    "NotFound",
    "ServeError",
    "Tables",
]

#: the agents a bot seat may name (the external baselines need extras and are left out)
BOT_AGENTS = ("random", "greedy", "ismcts", "best")
#: the largest number a bot setting may hold (iterations, samples...): a bot move stays short
MAX_BOT_SETTING = 5000
#: the most seats a table may have
MAX_SEATS = 8
#: the tables whose live match a process keeps in memory (the least recently used are dropped)
CACHE_SIZE = 2048
#: a table's whole match record is written every this many moves (and at the end of each hand);
#: the moves between are stored alone
SNAPSHOT_EVERY = 32


class ServeError(RummykitError):
    """A request the server refuses; ``status`` is its HTTP status (400 unless a subclass says)."""

    status = 400


class Forbidden(ServeError):
    """A token that is not one of this table's seats'."""

    status = 403


class NotFound(ServeError):
    """No table with this id."""

    status = 404


@dataclass(frozen=True)
class Seat:
    """A seat: ``"human"`` (a person with a token) or ``"bot"`` playing ``agent``."""

    type: str
    agent: str | None = None

    def to_data(self) -> dict[str, Any]:
        return {"type": self.type} if self.agent is None else {"type": self.type, "agent": self.agent}


@dataclass
class _Live:
    """A table as this process holds it: the match at ``version`` (None: not read yet)."""

    seats: tuple[Seat, ...]
    digests: tuple[str, ...]
    bot_seed: int
    version: int = -1
    match: Any = None
    #: the last finished hand as each seat saw it at its end ("spectator": the spectator's)
    last_hand: dict[str, Any] | None = None
    #: the views of the match at ``version`` computed so far, by seat (None: the spectator)
    views: dict[int | None, dict[str, Any]] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)


def token_digest(token: str) -> str:
    """The stored form of a token: its SHA-256, hex."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def _parse_seats(seats: object) -> tuple[Seat, ...]:
    if not isinstance(seats, list) or not 1 <= len(seats) <= MAX_SEATS:
        raise ServeError(f"seats must be a list of 1..{MAX_SEATS} seats, got {clip(seats)}")
    parsed = []
    for i, seat in enumerate(seats):
        kind = seat.get("type") if isinstance(seat, dict) else None
        if kind == "human" and set(seat) == {"type"}:
            parsed.append(Seat("human"))
            continue
        if kind == "bot" and set(seat) <= {"type", "agent"}:
            spec = seat.get("agent", "greedy")
            if not isinstance(spec, str) or len(spec) > 200:
                raise ServeError(f"seat {i}: agent must be an agent name such as 'greedy', got {clip(spec)}")
            name, _, settings = spec.partition(":")
            if name.strip().lower() not in BOT_AGENTS:
                raise ServeError(f"seat {i}: this server's bots are {', '.join(BOT_AGENTS)}, got {clip(name)}")
            make_agent(spec)  # the library's message for bad settings
            for item in settings.split(","):
                value = item.partition("=")[2].strip()
                if value.lstrip("-").replace(".", "", 1).isdigit() and abs(float(value)) > MAX_BOT_SETTING:
                    raise ServeError(f"seat {i}: bot settings are at most {MAX_BOT_SETTING} here, got {clip(item)}")
            parsed.append(Seat("bot", spec))
            continue
        raise ServeError(
            f'seat {i} must be {{"type": "human"}} or {{"type": "bot", "agent": "greedy"}}, got {clip(seat)}'
        )
    return tuple(parsed)


class Tables:
    """Every table of one storage, for one server process."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        self._live: OrderedDict[str, _Live] = OrderedDict()
        self._lock = threading.Lock()

    # --- the requests --------------------------------------------------------------------

    def create(self, request: object) -> tuple[str, list[str | None]]:
        """A new table from a request (``{"game", "options", "seats", "seed"}``), its first
        hand dealt: its id and one token per human seat (None for a bot)."""
        if not isinstance(request, dict):
            raise ServeError(f"a new table is a JSON object, got {clip(request)}")
        unknown = set(request) - {"game", "options", "seats", "seed"}
        if unknown:
            raise ServeError(f"unknown keys {sorted(unknown)}: a table has game, options, seats and seed")
        game = request.get("game")
        if not isinstance(game, str):
            raise ServeError(f"game must be a game name such as 'gin', got {clip(game)}")
        options = request.get("options", {})
        if not isinstance(options, dict):
            raise ServeError(f"options must be an object of game options, got {clip(options)}")
        seats = _parse_seats(request.get("seats"))
        if "num_players" in options and options["num_players"] != len(seats):
            raise ServeError(f"options say num_players={clip(options['num_players'])} but there are {len(seats)} seats")
        options = {k: v for k, v in options.items() if k != "num_players"}
        seed = request.get("seed")
        given = seed is not None
        if seed is None:
            seed = secrets.randbits(63)
        elif not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2**63:
            raise ServeError(f"seed must be an int 0..2**63-1, got {clip(seed)}")
        match = rummykit.Match(game, num_players=len(seats), seed=int(seed), **options)
        match.deal()
        tokens = [secrets.token_urlsafe(16) if seat.type == "human" else None for seat in seats]
        digests = tuple(token_digest(t) if t is not None else "" for t in tokens)
        table_id = secrets.token_urlsafe(9)
        row = TableRow(
            table_id,
            0,
            json.dumps([s.to_data() for s in seats]),
            digests,
            # a given seed makes the bots' moves repeatable too
            (int(seed) * 0x2545F491 + 1) % 2**62 if given else secrets.randbits(62),
            match.to_json(),
        )
        self.storage.create(row)
        with self._lock:
            self._remember(table_id, _Live(seats, digests, row.bot_seed, 0, match))
        return table_id, tokens

    def seat(self, table_id: str, token: object) -> int | None:
        """The seat ``token`` holds at this table (None: no token, the spectator); a token
        that is not one of its seats' raises :class:`Forbidden`."""
        live = self._table(table_id)
        if token is None:
            return None
        if not isinstance(token, str) or not 0 < len(token) <= 100:
            raise Forbidden("not a token of this table")
        digest = token_digest(token)
        found = None
        for seat, stored in enumerate(live.digests):  # every seat compared, in constant time each
            if stored and hmac.compare_digest(stored, digest):
                found = seat
        if found is None:
            raise Forbidden("not a token of this table")
        return found

    def view(self, table_id: str, seat: int | None, since: int | None = None) -> dict[str, Any]:
        """What ``seat`` (None: a spectator) sees of the table now (``since``: with the hand's
        actions from that index on, as ``Match.view`` gives them)."""
        live = self._table(table_id)
        with live.lock:
            self._fresh(table_id, live)
            if since is None:
                return self._views(live, [seat])[seat]
            view: dict[str, Any] = live.match.view(seat, since)
            return view

    def views(self, table_id: str, seats: Collection[int | None]) -> tuple[int, dict[int | None, dict[str, Any]]]:
        """The table's version and what each of ``seats`` (None: a spectator) sees of it now."""
        live = self._table(table_id)
        with live.lock:
            self._fresh(table_id, live)
            return live.version, self._views(live, seats)

    def move(
        self, table_id: str, seat: int, move: object, watchers: Collection[int | None] = ()
    ) -> tuple[int, dict[str, Any], dict[int | None, dict[str, Any]]]:
        """Play ``move`` (action text, or an action id) for ``seat``: the table's new version, the
        seat's new view and the views of ``watchers`` (seats; None the spectator).  A move that is
        not the seat's to make, or that the rules refuse, raises and changes nothing."""
        if isinstance(move, bool) or not isinstance(move, (str, int)):
            raise ServeError(f"move must be action text such as 'draw' or an action id, got {clip(move)}")
        if isinstance(move, str) and len(move) > 200:
            raise ServeError(f"move text is at most 200 characters, got {clip(move)}")
        live = self._table(table_id)

        def change(match: Any) -> int:
            if match.is_over:
                raise IllegalActionError("the match is over")
            mover = match.state.current_player
            if mover != seat:
                raise IllegalActionError(f"not your turn: seat {mover} is to move")
            match.state.play(move, player=seat)
            return seat

        with live.lock:
            self._change(table_id, live, change)
            views = self._views(live, {*watchers, seat})
            return live.version, views[seat], views

    def info(self, table_id: str, seat: int | None) -> dict[str, Any]:
        """What the page needs beside the view: the seats (``type``, ``agent``), the table's
        version, ``gin``: the legal knock actions of ``seat`` that are gin (the knock games),
        and ``last_hand``: the last finished hand as ``seat`` saw it at its end (None before
        the first hand ends)."""
        live = self._table(table_id)
        with live.lock:
            self._fresh(table_id, live)
            last = live.last_hand
            return {
                "table": table_id,
                "version": live.version,
                "seats": [s.to_data() for s in live.seats],
                "gin": _gin_actions(live.match, seat),
                "last_hand": None if last is None else last[_key(seat)],
            }

    def bot_move(
        self, table_id: str, watchers: Collection[int | None] = ()
    ) -> tuple[int, dict[int | None, dict[str, Any]]] | None:
        """If a bot is to move, let it choose (on a copy of the hand, the table not locked) and play
        its move: the new version and the views of ``watchers``; None when no bot is to move."""
        live = self._table(table_id)
        while True:
            with live.lock:
                self._fresh(table_id, live)
                seat = self._bot_seat(live)
                if seat is None:
                    return None
                version, state = live.version, live.match.state.clone()
            spec = live.seats[seat].agent
            assert spec is not None
            agent = make_agent(spec, seed=(live.bot_seed + version * 0x9E3779B1) % 2**63)
            action = int(agent(state))

            def change(match: Any, seat: int = seat, action: int = action) -> int:
                match.state.play(action, player=seat)
                return seat

            with live.lock:
                if self._change(table_id, live, change, expect=version):
                    return live.version, self._views(live, watchers)
            # the table moved while the bot thought (another process): look again

    def version(self, table_id: str) -> int:
        """The table's version as this process last saw it."""
        return self._table(table_id).version

    # --- the live tables -----------------------------------------------------------------

    def _remember(self, table_id: str, live: _Live) -> None:
        self._live[table_id] = live
        self._live.move_to_end(table_id)
        while len(self._live) > CACHE_SIZE:
            self._live.popitem(last=False)

    def _table(self, table_id: object) -> _Live:
        if not isinstance(table_id, str) or not 0 < len(table_id) <= 64:
            raise NotFound("no such table")
        with self._lock:
            live = self._live.get(table_id)
            if live is not None:
                self._live.move_to_end(table_id)
                return live
        row = self.storage.load(table_id)
        if row is None:
            raise NotFound(f"no table {clip(table_id)}")
        seats = tuple(Seat(s["type"], s.get("agent")) for s in json.loads(row.seats))
        with self._lock:
            live = self._live.get(table_id)
            if live is None:
                live = _Live(seats, row.token_digests, row.bot_seed)
                self._remember(table_id, live)
            return live

    def _fresh(self, table_id: str, live: _Live) -> None:
        """Read the table again if it changed since this process read it (caller holds live.lock)."""
        if self.storage.versions([table_id]).get(table_id) != live.version:
            row = self.storage.load(table_id)
            if row is None:
                raise NotFound(f"no table {clip(table_id)}")
            self._load(live, row)

    @staticmethod
    def _load(live: _Live, row: TableRow) -> None:
        match: Any = rummykit.from_json(row.match)
        for seat, action in row.moves:
            match.state.play(action, player=seat)
        live.match, live.version, live.views = match, row.version, {}
        live.last_hand = json.loads(row.last_hand) if row.last_hand else None

    def _change(self, table_id: str, live: _Live, change: Callable[[Any], int], expect: int | None = None) -> bool:
        """Apply ``change`` (it plays a move and returns the seat that played it) to the table's
        match and store it, in one transaction; on any error the table is as it was (caller
        holds live.lock).  With ``expect``, only a table still at that version is changed (else
        False)."""

        def apply(row: TableRow) -> TableRow | None:
            if expect is not None and row.version != expect:
                return None
            if row.version != live.version:
                self._load(live, row)
            state = live.match.state
            before = len(state.history)
            seat = change(live.match)
            played = state.history[before:]
            last_hand = _advance(live.match, len(live.seats))
            if last_hand is None and len(played) == 1 and len(row.moves) + 1 < SNAPSHOT_EVERY:
                return replace(row, moves=(*row.moves, (seat, int(played[0]))))
            if last_hand is not None:
                live.last_hand = last_hand
            return replace(
                row,
                match=str(live.match.to_json()),
                last_hand=row.last_hand if last_hand is None else json.dumps(last_hand),
                moves=(),
            )

        try:
            new = self.storage.update(table_id, apply)
        except BaseException:
            live.version = -1  # the live match may hold the refused change: read it again
            live.match, live.views = None, {}
            raise
        if new is None:
            return False
        live.version, live.views = new.version, {}
        return True

    @staticmethod
    def _bot_seat(live: _Live) -> int | None:
        match = live.match
        if match.is_over:
            return None
        seat = match.state.current_player
        return seat if 0 <= seat < len(live.seats) and live.seats[seat].type == "bot" else None

    @staticmethod
    def _views(live: _Live, seats: Collection[int | None]) -> dict[int | None, dict[str, Any]]:
        """The views of ``seats`` at the live version, each computed once (caller holds live.lock)."""
        for seat in seats:
            if seat not in live.views:
                live.views[seat] = live.match.view(seat)
        return {seat: live.views[seat] for seat in seats}


def _key(seat: int | None) -> str:
    return "spectator" if seat is None else str(seat)


def _advance(match: Any, n: int) -> dict[str, Any] | None:
    """After a move: a finished hand is scored and, unless the match is over, the next dealt;
    the finished hand's end as each seat (and the spectator) saw it, or None."""
    if not (match.in_hand and match.state.is_terminal()):
        return None
    match.finish_hand()
    last = {_key(seat): match.view(seat) for seat in [*range(n), None]}
    if not match.is_over:
        match.deal()
    return last


def _gin_actions(match: Any, seat: int | None) -> list[int]:
    """The legal knock actions of ``seat`` that leave no deadwood (gin), in a knock game."""
    state = match.state
    if seat is None or match.is_over or not state.game.family_record.knocks or state.current_player != seat:
        return []
    hand = to_mask(state.hand(seat))
    aces = state.rules.aces
    knocks = [a for a in state.legal_actions() if KNOCK <= a < DRAW_STOCK]
    return [a for a in knocks if not deadwood(hand & ~(1 << (a - KNOCK)), aces=aces)]
