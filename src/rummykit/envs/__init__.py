"""Adapters to the frameworks AI research uses: PettingZoo, Gymnasium and OpenSpiel.

Each function imports its framework only when called (``pip install "rummykit[pettingzoo]"``
or ``"rummykit[openspiel]"``), so importing :mod:`rummykit` stays light.

* :func:`pettingzoo_env`: a PettingZoo AEC environment, one hand per episode, any game
  and player count, with action masks.
* :func:`gymnasium_env`: a single-agent Gymnasium environment, the other seats played by an
  agent (:func:`rummykit.make_agent`).
* :func:`openspiel_game` / :func:`register_openspiel_games`: rummykit games as OpenSpiel
  Python games, for OpenSpiel's algorithms and bots (``docs/openspiel.md``).

Actions: the knock games use the engine's action ids; Rummy and Kaluki, whose ids are
sparse up to 6.4 million, a dense per-state index (action ``k`` is the ``k``-th of the sorted
``state.legal_actions()``, out of :data:`DENSE_ACTIONS` slots).  Rewards come at the end of
the hand: ``reward="points"`` gives each seat its ``state.returns()`` (the variant's hand
score), ``reward="win_loss"`` +1 to the hand's winner and -1 to every other seat (0 to all
for a dead hand).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rummykit.envs._common import DENSE_ACTIONS, REWARDS, ActionIndex

if TYPE_CHECKING:
    from rummykit.envs._gymnasium import RummykitGymEnv
    from rummykit.envs._openspiel import RummykitSpielGame
    from rummykit.envs._pettingzoo import RummykitAECEnv

__all__ = [
    "DENSE_ACTIONS",
    "REWARDS",
    "ActionIndex",
    "gymnasium_env",
    "openspiel_game",
    "pettingzoo_env",
    "register_openspiel_games",
]


def _need(module: str, extra: str) -> None:
    import importlib.util

    if importlib.util.find_spec(module) is None:
        raise ImportError(f"this adapter needs {module}: pip install 'rummykit[{extra}]'")


def pettingzoo_env(
    game: Any, num_players: int = 2, reward: str = "points", render_mode: str | None = None, **options: Any
) -> RummykitAECEnv:
    """A PettingZoo AEC environment playing one hand of ``game`` per episode.

    ``game`` is a name for :func:`rummykit.Game` (with ``num_players`` and ``options``) or a
    game object; ``reward`` is ``"points"`` or ``"win_loss"``; ``render_mode`` None,
    ``"ansi"`` (``render()`` returns the table as text) or ``"human"`` (printed each step).

    >>> from rummykit.envs import pettingzoo_env
    >>> env = pettingzoo_env("oklahoma-gin")
    >>> env.reset(seed=1)
    >>> while env.agents:
    ...     obs, reward, done, cut, info = env.last()
    ...     legal = obs["action_mask"].nonzero()[0]
    ...     env.step(None if done or cut else int(legal[0]))
    """
    _need("pettingzoo", "pettingzoo")
    from rummykit.envs._pettingzoo import RummykitAECEnv

    return RummykitAECEnv(game, num_players, reward=reward, render_mode=render_mode, **options)


def gymnasium_env(
    game: Any,
    opponent: Any = "greedy",
    seat: int = 0,
    num_players: int = 2,
    reward: str = "points",
    render_mode: str | None = None,
    illegal_reward: float | None = -1.0,
    **options: Any,
) -> RummykitGymEnv:
    """A single-agent Gymnasium environment: the learner plays ``seat``, every other seat is
    played by ``opponent`` (a name for :func:`rummykit.make_agent`, or an agent).  The same
    observations, masks, actions and rewards as :func:`pettingzoo_env`.  An action the mask
    rules out ends the episode with ``illegal_reward`` (None: raise ``IllegalActionError``).

    >>> from rummykit.envs import gymnasium_env
    >>> env = gymnasium_env("gin", opponent="random", seat=1)
    >>> obs, info = env.reset(seed=2)
    >>> done = False
    >>> while not done:
    ...     action = int(obs["action_mask"].nonzero()[0][0])
    ...     obs, reward, done, truncated, info = env.step(action)
    """
    _need("gymnasium", "pettingzoo")
    from rummykit.envs._gymnasium import RummykitGymEnv

    return RummykitGymEnv(
        game,
        opponent=opponent,
        seat=seat,
        num_players=num_players,
        reward=reward,
        render_mode=render_mode,
        illegal_reward=illegal_reward,
        **options,
    )


def openspiel_game(game: Any, num_players: int = 2, reward: str = "win_loss", **options: Any) -> RummykitSpielGame:
    """``game`` as an OpenSpiel (``pyspiel``) Python game; see ``docs/openspiel.md``."""
    _need("pyspiel", "openspiel")
    from rummykit.envs._openspiel import RummykitSpielGame

    return RummykitSpielGame.from_rummykit(game, num_players, reward, options)


def register_openspiel_games() -> list[str]:
    """Register ``python_rummykit_<variant>`` with ``pyspiel`` (for ``pyspiel.load_game``, e.g.
    ``pyspiel.load_game("python_rummykit_gin(reward=points)")``); returns the short names."""
    _need("pyspiel", "openspiel")
    from rummykit.envs._openspiel import register

    return register()
