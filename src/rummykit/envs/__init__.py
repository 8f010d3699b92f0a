"""Adapters to the frameworks AI research uses: PettingZoo, Gymnasium and OpenSpiel.

Each function imports its framework only when called (``pip install "rummykit[pettingzoo]"``
or ``"rummykit[openspiel]"``), so importing :mod:`rummykit` stays light; importing
:mod:`rummykit.envs` imports Gymnasium (when installed) to register its ids.

* :func:`gymnasium_env`: a single-agent Gymnasium environment, the other seats played by an
  agent (:func:`rummykit.make_agent`), with ``action_masks()`` for sb3-contrib's MaskablePPO;
  also ``gymnasium.make("rummykit/Gin-v0")`` (one id per game, ``...Match-v0`` for matches).
* :func:`gymnasium_vector_env`: a Gymnasium vector environment, thousands of hands per C
  call with the opponents played in C (also ``gymnasium.make_vec("rummykit/Gin-v0", ...)``).
* :func:`pettingzoo_env` (PettingZoo's standard wrappers) / :func:`pettingzoo_raw_env` (bare),
  also as ``rummykit.envs.rummykit_v0.env()`` / ``raw_env()``: a PettingZoo AEC environment,
  any game and player count, with action masks; ``opponent=`` (or ``rummykit_v0.OpponentWrapper``)
  has some agents played by an agent, a batched policy or a pool of them.
* :func:`openspiel_game` / :func:`register_openspiel_games`: rummykit games as OpenSpiel
  Python games, for OpenSpiel's algorithms and bots (``docs/openspiel.md``).

Episodes: ``episode="hand"`` (the default) plays one hand, ``episode="match"`` a whole match
by the game's rules (:class:`rummykit.Match`: target score, bonuses, Kaluki eliminations).  The
dealer (and the Gymnasium learner's seat) are drawn per episode from the seeded generator
unless fixed with ``dealer=`` (``seat=``).

Actions (``action_space=``, :class:`ActionIndex`): ``"fixed"`` (the default), one id per move,
the same move in every state: the knock games' engine ids (686), the table games' fixed ids
(8,463, :mod:`rummykit.table.fixed`, with a factored form for autoregressive policies);
``"dense"`` (Rummy and Kaluki, for search): action ``k`` is the ``k``-th of the sorted
``state.legal_actions()``, out of :data:`DENSE_ACTIONS` slots.

Rewards (the same default, :data:`DEFAULT_REWARD` = ``"win_loss"``, in every adapter) come
when a seat's episode ends, 0 before: ``reward="win_loss"`` +1 to the winner (of the hand or
the match), -1 to every other seat, 0 to all when nobody wins (a dead hand, a tied match);
``reward="points"`` for a hand the seat's ``state.returns()`` (the variant's hand score: points
won, or minus the penalty taken) less the mean of the other seats' (zero-sum: a lost hand costs,
as :class:`rummykit.vector.VectorGame`), or what the match pays the seat (see :class:`rummykit.envs._episode.Episode`).
"""

from __future__ import annotations

import importlib.util
from typing import TYPE_CHECKING, Any

from rummykit.envs._common import ACTION_SPACES, DEFAULT_REWARD, DENSE_ACTIONS, REWARDS, ActionIndex, RenderModeError
from rummykit.envs._episode import EPISODES

if TYPE_CHECKING:
    from rummykit.envs._gymnasium import RummykitGymEnv
    from rummykit.envs._openspiel import RummykitSpielGame
    from rummykit.envs._pettingzoo import RummykitAECEnv
    from rummykit.envs._vector import RummykitVectorEnv

__all__ = [
    "ACTION_SPACES",
    "DEFAULT_REWARD",
    "DENSE_ACTIONS",
    "EPISODES",
    "REWARDS",
    "ActionIndex",
    "RenderModeError",
    "gymnasium_env",
    "gymnasium_vector_env",
    "openspiel_game",
    "pettingzoo_env",
    "pettingzoo_raw_env",
    "register_openspiel_games",
]


def _need(module: str, extra: str) -> None:
    if importlib.util.find_spec(module) is None:
        raise ImportError(f"this adapter needs {module}: pip install 'rummykit[{extra}]'")


def pettingzoo_env(
    game: Any,
    num_players: int = 2,
    reward: str = DEFAULT_REWARD,
    render_mode: str | None = None,
    episode: str = "hand",
    dealer: int | None = None,
    illegal_reward: float = -1.0,
    opponent: Any = None,
    opponent_agents: Any = None,
    opponent_probs: Any = None,
    **options: Any,
) -> Any:
    """A PettingZoo AEC environment playing ``game``, with PettingZoo's standard wrappers
    (``rummykit.envs.rummykit_v0.env``): an action the mask rules out ends the episode,
    ``illegal_reward`` to the agent that played it and 0 to the others; stepping before
    ``reset`` is an error.  ``env.unwrapped`` is the :class:`RummykitAECEnv`.

    ``game`` is a name for :func:`rummykit.Game` (with ``num_players`` and ``options``) or a
    game object; ``reward`` is ``"win_loss"`` or ``"points"``; ``episode`` ``"hand"`` or
    ``"match"``; ``dealer`` a seat, or None to draw it per episode; ``render_mode`` None,
    ``"ansi"`` (``render()`` returns the table as text) or ``"human"`` (printed each step).

    ``opponent`` (None: every agent is the caller's) plays ``opponent_agents`` (None: all but
    ``"player_0"``) inside ``reset`` and ``step``, the caller seeing only its own agents
    selected (:class:`rummykit.envs.rummykit_v0.OpponentWrapper`): an agent spec, an agent, a
    batched policy ``fn(observation, legal_mask) -> actions`` (called on a batch of one), or a
    list of these, one member per episode drawn with ``opponent_probs``.

    >>> from rummykit.envs import pettingzoo_env
    >>> env = pettingzoo_env("oklahoma-gin")
    >>> env.reset(seed=1)
    >>> while env.agents:
    ...     obs, reward, done, cut, info = env.last()
    ...     legal = obs["action_mask"].nonzero()[0]
    ...     env.step(None if done or cut else int(legal[0]))
    """
    _need("pettingzoo", "pettingzoo")
    from rummykit.envs._pettingzoo import env

    kwargs = dict(num_players=num_players, reward=reward, render_mode=render_mode, episode=episode, dealer=dealer)
    return env(
        game,
        illegal_reward=illegal_reward,
        opponent=opponent,
        opponent_agents=opponent_agents,
        opponent_probs=opponent_probs,
        **kwargs,
        **options,
    )


def pettingzoo_raw_env(
    game: Any,
    num_players: int = 2,
    reward: str = DEFAULT_REWARD,
    render_mode: str | None = None,
    episode: str = "hand",
    dealer: int | None = None,
    **options: Any,
) -> RummykitAECEnv:
    """The bare :class:`RummykitAECEnv` of :func:`pettingzoo_env` (``rummykit_v0.raw_env``):
    an illegal action raises :class:`rummykit.IllegalActionError` and changes nothing."""
    _need("pettingzoo", "pettingzoo")
    from rummykit.envs._pettingzoo import RummykitAECEnv

    return RummykitAECEnv(
        game, num_players, reward=reward, render_mode=render_mode, episode=episode, dealer=dealer, **options
    )


def gymnasium_env(
    game: Any,
    opponent: Any = "greedy",
    seat: int | None = None,
    num_players: int = 2,
    reward: str = DEFAULT_REWARD,
    render_mode: str | None = None,
    illegal_reward: float | None = -1.0,
    episode: str = "hand",
    dealer: int | None = None,
    **options: Any,
) -> RummykitGymEnv:
    """A single-agent Gymnasium environment: the learner plays ``seat`` (None: a seat drawn per
    episode), every other seat is played by ``opponent`` (a name for :func:`rummykit.make_agent`,
    or an agent).  The same observations, masks, actions and rewards as :func:`pettingzoo_env`,
    plus ``env.action_masks()``.  An action the mask rules out ends the episode with
    ``illegal_reward`` (None: raise ``IllegalActionError``).

    >>> from rummykit.envs import gymnasium_env
    >>> env = gymnasium_env("gin", opponent="random")
    >>> obs, info = env.reset(seed=2)
    >>> done = False
    >>> while not done:
    ...     action = int(env.action_masks().nonzero()[0][0])
    ...     obs, reward, done, truncated, info = env.step(action)
    >>> reward in (-1.0, 0.0, 1.0)
    True
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
        episode=episode,
        dealer=dealer,
        **options,
    )


def gymnasium_vector_env(
    game: str = "gin", num_envs: int = 64, opponent: Any = "greedy", threads: int = 1, **options: Any
) -> RummykitVectorEnv:
    """A Gymnasium vector environment (``gymnasium.vector.VectorEnv``): ``num_envs`` hands
    stepped in one C call (:class:`rummykit.vector.VectorGame`), the learner one seat per hand
    (drawn per hand, seeded by ``reset(seed=...)``), ``opponent`` (``"greedy"`` or
    ``"random"``, played in C, or a batched policy or a list of them, with ``opponent_probs``:
    :meth:`~rummykit.vector.VectorGame.set_opponents`) the others; the spaces, masks and reward of
    :func:`gymnasium_env`, batched, and ``action_masks()``.  Also
    ``gymnasium.make_vec("rummykit/Gin-v0", num_envs=...)`` for every game's hand id.

    >>> from rummykit.envs import gymnasium_vector_env
    >>> envs = gymnasium_vector_env("gin", num_envs=8)
    >>> obs, info = envs.reset(seed=1)
    >>> obs["observation"].shape, envs.action_masks().shape
    ((8, 1699), (8, 686))
    """
    _need("gymnasium", "pettingzoo")
    from rummykit.envs._vector import RummykitVectorEnv

    return RummykitVectorEnv(game, num_envs=num_envs, opponent=opponent, threads=threads, **options)


def openspiel_game(
    game: Any,
    num_players: int = 2,
    reward: str = DEFAULT_REWARD,
    dealer: int = -1,
    history: int = 64,
    action_space: str = "fixed",
    **options: Any,
) -> RummykitSpielGame:
    """``game`` as an OpenSpiel (``pyspiel``) Python game; see ``docs/openspiel.md``.
    ``dealer`` -1 makes the dealer a chance outcome (else that seat deals); ``history`` is the
    number of actions the information-state tensor keeps; ``action_space`` as
    :class:`ActionIndex` (``"fixed"`` or ``"dense"``)."""
    _need("pyspiel", "openspiel")
    from rummykit.envs._openspiel import RummykitSpielGame

    return RummykitSpielGame.from_rummykit(
        game, num_players, reward, options, dealer=dealer, history=history, action_space=action_space
    )


def register_openspiel_games() -> list[str]:
    """Register ``python_rummykit_<variant>`` with ``pyspiel`` (for ``pyspiel.load_game``, e.g.
    ``pyspiel.load_game("python_rummykit_gin(reward=points)")``); returns the short names."""
    _need("pyspiel", "openspiel")
    from rummykit.envs._openspiel import register

    return register()


if importlib.util.find_spec("gymnasium") is not None:
    from rummykit.envs._registration import register_gymnasium_envs

    register_gymnasium_envs()
