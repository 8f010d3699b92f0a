"""rummykit: a C-accelerated engine for the rummy family of card games.

The hand-analysis core (melds, least deadwood, best discard, lay-offs and
batch kernels) works on card bitmasks in C; see :mod:`rummykit.cards` for
the card notation and mask layout and :mod:`rummykit.analysis` for the API.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from rummykit.analysis import (
    Arrangement,
    Discard,
    KnockChoice,
    Layoff,
    LayoffResult,
    Meld,
    arrangements,
    as_meld,
    best_discard,
    best_discard_batch,
    best_melds,
    choose_knock,
    deadwood,
    deadwood_batch,
    discard_deadwoods,
    layoff,
    melds,
)
from rummykit.cards import Card, cards_text, from_mask, parse_card, parse_cards, to_mask
from rummykit.engine.hand_loop import play_hand
from rummykit.engine.match import Match
from rummykit.engine.options import Option, parse_value
from rummykit.engine.protocol import GameState
from rummykit.errors import (
    AgentError,
    IllegalActionError,
    InvalidCardError,
    InvalidMeldError,
    InvalidOptionError,
    ReadOnlyError,
    RummykitError,
)
from rummykit.games import Game, game_names, game_options, game_presets
from rummykit.knock.actions import Action, parse_action
from rummykit.knock.game import KnockGame
from rummykit.knock.match import GameResult, KnockMatch, MatchResult
from rummykit.knock.showdown import HandResult
from rummykit.knock.state import KnockState, Phase
from rummykit.playouts import playouts  # the function, not the submodule of the same name
from rummykit.records import from_json
from rummykit.scoring import HollywoodSheet, settle
from rummykit.table.actions import TableAction
from rummykit.table.game import TableGame
from rummykit.table.match import TableMatch, TableMatchResult
from rummykit.table.scoring import TableResult
from rummykit.table.state import TableState

#: the knock games' names beside the Table* ones (the generic-looking names above stay too)
KnockAction = Action
KnockPhase = Phase
KnockResult = HandResult
KnockGameResult = GameResult
KnockMatchResult = MatchResult
parse_knock_action = parse_action

if TYPE_CHECKING:
    from rummykit.agents import GreedyAgent, ISMCTSAgent, RandomAgent, make_agent
    from rummykit.tournaments import TournamentResult, tournament

from rummykit._version import __version__ as __version__  # noqa: E402 (the package version)

#: names imported on first use, keeping `import rummykit` light (the agents and
#: tournaments pull in search code, the external baselines and process pools)
_LAZY = {
    "GreedyAgent": "rummykit.agents",
    "ISMCTSAgent": "rummykit.agents",
    "RandomAgent": "rummykit.agents",
    "make_agent": "rummykit.agents",
    "TournamentResult": "rummykit.tournaments",
    "tournament": "rummykit.tournaments",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'rummykit' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))


__all__ = [
    "AgentError",
    "Action",
    "Arrangement",
    "Card",
    "Discard",
    "Game",
    "GameResult",
    "GameState",
    "GreedyAgent",
    "HandResult",
    "HollywoodSheet",
    "ISMCTSAgent",
    "IllegalActionError",
    "InvalidCardError",
    "InvalidMeldError",
    "InvalidOptionError",
    "KnockAction",
    "KnockChoice",
    "KnockGame",
    "KnockGameResult",
    "KnockMatch",
    "KnockMatchResult",
    "KnockPhase",
    "KnockResult",
    "KnockState",
    "Layoff",
    "LayoffResult",
    "Match",
    "MatchResult",
    "Meld",
    "Option",
    "Phase",
    "RandomAgent",
    "ReadOnlyError",
    "RummykitError",
    "TableAction",
    "TableGame",
    "TableMatch",
    "TableMatchResult",
    "TableResult",
    "TableState",
    "TournamentResult",
    "arrangements",
    "as_meld",
    "best_discard",
    "best_discard_batch",
    "best_melds",
    "cards_text",
    "choose_knock",
    "deadwood",
    "deadwood_batch",
    "discard_deadwoods",
    "from_json",
    "from_mask",
    "game_names",
    "game_options",
    "game_presets",
    "layoff",
    "make_agent",
    "melds",
    "parse_action",
    "parse_knock_action",
    "parse_value",
    "play_hand",
    "playouts",
    "parse_card",
    "parse_cards",
    "settle",
    "to_mask",
    "tournament",
]
