"""RULES §7.3 — taking the discard pile (scenarios #27 to #41).

Taking the pile (RULES §1.11, §1.12) works the same way on every preset: ``korean-old`` takes
the three classic ways too (§3.2 rows 5–6). The upcard rows #35 and #36 depend on
``upcard_cover_kinds``: ``korean-old`` covers nothing, ``spruce-classic`` also covers black
threes. Where a row names S, the taker is seat 2 (seat 0 in the 2-player preset).
"""

from __future__ import annotations

from typing import Any

import pytest

import canasta
from canasta import get_rules

from .builders import (
    PRESETS,
    canastas_for_going_out,
    deal,
    hand_of,
    meld_of,
    position,
    presets_where,
    side_of,
)
from .checks import assert_illegal, assert_legal, listed, play

MELDED = {"T": "Tc Td Th"}


def _take_state(preset: str, hand: str, pile: str, *, seat: int = 0,
                melds: dict[str, str] | None = None, **kwargs: Any) -> canasta.State:
    """``seat`` to draw or take; its side has melded (``melds``, default a T meld)."""
    rules = get_rules(preset)
    side = side_of(rules, seat)
    return position(preset, phase="draw", to_move=seat, hands={seat: hand}, pile=pile,
                    melds={side: MELDED if melds is None else melds},
                    **kwargs)


@pytest.mark.parametrize("preset", PRESETS)
def test_s27_natural_and_wild_take_unfrozen_pile(preset: str) -> None:
    state = _take_state(preset, "7d 2c Kc Qd", "9c 7h")
    assert not state.pile_frozen
    new = assert_legal(state, "take 7d 2c")
    assert sorted(meld_of(new, 0, "7")) == sorted(["7h", "7d", "2c"])
    assert sorted(hand_of(new, 0)) == sorted(["Kc", "Qd", "9c"])


@pytest.mark.parametrize("preset", PRESETS)
def test_s28_frozen_pile_needs_natural_pair(preset: str) -> None:
    state = _take_state(preset, "7d JK Kc Qd", "5c 2d 7h")
    assert state.pile_frozen
    assert_illegal(state, "take 7d JK")
    pair = _take_state(preset, "7d 7s Kc Qd", "5c 2d 7h")
    new = assert_legal(pair, "take 7d 7s")
    assert sorted(meld_of(new, 0, "7")) == sorted(["7h", "7d", "7s"])
    assert sorted(hand_of(new, 0)) == sorted(["Kc", "Qd", "5c", "2d"])


@pytest.mark.parametrize("preset", PRESETS)
def test_s29_frozen_pile_meld_on_table_does_not_help(preset: str) -> None:
    state = _take_state(preset, "7d 2c Kc Qd", "5c 2d 7c",
                        melds={"7": "7c 7d 7h 7s"})
    assert state.pile_frozen
    assert_illegal(state, "take")
    assert_illegal(state, "take 7d")
    assert_illegal(state, "take 7d 2c")


@pytest.mark.parametrize("preset", PRESETS)
def test_s30_unfrozen_take_by_adding_top_card_to_meld(preset: str) -> None:
    state = _take_state(preset, "Kc Qd 9s", "5c 7s", melds={"7": "7c 7d 7h"})
    assert not state.pile_frozen
    new = assert_legal(state, "take")
    assert sorted(meld_of(new, 0, "7")) == sorted(["7c", "7d", "7h", "7s"])
    assert sorted(hand_of(new, 0)) == sorted(["Kc", "Qd", "9s", "5c"])


@pytest.mark.parametrize("preset", PRESETS)
def test_s31_black_three_on_top_blocks_the_pile(preset: str) -> None:
    state = _take_state(preset, "3c 3c Kc Qd", "9c 3s")
    assert_illegal(state, "take")
    assert_illegal(state, "take 3c 3c")
    assert not any(a.startswith("take") for a in listed(state))


@pytest.mark.parametrize("preset", PRESETS)
def test_s32_wild_card_just_discarded_blocks_and_freezes(preset: str) -> None:
    rules = get_rules(preset)
    n = rules.num_players
    taker = 2 % n
    state = position(preset, to_move=1, hands={1: "JK 9c 8d", taker: "2c 2d Kc Qd"},
                     pile="5c", melds={0: MELDED, 1: {"J": "Jc Jd Jh"}})
    assert not state.pile_frozen
    new = play(state, "discard JK")
    assert new.to_move == taker and new.phase == "draw"
    assert new.pile_frozen
    assert_illegal(new, "take")
    assert_illegal(new, "take 2c 2d")
    assert not any(a.startswith("take") for a in listed(new))
    # the freeze lasts once the wild card is covered
    covered = play(new, "draw", "discard Qd")
    assert covered.pile_frozen


@pytest.mark.parametrize("preset", PRESETS)
def test_s33_unmelded_side_faces_a_frozen_pile(preset: str) -> None:
    state = position(preset, phase="draw", hands={0: "Kc JK Ah As 2c 9d"}, pile="5c Kh")
    assert not state.pile_frozen
    assert_illegal(state, "take Kc JK")
    assert_illegal(state, "take Kc JK, Ah As 2c")
    pair = position(preset, phase="draw", hands={0: "Kc Kd Ah As 2c 9d"}, pile="5c Kh")
    new = assert_legal(pair, "take Kc Kd, Ah As 2c")
    assert sorted(meld_of(new, 0, "K")) == sorted(["Kc", "Kd", "Kh"])
    assert sorted(meld_of(new, 0, "A")) == sorted(["Ah", "As", "2c"])


@pytest.mark.parametrize("preset", PRESETS)
def test_s34_two_wilds_and_top_card_illegal(preset: str) -> None:
    state = _take_state(preset, "2c JK Kc Qd", "5c 9h")
    assert not state.pile_frozen
    assert_illegal(state, "take 2c JK")
    assert_illegal(state, "take 9: 2c JK")


UPCARD_COVERS_WILD_AND_RED3 = presets_where(
    lambda r: {"wild", "red3"} <= r.upcard_cover_kinds)


@pytest.mark.parametrize("preset", UPCARD_COVERS_WILD_AND_RED3)
def test_s35_upcard_joker_red_three_eight_opening_take(preset: str) -> None:
    rules = get_rules(preset)
    dealer = rules.num_players - 1 if rules.num_players > 2 else 1
    state = deal(preset, dealer=dealer, hands={0: "8c 8d Ac Ad Ah"}, upcards="JK 3h 8h")
    assert state.to_move == 0 and state.phase == "draw"
    assert [canasta.format_card(c) for c in state.pile] == ["JK", "3h", "8h"]
    assert state.pile_frozen
    assert state.scores[0] == 0
    stock_before = state.stock
    new = assert_legal(state, "take 8c 8d, Ac Ad Ah")
    assert sorted(meld_of(new, 0, "8")) == sorted(["8c", "8d", "8h"])
    assert sorted(meld_of(new, 0, "A")) == sorted(["Ac", "Ad", "Ah"])
    assert [canasta.format_card(c) for c in new.red_threes[0]] == ["3h"]
    assert new.stock == stock_before  # no replacement for a red three from the pile
    assert "JK" in hand_of(new, 0)
    assert len(new.hands[0]) == rules.hand_size - 5 + 1
    assert new.pile == () and not new.pile_frozen
    # a new pile starts unfrozen
    card = next(c for c in hand_of(new, 0) if c != "JK")
    after = play(new, f"discard {card}")
    assert not after.pile_frozen


BLACK_THREE_UPCARD_STAYS = presets_where(lambda r: "black3" not in r.upcard_cover_kinds)


@pytest.mark.parametrize("preset", BLACK_THREE_UPCARD_STAYS)
def test_s36_black_three_upcard_stays_blocks_first_player_classic(preset: str) -> None:
    rules = get_rules(preset)
    n = rules.num_players
    dealer = n - 1 if n > 2 else 1
    second = 1
    state = deal(preset, dealer=dealer, hands={0: "9c 9d 9h", second: "Kc Kd Ac Ad Ah"},
                 upcards="3s", stock_top="Ks")
    assert [canasta.format_card(c) for c in state.pile] == ["3s"]
    assert not state.pile_frozen
    assert_illegal(state, "take")
    assert_illegal(state, "take 9c 9d")
    covered = play(state, "draw", "discard Ks")
    assert covered.to_move == second
    assert [canasta.format_card(c) for c in covered.pile] == ["3s", "Ks"]
    assert not covered.pile_frozen
    new = assert_legal(covered, "take Kc Kd, Ac Ad Ah")
    assert "3s" in hand_of(new, second)


@pytest.mark.parametrize("preset", presets_where(lambda r: "black3" in r.upcard_cover_kinds))
def test_s36_black_three_upcard_covered_at_the_deal_spruce(preset: str) -> None:
    state = deal(preset, dealer=3, hands={0: "9c 9d Ac Ad Ah"}, upcards="3s 9h")
    assert [canasta.format_card(c) for c in state.pile] == ["3s", "9h"]
    assert not state.pile_frozen
    new = assert_legal(state, "take 9c 9d, Ac Ad Ah")
    assert sorted(meld_of(new, 0, "9")) == sorted(["9c", "9d", "9h"])


@pytest.mark.parametrize("preset", PRESETS)
def test_s37_take_merging_into_canasta_respects_wild_limit(preset: str) -> None:
    state = _take_state(preset, "Qs 2c Kc 9d", "5c Qh",
                        melds={"Q": "Qc Qd Qh Qs 2d 2h JK"})
    assert not state.pile_frozen
    assert_illegal(state, "take Qs 2c")
    new = assert_legal(state, "take")
    assert len(meld_of(new, 0, "Q")) == 8
    assert sorted(hand_of(new, 0)) == sorted(["Qs", "2c", "Kc", "9d", "5c"])


@pytest.mark.parametrize("preset", PRESETS)
def test_s38_take_that_empties_the_hand_without_canasta_illegal(preset: str) -> None:
    state = _take_state(preset, "Tc Td", "Th", melds={"K": "Kc Kd Kh"})
    assert state.stock
    assert_illegal(state, "take Tc Td")
    assert not any(a.startswith("take") for a in listed(state))


def _s39(preset: str, **changes: object) -> canasta.State:
    """#39: a canasta and a T meld on the table, one card in hand, a one-card T pile, stock;
    ``changes`` are rules fields."""
    rules = get_rules(preset)
    table = dict(canastas_for_going_out(rules, "QJ9"), T="Tc Td Th")
    extra = {"rules": {"preset": preset, **changes}} if changes else {}
    state = _take_state(preset, "5d", "Ts", melds=table, **extra)
    assert state.stock and not state.pile_frozen
    return state


def _s39_goes_out(state: canasta.State) -> None:
    new = assert_legal(state, "take")
    assert len(meld_of(new, 0, "T")) == 4
    assert hand_of(new, 0) == ["5d"]
    out = play(new, "discard 5d")
    assert out.is_over
    assert out.result is not None and out.result.went_out == 0


@pytest.mark.parametrize("preset", PRESETS)
def test_s39_one_card_may_not_take_a_one_card_pile_even_with_stock(preset: str) -> None:
    state = _s39(preset)
    if get_rules(preset).one_card_pile_take_ban == "always":  # the classic family, spruce
        assert_illegal(state, "take", reason="holding one card may not take a pile of one card")
        assert listed(state) == ["draw"]
    else:  # korean-old: "never"
        _s39_goes_out(state)


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("ban", ["stock_out", "never"])
def test_s39_take_single_card_pile_with_one_card_then_go_out(preset: str, ban: str) -> None:
    _s39_goes_out(_s39(preset, one_card_pile_take_ban=ban))


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("old", [True, False])
def test_s39_the_older_boolean_still_reads(preset: str, old: bool) -> None:
    """``stock_out_one_card_exception``: true = "stock_out", false = "never" (RULES §1.12.6);
    either way a one-card hand takes a one-card pile while the stock lasts."""
    state = _s39(preset, stock_out_one_card_exception=old)
    assert state.rules.one_card_pile_take_ban == ("stock_out" if old else "never")
    _s39_goes_out(state)


@pytest.mark.parametrize("preset", PRESETS)
def test_s40_natural_cards_on_top_do_not_undo_the_freeze(preset: str) -> None:
    rules = get_rules(preset)
    s = 2 % rules.num_players
    state = _take_state(preset, "9c 2c Kc Qd", "5c 2d 6h 9s", seat=s)
    assert state.pile_frozen
    assert_illegal(state, "take 9c 2c")


@pytest.mark.parametrize("preset", PRESETS)
def test_s41_pile_taken_last_turn_new_pile_not_frozen(preset: str) -> None:
    rules = get_rules(preset)
    n = rules.num_players
    s = 2 % n
    e_side, s_side = side_of(rules, 1), side_of(rules, s)
    melds = {e_side: {"J": "Jc Jd Jh"}, s_side: MELDED}
    state = position(preset, phase="draw", to_move=1,
                     hands={1: "Kc Kd 5d 9c 8h", s: "5c 2c Qd Qs"},
                     pile="2d 8d Ks", melds=melds)
    assert state.pile_frozen
    state = play(state, "take Kc Kd", "discard 5d")
    assert state.to_move == s and state.phase == "draw"
    assert [canasta.format_card(c) for c in state.pile] == ["5d"]
    assert not state.pile_frozen
    new = assert_legal(state, "take 5c 2c")
    assert sorted(meld_of(new, new.owner_of(s), "5")) == sorted(["5c", "5d", "2c"])

