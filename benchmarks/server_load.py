"""Load on the web table: many bot-only tables at once, and the latency of a person's action.

Against a running server (``--url``) or one this script starts (``--start``, on a fresh SQLite
file unless ``--database`` says otherwise), it creates ``--tables`` tables where only bots sit
(they play by themselves, dealing hand after hand) and ``--humans`` tables with one human seat
and three bots, whose actions this script plays over HTTP like a person would (a random legal
action after ``--think`` seconds). ``--watch`` opens that many WebSocket spectators on the bot
tables, so that view pushes are part of the load. After ``--seconds`` it prints:

* bot actions per second over all tables, and the server-side p50/p99 latency of a bot action
  (from the bot's decision back to the action committed and pushed, ``GET /api/stats``);
* the p50/p99/max round-trip latency of the human actions (``POST .../actions``, measured
  here, in a process of its own), which is what a person feels; beside it, how late a 10 ms
  timer fires in that process (``client_timer_late_p99_ms``): the machine's own scheduling
  noise, which every latency here includes;
* with ``--start``, the CPU the server used (its process and its bot workers).

Example (the figures in the web table's report)::

    python benchmarks/server_load.py --start --tables 200 --humans 4 --seconds 30
    python benchmarks/server_load.py --start --tables 200 --bot-delay 0 --seconds 30
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx


def percentile(values: list[float], q: float) -> float:
    """The ``q`` quantile (0..1) of ``values`` (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def free_port() -> int:
    """A TCP port nobody listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of a process and its live children (Linux /proc)."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0.0
    pending = [pid]
    while pending:
        p = pending.pop()
        try:
            fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / tick
            for task in Path(f"/proc/{p}/task").iterdir():
                children = (task / "children").read_text().split()
                pending.extend(int(c) for c in children)
        except (OSError, IndexError, ValueError):
            continue
    return total


LOAD_SERVER_ARGS = ("--tables-per-minute", "0", "--max-tables", str(100_000))
"""One client creates every table here: no limit on how many a minute, room for all."""


@contextlib.contextmanager
def started_server(args: argparse.Namespace, extra: Sequence[str] = LOAD_SERVER_ARGS,
                   src: str | None = None) -> Iterator[tuple[str, int]]:
    """``canasta serve`` in a subprocess (the ``canasta`` package found in ``src`` when
    given, e.g. another checkout's ``src/``); yields its URL and pid."""
    port = free_port()
    folder = tempfile.mkdtemp(prefix="canasta-load-")
    database = args.database or f"sqlite:///{folder}/load.sqlite3"
    log = open(Path(folder) / "server.log", "wb")  # noqa: SIM115 - the child writes it
    env = {**os.environ, "PYTHONPATH": src} if src else None
    process = subprocess.Popen(
        [sys.executable, "-m", "canasta.interfaces.cli", "serve", "--port", str(port),
         "--database", database, "--bot-delay", str(args.bot_delay),
         "--bot-workers", str(args.bot_workers), "--log-level", "warning", *extra],
        stdout=log, stderr=subprocess.STDOUT, env=env)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            if process.poll() is not None:
                raise SystemExit(f"the server exited; see {folder}/server.log")
            try:
                if httpx.get(f"{url}/api/health", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                raise SystemExit(f"the server did not start; see {folder}/server.log")
            time.sleep(0.2)
        yield url, process.pid
    finally:
        process.terminate()
        try:
            process.wait(15)
        except subprocess.TimeoutExpired:
            process.kill()
        log.close()


def add_server_options(parser: argparse.ArgumentParser, when: str = "") -> None:
    """The options of the server a script starts: ``--database``, ``--bot-delay``,
    ``--bot-workers`` (their defaults are the server's own, on two processors)."""
    parser.add_argument("--database", help=f"{when}the database URL (default: a fresh SQLite "
                        "file)")
    parser.add_argument("--bot-delay", type=float, default=0.6,
                        help=f"{when}the server's --bot-delay (default 0.6)")
    parser.add_argument("--bot-workers", type=int, default=2,
                        help=f"{when}the server's --bot-workers (default 2)")


@dataclass
class Results:
    """What the load run measured on the client side."""

    human_ms: list[float] = field(default_factory=list)
    human_errors: int = 0
    views_pushed: int = 0


async def create_tables(http: httpx.AsyncClient, count: int, seats: list[str], rules: str,
                        auto_next: bool) -> list[tuple[str, dict[int, str]]]:
    """Create ``count`` tables, a few at a time."""
    out: list[tuple[str, dict[int, str]]] = []
    gate = asyncio.Semaphore(16)

    async def one() -> None:
        async with gate:
            r = await http.post("/api/tables", json={"rules": rules, "seats": seats,
                                                     "auto_next": auto_next})
            r.raise_for_status()
            data = r.json()
            out.append((data["table_id"], {s["seat"]: s["token"] for s in data["seats"]}))

    await asyncio.gather(*(one() for _ in range(count)))
    return out


async def play_human(http: httpx.AsyncClient, table_id: str, seat: int, token: str,
                     stop: float, think: float, rng: random.Random, results: Results) -> None:
    """Play the seat like a person: poll the view, think, POST a random legal action."""
    while time.monotonic() < stop:
        r = await http.get(f"/api/tables/{table_id}/view", params={"token": token})
        view = r.json()
        if view.get("status") == "game_over":
            return
        if not view.get("your_turn"):
            await asyncio.sleep(0.1)
            continue
        await asyncio.sleep(think)
        action = rng.choice(view["legal"])
        started = time.perf_counter()
        r = await http.post(f"/api/tables/{table_id}/actions",
                            json={"token": token, "action": action})
        elapsed = (time.perf_counter() - started) * 1000
        if r.status_code == 200:
            results.human_ms.append(elapsed)
        else:
            results.human_errors += 1


async def humans_main(url: str, tables: list[tuple[str, dict[int, str]]], seconds: float,
                      think: float, seed: int) -> dict[str, Any]:
    """The scripted humans, in a process of their own (so that the spectators' traffic in the
    main process does not delay them); also measures how late this process's timers fire,
    which is the machine's own scheduling noise."""
    results = Results()
    stop = time.monotonic() + seconds
    rng = random.Random(seed)
    overshoot: list[float] = []

    async def jitter() -> None:
        while time.monotonic() < stop:
            started = time.perf_counter()
            await asyncio.sleep(0.01)
            overshoot.append((time.perf_counter() - started - 0.01) * 1000)

    async with httpx.AsyncClient(base_url=url, timeout=30) as http:
        await asyncio.gather(jitter(), *(
            play_human(http, table_id, 0, tokens[0], stop, think,
                       random.Random(rng.random()), results)
            for table_id, tokens in tables))
    return {"human_ms": results.human_ms, "human_errors": results.human_errors,
            "overshoot_ms": overshoot}


def _humans_process(url: str, tables: list[tuple[str, dict[int, str]]], seconds: float,
                    think: float, seed: int, out: Any) -> None:
    out.put(asyncio.run(humans_main(url, tables, seconds, think, seed)))


async def watch(url: str, table_id: str, stop: float, results: Results) -> None:
    """A WebSocket spectator that counts the views pushed to it."""
    import websockets

    ws_url = url.replace("http", "ws", 1) + f"/ws/tables/{table_id}"
    async with websockets.connect(ws_url) as ws:
        await ws.send(json.dumps({"type": "hello"}))
        while time.monotonic() < stop:
            try:
                await asyncio.wait_for(ws.recv(), timeout=max(0.01, stop - time.monotonic()))
            except TimeoutError:
                break
            results.views_pushed += 1


async def run(url: str, args: argparse.Namespace, pid: int | None) -> dict[str, Any]:
    """The whole load run; returns the figures."""
    limits = httpx.Limits(max_connections=64, max_keepalive_connections=64)
    async with httpx.AsyncClient(base_url=url, timeout=30, limits=limits) as http:
        bot = f"bot:{args.bot}"
        t0 = time.perf_counter()
        bot_tables = await create_tables(http, args.tables, [bot] * 4, args.rules, True)
        human_tables = await create_tables(http, args.humans, ["human", bot, bot, bot],
                                           args.rules, True)
        created = time.perf_counter() - t0
        await asyncio.sleep(args.warmup)
        before = (await http.get("/api/stats")).json()
        cpu_before = cpu_seconds(pid) if pid else None
        started = time.monotonic()
        stop = started + args.seconds
        results = Results()
        context = multiprocessing.get_context("spawn")
        queue = context.Queue()
        humans = context.Process(target=_humans_process, args=(
            url, human_tables, args.seconds, args.think, args.seed, queue))
        humans.start()
        await asyncio.gather(*(watch(url, table_id, stop, results)
                               for table_id, _ in bot_tables[:args.watch]),
                             asyncio.sleep(max(0.0, stop - time.monotonic())))
        played = await asyncio.get_running_loop().run_in_executor(None, queue.get)
        humans.join()
        results.human_ms = played["human_ms"]
        results.human_errors = played["human_errors"]
        elapsed = time.monotonic() - started
        after = (await http.get("/api/stats")).json()
        cpu = (cpu_seconds(pid) - cpu_before) if pid and cpu_before is not None else None
    bot_actions = after["bot"]["actions"] - before["bot"]["actions"]
    human = results.human_ms
    return {
        "tables": args.tables, "human_tables": args.humans, "watchers": args.watch,
        "bot_delay_s": args.bot_delay if args.start else None,
        "bot_workers": args.bot_workers if args.start else None,
        "seconds": round(elapsed, 2), "create_s": round(created, 2),
        "bot_actions": bot_actions, "bot_actions_per_s": round(bot_actions / elapsed, 1),
        "bot_p50_ms": after["bot"]["p50_ms"], "bot_p99_ms": after["bot"]["p99_ms"],
        "human_actions": len(human), "human_errors": results.human_errors,
        "human_p50_ms": round(statistics.median(human), 2) if human else None,
        "human_p99_ms": round(percentile(human, 0.99), 2) if human else None,
        "human_max_ms": round(max(human), 2) if human else None,
        "server_human_p99_ms": after["human"]["p99_ms"],
        "server_loop_lag_p99_ms": after.get("loop_lag", {}).get("p99_ms"),
        "server_loop_lag_max_ms": after.get("loop_lag", {}).get("max_ms"),
        "views_pushed": results.views_pushed,
        "client_timer_late_p99_ms": round(percentile(played["overshoot_ms"], 0.99), 2)
        if played["overshoot_ms"] else None,
        "server_cpu_percent": round(100 * cpu / elapsed, 1) if cpu is not None else None,
    }


def main() -> None:
    """Parse the options, run, print."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument("--url", help="a running server, e.g. http://127.0.0.1:8000")
    where.add_argument("--start", action="store_true", help="start a server for the run")
    add_server_options(parser, "with --start: ")
    parser.add_argument("--tables", type=int, default=200, help="bot-only tables (200)")
    parser.add_argument("--humans", type=int, default=4,
                        help="tables with one human seat played by this script (4)")
    parser.add_argument("--watch", type=int, default=0,
                        help="WebSocket spectators on the first bot tables (0)")
    parser.add_argument("--think", type=float, default=0.3,
                        help="seconds the scripted human waits before acting (0.3)")
    parser.add_argument("--seconds", type=float, default=30.0, help="measured time (30)")
    parser.add_argument("--warmup", type=float, default=2.0, help="seconds before measuring")
    parser.add_argument("--rules", default="classic")
    parser.add_argument("--bot", default="random", help="the bots' spec (random)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    if args.start:
        with started_server(args) as (url, pid):
            figures = asyncio.run(run(url, args, pid))
    else:
        figures = asyncio.run(run(args.url, args, None))
    if args.json:
        print(json.dumps(figures))
        return
    for key, value in figures.items():
        print(f"{key:>22}: {value}")


if __name__ == "__main__":
    main()
