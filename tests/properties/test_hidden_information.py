"""An observation holds nothing the seat may not know.

The test reshuffles every card hidden from a seat (the other hands, apart from the cards known to
be there because they were taken with the pile, and the stock) and checks that the seat's
observation does not change: so it cannot depend on any hidden card.
"""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from canasta import State, observe
from canasta.state import FIELDS, build_state
from tests.playouts import ALL_PRESETS, random_hand


def reshuffle_hidden(state: State, seat: int, rng: random.Random) -> State:
    """The same state with the cards hidden from ``seat`` dealt anew."""
    hidden: list[int] = list(state.stock)
    keep: list[list[int]] = []
    for s, hand in enumerate(state.hands):
        if s == seat:
            keep.append(list(hand))
            continue
        known = Counter(state.known[s])
        kept = []
        for c in hand:
            if known[c]:
                known[c] -= 1
                kept.append(c)
            else:
                hidden.append(c)
        keep.append(kept)
    rng.shuffle(hidden)
    hands = []
    for s, hand in enumerate(state.hands):
        extra = len(hand) - len(keep[s])
        hands.append(tuple(sorted(keep[s] + hidden[:extra])))
        del hidden[:extra]
    fields = {name: getattr(state, name) for name in FIELDS}
    fields.update(hands=tuple(hands), stock=tuple(hidden))
    return build_state(**fields)


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_observation_ignores_every_hidden_card(preset: str) -> None:
    rng = random.Random(5)
    checked = 0
    for seed in range(12):
        for i, (state, _, _, _) in enumerate(random_hand(preset, seed)):
            if i % 7:
                continue
            for seat in range(state.rules.num_players):
                other = reshuffle_hidden(state, seat, rng)
                assert observe(other, seat) == observe(state, seat)
                checked += 1
    assert checked > 100


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_observation_json_shows_counts_for_other_hands(preset: str) -> None:
    for state, _, _, _ in random_hand(preset, 3):
        for seat in range(state.rules.num_players):
            view = observe(state, seat).to_json()
            assert view["seat"] == seat
            assert isinstance(view["stock"], int)
            for s, hand in enumerate(view["hands"]):
                if s == seat:
                    assert len(hand) == len(state.hands[seat])
                else:
                    assert hand == len(state.hands[s])
            json.dumps(view)
