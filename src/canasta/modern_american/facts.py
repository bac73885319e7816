"""The facts of a Modern American position that the checks of its actions
(:mod:`~canasta.modern_american.checks`) and the ways to lay its cards
(:mod:`~canasta.modern_american.layings`) read, found once per position (:class:`Facts`,
:func:`facts_of`): the legal list asks many actions of one position, and the action then chosen
is checked again."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from canasta.cards import Card, Rank
from canasta.modern_american.discards import discard_problem
from canasta.modern_american.hand import NUM_SIDES, Hand, SideMelds, dead_ranks
from canasta.modern_american.knobs import RETRACT_MELDS, Knobs
from canasta.modern_american.melds import MeldContext


def any_discard(knobs: Knobs, hand: Sequence[Card], pile_empty: bool,
                dead: frozenset[Rank]) -> bool:
    """Whether ``hand`` holds a card it may discard (MA §7)."""
    last = -1
    for c in hand:
        if c != last and discard_problem(knobs, c, hand, pile_empty, dead) is None:
            return True
        last = c
    return False


class Facts:
    """The facts of a position that the checks of its actions read, found once: the player to
    move (``seat``), its ``side`` and ``hand``, the side's ``melds`` and whether it has
    ``melded``, the ``dead`` ranks, whether the pile is empty, the cards' values and (found
    when first asked) whether the hand holds a card it may discard and the side's minimum."""

    h: Hand
    knobs: Knobs
    seat: int
    side: int
    hand: tuple[Card, ...]
    melds: SideMelds
    melded: bool
    dead: frozenset[Rank]
    pile_empty: bool
    retract: bool
    value_of: Sequence[int]
    _discardable: int
    _minimum: int

    def __init__(self, h: Hand) -> None:
        knobs = h.rules.knobs
        seat = h.to_move
        side = seat % NUM_SIDES
        self.h = h
        self.knobs = knobs
        self.seat = seat
        self.side = side
        self.hand = h.hands[seat]
        self.melds = h.melds[side]
        self.melded = h.side_melded(side)
        self.dead = dead_ranks(knobs, h.melds)
        self.pile_empty = not h.pile
        self.retract = knobs.no_legal_discard_remedy == RETRACT_MELDS
        self.value_of = h.rules.value_of
        self._discardable = -1
        self._minimum = -1

    @property
    def minimum(self) -> int:
        """The count of the side's initial meld (MA §5.1)."""
        if self._minimum < 0:
            self._minimum = self.h.minimum(self.side)
        return self._minimum

    def context(self) -> MeldContext:
        """The moment of a meld by the side now, before it lays anything."""
        return MeldContext(self.h.turn.opening or not self.melded,
                           self.h.wild_meld_incomplete(self.side), self.dead)

    def may_discard_now(self) -> bool:
        """Whether the hand holds a card it may discard now (MA §7)."""
        if self._discardable < 0:
            self._discardable = int(any_discard(self.knobs, self.hand, self.pile_empty,
                                                self.dead))
        return self._discardable == 1


_LAST: Final[list[tuple[Hand, Facts]]] = []
"""The last position whose facts were found, with them (one pair, replaced whole)."""


def facts_of(h: Hand) -> Facts:
    """The :class:`Facts` of ``h``; those of the last position asked are kept, so the legal
    list and the action then chosen read the same."""
    if _LAST:
        last = _LAST[0]
        if last[0] is h:
            return last[1]
    f = Facts(h)
    if _LAST:
        _LAST[0] = (h, f)
    else:
        _LAST.append((h, f))
    return f
