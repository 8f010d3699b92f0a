"""docs/rules.md stays in step with the code: every option and preset is
documented, every worked example names tests that pin it, and the file's
own links and decision numbers hold."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest

from rummykit.games import game_names
from rummykit.knock.rules import KnockRules
from rummykit.table.rules import TableRules

ROOT = Path(__file__).resolve().parent.parent.parent
RULES_MD = ROOT / "docs" / "rules.md"
TESTS = Path(__file__).resolve().parent.parent
INTERNAL = {"name", "given", "game"}
SPEC = "RULES" + ".md"  # the internal spec's name, spelled so that reference rewriting leaves it alone
SECTION_SIGN = "\u00a7"

pytestmark = pytest.mark.skipif(not RULES_MD.exists(), reason="docs/rules.md is not in this tree")


def _text() -> str:
    return RULES_MD.read_text(encoding="utf-8")


def _options(cls: type) -> list[str]:
    return [f.name for f in dataclasses.fields(cls) if f.name not in INTERNAL]


@pytest.mark.parametrize("option", sorted(set(_options(KnockRules)) | set(_options(TableRules))))
def test_every_option_is_documented(option: str) -> None:
    assert f"`{option}`" in _text(), f"docs/rules.md does not mention option {option!r}"


@pytest.mark.parametrize("name", game_names(aliases=True))
def test_every_game_and_preset_name_is_documented(name: str) -> None:
    text = _text()
    assert f"`{name}`" in text or f"`{name.replace('-', '_')}`" in text, (
        f"docs/rules.md does not mention game or preset {name!r}"
    )


def _examples() -> list[tuple[str, list[str]]]:
    """(example id, the test files its entry names) for every worked example."""
    text = _text()
    start = text.index("\n## Worked examples")
    end = text.index("\n## ", start + 1)
    section = text[start:end]
    found = []
    for block in re.split(r"\n(?=\*\*EX-)", section)[1:]:
        ex = re.match(r"\*\*(EX-[GOMKR]\d\d)", block)
        if ex is None:
            continue
        named = re.search(r"\*Tests?:\s+([^*]+)\*", block)
        files = [f.strip().rstrip(".") for f in named.group(1).split(",")] if named else []
        found.append((ex.group(1), files))
    return found


def _mentions(path: Path, example: str) -> bool:
    """Whether a test file names the example: 'EX-G04', 'ex_g04' or a bare 'G04'."""
    letter, number = example[3], example[4:]
    pattern = rf"(?i)(?<![a-z0-9])(?:ex[-_ ]?)?{letter}{number}(?![0-9])"
    return re.search(pattern, path.read_text(encoding="utf-8")) is not None


def test_examples_are_listed() -> None:
    ids = [ex for ex, _ in _examples()]
    assert len(ids) == len(set(ids))
    assert {"EX-G04", "EX-M08", "EX-K09", "EX-R06", "EX-O02"} <= set(ids)


@pytest.mark.parametrize(("example", "files"), _examples() if RULES_MD.exists() else [])
def test_each_example_is_pinned_by_the_tests_it_names(example: str, files: list[str]) -> None:
    assert files, f"{example} names no test"
    for name in files:
        path = TESTS / name
        assert path.exists(), f"{example}: {name} does not exist"
        assert _mentions(path, example), f"{example}: {name} does not mention it"


def _anchor(heading: str) -> str:
    """GitHub's anchor for a heading."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def test_internal_links_resolve() -> None:
    text = _text()
    anchors = {_anchor(h) for h in re.findall(r"^#{1,6} (.+)$", text, flags=re.M)}
    links = set(re.findall(r"\]\(#([^)]+)\)", text))
    assert links, "no internal links found"
    assert links <= anchors, f"links to missing sections: {sorted(links - anchors)}"


def test_cited_sections_exist() -> None:
    """The section names code cites as 'docs/rules.md, <name>'."""
    headings = set(re.findall(r"^#{2,3} (.+)$", _text(), flags=re.M))
    for name in (
        "Sources",
        "Gin Rummy",
        "Oklahoma Gin",
        "Oklahoma Rummy",
        "Kaluki",
        "Rummy",
        "Scoring",
        "Two-player settlement",
        "Hollywood",
        "Match points",
        "Multi-player scoring models",
        "Ring payout",
        "Options",
        "Presets",
        "Worked examples",
        "Decisions",
    ):
        assert name in headings, name


def test_decisions_are_numbered_d1_to_d34() -> None:
    numbers = [int(n) for n in re.findall(r"^\*\*D(\d+)\. ", _text(), flags=re.M)]
    assert numbers == list(range(1, 35))


def test_docs_stand_on_their_own() -> None:
    """The user documentation cites neither the internal spec nor the rule texts' files."""
    for path in sorted((ROOT / "docs").glob("*.md")) + [ROOT / "benchmarks" / "README.md"]:
        text = path.read_text(encoding="utf-8")
        assert SPEC not in text and SECTION_SIGN not in text, path.name
        assert "seeds/" not in text and not re.search(r"\b00[0-3]_[0-9a-f]{16}\.txt", text), path.name
