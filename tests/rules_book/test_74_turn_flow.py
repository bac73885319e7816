"""RULES §7.4 — turn flow, drawing, red threes (scenarios #42 to #46).

Red threes are laid out and replaced on every preset (RULES §1.5, §6
``dealt_red_threes_replaced``); a stock draw takes ``draw_count`` cards (1, or 2 in
``classic-2p``, ``classic-3p-cutthroat`` and ``korean-old``).
"""

from __future__ import annotations

import pytest

from canasta import format_card, get_rules

from .builders import PRESETS, deal, hand_of, position, presets_where, side_of
from .checks import assert_illegal, assert_legal, play

MELDED = {"T": "Tc Td Th"}


@pytest.mark.parametrize("preset", PRESETS)
def test_s42_red_threes_drawn_are_laid_and_replaced(preset: str) -> None:
    rules = get_rules(preset)
    state = position(preset, phase="draw", hands={0: "9c 8d 7h"},
                     stock="3h 3d 9s Kd 5s 6s", melds={0: MELDED})
    new = assert_legal(state, "draw")
    side = side_of(rules, 0)
    assert sorted(format_card(c) for c in new.red_threes[side]) == ["3d", "3h"]
    assert len(new.hands[0]) == len(state.hands[0]) + rules.draw_count
    drawn = ["9s", "Kd"][: rules.draw_count]
    assert sorted(hand_of(new, 0)) == sorted(["9c", "8d", "7h", *drawn])
    assert len(new.stock) == len(state.stock) - 2 - rules.draw_count
    assert new.phase == "play"


@pytest.mark.parametrize("preset", PRESETS)
def test_s43_dealt_red_threes_laid_out_and_replaced_before_play(preset: str) -> None:
    rules = get_rules(preset)
    n = rules.num_players
    state = deal(preset, dealer=n - 1, hands={0: "3h 3d"}, upcards="9c")
    assert state.to_move == 0 and state.phase == "draw"
    assert sorted(format_card(c) for c in state.red_threes[side_of(rules, 0)]) == ["3d", "3h"]
    assert len(state.hands[0]) == rules.hand_size
    assert not any(c in ("3h", "3d") for c in hand_of(state, 0))
    assert len(state.stock) == rules.deck_size - n * rules.hand_size - 1 - 2


@pytest.mark.parametrize("preset", PRESETS)
def test_s44_no_take_after_drawing(preset: str) -> None:
    state = position(preset, phase="draw", hands={0: "7d 7s Kc Qd"}, pile="5c 7h",
                     melds={0: MELDED})
    assert_legal(state, "take 7d 7s")
    drawn = play(state, "draw")
    assert_illegal(drawn, "take 7d 7s")
    assert_illegal(drawn, "take")


@pytest.mark.parametrize("preset", presets_where(lambda r: r.draw_count == 2))
def test_s45_two_card_draw_with_a_red_three_korean_old(preset: str) -> None:
    rules = get_rules(preset)
    state = position(preset, phase="draw", hands={0: "Kc Qd 7h"}, stock="3d 9c 5s 6s",
                     melds={0: MELDED})
    new = assert_legal(state, "draw")
    assert [format_card(c) for c in new.red_threes[side_of(rules, 0)]] == ["3d"]
    assert sorted(hand_of(new, 0)) == sorted(["Kc", "Qd", "7h", "9c", "5s"])
    assert len(new.hands[0]) == len(state.hands[0]) + 2
    assert [format_card(c) for c in new.stock] == ["6s"]


@pytest.mark.parametrize("preset", presets_where(lambda r: r.draw_count == 2))
def test_s46_draw_two_discard_one_classic_2p(preset: str) -> None:
    rules = get_rules(preset)
    state = position(preset, phase="draw", hands={0: "Kc Qd 7h"}, stock="9c 5s 6s 8s",
                     melds={0: MELDED})
    drawn = assert_legal(state, "draw")
    assert len(drawn.hands[0]) == 5
    assert [format_card(c) for c in drawn.stock] == ["6s", "8s"]
    after = play(drawn, "discard 9c")
    assert len(after.hands[0]) == 4
    assert after.to_move == 1 % rules.num_players and after.phase == "draw"
