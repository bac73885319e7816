"""docs/scale.md's "Running on a real cluster", command by command: a head node and a second
node started with ``ray start`` on a machine that has never run Ray (a fresh home, no token),
token authentication on as the docs set it, ``canasta arena`` and ``canasta selfplay`` run on
the cluster, and a driver without the token refused in one line.

The commands are the docs' (each is checked to be there, word for word); the test adds only
what one shared machine needs: ports of its own, one CPU and a small object store a node, and
``--block``, so that each node is a process of this test, ended by its id (``ray stop`` would
stop every Ray on the machine).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

pytestmark = pytest.mark.ray

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "scale.md"
HEAD_COMMANDS = ("export RAY_AUTH_MODE=token", "ray get-auth-token --generate",
                 "ray start --head --port 6379")
NODE_COMMANDS = ("export RAY_AUTH_MODE=token RAY_AUTH_TOKEN=TOKEN",
                 "ray start --address HEAD:6379")
OBJECT_STORE = str(80 * 1024 * 1024)
START_SECONDS = 120
JOIN_LINE = r"ray start --address='([^']+)'"
"""The line the head prints for the nodes to join it with; the address is its group."""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _ray() -> str:
    found = Path(sys.executable).with_name("ray")
    return str(found) if found.exists() else shutil.which("ray") or "ray"


@dataclass
class DocumentedCluster:
    """The two nodes, the address the head printed, and the environment of each machine."""

    address: str
    head_env: dict[str, str]
    """The head node's shell after the docs' commands (``RAY_AUTH_MODE=token``)."""
    fresh_env: dict[str, str]
    """A shell on a machine that has not been given the token."""
    work: Path


def _wait_started(process: subprocess.Popen[str], log: Path,
                  until: str = "Ray runtime started") -> str:
    """A node's output once it shows ``until`` (a regular expression; ``--block`` keeps the
    node running). The output comes in pieces, so a line printed after "Ray runtime started"
    is waited for by name."""
    import time

    deadline = time.monotonic() + START_SECONDS
    while time.monotonic() < deadline:
        text = log.read_text(errors="replace")
        if re.search(until, text):
            return text
        if process.poll() is not None:
            break
        time.sleep(0.5)
    raise AssertionError(f"ray start did not start:\n{log.read_text(errors='replace')[-3000:]}")


@pytest.fixture(scope="module")
def documented_cluster() -> Iterator[DocumentedCluster]:
    pytest.importorskip("ray")
    doc = DOC.read_text(encoding="utf-8")
    for command in (*HEAD_COMMANDS, *NODE_COMMANDS):
        assert command in doc, f"docs/scale.md no longer says {command!r}"
    work = Path(tempfile.mkdtemp(prefix="rdoc", dir="/tmp"))  # short: Ray's socket paths
    base = {k: v for k, v in os.environ.items()
            if not k.startswith("RAY_") or k == "RAY_USAGE_STATS_ENABLED"}
    base.update(RAY_USAGE_STATS_ENABLED="0", RAY_TMPDIR=str(work / "tmp"),
                PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), base.get("PYTHONPATH")])))
    (work / "tmp").mkdir()
    head_env = {**base, "HOME": str(work / "head"), "RAY_AUTH_MODE": "token"}
    node_home, fresh_home = work / "node", work / "fresh"
    for home in (work / "head", node_home, fresh_home):
        home.mkdir()
    ray = _ray()
    started: list[subprocess.Popen[str]] = []
    try:
        token = subprocess.run([ray, "get-auth-token", "--generate"], env=head_env,
                               capture_output=True, text=True, timeout=60, check=True)
        secret = token.stdout.strip()
        assert secret and (work / "head" / ".ray" / "auth_token").exists()
        port = _free_port()
        head_log = work / "head.log"
        with head_log.open("w") as out:
            started.append(subprocess.Popen(
                [ray, "start", "--head", "--port", str(port), "--block", "--num-cpus", "1",
                 "--object-store-memory", OBJECT_STORE, "--include-dashboard", "false",
                 "--dashboard-agent-listen-port", str(_free_port())],
                env=head_env, stdout=out, stderr=subprocess.STDOUT, text=True))
        text = _wait_started(started[0], head_log, JOIN_LINE)
        printed = re.search(JOIN_LINE, text)
        assert printed, text[-2000:]
        address = printed.group(1)
        assert address.endswith(f":{port}")
        node_env = {**base, "HOME": str(node_home), "RAY_AUTH_MODE": "token",
                    "RAY_AUTH_TOKEN": secret}
        node_log = work / "node.log"
        with node_log.open("w") as out:
            started.append(subprocess.Popen(
                [ray, "start", "--address", address, "--block", "--num-cpus", "1",
                 "--object-store-memory", OBJECT_STORE,
                 "--dashboard-agent-listen-port", str(_free_port())],
                env=node_env, stdout=out, stderr=subprocess.STDOUT, text=True))
        _wait_started(started[1], node_log)
        yield DocumentedCluster(address, head_env, {**base, "HOME": str(fresh_home)}, work)
    finally:
        for process in reversed(started):  # the joined node first, then the head
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
                try:
                    process.wait(timeout=60)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait()
        shutil.rmtree(work, ignore_errors=True)


def _canasta(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "canasta.interfaces.cli", *args], env=env,
                          capture_output=True, text=True, timeout=300, check=False)


def test_the_arena_runs_on_the_documented_cluster(documented_cluster: DocumentedCluster) -> None:
    cluster = documented_cluster
    out = cluster.work / "arena.json"
    done = _canasta(["arena", "--rules", "classic-2p", "--bots", "greedy,random", "--hands", "4",
                     "--seed", "3", "--bootstrap", "20", "--backend", "ray", "--address",
                     cluster.address, "--json", str(out)], cluster.head_env)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "2 Ray workers on 2 nodes" in done.stdout
    assert json.loads(out.read_text())["pairings"]


def test_selfplay_runs_on_the_documented_cluster_with_address_auto(
        documented_cluster: DocumentedCluster) -> None:
    cluster = documented_cluster
    out = cluster.work / "selfplay"
    done = _canasta(["selfplay", "--rules", "classic-2p", "--bots", "greedy", "--hands", "4",
                     "--shard-hands", "1", "--seed", "2", "--out", str(out), "--backend", "ray",
                     "--address", "auto"], cluster.head_env)
    assert done.returncode == 0, done.stderr[-3000:]
    assert len(list((out / "steps").glob("shard-*.parquet"))) == 4
    assert "2 nodes" in done.stdout


def test_a_driver_without_the_token_is_told_so_in_one_line(
        documented_cluster: DocumentedCluster) -> None:
    cluster = documented_cluster
    for env in (cluster.fresh_env, {**cluster.fresh_env, "RAY_AUTH_MODE": "token"}):
        done = _canasta(["arena", "--bots", "random,random", "--hands", "2", "--backend", "ray",
                         "--address", cluster.address], env)
        assert done.returncode == 1
        lines = done.stderr.strip().splitlines()
        assert len(lines) == 1, done.stderr[-3000:]
        assert lines[0].startswith("canasta arena: the Ray cluster at ")
        assert "refused this process's authentication" in lines[0]
        assert "RAY_AUTH_TOKEN" in lines[0]
