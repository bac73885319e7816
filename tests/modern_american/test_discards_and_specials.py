"""MA §18.3, §18.4 and §18.7: picking the pack, discards and special hands (scenario numbers of
shared/MODERN-AMERICAN.md)."""

from __future__ import annotations

import dataclasses

import pytest

from canasta.cards import parse_card, parse_cards, parse_rank
from canasta.modern_american import (
    KNOBS,
    MeldContext,
    discard_problem,
    matches,
    pick_problem,
    special_problem,
)

LATER = MeldContext(opening=False)


def cards(text: str) -> tuple[int, ...]:
    return tuple(parse_cards(text))


@pytest.mark.parametrize(("number", "top", "shown", "existing", "dead", "refusal"), [
    (23, "8c", "8d 2c", "", "", "natural pair"),
    (24, "8c", "8d 8h", "8c 8d 8h 8s", "", None),
    (25, "8c", "8d 8h", "8c 8d 8h 8s 8c", "", "at most 7 cards"),
    (26, "8c", "8d", "8c 8d 8h 8s", "", "natural pair"),
    (27, "Qc", "Qd Qh", "", "Q", "dead"),
    (28, "JK", "", "", "", "wild card is on top"),
    (29, "7c", "7d 7h", "", "", None),
])
def test_picking_the_pack(number: int, top: str, shown: str, existing: str, dead: str,
                          refusal: str | None) -> None:
    ctx = MeldContext(opening=False, dead=frozenset(parse_rank(r) for r in dead.split()))
    found = pick_problem(KNOBS, parse_card(top), cards(shown), cards(existing), ctx)
    if refusal is None:
        assert found is None, (number, found)
    else:
        assert found is not None and refusal in found, (number, found)


@pytest.mark.parametrize(("card", "legal"), [
    ("7c", False), ("Ac", False), ("2c", False), ("9c", False), ("5c", True)])
def test_30_onto_an_empty_pile(card: str, legal: bool) -> None:
    hand = cards("7c Ac 2c 9c 5c Kd")
    found = discard_problem(KNOBS, parse_card(card), hand, pile_empty=True,
                            dead=frozenset({parse_rank("9")}))
    assert (found is None) == legal, (card, found)


def test_31_32_34_wild_cards_and_threes() -> None:
    assert "wild card is discarded only" in (
        discard_problem(KNOBS, parse_card("2c"), cards("2c 5d 9h"), pile_empty=False) or "")
    assert discard_problem(KNOBS, parse_card("JK"), cards("2c JK"), pile_empty=False) is None
    assert discard_problem(KNOBS, parse_card("JK"), cards("JK 5d"), pile_empty=False,
                           going_out=True) is None
    assert "never discarded" in (
        discard_problem(KNOBS, parse_card("3s"), cards("3s 5d"), pile_empty=False) or "")


def test_the_going_out_discard_and_the_empty_pile() -> None:
    """MA §7.5: exempt by default; a knob makes it obey the rule."""
    seven = parse_card("7c")
    assert discard_problem(KNOBS, seven, (seven,), pile_empty=True, going_out=True) is None
    strict = dataclasses.replace(KNOBS, empty_pile_rule_applies_to_going_out_discard=True)
    assert discard_problem(strict, seven, (seven,), pile_empty=True, going_out=True)


def test_pagat_lets_a_seven_go_when_no_other_natural_is_left() -> None:
    lenient = dataclasses.replace(KNOBS, empty_pile_exception_only_naturals_left=True)
    seven = parse_card("7c")
    assert discard_problem(lenient, seven, cards("7c Ad 2c"), pile_empty=True) is None
    assert discard_problem(lenient, seven, cards("7c Kd"), pile_empty=True) is not None
    assert discard_problem(KNOBS, seven, cards("7c Ad 2c"), pile_empty=True) is not None


@pytest.mark.parametrize(("number", "hand", "names"), [
    (48, "6c 6d 7c 7d 8c 8d 9c 9d Jc Jd Qc Qd Kc Kd", ["Pairs"]),
    (50, "8c 8d 8h 8s Qc Qd Qh Qs 5c 5d 5h Kc Kd Kh", ["Garbage"]),
    (51, "Ac 2c 3s 4c 5c 6c 7c 8c 9c Tc Jc Qc Kc JK", ["Straight"]),
    (52, "6c 6d 9c 9d Jc Jd Qc Qd 7c 7d Ac Ad 2c JK", []),
    (53, "6c 6d 9c 9d Qc Qd 7c 7d Ac Ad 2c 2d JK JK", ["Miami Pairs"]),
    (54, "4c 4d 4h 4s 4c Kc Kd Kh Ks Kc JK JK JK JK", ["Dream Hand Plus 4"]),
    (55, "8c 8d JK JK Qc Qd Qh Kc Kd Kh 4c 4d 4h 4s", ["Zip Code"]),
    (0, "6c 6d 9c 9d Jc Jd Qc Qd 7c 7d Ac Ad 2c 2d", ["Wild Pairs"]),
    (0, "Kc Kd Kh Ks Kc Qc Qd Qh Qs 8c 8d 8h 2c 2d", ["Blast Off"]),
    (0, "8c 8d 8h Qc Qd Qh Kc Kd Kh 4c 4d 4h JK JK", ["Triples"]),
    (0, "8c 8d 8h 8s Qc Qd Qh Qs Kc Kd Kh Ks 2c 2d", ["Quads"]),
    # twos and jokers as groups of their own make Blast Off too: the player declares one
    (0, "4c 4d 4h 4s 4c Kc Kd Kh Ks 2c 2d 2h JK JK", ["Blast Off", "Dream Hand Plus 5"]),
    (0, "4c 4d 4h 4s 4c Kc Kd Kh Ks 2c 2d 2h 2s JK", ["Dream Hand Plus 5"]),
])
def test_special_hands(number: int, hand: str, names: list[str]) -> None:
    assert [h.name for h in matches(cards(hand))] == names, number


def test_50_pagat_garbage_and_the_catalogues() -> None:
    garbage = cards("8c 8d 8h 8s Qc Qd Qh Qs 5c 5d 5h Kc Kd Kh")
    assert [(h.name, h.value) for h in matches(garbage, "pagat")] == [("Garbage", 2000)]
    assert [(h.name, h.value) for h in matches(garbage)] == [("Garbage", 3000)]
    jokers = cards("6c 6d 9c 9d Jc Jd Qc Qd 7c 7d Ac Ad JK JK")
    assert [h.name for h in matches(jokers)] == ["Wild Pairs"]
    assert matches(jokers, "pagat") == []  # pagat's wild pair is twos


def test_a_dream_hand_wins_the_game_and_a_declaration_names_its_hand() -> None:
    dream = cards("4c 4d 4h 4s 4c Kc Kd Kh Ks Kc JK JK JK JK")
    assert matches(dream)[0].wins_game and matches(dream)[0].value == 8500
    assert special_problem(dream, "dream hand plus 4") is None
    assert "not Pairs" in (special_problem(dream, "Pairs") or "")
    assert "no special hand 'Flush'" in (special_problem(dream, "Flush") or "")
    assert "14 cards" in (special_problem(dream[:13], "Pairs") or "")
