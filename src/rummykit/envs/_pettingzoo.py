"""The PettingZoo AEC environment (see :func:`rummykit.envs.pettingzoo_env`)."""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from rummykit.envs._common import (
    DEFAULT_REWARD,
    RENDER_MODES,
    ActionIndex,
    Shaping,
    check_render_mode,
    check_reward,
    make_game,
    render_text,
)
from rummykit.envs._episode import Episode
from rummykit.errors import InvalidOptionError

__all__ = ["RENDER_MODES", "RummykitAECEnv", "env", "observation_box"]


def observation_box(game: Any) -> gymnasium.spaces.Box:
    """The space of ``state.observation_tensor(seat)``: its length read from a fresh hand; the
    observe modules scale every entry into [0, 1] (0/1 planes, one-hots and fractions)."""
    size = len(game.new_hand(seed=0, dealer=0).observation_tensor(0))
    return gymnasium.spaces.Box(low=0.0, high=1.0, shape=(size,), dtype=np.float32)


def env(game: Any = "gin", illegal_reward: float = -1.0, **kwargs: Any) -> AECEnv:
    """The environment as PettingZoo's classic games give it: :class:`RummykitAECEnv`
    (``kwargs``) inside ``TerminateIllegalWrapper`` (an action the mask rules out ends the
    episode for every agent, ``illegal_reward`` to the agent that played it, 0 to the others),
    ``AssertOutOfBoundsWrapper`` and ``OrderEnforcingWrapper`` (stepping, observing or rendering
    before ``reset`` is an error)."""
    aec = RummykitAECEnv(game, **kwargs)
    aec = wrappers.TerminateIllegalWrapper(aec, illegal_reward=illegal_reward)
    aec = wrappers.AssertOutOfBoundsWrapper(aec)
    return wrappers.OrderEnforcingWrapper(aec)


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
