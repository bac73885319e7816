"""Modern American Canasta behind the family protocol (:class:`~canasta.family.Family`)."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from canasta.actions import Action
from canasta.cards import (
    IS_NATURAL,
    IS_WILD,
    NATURAL_RANKS,
    RANK_OF,
    Card,
    card_names,
    format_card,
    rank_name,
)
from canasta.deal import check_pack
from canasta.errors import PositionError
from canasta.family import Family, HouseRule
from canasta.modern_american import play
from canasta.modern_american.action_text import WILD_KEY, format_action, key_text, parse_action
from canasta.modern_american.ending import winner
from canasta.modern_american.hand import Hand, shuffled_pack
from canasta.modern_american.knobs import (
    ALWAYS,
    MODERN_AMERICAN,
    NAME,
    ModernAmericanRules,
    rules_from_json,
)
from canasta.modern_american.melds import MAX_MELD, WILD_MELD
from canasta.modern_american.notation import end_to_json, hand_from_json, hand_to_json
from canasta.modern_american.observation import Observation, observe
from canasta.modern_american.scoring import score_side
from canasta.modern_american.special_hands import CATALOGUES
from canasta.modern_american.variant import WILD
from canasta.rules import Rules
from canasta.variant import MIXED, NATURAL

HOUSE_RULES: tuple[HouseRule, ...] = (
    HouseRule("target_score", "Target score", "int", "the game ends when a side reaches it",
              low=1, group="The game"),
    HouseRule("special_hands", "Special hands", "choice",
              "which special hands a player may lay to end the hand (MA §11.2)",
              choices=("cla", "pagat"), group="Special hands",
              choice_labels=("the 11 hands of the Canasta League of America",
                             "the 4 hands of the older rules")),
    HouseRule("special_hand_after_partner_meld", "A special hand after the partner's first "
              "meld", "choice", "MA §11.1.2", choices=("never", "next_turn_courtesy"),
              group="Special hands",
              choice_labels=("never", "on the player's next turn")),
    HouseRule("keep_one_three_for_straight", "Keep a three for a Straight", "bool",
              "while the side has not melded, a player may keep one three in hand (MA §2.3)",
              group="Special hands"),
    HouseRule("initial_meld_counts_pile_top", "The pile's top card counts toward the "
              "initial meld", "bool", "MA §5.4", group="The initial meld"),
    HouseRule("pile_top_may_form_clean_triple", "The pile's top card may make the clean "
              "triple", "bool", "MA §5.4, §20.1", group="The initial meld"),
    HouseRule("talon_not_after_pile_take", "No talon for an initial meld made by picking the "
              "pack", "bool", "MA §8.2", group="The initial meld"),
)
"""The Modern American switches a table may set."""


class ModernAmericanFamily(Family):
    """Modern American Canasta (MA): four players in two partnerships, 13 cards, sevens and
    aces, melds of wild cards, threes laid, talons, special hands, 8500 to win."""

    name: ClassVar[str] = NAME
    title: ClassVar[str] = "Modern American Canasta"
    rules_class: ClassVar[type[Rules]] = ModernAmericanRules
    bots_module: ClassVar[str] = "canasta.modern_american.bots"
    research_module: ClassVar[str] = "canasta.modern_american.research"
    record_keys: ClassVar[frozenset[str]] = frozenset({"scores", "winner"})

    def presets(self) -> Mapping[str, Rules]:
        return {NAME: MODERN_AMERICAN}

    def rules_from_json(self, value: Any) -> ModernAmericanRules:
        return rules_from_json(value)

    def house_rules(self) -> tuple[HouseRule, ...]:
        return HOUSE_RULES

    def shuffled_pack(self, rules: Rules, seed: int | None) -> list[Card]:
        return shuffled_pack(rules, seed)

    def new_hand(self, rules: Rules, seed: int | None = None, *,
                 deck: Sequence[Card] | None = None, dealer: int | None = None,
                 scores: Sequence[int] | None = None, number: int = 1) -> Hand:
        ma = _rules(rules)
        if deck is not None:
            check_pack(ma, deck)
        dealer = ma.first_dealer if dealer is None else dealer
        if isinstance(dealer, bool) or not 0 <= dealer < ma.num_players:
            raise PositionError(f"dealer {dealer} is not a seat of {ma.num_players} players")
        scores = (0,) * ma.num_sides if scores is None else tuple(scores)
        if len(scores) != ma.num_sides:
            raise PositionError(f"{len(scores)} scores given for {ma.num_sides} sides")
        return play.new_hand(seed, deck=deck, dealer=dealer, scores=scores, rules=ma,
                             number=number)

    def legal_actions(self, position: Any) -> list[Action]:
        return play.legal_actions(position)

    def apply(self, position: Any, action: Action) -> Hand:
        return play.apply(position, action)

    def problem(self, position: Any, action: Action) -> str | None:
        return play.problem(position, action)

    def observe(self, position: Any, seat: int) -> Observation:
        return observe(position, seat)

    def totals(self, position: Any) -> tuple[int, ...]:
        if position.end is None:
            raise ValueError("the hand is not over")
        return tuple(side.total for side in position.end.sides)

    def winner(self, rules: Rules, scores: Sequence[int], position: Any) -> int | None:
        end = position.end
        dream = (position.side_of(end.special[0])
                 if end is not None and end.special and end.wins_game else None)
        return winner(rules, scores, dream)

    def with_stock(self, position: Any, stock: tuple[Card, ...]) -> Hand:
        hand: Hand = position.but(stock=stock)
        return hand

    def parse_action(self, rules: Rules, text: str) -> Action:
        return parse_action(_rules(rules), text)

    def format_action(self, rules: Rules, action: Action) -> str:
        return format_action(_rules(rules), action)

    def position_to_json(self, position: Any) -> dict[str, Any]:
        return hand_to_json(position)

    def position_from_json(self, data: Any) -> Hand:
        return hand_from_json(data)

    def result_to_json(self, position: Any) -> dict[str, Any] | None:
        return None if position.end is None else end_to_json(position.end)

    def describe(self, position: Any) -> str:
        return json.dumps(hand_to_json(position), indent=1)

    def facts(self, observation: Any) -> dict[str, Any]:
        """The protocol's facts, and for this family: ``threes`` per side (laid threes),
        ``turn_card_drawn`` (no talon is given once it is), ``talon_due`` (cards the player to
        move receives after the discard), ``dead`` (ranks that take no more melds),
        ``natural_only`` (rank -> ``always`` or ``after_opening``), ``special_hands`` (the
        catalogue's names) and ``max_meld`` (a meld's greatest size). A canasta of wild
        cards is of the kind ``wild``; ``table_points`` counts a side's melds as the hand
        would end now (``penalties``: its incomplete melds of sevens, aces or wild cards)."""
        obs: Observation = observation
        rules = obs.rules
        knobs = rules.knobs
        top = obs.pile[-1] if obs.pile else None
        sides = range(rules.num_sides)
        blocked = _blocked(obs)
        facts: dict[str, Any] = {
            "family": self.name, "title": self.title,
            "num_players": rules.num_players, "num_sides": rules.num_sides,
            "partners": [[s for s in range(rules.num_players) if rules.side_of(s) == side]
                         for side in range(rules.num_sides)],
            "canasta_size": MAX_MELD,
            "canastas_to_go_out": rules.min_canastas_to_go_out,
            "canasta_name": ["canasta", "canastas"],
            "opening_minimum": [obs.minimum(side) for side in range(rules.num_sides)],
            "meld_keys": [key_text(r) for r in reversed(NATURAL_RANKS)] + [WILD_KEY],
            "canastas": [obs.canastas(side) for side in range(rules.num_sides)],
            "pile": {"size": obs.pile_size, "top": None if top is None else format_card(top),
                     "frozen": True, "why": "the pack is always frozen: pick it with a natural "
                     "pair of its top card", "blocked": blocked, "frozen_by": None,
                     "note": None if blocked or top is None
                     else "always frozen: a natural pair picks it"},
            "stock": obs.stock_size,
            "seat_notes": [""] * rules.num_players,
            "game_end": {"target": rules.target_score, "deals": None},
            "threes": [len(laid) for laid in obs.threes],
            "turn_card_drawn": obs.turn_card_drawn,
            "talon_due": obs.turn.talon,
            "dead": [key_text(r) for r in sorted(obs.dead, reverse=True)],
            "natural_only": {key_text(r): mode for r, mode in knobs.natural_only_ranks},
            "special_hands": [s.name for s in CATALOGUES[knobs.special_hands]],
            "max_meld": MAX_MELD,
            "wild_meld_key": key_text(WILD_MELD),
            "melds_of": [rules.side_of(seat) for seat in range(rules.num_players)],
            "melds": [_melds(obs, side) for side in sides],
            "meld_names": {**{key_text(r): rank_name(r) for r in NATURAL_RANKS},
                           key_text(WILD_MELD): "wild cards"},
            "table_points": [_table_points(obs, side) for side in sides],
            "laid": [card_names(laid) for laid in obs.threes],
            "laid_name": ["three", "threes"],
            "preset_title": "Modern American",
            "house_rules": {f.field: getattr(knobs, f.field, None) if hasattr(knobs, f.field)
                            else getattr(rules, f.field) for f in HOUSE_RULES},
            "notes": _notes(obs),
        }
        if obs.end is not None:
            facts["ending"] = _ending(obs.end)
            facts["score"] = _score(obs.end)
        return facts

    def action_words(self, rules: Rules, action: Action, *, seen: bool) -> str | None:
        """``keep`` (which three stays in the hand is its player's to know: the others read
        only the threes laid) and ``special``."""
        if action.verb == "keep":
            if not seen:
                return ""
            text = format_action(_rules(rules), action)
            return "keeps no three" if text == "keep none" else f"keeps {text[5:]} in hand"
        if action.verb == "special":
            return "lays a special hand: " + format_action(_rules(rules), action)[8:]
        return None


def _notes(obs: Observation) -> list[str]:
    """What a screen says of the table beyond the melds and the pile (MA §1.4.4, §4.3,
    §4.4, §4.6, §8)."""
    notes = []
    if obs.end is None and obs.turn.talon:
        notes.append(f"{obs.turn.talon} cards of talon come to the player to move after "
                     "the discard")
    if obs.turn_card_drawn:
        notes.append("The turn card is drawn: no more talons")
    for key, mode in obs.knobs.natural_only_ranks:
        name = rank_name(key).capitalize()
        notes.append(f"{name}: natural cards only" if mode == ALWAYS
                     else f"{name}: wild cards only in the side's initial meld")
    if obs.dead:
        notes.append("Dead (no more melds): "
                     + ", ".join(rank_name(r) for r in sorted(obs.dead, reverse=True)))
    return notes


def _blocked(obs: Observation) -> str | None:
    """Why nobody may pick the pack whatever they hold, or ``None`` (MA §6)."""
    if not obs.pile:
        return None
    top = obs.pile[-1]
    if IS_WILD[top]:
        return "a wild card is on top"
    if not IS_NATURAL[top]:
        return "a three is on top"
    if RANK_OF[top] in obs.dead:
        return f"{rank_name(RANK_OF[top])} are dead"
    return None


def _melds(obs: Observation, side: int) -> list[dict[str, Any]]:
    """One side's melds in table order (aces first, the meld of wild cards last)."""
    out = []
    for key in (*reversed(NATURAL_RANKS), WILD_MELD):
        meld = obs.melds[side][key]
        if meld is None:
            continue
        kind = None
        if len(meld) >= MAX_MELD:
            kind = WILD if key == WILD_MELD else MIXED if any(IS_WILD[c] for c in meld) \
                else NATURAL
        out.append({"key": key_text(key), "cards": card_names(meld), "canasta": kind,
                    "hidden": False})
    return out


def _table_points(obs: Observation, side: int) -> dict[str, int]:
    """A side's melds and laid threes counted as if the hand ended now with empty hands."""
    melds = dict(obs.side_melds(side))
    score = score_side(obs.rules, obs.knobs, melds, obs.threes[side], (), went_out=False)
    return {"total": score.total, "melds": score.melded, "canastas": score.bonuses,
            "penalties": score.penalties, "laid": score.threes}


def _ending(end: Any) -> dict[str, Any]:
    """How the hand ended: the seat whose play ended it and the words after its name, or
    words."""
    if end.special is not None:
        return {"seat": end.special[0], "words": f"lays a special hand: {end.special[1]}"}
    if end.went_out is not None:
        return {"seat": end.went_out, "words": "goes out"}
    if end.last_three is not None:
        return {"seat": None, "words": "The stock's last card is a three: the hand is over"}
    return {"seat": None, "words": "The stock is exhausted: the hand is over"}


def _score(end: Any) -> list[dict[str, int]]:
    """Each side's hand, part by part as it counts (MA §13.6), and its total."""
    special = any(s.special for s in end.sides)
    out = []
    for s in end.sides:
        parts = {"melded": s.melded, "bonuses": s.bonuses, "threes": s.threes,
                 "penalties": s.penalties, "in_hand": s.in_hand}
        if special:
            parts["special"] = s.special
        parts["total"] = s.total
        out.append(parts)
    return out


def _rules(rules: Rules) -> ModernAmericanRules:
    if not isinstance(rules, ModernAmericanRules):
        raise PositionError(f"not Modern American rules: {rules.name!r}")
    return rules


MODERN_AMERICAN_FAMILY = ModernAmericanFamily()
"""The family (registered by :mod:`canasta.modern_american`)."""
