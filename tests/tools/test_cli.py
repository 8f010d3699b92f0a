"""The command line, run as a user would."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import pytest


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


def test_version() -> None:
    import rummykit as rk

    out = run("--version")
    assert out.returncode == 0 and out.stdout.strip() == f"rummykit {rk.__version__}"


def test_rules_lists_the_games_and_presets() -> None:
    out = run("rules")
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert any(line.split()[:2] == ["kaluki", "game"] for line in lines if line.strip())
    assert any(line.startswith("kalooki_51") and "preset of kaluki" in line for line in lines)
    assert "┃" not in out.stdout  # piped: plain lines, no table


@pytest.mark.parametrize(
    ("name", "heading"), [("gin", "Gin Rummy"), ("oklahoma-gin", "Oklahoma Gin"), ("kalooki_51", "Kaluki")]
)
def test_rules_text_prints_the_games_section(name: str, heading: str) -> None:
    out = run("rules", name, "--text")
    assert out.returncode == 0, out.stderr
    headings = [line for line in out.stdout.splitlines() if line.startswith("## ")]
    assert headings[0] == f"## {heading}" and headings[-1] == "## Common rules"
    assert ("## Kaluki" in headings) == (heading == "Kaluki") and "## Rummy" not in headings
    bad = run("rules", "nope", "--text")
    assert bad.returncode != 0 and "unknown game 'nope'" in bad.stderr


def test_rules_of_a_game_lists_its_options_plainly_when_piped() -> None:
    import rummykit as rk

    out = run("rules", "kaluki")
    assert out.returncode == 0, out.stderr
    options = rk.game_options("kaluki")
    lines = out.stdout.splitlines()
    penalty = next(line for line in lines if line.startswith("joker_penalty = 15  ["))
    assert "25" in penalty and options["joker_penalty"].doc in penalty  # allowed values and meaning, one line
    assert all(any(line.startswith(f"{name} = ") for line in lines) for name in options)
    assert "┃" not in out.stdout
    preset = run("rules", "kalooki-51")  # an alias of a preset: its own defaults, the base's noted
    assert "joker_penalty = 25 (preset; kaluki: 15)" in preset.stdout
    bad = run("rules", "kalukki")
    assert bad.returncode == 2 and "did you mean" in bad.stderr


def test_analyse_a_kaluki_hand_with_jokers() -> None:
    out = run("analyse", "QS KS Jk 3H 3D 3C 7D")
    assert out.returncode == 0, out.stderr
    assert "7 cards (kaluki, two decks), least penalty 7" in out.stdout
    assert "Jk=A♠" in out.stdout and "can open: melds worth 40 (40 needed)" in out.stdout
    fourteen = run("analyse", "QS KS Jk 3H 3D 3C 7D 7D 8D 9D 2C 4H 5S KC")  # a Kaluki hand after the draw
    assert "best discard Q♠ leaves penalty 18" in fourteen.stdout  # K♣ K♠ Jk then make a set
    twins = run("analyse", "--game", "kalooki-51", "5H 5H 6H 6H 7H 7H 2C")  # two decks without a joker
    assert "least penalty 2" in twins.stdout and "(51 needed)" in twins.stdout


def test_forbidden_needs_a_discard_choice() -> None:
    ten = run("analyse", "AS 2S 3S 7H 7D 7C 9S TS JS KD", "--forbidden", "KD")
    assert ten.returncode == 2 and "--forbidden" in ten.stderr and "10 cards" in ten.stderr
    eleven = run("analyse", "7S 8S 9S KC KD KH KS 2H 3C 4D 5S", "--forbidden", "5S")
    assert eleven.returncode == 0 and "best discard 4♦" in eleven.stdout
    assert run("analyse", "AS 2S 3S 7H", "--forbidden", "7H", "--discard").returncode == 0


def test_piped_output_is_not_wrapped() -> None:
    env = dict(os.environ, COLUMNS="40")
    out = subprocess.run(
        [sys.executable, "-m", "rummykit", "analyse", "7S 8S 9S KC KD KH KS 2H 3C 4D 5S"],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
    )
    line = next(line for line in out.stdout.splitlines() if line.startswith("after each discard:"))
    assert line.count(",") == 10  # all eleven discards on one line


def test_tournament_plot_checks_matplotlib_before_playing(tmp_path) -> None:  # type: ignore[no-untyped-def]
    fake = tmp_path / "matplotlib"
    fake.mkdir()
    (fake / "__init__.py").write_text("raise ImportError('no matplotlib here')\n")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(tmp_path), os.environ.get("PYTHONPATH", "")]))
    args = ["tournament", "greedy", "random", "--hands", "1000000", "--plot", str(tmp_path / "p.png")]
    out = subprocess.run(
        [sys.executable, "-m", "rummykit", *args], capture_output=True, text=True, timeout=30, env=env
    )  # a million hands would take minutes: the check comes first
    assert out.returncode == 2 and out.stdout == ""
    assert out.stderr.strip().splitlines() == [
        "rummykit: --plot needs matplotlib: pip install 'rummykit[plot]' (or pip install matplotlib)"
    ]


def test_tournament_footnotes_explain_dead_hands_and_penalties() -> None:
    dead = run("tournament", "random", "random", "--hands", "20", "--seed", "1")  # random Oklahoma: mostly dead
    assert dead.returncode == 0, dead.stderr
    assert re.search(r"\* \d+ dead hands? \(nobody won\) left out of wins and win rates", dead.stdout)
    kaluki = run("tournament", "greedy", "random", "--game", "kaluki", "--hands", "4")
    assert "kaluki is a penalty game" in kaluki.stdout and "nearest 0 is the best" in kaluki.stdout


def test_tournament_saves_replayable_records(tmp_path) -> None:  # type: ignore[no-untyped-def]
    folder = tmp_path / "records"
    out = run(
        "tournament", "greedy", "random", "--game", "rummy", "--option", "rummy_scoring=penalty",
        "--hands", "4", "--save-records", str(folder),
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    assert sorted(p.name for p in folder.iterdir()) == [f"hand_{i}.json" for i in range(4)]
    assert "rummy is a penalty game" in out.stdout  # the option reached the game
    replayed = run("replay", str(folder / "hand_1.json"), "--all")
    assert replayed.returncode == 0 and "went out" in replayed.stdout


def test_play_takes_players_target_options_and_saves_a_match_record(tmp_path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "match.json"
    args = ["play", "rummy", "--players", "3", "--target", "50", "--option", "rummy_bonus=none", "--seed", "1"]
    out = subprocess.run(
        [sys.executable, "-m", "rummykit", *args, "--save", str(path)],
        input="moves\nquit\n",
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 0, out.stderr
    assert "cards held: you 7 cards, player 1 7 cards, player 2 " in out.stdout  # 3 players: 7 cards each
    assert "(1 card)" in out.stdout or "(2 cards)" in out.stdout  # the discard pile, never "1 cards"
    assert "1 cards" not in out.stdout
    record = json.loads(path.read_text())
    assert record["format"] == "rummykit-match" and len(record["hands"]) == 1
    assert record["hands"][0]["options"] == {"num_players": 3, "rummy_bonus": "none", "target_score": 50}
    replayed = run("replay", str(path), "--all")
    assert replayed.returncode == 0 and "the record ends before the end of the hand" in replayed.stdout
    bad = run("play", "rummy", "--option", "rumy_bonus=none")
    assert bad.returncode == 2 and "did you mean 'rummy_bonus'" in bad.stderr
    assert run("play", "gin", "--option", "big_gin_bonus=7").returncode == 2


def _readme_blocks(language: str) -> list[str]:
    from pathlib import Path

    text = (Path(__file__).parent.parent.parent / "README.md").read_text(encoding="utf-8")
    return re.findall(rf"```{language}\n(.*?)```", text, re.S)


def test_readme_snippets_stand_on_their_own() -> None:
    scripts = [b for b in _readme_blocks("python") if not b.lstrip().startswith(">>>")]  # doctests run anyway
    assert len(scripts) >= 4
    for block in scripts:
        if re.search(r"\bnp\.", block):
            assert "import numpy as np" in block, block
        if "evaluate_bots(" in block:
            assert re.search(r"^print\(returns\)", block, re.M), "the OpenSpiel block prints what it shows"


def test_readme_command_line_examples_are_quick() -> None:
    (commands,) = [b for b in _readme_blocks("sh") if "rummykit tournament" in b and "rummykit analyse" in b]
    for line in commands.splitlines():
        if "ismcts" in line:  # the slow agent: a handful of hands, not a thousand
            hands = int(re.search(r"--hands (\d+)", line).group(1))  # type: ignore[union-attr]
            assert hands <= 50, line
        if "rummykit replay" in line:
            assert "--save match.json" in commands  # the record it replays is made above it


def test_tournament_seats_one_agent_each() -> None:
    out = run("tournament", "greedy", "random", "random", "--game", "rummy", "--hands", "3")
    assert out.returncode == 0, out.stderr  # three agents: three players
    assert "rummy: 3 hands" in out.stdout and "1 worker" in out.stdout


def test_tournament_help_states_the_seat_convention() -> None:
    out = run("tournament", "--help")
    assert "indexed by agent" in " ".join(out.stdout.split()) and "seat 0 deals" in " ".join(out.stdout.split())
