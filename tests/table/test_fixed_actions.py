"""The table games' fixed action space (rummykit.table.fixed) against the engine, over random
hands of every table-game option set (each base game and preset, every player count, every
other value of every option with choices): every legal move has exactly one fixed id (no two
share one: the count of such merges is measured and must stay 0), the mask is exactly the
legal moves' ids, each id resolves back to its move, and its factored heads say what the engine
id says (kind, card, slot, end, suits, rank, jokers, run suit, start and length, read off
TableAction).  Also the codec's round trips, the ids' text and bad input.  A few capped hands
per option set by default; RUMMYKIT_LONG=1 plays whole hands, 300 of each base game."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest
from long_runs import LONG

from rummykit import Game
from rummykit.errors import IllegalActionError, InvalidOptionError
from rummykit.table import fixed
from rummykit.table.actions import MELD_RUN, TableAction, parse_table_action
from rummykit.table.family import TABLE

HEAD = {name: h for h, (name, _) in enumerate(fixed.HEADS)}


def option_sets() -> Iterator[tuple[str, dict[str, Any]]]:
    """Each table game (base games and presets) with its defaults, each player count, and each
    other value of each option that has choices (booleans: the other value)."""
    for name in (*TABLE.base_games, *TABLE.presets):
        options = TABLE.options(name)
        yield name, {}
        players = options["num_players"]
        for n in range(players.minimum, players.maximum + 1):
            if n != players.default:
                yield name, {"num_players": n}
        for key, option in options.items():
            values = option.choices or ((False, True) if option.type is bool else ())
            for value in values:
                if value != option.default:
                    yield name, {key: value}


OPTION_SETS = list(option_sets())


def expected_heads(action_id: int) -> dict[str, int]:
    """What an engine id is, read off TableAction (not the C codec): the heads of its fixed id."""
    a = TableAction(action_id)
    if a.kind == "discard":
        return {"kind": 0, "card": action_id}
    if a.kind in ("draw", "take"):
        return {"kind": 1 if a.kind == "draw" else 2}
    if a.kind == "lay off":
        return {"kind": 3, "card": a.card, "slot": a.slot, "end": a.end}  # type: ignore[dict-item]
    if a.kind == "release":
        if a.card is not None:
            return {"kind": 4, "card": a.card, "slot": a.slot}  # type: ignore[dict-item]
        return {"kind": 5, "slot": a.slot, "suits": a.suits}  # type: ignore[dict-item]
    p = a.pattern
    assert p is not None
    if action_id < MELD_RUN:  # a set: key rank, suits, span jokers
        return {"kind": 6, "rank": p.key, "suits": p.suits, "jokers": p.span}
    return {"kind": 7, "suit": p.key, "start": p.suits, "length": p.span - 3}


class Tally:
    states = 0
    moves = 0
    merged = 0  # legal moves that shared a fixed id with another legal move
    kinds: set[int] = set()


def check_state(state: Any) -> None:
    legal = state.legal_actions()
    ids = [fixed.fixed_id(a) for a in legal]
    Tally.states += 1
    Tally.moves += len(legal)
    Tally.merged += len(ids) - len(set(ids))
    assert fixed.legal(state) == sorted(set(ids))
    assert np.flatnonzero(fixed.mask(state)).tolist() == sorted(set(ids))
    heads = fixed.factor(ids)
    for action_id, fid, row in zip(legal, ids, heads):
        assert fixed.engine_id(legal, fid) == action_id
        want = expected_heads(action_id)
        assert {name: int(row[HEAD[name]]) for name in want} == want, (action_id, fid)
        assert all(row[h] == -1 for name, h in HEAD.items() if name not in want)
        Tally.kinds.add(int(row[0]))
    assert fixed.unfactor(heads).tolist() == ids


def play(game: Game, seed: int, max_steps: int | None) -> None:
    """One hand, checked at every node: moves half greedy (so melds, lay-offs and releases come),
    half uniformly random."""
    rng = np.random.default_rng(seed)
    state = game.new_hand(seed=seed)
    steps = 0
    while not state.is_terminal() and (max_steps is None or steps < max_steps):
        check_state(state)
        legal = state.legal_actions()
        state.apply_action(TABLE.greedy(state, None) if rng.random() < 0.5 else int(rng.choice(legal)))
        steps += 1


@pytest.mark.parametrize(("name", "options"), OPTION_SETS, ids=[f"{n}-{o}" for n, o in OPTION_SETS])
def test_every_legal_move_has_one_fixed_id(name: str, options: dict[str, Any]) -> None:
    game = Game(name, **options)
    hands = (300 if not options else 20) if LONG else 1
    for seed in range(hands):
        play(game, seed, None if LONG else 40)


def test_no_moves_merged_and_every_kind_seen() -> None:
    """Long hands of the base games: every kind of move comes up, and no two legal moves of a
    state ever shared a fixed id (the tally covers the option sets' hands run before too)."""
    for name, options in (("rummy", {"num_players": 3}), ("kaluki", {}), ("kalooki_51", {"num_players": 3})):
        game = Game(name, **options)
        for seed in range(40 if LONG else 2):
            play(game, 1000 + seed, None)
    print(f"fixed ids: {Tally.states} states, {Tally.moves} legal moves, {Tally.merged} merged")
    assert Tally.merged == 0
    assert Tally.kinds >= {0, 1, 2, 3, 6, 7}  # releases need a joker on the table: see below


def test_releases() -> None:
    """Joker releases (run and set) from the Kaluki examples resolve and factor as the engine says."""
    game = Game("kaluki", unopened_may_release_joker=True)
    found = set()
    for seed in range(400):
        state = game.new_hand(seed=seed)
        rng = np.random.default_rng(seed)
        while not state.is_terminal() and len(found) < 2:
            legal = state.legal_actions()
            for a in legal:
                if TableAction(a).kind == "release":
                    check_state(state)
                    found.add(TableAction(a).card is None)
            state.apply_action(TABLE.greedy(state, None) if rng.random() < 0.8 else int(rng.choice(legal)))
        if len(found) == 2:
            break
    assert found == {False, True}


def test_layout_and_round_trips() -> None:
    assert fixed.NUM_ACTIONS == 8463 == Game("kaluki").num_fixed_actions == Game("rummy").num_distinct_actions
    assert Game("gin").num_fixed_actions == 686  # the knock games keep their engine ids
    assert (fixed.LAYOFF, fixed.RELEASE_RUN, fixed.RELEASE_SET, fixed.MELD_SET, fixed.MELD_RUN) == (
        55,
        55 + 40 * 106,
        55 + 40 * 106 + 40 * 52,
        55 + 40 * 106 + 40 * 52 + 40 * 16,
        55 + 40 * 106 + 40 * 52 + 40 * 16 + 13 * 64,
    )
    assert [size for _, size in fixed.HEADS] == [8, 53, 40, 2, 16, 13, 4, 4, 14, 11]
    assert fixed.KIND_HEADS["meld_run"] == ("kind", "suit", "start", "length")
    # every id that is a move's: factor and unfactor are inverse; the rest refuse
    ids = np.arange(fixed.NUM_ACTIONS)
    moves = []
    for i in ids:
        try:
            moves.append(int(fixed.factor([i])[0, 0] >= 0) and int(i))
        except IllegalActionError:
            pass
    assert len(moves) == 55 + 4240 + 2080 + 600 + 13 * 29 + 616
    assert fixed.unfactor(fixed.factor(moves)).tolist() == moves
    # engine ids: each maps into the space; a run's joker masks all map to its one id
    assert fixed.fixed_id(TableAction("meld 7C 7D 7H").id) == fixed.MELD_SET + 6 * 64 + 0b0111 * 4
    geo = Game("kaluki").geo
    plain = parse_table_action("meld 7H 8H 9H", geo, 2)
    joker = parse_table_action("meld 7H Jk=8H 9H", geo, 2)
    assert plain != joker and fixed.fixed_id(plain) == fixed.fixed_id(joker)
    assert fixed.engine_id(sorted([plain, joker]), fixed.fixed_id(joker)) == min(plain, joker)
    assert fixed.engine_id([plain], fixed.NUM_ACTIONS) is None


def test_text() -> None:
    game = Game("kaluki")
    assert fixed.fixed_text(game, 53) == "draw"
    assert fixed.fixed_text(game, 12) == "discard KC"
    assert fixed.fixed_text(game, fixed.LAYOFF + (2 * 53 + 52) * 2 + 1) == "lay off Jk on 3 high"
    assert fixed.fixed_text(game, fixed.RELEASE_SET + 4 * 16 + 0b0011) == "release naturals of CD from 5"
    assert fixed.fixed_text(game, fixed.MELD_SET + 6 * 64 + 0b0011 * 4 + 1) == "meld 7C 7D Jk"
    run = fixed.fixed_id(TableAction.from_id(Game("kaluki").new_hand(seed=0).parse_action("meld 7H 8H 9H")).id)
    assert fixed.fixed_text(game, run) == "meld 7H 8H 9H"
    with pytest.raises(IllegalActionError, match="no move of kaluki"):
        fixed.fixed_text(game, fixed.NUM_ACTIONS - 1)  # a 13-card run from the last position


def test_bad_input() -> None:
    with pytest.raises(IllegalActionError):
        fixed.fixed_id(55)  # between take and the lay-offs: no engine id
    with pytest.raises(IllegalActionError):
        fixed.fixed_id(2**40)
    with pytest.raises(IllegalActionError):
        fixed.fixed_id(True)
    with pytest.raises(IllegalActionError, match="not a fixed action id"):
        fixed.factor([fixed.NUM_ACTIONS])
    with pytest.raises(IllegalActionError, match="no move's"):
        fixed.factor([fixed.MELD_SET])  # a set of no suits
    with pytest.raises(InvalidOptionError):
        fixed.factor([[1, 2]])
    with pytest.raises(IllegalActionError, match="row 1"):
        fixed.unfactor([[1] + [-1] * 9, [4, 52, 0] + [-1] * 7])  # a run release of a joker
    with pytest.raises(InvalidOptionError):
        fixed.unfactor(np.zeros((2, 3), np.int32))
    with pytest.raises(IllegalActionError):
        fixed.unfactor([[0, 2**40] + [-1] * 8])


def reachable(mask: np.ndarray, reverse: bool = False) -> set[int]:
    """The fixed ids reached by choosing the kind, then the kind's heads one at a time, each from
    its head_mask given the ones chosen before (in KIND_HEADS order, or reversed)."""
    found: set[int] = set()

    def walk(chosen: dict[str, int], heads: tuple[str, ...]) -> None:
        if not heads:
            row = np.full(len(fixed.HEADS), -1, np.int32)
            for name, value in chosen.items():
                row[HEAD[name]] = value
            found.add(int(fixed.unfactor(row)[0]))
            return
        values = np.flatnonzero(fixed.head_mask(mask, heads[0], chosen))
        assert values.size, (chosen, heads)  # no dead end
        for v in values:
            walk({**chosen, heads[0]: int(v)}, heads[1:])

    for kind in np.flatnonzero(fixed.head_mask(mask, "kind")):
        heads = fixed.KIND_HEADS[fixed.KINDS[kind]][1:]
        walk({"kind": int(kind)}, heads[::-1] if reverse else heads)
    return found


HEAD_GAMES = [("rummy", n) for n in range(2, 7)] + [("kaluki", n) for n in range(2, 6)]


@pytest.mark.parametrize(("name", "players"), HEAD_GAMES, ids=[f"{n}-{p}p" for n, p in HEAD_GAMES])
def test_head_masks_reach_exactly_the_legal_ids(name: str, players: int) -> None:
    """Over random states, the conditional head masks reach every legal fixed id and nothing else,
    head by head in either order (each state's whole tree of choices), and a batched sample of
    every head in turn (-1 for a head the row's kind does not use) is always a legal id."""
    from rummykit.vector import VectorGame

    rows = 8
    vg = VectorGame(name, rows, seed=players, num_players=players)
    rng = np.random.default_rng(players)
    kinds_seen: set[int] = set()
    for step in range(200 if LONG else 24):
        mask = vg.legal_mask
        for i in range(rows) if step % 6 == 1 or LONG else ():
            legal = set(np.flatnonzero(mask[i]).tolist())
            assert reachable(mask[i]) == legal == reachable(mask[i], reverse=True)
        chosen: dict[str, np.ndarray] = {}
        for h, (head, _) in enumerate(fixed.HEADS):
            m = fixed.head_mask(mask, head, chosen)
            used = np.array([head in fixed.KIND_HEADS[fixed.KINDS[k]] for k in chosen.get("kind", np.zeros(rows, int))])
            assert (m.any(axis=1) == used).all() if h else m.any(axis=1).all()
            pick = np.where(m.any(axis=1), (m * rng.random(m.shape)).argmax(axis=1), -1)
            chosen[head] = pick
        ids = fixed.unfactor(np.stack([chosen[head] for head, _ in fixed.HEADS], axis=1))
        assert mask[np.arange(rows), ids].all()
        kinds_seen |= set(chosen["kind"].tolist())
        vg.step(ids)
    assert kinds_seen >= {0, 1, 2}


def test_head_mask_shapes_and_bad_input() -> None:
    state = Game("rummy").new_hand(seed=1)
    mask = fixed.mask(state)
    assert fixed.head_mask(mask, "kind").shape == (8,)
    assert fixed.head_mask(np.stack([mask, np.zeros_like(mask)]), "card", {"kind": [0, 0]}).shape == (2, 53)
    assert not fixed.head_mask(mask, "card", {"kind": 1}).any()  # a draw has no card
    assert fixed.head_mask(mask, "kind", {"card": -1}).nonzero()[0].tolist() == [1, 2]
    for bad_mask in (mask.astype(np.int8), mask[:-1], mask[None, None]):
        with pytest.raises(InvalidOptionError):
            fixed.head_mask(bad_mask, "kind")
    with pytest.raises(InvalidOptionError):
        fixed.head_mask(mask, "colour")
    with pytest.raises(InvalidOptionError):
        fixed.head_mask(mask, "card", {"colour": 1})
    with pytest.raises(InvalidOptionError):
        fixed.head_mask(mask, "card", {"kind": [0, 1]})  # one row
    with pytest.raises(InvalidOptionError):
        fixed.head_mask(mask, "card", {"kind": 0.5})
