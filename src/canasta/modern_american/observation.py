"""What one seat may know of a Modern American hand (docs/notation.md, "Modern American").

An :class:`Observation` keeps the seat's own hand, the whole table (melds, laid threes, the
pile a player may look at), the number of cards in every other hand, in the stock and in any
talon set aside, and whether the turn card is still in the stock; never another hand, never the
order of the stock or what lies below the visible part of the pile. Bots choose from it alone.

>>> from canasta.modern_american.play import new_hand
>>> h = new_hand(seed=4)
>>> obs = observe(h, 2)
>>> obs.seat, obs.hand_sizes[0], obs.hand == h.hands[2]
(2, 13, True)
>>> obs.to_json()["hands"][0]
13
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from canasta.cards import Card, Rank, card_names, format_card, make_pack
from canasta.modern_american.hand import NUM_SIDES, Hand, HandEnd, Meld, SideMelds, Turn
from canasta.modern_american.knobs import Knobs, ModernAmericanRules
from canasta.modern_american.melds import MAX_MELD, WILD_MELD
from canasta.modern_american.notation import (
    end_to_json,
    melds_to_json,
    seen_to_json,
    turn_to_json,
)
from canasta.modern_american.record import NOTHING_SEEN, Seen


@dataclass(frozen=True)
class Observation:
    """A seat's view of a :class:`~canasta.modern_american.hand.Hand`: its fields, hidden
    parts out. ``pile`` holds the cards a player may look at (all of the pile, or its top
    ``pile_visible_depth``), top last, and ``pile_size`` the whole pile's count; ``talons``
    the sizes of the talons set aside; ``turn`` hides the three another player kept."""

    rules: ModernAmericanRules
    seat: int
    dealer: int
    to_move: int
    phase: str
    hand: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    stock_size: int
    turn_card_drawn: bool
    pile: tuple[Card, ...]
    pile_size: int
    melds: tuple[SideMelds, ...]
    threes: tuple[tuple[Card, ...], ...]
    scores: tuple[int, ...]
    asks: tuple[int, ...]
    answer: str | None
    turn: Turn
    talons: tuple[int, ...]
    courtesy: int | None
    number: int
    end: HandEnd | None
    seen: Seen = NOTHING_SEEN
    """The public record (:mod:`~canasta.modern_american.record`): what the whole table has
    seen of every hand, the same for every seat."""

    # -- facts, as the hand answers them ------------------------------------------------------
    @property
    def knobs(self) -> Knobs:
        """The family's own rules (MA §16.2)."""
        return self.rules.knobs

    @property
    def is_over(self) -> bool:
        """True once the hand has ended."""
        return self.end is not None

    @property
    def result(self) -> HandEnd | None:
        """How the hand ended, once it has."""
        return self.end

    def side_of(self, seat: int) -> int:
        """The side of ``seat``: partners sit opposite."""
        return seat % NUM_SIDES

    def side_melded(self, side: int) -> bool:
        """True once ``side`` has a meld on the table."""
        return any(m is not None for m in self.melds[side])

    def canastas(self, side: int) -> int:
        """The completed canastas of ``side``."""
        return sum(1 for m in self.melds[side] if m is not None and len(m) >= MAX_MELD)

    @property
    def dead(self) -> frozenset[Rank]:
        """The natural ranks of which either side has completed a canasta (MA §4.6)."""
        if not self.knobs.dead_ranks:
            return frozenset()
        return frozenset(key for melds in self.melds for key, m in enumerate(melds)
                         if key != WILD_MELD and m is not None and len(m) >= MAX_MELD)

    def side_melds(self, side: int) -> Iterator[tuple[Rank, Meld]]:
        """The melds of ``side`` on the table, with their keys."""
        for key, m in enumerate(self.melds[side]):
            if m is not None:
                yield key, m

    def minimum(self, side: int) -> int:
        """The count of the initial meld of ``side`` (MA §5.1)."""
        by_number = self.knobs.initial_meld_by_hand_number
        if by_number:
            return by_number[min(self.number, len(by_number)) - 1]
        return self.rules.minimum_for(self.scores[side])

    def to_json(self) -> dict[str, Any]:
        """The position as the seat sees it: other hands, the stock and set-aside talons as
        counts, the turn card as ``turn_card_drawn``, a pile seen only in part as its top cards
        and ``pile_below``."""
        out: dict[str, Any] = {
            "rules": self.rules.to_json(), "seat": self.seat, "dealer": self.dealer,
            "to_move": self.to_move, "phase": self.phase,
            "hands": [card_names(self.hand) if s == self.seat else n
                      for s, n in enumerate(self.hand_sizes)],
            "stock": self.stock_size, "pile": card_names(self.pile),
            "sides": [{"score": self.scores[s], "melds": melds_to_json(self.melds[s]),
                       "threes": card_names(self.threes[s])} for s in range(NUM_SIDES)],
            "asks": list(self.asks), "answer": self.answer, "turn": turn_to_json(self.turn),
            "turn_card_drawn": self.turn_card_drawn,
        }
        if self.pile_size > len(self.pile):
            out["pile_below"] = self.pile_size - len(self.pile)
        if self.courtesy is not None:
            out["courtesy"] = self.courtesy
        if self.knobs.initial_meld_by_hand_number is not None or self.number != 1:
            out["hand_number"] = self.number
        if self.talons:
            out["talons"] = list(self.talons)
        if self.end is not None:
            out["result"] = end_to_json(self.end)
        if self.end is None and self.seat != self.to_move:
            out["turn"].pop("kept", None)
        if not self.seen.is_empty:
            out["seen"] = seen_to_json(self.seen)
        return out


def observe(h: Hand, seat: int) -> Observation:
    """What ``seat`` may know of ``h``."""
    if not 0 <= seat < len(h.hands):
        raise ValueError(f"seat {seat} is not at this table")
    depth = h.knobs.pile_visible_depth
    pile = h.pile if depth is None or len(h.pile) <= depth else h.pile[-depth:]
    turn = h.turn
    if h.end is None and seat != h.to_move and turn.kept is not None:
        turn = turn.but(kept=None)  # only its player knows which three was kept
    return Observation(
        rules=h.rules, seat=seat, dealer=h.dealer, to_move=h.to_move, phase=h.phase,
        hand=h.hands[seat], hand_sizes=tuple(len(cards) for cards in h.hands),
        stock_size=len(h.stock), turn_card_drawn=h.turn_card_drawn, pile=pile,
        pile_size=len(h.pile), melds=h.melds, threes=h.threes, scores=h.scores, asks=h.asks,
        answer=h.answer, turn=turn, talons=tuple(len(t) for t in h.talons),
        courtesy=h.courtesy, number=h.number, end=h.end, seen=h.seen)


def format_top(obs: Observation) -> str | None:
    """The pile's top card as text, or ``None`` for an empty pile."""
    return format_card(obs.pile[-1]) if obs.pile else None


def world(obs: Observation, rng: random.Random) -> Hand:
    """A hand the seat cannot tell from what it sees: its own cards and the table as
    observed, every other player holding the cards the table knows it holds (``seen``), the
    rest of the cards it cannot see (the other hands, the stock, the pile below its visible
    top, the talons set aside) dealt at random, each keeping its size. Built from ``obs``
    alone, so a bot that reads it learns nothing hidden."""
    rules = obs.rules
    unseen = Counter(make_pack(rules.num_decks, rules.num_jokers))
    unseen.subtract(obs.hand)
    unseen.subtract(obs.pile)
    unseen.subtract(c for melds in obs.melds for m in melds if m is not None for c in m)
    unseen.subtract(c for laid in obs.threes for c in laid)
    if obs.turn.kept is not None and obs.seat != obs.to_move:
        unseen[obs.turn.kept] -= 1
    known: list[list[Card]] = [[] for _ in obs.hand_sizes]
    for s, held in enumerate(obs.seen.held):
        if s == obs.seat:
            continue
        for c in held:
            if unseen[c] > 0 and len(known[s]) < obs.hand_sizes[s]:
                known[s].append(c)
                unseen[c] -= 1
    cards = sorted(unseen.elements())
    rng.shuffle(cards)
    at = 0
    hands: list[tuple[Card, ...]] = []
    for s, size in enumerate(obs.hand_sizes):
        if s == obs.seat:
            hands.append(obs.hand)
            continue
        n = size - len(known[s])
        hands.append(tuple(sorted((*cards[at:at + n], *known[s]))))
        at += n
    below = obs.pile_size - len(obs.pile)
    pile = (*cards[at:at + below], *obs.pile)
    at += below
    talons = []
    for size in obs.talons:
        talons.append(tuple(sorted(cards[at:at + size])))
        at += size
    return Hand(dealer=obs.dealer, to_move=obs.to_move, phase=obs.phase, hands=tuple(hands),
                stock=tuple(cards[at:]), pile=pile, melds=obs.melds, threes=obs.threes,
                scores=obs.scores, asks=obs.asks, answer=obs.answer, turn=obs.turn,
                end=obs.end, courtesy=obs.courtesy, number=obs.number, talons=tuple(talons),
                rules=rules, seen=obs.seen)
