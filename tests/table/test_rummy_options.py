"""Every Rummy option of docs/rules.md, Dealing and turn options, Rummy options changes what it should."""

from __future__ import annotations

import pytest
from table_helpers import position, texts

import rummykit as rk
from rummykit.table.match import TableMatch
from rummykit.table.scoring import score_hand


def _melds(state: rk.TableState) -> list[str]:
    return [t for t in texts(state) if t.startswith("meld")]


@pytest.mark.parametrize(
    ("ace_rank", "low", "high"), [("low", True, False), ("high", False, True), ("high_or_low", True, True)]
)
def test_ace_rank(ace_rank: str, low: bool, high: bool) -> None:
    state = position(rk.Game("rummy", ace_rank=ace_rank), ["AS 2S 3S QS KS 9D", "KC QC"])
    melds = _melds(state)
    assert ("meld AS 2S 3S" in melds) == low
    assert ("meld QS KS AS" in melds) == high
    assert "meld KS AS 2S" not in melds


def test_allow_wraparound() -> None:
    state = position(rk.Game("rummy", allow_wraparound=True), ["AS 2S KS 9D 4C", "KC QC"])
    assert "meld KS AS 2S" in _melds(state)
    state.play("meld KS AS 2S")
    state = state.with_fields(stock=state.stock)  # lay-offs go round the corner too
    assert state.table_text() == ["KS AS 2S"]


@pytest.mark.parametrize(("value", "total"), [(1, 11), (11, 21), (15, 25)])
def test_ace_value(value: int, total: int) -> None:
    assert rk.Game("rummy", ace_value=value).card_penalty("AS KD") == total


def test_block_ends_the_hand_when_the_stock_is_empty() -> None:
    for scoring in ("winner_collects", "penalty"):
        game = rk.Game("rummy", restock_method="block", rummy_scoring=scoring)
        state = position(game, ["AC 5C", "KC QC"], discards="4H 9C", phase="draw", played=1)
        state = state.with_fields(stock=state.stock[:1])
        state.play("draw")
        state.play("discard AC")
        assert state.result is not None and state.result.outcome == "blocked"
        values = state.result.hand_values
        assert values[1] == 20 and state.result.winner is None
        assert state.result.penalties == ((0, 0) if scoring == "winner_collects" else values)


@pytest.mark.parametrize("limit", [0, 1])
def test_max_restocks(limit: int) -> None:
    game = rk.Game("rummy", max_restocks=limit)
    state = position(game, ["AC 5C", "KC QC"], discards="4H 9C KD 2S", phase="draw", played=1)
    state = state.with_fields(stock=())
    state.play("draw")
    assert (state.result is not None and state.result.outcome == "dead") == (limit == 0)


def test_impossible_restock_is_a_dead_hand() -> None:
    state = position(rk.Game("rummy"), ["AC 5C", "KC QC"], discards="2S", phase="draw", played=1)
    state = state.with_fields(stock=())
    state.play("draw")
    assert state.result is not None and state.result.outcome == "dead" and state.returns() == [0, 0]


def test_go_out_requires_discard() -> None:
    free = position(rk.Game("rummy"), ["7H 8H 9H", "KC QC"], played=1)
    assert "meld 7H 8H 9H" in texts(free)
    strict = position(rk.Game("rummy", go_out_requires_discard=True), ["7H 8H 9H", "KC QC"], played=1)
    assert "meld 7H 8H 9H" not in texts(strict)
    with pytest.raises(rk.IllegalActionError):
        strict.play("meld 7H 8H 9H")


def test_no_go_out_first_turn() -> None:
    game = rk.Game("rummy", no_go_out_first_turn=True)
    first = position(game, ["7H 8H 9H 2C", "KC QC"], turns=0)
    assert "meld 7H 8H 9H" not in texts(first) and "discard 2C" in texts(first)
    later = position(game, ["7H 8H 9H 2C", "KC QC"], turns=2)
    assert "meld 7H 8H 9H" in texts(later)
    plain = position(rk.Game("rummy"), ["7H 8H 9H 2C", "KC QC"], turns=0)
    assert "meld 7H 8H 9H" in texts(plain)


def test_max_melds_per_turn() -> None:
    game = rk.Game("rummy", max_melds_per_turn=1)
    state = position(game, ["7H 8H 9H 2C 2D 2S KD", "KC QC"])
    state.play("meld 7H 8H 9H")
    assert _melds(state) == []
    assert "meld 2C 2D 2S" in _melds(
        position(rk.Game("rummy", max_melds_per_turn="unlimited"), ["2C 2D 2S KD", "KC QC"])
    )


def test_taken_discard_must_be_melded() -> None:
    game = rk.Game("rummy", taken_discard_must_be_melded=True)
    state = position(game, ["7H 8H 2C 5D", "KC QC"], discards="KD 9H", phase="draw")
    state.play("take")
    assert texts(state) == ["meld 7H 8H 9H"]
    with pytest.raises(rk.IllegalActionError, match="taken_discard_must_be_melded"):
        state.play("discard 2C")
    useless = position(game, ["7H 8H 2C 5D", "KC QC"], discards="9H KD", phase="draw")
    assert texts(useless) == ["draw"]
    plain = position(rk.Game("rummy"), ["7H 8H 2C 5D", "KC QC"], discards="9H KD", phase="draw")
    assert texts(plain) == ["draw", "take"]


def test_forbid_discarding_taken_card_false() -> None:
    game = rk.Game("rummy", forbid_discarding_taken_card=False)
    state = position(game, ["7H 8H 2C", "KC QC"], discards="9H KD", phase="draw")
    state.play("take")
    assert "discard KD" in texts(state)


def test_rummy_scoring_penalty() -> None:
    r = rk.Game("rummy", num_players=3, rummy_scoring="penalty").rules
    assert score_hand(r, "out", 0, [0, 21, 7]).penalties == (0, 21, 7)
    assert score_hand(r, "rummy", 0, [0, 21, 7]).penalties == (0, 42, 14)
    assert score_hand(r, "out", 0, [0, 21, 7]).returns == (0, -21, -7)
    match = TableMatch("rummy", [lambda s: 0] * 3, seed=0, num_players=3, rummy_scoring="penalty", target_score=50)
    match._scores = [40, 10, 45]
    match._record(score_hand(match.rules, "out", 1, [12, 0, 3]))
    assert match.result is not None and match.result.winner == 1 and match.result.scores == (52, 10, 48)


def test_target_score() -> None:
    match = TableMatch("rummy", [lambda s: 0] * 2, seed=0, target_score=200)
    match._scores = [90, 0]
    match._record(score_hand(match.rules, "out", 0, [0, 15]))
    assert match.result is None


@pytest.mark.parametrize(("rotation", "dealers"), [("clockwise", [1, 2]), ("winner_deals", [2, 2])])
def test_dealer_rotation(rotation: str, dealers: list[int]) -> None:
    match = TableMatch("rummy", [lambda s: 0] * 3, seed=0, num_players=3, first_dealer=0, dealer_rotation=rotation)
    seen = []
    for _ in range(2):
        match._record(score_hand(match.rules, "out", 2, [5, 5, 0]))
        seen.append(match.dealer)
    assert seen == dealers


@pytest.mark.parametrize(("after", "dealer"), [("same", 0), ("next", 1)])
def test_dealer_after_dead_hand(after: str, dealer: int) -> None:
    match = TableMatch("rummy", [lambda s: 0] * 3, seed=0, num_players=3, first_dealer=0, dealer_after_dead_hand=after)
    match._record(score_hand(match.rules, "dead", None, [5, 5, 5]))
    assert match.dealer == dealer


def test_max_turns_dead_hand() -> None:
    state = rk.Game("rummy", max_turns=3).new_hand(seed=2)
    while not state.is_terminal():
        legal = state.legal_actions()
        state.apply_action(legal[0] if legal[0] != 54 else 53)
    assert state.turns <= 3 and state.result is not None


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"ace_rank": "middle"}, "ace_rank must be one of"),
        ({"num_players": 7}, "num_players must be 2..6"),
        ({"restock_method": "shuffle"}, "restock_method must be one of"),
        ({"initial_meld_min": 40}, "a kaluki option"),
        ({"max_melds_per_turn": 2}, "max_melds_per_turn must be one of"),
        ({"no_such": 1}, "unknown option"),
        ({"go_out_requires_discard": 1}, "true or false"),
    ],
)
def test_bad_options(options: dict[str, object], words: str) -> None:
    with pytest.raises(rk.InvalidOptionError, match=words):
        rk.Game("rummy", **options)  # type: ignore[arg-type]
