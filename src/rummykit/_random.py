"""Explicit randomness: every random entry point takes a seed or a numpy Generator."""

from __future__ import annotations

import numbers
from collections.abc import Iterable
from typing import TYPE_CHECKING

from rummykit.errors import InvalidOptionError, clip

if TYPE_CHECKING:
    import numpy as np

__all__ = ["MAX_SEED", "Uniforms", "as_generator"]


#: seeds are ints 0..MAX_SEED (128 bits, as numpy's SeedSequence draws them): a larger one
#: adds nothing and a huge one (``2**(10**6)``) would only be slow to hash
MAX_SEED = 2**128 - 1


def as_generator(seed: object, name: str = "seed") -> np.random.Generator:
    """A numpy Generator from a Generator (used as it is), an int 0..2**128-1 (a
    numpy integer too) or None (fresh entropy); anything else raises
    InvalidOptionError.
    """
    import numpy as np  # on first use, keeping `import rummykit` light

    if isinstance(seed, np.random.Generator):
        return seed
    if seed is None:
        return np.random.default_rng()
    if isinstance(seed, numbers.Integral) and not isinstance(seed, (bool, np.bool_)) and 0 <= int(seed) <= MAX_SEED:
        return np.random.default_rng(int(seed))
    raise InvalidOptionError(f"{name} must be an int in 0..2**128-1, a numpy Generator or None, got {clip(seed)}")


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
