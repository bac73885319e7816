"""Every bot only ever chooses legal actions, on every preset, and is reproducible."""

from __future__ import annotations

import pytest

from canasta import get_rules
from canasta.bots import make_bot
from canasta.rules import PRESETS

from .helpers import play_hand

TINY_SEARCH = "ismcts:iterations=4,depth=1,horizon=2,width=3"


@pytest.mark.parametrize("preset", sorted(PRESETS))
@pytest.mark.parametrize("spec", ["random", "greedy", "heuristic"])
def test_fast_bots_play_legal_hands(preset: str, spec: str) -> None:
    rules = get_rules(preset)
    for seed in range(3):
        # the bot under test at every seat, then mixed with the random bot
        state, _ = play_hand(rules, [make_bot(spec) for _ in range(rules.num_players)], seed)
        assert state.result is not None
        mixed = [make_bot(spec if s % 2 else "random") for s in range(rules.num_players)]
        play_hand(rules, mixed, seed + 10)


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_search_bot_plays_legal_hands(preset: str) -> None:
    rules = get_rules(preset)
    bots = [make_bot(TINY_SEARCH if s == 0 else "heuristic") for s in range(rules.num_players)]
    state, _ = play_hand(rules, bots, seed=21)
    assert state.result is not None


@pytest.mark.parametrize("spec", ["random", "greedy", "heuristic", TINY_SEARCH])
def test_same_seed_same_play(spec: str) -> None:
    rules = get_rules("classic")
    first = play_hand(rules, [make_bot(spec) for _ in range(4)], seed=5)[1]
    again = play_hand(rules, [make_bot(spec) for _ in range(4)], seed=5)[1]
    assert first == again
