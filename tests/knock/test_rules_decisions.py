"""Rules decisions: the taken upcard in a
direct showdown, the Partnership Oklahoma settlement, partnership gin, a
Kaluki meld of one natural and two jokers, the taken copy in Kaluki and the
per-turn build limit at a run end (docs/rules.md, Melds, Turn basics, Oklahoma Gin, Kaluki,
Two-player settlement, D15, D30)."""

from __future__ import annotations

import functools
from collections.abc import Callable

import pytest

import rummykit as rk
from rummykit.cards import Card
from rummykit.knock.match import KnockMatch
from rummykit.knock.state import KnockState

#: the test agents look only at what their seat knows: trusted with the real state (no copy per decision)
Match = functools.partial(KnockMatch, trusted=True)

# --- the upcard may be in any hand (docs/rules.md, Oklahoma Gin) -------------------------------------------------


def _knock_deck(first: str, second: str, upcard: str) -> list[str]:
    """A two-player deck dealt by seat 0: ``first`` to seat 1, ``second`` to seat 0, then the
    upcard, then the other cards in id order as the stock."""
    cards = [c for pair in zip(first.split(), second.split()) for c in pair] + [upcard]
    return cards + [str(Card(i)) for i in range(52) if str(Card(i)) not in cards]


@pytest.mark.parametrize(
    ("knocker", "defender", "upcard", "limit", "points"),
    [
        # the knocker took the 7S upcard and melds it: limit 7, spades double (5 - 1) x 2
        ("5S 6S 7S 2H 3H 4H 9C 9D 9H AC", "KC KD QC QD JC JD TC TD 2C 3C", "7S", 7, 8),
        # the defender holds the 3S upcard as deadwood: limit 3, (8 - 1) x 2
        ("5H 6H 7H 2H 3H 4H 9C 9D 9H AC", "KC KD QC QD JC JD TC 3S 2C 3C", "3S", 3, 14),
    ],
)
def test_showdown_accepts_the_upcard_in_a_hand(
    knocker: str, defender: str, upcard: str, limit: int, points: int
) -> None:
    r = rk.Game("oklahoma_gin").showdown(knocker, [defender], upcard=upcard)
    assert (r.outcome, r.winner, r.knock_limit, r.multiplier, r.points) == ("knock", 0, limit, 2, (points, 0))


def test_showdown_rescores_a_played_hand_with_the_taken_upcard() -> None:
    game = rk.Game("oklahoma_gin")
    deck = _knock_deck("5S 6S 2H 3H 4H 9C 9D 9H AC KH", "KC KD QC QD JC JD TC TD 2C 3C", "7S")
    state = game.new_hand(deck=deck, dealer=0)
    state.play("take", player=1)  # the 7S upcard completes 5S 6S 7S
    state.play("knock KH", player=1)
    played = state.result
    assert played is not None and (played.outcome, played.multiplier, played.knock_limit) == ("knock", 2, 7)
    again = game.showdown(state.hand(1), [state.hand(0)], upcard=state.upcard)
    assert again.reorder([1, 0], 2) == played


# --- Partnership Oklahoma: sides settled with docs/rules.md, Two-player settlement (D30)
# --------------------------------


def _knocker(state: KnockState) -> int:
    """Knock when it can, else draw from the stock, else discard the highest card id."""
    legal = state.legal_actions()
    knocks = [a for a in legal if 52 <= a < 104]
    return knocks[0] if knocks else 104 if 104 in legal else legal[-1]


def _passive(state: KnockState) -> int:
    """Never knock: draw from the stock and discard the highest card id."""
    legal = state.legal_actions()
    return 104 if 104 in legal else [a for a in legal if a < 52][-1]


def _side_settlement(points: tuple[int, int], boxes: tuple[int, int]) -> tuple[int, int]:
    """docs/rules.md "Two-player settlement" written out: game bonus 100, box 25, shutout doubles the winner's total."""
    win = 0 if points[0] > points[1] else 1
    totals = [points[s] + 25 * boxes[s] + (100 if s == win else 0) for s in range(2)]
    if boxes[1 - win] == 0:
        totals[win] *= 2
    return totals[0], totals[1]


@pytest.mark.parametrize(
    ("seed", "agents"),
    [(0, (_knocker,) * 4), (1, (_knocker,) * 4), (10, (_knocker, _passive) * 2), (19, (_knocker, _passive) * 2)],
)
def test_partnership_match_settles_sides(seed: int, agents: tuple[Callable[[KnockState], int], ...]) -> None:
    match = Match("partnership_oklahoma", list(agents), seed=seed)
    result = match.play()
    (game,) = result.games
    points = tuple(sum(h.points[s] for h in match.hands) for s in range(4))
    boxes = tuple(sum(h.boxes[s] for h in match.hands) for s in range(4))
    # partners score together: each hand credits both with the side's points and box
    assert points[0] == points[2] and points[1] == points[3] and boxes[0] == boxes[2] and boxes[1] == boxes[3]
    assert (game.points, game.boxes) == (points, boxes)
    side = 0 if points[0] >= 200 else 1
    assert points[side] >= 200 > points[1 - side]
    settled = _side_settlement((points[0], points[1]), (boxes[0], boxes[1]))
    assert game.totals == result.totals == (settled[0], settled[1], settled[0], settled[1])
    assert game.winner == result.winner == side
    assert game.net == settled[side] - settled[1 - side]
    assert result.standings[:2] == (side, side + 2)
    assert game.hands_won == (boxes[0], boxes[1], boxes[0], boxes[1])  # no extra boxes in the preset


def test_partnership_shutout_numbers() -> None:
    # seed 10: the passive side never wins a hand; 237 points, 5 boxes
    result = Match("partnership_oklahoma", [_knocker, _passive] * 2, seed=10).play()
    assert result.games[0].points == (237, 0, 237, 0) and result.games[0].boxes == (5, 0, 5, 0)
    assert result.totals == (2 * (237 + 100 + 5 * 25), 0, 924, 0)


def test_partnership_match_of_several_games_ranks_sides() -> None:
    result = Match("partnership_oklahoma", [_knocker] * 4, seed=3, match_games=2).play()
    summed = tuple(sum(g.totals[s] for g in result.games if g.totals) for s in range(4))
    assert result.totals == summed and summed[0] == summed[2] and summed[1] == summed[3]
    side = 0 if summed[0] > summed[1] else 1
    assert result.winner == side and result.standings[:2] == (side, side + 2)
    fixed = Match("partnership_oklahoma", [_knocker] * 4, seed=3, game_end="fixed_hands", num_hands=3).play()
    scores = fixed.totals
    assert fixed.winner == (0 if scores[0] > scores[1] else 1 if scores[1] > scores[0] else None)


# --- partnership gin is the knocker's own (docs/rules.md, D30) ---------------------------------------------


def test_partnership_gin_is_the_knockers_own_deadwood() -> None:
    game = rk.Game("partnership_oklahoma")
    # knocker gin; the partner (seat 2) keeps 51 deadwood, the opponents 6 each
    r = game.showdown(
        "AC 2C 3C 4H 4D 4S 4C",
        ["KS KH KC 7D 8D 9D 6H", "2D 3D 9H TH JC 9C 8C", "5C 6C 7C QS QH QD 6D"],
        upcard="8H",
    )
    assert (r.outcome, r.winner, r.deadwood) == ("gin", 0, (0, 6, 51, 6))
    assert r.layoffs == ((), (), (), ())  # nobody lays off on gin, the partner included
    assert r.points == (25, 0, 25, 0) and r.boxes == (1, 0, 1, 0)  # gin bonus; the side difference is below 0
    # a partner with no deadwood does not make the knocker's knock a gin
    r = game.showdown(
        "AC 2C 3C 4H 4D 4S 6S",
        ["KS KH KC 7D 8D 9D 6H", "5C 6C 7C 8C QS QH QD", "2D 3D 9H TH JC 9S TS"],
        upcard="8H",
    )
    assert (r.outcome, r.winner, r.deadwood) == ("knock", 0, (6, 6, 0, 53))
    assert r.points == (53, 0, 53, 0)


# --- Kaluki: one natural and two bare jokers are a set (docs/rules.md, Melds, Kaluki) --------------------------


def test_kaluki_bare_jokers_with_one_natural_are_a_set() -> None:
    game = rk.Game("kaluki")
    assert game.meld_value("5H Jk Jk") == 15  # three fives
    assert game.meld_value("5H Jk=6H Jk=7H") == 18  # a run needs its jokers named
    assert game.meld_value("Jk=3H Jk=4H 5H") == 12
    with pytest.raises(rk.InvalidMeldError, match="ambiguous"):
        game.meld_value("5H Jk=6H Jk")


# --- Kaluki: at most two builds per run end, per turn (docs/rules.md, Kaluki, D15) ---------------------------


def _kaluki_deck(first: str, second: str, upcard: str, stock: str) -> list[str]:
    """A two-player Kaluki deck dealt by seat 0: ``first`` to seat 1, ``second`` to seat 0, the
    upcard, ``stock`` on top of the stock, then the other cards."""
    cards = [c for pair in zip(first.split(), second.split()) for c in pair] + [upcard] + stock.split()
    rest = [str(Card(i)) for i in range(52)] * 2 + ["Jk", "Jk"]
    for c in cards:
        rest.remove(c)
    return cards + rest


def test_kaluki_build_limit_is_per_turn_per_end() -> None:
    game = rk.Game("kaluki")
    deck = _kaluki_deck(
        "8S 9S TS KH KD KC JS QS KS 2C 3D 5H 7S", "2H 4H 6H 8H TH QH 2D 4D 6D 8D TD QD AC", "3C", "4C 5C 9C"
    )
    state = game.new_hand(deck=deck, dealer=0)
    for action in ("draw", "meld 8S 9S TS", "meld KH KD KC", "build JS on 1 high", "build QS on 1 high"):
        state.play(action, player=1)
    assert not state.can_act("build KS on 1 high")  # a third card at that end this turn
    state.play("build 7S on 1 low", player=1)  # the other end has its own two
    state.play("discard 2C", player=1)
    state.play("draw", player=0)
    state.play("discard 5C", player=0)
    state.play("draw", player=1)
    state.play("build KS on 1 high", player=1)  # allowed again on a later turn
    assert state.table_text()[0] == "7S 8S 9S TS JS QS KS"


# --- Kaluki: the taken-discard restriction holds the physical card taken (docs/rules.md, Turn basics) ---------------


def _taken_7h(first: str) -> rk.TableState:
    """A Kaluki hand where seat 1 opens on its first turn, seat 0 then discards a 7H and seat 1
    takes it: seat 1 holds ``first`` (with a 7H) less the opening and the 9C it discards."""
    game = rk.Game("kaluki")
    deck = _kaluki_deck(first, "2H 4H 6H 8H TH QH 2D 4D 6D 8D TD QD AC", "3C", "9C 7H")
    state = game.new_hand(deck=deck, dealer=0)
    for action in ("draw", "meld 8S 9S TS", "meld KH KD KC", "discard 9C"):
        state.play(action, player=1)
    state.play("draw", player=0)
    state.play("discard 7H", player=0)
    state.play("take", player=1)
    return state


def test_kaluki_the_other_copy_of_the_taken_card_may_be_discarded() -> None:
    state = _taken_7h("8S 9S TS KH KD KC 7H 2C 3D 5H 4C 6D QC")
    taken = state.taken_card
    held = next(c for c in (32, 84) if c != taken)  # the two 7H: deck 0's 32, deck 1's 84
    assert state.hands[1] >> taken & 1 and state.hands[1] >> held & 1
    assert state.can_act("discard 7H")
    state.play("discard 7H", player=1)
    assert state.discards[-1] == held and state.hands[1] >> taken & 1  # the taken one stays


def test_kaluki_a_meld_takes_the_taken_copy_first() -> None:
    state = _taken_7h("8S 9S TS KH KD KC 7H 2C 3D 5H 6H 8C QC")
    taken = state.taken_card
    state.play("meld 5H 6H 7H", player=1)
    assert state.table[-1].cards[2] == taken  # the taken 7H went on the table
    state.play("discard 7H", player=1)  # so the other one may go
    assert state.result is None and state.player == 0


def test_kaluki_the_taken_card_alone_may_not_be_discarded() -> None:
    state = _taken_7h("8S 9S TS KH KD KC 2S 2C 3D 5H 4C 6D QC")
    assert not state.can_act("discard 7H")
    with pytest.raises(rk.IllegalActionError, match="taken"):
        state.play("discard 7H", player=1)


def test_kaluki_a_joker_build_counts_toward_the_run_end_limit() -> None:
    game = rk.Game("kaluki")
    deck = _kaluki_deck(
        "8S 9S TS KH KD KC JS Jk KS 2C 3D 5H 7S", "2H 4H 6H 8H TH QH 2D 4D 6D 8D TD QD AC", "3C", "4C 5C 9C"
    )
    state = game.new_hand(deck=deck, dealer=0)
    for action in ("draw", "meld 8S 9S TS", "meld KH KD KC", "build JS on 1 high", "build Jk on 1 high"):
        state.play(action, player=1)
    assert state.table_text()[0] == "8S 9S TS JS Jk=QS"
    assert not state.can_act("build KS on 1 high")
