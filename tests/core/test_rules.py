"""Rules as data: presets, overrides, validation (RULES §6)."""

from __future__ import annotations

from pathlib import Path

import pytest

from canasta import RulesError, get_rules, rules_from_json
from canasta.rules import FIELDS, PRESETS


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_presets_round_trip_through_json(name: str) -> None:
    rules = get_rules(name)
    assert rules.to_json() == name
    assert rules_from_json(rules.to_json()) == rules


def test_overrides_by_json_and_in_python() -> None:
    rules = rules_from_json({"preset": "classic", "draw_count": 2, "upcard_cover_kinds": [],
                             "initial_meld_thresholds": [[None, 15], [0, 60]],
                             "red_three_schedule": {"4": 1000}})
    assert (rules.draw_count, rules.upcard_cover_kinds) == (2, frozenset())
    assert rules.minimum_for(100) == 60 and rules.red_three_score(4) == 1000
    assert rules_from_json(rules.to_json()) == rules
    assert get_rules("classic").replace(target_score=3000).target_score == 3000


@pytest.mark.parametrize(("change", "fragment"), [
    ({"hand_size": 0}, "hand_size"),
    ({"hand_size": 40}, "do not fit"),
    ({"draw_count": "two"}, "draw_count"),
    ({"num_sides": 3}, "equal sides"),
    ({"upcard_cover_kinds": ["wild", "joker"]}, "upcard_cover_kinds"),
    ({"stock_exhausted_rule": "shrug"}, "stock_exhausted_rule"),
    ({"target_comparison": "=="}, "target_comparison"),
    ({"initial_meld_thresholds": [[0, 50]]}, "initial_meld_thresholds"),
    ({"black_three_meld_sizes": [2]}, "black_three_meld_sizes"),
    ({"card_values": {"K": -10}}, "card_values"),
    ({"card_values": {"X": 10}}, "card_values"),
    ({"lone_hand": True}, "three-player"),
    ({"colour": "red"}, "unknown rules field"),
    ({"one_card_pile_take_ban": "sometimes"}, "one_card_pile_take_ban"),
    ({"one_card_pile_take_ban": True}, "one_card_pile_take_ban"),
    ({"stock_out_one_card_exception": "yes"}, "stock_out_one_card_exception"),
    ({"stock_out_one_card_exception": True, "one_card_pile_take_ban": "always"}, "disagree"),
    ({"last_red_three_may_meld": 1}, "last_red_three_may_meld"),
    ({"ask_before_draw": "yes"}, "ask_before_draw"),
    # JSON true is not the number 1
    ({"hand_size": True}, "hand_size"),
    ({"red_three_schedule": {"4": True}}, "red_three_schedule"),
    ({"initial_meld_thresholds": [[None, 15], [True, 90]]}, "initial_meld_thresholds"),
    ({"black_three_meld_sizes": [3, True]}, "black_three_meld_sizes"),
])
def test_bad_fields_are_clear_errors(change: dict[str, object], fragment: str) -> None:
    with pytest.raises(RulesError, match=fragment):
        rules_from_json({"preset": "classic", **change})


def test_unknown_preset_names_the_known_ones() -> None:
    with pytest.raises(RulesError, match="classic-2p"):
        get_rules("canasta-deluxe")
    assert get_rules("CLASSIC") is get_rules("classic")


def test_minimum_table_of_rules_section_1_10() -> None:
    classic = get_rules("classic")
    assert [classic.minimum_for(s) for s in (-5, 0, 1495, 1500, 2995, 3000, 9000)] == [
        15, 50, 50, 90, 90, 120, 120]
    assert get_rules("classic-6p").minimum_for(7000) == 150


def test_every_field_is_documented_in_docs_rules_md() -> None:
    text = (Path(__file__).resolve().parents[2] / "docs" / "rules.md").read_text()
    missing = [f for f in FIELDS if f != "name" and f"`{f}" not in text]
    assert not missing, f"fields missing from docs/rules.md: {missing}"


@pytest.mark.parametrize("name", PRESETS)
def test_every_rules_section_6_field_name_is_accepted_with_its_value(name: str) -> None:
    rules = get_rules(name)
    implied = {
        "deck_size": rules.deck_size,
        "side_of_seat": "seat" if rules.num_sides == rules.num_players
        else f"seat % {rules.num_sides}",
        "first_player": "non-dealer" if rules.num_players == 2 else "left of dealer",
        "allow_wild_only_melds": False, "one_meld_per_rank_per_side": True,
        "black_three_meld_only_when_going_out": True, "initial_meld_counts_pile_top_only": True,
        "black_three_blocks_pile": True,
    }
    assert rules_from_json({"preset": name, **implied}) == rules


@pytest.mark.parametrize(("change", "fragment"), [
    ({"deck_size": 110}, "follows from the other fields"),
    ({"first_player": "dealer"}, "first_player"),
    ({"one_meld_per_rank_per_side": False}, "only true is supported"),
    ({"allow_wild_only_melds": 0}, "only false is supported"),
    ({"all_red_threes_value": "lots"}, "all_red_threes_value"),
])
def test_implied_fields_with_other_values_are_clear_errors(change: dict[str, object],
                                                           fragment: str) -> None:
    with pytest.raises(RulesError, match=fragment):
        rules_from_json({"preset": "classic", **change})


def test_all_red_threes_value_and_a_partial_card_value_table() -> None:
    rules = rules_from_json({"preset": "classic", "all_red_threes_value": 1000,
                             "card_values": {"JK": 60}})
    assert dict(rules.red_three_schedule)[4] == 1000
    assert dict(rules.card_values)["JK"] == 60
    assert dict(rules.card_values)["A"] == 20  # the rest of the table is the preset's
    six = rules_from_json({"preset": "classic-6p", "all_red_threes_value": 1500})
    assert dict(six.red_three_schedule) == {5: 1000, 6: 1500}  # all six red threes of 3 packs
    assert rules_from_json({"preset": "classic", "deck_size": 162, "num_decks": 3,
                            "num_jokers": 6}).deck_size == 162


# RULES §6, the rows of the three fields where the published sources disagree (§8.2)
NEW_FIELDS_BY_PRESET = {
    # preset: (one_card_pile_take_ban, last_red_three_may_meld, ask_before_draw)
    "classic": ("always", False, False),
    "classic-2p": ("always", False, False),
    "classic-3p": ("always", False, False),
    "classic-3p-cutthroat": ("always", False, False),
    "classic-6p": ("always", False, False),
    "classic-6p-3x2": ("always", False, False),
    "korean-old": ("never", False, False),
    "spruce-classic": ("always", False, False),
}


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_presets_follow_rules_section_6_where_sources_disagree(name: str) -> None:
    r = get_rules(name)
    assert (r.one_card_pile_take_ban, r.last_red_three_may_meld,
            r.ask_before_draw) == NEW_FIELDS_BY_PRESET[name]


@pytest.mark.parametrize(("old", "ban"), [(True, "stock_out"), (False, "never")])
def test_the_older_one_card_boolean_is_read_as_the_new_field(old: bool, ban: str) -> None:
    rules = rules_from_json({"preset": "classic", "stock_out_one_card_exception": old})
    assert rules.one_card_pile_take_ban == ban
    assert rules.to_json() == {"preset": "classic", "one_card_pile_take_ban": ban}
    assert get_rules("classic").replace(stock_out_one_card_exception=old) == rules
    same = rules_from_json({"preset": "classic", "stock_out_one_card_exception": old,
                            "one_card_pile_take_ban": ban})
    assert same == rules


@pytest.mark.parametrize("name", ["classic-2p", "classic-3p", "classic-3p-cutthroat"])
def test_asking_before_the_draw_needs_a_partner(name: str) -> None:
    with pytest.raises(RulesError, match="no partner to ask"):
        rules_from_json({"preset": name, "ask_before_draw": True})


def test_cache_keys_follow_every_field_and_not_the_name() -> None:
    from canasta.rules import FIELDS, PRESETS

    classic = PRESETS["classic"]
    assert classic.replace(name="house").opening_id == classic.opening_id
    for name in FIELDS:  # any field changed gives other cached lists
        if name == "name":
            continue
        other = next((r for r in PRESETS.values() if getattr(r, name) != getattr(classic, name)),
                     None)
        try:
            changed = classic.replace(**{name: getattr(other, name)}) if other else None
        except RulesError:
            continue  # a field that needs another changed with it
        if changed is not None:
            assert changed.opening_id != classic.opening_id, name
            assert changed.meld_shape != classic.meld_shape, name
