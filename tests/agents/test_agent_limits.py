"""Every count and time setting of the search agents has a range: out of it,
InvalidOptionError names the setting and the range (huge values ran out of memory or ran
for minutes a move); the largest values allowed play a move."""

from __future__ import annotations

import pytest

import rummykit as rk
from rummykit.agents import make_agent
from rummykit.agents.base import MAX_PLAYOUTS, MAX_SECONDS
from rummykit.agents.ismcts import MAX_ITERATIONS, MAX_MOVE_PLAYOUTS

TOO_BIG = [
    ("best", "samples", 1025, "1..1,024"),
    ("best", "playouts", 1025, "1..1,024"),
    ("best", "particles", 16385, "1..16,384"),
    ("best", "determinizations", 10**9, "1..1,024"),
    ("best", "table_samples", 1025, "0..1,024"),
    ("best", "table_pool", 17, "1..16"),
    ("best", "table_width", 65, "1..64"),
    ("best", "width", 65, "1..64"),
    ("best", "time_per_move", MAX_SECONDS * 2, "time_per_move"),
    ("ismcts", "iterations", MAX_ITERATIONS + 1, "1..100,000"),
    ("ismcts", "rollouts", 1025, "1..1,024"),
    ("ismcts", "samples", 4097, "1..4,096"),
    ("ismcts", "moves", 1001, "0..1,000"),
    ("ismcts", "time_per_move", 10**9, "time_per_move"),
]


@pytest.mark.parametrize(("agent", "name", "value", "span"), TOO_BIG)
def test_a_setting_out_of_range_is_refused_by_name(agent: str, name: str, value: object, span: str) -> None:
    with pytest.raises(rk.InvalidOptionError, match=f"{name}.*{span}" if span != name else name):
        make_agent(f"{agent}:{name}={value}")


def test_products_of_counts_are_bounded() -> None:
    with pytest.raises(rk.InvalidOptionError, match=r"samples x playouts must be at most 65,536"):
        make_agent("best:samples=1024,playouts=65")
    assert MAX_PLAYOUTS == 65536
    make_agent(f"best:samples=1024,playouts={MAX_PLAYOUTS // 1024}")
    with pytest.raises(rk.InvalidOptionError, match=r"iterations x rollouts must be at most 1,048,576"):
        make_agent("ismcts:iterations=100000,rollouts=11")
    make_agent(f"ismcts:iterations=100000,rollouts={MAX_MOVE_PLAYOUTS // 100000}")


def test_a_clock_alone_stops_ismcts_at_the_iteration_bound() -> None:
    agent = make_agent("ismcts:time_per_move=3600,rollouts=1024", 1)
    assert agent._cap == MAX_MOVE_PLAYOUTS // 1024  # type: ignore[attr-defined]
    state = rk.Game("gin").new_hand(seed=1)
    small = make_agent("ismcts:time_per_move=3600,rollouts=1", 1)
    small._cap = 30  # type: ignore[attr-defined] # the bound, made small enough for a test
    assert small(state) in state.legal_actions()
