"""The training examples run end to end (the research modules' docstring examples run in
tests/test_docs.py, with every module's)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def test_the_training_example_trains_and_evaluates() -> None:
    pytest.importorskip("gymnasium")
    done = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "train_masked_pg.py"), "--minutes", "0.02",
         "--batch", "2", "--eval-hands", "3", "--preset", "classic-2p", "--seed", "4"],
        capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    assert "untrained, greedy:" in done.stdout and "trained " in done.stdout


def test_the_maskable_ppo_example_trains_evaluates_and_saves(tmp_path: Path) -> None:
    pytest.importorskip("sb3_contrib")
    model = tmp_path / "ppo.zip"
    done = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "train_maskable_ppo.py"), "--timesteps", "256",
         "--n-steps", "128", "--eval-hands", "3", "--seed", "2", "--save", str(model)],
        capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "trained 256 steps" in done.stdout
    for bot in ("random", "greedy"):
        line = next(x for x in done.stdout.splitlines() if x.startswith(f"against {bot}:"))
        assert re.search(r"points per hand \[[-+]\d+, [-+]\d+\], won \d/3", line), line
    from sb3_contrib import MaskablePPO

    assert MaskablePPO.load(str(model)).num_timesteps == 256
