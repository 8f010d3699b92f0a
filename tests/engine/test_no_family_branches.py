"""Code that runs every game does not test which family a game is: outside the family
packages and the registry, no module of rummykit compares a ``.family`` to a family's name,
calls ``isinstance`` with a class of a family package (or a family's C class), or duck-types
with ``getattr``/``hasattr`` on a name that only one family's states, games, rules, matches
or hand results have.  Such code reads the fact it needs from the game's
:class:`~rummykit.engine.family.Family` record (``game.family_record``) or the protocol
instead.  The few exceptions are listed in ``ALLOWED`` with their reason; an entry that no
longer matches anything fails too, so the list stays exact."""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path

import rummykit as rk
from rummykit import _core
from rummykit.engine.family import FAMILIES

SRC = Path(__file__).resolve().parents[2] / "src"
PACKAGE = SRC / "rummykit"

#: the modules that may tell the families apart: the registry and the family record itself
REGISTRY = ("rummykit.games", "rummykit.engine.family")
#: (module, the source of the node) -> why it is not a family test
ALLOWED: dict[tuple[str, str], str] = {
    (
        "rummykit.envs.gin_rummy_ids",
        "isinstance(action, Action)",
    ): "converts its argument: the OpenSpiel gin_rummy id map is written in the knock codec",
    (
        "rummykit.engine.views",
        "getattr(obs, 'melds', None)",
    ): "the view schema's melds: the table's (table games) or the showdown's (knock games)",
    (
        "rummykit.engine.views",
        "getattr(result, 'melds', ())",
    ): "the view schema's melds: the table's (table games) or the showdown's (knock games)",
}


def _module(path: Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _family_packages() -> set[str]:
    return {family.state.__module__.rpartition(".")[0] for family in FAMILIES.values()}


def _inside(module: str, packages: set[str]) -> bool:
    return module in REGISTRY or any(module == p or module.startswith(p + ".") for p in packages)


def _family_classes(packages: set[str]) -> set[str]:
    """The classes the family packages define, and the C classes of one family."""
    names = set()
    for package in packages:
        for path in (SRC / package.replace(".", "/")).rglob("*.py"):
            names |= {n.name for n in ast.walk(ast.parse(path.read_text())) if isinstance(n, ast.ClassDef)}
    names |= {n for n in dir(_core) if isinstance(getattr(_core, n), type) and n.startswith(("Knock", "Table"))}
    return names


def _names(cls: type) -> set[str]:
    found = {n for n in dir(cls) if not n.startswith("__")}
    if dataclasses.is_dataclass(cls):
        found |= {f.name for f in dataclasses.fields(cls)}
    return found


def _one_family_names() -> set[str]:
    """Attribute names that the states, games, rules, matches or hand results of some but
    not all families have."""
    samples = {name: rk.Game(family.base_games[0]) for name, family in FAMILIES.items()}
    kinds: list[dict[str, type]] = [
        {n: f.state for n, f in FAMILIES.items()},
        {n: f.game for n, f in FAMILIES.items()},
        {n: f.match for n, f in FAMILIES.items()},
        {n: type(g.rules) for n, g in samples.items()},
        {n: type(_finished(g).result) for n, g in samples.items()},
    ]
    only: set[str] = set()
    for kind in kinds:
        sets = [_names(cls) for cls in kind.values()]
        only |= set.union(*sets) - set.intersection(*sets)
    return only


def _finished(game: rk.Game) -> rk.GameState:
    state = game.new_hand(seed=1)
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    return state


def _hits(source: str, classes: set[str], one_family: set[str]) -> list[tuple[int, str]]:
    """The family tests in ``source``: ``(line, text)``."""
    family_names = set(FAMILIES)
    found = []
    for node in ast.walk(ast.parse(source)):
        hit = False
        if isinstance(node, ast.Compare):
            operands = [node.left, *node.comparators]
            operands += [e for o in operands if isinstance(o, (ast.Tuple, ast.List, ast.Set)) for e in o.elts]
            named = any(isinstance(o, ast.Attribute) and o.attr in ("family", "name") for o in operands)
            family = any(isinstance(o, ast.Attribute) and o.attr == "family" for o in operands)
            hit = any(isinstance(o, ast.Constant) and (family or (named and o.value in family_names)) for o in operands)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and len(node.args) >= 2:
            second = node.args[1]
            if node.func.id in ("isinstance", "issubclass"):
                for e in second.elts if isinstance(second, ast.Tuple) else [second]:
                    hit |= (e.attr if isinstance(e, ast.Attribute) else getattr(e, "id", None)) in classes
            elif node.func.id in ("getattr", "hasattr"):
                hit = isinstance(second, ast.Constant) and second.value in one_family
        if hit:
            found.append((node.lineno, ast.unparse(node)))
    return found


def _branches() -> list[tuple[str, int, str]]:
    packages = _family_packages()
    classes = _family_classes(packages)
    one_family = _one_family_names()
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        module = _module(path)
        if not _inside(module, packages):
            found += [(module, line, text) for line, text in _hits(path.read_text(), classes, one_family)]
    return found


def test_callers_do_not_test_the_family() -> None:
    found = _branches()
    bad = [f"{module}:{line}: {text}" for module, line, text in found if (module, text) not in ALLOWED]
    assert not bad, "family tests outside the family packages and the registry:\n" + "\n".join(bad)
    stale = set(ALLOWED) - {(module, text) for module, _, text in found}
    assert not stale, f"ALLOWED entries that match nothing any more: {sorted(stale)}"


def test_the_scan_sees_each_kind_of_family_test() -> None:
    classes = _family_classes(_family_packages())
    one_family = _one_family_names()
    assert {"KnockState", "TableState", "TableSpec"} <= classes
    assert {"knocker", "is_kaluki", "absent"} <= one_family
    assert not {"seats", "returns", "family_record", "score_kind"} & one_family
    for text in (
        'state.game.family != "knock"',
        'if game.family == "table": pass',
        'record.name in ("knock",)',
        "isinstance(state, KnockState)",
        "isinstance(spec, (int, _core.TableSpec))",
        'getattr(rules, "is_kaluki", False)',
        'hasattr(result, "knocker")',
    ):
        assert len(_hits(text, classes, one_family)) == 1, text
    for text in (
        "state.game.family_record.knocks",
        'plan[0] == "knock"',
        "match.family != record['family']",
        "isinstance(state, GameState)",
        'getattr(agent, "new_hand", None)',
    ):
        assert not _hits(text, classes, one_family), text
