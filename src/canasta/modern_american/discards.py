"""What a Modern American player may discard, and when the pile may be picked (MA §6, §7).

>>> from canasta.cards import parse_cards
>>> from canasta.modern_american.knobs import KNOBS
>>> seven, five = parse_cards("7c 5d")
>>> discard_problem(KNOBS, seven, parse_cards("7c 5d 9h"), pile_empty=True)
'onto an empty pile you may not discard a seven, an ace, a wild card or a dead card'
>>> discard_problem(KNOBS, five, parse_cards("7c 5d 9h"), pile_empty=True) is None
True
"""

from __future__ import annotations

from collections.abc import Sequence

from canasta.cards import IS_NATURAL, IS_WILD, RANK_OF, THREE, Card, Rank, rank_name
from canasta.modern_american.knobs import ACE, AFTER_OPENING, SEVEN, Knobs
from canasta.modern_american.melds import MeldContext, meld_problem, natural_only


def _swad_kind(card: Card, dead: frozenset[Rank]) -> str | None:
    """Which kind of the empty-pile rule ``card`` is, if any (MA §7.3)."""
    if IS_WILD[card]:
        return "wild"
    rank = RANK_OF[card]
    if rank == SEVEN:
        return "seven"
    if rank == ACE:
        return "ace"
    if rank in dead:
        return "dead"
    return None


def discard_problem(knobs: Knobs, card: Card, hand: Sequence[Card], pile_empty: bool,
                    dead: frozenset[Rank] = frozenset(), going_out: bool = False) -> str | None:
    """Why ``card`` may not be discarded from ``hand`` (which holds it) now, or ``None``
    (MA §7): never a three; a wild card only to go out or from a hand of wild cards alone; onto
    an empty pile no seven, ace, wild card or dead card."""
    if RANK_OF[card] == THREE:
        return "threes are never discarded"
    if IS_WILD[card] and not going_out and any(
            not IS_WILD[c] and RANK_OF[c] != THREE for c in hand):
        return ("a wild card is discarded only to go out, or from a hand that holds nothing but "
                "wild cards")
    if not pile_empty or (going_out and not knobs.empty_pile_rule_applies_to_going_out_discard):
        return None
    kind = _swad_kind(card, dead)
    if kind is None or kind not in knobs.empty_pile_forbidden:
        return None
    if (kind in ("seven", "ace") and knobs.empty_pile_exception_only_naturals_left
            and all(_swad_kind(c, dead) in ("seven", "ace") or not IS_NATURAL[c]
                    for c in hand if RANK_OF[c] != THREE)):
        return None
    return "onto an empty pile you may not discard a seven, an ace, a wild card or a dead card"


def pick_problem(knobs: Knobs, top: Card, shown: Sequence[Card], existing: Sequence[Card],
                 ctx: MeldContext) -> str | None:
    """Why the side may not pick the pile with the hand cards ``shown`` melded with its ``top``
    card (onto its meld ``existing`` of that rank, empty if none), or ``None`` (MA §6: the pile
    is always frozen)."""
    if not IS_NATURAL[top]:
        return "the pile cannot be picked while a wild card is on top"
    rank = RANK_OF[top]
    if knobs.dead_ranks and rank in ctx.dead:
        return f"{rank_name(rank)} are dead: the pile cannot be picked with one on top"
    if sum(1 for c in shown if IS_NATURAL[c] and RANK_OF[c] == rank) < 2:
        return (f"the pile is always frozen: it is picked only with a natural pair of "
                f"{rank_name(rank)} from your hand")
    if (ctx.opening and natural_only(knobs, rank) == AFTER_OPENING
            and any(IS_WILD[c] for c in shown)):
        # wild cards join such a meld only in an initial meld laid from the hand (MA §4.4.3)
        return (f"an initial meld made by picking the pack with {rank_name(rank)} keeps that "
                "meld natural: no wild card joins it")
    return meld_problem(knobs, rank, existing, (top, *shown), ctx)
