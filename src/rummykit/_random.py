"""Explicit randomness: every random entry point takes a seed or a numpy Generator."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rummykit.errors import InvalidOptionError

if TYPE_CHECKING:
    import numpy as np

__all__ = ["as_generator"]


def as_generator(seed: object, name: str = "seed") -> np.random.Generator:
    """A numpy Generator from a Generator (used as it is), a non-negative int
    or None (fresh entropy); anything else raises InvalidOptionError."""
    import numpy as np  # on first use, keeping `import rummykit` light

    if isinstance(seed, np.random.Generator):
        return seed
    if seed is None or (isinstance(seed, int) and not isinstance(seed, bool) and seed >= 0):
        return np.random.default_rng(seed)
    raise InvalidOptionError(f"{name} must be a non-negative int, a numpy Generator or None, got {seed!r}")
