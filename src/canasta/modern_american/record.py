"""The public record of a Modern American hand: what every seat has seen of the other hands.

Everyone at the table sees a player pick the pack, so everyone knows that the player holds the
pile's cards below the top (as far as the pile could be looked at) until they are melded or
discarded; everyone sees which natural ranks a player discards, and when a player's turn has
come (from then on it holds no three it did not pick or keep: threes are laid at the start of
the turn). :class:`Seen` is that record, the same for every seat; :func:`seen_after` brings it
up to date after an action, and :func:`~canasta.modern_american.play.apply` keeps it in the
hand (``Hand.seen``), so an observation carries it and a bot deals its worlds from it.

>>> from canasta.cards import parse_cards
>>> seen = seen_after(NOTHING_SEEN, 1, True, "take", parse_cards("9c 9d"),
...                   parse_cards("5h Kc 4s"))
>>> [len(cards) for cards in seen.held], seen.played
([0, 3, 0, 0], (False, True, False, False))
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from canasta.cards import IS_NATURAL, RANK_OF, THREE, Card, Rank

SEATS: Final = 4
"""Modern American is played by four (two partnerships)."""


class Seen:
    """The public record of a hand: per seat, the cards known to be in its hand (picked from
    the pile and not laid or discarded since; sorted), the natural ranks it has discarded, and
    whether its turn has come."""

    def __init__(self, held: tuple[tuple[Card, ...], ...] = ((),) * SEATS,
                 discarded: tuple[frozenset[Rank], ...] = (frozenset(),) * SEATS,
                 played: tuple[bool, ...] = (False,) * SEATS) -> None:
        self.held: Final = held
        self.discarded: Final = discarded
        self.played: Final = played

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, Seen) and self.held == other.held
                and self.discarded == other.discarded and self.played == other.played)

    def __hash__(self) -> int:
        return hash((self.held, self.discarded, self.played))

    def __repr__(self) -> str:
        return f"Seen(held={self.held!r}, discarded={self.discarded!r}, played={self.played!r})"

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        return Seen, (self.held, self.discarded, self.played)

    @property
    def is_empty(self) -> bool:
        """True while nothing is known (the record at the deal)."""
        return self == NOTHING_SEEN


NOTHING_SEEN: Final = Seen()
"""The record at the deal: nothing known of any hand."""


def _less(cards: tuple[Card, ...], gone: Sequence[Card]) -> tuple[Card, ...]:
    """``cards`` less one copy of each of ``gone`` that it holds (sorted as it was)."""
    left = list(cards)
    for c in gone:
        if c in left:
            left.remove(c)
    return tuple(left)


def seen_after(seen: Seen, seat: int, threes_chosen: bool, verb: str, cards: Sequence[Card],
               picked: Sequence[Card] = ()) -> Seen:
    """``seen`` once ``seat`` (to move, with its threes laid or kept this turn when
    ``threes_chosen``) has played ``verb``: ``cards`` are the cards it laid (``take``,
    ``meld``) or discarded (``discard``), ``picked`` the pile cards it took below the top that
    the table could see.

    A draw, a three kept and the questions to the partner change nothing of the hands; the
    threes a player holds are laid at the start of its turn, so none is known in hand once its
    turn has begun."""
    mine = seen.held[seat]
    if threes_chosen and mine and any(RANK_OF[c] == THREE for c in mine):
        mine = tuple(c for c in mine if RANK_OF[c] != THREE)
    discarded = seen.discarded
    if verb == "take" or verb == "meld":
        if mine:
            mine = _less(mine, cards)
        if verb == "take" and picked:
            mine = tuple(sorted((*mine, *picked)))
    elif verb == "discard":
        card = cards[0]
        if mine:
            mine = _less(mine, cards)
        rank = RANK_OF[card]
        if IS_NATURAL[card] and rank not in discarded[seat]:
            discarded = tuple(d | {rank} if s == seat else d for s, d in enumerate(discarded))
    played = seen.played
    if threes_chosen and not played[seat]:
        played = tuple(p or s == seat for s, p in enumerate(played))
    held = seen.held
    if mine != held[seat]:
        held = tuple(mine if s == seat else h for s, h in enumerate(held))
    if held is seen.held and discarded is seen.discarded and played is seen.played:
        return seen
    return Seen(held, discarded, played)
