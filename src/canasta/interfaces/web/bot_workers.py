"""Where bots think: one worker runs one decision at a time, and can be ended alone.

A :class:`ProcessWorker` is a process of its own (``spawn``), fed over a pipe: the position
travels as its NOTATION §3 JSON, the :class:`Decision` comes back with the processor time it
took. A decision that runs out of time is ended by ending its process — no other decision is
touched — and a fresh process takes the worker's place. A :class:`ThreadWorker` runs the bot in
a thread of the server (tests, and bots registered at run time): it cannot be ended, only
abandoned, its answer ignored.

The workers know nothing of tables or time limits: :class:`~.bot_runner.BotRunner` hands them
jobs and watches the clock.
"""

from __future__ import annotations

import multiprocessing
import os
import random
import threading
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any

from canasta.bots import make_bot
from canasta.family import family_of, state_from_json, state_to_json


@dataclass(frozen=True)
class Decision:
    """A bot's choice: the canonical action text, and why (when the bot can say)."""

    action: str
    explanation: str | None = None
    bot: str = ""
    """The spec of the bot that chose, or ``fallback`` for a random stand-in."""


def position_json(position: Any) -> dict[str, Any]:
    """A position as it travels to a worker process (its family's JSON)."""
    return state_to_json(position)


def decide(spec: str, position: Any, seat: int, rng_seed: str,
           explain: bool = False) -> Decision:
    """What bot ``spec`` of the position's family plays for ``seat`` (runs in a worker).

    The bot sees only the seat's observation and the legal actions; ``explain`` asks for the
    bot's ``explain`` method where it has one.
    """
    state = state_from_json(position) if isinstance(position, dict) else position
    family = family_of(state.rules)
    obs = family.observe(state, seat)
    legal = family.legal_actions(state)
    bot = make_bot(spec, family)
    rng = random.Random(rng_seed)
    explainer = getattr(bot, "explain", None) if explain else None
    if explainer is not None:
        action, why = explainer(obs, legal, rng)
        return Decision(family.format_action(state.rules, action), str(why), spec)
    return Decision(family.format_action(state.rules, bot.choose(obs, legal, rng)), None, spec)


@dataclass(frozen=True)
class Job:
    """One decision to make: :func:`decide`'s arguments."""

    spec: str
    state: Any
    seat: int
    rng_seed: str
    explain: bool = False


@dataclass(frozen=True)
class Outcome:
    """What a worker answers: a decision and the processor seconds it took, or why not."""

    decision: Decision | None
    cpu_seconds: float = 0.0
    failure: str | None = None
    """A bot's traceback, or why the worker could not answer."""
    broken: bool = False
    """The worker itself failed (its process died): it must be replaced."""


class Worker:
    """Runs one job at a time (:meth:`run` blocks, in a thread of the runner's)."""

    def start(self, on_ready: Callable[[Worker], None]) -> None:
        """Get ready; ``on_ready(self)`` is called (from any thread) once jobs can come."""
        raise NotImplementedError

    def run(self, job: Job) -> Outcome:
        """Make one decision (blocking)."""
        raise NotImplementedError

    def end(self) -> None:
        """Stop now, in the middle of a decision if need be."""
        raise NotImplementedError

    @property
    def pid(self) -> int | None:
        """The worker's process id, when it has a process of its own."""
        return None


class ThreadWorker(Worker):
    """Decides in the calling thread (see the module docstring)."""

    def start(self, on_ready: Callable[[Worker], None]) -> None:
        """Ready at once."""
        on_ready(self)

    def run(self, job: Job) -> Outcome:
        """Decide here; a bot's exception is a failure."""
        started = time.thread_time()
        try:
            decision = decide(job.spec, job.state, job.seat, job.rng_seed, job.explain)
        except Exception:
            return Outcome(None, failure=traceback.format_exc())
        return Outcome(decision, time.thread_time() - started)

    def end(self) -> None:
        """A thread cannot be stopped: it is abandoned, and its answer ignored."""


class ProcessWorker(Worker):
    """A process of its own (see the module docstring)."""

    def __init__(self) -> None:
        self._conn: Connection | None = None
        self._process: multiprocessing.process.BaseProcess | None = None

    @property
    def pid(self) -> int | None:
        """The process id."""
        return self._process.pid if self._process is not None else None

    def start(self, on_ready: Callable[[Worker], None]) -> None:
        """Start the process; ``on_ready`` once it has imported the bots."""
        context = multiprocessing.get_context("spawn")
        mine, theirs = context.Pipe()
        self._conn = mine
        self._process = context.Process(target=worker_main, args=(theirs, os.getpid()),
                                        name="canasta-bot", daemon=True)
        self._process.start()
        theirs.close()

        def wait_ready() -> None:
            try:
                if mine.recv() == "ready":
                    on_ready(self)
            except (EOFError, OSError, TypeError):
                pass  # ended before it was ready

        threading.Thread(target=wait_ready, name="canasta-bot-ready", daemon=True).start()

    def run(self, job: Job) -> Outcome:
        """Send the job, wait for the answer."""
        assert self._conn is not None
        try:
            self._conn.send((job.spec, position_json(job.state), job.seat, job.rng_seed,
                             job.explain))
            answer: Outcome = self._conn.recv()
            return answer
        except (EOFError, OSError, TypeError) as e:  # TypeError: the pipe closed under us
            return Outcome(None, failure=f"the bot's process ended ({e or 'no answer'})",
                           broken=True)

    def end(self) -> None:
        """Kill the process (its decision with it) and reap it in the background."""
        process, conn = self._process, self._conn
        if process is None or conn is None:
            return
        process.kill()  # the pipe's reader (a runner thread) gets EOF

        def reap() -> None:
            process.join()
            conn.close()

        threading.Thread(target=reap, name="canasta-bot-reap", daemon=True).start()


def worker_main(conn: Connection, server_pid: int) -> None:
    """A worker process: import the bots, say ready, then answer jobs until the pipe closes.
    Ctrl-C is left to the server (which ends its workers); the process ends itself once the
    server is gone, even in the middle of a search (a ``kill -9`` cannot stop workers)."""
    import signal

    import canasta.bots  # noqa: F401  (the imports are the slow part of starting)

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    threading.Thread(target=_end_with_server, args=(server_pid,), daemon=True,
                     name="canasta-server-watch").start()
    conn.send("ready")
    while True:
        try:
            spec, position, seat, rng_seed, explain = conn.recv()
        except (EOFError, OSError):
            return
        started = time.process_time()
        try:
            decision = decide(spec, position, seat, rng_seed, explain)
            outcome = Outcome(decision, time.process_time() - started)
        except Exception:
            outcome = Outcome(None, failure=traceback.format_exc())
        try:
            conn.send(outcome)
        except (EOFError, OSError):
            return


def _end_with_server(server_pid: int, every: float = 1.0) -> None:
    while os.getppid() == server_pid:
        time.sleep(every)
    os._exit(0)
