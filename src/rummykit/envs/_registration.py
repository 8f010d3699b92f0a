"""Gymnasium ids for every game: ``gymnasium.make("rummykit/Gin-v0")``.

Registered when :mod:`rummykit.envs` is imported with Gymnasium installed (``import rummykit``
alone never imports Gymnasium); ``gymnasium.make("rummykit.envs:rummykit/Gin-v0")`` imports it
on the way.
"""

from __future__ import annotations

__all__ = ["GYMNASIUM_IDS", "register_gymnasium_envs"]

_GAMES = {
    "Gin": "gin",
    "OklahomaGin": "oklahoma-gin",
    "OklahomaRummy": "oklahoma-rummy",
    "Rummy": "rummy",
    "Kaluki": "kaluki",
}

#: id -> (game, episode): ``<Game>-v0`` plays one hand per episode, ``<Game>Match-v0`` a match.
GYMNASIUM_IDS: dict[str, tuple[str, str]] = {
    **{f"rummykit/{name}-v0": (game, "hand") for name, game in _GAMES.items()},
    **{f"rummykit/{name}Match-v0": (game, "match") for name, game in _GAMES.items()},
}


def register_gymnasium_envs() -> list[str]:
    """Register :data:`GYMNASIUM_IDS` with Gymnasium (again: harmless); the ids.  Keyword
    arguments of ``gymnasium.make`` go to :class:`rummykit.envs._gymnasium.RummykitGymEnv`;
    ``gymnasium.make_vec`` of a hand id makes a :class:`rummykit.envs._vector.RummykitVectorEnv`."""
    import gymnasium

    for env_id, (game, episode) in GYMNASIUM_IDS.items():
        if env_id not in gymnasium.registry:
            gymnasium.register(
                id=env_id,
                entry_point="rummykit.envs._gymnasium:RummykitGymEnv",
                kwargs={"game": game, "episode": episode},
                vector_entry_point="rummykit.envs._vector:RummykitVectorEnv" if episode == "hand" else None,
            )
    return list(GYMNASIUM_IDS)
