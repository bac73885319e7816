"""Fair bot time at the web table: does one table's heavy search starve the others?

Starts ``canasta serve`` (``--bot-delay``, ``--bot-workers`` as given; the defaults are the
server's) on a fresh SQLite file and measures, in the same run:

1. **baseline** — a table of four ``bot:heuristic`` seats alone: the actions it plays in
   ``--seconds``; then a new table with a human at seat 0 and the default bots: the seconds
   until the human's first turn (three bots play before it);
2. **loaded** — the same two figures while ``--heavy`` tables of four ``--heavy-bot`` seats
   (``ismcts:seconds=10``) play, measured after ``--warmup`` seconds, once the searches hold
   the workers.

It also prints what the heavy tables played meanwhile, the runner's figures from
``GET /api/stats`` (decisions, timeouts, the p99 wait for a worker) and the machine's load
average before and after (the machine may be shared: figures taken under a high load are
noisy). ``--src DIR`` runs the server of another checkout (its ``src/``), e.g. an older one, for
a before/after comparison; ``--server-args`` replaces the extra server options (an older server
may not know them).

Example (the figures in the web table's report)::

    nice python benchmarks/bot_fairness.py
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import sys
import time
from typing import Any

import httpx

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from server_load import LOAD_SERVER_ARGS, add_server_options, started_server


def load() -> str:
    """The 1-, 5- and 15-minute load averages."""
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def create(http: httpx.Client, seats: list[str], seed: int) -> tuple[str, dict[int, str]]:
    """A new table; its id and the human seats' tokens."""
    r = http.post("/api/tables", json={"rules": "classic", "seats": seats, "seed": seed})
    r.raise_for_status()
    data = r.json()
    return data["table_id"], {s["seat"]: s["token"] for s in data["seats"]}


def actions_played(http: httpx.Client, table_id: str) -> int:
    """Every action of the table so far (its public record)."""
    record = http.get(f"/api/tables/{table_id}/record").json()
    return sum(len(hand["actions"]) for hand in record["hands"])


def actions_in(http: httpx.Client, tables: list[str], seconds: float) -> list[int]:
    """The actions each table plays in ``seconds``."""
    before = [actions_played(http, t) for t in tables]
    time.sleep(seconds)
    return [actions_played(http, t) - b for t, b in zip(tables, before)]


def seconds_to_human_turn(http: httpx.Client, seed: int, limit: float = 300.0) -> float:
    """Create a table (a human at seat 0, the default bots elsewhere); seconds until the
    human may act."""
    started = time.monotonic()
    table_id, tokens = create(http, ["human", "bot", "bot", "bot"], seed)
    while time.monotonic() - started < limit:
        view = http.get(f"/api/tables/{table_id}/view", params={"token": tokens[0]}).json()
        if view["your_turn"]:
            return time.monotonic() - started
        time.sleep(0.05)
    return float("inf")


def phase(http: httpx.Client, light: str, seconds: float, seed: int,
          heavy: list[str]) -> dict[str, Any]:
    """The light table's actions in ``seconds`` (and the heavy tables'), then a new table's
    wait for its human's turn."""
    counts = actions_in(http, [light, *heavy], seconds)
    return {"light_actions": counts[0], "heavy_actions": counts[1:],
            "human_turn_s": round(seconds_to_human_turn(http, seed), 2)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--heavy", type=int, default=4, help="heavy tables (4)")
    parser.add_argument("--heavy-bot", default="ismcts:seconds=10",
                        help="the heavy tables' bot (ismcts:seconds=10)")
    parser.add_argument("--seconds", type=float, default=30.0, help="measured time (30)")
    parser.add_argument("--warmup", type=float, default=12.0,
                        help="seconds the heavy tables play before measuring (12)")
    add_server_options(parser)
    parser.add_argument("--src", help="run the canasta package of another checkout's src/")
    parser.add_argument("--server-args", default=shlex.join(LOAD_SERVER_ARGS),
                        help="extra server options (default: %(default)s)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()

    out: dict[str, Any] = {"load_before": load(), "heavy_bot": args.heavy_bot,
                           "heavy_tables": args.heavy, "seconds": args.seconds,
                           "bot_delay": args.bot_delay, "bot_workers": args.bot_workers}
    with started_server(args, shlex.split(args.server_args), args.src) as (url, _pid), \
            httpx.Client(base_url=url, timeout=60) as http:
        light, _ = create(http, ["bot:heuristic"] * 4, args.seed)
        time.sleep(2.0)  # the workers start
        out["baseline"] = phase(http, light, args.seconds, args.seed + 1, [])
        heavy = [create(http, [f"bot:{args.heavy_bot}"] * 4, args.seed + 10 + i)[0]
                 for i in range(args.heavy)]
        time.sleep(args.warmup)
        out["loaded"] = phase(http, light, args.seconds, args.seed + 2, heavy)
        stats = http.get("/api/stats").json()
        out["runner"] = stats.get("bots")
    out["load_after"] = load()
    if args.json:
        print(json.dumps(out, indent=2))
        return
    print(f"load average before: {out['load_before']}   after: {out['load_after']}")
    print(f"server: --bot-delay {args.bot_delay} --bot-workers {args.bot_workers}; "
          f"{args.heavy} heavy tables of four bot:{args.heavy_bot}")
    for name in ("baseline", "loaded"):
        p = out[name]
        print(f"{name:>8}: heuristic table {p['light_actions']:3d} actions in "
              f"{args.seconds:g} s; a new table's human has the turn after "
              f"{p['human_turn_s']:.2f} s; heavy tables' actions {p['heavy_actions']}")
    if out["runner"]:
        print(f"  runner: {out['runner']}")


if __name__ == "__main__":
    main()
