"""``canasta selfplay`` without Ray: shards, seeds, rows that rebuild exactly from the records,
atomic shards, resuming, a killed worker's shard played again, the command line."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

from canasta.game import GameRecord, HandRecord, replay  # noqa: E402
from canasta.interfaces.cli import main  # noqa: E402
from canasta.rl.tensor import tensor_size  # noqa: E402
from canasta.rules import get_rules  # noqa: E402
from canasta.selfplay import SelfplayConfig, SelfplayError, run_selfplay  # noqa: E402
from canasta.selfplay.store import (  # noqa: E402
    STEP_COLUMNS,
    read_records,
    rebuild_steps,
    shard_file,
)
from tests.selfplay.support import (  # noqa: E402
    config,
    kill_first_worker,
    steps,
    stop_after_one,
    worker_pid,
)


def test_shards_and_who_sits_where() -> None:
    cfg = SelfplayConfig(get_rules("classic"), ("heuristic", "greedy"), hands=250, seed=1)
    assert cfg.shards == 3 and [cfg.shard_size(k) for k in range(3)] == [100, 100, 50]
    assert cfg.seat_bots(0) == ("heuristic", "greedy", "heuristic", "greedy")
    assert cfg.seat_bots(1) == ("greedy", "heuristic", "greedy", "heuristic")
    assert SelfplayConfig.from_json(cfg.to_json()) == cfg
    with pytest.raises(SelfplayError):
        SelfplayConfig(get_rules("classic"), (), hands=1, seed=1)


def test_rows_are_decisions_and_rebuild_exactly_from_the_records(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import canasta.selfplay.store

    monkeypatch.setattr(canasta.selfplay.store, "ROW_GROUP_ROWS", 64)  # several a shard
    cfg = config()
    summary = run_selfplay(cfg, str(tmp_path))
    assert summary.dataset.shards == 2 and summary.dataset.hands == 6
    table = steps(tmp_path)
    assert table.column_names == list(STEP_COLUMNS)
    assert table.schema.field("observation").type.list_size == tensor_size(cfg.rules)
    assert table.num_rows == summary.dataset.rows == sum(r.rows for r in summary.played)
    rows = table.drop_columns(["observation"]).to_pylist()
    for row in rows:
        assert row["chosen"] in row["legal"]
    # a seat's rows spell actions: the ids of one action end where the engine moves
    per_hand: dict[tuple[int, int, int], list[dict[str, Any]]] = {}
    for row in rows:
        per_hand.setdefault((row["shard"], row["game"], row["hand"]), []).append(row)
    assert len(per_hand) == 6
    for hand_rows in per_hand.values():
        assert [r["step"] for r in hand_rows] == list(range(len(hand_rows)))
        returns = {r["seat"]: r["return"] for r in hand_rows}
        assert sum(returns.values()) == 0  # two sides: one's gain is the other's loss
    # every shard's rows come back from its records alone
    for shard in range(cfg.shards):
        path = tmp_path / "steps" / shard_file(shard)
        assert pq.read_metadata(path).num_row_groups > 1
        stored = pq.read_table(path)
        rebuilt = rebuild_steps(str(tmp_path), shard)
        assert rebuilt.equals(stored)
        assert rebuilt.schema.metadata == stored.schema.metadata


def test_records_are_games_that_replay(tmp_path: Path) -> None:
    cfg = config(hands=4, shard_hands=4, bots=("heuristic",))
    run_selfplay(cfg, str(tmp_path))
    hands = read_records(str(tmp_path), 0)
    games: dict[int, list[Any]] = {}
    for h in hands:
        games.setdefault(h.game, []).append(h)
    for played in games.values():
        record = GameRecord(cfg.rules, played[0].bots,
                            tuple(HandRecord(h.dealer, h.deck, h.actions) for h in played))
        totals = [tuple(s.total for s in r.state.result.sides) for r in replay(record)
                  if r.state.result is not None]
        assert totals == [h.totals for h in played]


def test_the_same_data_whatever_the_jobs(tmp_path: Path) -> None:
    cfg = config(hands=6, shard_hands=2)
    one = run_selfplay(cfg, str(tmp_path / "one"))
    two = run_selfplay(cfg, str(tmp_path / "two"), jobs=2)
    assert len({r.worker for r in two.played}) >= 2  # played by worker processes
    assert steps(tmp_path / "one").equals(steps(tmp_path / "two"))
    assert one.dataset.rows == two.dataset.rows
    run_selfplay(config(hands=6, shard_hands=2, seed=2), str(tmp_path / "other"))
    assert not steps(tmp_path / "other").equals(steps(tmp_path / "one"))


def test_an_interrupted_run_resumes_with_the_missing_shards(tmp_path: Path) -> None:
    cfg = config(hands=6, shard_hands=2)
    out = str(tmp_path / "run")
    with pytest.raises(KeyboardInterrupt):
        run_selfplay(cfg, out, progress=stop_after_one)
    assert sorted(p.name for p in (tmp_path / "run" / "steps").iterdir()) == [shard_file(0)]
    leftover = tmp_path / "run" / "records" / ".shard-000001.parquet.host-1.tmp"
    leftover.write_bytes(b"half a shard")  # as a killed worker leaves it
    resumed = run_selfplay(cfg, out)
    assert resumed.resumed == 1 and [r.shard for r in resumed.played] == [1, 2]
    assert not leftover.exists()
    assert resumed.dataset.hands == 6
    whole = run_selfplay(cfg, str(tmp_path / "whole"))
    assert steps(tmp_path / "run").equals(steps(tmp_path / "whole"))
    assert whole.dataset.rows == resumed.dataset.rows
    again = run_selfplay(cfg, out)  # nothing left to play
    assert again.resumed == 3 and not again.played


def test_a_folder_with_other_contents_is_refused(tmp_path: Path) -> None:
    run_selfplay(config(hands=2, shard_hands=2), str(tmp_path / "run"))
    with pytest.raises(SelfplayError, match="seed differ"):
        run_selfplay(config(hands=2, shard_hands=2, seed=9), str(tmp_path / "run"))
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "notes.txt").write_text("mine")
    with pytest.raises(SelfplayError, match="not empty"):
        run_selfplay(config(hands=2), str(tmp_path / "other"))


def test_a_killed_worker_costs_only_its_shard(tmp_path: Path) -> None:
    cfg = config(hands=6, shard_hands=2, bots=("heuristic",))
    with kill_first_worker(tmp_path / "run") as killed:
        summary = run_selfplay(cfg, str(tmp_path / "run"), jobs=2)
    assert killed, "no worker was seen at work"
    assert sorted(r.shard for r in summary.played) == [0, 1, 2]  # each shard once
    assert killed[0] not in {worker_pid(r) for r in summary.played}
    assert summary.dataset.hands == 6
    run_selfplay(cfg, str(tmp_path / "alone"))
    assert steps(tmp_path / "run").equals(steps(tmp_path / "alone"))


def test_selfplay_command(tmp_path: Path) -> None:
    out = tmp_path / "data"
    args = [sys.executable, "-m", "canasta.interfaces.cli", "selfplay", "--rules", "classic-2p",
            "--bots", "greedy,random", "--hands", "4", "--shard-hands", "2", "--out", str(out),
            "--seed", "3", "--jobs", "2"]
    proc = subprocess.run(args, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    assert "4 hands in 2 shards" in proc.stdout and "rows" in proc.stdout
    settings = json.loads((out / "selfplay.json").read_text())
    assert settings["seed"] == 3 and settings["bots"] == ["greedy", "random"]
    # the same command again: nothing left to play; the seed comes from the folder
    again = subprocess.run([a for a in args if a not in ("--seed", "3")], capture_output=True,
                           text=True, timeout=120)
    assert again.returncode == 0, again.stderr
    assert "every shard was already there" in again.stdout and "seed 3" in again.stdout


def test_a_bot_that_fails_stops_the_run(tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    from canasta.bots import bot_table

    BOTS = bot_table().bots
    from tests.arena.test_arena_run import BrokenBot

    BOTS["broken"] = BrokenBot
    try:
        code = main(["selfplay", "--bots", "broken", "--hands", "1", "--out",
                     str(tmp_path / "run"), "--seed", "1"])
    finally:
        BOTS.pop("broken")
    err = capsys.readouterr().err
    assert code == 1 and err.startswith("canasta selfplay: bot 'broken' at seat")
    assert not list((tmp_path / "run" / "steps").iterdir())  # no file left behind


@pytest.mark.parametrize(("args", "message"), [
    (["--bots", "nobody"], "unknown bot 'nobody'"),
    (["--bots", "random", "--hands", "0"], "--hands"),
    (["--bots", "random", "--rules", "bridge"], "unknown preset 'bridge'"),
    (["--bots", "random", "--shard-hands", "none"], "--shard-hands"),
    (["--bots", "random", "--backend", "spark"], "--backend"),
])
def test_selfplay_bad_arguments(args: list[str], message: str, tmp_path: Path,
                                capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["selfplay", "--hands", "2", "--out", str(tmp_path / "x"), *args])
    out = capsys.readouterr()
    assert code == 2 and out.out == ""
    lines = out.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("invalid arguments") and message in lines[0]


def test_selfplay_into_a_folder_of_something_else(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "notes.txt").write_text("mine")
    assert main(["selfplay", "--bots", "random", "--hands", "2", "--out", str(tmp_path)]) == 2
    assert "not empty" in capsys.readouterr().err
    assert [p.name for p in tmp_path.iterdir()] == ["notes.txt"]


def test_selfplay_help(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["selfplay", "--help"]) == 0
    text = capsys.readouterr().out
    for words in ("--bots", "--hands", "--out", "--shard-hands", "--backend", "--address",
                  "resumes", "pyarrow.dataset", "polars", "ray.data.read_parquet"):
        assert words in text


def test_progress_bar_on_a_terminal(tmp_path: Path) -> None:
    import os
    import pty

    primary, secondary = pty.openpty()
    proc = subprocess.Popen(
        [sys.executable, "-m", "canasta.interfaces.cli", "selfplay", "--rules", "classic-2p",
         "--bots", "greedy", "--hands", "2", "--shard-hands", "1", "--seed", "1", "--out",
         str(tmp_path / "run")], stdout=subprocess.PIPE, stderr=secondary,
        env={**os.environ, "COLUMNS": "160", "TERM": "xterm"})
    os.close(secondary)
    shown = b""
    while True:
        try:
            chunk = os.read(primary, 4096)
        except OSError:  # the terminal closed with the process
            break
        if not chunk:
            break
        shown += chunk
    assert proc.wait(timeout=60) == 0
    os.close(primary)
    text = shown.decode(errors="replace")
    assert "hands/s" in text and "rows/s" in text and "2/2" in text
