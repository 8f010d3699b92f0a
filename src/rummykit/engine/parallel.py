"""Work split over threads: :func:`split` (the C kernels release the GIL)."""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

__all__ = ["split"]


def split(run: Callable[[int, int], None], n: int, threads: int) -> None:
    """``run(lo, hi)`` over ``0 .. n`` in ``threads`` threads, in contiguous chunks (the caller
    makes each result depend only on its index, so the chunking does not change it)."""
    if threads == 1 or n < 2 * threads:
        run(0, n)
        return
    bounds = [n * i // threads for i in range(threads + 1)]
    with ThreadPoolExecutor(max_workers=threads) as pool:
        for future in [pool.submit(run, bounds[i], bounds[i + 1]) for i in range(threads)]:
            future.result()
