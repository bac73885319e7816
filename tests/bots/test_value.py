"""The value of a position mid-hand: the counted lead, the fitted lead and their features."""

from __future__ import annotations

import random

import pytest

from canasta import apply, get_rules, legal_actions, new_hand, observe
from canasta.bots import make_bot
from canasta.bots.heuristic import decide_in
from canasta.bots.ismcts import ISMCTSBot
from canasta.bots.value import (
    FEATURES,
    VALUE_FITS,
    counted_lead,
    fitted_lead,
    lead_features,
    result_lead,
    side_facts,
    stock_share,
)
from canasta.state import DRAW, OVER, State, seal

from .helpers import play_hand

RULES = get_rules("classic")


def _positions(seed: int) -> list[State]:
    """Every turn's start of a seeded hand of four heuristics."""
    state = new_hand(RULES, seed=seed)
    out = []
    while state.phase != OVER:
        if state.phase == DRAW:
            out.append(state)
        state = apply(state, decide_in(state))
    return out


def test_a_finished_hand_is_worth_its_result_both_ways() -> None:
    state, _ = play_hand(RULES, [make_bot("heuristic") for _ in range(4)], seed=8)
    assert state.result is not None
    sides = state.result.sides
    lead = sides[0].total - sides[1].total
    assert result_lead(state, 0) == counted_lead(state, 0) == fitted_lead(state, 0) == lead
    assert fitted_lead(state, 3) == -lead


def test_the_features_of_one_side_are_the_other_side_s_turned() -> None:
    positions = _positions(5)
    assert len(positions) > 10
    for state in positions:
        mine, theirs = lead_features(state, 0), lead_features(state, 1)
        assert mine == [-x for x in theirs]
        assert lead_features(state, 2) == mine
        assert fitted_lead(state, 0) == pytest.approx(-fitted_lead(state, 1))
    assert all(len(fit) == len(FEATURES) for fit in VALUE_FITS.values())


def test_the_features_read_the_table_and_the_hands_as_they_are() -> None:
    state = next(s for s in reversed(_positions(6)) if s.pile)
    share = stock_share(state)
    dealt = RULES.deck_size - RULES.num_players * RULES.hand_size - 1
    assert share == len(state.stock) / dealt
    facts = dict(zip(FEATURES, side_facts(state, state.to_move % 2, share), strict=True))
    held = [c for s in (state.to_move, (state.to_move + 2) % 4) for c in state.hands[s]]
    assert facts["hand_cards"] == len(held)
    assert facts["hand_points"] == sum(RULES.value_of[c] for c in held)
    assert facts["hand_cards_stock"] == pytest.approx(len(held) * share)
    # the pile counts for the side whose player draws next, and only for it
    assert facts["pile_to_draw"] == len(state.pile)
    other = dict(zip(FEATURES, side_facts(state, 1 - state.to_move % 2, share), strict=True))
    assert other["pile_to_draw"] == 0


def test_the_counted_lead_charges_half_the_points_held() -> None:
    state = _positions(7)[3]
    seat = state.to_move
    hand = list(state.hands[seat])
    # one card moved from this hand to a partner's leaves the count alone
    draft = state.copy()
    partner = (seat + 2) % 4
    card = hand.pop()
    hands = list(state.hands)
    hands[seat] = tuple(hand)
    hands[partner] = tuple(sorted((*state.hands[partner], card)))
    draft.hands = tuple(hands)
    assert counted_lead(seal(draft), seat) == counted_lead(state, seat)
    value = RULES.value_of
    held = [sum(value[c] for s in (side, side + 2) for c in state.hands[s]) for side in (0, 1)]
    mine = seat % 2
    charged = counted_lead(state, seat, hand_share=0.0) - counted_lead(state, seat)
    assert charged == pytest.approx(0.5 * (held[mine] - held[1 - mine]), abs=1)


def test_a_search_values_its_play_outs_the_way_its_spec_says() -> None:
    state = _positions(9)[5]
    obs = observe(state, state.to_move)
    legal = legal_actions(state)
    fit = ISMCTSBot(iterations=40, mode="flat", value="fit")
    count = ISMCTSBot(iterations=40, mode="flat")
    assert fit.value is fitted_lead and count.value is counted_lead
    for bot in (fit, count):
        assert bot.choose(obs, legal, random.Random(1)) in legal


def test_a_preset_without_a_fit_is_valued_as_counted() -> None:
    rules = get_rules("korean-old")
    assert rules.name not in VALUE_FITS
    state = new_hand(rules, seed=4)
    for _ in range(30):
        if state.phase == OVER:
            break
        state = apply(state, decide_in(state))
        assert fitted_lead(state, 0) == counted_lead(state, 0)
    classic = _positions(4)[10]
    assert fitted_lead(classic, 0) != counted_lead(classic, 0)


def test_the_expert_values_its_play_outs_by_the_fit() -> None:
    expert = make_bot("expert")
    assert isinstance(expert, ISMCTSBot)
    assert expert.value is fitted_lead and expert.mode == "flat"
