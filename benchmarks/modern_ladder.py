"""The Modern American bots on a ladder: each pairing plays duplicate deals with seats rotated.

For every deal (a seeded pack and dealer) a pairing plays the hand twice, the bots swapping
sides, and the deal's figure is the first bot's side score minus the other's, averaged over the
two plays: the luck of the cards cancels out. Reports per pairing the mean points per hand for
the first bot with a 95% interval (normal approximation over deals) and the hands won.

Usage::

    python benchmarks/modern_ladder.py --deals 200
    python benchmarks/modern_ladder.py --deals 20 --json
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence

from canasta.arena import modern

LADDER = (("modern-greedy", "modern-random"), ("modern-heuristic", "modern-greedy"),
          ("modern-heuristic", "modern-random"))


def pairing(first: str, second: str, deals: int, seed: int) -> dict[str, object]:
    """``first`` against ``second`` over ``deals`` duplicate deals, with the CPU time."""
    start = time.process_time()
    row = modern.pairing(first, second, deals, seed)
    return {"first": first, "second": second, "deals": deals,
            "points_per_hand": round(row.points_per_hand, 1),
            "interval_95": [round(row.low, 1), round(row.high, 1)],
            "hands_won": row.first_won, "hands": row.hands,
            "cpu_s": round(time.process_time() - start, 1)}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=200, help="duplicate deals per pairing")
    parser.add_argument("--seed", type=int, default=0, help="seed of the deals")
    parser.add_argument("--json", action="store_true", help="one line of JSON per pairing")
    parser.add_argument("--pair", nargs=2, metavar=("FIRST", "SECOND"),
                        help="play this pairing of bot specs only, e.g. modern-heuristic "
                        "modern-heuristic:shed_held=0 (the first version, the baseline)")
    args = parser.parse_args(argv)
    for first, second in [tuple(args.pair)] if args.pair else LADDER:
        row = pairing(first, second, args.deals, args.seed)
        if args.json:
            print(json.dumps(row))
        else:
            low, high = row["interval_95"]  # type: ignore[misc]
            print(f"{first} vs {second}: {row['points_per_hand']:+.1f} points/hand "
                  f"[{low:+.1f}, {high:+.1f}] over {args.deals} duplicate deals, "
                  f"{row['hands_won']}/{row['hands']} hands won ({row['cpu_s']} CPU s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
