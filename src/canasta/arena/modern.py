"""The arena for Modern American Canasta: two bots on duplicate deals, sides swapped.

Every deal (a seeded pack and dealer) is played twice with the bots swapping sides, and the
deal's figure is the first bot's side score minus the other's, averaged over the two plays, so
the luck of the cards cancels out. The result is the mean points per hand for the first bot with
a 95% interval (normal approximation over deals) and the hands each bot's side won.

>>> result = pairing("modern-heuristic", "modern-random", deals=2, seed=1)
>>> result.deals, result.hands, result.low <= result.points_per_hand <= result.high
(2, 4, True)
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

from canasta.bots.modern import make_modern_bot
from canasta.modern_american.hand import shuffled_pack
from canasta.modern_american.play import apply, new_hand


@dataclass(frozen=True)
class Pairing:
    """``first`` against ``second``: points per hand for ``first`` with a 95% interval."""

    first: str
    second: str
    deals: int
    points_per_hand: float
    low: float
    high: float
    first_won: int
    hands: int


def play_hand(first: str, second: str, deck: list[int], dealer: int, seed: int
              ) -> tuple[int, int]:
    """One hand, ``first`` on side 0 (seats 0 and 2): the two sides' totals."""
    bots = [make_modern_bot(first if seat % 2 == 0 else second, seed * 4 + seat)
            for seat in range(4)]
    h = new_hand(deck=deck, dealer=dealer)
    while h.end is None:
        h = apply(h, bots[h.to_move].choose(h))
    return h.end.sides[0].total, h.end.sides[1].total


def pairing(first: str, second: str, deals: int, seed: int = 0) -> Pairing:
    """``first`` against ``second`` over ``deals`` duplicate deals."""
    make_modern_bot(first), make_modern_bot(second)  # a bad spec fails before any play
    rng = random.Random(seed)
    diffs = []
    won = 0
    for i in range(deals):
        deck = shuffled_pack(seed=rng.getrandbits(63))
        dealer = i % 4
        a0, b1 = play_hand(first, second, deck, dealer, i)
        b0, a1 = play_hand(second, first, deck, dealer, i)
        diffs.append(((a0 - b1) + (a1 - b0)) / 2)
        won += (a0 > b1) + (a1 > b0)
    mean = sum(diffs) / len(diffs)
    sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / max(1, len(diffs) - 1))
    half = 1.96 * sd / math.sqrt(len(diffs))
    return Pairing(first, second, deals, mean, mean - half, mean + half, won, 2 * deals)
