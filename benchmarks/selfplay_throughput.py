"""Self-play and arena throughput on one core, against plain bot play in the same run.

Three timed loops, one after the other, in one process pinned to one CPU:

1. **baseline**: the bots play whole hands through the engine and nothing else (deal, list the
   legal actions, let the bot choose, apply): what any use of these bots costs;
2. **selfplay**: the same bots, the same way, through :func:`canasta.selfplay.play_shard`,
   which also spells every action into ids, writes a tensor and a mask per id and writes the
   Parquet files (shards of ``--shard-hands`` hands into a temporary folder);
3. **arena**: duplicate game pairs (:func:`canasta.arena.play_game_pair`) of the first bot
   against ``--opponent``.

It prints per-core hands/s and rows/s (per wall-clock second, and per second of the process's
CPU time, the steadier figure on a busy machine), bytes per row and the selfplay/baseline
ratio, and what that makes on ``--cores`` cores each given wholly to the work (hands and rows
an hour, gigabytes an hour, bytes per million rows, from the per-CPU-second rates), assuming
the work spreads evenly over them, as shards and game pairs do.

Usage::

    python benchmarks/selfplay_throughput.py --rules classic --bots heuristic --seconds 30
    python benchmarks/selfplay_throughput.py --seconds 5 --json
"""

from __future__ import annotations

import argparse
import json
import os
import random
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from canasta.arena import GamePairTask, play_game_pair
from canasta.bots import make_bot
from canasta.deal import new_hand
from canasta.engine import apply
from canasta.legal import legal_actions
from canasta.observation import observe
from canasta.rules import PRESETS, get_rules
from canasta.selfplay import SelfplayConfig, ShardTask, play_shard
from canasta.selfplay.store import prepare

BUSY_SHARE = 0.9
"""Below this CPU share the core was shared with other work during the timing."""


@dataclass
class Timed:
    """What one timed loop did."""

    hands: int
    rows: int
    bytes: int
    elapsed_s: float
    cpu_s: float

    def rate(self, count: int) -> float:
        """``count`` per wall-clock second."""
        return count / self.elapsed_s

    def cpu_rate(self, count: int) -> float:
        """``count`` per second of CPU time: the rate on a core of its own."""
        return count / self.cpu_s if self.cpu_s else 0.0

    def to_json(self) -> dict[str, Any]:
        """The figures as a JSON-ready dict."""
        return {"hands": self.hands, "rows": self.rows, "bytes": self.bytes,
                "elapsed_s": self.elapsed_s, "cpu_share": self.cpu_s / self.elapsed_s,
                "hands_per_s": self.rate(self.hands), "rows_per_s": self.rate(self.rows),
                "hands_per_cpu_s": self.cpu_rate(self.hands),
                "rows_per_cpu_s": self.cpu_rate(self.rows)}


def timed(seconds: float, step: Callable[[], tuple[int, int, int]]) -> Timed:
    """Call ``step`` (returning hands, rows, bytes) until ``seconds`` have passed."""
    hands = rows = size = 0
    wall, cpu = time.perf_counter(), time.process_time()
    while time.perf_counter() - wall < seconds:
        h, r, b = step()
        hands, rows, size = hands + h, rows + r, size + b
    return Timed(hands, rows, size, time.perf_counter() - wall, time.process_time() - cpu)


def baseline(args: argparse.Namespace) -> Timed:
    """The bots playing hands and nothing else."""
    rules = get_rules(args.rules)
    rng = random.Random(args.seed)
    specs = [args.bots[rules.side_of(s) % len(args.bots)] for s in range(rules.num_players)]

    def hand() -> tuple[int, int, int]:
        state = new_hand(rules, seed=rng.randrange(1 << 62), dealer=rng.randrange(
            rules.num_players))
        bots = [make_bot(spec) for spec in specs]
        while not state.is_over:
            seat = state.to_move
            legal = legal_actions(state)
            state = apply(state, bots[seat].choose(observe(state, seat), legal, rng))
        return 1, 0, 0

    return timed(args.seconds, hand)


def selfplay(args: argparse.Namespace, out: str) -> Timed:
    """Whole shards played and written."""
    config = SelfplayConfig(get_rules(args.rules), tuple(args.bots), hands=10 ** 9,
                            seed=args.seed, shard_hands=args.shard_hands)
    prepare(out, config)
    shards = iter(range(config.shards))

    def shard() -> tuple[int, int, int]:
        result = play_shard(ShardTask(config, next(shards), out))
        return result.hands, result.rows, result.bytes

    return timed(args.seconds, shard)


def arena(args: argparse.Namespace) -> Timed:
    """Duplicate game pairs of the first bot against ``--opponent``."""
    rules = get_rules(args.rules)
    games = iter(range(10 ** 9))

    def game_pair() -> tuple[int, int, int]:
        result = play_game_pair(GamePairTask(rules, args.bots[0], args.opponent, 0, next(games),
                                             args.seed))
        return sum(len(t.hands) for t in result.twins), 0, 0

    return timed(args.seconds, game_pair)


def main() -> None:
    """Run the three loops and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", default="classic", choices=PRESETS)
    parser.add_argument("--bots", default="heuristic",
                        help="self-play bots, comma-separated (default heuristic)")
    parser.add_argument("--opponent", default="greedy",
                        help="the arena's opponent of the first bot (default greedy)")
    parser.add_argument("--seconds", type=float, default=20.0, help="per loop (default 20)")
    parser.add_argument("--shard-hands", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cpu", type=int, default=0, help="the CPU to pin to (default 0)")
    parser.add_argument("--cores", type=int, default=100,
                        help="cluster size for the extrapolation (default 100)")
    parser.add_argument("--json", action="store_true", help="one line of JSON")
    args = parser.parse_args()
    args.bots = [b.strip() for b in args.bots.split(",") if b.strip()]
    pinned = hasattr(os, "sched_setaffinity")
    if pinned:
        os.sched_setaffinity(0, {args.cpu})
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else None

    base = baseline(args)
    with tempfile.TemporaryDirectory() as out:
        rows = selfplay(args, out)
    duel = arena(args)
    per_row = rows.bytes / rows.rows if rows.rows else 0.0
    hour = 3600 * args.cores
    report = {
        "rules": args.rules, "bots": args.bots, "opponent": args.opponent,
        "seconds": args.seconds, "cpu": args.cpu if pinned else None,
        "load_average_1min": load, "cpu_count": os.cpu_count(),
        "baseline": base.to_json(), "selfplay": rows.to_json(), "arena": duel.to_json(),
        "rows_per_hand": rows.rows / rows.hands if rows.hands else None,
        "bytes_per_row": per_row, "selfplay_over_baseline_cpu": (
            rows.cpu_rate(rows.hands) / base.cpu_rate(base.hands) if base.hands else None),
        "cores": args.cores,
        "cluster_selfplay_hands_per_hour": rows.cpu_rate(rows.hands) * hour,
        "cluster_selfplay_rows_per_hour": rows.cpu_rate(rows.rows) * hour,
        "cluster_selfplay_gb_per_hour": rows.cpu_rate(rows.bytes) * hour / 1e9,
        "cluster_arena_hands_per_hour": duel.cpu_rate(duel.hands) * hour,
        "bytes_per_million_rows": per_row * 1e6,
    }
    if args.json:
        print(json.dumps(report))
        return
    where = f"one core (pinned to CPU {args.cpu})" if pinned else "one process"
    busy = "" if load is None else f"; load average {load:.1f} on {os.cpu_count()} CPUs"
    print(f"{args.rules}, bots {', '.join(args.bots)}, {args.seconds:g} s a loop on "
          f"{where}{busy}")
    for name, t in (("baseline (play only)", base), ("selfplay (rows + Parquet)", rows),
                    (f"arena ({args.bots[0]} v {args.opponent})", duel)):
        extra = f", {t.rate(t.rows):,.0f} rows/s" if t.rows else ""
        extra_cpu = f", {t.cpu_rate(t.rows):,.0f} rows" if t.rows else ""
        print(f"  {name:28} {t.rate(t.hands):8.2f} hands/s{extra}; CPU share "
              f"{t.cpu_s / t.elapsed_s:.0%}; per CPU second {t.cpu_rate(t.hands):.2f} "
              f"hands{extra_cpu}")
    ratio = report["selfplay_over_baseline_cpu"]
    print(f"  rows per hand {report['rows_per_hand']:.0f}, {per_row:.1f} bytes a row on disk; "
          f"selfplay makes {ratio:.2f} of the baseline's hands per CPU second")
    print(f"on {args.cores} whole cores: selfplay {report['cluster_selfplay_hands_per_hour']:,.0f} "
          f"hands/h, {report['cluster_selfplay_rows_per_hour']:,.0f} rows/h, "
          f"{report['cluster_selfplay_gb_per_hour']:.2f} GB/h; arena "
          f"{report['cluster_arena_hands_per_hour']:,.0f} hands/h; "
          f"{per_row:.0f} MB per million rows")
    if min(t.cpu_s / t.elapsed_s for t in (base, rows, duel)) < BUSY_SHARE:
        print("  note: a loop got well under a whole core (a busy machine): per-second figures "
              "are low by about that share")


if __name__ == "__main__":
    main()
