"""The examples in the README and in the core modules' docstrings run as written."""

from __future__ import annotations

import doctest
import importlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
MODULES = ["canasta", "canasta.cards", "canasta.actions", "canasta.rules", "canasta.deal",
           "canasta.engine", "canasta.game", "canasta.rl.encoding", "canasta.rl.tensor"]


def test_readme_examples() -> None:
    failed, tried = doctest.testfile(str(ROOT / "README.md"), module_relative=False)
    assert tried > 5 and failed == 0


@pytest.mark.parametrize("name", MODULES)
def test_module_examples(name: str) -> None:
    failed, tried = doctest.testmod(importlib.import_module(name))
    assert tried > 0 and failed == 0
