"""RULES §7.6 — the end of the stock (scenarios #56 to #63).

Classic stock-out play (RULES §1.16, ``stock_exhausted_rule = "continue_by_pile"``) is shared by
``classic``, ``classic-2p``, ``classic-3p``, ``classic-6p`` and ``spruce-classic``;
``classic-3p-cutthroat`` ends after the last discard (§2.2) and ``korean-old`` ends in a void draw
(§3.3). Seats: E = 1, S = 2 (0 in the 2-player preset), W = the seat before N.
"""

from __future__ import annotations

import pytest

import canasta
from canasta import format_card, get_rules, state_from_json

from .builders import (
    canastas_for_going_out,
    hand_of,
    meld_of,
    position,
    position_json,
    presets_where,
    side_of,
)
from .checks import assert_illegal, assert_legal, listed, play

CONTINUE_BY_PILE = presets_where(lambda r: r.stock_exhausted_rule == "continue_by_pile")
RED_THREE_LAST_ENDS = presets_where(lambda r: r.stock_exhausted_rule != "void_draw"
                                    and r.red_three_last_card_ends_hand)
MELDED = {"T": "Tc Td Th"}


@pytest.mark.parametrize("preset", RED_THREE_LAST_ENDS)
def test_s56_last_stock_card_red_three_ends_the_hand(preset: str) -> None:
    rules = get_rules(preset)
    e_side = side_of(rules, 1)
    state = position(preset, phase="draw", to_move=1, hands={1: "Kc Kd Kh 9c"}, stock="3d",
                     melds={0: MELDED, e_side: {"8": "8c 8d 8h"}})
    new = assert_legal(state, "draw")
    assert new.is_over
    assert [format_card(c) for c in new.red_threes[e_side]] == ["3d"]
    assert sorted(hand_of(new, 1)) == sorted(["Kc", "Kd", "Kh", "9c"])  # no meld, no discard
    assert listed(new) == []
    assert_illegal(new, "meld Kc Kd Kh")
    assert_illegal(new, "discard 9c")
    result = new.result
    assert result is not None
    assert result.went_out is None and not result.void
    assert all(side.going_out == 0 for side in result.sides)
    assert result.sides[e_side].red_threes == 100


@pytest.mark.parametrize("preset", CONTINUE_BY_PILE)
def test_s57_stock_out_forced_to_take_a_matching_pile(preset: str) -> None:
    rules = get_rules(preset)
    s = 2 % rules.num_players
    state = position(preset, phase="draw", to_move=s, hands={s: "9c 8d 7h"}, stock="",
                     pile="5c Jh", melds={side_of(rules, s): {"J": "Jc Jd Js"}})
    assert not state.pile_frozen
    assert_illegal(state, "pass")
    new = assert_legal(state, "take")
    assert not new.is_over and new.phase == "play"


STOCK_EMPTY_ENDS = presets_where(lambda r: r.stock_exhausted_rule != "void_draw")


@pytest.mark.parametrize("preset", STOCK_EMPTY_ENDS)
def test_s58_stock_empty_black_three_on_top_ends_the_hand(preset: str) -> None:
    rules = get_rules(preset)
    n = rules.num_players
    w, s = n - 1, n - 2
    state = position(preset, to_move=s, hands={s: "3s 9c 8d", w: "3c 3c Kc"}, stock="",
                     pile="5h", melds={0: MELDED, 1: {"K": "Kd Kh Ks"}})
    new = assert_legal(state, "discard 3s")
    assert new.is_over
    result = new.result
    assert result is not None
    assert result.went_out is None and not result.void
    assert all(side.going_out == 0 for side in result.sides)
    assert [side.melded for side in result.sides][:2] == [30, 30]


@pytest.mark.parametrize("preset", CONTINUE_BY_PILE)
def test_s59_stock_out_taking_with_a_new_pair_is_optional(preset: str) -> None:
    rules = get_rules(preset)
    w = rules.num_players - 1
    w_side = side_of(rules, w)
    state = position(preset, phase="draw", to_move=w, hands={w: "8c 8d Kc 9c"}, stock="",
                     pile="5h 8h", melds={w_side: {"J": "Jc Jd Jh"}})
    assert not state.pile_frozen
    assert "take 8c 8d" in listed(state)
    new = assert_legal(state, "pass")
    assert new.is_over
    result = new.result
    assert result is not None
    assert result.went_out is None
    assert all(side.going_out == 0 for side in result.sides)


@pytest.mark.parametrize("preset", ["classic-2p"])
def test_s60_single_last_card_drawn_classic_2p(preset: str) -> None:
    state = position(preset, phase="draw", hands={0: "Kc Qd 7h"}, stock="9c",
                     melds={0: MELDED})
    new = assert_legal(state, "draw")
    assert new.phase == "play" and not new.is_over
    assert sorted(hand_of(new, 0)) == sorted(["Kc", "Qd", "7h", "9c"])
    assert new.stock == ()
    after = play(new, "discard 9c")
    assert after.phase in ("draw", "over")
    assert sorted(hand_of(after, 0)) == sorted(["Kc", "Qd", "7h"])


@pytest.mark.parametrize("preset", ["classic-2p"])
def test_s61_last_two_cards_five_and_red_three_classic_2p(preset: str) -> None:
    state = position(preset, phase="draw", hands={0: "Kc Qd 7h"}, stock="5c 3d",
                     melds={0: MELDED})
    new = assert_legal(state, "draw")
    assert new.phase == "play" and not new.is_over
    assert [format_card(c) for c in new.red_threes[0]] == ["3d"]
    assert sorted(hand_of(new, 0)) == sorted(["Kc", "Qd", "7h", "5c"])
    assert new.stock == ()
    assert "discard 5c" in listed(new)


VOID_DRAW = presets_where(lambda r: r.stock_exhausted_rule == "void_draw")


@pytest.mark.parametrize("preset", VOID_DRAW)
def test_s62_short_stock_draw_is_a_void_hand_korean_old(preset: str) -> None:
    state = position(preset, phase="draw", hands={0: "Kc Qd 7h"}, stock="9c",
                     pile="5h", melds={0: MELDED, 1: {"A": "Ac Ad Ah"}},
                     scores=[1200, 800])
    new = assert_legal(state, "draw")
    assert new.is_over
    result = new.result
    assert result is not None
    assert result.void and result.went_out is None
    assert [side.total for side in result.sides] == [0, 0]
    assert all(side.going_out == 0 for side in result.sides)
    assert new.scores == (1200, 800)


@pytest.mark.parametrize("preset", VOID_DRAW)
def test_s62_red_three_without_replacement_is_a_void_hand_korean_old(preset: str) -> None:
    state = position(preset, phase="draw", hands={0: "Kc Qd 7h"}, stock="9c 3d",
                     melds={0: MELDED})
    new = assert_legal(state, "draw")
    assert new.is_over
    assert new.result is not None and new.result.void
    assert [side.total for side in new.result.sides] == [0, 0]


@pytest.mark.parametrize("preset", VOID_DRAW)
def test_s63_stock_empty_pile_taken_play_continues_korean_old(preset: str) -> None:
    state = position(preset, phase="draw", to_move=3, hands={3: "Kc Qd 7h", 0: "9d 9s 5c"},
                     stock="9c 8c", pile="4h", melds={0: MELDED, 1: {"A": "Ac Ad Ah"}})
    state = play(state, "draw", "discard 9c")
    assert state.to_move == 0 and state.phase == "draw" and not state.is_over
    assert state.stock == ()
    assert "draw" in listed(state)  # drawing now would end the hand as a void draw
    new = assert_legal(state, "take 9d 9s")
    assert new.phase == "play" and not new.is_over
    assert sorted(meld_of(new, 0, "9")) == sorted(["9c", "9d", "9s"])


@pytest.mark.parametrize("preset", VOID_DRAW)
def test_s63_one_card_may_take_a_one_card_pile_with_the_stock_empty_korean_old(
        preset: str) -> None:
    # RULES §3.3: facing an empty stock, a player may still take the pile if able; RULES §6
    # gives korean-old no one-card ban (§1.12.6, one_card_pile_take_ban = "never").
    state = position(preset, phase="draw", hands={0: "9c"}, stock="", pile="8c",
                     melds={0: {"K": "Kc Kc Kd Kd Kh Kh Ks", "8": "8d 8d 8h"}})
    assert listed(state) == ["draw", "take"]
    new = play(state, "take", "discard 9c")
    assert new.is_over
    assert new.result is not None and new.result.went_out == 0 and not new.result.void


@pytest.mark.parametrize("preset", VOID_DRAW)
def test_s62_red_three_without_replacement_still_scores_when_void_hands_score(
        preset: str) -> None:
    # RULES §3.3's alternative reading: melds, hands and red threes score as usual
    data = position_json(preset, phase="draw", hands={0: "Kc Qd 7h", 2: "Jc 9h"},
                         stock="5c 3d", melds={0: MELDED})
    data["rules"] = {"preset": preset, "draw_hand_scoring": "normal_without_out_bonus"}
    new = assert_legal(state_from_json(data), "draw")
    assert new.result is not None and new.result.void
    assert [format_card(c) for c in new.red_threes[0]] == ["3d"]
    assert "5c" in hand_of(new, 0)  # drawn before the red three, so it counts in hand
    ns = new.result.sides[0]
    assert (ns.red_threes, ns.going_out) == (100, 0)
    assert ns.in_hand == 5 + 5 + 10 + 10 + 10 + 10  # 5c 7h Qd Kc, and S's Jc 9h


# -- a red three as the last stock card, Britannica's way (``last_red_three_may_meld``) ---------

def _last_red_three(preset: str, hand: str, e_melds: dict[str, str],
                    may_meld: bool = True) -> canasta.State:
    """E to draw the stock's last card, ``3d``; E's side has ``e_melds``."""
    rules = get_rules(preset)
    return position(preset, rules={"preset": preset, "last_red_three_may_meld": may_meld},
                    phase="draw", to_move=1, hands={1: hand}, stock="3d",
                    melds={0: MELDED, side_of(rules, 1): e_melds})


@pytest.mark.parametrize("preset", RED_THREE_LAST_ENDS)
def test_s56_last_red_three_may_meld_but_not_discard(preset: str) -> None:
    e_side = side_of(get_rules(preset), 1)
    state = _last_red_three(preset, "Kc Kd Kh 9c", {"8": "8c 8d 8h"})
    new = assert_legal(state, "draw")
    assert not new.is_over and new.phase == "play" and new.turn.last_red_three
    assert [format_card(c) for c in new.red_threes[e_side]] == ["3d"]
    assert listed(new) == ["meld Kc Kd Kh", "pass"]
    assert_illegal(new, "discard 9c", reason="not discard")
    # a meld may leave a card in hand (no discard follows); then nothing more melds: over
    ended = assert_legal(new, "meld Kc Kd Kh")
    assert ended.is_over and hand_of(ended, 1) == ["9c"]
    result = ended.result
    assert result is not None and result.went_out is None and not result.void
    assert all(side.going_out == 0 for side in result.sides)
    assert result.sides[e_side].melded == 60 and result.sides[e_side].red_threes == 100
    passed = assert_legal(new, "pass")
    assert passed.is_over and len(hand_of(passed, 1)) == 4


@pytest.mark.parametrize("preset", RED_THREE_LAST_ENDS)
def test_s56_last_red_three_with_nothing_to_meld_ends_the_hand_at_once(preset: str) -> None:
    for may_meld in (True, False):
        state = _last_red_three(preset, "Kc Qd 9c", {"8": "8c 8d 8h"}, may_meld)
        assert assert_legal(state, "draw").is_over


@pytest.mark.parametrize("preset", RED_THREE_LAST_ENDS)
def test_s56_last_red_three_meld_everything_to_go_out(preset: str) -> None:
    rules = get_rules(preset)
    e_side = side_of(rules, 1)
    table = dict(canastas_for_going_out(rules, "QJ"), **{"8": "8c 8d 8h"})
    new = play(_last_red_three(preset, "Kc Kd Kh 3s 3c 3c 8s", table), "draw", "meld Kc Kd Kh")
    assert not new.is_over
    # black threes only when going out: here that means with no card left
    assert_illegal(new, "meld 3c 3c 3s", reason="black threes may be melded only when going out")
    out = play(new, "meld 8s", "meld 3c 3c 3s")
    result = out.result
    assert result is not None and result.went_out == 1 and not result.concealed
    assert result.sides[e_side].going_out == 100


@pytest.mark.parametrize("preset", presets_where(
    lambda r: r.partnership and r.stock_exhausted_rule != "void_draw"))
def test_s56_last_red_three_asking_the_partner(preset: str) -> None:
    rules = get_rules(preset)
    table = dict(canastas_for_going_out(rules, "QJ"), **{"8": "8c 8d 8h"})
    new = play(_last_red_three(preset, "Kc Kd Kh", table), "draw")
    assert "ask" in listed(new)  # going out means melding everything: no discard follows
    yes = play(new, "ask", "yes")
    assert_illegal(yes, "pass", reason="must go out")
    assert play(yes, "meld Kc Kd Kh").is_over
    # after "no" the kings cannot go down (they are the whole hand): nothing to meld, over
    no = play(new, "ask", "no")
    assert no.is_over and no.result is not None and no.result.went_out is None
    kept = play(_last_red_three(preset, "Kc Kd Kh 8s", table), "draw", "ask", "no")
    assert_illegal(kept, "meld Kc Kd Kh, 8s", reason="said no")
    assert listed(kept) == ["meld 8s", "meld Kc Kd Kh", "pass"]
    # with a card that no meld takes, no going out is possible: nothing to ask
    stuck = play(_last_red_three(preset, "Kc Kd Kh 9c", table), "draw")
    assert_illegal(stuck, "ask", reason="only a player who could go out")
