"""Seeded random playouts shared by the property tests."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator

from canasta import Action, State, apply, get_rules, legal_actions, new_hand
from canasta.cards import Card, make_pack
from canasta.position import state_from_json, state_to_json
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


def other_readings(preset: str, ban: str = "never") -> Rules:
    """The preset with the other readings of RULES §8.2's disputed rules switched on: the
    one-card pile ban ``ban``, melding on a last red three, and asking before the draw (where
    there is a partner to ask)."""
    rules = get_rules(preset)
    return rules.replace(one_card_pile_take_ban=ban, last_red_three_may_meld=True,
                         ask_before_draw=rules.permission_question_enabled)


def last_stock_card_red_three(state: State, rules: Rules) -> State | None:
    """``state`` under ``rules`` with one red three left in the stock, so that the next draw
    meets RULES §1.16.1 (the rest of the stock goes under the pile, so the pack stays whole);
    ``None`` when no red three is left in the stock."""
    data = state_to_json(state)
    data["rules"] = rules.to_json()
    stock = data["stock"]
    red = next((c for c in stock if c in ("3d", "3h")), None)
    if red is None:
        return None
    stock.remove(red)
    data["pile"] = stock + data["pile"]
    data["pile_frozen"] = data["pile_frozen"] or any(c in ("2c", "2d", "2h", "2s", "JK", "3d",
                                                            "3h") for c in stock)
    data["stock"] = [red]
    return state_from_json(data)


def random_hand(preset: str, seed: int, rules: Rules | None = None,
                ) -> Iterator[tuple[State, list[Action], Action, State]]:
    """Play one hand with uniformly random legal actions, yielding (state, legal, action, next);
    ``rules`` replace the preset's."""
    rules = rules or get_rules(preset)
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
