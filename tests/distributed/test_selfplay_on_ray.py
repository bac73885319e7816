"""``canasta selfplay --backend ray`` on a two-node cluster: the same data as without Ray, shards
on both nodes, a killed worker's shard played again, an interrupted run resumed, and the data
read by pyarrow, polars and Ray Data; and every family of rules played on both nodes and
resumed there."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from canasta.family import Family, families
from canasta.interfaces.cli import main
from canasta.rl.tensor import tensor_size
from canasta.selfplay import run_selfplay
from canasta.selfplay.store import shard_file
from tests.selfplay.support import (
    config,
    family_config,
    kill_first_worker,
    steps,
    stop_after_one,
    worker_pid,
)

pytestmark = pytest.mark.ray


@pytest.mark.filterwarnings("ignore::DeprecationWarning")  # Ray Data's own settings
def test_shards_on_both_nodes_give_the_same_data(ray_cluster: Any, tmp_path: Path) -> None:
    import polars as pl
    import pyarrow.dataset as ds
    import ray

    from canasta.interfaces.ray_backend import run_shards

    cfg = config(hands=8, shard_hands=2)
    out = tmp_path / "ray"
    summary = run_selfplay(cfg, str(out), runner=run_shards)
    assert len({r.node for r in summary.played}) == 2  # both nodes played shards
    run_selfplay(cfg, str(tmp_path / "here"))
    assert steps(out).equals(steps(tmp_path / "here"))
    # a crashed writer's hidden temporary file is no part of the data set for any reader
    (out / "steps" / ".shard-000009.parquet.host-1.tmp").write_bytes(b"half a shard")
    rows, width = summary.dataset.rows, tensor_size(cfg.rules)
    table = ds.dataset(out / "steps", format="parquet").to_table()
    assert table.num_rows == rows
    assert table.sort_by([("shard", "ascending"), ("game", "ascending"), ("hand", "ascending"),
                          ("step", "ascending")]).equals(steps(out))
    frame = pl.scan_parquet(out / "steps" / "*.parquet").collect()
    assert frame.height == rows and frame.schema["observation"] == pl.Array(pl.Float32, width)
    assert frame.select(pl.col("legal").list.contains(pl.col("chosen")).all()).item()
    data = ray.data.read_parquet(str(out / "steps"))
    assert data.count() == rows
    row = data.take(1)[0]
    assert len(row["observation"]) == width and row["chosen"] in list(row["legal"])


def test_a_killed_worker_costs_only_its_shard(ray_cluster: Any, tmp_path: Path) -> None:
    from canasta.interfaces.ray_backend import run_shards

    cfg = config(hands=6, shard_hands=2, bots=("heuristic",))
    with kill_first_worker(tmp_path / "run") as killed:
        summary = run_selfplay(cfg, str(tmp_path / "run"), runner=run_shards)
    assert killed, "no worker was seen at work"
    assert sorted(r.shard for r in summary.played) == [0, 1, 2]
    assert killed[0] not in {worker_pid(r) for r in summary.played}
    run_selfplay(cfg, str(tmp_path / "here"))
    assert steps(tmp_path / "run").equals(steps(tmp_path / "here"))


def test_a_crashed_run_resumes(ray_cluster: Any, tmp_path: Path) -> None:
    out = tmp_path / "run"
    command = [sys.executable, "-m", "canasta.interfaces.cli", "selfplay", "--rules",
               "classic-2p", "--bots", "heuristic", "--hands", "8", "--shard-hands", "2",
               "--seed", "4", "--out", str(out), "--backend", "ray", "--address",
               ray_cluster.address]
    first = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    finished = out / "steps" / shard_file(0)
    deadline = time.monotonic() + 60
    while first.poll() is None and time.monotonic() < deadline:
        if any((out / "steps").glob("shard-*.parquet")):
            break
        time.sleep(0.01)
    first.send_signal(signal.SIGKILL)  # a crash, not a clean stop
    first.communicate()
    done = sorted((out / "steps").glob("shard-*.parquet"))
    assert 1 <= len(done) < 4, "the run was not caught half way"
    again = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert again.returncode == 0, again.stderr
    assert f"resumed: {len(done)} shard" in again.stdout
    assert finished.exists()
    run_selfplay(config(hands=8, shard_hands=2, seed=4, bots=("heuristic",)),
                 str(tmp_path / "here"))
    assert steps(out).equals(steps(tmp_path / "here"))


def test_a_limit_on_shards_at_once(ray_cluster: Any, tmp_path: Path) -> None:
    from canasta.interfaces.ray_backend import run_shards

    summary = run_selfplay(config(hands=3, shard_hands=1, bots=("heuristic",)),
                           str(tmp_path / "run"),
                           runner=lambda tasks: run_shards(tasks, limit=1))
    assert [r.shard for r in summary.played] == [0, 1, 2]
    # one after the other, though the cluster could run two at once
    assert summary.seconds >= sum(r.seconds for r in summary.played)


@pytest.mark.parametrize("family", families(), ids=lambda f: f.name)
def test_every_family_plays_on_both_nodes_and_resumes_there(
        family: Family, ray_cluster: Any, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    from canasta.interfaces.ray_backend import run_shards

    cfg = family_config(family, hands=4, shard_hands=1)
    summary = run_selfplay(cfg, str(tmp_path / "ray"), runner=run_shards)
    assert len({r.node for r in summary.played}) == 2  # both nodes played shards
    table = steps(tmp_path / "ray")
    assert table.schema.field("observation").type.list_size == cfg.tensor_width
    run_selfplay(cfg, str(tmp_path / "here"))
    assert table.equals(steps(tmp_path / "here"))
    # stopped half way, the same command resumes it on Ray
    out = tmp_path / "run"
    with pytest.raises(KeyboardInterrupt):
        run_selfplay(cfg, str(out), progress=stop_after_one)
    done = sorted(p.name for p in (out / "steps").glob("shard-*.parquet"))
    assert shard_file(0) in done and len(done) < 4
    assert main(["selfplay", "--rules", next(iter(family.presets())), "--bots", *cfg.bots,
                 "--hands", "4", "--shard-hands", "1", "--out", str(out), "--backend", "ray",
                 "--address", ray_cluster.address]) == 0
    text = capsys.readouterr().out
    assert f"resumed: {len(done)} shard" in text and "seed 1" in text and "Ray" in text
    assert steps(out).equals(table)
