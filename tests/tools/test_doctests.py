"""Runs the docstring examples of the installed package."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "rummykit.cards",
    "rummykit.analysis",
    "rummykit.agents",
    "rummykit.agents.ismcts",
    "rummykit.agents.simple",
    "rummykit.agents.styles",
    "rummykit.agents.base",
    "rummykit.league",
    "rummykit.engine.hand_loop",
    "rummykit.tournaments",
    "rummykit.executor",
    "rummykit.multideck",
    "rummykit.games",
    "rummykit.engine.game",
    "rummykit.records",
    "rummykit.scoring",
    "rummykit.knock.rules",
    "rummykit.knock.game",
    "rummykit.knock.match",
    "rummykit.knock.record",
    "rummykit.knock.observe",
    "rummykit.table.rules",
    "rummykit.table.cards",
    "rummykit.table.scoring",
    "rummykit.table.game",
    "rummykit.table.match",
    "rummykit.table.record",
    "rummykit.table.observe",
    "rummykit.playouts",
    "rummykit.inference",
]


@pytest.mark.parametrize("name", MODULES)
def test_module_docstrings(name: str) -> None:
    module = importlib.import_module(name)
    failures, tried = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert tried > 0 and failures == 0
