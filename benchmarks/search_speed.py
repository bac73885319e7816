"""Search speed of the ``ismcts`` bot: iterations (simulated deals) per second.

Collects the searched decisions of seeded hands (four heuristic bots play; every decision where
the search bot would search is kept), then times the search bot on them with a fixed iteration
budget, in one process on one core. It reports iterations per CPU second and per wall-clock
second, and the milliseconds a decision takes, for each spec given, so that a change (a cheaper
determinization, a faster play-out policy) is measured against a named baseline in the same run.

Usage::

    python benchmarks/search_speed.py --rules classic --positions 40 --iterations 100
    python benchmarks/search_speed.py --specs 'ismcts:model=0' 'ismcts' --json
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Sequence
from typing import Any

from canasta.actions import Action
from canasta.bots import BotSpecError, make_bot
from canasta.bots.heuristic import alternatives
from canasta.bots.ismcts import ISMCTSBot
from canasta.deal import new_hand
from canasta.engine import apply
from canasta.legal import legal_actions
from canasta.observation import Observation, observe
from canasta.rules import PRESETS, Rules, get_rules

DEFAULT_SPECS = ("ismcts:model=0", "ismcts")
"""The baseline first (deals dealt uniformly), then the default search bot."""


def searched_positions(rules: Rules, count: int, seed: int) -> list[tuple[Observation,
                                                                         list[Action]]]:
    """``count`` decisions of seeded heuristic hands where the search bot would search."""
    out: list[tuple[Observation, list[Action]]] = []
    hand = 0
    while len(out) < count:
        state = new_hand(rules, seed=seed + hand, dealer=hand % rules.num_players)
        bots = [make_bot("heuristic") for _ in range(rules.num_players)]
        step = 0
        while not state.is_over and len(out) < count:
            seat = state.to_move
            legal = legal_actions(state)
            obs = observe(state, seat)
            if step % 3 == 0 and len(alternatives(obs, legal, margin=120.0)) > 1:
                out.append((obs, legal))
            state = apply(state, bots[seat].choose(obs, legal, random.Random(step)))
            step += 1
        hand += 1
    return out


def time_search(spec: str, positions: list[tuple[Observation, list[Action]]],
                iterations: int) -> dict[str, float]:
    """Time ``spec`` with ``iterations`` per decision over ``positions``."""
    bot = make_bot(f"{spec}{',' if ':' in spec else ':'}iterations={iterations}")
    assert isinstance(bot, ISMCTSBot)
    done = 0
    wall = time.perf_counter()
    cpu = time.process_time()
    for i, (obs, legal) in enumerate(positions):
        _, stats = bot.search(obs, legal, random.Random(i))
        done += sum(n for _, n, _ in stats) if bot.mode == "tree" else (
            stats[0][1] * len(stats) if stats else 0)
    wall = time.perf_counter() - wall
    cpu = time.process_time() - cpu
    return {"iterations": done, "cpu_s": cpu, "wall_s": wall,
            "iterations_per_cpu_s": done / cpu if cpu else 0.0,
            "iterations_per_s": done / wall if wall else 0.0,
            "ms_per_decision": 1000.0 * wall / max(1, len(positions))}


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    """The command-line options."""
    parser = argparse.ArgumentParser(
        description="Iterations per second of the ismcts search bot on seeded decisions, "
                    "for each spec (the first is the baseline).")
    parser.add_argument("--rules", default="classic", choices=sorted(PRESETS))
    parser.add_argument("--positions", type=int, default=40,
                        help="searched decisions to time (default: 40)")
    parser.add_argument("--iterations", type=int, default=100,
                        help="iterations per decision (default: 100)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the hands (default: 0)")
    parser.add_argument("--specs", nargs="+", default=list(DEFAULT_SPECS),
                        help="ismcts specs to time, baseline first "
                             f"(default: {' '.join(DEFAULT_SPECS)})")
    parser.add_argument("--json", action="store_true", help="print one line of JSON")
    args = parser.parse_args(argv)
    if args.positions < 1 or args.iterations < 1:
        parser.error("--positions and --iterations must be at least 1")
    for spec in args.specs:
        try:
            bot = make_bot(spec)
        except BotSpecError as e:
            parser.error(str(e))
        if not isinstance(bot, ISMCTSBot):
            parser.error(f"{spec!r} is not a search bot")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    """Run the timing; return the exit status."""
    args = parse_args(argv)
    rules = get_rules(args.rules)
    positions = searched_positions(rules, args.positions, args.seed)
    results = {spec: time_search(spec, positions, args.iterations) for spec in args.specs}
    if args.json:
        out: dict[str, Any] = {"rules": rules.name, "positions": len(positions),
                               "iterations": args.iterations, "specs": results}
        print(json.dumps(out))
        return 0
    base = results[args.specs[0]]["iterations_per_cpu_s"]
    print(f"search speed: {rules.name}, {len(positions)} searched decisions, "
          f"{args.iterations} iterations each, one process")
    for spec, r in results.items():
        ratio = r["iterations_per_cpu_s"] / base if base else 0.0
        print(f"  {spec:<24} {r['iterations_per_cpu_s']:7.0f} iterations per CPU second "
              f"({r['iterations_per_s']:.0f} per wall second, {r['ms_per_decision']:.0f} ms a "
              f"decision; x{ratio:.2f} the baseline)")
    print("CPU seconds are the steadier figure on a busy machine; the first spec is the "
          "baseline.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
