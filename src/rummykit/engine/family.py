"""The facts of a game family in one record: :class:`Family`.

A family (the knock games: Gin, Oklahoma Gin, Oklahoma Rummy; the table games: Rummy,
Kaluki) is one C engine and its Python classes.  Each family package states its facts once,
in its ``family.py``, and the registry (:mod:`rummykit.games`) registers it with
:func:`register`.  Code that runs every game (agents, the environments, batched play,
tournaments, the terminal game, the command line) reads these facts, through
``game.family_record`` or the game-level properties of :class:`~rummykit.engine.game.Game`
(``num_distinct_actions``, ``num_fixed_actions``, ``observation_layout``, ``score_kind``...),
and never tests which family a game is.

The family's views (observation and determinization, hand records, the terminal view)
import its state; the state reaches them through this record (``family.observe``,
``family.records``, ``family.view``), named by module so that they load on first use and
the state imports no view.  No game family is imported here.
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import ModuleType
from typing import TYPE_CHECKING, Any

from rummykit.errors import InvalidOptionError, clip

if TYPE_CHECKING:
    from rummykit.engine.game import Game

__all__ = ["ACTION_INDEX_KINDS", "FAMILIES", "SCORE_KINDS", "Family", "family_record", "register", "state_family"]

#: A learner's fixed action ids (one per move, the same move in every state): ``"engine"``, the
#: engine's action ids themselves (the knock games); ``"fixed"``, ids packed from the engine's
#: sparse ones by the family's ``fixed_action`` (the table games, :mod:`rummykit.table.fixed`)
ACTION_INDEX_KINDS = ("engine", "fixed")
#: ``"points"``: a hand's and a match's scores are points won (higher is better);
#: ``"penalties"``: they are penalty points taken (lower is better)
SCORE_KINDS = ("points", "penalties")


@dataclass(frozen=True)
class Family:
    """One game family's facts (registered by its package, read by every caller).

    ``game``, ``state``, ``match``: its classes; ``action``: its action class (``from_id``,
    text); ``num_fixed_actions``: the learner's fixed action ids (one per move, the same move
    in every state): the engine ids when ``action_index`` is ``"engine"``, else
    ``fixed_action(engine_id)`` gives a move's fixed id (``action_index`` ``"fixed"``);
    ``num_dense_actions``: the slots of the dense per-state index (action ``k`` is the ``k``-th
    of the state's sorted ``legal_actions()``, for search), None where the family has none;
    ``outcomes``: the names a hand's ``result.outcome`` takes; ``greedy``: the C greedy
    policy, ``greedy(state, max_knock_deadwood)`` -> an action id (``max_knock_deadwood`` is
    None or, in a knock game, the most deadwood the policy knocks with); ``aliases`` (every
    accepted game name -> its canonical name), ``presets`` (preset -> base game),
    ``base_games``, ``options(name)`` (every option of a game name as
    :class:`~rummykit.engine.options.Option` records); ``observe``, ``records``: the modules
    of its observation (``observation``, ``observation_tensor``,
    ``information_state_string``, ``determinize``, ``OBSERVATION_LAYOUT``) and of its hand
    records (``to_json``, ``from_record``); ``view``: ``"module:Class"`` of its terminal
    view (``rummykit play``, ``rummykit replay``); ``match_points(match, seat)``: a
    finished match's points for ``seat``, higher is better (``reward="points"`` in the
    environments); ``posterior(state, seat, count, rng, model, moves=...)``: ``count``
    determinizations weighted by an opponent model (``ISMCTSAgent(model="soft-greedy")``),
    None where the model does not apply (no such model: ``posterior`` is None).

    ``knocks``: whether a hand ends by a knock and a showdown, its actions being the knock
    codec's (discard, knock with a discard, stock draw, take, pass, big gin): strategies
    written for knocking (``BestAgent``'s particle filter, the ``eaai-simple`` and
    ``patient`` styles, the server's gin hint, ``max_knock_deadwood``) check it and raise
    naming the game where it is False.  ``core_outcomes``: the outcome names by the C
    engine's code (None: no outcome), as its playouts and batched games report them;
    ``playouts(state, resample, policy, knock_at, seed)`` -> ``run(lo, hi, points,
    outcomes)``: the C playouts ``lo .. hi - 1`` of a hand not over (:func:`rummykit.playouts`
    checks the arguments, splits the work over threads and names the outcomes);
    ``hand_returns(rules, outcome, winner, values)``: each seat's returns of a hand from the
    values the seats hold, where the C batched engine reports those values (None: it
    reports the returns themselves).  ``rules_sections``: each base game's sections of
    docs/rules.md (its own, those it builds on, the common rules: ``rummykit rules NAME``).
    """

    name: str
    game: type[Game]
    state: type
    match: type
    action: type
    num_fixed_actions: int
    action_index: str
    outcomes: tuple[str, ...]
    greedy: Callable[[Any, int | None], int]
    aliases: Mapping[str, str]
    presets: Mapping[str, str]
    base_games: tuple[str, ...]
    options: Callable[[str], dict[str, Any]]
    match_points: Callable[[Any, int], float]
    observe_module: str
    records_module: str
    view: str
    knocks: bool
    core_outcomes: tuple[str | None, ...]
    playouts: Callable[[Any, str, int, int, int], Callable[[int, int, Any, Any], None]]
    rules_sections: Mapping[str, tuple[str, ...]]
    posterior: Callable[..., list[Any] | None] | None = None
    hand_returns: Callable[[Any, str, int | None, list[int]], tuple[int, ...]] | None = None
    fixed_action: Callable[[int], int] | None = None
    num_dense_actions: int | None = None

    def __post_init__(self) -> None:
        if self.action_index not in ACTION_INDEX_KINDS:
            raise InvalidOptionError(f"action_index must be one of {ACTION_INDEX_KINDS}, got {clip(self.action_index)}")
        if (self.action_index == "fixed") != (self.fixed_action is not None):
            raise InvalidOptionError("fixed_action goes with action_index 'fixed', and only with it")

    @functools.cached_property
    def observe(self) -> ModuleType:
        """The family's observation module (loaded on first use)."""
        return importlib.import_module(self.observe_module)

    @functools.cached_property
    def records(self) -> ModuleType:
        """The family's hand-record module (loaded on first use)."""
        return importlib.import_module(self.records_module)

    @property
    def observation_layout(self) -> list[tuple[str, int, int]]:
        """The observation tensor's slices ``(name, start, stop)``, in order, covering it."""
        layout: list[tuple[str, int, int]] = self.observe.OBSERVATION_LAYOUT
        return layout

    @property
    def observation_tensor_size(self) -> int:
        """The length of every observation tensor of the family."""
        return self.observation_layout[-1][2]

    def view_class(self) -> type:
        """The terminal view (``rummykit play`` and ``replay``), loaded on first use."""
        module, _, name = self.view.partition(":")
        view: type = getattr(importlib.import_module(module), name)
        return view


#: family name -> its record, in registration order
FAMILIES: dict[str, Family] = {}


def register(family: Family) -> Family:
    """Register a family (the registry, :mod:`rummykit.games`, does it once per family);
    a second family of the same name, or a game name two families claim, raises."""
    if not isinstance(family, Family):
        raise InvalidOptionError(f"expected a Family record, got {clip(family)}")
    if family.name in FAMILIES and FAMILIES[family.name] is not family:
        raise InvalidOptionError(f"family {family.name!r} is registered already")
    for other in FAMILIES.values():
        if other is not family and (shared := set(other.aliases) & set(family.aliases)):
            raise InvalidOptionError(f"game names of two families: {sorted(shared)[:5]}")
    FAMILIES[family.name] = family
    family.game.family_record = family  # the game's facts: one class attribute to read
    return family


def state_family(state: object) -> Family | None:
    """The family of an engine state (an instance of a registered family's state class), or
    None for anything else (a foreign state)."""
    for family in FAMILIES.values():
        if isinstance(state, family.state):
            return family
    return None


def family_record(name: str) -> Family:
    """The registered record of the family called ``name`` (``"knock"``, ``"table"``)."""
    try:
        return FAMILIES[name]
    except KeyError:
        raise InvalidOptionError(f"unknown family {clip(name)}; families: {', '.join(FAMILIES)}") from None
