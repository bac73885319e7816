"""What the self-play tests share: small runs, reading a data set, killing a worker."""

from __future__ import annotations

import os
import re
import signal
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from canasta.family import Family
from canasta.rules import get_rules
from canasta.selfplay import SelfplayConfig, ShardResult

TEMPORARY = re.compile(r"\.shard-\d{6}\.parquet\..+-(\d+)\.tmp")
"""A shard being written; the name ends in the writer's process id."""


def config(hands: int = 6, seed: int = 1, shard_hands: int = 3,
           bots: tuple[str, ...] = ("greedy", "random")) -> SelfplayConfig:
    """A small two-player run."""
    return SelfplayConfig(get_rules("classic-2p"), bots, hands=hands, seed=seed,
                          shard_hands=shard_hands)


def family_config(family: Family, hands: int = 2, seed: int = 1, shard_hands: int = 1,
                  bots: tuple[str, ...] = ("easy", "random")) -> SelfplayConfig:
    """A small run of ``family``'s default preset, its bots named by level."""
    return SelfplayConfig(family.default_rules, bots, hands=hands, seed=seed,
                          shard_hands=shard_hands)


def steps(out: Path) -> Any:
    """Every row of a data set, in shard order."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    return pa.concat_tables(pq.read_table(p) for p in sorted((out / "steps").glob("*.parquet")))


def stop_after_one(result: ShardResult) -> None:
    """A progress callback that stops a run once its first shard is done (as Ctrl-C)."""
    raise KeyboardInterrupt


def worker_pid(result: ShardResult) -> int:
    """The process that played a shard."""
    return int(result.worker.rsplit(":", 1)[1])


@contextmanager
def kill_first_worker(out: Path) -> Iterator[list[int]]:
    """Kill (SIGKILL) the first worker seen writing a shard into ``out``; the list holds its
    process id once it is killed."""
    killed: list[int] = []
    stop = threading.Event()
    folder = out / "steps"

    def watch() -> None:
        while not stop.is_set() and not killed:
            for path in (folder.iterdir() if folder.is_dir() else ()):
                match = TEMPORARY.fullmatch(path.name)
                if match:
                    try:
                        os.kill(int(match.group(1)), signal.SIGKILL)
                    except ProcessLookupError:
                        continue  # finished already: wait for the next one
                    killed.append(int(match.group(1)))
                    return
            time.sleep(0.005)

    thread = threading.Thread(target=watch, daemon=True)
    thread.start()
    try:
        yield killed
    finally:
        stop.set()
        thread.join()
