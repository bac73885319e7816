"""Hand and Foot behind the family protocol (:class:`~canasta.family.Family`)."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from canasta.actions import Action
from canasta.cards import IS_NATURAL, IS_WILD, Card, card_names, format_card, rank_name
from canasta.errors import PositionError
from canasta.family import Family, HouseRule
from canasta.hand_and_foot import legal, turn
from canasta.hand_and_foot.action_text import format_action, key_text, parse_action
from canasta.hand_and_foot.deal import PENDING, WILD_MELD, Deal, new_deal, shuffled_pack
from canasta.hand_and_foot.knobs import (
    BOOK,
    NAME,
    PRESETS,
    HandFootRules,
    knob_to_json,
    rules_from_json,
)
from canasta.hand_and_foot.melds import CLEAN, DIRTY, book_key, book_kind
from canasta.hand_and_foot.notation import SCORE_PARTS, deal_from_json, deal_to_json, end_to_json
from canasta.hand_and_foot.observation import Observation, observe
from canasta.rules import Rules
from canasta.variant import MIXED, NATURAL

HOUSE_RULES: tuple[HouseRule, ...] = (
    HouseRule("hand_size", "Cards dealt to each player", "int",
              "in the hand; the foot is dealt beside it (HF §1.4.1, pagat deals 13)", low=5,
              high=15, group="The deal"),
    HouseRule("foot_size", "Cards in a foot", "int", "HF §1.4.1", low=5, high=15,
              group="The deal"),
    HouseRule("red_three_mode", "Red threes", "choice", "HF §2", choices=("bonus", "penalty"),
              choice_labels=("laid for 100 each", "a penalty of 500 if caught"),
              group="Threes"),
    HouseRule("wild_ratio", "Wild cards in a meld", "choice", "HF §4.1.2",
              choices=("naturals_exceed_wilds", "naturals_at_least_twice",
                       "naturals_at_least_wilds"),
              choice_labels=("fewer wild cards than natural ones",
                             "at most half as many wild cards as natural ones",
                             "no more wild cards than natural ones"), group="Melds"),
    HouseRule("allow_wild_only_melds", "Melds of wild cards", "bool",
              "a book of seven wild cards is worth 1500 (HF §4.6)", group="Melds"),
    HouseRule("book_accepts_extra", "Cards on a book", "choice", "HF §4.3.2",
              choices=("none", "naturals", "any"),
              choice_labels=("a book is closed", "natural cards of its rank", "any card"),
              group="Melds"),
    HouseRule("pile_take_count", "Cards a take moves", "int",
              "the top card and the cards below it (empty: the whole pile), HF §7.3",
              low=1, optional=True, group="The pile"),
    HouseRule("pile_take_pair", "What takes the pile", "choice", "HF §7.1, §7.7",
              choices=("natural_pair", "natural_plus_wild", "one_natural"),
              choice_labels=("a natural pair", "a natural pair, or a natural and a wild card",
                             "one natural card"), group="The pile"),
    HouseRule("pile_take_requires_opened", "Take the pile only after melding", "bool",
              "HF §6.7", group="The pile"),
    HouseRule("going_out_discard", "The last card", "choice", "HF §10.1e",
              choices=("optional", "required", "forbidden"),
              choice_labels=("melded or discarded", "discarded", "melded"),
              group="Going out"),
    HouseRule("permission_required", "Ask the partner before going out", "bool", "HF §10.4",
              group="Going out"),
    HouseRule("walk_pickup_timing", "A foot reached by a discard", "choice", "HF §9.3",
              choices=("end_of_turn", "next_turn"),
              choice_labels=("is picked up at once", "is picked up at the next turn"),
              group="The foot"),
    HouseRule("stock_exhausted_rule", "When the stock runs out", "choice", "HF §11",
              choices=("end_after_last_discard", "continue_by_pile", "reshuffle_pile"),
              choice_labels=("the deal ends", "players may take the pile",
                             "the pile is shuffled into a new stock"), group="The game"),
    HouseRule("rounds_per_game", "Deals in a game", "int", "HF §13.1", low=1, high=8,
              group="The game"),
)
"""The switches a table may set from the lobby (every knob is a field of the JSON form)."""

KIND_OF_BOOK: dict[str, str] = {CLEAN: NATURAL, DIRTY: MIXED, "wild": "wild"}
"""A book's kind in the words every family's table uses for a canasta."""


class HandFootFamily(Family):
    """Hand and Foot (HF): a hand and a foot each, draw two, books of seven, four deals."""

    name: ClassVar[str] = NAME
    title: ClassVar[str] = "Hand and Foot"
    rules_class: ClassVar[type[Rules]] = HandFootRules
    bots_module: ClassVar[str] = "canasta.hand_and_foot.bots"
    research_module: ClassVar[str] = "canasta.hand_and_foot.research"
    record_keys: ClassVar[frozenset[str]] = frozenset({"scores", "winner"})

    def presets(self) -> Mapping[str, Rules]:
        return PRESETS

    def rules_from_json(self, value: Any) -> HandFootRules:
        return rules_from_json(value)

    def house_rules(self) -> tuple[HouseRule, ...]:
        return HOUSE_RULES

    def shuffled_pack(self, rules: Rules, seed: int | None) -> list[Card]:
        return shuffled_pack(_rules(rules), seed)

    def new_hand(self, rules: Rules, seed: int | None = None, *,
                 deck: Sequence[Card] | None = None, dealer: int | None = None,
                 scores: Sequence[int] | None = None, number: int = 1) -> Deal:
        return new_deal(_rules(rules), seed, deck=deck, dealer=dealer, scores=scores,
                        number=number)

    def legal_actions(self, position: Any) -> list[Action]:
        return legal.legal_actions(position)

    def apply(self, position: Any, action: Action) -> Deal:
        return turn.apply(position, action)

    def problem(self, position: Any, action: Action) -> str | None:
        return turn.problem(position, action)

    def observe(self, position: Any, seat: int) -> Observation:
        return observe(position, seat)

    def totals(self, position: Any) -> tuple[int, ...]:
        if position.end is None:
            raise ValueError("the deal is not over")
        return tuple(side.total for side in position.end.sides)

    def winner(self, rules: Rules, scores: Sequence[int], position: Any) -> int | None:
        """After the last deal (``rounds``) or once a side reaches the target (``target``),
        the side with the higher total; an exact tie plays another deal (HF §13)."""
        knobs = _rules(rules).knobs
        if knobs.game_end == "rounds":
            if position.number < knobs.rounds_per_game:
                return None
        elif knobs.target_score is None or max(scores) < knobs.target_score:
            return None
        best = max(scores)
        leaders = [s for s, v in enumerate(scores) if v == best]
        return leaders[0] if len(leaders) == 1 else None

    def with_stock(self, position: Any, stock: tuple[Card, ...]) -> Deal:
        deal: Deal = position.but(stock=stock)
        return deal

    def parse_action(self, rules: Rules, text: str) -> Action:
        return parse_action(text)

    def format_action(self, rules: Rules, action: Action) -> str:
        return format_action(action)

    def position_to_json(self, position: Any) -> dict[str, Any]:
        return deal_to_json(position)

    def position_from_json(self, data: Any) -> Deal:
        return deal_from_json(data)

    def result_to_json(self, position: Any) -> dict[str, Any] | None:
        return None if position.end is None else end_to_json(position.end)

    def describe(self, position: Any) -> str:
        return json.dumps(deal_to_json(position), indent=1)

    def facts(self, observation: Any) -> dict[str, Any]:
        """The protocol's facts, and for this family: ``books_to_go_out`` (clean, dirty, wild),
        ``books`` per side by kind, ``feet`` (per seat the cards of a foot still waiting) and
        ``in_foot`` (per seat; ``seat_notes`` says both in words), ``deal_number`` and
        ``deals`` (the deals of a game, or ``None`` when it is played to a target) and
        ``wild_meld_key`` (the key of a meld of wild cards alone where the rules allow one,
        else ``None``). A book is a meld of seven cards whose ``canasta`` is ``natural``
        (clean), ``mixed`` (dirty) or ``wild``; a side may hold several of one rank."""
        obs: Observation = observation
        rules, knobs = obs.rules, obs.knobs
        sides = range(rules.num_sides)
        top = obs.pile[-1] if obs.pile else None
        blocked = _blocked(obs)
        clean, dirty, wild = knobs.books_to_go_out
        facts: dict[str, Any] = {
            "family": self.name, "title": self.title,
            "num_players": rules.num_players, "num_sides": rules.num_sides,
            "partners": [[s for s in range(rules.num_players) if obs.side_of(s) == side]
                         for side in sides],
            "canasta_size": BOOK,
            "canastas_to_go_out": clean + dirty + wild,
            "canasta_name": ["book", "books"],
            "books_to_go_out": {"clean": clean, "dirty": dirty, "wild": wild},
            "opening_minimum": [0 if obs.opened(side)
                                else knobs.minimum(obs.number, obs.scores[side])
                                for side in sides],
            "meld_keys": [key_text(r) for r in range(10, -1, -1)] + (
                [key_text(WILD_MELD)] if knobs.allow_wild_only_melds else []),
            "wild_meld_key": key_text(WILD_MELD) if knobs.allow_wild_only_melds else None,
            "canastas": [len(obs.books[side]) for side in sides],
            "books": [_book_counts(obs, side) for side in sides],
            "pile": {"size": obs.pile_size, "top": None if top is None else format_card(top),
                     "frozen": obs.pile_frozen, "blocked": blocked,
                     "why": _why(obs), "frozen_by": None,
                     "note": blocked or (f"a take moves the top {knobs.pile_take_count} cards"
                                         if knobs.pile_take_count is not None
                                         and obs.pile_size > knobs.pile_take_count else None)},
            "stock": obs.stock_size,
            "feet": list(obs.foot_sizes),
            "in_foot": [obs.in_foot(s) for s in range(rules.num_players)],
            "seat_notes": [_seat_note(obs, s) for s in range(rules.num_players)],
            "game_end": {"target": knobs.target_score if knobs.game_end == "target" else None,
                         "deals": knobs.rounds_per_game if knobs.game_end == "rounds" else None},
            "deal_number": obs.number,
            "deals": knobs.rounds_per_game if knobs.game_end == "rounds" else None,
            "melds_of": [obs.side_of(seat) for seat in range(rules.num_players)],
            "melds": [_melds(obs, side) for side in sides],
            "meld_names": {**{key_text(r): rank_name(r) for r in range(11)},
                           key_text(WILD_MELD): "wild cards"},
            "table_points": [_table_points(obs, side) for side in sides],
            "laid": [card_names(t) for t in obs.red_threes],
            "laid_name": ["red three", "red threes"],
            "preset_title": _preset_title(rules),
            "house_rules": {f.field: knob_to_json(f.field, getattr(knobs, f.field))
                            for f in HOUSE_RULES},
            "notes": _notes(obs),
        }
        if obs.end is not None:
            facts["ending"] = _ending(obs)
            facts["score"] = [{p: getattr(s, p) for p in SCORE_PARTS} for s in obs.end.sides]
        return facts


def _preset_title(rules: HandFootRules) -> str:
    words = {NAME: "Hand and Foot", f"{NAME}-pagat": "Hand and Foot (pagat)",
             f"{NAME}-bicycle": "Hand and Foot (Bicycle)", f"{NAME}-2p": "Hand and Foot, 2",
             f"{NAME}-3p": "Hand and Foot, 3", f"{NAME}-6p": "Hand and Foot, 6"}
    return words.get(rules.name, "Hand and Foot")


def _book_counts(obs: Observation, side: int) -> dict[str, int]:
    kinds = [book_kind(b) for b in obs.books[side]]
    return {"clean": kinds.count(CLEAN), "dirty": kinds.count(DIRTY),
            "wild": len(kinds) - kinds.count(CLEAN) - kinds.count(DIRTY)}


def _blocked(obs: Observation) -> str | None:
    """Why nobody may take the pile whatever they hold (HF §7.6, §8.3), or ``None``."""
    if not obs.pile:
        return None
    top = obs.pile[-1]
    if IS_WILD[top] and not obs.knobs.wild_on_top_takeable:
        return "a wild card is on top"
    if not IS_WILD[top] and not IS_NATURAL[top]:
        return "a three is on top"
    return None


def _why(obs: Observation) -> str:
    rule = obs.knobs.pile_take_pair
    if obs.pile_frozen or rule == "natural_pair":
        return "a natural pair of its top card takes the pile"
    if rule == "one_natural":
        return "one natural card of its top card's rank takes the pile"
    return "a natural pair, or a natural card and a wild card, takes the pile"


def _melds(obs: Observation, side: int) -> list[dict[str, Any]]:
    """A side's books (in the order they were made), then its open melds, aces first."""
    out = [{"key": key_text(book_key(b)), "cards": card_names(b),
            "canasta": KIND_OF_BOOK[book_kind(b)], "hidden": False} for b in obs.books[side]]
    for key in (*range(10, -1, -1), WILD_MELD):
        meld = obs.melds[side][key]
        if meld is not None:
            out.append({"key": key_text(key), "cards": card_names(meld), "canasta": None,
                        "hidden": False})
    return out


def _table_points(obs: Observation, side: int) -> dict[str, int]:
    """A side's table as it would count if the deal ended now with empty hands."""
    knobs = obs.knobs
    value = obs.rules.value_of
    melded = sum(value[c] for m in obs.melds[side] if m is not None for c in m)
    melded += sum(value[c] for b in obs.books[side] for c in b)
    bonus = 0
    for b in obs.books[side]:
        kind = book_kind(b)
        bonus += (knobs.book_bonus(book_key(b)) if kind == CLEAN else knobs.mixed_canasta_bonus
                  if kind == DIRTY else knobs.wild_book_bonus)
    laid = len(obs.red_threes[side]) * (knobs.red_three_laid_value
                                        if knobs.red_three_mode == "bonus" else 0)
    return {"total": melded + bonus + laid, "melds": melded, "canastas": bonus, "laid": laid}


def _notes(obs: Observation) -> list[str]:
    knobs = obs.knobs
    clean, dirty, wild = knobs.books_to_go_out
    need = f"{clean} clean, {dirty} dirty" + (f", {wild} wild" if wild else "")
    notes = [f"Deal {obs.number}" + (f" of {knobs.rounds_per_game}"
                                     if knobs.game_end == "rounds" else ""),
             f"Out with {need} books"]
    return notes


def _seat_note(obs: Observation, seat: int) -> str:
    """A seat's foot in a few words: the cards of a foot that waits (``foot 11``, ``foot 11,
    picked up next turn``), ``in the foot`` once it is picked up."""
    if obs.in_foot(seat):
        return "in the foot"
    size = obs.foot_sizes[seat]
    if not size:
        return ""
    return f"foot {size}" + (", picked up next turn" if obs.foot_state[seat] == PENDING else "")


def _ending(obs: Observation) -> dict[str, Any]:
    end = obs.end
    assert end is not None
    if end.went_out is not None:
        return {"seat": end.went_out, "words": "goes out"}
    return {"seat": None, "words": "The stock is exhausted: the deal is over"}


def _rules(rules: Rules) -> HandFootRules:
    if not isinstance(rules, HandFootRules):
        raise PositionError(f"not Hand and Foot rules: {rules.name!r}")
    return rules


HAND_AND_FOOT_FAMILY = HandFootFamily()
"""The family (registered by :mod:`canasta.hand_and_foot`)."""


