"""The PettingZoo AEC environment (see :func:`rummykit.envs.pettingzoo_env`)."""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from pettingzoo import AECEnv
from pettingzoo.utils import BaseWrapper, wrappers

from rummykit.agents import Agent
from rummykit.envs._common import (
    DEFAULT_REWARD,
    RENDER_MODES,
    ActionIndex,
    OpponentPool,
    Shaping,
    check_render_mode,
    check_reward,
    make_game,
    render_text,
)
from rummykit.envs._episode import Episode
from rummykit.errors import InvalidOptionError, clip

__all__ = ["RENDER_MODES", "OpponentWrapper", "RummykitAECEnv", "env", "observation_box"]


def observation_box(game: Any) -> gymnasium.spaces.Box:
    """The space of ``state.observation_tensor(seat)``: its length read from a fresh hand; the
    observe modules scale every entry into [0, 1] (0/1 planes, one-hots and fractions)."""
    size = len(game.new_hand(seed=0, dealer=0).observation_tensor(0))
    return gymnasium.spaces.Box(low=0.0, high=1.0, shape=(size,), dtype=np.float32)


def env(
    game: Any = "gin",
    illegal_reward: float = -1.0,
    opponent: Any = None,
    opponent_agents: Any = None,
    opponent_probs: Any = None,
    **kwargs: Any,
) -> AECEnv:
    """The environment as PettingZoo's classic games give it: :class:`RummykitAECEnv`
    (``kwargs``) inside ``TerminateIllegalWrapper`` (an action the mask rules out ends the
    episode for every agent, ``illegal_reward`` to the agent that played it, 0 to the others),
    ``AssertOutOfBoundsWrapper`` and ``OrderEnforcingWrapper`` (stepping, observing or rendering
    before ``reset`` is an error).  With an ``opponent`` (None: every agent is the caller's),
    all that inside :class:`OpponentWrapper` (``opponent_agents``, ``opponent_probs``): those
    agents are played by ``opponent``."""
    aec = RummykitAECEnv(game, **kwargs)
    aec = wrappers.TerminateIllegalWrapper(aec, illegal_reward=illegal_reward)
    aec = wrappers.AssertOutOfBoundsWrapper(aec)
    aec = wrappers.OrderEnforcingWrapper(aec)
    if opponent is None:
        if opponent_agents is not None or opponent_probs is not None:
            raise InvalidOptionError("opponent_agents and opponent_probs need an opponent")
        return aec
    return OpponentWrapper(aec, opponent, opponent_agents, opponent_probs)


class RummykitAECEnv(AECEnv):  # type: ignore[misc]
    """One hand (``episode="hand"``) or one match (``episode="match"``) of a rummykit game per
    episode, as a bare PettingZoo AEC environment (``raw_env``; :func:`env` wraps it).

    Agents are ``"player_0"`` ... (seat ``i`` is ``"player_i"``).  The dealer is ``dealer``, or
    drawn per episode (None, the default; in a match the first dealer, the deal then passing by
    the game's rules) from the generator ``reset(seed=...)`` seeds.  Each observation is a dict:
    ``"observation"``, the seat's ``observation_tensor`` (float32), and ``"action_mask"`` (int8,
    1 for each legal action of the agent to move, all 0 for the others).  Actions follow
    :class:`rummykit.envs._common.ActionIndex` (``action_space``): ``"fixed"`` (the default), one id
    per move in every state (the knock games' engine ids, the table games' fixed ids), or
    ``"dense"``, Rummy's and Kaluki's per-state index (``info["legal_actions"]`` lists the engine
    ids behind the actions).  Rewards come when an agent's episode ends (see ``reward`` and
    :class:`rummykit.envs._episode.Episode`); in a Kaluki match an eliminated agent is done while
    the others play on.  ``shaping="deadwood"`` (``shaping_gamma``, ``shaping_scale``) gives
    every live agent on every step the potential-based shaping of
    :class:`rummykit.envs._common.Shaping` (``s'`` the state after the step, whoever moved; with
    ``gamma = 1`` an agent's episode's shaping sums to ``-phi(s0)``).  The deals and restock
    shuffles are drawn inside the environment.
    ``env.game_state`` is the engine state of the hand in progress (a :class:`rummykit.GameState`),
    ``env.match`` the match of a match episode.

    An illegal action raises :class:`rummykit.IllegalActionError` and changes nothing; stepping
    before ``reset`` raises :class:`rummykit.InvalidOptionError`.  The game is turn-based (one
    agent acts at a time), so it is not parallelizable (``metadata["is_parallelizable"]``).
    """

    metadata = {"name": "rummykit_v0", "render_modes": list(RENDER_MODES), "is_parallelizable": False}

    def __init__(
        self,
        game: Any = "gin",
        num_players: int | None = None,
        reward: str = DEFAULT_REWARD,
        render_mode: str | None = None,
        episode: str = "hand",
        dealer: int | None = None,
        shaping: str | None = None,
        shaping_gamma: float = 1.0,
        shaping_scale: float = 100.0,
        action_space: str = "fixed",
        **options: Any,
    ) -> None:
        super().__init__()
        check_render_mode(render_mode)
        self.shaping = Shaping(shaping, shaping_gamma, shaping_scale)
        self.game = make_game(game, num_players, options)
        self.index = ActionIndex(self.game, action_space)
        self.reward = check_reward(reward)
        self.episode = Episode(self.game, episode, self.reward, dealer)
        self.render_mode = render_mode
        self.possible_agents = [f"player_{i}" for i in range(self.game.num_players)]
        self._seat = {agent: i for i, agent in enumerate(self.possible_agents)}
        box = observation_box(self.game)
        mask = gymnasium.spaces.Box(low=0, high=1, shape=(self.index.size,), dtype=np.int8)
        self.observation_spaces = {
            a: gymnasium.spaces.Dict({"observation": box, "action_mask": mask}) for a in self.possible_agents
        }
        self.action_spaces = {a: gymnasium.spaces.Discrete(self.index.size) for a in self.possible_agents}
        self._rng = np.random.default_rng()

    @property
    def game_state(self) -> Any:
        """The engine state of the hand in progress (None before ``reset``)."""
        return self.episode.state

    @property
    def match(self) -> Any:
        """The :class:`rummykit.Match` of a match episode (None for hand episodes)."""
        return self.episode.match

    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start an episode; ``seed`` reseeds the environment's generator (dealer, deals, restocks)."""
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.episode.start(self._rng)
        self.shaping.start(self.episode.state, range(self.game.num_players))
        self._update([], shape=False)

    def _update(self, done: list[int], shape: bool = True) -> None:
        """After a step: the rewards of the agents whose episode ended (and every live agent's
        shaping), the agent to act."""
        episode = self.episode
        if shape and self.shaping.kind is not None:
            for agent in self.agents:
                q = self._seat[agent]
                if not self.terminations[agent]:
                    self.rewards[agent] = self.shaping.step(episode.state, q, q in episode.final)
        for done_seat in done:
            agent = self.possible_agents[done_seat]
            self.rewards[agent] = episode.final[done_seat] + (
                self.rewards[agent] if shape and self.shaping.kind else 0.0
            )
            self.terminations[agent] = True
            result = episode.state.result if episode.kind == "hand" else episode.match.result
            self.infos[agent] = {"result": result}
        seat = episode.current_seat()
        if seat is not None:
            self.agent_selection = self.possible_agents[seat]
            self.infos[self.agent_selection] = {"legal_actions": episode.state.legal_actions()}
            if done:  # eliminated agents take their dead step before the game goes on
                self._deads_step_first()
        elif not hasattr(self, "agent_selection"):  # over at the deal: nobody acted
            self.agent_selection = self.possible_agents[0]
        self._accumulate_rewards()

    def observe(self, agent: str) -> dict[str, Any]:
        episode = self.episode
        hand_seat = episode.hand_seat(self._seat[agent])
        if hand_seat is None:  # eliminated (Kaluki): no longer at the table
            box = self.observation_spaces[agent]["observation"]
            return {
                "observation": np.zeros(box.shape, np.float32),
                "action_mask": np.zeros(self.index.size, dtype=np.int8),
            }
        state = episode.state
        to_act = not state.is_terminal() and state.current_player == hand_seat and not episode.over
        mask = self.index.mask(state) if to_act else np.zeros(self.index.size, dtype=np.int8)
        return {"observation": state.observation_tensor(hand_seat), "action_mask": mask}

    def step(self, action: int | None) -> None:
        """Play ``action`` for ``agent_selection`` (None once the agent is done); an illegal
        action raises :class:`rummykit.IllegalActionError` and changes nothing."""
        if not hasattr(self, "agent_selection"):
            raise InvalidOptionError("call reset() before step()")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise InvalidOptionError(f"{agent} is to act: None is only for agents that are done")
        state = self.episode.state
        action_id = self.index.decode(state, action)
        self._cumulative_rewards[agent] = 0.0
        self.infos[agent] = {}
        self._update(self.episode.apply(action_id))
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """The table as text (``ansi``: returned; ``human``: printed)."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() without a render_mode: pass render_mode='ansi' or 'human'")
            return None
        if self.episode.state is None:
            raise InvalidOptionError("call reset() before render()")
        text = render_text(self.episode.state)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release."""


class OpponentWrapper(BaseWrapper):  # type: ignore[misc]
    """Some agents of a rummykit AEC environment (``env``: :class:`RummykitAECEnv`, bare or
    wrapped) played by ``opponent`` inside :meth:`reset` and :meth:`step`, for self-play and
    leagues.  The opponents become part of the environment: ``possible_agents``, ``agents``,
    ``rewards``, ``terminations``, ``truncations`` and ``infos`` are the caller's agents', only
    they are ever selected, so ``agent_iter()``, ``last()`` and ``step()`` work as usual, the
    opponents' moves (and their dead steps once done) taken between the caller's.
    ``env.unwrapped`` still has every agent (the opponents' rewards included).

    ``opponent`` is what the Gymnasium env takes: an agent spec for :func:`rummykit.make_agent`
    (``"greedy"``), an agent, a batched policy ``fn(observation, legal_mask) -> actions``, or a
    list of these, a pool of which one member plays every opponent agent for a whole episode,
    drawn with ``opponent_probs`` (uniform if None) from a generator that ``reset(seed=...)``
    seeds (the deals are the environment's own: the same seed deals the same hands with or
    without this wrapper).  A batched policy is called on a batch of one (an AEC environment
    has one agent to act at a time) through :class:`~rummykit.agents.PolicyAgent`: the mover's
    ``observation_tensor`` (1, obs_dim) float32 and its legal mask (1, num_actions) bool, in the
    fixed action numbering whatever the environment's ``action_space``.  Each opponent agent
    is handed its seat's copy of the hand (:meth:`Episode.seat_state`), as the Gymnasium env's.

    ``opponent_agents``: the agents it plays (names of ``possible_agents``; None: every agent
    but ``"player_0"``); at least one is left to the caller.  An opponent's move that is not
    legal raises :class:`rummykit.IllegalActionError` (a fault of the policy, never the
    caller's illegal move), the opponent still to act."""

    def __init__(self, env: AECEnv, opponent: Any, opponent_agents: Any = None, opponent_probs: Any = None) -> None:
        super().__init__(env)
        raw = env.unwrapped
        if not isinstance(raw, RummykitAECEnv):
            raise InvalidOptionError(f"OpponentWrapper wraps a rummykit AEC environment, got {clip(raw)}")
        possible = list(raw.possible_agents)
        names = possible[1:] if opponent_agents is None else opponent_agents
        names = [names] if isinstance(names, str) else list(names)
        unknown = [name for name in names if name not in possible]
        if unknown or len(set(names)) != len(names) or not names:
            raise InvalidOptionError(
                f"opponent_agents must be distinct agents of {possible}, at least one, got {clip(opponent_agents)}"
            )
        if len(names) == len(possible):
            raise InvalidOptionError("opponent_agents leaves no agent to the caller")
        self.opponent = opponent
        self.opponent_agents = tuple(names)
        self._opponents = OpponentPool(opponent, opponent_probs)
        self._players: dict[str, Agent] = {}
        self._rewards: dict[str, float] = {}
        self._draws = np.random.default_rng()

    @property
    def possible_agents(self) -> list[str]:
        """The caller's agents (the opponents are part of the environment)."""
        return [agent for agent in self.env.possible_agents if agent not in self.opponent_agents]

    @property
    def agents(self) -> list[str]:
        """The caller's agents still in the episode."""
        return [agent for agent in self.env.agents if agent not in self.opponent_agents]

    def _mine(self, table: dict[str, Any]) -> dict[str, Any]:
        return {agent: value for agent, value in table.items() if agent not in self.opponent_agents}

    @property
    def rewards(self) -> dict[str, float]:
        """The caller's agents' rewards of the last :meth:`step` (the sum over the caller's move
        and the opponents' moves after it)."""
        return {agent: self._rewards.get(agent, 0.0) for agent in self.agents}

    @property
    def _cumulative_rewards(self) -> dict[str, float]:
        return self._mine(self.env._cumulative_rewards)

    @property
    def terminations(self) -> dict[str, bool]:
        """Whether each of the caller's agents is done."""
        return self._mine(self.env.terminations)

    @property
    def truncations(self) -> dict[str, bool]:
        """Whether each of the caller's agents is cut off (never, in these games)."""
        return self._mine(self.env.truncations)

    @property
    def infos(self) -> dict[str, dict[str, Any]]:
        """The caller's agents' infos."""
        return self._mine(self.env.infos)

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start an episode (``seed`` seeds the environment and the pool's draws), then play the
        opponents up to the first move of one of the caller's agents."""
        if seed is not None:
            self._draws = np.random.default_rng([seed, 1])
        self.env.reset(seed=seed, options=options)
        players = self._opponents.draw(self._draws, len(self.opponent_agents))
        self._players = dict(zip(self.opponent_agents, players, strict=True))
        self._rewards = dict.fromkeys(self.agents, 0.0)
        self._play_opponents()

    def step(self, action: Any) -> None:
        """Play ``action`` for ``agent_selection`` (one of the caller's agents), then the
        opponents up to the next move of one of the caller's agents."""
        self._rewards = dict.fromkeys(self.agents, 0.0)
        self._inner_step(action)
        self._play_opponents()

    def _inner_step(self, action: Any) -> None:
        self.env.step(action)
        for agent, reward in self.env.rewards.items():
            if agent in self._rewards:
                self._rewards[agent] += reward

    def _play_opponents(self) -> None:
        aec, raw = self.env, self.env.unwrapped
        episode = raw.episode
        while aec.agents and aec.agent_selection in self._players:
            agent = aec.agent_selection
            if aec.terminations[agent] or aec.truncations[agent]:
                self._inner_step(None)
                continue
            seat = raw.possible_agents.index(agent)
            choice = self._players[agent](episode.seat_state(seat))
            state = episode.state
            action_id = state.verify_action(int(choice) if isinstance(choice, np.integer) else choice)
            self._inner_step(raw.index.encode(state, action_id))
