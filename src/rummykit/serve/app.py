"""The web layer: a Starlette application over :class:`~rummykit.serve.tables.Tables`.

HTTP JSON API (errors are ``{"error": message}`` with status 400, 403 for a token that is not
the table's, 404 for no such table, 413 for a body over :data:`MAX_BODY` bytes, 429 over a rate
limit, see :class:`RateLimit`):

* ``POST /api/tables`` ``{"game", "options", "seats", "seed"}`` -> ``{"table", "tokens"}``
* ``GET /api/tables/ID/view?token=T`` -> that seat's view (no token: the spectator's; with
  ``since=K`` its ``events`` list the hand's actions from index K on)
* ``POST /api/tables/ID/moves`` ``{"token", "move": TEXT}`` or ``{"token", "action": ID}`` -> the
  seat's new view
* ``WS /ws/tables/ID?token=T`` -> the seat's view now and after every change
* ``GET /api/tables/ID?token=T`` -> the seats, the version, the seat's gin actions and the last
  finished hand as the seat saw it at its end (for the page)
* ``GET /api/games`` -> the games, their options and the bots (for the lobby)
* ``GET /`` the browser table; ``/static/...`` its files

Every call into the tables runs in a worker thread, so a long bot move or a slow disk never
holds up the event loop.  Bots move as soon as it is their turn: one driver task per table plays
them one at a time, in at most :data:`BOT_THREADS` threads at once (so that many bots thinking
never crowd out a person's move).  Pushes: a change made by this process is pushed at once with
the views computed in the same step (each encoded once); a change made by another process on the
same database is noticed by a poll of the tables' versions every :data:`POLL_SECONDS`.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import math
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

import anyio
import anyio.to_thread
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Receive, Scope, Send
from starlette.websockets import WebSocket, WebSocketDisconnect

from rummykit.errors import RummykitError
from rummykit.games import game_options
from rummykit.records import load
from rummykit.serve.storage import SQLiteStorage, Storage
from rummykit.serve.tables import BOT_AGENTS, ServeError, Tables

__all__ = ["BOT_THREADS", "MAX_BODY", "MOVE_RATE", "POLL_SECONDS", "TABLE_RATE", "RateLimit", "create_app"]

#: the largest request body accepted, in bytes
MAX_BODY = 16_384
#: how often the versions of watched tables are read, for changes made by other processes
POLL_SECONDS = 1.0
#: the worker threads the bots think in at once (the people's requests have threads of their own)
BOT_THREADS = 2
#: the default limit on move requests: this many a minute per seat token (``--move-rate``)
MOVE_RATE = 600
#: the default limit on new tables: this many a minute per client address (``--table-rate``)
TABLE_RATE = 30

_HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",  # join links carry tokens
    "Cache-Control": "no-store",
}
_PAGE_HEADERS = {
    **_HEADERS,
    "Content-Security-Policy": (
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"
    ),
}


class TooLarge(ServeError):
    """A request body over MAX_BODY bytes."""

    status = 413


class TooMany(ServeError):
    """A request over a rate limit; ``retry_after``: the seconds until one is allowed again."""

    status = 429

    def __init__(self, message: str, retry_after: float) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class RateLimit:
    """At most ``per_minute`` requests a minute per key (a seat token, a client address), as a
    token bucket: a key may make ``per_minute`` requests at once, then one each
    ``60 / per_minute`` seconds.  ``per_minute=0``: no limit.  The buckets of at most ``keys``
    keys are kept (the least recently seen are forgotten, which only ever lets a request in).
    Used on the event loop only (no lock)."""

    def __init__(self, per_minute: float, what: str, flag: str, keys: int = 100_000) -> None:
        if per_minute < 0:
            raise ValueError(f"{flag} must be 0 (no limit) or more, got {per_minute}")
        self.per_minute, self.what, self.flag, self.keys = per_minute, what, flag, keys
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()  # key -> (requests left, when)

    def charge(self, key: str) -> None:
        """Count a request of ``key``; :class:`TooMany` if it is over the limit (not counted then)."""
        if not self.per_minute:
            return
        now = time.monotonic()
        left, then = self._buckets.pop(key, (self.per_minute, now))
        left = min(self.per_minute, left + (now - then) * self.per_minute / 60)
        if left < 1:
            self._buckets[key] = (left, now)
            wait = (1 - left) * 60 / self.per_minute
            raise TooMany(f"too many {self.what}: at most {self.per_minute:g} a minute ({self.flag})", wait)
        self._buckets[key] = (left - 1, now)
        while len(self._buckets) > self.keys:
            self._buckets.popitem(last=False)


@dataclass(eq=False)
class _Watcher:
    """One WebSocket: the seat it shows and the last version sent to it."""

    socket: WebSocket
    seat: int | None
    version: int = -1
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    async def send(self, version: int, text: str) -> None:
        async with self.lock:
            if version <= self.version:
                return
            self.version = version
            with contextlib.suppress(Exception):  # a closed socket: its handler removes it
                await self.socket.send_text(text)


Texts = dict[int | None, str]


def _json(value: object) -> str:
    """JSON text as the answers carry it (compact; the same as Starlette's JSONResponse)."""
    return json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ":"))


def _texts(views: dict[int | None, dict[str, Any]]) -> Texts:
    """The views as JSON text, each encoded once for its answer and every push (in the worker thread)."""
    return {seat: _json(view) for seat, view in views.items()}


class Hub:
    """The WebSockets of this process by table, the bot drivers and the poll for others' changes."""

    def __init__(self, tables: Tables, move_rate: RateLimit, table_rate: RateLimit) -> None:
        self.tables = tables
        self.move_rate, self.table_rate = move_rate, table_rate
        self.watchers: dict[str, set[_Watcher]] = {}
        self.drivers: dict[str, asyncio.Task[None]] = {}
        self.bot_threads: anyio.CapacityLimiter | None = None

    def seats(self, table_id: str) -> list[int | None]:
        return sorted({w.seat for w in self.watchers.get(table_id, ())}, key=lambda s: -1 if s is None else s)

    async def push(self, table_id: str, version: int, texts: Texts) -> None:
        for watcher in list(self.watchers.get(table_id, ())):
            if watcher.seat in texts:
                await watcher.send(version, texts[watcher.seat])

    def views(self, table_id: str, seats: list[int | None]) -> tuple[int, Texts]:
        """(In a worker thread.) The table's version and the views of ``seats`` as JSON text."""
        version, views = self.tables.views(table_id, seats)
        return version, _texts(views)

    async def refresh(self, table_id: str) -> None:
        """Push the table's current views to its watchers that have not had them."""
        seats = self.seats(table_id)
        if seats:
            await self.push(table_id, *await run(self.views, table_id, seats))

    def drive(self, table_id: str) -> None:
        """Make sure the table's bots are playing (one driver task per table)."""
        task = self.drivers.get(table_id)
        if task is None or task.done():
            self.drivers[table_id] = asyncio.get_running_loop().create_task(self._drive(table_id))

    async def _drive(self, table_id: str) -> None:
        if self.bot_threads is None:
            self.bot_threads = anyio.CapacityLimiter(BOT_THREADS)
        try:
            while True:
                moved = await run(self._bot_move, table_id, self.seats(table_id), limiter=self.bot_threads)
                if moved is None:
                    return
                await self.push(table_id, *moved)
        finally:
            if self.drivers.get(table_id) is asyncio.current_task():
                del self.drivers[table_id]

    def _bot_move(self, table_id: str, seats: list[int | None]) -> tuple[int, Texts] | None:
        moved = self.tables.bot_move(table_id, seats)
        return None if moved is None else (moved[0], _texts(moved[1]))

    async def poll(self) -> None:
        """Forever: push what other processes changed at the watched tables, and drive their bots."""
        while True:
            await asyncio.sleep(POLL_SECONDS)
            watched = list(self.watchers)
            if not watched:
                continue
            with contextlib.suppress(Exception):
                versions = await run(self.tables.storage.versions, watched)
                for table_id, version in versions.items():
                    if any(w.version < version for w in self.watchers.get(table_id, ())):
                        await self.refresh(table_id)
                        self.drive(table_id)


async def run(function: Callable[..., Any], *args: Any, limiter: anyio.CapacityLimiter | None = None) -> Any:
    """``function(*args)`` in a worker thread (one of ``limiter``'s, if given)."""
    return await anyio.to_thread.run_sync(function, *args, limiter=limiter)


def _error(error: Exception) -> JSONResponse:
    status = getattr(error, "status", 400)
    headers = _HEADERS
    if isinstance(error, TooMany):
        headers = {**_HEADERS, "Retry-After": str(math.ceil(error.retry_after))}
    return JSONResponse({"error": str(error)}, status_code=status, headers=headers)


async def _body(request: Request) -> object:
    """The request's JSON body, at most MAX_BODY bytes (read no further), checked by the
    library's JSON reader (no duplicate keys, NaN or huge numbers)."""
    length = request.headers.get("content-length", "")
    if length.isdigit() and int(length) > MAX_BODY:
        raise TooLarge(f"the request body is over {MAX_BODY} bytes")
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY:
            raise TooLarge(f"the request body is over {MAX_BODY} bytes")
    if not body:
        raise ServeError("the request body must be a JSON object")
    return load(bytes(body), MAX_BODY)


def _handler(
    endpoint: Callable[[Request, Hub], Awaitable[Response]], hub: Hub
) -> Callable[[Request], Awaitable[Response]]:
    async def handle(request: Request) -> Response:
        try:
            return await endpoint(request, hub)
        except RummykitError as error:
            return _error(error)

    return handle


async def _create(request: Request, hub: Hub) -> Response:
    hub.table_rate.charge(request.client.host if request.client else "")
    table_id, tokens = await run(hub.tables.create, await _body(request))
    hub.drive(table_id)
    return JSONResponse({"table": table_id, "tokens": tokens}, headers=_HEADERS)


async def _view(request: Request, hub: Hub) -> Response:
    table_id = request.path_params["table"]
    tables = hub.tables
    token = request.query_params.get("token")
    since_text = request.query_params.get("since")
    if since_text is not None and not (since_text.isdigit() and len(since_text) <= 6):
        raise ServeError(f"since must be an action index (a small int), got {since_text[:20]!r}")
    since = None if since_text is None else int(since_text)
    view = await run(lambda: tables.view(table_id, tables.seat(table_id, token), since))
    hub.drive(table_id)  # after a restart: a bot whose turn it was moves now
    return JSONResponse(view, headers=_HEADERS)


async def _info(request: Request, hub: Hub) -> Response:
    table_id = request.path_params["table"]
    seat = await run(hub.tables.seat, table_id, request.query_params.get("token"))
    return JSONResponse(await run(hub.tables.info, table_id, seat), headers=_HEADERS)


async def _move(request: Request, hub: Hub) -> Response:
    table_id = request.path_params["table"]
    body = await _body(request)
    if not isinstance(body, dict) or "token" not in body or ("move" in body) == ("action" in body):
        raise ServeError('a move is {"token": T, "move": "draw"} or {"token": T, "action": 104}')
    if set(body) - {"token", "move", "action"}:
        raise ServeError(f"unknown keys {sorted(set(body) - {'token', 'move', 'action'})} in a move")
    if isinstance(body["token"], str):
        hub.move_rate.charge(body["token"][:100])
    move = body["move"] if "move" in body else body["action"]
    if "action" in body and (isinstance(move, bool) or not isinstance(move, int)):
        raise ServeError(f"action must be an action id (an int), got {move!r:.40}")
    tables = hub.tables

    def play() -> tuple[int, str, Texts]:
        seat = tables.seat(table_id, body["token"])
        if seat is None:
            raise ServeError("a move needs the seat's token")
        version, _, views = tables.move(table_id, seat, move, hub.seats(table_id))
        texts = _texts(views)
        return version, texts[seat], texts

    version, text, texts = await run(play)
    await hub.push(table_id, version, texts)
    hub.drive(table_id)
    return Response(text, media_type="application/json", headers=_HEADERS)


async def _games(request: Request, hub: Hub) -> Response:
    return JSONResponse(await run(_game_list), headers={**_HEADERS, "Cache-Control": "max-age=3600"})


def _game_list() -> dict[str, Any]:
    games = {}
    for name in ("gin", "oklahoma_gin", "oklahoma_rummy", "rummy", "kaluki"):
        options = game_options(name)
        games[name] = {
            o.name: {"default": o.default, "choices": list(o.choices) if o.choices else None, "doc": o.doc}
            for o in options.values()
            if isinstance(o.default, (int, str, bool, type(None)))
        }
    return {"games": games, "bots": list(BOT_AGENTS)}


async def _socket(socket: WebSocket, hub: Hub) -> None:
    table_id = socket.path_params["table"]
    try:
        seat = await run(hub.tables.seat, table_id, socket.query_params.get("token"))
    except RummykitError as error:
        # refused before the handshake: the client sees HTTP 403 or 404
        await socket.send_denial_response(_error(error))
        return
    await socket.accept()
    watcher = _Watcher(socket, seat)
    hub.watchers.setdefault(table_id, set()).add(watcher)
    try:
        version, texts = await run(hub.views, table_id, [seat])
        await watcher.send(version, texts[seat])
        hub.drive(table_id)
        while True:  # the client sends nothing the server needs: read until it goes
            await socket.receive_text()
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        watchers = hub.watchers.get(table_id)
        if watchers is not None:
            watchers.discard(watcher)
            if not watchers:
                del hub.watchers[table_id]


class _Limits:
    """Refuses a request whose declared body is too large before any handler reads it."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            for name, value in scope["headers"]:
                if name == b"content-length" and (not value.isdigit() or int(value) > MAX_BODY):
                    await _error(TooLarge(f"the request body is over {MAX_BODY} bytes"))(scope, receive, send)
                    return
        await self.app(scope, receive, send)


def create_app(storage: Storage | str, *, move_rate: float = MOVE_RATE, table_rate: float = TABLE_RATE) -> Starlette:
    """The server's ASGI application over ``storage`` (a :class:`Storage`, or the path of a
    SQLite database file, created if missing).  ``move_rate``: move requests a minute per seat
    token; ``table_rate``: new tables a minute per client address (0: no limit; see
    :class:`RateLimit`)."""
    moves = RateLimit(move_rate, "moves for this seat", "--move-rate")
    new_tables = RateLimit(table_rate, "new tables from this address", "--table-rate")
    store: Storage = SQLiteStorage(storage) if isinstance(storage, str) else storage
    hub = Hub(Tables(store), moves, new_tables)
    static = resources.files("rummykit.serve") / "static"

    async def page(request: Request) -> Response:
        return FileResponse(str(static / "index.html"), headers=_PAGE_HEADERS)

    async def socket(websocket: WebSocket) -> None:
        await _socket(websocket, hub)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        poller = asyncio.get_running_loop().create_task(hub.poll())
        try:
            yield
        finally:
            poller.cancel()
            for task in list(hub.drivers.values()):
                task.cancel()
            store.close()

    app = Starlette(
        routes=[
            Route("/", page),
            Route("/api/games", _handler(_games, hub)),
            Route("/api/tables", _handler(_create, hub), methods=["POST"]),
            Route("/api/tables/{table}", _handler(_info, hub)),
            Route("/api/tables/{table}/view", _handler(_view, hub)),
            Route("/api/tables/{table}/moves", _handler(_move, hub), methods=["POST"]),
            WebSocketRoute("/ws/tables/{table}", socket),
            Mount("/static", StaticFiles(directory=str(static)), name="static"),
        ],
        lifespan=lifespan,
    )
    app.add_middleware(_Limits)
    app.state.hub = hub
    return app


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    db: str = "rummykit.sqlite3",
    log_level: str = "info",
    move_rate: float = MOVE_RATE,
    table_rate: float = TABLE_RATE,
) -> None:
    """Run the server (uvicorn) until interrupted: with uvloop and httptools where installed (the
    serve extra brings them), and WebSocket messages uncompressed (a view is a few KB; deflate
    costs CPU on every push and a compressor's memory per socket)."""
    import uvicorn

    uvicorn.run(
        create_app(db, move_rate=move_rate, table_rate=table_rate),
        host=host,
        port=port,
        log_level=log_level,
        ws_max_size=MAX_BODY,
        ws_ping_interval=20,
        ws_per_message_deflate=False,
        timeout_keep_alive=30,
        h11_max_incomplete_event_size=MAX_BODY,
    )
