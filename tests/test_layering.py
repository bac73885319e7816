"""The import rule: the rules core uses only the standard library and never imports the layers
built on it (bots, arena, interfaces)."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import canasta

PACKAGE = Path(canasta.__file__).resolve().parent
CORE = sorted(p for p in PACKAGE.glob("*.py") if p.name != "__main__.py")
OUTER = ("canasta.bots", "canasta.arena", "canasta.selfplay", "canasta.interfaces",
         "canasta.rl")


def imported_modules(path: Path, top_level_only: bool = False) -> set[str]:
    """Modules imported by a file (with ``top_level_only``, not those imported inside functions,
    which load optional dependencies lazily)."""
    tree = ast.parse(path.read_text())
    nodes = tree.body if top_level_only else list(ast.walk(tree))
    names: set[str] = set()
    for node in nodes:
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def test_core_imports_only_the_standard_library_and_itself() -> None:
    assert len(CORE) > 10
    for path in CORE:
        for name in imported_modules(path):
            top = name.split(".")[0]
            assert top == "canasta" or top in sys.stdlib_module_names or top == "__future__", (
                f"{path.name} imports {name}")
            assert not name.startswith(OUTER), f"the core module {path.name} imports {name}"


def test_bots_arena_and_selfplay_load_no_third_party_package_at_import() -> None:
    for folder in ("bots", "arena", "selfplay"):
        for path in sorted((PACKAGE / folder).glob("*.py")):
            for name in imported_modules(path, top_level_only=True):
                top = name.split(".")[0]
                assert top == "canasta" or top in sys.stdlib_module_names or top in (
                    "__future__",), f"{folder}/{path.name} imports {name}"
                assert not name.startswith("canasta.interfaces"), f"{path.name} imports {name}"


def test_cluster_and_data_packages_load_only_when_used() -> None:
    """Ray and pyarrow (the ``ray`` extra) are imported inside the functions that use them, so
    every module loads without them."""
    for path in sorted(PACKAGE.rglob("*.py")):
        for name in imported_modules(path, top_level_only=True):
            assert name.split(".")[0] not in ("ray", "pyarrow", "polars"), (
                f"{path.relative_to(PACKAGE)} imports {name} when it loads")


def test_the_rl_contract_modules_use_only_the_standard_library_and_the_core() -> None:
    # encoding and tensor are what every adapter and data pipeline shares: no numpy, no pyspiel
    for name in ("encoding.py", "tensor.py", "research.py", "table.py"):
        for module in imported_modules(PACKAGE / "rl" / name):
            top = module.split(".")[0]
            core = top == "canasta" and not module.startswith(OUTER)
            assert top in sys.stdlib_module_names or top == "__future__" or core or (
                module in ("canasta.rl.encoding", "canasta.rl.tensor", "canasta.rl.research")), (
                f"rl/{name} imports {module}")


def test_bots_and_arena_never_import_the_research_adapters() -> None:
    # openspiel-ismcts reaches make_bot through an entry point, not an import
    for folder in ("bots", "arena"):
        for path in sorted((PACKAGE / folder).glob("*.py")):
            for name in imported_modules(path):
                assert not name.startswith(("canasta.rl", "pyspiel", "open_spiel")), (
                    f"{folder}/{path.name} imports {name}")
