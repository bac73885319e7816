"""Meld arithmetic: what a meld may hold (RULES §1.7), and whether a hand can still go out.

Everything here is a pure function of counts, so the engine and the legal-action generator share
one definition of a legal meld.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

from canasta.cards import (
    BLACK_THREE_RANK,
    IS_BLACK_THREE,
    IS_NATURAL,
    IS_WILD,
    NATURAL_RANKS,
    RANK_OF,
    TWO,
    Card,
    card_names,
    rank_char,
)
from canasta.rules import Rules

UNLIMITED: Final = 1 << 30


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


def can_go_out(
    rules: Rules,
    hand: Sequence[Card],
    melds: Sequence[Sequence[Card] | None],
    minimum: int | None,
    exempt: bool,
    discard: bool = True,
) -> bool:
    """Whether the player can still empty ``hand`` this turn (melding it, with at most one discard).

    ``melds`` are the melds the player plays on. ``minimum`` is the opening count the melds must
    reach when the side has not melded (``None`` otherwise); with ``exempt`` the minimum is waived
    for a concealed going out, which then needs a canasta of the player's own. With ``discard``
    False the whole hand must be melded (no discard follows).
    """
    # Cheap necessary conditions first: this runs before every "may I go out?".
    counts = [0] * (TWO + 1)  # by rank: black threes (no red three stays in a hand), wild cards
    for c in hand:
        counts[RANK_OF[c]] += 1
    size = rules.canasta_size
    wild_room = min(counts[TWO], rules.max_wilds_per_meld)
    have = reachable = 0
    stuck_rank = -1
    stuck_ranks = 0
    for rank in NATURAL_RANKS:
        meld = melds[rank]
        n = counts[rank]
        if meld is None:
            if n == 0:
                continue
            if n < rules.min_naturals_per_meld:
                stuck_ranks += 1  # a lone natural can only be the discard
                stuck_rank = rank
            if n + wild_room >= size:
                reachable += 1
        elif len(meld) >= size:
            have += 1
        elif len(meld) + n + wild_room >= size:
            reachable += 1
    if have + reachable < rules.min_canastas_to_go_out:
        return False
    blacks = counts[BLACK_THREE_RANK]
    blacks_stuck = blacks > 0 and (blacks not in rules.black_three_meld_sizes
                                   or melds[BLACK_THREE_RANK] is not None)
    if stuck_ranks + blacks_stuck > (1 if discard else 0):
        return False  # one discard cannot free two ranks
    options: list[Card | None]
    if not discard:
        if rules.going_out_requires_discard:
            return False
        options = [None]
    elif stuck_ranks:
        options = [c for c in set(hand) if IS_NATURAL[c] and RANK_OF[c] == stuck_rank]
    elif blacks_stuck:
        options = [c for c in set(hand) if IS_BLACK_THREE[c]]
    else:
        options = [*sorted(set(hand))]
        if not rules.going_out_requires_discard:
            options.append(None)
    return _out_with_one_of(rules, hand, options, melds, minimum, exempt)


def _out_with_one_of(rules: Rules, hand: Sequence[Card], options: list[Card | None],
                     melds: Sequence[Sequence[Card] | None], minimum: int | None,
                     exempt: bool) -> bool:
    """Whether ``hand`` less one of ``options`` (``None``: no card) can all be laid
    (:func:`_partition_goes_out`)."""
    counted = _rest_counts(hand)
    if counted is None:  # a red three, which never stays in a hand: each rest as it is
        return any(_partition_goes_out(rules, _without(hand, card), melds, minimum, exempt)
                   for card in options)
    naturals, blacks, wilds = counted
    value = count(rules, hand)
    for card in options:
        # the hand's counts without the discard, put back after the test
        if card is None:
            out = _lays_out(rules, naturals, blacks, wilds, value, melds, minimum, exempt)
        elif IS_NATURAL[card]:
            naturals[RANK_OF[card]] -= 1
            out = _lays_out(rules, naturals, blacks, wilds, value - rules.value_of[card], melds,
                            minimum, exempt)
            naturals[RANK_OF[card]] += 1
        else:
            black = 1 if IS_BLACK_THREE[card] else 0
            out = _lays_out(rules, naturals, blacks - black, wilds - (1 - black),
                            value - rules.value_of[card], melds, minimum, exempt)
        if out:
            return True
    return False


def _without(hand: Sequence[Card], card: Card | None) -> list[Card]:
    rest = list(hand)
    if card is not None:
        rest.remove(card)
    return rest


def _partition_goes_out(
    rules: Rules,
    rest: list[Card],
    melds: Sequence[Sequence[Card] | None],
    minimum: int | None,
    exempt: bool,
) -> bool:
    """Whether ``rest`` can all be laid on ``melds`` and new melds, with the canastas needed to
    go out (and, for a side that has not melded, the opening count or a concealed canasta)."""
    counted = _rest_counts(rest)
    if counted is None:
        return False
    naturals, blacks, wilds = counted
    return _lays_out(rules, naturals, blacks, wilds, count(rules, rest), melds, minimum, exempt)


def _lays_out(rules: Rules, naturals: list[int], blacks: int, wilds: int, value: int,
              melds: Sequence[Sequence[Card] | None], minimum: int | None, exempt: bool) -> bool:
    """:func:`_partition_goes_out` of cards counted: ``naturals`` by rank, ``blacks`` black
    threes and ``wilds`` wild cards, worth ``value`` in all."""
    if blacks and (blacks not in rules.black_three_meld_sizes
                   or melds[BLACK_THREE_RANK] is not None):
        return False
    reach = _wild_reach(rules, naturals, melds)
    if reach is None:
        return False
    have, lower_total, cap_total, extras = reach
    if not lower_total <= wilds <= cap_total:
        return False
    # the wild cards left after each meld's minimum complete the nearest canastas first
    budget = wilds - lower_total
    for extra in sorted(extras):
        if extra > budget:
            break
        budget -= extra
        have += 1
    if have < rules.min_canastas_to_go_out:
        return False
    if minimum is None:
        return True
    if exempt:
        # the side has no meld yet, so every canasta made now is the player's own
        return have > 0 or not rules.concealed_requires_own_canasta
    return value >= minimum


def _rest_counts(rest: Sequence[Card]) -> tuple[list[int], int, int] | None:
    """(natural cards by rank, black threes, wild cards) of cards to lay; ``None`` with a red
    three, which never stays in a hand."""
    naturals = [0] * len(NATURAL_RANKS)
    blacks = wilds = 0
    for c in rest:
        if IS_NATURAL[c]:
            naturals[RANK_OF[c]] += 1
        elif IS_WILD[c]:
            wilds += 1
        elif IS_BLACK_THREE[c]:
            blacks += 1
        else:
            return None
    return naturals, blacks, wilds


def _wild_reach(rules: Rules, naturals: list[int], melds: Sequence[Sequence[Card] | None]
                ) -> tuple[int, int, int, list[int]] | None:
    """With ``naturals`` laid by rank: (canastas then complete, wild cards the melds need at
    least, wild cards they may take at most, wild cards each nearly complete canasta still
    needs), or ``None`` when a rank cannot be laid at all."""
    size = rules.canasta_size
    limits = limits_of(rules)
    have = sum(1 for m in melds if m is not None and len(m) >= size)
    lower_total = cap_total = 0
    extras: list[int] = []
    for rank in NATURAL_RANKS:
        n = naturals[rank]
        existing = melds[rank]
        if n == 0 and (existing is None or len(existing) >= size):
            # nothing to lay here; a complete canasta may still absorb wild cards
            if existing is not None:
                en, ew = split_counts(existing)
                cap_total += max(0, limits.wild_cap(en) - ew)
            continue
        room = _meld_room(limits, n, existing)
        if room is None:
            return None
        lower, cap, base = room
        lower_total += lower
        cap_total += cap
        if base >= size:
            if existing is None or len(existing) < size:
                have += 1
        elif size - base <= cap - lower:
            extras.append(size - base)
    return have, lower_total, cap_total, extras


def _meld_room(limits: MeldLimits, naturals: int, existing: Sequence[Card] | None
               ) -> tuple[int, int, int] | None:
    """For ``naturals`` laid on ``existing`` (or as a new meld): (wild cards the meld needs at
    least, wild cards it may take at most, its size with the least), or ``None`` when the meld
    cannot be made."""
    if existing is None:
        if naturals < limits.min_naturals:
            return None
        cap = limits.wild_cap(naturals)
        lower = max(0, limits.min_size - naturals)
        base = naturals + lower
    else:
        en, ew = split_counts(existing)
        cap = max(0, limits.wild_cap(en + naturals) - ew)
        lower = 0
        base = len(existing) + naturals
    if limits.max_size is not None:
        room = limits.max_size - base
        if room < 0:
            return None
        cap = min(cap, lower + room)
    if lower > cap:
        return None
    return lower, cap, base
