"""Random playouts through the research interfaces beside the native engine, in one run.

Every path plays whole hands with the same policy: at each decision, a legal engine action
chosen uniformly (as ``random_playout.py`` does), by a generator seeded per hand. The native
path lists the legal actions and applies one (:func:`canasta.legal_actions`,
:func:`canasta.apply`). The adapter paths spell the chosen action id by id, reading the mask
before every id as a learning agent must:

* ``openspiel``: the ``python_canasta`` game (:mod:`canasta.rl.openspiel`); ``legal_actions()``
  before each id. Its chance nodes (the deal, every stock card) are given, after
  ``chance_outcomes()`` is read, the cards of the pack the native path would deal the hand
  from, so a hand seed plays the same hand on both paths, action for action
  (``tests/rl/test_openspiel.py`` checks that this reproduces the engine's hand). Each path
  plays its own hand seeds, though: the engine caches what it met in a hand, and replaying
  another path's hands would find those caches warm.
* ``openspiel+obs``: the same, with the player's ``observation_tensor()`` before each id;
* ``pettingzoo``: the AEC environment (:mod:`canasta.rl.pettingzoo`), dealing its own hands from
  the same seeds; ``last()`` (the tensor and the mask) before each id.

The figure compared is **engine actions per second** (an engine action is spelled by one id or
several); the report gives each path's rate as a share of the native one measured in the same
run, on the same core. The paths take turns (``--rounds``) so that a change of load on a shared
machine touches them alike; ``--seconds`` is each path's time in all.

``--rules`` takes a preset of any family (``modern-american`` included): every path plays it
through the family protocol and the family's research interface (its ids and its tensor,
:func:`canasta.rl.research.research_of`).

Usage::

    python benchmarks/rl_playout.py --rules classic --seconds 10
    python benchmarks/rl_playout.py --rules modern-american --seconds 10
    python benchmarks/rl_playout.py --seconds 3 --json
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from canasta.family import get_rules, preset_names
from canasta.rl.research import Research, research_of
from random_playout import add_playout_options, pin_to_cpu

PATHS = ("native", "openspiel", "openspiel+obs", "pettingzoo")


class Count:
    """What one timed loop did: hands, engine actions, ids (steps of the adapters)."""

    def __init__(self) -> None:
        self.hands = self.actions = self.ids = 0
        self.elapsed_s = self.cpu_s = 0.0

    def as_json(self) -> dict[str, Any]:
        """The figures, rounded."""
        return {"hands": self.hands, "engine_actions": self.actions, "ids": self.ids,
                "elapsed_s": round(self.elapsed_s, 3), "cpu_share": round(self.cpu_share, 3),
                "hands_per_s": round(self.hands / self.elapsed_s, 2),
                "engine_actions_per_s": round(self.actions_per_s, 1),
                "engine_actions_per_cpu_s": round(self.actions_per_cpu_s, 1),
                "ids_per_s": round(self.ids / self.elapsed_s, 1)}

    @property
    def actions_per_s(self) -> float:
        """Engine actions per wall-clock second."""
        return self.actions / self.elapsed_s

    @property
    def actions_per_cpu_s(self) -> float:
        """Engine actions per second of this process's CPU time (steadier on a busy machine)."""
        return self.actions / self.cpu_s if self.cpu_s else 0.0

    @property
    def cpu_share(self) -> float:
        """CPU time over wall-clock time: well below 1 means the core was shared."""
        return self.cpu_s / self.elapsed_s if self.elapsed_s else 0.0


def pack_of(research: Research, seed: int) -> list[int]:
    """The pack a hand with this seed is dealt from (the one ``canasta.Game(rules, seed)``
    deals its first hand from)."""
    return research.family.shuffled_pack(research.rules, random.Random(seed).getrandbits(64))


def native_hand(research: Research, seed: int, count: Count) -> None:
    """One hand through the engine itself (the family protocol), the first dealer dealing."""
    family, rules = research.family, research.rules
    legal_actions, apply = family.legal_actions, family.apply
    choose = random.Random(seed).randrange
    state = family.new_hand(rules, deck=pack_of(research, seed))
    while not state.is_over:
        legal = legal_actions(state)
        state = apply(state, legal[choose(len(legal))])
        count.actions += 1
        count.ids += 1


def openspiel_hand(game: Any, seed: int, count: Count, observe: bool) -> None:
    """The same hand through the OpenSpiel game: chance is given the same pack's cards in
    order (after ``chance_outcomes()`` is read), so the choices and the engine actions are the
    native path's; the mask (and with ``observe`` the player's tensor) is read before each id."""
    encode = game.research.alphabet.encode
    choose = random.Random(seed).randrange
    pack = iter(pack_of(game.research, seed))
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.chance_outcomes()
            state.apply_action(next(pack))
            continue
        actions = state.engine_actions()
        player = state.current_player()
        for i in encode(actions[choose(len(actions))]):
            if observe:
                state.observation_tensor(player)
            state.legal_actions()
            state.apply_action(i)
            count.ids += 1
        count.actions += 1


def pettingzoo_hand(env: Any, seed: int, count: Count) -> None:
    """A hand through the PettingZoo environment (dealt by the environment from ``seed``),
    ``last()`` (the tensor and the mask) read before each id."""
    choose = random.Random(seed).randrange
    env.reset(seed=seed)
    table = env.unwrapped.table
    encode = table.alphabet.encode
    while env.agents:
        _, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        actions = table.choice.actions()
        for k, i in enumerate(encode(actions[choose(len(actions))])):
            if k:
                env.last()
            env.step(i)
            count.ids += 1
        count.actions += 1


def timed(play: Callable[[int, Count], None], seconds: float, seeds: random.Random,
          count: Count) -> None:
    """Play hands (each seeded from ``seeds``) until ``seconds`` have passed (checked between
    hands), adding to ``count``."""
    cpu0, t0 = time.process_time(), time.perf_counter()
    now = t0
    while now < t0 + seconds:
        play(seeds.getrandbits(63), count)
        count.hands += 1
        now = time.perf_counter()
    count.elapsed_s += now - t0
    count.cpu_s += time.process_time() - cpu0


def run(rules_name: str, seconds: float, seed: int, rounds: int) -> dict[str, Any]:
    """Every path for ``seconds`` in all, in ``rounds`` turns, after a warm-up hand each; the
    report."""
    for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ.setdefault(var, "1")
    import canasta.rl.openspiel as cos
    from canasta.rl.pettingzoo import env as make_env

    research = research_of(get_rules(rules_name))
    game = cos.load(rules_name)
    zoo = make_env(preset=rules_name)
    plays: dict[str, Callable[[int, Count], None]] = {
        "native": lambda seed, c: native_hand(research, seed, c),
        "openspiel": lambda seed, c: openspiel_hand(game, seed, c, observe=False),
        "openspiel+obs": lambda seed, c: openspiel_hand(game, seed, c, observe=True),
        "pettingzoo": lambda seed, c: pettingzoo_hand(zoo, seed, c),
    }
    results = {name: Count() for name in PATHS}
    # each path its own hands: the engine caches what it met in a hand, and a path replaying
    # another's hands would find them warm
    seeds = {name: random.Random(f"{seed}:{name}") for name in PATHS}
    for name in PATHS:
        plays[name](seed, Count())  # warm-up
    for _ in range(rounds):  # the paths take turns, so a change of load touches them alike
        for name in PATHS:
            timed(plays[name], seconds / rounds, seeds[name], results[name])
    native = results["native"]
    return {
        "rules": rules_name, "seconds": seconds, "rounds": rounds, "seed": seed,
        "python": platform.python_version(),
        "paths": {name: {**c.as_json(),
                         "share_of_native": round(c.actions_per_s / native.actions_per_s, 3),
                         "share_of_native_cpu": round(c.actions_per_cpu_s
                                                      / native.actions_per_cpu_s, 3)}
                  for name, c in results.items()},
    }


def print_text(report: dict[str, Any], write: Callable[[str], object] = print) -> None:
    """The report as a table."""
    where = (f"pinned to CPU {report['cpu']}" if report["pinned"] else "not pinned")
    write(f"random playouts through the research interfaces: rules {report['rules']}, "
          f"{report['seconds']:g} s per path in {report['rounds']} turns, seed "
          f"{report['seed']}, one core ({where}), Python {report['python']}")
    write(f"  {'path':<15}{'hands/s':>9}{'actions/s':>11}{'ids/s':>9}{'of native':>11}"
          f"{'actions/CPU s':>15}{'of native':>11}{'CPU share':>11}")
    for name, p in report["paths"].items():
        write(f"  {name:<15}{p['hands_per_s']:>9,.1f}{p['engine_actions_per_s']:>11,.0f}"
              f"{p['ids_per_s']:>9,.0f}{p['share_of_native']:>11.0%}"
              f"{p['engine_actions_per_cpu_s']:>15,.0f}{p['share_of_native_cpu']:>11.0%}"
              f"{p['cpu_share']:>11.0%}")
    write("  actions: engine actions (the native path's decisions); ids: the adapters' steps;")
    write("  'of native': engine actions per second as a share of the native path's in this run,")
    write("  by the wall clock and by CPU time (steadier when others load the machine)")
    if min(p["cpu_share"] for p in report["paths"].values()) < 0.9:
        write("  note: a path got well under a whole core: the machine was busy")


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark; return the exit status."""
    parser = argparse.ArgumentParser(
        description="Random playouts through the OpenSpiel game and the PettingZoo environment "
                    "beside the native engine, one run, one core.")
    add_playout_options(parser, seconds=5.0, what="timed seconds for each path")
    rules = parser._option_string_actions["--rules"]
    rules.choices = preset_names()
    rules.help = "a preset of any family (default: classic)"
    parser.add_argument("--rounds", type=int, default=5,
                        help="turns the paths take, each running seconds/rounds at a time "
                             "(default: 5)")
    parser.add_argument("--json", action="store_true", help="print one line of JSON")
    args = parser.parse_args(argv)
    if args.seconds <= 0:
        parser.error("--seconds must be positive")
    if args.rounds <= 0:
        parser.error("--rounds must be positive")
    try:
        pinned = pin_to_cpu(args.cpu)
    except ValueError as exc:
        print(f"rl_playout: {exc}", file=sys.stderr)
        return 2
    try:
        report = run(args.rules, args.seconds, args.seed, args.rounds)
    except ImportError as exc:
        print(f"rl_playout: {exc}; install the rl extra: pip install -e '.[rl]'",
              file=sys.stderr)
        return 2
    report.update(cpu=args.cpu, pinned=pinned)
    if args.json:
        print(json.dumps(report))
    else:
        print_text(report)
    return 0


if __name__ == "__main__":
    sys.exit(main())
