"""The Modern American bots on a ladder: each pairing plays duplicate deals with seats rotated.

For every deal (a seeded pack and dealer) a pairing plays the hand twice, the bots swapping
sides, and the deal's figure is the first bot's side score minus the other's, averaged over the
two plays: the luck of the cards cancels out. Reports per pairing the mean points per hand for
the first bot with a 95% interval (normal approximation over deals) and the hands won.

Usage::

    python benchmarks/modern_ladder.py --deals 200
    python benchmarks/modern_ladder.py --deals 20 --json
    python benchmarks/modern_ladder.py --pair modern-search modern-heuristic --deals 200 \
        --seed 6 --log /tmp/search.jsonl
    python benchmarks/modern_ladder.py --summarise /tmp/search.jsonl

``--log`` writes each deal's figures as a line of JSON as soon as it is played, so a long run
stopped early still gives its figures (``--summarise``, over the deals played).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from canasta.arena import modern
from canasta.bots.modern import make_modern_bot

LADDER = (("modern-greedy", "modern-random"), ("modern-heuristic", "modern-greedy"),
          ("modern-heuristic", "modern-random"))


def pairing(first: str, second: str, deals: int, seed: int, log: Path | None = None
            ) -> dict[str, object]:
    """``first`` against ``second`` over ``deals`` duplicate deals, with the CPU time; each
    deal appended to ``log`` as it is played."""
    start = time.process_time()
    if log is None:
        row = modern.pairing(first, second, deals, seed)
    else:
        for spec in (first, second):  # a bad spec fails before any play
            make_modern_bot(spec)
        results = []
        with log.open("a") as out:
            for task in modern.deal_tasks(first, second, deals, seed):
                result = modern.play_deal(task)
                results.append(result)
                out.write(json.dumps({"first": first, "second": second, "seed": seed,
                                      "deal": task.deal, "first_at_0": result.first_at_0,
                                      "second_at_0": result.second_at_0,
                                      "cpu_s": round(time.process_time() - start, 1)}) + "\n")
                out.flush()
        row = modern.summarise(first, second, results)
    return _row(row, time.process_time() - start)


def _row(row: modern.Pairing, cpu_s: float) -> dict[str, object]:
    return {"first": row.first, "second": row.second, "deals": row.deals,
            "points_per_hand": round(row.points_per_hand, 1),
            "interval_95": [round(row.low, 1), round(row.high, 1)],
            "hands_won": row.first_won, "hands": row.hands, "cpu_s": round(cpu_s, 1)}


def summarise(log: Path) -> list[dict[str, object]]:
    """The figures of the deals in ``log`` (``--log``), by pairing and seed."""
    by: dict[tuple[str, str, int], list[modern.DealResult]] = {}
    cpu: dict[tuple[str, str, int], float] = {}
    for line in log.read_text().splitlines():
        d = json.loads(line)
        key = (d["first"], d["second"], d["seed"])
        by.setdefault(key, []).append(modern.DealResult(
            0, d["deal"], tuple(d["first_at_0"]), tuple(d["second_at_0"])))
        cpu[key] = d["cpu_s"]
    return [_row(modern.summarise(first, second, rows), cpu[(first, second, seed)])
            | {"seed": seed} for (first, second, seed), rows in by.items()]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=200, help="duplicate deals per pairing")
    parser.add_argument("--seed", type=int, default=0, help="seed of the deals")
    parser.add_argument("--json", action="store_true", help="one line of JSON per pairing")
    parser.add_argument("--pair", nargs=2, metavar=("FIRST", "SECOND"),
                        help="play this pairing of bot specs only, e.g. modern-heuristic "
                        "modern-heuristic:shed_held=0 (the first version, the baseline)")
    parser.add_argument("--log", type=Path, metavar="FILE",
                        help="append each deal's figures to FILE (JSON lines) as it is played")
    parser.add_argument("--summarise", type=Path, metavar="FILE",
                        help="print the figures of the deals logged in FILE, and play nothing")
    args = parser.parse_args(argv)
    if args.summarise:
        rows = summarise(args.summarise)
    else:
        rows = [pairing(first, second, args.deals, args.seed, args.log)
                for first, second in ([tuple(args.pair)] if args.pair else LADDER)]
    for row in rows:
        if args.json:
            print(json.dumps(row))
        else:
            low, high = row["interval_95"]  # type: ignore[misc]
            print(f"{row['first']} vs {row['second']}: {row['points_per_hand']:+.1f} "
                  f"points/hand [{low:+.1f}, {high:+.1f}] over {row['deals']} duplicate "
                  f"deals, {row['hands_won']}/{row['hands']} hands won ({row['cpu_s']} CPU s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
