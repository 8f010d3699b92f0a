"""What every agent shares: the :class:`Agent` protocol, the checks of agent
settings, and the registry of agent names behind :func:`make_agent`
(:func:`register` adds one)."""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from rummykit.errors import InvalidOptionError, clip

if TYPE_CHECKING:
    import numpy as np

__all__ = [
    "AGENT_NAMES",
    "MAX_COUNT",
    "MAX_PLAYOUTS",
    "MAX_SECONDS",
    "Agent",
    "MatchInfo",
    "agent_settings",
    "is_library_spec",
    "make_agent",
    "register",
    "register_alias",
    "signed_results",
]


class Agent(Protocol):
    """What the tournament runner, ``rummykit.Match`` and ``rummykit play`` call: the action
    id for ``state`` (a :class:`rummykit.GameState` of any game).

    An agent may also have a ``new_hand(info)`` method: a match (``rummykit.Match``, and so
    :func:`rummykit.league.league` and ``rummykit play``) calls it before each hand with a
    :class:`MatchInfo`, so that the agent can play the game rather than the hand."""

    def __call__(self, state: Any) -> int: ...


@dataclass(frozen=True)
class MatchInfo:
    """The match so far, as an agent's ``new_hand`` method is told it before a hand:
    ``seat`` (the agent's), ``scores`` per seat (the game in progress: hand points, or the
    penalty totals of Kaluki and penalty Rummy), ``target`` (the score that ends the game, the
    elimination threshold in Kaluki; None without one), ``dealer`` of the hand to come,
    ``hand``, the hands dealt so far in the match, and ``last``, the result of the last hand
    (``state.result`` at its end: what the showdown showed everyone; None before the first);
    ``game``, the game played (None: not told)."""

    seat: int
    scores: tuple[int, ...]
    target: int | None
    dealer: int
    hand: int
    last: Any = None
    game: Any = None


#: the largest count setting (iterations, rollouts, samples...): a C int
MAX_COUNT = 2**31 - 1


#: the longest ``time_per_move`` of the search agents, in seconds
MAX_SECONDS = 3600.0
#: the most playouts a search agent's settings may ask of one candidate move (the products of
#: the sample and playout counts): with the per-setting ranges, what keeps a move's time bounded
MAX_PLAYOUTS = 65536


def _check_int(name: str, value: object, minimum: int, maximum: int = MAX_COUNT) -> int:
    """An int setting minimum..maximum (numpy integers too), or InvalidOptionError naming it and its range."""
    if not isinstance(value, numbers.Integral) or isinstance(value, bool) or not minimum <= int(value) <= maximum:
        raise InvalidOptionError(f"{name} must be an int {minimum}..{maximum:,}, got {clip(value)}")
    return int(value)


def _check_product(names: str, product: int, maximum: int) -> None:
    """InvalidOptionError if settings whose product bounds a move's work exceed ``maximum``."""
    if product > maximum:
        raise InvalidOptionError(f"{names} must be at most {maximum:,} (a move's playouts), got {product:,}")


def _check_seconds(value: object) -> float | None:
    """``time_per_move``: None, or seconds in (0, MAX_SECONDS]; else InvalidOptionError."""
    if value is None:
        return None
    if not _is_number(value) or not 0 < value <= MAX_SECONDS:  # type: ignore[operator]
        raise InvalidOptionError(
            f"time_per_move must be a number of seconds in (0, {MAX_SECONDS:g}] or None, got {clip(value)}"
        )
    return float(value)  # type: ignore[arg-type]


def _is_number(value: object) -> bool:
    """A finite real number (numpy ones too), not a bool."""
    if not isinstance(value, numbers.Real) or isinstance(value, bool):
        return False
    try:
        return math.isfinite(value)
    except OverflowError:  # an int too large for a float
        return False


def signed_results(points: Sequence[float]) -> list[float]:
    """Each seat's signed result of a hand from its hand points (``state.returns()``): its
    points less the mean of the other seats' points.  The results sum to 0 (zero-sum between
    seats) and a lost hand is negative even where the scoring gives the loser 0 points; with
    two players it is the difference of the two seats' points.

    >>> signed_results([25, 0]), signed_results([0, 0]), signed_results([12, -6, -6])
    ([25.0, -25.0], [0.0, 0.0], [18.0, -9.0, -9.0])
    """
    n = len(points)
    if n < 2:
        return [0.0] * n
    total = float(sum(points))
    return [(n * float(p) - total) / (n - 1) for p in points]


# --- by name ------------------------------------------------------------------

_FACTORIES: dict[str, Callable[..., Any]] = {}
#: the agent names :func:`make_agent` knows (filled as :mod:`rummykit.agents` registers them)
AGENT_NAMES: tuple[str, ...] = ()


_ALIASES: dict[str, str] = {}
#: per alias, the settings of its agent it refuses (``level:1`` answers at once: no time_per_move)
_CLOSED: dict[str, tuple[str, ...]] = {}
#: the reader of ``"module:attribute"`` specs (rummykit.agents.policy registers load_agent)
_SPEC_LOADERS: list[Callable[[str, Any], Any]] = []


def register_spec_loader(loader: Callable[[str, Any], Any]) -> None:
    """Make ``loader(spec, seed)`` read the ``"module:attribute"`` specs of :func:`make_agent`."""
    _SPEC_LOADERS[:] = [loader]


def register(name: str, factory: Callable[..., Any]) -> None:
    """Make ``factory(seed=..., **settings)`` the agent called ``name`` for :func:`make_agent`."""
    global AGENT_NAMES
    _FACTORIES[name] = factory
    AGENT_NAMES = (*_FACTORIES, *_ALIASES)


def register_alias(name: str, spec: str, closed: tuple[str, ...] = ()) -> None:
    """Make ``name`` stand for the agent spec ``spec`` (``"level:3"`` for ``"greedy"``); settings
    after it are added to the spec's (``"level:5:time_per_move=0.02"``).  ``closed``: settings the
    agent refuses under this alias, left out of :func:`agent_settings`."""
    global AGENT_NAMES
    _ALIASES[name] = spec
    _CLOSED[name] = tuple(closed)
    AGENT_NAMES = (*_FACTORIES, *_ALIASES)


def _expand(spec: str) -> str:
    """An alias with its settings as the spec it stands for; any other spec as it is."""
    text = spec.strip()
    low = text.lower()
    for alias, base in _ALIASES.items():
        if low == alias or low.startswith(alias + ":"):
            extra = text[len(alias) + 1 :]
            return base + ("," if ":" in base else ":") + extra if extra else base
    return text


def agent_settings(name: str) -> dict[str, object]:
    """The settings of the agent called ``name`` (for :func:`make_agent`) and their defaults
    (an alias: those its spec leaves open).

    >>> agent_settings("greedy")
    {'max_knock_deadwood': None}
    """
    import inspect

    fixed: set[str] = set()  # the settings an alias's spec sets
    if isinstance(name, str) and name.strip().lower() in _ALIASES:
        alias = name.strip().lower()
        name, _, spec = _ALIASES[alias].partition(":")
        fixed = {item.partition("=")[0].strip() for item in spec.split(",")} | set(_CLOSED[alias])
    factory = _FACTORIES.get(name.strip().lower()) if isinstance(name, str) else None
    if factory is None:
        raise InvalidOptionError(f"unknown agent {clip(name)}; known: {', '.join(_FACTORIES)}")
    return {
        p.name: p.default
        for p in inspect.signature(factory).parameters.values()
        if p.name not in ("seed", "rollout", *fixed) and p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)
    }


def agent_summary(name: str) -> str:
    """The first sentence of the agent's documentation (``rummykit agents`` shows it)."""
    import re

    if name in _ALIASES:
        return f"{_ALIASES[name]}: {agent_summary(_ALIASES[name].partition(':')[0])}"
    doc = " ".join((_FACTORIES[name].__doc__ or "").strip().split("\n\n")[0].split())
    doc = re.sub(r":\w+:`~?([^`]*)`", lambda m: m.group(1).rsplit(".", 1)[-1], doc).replace("``", "")
    first = re.split(r"(?<=\.)\s", doc, maxsplit=1)[0]
    return first.rstrip(":") + ("" if first.endswith(".") else ".")


def _option_value(text: str) -> object:
    if text.lower() == "none":
        return None
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def is_library_spec(spec: object) -> bool:
    """Whether ``spec`` names one of the library's own agents (a registered name or alias, with
    or without settings), as opposed to an agent object or a ``"module:attribute"`` spec."""
    return isinstance(spec, str) and _expand(spec).partition(":")[0].strip().lower() in _FACTORIES


def make_agent(spec: str | Agent, seed: int | np.random.Generator | None = None) -> Agent:
    """An agent from a name (``"random"``, ``"greedy"``, ``"ismcts"``) with optional
    settings after a colon (``"ismcts:iterations=100,exploration=1.0"``,
    ``"greedy:max_knock_deadwood=5"``), or an alias (``"level:3"``, settings after a second colon:
    ``"level:5:time_per_move=0.02"``), seeded with ``seed``; a ``"module:attribute"`` spec
    (``"mypkg.policies:best"``: an agent, an agent factory or a batched policy, see
    :func:`rummykit.agents.policy.load_agent`); an agent with a ``spawn`` method is spawned
    with ``seed``; any other callable is used as it is.

    >>> make_agent("ismcts:iterations=50", seed=1)
    ISMCTSAgent(iterations=50)
    """
    if not isinstance(spec, str):
        if not callable(spec):
            raise InvalidOptionError(f"an agent must be a name or a callable, got {clip(spec)}")
        spawn = getattr(spec, "spawn", None)
        return spawn(seed) if callable(spawn) else spec
    name, _, settings = _expand(spec).partition(":")
    factory = _FACTORIES.get(name.strip().lower())
    attribute = settings.strip().split(".")
    if factory is None and _SPEC_LOADERS and all(part.isidentifier() for part in attribute):  # module:attribute
        loaded: Agent = _SPEC_LOADERS[0](spec, seed)
        return loaded
    if factory is None:
        raise InvalidOptionError(f"unknown agent {clip(name)}; known: {', '.join(AGENT_NAMES)}")
    options: dict[str, object] = {}
    known = agent_settings(name)
    for item in filter(None, (s.strip() for s in settings.split(","))):
        key, eq, value = item.partition("=")
        if not eq or not key.strip().isidentifier() or key.strip() in ("seed", "rollout"):
            raise InvalidOptionError(f"bad agent setting {clip(item)} in {clip(spec)} (expected name=value)")
        if key.strip() not in known:
            listed = ", ".join(known) if known else "none"
            raise InvalidOptionError(
                f"agent {clip(name)} has no setting {clip(key.strip())}; its settings: {listed} (rummykit agents)"
            )
        if key.strip() in options:
            raise InvalidOptionError(f"agent setting {clip(key.strip())} is given twice in {clip(spec)}")
        options[key.strip()] = _option_value(value.strip())
    try:
        agent: Agent = factory(seed=seed, **options)
    except TypeError as err:
        raise InvalidOptionError(f"bad settings for agent {clip(name)}: {clip(str(err), 120)}") from None
    return agent
