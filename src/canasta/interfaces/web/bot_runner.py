"""Bots, run off the event loop so that a slow search never stalls the other tables.

A decision runs :func:`decide` in a process pool (``workers > 0``; the state travels as its
NOTATION §3 JSON) or in a thread pool (``workers == 0``, for tests and bots registered at run
time). A semaphore bounds the decisions in flight over all tables, so the event loop always has
room for people's actions. A bot that fails, times out or answers with something illegal is
replaced for that decision by a random legal action: a table never stalls.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import random
from collections.abc import Sequence
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any

from canasta.actions import format_action
from canasta.bots import BOTS, LEVELS, make_bot
from canasta.legal import legal_actions
from canasta.observation import observe
from canasta.position import state_from_json, state_to_json
from canasta.state import State

log = logging.getLogger(__name__)

FALLBACK_BOTS = ("heuristic", "greedy", "random")
"""Tried in order when the configured default or hint bot is not registered."""


@dataclass(frozen=True)
class Decision:
    """A bot's choice: the canonical action text, and why (when the bot can say)."""

    action: str
    explanation: str | None = None
    bot: str = ""
    """The spec of the bot that chose, or ``fallback`` for a random stand-in."""


def known_bot(spec: str) -> bool:
    """True if :func:`~canasta.bots.make_bot` accepts ``spec``."""
    try:
        make_bot(spec)
    except (ValueError, TypeError):
        return False
    return True


def resolve_bot(preferred: str, fallbacks: Sequence[str] = FALLBACK_BOTS) -> str:
    """``preferred`` if it is a known bot, else the first known of ``fallbacks``."""
    for spec in (preferred, *fallbacks):
        if known_bot(spec):
            return spec
    return "random"


def bot_names() -> list[str]:
    """The registered bot names and levels."""
    return [*BOTS, *LEVELS]


def decide(spec: str, position: State | dict[str, Any], seat: int, rng_seed: str,
           explain: bool = False) -> Decision:
    """What bot ``spec`` plays for ``seat`` (runs in a worker).

    The bot sees only the seat's observation and the legal actions; ``explain`` asks for the
    bot's ``explain`` method where it has one.
    """
    state = position if isinstance(position, State) else state_from_json(position)
    obs = observe(state, seat)
    legal = legal_actions(state)
    bot = make_bot(spec)
    rng = random.Random(rng_seed)
    explainer = getattr(bot, "explain", None) if explain else None
    if explainer is not None:
        action, why = explainer(obs, legal, rng)
        return Decision(format_action(action), str(why), spec)
    return Decision(format_action(bot.choose(obs, legal, rng)), None, spec)


def random_decision(state: State, rng_seed: str, why: str) -> Decision:
    """A uniformly random legal action: the stand-in for a bot that failed."""
    legal = legal_actions(state)
    rng = random.Random(rng_seed)
    return Decision(format_action(legal[rng.randrange(len(legal))]), why, "fallback")


def _warm_up(server_pid: int) -> None:
    """Import the engine and the bots in a fresh worker process, which leaves Ctrl-C to the
    server (it shuts the pool down) and ends itself when the server is gone."""
    import signal
    import threading

    import canasta.bots  # noqa: F401

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    threading.Thread(target=_end_with_server, args=(server_pid,), daemon=True,
                     name="canasta-server-watch").start()


def _end_with_server(server_pid: int, every: float = 1.0) -> None:
    """A server killed outright (``kill -9``) cannot stop its workers: each stops itself, even
    in the middle of a search, once its parent is no longer the server."""
    import time

    while os.getppid() == server_pid:
        time.sleep(every)
    os._exit(0)


class BotRunner:
    """Runs bot decisions in a pool; see the module docstring."""

    def __init__(self, workers: int = 1, concurrency: int = 4, timeout: float = 30.0) -> None:
        self.workers = workers
        self.concurrency = max(1, concurrency)
        self.timeout = timeout
        self._executor = self._new_executor()
        self._semaphore: asyncio.Semaphore | None = None
        self._closed = False

    def _new_executor(self) -> Executor:
        if self.workers > 0:
            return ProcessPoolExecutor(max_workers=self.workers, initializer=_warm_up,
                                       initargs=(os.getpid(),),
                                       mp_context=multiprocessing.get_context("spawn"))
        return ThreadPoolExecutor(max_workers=self.concurrency, thread_name_prefix="canasta-bot")

    async def decide(self, spec: str, state: State, seat: int, rng_seed: str,
                     explain: bool = False) -> Decision:
        """Bot ``spec``'s choice for ``seat`` (to move in ``state``); never raises for a bot's
        failure (a random legal action stands in)."""
        if self._semaphore is None:
            self._semaphore = asyncio.Semaphore(self.concurrency)
        payload: State | dict[str, Any] = state if self.workers == 0 else state_to_json(state)
        loop = asyncio.get_running_loop()
        async with self._semaphore:
            try:
                future = loop.run_in_executor(self._executor, decide, spec, payload, seat,
                                              rng_seed, explain)
                return await asyncio.wait_for(future, self.timeout)
            except TimeoutError:
                log.warning("bot %r took more than %.0f s; a random action stands in",
                            spec, self.timeout)
                self._replace_workers()
                return random_decision(state, rng_seed, "the bot ran out of time")
            except BrokenProcessPool:
                if not self._closed:
                    log.error("the bot worker pool broke; starting a new one")
                    self._executor = self._new_executor()
                return random_decision(state, rng_seed, "the bot's worker failed")
            except Exception:
                log.exception("bot %r failed; a random action stands in", spec)
                return random_decision(state, rng_seed, "the bot failed")

    def _replace_workers(self) -> None:
        """A process pool whose bot ran out of time is replaced (its workers are ended), so
        that the next decisions do not queue behind it. Threads cannot be stopped: a thread
        pool stays, one thread busy until its bot returns."""
        if self.workers == 0:
            return
        old = self._executor
        self._executor = self._new_executor()
        processes = list(getattr(old, "_processes", {}).values())
        old.shutdown(wait=False, cancel_futures=True)
        for process in processes:
            process.terminate()

    def close(self) -> None:
        """Stop the workers (decisions in flight are abandoned)."""
        self._closed = True
        self._executor.shutdown(wait=False, cancel_futures=True)
