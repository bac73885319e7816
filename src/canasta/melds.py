"""Meld arithmetic: what a meld may hold (RULES §1.7), its count, whether it is a canasta.

Everything here is a pure function of counts, so the engine and the legal-action generator share
one definition of a legal meld. Whether a hand can be melded away is :mod:`canasta.going_out`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

from canasta.cards import (
    BLACK_THREE_RANK,
    IS_BLACK_THREE,
    IS_WILD,
    Card,
    card_names,
    rank_char,
)
from canasta.rules import Rules


def melds_to_json(melds: Sequence[tuple[Card, ...] | None]) -> dict[str, list[str]]:
    """A side's melds as ``{rank: [cards]}``, by rank from aces down, black threes last
    (NOTATION §3)."""
    order = sorted((r for r, m in enumerate(melds) if m is not None),
                   key=lambda r: (r == BLACK_THREE_RANK, -r))
    return {rank_char(r): card_names(melds[r] or ()) for r in order}


class MeldLimits:
    """The classic limits on a meld's make-up (RULES §1.7), read once from a rule set's fields:
    the checks run for every candidate meld, and a native object answers them fastest."""

    __slots__ = ("max_size", "max_wilds", "min_naturals", "min_size", "wilds_within_naturals")

    def __init__(self, rules: Rules) -> None:
        self.min_naturals: int = rules.min_naturals_per_meld
        self.min_size: int = rules.min_meld_size
        self.max_wilds: int = rules.max_wilds_per_meld
        self.wilds_within_naturals: bool = rules.wilds_must_not_exceed_naturals
        self.max_size: int | None = rules.max_meld_size

    def wild_cap(self, naturals: int) -> int:
        """The most wild cards a meld with ``naturals`` natural cards may hold."""
        cap = self.max_wilds
        if self.wilds_within_naturals and naturals < cap:
            return naturals
        return cap

    def problem(self, naturals: int, wilds: int, adds_wilds: bool = True) -> str | None:
        """Why a meld of this make-up is not allowed, or ``None`` when it is (RULES §1.7).

        ``adds_wilds`` is False for additions of natural cards only, which can never break a
        wild-card limit that the meld already met (a cutthroat merge may leave a meld above
        it)."""
        size = naturals + wilds
        if naturals < self.min_naturals:
            return f"a meld needs at least {self.min_naturals} natural cards"
        if size < self.min_size:
            return f"a meld needs at least {self.min_size} cards"
        if adds_wilds:
            if wilds > self.max_wilds:
                return f"a meld may hold at most {self.max_wilds} wild cards"
            if self.wilds_within_naturals and wilds > naturals:
                return "wild cards may not outnumber natural cards in a meld"
        if self.max_size is not None and size > self.max_size:
            return f"a meld may hold at most {self.max_size} cards"
        return None


_LIMITS: dict[int, tuple[Rules, MeldLimits]] = {}


class _Last:
    """The rules value asked about last and its limits (an identity test finds them)."""

    __slots__ = ("pair",)

    def __init__(self) -> None:
        self.pair: tuple[Rules | None, MeldLimits | None] = (None, None)


_LAST: Final = _Last()


def limits_of(rules: Rules) -> MeldLimits:
    """The meld limits of ``rules`` (read once per rules value)."""
    last, limits = _LAST.pair
    if last is rules and limits is not None:
        return limits
    found = _LIMITS.get(id(rules))
    if found is not None and found[0] is rules:
        limits = found[1]
    else:
        if len(_LIMITS) > 1000:  # rules read from many requests: keep the table small
            _LIMITS.clear()
        limits = MeldLimits(rules)
        _LIMITS[id(rules)] = (rules, limits)
    _LAST.pair = (rules, limits)
    return limits


def wild_cap(rules: Rules, naturals: int) -> int:
    """The most wild cards a meld with ``naturals`` natural cards may hold."""
    return limits_of(rules).wild_cap(naturals)


def split_counts(cards: Iterable[Card]) -> tuple[int, int]:
    """(natural cards, wild cards) of a meld; black threes count as naturals of their meld."""
    naturals = wilds = 0
    for c in cards:
        if IS_WILD[c]:
            wilds += 1
        else:
            naturals += 1
    return naturals, wilds


def meld_problem(rules: Rules, naturals: int, wilds: int, adds_wilds: bool = True) -> str | None:
    """Why a meld of this make-up is not allowed, or ``None`` when it is (RULES §1.7; see
    :meth:`MeldLimits.problem`)."""
    return limits_of(rules).problem(naturals, wilds, adds_wilds)


def black_three_problem(rules: Rules, cards: Sequence[Card]) -> str | None:
    """Why a group is not a going-out meld of black threes, or ``None`` (RULES §1.9)."""
    if any(not IS_BLACK_THREE[c] for c in cards):
        return "black threes meld only with black threes, never with wild cards"
    if len(cards) not in rules.black_three_meld_sizes:
        sizes = " or ".join(str(s) for s in rules.black_three_meld_sizes)
        return f"a meld of black threes holds {sizes} cards"
    return None


def count(rules: Rules, cards: Iterable[Card]) -> int:
    """The point count of cards (RULES §1.3)."""
    value = rules.value_of
    return sum(value[c] for c in cards)


def is_canasta(rules: Rules, meld: Sequence[Card] | None) -> bool:
    """True for a meld of at least ``canasta_size`` cards."""
    return meld is not None and len(meld) >= rules.canasta_size
