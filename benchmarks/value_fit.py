"""Fit the value of a position mid-hand to the lead its hand ended with.

A search's play-out stops a few turns past its decision, and its end is valued as the lead the
side can expect at the hand's end (:mod:`canasta.bots.value`). This script plays seeded hands of
self-play, takes the position at the start of every turn, and fits
:data:`~canasta.bots.value.FEATURES` of the side to move to the lead its side had when the hand
ended, by least squares. It reports, on hands held out of the fit, how far each way of valuing
lands from the real end (root mean squared error, and the share of the lead's variance
explained):

* ``counted``: :func:`~canasta.bots.value.counted_lead`, the table as it stands;
* ``fitted``: :func:`~canasta.bots.value.fitted_lead`, with the preset's
  :data:`~canasta.bots.value.VALUE_FITS` (the counted lead where it has none);
* ``refit``: the fit of this run.

Hand ``i`` is dealt from ``derive_seed("value", seed, i)`` by dealer ``i % players``; the last
``--hold-out`` share of the hands is held out. Usage::

    python benchmarks/value_fit.py --hands 4000 --seed 1
    python benchmarks/value_fit.py --rules korean-old --hands 2000 --seed 1 --json
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import NamedTuple

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bot_audit import _solve
from canasta.arena.schedule import derive_seed
from canasta.bots import make_bot
from canasta.bots.value import FEATURES, VALUE_FITS, counted_lead, lead_features, result_lead
from canasta.deal import new_hand, shuffled_pack
from canasta.engine import apply
from canasta.legal import legal_actions
from canasta.observation import observe
from canasta.rules import PRESETS, Rules, get_rules
from canasta.state import DRAW, OVER

RIDGE = 1e-3
"""Added to the fit's diagonal (times the feature's mean square): a feature that never varies
in a run gets a weight of nil rather than a singular system."""


class Row(NamedTuple):
    """One turn's start: the features of the side to move, its counted lead, its final lead."""

    x: list[float]
    counted: float
    lead: float


def hand_rows(rules: Rules, spec: str, seed: int, index: int) -> list[Row]:
    """The rows of hand ``index`` of the run, played by ``spec`` at every seat."""
    deck = shuffled_pack(rules, derive_seed("value", seed, index))
    state = new_hand(rules, deck=deck, dealer=index % rules.num_players)
    bots = [make_bot(spec) for _ in range(rules.num_players)]
    rngs = [random.Random(derive_seed("value-bot", seed, index, s))
            for s in range(rules.num_players)]
    starts = []
    while state.phase != OVER:
        seat = state.to_move
        if state.phase == DRAW:
            starts.append((state, seat))
        legal = legal_actions(state)
        state = apply(state, bots[seat].choose(observe(state, seat), legal, rngs[seat]))
    rows = []
    for start, seat in starts:
        lead = result_lead(state, seat)
        assert lead is not None
        rows.append(Row(lead_features(start, seat), counted_lead(start, seat), lead))
    return rows


def fit(rows: Sequence[Row]) -> list[float]:
    """Least-squares weights of :data:`FEATURES` (no intercept: a lead turns sign with the
    side), with :data:`RIDGE`."""
    k = len(FEATURES)
    xtx = [[0.0] * k for _ in range(k)]
    xty = [0.0] * k
    for row in rows:
        x = row.x
        for i in range(k):
            if x[i]:
                xty[i] += x[i] * row.lead
                xi = x[i]
                line = xtx[i]
                for j in range(k):
                    line[j] += xi * x[j]
    for i in range(k):
        xtx[i][i] += RIDGE * xtx[i][i] / max(1, len(rows)) + 1e-9
    return _solve(xtx, xty)


def errors(rows: Sequence[Row], guess: Sequence[float]) -> tuple[float, float]:
    """Root mean squared error of ``guess`` against the rows' final leads, and the share of the
    leads' mean square it explains."""
    sq = sum((g - r.lead) ** 2 for g, r in zip(guess, rows, strict=True)) / len(rows)
    total = sum(r.lead ** 2 for r in rows) / len(rows)
    return math.sqrt(sq), 1.0 - sq / total if total else 0.0


def run(rules: Rules, spec: str, hands: int, seed: int, hold_out: float) -> dict[str, object]:
    """Play, fit and compare; the figures as a dictionary."""
    held = max(1, round(hands * hold_out))
    train: list[Row] = []
    test: list[Row] = []
    for i in range(hands):
        (test if i >= hands - held else train).extend(hand_rows(rules, spec, seed, i))
    weights = fit(train)
    fitted = VALUE_FITS.get(rules.name)

    def dot(w: Sequence[float], x: Sequence[float]) -> float:
        return sum(a * b for a, b in zip(w, x, strict=True))

    out: dict[str, object] = {
        "rules": rules.name, "bot": spec, "hands": hands, "seed": seed,
        "rows": {"fit": len(train), "held_out": len(test)},
        "weights": dict(zip(FEATURES, (round(w, 2) for w in weights), strict=True)),
    }
    for name, guess in (("counted", [r.counted for r in test]),
                        ("fitted", [dot(fitted, r.x) if fitted else r.counted for r in test]),
                        ("refit", [dot(weights, r.x) for r in test])):
        rmse, explained = errors(test, guess)
        out[name] = {"rmse": round(rmse, 1), "explained": round(explained, 3)}
    return out


def report_text(out: dict[str, object]) -> str:
    """The figures as a player of the numbers reads them."""
    rows = out["rows"]
    assert isinstance(rows, dict)
    lines = [f"value fit {out['rules']}: {out['bot']} at every seat, {out['hands']} hands, "
             f"seed {out['seed']}; {rows['fit']} turn starts fitted, {rows['held_out']} held out",
             "", "weights of this run (points per unit):"]
    weights = out["weights"]
    assert isinstance(weights, dict)
    lines += [f"  {name:<18} {w:>9.2f}" for name, w in weights.items()]
    lines += ["", "against the lead at the hand's end, on the hands held out:",
              f"  {'value':<8} {'rmse':>8} {'explained':>10}"]
    for name in ("counted", "fitted", "refit"):
        fig = out[name]
        assert isinstance(fig, dict)
        lines.append(f"  {name:<8} {fig['rmse']:>8.1f} {fig['explained']:>10.3f}")
    return "\n".join(lines)


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description="Fit the value of a position mid-hand (canasta.bots.value) to the lead "
                    "its hand ended with, over seeded self-play, and compare it with the "
                    "counted lead on hands held out.")
    parser.add_argument("--rules", default="classic", choices=sorted(PRESETS),
                        help="rules preset (default: classic)")
    parser.add_argument("--bot", default="heuristic",
                        help="the bot at every seat (default: heuristic)")
    parser.add_argument("--hands", type=int, default=200, help="hands to play (default: 200)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the deals (default: 0)")
    parser.add_argument("--hold-out", type=float, default=0.2,
                        help="share of the hands (the last ones) held out of the fit "
                             "(default: 0.2)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    if args.hands < 2:
        parser.error("--hands must be at least 2 (some are held out)")
    if not 0.0 < args.hold_out < 1.0:
        parser.error("--hold-out must lie between 0 and 1")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    out = run(get_rules(args.rules), args.bot, args.hands, args.seed, args.hold_out)
    print(json.dumps(out) if args.json else report_text(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
