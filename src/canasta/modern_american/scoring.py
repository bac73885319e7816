"""A Modern American hand's score for one side: the canasta-count matrix (MA §13).

With no canasta even the melded cards count minus, laid threes are signed by the number of
canastas (minus, nothing, plus), and melds of sevens, natural aces and wild cards left
incomplete cost their penalty. :func:`score_side` returns every part, so a player can check the
sum.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from canasta.cards import IS_RED_THREE, IS_WILD, JOKER, RANK_OF, THREE, Card, Rank
from canasta.modern_american.knobs import Knobs
from canasta.modern_american.melds import MAX_MELD, WILD_MELD, is_four_jokers
from canasta.rules import Rules


@dataclass(frozen=True)
class SideScore:
    """One side's hand, part by part (MA §13.6); ``total`` is their sum, signs applied.

    ``melded`` is the card count of the side's melds (negative without a canasta), ``bonuses``
    the canasta bonuses and the going-out bonus, ``threes`` the laid threes, ``penalties`` the
    incomplete melds and the aces or sevens held (negative), ``in_hand`` the cards left in the
    side's hands and its threes held (negative), ``special`` a special hand's value."""

    canastas: int
    melded: int
    bonuses: int
    threes: int
    penalties: int
    in_hand: int
    special: int
    total: int


def canasta_bonus(rules: Rules, knobs: Knobs, key: Rank, meld: Sequence[Card]) -> int:
    """The bonus of a completed canasta (MA §13.2); 0 for a shorter meld."""
    if len(meld) < MAX_MELD:
        return 0
    if key == WILD_MELD:
        if not any(c == JOKER for c in meld):
            return knobs.wild_canasta_all_twos
        if is_four_jokers(meld):
            return knobs.wild_canasta_four_jokers
        return knobs.wild_canasta_other
    if any(IS_WILD[c] for c in meld):
        return rules.mixed_canasta_bonus
    return dict(knobs.rank_canasta_bonus).get(key, rules.natural_canasta_bonus)


def incomplete_penalty(knobs: Knobs, key: Rank, meld: Sequence[Card]) -> int:
    """What an incomplete meld costs at the end of the hand (MA §13.3), as a positive number:
    a meld of wild cards, and a natural meld of a rank with its own penalty (sevens, aces)."""
    if len(meld) >= MAX_MELD:
        return 0
    if key == WILD_MELD:
        return (knobs.wild_meld_incomplete_penalty_four_jokers if is_four_jokers(meld)
                else knobs.wild_meld_incomplete_penalty)
    if any(IS_WILD[c] for c in meld):
        return 0  # a mixed ace meld from the opening is an ordinary meld
    return dict(knobs.rank_incomplete_penalty).get(key, 0)


def threes_points(knobs: Knobs, threes: Sequence[Card]) -> int:
    """The laid threes by colour, unsigned (MA §13.4)."""
    schedule = dict(knobs.three_schedule)
    top = max(schedule)
    red = sum(1 for c in threes if IS_RED_THREE[c])
    black = len(threes) - red
    return sum(schedule[min(n, top)] for n in (red, black) if n)


def held_penalty(knobs: Knobs, hand: Sequence[Card]) -> int:
    """The penalty of one player's hand for the aces and sevens held (MA §13.5), positive."""
    return sum(cost for rank, least, cost in knobs.hand_penalty
               if sum(1 for c in hand if RANK_OF[c] == rank) >= least)


def score_side(rules: Rules, knobs: Knobs, melds: Mapping[Rank, Sequence[Card]],
               threes: Sequence[Card], hands: Sequence[Sequence[Card]], went_out: bool,
               last_card_three: Card | None = None, special: int | None = None) -> SideScore:
    """Score one side: its ``melds`` by key, its laid ``threes``, its players' ``hands`` at the
    end, whether it ``went_out``; ``last_card_three`` is a three drawn as the stock's last card
    and kept in hand (its cost is the small one), ``special`` a special hand's value, which
    replaces everything else (MA §11.1.5)."""
    if special is not None:
        return SideScore(0, 0, 0, 0, 0, 0, special, special)
    value_of = rules.value_of
    k = sum(1 for m in melds.values() if len(m) >= MAX_MELD)
    table = sum(value_of[c] for m in melds.values() for c in m)
    melded = table if k else -table
    bonuses = (sum(canasta_bonus(rules, knobs, key, m) for key, m in melds.items())
               + (rules.going_out_bonus if went_out else 0)) if k else 0
    threes_part = knobs.three_sign_by_canastas[min(k, 2)] * threes_points(knobs, threes)
    penalties = -(sum(incomplete_penalty(knobs, key, m) for key, m in melds.items())
                  + sum(held_penalty(knobs, hand) for hand in hands))
    in_hand = 0
    last_card_left = last_card_three
    for hand in hands:
        for c in hand:
            if RANK_OF[c] != THREE:
                in_hand -= value_of[c]
            elif c == last_card_left:
                in_hand -= knobs.last_card_three_penalty
                last_card_left = None
            else:
                in_hand -= knobs.kept_three_penalty
    total = melded + bonuses + threes_part + penalties + in_hand
    return SideScore(k, melded, bonuses, threes_part, penalties, in_hand, 0, total)
