"""Profile the canasta random playout of ``random_playout.py`` to guide optimisation.

Runs the same playout (all legal actions listed at every decision, a seeded uniform choice,
apply) under :mod:`cProfile` for a number of seconds, then prints the functions that take the
most time of their own (``tottime``) and the most time including their callees (``cumtime``).
Profiling slows the engine several times over, so read the shares, not the rates.

Usage::

    python benchmarks/profile_playout.py --rules classic --seconds 5 --top 15
    python benchmarks/profile_playout.py --save /tmp/playout.prof   # for snakeviz and the like
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import random
import sys
from collections.abc import Sequence
from pathlib import Path

import canasta

sys.path.insert(0, str(Path(__file__).resolve().parent))

from random_playout import add_playout_options, canasta_playout, pin_to_cpu, play_hand


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    """The command-line options."""
    parser = argparse.ArgumentParser(
        description="Profile the canasta random playout under cProfile.")
    add_playout_options(parser, seconds=5.0, what="profiled seconds")
    parser.add_argument("--top", type=int, default=15,
                        help="how many functions to list in each table (default: 15)")
    parser.add_argument("--callers", type=int, default=3,
                        help="also list who calls the first N functions by own time, to place "
                             "built-ins such as tuple.__new__ (default: 3; 0 for none)")
    parser.add_argument("--save", type=Path, default=None,
                        help="also write the raw profile to this file (pstats format)")
    args = parser.parse_args(argv)
    if args.seconds <= 0:
        parser.error("--seconds must be positive")
    return args


def top_table(stats: pstats.Stats, sort: str, top: int, callers: bool = False) -> str:
    """The first ``top`` rows of ``stats`` by ``sort`` (or their callers), as pstats prints."""
    out = io.StringIO()
    stats.stream = out  # type: ignore[attr-defined]
    stats.sort_stats(sort)
    if callers:
        stats.print_callers(top)
    else:
        stats.print_stats(top)
    lines = out.getvalue().splitlines()
    # Drop pstats' preamble (totals, "Ordered by", "List reduced"); keep the table.
    head = "Function" if callers else "ncalls"
    start = next((i for i, line in enumerate(lines) if line.lstrip().startswith(head)), 0)
    return "\n".join(lines[start:]).rstrip()


def main(argv: Sequence[str] | None = None) -> int:
    """Run the profile; return the exit status."""
    args = parse_args(argv)
    try:
        pinned = pin_to_cpu(args.cpu)
    except ValueError as exc:
        print(f"profile_playout: {exc}", file=sys.stderr)
        return 2
    rules = canasta.get_rules(args.rules)
    play_hand(rules, random.Random(args.seed).getrandbits(64), 0)  # warm-up, outside the profile

    profiler = cProfile.Profile()
    profiler.enable()
    run = canasta_playout(rules, args.seconds, random.Random(args.seed))
    profiler.disable()

    where = f"pinned to CPU {args.cpu}" if pinned else "not pinned"
    print(f"canasta random playout under cProfile: rules {args.rules}, {run.elapsed_s:.1f} s, "
          f"seed {args.seed}, {where}")
    print(f"{run.units:,} hands, {run.decisions:,} decisions, "
          f"{run.decisions_per_unit:.1f} decisions/hand "
          f"({run.decisions_per_s:,.0f} decisions/s with the profiler's overhead)")
    if args.save is not None:
        profiler.dump_stats(args.save)
        print(f"raw profile written to {args.save}")
    stats = pstats.Stats(profiler)
    stats.strip_dirs()
    print(f"\ntotal profiled time {stats.total_tt:.2f} s")  # type: ignore[attr-defined]
    print(f"\ntop {args.top} functions by own time (tottime):")
    print(top_table(stats, "tottime", args.top))
    print(f"\ntop {args.top} functions by cumulative time (cumtime):")
    print(top_table(stats, "cumulative", args.top))
    if args.callers > 0:
        print(f"\ncallers of the first {args.callers} functions by own time:")
        print(top_table(stats, "tottime", args.callers, callers=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
