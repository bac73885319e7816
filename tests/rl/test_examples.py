"""The examples in the research modules' docstrings run as written, and the training example
runs end to end."""

from __future__ import annotations

import doctest
import importlib
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("name", ["canasta.rl.table", "canasta.rl.openspiel",
                                  "canasta.rl.pettingzoo", "canasta.rl.gym"])
def test_module_examples(name: str) -> None:
    pytest.importorskip("pyspiel")
    pytest.importorskip("pettingzoo")
    failed, tried = doctest.testmod(importlib.import_module(name))
    assert tried > 0 and failed == 0


def test_the_training_example_trains_and_evaluates() -> None:
    pytest.importorskip("gymnasium")
    done = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "train_masked_pg.py"), "--minutes", "0.02",
         "--batch", "2", "--eval-hands", "3", "--preset", "classic-2p", "--seed", "4"],
        capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    assert "untrained, greedy:" in done.stdout and "trained " in done.stdout
