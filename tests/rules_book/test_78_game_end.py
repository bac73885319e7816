"""RULES §7.8 — the end of the game (scenarios #76 to #80).

``canasta.game.game_over(rules, scores)`` gives the winning side or ``None`` (play on), and
``rules.minimum_for(score)`` the next hand's initial-meld minimum (RULES §1.10, §1.18). The
5000-point rows hold on the presets whose target is 5000; a third side (``classic-3p``) is given a
score far behind.
"""

from __future__ import annotations

import pytest

from canasta import get_rules, new_hand
from canasta.game import game_over

from .builders import PRESETS, presets_where

TARGET_5000 = presets_where(lambda r: r.target_score == 5000)
TARGET_5000_AT_LEAST = presets_where(
    lambda r: r.target_score == 5000 and r.target_comparison == ">=")


def _scores(preset: str, ns: int, ew: int) -> tuple[int, ...]:
    """NS and EW scores, and 1000 for any further side."""
    return (ns, ew) + (1000,) * (get_rules(preset).num_sides - 2)


@pytest.mark.parametrize("preset", TARGET_5000)
def test_s76_both_past_5000_higher_score_wins(preset: str) -> None:
    rules = get_rules(preset)
    assert game_over(rules, _scores(preset, 4900, 4700)) is None
    assert game_over(rules, _scores(preset, 4900 + 150, 4700 + 320)) == 0


@pytest.mark.parametrize("preset", TARGET_5000)
def test_s77_tie_above_target_plays_another_hand(preset: str) -> None:
    rules = get_rules(preset)
    assert rules.tie_rule == "play_another_hand"
    assert game_over(rules, _scores(preset, 5100, 5100)) is None


@pytest.mark.parametrize(
    ("preset", "winner"),
    [(p, 0) for p in TARGET_5000_AT_LEAST] + [("korean-old", None)],
)
def test_s78_exactly_5000_classic_wins_korean_old_continues(
        preset: str, winner: int | None) -> None:
    assert game_over(get_rules(preset), _scores(preset, 5000, 4000)) == winner


@pytest.mark.parametrize("preset", PRESETS)
def test_s79_negative_score_next_minimum_15(preset: str) -> None:
    rules = get_rules(preset)
    assert rules.minimum_for(-200) == 15
    scores = (-200,) + (0,) * (rules.num_sides - 1)
    state = new_hand(rules, seed=79, scores=scores)
    assert state.minimum(0) == 15
    assert state.minimum(1) == 50


@pytest.mark.parametrize("preset", ["classic-6p"])
def test_s80_six_player_minimum_150_from_7000(preset: str) -> None:
    rules = get_rules(preset)
    assert rules.minimum_for(7000) == 150
    assert rules.minimum_for(6995) == 120
    state = new_hand(rules, seed=80, scores=(7000, 6995))
    assert (state.minimum(0), state.minimum(1)) == (150, 120)


@pytest.mark.parametrize("preset", presets_where(lambda r: r.name != "classic-6p"))
def test_s80_other_presets_stay_at_120_above_3000(preset: str) -> None:
    """Contrast: the 150 row belongs to ``classic-6p`` only (RULES §2.3, §6)."""
    assert get_rules(preset).minimum_for(7000) == 120
