"""What the bots and the arena get from the engine's speed, on one core.

Two figures, each from a fixed amount of work so that runs compare:

* **ISMCTS iterations per second**: ``ismcts:iterations=N`` chooses at the decisions of seeded
  random hands (the play phase with a choice to make); iterations over the time spent choosing.
* **arena hands per second**: duplicate game pairs of ``heuristic`` against ``greedy``
  (:func:`canasta.arena.play_game_pair`, one process), hands played over the time taken.

Like ``random_playout.py`` it pins itself to one CPU, reports the build that runs, and with
``--also COMMAND`` repeats the measure with another interpreter (another build) in the same
run. Usage::

    .venv/bin/python benchmarks/bots_speed.py --also .venv-compiled/bin/python
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import canasta
from canasta.arena import GamePairTask, play_game_pair
from canasta.bots import make_bot

sys.path.insert(0, str(Path(__file__).resolve().parent))

from random_playout import build_name, pin_to_cpu


def ismcts_decisions(rules: canasta.Rules, count: int, seed: int) -> list[canasta.State]:
    """``count`` play-phase states with at least two legal actions, from seeded random hands."""
    states: list[canasta.State] = []
    hand = 0
    while len(states) < count:
        rng = random.Random(seed + hand)
        state = canasta.new_hand(rules, seed=seed + hand, dealer=hand % rules.num_players)
        while not state.is_over and len(states) < count:
            legal = canasta.legal_actions(state)
            if state.phase == "play" and len(legal) > 1 and rng.random() < 0.2:
                states.append(state)
            state = canasta.apply(state, rng.choice(legal))
        hand += 1
    return states


def ismcts_speed(rules: canasta.Rules, iterations: int, decisions: int,
                 seed: int) -> dict[str, float]:
    """Iterations per second of ``ismcts:iterations=N`` over ``decisions`` decisions."""
    states = ismcts_decisions(rules, decisions, seed)
    bot = make_bot(f"ismcts:iterations={iterations}")
    rng = random.Random(seed)
    wall = cpu = 0.0
    for state in states:
        obs = canasta.observe(state, state.to_move)
        legal = canasta.legal_actions(state)
        t0, c0 = time.perf_counter(), time.process_time()
        bot.choose(obs, legal, rng)
        wall += time.perf_counter() - t0
        cpu += time.process_time() - c0
    done = iterations * len(states)
    return {"decisions": len(states), "iterations": done, "elapsed_s": round(wall, 3),
            "iterations_per_s": round(done / wall, 1),
            "iterations_per_cpu_s": round(done / cpu, 1) if cpu else 0.0}


def arena_speed(rules: canasta.Rules, pairs: int, seed: int) -> dict[str, float]:
    """Hands per second of ``pairs`` duplicate game pairs, heuristic against greedy."""
    hands = 0
    t0, c0 = time.perf_counter(), time.process_time()
    for game_pair in range(pairs):
        result = play_game_pair(GamePairTask(rules, "heuristic", "greedy", 0, game_pair, seed))
        hands += sum(len(twin.hands) for twin in result.twins)
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    return {"game_pairs": pairs, "hands": hands, "elapsed_s": round(wall, 3),
            "hands_per_s": round(hands / wall, 2),
            "hands_per_cpu_s": round(hands / cpu, 2) if cpu else 0.0}


def measure(args: argparse.Namespace) -> dict[str, Any]:
    """Both figures for this interpreter."""
    rules = canasta.get_rules(args.rules)
    return {"compiled": getattr(canasta, "COMPILED", False), "rules": args.rules,
            "ismcts": ismcts_speed(rules, args.iterations, args.decisions, args.seed),
            "arena": arena_speed(rules, args.game_pairs, args.seed)}


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    """The command-line options."""
    parser = argparse.ArgumentParser(description="ISMCTS iterations/s and arena hands/s "
                                                 "(heuristic vs greedy) on one core.")
    parser.add_argument("--rules", default="classic", choices=sorted(canasta.PRESETS))
    parser.add_argument("--iterations", type=int, default=200,
                        help="ISMCTS iterations per decision (default: 200)")
    parser.add_argument("--decisions", type=int, default=20,
                        help="ISMCTS decisions timed (default: 20)")
    parser.add_argument("--game-pairs", type=int, default=2,
                        help="arena duplicate game pairs played (default: 2)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--cpu", type=int, default=0, help="the CPU to pin to (default: 0)")
    parser.add_argument("--also", action="append", default=[], metavar="PYTHON",
                        help="also measure with this interpreter (another build); repeatable")
    parser.add_argument("--json", action="store_true", help="one line of JSON")
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the measures; return the exit status."""
    args = parse_args(argv)
    try:
        pin_to_cpu(args.cpu)
    except ValueError as exc:
        print(f"bots_speed: {exc}", file=sys.stderr)
        return 2
    reports = [measure(args)]
    for python in args.also:
        cmd = [python, __file__, "--rules", args.rules, "--iterations", str(args.iterations),
               "--decisions", str(args.decisions), "--game-pairs", str(args.game_pairs),
               "--seed", str(args.seed), "--cpu", str(args.cpu), "--json"]
        done = subprocess.run(cmd, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            print(f"bots_speed: {python} failed: {done.stderr.strip()[-500:]}", file=sys.stderr)
            return 2
        reports.append({**json.loads(done.stdout)[0], "command": python})
    if args.json:
        print(json.dumps(reports))
        return 0
    print(f"bots on one core (CPU {args.cpu}), rules {args.rules}, seed {args.seed}")
    for report in reports:
        where = report.get("command", "this interpreter")
        ism, arena = report["ismcts"], report["arena"]
        print(f"canasta, {build_name(report['compiled'])} ({where})")
        print(f"  ismcts iterations/s       {ism['iterations_per_s']:>12,.0f}   "
              f"({ism['iterations']:,} iterations, {ism['decisions']} decisions; per CPU "
              f"second {ism['iterations_per_cpu_s']:,.0f})")
        print(f"  arena hands/s             {arena['hands_per_s']:>12,.1f}   "
              f"(heuristic vs greedy, {arena['hands']} hands; per CPU second "
              f"{arena['hands_per_cpu_s']:,.1f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
