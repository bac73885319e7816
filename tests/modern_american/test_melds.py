"""MA §18.1 and §18.2: what a Modern American meld may hold, and what opens (scenario numbers
of shared/MODERN-AMERICAN.md)."""

from __future__ import annotations

import dataclasses

import pytest

from canasta.cards import parse_cards, parse_rank
from canasta.modern_american import (
    KNOBS,
    WILD_MELD,
    MeldContext,
    ModernAmericanVariant,
    base_rules,
    meld_problem,
    opening_problem,
)

LATER = MeldContext(opening=False)
OPENING = MeldContext(opening=True)
RULES = base_rules()


def cards(text: str) -> tuple[int, ...]:
    return tuple(parse_cards(text))


def problem(rank: str, before: str, added: str, ctx: MeldContext = LATER) -> str | None:
    key = WILD_MELD if rank == "W" else parse_rank(rank)
    return meld_problem(KNOBS, key, cards(before), cards(added), ctx)


@pytest.mark.parametrize(("number", "rank", "before", "added", "ctx", "refusal"), [
    (1, "K", "", "Kc Kd Kh", LATER, None),
    (2, "K", "", "Kc Kd 2c", LATER, "at least 5 natural cards"),
    (3, "K", "", "Kc Kd Kh Ks Kc 2c", LATER, None),
    (4, "Q", "Qc Qd Qh Qs Qc", "2c JK", LATER, None),
    (5, "Q", "Qc Qd Qh Qs Qc 2d", "2c JK", LATER, "at most 7 cards"),
    (7, "7", "", "7c 7d 7h 2c", LATER, "sevens never takes wild cards"),
    (8, "A", "", "Ac Ad 2c JK", OPENING, None),
    (9, "A", "Ac Ad Ah", "As Ac 2c", LATER, "stays natural"),
    (11, "W", "", "2c 2d JK", LATER, None),
    (12, "Q", "Qc Qd Qh Qs Qc", "2c", MeldContext(opening=False, wild_meld_incomplete=True),
     "go only onto it"),
    (12, "W", "2c 2d JK", "2h", MeldContext(opening=False, wild_meld_incomplete=True), None),
    (13, "K", "", "Kc Kd Kh Ks Kc 2c JK", OPENING, "may not complete a mixed canasta"),
    (15, "K", "", "Kc Kd Kh", LATER, None),
])
def test_scenario(number: int, rank: str, before: str, added: str, ctx: MeldContext,
                  refusal: str | None) -> None:
    found = problem(rank, before, added, ctx)
    if refusal is None:
        assert found is None, (number, found)
    else:
        assert found is not None and refusal in found, (number, found)


def test_dead_ranks_take_no_meld() -> None:
    """Scenarios 6 and 10: a rank with a completed canasta on either side is dead."""
    jacks, nines = parse_rank("J"), parse_rank("9")
    ctx = MeldContext(opening=False, dead=frozenset({jacks, nines}))
    assert "dead" in (problem("J", "Jc Jd Jh Js Jc Jd Jh", "Js", ctx) or "")
    assert "dead" in (problem("9", "", "9c 9d 9h", ctx) or "")
    assert problem("9", "", "9c 9d 9h", LATER) is None
    alive = dataclasses.replace(KNOBS, dead_ranks=False)
    assert meld_problem(alive, nines, (), cards("9c 9d 9h"), ctx) is None


def test_wild_melds_have_their_own_size() -> None:
    assert "at least 3" in (problem("W", "", "2c JK") or "")
    assert problem("W", "2c 2d 2h 2s JK JK", "JK") is None
    assert "at most 7" in (problem("W", "2c 2d 2h 2s JK JK JK", "2c") or "")
    assert "only twos and jokers" in (problem("W", "2c 2d", "Kc") or "")


def test_a_meld_of_one_rank_holds_only_that_rank() -> None:
    assert "holds only kings" in (problem("K", "Kc Kd Kh", "Qc") or "")


def test_the_rule_of_five_is_a_knob() -> None:
    older = dataclasses.replace(KNOBS, min_naturals_before_wilds_after_opening=2)
    assert meld_problem(older, parse_rank("K"), (), cards("Kc Kd 2c"), LATER) is None


def test_aces_take_wild_cards_only_in_the_opening() -> None:
    assert "only in the side's initial meld" in (problem("A", "", "Ac Ad Ah 2c") or "")
    assert problem("A", "Ac Ad 2c", "Ah Ah Ac", LATER) is None  # a mixed ace meld stays mixed


OPENING_CASES = [
    (8, [("A", "Ac Ad 2c JK"), ("K", "Kc Kd Kh")], 125, None),
    (14, [("K", "Kc Kd Kh Ks Kc Kd Kh"), ("9", "9c 9d 9h"), ("A", "Ac Ad Ah")], 125, None),
    (17, [("K", "Kc Kd 2c"), ("Q", "Qc Qd JK"), ("A", "Ac Ad 2d")], 125, "clean triple"),
    (18, [("Q", "Qc Qd Qh"), ("A", "Ac Ad Ah As")], 125, "counts 110"),
    (22, [("Q", "Qc Qd Qh Qs Qc Qd Qh")], 125, "counts 70"),
]


@pytest.mark.parametrize(("number", "groups", "minimum", "refusal"), OPENING_CASES)
def test_initial_meld(number: int, groups: list[tuple[str, str]], minimum: int,
                      refusal: str | None) -> None:
    laid = [(parse_rank(r), cards(c)) for r, c in groups]
    found = opening_problem(KNOBS, RULES.value_of, laid, minimum)
    if refusal is None:
        assert found is None, (number, found)
    else:
        assert found is not None and refusal in found, (number, found)


def test_the_splash_opens_without_the_minimum() -> None:
    """Scenario 22 with ``splash_allowed``."""
    splash = dataclasses.replace(KNOBS, splash_allowed=True)
    laid = [(parse_rank("Q"), cards("Qc Qd Qh Qs Qc Qd Qh"))]
    assert opening_problem(splash, RULES.value_of, laid, 125) is None


def test_opening_minimum_by_score() -> None:
    """Scenario 16."""
    assert [RULES.minimum_for(s) for s in (-200, 2995, 3000, 4995, 5000)] == [
        125, 125, 155, 155, 180]


def test_the_variant_answers_by_counts_and_by_the_moment() -> None:
    variant = ModernAmericanVariant(RULES)
    sevens = parse_rank("7")
    assert variant.wild_room(sevens, 3, 0) == 0
    assert variant.wild_room(parse_rank("K"), 5, 1) == 1
    assert variant.wild_room(WILD_MELD, 0, 3) == 4
    assert variant.meld_problem_in(LATER, sevens, (), cards("7c 7d 7h")) is None
    assert variant.canasta_kind(cards("2c 2d 2h 2s JK JK JK")) == "wild"
    assert variant.canasta_kind(cards("Kc Kd Kh Ks Kc 2c JK")) == "mixed"
    assert variant.canasta_kind(cards("Kc Kd Kh")) is None
