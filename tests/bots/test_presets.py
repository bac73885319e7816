"""Every bot plays every preset and house rule to the end: asking and answering, cutthroat's lone
hand, six players, asking before the draw, melding after a last red three; the search bot keeps
to its time budget there. A bot that raised would fail these tests, never a table."""

from __future__ import annotations

import random
import time
from collections import Counter

import pytest

from canasta import apply, get_rules, legal_actions, new_hand, observe
from canasta.bots import bot_table, make_bot
from canasta.rules import PRESETS, Rules

BOTS = bot_table().bots

HOUSE_RULES = {"ask_before_draw": True, "last_red_three_may_meld": True}


def _rules(name: str, house: bool) -> Rules:
    rules = get_rules(name)
    if house and rules.permission_question_enabled:
        return rules.replace(**HOUSE_RULES)
    return rules.replace(last_red_three_may_meld=True) if house else rules


def _play(rules: Rules, specs: list[str], seed: int) -> tuple[Counter[str], float, bool]:
    """One hand; the verbs played, the longest decision in seconds, whether a lone hand formed."""
    state = new_hand(rules, seed=seed, dealer=seed % rules.num_players)
    bots = [make_bot(spec) for spec in specs]
    rngs = [random.Random(seed * 10 + s) for s in range(rules.num_players)]
    verbs: Counter[str] = Counter()
    longest = 0.0
    lone = False
    for _ in range(5000):
        if state.is_over:
            return verbs, longest, lone
        seat = state.to_move
        legal = legal_actions(state)
        start = time.perf_counter()
        action = bots[seat].choose(observe(state, seat), legal, rngs[seat])
        longest = max(longest, time.perf_counter() - start)
        assert action in legal, f"{specs[seat]} chose the illegal {action}"
        verbs[action.verb] += 1
        state = apply(state, action)
        lone = lone or state.lone_hand is not None
    raise AssertionError("the hand did not end")


@pytest.mark.parametrize("house", [False, True])
@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_every_fast_bot_plays_every_preset(preset: str, house: bool) -> None:
    rules = _rules(preset, house)
    fast = [name for name in BOTS if name not in ("ismcts",) and "ismcts" not in name]
    seen: Counter[str] = Counter()
    lone = False
    for i, spec in enumerate(fast):
        specs = [spec if s % 2 == 0 else fast[(i + 1) % len(fast)]
                 for s in range(rules.num_players)]
        verbs, _, formed = _play(rules, specs, seed=40 + i)
        seen += verbs
        lone = lone or formed
    for seed in range(3):  # the heuristic at every seat
        verbs, _, formed = _play(rules, ["heuristic"] * rules.num_players, seed)
        seen += verbs
        lone = lone or formed
    assert seen["discard"] and seen["draw"]
    if rules.lone_hand:
        assert lone, "no lone hand was formed"


def test_heuristic_partners_ask_and_answer() -> None:
    seen: Counter[str] = Counter()
    for preset in ("classic", "classic-6p", "korean-old"):
        rules = get_rules(preset)
        for seed in range(6):
            seen += _play(rules, ["heuristic"] * rules.num_players, seed)[0]
    assert seen["ask"] and seen["yes"] + seen["no"] == seen["ask"]


@pytest.mark.parametrize("preset", ["classic-3p-cutthroat", "classic-6p", "classic-2p"])
def test_the_search_bot_keeps_to_its_time_budget(preset: str) -> None:
    rules = _rules(preset, house=True)
    specs = ["ismcts:seconds=0.05,horizon=3" if s == 0 else "heuristic"
             for s in range(rules.num_players)]
    _, longest, _ = _play(rules, specs, seed=7)
    assert longest < 0.05 + 1.0  # the budget, and at most one play-out past it
