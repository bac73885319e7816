"""Melds and books of Hand and Foot: their shape (HF §4.1), where a group's cards go
(HF §4.3), and what a book is (HF §5)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from canasta.cards import IS_NATURAL, IS_WILD, RANK_OF, Card, rank_name
from canasta.hand_and_foot.deal import WILD_MELD, Melds
from canasta.hand_and_foot.knobs import BOOK, MIN_MELD, Knobs

CLEAN: Final = "clean"
DIRTY: Final = "dirty"
WILD: Final = "wild"
BOOK_KINDS: Final = (CLEAN, DIRTY, WILD)
"""The kinds of book, in the order a requirement to go out names them (HF §10.1b)."""


def key_name(key: int) -> str:
    """A meld key in words: ``kings``, ``wild cards``."""
    return "wild cards" if key == WILD_MELD else rank_name(key)


def book_kind(cards: Sequence[Card]) -> str:
    """``clean`` (no wild card), ``dirty`` or ``wild`` (wild cards alone), HF §5.1."""
    wilds = sum(1 for c in cards if IS_WILD[c])
    if wilds == 0:
        return CLEAN
    return WILD if wilds == len(cards) else DIRTY


def book_key(cards: Sequence[Card]) -> int:
    """The key of a book: the rank of its natural cards, or :data:`WILD_MELD`."""
    for c in cards:
        if IS_NATURAL[c]:
            return RANK_OF[c]
    return WILD_MELD


def ratio_problem(knobs: Knobs, naturals: int, wilds: int) -> str | None:
    """Why a meld of ``naturals`` and ``wilds`` breaks the wild-card limit (HF §4.1.2)."""
    if wilds == 0:
        return None
    if wilds > knobs.max_wilds_per_meld:
        return f"a meld holds at most {knobs.max_wilds_per_meld} wild cards"
    ratio = knobs.wild_ratio
    if ratio == "naturals_exceed_wilds" and naturals <= wilds:
        return "a meld needs more natural cards than wild cards"
    if ratio == "naturals_at_least_twice" and naturals < 2 * wilds:
        return "a meld needs at least twice as many natural cards as wild cards"
    if ratio == "naturals_at_least_wilds" and naturals < wilds:
        return "a meld needs at least as many natural cards as wild cards"
    return None


def shape_problem(knobs: Knobs, key: int, cards: Sequence[Card]) -> str | None:
    """Why ``cards`` cannot be one meld of ``key`` (size and wild cards), or ``None``."""
    wilds = sum(1 for c in cards if IS_WILD[c])
    if key == WILD_MELD:
        if not knobs.allow_wild_only_melds:
            return "these rules have no melds of wild cards alone"
        if wilds != len(cards):
            return "a meld of wild cards holds only twos and jokers"
        return None if len(cards) <= BOOK else f"a meld holds at most {BOOK} cards"
    if len(cards) > BOOK:
        return f"a meld holds at most {BOOK} cards: {key_name(key)} make a book at {BOOK}"
    return ratio_problem(knobs, len(cards) - wilds, wilds)


def place(knobs: Knobs, melds: Melds, books: Sequence[tuple[Card, ...]], key: int,
          cards: Sequence[Card]) -> tuple[tuple[Card, ...] | None, list[tuple[Card, ...]],
                                          int] | str:
    """Where a group of ``cards`` laid on ``key`` goes (HF §4.3): first into the side's open
    meld of the key (natural cards before wild cards) up to seven cards; a meld that reaches
    seven is a book, and the cards left start a new meld of at least three. Where the rules let
    a book take more cards (``book_accepts_extra``), a group too small to start a meld joins
    the side's last book of the key.

    Returns the open meld left (or ``None``), the books completed and, when the group joined a
    book, that book's index (else -1), or why the group cannot be laid."""
    before = melds[key]
    ordered = sorted(c for c in cards if not IS_WILD[c]) + sorted(c for c in cards
                                                                   if IS_WILD[c])
    if before is None and len(ordered) < MIN_MELD:
        joined = _join_book(knobs, books, key, ordered)
        if isinstance(joined, int):
            return None, [], joined
        if joined is not None:
            return joined
        if any(book_key(b) == key for b in books):
            return (f"a book takes no more cards, and a new meld needs at least {MIN_MELD} "
                    "cards")
        return f"a new meld needs at least {MIN_MELD} cards"
    current = list(before) if before is not None else []
    made: list[tuple[Card, ...]] = []
    for c in ordered:
        current.append(c)
        if len(current) == BOOK:
            why = shape_problem(knobs, key, current)
            if why is not None:
                return why
            made.append(tuple(sorted(current)))
            current = []
    if not current:
        return None, made, -1
    if (made or before is None) and len(current) < MIN_MELD:
        return (f"after the book of {key_name(key)} the cards left start a new meld, which "
                f"needs at least {MIN_MELD} cards")
    why = shape_problem(knobs, key, current)
    if why is not None:
        return why
    return tuple(sorted(current)), made, -1


def _join_book(knobs: Knobs, books: Sequence[tuple[Card, ...]], key: int,
               cards: Sequence[Card]) -> int | str | None:
    """The index of the book of ``key`` that takes ``cards`` (``book_accepts_extra``), why it
    may not, or ``None`` when there is no such book."""
    if knobs.book_accepts_extra == "none" or key == WILD_MELD:
        return None
    for i in range(len(books) - 1, -1, -1):
        if book_key(books[i]) == key:
            if knobs.book_accepts_extra == "naturals" and any(IS_WILD[c] for c in cards):
                return "a book takes only natural cards of its rank"
            return i
    return None
