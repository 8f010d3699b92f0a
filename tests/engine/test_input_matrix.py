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
from rummykit import inference as _inference
from rummykit import multideck as _multideck
from rummykit.errors import (
    IllegalActionError,
    InvalidCardError,
    InvalidMeldError,
    InvalidOptionError,
    RummykitError,
)
from rummykit.table import actions as _table_actions
from rummykit.table import cards as _table_cards


class Opaque:
    """A value of no type rummykit knows."""

    def __repr__(self) -> str:  # the same test ids in every process (pytest-xdist compares them)
        return "Opaque()"


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
    "id outside the deck": [53],
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


# --- the systematic matrix: every public callable x every hostile value ------------------------
#
# Each call either succeeds or raises a RummykitError whose message is short (a huge input is
# never shown whole), and a failed call on a state leaves it as it was (to_json and legal
# actions).  One test per callable, looping over the values, so a failure lists every bad value.

MAX_MESSAGE = 300


HUGE_TEXT = "A" * 1_000_000
HOSTILE: dict[str, object] = {
    "None": None,
    "float": 1.5,
    "nan": float("nan"),
    "inf": float("inf"),
    "-inf": float("-inf"),
    "True": True,
    "-1": -1,
    "10**100": 10**100,
    "-10**100": -(10**100),
    "10**5000": 10**5000,  # repr() of it raises ValueError (the 4300-digit limit)
    "text": "x",
    "empty text": "",
    "1e6 chars": HUGE_TEXT,
    "1e6 card words": "AS " * 300_000,
    "bytes": b"AS",
    "empty list": [],
    "[1]": [1],
    "nested": [[1]],
    "1e5 list": [0] * 100_000,
    "dict": {},
    "{a: 1}": {"a": 1},
    "set": {1},
    "complex": 1j,
    "object": Opaque(),
    "np.int64(-1)": np.int64(-1),
    "np.uint64(2**63)": np.uint64(2**63),
    "np.float64": np.float64(1.5),
    "np.bool_": np.bool_(True),
    "np 1-d": np.array([1, 2]),
    "np 0-d": np.array(5),
    "np empty": np.array([]),
    "np 2-d": np.zeros((2, 2), dtype=np.int64),
    "iterator": iter([1, 2]),
}

_gin, _oklahoma = rk.Game("gin"), rk.Game("oklahoma-rummy", num_players=3)
_rummy, _kaluki = rk.Game("rummy"), rk.Game("kaluki", num_players=3)
GAME_OBJECTS: dict[str, Any] = {"gin": _gin, "oklahoma": _oklahoma, "rummy": _rummy, "kaluki": _kaluki}
_fresh_gin = _gin.new_hand(seed=1, dealer=0)
_melded = [["AS", "2S", "3S"]]

#: calls that take no state: name -> call(value)
CALLS: dict[str, Callable[[Any], object]] = {
    "Action": lambda v: rk.Action(v),
    "Action.from_id": lambda v: rk.Action.from_id(v),
    "TableAction": lambda v: rk.TableAction(v),
    "TableAction.from_id": lambda v: rk.TableAction.from_id(v),
    "Card": lambda v: rk.Card(v),
    "parse_card": lambda v: rk.parse_card(v),
    "parse_cards": lambda v: rk.parse_cards(v),
    "parse_action": lambda v: rk.parse_action(v),
    "parse_type": lambda v: _table_cards.parse_type(v),
    "parse_types": lambda v: _table_cards.parse_types(v),
    "parse_table_action": lambda v: _table_actions.parse_table_action(v, _kaluki.geo, 2),
    "parse_multi": lambda v: _multideck.parse_multi(v),
    "to_mask": rk.to_mask,
    "from_mask": rk.from_mask,
    "cards_text": rk.cards_text,
    "deadwood_batch": rk.deadwood_batch,
    "best_discard_batch": rk.best_discard_batch,
    "arrangements max_deadwood": lambda v: rk.arrangements(HAND, max_deadwood=v),
    "best_discard forbidden": lambda v: rk.best_discard(HAND, forbidden=v),
    "choose_knock limit": lambda v: rk.choose_knock("AS 2S 3S 4C", "KD", limit=v),
    "choose_knock min_deadwood_only": lambda v: rk.choose_knock("AS 2S 3S 4C", "KD", min_deadwood_only=v),
    "choose_knock allow_layoffs": lambda v: rk.choose_knock("AS 2S 3S 4C", "KD", allow_layoffs=v),
    "layoff knocker_melds": lambda v: rk.layoff(v, "KD"),
    "layoff one meld": lambda v: rk.layoff([v], "KD"),
    "settle points": lambda v: rk.settle(v, [1, 0]),
    "settle boxes": lambda v: rk.settle([10, 20], v),
    "settle game_bonus": lambda v: rk.settle([100, 20], [2, 1], game_bonus=v),
    "HollywoodSheet": lambda v: rk.HollywoodSheet(v),
    "HollywoodSheet.record winner": lambda v: rk.HollywoodSheet(100).record(v, 10),
    "HollywoodSheet.record points": lambda v: rk.HollywoodSheet(100).record(0, v),
    "Game name": lambda v: rk.Game(v),
    "Game option": lambda v: rk.Game("gin", knock_limit=v),
    "make_agent": lambda v: rk.make_agent(v),
    "make_agent seed": lambda v: rk.make_agent("random", seed=v),
    "RandomAgent seed": lambda v: rk.RandomAgent(v),
    "GreedyAgent max_knock_deadwood": lambda v: rk.GreedyAgent(max_knock_deadwood=v),
    "playouts state": lambda v: rk.playouts(v, 2),
    "playouts n": lambda v: rk.playouts(_fresh_gin, v),
    "Match agents": lambda v: rk.Match("gin", v),
    "Match first_dealer": lambda v: rk.Match("gin", [rk.RandomAgent()] * 2, first_dealer=v),
    "Match.play max_hands": lambda v: rk.Match("gin", [rk.RandomAgent()] * 2, seed=1).play(max_hands=v),
    "TableMatch first_dealer": lambda v: rk.TableMatch("rummy", [rk.RandomAgent()] * 2, first_dealer=v),
    "TableMatch.play max_hands": lambda v: rk.TableMatch("rummy", [rk.RandomAgent()] * 2, seed=1).play(max_hands=v),
    "tournament agents": lambda v: rk.tournament(v, "gin", hands=1),
    "tournament game": lambda v: rk.tournament(["random", "random"], v, hands=1),
    "tournament hands": lambda v: rk.tournament(["random", "random"], "gin", hands=v),
    "tournament backend": lambda v: rk.tournament(["random", "random"], "gin", hands=1, backend=v),
    "tournament progress": lambda v: rk.tournament(["random", "random"], "gin", hands=1, progress=v),
    "weighted_determinizations n": lambda v: _inference.weighted_determinizations(_fresh_gin, 0, v),
    "weighted_determinizations player": lambda v: _inference.weighted_determinizations(_fresh_gin, v, 2),
    "posterior_determinizations moves": lambda v: _inference.posterior_determinizations(_fresh_gin, 0, 2, moves=v),
    "log_likelihoods samples": lambda v: _inference.log_likelihoods(_fresh_gin, 0, v),
    "SoftGreedyModel beta": lambda v: _inference.SoftGreedyModel(beta=v),
    "showdown knocker": lambda v: _gin.showdown(v, ["KD"]),
    "showdown defenders": lambda v: _gin.showdown("AS 2S 3S", v),
    "showdown upcard": lambda v: _gin.showdown("AS 2S 3S", ["KD"], upcard=v),
    "showdown knocker_melds": lambda v: _gin.showdown("AS 2S 3S", ["KD"], knocker_melds=v),
}
for _name in ("deadwood", "best_melds", "melds", "arrangements", "best_discard", "discard_deadwoods", "as_meld"):
    _f = getattr(rk, _name)
    _hand = "AS 2S 3S" if _name == "as_meld" else HAND
    CALLS[_name] = _f
    CALLS[f"{_name} aces"] = lambda v, f=_f, h=_hand: f(h, aces=v)
    CALLS[f"{_name} values"] = lambda v, f=_f, h=_hand: f(h, values=v)
for _kw in ("policy", "seed", "threads", "max_knock_deadwood", "resample"):
    CALLS[f"playouts {_kw}"] = lambda v, kw=_kw: rk.playouts(_fresh_gin, 2, **{kw: v})
for _kw in ("iterations", "time_per_move", "exploration", "greedy_bias", "rollouts", "samples", "model", "margin"):
    CALLS[f"ISMCTSAgent {_kw}"] = lambda v, kw=_kw: rk.ISMCTSAgent(**{kw: v})
for _g, _game in GAME_OBJECTS.items():
    CALLS[f"{_g} new_hand seed"] = lambda v, g=_game: g.new_hand(seed=v)
    CALLS[f"{_g} new_hand dealer"] = lambda v, g=_game: g.new_hand(seed=1, dealer=v)
    CALLS[f"{_g} new_hand deck"] = lambda v, g=_game: g.new_hand(seed=1, deck=v)
    CALLS[f"{_g} new_hand deck item"] = lambda v, g=_game: g.new_hand(seed=1, deck=[v] * 3)
for _g in ("rummy", "kaluki"):
    CALLS[f"{_g} meld_value"] = lambda v, g=GAME_OBJECTS[_g]: g.meld_value(v)
    CALLS[f"{_g} card_penalty"] = lambda v, g=GAME_OBJECTS[_g]: g.card_penalty(v)
    CALLS[f"{_g} physical_deck"] = lambda v, g=GAME_OBJECTS[_g]: g.physical_deck(v)

# the rest of the public functions and methods: names, options, hands, agents, results
_agents = [rk.RandomAgent(1), rk.RandomAgent(2)]
_knock_limit = rk.game_options("gin")["knock_limit"]
_sheet = rk.HollywoodSheet(100)
_sheet.record(0, 10)
_result = rk.tournament(["random", "random"], "gin", hands=2, seed=1)


def _path_call(write: Callable[[Any], object]) -> Callable[[Any], object]:
    """A call that writes to a path, given only the values that are not text (text is a file name)."""
    return lambda v: None if isinstance(v, str) else write(v)


CALLS.update(
    {
        "from_json": rk.from_json,
        "game_options": rk.game_options,
        "game_names aliases": lambda v: rk.game_names(aliases=v),
        "parse_value option": lambda v: rk.parse_value(v, "3"),
        "parse_value text": lambda v: rk.parse_value(_knock_limit, v),
        "Option.check": lambda v: _knock_limit.check(v),
        "Option.parse": lambda v: _knock_limit.parse(v),
        "play_hand game": lambda v: rk.play_hand(v, _agents, seed=1),
        "play_hand agents": lambda v: rk.play_hand(_rummy, v, seed=1),
        "play_hand seed": lambda v: rk.play_hand(_rummy, _agents, seed=v),
        "play_hand dealer": lambda v: rk.play_hand(_gin, _agents, seed=1, dealer=v),
        "HollywoodSheet.opened": lambda v: _sheet.opened(v),
        "HollywoodSheet.settlement": lambda v: _sheet.settlement(game_bonus=v),
        "HollywoodSheet.record boxes": lambda v: rk.HollywoodSheet(100).record(0, 10, boxes=v),
        "TournamentResult.to_json path": _path_call(_result.to_json),
        "TournamentResult.to_csv path": _path_call(_result.to_csv),
        "RandomAgent.spawn": lambda v: rk.RandomAgent(1).spawn(v),
        "GreedyAgent.spawn": lambda v: rk.GreedyAgent().spawn(v),
        "ISMCTSAgent.spawn": lambda v: rk.ISMCTSAgent(iterations=5).spawn(v),
        "TableAction.text geo": lambda v: rk.TableAction(0).text(v),
        "TableAction.text set_rank": lambda v: rk.TableAction(0).text(_kaluki.geo, v),
        "gin settle points": lambda v: _gin.settle(v, [1, 0]),
        "gin settle boxes": lambda v: _gin.settle([10, 20], v),
        "Match seed": lambda v: rk.Match("rummy", _agents, seed=v),
        "KnockMatch first_dealer": lambda v: rk.KnockMatch("gin", _agents, first_dealer=v),
        "KnockMatch pool": lambda v: rk.KnockMatch("gin", _agents, pool=v),
        "TableMatch agents": lambda v: rk.TableMatch("rummy", v),
        "Meld": lambda v: rk.Meld(v, "set"),
        "arrangements limit": lambda v: rk.arrangements(HAND, limit=v),
        "KnockGame name": lambda v: rk.KnockGame(v),
        "TableGame name": lambda v: rk.TableGame(v),
    }
)
for _reserved in ("name", "game", "self"):  # the constructors' own parameters (a TypeError once)
    CALLS[f"Game option named {_reserved}"] = lambda v, k=_reserved: rk.Game("rummy", **{k: v})
    CALLS[f"Game option named {_reserved} (gin)"] = lambda v, k=_reserved: rk.Game("gin", **{k: v})

#: public names the matrix does not call, and why: exceptions, result records the library
#: makes, protocols and enums, and calls of no argument
NOT_CALLED = {
    **dict.fromkeys(
        [
            "RummykitError",
            "IllegalActionError",
            "InvalidCardError",
            "InvalidMeldError",
            "InvalidOptionError",
            "ReadOnlyError",
        ],
        "an exception",
    ),
    **dict.fromkeys(
        ["Arrangement", "Discard", "KnockChoice", "Layoff", "LayoffResult", "HandResult", "TableResult", "GameResult"],
        "a result the library makes",
    ),
    **dict.fromkeys(["MatchResult", "TableMatchResult", "TournamentResult"], "a result the library makes"),
    **dict.fromkeys(["KnockState", "TableState"], "made by new_hand; every method is in STATE_MATRIX"),
    "AgentError": "an exception",
    "GameState": "a protocol",
    "Phase": "an enum",
    **dict.fromkeys(
        ["KnockAction", "KnockPhase", "KnockResult", "KnockGameResult", "KnockMatchResult", "parse_knock_action"],
        "another name of Action, Phase, HandResult, GameResult, MatchResult, parse_action (called above)",
    ),
    "Option": "a schema record (game_options makes them); check and parse are called",
    "game_presets": "takes no argument",
}

#: state verbs: name -> call(state, value); each runs on a started hand of every game that has it
STATE_CALLS: dict[str, Callable[[Any, Any], object]] = {
    "hand": lambda s, v: s.hand(v),
    "observation": lambda s, v: s.observation(v),
    "observation_tensor": lambda s, v: s.observation_tensor(v),
    "information_state_string": lambda s, v: s.information_state_string(v),
    "determinize player": lambda s, v: s.determinize(v),
    "determinize rng": lambda s, v: s.determinize(0, v),
    "verify_action": lambda s, v: s.verify_action(v),
    "can_act": lambda s, v: s.can_act(v),
    "play": lambda s, v: s.play(v),
    "play player": lambda s, v: s.play(s.legal_actions()[0], player=v),
    "apply_action": lambda s, v: s.apply_action(v),
    "from_json": lambda s, v: type(s).from_json(v),
    "action_text": lambda s, v: s.action_text(v),
    "parse_action": lambda s, v: s.parse_action(v),
}
KNOCK_STATE_CALLS: dict[str, Callable[[Any, Any], object]] = {
    "verify_discard": lambda s, v: s.verify_discard(v),
    "can_discard": lambda s, v: s.can_discard(v),
    "verify_knock": lambda s, v: s.verify_knock(v),
    "can_knock": lambda s, v: s.can_knock(v),
    "knock card": lambda s, v: s.knock(v),
    "knock melds": lambda s, v: s.knock(s.hand(s.current_player)[0], v),
}
TABLE_STATE_CALLS: dict[str, Callable[[Any, Any], object]] = {
    "hand_text": lambda s, v: s.hand_text(v),
    "is_opened": lambda s, v: s.is_opened(v),
}
#: the table state's fields (positions built by hand, in a copy: state.with_fields): each checks the
#: value's type and range before it writes (a failed set changes nothing); the position as a whole is
#: checked before the next legal list
TABLE_FIELDS = (
    "hands", "known", "stock", "discards", "ends", "table", "phase", "player", "opened", "played", "taken",
    "taken_card", "must", "pending", "fresh", "built_other", "open_value", "turn_melds", "turns", "restocks",
    "shuffle_seed",
)  # fmt: skip
for _field in TABLE_FIELDS:
    TABLE_STATE_CALLS[f"with_fields {_field}"] = lambda s, v, f=_field: s.with_fields(**{f: v})
STATE_MATRIX: dict[str, tuple[str, Callable[[Any, Any], object]]] = {}
for _g in GAMES:
    _extra = KNOCK_STATE_CALLS if _g in ("gin", "oklahoma rummy 3p") else TABLE_STATE_CALLS
    for _verb, _call in {**STATE_CALLS, **_extra}.items():
        STATE_MATRIX[f"{_g}: {_verb}"] = (_g, _call)


def test_constructor_parameter_names_are_not_options() -> None:
    """Game(name, **options) with an option named name, game or self (e.g. from a record's options
    or a ** mapping) is an InvalidOptionError saying so, for every family and constructor."""
    from rummykit.engine.game import RESERVED_OPTION_NAMES

    assert RESERVED_OPTION_NAMES == {"name", "game", "self"}
    for make in (rk.Game, rk.KnockGame, rk.TableGame):
        for game in ("gin", "oklahoma-rummy", "rummy", "kaluki"):
            if make is not rk.Game and (make is rk.TableGame) != (game in ("rummy", "kaluki")):
                continue
            for key in sorted(RESERVED_OPTION_NAMES):
                with pytest.raises(InvalidOptionError, match=f"^'{key}' is not a game option"):
                    make(game, **{key: 1})


def test_every_public_callable_is_in_the_matrix() -> None:
    """Each function and class rummykit exports is called with every hostile value, or listed in
    NOT_CALLED with the reason."""
    keys = [*CALLS, *OTHER_CALLS, *RULES_FUNCTIONS, *CARD_FUNCTIONS]
    missing = [
        name
        for name in rk.__all__
        if callable(getattr(rk, name))
        and name not in NOT_CALLED
        and not any(key == name or key.startswith((f"{name} ", f"{name}.")) for key in keys)
    ]
    assert not missing, f"public callables the input matrix misses: {missing}"
    assert set(NOT_CALLED) <= set(rk.__all__)


def _problem(call: Callable[[], object]) -> str | None:
    """None if the call succeeds or raises a short RummykitError; else what went wrong."""
    try:
        call()
    except RummykitError as err:
        text = str(err)
        return None if len(text) < MAX_MESSAGE else f"message of {len(text)} characters: {text[:80]!r}..."
    except Exception as err:  # noqa: BLE001 - the escapes are what this test looks for
        return f"{type(err).__name__}: {str(err)[:100]}"
    return None


def _check_values(name: str, run: Callable[[object], str | None]) -> None:
    problems: list[str] = []
    for label, value in HOSTILE.items():
        if label == "iterator":
            value = iter([1, 2])  # a fresh one each time
        problem = run(value)
        if problem:
            problems.append(f"{label}: {problem}")
    assert not problems, f"{name}:\n" + "\n".join(problems)


@pytest.mark.parametrize("name", list(CALLS), ids=list(CALLS))
def test_hostile_values(name: str) -> None:
    call = CALLS[name]
    _check_values(name, lambda v: _problem(lambda: call(v)))


@pytest.mark.parametrize("name", list(STATE_MATRIX), ids=list(STATE_MATRIX))
def test_hostile_values_on_states(name: str) -> None:
    game, call = STATE_MATRIX[name]
    holder = [started(game)]

    def run(value: object) -> str | None:
        state = holder[0]
        before = snapshot(state)
        try:
            call(state, value)
        except RummykitError as err:
            if snapshot(state) != before:
                return "the state changed in a failed call"
            text = str(err)
            return None if len(text) < MAX_MESSAGE else f"message of {len(text)} characters: {text[:80]!r}..."
        except Exception as err:  # noqa: BLE001 - the escapes are what this test looks for
            return f"{type(err).__name__}: {str(err)[:100]}"
        holder[0] = started(game)  # it succeeded (play, apply_action...): start again
        return None

    _check_values(name, run)


class BadRepr:
    """A value whose repr fails."""

    def __repr__(self) -> str:
        raise RuntimeError("no repr")


def test_clip_and_the_message_safety_net() -> None:
    import pickle

    from rummykit.errors import clip

    assert clip("AS") == "'AS'" and clip("A" * 10**6).endswith("...") and len(clip("A" * 10**6)) == 60
    assert clip(10**5000) == "<an int of about 5001 digits>" and clip(BadRepr()) == "<BadRepr object>"
    # a message that shows an input whole (a module that forgot clip) is still cut short
    for shown in ("A" * 10**6, "AS " * 10**5, [0] * 10**5, {i: i for i in range(10**4)}, 10**3000):
        err = InvalidOptionError(f"x must be small, got {shown!r} (expected 0..9)")
        assert len(str(err)) < 120 and str(err).startswith("x must be small, got ")
        assert str(err).endswith("(expected 0..9)")
        again = pickle.loads(pickle.dumps(err))
        assert type(again) is InvalidOptionError and str(again) == str(err)
    listing = "unknown option 'zz'; valid options: " + ", ".join(f"option_{i}" for i in range(80))
    assert str(InvalidOptionError(listing)) == listing  # a long message of short words stays whole
    assert len(str(RummykitError("word " * 10**5))) <= 2000


def test_text_arguments_to_action_constructors() -> None:
    """Action reads text as parse_action does; TableAction points at the state's parser."""
    assert rk.Action("discard 7H") == rk.parse_action("discard 7H") == rk.Action(32)
    with pytest.raises(IllegalActionError, match=r"parse_action"):
        rk.TableAction("meld 7H 8H 9H")  # type: ignore[arg-type]
    with pytest.raises(IllegalActionError, match=r"not an action id: 7588 \(expected action text or an id 0\.\.685\)"):
        rk.Action(7588)
    with pytest.raises(IllegalActionError, match="not an action id: -1"):
        rk.Action(-1)


@pytest.mark.parametrize("game", list(GAMES), ids=list(GAMES))
def test_numpy_values_are_ints(game: str) -> None:
    """numpy integers work wherever an int does (ids from an RL policy, seats from arrays)."""
    state = started(game)
    legal = state.legal_actions()
    assert state.can_act(np.int64(legal[0]))
    state.play(np.int32(legal[0]), player=np.int64(state.current_player))
    again = started(game)
    again.apply_action(np.int64(legal[0]))
    assert again.to_json() == state.to_json()
    key, options = GAMES[game]
    assert rk.Game(key, **options).new_hand(seed=1, dealer=np.int64(0)).dealer == 0


def test_numpy_arrays_as_analysis_options() -> None:
    values = np.arange(1, 14)
    assert rk.deadwood("AS 2S KD", values=values) == rk.deadwood("AS 2S KD", values=list(range(1, 14))) == 16
    assert rk.best_discard("AS 2S KD", values=values.astype(np.uint8)).card == rk.Card("KD")
    for bad in (np.array([1.5] * 13), np.zeros(13, dtype=np.int64), np.arange(1, 13), np.ones((13, 1), dtype=int)):
        with pytest.raises(InvalidOptionError, match="values"):
            rk.deadwood("AS", values=bad)  # type: ignore[arg-type]
    with pytest.raises(InvalidOptionError, match="min_deadwood_only must be True or False"):
        rk.choose_knock("AS 2S 3S 4C", "KD", min_deadwood_only=np.array([True, False]))  # type: ignore[arg-type]
    assert rk.choose_knock("AS 2S 3S 4C", "KD", allow_layoffs=np.bool_(False)).margin == 6
    with pytest.raises(InvalidOptionError, match="resample must be one of"):
        rk.playouts(started("gin"), 2, resample=np.array(["none"]))  # type: ignore[arg-type]


def test_seeds_are_bounded_ints_or_generators() -> None:
    """Seeds are ints 0..2**128-1 (numpy integers too) or Generators; a huge one is refused at once."""
    import time

    from rummykit._random import MAX_SEED, as_generator

    assert MAX_SEED == 2**128 - 1
    assert as_generator(MAX_SEED).integers(10**6) == np.random.default_rng(MAX_SEED).integers(10**6)
    assert as_generator(np.uint64(7)).integers(10**6) == np.random.default_rng(7).integers(10**6)
    start = time.perf_counter()
    for bad in (2**128, -1, -(10**5000), 10**5000, 2 ** (10**6), np.bool_(True), np.array(5)):
        with pytest.raises(
            InvalidOptionError, match=r"^seed must be an int in 0\.\.2\*\*128-1, a numpy Generator or None"
        ):
            as_generator(bad)
        with pytest.raises(InvalidOptionError, match="seed"):
            rk.Game("gin").new_hand(seed=bad)
    assert time.perf_counter() - start < 1.0
    with pytest.raises(InvalidOptionError, match=r"seed must be an int in 0\.\.2\*\*128-1"):
        rk.tournament(["random", "random"], "gin", hands=1, seed=2**128)


def test_tournament_bounds_and_types() -> None:
    from rummykit.tournaments import MAX_HANDS

    assert MAX_HANDS == 10**9
    with pytest.raises(InvalidOptionError, match=r"hands must be an int in 1\.\.1,000,000,000, got 1000000001"):
        rk.tournament(["random", "random"], "gin", hands=MAX_HANDS + 1)
    with pytest.raises(InvalidOptionError, match="progress must be True, False or None"):
        rk.tournament(["random", "random"], "gin", hands=1, progress=np.array([True]))
    with pytest.raises(InvalidOptionError, match="backend must be one of local, ray"):
        rk.tournament(["random", "random"], "gin", hands=1, backend=np.array(["local"]))
    with pytest.raises(InvalidOptionError, match="address must be"):
        rk.tournament(["random", "random"], "gin", hands=1, backend="ray", address=5)
    numpy_counts = rk.tournament(
        ["random", "random"], "gin", hands=np.int64(2), seed=np.uint8(3), progress=np.bool_(False)
    )
    assert numpy_counts == rk.tournament(["random", "random"], "gin", hands=2, seed=3)


@pytest.mark.parametrize("match", ["Match", "TableMatch"])
def test_max_hands_is_checked(match: str) -> None:
    game = "gin" if match == "Match" else "rummy"
    for bad in (0, -1, 1.5, "3", None, True, np.array(3)):
        playing = getattr(rk, match)(game, [rk.RandomAgent(1), rk.RandomAgent(2)], seed=1)
        with pytest.raises(InvalidOptionError, match=r"^max_hands must be an int >= 1, got "):
            playing.play(max_hands=bad)
        assert playing.hands == [] and not playing.is_over  # nothing played
    again = getattr(rk, match)(game, [rk.RandomAgent(1), rk.RandomAgent(2)], seed=1, first_dealer=np.int64(1))
    with pytest.raises(IllegalActionError, match="did not end within 1 hands"):
        again.play(max_hands=np.int64(1))


def test_numpy_values_as_game_options() -> None:
    """numpy scalars are their Python values; numpy arrays are refused naming the option."""
    assert rk.Game("gin", auto_showdown=np.bool_(False)).rules == rk.Game("gin", auto_showdown=False).rules
    assert repr(rk.Game("gin", knock_limit=np.int64(7))) == "Game('gin', knock_limit=7)"
    assert repr(rk.Game("rummy", num_players=np.int64(3))) == "Game('rummy', num_players=3)"
    cases = [
        ("knock_compare", np.array(["le", "lt"]), "knock_compare must be one of: le, lt; got array"),
        ("knock_compare", np.array([]), "knock_compare must be one of: le, lt; got array"),
        ("knock_limit", np.array([1, 2]), r"knock_limit must be an integer in 0\.\.1000000; got array"),
        ("auto_showdown", np.array([True]), "auto_showdown must be true or false; got array"),
    ]
    for option, value, message in cases:
        with pytest.raises(InvalidOptionError, match=message):
            rk.Game("gin", **{option: value})
    with pytest.raises(InvalidOptionError, match="rummy_scoring must be one of"):
        rk.Game("rummy", rummy_scoring=np.array(["penalty"]))


def test_unknown_game_names_are_clipped() -> None:
    for name in ("A" * 10**6, 10**100, "AS " * 300_000):
        with pytest.raises(InvalidOptionError) as info:
            rk.Game(name)  # type: ignore[arg-type]
        text = str(info.value)
        shown = text[len("unknown game ") : text.index("; valid games: ")]
        assert len(shown) <= 40 and text.endswith(", partnership_oklahoma, rummy")
    with pytest.raises(InvalidOptionError, match=r"unknown game 'ginn' \(did you mean 'gin'\?\); valid games: "):
        rk.Game("ginn")


def test_core_rules_checks_its_own_arguments() -> None:
    """_rules.core_rules refuses every bad aces/values with InvalidOptionError, clipped; values
    equal to valid ones but of another type (1.0, True) are refused even once those are cached."""
    from rummykit._rules import core_rules

    assert core_rules("low", list(range(1, 14))) is core_rules("low", np.arange(1, 14))
    assert core_rules("high", {"A": 11}) is core_rules("high", {"A": 11})
    floats = [float(v) for v in range(1, 14)]
    bools = [True, *range(2, 14)]
    for aces, values, message in [
        ("low", floats, "values: A must be an int in 1..255, got 1.0"),
        ("low", bools, "values: A must be an int in 1..255, got True"),
        ("low", 5, "values must be 13 ints 1..255 (A..K) or a mapping from rank text to value, got 5"),
        ("low", {10**5000: 1}, "values: unknown rank <an int of about 5001 digits>"),
        ("low", {"A": 10**5000}, "values: A must be an int in 1..255, got <an int of about 5001 digits>"),
        ("low", np.array(5), "values must be 13 ints"),
        (["low"], None, "aces must be one of low, high, both, got ['low']"),
        ("A" * 10**6, None, "aces must be one of low, high, both, got 'AAAA"),
    ]:
        with pytest.raises(InvalidOptionError) as info:
            core_rules(aces, values)  # type: ignore[arg-type]
        assert str(info.value).startswith(message) and len(str(info.value)) < 200
    assert core_rules("low", {"A": 1, 2: 3}).values[1] == 3  # keys of mixed types (not cached as given)
