"""No import cycles inside the package, so that no module of ``src/canasta`` works only when
some other module happens to be imported first, and the layers stay layers.

Imports inside functions count too (a lazy import that closes a cycle only hides it until the
function runs); imports under ``if TYPE_CHECKING:`` do not (they never run).
"""

from __future__ import annotations

import ast
from collections import deque
from collections.abc import Iterable, Iterator
from pathlib import Path

import canasta

PACKAGE = Path(canasta.__file__).resolve().parent


def module_name(path: Path, root: Path) -> str:
    """The dotted name of the module in ``path``, ``root`` being the folder of the top package."""
    parts = list(path.relative_to(root.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _import_nodes(nodes: Iterable[ast.AST]) -> Iterator[ast.Import | ast.ImportFrom]:
    """Every import statement in ``nodes``, at any depth, except under ``if TYPE_CHECKING:``."""
    for node in nodes:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node
        elif isinstance(node, ast.If) and _is_type_checking(node.test):
            yield from _import_nodes(node.orelse)  # the else branch does run
        else:
            yield from _import_nodes(ast.iter_child_nodes(node))


def _is_type_checking(test: ast.expr) -> bool:
    """``TYPE_CHECKING`` or ``typing.TYPE_CHECKING``."""
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _imported(node: ast.Import | ast.ImportFrom, module: str, is_package: bool,
              modules: set[str]) -> set[str]:
    """The modules of ``modules`` that ``node``, in ``module``, imports.

    The packages above a named module (``canasta`` for ``canasta.cards``) are not counted: they
    are always initialised first, so counting them would make every module look cyclic.
    """
    if isinstance(node, ast.Import):
        return {alias.name for alias in node.names} & modules
    base = node.module or ""
    if node.level:
        # a relative import counts from the module's package (itself, for an __init__)
        package = module.split(".")
        if not is_package:
            package.pop()
        package = package[:len(package) - node.level + 1]
        base = ".".join(package + ([base] if base else []))
    found = set()
    for alias in node.names:
        submodule = f"{base}.{alias.name}"
        found.add(submodule if submodule in modules else base)
    return found & modules


def import_graph(root: Path) -> dict[str, set[str]]:
    """For each module of the package in folder ``root``, the modules of it that it imports."""
    paths = {module_name(p, root): p for p in sorted(root.rglob("*.py"))}
    modules = set(paths)
    graph: dict[str, set[str]] = {}
    for name, path in paths.items():
        tree = ast.parse(path.read_text(), filename=str(path))
        is_package = path.name == "__init__.py"
        graph[name] = set()
        for node in _import_nodes(tree.body):
            graph[name] |= _imported(node, name, is_package, modules)
    return graph


def _components(graph: dict[str, set[str]]) -> list[set[str]]:
    """The strongly connected components of ``graph`` (Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[set[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is None:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = set()
                    while True:
                        top = stack.pop()
                        on_stack.discard(top)
                        component.add(top)
                        if top == node:
                            break
                    out.append(component)
            elif child not in index:
                index[child] = low[child] = len(index)
                stack.append(child)
                on_stack.add(child)
                work.append((child, iter(sorted(graph[child]))))
            elif child in on_stack:
                low[node] = min(low[node], index[child])
    return out


def _shortest_cycle(graph: dict[str, set[str]], start: str, within: set[str]) -> list[str]:
    """The shortest cycle from ``start`` back to it through ``within`` (breadth first)."""
    came_from: dict[str, str] = {}
    queue = deque([start])
    while queue:
        node = queue.popleft()
        for child in sorted(graph[node] & within):
            if child == start:
                path = [node]
                while path[-1] != start:
                    path.append(came_from[path[-1]])
                return path[::-1]
            if child not in came_from:
                came_from[child] = node
                queue.append(child)
    raise AssertionError(f"{start} is on no cycle")  # a component always has one


def find_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Import cycles of ``graph``, each as the modules in import order, starting from its
    smallest name: for every module on a cycle, the shortest cycle through it (so each
    module on a cycle appears in at least one), without repeats."""
    cycles: set[tuple[str, ...]] = set()
    for component in _components(graph):
        if len(component) == 1 and not graph[next(iter(component))] & component:
            continue
        for module in component:
            cycle = _shortest_cycle(graph, module, component)
            first = cycle.index(min(cycle))
            cycles.add(tuple(cycle[first:] + cycle[:first]))
    return [list(c) for c in sorted(cycles)]


def import_cycles(root: Path) -> list[list[str]]:
    """The import cycles of the package in folder ``root``."""
    return find_cycles(import_graph(root))


# -- the finder itself, on a package written for the test -----------------------------------------
def _write(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root / "pkg"


def test_the_finder_sees_cycles_through_function_imports_and_submodules(tmp_path: Path) -> None:
    pkg = _write(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/a.py": "from pkg import b\n",  # b is a module: this imports pkg.b
        "pkg/b.py": "def f():\n    from pkg.c import x\n    return x\n",
        "pkg/c.py": "import pkg.a\nx = 1\n",
        "pkg/sub/__init__.py": "from .leaf import y\n",
        "pkg/sub/leaf.py": "from pkg.sub import z\ny = 1\n",  # z is a name of pkg.sub
    })
    assert import_cycles(pkg) == [["pkg.a", "pkg.b", "pkg.c"], ["pkg.sub", "pkg.sub.leaf"]]


def test_the_finder_skips_type_checking_imports_and_parent_packages(tmp_path: Path) -> None:
    pkg = _write(tmp_path, {
        "pkg/__init__.py": "from pkg.a import A\n",
        "pkg/a.py": (
            "from typing import TYPE_CHECKING\n"
            "import typing\n"
            "if TYPE_CHECKING:\n    from pkg.b import B\n"
            "if typing.TYPE_CHECKING:\n    import pkg.b\n"
            "else:\n    import json\n"
            "class A: ...\n"),
        "pkg/b.py": "from pkg.a import A\nimport pkg.sub.leaf\nclass B(A): ...\n",
        "pkg/sub/__init__.py": "",
        "pkg/sub/leaf.py": "from ..a import A\n",
    })
    graph = import_graph(pkg)
    assert graph["pkg.a"] == set() and graph["pkg.b"] == {"pkg.a", "pkg.sub.leaf"}
    assert graph["pkg.sub.leaf"] == {"pkg.a"}
    assert import_cycles(pkg) == []


def test_the_finder_reports_a_two_module_cycle_once_and_a_self_import(tmp_path: Path) -> None:
    graph = {"x": {"y"}, "y": {"x", "z"}, "z": {"z"}, "w": {"x"}}
    assert find_cycles(graph) == [["x", "y"], ["z"]]


# -- the package ----------------------------------------------------------------------------------
def test_the_package_has_no_import_cycles() -> None:
    cycles = import_cycles(PACKAGE)
    assert not cycles, "import cycles: " + "; ".join(" -> ".join(c + c[:1]) for c in cycles)
