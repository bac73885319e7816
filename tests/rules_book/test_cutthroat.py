"""RULES §2.2 cutthroat three-hand (``classic-3p-cutthroat``): the lone hand, pooled melds,
individual red threes and scores, the end of the stock."""

from __future__ import annotations

from canasta import apply
from tests.rules_book.builders import hand_of, meld_of, position
from tests.rules_book.checks import assert_illegal, assert_legal

PRESET = "classic-3p-cutthroat"
TWO_CANASTAS = {"Q": "Qc Qc Qd Qd Qh Qh Qs", "J": "Jc Jc Jd Jd Jh Jh Js"}


def test_the_first_to_take_the_pile_plays_alone_and_the_others_pool_their_melds() -> None:
    state = position(
        PRESET, to_move=0, phase="draw", hands={0: "9c 9d 4c 5c 6c 7c", 1: "Ts 8s", 2: "Ah 8h"},
        pile="5d 9h", melds={0: {"K": "Kc Kd Kh"}, 1: {"A": "Ac Ad As", "8": "8c 8d 2c"},
                                2: {"A": "Ac Ad 2d", "T": "Tc Td Th"}})
    assert state.lone_hand is None
    after = assert_legal(state, "take 9c 9d")
    assert after.lone_hand == 0
    # the partners' melds are pooled under the lower seat: both A melds became one
    assert sorted(meld_of(after, 1, "A")) == sorted("Ac Ac Ad Ad As 2d".split())
    assert meld_of(after, 1, "T") and meld_of(after, 1, "8")
    assert after.melds[2] == (None,) * 12
    # the lone hand keeps its own melds
    assert meld_of(after, 0, "9") and meld_of(after, 0, "K")


def test_partners_play_on_their_pooled_melds() -> None:
    state = position(
        PRESET, to_move=2, hands={2: "Tc 8s 4d 5d"}, lone_hand=0,
        melds={0: {"K": "Kc Kd Kh"}, 1: {"T": "Td Th Ts"}})
    after = assert_legal(state, "meld Tc")
    assert sorted(meld_of(after, 1, "T")) == sorted("Tc Td Th Ts".split())


def test_two_canastas_are_needed_to_go_out() -> None:
    one = position(PRESET, to_move=0, hands={0: "9c 9d 9h 4c"},
                   melds={0: {"Q": "Qc Qc Qd Qd Qh Qh Qs"}})
    assert_illegal(one, "meld 9c 9d 9h")
    two = position(PRESET, to_move=0, hands={0: "9c 9d 9h 4c"}, melds={0: TWO_CANASTAS})
    assert_legal(two, "meld 9c 9d 9h")


def test_going_out_before_any_take_makes_the_lone_hand_and_partners_share_the_result() -> None:
    state = position(
        PRESET, to_move=0, hands={0: "9c 9d 9h 4c", 1: "5h 5s", 2: "Ks"}, melds={
            0: TWO_CANASTAS, 1: {"A": "Ac Ad As"}, 2: {"8": "8c 8d 8h"}},
        red_threes={1: "3d", 2: "3h 3h"})
    over = apply(apply(state, "meld 9c 9d 9h"), "discard 4c")
    assert over.is_over and over.lone_hand == 0 and over.result is not None
    lone, p1, p2 = over.result.sides
    assert lone.going_out == 100 and lone.canastas == 1000
    # partners: pooled melds A A A (60) + 8 8 8 (30), both hands (10 + 10) against them
    assert (p1.melded, p1.in_hand) == (90, 20) and (p2.melded, p2.in_hand) == (90, 20)
    # each partner adds only their own red threes
    assert (p1.red_threes, p2.red_threes) == (100, 200)
    assert p1.total == 90 + 100 - 20 and p2.total == 90 + 200 - 20


def test_play_ends_with_the_discard_of_the_player_who_drew_the_last_card() -> None:
    state = position(PRESET, to_move=1, phase="draw", stock="8s 7d", pile="4h 9d",
                     hands={1: "Jc Qd 5c"})
    drawn = apply(state, "draw")
    assert hand_of(drawn, 1).count("8s") == 1 and not drawn.stock
    ended = apply(drawn, "discard 5c")
    assert ended.is_over and ended.result is not None and ended.result.went_out is None


def test_stock_out_with_nobody_having_taken_the_pile_everyone_scores_alone() -> None:
    state = position(PRESET, to_move=1, phase="play", stock="", pile="4h 9d",
                     hands={0: "Kd", 1: "Jc Qd", 2: "Ac"},
                     melds={0: {"8": "8c 8d 8h"}, 1: {"7": "7c 7d 7h"}})
    ended = apply(state, "discard Qd")
    assert ended.is_over and ended.lone_hand is None and ended.result is not None
    totals = [s.total for s in ended.result.sides]
    assert totals == [30 - 10, 15 - 10, -20]
