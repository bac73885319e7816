"""Behaviour audit of Modern American bots: what a club player would notice, counted.

For each bot, plays ``--hands`` seeded hands with four copies of it and counts, per hand:

* **held penalties**: the points every player's aces and sevens in hand cost when the hand
  ends (MA §13.5: three or more of either, 1500 each), summed over the four players;
* **incomplete penalties**: the points melds of sevens, natural aces and wild cards left short
  of a canasta cost (MA §13.3), over both sides;
* how the hand ends: someone going out, a special hand, or the stock running out with nobody
  out; of the goings out, the share made without asking the partner while the partner held
  three aces or sevens (or more), and the points the partner's hand then cost;
* **big packs fed**: discards after which the next player, an opponent, picked a pack of
  ``BIG_PACK`` cards or more;
* the mean time a decision takes.

With ``--against SPEC`` each bot holds one side and ``SPEC`` the other (the side changes from
hand to hand); the counts are then the bot's side's (held penalties: its two players).

Every bot plays the same deals: hand ``i`` is dealt from the shuffle of
``derive_seed("modern-audit", seed, i)`` by dealer ``i % 4``; the bot at seat ``s`` gets a
``random.Random`` seeded from ``(seed, i, s)``. A run is reproducible from its command line.

Usage::

    python benchmarks/modern_audit.py --bots heuristic,heuristic-v1 --hands 1000 --seed 1
    python benchmarks/modern_audit.py --bots heuristic --against heuristic-v1 --hands 200 --json
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from canasta.arena.schedule import derive_seed
from canasta.bots import make_bot
from canasta.family import family_named, get_rules
from canasta.modern_american.hand import Hand
from canasta.modern_american.scoring import held_penalty, incomplete_penalty

BIG_PACK = 15
"""A pack this big or bigger is a big one to feed the next player."""


@dataclass
class Audit:
    """One bot's counts over the hands it played."""

    bot: str
    hands: int = 0
    held: int = 0
    incomplete: int = 0
    went_out: int = 0
    special: int = 0
    stock_out: int = 0
    out_without_asking_partner_loaded: int = 0
    partner_held_when_out: int = 0
    big_packs_fed: int = 0
    decisions: int = 0
    seconds: float = 0.0
    points: list[int] = field(default_factory=list)

    def report(self) -> dict[str, float | str | int]:
        n = self.hands or 1
        outs = self.went_out or 1
        return {
            "bot": self.bot, "hands": self.hands,
            "held_penalty_per_hand": round(self.held / n, 1),
            "incomplete_penalty_per_hand": round(self.incomplete / n, 1),
            "went_out": round(self.went_out / n, 3), "special": round(self.special / n, 3),
            "stock_out": round(self.stock_out / n, 3),
            "out_unasked_partner_loaded": round(self.out_without_asking_partner_loaded / outs, 3),
            "partner_held_when_out": round(self.partner_held_when_out / outs, 1),
            "big_packs_fed_per_hand": round(self.big_packs_fed / n, 3),
            "side_points_per_hand": round(sum(self.points) / n, 1),
            "ms_per_decision": round(1000 * self.seconds / (self.decisions or 1), 2),
        }


def audit(spec: str, against: str | None, hands: int, seed: int, preset: str) -> Audit:
    rules = get_rules(preset)
    family = family_named("modern-american")
    counts = Audit(spec)
    for i in range(hands):
        own_side = i % 2 if against else None
        bots = [make_bot(spec if own_side in (None, s % 2) else str(against), family)
                for s in range(4)]
        rngs = [random.Random(derive_seed(seed, i, s)) for s in range(4)]
        h: Hand = family.new_hand(rules, derive_seed("modern-audit", seed, i), dealer=i % 4)
        while not h.is_over:
            seat = h.to_move
            legal = family.legal_actions(h)
            started = time.process_time()
            action = bots[seat].choose(family.observe(h, seat), legal, rngs[seat])
            if own_side in (None, seat % 2):
                counts.seconds += time.process_time() - started
                counts.decisions += 1
            after = family.apply(h, action)
            if (action.verb == "discard" and after.to_move % 2 != seat % 2
                    and own_side in (None, seat % 2)):
                counts.big_packs_fed += _picks_big(family, after, bots, rngs)
            h = after
        _count_end(counts, h, own_side)
    return counts


def _picks_big(family: object, h: Hand, bots: Sequence[object], rngs: Sequence[random.Random]
               ) -> int:
    """1 if the next player picks the pack of ``BIG_PACK`` cards or more on this turn (asked of
    the same bot with a copy of its generator, so the game itself is not changed)."""
    if len(h.pile) < BIG_PACK or h.is_over or h.phase != "draw":
        return 0
    seat = h.to_move
    legal = family.legal_actions(h)  # type: ignore[attr-defined]
    if not any(a.verb == "take" for a in legal):
        return 0
    rng = random.Random()
    rng.setstate(rngs[seat].getstate())
    choice = bots[seat].choose(family.observe(h, seat), legal, rng)  # type: ignore[attr-defined]
    return int(choice.verb == "take")


def _count_end(counts: Audit, h: Hand, own_side: int | None) -> None:
    end = h.end
    assert end is not None
    knobs = h.knobs
    seats = [s for s in range(4) if own_side in (None, s % 2)]
    sides = sorted({s % 2 for s in seats})
    counts.hands += 1
    counts.held += sum(held_penalty(knobs, h.hands[s]) for s in seats)
    counts.incomplete += sum(incomplete_penalty(knobs, key, m) for side in sides
                             for key, m in enumerate(h.melds[side]) if m is not None)
    counts.points += [sum(end.sides[side].total for side in sides)]
    if end.special is not None:
        counts.special += 1
    elif end.went_out is not None:
        counts.went_out += 1
        goer = end.went_out
        partner_cost = held_penalty(knobs, h.hands[(goer + 2) % 4])
        if own_side in (None, goer % 2):
            counts.partner_held_when_out += partner_cost
            if partner_cost and not h.asks[goer]:
                counts.out_without_asking_partner_loaded += 1
    else:
        counts.stock_out += 1


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bots", default="heuristic", help="bot specs, comma-separated")
    parser.add_argument("--against", default=None, help="the other side's bot (default: self)")
    parser.add_argument("--hands", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rules", default="modern-american")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    reports = [audit(spec, args.against, args.hands, args.seed, args.rules).report()
               for spec in args.bots.split(",")]
    if args.json:
        print(json.dumps(reports, indent=2))
        return 0
    keys = [k for k in reports[0] if k != "bot"]
    width = max(len(k) for k in keys)
    print(f"{'':{width}}  " + "  ".join(f"{r['bot']:>14}" for r in reports))
    for k in keys:
        print(f"{k:{width}}  " + "  ".join(f"{r[k]!s:>14}" for r in reports))
    return 0


if __name__ == "__main__":
    sys.exit(main())
