"""Write the golden hand records in this folder: ``python tests/data/golden/make_golden.py``.

Each hand is dealt from a fixed deck (``random.Random(deck_seed)``) with a
fixed dealer and restock seed, and played by a simple deterministic greedy
policy.  For each hand two files are written: ``NAME.json``, the record
exactly as :func:`rummykit.knock.record.to_json` writes it, and
``NAME.txt``, a human-readable trace (the deal, each action with the seat
and the public state after it, the showdown and the points).  In a trace,
``[restock N]`` marks a stock draw that first shuffled the discard pile
(all but its top card) into the empty stock.
``tests/knock/test_records.py`` replays every record, checks its stored
result, and checks that this script still writes exactly these files.
"""

from __future__ import annotations

import os
import random
import sys
from typing import Any, NamedTuple

import rummykit as rk
from rummykit.knock.actions import (
    BIG_GIN,
    DONE,
    DRAW_STOCK,
    KNOCK,
    LAYOFF,
    MELD,
    MELD_TABLE,
    PASS,
    TAKE,
    Action,
)
from rummykit.knock.record import to_json

HERE = os.path.dirname(os.path.abspath(__file__))


class Spec(NamedTuple):
    """One golden hand: the game, the deal and how the players play."""

    name: str
    game: str
    options: tuple[tuple[str, Any], ...] = ()
    deck_seed: int = 0
    dealer: int = 0
    shuffle_seed: int = 0
    knock_at: int = 99  # knock once the deadwood after the discard is at most this (and legal); -1: never
    explicit_melds: bool = False  # knock showing the legal arrangement with the most deadwood


SPECS = [
    Spec("gin_1", "gin", deck_seed=100, dealer=0, shuffle_seed=11),
    Spec("gin_2", "gin", deck_seed=2, dealer=1, shuffle_seed=12, knock_at=0),
    Spec("gin_3", "gin", deck_seed=3, dealer=0, shuffle_seed=13, explicit_melds=True),
    Spec("gin_4", "gin", deck_seed=4, dealer=0, shuffle_seed=14, knock_at=-1),  # nobody knocks: a dead hand
    Spec("gin_5", "gin", (("auto_showdown", False),), deck_seed=3, dealer=0, shuffle_seed=15),  # declared showdown
    Spec("oklahoma_gin_1", "oklahoma-gin", deck_seed=5, dealer=0, shuffle_seed=21),
    Spec("oklahoma_gin_2", "oklahoma-gin", deck_seed=6, dealer=1, shuffle_seed=22, knock_at=0),
    Spec("oklahoma_gin_3", "oklahoma-gin", deck_seed=7, dealer=0, shuffle_seed=23, explicit_melds=True),
    Spec("oklahoma_gin_4", "oklahoma-gin", deck_seed=8, dealer=1, shuffle_seed=24, knock_at=2),
    Spec("oklahoma_rummy_3p_1", "oklahoma-rummy", (("num_players", 3),), deck_seed=9, dealer=0, shuffle_seed=31),
    Spec(
        "oklahoma_rummy_3p_2",
        "oklahoma-rummy",
        (("num_players", 3),),
        deck_seed=108,
        dealer=0,
        shuffle_seed=108,
        knock_at=0,
    ),
    Spec(
        "oklahoma_rummy_3p_3",
        "oklahoma-rummy",
        (("num_players", 3),),
        deck_seed=11,
        dealer=2,
        shuffle_seed=33,
        explicit_melds=True,
    ),
    Spec(
        "oklahoma_rummy_3p_4",
        "oklahoma-rummy",
        (("num_players", 3),),
        deck_seed=12,
        dealer=0,
        shuffle_seed=34,
        knock_at=4,
    ),
]


# --- the players ----------------------------------------------------------------


def _deadwoods(state: rk.KnockState) -> dict[int, int]:
    """Deadwood after each possible discard of the player to act."""
    return {int(c): d for c, d in rk.discard_deadwoods(state.hands[state.player], aces=state.rules.aces).items()}


def _take_helps(state: rk.KnockState) -> bool:
    hand, top, aces = state.hands[state.player], state.discards[-1], state.rules.aces
    forbidden = top if state.rules.forbid_discarding_taken_card else None
    return rk.best_discard(hand | 1 << top, forbidden=forbidden, aces=aces).deadwood < rk.deadwood(hand, aces=aces)


def _explicit_arrangement(state: rk.KnockState, card: int) -> rk.Arrangement:
    """The knocker's legal arrangement with the most deadwood (ties: the last)."""
    rules = state.rules
    bound = 0 if state.gin_only else state.limit - (1 if rules.knock_compare == "lt" else 0)
    final = state.hands[state.player] & ~(1 << card)
    return rk.arrangements(final, max_deadwood=bound, aces=rules.aces)[-1]


def choose(state: rk.KnockState, spec: Spec) -> tuple[int, rk.Arrangement | None]:
    """The greedy policy: take a discard that lowers the deadwood, knock as
    soon as allowed (down to ``spec.knock_at``), else discard the card that
    leaves the least deadwood (ties: the highest card id)."""
    legal = state.legal_actions()
    if state.phase_name == "showdown":
        return _declare(state, legal), None
    if BIG_GIN in legal:
        return BIG_GIN, None
    if DRAW_STOCK not in legal and TAKE in legal:  # an offer or the last-chance discard
        return (TAKE if state.phase_name == "last_chance" or _take_helps(state) else PASS), None
    if legal == [PASS] or legal == [DRAW_STOCK]:
        return legal[0], None
    if DRAW_STOCK in legal:
        return (TAKE if TAKE in legal and _take_helps(state) else DRAW_STOCK), None
    after = _deadwoods(state)
    knocks = sorted((after[a - KNOCK], -a, a) for a in legal if KNOCK <= a < DRAW_STOCK)
    if knocks and (knocks[0][0] <= spec.knock_at or state.phase_name == "knock_only"):
        action = knocks[0][2]
        return action, _explicit_arrangement(state, action - KNOCK) if spec.explicit_melds else None
    discards = sorted((after[a], -a, a) for a in legal if a < KNOCK)
    return discards[0][2], None


def _declare(state: rk.KnockState, legal: list[int]) -> int:
    """A defender in a manual showdown: the first lay-off, then the melds of
    the best arrangement of the undeclared cards, then done."""
    layoffs = [a for a in legal if LAYOFF <= a < DONE]
    if layoffs:
        return layoffs[0]
    sd = state.showdown
    assert sd is not None
    undeclared = state.hands[state.player] & ~sd.used[state.player]
    melds = {MELD_TABLE[a - MELD]: a for a in legal if MELD <= a < LAYOFF}
    for meld in rk.best_melds(undeclared, aces=state.rules.aces).melds:
        if meld.mask in melds:
            return melds[meld.mask]
    return DONE


def deal(spec: Spec) -> rk.KnockState:
    """The hand's fresh deal."""
    deck = list(range(52))
    random.Random(spec.deck_seed).shuffle(deck)
    state = rk.Game(spec.game, **dict(spec.options)).new_hand(seed=0, dealer=spec.dealer, deck=deck)
    state = state.with_fields(shuffle_seed=spec.shuffle_seed)
    return state


def apply(state: rk.KnockState, action: int, melds: rk.Arrangement | None) -> None:
    """Apply a chosen action (an explicit knock with ``melds``)."""
    if melds is not None:
        state.knock(action - KNOCK, melds=melds.melds)
    else:
        state.play(action)


def play(spec: Spec) -> rk.KnockState:
    """The hand played to its end."""
    state = deal(spec)
    while not state.is_terminal():
        apply(state, *choose(state, spec))
        if len(state.history) > 2_000:
            raise RuntimeError(f"{spec.name}: the hand does not end")
    return state


# --- the trace ---------------------------------------------------------------------


def _cards(mask: int) -> str:
    return rk.cards_text(mask) or "-"


def _public(state: rk.KnockState) -> str:
    top = state.top_discard
    pile = f"pile {top} ({len(state.discards)})" if top is not None else "pile empty"
    nxt = "hand over" if state.is_terminal() else f"next seat {state.player} {state.phase_name.replace('_', ' ')}"
    return f"{pile}, stock {len(state.stock)}; {nxt}"


def trace(spec: Spec, final: rk.KnockState) -> str:
    """A readable account of the hand ``final`` (played from ``spec``)."""
    rules = final.rules
    state = deal(spec)
    given = ", ".join(f"{k}={v!r}" for k, v in rules.given)
    lines = [
        f"{spec.name}: {rules.name}" + (f" ({given})" if given else ""),
        (
            f"dealer seat {state.dealer}, shuffle_seed {state.shuffle_seed}, upcard {state.upcard}: knock limit "
            f"{'gin only' if state.gin_only else state.limit}, multiplier {state.multiplier}"
        ),
        "",
        "deal:",
    ]
    lines += [f"  seat {s}: {_cards(h)}" for s, h in enumerate(state.hands)]
    lines += [f"  upcard {state.upcard}, stock {len(state.stock)}", "", "actions:"]
    melds = final.result.knocker_melds if final.result is not None and final.shown_melds is not None else None
    for i, action in enumerate(final.history):
        seat, restocks = state.player, state.restocks
        text = str(Action(action))
        if action == TAKE:
            text += f" {rk.Card(state.discards[-1])}"
        apply(state, action, melds if KNOCK <= action < DRAW_STOCK else None)
        if state.restocks > restocks:
            text += f" [restock {state.restocks}]"
        lines.append(f"  {i + 1:3d}. seat {seat}: {text:<22} | {_public(state)}")
    assert state.result == final.result and state.hands == final.hands
    lines += ["", "showdown:"]
    r = final.result
    assert r is not None
    if r.outcome == "dead":
        lines.append("  dead hand: no points")
    else:
        how = " (explicit arrangement)" if final.shown_melds is not None else ""
        knock = next((a for a in final.history if KNOCK <= a < DRAW_STOCK), final.history[-1])
        declared = "" if final.rules.auto_showdown else ", the defenders declare (auto_showdown off)"
        lines.append(f"  seat {r.knocker} knocks with {Action(knock)}{how}{declared}: {r.knocker_melds}")
        for s in range(final.n):
            melded = " ".join(f"[{m}]" for m in r.melds[s]) or "-"
            laid = "; ".join(f"{' '.join(map(str, lo.cards))} on [{lo.meld}]" for lo in r.layoffs[s])
            lines.append(
                f"  seat {s}: {_cards(final.hands[s])} | melds {melded}"
                + (f" | lays off {laid}" if laid else "")
                + f" | deadwood {r.deadwood[s]}"
            )
        lines.append(f"  outcome {r.outcome}, winner seat {r.winner}")
    lines.append(
        "  points: " + ", ".join(f"seat {s} {p}" for s, p in enumerate(r.points)) + f" (multiplier {r.multiplier})"
    )
    return "\n".join(lines) + "\n"


def files() -> dict[str, str]:
    """Every golden file's name and text."""
    out = {}
    for spec in SPECS:
        state = play(spec)
        out[spec.name + ".json"] = to_json(state) + "\n"
        out[spec.name + ".txt"] = trace(spec, state)
    return out


def main() -> None:
    for name, text in files().items():
        with open(os.path.join(HERE, name), "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
    print(f"wrote {len(SPECS)} hands to {HERE}", file=sys.stderr)


if __name__ == "__main__":
    main()
