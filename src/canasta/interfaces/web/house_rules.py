"""House rules for the lobby: the RULES §6 fields a person would set, with each preset's values.

``GET /api/house-rules`` gives the form (groups of fields, each with its label, kind and hint)
and every preset's values of those fields, so the lobby can show the chosen preset filled in.
The page sends back ``{"preset": P, FIELD: VALUE, ...}`` with the fields it changed, and the
rules engine judges the combination when the table is created (its own message on a 422).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from fastapi import APIRouter

from canasta.rules import (
    ONE_CARD_PILE_TAKE_BANS,
    PRESETS,
    STOCK_EXHAUSTED_RULES,
    TARGET_COMPARISONS,
    Rules,
)

router = APIRouter(prefix="/api")


@dataclass(frozen=True)
class Field:
    """One field of the form: a :class:`~canasta.rules.Rules` field and how to ask for it."""

    name: str
    label: str
    kind: str
    """``int``, ``bool``, ``choice`` (one of ``choices``), ``thresholds`` (the opening
    minimums: ``[[null, min], [score, min], ...]``) or ``sizes`` (a list of integers)."""
    hint: str = ""
    choices: tuple[str, ...] = ()
    optional: bool = False
    """An integer that may be left empty (``null``: no limit)."""
    choice_labels: tuple[str, ...] = ()
    """The words a player reads for each of ``choices``, in the same order."""

    def to_json(self) -> dict[str, Any]:
        """The field as the page reads it."""
        out: dict[str, Any] = {"name": self.name, "label": self.label, "kind": self.kind}
        if self.hint:
            out["hint"] = self.hint
        if self.choices:
            out["choices"] = list(self.choices)
            out["choice_labels"] = list(self.choice_labels or self.choices)
        if self.optional:
            out["optional"] = True
        return out


FORM: tuple[tuple[str, tuple[Field, ...]], ...] = (
    ("The game", (
        Field("target_score", "Target score", "int", "the game ends when a side reaches it"),
        Field("target_comparison", "Reaching the target", "choice",
              choices=TARGET_COMPARISONS,
              choice_labels=("the game ends once a side reaches the target",
                             "the game ends only once a side passes the target")),
        Field("hand_size", "Cards dealt to each player", "int"),
        Field("draw_count", "Cards drawn from the stock", "int"),
    )),
    ("Opening", (
        Field("initial_meld_thresholds", "Opening minimums", "thresholds",
              "the points a side's first meld needs, by the side's score"),
        Field("concealed_out_minimum_exempt_on_stock_draw",
              "Going out concealed after a draw needs no minimum", "bool"),
    )),
    ("Melds and canastas", (
        Field("max_wilds_per_meld", "Most wild cards in a meld", "int"),
        Field("wilds_must_not_exceed_naturals", "Wild cards never outnumber natural cards",
              "bool"),
        Field("natural_canasta_bonus", "Natural canasta bonus", "int"),
        Field("mixed_canasta_bonus", "Mixed canasta bonus", "int"),
        Field("hidden_canasta_bonus", "Bonus for a canasta laid at once", "int"),
    )),
    ("The discard pile", (
        Field("pile_frozen_by_wild", "A wild card discarded freezes the pile", "bool"),
        Field("pile_frozen_until_side_melds", "The pile is frozen until a side has melded",
              "bool"),
        Field("unfrozen_take_natural_plus_wild", "An unfrozen pile may be taken with a natural "
              "card and a wild card", "bool"),
        Field("unfrozen_take_by_adding_to_meld", "An unfrozen pile may be taken by adding its "
              "top card to a meld", "bool"),
        Field("one_card_pile_take_ban", "A player holding one card may not take a pile of one "
              "card", "choice", choices=ONE_CARD_PILE_TAKE_BANS,
              choice_labels=("always", "only once the stock is used up", "never")),
    )),
    ("Threes", (
        Field("black_three_freezes_pile", "A black three discarded freezes the pile", "bool"),
        Field("black_three_value", "A black three left in hand counts", "int"),
        Field("black_three_meld_sizes", "Black threes melded when going out: sizes", "sizes",
              "e.g. 3, 4"),
        Field("red_three_value", "Each red three counts", "int"),
        Field("red_threes_negative_if_no_meld", "Red threes count against a side that has "
              "not melded", "bool"),
    )),
    ("Going out", (
        Field("min_canastas_to_go_out", "Canastas needed to go out", "int"),
        Field("going_out_bonus", "Going out bonus", "int"),
        Field("concealed_going_out_bonus", "Going out concealed bonus", "int"),
        Field("going_out_requires_discard", "Going out needs a last discard", "bool"),
        Field("concealed_requires_own_canasta", "Going out concealed needs a canasta of one's "
              "own", "bool"),
        Field("permission_question_enabled", "Ask the partner \u201cmay I go out?\u201d",
              "bool"),
        Field("permission_asks_per_hand", "Questions a player may ask a hand", "int",
              "empty: no limit", optional=True),
        Field("ask_before_draw", "The partner may be asked before the draw too", "bool"),
    )),
    ("The end of the stock", (
        Field("stock_exhausted_rule", "When the stock runs out", "choice",
              choices=STOCK_EXHAUSTED_RULES,
              choice_labels=("play goes on while players can take the discard",
                             "the hand ends at once, nobody scores",
                             "the hand ends after the last card is discarded")),
        Field("stock_out_forced_take", "A player who can take the discard must", "bool"),
        Field("last_red_three_may_meld", "A red three drawn as the last card: the player may "
              "still meld (not discard)", "bool"),
    )),
)
"""The fields a person would set, in groups; the rest of RULES §6 (the pack, the seats, the
dealer, card values, ...) follows the preset."""


def field_value(rules: Rules, name: str) -> Any:
    """A form field's value under ``rules``, as JSON."""
    value = getattr(rules, name)
    if name == "initial_meld_thresholds":
        return [list(row) for row in value]
    if name == "black_three_meld_sizes":
        return list(value)
    return value


def house_rules_form() -> dict[str, Any]:
    """``{"groups": [{"title", "fields"}], "presets": {name: {field: value}}}``."""
    return {
        "groups": [{"title": title, "fields": [f.to_json() for f in fields]}
                   for title, fields in FORM],
        "presets": {name: {f.name: field_value(rules, f.name)
                           for _, fields in FORM for f in fields}
                    for name, rules in PRESETS.items()},
    }


@router.get("/house-rules", summary="The house-rules form and every preset's values")
async def get_house_rules() -> dict[str, Any]:
    """The RULES §6 fields a person would set (grouped, with labels and kinds) and each
    preset's values of them. A table with house rules is created with a rules object:
    ``{"preset": "classic", "target_score": 3000}``; an impossible combination is refused
    with the rules engine's message (422)."""
    return house_rules_form()
