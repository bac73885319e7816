"""The classic fields a table may change from a preset (RULES §6), described for a form.

The rest of RULES §6 (the pack, the seats, the dealer, card values, ...) follows the preset.
"""

from __future__ import annotations

from typing import Any

from canasta.family import HouseRule
from canasta.rules import (
    ONE_CARD_PILE_TAKE_BANS,
    STOCK_EXHAUSTED_RULES,
    TARGET_COMPARISONS,
    Rules,
)


def _group(title: str, *fields: HouseRule) -> tuple[HouseRule, ...]:
    return tuple(HouseRule(f.field, f.label, f.kind, f.help, f.choices, f.low, f.high, title,
                           f.choice_labels, f.optional) for f in fields)


HOUSE_RULES: tuple[HouseRule, ...] = (
    *_group(
        "The game",
        HouseRule("target_score", "Target score", "int",
                  "the game ends when a side reaches it", low=1),
        HouseRule("target_comparison", "Reaching the target", "choice",
                  choices=TARGET_COMPARISONS,
                  choice_labels=("the game ends once a side reaches the target",
                                 "the game ends only once a side passes the target")),
        HouseRule("hand_size", "Cards dealt to each player", "int", low=1),
        HouseRule("draw_count", "Cards drawn from the stock", "int", low=1),
    ),
    *_group(
        "Opening",
        HouseRule("initial_meld_thresholds", "Opening minimums", "thresholds",
                  "the points a side's first meld needs, by the side's score"),
        HouseRule("concealed_out_minimum_exempt_on_stock_draw",
                  "Going out concealed after a draw needs no minimum", "bool"),
    ),
    *_group(
        "Melds and canastas",
        HouseRule("max_wilds_per_meld", "Most wild cards in a meld", "int", low=0),
        HouseRule("wilds_must_not_exceed_naturals", "Wild cards never outnumber natural "
                  "cards", "bool"),
        HouseRule("natural_canasta_bonus", "Natural canasta bonus", "int"),
        HouseRule("mixed_canasta_bonus", "Mixed canasta bonus", "int"),
        HouseRule("hidden_canasta_bonus", "Bonus for a canasta laid at once", "int"),
    ),
    *_group(
        "The discard pile",
        HouseRule("pile_frozen_by_wild", "A wild card discarded freezes the pile", "bool"),
        HouseRule("pile_frozen_until_side_melds", "The pile is frozen until a side has "
                  "melded", "bool"),
        HouseRule("unfrozen_take_natural_plus_wild", "An unfrozen pile may be taken with a "
                  "natural card and a wild card", "bool"),
        HouseRule("unfrozen_take_by_adding_to_meld", "An unfrozen pile may be taken by adding "
                  "its top card to a meld", "bool"),
        HouseRule("one_card_pile_take_ban", "A player holding one card may not take a pile of "
                  "one card", "choice", choices=ONE_CARD_PILE_TAKE_BANS,
                  choice_labels=("always", "only once the stock is used up", "never")),
    ),
    *_group(
        "Threes",
        HouseRule("black_three_freezes_pile", "A black three discarded freezes the pile",
                  "bool"),
        HouseRule("black_three_value", "A black three left in hand counts", "int"),
        HouseRule("black_three_meld_sizes", "Black threes melded when going out: sizes",
                  "sizes", "e.g. 3, 4"),
        HouseRule("red_three_value", "Each red three counts", "int"),
        HouseRule("red_threes_negative_if_no_meld", "Red threes count against a side that has "
                  "not melded", "bool"),
    ),
    *_group(
        "Going out",
        HouseRule("min_canastas_to_go_out", "Canastas needed to go out", "int", low=0),
        HouseRule("going_out_bonus", "Going out bonus", "int"),
        HouseRule("concealed_going_out_bonus", "Going out concealed bonus", "int"),
        HouseRule("going_out_requires_discard", "Going out needs a last discard", "bool"),
        HouseRule("concealed_requires_own_canasta", "Going out concealed needs a canasta of "
                  "one's own", "bool"),
        HouseRule("permission_question_enabled", "Ask the partner \u201cmay I go out?\u201d",
                  "bool"),
        HouseRule("permission_asks_per_hand", "Questions a player may ask a hand", "int",
                  "empty: no limit", low=0, optional=True),
        HouseRule("ask_before_draw", "The partner may be asked before the draw too", "bool"),
    ),
    *_group(
        "The end of the stock",
        HouseRule("stock_exhausted_rule", "When the stock runs out", "choice",
                  choices=STOCK_EXHAUSTED_RULES,
                  choice_labels=("play goes on while players can take the discard",
                                 "the hand ends at once, nobody scores",
                                 "the hand ends after the last card is discarded")),
        HouseRule("stock_out_forced_take", "A player who can take the discard must", "bool"),
        HouseRule("last_red_three_may_meld", "A red three drawn as the last card: the player "
                  "may still meld (not discard)", "bool"),
    ),
)
"""The fields a person would set, in groups (the lobby's form)."""


def field_value(rules: Rules, name: str) -> Any:
    """A house-rule field's value under ``rules``, as JSON."""
    value = getattr(rules, name)
    if name == "initial_meld_thresholds":
        return [list(row) for row in value]
    if name == "black_three_meld_sizes":
        return list(value)
    return value
