"""Self-play and arena throughput on one core, against plain bot play in the same run.

For each preset of ``--rules`` (presets of any family; default ``classic`` and
``modern-american``), three timed loops, one after the other, in one process pinned to one CPU:

1. **baseline**: the bots play whole hands through the family protocol and nothing else (deal,
   list the legal actions, let the bot choose from its seat's observation, apply): what any use
   of these bots costs;
2. **selfplay**: the same bots, the same way, through :func:`canasta.selfplay.play_shard`,
   which also spells every action into the family's ids, writes a tensor and a mask per id and
   writes the Parquet files (shards of ``--shard-hands`` hands into a temporary folder);
3. **arena**: duplicate game pairs (:func:`canasta.arena.play_game_pair`) of the first bot
   against ``--opponent`` (whole games, or at most ``--arena-hands`` hands of each).

Bots are named as for ``canasta selfplay``: a bot of the family or a level (the default
``medium`` against ``easy`` plays every family). Each preset is compared with its own
baseline, and the presets are printed side by side.

It prints per-core hands/s and rows/s (per wall-clock second, and per second of the process's
CPU time, the steadier figure on a busy machine), bytes per row and the selfplay/baseline
ratio, and what that makes on ``--cores`` cores each given wholly to the work (hands and rows
an hour, gigabytes an hour, bytes per million rows, from the per-CPU-second rates), assuming
the work spreads evenly over them, as shards and game pairs do.

Usage::

    python benchmarks/selfplay_throughput.py --rules classic --bots heuristic --seconds 30
    python benchmarks/selfplay_throughput.py --rules modern-american --seconds 10
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
from canasta.family import family_of, get_rules, preset_names
from canasta.selfplay import SelfplayConfig, ShardTask, play_shard
from canasta.selfplay.store import prepare

BUSY_SHARE = 0.9
"""Below this CPU share the core was shared with other work during the timing."""

MODERN = "modern-american"
FAMILIES = ("classic", MODERN)
"""``--families``: the classic family (``--rules``) and Modern American."""


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


def baseline(args: argparse.Namespace, preset: str) -> Timed:
    """The bots playing hands and nothing else."""
    rules = get_rules(preset)
    family = family_of(rules)
    rng = random.Random(args.seed)
    specs = [args.bots[rules.side_of(s) % len(args.bots)] for s in range(rules.num_players)]

    def hand() -> tuple[int, int, int]:
        state = family.new_hand(rules, seed=rng.randrange(1 << 62),
                                dealer=rng.randrange(rules.num_players))
        bots = [make_bot(spec, family) for spec in specs]
        while not state.is_over:
            seat = state.to_move
            legal = family.legal_actions(state)
            state = family.apply(state, bots[seat].choose(family.observe(state, seat), legal,
                                                          rng))
        return 1, 0, 0

    return timed(args.seconds, hand)


def selfplay(args: argparse.Namespace, preset: str, out: str) -> Timed:
    """Whole shards played and written."""
    config = SelfplayConfig(get_rules(preset), tuple(args.bots), hands=10 ** 9, seed=args.seed,
                            shard_hands=args.shard_hands)
    prepare(out, config)
    shards = iter(range(config.shards))

    def shard() -> tuple[int, int, int]:
        result = play_shard(ShardTask(config, next(shards), out))
        return result.hands, result.rows, result.bytes

    shard()  # untimed: the first shard imports pyarrow and the family's encoders
    return timed(args.seconds, shard)


def arena(args: argparse.Namespace, preset: str) -> Timed:
    """Duplicate game pairs of the first bot against ``--opponent``."""
    rules = get_rules(preset)
    games = iter(range(10 ** 9))

    def game_pair() -> tuple[int, int, int]:
        result = play_game_pair(GamePairTask(rules, args.bots[0], args.opponent, 0, next(games),
                                             args.seed, max_hands=args.arena_hands))
        return sum(len(t.hands) for t in result.twins), 0, 0

    return timed(args.seconds, game_pair)


def measure(args: argparse.Namespace, preset: str) -> dict[str, Any]:
    """The three loops of one preset and the figures made from them."""
    base = baseline(args, preset)
    with tempfile.TemporaryDirectory() as out:
        rows = selfplay(args, preset, out)
    duel = arena(args, preset)
    per_row = rows.bytes / rows.rows if rows.rows else 0.0
    hour = 3600 * args.cores
    return {
        "rules": preset, "bots": args.bots, "opponent": args.opponent,
        "baseline": base.to_json(), "selfplay": rows.to_json(), "arena": duel.to_json(),
        "rows_per_hand": rows.rows / rows.hands if rows.hands else None,
        "bytes_per_row": per_row, "selfplay_over_baseline_cpu": (
            rows.cpu_rate(rows.hands) / base.cpu_rate(base.hands) if base.hands else None),
        "cluster_selfplay_hands_per_hour": rows.cpu_rate(rows.hands) * hour,
        "cluster_selfplay_rows_per_hour": rows.cpu_rate(rows.rows) * hour,
        "cluster_selfplay_gb_per_hour": rows.cpu_rate(rows.bytes) * hour / 1e9,
        "cluster_arena_hands_per_hour": duel.cpu_rate(duel.hands) * hour,
        "bytes_per_million_rows": per_row * 1e6,
        "min_cpu_share": min(t.cpu_s / t.elapsed_s for t in (base, rows, duel)),
    }


def _names(text: str) -> list[str]:
    return [b.strip() for b in text.split(",") if b.strip()]


def main() -> None:
    """Run the loops of each preset and print the figures side by side."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", default="classic,modern-american",
                        help="presets of any family, comma-separated (default "
                             "classic,modern-american)")
    parser.add_argument("--bots", default="medium",
                        help="self-play bots or levels, comma-separated (default medium)")
    parser.add_argument("--opponent", default="easy",
                        help="the arena's opponent of the first bot (default easy)")
    parser.add_argument("--arena-hands", type=int, default=100,
                        help="at most this many hands in each arena game (default 100: whole "
                             "games)")
    parser.add_argument("--seconds", type=float, default=20.0, help="per loop (default 20)")
    parser.add_argument("--shard-hands", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cpu", type=int, default=0, help="the CPU to pin to (default 0)")
    parser.add_argument("--cores", type=int, default=100,
                        help="cluster size for the extrapolation (default 100)")
    parser.add_argument("--json", action="store_true", help="one line of JSON")
    args = parser.parse_args()
    args.bots = _names(args.bots)
    presets = _names(args.rules)
    unknown = [p for p in presets if p not in preset_names()]
    if unknown or not presets:
        parser.error(f"--rules: {', '.join(unknown) or 'none'} not among "
                     f"{', '.join(preset_names())}")
    pinned = hasattr(os, "sched_setaffinity")
    if pinned:
        os.sched_setaffinity(0, {args.cpu})
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else None

    measured = {preset: measure(args, preset) for preset in presets}
    report: dict[str, Any] = {
        "seconds": args.seconds, "cpu": args.cpu if pinned else None,
        "load_average_1min": load, "cpu_count": os.cpu_count(), "cores": args.cores,
        "presets": list(measured)}
    first = measured[presets[0]]
    report.update(first)  # the first preset's figures at the top, as before
    report.update(measured)
    if args.json:
        print(json.dumps(report))
        return
    where = f"one core (pinned to CPU {args.cpu})" if pinned else "one process"
    busy = "" if load is None else f"; load average {load:.1f} on {os.cpu_count()} CPUs"
    print(f"{args.seconds:g} s a loop on {where}{busy}; each preset against its own "
          "baseline")
    print("  rates per CPU second (in brackets: per wall second, and the CPU share)")
    print_side_by_side(list(measured.values()), args.cores)
    if min(m["min_cpu_share"] for m in measured.values()) < BUSY_SHARE:
        print("  note: a loop got well under a whole core (a busy machine): per-wall-second "
              "figures are low by about that share")


def print_side_by_side(families: list[dict[str, Any]], cores: int) -> None:
    """One column per preset, one row per figure."""
    width = 46

    def row(label: str, cells: list[str]) -> None:
        print(f"  {label:27}" + "".join(f"{c:<{width}}" for c in cells).rstrip())

    def loop(t: dict[str, Any]) -> str:
        rows = f", {t['rows_per_cpu_s']:,.0f} rows" if t["rows"] else ""
        return (f"{t['hands_per_cpu_s']:.1f} hands{rows} ({t['hands_per_s']:.1f}, "
                f"{t['cpu_share']:.0%})")

    row("", [f"{f['rules']}: {', '.join(f['bots'])} (arena v {f['opponent']})"
             for f in families])
    row("baseline (play only)", [loop(f["baseline"]) for f in families])
    row("selfplay (rows + Parquet)", [loop(f["selfplay"]) for f in families])
    row("arena", [loop(f["arena"]) for f in families])
    row("selfplay / baseline", [f"{f['selfplay_over_baseline_cpu']:.2f} (hands per CPU s)"
                                for f in families])
    row("rows a hand, bytes a row", [f"{f['rows_per_hand']:.0f} rows, {f['bytes_per_row']:.1f} B"
                                     for f in families])
    row(f"{cores} cores, selfplay/h", [
        f"{f['cluster_selfplay_hands_per_hour'] / 1e6:,.2f} M hands, "
        f"{f['cluster_selfplay_rows_per_hour'] / 1e9:,.2f} G rows, "
        f"{f['cluster_selfplay_gb_per_hour']:.1f} GB" for f in families])
    row(f"{cores} cores, arena/h", [
        f"{f['cluster_arena_hands_per_hour'] / 1e6:,.2f} M hands" for f in families])
    row("MB per million rows", [f"{f['bytes_per_million_rows'] / 1e6:.0f}" for f in families])


if __name__ == "__main__":
    main()
