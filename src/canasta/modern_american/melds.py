"""What a Modern American meld may hold, and what its initial meld needs (MA §4, §5).

A classic meld check needs only counts; this family's needs the meld's key, the cards it holds
and the cards added, and the moment: whether it is the side's initial-meld turn, whether the
side has an incomplete meld of wild cards, and which ranks are dead (:class:`MeldContext`).

>>> from canasta.cards import parse_cards
>>> from canasta.modern_american.knobs import KNOBS, SEVEN
>>> later = MeldContext(opening=False)
>>> meld_problem(KNOBS, SEVEN, (), tuple(parse_cards("7c 7d 7h 2c")), later)
'a meld of sevens never takes wild cards'
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

from canasta.cards import IS_NATURAL, IS_WILD, JOKER, RANK_OF, TWO, Card, Rank, rank_name
from canasta.modern_american.knobs import AFTER_OPENING, ALWAYS, Knobs

WILD_MELD: Final[Rank] = TWO
"""The meld key of a meld of wild cards alone (``W`` in positions and actions)."""
MAX_MELD: Final = 7
"""No meld holds more than seven cards, so a canasta is exactly seven (MA §4.1)."""
MIN_MELD: Final = 3
MIN_NATURALS: Final = 2
MAX_WILDS: Final = 2


class MeldContext:
    """The moment of a meld: ``opening`` in the turn of the side's initial meld,
    ``wild_meld_incomplete`` while the side has an unfinished meld of wild cards, the ``dead``
    ranks (either side has completed a canasta of them), and ``going_out``: the meld leaves
    the one card the player goes out with (where the rules allow it,
    ``max_meld_size_exception_when_going_out``, it may take a meld past seven cards)."""

    def __init__(self, opening: bool, wild_meld_incomplete: bool = False,
                 dead: frozenset[Rank] = frozenset(), going_out: bool = False) -> None:
        self.opening: Final = opening
        self.wild_meld_incomplete: Final = wild_meld_incomplete
        self.dead: Final = dead
        self.going_out: Final = going_out

    def __repr__(self) -> str:
        return (f"MeldContext(opening={self.opening!r}, wild_meld_incomplete="
                f"{self.wild_meld_incomplete!r}, dead={self.dead!r}, "
                f"going_out={self.going_out!r})")


def natural_only(knobs: Knobs, rank: Rank) -> str | None:
    """``"always"``, ``"after_opening"`` or ``None`` for melds of ``rank`` (MA §4.3, §4.4)."""
    for r, mode in knobs.natural_only_ranks:
        if r == rank:
            return mode
    return None


def past_seven(knobs: Knobs, ctx: MeldContext) -> bool:
    """Whether a meld may pass seven cards now: only the meld a player goes out with, where
    the rules allow an eighth card then (MA §4.1.1, W)."""
    return ctx.going_out and knobs.max_meld_size_exception_when_going_out


def _over_cap(knobs: Knobs) -> str:
    if knobs.max_meld_size_exception_when_going_out:
        return (f"a meld holds at most {MAX_MELD} cards, more only with the meld you go out "
                "with (it leaves the one card you then discard)")
    return f"a meld holds at most {MAX_MELD} cards"


def _wild_meld_problem(knobs: Knobs, before: Sequence[Card], added: Sequence[Card],
                       ctx: MeldContext) -> str | None:
    low, high = knobs.wild_meld_sizes
    if any(not IS_WILD[c] for c in added):
        return "a meld of wild cards holds only twos and jokers"
    size = len(before) + len(added)
    if size > high and not (past_seven(knobs, ctx) and size > MAX_MELD):
        return (_over_cap(knobs) if size > MAX_MELD else
                f"a meld of wild cards holds at most {high} cards")
    if size < low:
        return f"a meld of wild cards needs at least {low} cards"
    return None


def wild_problem(knobs: Knobs, key: Rank, before: Sequence[Card], naturals: int,
                 ctx: MeldContext) -> str | None:
    """Why wild cards may not join this meld now, or ``None`` (MA §4.2–§4.5)."""
    mode = natural_only(knobs, key)
    if mode == ALWAYS:
        return f"a meld of {rank_name(key)} never takes wild cards"
    if mode == AFTER_OPENING:
        if before and not any(IS_WILD[c] for c in before):
            return f"a meld of {rank_name(key)} begun without wild cards stays natural"
        if not before and not ctx.opening:
            return (f"a meld of {rank_name(key)} takes wild cards only in the side's "
                    "initial meld")
    if ctx.wild_meld_incomplete and knobs.wild_meld_blocks_other_wilds:
        return ("while your side's meld of wild cards is incomplete, wild cards go only "
                "onto it")
    if not ctx.opening and naturals < knobs.min_naturals_before_wilds_after_opening:
        least = knobs.min_naturals_before_wilds_after_opening
        return (f"after the initial meld, wild cards join only a meld of at least {least} "
                "natural cards")
    return None


def too_small(before: int, naturals: int, added: int) -> bool:
    """Whether a meld of a natural rank that held ``before`` cards and takes ``added`` more,
    ``naturals`` of all its cards natural, is too small: a meld holds at least two natural
    cards and three cards (MA §4.1)."""
    return naturals < MIN_NATURALS or before + added < MIN_MELD


def meld_problem(knobs: Knobs, key: Rank, before: Sequence[Card], added: Sequence[Card],
                 ctx: MeldContext) -> str | None:
    """Why ``added`` may not join the side's meld of ``key`` holding ``before`` (empty: a new
    meld), or ``None`` (MA §4)."""
    if key == WILD_MELD:
        return _wild_meld_problem(knobs, before, added, ctx)
    if key in ctx.dead and knobs.dead_ranks and not (past_seven(knobs, ctx)
                                                     and len(before) >= MAX_MELD):
        # a dead rank takes no card, but the side's own canasta takes the going-out meld's
        # eighth card where the rules allow one
        if knobs.max_meld_size_exception_when_going_out and len(before) >= MAX_MELD:
            return _over_cap(knobs)
        return (f"{rank_name(key)} are dead: a side has completed a canasta of them, so no meld "
                "of them may be begun or added to")
    if any(not IS_WILD[c] and (not IS_NATURAL[c] or RANK_OF[c] != key) for c in added):
        return f"a meld of {rank_name(key)} holds only {rank_name(key)} and wild cards"
    cards = (*before, *added)
    wilds = sum(1 for c in cards if IS_WILD[c])
    naturals = len(cards) - wilds
    if len(cards) > MAX_MELD and not past_seven(knobs, ctx):
        return _over_cap(knobs)
    if too_small(len(before), naturals, len(added)):
        if naturals < MIN_NATURALS:
            return f"a meld needs at least {MIN_NATURALS} natural cards"
        return f"a meld needs at least {MIN_MELD} cards"
    if wilds > MAX_WILDS:
        return f"a meld may hold at most {MAX_WILDS} wild cards"
    if any(IS_WILD[c] for c in added):
        problem = wild_problem(knobs, key, before, naturals, ctx)
        if problem is not None:
            return problem
    if (ctx.opening and wilds and len(cards) >= MAX_MELD
            and not knobs.opening_may_close_mixed_canasta):
        return "the initial meld may not complete a mixed canasta"
    return None


def _is_clean(key: Rank, cards: Sequence[Card]) -> bool:
    return key != WILD_MELD and len(cards) >= 3 and all(IS_NATURAL[c] for c in cards)


def opening_problem(knobs: Knobs, value_of: Sequence[int], groups: Iterable[tuple[Rank,
                    Sequence[Card]]], minimum: int, dead: frozenset[Rank] = frozenset()
                    ) -> str | None:
    """Why new melds ``groups`` (key and cards, all from the hand) are not an initial meld that
    reaches ``minimum``, or ``None`` (MA §5: the count of the hand cards laid, and a clean
    triple)."""
    laid = [(key, tuple(cards)) for key, cards in groups]
    if not laid:
        return "an initial meld lays at least one meld"
    ctx = MeldContext(opening=True, dead=dead)
    for key, cards in laid:
        problem = meld_problem(knobs, key, (), cards, ctx)
        if problem is not None:
            return problem
    return opening_count_problem(knobs, value_of, laid, minimum, dead)


def opening_count_problem(knobs: Knobs, value_of: Sequence[int],
                          laid: Sequence[tuple[Rank, Sequence[Card]]], minimum: int,
                          dead: frozenset[Rank] = frozenset()) -> str | None:
    """What an initial meld of the new melds ``laid`` needs besides each meld's own rules
    (:func:`meld_problem`), or ``None``: the requirement, a clean triple by default, and the
    count of the cards laid (MA §5)."""
    requirement = knobs.initial_meld_requirement
    clean = any(_is_clean(key, cards) and key not in dead for key, cards in laid)
    if requirement == "clean_triple_or_wild_meld":
        clean = clean or any(key == WILD_MELD for key, _ in laid)
    elif requirement == "three_naturals":
        clean = any(sum(1 for c in cards if IS_NATURAL[c]) >= 3 for _, cards in laid)
    elif requirement == "none":
        clean = True
    if not clean:
        return ("the initial meld needs a clean triple: three or more natural cards of one "
                "rank with no wild card")
    splash = knobs.splash_allowed and any(len(cards) == MAX_MELD and (
        key == WILD_MELD or not any(IS_WILD[c] for c in cards)) for key, cards in laid)
    total = sum(value_of[c] for _, cards in laid for c in cards)
    if total < minimum and not splash:
        return f"the initial meld counts {total}, and your side needs {minimum}"
    return None


def requirement_within_reach(knobs: Knobs, triples: Iterable[Rank], wilds: int,
                             dead: frozenset[Rank] = frozenset()) -> bool:
    """Whether an initial meld from cards with three natural cards or more of the ranks
    ``triples`` and ``wilds`` wild cards can meet the requirement of :func:`opening_problem`
    besides its count (MA §5.3): a bound that needs no search."""
    requirement = knobs.initial_meld_requirement
    if requirement == "none":
        return True
    if requirement == "clean_triple_or_wild_meld" and wilds >= max(MIN_MELD,
                                                                   knobs.wild_meld_sizes[0]):
        return True
    return any(r not in dead for r in triples)


def is_four_jokers(cards: Sequence[Card]) -> bool:
    """A meld of wild cards with all four jokers (MA §4.5.2)."""
    return sum(1 for c in cards if c == JOKER) >= 4
