"""A whole self-play run: the missing shards played over workers, then the figures.

:func:`run_selfplay` prepares the output folder (resuming a run there), hands the missing shards
to a *runner* and reports each finished shard to a progress callback. The default runner plays
them in this process (``jobs`` = 1) or in ``jobs`` worker processes, one process per shard: a
worker that dies (killed, out of memory) has its shard played again, up to :data:`RETRIES`
times. The ``ray`` backend of ``canasta selfplay`` passes a runner of Ray tasks
(:mod:`canasta.interfaces.ray_backend`).

The figures at the end are read from the finished files, so each hand counts once however
often its shard was started.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from multiprocessing.connection import Connection

from canasta.selfplay.plan import SelfplayConfig, SelfplayError
from canasta.selfplay.shards import ShardResult, ShardTask, play_shard
from canasta.selfplay.store import DatasetSize, dataset_size, prepare

RETRIES = 3
"""How often a shard whose worker died is started again before the run fails."""

Runner = Callable[[Sequence[ShardTask]], Iterator[ShardResult]]
"""Plays shards somewhere and yields their results as they finish."""

ProgressCallback = Callable[[ShardResult], None]


@dataclass(frozen=True)
class SelfplaySummary:
    """What a run did, and what its folder holds at the end."""

    config: SelfplayConfig
    out: str
    resumed: int
    """Shards that were already done when the run started."""
    played: tuple[ShardResult, ...]
    """The shards played by this run, in the order they finished."""
    seconds: float
    dataset: DatasetSize

    def workers(self) -> dict[str, tuple[int, int, float]]:
        """Per worker (``host:pid``, after the Ray node's id on Ray): the shards and hands it
        played and the seconds it took."""
        out: dict[str, tuple[int, int, float]] = {}
        for r in self.played:
            key = f"{r.node[:8]} {r.worker}".strip()
            shards, hands, seconds = out.get(key, (0, 0, 0.0))
            out[key] = (shards + 1, hands + r.hands, seconds + r.seconds)
        return out


def run_selfplay(config: SelfplayConfig, out: str, jobs: int = 1, runner: Runner | None = None,
                 progress: ProgressCallback | None = None) -> SelfplaySummary:
    """Play the shards of ``config`` missing from ``out`` and return the summary.

    Raises :class:`SelfplayError` for an output folder that holds something else, a bot that
    fails, or a shard whose workers kept dying.
    """
    done = prepare(out, config)
    tasks = [ShardTask(config, k, out) for k in range(config.shards) if k not in done]
    started = time.perf_counter()
    played = []
    for result in (runner or (lambda t: run_in_processes(t, jobs)))(tasks):
        played.append(result)
        if progress is not None:
            progress(result)
    return SelfplaySummary(config, out, len(done), tuple(played),
                           time.perf_counter() - started, dataset_size(out))


def run_in_processes(tasks: Sequence[ShardTask], jobs: int) -> Iterator[ShardResult]:
    """Play ``tasks`` here (``jobs`` = 1) or one process per shard, ``jobs`` at a time; a
    shard whose process dies is started again."""
    if jobs <= 1:
        for task in tasks:
            yield play_shard(task)
        return
    import multiprocessing
    from multiprocessing.connection import wait
    from multiprocessing.process import BaseProcess

    # forkserver: the workers do not inherit the threads of the caller (a progress display)
    context = multiprocessing.get_context("forkserver")
    waiting = list(reversed(tasks))
    tries = dict.fromkeys((t.shard for t in tasks), 0)
    running: dict[int, tuple[ShardTask, BaseProcess, Connection]] = {}
    try:
        while waiting or running:
            while waiting and len(running) < jobs:
                task = waiting.pop()
                receive, send = context.Pipe(duplex=False)
                process: BaseProcess = context.Process(target=_worker, args=(task, send),
                                                       daemon=True)
                process.start()
                send.close()
                running[process.sentinel] = (task, process, receive)
            for sentinel in wait(list(running)):
                assert isinstance(sentinel, int)
                task, process, receive = running.pop(sentinel)
                process.join()
                try:
                    message = receive.recv() if receive.poll() else None
                except EOFError:  # the pipe closed with nothing in it
                    message = None
                receive.close()
                if isinstance(message, ShardResult):
                    yield message
                elif isinstance(message, str):
                    raise SelfplayError(message)
                else:  # died without a word: killed
                    tries[task.shard] += 1
                    if tries[task.shard] > RETRIES:
                        raise SelfplayError(
                            f"shard {task.shard}: its worker died {tries[task.shard]} times "
                            f"(exit code {process.exitcode})")
                    waiting.append(task)
    finally:
        for _, process, _ in running.values():
            process.kill()
            process.join()


def _worker(task: ShardTask, send: Connection) -> None:
    """A worker process: play one shard and send back its result, or the error's message."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    try:
        message: object = play_shard(task)
    except SelfplayError as e:
        message = str(e)
    except Exception as e:
        message = f"shard {task.shard}: {type(e).__name__}: {e}"
    send.send(message)
