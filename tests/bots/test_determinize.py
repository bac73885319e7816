"""Determinization: samples keep what the seat sees and deal only what it cannot see."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from canasta import apply, get_rules, legal_actions, observe
from canasta.bots import make_bot
from canasta.bots.determinize import Determinizer, InconsistentObservationError, determinize
from canasta.cards import IS_RED_THREE, make_pack, parse_cards
from canasta.rules import PRESETS
from canasta.state import FIELDS, State, build_state
from tests.playouts import table_cards

from .helpers import play_until

_all_cards = table_cards


def _midgame_states() -> list[State]:
    """Positions from heuristic play on every preset, early and late, with known cards."""
    states = []
    for preset in sorted(PRESETS):
        rules = get_rules(preset)
        bots = [make_bot("heuristic") for _ in range(rules.num_players)]
        for seed, steps in ((1, 0), (2, 25), (3, 60), (4, 110)):
            state = play_until(rules, bots, seed, steps)
            if not state.is_over:
                states.append(state)
    return states


STATES = _midgame_states()


def test_the_positions_cover_known_cards() -> None:
    assert any(any(k) for s in STATES for k in s.known)  # pile pickups are exercised


@pytest.mark.parametrize("index", range(len(STATES)))
def test_a_sample_is_a_full_state_the_seat_cannot_tell_apart(index: int) -> None:
    state = STATES[index]
    rules = state.rules
    for seat in range(rules.num_players):
        obs = observe(state, seat)
        sample = determinize(obs, random.Random(seat))
        assert _all_cards(sample) == Counter(make_pack(rules.num_decks, rules.num_jokers))
        assert observe(sample, seat) == obs
        assert sample.hands[seat] == state.hands[seat]
        assert [len(h) for h in sample.hands] == [len(h) for h in state.hands]
        assert len(sample.stock) == len(state.stock)
        for other in range(rules.num_players):
            if other != seat:
                held = Counter(sample.hands[other])
                assert not Counter(state.known[other]) - held, "known cards must stay put"
                assert not any(IS_RED_THREE[c] for c in sample.hands[other])
        # the sample plays on like any state
        legal = legal_actions(sample)
        assert legal
        apply(sample, legal[0])


def test_the_same_seed_gives_the_same_sample_and_other_seeds_differ() -> None:
    obs = observe(STATES[5], 0)
    first = determinize(obs, random.Random(7))
    assert determinize(obs, random.Random(7)) == first
    others = {determinize(obs, random.Random(s)).hands for s in range(8, 20)}
    assert len(others | {first.hands}) == 13


def test_hidden_information_does_not_reach_the_sample() -> None:
    """Two states that differ only where seat 0 cannot look give identical samples."""
    state = next(s for s in STATES if s.rules.name == "classic" and s.stock
                 and s.hands[1] and s.hands[3])
    hands = list(state.hands)
    unknown = [c for c in hands[1] if c not in state.known[1]]
    swap_in = state.stock[0]
    assert unknown and swap_in != unknown[0]
    new_hand = list(hands[1])
    new_hand.remove(unknown[0])
    hands[1] = tuple(sorted([*new_hand, swap_in]))
    stock = (unknown[0], *state.stock[1:])
    fields = {name: getattr(state, name) for name in FIELDS}
    fields.update(hands=tuple(hands), stock=stock)
    other = build_state(**fields)
    assert other != state and observe(other, 0) == observe(state, 0)
    assert determinize(observe(state, 0), random.Random(3)) == determinize(
        observe(other, 0), random.Random(3))


def test_unseen_cards_spread_over_hands_and_stock() -> None:
    state = STATES[0]  # a fresh deal: nothing known, every unseen card equally likely anywhere
    obs = observe(state, 0)
    sampler = Determinizer(obs)
    rng = random.Random(11)
    joker = parse_cards("JK")[0]
    places: Counter[str] = Counter()
    for _ in range(400):
        sample = sampler.sample(rng)
        for seat in (1, 2, 3):
            if joker in sample.hands[seat]:
                places[f"hand{seat}"] += 1
        if joker in sample.stock:
            places["stock"] += 1
    assert len(places) == 4  # every place gets a joker sometimes
    # the stock holds most unseen cards, so most jokers
    assert places["stock"] > max(places[f"hand{s}"] for s in (1, 2, 3))


def test_an_asker_in_the_sample_can_go_out() -> None:
    """After 'may I go out?', the partner's samples give the asker a hand that goes out."""
    rules = get_rules("classic")
    bots = [make_bot("heuristic:ask_partner_cards=1") for _ in range(4)]
    for seed in range(40):
        state = play_until(rules, bots, seed, 0)
        rngs = [random.Random(seed * 100 + s) for s in range(4)]
        while not state.is_over and state.phase != "answer":
            seat = state.to_move
            state = apply(state, bots[seat].choose(observe(state, seat), legal_actions(state),
                                                   rngs[seat]))
        if state.phase == "answer":
            break
    else:
        pytest.fail("no heuristic hand asked to go out")
    obs = observe(state, state.to_move)
    for s in range(30):
        sample = determinize(obs, random.Random(s))
        yes = apply(sample, "yes")
        assert legal_actions(yes), "the asker must be able to go out after 'yes'"


def test_an_impossible_view_is_refused() -> None:
    obs = observe(STATES[0], 0)
    too_many = obs.pile + tuple(parse_cards("JK JK JK JK JK"))
    with pytest.raises(InconsistentObservationError):
        Determinizer(type(obs)(**{**obs.__dict__, "pile": too_many}))
    with pytest.raises(InconsistentObservationError):
        Determinizer(type(obs)(**{**obs.__dict__, "stock_size": obs.stock_size + 1}))
