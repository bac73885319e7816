"""``canasta arena`` end to end: tables, --json, --plot, and one-line errors."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from canasta.interfaces.cli import main


def test_arena_end_to_end(tmp_path: Path) -> None:
    out_json, out_png = tmp_path / "run.json", tmp_path / "ratings.png"
    proc = subprocess.run(
        [sys.executable, "-m", "canasta.interfaces.cli", "arena", "--rules", "classic",
         "--bots", "random,random", "--hands", "4", "--jobs", "2", "--seed", "3",
         "--json", str(out_json), "--plot", str(out_png)],
        capture_output=True, text=True, timeout=120,
        env={**os.environ, "MPLBACKEND": "Agg"})
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    assert "random#1" in proc.stdout and "pts/hand" in proc.stdout and "seed 3" in proc.stdout
    assert out_png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    data = json.loads(out_json.read_text())
    (p,) = data["pairings"]
    assert {"a", "b", "hands", "points_per_hand", "ci95", "games", "win_rate",
            "win_rate_ci95"} <= set(p)
    assert p["hands"] >= 4 and len(data["ratings"]) == 2
    # a game of the run replays with `canasta replay`
    record = tmp_path / "game.json"
    record.write_text(json.dumps(data["games"][0]["record"]))
    replayed = subprocess.run([sys.executable, "-m", "canasta.interfaces.cli", "replay",
                               str(record)], capture_output=True, text=True, timeout=60)
    assert replayed.returncode == 0, replayed.stderr
    assert json.loads(replayed.stdout)["scores"] == data["games"][0]["scores"]


def test_arena_round_robin_prints_ratings(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["arena", "--rules", "classic-2p", "--bots", "random", "random", "random",
                 "--hands", "2", "--seed", "1", "--bootstrap", "20", "--anchor", "random#1"])
    out = capsys.readouterr()
    assert code == 0, out.err
    assert "ratings" in out.out and "random#3" in out.out


def test_arena_help(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "--help"]) == 0
    text = capsys.readouterr().out
    for words in ("--bots", "--hands", "--jobs", "--seed", "--json", "--plot", "duplicate",
                  "Wilson", "Bradley-Terry"):
        assert words in text


@pytest.mark.parametrize(("args", "message"), [
    (["--bots", "random,nobody"], "unknown bot 'nobody'"),
    (["--bots", "random"], "at least two bots"),
    (["--bots", "random,random", "--hands", "0"], "--hands"),
    (["--bots", "random,random", "--hands", "many"], "--hands"),
    (["--bots", "random,random", "--jobs", "-1"], "--jobs"),
    (["--bots", "random,random", "--rules", "bridge"], "unknown preset 'bridge'"),
    (["--bots", "random,random", "--json", "/no/such/dir/run.json"], "no such directory"),
    (["--bots", "random,random", "--json", "."], "is a directory"),
    (["--bots", "random,random", "--plot", "ratings.txt"], "should end in .png"),
    (["--bots", "random,random", "--anchor", "greedy"], "--anchor"),
    (["--bots", "random,random", "--backend", "nowhere"], "--backend"),
    (["--bots", "random,random", "--runtime-env", "[1]"], "--runtime-env: must be a JSON"),
    (["--bots", "random,random", "--runtime-env", "{pip"], "--runtime-env: not JSON"),
])
def test_arena_bad_arguments(args: list[str], message: str,
                             capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", *args]) == 2
    out = capsys.readouterr()
    assert out.out == ""
    lines = out.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("invalid arguments")
    assert message in lines[0]


def test_ray_backend_without_ray(monkeypatch: pytest.MonkeyPatch,
                                 capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray fails as if not installed
    assert main(["arena", "--bots", "random,random", "--backend", "ray"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("invalid arguments: --backend") and "pip install 'canasta[ray]'" in err
