"""RULES §7.1 — melds and canastas (scenarios #1 to #16).

Meld composition (RULES §1.7), canastas (§1.8) and black threes (§1.9) are the same on every
preset, except the 2-natural + 3-wild meld that ``spruce-classic`` forbids
(``wilds_must_not_exceed_naturals``). The acting player is N (seat 0); "S" is N's partner where
the preset has partnerships, otherwise N again (the rule is about the side's melds).
"""

from __future__ import annotations

import pytest

import canasta
from canasta import get_rules

from .builders import (
    PRESETS,
    canastas_for_going_out,
    hand_of,
    kind,
    meld_of,
    partner,
    position,
    presets_where,
    side_of,
    table_result,
)
from .checks import assert_illegal, assert_legal, listed, play

MELDED = {"T": "Tc Td Th"}
"""A meld that makes a side "has melded" without touching the ranks under test."""


def _melded(preset: str, hand: str) -> canasta.State:
    """N to play (after drawing), NS has melded, N holds ``hand``."""
    return position(preset, hands={0: hand}, melds={0: MELDED})


def _s_seat(preset: str) -> int:
    """N's partner S, or N itself where each player is a side."""
    s = partner(get_rules(preset), 0)
    return 0 if s is None else s


@pytest.mark.parametrize("preset", PRESETS)
def test_s01_two_naturals_one_wild_legal(preset: str) -> None:
    state = _melded(preset, "5c 5d 2s Kc Qd")
    new = assert_legal(state, "meld 5c 5d 2s")
    assert sorted(meld_of(new, 0, "5")) == sorted(["5c", "5d", "2s"])
    assert sorted(hand_of(new, 0)) == ["Kc", "Qd"]


@pytest.mark.parametrize("preset", PRESETS)
def test_s02_one_natural_two_wilds_illegal(preset: str) -> None:
    state = _melded(preset, "5c 2d 2s Kc Qd")
    assert_illegal(state, "meld 5c 2d 2s")


@pytest.mark.parametrize("preset", PRESETS)
def test_s03_three_naturals_three_wilds_legal(preset: str) -> None:
    state = _melded(preset, "9c 9d 9h 2c 2d JK Kc Qd")
    new = assert_legal(state, "meld 9c 9d 9h 2c 2d JK")
    assert len(meld_of(new, 0, "9")) == 6


@pytest.mark.parametrize("preset", PRESETS)
def test_s04_four_wilds_illegal(preset: str) -> None:
    state = _melded(preset, "9c 9d 2c 2d 2h JK Kc Qd")
    assert_illegal(state, "meld 9c 9d 2c 2d 2h JK")


@pytest.mark.parametrize(
    ("preset", "legal"),
    [(p, not get_rules(p).wilds_must_not_exceed_naturals) for p in PRESETS],
)
def test_s05_two_naturals_three_wilds_classic_legal_spruce_illegal(
        preset: str, legal: bool) -> None:
    assert legal is (preset != "spruce-classic")
    state = _melded(preset, "Kc Kd 2c 2d JK 9c 8d")
    if legal:
        new = assert_legal(state, "meld Kc Kd 2c 2d JK")
        assert len(meld_of(new, 0, "K")) == 5
    else:
        assert_illegal(state, "meld Kc Kd 2c 2d JK")


@pytest.mark.parametrize("preset", PRESETS)
def test_s06_all_wild_meld_illegal(preset: str) -> None:
    state = _melded(preset, "2c 2d JK 9c 8d")
    assert_illegal(state, "meld 2c 2d JK")
    assert_illegal(state, "meld K: 2c 2d JK")


@pytest.mark.parametrize("preset", PRESETS)
def test_s07_sequence_illegal(preset: str) -> None:
    state = _melded(preset, "4c 5d 6h 9c 8d")
    assert_illegal(state, "meld 4c 5d 6h")


@pytest.mark.parametrize("preset", PRESETS)
def test_s08_second_meld_of_a_rank_merges_into_the_first(preset: str) -> None:
    s = _s_seat(preset)
    state = position(preset, to_move=s, hands={s: "Qh Qs 2c 9c 8d"},
                     melds={0: {"Q": "Qc Qd Qh"}})
    # a separate second Q meld cannot be laid, not even within one action
    assert_illegal(state, "meld Qh 2c, Qs")
    new = assert_legal(state, "meld Qh Qs 2c")
    meld = meld_of(new, side_of(get_rules(preset), s), "Q")
    assert sorted(meld) == sorted(["Qc", "Qd", "Qh", "Qh", "Qs", "2c"])
    assert sum(1 for rank in canasta.state_to_json(new)["sides"][0]["melds"] if rank == "Q") == 1


@pytest.mark.parametrize("preset", PRESETS)
def test_s08_each_side_keeps_its_own_meld_of_a_rank(preset: str) -> None:
    state = position(preset, hands={0: "Qh Qs 2c 9c 8d"},
                     melds={0: MELDED, 1: {"Q": "Qc Qd Qh"}})
    new = assert_legal(state, "meld Qh Qs 2c")
    assert sorted(meld_of(new, 0, "Q")) == sorted(["Qh", "Qs", "2c"])
    assert sorted(meld_of(new, 1, "Q")) == sorted(["Qc", "Qd", "Qh"])


@pytest.mark.parametrize("preset", PRESETS)
def test_s09_fourth_wild_on_mixed_canasta_illegal(preset: str) -> None:
    s = _s_seat(preset)
    state = position(preset, to_move=s, hands={s: "2c 9c 8d"},
                     melds={0: {"8": "8c 8d 8h 8s 2d 2h JK"}})
    assert_illegal(state, "meld 8: 2c")


@pytest.mark.parametrize("preset", PRESETS)
def test_s10_wild_on_natural_canasta_makes_it_mixed_390(preset: str) -> None:
    s = _s_seat(preset)
    state = position(preset, to_move=s, hands={s: "2c 9c 8d"},
                     melds={0: {"K": kind("K", 7)}})
    new = assert_legal(state, "meld K: 2c")
    assert len(meld_of(new, 0, "K")) == 8
    assert table_result(state).canastas == 500  # natural before the wild card
    side = table_result(new)
    assert (side.melded, side.canastas) == (90, 300)
    assert side.melded + side.canastas == 390


@pytest.mark.parametrize("preset", ["classic-6p"])
def test_s11_three_kings_on_natural_canasta_600(preset: str) -> None:
    """Ten kings need a pack of three decks (the 108-card pack holds eight kings)."""
    state = position(preset, hands={0: "Kc Kd Kh 9c 8d"}, melds={0: {"K": kind("K", 7)}})
    new = assert_legal(state, "meld Kc Kd Kh")
    assert len(meld_of(new, 0, "K")) == 10
    side = table_result(new)
    assert (side.melded, side.canastas) == (100, 500)
    assert side.melded + side.canastas == 600


@pytest.mark.parametrize("preset", presets_where(lambda r: r.num_decks == 2))
def test_s11_kings_added_to_natural_canasta_stay_natural_two_deck_pack(preset: str) -> None:
    """The 108-card pack holds eight kings: the eighth king keeps the canasta natural (580)."""
    state = position(preset, hands={0: "Ks 9c 8d"}, melds={0: {"K": kind("K", 7)}})
    new = assert_legal(state, "meld Ks")
    side = table_result(new)
    assert (side.melded, side.canastas) == (80, 500)


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("side_melded", [True, False])
def test_s12_red_threes_never_melded(preset: str, side_melded: bool) -> None:
    state = position(preset, hands={0: "9c 9d 8h"}, melds={0: MELDED} if side_melded else {},
                     red_threes={0: "3h 3d 3h"})
    error = assert_illegal(state, "meld 3h 3d 3h")
    assert "red three" in error.reason
    assert all(not a.startswith("meld 3") for a in listed(state))


@pytest.mark.parametrize("preset", PRESETS)
def test_s13_black_threes_not_melded_unless_going_out(preset: str) -> None:
    rules = get_rules(preset)
    state = position(preset, hands={0: "3s 3c 3s 9c 9d"},
                     melds={0: canastas_for_going_out(rules)})
    assert_illegal(state, "meld 3s 3c 3s")


@pytest.mark.parametrize("preset", PRESETS)
def test_s14_black_threes_melded_when_going_out_count_15(preset: str) -> None:
    rules = get_rules(preset)
    table = canastas_for_going_out(rules)
    state = position(preset, hands={0: "3s 3c 3c 9c"}, melds={0: table})
    new = play(state, "meld 3s 3c 3c", "discard 9c")
    assert new.is_over
    result = new.result
    assert result is not None
    assert result.went_out == 0
    table_value = 70 * len(table)
    assert result.sides[0].melded == table_value + 15
    assert new.hands[0] == ()


@pytest.mark.parametrize("preset", PRESETS)
def test_s15_no_wild_cards_with_black_threes(preset: str) -> None:
    rules = get_rules(preset)
    state = position(preset, hands={0: "3s 3c 2c"}, melds={0: canastas_for_going_out(rules)})
    assert_illegal(state, "meld 3s 3c 2c")
    longer = position(preset, hands={0: "3s 3c 2c 9c"}, melds={0: canastas_for_going_out(rules)})
    assert_illegal(longer, "meld 3s 3c 2c")


@pytest.mark.parametrize("preset", PRESETS)
def test_s16_never_add_to_an_opponents_meld(preset: str) -> None:
    state = position(preset, hands={0: "Jh 2c 9c 8d"},
                     melds={0: MELDED, 1: {"J": "Jc Jd Js"}})
    assert_illegal(state, "meld Jh")
    assert_illegal(state, "meld J: 2c")
    for action in canasta.legal_actions(state):
        new = canasta.apply(state, action)
        assert new.melds[1] == state.melds[1], canasta.format_action(action)
