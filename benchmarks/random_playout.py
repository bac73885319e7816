"""Random-playout throughput of the canasta engine, on one core, against OpenSpiel gin rummy.

Plays whole hands with uniformly random legal actions: at every decision it lists all legal
actions (:func:`canasta.legal_actions`), picks one with a seeded :class:`random.Random` and
applies it (:func:`canasta.apply`). It reports hands/s, decisions/s and the mean number of
decisions per hand. In the same run it plays OpenSpiel's ``gin_rummy`` the same way for the same
time (chance nodes, i.e. the deal and stock draws, are sampled from ``chance_outcomes()`` and
not counted as decisions) and prints the ratio of decisions/s, canasta ÷ gin.

The process is pinned to one CPU (``--cpu``, default 0) and both engines are warmed up with one
hand (game) before timing, following the method of PEERS.md §4.2.

The build of canasta that runs (compiled with mypyc, or the pure-Python sources) is reported.
``--also COMMAND`` plays the same playout, in the same run and on the same CPU, with another
interpreter (another build), e.g. the compiled one of ``make compiled``; it may be given several
times, and ``NAME=value`` words before the command set its environment.

``--peer DIR`` also plays the Python OpenSpiel Canasta of jhtschultz/canasta-openspiel, checked
out in DIR, the same way for the same time (``peer_playout.py``, in a process of its own on the
same CPU, one hand per count) and prints each canasta build's hands/s as a multiple of the peer's.

Usage::

    python benchmarks/random_playout.py --rules classic --seconds 10
    python benchmarks/random_playout.py --rules classic-2p --seconds 5 --no-baseline --json
    .venv/bin/python benchmarks/random_playout.py --also .venv-compiled/bin/python
    .venv/bin/python benchmarks/random_playout.py --peer /work/peer/canasta-openspiel
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import shlex
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import canasta
from canasta.rules import PRESETS, Rules

#: A hand that runs longer than this is taken for an engine bug rather than played on forever.
MAX_DECISIONS_PER_HAND = 100_000

#: Below this CPU share the core was visibly shared with other work during the timing.
BUSY_SHARE = 0.9
BUSY_NOTE = ("  note: the process got well under a whole core; the machine was busy, so the "
             "per-second figures are low")

#: The OpenSpiel game used as the baseline.
BASELINE_GAME = "gin_rummy"


@dataclass
class Playout:
    """What one timed playout loop did.

    ``units`` are hands (canasta) or games (gin rummy); ``decisions`` are player moves;
    ``applied`` also counts chance actions (equal to ``decisions`` for canasta, whose deal is
    not made of actions); ``elapsed_s`` is wall-clock time and ``cpu_s`` the process's CPU time
    over the same span.
    """

    units: int
    decisions: int
    applied: int
    elapsed_s: float
    cpu_s: float

    @classmethod
    def from_json(cls, data: dict[str, Any], unit: str) -> Playout:
        """The playout that :func:`playout_json` described."""
        return cls(data[f"{unit}s"], data["decisions"], data.get("applied", data["decisions"]),
                   data["elapsed_s"], data["cpu_s"])

    @property
    def units_per_s(self) -> float:
        """Hands (or games) per wall-clock second."""
        return self.units / self.elapsed_s

    @property
    def decisions_per_s(self) -> float:
        """Player decisions per wall-clock second."""
        return self.decisions / self.elapsed_s

    @property
    def applied_per_s(self) -> float:
        """Applied actions (decisions plus chance actions) per wall-clock second."""
        return self.applied / self.elapsed_s

    @property
    def decisions_per_cpu_s(self) -> float:
        """Player decisions per second of this process's CPU time (steadier on a busy machine)."""
        return self.decisions / self.cpu_s if self.cpu_s > 0 else 0.0

    @property
    def decisions_per_unit(self) -> float:
        """Mean decisions per hand (or game)."""
        return self.decisions / self.units

    @property
    def units_per_cpu_s(self) -> float:
        """Hands (or games) per second of the process's CPU time."""
        return self.units / self.cpu_s

    @property
    def cpu_share(self) -> float:
        """CPU time over wall-clock time: well below 1 means the core was shared."""
        return self.cpu_s / self.elapsed_s


# --------------------------------------------------------------------------- canasta


def play_hand(rules: Rules, seed: int, dealer: int) -> int:
    """Play one hand of ``rules`` with uniformly random legal actions; return its decisions.

    The deal comes from ``seed`` and so do the choices: every decision lists all legal actions
    and picks one with ``random.Random(seed)``, so any hand can be replayed from its seed alone.
    """
    legal_actions = canasta.legal_actions
    apply = canasta.apply
    choice = random.Random(seed).choice
    state = canasta.new_hand(rules, seed=seed, dealer=dealer)
    decisions = 0
    try:
        while not state.is_over:
            state = apply(state, choice(legal_actions(state)))
            decisions += 1
            if decisions > MAX_DECISIONS_PER_HAND:
                raise RuntimeError(f"hand did not end after {MAX_DECISIONS_PER_HAND} decisions "
                                   f"({_replay_hint(rules, seed, dealer)})")
    except IndexError as exc:  # random.choice on an empty list
        raise RuntimeError(f"no legal action in a hand that is not over, after {decisions} "
                           f"decisions, in phase {state.phase!r} "
                           f"({_replay_hint(rules, seed, dealer)})") from exc
    return decisions


def _replay_hint(rules: Rules, seed: int, dealer: int) -> str:
    """How to replay the hand that ``play_hand(rules, seed, dealer)`` played."""
    return (f"replay: state = canasta.new_hand(canasta.get_rules({rules.name!r}), seed={seed}, "
            f"dealer={dealer}); choose with random.Random({seed}).choice")


def canasta_playout(rules: Rules, seconds: float, rng: random.Random) -> Playout:
    """Play random hands of ``rules`` until ``seconds`` have passed (checked between hands).

    Each hand's seed (for the deal and the choices) is drawn from ``rng``; the deal rotates
    round the table.
    """
    hands = decisions = 0
    cpu0, t0 = time.process_time(), time.perf_counter()
    deadline = t0 + seconds
    now = t0
    while now < deadline:
        decisions += play_hand(rules, rng.getrandbits(64), hands % rules.num_players)
        hands += 1
        now = time.perf_counter()
    return Playout(hands, decisions, decisions, now - t0, time.process_time() - cpu0)


# --------------------------------------------------------------------------- OpenSpiel


def load_baseline() -> tuple[Any, str] | str:
    """OpenSpiel's gin rummy game and OpenSpiel's version, or why it cannot be loaded.

    Numerical libraries loaded with OpenSpiel are held to one thread, as in PEERS.md §4.2.
    """
    for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ.setdefault(var, "1")
    try:
        import pyspiel  # type: ignore[import-not-found, unused-ignore]
    except ImportError as exc:
        return f"open_spiel is not importable ({exc}); install it with pip install -e '.[bench]'"
    try:
        from importlib.metadata import version
        spiel_version = version("open_spiel")
    except Exception:  # version metadata is informative only
        spiel_version = "unknown"
    try:
        game = pyspiel.load_game(BASELINE_GAME)
    except Exception as exc:
        return f"OpenSpiel could not load {BASELINE_GAME!r} ({exc})"
    return game, spiel_version


def sample_chance(outcomes: Sequence[tuple[int, float]], r: float) -> int:
    """The chance action that ``r`` (uniform in [0, 1)) selects from ``(action, p)`` pairs."""
    for action, p in outcomes:
        r -= p
        if r < 0.0:
            return action
    return outcomes[-1][0]


def play_gin_game(game: Any, rng: random.Random) -> tuple[int, int]:
    """Play one random game of OpenSpiel ``game``; return (decisions, applied actions).

    Player nodes pick uniformly among ``legal_actions()``; chance nodes are sampled from
    ``chance_outcomes()`` with ``rng`` and count only as applied actions.
    """
    choice = rng.choice
    uniform = rng.random
    state = game.new_initial_state()
    decisions = applied = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(sample_chance(state.chance_outcomes(), uniform()))
        else:
            state.apply_action(choice(state.legal_actions()))
            decisions += 1
        applied += 1
    return decisions, applied


def gin_playout(game: Any, seconds: float, rng: random.Random) -> Playout:
    """Play random games of ``game`` until ``seconds`` have passed (checked between games)."""
    games = decisions = applied = 0
    cpu0, t0 = time.process_time(), time.perf_counter()
    deadline = t0 + seconds
    now = t0
    while now < deadline:
        d, a = play_gin_game(game, rng)
        decisions += d
        applied += a
        games += 1
        now = time.perf_counter()
    return Playout(games, decisions, applied, now - t0, time.process_time() - cpu0)


# --------------------------------------------------------------------------- the run


def pin_to_cpu(cpu: int) -> bool:
    """Pin this process to ``cpu``; False where the platform cannot pin processes.

    Raises :class:`ValueError` if ``cpu`` is not one this process may run on.
    """
    if not hasattr(os, "sched_setaffinity"):
        return False
    allowed = sorted(os.sched_getaffinity(0))
    if cpu not in allowed:
        raise ValueError(f"CPU {cpu} is not available to this process (allowed: {allowed})")
    os.sched_setaffinity(0, {cpu})
    return True


def playout_json(p: Playout, unit: str) -> dict[str, Any]:
    """The figures of ``p`` as a JSON-ready dict (``unit`` is ``hand`` or ``game``)."""
    out: dict[str, Any] = {
        f"{unit}s": p.units,
        "decisions": p.decisions,
        "elapsed_s": round(p.elapsed_s, 3),
        "cpu_share": round(p.cpu_share, 3),
        f"{unit}s_per_s": round(p.units_per_s, 2),
        "decisions_per_s": round(p.decisions_per_s, 1),
        "decisions_per_cpu_s": round(p.decisions_per_cpu_s, 1),
        f"decisions_per_{unit}": round(p.decisions_per_unit, 2),
        "cpu_s": round(p.cpu_s, 3),
    }
    if p.applied != p.decisions:
        out["applied"] = p.applied
        out["applied_per_s"] = round(p.applied_per_s, 1)
    return out


def build_name(compiled: bool) -> str:
    """How a report names a build of canasta."""
    return "compiled with mypyc" if compiled else "pure Python"


def hand_rows(run: Playout) -> list[tuple[str, str]]:
    """The text report's rows for a playout of hands."""
    return [
        ("hands", f"{run.units:,}"),
        ("decisions", f"{run.decisions:,}"),
        ("elapsed (s)", f"{run.elapsed_s:.2f}"),
        ("hands/s", f"{run.units_per_s:,.1f}"),
        ("decisions/s", f"{run.decisions_per_s:,.0f}"),
        ("decisions/hand", f"{run.decisions_per_unit:.1f}"),
        ("CPU share", f"{run.cpu_share:.0%}"),
        ("decisions per CPU second", f"{run.decisions_per_cpu_s:,.0f}"),
    ]


def print_text(report: dict[str, Any], own: Playout, base: Playout | None,
               write: Callable[[str], object] = print,
               others: Sequence[tuple[dict[str, Any], Playout]] = (),
               peer: Playout | None = None) -> None:
    """Print the human-readable report (``others``: the ``--also`` runs, report and playout;
    ``peer``: the ``--peer`` playout)."""
    where = f"on one core (pinned to CPU {report['cpu']})" if report["pinned"] else \
        "NOT pinned to one core (this platform cannot set CPU affinity)"
    write(f"canasta random playout: rules {report['rules']}, {report['seconds']:g} s, "
          f"seed {report['seed']}, {where}, Python {report['python']}")
    runs = [(f"canasta, {build_name(report['compiled'])} (this interpreter)", own)]
    runs += [(f"canasta, {build_name(o['compiled'])} ({o['command']})", p) for o, p in others]
    for title, run in runs:
        if others:
            write(title)
        rows = hand_rows(run)
        if not others:
            rows.insert(0, ("build", build_name(report["compiled"])))
        for name, value in rows:
            write(f"  {name:<26}{value:>12}")
        if run.cpu_share < BUSY_SHARE:
            write(BUSY_NOTE)
    for o, p in others:
        write(f"ratio of hands/s, {build_name(o['compiled'])} ({o['command']}) ÷ this "
              f"interpreter's: {p.units_per_s / own.units_per_s:.2f} (per CPU second: "
              f"{p.decisions_per_cpu_s / own.decisions_per_cpu_s:.2f})")
    if peer is not None:
        info = report["peer"]
        write(f"peer {info['game']} random playout (jhtschultz/canasta-openspiel in "
              f"{info['dir']}, commit {info['commit'] or 'unknown'}), own process, same core")
        chance = (peer.applied - peer.decisions) / peer.units
        for name, value in [*hand_rows(peer), ("chance actions/hand", f"{chance:.1f}")]:
            write(f"  {name:<26}{value:>12}")
        if peer.cpu_share < BUSY_SHARE:
            write(BUSY_NOTE)
        for title, run in runs:
            write(f"ratio of hands/s, {title} ÷ peer: {run.units_per_s / peer.units_per_s:.2f} "
                  f"(per CPU second: {run.units_per_cpu_s / peer.units_per_cpu_s:.2f})")
    if base is None:
        write(f"baseline skipped: {report['baseline_note']}")
        return
    write(f"OpenSpiel {BASELINE_GAME} random playout (baseline, open_spiel "
          f"{report['baseline']['open_spiel']}), same process and core")
    rows = [
        ("games", f"{base.units:,}"),
        ("decisions", f"{base.decisions:,}"),
        ("elapsed (s)", f"{base.elapsed_s:.2f}"),
        ("games/s", f"{base.units_per_s:,.1f}"),
        ("decisions/s", f"{base.decisions_per_s:,.0f}"),
        ("applied actions/s", f"{base.applied_per_s:,.0f}"),
        ("decisions/game", f"{base.decisions_per_unit:.1f}"),
        ("CPU share", f"{base.cpu_share:.0%}"),
        ("decisions per CPU second", f"{base.decisions_per_cpu_s:,.0f}"),
    ]
    for name, value in rows:
        write(f"  {name:<26}{value:>12}")
    if base.cpu_share < BUSY_SHARE:
        write(BUSY_NOTE)
    for title, run in runs:
        name = f" ({title.split(', ', 1)[1]})" if others else ""
        write(f"ratio of decisions/s, canasta{name} ÷ gin: "
              f"{run.decisions_per_s / base.decisions_per_s:.2f} (per CPU second: "
              f"{run.decisions_per_cpu_s / base.decisions_per_cpu_s:.2f})")


def run_elsewhere(command: str, args: argparse.Namespace) -> dict[str, Any]:
    """This script's JSON report of the canasta playout alone, run by ``command`` (an
    interpreter, after optional ``NAME=value`` environment words) on the same CPU."""
    words = shlex.split(command)
    env = dict(os.environ)
    while words and "=" in words[0] and not words[0].startswith(("/", ".")):
        name, _, value = words.pop(0).partition("=")
        env[name] = value
    if not words:
        raise ValueError(f"--also {command!r} names no interpreter")
    done = subprocess.run(
        [*words, __file__, "--rules", args.rules, "--seconds", str(args.seconds), "--seed",
         str(args.seed), "--cpu", str(args.cpu), "--no-baseline", "--json"],
        capture_output=True, text=True, env=env, check=False)
    if done.returncode != 0:
        raise ValueError(f"--also {command!r} failed: {done.stderr.strip()[-500:]}")
    report: dict[str, Any] = json.loads(done.stdout)
    report["command"] = command
    return report


def run_peer(directory: str, args: argparse.Namespace) -> dict[str, Any]:
    """``peer_playout.py``'s JSON report of the peer's random hands in ``directory``, run by this
    interpreter in a process of its own (the peer's package is named ``canasta`` too)."""
    done = subprocess.run(
        [sys.executable, str(Path(__file__).with_name("peer_playout.py")), directory,
         "--seconds", str(args.seconds), "--seed", str(args.seed), "--cpu", str(args.cpu)],
        capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise ValueError(f"--peer {directory!r} failed: {done.stderr.strip()[-500:]}")
    report: dict[str, Any] = json.loads(done.stdout)
    report["dir"] = directory
    return report


def add_playout_options(parser: argparse.ArgumentParser, seconds: float, what: str) -> None:
    """The options every playout script shares: rules, seconds, seed, cpu."""
    parser.add_argument("--rules", default="classic", choices=sorted(PRESETS),
                        help="rules preset (default: classic)")
    parser.add_argument("--seconds", type=float, default=seconds,
                        help=f"{what} (default: {seconds:g})")
    parser.add_argument("--seed", type=int, default=0,
                        help="seed of the random choices and deals (default: 0)")
    parser.add_argument("--cpu", type=int, default=0,
                        help="the CPU to pin the process to (default: 0)")


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    """The command-line options."""
    parser = argparse.ArgumentParser(
        description="Random-playout throughput of the canasta engine on one core, "
                    f"with OpenSpiel {BASELINE_GAME} as a baseline.")
    add_playout_options(parser, seconds=10.0, what="timed seconds for each engine")
    parser.add_argument("--json", action="store_true",
                        help="print one line of JSON instead of text")
    parser.add_argument("--also", action="append", default=[], metavar="COMMAND",
                        help="also run the canasta playout with this interpreter (another build, "
                             "e.g. .venv-compiled/bin/python; NAME=value words first set its "
                             "environment); may be repeated")
    parser.add_argument("--no-baseline", action="store_true",
                        help=f"skip the OpenSpiel {BASELINE_GAME} baseline")
    parser.add_argument("--peer", metavar="DIR",
                        help="also time the python_canasta game of a checkout of "
                             "jhtschultz/canasta-openspiel in DIR (rules classic only)")
    args = parser.parse_args(argv)
    if args.seconds <= 0:
        parser.error("--seconds must be positive")
    if args.peer is not None and args.rules != "classic":
        parser.error("--peer plays the peer's only game, 4-player partnership classic: "
                     "use --rules classic")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark; return the exit status."""
    args = parse_args(argv)
    try:
        pinned = pin_to_cpu(args.cpu)
    except ValueError as exc:
        print(f"random_playout: {exc}", file=sys.stderr)
        return 2
    rules = canasta.get_rules(args.rules)

    play_hand(rules, random.Random(args.seed).getrandbits(64), 0)  # warm-up
    own = canasta_playout(rules, args.seconds, random.Random(args.seed))
    try:
        also = [run_elsewhere(command, args) for command in args.also]
        peer_report = None if args.peer is None else run_peer(args.peer, args)
    except ValueError as exc:
        print(f"random_playout: {exc}", file=sys.stderr)
        return 2

    base: Playout | None = None
    baseline: dict[str, Any] | None = None
    note = "--no-baseline was given"
    if not args.no_baseline:
        loaded = load_baseline()
        if isinstance(loaded, str):
            note = loaded
        else:
            game, spiel_version = loaded
            rng = random.Random(args.seed)
            play_gin_game(game, rng)  # warm-up
            base = gin_playout(game, args.seconds, random.Random(args.seed))
            baseline = {"game": BASELINE_GAME, "open_spiel": spiel_version,
                        **playout_json(base, "game")}

    report: dict[str, Any] = {
        "hands_per_s": round(own.units_per_s, 2),
        "decisions_per_s": round(own.decisions_per_s, 1),
        "decisions_per_hand": round(own.decisions_per_unit, 2),
        "rules": args.rules,
        "seconds": args.seconds,
        "seed": args.seed,
        "cpu": args.cpu,
        "pinned": pinned,
        "python": platform.python_version(),
        "compiled": getattr(canasta, "COMPILED", False),  # older versions: pure only
        "hands": own.units,
        "decisions": own.decisions,
        "elapsed_s": round(own.elapsed_s, 3),
        "cpu_share": round(own.cpu_share, 3),
        "decisions_per_cpu_s": round(own.decisions_per_cpu_s, 1),
        "baseline": baseline,
        "ratio": round(own.decisions_per_s / base.decisions_per_s, 3) if base else None,
        "ratio_cpu": (round(own.decisions_per_cpu_s / base.decisions_per_cpu_s, 3)
                      if base and base.decisions_per_cpu_s else None),
    }
    report["cpu_s"] = round(own.cpu_s, 3)
    peer: Playout | None = None
    if peer_report is not None:
        peer = Playout.from_json(peer_report, "hand")
        report["peer"] = {**{k: peer_report[k] for k in ("game", "dir", "commit")},
                          **playout_json(peer, "hand")}
        report["peer_ratio"] = round(own.units_per_s / peer.units_per_s, 3)
        report["peer_ratio_cpu"] = round(own.units_per_cpu_s / peer.units_per_cpu_s, 3)
        for o in also:
            o["peer_ratio"] = round(Playout.from_json(o, "hand").units_per_s / peer.units_per_s, 3)
    if also:
        report["also"] = also
    if base is None:
        report["baseline_note"] = note
    if args.json:
        print(json.dumps(report))
    else:
        print_text(report, own, base, others=[(o, Playout.from_json(o, "hand")) for o in also],
                   peer=peer)
    return 0


if __name__ == "__main__":
    sys.exit(main())
