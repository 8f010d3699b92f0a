"""The command line, run as a user would."""

from __future__ import annotations

import subprocess
import sys


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "rummykit", *args], check=False, capture_output=True, text=True, timeout=60
    )


def test_analyse_ten_cards() -> None:
    out = run("analyse", "AS 2S 3S 7H 7D 7C 9S TS JS KD")
    assert out.returncode == 0, out.stderr
    assert "least deadwood 10" in out.stdout and "K♦" in out.stdout
    assert "best discard" not in out.stdout


def test_analyse_eleven_cards_shows_the_discard() -> None:
    out = run("analyse", "7S 8S 9S KC KD KH KS 2H 3C 4D 5S")
    assert out.returncode == 0, out.stderr
    assert "best discard 5♠ leaves deadwood 9" in out.stdout


def test_bad_cards_exit_2_with_the_reason() -> None:
    out = run("analyse", "AS AS")
    assert out.returncode == 2 and "duplicate card: AS" in out.stderr


def test_tournament_prints_the_table_and_writes_files(tmp_path) -> None:  # type: ignore[no-untyped-def]
    json_path, csv_path = tmp_path / "t.json", tmp_path / "t.csv"
    out = run(
        "tournament",
        "greedy",
        "random",
        "--hands",
        "20",
        "--seed",
        "2",
        "--json",
        str(json_path),
        "--csv",
        str(csv_path),
    )
    assert out.returncode == 0, out.stderr
    assert "oklahoma_gin: 20 hands, seed 2" in out.stdout and "95% CI" in out.stdout
    assert json_path.read_text().startswith("{") and len(csv_path.read_text().splitlines()) == 21


def test_tournament_unknown_agent_exits_2() -> None:
    out = run("tournament", "greedy", "minimax", "--hands", "2")
    assert out.returncode == 2 and "unknown agent 'minimax'" in out.stderr


def test_replay_steps_through_a_record(tmp_path) -> None:  # type: ignore[no-untyped-def]
    import rummykit as rk

    state = rk.Game("gin").new_hand(seed=5)
    greedy = rk.GreedyAgent()
    while not state.is_terminal():
        state.apply_action(greedy(state))
    path = tmp_path / "hand.json"
    path.write_text(state.to_json())
    out = run("replay", str(path), "--all")
    assert out.returncode == 0, out.stderr
    assert f"action {len(state.history)}/{len(state.history)}" in out.stdout
    assert f"{state.result.outcome}:" in out.stdout


def test_replay_steps_through_a_table_game_record(tmp_path) -> None:  # type: ignore[no-untyped-def]
    import rummykit as rk

    state = rk.Game("kaluki").new_hand(seed=2)
    greedy = rk.GreedyAgent()
    while not state.is_terminal():
        state.apply_action(greedy(state))
    path = tmp_path / "kaluki.json"
    path.write_text(state.to_json())
    out = run("replay", str(path), "--all")
    assert out.returncode == 0, out.stderr
    n = len(state.history)
    assert f"kaluki: action {n}/{n}, end" in out.stdout and "opened:" in out.stdout
    assert state.result is not None and f"{state.result.outcome}:" in out.stdout
    assert "next: seat" in out.stdout and ("meld" in out.stdout or "discard" in out.stdout)


def test_replay_of_a_bad_record_exits_2(tmp_path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "bad.json"
    path.write_text('{"format": "rummykit-hand", "family": "table", "game": "rummy"}')
    out = run("replay", str(path), "--all")
    assert out.returncode == 2 and "bad hand record" in out.stderr


def test_bench_reports_rates() -> None:
    out = run("bench")
    assert out.returncode == 0, out.stderr
    assert "least deadwood" in out.stdout and "ISMCTS" in out.stdout
    assert "C playouts, greedy" in out.stdout and "C playouts, random" in out.stdout
