"""Invariants over seeded random hands on every preset (2,100 hands per run in all).

After every action: every card of the pack is accounted for; the legal list has no repeats and
round-trips through its text; the chosen action applies. On every tenth hand, every listed
action is applied and every position round-trips through JSON. At the end of each hand the
score breakdown adds up and nothing is left to do.
"""

from __future__ import annotations

import pytest

from canasta import apply, format_action, legal_actions, parse_action, state_from_json
from canasta.position import state_to_json
from canasta.rules import Rules, get_rules
from tests.playouts import ALL_PRESETS, other_readings, pack_of, random_hand, table_cards

HANDS_PER_CHUNK = 100
CHUNKS = 3


@pytest.mark.parametrize("chunk", range(CHUNKS))
@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_random_hands_keep_every_invariant(preset: str, chunk: int) -> None:
    check_hands(preset, range(chunk * HANDS_PER_CHUNK, (chunk + 1) * HANDS_PER_CHUNK))


@pytest.mark.parametrize("ban", ["stock_out", "never"])
@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_random_hands_under_the_other_readings_keep_every_invariant(preset: str,
                                                                    ban: str) -> None:
    """RULES §8.2: the one-card ban relaxed, melding on a last red three, asking first."""
    check_hands(preset, range(1000, 1000 + HANDS_PER_CHUNK // 5), other_readings(preset, ban))


def check_hands(preset: str, seeds: range, rules: Rules | None = None) -> None:
    """Play the seeded random hands and check every invariant of the module docstring."""
    pack = pack_of(rules or get_rules(preset))
    for seed in seeds:
        thorough = seed % 10 == 0
        last = None
        for state, legal, action, after in random_hand(preset, seed, rules):
            assert legal, f"{preset} seed {seed}: no legal action in a live position"
            texts = [format_action(a) for a in legal]
            assert len(set(texts)) == len(texts), f"repeated actions: {texts}"
            for text, listed in zip(texts, legal, strict=True):
                assert parse_action(text) == listed, text
            assert table_cards(after) == pack, f"{preset} seed {seed}: cards lost at {action}"
            if thorough:
                for other in legal:
                    apply(state, other)  # raises if a listed action is illegal
                assert state_from_json(state_to_json(after)) == after
            last = after
        assert last is not None and last.is_over and last.result is not None
        assert legal_actions(last) == []
        for side in last.result.sides:
            assert side.total == (side.melded + side.canastas + side.hidden + side.red_threes
                                  + side.going_out - side.in_hand)
        if last.result.void:
            assert last.result.went_out is None
