"""Bots' time at the server, shared fairly: no table's bots can starve another's.

Decisions run off the event loop in a few workers (:mod:`.bot_workers`: processes, or threads
for tests), each one decision at a time. Three rules keep the sharing fair:

- **Tables take turns.** Each table (its bots and its hints) has a queue; a free worker takes
  the next decision from the next table in turn (round robin), however many decisions another
  table has waiting.
- **Searches leave a worker free.** A *search* — a bot that thinks for a budget
  (``ismcts:seconds=10``, ``ismcts:iterations=500``), or one seen to take over a second of
  processor time — may hold all the workers but one; a quick decision (``heuristic``, a
  hint) always finds that one within a quick decision's time, whatever the searches.
- **A decision's time counts from when it starts** in a worker, not from when it was asked
  for; one that runs past ``timeout`` is ended alone (its process killed and replaced) and a
  random legal action stands in for it. No other decision is touched.

A bot that raises or answers with something illegal is likewise stood in for: a table never
stalls.
"""

from __future__ import annotations

import asyncio
import logging
import random
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from canasta.bots import make_bot
from canasta.family import family_of
from canasta.interfaces.web.bot_workers import (
    Decision,
    Job,
    Outcome,
    ProcessWorker,
    ThreadWorker,
    Worker,
)

log = logging.getLogger(__name__)

QUICK_CPU_SECONDS = 1.0
"""A bot whose decisions take more processor time than this (on average) is a search."""

THREAD_WORKERS = 4
"""Workers when bots run in threads (``workers=0``)."""


def random_decision(state: Any, rng_seed: str, why: str) -> Decision:
    """A uniformly random legal action (of the position's family): the stand-in for a bot
    that failed."""
    rng = random.Random(rng_seed)
    family = family_of(state.rules)
    legal = family.legal_actions(state)
    action = legal[rng.randrange(len(legal))]
    return Decision(family.format_action(state.rules, action), why, "fallback")


def has_budget(spec: str, family: Any = None) -> bool:
    """True for a bot (of ``family``) that searches for a budget of time or iterations."""
    try:
        bot = make_bot(spec, family)
    except (ValueError, TypeError):
        return False
    return any(getattr(bot, name, None) is not None for name in ("seconds", "iterations"))


def _call_soon(loop: asyncio.AbstractEventLoop, callback: Callable[..., None],
               *args: Any) -> None:
    """Hand ``callback`` to the event loop from a worker's thread (nothing if the loop is
    gone: the server stopped while the bot thought)."""
    try:
        loop.call_soon_threadsafe(callback, *args)
    except RuntimeError:
        pass


@dataclass(eq=False)
class _Pending:
    """A decision asked for: the job, whose queue it waits in, and how it ends."""

    job: Job
    table: str
    search: bool
    future: asyncio.Future[Decision]
    worker: Worker | None = None
    started: float = 0.0
    timer: asyncio.TimerHandle | None = None


@dataclass
class _Counts:
    decisions: int = 0
    timeouts: int = 0
    failures: int = 0
    replaced: int = 0
    wait_s: deque[float] = field(default_factory=lambda: deque(maxlen=2000))
    """How long decisions waited for a worker (seconds)."""


class BotRunner:
    """Runs bot decisions fairly over ``workers`` processes (``0``: ``threads`` threads); see
    the module docstring."""

    def __init__(self, workers: int = 2, timeout: float = 30.0,
                 threads: int = THREAD_WORKERS) -> None:
        self.processes = workers > 0
        self.size = workers if workers > 0 else max(1, threads)
        self.timeout = timeout
        self.search_slots = max(1, self.size - 1)
        """Workers searches may hold at once: all but one (when there is more than one)."""
        self._loop: asyncio.AbstractEventLoop | None = None
        self._idle: list[Worker] = []
        self._busy: dict[Worker, _Pending] = {}
        self._starting = 0
        self._queues: OrderedDict[str, deque[_Pending]] = OrderedDict()
        """Waiting decisions by table, the table to serve next first."""
        self._searching = 0
        self._cpu: dict[str, float] = {}
        """The average processor seconds of a decision, by bot spec (learnt)."""
        self._search_specs: dict[tuple[str, str], bool] = {}
        self._closed = False
        self.counts = _Counts()

    # -- asking -----------------------------------------------------------------------------

    async def decide(self, spec: str, state: Any, seat: int, rng_seed: str,
                     explain: bool = False, table: str = "") -> Decision:
        """Bot ``spec``'s choice for ``seat`` (to move in ``state``), in ``table``'s turn;
        never raises for a bot's failure (a random legal action stands in)."""
        loop = asyncio.get_running_loop()
        self.start()
        pending = _Pending(Job(spec, state, seat, rng_seed, explain), table,
                           self._is_search(spec, state.rules), loop.create_future())
        pending.started = time.monotonic()
        self._queues.setdefault(table, deque()).append(pending)
        self._dispatch()
        try:
            return await pending.future
        except asyncio.CancelledError:
            self._withdraw(pending)
            raise

    def start(self) -> None:
        """Start the workers (in the running event loop); at once, or at the first decision.
        Processes take a moment to import the bots: started early, they are ready sooner."""
        if self._loop is None:
            self._loop = asyncio.get_running_loop()
            for _ in range(self.size):
                self._add_worker()

    def _is_search(self, spec: str, rules: Any = None) -> bool:
        key = (family_of(rules).name if rules is not None else "", spec)
        known = self._search_specs.get(key)
        if known is None:
            known = self._search_specs[key] = has_budget(spec, rules)
        return known or self._cpu.get(spec, 0.0) > QUICK_CPU_SECONDS

    def _withdraw(self, pending: _Pending) -> None:
        """Forget a decision nobody waits for any more (it runs on if it started)."""
        queue = self._queues.get(pending.table)
        if queue is not None and pending in queue:
            queue.remove(pending)
            if not queue:
                del self._queues[pending.table]

    # -- workers ----------------------------------------------------------------------------

    def _add_worker(self) -> None:
        worker: Worker = ProcessWorker() if self.processes else ThreadWorker()
        self._starting += 1
        loop = self._loop
        assert loop is not None

        def ready(w: Worker) -> None:
            _call_soon(loop, self._ready, w)

        worker.start(ready)

    def _ready(self, worker: Worker) -> None:
        self._starting -= 1
        if self._closed:
            worker.end()
            return
        self._idle.append(worker)
        self._dispatch()

    def _replace(self, worker: Worker) -> None:
        """End a worker (and whatever it is deciding) and start another in its place."""
        worker.end()
        self.counts.replaced += 1
        if not self._closed:
            self._add_worker()

    def worker_pids(self) -> list[int]:
        """The process ids of the workers (none for threads)."""
        workers = [*self._idle, *self._busy]
        return [w.pid for w in workers if w.pid is not None]

    # -- scheduling -------------------------------------------------------------------------

    def _next(self) -> _Pending | None:
        """The next decision to start: tables in turn; a search only while a worker is left
        for quick ones."""
        searches_may_start = self._searching < self.search_slots
        for table, queue in self._queues.items():
            pending = queue[0]
            if pending.search and not searches_may_start:
                continue
            queue.popleft()
            if queue:
                self._queues.move_to_end(table)  # its next decision waits its turn
            else:
                del self._queues[table]
            return pending
        return None

    def _dispatch(self) -> None:
        while self._idle and not self._closed:
            pending = self._next()
            if pending is None:
                return
            worker = self._idle.pop()
            self._start(worker, pending)

    def _start(self, worker: Worker, pending: _Pending) -> None:
        loop = self._loop
        assert loop is not None
        self.counts.wait_s.append(time.monotonic() - pending.started)
        pending.worker = worker
        pending.started = time.monotonic()
        pending.timer = loop.call_later(self.timeout, self._expire, pending)
        self._busy[worker] = pending
        if pending.search:
            self._searching += 1

        def run() -> None:
            outcome = worker.run(pending.job)
            _call_soon(loop, self._finished, worker, pending, outcome)

        threading.Thread(target=run, name="canasta-bot-job", daemon=True).start()

    def _release(self, worker: Worker, pending: _Pending) -> None:
        del self._busy[worker]
        if pending.search:
            self._searching -= 1
        if pending.timer is not None:
            pending.timer.cancel()

    def _finished(self, worker: Worker, pending: _Pending, outcome: Outcome) -> None:
        if self._busy.get(worker) is not pending:
            return  # ended meanwhile (out of time, or the runner closed)
        self._release(worker, pending)
        self.counts.decisions += 1
        spec = pending.job.spec
        if outcome.decision is not None:
            before = self._cpu.get(spec, outcome.cpu_seconds)
            self._cpu[spec] = 0.8 * before + 0.2 * outcome.cpu_seconds
            self._answer(pending, outcome.decision)
        else:
            self.counts.failures += 1
            log.error("bot %r failed; a random action stands in: %s", spec, outcome.failure)
            why = "the bot's worker failed" if outcome.broken else "the bot failed"
            self._answer(pending, random_decision(pending.job.state, pending.job.rng_seed, why))
        if outcome.broken:
            self._replace(worker)
        else:
            self._idle.append(worker)
        self._dispatch()

    def _expire(self, pending: _Pending) -> None:
        """A decision ran out of time: end it alone, and let a random action stand in."""
        worker = pending.worker
        if worker is None or self._busy.get(worker) is not pending:
            return
        self._release(worker, pending)
        self.counts.timeouts += 1
        spec = pending.job.spec
        log.warning("bot %r thought for more than %g s; a random action stands in", spec,
                    self.timeout)
        self._cpu[spec] = max(self._cpu.get(spec, 0.0), self.timeout)  # a search, from now on
        self._answer(pending, random_decision(pending.job.state, pending.job.rng_seed,
                                              "the bot ran out of time"))
        self._replace(worker)
        self._dispatch()

    @staticmethod
    def _answer(pending: _Pending, decision: Decision) -> None:
        if not pending.future.done():
            pending.future.set_result(decision)

    # -- reading and closing ----------------------------------------------------------------

    def stats(self) -> dict[str, Any]:
        """Workers, decisions waiting and running, and what went wrong, for ``/api/stats``."""
        waits = sorted(self.counts.wait_s)
        return {
            "workers": self.size, "busy": len(self._busy), "searching": self._searching,
            "waiting": sum(len(q) for q in self._queues.values()),
            "tables_waiting": len(self._queues), "decisions": self.counts.decisions,
            "timeouts": self.counts.timeouts, "failures": self.counts.failures,
            "workers_replaced": self.counts.replaced,
            "wait_p99_ms": round(waits[int(0.99 * (len(waits) - 1))] * 1000, 1) if waits
            else None,
        }

    def close(self) -> None:
        """End the workers (decisions in flight are abandoned)."""
        self._closed = True
        for worker in [*self._idle, *self._busy]:
            worker.end()
        self._idle.clear()
        for pending in self._busy.values():
            if pending.timer is not None:
                pending.timer.cancel()
        self._busy.clear()
