"""Duplicate scheduling: same pack orders in both twins, sides swapped, every seat covered."""

from __future__ import annotations

from collections import Counter

import pytest

from canasta.arena.play import GamePairTask, play_game_pair
from canasta.arena.schedule import (
    bot_labels,
    deck_seed,
    hand_difference,
    pairings,
    seating,
    split_bot_specs,
)
from canasta.rules import PRESETS, get_rules


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_twins_swap_every_seat(preset: str) -> None:
    rules = get_rules(preset)
    n, k = rules.num_players, rules.num_sides
    for g in range(2 * n * k):
        seats = seating(rules, g)
        h0, h1 = seats.holders(rules, 0), seats.holders(rules, 1)
        # every seat is held by A in one twin and by B in the other
        assert all(a != b for a, b in zip(h0, h1))
        for holders in (h0, h1):
            # a bot holds whole sides
            for side in range(k):
                assert len({holders[s] for s in range(n) if s % k == side}) == 1
            assert set(holders) == {0, 1}
        if k == 2:
            assert h0.count(0) == n // 2  # one partnership (or seat) each
        else:  # three sides: A holds one side in twin 0 and the two others in twin 1
            assert h0.count(0) == n // k and h1.count(0) == n - n // k


@pytest.mark.parametrize("preset", ["classic", "classic-2p", "classic-3p", "classic-6p"])
def test_seatings_rotate_dealer_and_lead_position(preset: str) -> None:
    """Over num_players * num_sides game pairs, every (first dealer, place of A's lead side
    after the dealer) comes up exactly once, so every bot starts in every position."""
    rules = get_rules(preset)
    n, k = rules.num_players, rules.num_sides
    combos: Counter[tuple[int, int]] = Counter()
    for g in range(n * k):
        s = seating(rules, g)
        first_a_seat = next(i for i in range(1, n + 1)
                            if rules.side_of((s.dealer + i) % n) == s.lead_side)
        combos[(s.dealer, first_a_seat)] += 1
    assert len(combos) == n * k
    assert set(combos.values()) == {1}


@pytest.mark.parametrize("preset", ["classic", "classic-3p"])
def test_each_pack_order_is_played_in_both_twins(preset: str) -> None:
    rules = get_rules(preset)
    seed = 11
    res = play_game_pair(GamePairTask(rules, "random", "random", pairing=0, game_pair=3,
                                      seed=seed, keep_records=True))
    t0, t1 = res.twins
    assert t0.holders == tuple(1 - h for h in t1.holders)
    assert res.paired_hands == min(len(t0.hands), len(t1.hands)) >= 1
    for j, (h0, h1) in enumerate(zip(t0.hands, t1.hands)):
        assert h0.deck == h1.deck  # the same pack order, by the same dealer
        assert h0.dealer == h1.dealer == (seating(rules, 3).dealer + j) % rules.num_players
    # hand j's pack order does not depend on the pairing or on the bots
    other = play_game_pair(GamePairTask(rules, "random", "random", pairing=5, game_pair=3,
                                        seed=seed, keep_records=True))
    assert other.twins[0].hands[0].deck == t0.hands[0].deck
    assert deck_seed(seed, 3, 0) != deck_seed(seed, 3, 1) != deck_seed(seed, 4, 0)
    # the games are real games: scores carry over and the winner reached the target
    for twin in res.twins:
        for before, after in zip(twin.hands, twin.hands[1:]):
            assert after.scores == tuple(s + t for s, t in zip(before.scores, before.totals))
        assert twin.winner is not None
        assert twin.scores[twin.winner] >= rules.target_score


def test_hand_difference_by_hand() -> None:
    # partnerships: A holds side 1 (seats 1 and 3): 900 - 400
    assert hand_difference([400, 900], [1, 0, 1, 0], 2) == 500
    # three players, A alone at seat 0: 300 - (600 + 0) / 2 = 0
    assert hand_difference([300, 600, 0], [0, 1, 1], 3) == 0
    # three players, A at seats 1 and 2: (600 + 0) / 2 - 300 = 0
    assert hand_difference([300, 600, 0], [1, 0, 0], 3) == 0
    assert hand_difference([1000, 200, 0], [1, 0, 0], 3) == -900


def test_bot_lists() -> None:
    assert split_bot_specs(["heuristic,greedy"]) == ["heuristic", "greedy"]
    assert split_bot_specs(["ismcts:iterations=200,seconds=1,greedy", "random"]) == [
        "ismcts:iterations=200,seconds=1", "greedy", "random"]
    assert split_bot_specs(["a, ,b"]) == ["a", "b"]
    assert bot_labels(["random", "greedy", "random"]) == ["random#1", "greedy", "random#2"]
    assert pairings(3) == [(0, 1), (0, 2), (1, 2)]
