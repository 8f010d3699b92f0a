"""Every public entry point x every class of bad input.

Each bad call must raise a :class:`rummykit.errors.RummykitError` (a
``ValueError``) of the expected subclass and change nothing: the state's
``to_json()`` and ``legal_actions()`` are the same before and after.
``TypeError`` is left to Python only for calls that do not fit the
signature (an unknown keyword, a missing argument); every value of the
wrong type is a RummykitError, as rummykit.errors documents.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import rummykit as rk
from rummykit.errors import (
    IllegalActionError,
    InvalidCardError,
    InvalidMeldError,
    InvalidOptionError,
    RummykitError,
)


class Opaque:
    """A value of no type rummykit knows."""


HAND = "AS 2S 3S 7H 7D 7C 9S TS JS KD 5C"

#: card inputs by class of badness: a hand argument given this must raise InvalidCardError
BAD_CARDS: dict[str, object] = {
    "wrong type None": None,
    "wrong type float": 3.5,
    "wrong type object": Opaque(),
    "wrong type bytes": b"AS 2S",
    "wrong type in list": ["AS", 2.0],
    "nested list": [["AS"]],
    "malformed text": "ZZ",
    "malformed half card": "AS 2",
    "malformed ten": "11S",
    "duplicate text": "AS 2C AS",
    "duplicate ids": [0, 1, 0],
    "bit outside the deck": 1 << 52,
    "negative mask": -1,
    "huge mask": 2**200,
    "id outside the deck": [52],
    "negative id": [-1],
    "bool": True,
}

#: the analysis functions, each with its hand argument open
CARD_FUNCTIONS: dict[str, Callable[[Any], object]] = {
    "deadwood": rk.deadwood,
    "best_melds": rk.best_melds,
    "melds": rk.melds,
    "arrangements": rk.arrangements,
    "best_discard": rk.best_discard,
    "discard_deadwoods": rk.discard_deadwoods,
    "as_meld": rk.as_meld,
    "cards_text": rk.cards_text,
    "to_mask": rk.to_mask,
    "choose_knock (knocker)": lambda c: rk.choose_knock(c, "KD"),
    "choose_knock (defender)": lambda c: rk.choose_knock("AS 2S 3S 4C", c),
    "layoff (meld)": lambda c: rk.layoff([c], "KD"),
    "layoff (defender)": lambda c: rk.layoff([["AS", "2S", "3S"]], c),
}


@pytest.mark.parametrize("bad", list(BAD_CARDS), ids=list(BAD_CARDS))
@pytest.mark.parametrize("name", list(CARD_FUNCTIONS), ids=list(CARD_FUNCTIONS))
def test_card_arguments(name: str, bad: str) -> None:
    with pytest.raises(InvalidCardError):
        CARD_FUNCTIONS[name](BAD_CARDS[bad])


@pytest.mark.parametrize("bad", [None, 3.5, ["AS"], Opaque(), b"AS", 7, "", "ZZ", "A", "AS 2S"])
def test_card_text_parsers(bad: object) -> None:
    with pytest.raises(InvalidCardError, match="card"):
        rk.parse_card(bad)  # type: ignore[arg-type]
    if isinstance(bad, str) and bad in ("", "AS 2S"):
        return  # both are fine card lists
    with pytest.raises(InvalidCardError, match="card"):
        rk.parse_cards(bad)  # type: ignore[arg-type]


@pytest.mark.parametrize("bad", [None, 1.5, True, -1, 1 << 52, [1]])
def test_masks_and_card_ids(bad: object) -> None:
    with pytest.raises(InvalidCardError):
        rk.from_mask(bad)  # type: ignore[arg-type]
    with pytest.raises(InvalidCardError):
        rk.Card(bad)  # type: ignore[arg-type]
    with pytest.raises(InvalidCardError):
        rk.from_mask("AS")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "bad",
    [None, "abc", [[1, 2]], np.array([1 << 52], dtype=np.uint64), np.array([-1]), np.array([1.5]), [Opaque()]],
    ids=["None", "text", "2-D", "bit 52", "negative", "float", "object"],
)
def test_batch_arrays(bad: object) -> None:
    with pytest.raises(RummykitError):
        rk.deadwood_batch(bad)  # type: ignore[arg-type]
    with pytest.raises(RummykitError):
        rk.best_discard_batch(bad)  # type: ignore[arg-type]


#: bad rules options: every analysis function takes aces= and values=
BAD_RULES: dict[str, dict[str, object]] = {
    "aces unknown": {"aces": "sideways"},
    "aces type": {"aces": 1},
    "values zero": {"values": [0] * 13},
    "values short": {"values": [1] * 12},
    "values text": {"values": "abc"},
    "values float": {"values": [1.5] * 13},
    "values too big": {"values": [300] * 13},
    "values negative": {"values": [-1] * 13},
    "values None inside": {"values": [None] * 13},
}
RULES_FUNCTIONS: dict[str, Callable[..., object]] = {
    "deadwood": lambda **o: rk.deadwood(HAND, **o),
    "best_melds": lambda **o: rk.best_melds(HAND, **o),
    "melds": lambda **o: rk.melds(HAND, **o),
    "arrangements": lambda **o: rk.arrangements(HAND, **o),
    "best_discard": lambda **o: rk.best_discard(HAND, **o),
    "discard_deadwoods": lambda **o: rk.discard_deadwoods(HAND, **o),
    "as_meld": lambda **o: rk.as_meld("AS 2S 3S", **o),
    "choose_knock": lambda **o: rk.choose_knock("AS 2S 3S 4C", "KD", **o),
    "layoff": lambda **o: rk.layoff([["AS", "2S", "3S"]], "4S", **o),
    "deadwood_batch": lambda **o: rk.deadwood_batch([7], **o),
    "best_discard_batch": lambda **o: rk.best_discard_batch([7], **o),
}


@pytest.mark.parametrize("bad", list(BAD_RULES), ids=list(BAD_RULES))
@pytest.mark.parametrize("name", list(RULES_FUNCTIONS), ids=list(RULES_FUNCTIONS))
def test_rules_options(name: str, bad: str) -> None:
    with pytest.raises(InvalidOptionError):
        RULES_FUNCTIONS[name](**BAD_RULES[bad])


def test_unknown_keywords_are_python_type_errors() -> None:
    """The one TypeError: a call that does not fit the signature."""
    with pytest.raises(TypeError, match="colour"):
        rk.deadwood(HAND, colour="red")  # type: ignore[call-arg]


BAD_COUNTS = [None, 1.5, "x", -1, True, [1], Opaque(), float("nan")]

OTHER_CALLS: dict[str, tuple[Callable[[Any], object], type[RummykitError]]] = {
    "arrangements max_deadwood": (lambda v: rk.arrangements(HAND, max_deadwood=v), InvalidOptionError),
    "best_discard forbidden": (lambda v: rk.best_discard(HAND, forbidden=v), RummykitError),
    "choose_knock limit": (lambda v: rk.choose_knock("AS 2S 3S 4C", "KD", limit=v), InvalidOptionError),
    "settle points": (lambda v: rk.settle(v, [1, 0]), InvalidOptionError),
    "settle game_bonus": (lambda v: rk.settle([100, 20], [2, 1], game_bonus=v), InvalidOptionError),
    "make_agent": (lambda v: rk.make_agent(v), InvalidOptionError),
    "Game name": (lambda v: rk.Game(v), InvalidOptionError),
    "Game gin knock_limit": (lambda v: rk.Game("gin", knock_limit=v), InvalidOptionError),
    "Game oklahoma num_players": (lambda v: rk.Game("oklahoma-rummy", num_players=v), InvalidOptionError),
    "Game rummy num_players": (lambda v: rk.Game("rummy", num_players=v), InvalidOptionError),
    "Game kaluki target_score": (lambda v: rk.Game("kaluki", target_score=v), InvalidOptionError),
    "new_hand dealer": (lambda v: rk.Game("gin").new_hand(seed=1, dealer=v), InvalidOptionError),
    "table new_hand dealer": (lambda v: rk.Game("rummy").new_hand(seed=1, dealer=v), InvalidOptionError),
    "playouts n": (lambda v: rk.playouts(rk.Game("gin").new_hand(seed=1, dealer=0), v), InvalidOptionError),
    "playouts threads": (
        lambda v: rk.playouts(rk.Game("gin").new_hand(seed=1, dealer=0), 2, threads=v),
        InvalidOptionError,
    ),
    "playouts policy": (
        lambda v: rk.playouts(rk.Game("gin").new_hand(seed=1, dealer=0), 2, policy=v),
        InvalidOptionError,
    ),
    "playouts state": (lambda v: rk.playouts(v, 2), InvalidOptionError),
    "tournament hands": (lambda v: rk.tournament(["random", "random"], "gin", hands=v), InvalidOptionError),
    "tournament workers": (
        lambda v: rk.tournament(["random", "random"], "gin", hands=1, workers=v),
        InvalidOptionError,
    ),
    "tournament agents": (lambda v: rk.tournament(v, "gin", hands=1), InvalidOptionError),
    "tournament game": (lambda v: rk.tournament(["random", "random"], v, hands=1), InvalidOptionError),
}


@pytest.mark.parametrize("bad", BAD_COUNTS, ids=[repr(b) for b in BAD_COUNTS])
@pytest.mark.parametrize("name", list(OTHER_CALLS), ids=list(OTHER_CALLS))
def test_other_arguments(name: str, bad: object) -> None:
    call, error = OTHER_CALLS[name]
    if bad is None and name in (
        "best_discard forbidden",
        "arrangements max_deadwood",
        "new_hand dealer",
        "table new_hand dealer",
    ):
        return  # None is the documented default (no forbidden card, no bound, a random dealer)
    with pytest.raises(error):
        call(bad)


def test_mismatched_lengths_and_overlaps() -> None:
    with pytest.raises(InvalidOptionError):
        rk.settle([1, 2, 3], [1, 0])
    with pytest.raises(InvalidCardError, match="both hands"):
        rk.choose_knock("AS 2S 3S", "AS")
    with pytest.raises(RummykitError):
        rk.layoff([["AS", "2S", "3S"]], "AS")
    with pytest.raises(InvalidMeldError):
        rk.layoff([["AS", "2S", "9S"]], "KD")
    with pytest.raises(InvalidMeldError):
        rk.as_meld("AS 2C 3S")


# --- the state verbs -------------------------------------------------------------

GAMES: dict[str, tuple[str, dict[str, Any]]] = {
    "gin": ("gin", {}),
    "oklahoma rummy 3p": ("oklahoma-rummy", {"num_players": 3}),
    "rummy": ("rummy", {}),
    "kaluki 3p": ("kaluki", {"num_players": 3}),
}

#: bad actions for apply_action / play / verify_action
BAD_ACTIONS: list[object] = [
    None,
    1.5,
    True,
    -1,
    10**9,
    2**70,
    [1],
    Opaque(),
    "",
    "discard ZZ",
    "knock",
    "shuffle",
    "meld AS",
]


def started(name: str) -> Any:
    key, options = GAMES[name]
    state = rk.Game(key, **options).new_hand(seed=11, dealer=0)
    for _ in range(3):  # a few actions in: the history and undo stack are not empty
        state.apply_action(state.legal_actions()[0])
    return state


def snapshot(state: Any) -> tuple[str, list[int], int]:
    return state.to_json(), state.legal_actions(), len(state.history)


@pytest.mark.parametrize("bad", BAD_ACTIONS, ids=[repr(b) for b in BAD_ACTIONS])
@pytest.mark.parametrize("game", list(GAMES), ids=list(GAMES))
def test_state_actions(game: str, bad: object) -> None:
    state = started(game)
    before = snapshot(state)
    for verb in (state.apply_action, state.play, state.verify_action):
        with pytest.raises(IllegalActionError):
            verb(bad)
        assert snapshot(state) == before
    assert state.can_act(bad) is False


@pytest.mark.parametrize("game", list(GAMES), ids=list(GAMES))
def test_illegal_and_out_of_turn_actions(game: str) -> None:
    state = started(game)
    before = snapshot(state)
    legal = state.legal_actions()
    illegal = next(a for a in range(max(legal) + 2) if a not in legal)
    for verb in (state.apply_action, state.play):
        with pytest.raises(IllegalActionError):
            verb(illegal)
    with pytest.raises(IllegalActionError, match="out of turn"):
        state.play(legal[0], player=(state.current_player + 1) % state.n)
    assert snapshot(state) == before
    fresh = rk.Game(*GAMES[game][:1], **GAMES[game][1]).new_hand(seed=11, dealer=0)
    with pytest.raises(IllegalActionError, match="nothing to undo"):
        fresh.undo()


@pytest.mark.parametrize("bad", [None, -1, 9, 1.5, True, "0"], ids=repr)
@pytest.mark.parametrize("game", list(GAMES), ids=list(GAMES))
def test_seat_arguments(game: str, bad: object) -> None:
    state = started(game)
    before = snapshot(state)
    for verb in (state.hand, state.observation, state.information_state_string, state.determinize):
        with pytest.raises(InvalidOptionError):
            verb(bad)
    assert snapshot(state) == before


@pytest.mark.parametrize("game", list(GAMES), ids=list(GAMES))
def test_actions_after_the_end(game: str) -> None:
    state = started(game)
    rng = np.random.default_rng(0)
    while not state.is_terminal():
        legal = state.legal_actions()
        state.apply_action(legal[int(rng.integers(len(legal)))])
    before = snapshot(state)
    assert before[1] == []
    for action in (0, 1, "draw"):
        with pytest.raises(IllegalActionError):
            state.play(action)
        with pytest.raises(IllegalActionError):
            state.apply_action(action)  # type: ignore[arg-type]
    assert snapshot(state) == before


def test_every_option_with_values_of_every_json_type() -> None:
    """Each option of each game given a list, an object, a float, text or null: accepted or
    InvalidOptionError (hypothesis found Game('gin', scoring_model=[]) raising TypeError)."""
    import dataclasses

    from rummykit.knock.rules import KnockRules
    from rummykit.table.rules import TableRules

    for name, rules in (
        ("gin", KnockRules),
        ("oklahoma-rummy", KnockRules),
        ("rummy", TableRules),
        ("kaluki", TableRules),
    ):
        for field in dataclasses.fields(rules):
            if field.name in ("name", "given", "game"):
                continue
            for value in ([], {}, [1], {"a": 1}, 2.5, "x", None):
                try:
                    rk.Game(name, **{field.name: value})
                except InvalidOptionError:
                    pass
