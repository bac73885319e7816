"""The classic family behind the family protocol: each answer is the rules core's own."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from canasta.actions import Action, parse_action
from canasta.cards import NATURAL_RANKS, Card, format_card, rank_char
from canasta.deal import new_hand, shuffled_pack
from canasta.engine import apply
from canasta.errors import IllegalActionError
from canasta.family import Family
from canasta.game import GameRecord, as_played, game_over
from canasta.legal import legal_actions
from canasta.observation import Observation, observe
from canasta.position import result_to_json, state_from_json, state_to_json
from canasta.rules import ALIASES, PRESETS, Rules, rules_from_json
from canasta.state import State, seal
from canasta.variant import variant_of


class ClassicFamily(Family):
    """Classic Canasta (RULES): two to six players, every preset of
    :data:`canasta.rules.PRESETS` and any rule set made from them."""

    name: ClassVar[str] = "classic"
    title: ClassVar[str] = "Classic Canasta"
    rules_class: ClassVar[type[Rules]] = Rules
    bots_module: ClassVar[str] = "canasta.classic.bots"
    research_module: ClassVar[str] = "canasta.rl.classic"

    def presets(self) -> Mapping[str, Rules]:
        return PRESETS

    def aliases(self) -> Mapping[str, str]:
        return ALIASES

    def rules_from_json(self, value: Any) -> Rules:
        return rules_from_json(value)

    def shuffled_pack(self, rules: Rules, seed: int | None) -> list[Card]:
        return shuffled_pack(rules, seed)

    def new_hand(self, rules: Rules, seed: int | None = None, *,
                 deck: Sequence[Card] | None = None, dealer: int | None = None,
                 scores: Sequence[int] | None = None, number: int = 1) -> State:
        del number  # the classic minimums follow the score, never the hand's number
        return new_hand(rules, seed, deck=deck, dealer=dealer, scores=scores)

    def legal_actions(self, position: Any) -> list[Action]:
        return legal_actions(position)

    def apply(self, position: Any, action: Action) -> State:
        return apply(position, action)

    def problem(self, position: Any, action: Action) -> str | None:
        try:
            apply(position, action)
        except IllegalActionError as e:
            return e.reason
        return None

    def observe(self, position: Any, seat: int) -> Observation:
        return observe(position, seat)

    def totals(self, position: Any) -> tuple[int, ...]:
        result = position.result
        if result is None:
            raise ValueError("the hand is not over")
        return tuple(side.total for side in result.sides)

    def winner(self, rules: Rules, scores: Sequence[int], position: Any) -> int | None:
        del position
        return game_over(rules, scores)

    def with_stock(self, position: Any, stock: tuple[Card, ...]) -> State:
        draft = position.copy()
        draft.stock = stock
        return seal(draft)

    def parse_action(self, rules: Rules, text: str) -> Action:
        return parse_action(text)

    def position_to_json(self, position: Any) -> dict[str, Any]:
        return state_to_json(position)

    def position_from_json(self, data: Any) -> State:
        return state_from_json(data)

    def result_to_json(self, position: Any) -> dict[str, Any] | None:
        if position.result is None:
            return None
        return result_to_json(position.result)

    def as_played(self, record: GameRecord) -> GameRecord | None:
        return as_played(record)

    def facts(self, observation: Any) -> dict[str, Any]:
        """The protocol's facts, and for this family: ``red_threes`` per side (their bonus
        counts once the side has melded, RULES §1.17) and ``pile.frozen_for_you``'s reason."""
        obs: Observation = observation
        rules = obs.rules
        variant = variant_of(rules)
        freeze = obs.freeze_for(obs.seat)
        owners = range(len(obs.melds))
        return {
            "family": self.name, "title": self.title,
            "num_players": rules.num_players, "num_sides": rules.num_sides,
            "partners": [[s for s in range(rules.num_players) if rules.side_of(s) == side]
                         for side in range(rules.num_sides)],
            "canasta_size": rules.canasta_size,
            "canastas_to_go_out": variant.canastas_to_go_out(),
            "opening_minimum": [rules.minimum_for(score) for score in obs.scores],
            "meld_keys": [rank_char(r) for r in reversed(NATURAL_RANKS)],
            "canastas": [obs.canastas(owner) for owner in owners],
            "pile": {"size": len(obs.pile),
                     "top": format_card(obs.pile[-1]) if obs.pile else None,
                     "frozen": freeze.frozen, "why": freeze.reason},
            "stock": obs.stock_size,
            "red_threes": [len(reds) for reds in obs.red_threes],
        }


CLASSIC = ClassicFamily()
"""The classic family (registered by :mod:`canasta.classic`)."""
