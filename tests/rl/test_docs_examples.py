"""The paths docs/rl.md shows a researcher, run as written: every Python block marked
``<!-- example: NAME -->`` (``(slow)`` after the name: a slow test), each in a fresh
interpreter, and the training command's options exist in the example script."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "rl.md"
MARKED = re.compile(r"<!-- example: ([\w-]+)( \(slow\))? -->\n```python\n(.*?)```", re.S)
EXPECTED = {"openspiel-search", "pettingzoo-parallel-supersuit", "gymnasium-make",
            "modern-american"}


def _examples() -> list[tuple[str, bool, str]]:
    return [(m.group(1), bool(m.group(2)), m.group(3))
            for m in MARKED.finditer(DOC.read_text(encoding="utf-8"))]


def test_the_marked_examples_are_there() -> None:
    assert {name for name, _, _ in _examples()} == EXPECTED


@pytest.mark.parametrize("name", sorted(EXPECTED - {"openspiel-search"}))
def test_example_runs_as_written(name: str) -> None:
    _run(name)


@pytest.mark.slow
def test_the_openspiel_search_example_runs_as_written() -> None:
    _run("openspiel-search")


def _run(name: str) -> None:
    pytest.importorskip("pyspiel")
    pytest.importorskip("supersuit")
    (code,) = [code for found, _, code in _examples() if found == name]
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=900, check=False, cwd=ROOT)
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.strip(), "the example prints its result"


def test_the_training_command_names_the_scripts_options() -> None:
    text = DOC.read_text(encoding="utf-8")
    (command,) = re.findall(r"^python (examples/train_maskable_ppo\.py .*)$", text, re.M)
    script, *args = shlex.split(command)
    source = (ROOT / script).read_text(encoding="utf-8")
    for option in (a for a in args if a.startswith("--")):
        assert f'"{option}"' in source, option
