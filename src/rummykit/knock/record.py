"""Hand records: a knock-game hand as JSON text, and back.

A record holds what is needed to replay a hand exactly (the game and its
options, the deal, the restock seed and every action) and nothing that the
replay computes, except an optional copy of the result for readers, which
is checked on reading.  ``to_json(state)`` writes one; ``from_json(text)``
rebuilds the game, deals the recorded deck and replays every action through
the checked path (``state.play``), so a record of an illegal hand is
rejected.  Mid-hand states round-trip as well as finished hands.

A record describes a state by its deal and actions, so ``to_json`` needs a
state that they reproduce.  States played from ``game.new_hand`` (or rebuilt
by ``from_json``) always are; a state without its undo history (one made by
``state.determinize``) is replayed once to check, and refused with
:class:`~rummykit.errors.InvalidOptionError` if it differs (after a restock:
its stock was not shuffled from its ``shuffle_seed``).  Restocks are
shuffled by the C core's ``rk_restock_shuffle(shuffle_seed, restock)``
(splitmix64, documented in rummykit.h), so records with restocks replay the
same on every platform.

Format (version 1): a JSON object with exactly these keys, written in this
order, one key per line, each value compact on its line::

    {
     "format": "rummykit.hand",
     "version": 1,
     "family": "knock",
     "game": "oklahoma_gin",
     "options": {"max_restocks": 1, "stock_end_rule": "reshuffle"},
     "dealer": 0,
     "deck": ["7H", "KS", "2C", ...],
     "shuffle_seed": 4230288999919739692,
     "actions": ["draw stock", "discard KS", "take", "knock 9C"],
     "knock_melds": [["7H", "8H", "9H"], ["QC", "QD", "QS"]],
     "result": {"deadwood": [4, 23], "outcome": "knock", "points": [19, 0], "winner": 0}
    }

=================  ==========================================================
key                value
=================  ==========================================================
``format``         ``"rummykit.hand"``
``version``        ``1``; a reader rejects versions it does not know
``family``         ``"knock"`` (Gin Rummy, Oklahoma Gin, Oklahoma Rummy)
``game``           the game or preset name (``rules.name``; any name
                   :func:`rummykit.Game` accepts is read)
``options``        the options given explicitly (``rules.given``), sorted
``dealer``         the dealer's seat
``deck``           the 52 cards as text, top of the deck first; the deal
                   is one card at a time from the dealer's left, then the
                   upcard, then the stock
``shuffle_seed``   the int (0 <= seed < 2**64) that seeds restock shuffles
``actions``        every action as text (``str(Action)``, read back with
                   :func:`~rummykit.knock.actions.parse_action`), in order
``knock_melds``    null, or the melds (lists of card text, in the order
                   shown) when the hand's knock action used an explicit
                   arrangement (``state.knock(card, melds=...)``); the
                   knock is the last action, or with ``auto_showdown``
                   false the one before the defenders' declarations
``result``         null (unfinished, or left out), or for a finished hand
                   ``outcome``, ``winner`` (seat or null), ``points`` and
                   ``deadwood`` (per seat); informational, but a reader
                   checks it against the replay
=================  ==========================================================

Errors (all :class:`~rummykit.errors.RummykitError`, i.e. ``ValueError``):
:class:`~rummykit.errors.InvalidOptionError` for text that is not a JSON
object, a wrong format, family or version, missing, extra or duplicated
keys, wrong types, an unknown game or option, a bad dealer or seed, an
oversized record and a ``result`` that the replay does not reproduce;
:class:`~rummykit.errors.InvalidCardError` for a deck that is not the 52
cards once each and bad card text; :class:`~rummykit.errors.IllegalActionError`
for action text that does not parse, an illegal action (its index is named),
actions after the end of the hand and ``knock_melds`` without a knock;
:class:`~rummykit.errors.InvalidMeldError` for ``knock_melds`` that are not
melds of the knocker's hand.  Only :mod:`json` is used to read a record.

>>> import rummykit as rk
>>> state = rk.Game("gin").new_hand(seed=7, dealer=0)
>>> state.play("pass"); state.play("pass"); state.play("draw stock")
>>> copy = from_json(to_json(state))
>>> copy.hands == state.hands and copy.history == state.history
True
"""

from __future__ import annotations

import dataclasses
import json
import math
import numbers
from typing import Any, NoReturn

from rummykit.analysis import as_meld
from rummykit.cards import Card, parse_card
from rummykit.engine.game import Game
from rummykit.engine.records import load
from rummykit.errors import IllegalActionError, InvalidCardError, InvalidOptionError, RummykitError
from rummykit.knock.actions import DRAW_STOCK, KNOCK, Action, parse_action
from rummykit.knock.game import KnockGame
from rummykit.knock.rules import KnockRules
from rummykit.knock.state import KnockState

__all__ = [
    "FORMAT",
    "MAX_ACTIONS",
    "MAX_RECORD_CHARS",
    "VERSION",
    "from_json",
    "from_record",
    "load",
    "to_json",
    "to_record",
]

FORMAT = "rummykit.hand"
VERSION = 1
#: the largest record read, in characters (bytes for ``bytes`` input)
MAX_RECORD_CHARS = 1_000_000
#: the most actions a record may hold
MAX_ACTIONS = 100_000

_KEYS = (
    "format",
    "version",
    "family",
    "game",
    "options",
    "dealer",
    "deck",
    "shuffle_seed",
    "actions",
    "knock_melds",
    "result",
)
_RESULT_KEYS = ("deadwood", "outcome", "points", "winner")
_SEED_BOUND = 2**64

# the JSON type each option takes, from the KnockRules annotations
_OPTION_TYPES: dict[str, str] = {
    f.name: str(f.type) for f in dataclasses.fields(KnockRules) if f.name not in ("name", "given")
}


# --- writing ---------------------------------------------------------------


def _option_value(name: str, value: object) -> object:
    """An option value as the JSON data a reader accepts: ints for int
    options that the rules took as equal floats, bools or numpy ints."""
    kind = _OPTION_TYPES.get(name, "")
    if kind == "bool" and isinstance(value, bool):
        return value
    if kind == "str" and isinstance(value, str):
        return value
    if kind == "int | None" and value is None:
        return None
    if kind.startswith("int") and isinstance(value, numbers.Integral):
        return int(value)
    try:
        number = float(value) if isinstance(value, numbers.Real) else math.nan
    except OverflowError:
        number = math.nan
    if math.isfinite(number):
        if kind.startswith("int") and number.is_integer():
            return int(number)
        if kind == "float" and not isinstance(value, bool):
            return number
    raise InvalidOptionError(f"option {name}={value!r} cannot be written to a hand record")


def _card_texts(cards: Any) -> list[str]:
    return [str(Card(int(c))) for c in cards]


def to_record(state: KnockState) -> dict[str, Any]:
    """The record of ``state`` as a dict of JSON data (see the module docstring)."""
    rules = state.rules
    # each view read once: another thread may change the state between two reads
    shown, r = state.shown_melds, state.result
    melds = None
    if shown is not None:
        melds = [_card_texts(as_meld(int(m), aces=rules.aces).cards) for m in shown]
    result = None
    if r is not None:
        result = {
            "deadwood": [int(d) for d in r.deadwood],
            "outcome": r.outcome,
            "points": [int(p) for p in r.points],
            "winner": None if r.winner is None else int(r.winner),
        }
    return {
        "format": FORMAT,
        "version": VERSION,
        "family": state.game.family,
        "game": rules.name,
        "options": {name: _option_value(name, value) for name, value in sorted(rules.given)},
        "dealer": int(state.dealer),
        "deck": _card_texts(state.deck),
        "shuffle_seed": int(state.shuffle_seed),
        "actions": [str(Action(int(a))) for a in state.history],
        "knock_melds": melds,
        "result": result,
    }


def to_json(state: KnockState) -> str:
    """The hand record of ``state`` (finished or not) as JSON text: one key
    per line in a fixed order, deterministic, ASCII only, no final newline.

    Raises :class:`~rummykit.errors.InvalidOptionError` for an option value
    JSON cannot hold and for a state its record would not reproduce (see
    the module docstring)."""
    record = to_record(state)
    lines = [f" {json.dumps(key)}: {json.dumps(record[key], sort_keys=True)}" for key in _KEYS]
    text = "{\n" + ",\n".join(lines) + "\n}"
    if state._undo_depth != len(state.history):
        _check_replays(state, text)
    return text


# what a replay must reproduce
_REPLAYED = (
    "phase",
    "player",
    "hands",
    "stock",
    "discards",
    "known",
    "taken",
    "restocks",
    "set_aside",
    "result",
    "knock_card",
    "shown_melds",
    "turns",
    "drawn",
    "showdown",
)


def _check_replays(state: KnockState, text: str) -> None:
    """A state not played from its deal (``determinize`` makes one: no undo
    history) is written only if its record replays to it."""
    try:
        replayed = from_json(text)
    except RummykitError as e:
        problem = f"fails: {_clip(e, 200)}"
    else:
        differ = [name for name in _REPLAYED if getattr(replayed, name, None) != getattr(state, name, None)]
        if not differ:
            return
        problem = f"differs in {', '.join(differ)}"
    raise InvalidOptionError(
        "this state cannot be written as a hand record: it was not reached by play from its deal "
        f"(a determinized state after a restock?), and a replay of its deal and actions {problem}"
    )


# --- reading -----------------------------------------------------------------


def _bad(message: str) -> NoReturn:
    raise InvalidOptionError(f"hand record: {message}")


def _short(value: object, limit: int = 60) -> str:
    """``repr(value)``, clipped for an error message."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _clip(message: object, limit: int = 500) -> str:
    """An error's text, clipped for another error message."""
    text = str(message)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _type_name(value: object) -> str:
    names = {
        dict: "an object",
        list: "an array",
        str: "a string",
        bool: "a boolean",
        int: "an integer",
        float: "a number",
        type(None): "null",
    }
    return names.get(type(value), type(value).__name__)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_header(record: object) -> dict[str, Any]:
    if not isinstance(record, dict):
        _bad(f"expected a JSON object, got {_type_name(record)}")
    if "format" not in record:
        _bad(f"not a rummykit hand record: no 'format' key (expected {FORMAT!r})")
    if record["format"] != FORMAT:
        _bad(f"not a rummykit hand record: format must be {FORMAT!r}, got {_short(record['format'])}")
    if "version" not in record:
        _bad("missing key(s): version")
    version = record["version"]
    if isinstance(version, bool) or not isinstance(version, int):
        _bad(f"version must be an integer, got {_short(version)}")
    if version != VERSION:
        newer = " (a newer rummykit wrote it)" if version > VERSION else ""
        _bad(f"unsupported version {_short(version)}{newer}; this rummykit reads version {VERSION}")
    if record.get("family") == "table":  # before the keys, which differ: say which reader to use
        _bad("family 'table' is a Rummy or Kaluki record (rummykit.from_json reads every game's records)")
    missing = [k for k in _KEYS if k not in record]
    extra = sorted(k for k in record if k not in _KEYS)
    if missing:
        _bad(f"missing key(s): {', '.join(missing)}")
    if extra:
        _bad(f"unknown key(s): {', '.join(map(_short, extra))}")
    if record["family"] != "knock":
        _bad(f"unknown game family {_short(record['family'])} (this reader knows 'knock')")
    return record


def _check_options(options: object) -> dict[str, Any]:
    if not isinstance(options, dict):
        _bad(f"options must be an object, got {_type_name(options)}")
    for name, value in options.items():
        kind = _OPTION_TYPES.get(name)
        if kind is None:
            continue  # the rules name the unknown option
        ok = {
            "bool": isinstance(value, bool),
            "int": _is_int(value),
            "str": isinstance(value, str),
            "float": _is_int(value) or (isinstance(value, float) and math.isfinite(value)),
            "int | None": value is None or _is_int(value),
        }.get(kind, False)
        if not ok:
            _bad(f"option {name} must be {kind.replace(' | None', ' or null')}, got {_short(value)}")
    return options


def _cards(value: object, where: str, count: int | None = None) -> list[Card]:
    if not isinstance(value, list):
        raise InvalidCardError(f"hand record: {where} must be an array of card text, got {_type_name(value)}")
    if count is not None and len(value) != count:
        raise InvalidCardError(f"hand record: {where} must hold each of the 52 cards once, got {len(value)} cards")
    cards = []
    seen: dict[Card, int] = {}
    for i, text in enumerate(value):
        if not isinstance(text, str):
            raise InvalidCardError(f"hand record: {where}[{i}] must be card text, got {_short(text)}")
        try:
            card = parse_card(text)
        except InvalidCardError as e:
            raise InvalidCardError(f"hand record: {where}[{i}]: {_clip(e)}") from None
        if card in seen:
            raise InvalidCardError(
                f"hand record: {where}: duplicate card {card} at {where}[{seen[card]}] and {where}[{i}]"
            )
        seen[card] = i
        cards.append(card)
    return cards


def _check_result(result: object) -> dict[str, Any] | None:
    if result is None:
        return None
    if not isinstance(result, dict):
        _bad(f"result must be an object or null, got {_type_name(result)}")
    if sorted(result) != sorted(_RESULT_KEYS):
        _bad(f"result must have exactly the keys {', '.join(_RESULT_KEYS)}, got {', '.join(sorted(result)) or 'none'}")
    if not isinstance(result["outcome"], str):
        _bad(f"result.outcome must be a string, got {_short(result['outcome'])}")
    if result["winner"] is not None and not _is_int(result["winner"]):
        _bad(f"result.winner must be a seat or null, got {_short(result['winner'])}")
    for key in ("points", "deadwood"):
        if not isinstance(result[key], list) or not all(_is_int(v) for v in result[key]):
            _bad(f"result.{key} must be an array of integers, got {_short(result[key])}")
    return result


def _parse_actions(actions: object) -> list[Action]:
    if not isinstance(actions, list):
        _bad(f"actions must be an array of action text, got {_type_name(actions)}")
    if len(actions) > MAX_ACTIONS:
        _bad(f"too many actions: {len(actions)} (at most {MAX_ACTIONS})")
    parsed = []
    for i, text in enumerate(actions):
        if not isinstance(text, str):
            raise IllegalActionError(f"hand record: actions[{i}] must be action text, got {_short(text)}")
        try:
            parsed.append(parse_action(text))
        except IllegalActionError as e:
            raise IllegalActionError(f"hand record: actions[{i}]: {_clip(e)}") from None
    return parsed


def from_record(record: object) -> KnockState:
    """Rebuild and replay a hand from record data (a dict as :func:`json.loads`
    gives it); see :func:`from_json`."""
    try:
        return _from_record(record)
    except RummykitError:
        raise
    except (ArithmeticError, LookupError, TypeError, ValueError) as e:
        # a value the rules let through but the engine cannot play (e.g. an
        # option too large for the C core): still a bad record, not a crash
        raise InvalidOptionError(f"hand record: the engine cannot play it ({type(e).__name__}: {_clip(e)})") from e


def _from_record(record: object) -> KnockState:
    data = _check_header(record)
    game_name = data["game"]
    if not isinstance(game_name, str):
        _bad(f"game must be a string, got {_short(game_name)}")
    options = _check_options(data["options"])
    try:
        game = Game(game_name, **options)
    except RummykitError as e:
        raise type(e)(f"hand record: {_clip(e)}") from None
    if not isinstance(game, KnockGame):
        _bad(f"game {game_name!r} is not a knock game (rummykit.from_json reads every game's records)")
    n = game.num_players
    dealer = data["dealer"]
    if not _is_int(dealer) or not 0 <= dealer < n:
        _bad(f"dealer must be a seat 0..{n - 1}, got {_short(dealer)}")
    deck = _cards(data["deck"], "deck", 52)
    seed = data["shuffle_seed"]
    if not _is_int(seed) or not 0 <= seed < _SEED_BOUND:
        _bad(f"shuffle_seed must be an integer 0 <= seed < 2**64, got {_short(seed)}")
    actions = _parse_actions(data["actions"])
    melds = data["knock_melds"]
    shown: list[list[Card]] | None = None
    knock_at = next((i for i, a in enumerate(actions) if KNOCK <= a.id < DRAW_STOCK), -1)
    if melds is not None:
        if not isinstance(melds, list):
            _bad(f"knock_melds must be an array of melds or null, got {_type_name(melds)}")
        shown = [_cards(m, f"knock_melds[{i}]") for i, m in enumerate(melds)]
        if knock_at < 0:
            raise IllegalActionError("hand record: knock_melds is given but no action is a knock")
    result = _check_result(data["result"])

    state = game.new_hand(seed=0, dealer=dealer, deck=[int(c) for c in deck]).with_fields(shuffle_seed=seed)
    _replay(state, actions, data["actions"], shown, knock_at)
    if result is not None:
        _compare_result(state, result)
    return state


def _replay(
    state: KnockState, actions: list[Action], texts: list[str], shown: list[list[Card]] | None, knock_at: int
) -> None:
    for i, action in enumerate(actions):
        if state.is_terminal():
            raise IllegalActionError(
                f"hand record: actions[{i}] {_short(texts[i])}: the hand ended with "
                f"actions[{i - 1}], {len(actions) - i} action(s) follow the end"
            )
        seat, phase = state.current_player, state.phase_name
        try:
            if i == knock_at and shown is not None:
                card = action.card
                assert card is not None
                state.knock(card, melds=shown)
            else:
                state.play(action)
        except IllegalActionError as e:
            raise IllegalActionError(
                f"hand record: actions[{i}] {_short(texts[i])} by seat {seat} (phase {phase}) is illegal: {_clip(e)}"
            ) from None
        except RummykitError as e:  # melds that are not melds of the knocker's hand
            raise type(e)(f"hand record: knock_melds for actions[{i}] {_short(texts[i])}: {_clip(e)}") from None


def _compare_result(state: KnockState, stored: dict[str, Any]) -> None:
    r = state.result
    if r is None:
        _bad(
            f"result is given but the hand is unfinished after {len(state.history)} actions (phase {state.phase_name})"
        )
    replayed = {"outcome": r.outcome, "winner": r.winner, "points": list(r.points), "deadwood": list(r.deadwood)}
    for key in _RESULT_KEYS:
        if stored[key] != replayed[key]:
            _bad(f"result.{key} is {_short(stored[key])} but the replay gives {_short(replayed[key])}")


def from_json(text: str | bytes) -> KnockState:
    """The hand a record describes, replayed to its last action.

    Every action goes through the checked path, so the state is exactly the
    one ``to_json`` was given (hands, stock, discards, history, undo stack,
    result).  Raises a :class:`~rummykit.errors.RummykitError` subclass
    naming the problem for any malformed, oversized or illegal record (see
    the module docstring); never evaluates anything but JSON.
    """
    return from_record(load(text, MAX_RECORD_CHARS))
