"""``canasta selfplay --rules modern-american --backend ray`` on the two-node cluster: shards on
both nodes give the rows of a run without Ray, and a run stopped half way resumes on Ray."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from canasta.interfaces.cli import main
from canasta.rl.tensor import modern_tensor_size
from canasta.selfplay import run_selfplay
from canasta.selfplay.store import shard_file
from tests.selfplay.support import modern_config, steps, stop_after_one

pytestmark = pytest.mark.ray


def test_modern_shards_on_both_nodes_give_the_same_data(ray_cluster: Any,
                                                        tmp_path: Path) -> None:
    from canasta.interfaces.ray_backend import run_shards

    cfg = modern_config(hands=4, shard_hands=1)
    summary = run_selfplay(cfg, str(tmp_path / "ray"), runner=run_shards)
    assert len({r.node for r in summary.played}) == 2  # both nodes played shards
    table = steps(tmp_path / "ray")
    assert table.schema.field("observation").type.list_size == modern_tensor_size()
    run_selfplay(cfg, str(tmp_path / "here"))
    assert table.equals(steps(tmp_path / "here"))


def test_a_modern_run_stopped_half_way_resumes_on_ray(ray_cluster: Any, tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]
                                                      ) -> None:
    cfg = modern_config(hands=3, shard_hands=1, seed=4)
    out = tmp_path / "run"
    with pytest.raises(KeyboardInterrupt):
        run_selfplay(cfg, str(out), progress=stop_after_one)
    done = sorted(p.name for p in (out / "steps").glob("shard-*.parquet"))
    assert shard_file(0) in done and len(done) < 3
    assert main(["selfplay", "--rules", "modern-american", "--bots", *cfg.bots, "--hands", "3",
                 "--shard-hands", "1", "--out", str(out), "--backend", "ray", "--address",
                 ray_cluster.address]) == 0
    text = capsys.readouterr().out
    assert f"resumed: {len(done)} shard" in text and "seed 4" in text and "Ray" in text
    run_selfplay(cfg, str(tmp_path / "here"))
    assert steps(out).equals(steps(tmp_path / "here"))
