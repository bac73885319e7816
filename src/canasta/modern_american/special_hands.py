"""Special hands: fourteen cards laid at once as a side's only meld, which end the hand
(MA §11). A hand matches a pattern by the sizes of its groups of one rank.

Twos and jokers are two ranks of their own ("matching wild cards"), so all groups have
different ranks; only the Straight holds a three, and Dream Hand Plus 5 pools its five wild
cards whatever their kind.

>>> from canasta.cards import parse_cards
>>> [h.name for h in matches(parse_cards("6c 6d 7c 7d 8c 8d 9c 9d Jc Jd Qc Qd Kc Kd"))]
['Pairs']
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from canasta.cards import JOKER, NATURAL_RANKS, RANK_OF, THREE, TWO, Card, Rank
from canasta.modern_american.knobs import ACE, SEVEN

SIZE: Final = 14
"""A special hand holds fourteen cards: the thirteen dealt and the card drawn."""
JOKERS: Final[Rank] = TWO + 1
"""The group rank of jokers (twos keep ``TWO``)."""


@dataclass(frozen=True)
class SpecialHand:
    """One pattern of the catalogue (MA §11.2).

    ``natural`` are the sizes of the groups of natural ranks and ``wild`` those of matching
    wild groups (all twos or all jokers); with ``mixed_groups`` the two kinds of group share the
    sizes of ``natural``. ``pooled_wilds`` wild cards of any kind may stand as one group.
    ``required`` ranks must each make a group (``JOKERS`` for the jokers)."""

    name: str
    value: int
    natural: tuple[int, ...] = ()
    wild: tuple[int, ...] = ()
    mixed_groups: bool = False
    pooled_wilds: int = 0
    required: frozenset[Rank] = frozenset()
    straight: bool = False
    wins_game: bool = False

    def matches(self, cards: Sequence[Card]) -> bool:
        """Whether the fourteen ``cards`` make this hand."""
        return len(cards) == SIZE and self.fits(Profile(cards))

    def fits(self, profile: Profile) -> bool:
        """Whether fourteen cards of this :class:`Profile` make this hand."""
        if self.straight:
            return len(profile.groups) == SIZE
        if profile.has_three:
            return False
        for rank in self.required:
            if rank not in profile.groups:
                return False
        if self.pooled_wilds:
            return profile.natural == self.natural and profile.wilds == self.pooled_wilds
        if self.mixed_groups:
            return profile.mixed == self.natural
        return profile.natural == self.natural and profile.wild == self.wild


class Profile:
    """What the patterns read of fourteen cards: the size of each group (jokers a group of
    their own), the sizes of the natural groups and of the wild groups, largest first."""

    def __init__(self, cards: Sequence[Card]) -> None:
        groups: dict[Rank, int] = {}
        for c in cards:
            r = _group_rank(c)
            groups[r] = groups.get(r, 0) + 1
        natural = [n for r, n in groups.items() if r in NATURAL_RANKS]
        wild = [n for r, n in groups.items() if r in (TWO, JOKERS)]
        self.groups = groups
        self.has_three = THREE in groups
        self.natural = tuple(sorted(natural, reverse=True))
        self.wild = tuple(sorted(wild, reverse=True))
        self.wilds = sum(wild)
        self.mixed = tuple(sorted(natural + wild, reverse=True))


def _group_rank(card: Card) -> Rank:
    if card == JOKER:
        return JOKERS
    return RANK_OF[card]


PAIRS: Final = (2,) * 7
CLA: Final = (
    SpecialHand("Pairs", 2500, natural=PAIRS),
    SpecialHand("Wild Pairs", 2000, natural=(2,) * 6, wild=(2,),
                required=frozenset({ACE, SEVEN})),
    SpecialHand("Miami Pairs", 2500, natural=(2,) * 5, wild=(2, 2),
                required=frozenset({ACE, SEVEN, TWO, JOKERS})),
    SpecialHand("Zip Code", 2500, natural=(4, 3, 3, 2, 2), mixed_groups=True),
    SpecialHand("Straight", 3000, straight=True),
    SpecialHand("Garbage", 3000, natural=(4, 4, 3, 3)),
    SpecialHand("Blast Off", 3000, natural=(5, 4, 3, 2), mixed_groups=True),
    SpecialHand("Triples", 3500, natural=(3, 3, 3, 3), wild=(2,)),
    SpecialHand("Quads", 3500, natural=(4, 4, 4), wild=(2,)),
    SpecialHand("Dream Hand Plus 4", 8500, natural=(5, 5), wild=(4,), wins_game=True),
    SpecialHand("Dream Hand Plus 5", 8500, natural=(5, 4), pooled_wilds=5, wins_game=True),
)
"""The Canasta League of America's catalogue (the default)."""
PAGAT: Final = (
    SpecialHand("Pairs", 2500, natural=PAIRS),
    SpecialHand("Wild Pairs", 2000, natural=(2,) * 6, wild=(2,),
                required=frozenset({ACE, SEVEN, TWO})),
    SpecialHand("Straight", 3000, straight=True),
    SpecialHand("Garbage", 2000, natural=(4, 4, 3, 3)),
)
"""pagat's catalogue: four hands, Garbage 2000, the wild pair of twos."""
CATALOGUES: Final = {"cla": CLA, "pagat": PAGAT}


def matches(cards: Sequence[Card], catalogue: str = "cla") -> list[SpecialHand]:
    """The special hands of ``catalogue`` that ``cards`` make."""
    return [hand for hand in CATALOGUES[catalogue] if hand.matches(cards)]


def group_counts(hand: SpecialHand) -> frozenset[int]:
    """How many groups fourteen cards that make ``hand`` hold."""
    if hand.straight:
        return frozenset({SIZE})
    if hand.pooled_wilds:
        return frozenset({len(hand.natural) + 1, len(hand.natural) + 2})
    return frozenset({len(hand.natural) + len(hand.wild)})


GROUP_COUNTS: Final = {name: frozenset(n for hand in hands for n in group_counts(hand))
                       for name, hands in CATALOGUES.items()}
"""How many groups the hands of each catalogue hold: fourteen cards in any other number of
groups make none of them."""


def matching(cards: Sequence[Card], catalogue: str = "cla") -> list[int]:
    """The indices in ``catalogue`` of the special hands that ``cards`` make."""
    if len(cards) != SIZE:
        return []
    seen = [False] * (JOKERS + 1)
    groups = 0
    for c in cards:
        r = _group_rank(c)
        if not seen[r]:
            seen[r] = True
            groups += 1
    if groups not in GROUP_COUNTS[catalogue]:
        return []
    profile = Profile(cards)
    return [i for i, hand in enumerate(CATALOGUES[catalogue]) if hand.fits(profile)]


def special_problem(cards: Sequence[Card], name: str, catalogue: str = "cla") -> str | None:
    """Why ``cards`` are not the special hand ``name``, or ``None``."""
    known = {hand.name.lower(): hand for hand in CATALOGUES[catalogue]}
    hand = known.get(name.lower())
    if hand is None:
        return (f"there is no special hand {name!r} in these rules: "
                + ", ".join(h.name for h in CATALOGUES[catalogue]))
    if len(cards) != SIZE:
        return f"a special hand holds {SIZE} cards, not {len(cards)}"
    if not hand.matches(cards):
        return f"these cards are not {hand.name}"
    return None
