"""Shared test setup: the brute-force reference is importable as `reference`."""

from __future__ import annotations

import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(__file__))

from long_runs import LONG  # noqa: E402


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if LONG or "long" in (config.getoption("-m") or ""):
        return
    skip = pytest.mark.skip(reason="long run: set RUMMYKIT_LONG=1 or use -m long")
    for item in items:
        if "long" in item.keywords:
            item.add_marker(skip)
