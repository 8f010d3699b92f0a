"""The tournament runner: reproducibility, seat rotation, statistics and exports."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

import rummykit as rk
import rummykit.tournaments as tournaments
from rummykit.tournaments import wilson_interval


def test_same_seed_same_result_for_any_worker_count() -> None:
    one = rk.tournament(["greedy", "ismcts:iterations=8"], "gin", hands=4, seed=4)
    two = rk.tournament(["greedy", "ismcts:iterations=8"], "gin", hands=4, seed=4, workers=2)
    assert one == two and one.records == two.records
    assert one != rk.tournament(["greedy", "ismcts:iterations=8"], "gin", hands=4, seed=5)


def test_seats_rotate_over_each_deal() -> None:
    result = rk.tournament(["greedy", "random", "random"], "oklahoma-rummy", hands=9, seed=1, num_players=3)
    assert [r.deal for r in result.records] == [0, 0, 0, 1, 1, 1, 2, 2, 2]
    assert [r.seats for r in result.records[:3]] == [(0, 1, 2), (1, 2, 0), (2, 0, 1)]  # by agent
    greedy = result.agents[0]
    assert greedy.decided == sum(r.winner is not None for r in result.records)


def test_statistics_and_exports(tmp_path: Path) -> None:
    result = rk.tournament(["greedy", "random"], "oklahoma-gin", hands=30, seed=3)
    greedy, rand = result.agents
    assert greedy.wins + rand.wins == greedy.decided
    assert greedy.ci95[0] <= greedy.win_rate <= greedy.ci95[1]
    assert sum(result.outcomes.values()) == 30
    data = json.loads(result.to_json(tmp_path / "r.json"))
    assert data["results"][0]["agent"] == "greedy" and len(data["records"]) == 30
    rows = list(csv.DictReader(io.StringIO(result.to_csv(tmp_path / "r.csv"))))
    assert len(rows) == 30 and sum(int(r["points_0"]) for r in rows) / 30 == pytest.approx(greedy.mean_points)
    assert (tmp_path / "r.csv").read_text() == result.to_csv()


def test_plot_writes_a_png(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    result = rk.tournament(["greedy", "random"], "gin", hands=10, seed=1)
    result.plot(tmp_path / "r.png")
    assert (tmp_path / "r.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_wilson_interval() -> None:
    low, high = wilson_interval(50, 100)
    assert low == pytest.approx(1 - high) and low == pytest.approx(0.4038, abs=1e-4)
    assert wilson_interval(0, 0) == (0.0, 1.0) and wilson_interval(10, 10)[1] == pytest.approx(1.0)


@pytest.mark.parametrize(
    ("agents", "options"),
    [
        (["greedy"], {}),
        (["greedy", "nobody"], {}),
        (["greedy", "random"], {"hands": 0}),
        (["greedy", "random"], {"seed": -1}),
        (["greedy", "random"], {"workers": 0}),
    ],
)
def test_bad_arguments_raise_invalid_option(agents: list[str], options: dict[str, int]) -> None:
    with pytest.raises(rk.InvalidOptionError):
        rk.tournament(agents, "gin", **options)  # type: ignore[arg-type]


def test_csv_and_json_index_seats_by_agent_as_the_records_do(tmp_path: Path) -> None:
    result = rk.tournament(["greedy", "random", "random"], "oklahoma-rummy", hands=6, seed=2, num_players=3)
    hands = json.loads(result.to_json())["records"]
    rows = list(csv.DictReader(io.StringIO(result.to_csv())))
    for record, hand, row in zip(result.records, hands, rows):
        rotation = record.hand % 3
        assert record.seats == tuple((j + rotation) % 3 for j in range(3))  # agent j's seat; seat 0 deals
        assert hand["seats"] == list(record.seats) == [int(row[f"seat_{j}"]) for j in range(3)]
        assert hand["points"] == list(record.points) == [int(row[f"points_{j}"]) for j in range(3)]
        assert (row["winner"] or None) == (None if hand["winner"] is None else str(hand["winner"]))
    assert "indexed by agent" in (tournaments.__doc__ or "")


def test_notes_explain_dead_hands_and_penalty_games() -> None:
    dead = rk.tournament(["random", "random"], "oklahoma-gin", hands=10, seed=1)
    n = dead.outcomes["dead"]
    assert n and dead.agents[0].decided == 10 - n
    assert dead.notes()[0].startswith(f"* {n} dead hand") and "left out of wins and win rates" in dead.notes()[0]
    kaluki = rk.tournament(["greedy", "random"], "kaluki", hands=4, seed=1)
    assert all(s.mean_points <= 0 for s in kaluki.agents)
    assert any("kaluki is a penalty game" in note for note in kaluki.notes())
    gin = rk.tournament(["greedy", "random"], "gin", hands=4, seed=1)
    assert not any("penalty game" in note for note in gin.notes())


def test_save_records_writes_one_replayable_record_per_hand(tmp_path: Path) -> None:
    from rummykit.play import load_records

    result = rk.tournament(["greedy", "random"], "gin", hands=12, seed=3, workers=2, save_records=tmp_path / "r")
    files = sorted((tmp_path / "r").iterdir())
    assert [p.name for p in files] == [f"hand_{i:02d}.json" for i in range(12)]
    for record, path in zip(result.records, files):
        (state,) = load_records(path.read_text())
        assert state.is_terminal() and len(state.history) == record.actions
        assert state.result.outcome == record.outcome
        assert record.winner is None or record.seats[record.winner] == state.result.winner  # the seat it won from


def _readme_scripts() -> list[str]:
    import re

    text = (Path(__file__).parent.parent.parent / "README.md").read_text(encoding="utf-8")
    return [b for b in re.findall(r"```python\n(.*?)```", text, re.S) if not b.lstrip().startswith(">>>")]


@pytest.mark.parametrize("framework", ["pettingzoo", "gymnasium", "pyspiel", "ray"])
def test_readme_framework_snippet_runs_on_its_own(framework: str) -> None:
    """Each README block for a framework runs in a fresh interpreter (CI installs the extras)."""
    import subprocess
    import sys

    pytest.importorskip(framework)
    (script,) = [s for s in _readme_scripts() if f"import {framework}" in s or f"{framework}_env" in s]
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]


def test_as_many_players_as_agents() -> None:
    """One agent per seat: the agent count sets num_players whenever the game takes it."""
    result = rk.tournament(["greedy"] * 3, "kaluki", hands=3, seed=1)
    assert len(result.agents) == 3 and all(len(r.seats) == 3 for r in result.records)
    assert len(rk.tournament(["greedy", "random"], "oklahoma-rummy", hands=2).agents) == 2  # default 3
    with pytest.raises(rk.InvalidOptionError, match="gin for 3 agents.*needs 2 players"):
        rk.tournament(["greedy"] * 3, "gin", hands=2)
    with pytest.raises(rk.InvalidOptionError, match="kaluki for 1 agent .*2..5"):
        rk.tournament(["greedy"], "kaluki", hands=2)
    with pytest.raises(rk.InvalidOptionError, match="needs 3 agents"):
        rk.tournament(["greedy"] * 2, "kaluki", hands=2, num_players=3)
