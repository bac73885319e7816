"""MA §18.8: the canasta-count matrix, figure by figure (scenario numbers of
shared/MODERN-AMERICAN.md)."""

from __future__ import annotations

import dataclasses

import pytest

from canasta.cards import parse_cards, parse_rank
from canasta.modern_american import KNOBS, WILD_MELD, SideScore, base_rules, score_side
from canasta.modern_american.scoring import canasta_bonus, incomplete_penalty

RULES = base_rules()


def cards(text: str) -> tuple[int, ...]:
    return tuple(parse_cards(text))


def melds(**by_rank: str) -> dict[int, tuple[int, ...]]:
    return {WILD_MELD if r == "W" else parse_rank(r.lstrip("_")): cards(c)
            for r, c in by_rank.items()}


def parts_add_up(score: SideScore) -> None:
    assert score.total == (score.melded + score.bonuses + score.threes + score.penalties
                           + score.in_hand + score.special)


def test_56_two_canastas_threes_and_going_out() -> None:
    score = score_side(RULES, KNOBS, melds(K="Kc Kd Kh Ks Kc Kd Kh", Q="Qc Qd Qh Qs Qc 2c JK"),
                       cards("3h 3d 3s"), [cards(""), cards("9c 5d")], went_out=True)
    assert (score.melded, score.bonuses, score.threes, score.in_hand) == (190, 900, 400, -15)
    assert score.total == 1475
    parts_add_up(score)


def test_57_one_canasta_threes_count_nothing_aces_held_cost() -> None:
    score = score_side(RULES, KNOBS, melds(_9="9c 9d 9h 9s 9c 2c 2d", _6="6c 6d 6h"),
                       cards("3h"), [cards("Ac Ad Ah 4c"), cards("Kc")], went_out=False)
    assert score.canastas == 1 and score.threes == 0 and score.penalties == -1500
    assert score.total == -1170
    parts_add_up(score)


def test_58_no_canasta_melded_cards_count_minus() -> None:
    score = score_side(RULES, KNOBS, melds(J="Jc Jd Jh", _5="5c 5d 5h 5s"), cards("3c"),
                       [cards("Kc Kd Kh Ks")], went_out=False)
    assert (score.melded, score.threes, score.in_hand, score.total) == (-50, -100, -40, -190)


@pytest.mark.parametrize(("penalty_four_jokers", "total"), [(2000, -1210), (2500, -1710)])
def test_59_incomplete_wild_meld(penalty_four_jokers: int, total: int) -> None:
    knobs = dataclasses.replace(KNOBS, wild_meld_incomplete_penalty_four_jokers=penalty_four_jokers)
    score = score_side(RULES, knobs, melds(K="Kc Kd Kh Ks Kc Kd Kh", W="JK JK JK JK 2c"), (),
                       [(), ()], went_out=False)
    assert score.total == total


def test_60_incomplete_sevens() -> None:
    score = score_side(RULES, KNOBS, melds(K="Kc Kd Kh Ks Kc Kd Kh",
                                           _8="8c 8d 8h 8s 8c 2c 2d", _7="7c 7d 7h 7s"),
                       (), [(), ()], went_out=False)
    assert score.penalties == -2500 and score.total == -1520


def test_61_aces_mixed_and_natural() -> None:
    aces = parse_rank("A")
    mixed, natural = cards("Ac Ad Ah As Ac 2c JK"), cards("Ac Ad Ah As Ac Ad Ah")
    assert sum(RULES.value_of[c] for c in mixed) + canasta_bonus(RULES, KNOBS, aces, mixed) == 470
    assert (sum(RULES.value_of[c] for c in natural)
            + canasta_bonus(RULES, KNOBS, aces, natural)) == 2640
    assert incomplete_penalty(KNOBS, aces, cards("Ac Ad 2c")) == 0
    assert incomplete_penalty(KNOBS, aces, cards("Ac Ad Ah")) == 2500


@pytest.mark.parametrize(("meld", "bonus", "points"), [
    ("2c 2d 2h 2s 2c 2d 2h", 3000, 140),
    ("JK JK JK JK 2c 2d 2h", 2500, 260),
    ("JK JK 2c 2d 2h 2s 2c", 2000, 200),
])
def test_62_wild_canastas(meld: str, bonus: int, points: int) -> None:
    assert canasta_bonus(RULES, KNOBS, WILD_MELD, cards(meld)) == bonus
    assert sum(RULES.value_of[c] for c in cards(meld)) == points


@pytest.mark.parametrize(("canastas", "threes"), [(0, -2000), (1, 0), (2, 2000)])
def test_63_threes_signed_by_canastas(canastas: int, threes: int) -> None:
    laid = melds(**dict(list({"K": "Kc Kd Kh Ks Kc Kd Kh", "Q": "Qc Qd Qh Qs Qc Qd Qh"}.items())
                         [:canastas]))
    score = score_side(RULES, KNOBS, laid, cards("3h 3d 3h 3d 3c 3s 3c 3s"), [()], False)
    assert score.threes == threes


def test_64_aces_and_sevens_held_by_each_player() -> None:
    score = score_side(RULES, KNOBS, {}, (), [cards("Ac Ad Ah"), cards("7c 7d 7h 7s")], False)
    assert score.penalties == -3000 and score.in_hand == -80


@pytest.mark.parametrize(("last_card", "cost"), [(False, -100), (True, -5)])
def test_65_66_a_three_in_hand(last_card: bool, cost: int) -> None:
    three = parse_cards("3s")[0]
    score = score_side(RULES, KNOBS, {}, (), [(three,)], False,
                       last_card_three=three if last_card else None)
    assert score.in_hand == cost


def test_a_special_hand_replaces_the_rest() -> None:
    score = score_side(RULES, KNOBS, melds(K="Kc Kd Kh"), cards("3h"), [cards("Ac")], False,
                       special=5000)
    assert score.total == 5000 and score.melded == 0
