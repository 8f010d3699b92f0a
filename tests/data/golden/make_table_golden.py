"""Write the golden hand records of the table games (Rummy, Kaluki) in
``tests/data/golden/table/``: ``python tests/data/golden/make_table_golden.py``.

The sibling of ``make_golden.py`` (the knock games).  Each hand is dealt
from a fixed deck (``random.Random(deck_seed)`` shuffles the physical card
ids), with a fixed dealer and restock seed, and played by
:class:`rummykit.agents.GreedyAgent` at every seat.  For each hand two files
are written: ``NAME.json``, the record exactly as
:func:`rummykit.table.record.to_json` writes it, and ``NAME.txt``, a
readable trace (the deal, each action with the seat and the public state
after it, then the table, the hands left and the result).  In a trace,
``[restock N]`` marks a draw that first put N cards of the discard pile
into the empty stock.  ``tests/table/test_records.py`` replays every
record, checks its stored result, and checks that this script still writes
exactly these files.
"""

from __future__ import annotations

import os
import random
import sys
from typing import Any, NamedTuple

import rummykit as rk
from rummykit.agents import GreedyAgent
from rummykit.table.actions import TAKE
from rummykit.table.record import to_json
from rummykit.table.state import TableState

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "table")


class Spec(NamedTuple):
    """One golden hand: the game, the deal and the restock seed."""

    name: str
    game: str
    options: tuple[tuple[str, Any], ...] = ()
    deck_seed: int = 0
    dealer: int = 0
    shuffle_seed: int = 0


SPECS = [
    Spec("rummy_2p_1", "rummy", deck_seed=1, dealer=0, shuffle_seed=11),
    Spec("rummy_2p_2", "rummy", deck_seed=2, dealer=1, shuffle_seed=12),
    Spec("rummy_2p_3", "rummy", (("rummy_scoring", "penalty"),), deck_seed=3, dealer=0, shuffle_seed=13),
    Spec("rummy_4p_1", "rummy", (("num_players", 4),), deck_seed=4, dealer=0, shuffle_seed=21),
    Spec("rummy_4p_2", "rummy", (("num_players", 4),), deck_seed=5, dealer=3, shuffle_seed=22),
    Spec(
        "rummy_4p_3",
        "rummy",
        (("num_players", 4), ("restock_method", "turn_over")),
        deck_seed=6,
        dealer=1,
        shuffle_seed=23,
    ),
    Spec("kaluki_2p_1", "kaluki", deck_seed=7, dealer=0, shuffle_seed=31),
    Spec("kaluki_2p_2", "kaluki", deck_seed=8, dealer=1, shuffle_seed=32),
    Spec("kaluki_2p_3", "kaluki", deck_seed=9, dealer=0, shuffle_seed=33),
    Spec("kaluki_4p_1", "kaluki", (("num_players", 4),), deck_seed=10, dealer=0, shuffle_seed=41),
    Spec("kaluki_4p_2", "kaluki", (("num_players", 4),), deck_seed=11, dealer=2, shuffle_seed=42),
    Spec("kaluki_4p_3", "kaluki", (("num_players", 4),), deck_seed=12, dealer=1, shuffle_seed=43),
]


def deal(spec: Spec) -> TableState:
    """The hand's fresh deal."""
    game = rk.Game(spec.game, **dict(spec.options))
    deck = list(range(game.rules.deck_size))
    random.Random(spec.deck_seed).shuffle(deck)
    state: TableState = game.new_hand(seed=0, dealer=spec.dealer, deck=deck)
    state = state.with_fields(shuffle_seed=spec.shuffle_seed)
    return state


def play(spec: Spec) -> TableState:
    """The hand played to its end by the greedy agent."""
    state = deal(spec)
    agent = GreedyAgent()
    while not state.is_terminal():
        state.apply_action(agent(state))
        if len(state.history) > 3_000:
            raise RuntimeError(f"{spec.name}: the hand does not end")
    return state


def _public(state: TableState) -> str:
    top = state.top_discard
    pile = f"pile {top} ({len(state.discards)})" if top is not None else "pile empty"
    nxt = "hand over" if state.is_terminal() else f"next seat {state.player} {state.phase_name}"
    return f"{pile}, stock {len(state.stock)}, table {len(state.table)}; {nxt}"


def trace(spec: Spec, final: TableState) -> str:
    """A readable account of the hand ``final`` (played from ``spec``)."""
    rules = final.rules
    state = deal(spec)
    given = ", ".join(f"{k}={v!r}" for k, v in rules.given)
    lines = [
        f"{spec.name}: {rules.name}" + (f" ({given})" if given else ""),
        f"dealer seat {state.dealer}, shuffle_seed {state.shuffle_seed}, upcard {state.top_discard}",
        "",
        "deal:",
    ]
    lines += [f"  seat {s}: {state.hand_text(s)}" for s in range(state.n)]
    lines += [f"  upcard {state.top_discard}, stock {len(state.stock)}", "", "actions:"]
    for i, action in enumerate(final.history):
        seat, restocks, pile = state.player, state.restocks, len(state.discards)
        text = state.action_text(action)
        if action == TAKE:
            text += f" {state.top_discard}"
        state.play(action)
        if state.restocks > restocks:
            text += f" [restock {pile - (rules.restock_method != 'turn_over')}]"
        lines.append(f"  {i + 1:3d}. seat {seat}: {text:<28} | {_public(state)}")
    assert state.result == final.result and state.hands == final.hands
    r = final.result
    assert r is not None
    lines += ["", "table:"]
    lines += [f"  {i + 1}. seat {m.owner}: {m.text(final.geo)}" for i, m in enumerate(final.table)] or ["  -"]
    lines += ["", "result:"]
    lines += [f"  seat {s}: {final.hand_text(s) or '-'} (value {r.hand_values[s]})" for s in range(final.n)]
    lines.append(f"  outcome {r.outcome}, winner {'none' if r.winner is None else f'seat {r.winner}'}")
    for name in ("points", "penalties", "bonuses", "returns"):
        lines.append(f"  {name}: " + ", ".join(f"seat {s} {v}" for s, v in enumerate(getattr(r, name))))
    return "\n".join(lines) + "\n"


def files() -> dict[str, str]:
    """Every golden file's name and text."""
    out = {}
    for spec in SPECS:
        state = play(spec)
        out[spec.name + ".json"] = to_json(state)
        out[spec.name + ".txt"] = trace(spec, state)
    return out


def main() -> None:
    os.makedirs(HERE, exist_ok=True)
    for name, text in files().items():
        with open(os.path.join(HERE, name), "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
    print(f"wrote {len(SPECS)} hands to {HERE}", file=sys.stderr)


if __name__ == "__main__":
    main()
