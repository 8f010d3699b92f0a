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
