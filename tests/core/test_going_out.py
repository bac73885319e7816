"""The going-out solver (``canasta.going_out``): its answers on positions set up by hand (RULES
§1.13 going out, §1.6 a card left to discard, §1.9 black threes only when going out, §1.10 a
concealed going out), and its cheap bounds never disagreeing with the exact answer."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from canasta.actions import Action, Group, format_action
from canasta.cards import (
    IS_RED_THREE,
    RANK_CHARS,
    RANK_OF,
    THREE,
    TWO,
    Card,
    make_pack,
    parse_cards,
)
from canasta.going_out import going_out_of
from canasta.rules import PRESETS, Rules, get_rules
from canasta.variant import variant_of

CLASSIC = get_rules("classic")
Melds = tuple[tuple[Card, ...] | None, ...]


def hand(text: str) -> tuple[Card, ...]:
    return tuple(sorted(parse_cards(text)))


def melds(**by_rank: str) -> Melds:
    """A side's melds, by rank character (``_7="7c 7d 7h"``; ``_3`` for black threes)."""
    table: list[tuple[Card, ...] | None] = [None] * 12
    for key, cards in by_rank.items():
        table[RANK_CHARS.index(key.lstrip("_").upper())] = hand(cards)
    return tuple(table)


SEVENS = "7c 7d 7h 7s 7c 7d 7h"  # a natural canasta
A_CANASTA = melds(_7=SEVENS)
NO_CANASTA = melds(_7=SEVENS[:-3])  # six sevens


# -- §1.13: going out needs a canasta, finished this turn or before ---------------------------

def test_with_a_canasta_the_hand_is_melded_away_and_the_last_card_discarded() -> None:
    outs = going_out_of(CLASSIC)
    assert outs.can_go_out(hand("9c 9d 9h Kc"), A_CANASTA)
    plan = outs.plan(hand("9c 9d 9h Kc"), A_CANASTA)
    assert plan is not None and plan.discard == hand("Kc")[0]
    assert [format_action_of(g) for g in plan.groups] == ["9c 9d 9h"]
    assert outs.can_go_out(hand("9c 9d 9h"), A_CANASTA)  # every card melded, no discard


def test_without_a_canasta_no_hand_goes_out() -> None:
    outs = going_out_of(CLASSIC)
    assert not outs.can_go_out(hand("9c 9d 9h Kc"), NO_CANASTA)
    assert outs.surely_not(hand("9c 9d 9h Kc"), NO_CANASTA)  # no canasta within reach
    assert outs.plan(hand("9c 9d 9h Kc"), NO_CANASTA) is None


def test_the_canasta_may_be_finished_in_the_same_turn_and_is_laid_first() -> None:
    outs = going_out_of(CLASSIC)
    cards = hand("9c 9d 9h 7s Kc")
    assert outs.canastas_within_reach(cards, NO_CANASTA) == 1
    assert outs.can_go_out(cards, NO_CANASTA)
    plan = outs.plan(cards, NO_CANASTA)
    assert plan is not None
    # the seventh seven first: after it every step may leave the hand short
    assert [format_action_of(g) for g in plan.groups] == ["7s", "9c 9d 9h"]
    assert plan.discard == hand("Kc")[0]


def test_a_wild_card_completes_the_canasta_when_no_natural_can() -> None:
    outs = going_out_of(CLASSIC)
    assert outs.can_go_out(hand("9c 9d 9h 2c Kc"), NO_CANASTA)  # 2c onto the six sevens
    assert not outs.can_go_out(hand("9c 9d 9h Kc Qc"), NO_CANASTA)


def test_two_canastas_where_the_rules_need_two() -> None:
    two = going_out_of(CLASSIC.replace(min_canastas_to_go_out=2))
    assert not two.can_go_out(hand("9c 9d 9h Kc"), A_CANASTA)
    assert two.can_go_out(hand("9c 9d 9h Kc"), melds(_7=SEVENS, _8="8c 8d 8h 8s 8c 8d 8h"))


# -- §1.6: one card left to discard, and no more ----------------------------------------------

def test_one_discard_frees_one_card_only() -> None:
    outs = going_out_of(CLASSIC)
    cards = hand("9c 9d 9h Kc Qc")  # two lone cards that no meld takes
    assert outs.surely_not(cards, A_CANASTA)
    assert outs.kept_cards(cards, A_CANASTA) == []
    assert not outs.can_go_out(cards, A_CANASTA)
    assert outs.kept_cards(hand("9c 9d 9h Kc"), A_CANASTA) == [hand("Kc")[0]]
    assert outs.kept_cards(hand("7c 9c 9d 9h"), A_CANASTA) == [None, *hand("7c 9c 9d 9h")]


def test_without_a_discard_every_card_is_melded() -> None:
    # after a last red three no discard follows (RULES §1.16.1)
    outs = going_out_of(CLASSIC)
    assert not outs.can_go_out(hand("9c 9d 9h Kc"), A_CANASTA, discard=False)
    assert outs.can_go_out(hand("9c 9d 9h 7c"), A_CANASTA, discard=False)


def test_where_going_out_needs_a_discard_the_last_card_is_not_melded() -> None:
    outs = going_out_of(CLASSIC.replace(going_out_requires_discard=True))
    assert not outs.can_go_out(hand("9c 9d 9h"), A_CANASTA)
    assert outs.can_go_out(hand("9c 9d 9h Kc"), A_CANASTA)
    plan = outs.plan(hand("9c 9d 9h 7c"), A_CANASTA)
    assert plan is not None and plan.discard is not None


# -- §1.9: black threes meld only when going out, three or four, never with wild cards --------

def test_black_threes_are_melded_by_the_going_out_only_three_or_four() -> None:
    outs = going_out_of(CLASSIC)
    assert outs.can_go_out(hand("3c 3c 3s 9c 9d 9h Kc"), A_CANASTA)
    plan = outs.plan(hand("3c 3c 3s 9c 9d 9h Kc"), A_CANASTA)
    assert plan is not None and plan.groups[-1].rank == THREE  # the threes go down last
    assert not outs.can_go_out(hand("3c 3s 9c 9d 9h Kc"), A_CANASTA)  # two threes, a lone king
    assert outs.can_go_out(hand("3c 3s 9c 9d 9h"), A_CANASTA) is False
    assert outs.kept_cards(hand("3c 3s 9c 9d 9h"), A_CANASTA) == list(hand("3c 3s"))
    assert not outs.can_go_out(hand("3c 3c 3s 9c 9d 9h Kc"), NO_CANASTA)


# -- §1.10: a side that has not melded opens with its going out --------------------------------

def test_a_side_that_has_not_melded_needs_the_opening_count() -> None:
    outs = going_out_of(CLASSIC)
    none = melds()
    cards = hand("Kc Kd Kh Ks Kc Kd Kh 9c 9d 9h")  # a natural canasta of kings and three nines
    assert outs.can_go_out(cards, none, minimum=90)  # 70 + 30 = 100
    assert not outs.can_go_out(cards, none, minimum=120)


def test_a_concealed_going_out_after_a_stock_draw_is_free_of_the_minimum() -> None:
    outs = going_out_of(CLASSIC)
    none = melds()
    cards = hand("4c 4d 4h 4s 4c 4d 4h 5c")  # a canasta of fours (35) and a card to discard
    assert not outs.can_go_out(cards, none, minimum=50)
    assert outs.can_go_out(cards, none, minimum=50, exempt=True)
    assert not outs.can_go_out(hand("4c 4d 4h 5c 5d 5h"), none, minimum=50, exempt=True)


# -- the meld limits bind every meld, one that takes no card excepted ---------------------------

def test_a_canasta_at_the_largest_size_takes_no_wild_card() -> None:
    capped = CLASSIC.replace(max_meld_size=7)
    assert variant_of(capped).meld_problem(3, 7, 1) == "a meld may hold at most 7 cards"
    cards = hand("9c 9d 9h 2c Kc")
    assert not going_out_of(capped).can_go_out(hand("2c Kc"), A_CANASTA)
    assert going_out_of(CLASSIC).can_go_out(hand("2c Kc"), A_CANASTA)
    assert going_out_of(capped).can_go_out(cards, A_CANASTA)  # the two goes onto the nines


def test_a_meld_above_the_largest_size_is_not_in_the_way_of_other_cards() -> None:
    # a cutthroat merge may leave a meld above a house limit; it takes no card, and the rest goes
    capped = going_out_of(get_rules("classic-3p-cutthroat").replace(max_meld_size=8))
    merged = melds(_7=SEVENS + " 7s 7s 2c", _8="8c 8d 8h 8s 8c 8d 8h")  # two canastas to go out
    assert capped.can_go_out(hand("9c 9d 9h Kc"), merged)
    assert capped.plan(hand("9c 9d 9h Kc"), merged) is not None
    assert not capped.can_go_out(hand("7c 9c 9d 9h"), merged, discard=False)


# -- every way, for the legal list -----------------------------------------------------------

def test_the_ways_share_the_wild_cards_among_the_melds() -> None:
    outs = going_out_of(CLASSIC)
    ways = {format_action(a) for a in outs.ways(hand("9c 9d 9h 2c"), melds(_7="7c 7d 7h"))}
    assert ways == {"meld 9c 9d 9h 2c", "meld 9c 9d 9h, 7: 2c"}
    # two nines alone are too few for a new meld: the two must join them
    assert [format_action(a) for a in outs.ways(hand("9c 9d 2c"), melds(_7="7c 7d 7h"))] == [
        "meld 9c 9d 2c"]
    take = {format_action(a) for a in outs.ways(hand("9c 9d"), melds(), top_rank=RANK_OF[20])}
    assert take == {"take 9c 9d"}
    assert list(outs.ways(hand("9c Kc Kd"), melds())) == []  # a lone nine has no meld


# -- the bounds and the exact answer agree over random positions -------------------------------

def random_position(rules: Rules, rng: random.Random) -> tuple[tuple[Card, ...], Melds]:
    """A random side's melds (some complete canastas) and a hand of small groups."""
    pack = [c for c in make_pack(rules.num_decks, rules.num_jokers) if not IS_RED_THREE[c]]
    rng.shuffle(pack)
    left: dict[int, list[Card]] = {}
    for c in pack:
        left.setdefault(RANK_OF[c], []).append(c)
    wild = left[TWO]
    table: list[tuple[Card, ...] | None] = [None] * 12
    for r in range(11):
        if rng.random() < 0.35:
            n = rng.randint(3, 8)
            w = rng.randint(0, min(n - 1, 3, len(wild)))
            table[r] = tuple(sorted([left[r].pop() for _ in range(n)]
                                    + [wild.pop() for _ in range(w)]))
    size = rng.choice((2, 2, 3, 4, 5, 6, 8, 11))
    cards: list[Card] = []
    while len(cards) < size:
        x = rng.random()
        kind = TWO if x < 0.15 else THREE if x < 0.2 else rng.randrange(11)
        for _ in range(rng.choice((1, 2, 3))):
            if left[kind] and len(cards) < size:
                cards.append(left[kind].pop())
    return tuple(sorted(cards)), tuple(table)


def ways_out(rules: Rules, cards: tuple[Card, ...], side: Melds, minimum: int | None,
             exempt: bool, discard: bool) -> set[Card | None]:
    """The cards whose discard (``None``: none) ends a going out, found by melding every other
    card in turn (:meth:`~canasta.going_out.GoingOut.can_meld_all`, which has no bounds)."""
    outs = going_out_of(rules)
    options: list[Card | None] = [] if rules.going_out_requires_discard else [None]
    if discard:
        options.extend(sorted(set(cards)))
    found: set[Card | None] = set()
    for card in options:
        rest = list(cards)
        if card is not None:
            rest.remove(card)
        if outs.can_meld_all(rest, side, minimum, exempt):
            found.add(card)
    return found


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_the_bounds_never_disagree_with_the_exact_answer(name: str) -> None:
    rules = get_rules(name)
    outs = going_out_of(rules)
    rng = random.Random(name)
    seen: Counter[bool] = Counter()
    for _ in range(100):
        cards, table = random_position(rules, rng)
        unmelded = rng.random() < 0.2
        side = melds() if unmelded else table
        minimum = 50 if unmelded else None
        for discard in (True, False):
            for exempt in ((False, True) if unmelded else (False,)):
                found = ways_out(rules, cards, side, minimum, exempt, discard)
                seen[bool(found)] += 1
                assert outs.can_go_out(cards, side, minimum, exempt, discard) == bool(found)
                if outs.surely_not(cards, side, discard):
                    assert not found, (cards, side)
                if outs.canastas_within_reach(cards, side) < rules.min_canastas_to_go_out:
                    assert not found, (cards, side)
                assert found <= set(outs.kept_cards(cards, side, discard)), (cards, side)
        if not unmelded:
            plan = outs.plan(cards, side)
            assert (plan is not None) == outs.can_go_out(cards, side), (cards, side)
            if plan is not None:
                laid = Counter(c for g in plan.groups for c in g.cards)
                if plan.discard is not None:
                    laid[plan.discard] += 1
                assert laid == Counter(cards)
    assert seen[True] >= 20 and seen[False] >= 20


def format_action_of(group: Group) -> str:
    """A plan's group as the text of its meld, without the verb."""
    return format_action(Action("meld", (group,))).removeprefix("meld ")
