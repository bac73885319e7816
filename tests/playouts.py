"""Seeded random playouts shared by the property tests."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator

from canasta import Action, State, apply, get_rules, legal_actions, new_hand
from canasta.cards import Card, make_pack
from canasta.rules import PRESETS, Rules

ALL_PRESETS = sorted(PRESETS)


def table_cards(state: State) -> Counter[Card]:
    """Every card of a state: hands, stock, pile, melds and red threes."""
    seen: Counter[Card] = Counter(state.stock)
    seen.update(state.pile)
    for hand in state.hands:
        seen.update(hand)
    for melds in state.melds:
        for meld in melds:
            seen.update(meld or ())
    for reds in state.red_threes:
        seen.update(reds)
    return seen


def pack_of(rules: Rules) -> Counter[Card]:
    """The rules' whole pack as a multiset."""
    return Counter(make_pack(rules.num_decks, rules.num_jokers))


def random_hand(preset: str, seed: int) -> Iterator[tuple[State, list[Action], Action, State]]:
    """Play one hand with uniformly random legal actions, yielding (state, legal, action, next)."""
    rules = get_rules(preset)
    rng = random.Random(seed)
    state = new_hand(rules, seed=seed, dealer=seed % rules.num_players)
    for _ in range(10_000):
        if state.is_over:
            return
        legal = legal_actions(state)
        action = legal[rng.randrange(len(legal))]
        after = apply(state, action)
        yield state, legal, action, after
        state = after
    raise AssertionError(f"{preset} seed {seed}: the hand did not end")
