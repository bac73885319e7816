"""Random-playout throughput of every family beside classic, in the same run.

Plays whole hands with uniformly random legal actions, for ``--seconds`` each: hands of each
registered family's default preset (the baseline is ``classic``), all driven the same way,
through the top-level API (``canasta.new_hand``, ``canasta.legal_actions``, ``canasta.apply``,
which reach each family through the family protocol), alternating in slices of a second so that
every family sees the same machine. Reports hands/s, decisions/s and decisions per hand by CPU
time, and each family's hands and decisions per CPU second as a share of classic's.

Usage::

    python benchmarks/family_playout.py --seconds 10
    python benchmarks/family_playout.py --seconds 2 --json
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass

import canasta


@dataclass
class Tally:
    """Hands and decisions played, with the CPU seconds they took."""

    hands: int = 0
    decisions: int = 0
    cpu: float = 0.0

    def as_json(self) -> dict[str, float]:
        cpu = self.cpu or 1e-9
        return {"hands": self.hands, "decisions": self.decisions, "cpu_s": round(self.cpu, 3),
                "hands_per_cpu_s": round(self.hands / cpu, 1),
                "decisions_per_cpu_s": round(self.decisions / cpu),
                "decisions_per_hand": round(self.decisions / max(1, self.hands), 1)}


def play_hand(rules: canasta.Rules, seed: int) -> int:
    """One random hand of ``rules``; its decisions."""
    choice = random.Random(seed).choice
    state = canasta.new_hand(rules, seed=seed)
    n = 0
    while not state.is_over:
        state = canasta.apply(state, choice(canasta.legal_actions(state)))
        n += 1
    return n


FAMILIES = tuple(family.name for family in canasta.families())
"""The presets played (each family's default), the baseline ``classic`` first."""


def run(seconds: float, seed: int) -> dict[str, Tally]:
    """Both families for ``seconds`` each, in alternating one-second slices."""
    rules = {name: canasta.get_rules(name) for name in FAMILIES}
    tallies = {name: Tally() for name in FAMILIES}
    rng = random.Random(seed)
    for name in FAMILIES:  # warm up
        play_hand(rules[name], rng.getrandbits(32))
    while min(t.cpu for t in tallies.values()) < seconds:
        for name in FAMILIES:
            tally = tallies[name]
            start = time.process_time()
            while time.process_time() - start < min(1.0, seconds):
                tally.decisions += play_hand(rules[name], rng.getrandbits(32))
                tally.hands += 1
            tally.cpu += time.process_time() - start
    return tallies


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=10.0,
                        help="CPU seconds for each family (default: 10)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the deals and choices")
    parser.add_argument("--json", action="store_true", help="print one line of JSON")
    args = parser.parse_args(argv)
    tallies = run(args.seconds, args.seed)
    report = {name: t.as_json() for name, t in tallies.items()}
    classic = tallies["classic"]
    ratios = {name: (t.hands / t.cpu) / (classic.hands / classic.cpu)
              for name, t in tallies.items() if name != "classic"}
    per_decision = {name: (t.decisions / t.cpu) / (classic.decisions / classic.cpu)
                    for name, t in tallies.items() if name != "classic"}
    report["ratio_hands_per_cpu_s"] = {f"{name} / classic": round(r, 3)
                                       for name, r in ratios.items()}
    report["ratio_decisions_per_cpu_s"] = {f"{name} / classic": round(r, 3)
                                           for name, r in per_decision.items()}
    report["build"] = "compiled" if canasta.COMPILED else "pure"
    if args.json:
        print(json.dumps(report))
        return 0
    print(f"random playout, {report['build']} build, {args.seconds:g} CPU s per family")
    for name, tally in tallies.items():
        row = tally.as_json()
        print(f"  {name:16} {row['hands_per_cpu_s']:8.1f} hands/CPU s  "
              f"{row['decisions_per_cpu_s']:8} decisions/CPU s  "
              f"{row['decisions_per_hand']:6.1f} decisions/hand  ({tally.hands} hands)")
    for name, ratio in ratios.items():
        print(f"  {name} ÷ classic: {ratio:.2f} hands, {per_decision[name]:.2f} decisions "
              "per CPU second")
    return 0


if __name__ == "__main__":
    sys.exit(main())
