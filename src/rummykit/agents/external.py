"""Standard baselines written by others, playing rummykit hands: OpenSpiel's
SimpleGinRummyBot (``openspiel-simple``) and RLCard's gin-rummy-novice-rule agent
(``rlcard-novice``).

Each plays Gin on the rules it was written for, so each fixes the game
(:data:`OPENSPIEL_GIN` and :data:`RLCARD_GIN`: ``Game("gin", **options)``); it
refuses a state of any other rules, and :func:`rummykit.tournament` and
``rummykit tournament`` set those rules when one of them plays
(:func:`required_game`).  They need their extras: ``pip install
"rummykit[openspiel]"`` and ``pip install "rummykit[rlcard]"``; without them,
building the agent raises :class:`~rummykit.errors.InvalidOptionError` saying so.

**openspiel-simple.**  ``pyspiel.make_simple_gin_rummy_bot`` on OpenSpiel's
``gin_rummy`` (knock card 10, gin and undercut bonuses 25), driven through the id
mapping of :mod:`rummykit.envs.gin_rummy_ids`: at each decision the hand so far is
replayed into a ``gin_rummy`` state (the same deal, the same stock draws, every
action mapped), the bot steps on it (it reads only its own observation tensor)
and its action is mapped back.  OpenSpiel's knock (``Knock``, then the discard)
is one rummykit action; its wall (the opponent may take the last discard only to
knock, else the hand is dead) is rummykit's ``dead_at_2_last_chance``; a tie
(``d = k``, no gin) scores 0 in both (``undercut_on_tie=False``: the knocker
wins 0 points); the card just taken may be discarded at once
(``forbid_discarding_taken_card=False``: the bot takes an upcard that lets it
knock by throwing that very card).  Differences left: rummykit arranges the
showdown itself (the bot would lay its least-deadwood melds and never lay off;
rummykit lays off for it), does not end the hand when both players throw back
the card they just took, one after the other (OpenSpiel's repeated-move rule;
the replay then stops with an error), and has no cap of 50 upcard takes.

**rlcard-novice.**  ``rlcard.models.gin_rummy_rule_models.GinRummyNoviceRuleAgent``
given RLCard's input: its legal action ids (draw, pick up the discard, declare a
dead hand, gin, discard C, knock C) and the 5x52 observation planes (hand, top
discard, the rest of the discard pile, the opponent's known cards, the unknown
cards), card ids ``rank + 13 * suit`` with suits S H D C.  It gins or knocks
whenever it can, discards a card of least resulting deadwood, and picks its
draw at random: the random choices come from the agent's seeded generator (the
global numpy generator it calls is seeded for the call and restored after), so
a seed repeats its play.  RLCard's rules as rummykit options: the first turn is
a normal one (``first_turn_procedure="normal"``; RLCard deals the non-dealer 11
cards and has no upcard, rummykit deals an upcard the non-dealer may take), the
taken card may not be discarded (as in RLCard), with two cards left in the stock
the next player may take the last discard only to knock or go gin, else the hand
is dead (``dead_at_2_last_chance``; RLCard lets the taker play on).  Hands are
scored with rummykit's Gin scoring (RLCard's own payoffs are not points).

>>> OPENSPIEL_GIN[1]
{'stock_end_rule': 'dead_at_2_last_chance', 'undercut_on_tie': False, 'forbid_discarding_taken_card': False}
>>> RLCARD_GIN[1]
{'first_turn_procedure': 'normal', 'stock_end_rule': 'dead_at_2_last_chance'}
"""

from __future__ import annotations

import importlib
import json
from collections import OrderedDict
from collections.abc import Sequence
from functools import cache
from typing import TYPE_CHECKING, Any

from rummykit._random import as_generator
from rummykit.agents.base import register
from rummykit.errors import InvalidOptionError, RummykitError, clip
from rummykit.knock.actions import BIG_GIN, DRAW_STOCK, KNOCK, PASS, TAKE

if TYPE_CHECKING:
    import numpy as np

__all__ = [
    "EXTERNAL_AGENTS",
    "OPENSPIEL_GIN",
    "RLCARD_GIN",
    "OpenSpielSimpleAgent",
    "RLCardNoviceAgent",
    "game_for",
    "required_game",
]

#: OpenSpiel's gin_rummy rules as a rummykit game: (name, options)
OPENSPIEL_GIN: tuple[str, dict[str, Any]] = (
    "gin",
    {"stock_end_rule": "dead_at_2_last_chance", "undercut_on_tie": False, "forbid_discarding_taken_card": False},
)
#: RLCard's gin rummy rules as a rummykit game: (name, options)
RLCARD_GIN: tuple[str, dict[str, Any]] = (
    "gin",
    {"first_turn_procedure": "normal", "stock_end_rule": "dead_at_2_last_chance"},
)


def _import(module: str, extra: str, agent: str) -> Any:
    try:
        return importlib.import_module(module)
    except ImportError:
        raise InvalidOptionError(
            f"the {agent} agent needs {module.split('.')[0]}: pip install 'rummykit[{extra}]'"
        ) from None


@cache
def _rules_of(name: str, options: tuple[tuple[str, Any], ...]) -> Any:
    from rummykit.games import Game

    return Game(name, **dict(options)).rules


class _FixedRules:
    """An agent that plays one game on fixed rules (``required_game``)."""

    required_game: tuple[str, dict[str, Any]]
    label: str

    def _check(self, state: Any) -> None:
        name, options = self.required_game
        if getattr(state, "rules", None) != _rules_of(name, tuple(sorted(options.items()))):
            settings = ", ".join(f"{k}={v!r}" for k, v in options.items())
            raise InvalidOptionError(
                f"{self.label} plays only {name} on the rules it was written for, Game({name!r}, {settings}); "
                f"got {clip(getattr(state, 'rules', state))}"
            )


def _rk_card(os_card: int) -> int:
    from rummykit.envs.gin_rummy_ids import rummykit_card

    return int(rummykit_card(os_card))


# --- OpenSpiel -----------------------------------------------------------------

_OS_TAKE, _OS_STOCK, _OS_PASS, _OS_KNOCK = 52, 53, 54, 55


@cache
def _os_game() -> Any:
    pyspiel = _import("pyspiel", "openspiel", "openspiel-simple")
    return pyspiel.load_game("gin_rummy")


class OpenSpielSimpleAgent(_FixedRules):
    """OpenSpiel's SimpleGinRummyBot (``pyspiel.make_simple_gin_rummy_bot``) playing a
    rummykit hand of :data:`OPENSPIEL_GIN` through a replayed ``gin_rummy`` state (see the
    module docstring).  Deterministic; ``seed`` is accepted for a uniform interface.

    >>> import rummykit as rk
    >>> state = rk.Game("gin", **OPENSPIEL_GIN[1]).new_hand(seed=1)
    >>> OpenSpielSimpleAgent()(state) in state.legal_actions()
    True
    """

    required_game = OPENSPIEL_GIN
    label = "openspiel-simple"

    def __init__(self, seed: object = None) -> None:
        self._pyspiel = _import("pyspiel", "openspiel", self.label)
        self._bots: dict[int, Any] = {}

    def spawn(self, seed: object) -> OpenSpielSimpleAgent:
        """A fresh agent (it uses no randomness)."""
        return OpenSpielSimpleAgent()

    def __repr__(self) -> str:
        return "OpenSpielSimpleAgent()"

    def _bot(self, player: int) -> Any:
        bot = self._bots.get(player)
        if bot is None:
            game = _os_game()
            bot = self._bots[player] = self._pyspiel.make_simple_gin_rummy_bot(game.get_parameters(), player)
        bot.restart()
        return bot

    def __call__(self, state: Any) -> int:
        self._check(state)
        legal = state.legal_actions()
        record = json.loads(state.to_json())
        dealer = int(record["dealer"])
        history = list(state.history)
        knock_only = state.phase_name == "knock_only"
        if knock_only:  # the bot decides the take at the wall and the knock card together
            history = history[:-1]
        mirror = _os_mirror(record["deck"], history)
        player = mirror.current_player()
        if (dealer + 1 + player) % 2 != state.current_player:
            raise RummykitError(f"the OpenSpiel mirror of this hand has player {player} to move, not the bot's seat")
        bot = self._bot(player)
        choice = bot.step(mirror)
        if choice == _OS_KNOCK:
            wall = state.phase_name == "last_chance"
            if wall:
                action = TAKE
            else:  # OpenSpiel's knock, then its discard: one rummykit knock
                mirror.apply_action(_OS_KNOCK)
                action = KNOCK + _rk_card(bot.step(mirror))
        elif choice < 52:
            action = _rk_card(choice)
        else:
            action = {_OS_TAKE: TAKE, _OS_STOCK: DRAW_STOCK, _OS_PASS: PASS}.get(choice, -1)
        if action not in legal:
            raise RummykitError(
                f"openspiel-simple chose {mirror.action_to_string(player, choice)}, which maps to no legal action "
                f"here ({state.phase_name}, legal: {', '.join(state.action_text(a) for a in legal)})"
            )
        return action


def _os_mirror(deck: Sequence[str], history: Sequence[int]) -> Any:
    """A ``gin_rummy`` state at the same point as a rummykit hand of :data:`OPENSPIEL_GIN`:
    the deck (rummykit's record order: dealt one card at a time from the dealer's left, then
    the upcard, then the stock top first) and its action ids.  OpenSpiel's player 0 is the
    non-dealer (seat ``(dealer + 1) % 2``), who acts first; a stock draw is a chance outcome,
    the next stock card."""
    from rummykit.cards import Card
    from rummykit.envs.gin_rummy_ids import openspiel_card

    cards = [openspiel_card(int(Card(c))) for c in deck]
    state = _os_game().new_initial_state()
    for card in cards[0:20:2] + cards[1:20:2] + [cards[20]]:  # non-dealer, dealer, upcard
        state.apply_action(card)
    stock = iter(cards[21:])
    for action in history:
        legal = state.legal_actions()
        if action == DRAW_STOCK:
            steps = [_OS_STOCK, next(stock)]
        elif action == TAKE:
            steps = [_OS_KNOCK if _OS_KNOCK in legal and _OS_TAKE not in legal else _OS_TAKE]
        elif action == PASS:
            steps = [_OS_PASS]
        elif action < KNOCK:
            steps = [openspiel_card(action)]
        elif action < DRAW_STOCK:
            card = openspiel_card(action - KNOCK)
            steps = [_OS_KNOCK, card] if _OS_KNOCK in legal else [card]
        else:
            raise RummykitError(f"action {action} has no OpenSpiel gin_rummy counterpart before the showdown")
        for step in steps:
            if not state.is_chance_node() and step not in state.legal_actions():
                raise RummykitError(f"the hand diverged from OpenSpiel's gin_rummy at action {action} (step {step})")
            state.apply_action(step)
    return state


# --- RLCard --------------------------------------------------------------------

_RL_DRAW, _RL_PICK_UP, _RL_DEAD, _RL_GIN, _RL_DISCARD, _RL_KNOCK = 2, 3, 4, 5, 6, 58


def _rl_card(card: int) -> int:
    """RLCard's card id (``rank + 13 * suit``, suits S H D C) of rummykit card ``card``."""
    suit, rank = divmod(card, 13)
    return (3 - suit) * 13 + rank


class RLCardNoviceAgent(_FixedRules):
    """RLCard's ``GinRummyNoviceRuleAgent`` playing a rummykit hand of :data:`RLCARD_GIN`
    (see the module docstring), its random choices from ``seed``.

    >>> import rummykit as rk
    >>> state = rk.Game("gin", **RLCARD_GIN[1]).new_hand(seed=1)
    >>> RLCardNoviceAgent(seed=3)(state) == RLCardNoviceAgent(seed=3)(state)
    True
    """

    required_game = RLCARD_GIN
    label = "rlcard-novice"

    def __init__(self, seed: int | np.random.Generator | None = None) -> None:
        models = _import("rlcard.models.gin_rummy_rule_models", "rlcard", self.label)
        self._agent = models.GinRummyNoviceRuleAgent()
        self._rng = as_generator(seed)

    def spawn(self, seed: int | np.random.Generator | None) -> RLCardNoviceAgent:
        """A new agent seeded with ``seed``."""
        return RLCardNoviceAgent(seed)

    def __repr__(self) -> str:
        return "RLCardNoviceAgent()"

    def __call__(self, state: Any) -> int:
        import numpy as np

        from rummykit.analysis import deadwood

        self._check(state)
        legal = state.legal_actions()
        seat = state.current_player
        hand = sum(1 << int(c) for c in state.hand(seat))
        to_rl: dict[int, int] = {}  # RLCard id -> rummykit id
        gins = [a for a in legal if KNOCK <= a < DRAW_STOCK and deadwood(hand & ~(1 << (a - KNOCK))) == 0]
        if gins:  # RLCard offers only gin then; rummykit keeps the highest-valued card out
            to_rl[_RL_GIN] = max(gins, key=lambda a: (min((a - KNOCK) % 13 + 1, 10), a))
        else:
            for a in legal:
                if a == DRAW_STOCK:
                    to_rl[_RL_DRAW] = a
                elif a == TAKE:
                    to_rl[_RL_PICK_UP] = a
                elif a == PASS:
                    to_rl[_RL_DEAD] = a  # only at the last chance: declining it ends the hand
                elif a < KNOCK:
                    to_rl[_RL_DISCARD + _rl_card(a)] = a
                elif a < DRAW_STOCK:
                    to_rl[_RL_KNOCK + _rl_card(a - KNOCK)] = a
                elif a == BIG_GIN:
                    raise RummykitError("big gin is not in RLCard's rules")
        obs = self._observation(state, seat)
        saved = np.random.get_state()
        np.random.seed(int(self._rng.integers(2**32)))
        try:
            # an OrderedDict, as RLCard's environment passes it (the agent tests for that type)
            choice = int(self._agent.step({"obs": obs, "legal_actions": OrderedDict((k, None) for k in sorted(to_rl))}))
        finally:
            np.random.set_state(saved)
        return to_rl[choice]

    @staticmethod
    def _observation(state: Any, seat: int) -> Any:
        """RLCard's 5x52 planes: hand, top discard, the rest of the pile, the opponent's known
        cards, the unknown cards."""
        import numpy as np

        seen = state.observation(seat)
        planes = np.zeros((5, 52), dtype=np.int8)
        pile = [int(c) for c in seen.discard_pile]
        known = [int(c) for q, cards in enumerate(seen.known_cards) if q != seat for c in cards]
        for plane, cards in enumerate(([int(c) for c in seen.hand], pile[-1:], pile[:-1], known)):
            for c in cards:
                planes[plane, _rl_card(c)] = 1
        planes[4] = 1 - planes[:4].max(axis=0)
        return planes


#: the external agents by name
EXTERNAL_AGENTS: dict[str, type[_FixedRules]] = {
    "openspiel-simple": OpenSpielSimpleAgent,
    "rlcard-novice": RLCardNoviceAgent,
}


def required_game(agents: Sequence[Any]) -> tuple[str, dict[str, Any]] | None:
    """The game and options that the agents (built agents) fix, or None when none does;
    :class:`InvalidOptionError` when two of them fix different ones."""
    found: tuple[str, dict[str, Any]] | None = None
    for agent in agents:
        need = getattr(agent, "required_game", None)
        if need is None:
            continue
        if found is not None and need != found:
            raise InvalidOptionError(f"these agents play different rules: {found} and {need}")
        found = need
    return found


def game_for(agents: Sequence[Any], game: Any, options: dict[str, Any]) -> Any:
    """The game for a tournament of ``agents`` (built agents): ``game`` (a name, with
    ``options``, or a Game) with the rules an external agent among them fixes added
    (:func:`required_game`); :class:`InvalidOptionError` when the game or an option
    contradicts them.  Without such an agent: ``Game(game, **options)`` for a name, else
    ``game`` as it is."""
    from rummykit.games import Game

    need = required_game(agents)
    if need is None:
        return Game(game, **options) if isinstance(game, str) else game
    name, fixed = need
    settings = ", ".join(f"{k}={v!r}" for k, v in fixed.items())
    label = next(a.label for a in agents if getattr(a, "required_game", None) == need)
    if isinstance(game, str):
        clash = {k: v for k, v in options.items() if k in fixed and v != fixed[k]}
        if clash:
            raise InvalidOptionError(f"{label} plays with {settings}; the options given say {clash}")
        game = Game(game, **{**options, **fixed})
    if getattr(game, "rules", None) != _rules_of(name, tuple(sorted(fixed.items()))):
        raise InvalidOptionError(
            f"{label} plays only Game({name!r}, {settings}), the rules it was written for; got {clip(game)}"
        )
    return game


register("openspiel-simple", OpenSpielSimpleAgent)
register("rlcard-novice", RLCardNoviceAgent)
