"""No import circle among the project's modules.

The graph is built from the source, not from what happens to be imported: every ``import``
counts, at the top of a module or inside a function (a function's import still ties the two
modules together; it only hides the circle until the function runs). Only imports under
``if TYPE_CHECKING:`` are left out, since they never run. Importing ``a.b.c`` also runs the
packages ``a`` and ``a.b``, so those count too.

A circle means two modules that cannot be understood, tested or moved apart; the layers of
``docs/ARCHITECTURE.md`` (games, core, bots, front ends) stay layers only without them.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = (ROOT / "src" / "ludoteca", ROOT / "tests" / "support" / "threerow")

KNOWN_CYCLES: frozenset[frozenset[str]] = frozenset()
"""Circles known and still to be untied, each named by its modules. Empty: a new circle
anywhere fails the test, and an entry here must name exactly one circle that exists."""


def modules(package: Path) -> dict[str, Path]:
    """Dotted module name -> file, for every module under ``package``."""
    base = package.parent
    out = {}
    for path in sorted(package.rglob("*.py")):
        parts = list(path.relative_to(base).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def _type_checking_only(tree: ast.AST) -> set[int]:
    """The ids of the nodes under ``if TYPE_CHECKING:`` (its body, not its ``else``)."""
    skipped: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If):
            test = node.test
            name = test.id if isinstance(test, ast.Name) else getattr(test, "attr", None)
            if name == "TYPE_CHECKING":
                for child in node.body:
                    skipped.update(id(n) for n in ast.walk(child))
    return skipped


def imported(name: str, path: Path, known: dict[str, Path]) -> Iterator[str]:
    """The project's modules that ``name`` (at ``path``) imports, wherever in it."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    skipped = _type_checking_only(tree)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[: len(parts) - node.level + 1])
                base = f"{base}.{node.module}" if node.module else base
            else:
                base = node.module or ""
            targets = [
                f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base
                for alias in node.names
            ]
        for target in targets:
            while target and target not in known:  # a name inside a module: the module
                target = target.rpartition(".")[0]
            while target:  # the module, and the packages run to import it
                if target in known and target != name and not name.startswith(target + "."):
                    yield target
                target = target.rpartition(".")[0]


def import_graph() -> dict[str, set[str]]:
    known: dict[str, Path] = {}
    for package in PACKAGES:
        known.update(modules(package))
    return {name: set(imported(name, path, known)) for name, path in known.items()}


def cycles(graph: dict[str, set[str]]) -> list[frozenset[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm,
    iterative), plus any module importing itself."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[frozenset[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.add(member)
                    if member == node:
                        break
                if len(component) > 1 or node in graph.get(node, ()):
                    found.append(frozenset(component))
    return found


def test_the_graph_sees_imports_inside_functions_and_skips_type_checking():
    graph = import_graph()
    # core/registry imports ludoteca.games inside a function; record at its top
    assert "ludoteca.games" in graph["ludoteca.core.registry"]
    assert "ludoteca.core.table" in graph["ludoteca.record"]
    # ...and core/ai imports the protocol only for its types
    assert "ludoteca.core.protocol" not in graph["ludoteca.core.ai"]
    assert "ludoteca.core" in graph["ludoteca.bots.mcts"]  # the package an import runs


def test_cycles_finds_a_circle_and_only_circles():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": {"e"}}
    assert sorted(map(sorted, cycles(graph))) == [["a", "b", "c"], ["e"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_no_import_circle():
    found = set(cycles(import_graph()))
    new = [sorted(c) for c in found - KNOWN_CYCLES]
    assert not new, f"import circles: {new}"
    gone = [sorted(c) for c in KNOWN_CYCLES - found]
    assert not gone, f"untied, so remove from KNOWN_CYCLES: {gone}"
