"""Whether the long randomised cross-checks run: RUMMYKIT_LONG=1 (also: pytest -m long).

A module of its own, not conftest.py: test folders have conftest files of their own, and
``from conftest import ...`` would find whichever one was imported first."""

from __future__ import annotations

import os

LONG = os.environ.get("RUMMYKIT_LONG", "") not in ("", "0")
