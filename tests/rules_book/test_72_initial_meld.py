"""RULES §7.2 — the initial meld (scenarios #17 to #26).

The minimum-count table (RULES §1.10) is the same on every preset below a score of 7000
(``classic-6p`` adds a 150 row there, #80), so the opening rows hold on every preset. #25 needs a
partner; #26 compares the concealed-going-out exemption of classic with ``korean-old``.
"""

from __future__ import annotations

from typing import Any

import pytest

import canasta
from canasta import get_rules

from .builders import (
    PRESETS,
    hand_of,
    has_melded,
    kind,
    meld_of,
    partner,
    position,
    presets_where,
)
from .checks import assert_illegal, assert_legal, play


def _unmelded(preset: str, hand: str, score: int = 0, **kwargs: Any) -> canasta.State:
    """N to play (after drawing); NS has not melded and has cumulative score ``score``."""
    rules = get_rules(preset)
    scores = [score] + [0] * (rules.num_sides - 1)
    return position(preset, hands={0: hand}, scores=scores, **kwargs)


@pytest.mark.parametrize("preset", PRESETS)
def test_s17_opening_45_below_50_illegal(preset: str) -> None:
    state = _unmelded(preset, "Kc Kd Kh 5c 5d 5h 9c 8d")
    assert_illegal(state, "meld Kc Kd Kh, 5c 5d 5h")


@pytest.mark.parametrize("preset", PRESETS)
def test_s18_opening_kings_and_joker_80_legal(preset: str) -> None:
    state = _unmelded(preset, "Kc Kd Kh JK 9c 8d")
    new = assert_legal(state, "meld Kc Kd Kh JK")
    assert sorted(meld_of(new, 0, "K")) == sorted(["Kc", "Kd", "Kh", "JK"])


@pytest.mark.parametrize("preset", PRESETS)
def test_s19_opening_two_melds_70_legal(preset: str) -> None:
    state = _unmelded(preset, "Qc Qd Qh 8c 8d 2s 9c 5d")
    new = assert_legal(state, "meld Qc Qd Qh, 8c 8d 2s")
    assert len(meld_of(new, 0, "Q")) == 3
    assert len(meld_of(new, 0, "8")) == 3
    # neither meld alone reaches the minimum
    assert_illegal(state, "meld Qc Qd Qh")
    assert_illegal(state, "meld 8c 8d 2s")


@pytest.mark.parametrize("preset", PRESETS)
def test_s20_negative_score_minimum_15_legal(preset: str) -> None:
    state = _unmelded(preset, "4c 4d 4h 9c 8d", score=-35)
    assert state.minimum(0) == 15
    new = assert_legal(state, "meld 4c 4d 4h")
    assert len(meld_of(new, 0, "4")) == 3


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize(
    ("score", "minimum"),
    [(-5, 15), (0, 50), (1495, 50), (1500, 90), (2995, 90), (3000, 120)],
)
def test_s21_minimum_by_cumulative_score(preset: str, score: int, minimum: int) -> None:
    rules = get_rules(preset)
    assert rules.minimum_for(score) == minimum
    state = _unmelded(preset, "9c 8d", score=score)
    assert state.minimum(0) == minimum


@pytest.mark.parametrize("preset", PRESETS)
def test_s22_red_threes_do_not_count_toward_the_minimum(preset: str) -> None:
    state = _unmelded(preset, "Jc Jd Jh 9c 8d", red_threes={0: "3h 3d 3h"})
    assert_illegal(state, "meld Jc Jd Jh")


@pytest.mark.parametrize("preset", PRESETS)
def test_s23_opening_through_pile_top_card_and_hand_90(preset: str) -> None:
    state = _unmelded(preset, "9c 9d Ah As 2c 5d 6h", score=2000, phase="draw",
                      pile="Ac Ad Ah 9h")
    assert state.minimum(0) == 90
    new = assert_legal(state, "take 9c 9d, Ah As 2c")
    assert sorted(meld_of(new, 0, "9")) == sorted(["9c", "9d", "9h"])
    assert sorted(meld_of(new, 0, "A")) == sorted(["Ah", "As", "2c"])
    # the rest of the pile is picked up after the minimum is met
    assert sorted(hand_of(new, 0)) == sorted(["5d", "6h", "Ac", "Ad", "Ah"])
    assert new.pile == ()


@pytest.mark.parametrize("preset", PRESETS)
def test_s24_pile_cards_below_the_top_do_not_count(preset: str) -> None:
    state = _unmelded(preset, "9c 9d 5d 6h 7s", score=2000, phase="draw", pile="Ac Ad Ah 9h")
    assert_illegal(state, "take 9c 9d")


@pytest.mark.parametrize("preset", presets_where(lambda r: r.partnership))
def test_s25_partner_met_the_minimum_any_meld_legal(preset: str) -> None:
    rules = get_rules(preset)
    s = partner(rules, 0)
    assert s is not None
    state = position(preset, hands={0: "4c 4d 4h 9c 8d"}, melds={0: {"K": "Kc Kd Kh"}},
                     has_melded=has_melded(rules, [s]))
    new = assert_legal(state, "meld 4c 4d 4h")
    assert len(meld_of(new, 0, "4")) == 3


def _s26_state(preset: str) -> canasta.State:
    """N (NS 2000, not melded) to draw; the hand and stock give the row's 12 (or 13) cards."""
    rules = get_rules(preset)
    stock = "6c 9s Ts" if rules.draw_count == 1 else "4c 6c 9s Ts"
    scores = [2000] + [0] * (rules.num_sides - 1)
    return position(preset, phase="draw", hands={0: kind("5", 7) + " " + kind("4", 4)},
                    stock=stock, scores=scores)


EXEMPT = presets_where(lambda r: r.concealed_out_minimum_exempt_on_stock_draw
                       and r.min_canastas_to_go_out == 1)


@pytest.mark.parametrize("preset", EXEMPT)
def test_s26_concealed_out_after_stock_draw_exempt_from_minimum_classic(preset: str) -> None:
    rules = get_rules(preset)
    state = play(_s26_state(preset), "draw")
    assert len(state.hands[0]) == 12
    assert state.minimum(0) == 90
    state = play(state, f"meld {kind('5', 7)}, {kind('4', 4)}", "discard 6c")
    result = state.result
    assert result is not None
    assert (result.went_out, result.concealed) == (0, True)
    ns = result.sides[0]
    assert (ns.melded, ns.canastas, ns.going_out) == (55, 500, 200)
    assert ns.hidden == rules.hidden_canasta_bonus
    assert ns.melded + ns.canastas + ns.going_out == 755


@pytest.mark.parametrize("preset", ["korean-old"])
def test_s26_perfect_hula_must_meet_the_minimum_korean_old(preset: str) -> None:
    state = play(_s26_state(preset), "draw")
    assert len(state.hands[0]) == 13
    assert state.minimum(0) == 90
    assert_illegal(state, f"meld {kind('5', 7)}, {kind('4', 5)}", reason="minimum")
