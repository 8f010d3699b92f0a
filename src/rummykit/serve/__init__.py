"""``rummykit serve``: a game server and a browser table (``pip install "rummykit[serve]"``).

* :mod:`rummykit.serve.app`: the Starlette application (HTTP JSON API, WebSocket pushes, the
  browser page) and :func:`serve`, which runs it with uvicorn;
* :mod:`rummykit.serve.tables`: the tables (the one module that uses the match API);
* :mod:`rummykit.serve.storage`: where tables are kept (SQLite; the :class:`Storage` interface);
* ``static/``: the browser table (HTML, CSS and JavaScript, no build step).

docs/serve.md describes the API and how to run and extend the server.
"""

from __future__ import annotations

from typing import Any

__all__ = ["create_app", "serve"]

_MISSING = 'rummykit serve needs the serve extra: pip install "rummykit[serve]" (Starlette and uvicorn)'


def _app() -> Any:
    try:
        from rummykit.serve import app
    except ImportError as error:
        if (error.name or "").split(".")[0] in ("starlette", "uvicorn", "anyio", "websockets"):
            from rummykit.errors import InvalidOptionError

            raise InvalidOptionError(_MISSING) from None
        raise
    return app


def create_app(storage: Any, **limits: float) -> Any:
    """The server's ASGI application (see :func:`rummykit.serve.app.create_app`; ``limits``:
    ``move_rate``, ``table_rate``)."""
    return _app().create_app(storage, **limits)


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    db: str = "rummykit.sqlite3",
    log_level: str = "info",
    move_rate: float = 600,
    table_rate: float = 30,
) -> None:
    """Run the server until interrupted (see :func:`rummykit.serve.app.serve`): ``move_rate``
    move requests a minute per seat token, ``table_rate`` new tables a minute per client
    address (0: no limit)."""
    _app().serve(host=host, port=port, db=db, log_level=log_level, move_rate=move_rate, table_rate=table_rate)
