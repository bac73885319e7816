"""Who plays what: bot lists, round-robin pairings, duplicate seating, and derived seeds.

The duplicate scheme (BOTS.md §5.2)
-----------------------------------
A pairing of bots A and B is played in *game pairs*. Game pair ``g`` has two *twins*, whole
games (until the rules' family says a side has won) that see the same pack orders: hand ``j``
of both twins is dealt from the pack :func:`deck_seed` ``(seed, g, j)`` gives, by the same
dealer. The pack orders do not depend on the pairing, so every pairing of a round robin plays
the same deals.

Seats are given by *sides* (side of seat ``s`` = ``s % num_sides``; where every player plays
alone, every seat is its own side). In twin 0, A holds every seat of one side, the *lead
side*, and B holds every other seat; twin 1 swaps them: B holds the lead side and A the rest.
So:

- partnerships (two sides of two or three players): A is one partnership, B the other, and
  the twins swap partnerships;
- two players: A and B swap seats;
- three players, each a side: A plays alone against two copies of B in one twin, and B alone
  against two copies of A in the other.

The scheme reads only the rules' seats and sides, so it is the same for every family.

Every seat of every deal is thus held once by A and once by B. Across game pairs the first
dealer is ``g % num_players`` and the lead side is that of the seat ``r`` places after the
dealer, ``r = (g // num_players) % num_sides``, so every ``num_players · num_sides`` game
pairs cover each combination of dealer and lead position; the dealer then moves on by one seat
each hand within a game, as the rules say.

A hand's figure is *A's mean side total minus B's mean side total* (for two sides simply A's
total minus B's). A hand of twin 0 and the hand of twin 1 dealt from the same pack order form
a *duplicate pair*; a hand whose twin ended its game before that hand is unpaired.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from canasta.rules import Rules

TWINS = (0, 1)


def derive_seed(*parts: object) -> int:
    """A 64-bit seed from any parts (ints and strings), the same on every machine and run."""
    text = "\x1f".join(str(p) for p in parts)
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "big")


def deck_seed(seed: int, game_pair: int, hand: int) -> int:
    """Seed of the pack order of hand ``hand`` (from 0) of game pair ``game_pair``."""
    return derive_seed("deck", seed, game_pair, hand)


def bot_seed(seed: int, pairing: int, game_pair: int, twin: int, hand: int, seat: int) -> int:
    """Seed of the random generator of the bot at ``seat`` for one hand of one twin."""
    return derive_seed("bot", seed, pairing, game_pair, twin, hand, seat)


def split_bot_specs(items: Iterable[str]) -> list[str]:
    """Bot specs from command-line text: ``"heuristic,greedy"`` or several arguments.

    A comma-separated piece ``key=value`` without a bot name continues the spec before it, so
    ``"ismcts:iterations=200,seconds=1,greedy"`` is ``["ismcts:iterations=200,seconds=1",
    "greedy"]``.
    """
    specs: list[str] = []
    for item in items:
        for piece in item.split(","):
            piece = piece.strip()
            if not piece:
                continue
            if "=" in piece and ":" not in piece and specs and ":" in specs[-1]:
                specs[-1] += "," + piece
            else:
                specs.append(piece)
    return specs


def bot_labels(specs: Sequence[str]) -> list[str]:
    """Names for the bots in reports: the spec, with ``#1``, ``#2`` ... when a spec repeats."""
    labels = []
    for i, spec in enumerate(specs):
        if specs.count(spec) > 1:
            labels.append(f"{spec}#{specs[:i].count(spec) + 1}")
        else:
            labels.append(spec)
    return labels


def pairings(num_bots: int) -> list[tuple[int, int]]:
    """Round robin: every pair ``(i, j)`` with ``i < j``, in command-line order."""
    return [(i, j) for i in range(num_bots) for j in range(i + 1, num_bots)]


@dataclass(frozen=True)
class Seating:
    """Where a game pair starts: the first dealer and the lead side (held by A in twin 0)."""

    dealer: int
    lead_side: int

    def a_sides(self, rules: Rules, twin: int) -> tuple[int, ...]:
        """The sides A holds in ``twin``."""
        if twin == 0:
            return (self.lead_side,)
        return tuple(s for s in range(rules.num_sides) if s != self.lead_side)

    def holders(self, rules: Rules, twin: int) -> tuple[int, ...]:
        """Per seat, 0 when A holds it in ``twin`` and 1 when B does."""
        mine = self.a_sides(rules, twin)
        return tuple(0 if rules.side_of(s) in mine else 1 for s in range(rules.num_players))


def seating(rules: Rules, game_pair: int) -> Seating:
    """The seating of game pair ``game_pair`` (see the module docstring)."""
    n, k = rules.num_players, rules.num_sides
    dealer = game_pair % n
    offset = (game_pair // n) % k
    return Seating(dealer, rules.side_of((dealer + 1 + offset) % n))


def hand_difference(totals: Sequence[int], holders: Sequence[int], num_sides: int) -> float:
    """A's mean side total minus B's mean side total, for one hand.

    ``holders`` is per seat (0 for A, 1 for B); ``totals`` per side.
    """
    a_sides = {s % num_sides for s, h in enumerate(holders) if h == 0}
    b_sides = {s % num_sides for s, h in enumerate(holders) if h == 1}
    a = sum(totals[s] for s in a_sides) / len(a_sides)
    b = sum(totals[s] for s in b_sides) / len(b_sides)
    return a - b
