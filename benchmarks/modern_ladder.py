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
import math
import random
import sys
import time
from collections.abc import Sequence

from canasta.bots.modern import make_modern_bot
from canasta.modern_american.hand import shuffled_pack
from canasta.modern_american.play import apply, new_hand

LADDER = (("modern-greedy", "modern-random"), ("modern-heuristic", "modern-greedy"),
          ("modern-heuristic", "modern-random"))


def play(first: str, second: str, deck: list[int], dealer: int, seed: int) -> tuple[int, int]:
    """One hand: ``first`` on side 0 (seats 0, 2), ``second`` on side 1; the side totals."""
    bots = [make_modern_bot(first if seat % 2 == 0 else second, seed * 4 + seat)
            for seat in range(4)]
    h = new_hand(deck=deck, dealer=dealer)
    while h.end is None:
        h = apply(h, bots[h.to_move].choose(h))
    return h.end.sides[0].total, h.end.sides[1].total


def pairing(first: str, second: str, deals: int, seed: int) -> dict[str, object]:
    """``first`` against ``second`` over ``deals`` duplicate deals."""
    rng = random.Random(seed)
    diffs = []
    won = 0
    start = time.process_time()
    for i in range(deals):
        deck = shuffled_pack(seed=rng.getrandbits(63))
        dealer = i % 4
        a0, b1 = play(first, second, deck, dealer, i)
        b0, a1 = play(second, first, deck, dealer, i)
        diffs.append(((a0 - b1) + (a1 - b0)) / 2)
        won += (a0 > b1) + (a1 > b0)
    mean = sum(diffs) / len(diffs)
    sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / max(1, len(diffs) - 1))
    half = 1.96 * sd / math.sqrt(len(diffs))
    return {"first": first, "second": second, "deals": deals, "points_per_hand": round(mean, 1),
            "interval_95": [round(mean - half, 1), round(mean + half, 1)],
            "hands_won": won, "hands": 2 * deals, "cpu_s": round(time.process_time() - start, 1)}


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
