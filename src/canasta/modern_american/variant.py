"""The seam's answers for Modern American Canasta (ARCHITECTURE.md, "The rules seam")."""

from __future__ import annotations

from collections.abc import Sequence

from canasta.cards import IS_WILD, Card
from canasta.modern_american.knobs import ALWAYS, KNOBS, Knobs
from canasta.modern_american.melds import MAX_MELD, WILD_MELD, MeldContext, meld_problem
from canasta.rules import Rules
from canasta.variant import MIXED, NATURAL, ClassicVariant

WILD: str = "wild"
"""The kind of a canasta of wild cards alone."""


class ModernAmericanVariant(ClassicVariant):
    """Modern American: the classic fields of :func:`~canasta.modern_american.knobs.base_rules`
    and the family's :class:`~canasta.modern_american.knobs.Knobs`."""

    def __init__(self, rules: Rules, knobs: Knobs = KNOBS) -> None:
        super().__init__(rules)
        self.knobs = knobs

    def meld_problem(self, key: int, naturals: int, wilds: int, *, adds_wilds: bool = True,
                     joining: bool = True) -> str | None:
        """The count-level check is not enough for this family: a meld of sevens or aces, a
        meld of wild cards, the rule of five need the cards and the moment
        (:meth:`meld_problem_in`). By counts alone: the size and wild-card limits."""
        del adds_wilds, joining
        if key == WILD_MELD:
            return None if naturals == 0 else "a meld of wild cards holds only twos and jokers"
        return super().meld_problem(key, naturals, wilds)

    def meld_problem_in(self, ctx: MeldContext, key: int, before: Sequence[Card],
                        added: Sequence[Card]) -> str | None:
        """Why ``added`` may not join the side's meld of ``key`` (holding ``before``) at the
        moment ``ctx``, or ``None`` (MA §4)."""
        return meld_problem(self.knobs, key, before, added, ctx)

    def wild_room(self, key: int, naturals: int, wilds: int) -> int:
        """Wild cards the meld may still take, by counts (the moment may forbid them)."""
        if key == WILD_MELD:
            return max(0, self.knobs.wild_meld_sizes[1] - wilds)
        if self.knobs.natural_only(key) == ALWAYS:
            return 0
        return min(super().wild_room(key, naturals, wilds), MAX_MELD - naturals - wilds)

    def canasta_kind(self, meld: Sequence[Card] | None) -> str | None:
        """``"natural"``, ``"mixed"`` or ``"wild"`` for a completed canasta."""
        if meld is None or len(meld) < self.canasta_size:
            return None
        if all(IS_WILD[c] for c in meld):
            return WILD
        return MIXED if any(IS_WILD[c] for c in meld) else NATURAL
