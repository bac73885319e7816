"""Could a player go out this turn with the cards held? (HF §10.1, §10.4.1)

The question is asked before ``ask`` is offered, and after a partner's ``yes`` (a player who
can no longer go out may then discard and play on). A line exists when every card held can be
melded (all but one, where the last card may be discarded) so that the side owns the books the
rules require. The search works on counts: suits never matter, and wild cards differ only in
their value, which counts only toward an opening.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from canasta.cards import IS_BLACK_THREE, IS_NATURAL, IS_RED_THREE, IS_WILD, RANK_OF, Card
from canasta.hand_and_foot.deal import WILD_MELD, Melds
from canasta.hand_and_foot.knobs import BOOK, MIN_MELD, Knobs
from canasta.hand_and_foot.melds import CLEAN, DIRTY, book_kind, ratio_problem

Books = tuple[int, int, int]
"""Clean, dirty and wild books."""


def book_counts(books: Sequence[Sequence[Card]]) -> Books:
    """A side's books by kind."""
    kinds = [book_kind(b) for b in books]
    return kinds.count(CLEAN), kinds.count(DIRTY), len(kinds) - kinds.count(CLEAN) - kinds.count(
        DIRTY)


def enough_books(knobs: Knobs, have: Books) -> bool:
    """Whether books ``have`` meet the requirement to go out (HF §10.1b)."""
    clean, dirty, wild = knobs.books_to_go_out
    spare = have[0] - clean
    if spare < 0 or have[2] < wild:
        return False
    return have[1] + (spare if knobs.clean_counts_as_dirty else 0) >= dirty


@lru_cache(maxsize=65536)
def splits(knobs: Knobs, wild_key: bool, naturals: int, wilds: int, a: int,
           b: int) -> frozenset[Books]:
    """The new books (by kind) of every way to lay exactly ``naturals`` natural and ``wilds``
    wild cards of one key as melds, the first of which holds the side's open meld of ``a``
    natural and ``b`` wild cards already there (``a + b == 0``: none)."""
    if naturals == 0 and wilds == 0:
        return frozenset({(0, 0, 0)}) if a + b == 0 else frozenset()
    out: set[Books] = set()
    for x in range(a, naturals + 1):
        for y in range(b, wilds + 1):
            size = x + y
            if size < (a + b if a + b else MIN_MELD) or size > BOOK:
                continue
            if wild_key:
                if x:
                    continue
            elif ratio_problem(knobs, x, y) is not None:
                continue
            if size < BOOK:
                if x == naturals and y == wilds:
                    out.add((0, 0, 0))
                continue
            kind = (0, 0, 1) if wild_key else (1, 0, 0) if y == 0 else (0, 1, 0)
            for c, d, w in splits(knobs, wild_key, naturals - x, wilds - y, 0, 0):
                out.add((c + kind[0], d + kind[1], w + kind[2]))
    return frozenset(out)


def _cap(knobs: Knobs, books: Books) -> Books:
    need = knobs.books_to_go_out
    if knobs.clean_counts_as_dirty:
        return (min(books[0], need[0] + need[1]), min(books[1], need[1]), min(books[2], need[2]))
    return (min(books[0], need[0]), min(books[1], need[1]), min(books[2], need[2]))


def _lays_out(knobs: Knobs, counts: Sequence[int], wilds: int, melds: Melds,
              have: Books) -> bool:
    """Whether natural cards ``counts`` (by rank) and ``wilds`` wild cards can all be laid so
    that the side's books reach the requirement."""
    states: dict[int, set[Books]] = {0: {_cap(knobs, have)}}
    for rank, n in enumerate(counts):
        meld = melds[rank]
        a = sum(1 for c in meld if not IS_WILD[c]) if meld is not None else 0
        b = len(meld) - a if meld is not None else 0
        if n == 0 and meld is None:
            continue
        nxt: dict[int, set[Books]] = {}
        for used, books in states.items():
            for k in range(wilds - used + 1):
                ways = splits(knobs, False, a + n, b + k, a, b)
                for c, d, w in ways:
                    for have_c, have_d, have_w in books:
                        nxt.setdefault(used + k, set()).add(
                            _cap(knobs, (have_c + c, have_d + d, have_w + w)))
        states = nxt
        if not states:
            return False
    wild_meld = melds[WILD_MELD]
    b = len(wild_meld) if wild_meld is not None else 0
    for used, books in states.items():
        left = wilds - used
        if left and not knobs.allow_wild_only_melds:
            continue
        ways = splits(knobs, True, 0, b + left, 0, b) if left else frozenset({(0, 0, 0)})
        for c, d, w in ways:
            for have_c, have_d, have_w in books:
                if enough_books(knobs, (have_c + c, have_d + d, have_w + w)):
                    return True
    return False


def can_go_out(knobs: Knobs, held: Sequence[Card], melds: Melds,
               books: Sequence[Sequence[Card]], minimum: int | None,
               value_of: Sequence[int]) -> bool:
    """Whether ``held`` can all be laid (one card discarded where the rules allow or require
    it) so that the side meets the requirement to go out. ``minimum``: the opening count the
    laid cards must reach (the side has not melded), else ``None``."""
    counts = [0] * 11
    wilds = blacks = reds = 0
    for c in held:
        if IS_NATURAL[c]:
            counts[RANK_OF[c]] += 1
        elif IS_WILD[c]:
            wilds += 1
        elif IS_BLACK_THREE[c]:
            blacks += 1
        elif IS_RED_THREE[c]:
            reds += 1
    have = book_counts(books)
    total = sum(value_of[c] for c in held)
    options: list[Card | None] = []
    if knobs.going_out_discard != "required":
        options.append(None)
    if knobs.going_out_discard != "forbidden":
        options.extend(sorted(set(held)))
    for discard in options:
        left = list(counts)
        w, black, red = wilds, blacks, reds
        value = total
        if discard is not None:
            value -= value_of[discard]
            if IS_NATURAL[discard]:
                left[RANK_OF[discard]] -= 1
            elif IS_WILD[discard]:
                w -= 1
            elif IS_BLACK_THREE[discard]:
                black -= 1
            else:
                red -= 1
        if red or (black and not (knobs.black_three_meld_when_going_out and black in (3, 4))):
            continue
        if minimum is not None and value < minimum:
            continue
        if _lays_out(knobs, left, w, melds, have):
            return True
    return False
