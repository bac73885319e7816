"""A first whole-hand check on every preset; the detailed suites live beside this file."""

from __future__ import annotations

import random

import pytest

from canasta import apply, get_rules, legal_actions, new_hand
from canasta.rules import PRESETS


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_random_hand_reaches_its_end(preset: str) -> None:
    rules = get_rules(preset)
    state = new_hand(rules, seed=11)
    rng = random.Random(11)
    for _ in range(5000):
        if state.is_over:
            break
        state = apply(state, rng.choice(legal_actions(state)))
    assert state.is_over
    assert state.result is not None
    assert len(state.result.sides) == rules.num_sides
