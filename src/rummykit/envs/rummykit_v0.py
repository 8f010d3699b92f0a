"""The PettingZoo environment in PettingZoo's module convention (``pip install "rummykit[pettingzoo]"``).

``env(game, **kwargs)`` is the environment with PettingZoo's standard wrappers (as its classic
games): an illegal action ends the episode with ``illegal_reward`` (-1) to the agent that played
it, stepping before ``reset`` is an error.  ``raw_env(game, **kwargs)`` is the bare
:class:`~rummykit.envs._pettingzoo.RummykitAECEnv` (an illegal action raises
:class:`rummykit.IllegalActionError`).  ``OpponentWrapper(env, opponent, opponent_agents,
opponent_probs)`` (also ``env(game, opponent=...)``) has some agents played by an agent, a
batched policy or a pool of them, sampled per episode (self-play against frozen snapshots).

>>> from rummykit.envs import rummykit_v0
>>> env = rummykit_v0.env("oklahoma-gin")
>>> env.reset(seed=1)
>>> for agent in env.agent_iter():
...     obs, reward, terminated, truncated, info = env.last()
...     legal = obs["action_mask"].nonzero()[0]
...     env.step(None if terminated or truncated else int(legal[0]))
>>> env.unwrapped.game_state.is_terminal()
True
"""

from rummykit.envs._pettingzoo import OpponentWrapper, env
from rummykit.envs._pettingzoo import RummykitAECEnv as raw_env

__all__ = ["OpponentWrapper", "env", "raw_env"]
