"""The C table engine (csrc/src/table.c behind rummykit.table.state.TableState)
against the plain Python engine (tests/reference_table.py), in lockstep.

For every option of rummykit.table.rules that play reads (one changed at a
time from the defaults), kalooki_51, other player counts and a few option
mixes, seeded random hands are played by both engines: at every step the
legal action lists must be identical (same ids, same order) and after every
action every field of the state (hands, known cards, stock, discard pile,
table, per-turn fields, counters, the result).  Half of the hands prefer
melds, lay-offs, releases and taking the discard, which reaches the
openings, joker releases and builds that uniform play seldom does.
RUMMYKIT_LONG=1 (or -m long) plays ten times as many hands.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from reference_table import ReferenceTableState

from rummykit.table.game import TableGame
from rummykit.table.state import TableState

_RUMMY: dict[str, list[Any]] = {
    "ace_rank": ["high", "high_or_low"],
    "allow_wraparound": [True],
    "ace_value": [11, 15],
    "no_go_out_first_turn": [True],
    "max_melds_per_turn": [1],
    "taken_discard_must_be_melded": [True],
    "restock_method": ["turn_over", "block"],
    "max_restocks": [0, 1],
    "max_turns": [30],
    "go_out_requires_discard": [True],
    "forbid_discarding_taken_card": [False],
    "num_players": [3, 4, 5, 6],
}
_KALUKI: dict[str, list[Any]] = {
    "kaluki_jokers": [4],
    "initial_meld_min": [51],
    "building_counts_toward_opening": [True],
    "unopened_discard_draw": ["forbidden", "free"],
    "first_turn_upcard_free": [True],
    "ace_low_runs": [True],
    "joker_penalty": [25],
    "two_joker_set_release": ["one_natural"],
    "max_build_per_run_end": [-1],
    "unopened_may_release_joker": [True],
    "hunt_allows_building": [False],
    "hunt_requires_opening_min": [False],
    "joker_discard_allowed": [False],
    "forbid_discarding_taken_card": [False],
    "go_out_requires_discard": [False],
    "max_restocks": [0, 1],
    "max_turns": [40],
    "num_players": [3, 5],
}
_MIXES: list[tuple[str, dict[str, Any]]] = [
    (
        "kaluki",
        dict(
            two_joker_set_release="one_natural",
            max_build_per_run_end=-1,
            hunt_requires_opening_min=False,
            go_out_requires_discard=False,
            unopened_may_release_joker=True,
            building_counts_toward_opening=True,
        ),
    ),
    (
        "kalooki_51",
        dict(
            hunt_requires_opening_min=False,
            unopened_may_release_joker=True,
            hunt_allows_building=False,
            first_turn_upcard_free=True,
            unopened_discard_draw="free",
            num_players=4,
        ),
    ),
    ("kaluki", dict(kaluki_jokers=4, ace_low_runs=True, joker_discard_allowed=False, num_players=3)),
    ("rummy", dict(allow_wraparound=True, taken_discard_must_be_melded=True, go_out_requires_discard=True)),
    (
        "rummy",
        dict(ace_rank="high_or_low", max_melds_per_turn=1, no_go_out_first_turn=True, restock_method="turn_over"),
    ),
]
CONFIGS: list[tuple[str, dict[str, Any]]] = (
    [("rummy", {}), ("kaluki", {}), ("kalooki_51", {})]
    + [("rummy", {k: v}) for k, vs in _RUMMY.items() for v in vs]
    + [("kaluki", {k: v}) for k, vs in _KALUKI.items() for v in vs]
    + _MIXES
)
#: steps after which a hand is left unfinished (max_turns = -1 is not among the configs; this is a guard)
_MAX_STEPS = 20_000
_FIELDS = (
    "phase",
    "player",
    "hands",
    "known",
    "stock",
    "discards",
    "table",
    "opened",
    "played",
    "taken",
    "must",
    "open_value",
    "turn_melds",
    "ends",
    "pending",
    "fresh",
    "built_other",
    "turns",
    "restocks",
    "result",
)


def _fields(state: Any) -> dict[str, Any]:
    out = {name: getattr(state, name) for name in _FIELDS}
    for name in ("hands", "known", "stock", "discards", "table", "ends"):
        out[name] = tuple(out[name])
    for name in ("phase", "fresh", "built_other"):
        out[name] = int(out[name])
    return out


def _lockstep(game: TableGame, seed: int, bias: float) -> int:
    """Play one seeded hand with both engines; returns the steps played."""
    rng = random.Random(seed)
    deck = list(range(game.rules.deck_size))
    rng.shuffle(deck)
    dealer = rng.randrange(game.rules.num_players)
    shuffle_seed = rng.getrandbits(62)
    c_state = TableState(game, deck, dealer, shuffle_seed)
    py_state = ReferenceTableState(game, deck, dealer, shuffle_seed)  # type: ignore[arg-type]
    where = f"{game!r} seed={seed} bias={bias}"
    for step in range(_MAX_STEPS):
        expected, got = _fields(py_state), _fields(c_state)
        if expected != got:
            diff = {k: (expected[k], got[k]) for k in _FIELDS if expected[k] != got[k]}
            pytest.fail(f"{where} step {step}: state differs (python, C): {diff}; history {py_state.history}")
        legal = py_state.legal_actions()
        c_legal = c_state.legal_actions()
        if legal != c_legal:
            pytest.fail(
                f"{where} step {step}: legal actions differ: only python {sorted(set(legal) - set(c_legal))}, "
                f"only C {sorted(set(c_legal) - set(legal))}, lengths {len(legal)} {len(c_legal)}; "
                f"history {py_state.history}"
            )
        if not legal:
            assert c_state.is_terminal()
            assert c_state.returns() == py_state.returns()
            return step
        plays = [a for a in legal if a >= 64]
        if plays and rng.random() < bias:
            action = rng.choice(plays)
        elif 54 in legal and rng.random() < bias:
            action = 54
        else:
            action = rng.choice(legal)
        py_state.apply_action(action)
        c_state.apply_action(action)
        if len(py_state._stack) > 1000:  # the reference keeps every snapshot for undo
            py_state._stack.clear()
            c_state._clear_undo()
    return _MAX_STEPS


def _run(name: str, options: dict[str, Any], hands: int) -> None:
    game = TableGame(name, **options)
    steps = 0
    for i in range(hands):
        steps += _lockstep(game, 1000 * i + 17, 0.8 if i % 2 else 0.0)
    assert steps > hands * 10


def _id(config: tuple[str, dict[str, Any]]) -> str:
    name, options = config
    return name + "".join(f"-{k}={v}" for k, v in options.items())


@pytest.mark.parametrize("config", CONFIGS, ids=[_id(c) for c in CONFIGS])
def test_c_engine_matches_python(config: tuple[str, dict[str, Any]]) -> None:
    _run(*config, hands=30)


@pytest.mark.long
@pytest.mark.parametrize("config", CONFIGS, ids=[_id(c) for c in CONFIGS])
def test_c_engine_matches_python_long(config: tuple[str, dict[str, Any]]) -> None:
    _run(*config, hands=200)
