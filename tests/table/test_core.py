"""The C table engine (csrc/src/table.c behind rummykit.table.state.TableState)
against the plain Python engine (tests/reference/table.py), in lockstep.

For every option of rummykit.table.rules that play reads (one changed at a
time from the defaults), kalooki_51, other player counts and a few option
mixes, seeded random hands are played by both engines: at every step the
legal action lists must be identical (same ids, same order) and after every
action every field of the state (hands, known cards, stock, discard pile,
table, per-turn fields, counters, the result).  Half of the hands prefer
melds, lay-offs, releases and taking the discard, which reaches the
openings, joker releases and builds that uniform play seldom does.
Crafted positions (sets and runs with jokers on the table, the naturals
that release them in the player's hand) check every legal action of every
state on copies.  The default run plays 10 hands of each configuration;
RUMMYKIT_LONG=1 (or -m long) plays 60 of each.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from reference.table import _FIELDS as REFERENCE_FIELDS
from reference.table import ReferenceTableState
from table_helpers import position

from rummykit.table.game import TableGame
from rummykit.table.melds import RUN, SET, TableMeld
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
#: every field an action may change (the reference's undo snapshot)
_FIELDS = REFERENCE_FIELDS


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
    _run(*config, hands=10)


@pytest.mark.long
@pytest.mark.parametrize("config", CONFIGS, ids=[_id(c) for c in CONFIGS])
def test_c_engine_matches_python_long(config: tuple[str, dict[str, Any]]) -> None:
    _run(*config, hands=60)


_CRAFTED: list[tuple[str, dict[str, Any]]] = [
    ("kaluki", {}),
    ("kalooki_51", {}),
    ("kaluki", dict(two_joker_set_release="one_natural", max_build_per_run_end=-1)),
    ("kaluki", dict(unopened_may_release_joker=True, building_counts_toward_opening=True)),
    ("kaluki", dict(hunt_requires_opening_min=False, go_out_requires_discard=False, joker_discard_allowed=False)),
    ("kaluki", dict(ace_low_runs=True, num_players=3)),
    ("rummy", dict(allow_wraparound=True)),
    ("rummy", dict(ace_rank="high_or_low", taken_discard_must_be_melded=True)),
]
_SETTABLE = tuple(f for f in _FIELDS if f != "result")


def _crafted(game: TableGame, seed: int) -> ReferenceTableState:
    """A reference position at a draw: one to four table melds (sets and
    runs, with jokers in Kaluki) made of cards from the stock, the player
    holding some of the naturals that build on them or release their jokers."""
    rules, geo = game.rules, game.geo
    n = rules.num_players
    rng = random.Random(seed)
    deck = list(range(rules.deck_size))
    rng.shuffle(deck)
    py = ReferenceTableState(game, deck, 0, rng.getrandbits(62))  # type: ignore[arg-type]
    p = py.player
    stock = set(py.stock)
    jokers = [c for c in range(104, rules.deck_size) if c in stock]
    rng.shuffle(jokers)

    def natural(t: int) -> int | None:
        for c in (t, t + 52) if rules.is_kaluki else (t,):
            if c in stock:
                stock.remove(c)
                return c
        return None

    table = []
    for _ in range(rng.randint(1, 4)):
        owner = rng.randrange(n)
        if rng.random() < 0.5:
            rank = rng.randrange(13)
            suits = rng.sample(range(4), rng.randint(1, 3) if jokers else 3)
            wanted = 3 - len(suits) if len(suits) < 3 else rng.randint(0, 1) * bool(jokers)
            if wanted > len(jokers):
                continue
            cards = [natural(s * 13 + rank) for s in suits]
            if None in cards:
                stock.update(c for c in cards if c is not None)
                continue
            for _ in range(wanted):
                cards.append(jokers.pop())
                stock.discard(cards[-1])
            rng.shuffle(cards)
            table.append(TableMeld(SET, rank, 0, tuple(cards), owner))  # type: ignore[arg-type]
        else:
            suit, length = rng.randrange(4), rng.randint(3, 6)
            start = rng.randrange(13 if geo.wrap else geo.npos - length + 1)
            run: list[int] = []
            for pos in geo.positions(start, length):
                if jokers and rng.random() < 0.3:
                    run.append(jokers.pop())
                    stock.discard(run[-1])
                else:
                    c = natural(geo.type_at(suit, pos))
                    if c is None:
                        break
                    run.append(c)
            if len(run) == length and any(c < 104 for c in run):
                table.append(TableMeld(RUN, suit, start, tuple(run), owner))
            else:
                stock.update(run)
    hand = py.hands[p]
    for m in table:
        for t in m.represents(geo) if m.kind == RUN else [s * 13 + m.key for s in range(4)]:
            if rng.random() < 0.6:
                c = natural(t)
                if c is not None:
                    hand |= 1 << c
    if jokers and rng.random() < 0.5:
        hand |= 1 << jokers[-1]
        stock.discard(jokers[-1])
    py.hands = py.hands[:p] + (hand,) + py.hands[p + 1 :]
    py.stock = tuple(c for c in py.stock if c in stock)
    py.table = tuple(table)
    owners = 0
    for m in table:
        owners |= 1 << m.owner
    py.played = owners
    if rules.is_kaluki:
        py.opened = owners | (rng.getrandbits(n) if rng.random() < 0.5 else 0) | (rng.random() < 0.7) << p
        py.played |= py.opened
    py._start_turn()
    py._legal = None
    return py


def _every_action(game: TableGame, seed: int, steps: int) -> None:
    py_state = _crafted(game, seed)
    c_state = game.new_hand(seed=0, dealer=0)
    c_state = c_state.with_fields(
        **{name: getattr(py_state, name) for name in _SETTABLE}, shuffle_seed=py_state.shuffle_seed
    )
    _walk_every_action(py_state, c_state, random.Random(seed), steps, f"{game!r} crafted {seed}")


def _walk_every_action(
    py_state: ReferenceTableState, c_state: TableState, rng: random.Random, steps: int, where: str
) -> None:
    """Both engines in lockstep, each legal action tried on copies at every step."""
    for step in range(steps):
        assert _fields(c_state) == _fields(py_state), f"{where} step {step}"
        legal = py_state.legal_actions()
        assert c_state.legal_actions() == legal, f"{where} step {step}: {py_state.history}"
        if not legal:
            assert c_state.is_terminal(), f"{where} step {step}: no legal action before the end"
            return
        for action in legal:
            py_next, c_next = py_state.clone(), c_state.clone()
            py_next.apply_action(action)
            c_next.apply_action(action)
            assert _fields(c_next) == _fields(py_next), f"{where} step {step} action {action}"
        plays = [a for a in legal if a >= 64]
        action = rng.choice(plays) if plays and rng.random() < 0.7 else rng.choice(legal)
        py_state.apply_action(action)
        c_state.apply_action(action)


@pytest.mark.parametrize("hand", ["8D 9D TD 8D TD 7C 2S 4H 6S KC", "8D 9D TD QD 7C 2S 4H 6S KC"])
def test_unopened_release_positions_every_action(hand: str) -> None:
    """fuzz_table finding 4: a release is listed only if the joker can then be placed."""
    game = TableGame("kaluki", unopened_may_release_joker=True)
    c_state = position(game, [hand, "KC QC"], table=(("5C 6C Jk=7C", 1),), opened=0b10)
    py_state = ReferenceTableState(game, list(range(game.rules.deck_size)), 0, c_state.shuffle_seed)  # type: ignore[arg-type]
    for name in _SETTABLE:
        setattr(py_state, name, getattr(c_state, name))
    py_state._legal = None
    _walk_every_action(py_state, c_state, random.Random(4), 60, f"finding 4, {hand}")


@pytest.mark.parametrize(
    ("hand", "options", "opens"),
    [
        ("KS KH KD QS QH QD JS JH JD", {}, True),  # every card melds, 90 points: the opening must keep one back
        ("KS KH KD QS QH QD JS JH JD", {"go_out_requires_discard": False}, True),
        ("KS KH KD QS QH QD 9S 9H Jk", {}, True),
        ("KS KH KD 4C 5C 6C 2D 2H 2S", {}, True),
        ("KS KH KD 4C 5C 6C 2D 2H 2S", {"initial_meld_min": 51}, False),  # 51 only by melding every card
        ("TS JS QS KS 5D 5H 5C Jk 9D", {"initial_meld_min": 51}, True),
    ],
)
def test_unopened_openings_that_meld_every_card(hand: str, options: dict[str, Any], opens: bool) -> None:
    """Openings whose best melds use every card: the search that stops at the first
    collection worth enough (rk__multi_reaches) and its keep-one-back fallback."""
    game = TableGame("kaluki", **options)
    c_state = position(game, [hand, "KC QC"], opened=0b10)
    py_state = ReferenceTableState(game, list(range(game.rules.deck_size)), 0, c_state.shuffle_seed)  # type: ignore[arg-type]
    for name in _SETTABLE:
        setattr(py_state, name, getattr(c_state, name))
    py_state._legal = None
    assert any(not c_state.action_text(a).startswith("discard") for a in c_state.legal_actions()) == opens
    _walk_every_action(py_state, c_state, random.Random(5), 40, f"opening {hand} {options}")


def test_an_unopened_hunt_goes_out_with_the_meld_that_empties_the_hand() -> None:
    """fuzz_table finding (2026-12-04): without go_out_requires_discard and
    hunt_requires_opening_min, an unopened player who took AC and holds AC Jk Jk may go out
    by melding them (a hunt under the minimum); the meld that empties the hand was refused,
    which left the taken card to meld and no legal action at all."""
    options = {"go_out_requires_discard": False, "hunt_requires_opening_min": False, "joker_discard_allowed": False}
    game = TableGame("kaluki", **options)
    c_state = position(game, ["AC Jk Jk", "KC QC"], opened=0b10)
    ace = next(c for c in range(104) if c_state.hands[0] >> c & 1)
    c_state = c_state.with_fields(taken=0, taken_card=ace, must=0)
    assert [c_state.action_text(a) for a in c_state.legal_actions()] == ["meld AC Jk Jk", "meld Jk=QC Jk=KC AC"]
    py_state = ReferenceTableState(game, list(range(game.rules.deck_size)), 0, c_state.shuffle_seed)  # type: ignore[arg-type]
    for name in _SETTABLE:
        setattr(py_state, name, getattr(c_state, name))
    py_state._legal = None
    _walk_every_action(py_state, c_state, random.Random(6), 3, "hunt going out")
    assert c_state.is_terminal() and c_state.result is not None and c_state.result.outcome == "hunt"


@pytest.mark.parametrize("config", _CRAFTED, ids=[_id(c) for c in _CRAFTED])
def test_crafted_positions_every_action(config: tuple[str, dict[str, Any]]) -> None:
    game = TableGame(config[0], **config[1])
    for seed in range(25):
        _every_action(game, seed, 60)


@pytest.mark.long
@pytest.mark.parametrize("config", _CRAFTED, ids=[_id(c) for c in _CRAFTED])
def test_crafted_positions_every_action_long(config: tuple[str, dict[str, Any]]) -> None:
    game = TableGame(config[0], **config[1])
    for seed in range(25, 125):
        _every_action(game, seed, 200)
