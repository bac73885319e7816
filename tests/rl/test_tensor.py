"""The observation tensor: its layout, what it shows, and that it hides what a seat cannot see."""

from __future__ import annotations

import random
from collections import Counter
from itertools import pairwise

import pytest

from canasta import apply, get_rules, new_hand, observe, parse_action
from canasta.cards import NUM_CARD_TYPES
from canasta.rl.encoding import encode
from canasta.rl.tensor import (
    POINT_SCALE,
    SIZE_SCALE,
    dealing_tensor,
    observation_tensor,
    piece_slices,
    state_tensor,
    tensor_layout,
    tensor_size,
)
from canasta.rules import PRESETS, Rules
from canasta.state import FIELDS, build_state
from tests.playouts import ALL_PRESETS, random_hand
from tests.properties.test_hidden_information import reshuffle_hidden


def piece(values: list[float], rules: Rules, name: str) -> list[float]:
    start, stop = piece_slices(rules)[name]
    return values[start:stop]


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_reshuffling_what_a_seat_cannot_see_leaves_its_tensor_unchanged(preset: str) -> None:
    rng = random.Random(7)
    checked = 0
    for i, (state, legal, action, _) in enumerate(random_hand(preset, seed=3)):
        if i % 4:
            continue
        # half way through spelling the chosen action, when it has several ids
        prefix = encode(action)[: len(encode(action)) // 2]
        for seat in range(state.rules.num_players):
            pre = prefix if seat == state.to_move else ()
            before = state_tensor(state, seat, pre)
            for _ in range(2):
                other = reshuffle_hidden(state, seat, rng)
                assert state_tensor(other, seat, pre) == before
            checked += 1
        assert legal
    assert checked > 50


def test_the_tensor_shows_the_observers_hand_and_the_table_from_its_seat() -> None:
    rules = get_rules("classic")
    state = apply(new_hand(rules, seed=11), "draw")
    seat = state.to_move
    values = state_tensor(state, seat)
    hand = piece(values, rules, "hand")
    assert hand == [float(Counter(state.hands[seat])[c]) for c in range(NUM_CARD_TYPES)]
    assert piece(values, rules, "to_move") == [1.0, 0.0, 0.0, 0.0]  # the observer itself
    sizes = piece(values, rules, "hand_sizes")
    assert sizes == [len(state.hands[(seat + i) % 4]) / SIZE_SCALE for i in range(4)]
    top = piece(values, rules, "pile_top")
    assert top.index(1.0) == state.pile[-1] and sum(top) == 1.0
    assert piece(values, rules, "stock_size") == [len(state.stock) / SIZE_SCALE]
    assert piece(values, rules, "minimums") == [50 / POINT_SCALE] * 2
    assert piece(values, rules, "phase") == [0.0, 0.0, 1.0, 0.0, 0.0]
    # the next seat sees the same table with itself first
    other = state_tensor(state, (seat + 1) % 4)
    assert piece(other, rules, "to_move") == [0.0, 0.0, 0.0, 1.0]
    assert piece(other, rules, "hand_sizes")[3] == sizes[0]


def test_melds_count_per_side_from_the_observers_side() -> None:
    rules = get_rules("classic")
    state = new_hand(rules, seed=2)
    empty = (None,) * 12
    kings = (36, 37, 38, 48, 52)  # Kc Kd Kh 2c JK
    fields = {name: getattr(state, name) for name in FIELDS}
    fields["melds"] = (empty, empty[:9] + (kings,) + empty[10:])
    moved = build_state(**fields)
    mine = piece(state_tensor(moved, 1), rules, "melds")  # seat 1 is on side 1
    theirs = piece(state_tensor(moved, 0), rules, "melds")
    assert mine[9 * 3:9 * 3 + 3] == [3.0, 1.0, 1.0]
    assert theirs[36 + 9 * 3:36 + 9 * 3 + 3] == [3.0, 1.0, 1.0]
    assert sum(mine) == sum(theirs) == 5.0


def test_the_action_being_spelled_is_shown() -> None:
    rules = get_rules("classic")
    state = new_hand(rules, seed=2)
    ids = encode(parse_action("meld Kc Kd 2c, 7h 7d 7s"))[:-3]  # up to "add 7d"
    values = observation_tensor(observe(state, 0), ids)
    assert piece(values, rules, "building_verb") == [0.0, 1.0, 0.0]
    groups = piece(values, rules, "building_groups")
    assert groups[9 * 3:9 * 3 + 3] == [2.0, 1.0, 0.0] and groups[3 * 3:3 * 3 + 3] == [1.0, 0, 0]
    open_group = piece(values, rules, "building_group")
    assert open_group.index(1.0) == 3 and sum(open_group) == 1.0
    cards = piece(values, rules, "building_cards")
    assert sum(cards) == 4.0 and cards[48] == 1.0
    take = observation_tensor(observe(state, 0), encode(parse_action("take"))[:1])
    assert piece(take, rules, "building_verb") == [0.0, 0.0, 1.0]
    assert piece(take, rules, "building_group")[-1] == 1.0


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_the_layout_covers_the_tensor_on_every_preset(preset: str) -> None:
    rules = get_rules(preset)
    slices = piece_slices(rules)
    assert [name for name, _ in tensor_layout(rules)] == list(slices)
    stops = sorted(slices.values())
    assert stops[0][0] == 0 and all(a[1] == b[0] for a, b in pairwise(stops))
    assert len(dealing_tensor(rules)) == tensor_size(rules) == stops[-1][1]
    state = new_hand(rules, seed=1)
    assert len(state_tensor(state, 0)) == tensor_size(rules)


def test_respelling_a_tensor_equals_writing_it_with_the_spelling() -> None:
    from canasta.rl.tensor import respell

    for state, legal, action, _ in random_hand("classic-6p-3x2", seed=2):
        ids = encode(action)
        obs = observe(state, state.to_move)
        plain = observation_tensor(obs)
        for k in range(len(ids)):
            assert respell(plain, state.rules, ids[:k]) == observation_tensor(obs, ids[:k])
        assert legal
