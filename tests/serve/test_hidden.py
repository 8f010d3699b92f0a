"""No answer or push to a seat holds a card that seat may not see: whole matches of all five
games through a real server, every seat a person driven by this test, every message scanned.

Beside the server, the test plays the same match with the library (same seed, same moves) and
knows every hidden card: the other seats' hands and the stock, less what the seat has seen
(its own cards, every card that was face up this hand, every hand at a showdown and at the hand's
end).  Each message must hold none of the cards left, and each seat's view must be the
library's view of that seat exactly.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import re
from typing import Any

import pytest
from serve_helpers import Server, need_serve

import rummykit as rk
from rummykit.agents import GreedyAgent
from rummykit.table.cards import card_type, type_text

need_serve()
connect = pytest.importorskip("websockets.sync.client").connect


#: RUMMYKIT_LONG=1: the games' own targets (longer matches)
LONG = os.environ.get("RUMMYKIT_LONG", "") not in ("", "0")

#: a card in text; not the card a joker stands for in a meld (``Jk=7D``: no 7D is shown)
CARD = re.compile(r"(?<![A-Za-z0-9=])(?:[2-9TJQKA][SHDC]|Jk)(?![A-Za-z0-9])")

#: the games with options that keep a match short (the long run plays the games' own targets)
GAMES = [
    ("gin", 2, {"target_score": 25}),
    ("oklahoma_gin", 2, {"target_score": 25}),
    ("oklahoma_rummy", 3, {"target_score": 25}),
    ("rummy", 3, {"target_score": 20}),
    ("kaluki", 3, {"elimination_threshold": 30}),
]


def _texts(state: Any, ids: Any) -> set[str]:
    if state.game.family == "knock":
        return {str(rk.Card(int(c))) for c in ids}
    return {type_text(card_type(int(c))) for c in ids}


def _strings(data: Any) -> list[str]:
    if isinstance(data, str):
        return [data]
    if isinstance(data, dict):
        return [s for k, v in data.items() for s in (k, *_strings(v))]
    if isinstance(data, list):
        return [s for v in data for s in _strings(v)]
    return []


def _cards_in(data: Any) -> set[str]:
    return {card for text in _strings(data) for card in CARD.findall(text)}


class Secrets:
    """What each seat may not know in the hand being played (reset at each new hand)."""

    def __init__(self, match: Any) -> None:
        self.match = match
        self.n = match.state.n
        self.public: set[str] = set()
        self.own: list[set[str]] = [set() for _ in range(self.n)]
        self.observe()

    def observe(self) -> None:
        state = self.match.state
        self.public |= _texts(state, state.discards)
        for meld in getattr(state, "table", ()):  # table games: the melds on the table
            self.public |= {type_text(card_type(int(c))) for c in meld.cards}
        for seat in range(self.n):
            self.own[seat] |= {str(c) for c in state.hand(seat)}
        if state.is_terminal() or state.phase_name == "showdown":
            for seat in range(self.n):
                self.public |= {str(c) for c in state.hand(seat)}

    def hidden(self, seat: int | None) -> set[str]:
        state = self.match.state
        cards = _texts(state, state.stock)
        for other in range(self.n):
            if other != seat:
                cards |= {str(c) for c in state.hand(other)}
        known = self.public | (self.own[seat] if seat is not None else set())
        return cards - known


def _choose(state: Any, legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    """A legal action: mostly the greedy agent's (hands end sooner), else a random one."""
    if rng.random() < 0.75:
        chosen = GreedyAgent()(state)
        return next(a for a in legal if a["id"] == chosen)
    return rng.choice(legal)


def _check(message: Any, secrets_: Secrets, seat: int | None, game: str) -> None:
    leaked = _cards_in(message) & secrets_.hidden(seat)
    where = {k: v for k, v in message.items() if _cards_in(v) & leaked} if leaked else {}
    assert not leaked, f"seat {seat} was shown {sorted(leaked)} in {game}: {where}"


def _play_match(server: Server, game: str, n: int, options: dict[str, Any], seed: int, max_moves: int) -> int:
    seats = [{"type": "human"}] * n
    table, tokens = server.create(game, seats, options=options, seed=seed)
    mirror = rk.Match(game, num_players=n, seed=seed, **options)
    mirror.deal()
    secrets_ = Secrets(mirror)
    rng = random.Random(seed)
    moves = ends = 0
    with contextlib.ExitStack() as stack:
        url = f"ws://127.0.0.1:{server.port}/ws/tables/{table}"
        sockets = [stack.enter_context(connect(f"{url}?token={t}", open_timeout=10)) for t in tokens]
        watcher = stack.enter_context(connect(url, open_timeout=10))
        while True:
            views: list[Any] = []
            for seat, socket in [*enumerate(sockets), (None, watcher)]:
                pushed = json.loads(socket.recv(timeout=20))
                fetched = server.view(table, tokens[seat] if seat is not None else None)
                assert pushed == fetched, "a push differs from the view"
                assert fetched == json.loads(json.dumps(mirror.view(seat))), "the server's view differs"
                _check(fetched, secrets_, seat, game)
                views.append(fetched)
            if mirror.is_over or moves >= max_moves:
                break
            mover = mirror.state.current_player
            action = _choose(mirror.state, views[mover]["legal"], rng)
            status, answer = server.move(table, tokens[mover], action["id"], key="action")
            assert status == 200, answer
            mirror.state.play(action["id"], player=mover)
            secrets_.observe()
            if mirror.state.is_terminal():  # the hand-end screen: every hand shown, the stock not
                mirror.finish_hand()
                for seat, token in [*enumerate(tokens), (None, None)]:
                    status, info = server.request("GET", f"/api/tables/{table}" + (f"?token={token}" if token else ""))
                    assert status == 200 and info["last_hand"] == json.loads(json.dumps(mirror.view(seat)))
                    _check(info, secrets_, seat, game)
                ends += 1
                if not mirror.is_over:
                    mirror.deal()
                secrets_ = Secrets(mirror)
            assert answer == json.loads(json.dumps(mirror.view(mover)))
            _check(answer, secrets_, mover, game)
            moves += 1
    assert ends >= 1 and (mirror.is_over or moves >= max_moves)
    return moves


@pytest.mark.parametrize("game, n, options", GAMES, ids=[g[0] for g in GAMES])
def test_no_hidden_cards(server: Server, game: str, n: int, options: dict[str, Any]) -> None:
    moves = _play_match(server, game, n, options if not LONG else {}, seed=7, max_moves=100_000)
    assert moves > 10
    print(game, moves, "moves")
