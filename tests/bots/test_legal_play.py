"""Every bot only ever chooses legal actions, on every preset, and is reproducible."""

from __future__ import annotations

import pytest

from canasta import apply, get_rules, observe
from canasta.actions import DRAW
from canasta.bots import make_bot
from canasta.bots.moves import Moves
from canasta.rules import PRESETS
from tests.playouts import last_stock_card_red_three, other_readings

from .helpers import play_hand, play_until, position

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


@pytest.mark.parametrize("preset", sorted(PRESETS))
@pytest.mark.parametrize("spec", ["random", "greedy", "heuristic", TINY_SEARCH])
def test_bots_play_legal_hands_under_the_other_readings(preset: str, spec: str) -> None:
    """RULES §8.2's other readings switched on (one-card takes, asking before the draw,
    melding on a last red three): the bot under test at the even seats, random bots (which ask
    before drawing) at the others; then hands cut so the bot draws a last red three."""
    rules = other_readings(preset)
    n = rules.num_players
    bots = [make_bot(spec if s % 2 == 0 else "random") for s in range(n)]
    for ban, seed in (("never", 31), ("stock_out", 32)):
        state, _ = play_hand(rules.replace(one_card_pile_take_ban=ban), bots, seed=seed)
        assert state.result is not None
    last_red_threes = 0
    for seed in range(40, 44):
        state = play_until(rules, [make_bot("random")] * n, seed, steps=12 + seed)
        while not state.is_over and (state.phase != "draw" or state.to_move % 2):
            state = play_until(rules, [make_bot("random")] * n, seed, steps=1, start=state)
        cut = None if state.is_over else last_stock_card_red_three(state, rules)
        if cut is None:
            continue
        end, actions = play_hand(rules, bots, seed, start=cut)
        assert end.result is not None and actions[0].verb in ("draw", "take", "ask")
        last_red_threes += actions[0].verb == "draw" and end.turn.last_red_three
    assert last_red_threes or rules.stock_exhausted_rule == "void_draw"


@pytest.mark.parametrize("spec", ["random", "greedy", "heuristic", TINY_SEARCH])
def test_same_seed_same_play(spec: str) -> None:
    rules = get_rules("classic")
    first = play_hand(rules, [make_bot(spec) for _ in range(4)], seed=5)[1]
    again = play_hand(rules, [make_bot(spec) for _ in range(4)], seed=5)[1]
    assert first == again


def test_simulated_turns_never_discard_after_a_last_red_three() -> None:
    """A search's simulations check moves against the state: no discard follows a last red
    three that the rules let the player meld on (RULES §1.16.1)."""
    rules = {"preset": "classic", "last_red_three_may_meld": True}
    state = apply(position(rules=rules, phase="draw", to_move=1, hands=[[], ["Kc", "Kd", "Kh",
                                                                         "9c", "5s"], 8, 8],
                           stock=["3d"], sides=[{"score": 0}, {"score": 0, "melds": {
                               "8": ["8c", "8d", "8h"]}}]), DRAW)
    assert state.turn.last_red_three and not state.is_over
    assert Moves(state=state).discards(observe(state, 1)) == []
