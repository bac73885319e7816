"""The examples in the README and in every module's docstrings run as written."""

from __future__ import annotations

import ast
import doctest
import importlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SOURCE = ROOT / "src"
MODULES = sorted(
    ".".join(path.relative_to(SOURCE).with_suffix("").parts).removesuffix(".__init__")
    for path in (SOURCE / "canasta").rglob("*.py") if ">>>" in path.read_text(encoding="utf-8"))
"""Every module whose docstrings hold an example: a stale example fails here, not in a reader."""


def test_readme_examples() -> None:
    failed, tried = doctest.testfile(str(ROOT / "README.md"), module_relative=False)
    assert tried > 5 and failed == 0


def _compiled_examples(module: object, name: str) -> tuple[int, int]:
    """Run the examples of a compiled module's docstrings, read from its ``.py`` source (which
    rides along in the wheel): doctest cannot find them on compiled functions."""
    path = Path(str(getattr(module, "__file__", ""))).parent / f"{name.rpartition('.')[2]}.py"
    tree = ast.parse(path.read_text(encoding="utf-8"))
    runner = doctest.DocTestRunner()
    parser = doctest.DocTestParser()
    nodes = (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)
    for node in ast.walk(tree):
        text = ast.get_docstring(node, clean=False) if isinstance(node, nodes) else None
        if text:
            where = f"{name}.{getattr(node, 'name', '')}".rstrip(".")
            globs = dict(vars(module))  # a fresh namespace per docstring, as testmod gives
            line = getattr(node, "lineno", 0)
            runner.run(parser.get_doctest(text, globs, where, str(path), line))
    return runner.failures, runner.tries


@pytest.mark.parametrize("name", MODULES)
def test_module_examples(name: str) -> None:
    try:
        module = importlib.import_module(name)
    except ModuleNotFoundError as missing:  # an adapter whose optional extra is not installed
        if (missing.name or "").startswith("canasta"):
            raise
        pytest.skip(f"{name} needs {missing.name}")
    if str(getattr(module, "__file__", "")).endswith(".py"):
        failed, tried = doctest.testmod(module)
    else:
        failed, tried = _compiled_examples(module, name)
    assert tried > 0 and failed == 0
