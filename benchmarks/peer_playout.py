"""Random playout of the peer ``python_canasta`` game (jhtschultz/canasta-openspiel), one core.

The worker of ``random_playout.py --peer DIR``: DIR is a checkout of
https://github.com/jhtschultz/canasta-openspiel (not part of this repository). It runs in a
process of its own because the peer's package is named ``canasta`` too, and its game registers
the OpenSpiel name ``python_canasta`` as ours does, so the two cannot be imported side by side.

The peer plays a whole game to 5000 points in one OpenSpiel state, dealing each new hand in it.
One count here is one hand, as in ``random_playout.py``: a fresh ``new_initial_state()`` played
from the deal (chance nodes, sampled from ``chance_outcomes()``: applied actions, not decisions)
until its first hand is over, i.e. the state is terminal or has started hand 1. A player node is
one decision: a uniform choice among ``legal_actions()``. The peer ends a hand on an exhausted
stock inside ``legal_actions()``, which then returns no action; that call is no decision. Each
hand has a seed drawn from ``random.Random(--seed)`` for its deal and choices.

Prints one line of JSON: ``hands``, ``decisions``, ``applied``, ``elapsed_s``, ``cpu_s``,
``game``, ``commit`` (of DIR, when it is a git checkout). Usage::

    python benchmarks/peer_playout.py /work/peer/canasta-openspiel --seconds 10
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import random
import subprocess
import sys
import time
from collections.abc import Sequence
from typing import Any

#: The peer's OpenSpiel game.
PEER_GAME = "python_canasta"

#: A hand that runs longer than this is taken for a bug rather than played on forever.
MAX_DECISIONS_PER_HAND = 100_000


def load_peer(directory: str) -> Any:
    """The peer's game, imported from ``directory`` ahead of any other ``canasta`` package."""
    for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ.setdefault(var, "1")
    sys.path.insert(0, os.path.abspath(directory))
    import pyspiel  # type: ignore[import-not-found, unused-ignore]
    peer = importlib.import_module("canasta.canasta_game")  # the peer's package, registers the game
    where, top = os.path.abspath(str(peer.__file__)), os.path.abspath(directory)
    if os.path.commonpath([where, top]) != top:
        raise ImportError(f"'canasta' was imported from {where}, not from {directory}")
    return pyspiel.load_game(PEER_GAME)


def sample_chance(outcomes: Sequence[tuple[int, float]], r: float) -> int:
    """The chance action that ``r`` (uniform in [0, 1)) selects from ``(action, p)`` pairs."""
    for action, p in outcomes:
        r -= p
        if r < 0.0:
            return action
    return outcomes[-1][0]


def play_peer_hand(game: Any, seed: int) -> tuple[int, int]:
    """Play the first hand of a new ``game`` state at random; return (decisions, applied)."""
    rng = random.Random(seed)
    choice, uniform = rng.choice, rng.random
    state = game.new_initial_state()
    decisions = applied = 0
    while state._hand_number == 0 and not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(sample_chance(state.chance_outcomes(), uniform()))
        else:
            actions = state.legal_actions()
            if not actions:  # the stock ran out: the peer has just scored the hand
                if state._hand_number == 0 and not state.is_terminal():
                    raise RuntimeError(f"no legal action after {decisions} decisions (seed {seed})")
                break
            state.apply_action(choice(actions))
            decisions += 1
            if decisions > MAX_DECISIONS_PER_HAND:
                raise RuntimeError(f"hand did not end after {decisions} decisions (seed {seed})")
        applied += 1
    return decisions, applied


def git_commit(directory: str) -> str | None:
    """The commit checked out in ``directory``, or ``None`` where it is no git clone."""
    if not os.path.exists(os.path.join(directory, ".git")):
        return None
    try:
        done = subprocess.run(["git", "-C", directory, "rev-parse", "HEAD"], capture_output=True,
                              text=True, check=False)
    except OSError:
        return None
    return done.stdout.strip() if done.returncode == 0 else None


def main(argv: Sequence[str] | None = None) -> int:
    """Time the peer's random hands; print one line of JSON."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("directory", metavar="DIR", help="a checkout of canasta-openspiel")
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--cpu", type=int, default=None, help="the CPU to pin the process to")
    args = parser.parse_args(argv)
    if args.cpu is not None and hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {args.cpu})
    try:
        game = load_peer(args.directory)
    except Exception as exc:
        print(f"peer_playout: cannot load {PEER_GAME} from {args.directory}: {exc}",
              file=sys.stderr)
        return 2
    rng = random.Random(args.seed)
    play_peer_hand(game, random.Random(args.seed).getrandbits(64))  # warm-up
    hands = decisions = applied = 0
    cpu0, t0 = time.process_time(), time.perf_counter()
    deadline = t0 + args.seconds
    now = t0
    while now < deadline:
        d, a = play_peer_hand(game, rng.getrandbits(64))
        decisions += d
        applied += a
        hands += 1
        now = time.perf_counter()
    cpu_s = time.process_time() - cpu0
    print(json.dumps({"hands": hands, "decisions": decisions, "applied": applied,
                      "elapsed_s": round(now - t0, 3), "cpu_s": round(cpu_s, 3),
                      "game": PEER_GAME, "commit": git_commit(args.directory)}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
