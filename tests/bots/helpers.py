"""Shared helpers for the bot tests: playing hands and writing positions."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import Any

from canasta import apply, legal_actions, new_hand, observe, rules_from_json
from canasta.actions import Action
from canasta.bots.base import Bot
from canasta.cards import IS_RED_THREE, format_card, make_pack, parse_cards
from canasta.position import state_from_json
from canasta.rules import Rules
from canasta.state import State


def play_hand(rules: Rules, bots: Sequence[Bot], seed: int, max_steps: int = 4000,
              dealer: int | None = None, start: State | None = None,
              ) -> tuple[State, list[Action]]:
    """Play one hand with ``bots[seat]`` (from ``start``, or a seeded deal), checking every
    choice is legal; returns the end state and the actions in order."""
    state = start or new_hand(rules, seed=seed, dealer=dealer)
    rngs = [random.Random(seed * 100 + s) for s in range(rules.num_players)]
    actions: list[Action] = []
    for _ in range(max_steps):
        if state.is_over:
            return state, actions
        seat = state.to_move
        legal = legal_actions(state)
        action = bots[seat].choose(observe(state, seat), legal, rngs[seat])
        assert action in legal, f"{bots[seat].name} chose illegal {action} in {state!r}"
        actions.append(action)
        state = apply(state, action)
    raise AssertionError("the hand did not end")


def play_until(rules: Rules, bots: Sequence[Bot], seed: int, steps: int,
               start: State | None = None) -> State:
    """The state after ``steps`` legal actions of a seeded hand, or from ``start`` (or its
    end)."""
    state = start or new_hand(rules, seed=seed)
    rngs = [random.Random(seed * 100 + s) for s in range(rules.num_players)]
    for _ in range(steps):
        if state.is_over:
            break
        seat = state.to_move
        state = apply(state, bots[seat].choose(observe(state, seat), legal_actions(state),
                                               rngs[seat]))
    return state


def position(**fields: Any) -> State:
    """A classic four-player position (NOTATION §3); a hand given as a number is that many
    cards nobody else holds (the seat to move cannot see them anyway)."""
    data: dict[str, Any] = {
        "rules": "classic", "dealer": 3, "to_move": 0, "phase": "play",
        "hands": [[], 8, 8, 8], "stock": [], "pile": [],
        "sides": [{"score": 0}, {"score": 0}],
    }
    data.update(fields)
    rules = rules_from_json(data["rules"])
    left = Counter(c for c in make_pack(rules.num_decks, rules.num_jokers)
                   if not IS_RED_THREE[c])
    listed = [*data["stock"], *data["pile"]]
    listed += [c for h in data["hands"] if not isinstance(h, int) for c in h]
    for side in data["sides"]:
        listed += [c for m in side.get("melds", {}).values() for c in m]
    left.subtract(parse_cards(listed))
    spare = sorted(left.elements(), reverse=True)  # aces and kings first: nobody's business
    hands = []
    for h in data["hands"]:
        if isinstance(h, int):
            hands.append([format_card(c) for c in spare[:h]])
            del spare[:h]
        else:
            hands.append(h)
    data["hands"] = hands
    return state_from_json(data)


def duplicate_lead(rules: Rules, make_a: Any, make_b: Any, deals: Sequence[int]) -> float:
    """Mean points per hand of bot A's side over bot B's, each deal played with sides swapped."""
    total = 0.0
    n, k = rules.num_players, rules.num_sides
    for seed in deals:
        for a_side in (0, 1):
            bots = [make_a() if s % k == a_side else make_b() for s in range(n)]
            state, _ = play_hand(rules, bots, seed, dealer=seed % n)
            assert state.result is not None
            sides = state.result.sides
            total += sides[a_side].total - sides[1 - a_side].total
    return total / (2 * len(deals))
