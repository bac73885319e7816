"""``canasta arena --rules modern-american --backend ray`` on the two-node cluster: the deals
played by actors on both nodes give the figures of one process, through the API and the
command line."""

from __future__ import annotations

from dataclasses import astuple
from typing import Any

import pytest

from canasta.arena.modern import run_pairings
from canasta.interfaces.cli import main

pytestmark = pytest.mark.ray

FIRST, OTHERS = "modern-heuristic", ["modern-greedy", "modern-random"]


def test_same_figures_on_ray_as_in_one_process(ray_cluster: Any) -> None:
    from canasta.interfaces.ray_backend import RayPool

    with RayPool() as pool:
        assert pool.size == 2
        on_ray = run_pairings(FIRST, OTHERS, 4, seed=6, pool=pool)
        nodes = {node for node, _ in pool.workers()}
    assert len(nodes) == 2  # one worker on each node
    assert [astuple(p) for p in on_ray] == [astuple(p) for p in run_pairings(FIRST, OTHERS, 4,
                                                                              seed=6)]


def test_the_command_line_on_ray_prints_the_local_figures(
        ray_cluster: Any, capsys: pytest.CaptureFixture[str]) -> None:
    args = ["arena", "--rules", "modern-american", "--bots", FIRST, *OTHERS, "--hands", "6",
            "--seed", "8", "--no-progress"]
    assert main([*args, "--backend", "ray", "--address", ray_cluster.address]) == 0
    on_ray = capsys.readouterr().out
    assert main(args) == 0
    here = capsys.readouterr().out
    rows = [line for line in on_ray.splitlines() if " vs " in line]
    assert len(rows) == 2 and "2 Ray workers on 2 nodes" in on_ray
    assert rows == [line for line in here.splitlines() if " vs " in line]
