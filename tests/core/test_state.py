"""States are values: the engine never changes one and never hands out one that can change."""

from __future__ import annotations

import random

import pytest

from canasta import State, apply, get_rules, legal_actions, new_hand
from canasta.position import state_to_json


def test_every_state_the_engine_returns_is_sealed_and_the_old_one_untouched() -> None:
    state = new_hand(get_rules("classic"), seed=2)
    rng = random.Random(2)
    while not state.is_over:
        before = state_to_json(state)
        after = apply(state, rng.choice(legal_actions(state)))
        assert type(after) is State
        assert state_to_json(state) == before
        with pytest.raises(AttributeError):
            after.phase = "over"  # type: ignore[misc]
        state = after
