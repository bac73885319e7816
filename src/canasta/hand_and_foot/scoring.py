"""The score of a deal (HF §12.1): each side's melded cards, book bonuses, red threes and the
going-out bonus, less the cards its players hold in hands and feet."""

from __future__ import annotations

from canasta.cards import IS_RED_THREE
from canasta.hand_and_foot.deal import Deal, Ending, SideScore
from canasta.hand_and_foot.melds import CLEAN, DIRTY, book_key, book_kind


def score_side(deal: Deal, side: int, went_out: int | None) -> SideScore:
    """Side ``side``'s score when ``deal`` ends (``went_out``: the seat that went out)."""
    rules, knobs = deal.rules, deal.knobs
    value = rules.value_of
    melded = sum(value[c] for meld in deal.melds[side] if meld is not None for c in meld)
    melded += sum(value[c] for book in deal.books[side] for c in book)
    bonus = 0
    for book in deal.books[side]:
        kind = book_kind(book)
        if kind == CLEAN:
            bonus += knobs.book_bonus(book_key(book))
        elif kind == DIRTY:
            bonus += knobs.mixed_canasta_bonus
        else:
            bonus += knobs.wild_book_bonus
    seats = [s for s in range(rules.num_players) if deal.side_of(s) == side]
    held = [c for s in seats for c in (*deal.hands[s], *deal.feet[s])]
    caught = sum(1 for c in held if IS_RED_THREE[c])
    in_hand = sum(value[c] for c in held)  # a red three has no card value (HF §1.3)
    if knobs.red_three_mode == "penalty":
        threes = -knobs.red_three_penalty * caught
    else:
        laid = knobs.red_three_laid_value * len(deal.red_threes[side])
        if knobs.red_threes_negative_if_no_meld and not deal.opened(side):
            laid = -laid
        threes = laid - knobs.red_three_unlaid_penalty * caught
    out = knobs.going_out_bonus if went_out is not None and deal.side_of(went_out) == side \
        else 0
    return SideScore(melded=melded, books=bonus, red_threes=threes, going_out=out,
                     in_hand=in_hand, total=melded + bonus + threes + out - in_hand)


def ended(deal: Deal, went_out: int | None) -> Deal:
    """``deal`` over: scored, with ``went_out`` the seat that went out (or ``None``)."""
    sides = tuple(score_side(deal, side, went_out) for side in range(deal.rules.num_sides))
    return deal.but(phase="over", end=Ending(went_out, sides), asked=False, answer=None)
