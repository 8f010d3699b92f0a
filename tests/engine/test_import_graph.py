"""The Python modules of rummykit import each other without a cycle: the module import graph
(every ``import`` of a rummykit module at module level or inside a function; the imports
under ``if TYPE_CHECKING:`` are never run and are left out) is acyclic.  States import no
view: a family's views (observation, records, the terminal view) are reached through its
:class:`~rummykit.engine.family.Family` record."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[2] / "src"
PACKAGE = SRC / "rummykit"


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _modules() -> dict[str, Path]:
    return {_module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def _type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(tree: ast.AST, module: str, is_package: bool, known: set[str]) -> set[str]:
    """The rummykit modules ``tree`` imports (run-time imports only)."""
    found: set[str] = set()

    def target(name: str) -> str | None:
        while name and name not in known:
            name = name.rpartition(".")[0]
        return name or None

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and _type_checking(node):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("rummykit"):
                    found.add(target(alias.name) or alias.name)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                package = module if is_package else module.rpartition(".")[0]
                for _ in range(node.level - 1):
                    package = package.rpartition(".")[0]
                base = f"{package}.{base}" if base else package
            if base.startswith("rummykit"):
                for alias in node.names:
                    sub = f"{base}.{alias.name}"
                    found.add(sub if sub in known else target(base) or base)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    found.discard(module)
    return found


def import_graph() -> dict[str, set[str]]:
    """rummykit module -> the rummykit modules it imports."""
    modules = _modules()
    known = set(modules) | {"rummykit._core"}
    return {
        name: _imports(ast.parse(path.read_text(encoding="utf-8")), name, path.name == "__init__.py", known)
        for name, path in modules.items()
    }


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle of ``graph`` as a list of modules (the first repeated at the end), or None."""
    state: dict[str, int] = {}  # 1: on the path, 2: done
    path: list[str] = []

    def walk(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return path[path.index(nxt) :] + [nxt]
            if nxt not in state:
                cycle = walk(nxt)
                if cycle is not None:
                    return cycle
        path.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state:
            cycle = walk(node)
            if cycle is not None:
                return cycle
    return None


def test_no_import_cycle() -> None:
    graph = import_graph()
    assert len(graph) > 50 and "rummykit.knock.state" in graph["rummykit.knock.game"]
    cycle = find_cycle(graph)
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])


@pytest.mark.parametrize("family", ["knock", "table"])
def test_states_import_no_view(family: str) -> None:
    graph = import_graph()
    state = f"rummykit.{family}.state"
    views = {f"rummykit.{family}.{name}" for name in ("observe", "record", "view", "match", "game", "family")}
    assert not graph[state] & views, f"{state} imports {sorted(graph[state] & views)}"
    assert "rummykit.games" not in graph[state]


def test_the_cycle_finder_finds_cycles() -> None:
    """The checker itself: a cycle is found, through a function-level import too."""
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None
    source = "import rummykit.b\nif TYPE_CHECKING:\n    import rummykit.c\ndef f():\n    from rummykit import d\n"
    known = {"rummykit", "rummykit.a", "rummykit.b", "rummykit.c", "rummykit.d"}
    assert _imports(ast.parse(source), "rummykit.a", False, known) == {"rummykit.b", "rummykit.d"}
    relative = "from . import b\nfrom .c import x\n"
    assert _imports(ast.parse(relative), "rummykit.a", False, known) == {"rummykit.b", "rummykit.c"}
