"""Explicit randomness: every random entry point takes a seed or a numpy Generator."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from rummykit.errors import InvalidOptionError

if TYPE_CHECKING:
    import numpy as np

__all__ = ["Uniforms", "as_generator"]


def as_generator(seed: object, name: str = "seed") -> np.random.Generator:
    """A numpy Generator from a Generator (used as it is), a non-negative int
    or None (fresh entropy); anything else raises InvalidOptionError."""
    import numpy as np  # on first use, keeping `import rummykit` light

    if isinstance(seed, np.random.Generator):
        return seed
    if seed is None or (isinstance(seed, int) and not isinstance(seed, bool) and seed >= 0):
        return np.random.default_rng(seed)
    raise InvalidOptionError(f"{name} must be a non-negative int, a numpy Generator or None, got {seed!r}")


class Uniforms:
    """Uniform choices drawn from a numpy Generator in blocks (one numpy call
    per block instead of one per choice): determinization makes many small
    draws."""

    def __init__(self, gen: np.random.Generator) -> None:
        self.gen = gen
        self.block: list[float] = []

    def below(self, k: int) -> int:
        """A uniform int in [0, k)."""
        if not self.block:
            self.block = self.gen.random(256).tolist()
        return min(int(self.block.pop() * k), k - 1)

    def shuffled(self, items: Iterable[int]) -> list[int]:
        """A uniformly shuffled copy (Fisher-Yates)."""
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.below(i + 1)
            out[i], out[j] = out[j], out[i]
        return out
