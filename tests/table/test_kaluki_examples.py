"""docs/rules.md, Kaluki examples: the Kaluki worked examples, with exact numbers."""

from __future__ import annotations

import pytest
from table_helpers import position, texts

import rummykit as rk
from rummykit.table.match import TableMatch
from rummykit.table.scoring import score_hand

ALL = 0b11111  # every seat opened


@pytest.mark.parametrize(("n", "stock"), [(2, 79), (3, 66), (4, 53), (5, 40)])
def test_ex_k01_stock_sizes(n: int, stock: int) -> None:
    state = rk.Game("kaluki", num_players=n).new_hand(seed=1)
    assert len(state.stock) == stock and all(h.bit_count() == 13 for h in state.hands)


def test_ex_k02_meld_values() -> None:
    game = rk.Game("kaluki")
    assert game.meld_value("TS JS QS") + game.meld_value("5H 5D 5C") == 45
    assert game.meld_value("TS JS QS") + game.meld_value("3H 3D 3C") == 39
    assert game.meld_value("QS KS Jk=AS") + game.meld_value("3H 3D 3C") == 40
    assert game.meld_value("7C 8C 9C") == 24
    assert game.meld_value("2S Jk=3S 4S 5S") == 14  # the lowest run starts at 2 (no ace at 1)
    assert game.meld_value("QH KH AH") == 31
    with pytest.raises(rk.InvalidMeldError):
        game.meld_value("AD 2D 3D")
    assert rk.Game("kaluki", ace_low_runs=True).meld_value("AD 2D 3D") == 6
    with pytest.raises(rk.InvalidMeldError):
        game.meld_value("7H 7H 7D")  # two copies of a card in one set
    with pytest.raises(rk.InvalidMeldError):
        game.meld_value("Jk Jk Jk")


def test_ex_k02_openings() -> None:
    pytest.importorskip("rummykit.multideck")
    game = rk.Game("kaluki")
    ok = position(game, ["TS JS QS 5H 5D 5C 2C 9D", "KC QC"], opened=0)
    ok.play("meld TS JS QS")
    assert not ok.is_opened(0) and ok.legal_actions() == [ok.parse_action("meld 5C 5D 5H")]
    ok.play("meld 5C 5D 5H")
    assert ok.is_opened(0) and ok.open_value == 45
    low = position(game, ["TS JS QS 3H 3D 3C 2C 9D", "KC QC"], opened=0)
    assert not any(t.startswith("meld") for t in texts(low))  # 39 < 40
    with pytest.raises(rk.IllegalActionError, match="initial_meld_min=40"):
        low.play("meld TS JS QS")
    joker = position(game, ["QS KS Jk 3H 3D 3C 2C 9D", "KC QC"], opened=0)
    joker.play("meld QS KS Jk=AS")
    joker.play("meld 3C 3D 3H")
    assert joker.is_opened(0)
    building = position(game, ["7C 8C 9C TH 2D", "KC QC"], table=(("7H 8H 9H", 1),), opened=0b10)
    assert texts(building) == ["discard 7C", "discard 8C", "discard 9C", "discard 2D", "discard TH"]
    with pytest.raises(rk.IllegalActionError, match="before opening"):
        building.play("build TH on 1 high")


def test_ex_k03_discard_pick_up_before_opening() -> None:
    pytest.importorskip("rummykit.multideck")
    game = rk.Game("kaluki")
    yes = position(game, ["9S 9D JC QC KC 2H 4S", "KC QC"], discards="9H", phase="draw", opened=0)
    assert texts(yes) == ["draw", "take"]
    yes.play("take")
    yes.play("meld JC QC KC")
    with pytest.raises(rk.IllegalActionError, match="used in the opening"):
        yes.play("discard 2H")  # 30 so far, and the taken 9H must be in the opening
    yes.play("meld 9D 9H 9S")
    assert yes.is_opened(0) and yes.open_value == 57
    short = position(game, ["9S 9D 2C 3C 4C 7H KS", "KC QC"], discards="9H", phase="draw", opened=0)
    with pytest.raises(rk.IllegalActionError, match="only to open"):
        short.play("take")
    unused = position(game, ["JC QC KC 8S 8D 8H 2D", "KC QC"], discards="9H", phase="draw", opened=0)
    assert texts(unused) == ["draw"]


def test_ex_k04_set_jokers() -> None:
    game = rk.Game("kaluki")
    state = position(game, ["JC JS 7S 7D 2H", "KC QC"], table=(("JH JD Jk", 1),), opened=ALL)
    assert "release JC JS from 1" in texts(state)
    state.play("release JC JS from 1")
    assert state.table_text()[0] == "JD JH JC JS" and state.pending == 1
    assert not any(t.startswith("discard") for t in texts(state))
    with pytest.raises(rk.IllegalActionError, match="released joker"):
        state.play("discard 2H")
    state.play("meld 7S 7D Jk")
    assert state.pending == 0 and "discard 2H" in texts(state)
    closed = position(game, ["JC 2H 5D", "KC QC"], table=(("JH JD Jk", 1),), opened=ALL)
    closed.play("lay off JC on 1")
    assert closed.table_text()[0] == "JD JH Jk JC"
    assert not any(t.startswith("release") for t in texts(closed))
    two = position(game, ["JC JD JS 2H 5D", "KC QC"], table=(("JH Jk Jk", 1), ("4S 5S 6S", 1)), opened=ALL)
    releases = [t for t in texts(two) if t.startswith("release")]
    assert releases == [
        "release JC JD from 1",
        "release JC JS from 1",
        "release JD JS from 1",
        "release JC JD JS from 1",
    ] or sorted(releases) == sorted(
        ["release JC JD from 1", "release JC JS from 1", "release JD JS from 1", "release JC JD JS from 1"]
    )
    two.play("release JC JD JS from 1")
    assert two.pending == 2 and two.table_text()[0] == "JH JC JD JS"
    one = position(
        rk.Game("kaluki", two_joker_set_release="one_natural"),
        ["JC 2H 5D", "KC QC"],
        table=(("JH Jk Jk", 1), ("4S 5S 6S", 1)),
        opened=ALL,
    )
    one.play("release JC from 1")
    assert one.table_text()[0] == "JH Jk JC" and one.pending == 1


def test_ex_k05_run_joker() -> None:
    game = rk.Game("kaluki")
    state = position(game, ["6C 2H 5D KD", "KC QC"], table=(("5C Jk=6C 7C", 1),), opened=ALL)
    state.play("release 6C from 1")
    assert state.table_text()[0] == "5C 6C 7C" and state.pending == 1
    legal = texts(state)
    assert legal == ["lay off Jk on 1 low", "lay off Jk on 1 high"] or sorted(legal) == sorted(
        ["lay off Jk on 1 low", "lay off Jk on 1 high"]
    )
    state.play("lay off Jk on 1 high")
    assert state.table_text()[0] == "5C 6C 7C Jk=8C" and state.ends[0] == 1 << 4
    assert "discard 2H" in texts(state)
    keep = position(game, ["6C 9D 9S 4H", "KC QC"], table=(("5C Jk=6C 7C", 1),), opened=ALL)
    keep.play("release 6C from 1")
    keep.play("meld 9D 9S Jk")
    assert keep.table_text()[1] == "9D 9S Jk"
    nowhere = position(game, ["6C 2H", "KC QC"], table=(("5C Jk=6C 7C 8C 9C TC JC QC KC AC 2C 3C 4C", 1),), opened=ALL)
    assert not any(t.startswith("release") for t in texts(nowhere))


def test_ex_k06_two_cards_per_end_per_turn() -> None:
    game = rk.Game("kaluki")
    state = position(game, ["JS QS KS 7S 6S 2D", "KC QC"], table=(("8S 9S TS", 1),), opened=ALL)
    state.play("build JS on 1 high")
    state.play("build QS on 1 high")
    state.play("build 7S on 1 low")
    state.play("build 6S on 1 low")
    assert state.table_text()[0] == "6S 7S 8S 9S TS JS QS"
    with pytest.raises(rk.IllegalActionError, match="max_build_per_run_end"):
        state.play("build KS on 1 high")
    free = position(
        rk.Game("kaluki", max_build_per_run_end="unlimited"),
        ["JS QS KS 2D", "KC QC"],
        table=(("8S 9S TS", 1),),
        opened=ALL,
    )
    for card in ("JS", "QS", "KS"):
        free.play(f"build {card} on 1 high")
    assert free.table_text()[0] == "8S 9S TS JS QS KS"
    new_run = position(game, ["JS QS KS 2D", "KC QC"], table=(("8S 9S TS", 1),), opened=ALL)
    assert "meld JS QS KS" in texts(new_run)


def _call_off(hunt: bool, **options: object) -> rk.TableResult:
    game = rk.Game("kaluki", num_players=3, **options)
    state = position(
        game, ["2C", "KS 7D Jk", "AH 3C"], opened=ALL if not hunt else 0b110, played=0b111 if not hunt else 0b110
    )
    state.play("discard 2C")
    assert state.result is not None
    return state.result


def test_ex_k07_calling_off() -> None:
    result = _call_off(False)
    assert result.outcome == "call_off" and result.penalties == (0, 32, 14) and result.bonuses == (20, 0, 0)
    assert _call_off(False, joker_penalty=25).penalties == (0, 42, 14)
    assert rk.Game("kaluki").card_penalty("KS 7D Jk") == 32


def test_ex_k08_hunt() -> None:
    result = _call_off(True)
    assert result.outcome == "hunt" and result.penalties == (0, 64, 28) and result.bonuses == (40, 0, 0)
    assert _call_off(True, hunt_penalty_mode="plus_25").penalties == (0, 57, 39)
    assert result.returns == (0, -64, -28)
    assert _call_off(True, kaluki_bonus_accounting="subtract_from_penalty").returns == (40, -64, -28)


def _match_after(before: list[int], outcome: str, **options: object) -> TableMatch:
    match = TableMatch("kaluki", [lambda s: 0] * 3, seed=0, first_dealer=0, num_players=3, **options)
    match._scores = list(before)
    match._record(score_hand(match.rules, outcome, 0, [0, 32, 14]))
    return match


def test_ex_k09_elimination() -> None:
    m = _match_after([0, 130, 120], "call_off")
    assert m.scores == (0, 162, 134) and m.active == [0, 2]
    m = _match_after([0, 130, 120], "hunt")
    assert m.scores == (0, 194, 148) and m.active == [0, 2]
    assert _match_after([0, 130, 136], "call_off").active == [0]
    assert _match_after([0, 130, 136], "call_off", elimination_compare="gt").active == [0, 2]
    done = _match_after([0, 130, 136], "call_off")
    assert done.result is not None and done.result.winner == 0
    assert done.result.ranking == ((0,), (2,), (1,))  # same hand: lower penalty ranks higher


def test_ex_k11_restock_keeps_the_top_discard() -> None:
    game = rk.Game("kaluki")
    state = position(game, ["2C 5D", "KC QC"], discards="4H 9C KD 2S", phase="draw", opened=ALL)
    state = state.with_fields(stock=())
    state.play("draw")
    assert [str(state.top_discard)] == ["2S"] and len(state.discards) == 1 and len(state.stock) == 2
