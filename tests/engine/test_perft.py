"""Perft counts: the number of legal action sequences of
each depth from fixed positions, recomputed and compared with the data in
tests/data/perft/perft.json (columns: tests/data/perft/README.md).

A position is a deal (``Game(game, **options).new_hand(seed=seed,
dealer=dealer)``, or an explicit ``deck``) and a prefix of action ids
played from it; perft counts the leaves of the legal-action tree below it
(a terminal state before the depth counts nothing, like a mate in chess
perft).  The counts are recomputed with apply_action/undo, the last but
one depth again with clone() + apply_action, and the table games' counts
once more on the plain Python reference engine (tests/reference/table.py).
The knock games' counts were written by the Python knock engine
(rummykit.knock.state when the data was made): they pin its legal-action
sets for any later engine.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from typing import Any

import pytest

import rummykit as rk
from rummykit.knock import actions as knock_actions

DATA = os.path.join(os.path.dirname(os.path.dirname(__file__)), "data", "perft", "perft.json")

_K = knock_actions


def knock_kind(action: int) -> str:
    """The kind of a knock-game action id (tests/data/perft/README.md)."""
    if action < _K.KNOCK:
        return "discard"
    if action < _K.DRAW_STOCK:
        return "knock"
    if action == _K.DONE:
        return "done"
    if action >= _K.LAYOFF:
        return "lay off"
    if action >= _K.MELD:
        return "meld"
    return {_K.DRAW_STOCK: "draw", _K.TAKE: "take", _K.PASS: "pass", _K.BIG_GIN: "big gin"}[action]


def table_kind(action: int) -> str:
    from rummykit.table.actions import TableAction

    return TableAction.from_id(action).kind


def is_table(state: Any) -> bool:
    from rummykit.table.state import TableState

    return isinstance(state, TableState)


def deal(entry: dict[str, Any]) -> Any:
    """The entry's position: the deal, then its prefix of action ids."""
    game = rk.Game(entry["game"], **entry["options"])
    state = game.new_hand(seed=entry["seed"], dealer=entry["dealer"], deck=entry.get("deck"))
    for action in entry["prefix"]:
        state.apply_action(action)
    return state


def perft(state: Any, depth: int, kind: Callable[[int], str] | None = None) -> tuple[list[int], list[str]]:
    """The leaf counts at depths 1..depth below ``state`` (apply_action and
    undo), and the sorted kinds of the actions in the tree (with
    ``restock`` when a draw grew the stock, ``end`` when a line ended the
    hand) when ``kind`` is given."""
    counts = [0] * depth
    kinds: set[str] = set()

    def walk(level: int) -> None:
        legal = state.legal_actions()
        counts[level] += len(legal)
        if kind is None and level == depth - 1:
            return
        for action in legal:
            if kind is not None:
                kinds.add(kind(action))
                stock = len(state.stock)
            state.apply_action(action)
            if kind is not None:
                if len(state.stock) > stock:
                    kinds.add("restock")
                if state.is_terminal():
                    kinds.add("end")
            if level < depth - 1:
                walk(level + 1)
            state.undo()

    walk(0)
    return counts, sorted(kinds)


def perft_clone(state: Any, depth: int) -> int:
    """The leaf count at ``depth`` with clone() + apply_action (no undo)."""
    legal = state.legal_actions()
    if depth == 1:
        return len(legal)
    total = 0
    for action in legal:
        child = state.clone()
        child.apply_action(action)
        total += perft_clone(child, depth - 1)
    return total


def load() -> list[dict[str, Any]]:
    with open(DATA, encoding="utf-8") as f:
        entries: list[dict[str, Any]] = json.load(f)
    return entries


ENTRIES = load()


@pytest.mark.parametrize("entry", ENTRIES, ids=[e["id"] for e in ENTRIES])
def test_perft(entry: dict[str, Any]) -> None:
    state = deal(entry)
    assert state.phase_name == entry["phase"]
    assert len(state.stock) == entry["stock"]
    kind = table_kind if is_table(state) else knock_kind
    counts, kinds = perft(state, entry["depth"], kind)
    assert counts == entry["counts"]
    assert kinds == entry["kinds"]
    assert len(state.history) == len(entry["prefix"])  # undo put everything back
    if entry["depth"] > 1:
        assert perft_clone(state, entry["depth"] - 1) == entry["counts"][-2]


def _reference_depth(entry: dict[str, Any], most: int = 3000) -> int:
    """The deepest level whose count is at most ``most`` (the reference is slow)."""
    return max([1] + [d + 1 for d, c in enumerate(entry["counts"]) if c <= most])


@pytest.mark.parametrize(
    "entry",
    [e for e in ENTRIES if e["table"]],
    ids=[e["id"] for e in ENTRIES if e["table"]],
)
def test_perft_reference_table(entry: dict[str, Any]) -> None:
    """The table games' counts on the plain Python engine, from the same deck, seed and prefix."""
    from reference.table import ReferenceTableState

    live = deal(entry)
    ref = ReferenceTableState(live.game, list(live.deck), live.dealer, live.shuffle_seed)
    for action in entry["prefix"]:
        ref.apply_action(action)
    depth = _reference_depth(entry)
    counts, _ = perft(ref, depth)
    assert counts == entry["counts"][:depth]


def test_perft_data_covers_the_games() -> None:
    """Every game and option variant of the brief, with positions that reach
    knocks, showdowns, lay-offs, restocks and table melds."""
    games = {(e["game"], e["options"].get("num_players")) for e in ENTRIES}
    for game in [("gin", None), ("oklahoma-gin", None), ("oklahoma-rummy", 3), ("oklahoma-rummy", 4)]:
        assert game in games
    for game in [("rummy", None), ("rummy", 4), ("kaluki", None), ("kaluki", 3)]:
        assert game in games
    options = [e["options"] for e in ENTRIES]
    for option in [
        {"first_turn_procedure": "upcard_offer"},
        {"stock_end_rule": "dead_at_2_last_chance"},
        {"auto_showdown": False},
    ]:
        assert option in options
    assert any(e["game"] == "partnership_oklahoma" for e in ENTRIES)
    kinds = set().union(*(e["kinds"] for e in ENTRIES))
    for k in ["knock", "big gin", "meld", "lay off", "done", "restock", "end", "take", "pass", "release"]:
        assert k in kinds, k
    assert any(e.get("deck") for e in ENTRIES)
