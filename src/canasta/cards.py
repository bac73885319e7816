"""Cards as small integers, and their text form (NOTATION §1).

A card is an ``int`` from 0 to 52: ``rank_index * 4 + suit_index`` for the 52 cards of a
standard pack and :data:`JOKER` (52) for the joker. Duplicate cards of a Canasta pack are the
same ``int``: cards of one rank and suit have no identity beyond their text.

Rank indices put the natural ranks first so that meld arithmetic stays simple::

    0..10  natural ranks 4 5 6 7 8 9 T J Q K A   (meldable)
    11     threes (3c, 3s black; 3d, 3h red)
    12     twos (wild)
    joker  52 (wild)

Sorting card ints gives the canonical order of NOTATION §2: natural cards by rank then suit
``c d h s``, then threes, then 2s, then the joker.

>>> parse_card("10h"), format_card(parse_card("kh")), format_card(JOKER)
(26, 'Kh', 'JK')
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from canasta.errors import NotationError

Card = int
"""A card: an int in 0..52 (see the module docstring)."""
Rank = int
"""A rank index: 0..10 natural ranks 4..A, 11 threes, 12 twos."""

SUITS: Final = "cdhs"
RANK_CHARS: Final = "456789TJQKA32"
"""Rank characters by rank index."""
NATURAL_RANKS: Final = range(11)
THREE: Final = 11
TWO: Final = 12
BLACK_THREE_RANK: Final = THREE
"""The meld rank used for a going-out meld of black threes."""

JOKER: Final[Card] = 52
NUM_CARD_TYPES: Final = 53

FIRST_THREE: Final = THREE * 4
"""The lowest three (44): in a sorted hand the natural cards come before it."""
FIRST_WILD: Final = TWO * 4
"""The lowest wild card (48): in a sorted hand the wild cards start there."""

BLACK_THREES: Final = (44, 47)  # 3c, 3s
RED_THREES: Final = (45, 46)  # 3d, 3h
WILDS: Final = (48, 49, 50, 51, JOKER)

IS_NATURAL: Final = tuple(c < FIRST_THREE for c in range(NUM_CARD_TYPES))
IS_WILD: Final = tuple(c >= FIRST_WILD for c in range(NUM_CARD_TYPES))
IS_RED_THREE: Final = tuple(c in RED_THREES for c in range(NUM_CARD_TYPES))
IS_BLACK_THREE: Final = tuple(c in BLACK_THREES for c in range(NUM_CARD_TYPES))
RANK_OF: Final = tuple(min(c >> 2, TWO) for c in range(NUM_CARD_TYPES))
"""Rank index of each card (the joker reports the rank of twos: both are wild)."""

_NAMES: Final = tuple(
    [RANK_CHARS[c >> 2] + SUITS[c & 3] for c in range(52)] + ["JK"]
)
_BY_NAME: Final[dict[str, Card]] = {name.lower(): c for c, name in enumerate(_NAMES)}
for _c in range(52):
    if RANK_CHARS[_c >> 2] == "T":
        _BY_NAME["10" + SUITS[_c & 3]] = _c
_RANK_BY_CHAR: Final[dict[str, Rank]] = {ch.lower(): r for r, ch in enumerate(RANK_CHARS)}
_RANK_BY_CHAR["10"] = RANK_CHARS.index("T")


def parse_card(text: str) -> Card:
    """Parse one card, case-insensitively; ``10`` is accepted for ``T``.

    >>> format_card(parse_card("10S")), format_card(parse_card("jk"))
    ('Ts', 'JK')
    """
    card = _BY_NAME.get(text.strip().lower())
    if card is None:
        raise NotationError(f"unknown card {text!r}")
    return card


def parse_cards(text: str | Iterable[str]) -> list[Card]:
    """Parse space-separated cards, or an iterable of card strings."""
    # items may be anything a caller passed: each is checked (and compiled code checks types)
    items: list[object] = [*text.split()] if isinstance(text, str) else [*text]
    out = []
    for item in items:
        if not isinstance(item, str):
            raise NotationError(f"a card must be a string, not {item!r}")
        out.append(parse_card(item))
    return out


def parse_rank(text: str) -> Rank:
    """Parse a rank character (``K``, ``t``, ``10``, ``3``)."""
    rank = _RANK_BY_CHAR.get(text.strip().lower())
    if rank is None or rank == TWO:
        raise NotationError(f"unknown meld rank {text!r}")
    return rank


def format_card(card: Card) -> str:
    """Canonical text of a card: ``Kh``, ``Td``, ``JK``."""
    return _NAMES[card]


def format_cards(cards: Iterable[Card]) -> str:
    """Canonical space-separated text of cards, in canonical order."""
    return " ".join(_NAMES[c] for c in sorted(cards))


def card_kind(card: Card) -> str | None:
    """``wild``, ``red3``, ``black3`` or ``None``: the kinds the upcard and freezing rules speak
    of (``Rules.upcard_freeze_kinds``, ``upcard_cover_kinds``)."""
    if IS_WILD[card]:
        return "wild"
    if IS_RED_THREE[card]:
        return "red3"
    if IS_BLACK_THREE[card]:
        return "black3"
    return None


def card_names(cards: Iterable[Card]) -> list[str]:
    """Canonical names of cards, in canonical order (for JSON arrays)."""
    return [_NAMES[c] for c in sorted(cards)]


def rank_char(rank: Rank) -> str:
    """The text of a rank index (``K`` for 9)."""
    return RANK_CHARS[rank]


RANK_PLURALS = ("fours", "fives", "sixes", "sevens", "eights", "nines", "tens", "jacks",
                "queens", "kings", "aces", "black threes", "twos")
"""The plural of each rank in words, by rank index (``7s`` would read like a card)."""


def rank_name(rank: Rank) -> str:
    """A readable plural for messages: ``kings``, ``sevens``, ``black threes``.

    >>> rank_name(9), rank_name(THREE)
    ('kings', 'black threes')
    """
    return RANK_PLURALS[rank]


def make_pack(num_decks: int, num_jokers: int) -> list[Card]:
    """Every card of a Canasta pack, in canonical order."""
    pack = [c for c in range(52) for _ in range(num_decks)]
    pack += [JOKER] * num_jokers
    return pack
