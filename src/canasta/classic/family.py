"""The classic family behind the family protocol: each answer is the rules core's own."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from canasta.actions import Action, parse_action
from canasta.cards import (
    BLACK_THREE_RANK,
    NATURAL_RANKS,
    Card,
    card_names,
    format_card,
    rank_char,
    rank_name,
)
from canasta.classic.house_rules import HOUSE_RULES, field_value
from canasta.deal import new_hand, shuffled_pack
from canasta.engine import apply
from canasta.errors import IllegalActionError
from canasta.family import Family, HouseRule
from canasta.game import GameRecord, as_played, game_over
from canasta.legal import legal_actions
from canasta.observation import Observation, observe
from canasta.plans import top_block
from canasta.position import result_to_json, state_from_json, state_to_json
from canasta.rules import ALIASES, PRESETS, Rules, rules_from_json
from canasta.scoring import table_points
from canasta.state import HandResult, State, seal
from canasta.variant import variant_of

PRESET_TITLES = {
    "classic": "Classic", "classic-2p": "Classic", "classic-3p": "Classic",
    "classic-3p-cutthroat": "Cutthroat", "classic-6p": "Classic", "classic-6p-3x2": "Classic",
    "korean-old": "Korean (old)", "spruce-classic": "Spruce classic",
}
"""The name of each preset's game in words (its seating follows from its rules)."""


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

    def house_rules(self) -> tuple[HouseRule, ...]:
        return HOUSE_RULES

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

    def action_words(self, rules: Rules, action: Action, *, seen: bool) -> str | None:
        """None: every classic verb is one of NOTATION §2's."""
        del rules, action, seen
        return None

    def facts(self, observation: Any) -> dict[str, Any]:
        """The protocol's facts, and for this family: ``red_threes`` per side (their bonus
        counts once the side has melded, RULES §1.17); ``known`` per seat, the cards known to
        be in its hand because it took them with the pile; ``lone_hand``, the cutthroat lone
        hand's seat once known (RULES §2.2)."""
        obs: Observation = observation
        rules = obs.rules
        variant = variant_of(rules)
        freeze = obs.freeze_for(obs.seat)
        owners = range(len(obs.melds))
        facts: dict[str, Any] = {
            "family": self.name, "title": self.title,
            "num_players": rules.num_players, "num_sides": rules.num_sides,
            "partners": [[s for s in range(rules.num_players) if rules.side_of(s) == side]
                         for side in range(rules.num_sides)],
            "canasta_size": rules.canasta_size,
            "canastas_to_go_out": variant.canastas_to_go_out(),
            "canasta_name": ["canasta", "canastas"],
            "opening_minimum": [rules.minimum_for(score) for score in obs.scores],
            "meld_keys": [rank_char(r) for r in reversed(NATURAL_RANKS)],
            "canastas": [obs.canastas(owner) for owner in owners],
            "pile": {"size": len(obs.pile),
                     "top": format_card(obs.pile[-1]) if obs.pile else None,
                     "frozen": freeze.frozen, "why": freeze.reason,
                     "blocked": top_block(obs.pile),
                     "frozen_by": None if freeze.card is None else format_card(freeze.card),
                     "note": _pile_note(obs)},
            "stock": obs.stock_size,
            "seat_notes": [""] * rules.num_players,
            "game_end": {"target": rules.target_score, "deals": None},
            "red_threes": [len(reds) for reds in obs.red_threes],
            "melds_of": [obs.owner_of(seat) for seat in range(rules.num_players)],
            "melds": [_melds(obs, owner) for owner in owners],
            "meld_names": {rank_char(r): rank_name(r) for r in (*NATURAL_RANKS,
                                                                BLACK_THREE_RANK)},
            "table_points": [_table_points(obs, owner) for owner in owners],
            "laid": [card_names(reds) for reds in obs.red_threes],
            "laid_name": ["red three", "red threes"],
            "known": [card_names(cards) for cards in obs.known],
            "lone_hand": obs.lone_hand,
            "preset_title": PRESET_TITLES.get(rules.name, rules.name),
            "house_rules": {f.field: field_value(rules, f.field) for f in HOUSE_RULES},
            "notes": [],
        }
        if obs.result is not None:
            facts["ending"] = _ending(obs.result)
            facts["score"] = _score(rules, obs.result)
        return facts


def _pile_note(obs: Observation) -> str | None:
    """The pile's state in a few words for a screen (``None`` when its top blocks it and
    nothing freezes it)."""
    if obs.pile_frozen:
        card = obs.freeze.card
        return (f"frozen by {format_card(card)}" if card is not None else "frozen") + \
            ": a natural pair takes it"
    if obs.rules.pile_frozen_until_side_melds and not obs.side_has_melded(obs.seat):
        return "frozen until your side melds"
    return None if top_block(obs.pile) else "not frozen"


def _melds(obs: Observation, owner: int) -> list[dict[str, Any]]:
    """One owner's melds in table order (aces first, black threes last)."""
    variant = variant_of(obs.rules)
    melds = obs.melds[owner]
    ranks = sorted((r for r, m in enumerate(melds) if m is not None),
                   key=lambda r: (r == BLACK_THREE_RANK, -r))
    return [{"key": rank_char(r), "cards": card_names(melds[r] or ()),
             "canasta": variant.canasta_kind(melds[r]), "hidden": r in obs.hidden[owner]}
            for r in ranks]


def _table_points(obs: Observation, owner: int) -> dict[str, int]:
    """What an owner's melds and its side's red threes count so far (``laid``: the red
    threes' part)."""
    points = table_points(obs.rules, obs.melds[owner], obs.hidden[owner],
                          len(obs.red_threes[owner]))
    return {"total": points.total, "melds": points.melded, "canastas": points.canastas,
            "hidden": points.hidden, "laid": points.red_threes}


def _ending(result: HandResult) -> dict[str, Any]:
    """How the hand ended: the seat that went out and the words after its name, or words."""
    if result.went_out is not None:
        return {"seat": result.went_out,
                "words": "goes out concealed" if result.concealed else "goes out"}
    if result.void:
        return {"seat": None, "words": "The stock cannot supply the draw: the hand is void"}
    return {"seat": None, "words": "The stock is exhausted: the hand is over"}


def _score(rules: Rules, result: HandResult) -> list[dict[str, int]]:
    """Each side's hand, part by part as it counts (cards in hand negative), and its total."""
    out = []
    for side in result.sides:
        parts = {"melded": side.melded, "canastas": side.canastas}
        if rules.hidden_canasta_bonus:
            parts["hidden"] = side.hidden
        parts.update(red_threes=side.red_threes, going_out=side.going_out,
                     in_hand=-side.in_hand, total=side.total)
        out.append(parts)
    return out


CLASSIC = ClassicFamily()
"""The classic family (registered by :mod:`canasta.classic`)."""
