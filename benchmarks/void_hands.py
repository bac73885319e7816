"""The void hands of ``canasta arena`` runs: how many, and what the void cost each bot.

Under a void draw (korean-old, RULES §3.3) a hand whose stock runs out scores nothing for
either side, so a bot's edge over another comes from the other hands alone. For each run
(``--json`` of ``canasta arena``) this replays every hand that ended without a going out and
reports, for bot A (the run's first bot) against the other side:

* the share of the hands that were void;
* what the hand would have scored had it been counted (melds, bonuses, red threes, less the
  cards held; no going-out bonus): A's lead, and in how many void hands A was ahead;
* in how many void hands each side held a canasta (and so could have gone out, had it
  melded the rest), and the cards A's players held when the stock ran out.

Usage::

    canasta arena --rules korean-old --bots heuristic heuristic-v1 --hands 10000 --seed 11 \\
        --jobs 1 --json run.json
    python benchmarks/void_hands.py run.json
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from canasta.game import GameRecord, replay
from canasta.rules import Rules
from canasta.scoring import score_hand
from canasta.table import canastas


@dataclass
class Voids:
    """Counts over the hands of some runs, seen from bot A's side."""

    bot: str = ""
    """Bot A, the runs' first bot."""
    hands: int = 0
    void: int = 0
    """Hands that ended without a going out: void under these rules."""
    lead: int = 0
    """A's lead summed over the void hands, as they would have scored."""
    ahead: int = 0
    """Void hands in which A's side would have scored more than any other."""
    a_canasta: int = 0
    """Void hands in which A's side had a canasta on the table."""
    other_canasta: int = 0
    """Void hands in which another side had one."""
    held: Counter[int] = field(default_factory=Counter)
    """Cards held by each of A's players when the stock ran out: how many players held so many."""

    def figures(self) -> dict[str, Any]:
        """The shares and means of the report."""
        void = max(1, self.void)
        return {"bot": self.bot, "hands": self.hands, "void_hands": self.void,
                "void_pct": 100.0 * self.void / max(1, self.hands),
                "lead_per_void_hand": self.lead / void,
                "ahead_pct": 100.0 * self.ahead / void,
                "a_canasta_pct": 100.0 * self.a_canasta / void,
                "other_canasta_pct": 100.0 * self.other_canasta / void,
                "held": dict(sorted(self.held.items()))}


def voids_hands(rules: Rules) -> bool:
    """Whether a hand whose stock runs out scores nothing under ``rules`` (RULES §3.3)."""
    return rules.stock_exhausted_rule == "void_draw" and rules.draw_hand_scoring == "none"


def count(report: dict[str, Any], into: Voids) -> None:
    """Add the void hands of one arena report to ``into``."""
    a = report["bots"][0]["bot"]
    into.bot = into.bot or a
    for game in report["games"]:
        record = GameRecord.from_json(game["record"])
        rules = record.rules
        if not voids_hands(rules):
            raise ValueError(f"the rules {rules.name!r} score a hand whose stock runs out: "
                             "no hand is void")
        seats = [s for s, bot in enumerate(game["seats"]) if bot == a]
        mine = seats[0] % rules.num_sides
        for hand, meta in zip(replay(record), game["hands"]):
            into.hands += 1
            if meta["went_out"] is not None:
                continue
            state = hand.state
            into.void += 1
            totals = [side.total for side in score_hand(state, None, False, False).sides]
            lead = totals[mine] - max(t for side, t in enumerate(totals) if side != mine)
            into.lead += lead
            into.ahead += int(lead > 0)
            owner = state.owner_of(seats[0])
            others = {state.owner_of(s) for s in range(rules.num_players)} - {owner}
            into.a_canasta += int(canastas(rules, state.melds[owner]) > 0)
            into.other_canasta += int(any(canastas(rules, state.melds[o]) > 0 for o in others))
            for s in seats:
                into.held[len(state.hands[s])] += 1


def report_text(v: Voids) -> str:
    """The plain-text report."""
    f = v.figures()
    held = sum(n * k for n, k in v.held.items()) / max(1, sum(v.held.values()))
    return "\n".join([
        f"{f['void_hands']} of {f['hands']} hands void ({f['void_pct']:.1f}%)",
        f"in them, as they would have scored: {v.bot} {f['lead_per_void_hand']:+.0f} a hand, "
        f"ahead in {f['ahead_pct']:.0f}%",
        f"a canasta on the table: {v.bot}'s side {f['a_canasta_pct']:.0f}%, "
        f"the other side {f['other_canasta_pct']:.0f}%",
        f"cards held by {v.bot}'s players when the stock ran out: {held:.1f} on average",
    ])


def main(argv: Sequence[str] | None = None) -> int:
    """Read the runs and print the report; return the exit status."""
    parser = argparse.ArgumentParser(
        description="The void hands (no going out) of canasta arena --json runs: how many, and "
                    "who was ahead in them, seen from the first bot's side.")
    parser.add_argument("runs", nargs="+", type=Path, help="arena --json files")
    parser.add_argument("--json", action="store_true", help="print one line of JSON")
    args = parser.parse_args(argv)
    voids = Voids()
    for path in args.runs:
        try:
            count(json.loads(path.read_text()), voids)
        except (OSError, ValueError, KeyError) as e:
            parser.error(f"{path}: {e}")
    if args.json:
        print(json.dumps({**voids.figures(), "counts": {k: v for k, v in asdict(voids).items()
                                                         if k != "held"}}))
    else:
        print(report_text(voids))
    return 0


if __name__ == "__main__":
    sys.exit(main())
