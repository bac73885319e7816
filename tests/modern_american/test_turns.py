"""MA §18.1 (33), §18.5, §18.6, §18.7 (49, 51, 54), §18.8 (65, 66) and §18.9 played through the
turn (:mod:`canasta.modern_american.play`): positions in the family's notation, actions as
text. Scenario numbers are those of shared/MODERN-AMERICAN.md."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from canasta.cards import format_card, make_pack, parse_cards
from canasta.errors import IllegalActionError
from canasta.modern_american.action_text import format_action, parse_action
from canasta.modern_american.ending import winner
from canasta.modern_american.hand import OVER, PLAY, RULES, Hand
from canasta.modern_american.notation import hand_from_json, hand_to_json
from canasta.modern_american.play import apply, legal_actions, problem

KINGS = ["Kc", "Kd", "Kh", "Ks", "Kc", "Kd", "Kh"]
QUEENS_MIXED = ["Qc", "Qd", "Qh", "Qs", "Qc", "2c", "JK"]


def stock_of(n: int, used: list[str], avoid: str = "3") -> list[str]:
    """``n`` cards of the pack not in ``used``, no threes (they would be laid as drawn)."""
    left = Counter(make_pack(2, 4)) - Counter(parse_cards(used))
    names = (format_card(c) for c in sorted(left.elements()))
    return [name for name in names if not name.startswith(avoid)][:n]


def position(hand: str, *, phase: str = PLAY, stock: int = 30, pile: str = "9c 9d 6h",
             ns: dict[str, list[str]] | None = None, ew: dict[str, list[str]] | None = None,
             to_move: int = 0, others: str = "", turn: dict[str, Any] | None = None,
             threes: tuple[str, str] = ("", ""), talons: tuple[str, str] | None = None,
             **extra: Any) -> Hand:
    """``to_move`` (N by default) holds ``hand``; the two opponents hold ``others`` each, the
    partner two low cards; ``talons``, the set-aside piles where the rules have them."""
    hands: list[list[str]] = [[] for _ in range(4)]
    hands[to_move] = hand.split()
    hands[(to_move + 2) % 4] = ["8s", "9s"]
    for k, default in ((1, "6h 6s"), (3, "5h 5s")):
        hands[(to_move + k) % 4] = (others or default).split()
    sides = [{"score": 0, "melds": ns or {}, "threes": threes[0].split()},
             {"score": 0, "melds": ew or {}, "threes": threes[1].split()}]
    used = [c for h in hands for c in h] + pile.split() + [
        c for side in sides for m in side["melds"].values() for c in m] + [
        c for side in sides for c in side["threes"]] + " ".join(talons or ()).split()
    data = {"rules": "modern-american", "dealer": 3, "to_move": to_move, "phase": phase,
            "hands": hands, "stock": stock_of(stock, used), "pile": pile.split(),
            "sides": sides, **extra}
    if talons is not None:
        data["talons"] = [t.split() for t in talons]
    if turn is not None:
        data["turn"] = {"threes_chosen": True, **turn}
    return hand_from_json(data)


def act(h: Hand, text: str) -> Hand:
    return apply(h, parse_action(h, text))


def refusal(h: Hand, text: str) -> str:
    found = problem(h, parse_action(h, text))
    assert found is not None, f"{text!r} was accepted"
    with pytest.raises(IllegalActionError):
        act(h, text)
    return found


def test_33_a_meld_that_leaves_no_legal_discard_is_refused() -> None:
    h = position("7c Ac JK Kc Kd Ks", pile="", ns={"9": ["9c", "9d", "9h"]},
                 turn={"took": True, "drew": False})
    assert "no card you may discard" in refusal(h, "meld Kc Kd Ks")
    # with an eight left to discard the same meld is fine
    h8 = position("7c Ac JK Kc Kd Ks 8c", pile="", ns={"9": ["9c", "9d", "9h"]},
                  turn={"took": True, "drew": False})
    assert problem(h8, parse_action(h8, "meld Kc Kd Ks")) is None


def test_34_a_three_is_never_discarded() -> None:
    h = position("3s 5d 9h", ns={"9": ["9c", "9d", "9s"]}, turn={"kept": "3s"})
    assert "threes are never discarded" in refusal(h, "discard 3s")


def test_35_a_three_kept_the_other_laid_and_replaced() -> None:
    h = position("3h 3s 5d 9h Kc", phase="draw")
    assert h.phase == "draw" and not h.turn.threes_chosen
    listed = [format_action(h, a) for a in legal_actions(h)]
    assert listed == ["keep 3h", "keep 3s", "keep none"]
    after = act(h, "keep 3s")
    assert after.threes[0] == tuple(parse_cards("3h"))
    assert after.threes_in(0) == tuple(parse_cards("3s"))
    assert len(after.hands[0]) == 5  # 3h replaced from the stock
    assert len(after.stock) == len(h.stock) - 1
    assert "already laid" in refusal(after, "keep 3h")  # keeping both is not possible
    drawn = act(after, "draw")
    assert drawn.phase == PLAY and len(drawn.hands[0]) == 6


def test_36_a_kept_three_is_laid_once_the_side_has_melded() -> None:
    h = position("3s 5d 9h Kc", phase="draw", ns={"Q": ["Qc", "Qd", "Qh"]})
    assert h.turn.threes_chosen  # no choice: laid at the start of the turn
    assert h.threes[0] == tuple(parse_cards("3s")) and not h.threes_in(0)
    assert len(h.hands[0]) == 4


OPENING = "Ac Ad Ah Kc Kd Ks Qc Qd Qh Jc Jd Jh 5c 8h"  # 60 + 30 + 30 + 30 = 150 from the hand
OPEN = "meld Ac Ad Ah, Kc Kd Ks, Qc Qd Qh, Jc Jd Jh"


@pytest.mark.parametrize(("ew", "stock", "talon"), [
    ({}, 30, 4),                              # 37: the other side has not melded
    ({"9": ["9c", "9d", "9h"]}, 20, 3),       # 38: it has
    ({}, 8, 0),                               # 39: the turn card has been drawn
])
def test_37_38_39_the_talon(ew: dict[str, list[str]], stock: int, talon: int) -> None:
    h = position(OPENING, ew=ew, stock=stock, turn={"drew": True})
    after = act(h, OPEN)
    assert after.turn.talon == talon
    done = act(after, "discard 8h")
    assert done.to_move == 1
    assert len(done.hands[0]) == 1 + talon
    assert len(done.stock) == stock - talon


def test_40_the_talon_counts_as_the_held_card() -> None:
    h = position(OPENING.replace(" 5c 8h", " 9s"), stock=30, turn={"drew": True})
    m = act(h, OPEN)  # thirteen cards melded: the talon will be the held cards
    assert m.hands[0] == tuple(parse_cards("9s"))
    out = act(m, "discard 9s")
    assert out.phase != OVER and len(out.hands[0]) == 4
    # with the turn card drawn there is no talon: the meld that leaves one card is refused
    h8 = position(OPENING.replace(" 5c 8h", " 9s"), stock=8, turn={"drew": True})
    assert "keep one card to hold and one to discard" in refusal(h8, OPEN)


def test_41_no_talon_after_an_opening_by_the_pile() -> None:
    h = position("Ac Ad Ah Kc Kd Ks Jc Jd Jh Qd Qh 5c 6d", phase="draw", pile="8c Qc",
                 turn={"threes_chosen": True})
    after = act(h, "take Qd Qh, Ac Ad Ah, Kc Kd Ks, Jc Jd Jh")
    assert after.turn.took and after.turn.talon == 0
    done = act(after, "discard 6d")
    assert done.hands[0] == tuple(parse_cards("5c 8c"))  # the pile's 8c, and no talon


def test_41_the_top_card_does_not_count_toward_the_minimum() -> None:
    h = position("Ac Ad Ah Kc Kd Ks Qd Qh Qs 5c 6d", phase="draw", pile="8c Qc",
                 turn={"threes_chosen": True})
    # 30 + 60 + 30 = 120 from the hand; with the top Q it would be 130
    why = refusal(h, "take Qd Qh Qs, Ac Ad Ah, Kc Kd Ks")
    assert "top card does not count" in why


TWO_CANASTAS = {"K": KINGS, "Q": QUEENS_MIXED}


def test_42_one_canasta_is_not_enough_to_go_out() -> None:
    h = position("9h 9s 9d 5d", ns={"K": KINGS}, turn={"drew": True})
    assert "2 canastas" in refusal(h, "meld 9d 9h 9s")


def test_43_44_incomplete_sevens_or_wild_meld_forbid_going_out() -> None:
    for extra in ({"7": ["7c", "7d", "7h"]}, {"W": ["2d", "2h", "JK"]}):
        h = position("5d", ns={**TWO_CANASTAS, **extra}, turn={"drew": True})
        assert "incomplete" in refusal(h, "discard 5d")


def test_45_going_out_needs_a_final_discard() -> None:
    h = position("9h 9s 9d", ns=TWO_CANASTAS, turn={"drew": True})
    assert "ends with a discard" in refusal(h, "meld 9d 9h 9s")


def test_46_going_out_with_a_joker() -> None:
    h = position("JK", ns=TWO_CANASTAS, turn={"drew": True})
    out = act(h, "discard JK")
    assert out.phase == OVER and out.end is not None and out.end.went_out == 0
    ns = out.end.sides[0]
    assert ns.bonuses == 500 + 300 + RULES.going_out_bonus


def test_47_asking_twice() -> None:
    h = position("9h 9s 9d 5d", ns={"K": KINGS}, turn={"drew": True}, asks=[1, 0, 0, 0])
    assert "only 1 time" in refusal(h, "ask")


def test_asking_and_a_binding_yes() -> None:
    h = position("9h 9s 9d 9c 6d", ns=TWO_CANASTAS, turn={"drew": True})
    asked = act(h, "ask")
    assert asked.to_move == 2 and asked.phase == "answer"
    yes = act(asked, "yes")
    assert yes.to_move == 0 and yes.answer == "yes"
    assert "must go out" in refusal(yes, "discard 6d")
    no = act(asked, "no")
    assert problem(no, parse_action(no, "discard 6d")) is None


def test_one_card_left_after_a_pick_may_only_go_out() -> None:
    """A "no" would leave a player with one card no move at all (it may not go out, and a
    turn that does not go out ends keeping a card): so one card asks nothing."""
    last = position("5d", ns=TWO_CANASTAS, turn={"took": True}, pile="")
    assert "one card" in refusal(last, "ask")
    assert [format_action(last, a) for a in legal_actions(last)] == ["discard 5d"]


def test_ma_10_5_only_a_player_who_could_go_out_asks() -> None:
    """RULES §1.14, as MA §10.5 reads it: the question is for a player about to go out."""
    stuck = position("9h 9s 9d 5d 6d", ns=TWO_CANASTAS, turn={"drew": True})
    assert "could go out" in refusal(stuck, "ask")
    assert "ask" not in [format_action(stuck, a) for a in legal_actions(stuck)]
    one_short = position("9h 9s 9d 9c 6d", ns={"K": KINGS}, turn={"drew": True})
    assert "could go out" in refusal(one_short, "ask")
    # the wild cards go where the meld rules take them: onto the meld of wild cards here
    wilds = position("2c 2d JK 6d", ns={"K": KINGS, "W": ["2h", "2s", "JK", "2c"]},
                     turn={"drew": True})
    assert "ask" in [format_action(wilds, a) for a in legal_actions(wilds)]
    ready = position("9h 9s 9d 9c 6d", ns=TWO_CANASTAS, turn={"drew": True})
    assert "ask" in [format_action(ready, a) for a in legal_actions(ready)]


def test_ma_4_4_3_an_opening_by_picking_aces_keeps_them_natural() -> None:
    hand = "Ad Ah 2c Kc Kd Ks Qc Qd Qh Jc Jd Jh 5c 6d"
    picked = position(hand, phase="draw", pile="8c Ac", turn={"threes_chosen": True})
    assert "natural" in refusal(picked, "take Ad Ah 2c, Kc Kd Ks, Qc Qd Qh, Jc Jd Jh")
    listed = [format_action(picked, a) for a in legal_actions(picked)]
    assert listed and not [t for t in listed if t.startswith("take") and "2c" in t.split(",")[0]]
    assert act(picked, "take Ad Ah, Kc Kd Ks, Qc Qd Qh, Jc Jd Jh").side_melded(0)
    # laid from the hand, the initial meld may put wild cards into a meld of aces (MA §4.4.1)
    melded = position("Ac Ad Ah 2c Kc Kd Ks Qc Qd Qh Jc Jd 6d", turn={"drew": True})
    assert act(melded, "meld Ac Ad Ah 2c, Kc Kd Ks, Qc Qd Qh").side_melded(0)


@pytest.mark.parametrize("top", ["8c", "Tc", "Ac"])
def test_ma_6_1_a_take_without_a_pair_names_the_top_cards_rank(top: str) -> None:
    h = position("5c 6d 9h", phase="draw", pile=f"4c {top}", turn={"threes_chosen": True})
    why = refusal(h, "take")
    rank = top[0]
    assert f"(take {rank}c {rank}d)" in why


def test_49_no_special_hand_once_the_side_has_melded() -> None:
    pairs = "6c 6d 7c 7d 8c 8d 9c 9d Jc Jd Qc Qd Kc Kd"
    h = position(pairs, ns={"A": ["Ac", "Ad", "Ah"]}, turn={"drew": True})
    assert "not melded" in refusal(h, "special Pairs")
    fresh = position(pairs, turn={"drew": True})
    end = act(fresh, "special Pairs")
    assert end.end is not None and end.end.special == (0, "Pairs")
    assert end.end.sides[0].total == 2500


def test_51_a_kept_three_makes_the_straight() -> None:
    straight = "Ac 2c 3s 4c 5c 6c 7c 8c 9c Tc Jc Qc Kc JK"
    h = position(straight, turn={"drew": True, "kept": "3s"})
    assert "special Straight" in [format_action(h, a) for a in legal_actions(h)]
    end = act(h, "special Straight")
    assert end.end is not None and end.end.sides[0].total == 3000


def test_54_71_a_dream_hand_wins_the_game_at_once() -> None:
    dream = "4c 4d 4h 4s 4c Kc Kd Kh Ks Kc JK JK JK JK"
    h = position(dream, turn={"drew": True})
    end = act(h, "special Dream Hand Plus 4")
    assert end.end is not None and end.end.wins_game
    assert winner(RULES, [2000 + end.end.sides[0].total, 0], dream=0) == 0


def test_65_a_kept_three_costs_when_the_other_side_goes_out() -> None:
    h = position("JK", ns={}, ew=TWO_CANASTAS, to_move=1, others="3s 5c",
                 turn={"drew": True})
    out = act(h, "discard JK")
    assert out.end is not None
    ns = out.end.sides[0]
    # seats 0 and 2 each hold 3s and 5c: two kept threes and two fives
    assert ns.in_hand == -2 * (RULES.value_of[parse_cards("5c")[0]] + 100)


def test_66_a_three_as_the_last_card_ends_the_hand() -> None:
    data = hand_to_json(position("5d 6d", phase="draw", to_move=1, others="8c 8d",
                                 turn={"threes_chosen": True}))
    data["stock"] = ["3d"]
    del data["turn_card"]
    h = hand_from_json(data)
    end = act(h, "draw")
    assert end.phase == OVER and end.end is not None
    assert end.end.last_three == (1, parse_cards("3d")[0])
    assert parse_cards("3d")[0] in end.hands[1] and not end.threes[1]
    ew = end.end.sides[1]
    # E: 5d 6d and the little three; W (the partner): 8s 9s
    assert ew.threes == 0 and ew.in_hand == -(5 + 5 + 5) - (10 + 10)


def test_67_68_an_empty_stock() -> None:
    h = position("Qd Qs 5c", phase="draw", stock=0, pile="9c Qc", to_move=2,
                 ns={"K": ["Kc", "Kd", "Kh"]}, turn={"threes_chosen": True})
    listed = [format_action(h, a) for a in legal_actions(h)]
    assert listed == ["pass", "take Qd Qs"]
    assert act(h, "pass").phase == OVER
    # a player who cannot pick: the hand ends before the turn
    before = position("5d 6d", stock=0, pile="9c", to_move=1, others="Jc 5c",
                      ns={"K": ["Kc", "Kd", "Kh"]}, turn={"drew": True})
    after = act(before, "discard 6d")
    assert after.phase == OVER and after.end is not None and after.end.went_out is None


@pytest.mark.parametrize(("scores", "won"), [
    ((8600, 8400), 0),   # 69
    ((8700, 8900), 1),   # 70
    ((8500, 8500), None),
    ((8400, 100), None),
])
def test_69_70_the_end_of_the_game(scores: tuple[int, int], won: int | None) -> None:
    assert winner(RULES, scores) == won


def test_an_illegal_action_changes_nothing() -> None:
    h = position("9h 9s 5d", ns={"K": KINGS}, turn={"drew": True})
    before = hand_to_json(h)
    with pytest.raises(IllegalActionError) as e:
        act(h, "discard Qh")
    assert "you do not hold Qh" in str(e.value)
    assert hand_to_json(h) == before


def test_19_20_21_an_opening_by_the_pile_counts_the_hand_alone() -> None:
    def at_the_pile(hand: str) -> Hand:
        return position(hand, phase="draw", pile="8c Kc", turn={"threes_chosen": True})

    h19 = at_the_pile("Kd Kh Ac Ad Ah Qc Qd Qh Qs 5c 6d 8h 9d")
    assert "count 120" in refusal(h19, "take Kd Kh, Ac Ad Ah, Qc Qd Qh Qs")
    h20 = at_the_pile("Kd Kh Qc Qd 2c Ac Ad JK 5c 6d 8h 9d")
    assert "clean triple" in refusal(h20, "take Kd Kh, Qc Qd 2c, Ac Ad JK")
    h21 = at_the_pile("Kd Kh Ac Ad Ah Jc Jd Jh 4c JK 6d 8h")
    assert "count 110" in refusal(h21, "take Kd Kh, Ac Ad Ah, Jc Jd Jh")
    opened = act(h21, "take Kd Kh JK, Ac Ad Ah, Jc Jd Jh")  # 70 + 60 + 30 = 160
    assert opened.melds[0][parse_cards("Kc")[0] >> 2] == tuple(parse_cards("Kc Kd Kh JK"))
    assert opened.turn.talon == 0
    listed = [format_action(h21, a) for a in legal_actions(h21)]
    # listed as the least that opens: the jacks follow as a meld of their own
    assert "take Kd Kh JK, Ac Ad Ah" in listed and "take Kd Kh, Ac Ad Ah, Jc Jd Jh" not in listed


def with_knobs(**knobs: Any) -> dict[str, Any]:
    return {"rules": {"preset": "modern-american", **knobs}}


def test_the_top_card_counts_where_the_rules_say_so() -> None:
    hand = "Kd Kh Ac Ad Ah Qc Qd Qh Qs 5c 6d 8h 9d"
    h = position(hand, phase="draw", pile="8c Kc", turn={"threes_chosen": True},
                 **with_knobs(initial_meld_counts_pile_top=True))
    after = act(h, "take Kd Kh, Ac Ad Ah, Qc Qd Qh Qs")  # 120 and the top K: 130
    assert after.side_melded(0)


def test_the_top_card_may_make_the_clean_triple_where_the_rules_say_so() -> None:
    hand = "Kd Kh Qc Qd 2c Ac Ad JK 5c 6d 8h 9d"
    h = position(hand, phase="draw", pile="8c Kc", turn={"threes_chosen": True},
                 **with_knobs(pile_top_may_form_clean_triple=True))
    after = act(h, "take Kd Kh, Qc Qd 2c, Ac Ad JK")  # K K + top K is the clean triple
    assert after.side_melded(0)
    # and the legal list offers it: the rest of the opening needs no clean triple of its own
    assert "take Kd Kh, Ac Ad JK, Qc Qd 2c" in [format_action(h, a) for a in legal_actions(h)]
    plain = position(hand, phase="draw", pile="8c Kc", turn={"threes_chosen": True})
    assert not any(a.verb == "take" for a in legal_actions(plain))


def test_a_talon_after_a_pick_where_the_rules_give_one() -> None:
    hand = "Ac Ad Ah Kc Kd Ks Jc Jd Jh Qd Qh 5c 6d"
    h = position(hand, phase="draw", pile="8c Qc", turn={"threes_chosen": True},
                 **with_knobs(talon_not_after_pile_take=False))
    after = act(h, "take Qd Qh, Ac Ad Ah, Kc Kd Ks, Jc Jd Jh")
    assert after.turn.talon == 4
    assert len(act(after, "discard 6d").hands[0]) == 2 + 4


def test_49_the_courtesy_turn_for_a_special_hand() -> None:
    knobs = with_knobs(special_hand_after_partner_meld="next_turn_courtesy")
    opened = act(position(OPENING, stock=30, turn={"drew": True}, **knobs), OPEN)
    after = act(opened, "discard 8h")
    assert after.courtesy == 2  # the partner's next turn
    pairs = "6c 6d 7c 7d 8c 8d 9c 9d Jc Jd Qc Qd Kc Kd"
    melded = {"A": ["Ac", "Ad", "Ah"]}
    h = position(pairs, ns=melded, to_move=2, turn={"drew": True}, courtesy=2, **knobs)
    end = act(h, "special Pairs")
    assert end.end is not None and end.end.sides[0].total == 2500
    plain = position(pairs, ns=melded, to_move=2, turn={"drew": True})
    assert "not melded" in refusal(plain, "special Pairs")


def test_a_limited_look_at_the_pile() -> None:
    from canasta.modern_american.observation import observe

    h = position("5d 6d", pile="9c 9d 6h Jc Qd", **with_knobs(pile_visible_depth=3))
    view = observe(h, 1).to_json()
    assert view["pile"] == ["6h", "Jc", "Qd"] and view["pile_below"] == 2
    assert "pile_below" not in observe(position("5d 6d", pile="9c 9d 6h Jc Qd"), 1).to_json()


@pytest.mark.parametrize(("knobs", "words"), [
    ({"special_hand_after_partner_meld": "always"}, "next_turn_courtesy"),
    ({"pile_visible_depth": 0}, "pile_visible_depth"),
    ({"talon_sizes": [-1, 3]}, "talon_sizes"),
    ({"no_such_knob": 1}, "unknown modern-american rules field"),
])
def test_bad_knobs_are_refused_in_words(knobs: dict[str, Any], words: str) -> None:
    from canasta.errors import RulesError

    with pytest.raises(RulesError, match=words):
        position("5d 6d", **with_knobs(**knobs))
