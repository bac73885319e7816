"""Tune the heuristic's weights by self-play with SPSA (BOTS.md §3.3), on duplicate deals.

Simultaneous-perturbation stochastic approximation (Spall), as chess engines tune theirs:
each iteration moves every chosen weight at once by plus or minus ``c_k`` of its range (a
random sign each), plays the two settings against each other on fresh duplicate deals (the
arena's game pairs) and steps the weights along the estimated slope of the points per hand,
by ``a_k``: ``a_k = a / (k + 1 + A) ** 0.602`` and ``c_k = c / (k + 1) ** 0.101``, where ``a``
is set so that the first step moves a weight by ``--step`` of its range for a 100-point
difference.

With ``--opponents`` the two settings do not play each other: each plays every bot named there
on the same deals, and the slope is the difference of their points per hand (the weights are
tuned against those bots, as a club tunes its play against the players it meets).

A tuner's figures are not a measure: a weight drifts by chance where its slope is flat. So at
the end the tuned weights play the starting ones, and with ``--yardstick`` each of the two
plays that bot, on deals the tuning never saw (``--check-hands`` each); the report gives the
points per hand with their 95% intervals, and the spec of the tuned weights to paste into
``canasta arena --bots``.

Usage::

    python benchmarks/spsa_tune.py --rules classic --iterations 400 --hands 2000 --jobs 2 \\
        --seed 1 --check-hands 10000 --yardstick heuristic-v2 --json tune.json
    python benchmarks/spsa_tune.py --weights 'keep_pair=10:80,danger=2:14' --iterations 50
    python benchmarks/spsa_tune.py --rules korean-old --opponents heuristic-v1,heuristic-v2
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import random
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from canasta import COMPILED
from canasta.arena.schedule import derive_seed
from canasta.arena.tournament import ArenaConfig, PairingStats, ProcessPool, run_arena
from canasta.bots import make_bot
from canasta.bots.weights import DEFAULT_WEIGHTS, PRESET_WEIGHTS, HeuristicWeights
from canasta.rules import Rules, get_rules

RANGES: dict[str, tuple[float, float]] = {
    "take_base": (0.0, 120.0),
    "take_per_card": (20.0, 120.0),
    "take_wild_cost": (40.0, 200.0),
    "layoff_value": (-90.0, 30.0),
    "new_meld_value": (-90.0, 30.0),
    "meld_threat": (100.0, 600.0),
    "fight_hold": (0.0, 6.0),
    "keep_wild": (150.0, 500.0),
    "keep_pair": (10.0, 80.0),
    "keep_single": (0.0, 40.0),
    "canasta_progress": (0.0, 90.0),
    "keep_black_three": (0.0, 40.0),
    "danger": (2.0, 14.0),
    "pile_per_card": (10.0, 80.0),
    "freeze_wild_worth": (120.0, 450.0),
    "aggression": (0.5, 4.0),
    "out_build": (30.0, 200.0),
    "answer_points": (20.0, 150.0),
}
"""The weights tuned by default, each with the range it may move in (its unit of step)."""

INTEGER_WEIGHTS = frozenset(f.name for f in dataclasses.fields(HeuristicWeights)
                            if f.type in ("int", int))


@dataclass(frozen=True)
class Tuned:
    """One weight under tuning: its name and range."""

    name: str
    low: float
    high: float

    def value(self, x: float) -> float:
        """The weight at ``x`` (0 to 1 along its range)."""
        v = self.low + min(1.0, max(0.0, x)) * (self.high - self.low)
        return float(round(v)) if self.name in INTEGER_WEIGHTS else v

    def position(self, value: float) -> float:
        """Where ``value`` lies along the range (0 to 1, clipped)."""
        return min(1.0, max(0.0, (value - self.low) / (self.high - self.low)))


def parse_weights(text: str | None) -> list[Tuned]:
    """The weights to tune: ``name=low:high,...``, or the default table; raises
    ``ValueError`` naming what is wrong."""
    if not text:
        return [Tuned(n, lo, hi) for n, (lo, hi) in RANGES.items()]
    known = {f.name for f in dataclasses.fields(HeuristicWeights)}
    out = []
    for item in text.split(","):
        name, _, span = item.partition("=")
        name = name.strip()
        if name not in known:
            raise ValueError(f"unknown weight {name!r} (weights: {', '.join(sorted(known))})")
        try:
            low, high = (float(v) for v in span.split(":"))
        except ValueError:
            raise ValueError(f"give a range as {name}=LOW:HIGH, not {item!r}") from None
        if not high > low:
            raise ValueError(f"the range of {name} must rise, not {span!r}")
        out.append(Tuned(name, low, high))
    return out


def spec_of(base: str, tuned: Sequence[Tuned], x: Sequence[float],
            fixed: dict[str, str] | None = None) -> str:
    """The bot spec of the weights at ``x`` and the ``fixed`` ones
    (``heuristic:name=value,...``)."""
    words = [f"{t.name}={t.value(v):.6g}" for t, v in zip(tuned, x)]
    words += [f"{name}={value}" for name, value in (fixed or {}).items()]
    return base + ":" + ",".join(words)


def start_of(tuned: Sequence[Tuned], start: str | None,
             weights: HeuristicWeights = DEFAULT_WEIGHTS
             ) -> tuple[list[Tuned], list[float], dict[str, str]]:
    """The starting point: the ranges (each widened to take in its starting value, so that the
    tuning starts where the bot plays), the starting positions along them (``weights``, the
    preset's own, overridden by ``start``, ``name=value,...``) and the overrides of weights not
    tuned, which stay as given; raises ``ValueError``."""
    params: dict[str, str] = {}
    for item in (start or "").split(","):
        if item.strip():
            name, eq, value = item.partition("=")
            if not eq:
                raise ValueError(f"give a starting weight as name=value, not {item!r}")
            params[name.strip()] = value.strip()
    weights = HeuristicWeights.from_params(params, weights)
    names = {t.name for t in tuned}
    fixed = {name: value for name, value in params.items() if name not in names}
    values = [float(getattr(weights, t.name)) for t in tuned]
    ranges = [Tuned(t.name, min(t.low, v), max(t.high, v)) for t, v in zip(tuned, values)]
    return ranges, [t.position(v) for t, v in zip(ranges, values)], fixed


def step(x: Sequence[float], delta: Sequence[float], diff: float, a_k: float, c_k: float
         ) -> list[float]:
    """The weights after one iteration: ``diff`` is what the settings ``x + c_k * delta`` scored
    against ``x - c_k * delta`` a hand, so each weight moves towards the side that won, by
    ``a_k`` times the slope, and stays in its range."""
    return [min(1.0, max(0.0, v + a_k * diff / (2.0 * c_k * d))) for v, d in zip(x, delta)]


def play(rules: Rules, a: str, b: str, hands: int, seed: int, pool: ProcessPool | None
         ) -> PairingStats:
    """``a`` against ``b`` over ``hands`` duplicate-paired hands (at least) of seed ``seed``."""
    config = ArenaConfig(rules=rules, bots=(a, b), hands=hands, seed=seed, bootstrap=0)
    return run_arena(config, pool=pool).pairings[0]


def slope(rules: Rules, plus: str, minus: str, opponents: Sequence[str], hands: int,
          seed: int, pool: ProcessPool | None) -> tuple[float, int]:
    """What ``plus`` scored over ``minus`` a hand, and the hands played: against each other,
    or (``opponents``) each against every opponent on the same deals, ``hands`` split among
    the matches."""
    if not opponents:
        stats = play(rules, plus, minus, hands, seed, pool)
        return stats.points_per_hand or 0.0, stats.hands
    each = max(1, hands // (2 * len(opponents)))
    diff, played = 0.0, 0
    for opponent in opponents:
        up = play(rules, plus, opponent, each, seed, pool)
        down = play(rules, minus, opponent, each, seed, pool)
        diff += ((up.points_per_hand or 0.0) - (down.points_per_hand or 0.0)) / len(opponents)
        played += up.hands + down.hands
    return diff, played


def figure(stats: PairingStats) -> str:
    """Points per hand with the 95% interval."""
    if stats.points_per_hand is None:
        return "no hands"
    low, high = stats.ci95 or (float("nan"), float("nan"))
    return f"{stats.points_per_hand:+.0f} [{low:+.0f}, {high:+.0f}] over {stats.hands} hands"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Tune the heuristic's weights by SPSA self-play on duplicate deals, then "
                    "check the tuned weights against the starting ones on fresh deals.")
    parser.add_argument("--rules", default="classic", help="preset (default classic)")
    parser.add_argument("--base", default="heuristic", help="bot name the weights belong to")
    parser.add_argument("--weights", help="weights to tune, name=LOW:HIGH,... (default: a table "
                        "of 18 weights)")
    parser.add_argument("--start", help="starting weights, name=value,... (default: the "
                        "defaults)")
    parser.add_argument("--iterations", type=int, default=200)
    parser.add_argument("--hands", type=int, default=2000,
                        help="hands an iteration plays (default 2000)")
    parser.add_argument("--c", type=float, default=0.1,
                        help="first perturbation, a share of each range (default 0.1)")
    parser.add_argument("--step", type=float, default=0.02,
                        help="first step for a 100-point difference, a share of each range")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--check-hands", type=int, default=0,
                        help="hands of the final check (0: none)")
    parser.add_argument("--yardstick", help="bot both settings also play in the final check")
    parser.add_argument("--opponents", help="bots, comma-separated, that each setting plays "
                        "instead of the other (default: self-play)")
    parser.add_argument("--json", type=Path, help="write every iteration and the check here")
    args = parser.parse_args(argv)
    if args.iterations < 0 or args.hands < 1 or args.jobs < 1:
        parser.error("--iterations must be 0 or more, --hands and --jobs 1 or more")

    rules = get_rules(args.rules)
    opponents = [o.strip() for o in (args.opponents or "").split(",") if o.strip()]
    try:
        tuned = parse_weights(args.weights)
        tuned, x, fixed = start_of(tuned, args.start,
                                   PRESET_WEIGHTS.get(rules.name, DEFAULT_WEIGHTS))
        for opponent in opponents:
            make_bot(opponent)
    except ValueError as e:
        parser.error(str(e))
    first = spec_of(args.base, tuned, x, fixed)
    big_a = args.iterations / 10.0
    a = args.step * 2.0 * args.c * (1.0 + big_a) ** 0.602 / 100.0
    rng = random.Random(derive_seed("spsa", args.seed))
    log: list[dict[str, Any]] = []
    build = "compiled with mypyc" if COMPILED else "pure Python"
    against = f"against {', '.join(opponents)}" if opponents else "self-play"
    print(f"SPSA: {args.rules}, {len(tuned)} weights, {args.iterations} iterations of "
          f"{args.hands} hands ({against}), seed {args.seed} ({build})")
    pool = ProcessPool(args.jobs) if args.jobs > 1 else None
    t0 = time.monotonic()
    try:
        for k in range(args.iterations):
            c_k = args.c / (k + 1) ** 0.101
            a_k = a / (k + 1 + big_a) ** 0.602
            delta = [rng.choice((-1.0, 1.0)) for _ in tuned]
            plus = [v + c_k * d for v, d in zip(x, delta)]
            minus = [v - c_k * d for v, d in zip(x, delta)]
            diff, hands = slope(rules, spec_of(args.base, tuned, plus, fixed),
                                spec_of(args.base, tuned, minus, fixed), opponents,
                                args.hands, derive_seed("spsa deals", args.seed, k), pool)
            x = step(x, delta, diff, a_k, c_k)
            log.append({"iteration": k, "diff": diff, "hands": hands,
                        "weights": {t.name: t.value(v) for t, v in zip(tuned, x)}})
            print(f"{k:4d}  {diff:+7.1f}  {time.monotonic() - t0:7.0f} s", flush=True)
            if (k + 1) % 25 == 0 or k + 1 == args.iterations:
                print("      " + spec_of(args.base, tuned, x, fixed), flush=True)
        last = spec_of(args.base, tuned, x, fixed)
        checks: dict[str, str] = {}
        if args.check_hands:
            seed = derive_seed("spsa check", args.seed)
            rows = [("tuned − start", last, first)]
            if args.yardstick:
                rows += [(f"tuned − {args.yardstick}", last, args.yardstick),
                         (f"start − {args.yardstick}", first, args.yardstick)]
            print(f"\ncheck on fresh deals ({args.check_hands} hands each, arena seed {seed}):")
            for label, one, other in rows:
                checks[label] = figure(play(rules, one, other, args.check_hands, seed, pool))
                print(f"  {label}: {checks[label]}", flush=True)
    finally:
        if pool is not None:
            pool.__exit__()
    print(f"\ntuned: {last}\nstart: {first}")
    if args.json:
        args.json.write_text(json.dumps({
            "rules": args.rules, "seed": args.seed, "hands": args.hands, "build": build,
            "opponents": opponents,
            "ranges": {t.name: [t.low, t.high] for t in tuned}, "start": first, "tuned": last,
            "iterations": log, "check": checks}, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
