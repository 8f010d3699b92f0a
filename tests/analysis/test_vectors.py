"""The reference vectors in tests/data (shared with the C tests)."""

from __future__ import annotations

import csv
import os

import rummykit as rk

DATA = os.path.join(os.path.dirname(os.path.dirname(__file__)), "data")


def test_vectors_are_fresh() -> None:
    import importlib.util

    spec = importlib.util.spec_from_file_location("make_vectors", os.path.join(DATA, "make_vectors.py"))
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    with open(os.path.join(DATA, "vectors.csv"), encoding="utf-8") as f:
        assert f.read().splitlines() == module.rows()


def test_core_agrees_with_vectors() -> None:
    with open(os.path.join(DATA, "vectors.csv"), encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == 1200
    for row in rows:
        assert rk.deadwood(row["hand"], aces=row["aces"]) == int(row["deadwood"]), row
        expect = (rk.Card(row["discard"]), int(row["discard_deadwood"]))
        assert tuple(rk.best_discard(row["hand"], aces=row["aces"])) == expect, row
