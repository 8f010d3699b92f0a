"""Write perft.json: perft counts from fixed positions of every game (README.md here).

    python tests/data/perft/make_perft.py

Each position is a deal and a prefix of actions chosen by a seeded policy
(mostly the greedy agent, sometimes a random legal action); the prefix is
stored as action ids, so the data does not depend on the policy.  The depth
is the deepest whose tree has at most KNOCK_NODES / TABLE_NODES nodes (a guess from
the growth of the counts).
"""

from __future__ import annotations

import json
import os
import random
import sys
from typing import Any

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(os.path.dirname(HERE)))  # tests/

from engine.test_perft import deal, is_table, knock_kind, perft, table_kind  # noqa: E402

import rummykit as rk  # noqa: E402

#: the most nodes (all depths together) of a count: the knock engine was Python, the table one C
KNOCK_NODES = 3_000
TABLE_NODES = 8_000
#: the deepest depth written
MAX_DEPTH = 9

KNOCK_GAMES: list[tuple[str, dict[str, Any]]] = [
    ("gin", {}),
    ("gin", {"first_turn_procedure": "normal", "big_gin_bonus": 31}),
    ("gin", {"stock_end_rule": "dead_at_2_last_chance"}),
    ("gin", {"auto_showdown": False}),
    ("oklahoma-gin", {}),
    ("oklahoma-gin", {"first_turn_procedure": "upcard_offer"}),
    ("oklahoma-gin", {"stock_end_rule": "reshuffle"}),
    ("oklahoma-gin", {"auto_showdown": False, "stock_end_rule": "dead_at_2_last_chance"}),
    ("oklahoma-rummy", {"num_players": 3}),
    ("oklahoma-rummy", {"num_players": 4}),
    ("oklahoma-rummy", {"num_players": 3, "auto_showdown": False}),
    ("partnership_oklahoma", {}),
]
TABLE_GAMES: list[tuple[str, dict[str, Any]]] = [
    ("rummy", {}),
    ("rummy", {"num_players": 4}),
    ("rummy", {"restock_method": "turn_over"}),
    ("rummy", {"num_players": 3, "restock_method": "block"}),
    ("kaluki", {}),
    ("kaluki", {"num_players": 3}),
    ("kalooki_51", {}),
]


def _is_knock(action: int) -> bool:
    return knock_kind(action) in ("knock", "big gin")


def policy(state: Any, rng: random.Random, greedy: Any, avoid_end: bool) -> int:
    """Mostly greedy, sometimes random; with ``avoid_end`` never a knock."""
    legal = state.legal_actions()
    if avoid_end and not is_table(state):
        legal = [a for a in legal if not _is_knock(a)] or legal
    choice = greedy(state) if rng.random() < 0.8 else rng.choice(legal)
    return choice if choice in legal else rng.choice(legal)


def position(game: str, options: dict[str, Any], seed: int, kind: str) -> dict[str, Any] | None:
    """A position of ``kind``: ``start``, ``mid`` (after 12-40 actions), ``knock``
    (a knock or big gin is legal to the mover), ``big_gin`` (big gin is legal), ``showdown`` (a manual showdown
    under way), ``late`` (stock of at most 3 cards, no knock yet) or
    ``deck`` (the start of an explicit deck).  None if the seed gives none."""
    rng = random.Random(seed * 1000 + len(kind))
    greedy = rk.make_agent("greedy")
    entry: dict[str, Any] = {"game": game, "options": options, "seed": seed, "dealer": seed % 2}
    if kind == "deck":
        entry["deck"] = list(rk.Game(game, **options).new_hand(seed=seed + 10**6, dealer=0).deck)
    entry["prefix"] = []
    state = deal(entry)
    table = is_table(state)
    steps = rng.randrange(12, 40) if kind == "mid" else (0 if kind in ("start", "deck") else 3000)
    for _ in range(steps):
        if state.is_terminal():
            if kind != "end":
                return None
            for _ in range(6):  # the hand ended first: a few actions before its end
                state.undo()
                entry["prefix"].pop()
            break
        legal = state.legal_actions()
        if kind == "knock" and any(_is_knock(a) for a in legal):
            break
        if kind == "big_gin" and any(knock_kind(a) == "big gin" for a in legal):
            break
        if kind == "showdown" and state.phase_name == "showdown":
            break
        if kind == "late" and len(state.stock) <= 3 and state.phase_name in ("draw", "last_chance"):
            break
        action = policy(state, rng, greedy, avoid_end=kind in ("late", "big_gin"))
        state.apply_action(action)
        entry["prefix"].append(action)
    if state.is_terminal() or (kind in ("knock", "big_gin", "showdown", "late") and steps == len(entry["prefix"])):
        return None
    entry["table"] = table
    entry["phase"] = state.phase_name
    entry["stock"] = len(state.stock)
    kindf = table_kind if table else knock_kind
    budget = TABLE_NODES if table else KNOCK_NODES
    depth = 1
    while True:
        counts, kinds = perft(state, depth, kindf)
        entry["depth"], entry["counts"], entry["kinds"] = depth, counts, kinds
        growth = counts[-1] / counts[-2] if depth > 1 and counts[-2] else float(counts[-1])
        if depth >= MAX_DEPTH or counts[-1] == 0 or sum(counts) + counts[-1] * growth > budget:
            break
        depth += 1
    return entry


def kinds_for(game: str, options: dict[str, Any]) -> list[str]:
    table = game in ("rummy", "kaluki", "kalooki_51")
    out = ["start"] if not options else []
    if game in ("gin", "rummy", "kaluki") and not options:
        out.append("deck")
    out += ["mid", "late"]
    if not table:
        out.append("knock")
    if options.get("auto_showdown") is False:
        out.append("showdown")
    if options.get("big_gin_bonus"):
        out.append("big_gin")
    return out + ["end"]


def main() -> None:
    entries = []
    for game, options in KNOCK_GAMES + TABLE_GAMES:
        for n, kind in enumerate(kinds_for(game, options)):
            for seed in range(1 + 7 * n, (400 if kind == "big_gin" else 40) + 7 * n):
                entry = position(game, options, seed, kind)
                if entry is not None:
                    break
            if entry is None:
                print(f"no {kind} position for {game} {options}")  # Kaluki: a hand ends before its stock does
                continue
            tag = "-".join(f"{k}={v}" for k, v in options.items())
            entry = {"id": f"{game}{'-' + tag if tag else ''}-{kind}-{seed}", **entry}
            entries.append(entry)
            print(entry["id"], entry["phase"], entry["stock"], entry["depth"], entry["counts"][-1], flush=True)
    with open(os.path.join(HERE, "perft.json"), "w", encoding="utf-8") as f:
        f.write("[\n")
        f.write(",\n".join(json.dumps(e, separators=(", ", ": ")) for e in entries))
        f.write("\n]\n")


if __name__ == "__main__":
    main()
