"""RULES §7.5 — going out and asking (scenarios #47 to #55).

Going out needs ``min_canastas_to_go_out`` canastas (1, or 2 in ``classic-2p``, ``classic-6p``
and ``classic-3p-cutthroat``). Asking the partner (RULES §1.14) exists only with partnerships;
``korean-old`` allows one question per hand.
"""

from __future__ import annotations

from typing import Any

import pytest

import canasta
from canasta import get_rules

from .builders import (
    PRESETS,
    canastas_for_going_out,
    hand_of,
    has_melded,
    kind,
    partner,
    position,
    presets_where,
    side_of,
)
from .checks import assert_illegal, assert_legal, listed, play

PARTNERSHIPS = presets_where(lambda r: r.partnership)


@pytest.mark.parametrize("preset", PRESETS)
def test_s47_no_going_out_without_a_canasta(preset: str) -> None:
    melds = {"K": "Kc Kd Kh", "9": "9c 9d 9h 9s 2c"}
    last = position(preset, hands={0: "5h"}, melds={0: melds})
    assert_illegal(last, "discard 5h")
    # nor may a meld leave the one card that could not be discarded
    before = position(preset, hands={0: "Qc Qd Qh 5h"}, melds={0: melds})
    assert_illegal(before, "meld Qc Qd Qh")
    assert_legal(before, "discard 5h")


@pytest.mark.parametrize("preset", presets_where(lambda r: r.partnership
                                                 and r.concealed_forbids_adding_to_partner_melds))
def test_s48_adding_to_partners_meld_is_not_concealed(preset: str) -> None:
    rules = get_rules(preset)
    s = partner(rules, 0)
    assert s is not None
    table = {"Q": kind("Q", 7), "J": kind("J", 7), "9": "9d 9h 9s"}
    if rules.min_canastas_to_go_out == 1:
        del table["J"]
    state = position(preset, hands={0: kind("K", 7) + " 9c"}, melds={0: table},
                     has_melded=has_melded(rules, [s]))
    out = play(state, f"meld {kind('K', 7)}, 9c")
    result = out.result
    assert result is not None
    assert result.went_out == 0
    assert result.concealed is False
    assert result.sides[0].going_out == 100


@pytest.mark.parametrize("preset", ["korean-old"])
def test_s48_korean_old_perfect_hula_may_add_to_partners_meld(preset: str) -> None:
    """Contrast (RULES §3.2 row 10): ``korean-old`` does not forbid it, so the out is concealed."""
    rules = get_rules(preset)
    state = position(preset, hands={0: kind("K", 7) + " 9c"},
                     melds={0: {"Q": kind("Q", 7), "9": "9d 9h 9s"}},
                     has_melded=has_melded(rules, [2]))
    out = play(state, f"meld {kind('K', 7)}, 9c")
    result = out.result
    assert result is not None
    assert (result.went_out, result.concealed, result.sides[0].going_out) == (0, True, 200)


@pytest.mark.parametrize("preset", PRESETS)
def test_s49_completing_a_canasta_then_going_out(preset: str) -> None:
    rules = get_rules(preset)
    table = {rank: kind(rank, 7) for rank in "Q9"[: rules.min_canastas_to_go_out - 1]}
    table["J"] = kind("J", 6)
    state = position(preset, hands={0: "Js 5d"}, melds={0: table})
    new = assert_legal(state, "meld Js")
    out = play(new, "discard 5d")
    result = out.result
    assert result is not None
    assert result.went_out == 0
    assert result.sides[0].going_out == 100


@pytest.mark.parametrize("preset", presets_where(lambda r: r.min_canastas_to_go_out == 2))
def test_s50_two_canastas_needed_classic_2p(preset: str) -> None:
    melds = {"Q": kind("Q", 7), "9": "9c 9d 9h"}
    by_meld = position(preset, hands={0: "9s 9c"}, melds={0: melds})
    assert_illegal(by_meld, "meld 9s 9c")
    by_discard = position(preset, hands={0: "5d"}, melds={0: melds})
    assert_illegal(by_discard, "discard 5d")
    meld_then_discard = position(preset, hands={0: "9s 9c 5d"}, melds={0: melds})
    assert_illegal(meld_then_discard, "meld 9s 9c")


CONTINUE_BY_PILE = presets_where(lambda r: r.stock_exhausted_rule == "continue_by_pile")


def _s51(preset: str, ban: str, **kwargs: Any) -> canasta.State:
    """#51: the stock is empty, N holds one card, the pile is one card matching N's side's meld
    (``kwargs``: the position around it)."""
    rules = get_rules(preset)
    table = dict(canastas_for_going_out(rules, "QJ"), T="Tc Td Th")
    kwargs.setdefault("hands", {0: "5d"})
    kwargs.setdefault("pile", "Ts")
    kwargs.setdefault("melds", {0: table})
    return position(preset, rules={"preset": preset, "one_card_pile_take_ban": ban}, stock="",
                    **kwargs)


@pytest.mark.parametrize("preset", CONTINUE_BY_PILE)
@pytest.mark.parametrize("ban", ["always", "stock_out"])
def test_s51_stock_out_one_card_may_not_take_one_card_pile(preset: str, ban: str) -> None:
    rules = get_rules(preset)
    if ban == rules.one_card_pile_take_ban:
        assert ban == "always"  # RULES §6 for the classic family and spruce-classic
    state = _s51(preset, ban, phase="draw")
    assert_illegal(state, "take", reason="holding one card may not take a pile of one card")
    # reached in play: the previous player discards the T onto an empty pile, and the hand ends
    prev = rules.num_players - 1
    assert side_of(rules, prev) != 0
    table = dict(canastas_for_going_out(rules, "QJ"), T="Tc Td Th")
    before = _s51(preset, ban, to_move=prev, hands={0: "5d", prev: "Ts 9c 8d"}, pile="",
                  melds={0: table, side_of(rules, prev): {"K": "Kc Kd Kh"}})
    ended = play(before, "discard Ts")
    assert ended.is_over
    result = ended.result
    assert result is not None
    assert result.went_out is None
    assert all(side.going_out == 0 for side in result.sides)


@pytest.mark.parametrize("preset", CONTINUE_BY_PILE)
def test_s51_without_the_ban_the_one_card_pile_must_be_taken(preset: str) -> None:
    """``one_card_pile_take_ban = "never"``: the forced take of RULES §1.16.3 applies, and N
    goes out by taking it and discarding the last card."""
    state = _s51(preset, "never", phase="draw")
    assert listed(state) == ["take"]
    assert_illegal(state, "pass", reason="must take the pile")
    out = play(state, "take", "discard 5d")
    assert out.result is not None and out.result.went_out == 0


def _asking(preset: str, hand: str = "Qc Qd Qh 9c", **kwargs: Any) -> canasta.State:
    rules = get_rules(preset)
    return position(preset, hands={0: hand}, melds={0: canastas_for_going_out(rules, "KJ")},
                    **kwargs)


@pytest.mark.parametrize("preset", PARTNERSHIPS)
def test_s52_partner_says_no_may_not_go_out(preset: str) -> None:
    rules = get_rules(preset)
    s = partner(rules, 0)
    state = _asking(preset)
    asked = assert_legal(state, "ask")
    assert asked.phase == "answer" and asked.to_move == s
    answered = assert_legal(asked, "no")
    assert answered.to_move == 0 and answered.answer == "no"
    assert_illegal(answered, "meld Qc Qd Qh")
    kept = assert_legal(answered, "discard 9c")
    assert not kept.is_over
    one_left = _asking(preset, hand="9c", answer="no")
    assert_illegal(one_left, "discard 9c")


@pytest.mark.parametrize("preset", PARTNERSHIPS)
def test_s53_partner_says_yes_must_go_out(preset: str) -> None:
    state = play(_asking(preset), "ask", "yes")
    assert state.to_move == 0 and state.answer == "yes"
    assert_illegal(state, "discard 9c")
    assert_illegal(state, "discard Qc")
    out = play(state, "meld Qc Qd Qh", "discard 9c")
    assert out.is_over
    assert out.result is not None and out.result.went_out == 0


@pytest.mark.parametrize("preset", presets_where(lambda r: r.permission_asks_per_hand == 1))
def test_s54_one_question_per_hand_korean_old(preset: str) -> None:
    rules = get_rules(preset)
    fresh = _asking(preset)
    assert "ask" in listed(fresh)
    state = _asking(preset, asks=[1] + [0] * (rules.num_players - 1))
    assert_illegal(state, "ask")


@pytest.mark.parametrize("preset", presets_where(
    lambda r: r.permission_question_enabled and r.permission_asks_per_hand is None))
def test_s55_asking_again_in_another_turn_classic(preset: str) -> None:
    rules = get_rules(preset)
    n = rules.num_players
    state = _asking(preset, hand="Qc Qd Qh Qs 8c", stock="4s 4s 5s 5s 6s 6s 7s 7s")
    state = play(state, "ask", "no", "discard 8c")
    for _ in range(n - 1):
        hand = canasta.format_card(state.hands[state.to_move][0])
        state = play(state, "draw", f"discard {hand}")
    assert state.to_move == 0
    state = play(state, "draw")
    assert state.asks[0] == 1
    again = assert_legal(state, "ask")
    assert again.asks[0] == 2 and again.phase == "answer"


# -- asking before the draw (RULES §1.14, ``ask_before_draw``) ---------------------------------

def _early(preset: str, hand: str, ask_before_draw: bool = True, **kwargs: Any) -> canasta.State:
    """N to draw, holding ``hand``, its side with the canastas it needs to go out."""
    rules = get_rules(preset)
    kwargs.setdefault("melds", {0: canastas_for_going_out(rules, "KJ")})
    return position(preset, rules={"preset": preset, "ask_before_draw": ask_before_draw},
                    phase="draw", hands={0: hand}, **kwargs)


DRAW_ONE = presets_where(lambda r: r.partnership and r.draw_count == 1)


@pytest.mark.parametrize("preset", PARTNERSHIPS)
def test_asking_before_the_draw_is_off_by_default(preset: str) -> None:
    assert not get_rules(preset).ask_before_draw
    state = _early(preset, "Qc Qd Qh", ask_before_draw=False, stock="Qs 9d 8s 8s 7s 7s")
    assert_illegal(state, "ask", reason="asked after the draw")
    drawn = play(state, "draw")
    assert "ask" in listed(drawn)


@pytest.mark.parametrize("preset", DRAW_ONE)
def test_asking_before_the_draw_yes_binds_the_whole_turn(preset: str) -> None:
    rules = get_rules(preset)
    state = _early(preset, "Qc Qd Qh", stock="9d 8s 8s 7s 7s 6s")
    assert listed(state) == ["draw", "ask"]
    asked = assert_legal(state, "ask")
    assert asked.phase == "answer" and asked.to_move == partner(rules, 0)
    assert asked.asks[0] == 1
    answered = assert_legal(asked, "yes")
    assert (answered.phase, answered.to_move, answered.answer) == ("draw", 0, "yes")
    assert_illegal(answered, "ask")  # once per turn
    drawn = assert_legal(answered, "draw")
    assert drawn.answer == "yes" and hand_of(drawn, 0) == ["9d", "Qc", "Qd", "Qh"]
    assert_illegal(drawn, "discard 9d", reason="must go out")
    assert_illegal(drawn, "ask")
    out = play(drawn, "meld Qc Qd Qh", "discard 9d")
    assert out.result is not None and out.result.went_out == 0


@pytest.mark.parametrize("preset", DRAW_ONE)
def test_asking_before_the_draw_no_binds_the_whole_turn(preset: str) -> None:
    state = play(_early(preset, "Qc Qd Qh", stock="9d 8s 8s 7s 7s 6s"), "ask", "no")
    assert state.phase == "draw" and state.answer == "no"
    drawn = assert_legal(state, "draw")
    assert drawn.answer == "no"
    assert_illegal(drawn, "meld Qc Qd Qh", reason="said no")
    assert not play(drawn, "discard 9d").is_over


@pytest.mark.parametrize("preset", PARTNERSHIPS)
def test_asking_before_the_draw_through_the_pile(preset: str) -> None:
    # a lone 5d: no draw makes going out sure, but taking the T pile with the pair does
    state = _early(preset, "Tc Td 5d", pile="Th")
    assert "ask" in listed(state)
    answered = play(state, "ask", "yes")
    assert listed(answered) == ["take Tc Td"]
    assert_illegal(answered, "draw", reason="take the pile")
    out = play(answered, "take Tc Td", "discard 5d")
    assert out.result is not None and out.result.went_out == 0


@pytest.mark.parametrize("preset", PARTNERSHIPS)
def test_asking_before_the_draw_only_when_going_out_is_sure(preset: str) -> None:
    rules = get_rules(preset)
    lone = _early(preset, "Qc Qd Qh 5d", pile="9h")
    assert "ask" not in listed(lone)
    assert_illegal(lone, "ask", reason="whatever the stock gives")
    whole = _early(preset, "Qc Qd Qh")
    if rules.draw_count == 1:
        assert "ask" in listed(whole)
    else:  # two cards drawn: one is the discard, the other might meld nowhere
        assert_illegal(whole, "ask", reason="whatever the stock gives")
