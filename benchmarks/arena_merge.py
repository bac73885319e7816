"""Merge the ``--json`` files of several ``canasta arena`` runs of one pairing into one figure.

A long run of a slow bot can be played as many short runs with consecutive seeds (each one
stops cleanly, so a run cut short loses only its last piece, and pieces can run on different
machines). This script reads their ``games`` and computes what the arena prints for one run:
A's points per hand over the hands dealt in duplicate pairs, with the Student-t 95% interval
over duplicate-pair means (the arena's own statistics), and the games A won.

Usage::

    for s in $(seq 1000 1019); do
        canasta arena --rules classic --bots 'ismcts:iterations=400,seconds=1' heuristic \\
            --hands 20 --seed $s --json run-$s.json
    done
    python benchmarks/arena_merge.py run-*.json
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from canasta.arena.stats import mean_ci, wilson


def pair_means(report: dict[str, Any]) -> tuple[list[float], int, int]:
    """One run's duplicate-pair means of A's difference, its finished games and A's wins."""
    twins: dict[tuple[int, int], dict[int, list[float]]] = defaultdict(dict)
    games = wins = 0
    for game in report["games"]:
        diffs = [h["diff"] for h in game["hands"] if h["paired"]]
        twins[(game["pairing"], game["game_pair"])][game["twin"]] = diffs
        if game["winner"] is not None:
            games += 1
            wins += int(game["a_won"])
    means = []
    for pair in twins.values():
        first, second = pair.get(0, []), pair.get(1, [])
        means += [(x + y) / 2.0 for x, y in zip(first, second)]
    return means, games, wins


def merge(paths: Sequence[Path]) -> dict[str, Any]:
    """The merged figures of the runs in ``paths`` (one pairing, the same rules)."""
    means: list[float] = []
    games = wins = 0
    names: set[tuple[str, str]] = set()
    seeds = []
    for path in paths:
        report = json.loads(path.read_text())
        names |= {(p["a"], p["b"]) for p in report["pairings"]}
        seeds.append(report["seed"])
        m, g, w = pair_means(report)
        means += m
        games += g
        wins += w
    if len(names) != 1:
        raise ValueError(f"the runs hold more than one pairing: {sorted(names)}")
    (a, b), = names
    ci = mean_ci(means)
    if ci.mean is None or ci.low is None or ci.high is None:
        raise ValueError("fewer than two duplicate pairs")
    low, high = wilson(wins, games) if games else (0.0, 0.0)
    return {"a": a, "b": b, "runs": len(paths), "seeds": sorted(seeds), "hands": 2 * len(means),
            "pairs": len(means), "points_per_hand": ci.mean, "ci95": [ci.low, ci.high],
            "games": games, "wins": wins, "win_rate_ci95": [low, high]}


def main(argv: Sequence[str] | None = None) -> int:
    """Print the merged figures; return the exit status."""
    parser = argparse.ArgumentParser(description="Merge canasta arena --json runs of one "
                                                 "pairing: points per hand with the 95% "
                                                 "interval over all their duplicate pairs.")
    parser.add_argument("files", nargs="+", type=Path, help="arena --json files")
    parser.add_argument("--json", action="store_true", help="print one line of JSON")
    args = parser.parse_args(argv)
    try:
        out = merge(args.files)
    except (OSError, ValueError, KeyError) as e:
        parser.error(f"cannot merge: {e}")
    if args.json:
        print(json.dumps(out))
        return 0
    seeds = out["seeds"]
    print(f"{out['a']} vs {out['b']}: {out['runs']} runs (seeds {seeds[0]}..{seeds[-1]}), "
          f"{out['hands']} hands in {out['pairs']} duplicate pairs")
    print(f"  points per hand {out['points_per_hand']:+.0f} "
          f"[{out['ci95'][0]:+.0f}, {out['ci95'][1]:+.0f}] (95%, Student-t over pairs)")
    if out["games"]:
        lo, hi = out["win_rate_ci95"]
        print(f"  games won {out['wins']}/{out['games']} "
              f"({100 * out['wins'] / out['games']:.0f}%, 95% {100 * lo:.0f}-{100 * hi:.0f}%)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
