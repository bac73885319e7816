"""docs/scale.md's Parquet example runs as written, with only what the ``ray`` extra installs,
on a self-play folder (``DIR`` replaced by its path)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from canasta.selfplay import run_selfplay
from tests.selfplay.support import config

pytestmark = pytest.mark.ray

DOC = Path(__file__).resolve().parents[2] / "docs" / "scale.md"
EXTRA = ("pyarrow", "pandas", "ray")
"""What ``pip install 'canasta[ray]'`` brings that the example may import."""


def _reading_example() -> str:
    text = DOC.read_text(encoding="utf-8")
    found = re.search(r"Reading it, with what `canasta\[ray\]` installs.*?```python\n(.*?)```",
                      text, re.S)
    assert found, "docs/scale.md has no Parquet reading example"
    return found.group(1)


def test_the_example_imports_only_what_the_ray_extra_installs() -> None:
    imported = re.findall(r"^(?:import|from) ([\w.]+)", _reading_example(), re.M)
    assert imported and {name.split(".")[0] for name in imported} <= set(EXTRA)
    pyproject = (DOC.parents[1] / "pyproject.toml").read_text(encoding="utf-8")
    extra = re.search(r"^ray = \[(.*)\]$", pyproject, re.M)
    assert extra and "ray[data]" in extra.group(1) and "pyarrow" in extra.group(1)


def test_the_parquet_example_runs_as_written(ray_cluster: Any, tmp_path: Path) -> None:
    out = tmp_path / "run"
    summary = run_selfplay(config(hands=2, shard_hands=1), str(out))
    code = _reading_example().replace('"DIR/', f'"{out}/')
    names: dict[str, Any] = {}
    exec(compile(code, str(DOC), "exec"), names)
    rows = summary.dataset.rows
    assert names["table"].num_rows == rows
    assert names["table"].column_names == ["observation", "chosen"]
    frame = names["frame"]
    assert 0 < len(frame) < rows and set(frame["seat"]) == {0}
    assert names["data"].count() == rows
