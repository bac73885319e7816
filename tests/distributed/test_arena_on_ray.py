"""``canasta arena --backend ray`` on a two-node cluster: the same figures as the other
backends for every family, work on both nodes, a killed worker's game pairs played again."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from canasta.arena import ArenaConfig, run_arena
from canasta.family import get_rules
from canasta.interfaces.cli import main
from tests.arena.test_arena_run import _figures

pytestmark = pytest.mark.ray


def _config(bots: tuple[str, ...], hands: int, seed: int,
            rules: str = "classic-2p") -> ArenaConfig:
    return ArenaConfig(get_rules(rules), bots, hands=hands, seed=seed, keep_records=True,
                       bootstrap=50)


@pytest.mark.parametrize(("rules", "bots", "seed"), [
    ("classic-2p", ("random", "greedy", "random"), 11),
    ("modern-american", ("heuristic", "greedy"), 1),
])
def test_same_figures_on_ray_as_in_one_process(ray_cluster: Any, rules: str,
                                               bots: tuple[str, ...], seed: int) -> None:
    from canasta.interfaces.ray_backend import RayPool

    config = _config(bots, hands=8, seed=seed, rules=rules)
    with RayPool() as pool:
        assert pool.size == 2
        on_ray = run_arena(config, pool=pool).to_json()
        nodes = {node for node, _ in pool.workers()}
    assert len(nodes) == 2  # one worker on each node
    assert _figures(on_ray) == _figures(run_arena(config).to_json())


def test_a_killed_worker_costs_only_its_game_pairs(ray_cluster: Any) -> None:
    from canasta.interfaces.ray_backend import RayPool

    config = _config(("heuristic", "greedy"), hands=24, seed=5)
    killed: list[int] = []
    with RayPool() as pool:
        before = pool.workers()

        def kill_one(done: int, wanted: int) -> None:
            if done and not killed:  # results are coming in: the workers are busy
                pid = before[0][1]
                os.kill(pid, signal.SIGKILL)
                killed.append(pid)

        on_ray = run_arena(config, progress=kill_one, pool=pool).to_json()
        after = pool.workers()
    assert killed, "the run ended before a worker could be killed"
    assert killed[0] not in {pid for _, pid in after}  # the actor came back as a new process
    assert _figures(on_ray) == _figures(run_arena(config).to_json())


def test_arena_command_on_the_cluster(ray_cluster: Any, tmp_path: Path) -> None:
    args = ["arena", "--rules", "classic-2p", "--bots", "greedy,random", "--hands", "6",
            "--seed", "2", "--bootstrap", "20"]
    on_ray = subprocess.run(
        [sys.executable, "-m", "canasta.interfaces.cli", *args, "--backend", "ray",
         "--address", ray_cluster.address, "--json", str(tmp_path / "ray.json")],
        capture_output=True, text=True, timeout=120)
    assert on_ray.returncode == 0, on_ray.stderr
    assert "2 Ray workers on 2 nodes" in on_ray.stdout
    assert main([*args, "--jobs", "2", "--json", str(tmp_path / "mp.json")]) == 0
    figures = [_figures(json.loads((tmp_path / f"{name}.json").read_text()))
               for name in ("ray", "mp")]
    assert figures[0] == figures[1]


def test_a_second_family_on_the_cluster_with_plot_and_anchor(
        ray_cluster: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("MPLBACKEND", "Agg")
    args = ["arena", "--rules", "modern-american", "--bots", "heuristic,greedy", "--hands", "2",
            "--seed", "1", "--bootstrap", "20", "--anchor", "greedy", "--no-progress"]
    png = tmp_path / "ratings.png"
    assert main([*args, "--backend", "ray", "--address", ray_cluster.address,
                 "--json", str(tmp_path / "ray.json"), "--plot", str(png)]) == 0
    out = capsys.readouterr().out
    assert "2 Ray workers on 2 nodes" in out and f"wrote {png}" in out
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert main([*args, "--json", str(tmp_path / "here.json")]) == 0
    figures = [_figures(json.loads((tmp_path / f"{name}.json").read_text()))
               for name in ("ray", "here")]
    assert figures[0] == figures[1]
    assert {r["bot"]: r["rating"] for r in figures[0]["ratings"]}["greedy"] == 1500


def test_too_many_workers_for_the_cluster(ray_cluster: Any,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["arena", "--bots", "random,random", "--hands", "2", "--backend", "ray",
                 "--jobs", "3"])
    err = capsys.readouterr().err
    assert code == 1
    assert err.startswith("canasta arena: ") and "3 processes" in err and "2 CPUs" in err


def test_workers_get_the_runtime_environment(ray_cluster: Any) -> None:
    script = (
        "import os, ray\n"
        "from canasta.interfaces.ray_backend import connect\n"
        f"with connect({ray_cluster.address!r}, runtime_env={{'env_vars': "
        "{'CANASTA_PROBE': 'shipped'}}) as cluster:\n"
        "    probe = ray.remote(lambda: os.environ.get('CANASTA_PROBE'))\n"
        "    print(cluster.nodes, ray.get(probe.remote()))\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["2", "shipped"]

