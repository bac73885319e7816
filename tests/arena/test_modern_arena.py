"""``canasta arena --rules modern-american``: the duplicate deals played in worker processes or
any pool give the figures of one process; what it does not play is refused in one line."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import astuple
from typing import Any, TypeVar

import pytest

from canasta.arena import modern
from canasta.arena.modern import DealTask, deal_tasks, play_deal, run_pairings
from canasta.interfaces.cli import main

T = TypeVar("T")
R = TypeVar("R")


class Backwards:
    """A pool that plays in this process and hands the results back last first, noting the
    chunk size it was asked for."""

    size = 3

    def __init__(self) -> None:
        self.chunks: list[int] = []

    def imap(self, func: Callable[[T], R], tasks: Sequence[T], chunksize: int) -> Iterator[R]:
        self.chunks.append(chunksize)
        return iter([func(t) for t in tasks][::-1])


def test_any_pool_gives_the_figures_of_one_process() -> None:
    pool = Backwards()
    here = run_pairings("modern-heuristic", ["modern-random", "modern-greedy"], 3, seed=4)
    there = run_pairings("modern-heuristic", ["modern-random", "modern-greedy"], 3, seed=4,
                         pool=pool)
    assert [astuple(p) for p in there] == [astuple(p) for p in here]
    assert pool.chunks == [1]  # six deals over three workers, four chunks a worker
    assert [p.second for p in here] == ["modern-random", "modern-greedy"]
    assert modern.pairing("modern-heuristic", "modern-greedy", 3, seed=4) == here[1]


def test_a_deal_depends_on_its_task_alone() -> None:
    tasks = deal_tasks("modern-greedy", "modern-random", 3, seed=9)
    assert [t.deal for t in tasks] == [0, 1, 2] and len({t.deck_seed for t in tasks}) == 3
    assert play_deal(tasks[2]) == play_deal(tasks[2])
    swapped = play_deal(DealTask("modern-random", "modern-greedy", 2, tasks[2].deck_seed))
    assert swapped.diff == -play_deal(tasks[2]).diff  # the same two plays, seen from B


def _rows(text: str) -> list[str]:
    return [line for line in text.splitlines() if " vs " in line]


def test_jobs_2_gives_the_figures_of_one_process(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["arena", "--rules", "modern-american", "--bots", "modern-heuristic,modern-random",
            "modern-greedy", "--hands", "6", "--seed", "5", "--no-progress"]
    assert main(args) == 0
    one = capsys.readouterr().out
    assert main([*args, "--jobs", "2"]) == 0
    two = capsys.readouterr().out
    assert "on 1 process" in one and "on 2 processes" in two
    assert len(_rows(one)) == 2 and all("hands won" in row for row in _rows(one))
    assert _rows(two) == _rows(one)


def test_json_keeps_every_deal_and_records_that_replay_to_its_figures(
        tmp_path: Any, capsys: pytest.CaptureFixture[str]) -> None:
    import json

    from canasta.modern_american.game import replay

    runs = []
    for jobs in ("1", "2"):
        path = tmp_path / f"run{jobs}.json"
        assert main(["arena", "--rules", "modern-american", "--bots", "modern-heuristic",
                     "modern-greedy", "--hands", "6", "--seed", "5", "--no-progress",
                     "--jobs", jobs, "--json", str(path)]) == 0
        assert f"wrote {path}" in capsys.readouterr().out
        runs.append(json.loads(path.read_text()))
    assert runs[0] == runs[1]  # the same file wherever the deals were played
    run = runs[0]
    assert run["rules"] == "modern-american" and run["seed"] == 5
    (pairing,) = run["pairings"]
    assert (pairing["first"], pairing["deals"], pairing["hands"]) == ("modern-heuristic", 3, 6)
    assert len(run["deals"]) == 3
    diffs = []
    for deal in run["deals"]:
        first, second = deal["records"]
        assert first["players"] == ["modern-heuristic", "modern-greedy"] * 2
        assert second["players"] == ["modern-greedy", "modern-heuristic"] * 2
        assert first["hands"][0]["deck"] == second["hands"][0]["deck"]  # one deal, twice
        for record, totals in ((first, deal["first_at_0"]), (second, deal["second_at_0"])):
            (played,) = replay(record)
            assert list(played.scores) == totals
        diffs.append(deal["diff"])
    assert pairing["points_per_hand"] == pytest.approx(sum(diffs) / len(diffs))


@pytest.mark.parametrize("extra, message", [
    (["--json", "/nowhere/run.json"], "--json: cannot write '/nowhere/run.json'"),
    (["--plot", "r.png"], "--plot is not played with modern-american"),
    (["--anchor", "modern-random"], "--anchor is not played with modern-american"),
    (["--bots", "modern-random"], "name at least two bots"),
])
def test_what_modern_american_does_not_play_is_one_line(
        extra: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    args = ["arena", "--rules", "modern-american", "--bots", "modern-random,modern-greedy",
            "--hands", "2", *extra]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("invalid arguments:") and message in err


def test_ray_backend_without_ray(monkeypatch: pytest.MonkeyPatch,
                                 capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray fails as if not installed
    assert main(["arena", "--rules", "modern-american", "--bots", "modern-random",
                 "modern-greedy", "--hands", "2", "--backend", "ray"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "pip install 'canasta[ray]'" in err


class Broken:
    def choose(self, h: Any) -> Any:
        raise RuntimeError("out of ideas")


def test_a_failing_bot_is_reported_in_one_line(monkeypatch: pytest.MonkeyPatch,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    real = modern.make_modern_bot

    def make(spec: str, seed: int | None = None) -> Any:
        return Broken() if spec == "modern-greedy" else real(spec, seed)

    monkeypatch.setattr(modern, "make_modern_bot", make)
    assert main(["arena", "--rules", "modern-american", "--bots", "modern-random",
                 "modern-greedy", "--hands", "2", "--seed", "1"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "bot 'modern-greedy' at seat" in err and "RuntimeError: out of ideas" in err
