"""The family protocol and its registry: the top-level calls play every preset of every family,
and a family is found by its rules, its positions, its presets and its rules' JSON."""

from __future__ import annotations

import dataclasses
import json
import random

import pytest

import canasta
from canasta.errors import IllegalActionError, PositionError, RulesError
from canasta.family import (
    FAMILY_PACKAGES,
    Family,
    families,
    family_named,
    family_of,
    preset_names,
    register_family,
)
from canasta.rules import Rules

PRESETS = sorted(canasta.PRESETS)


def test_the_shipped_families_come_first_and_the_first_is_the_default() -> None:
    names = [f.name for f in families()]
    assert names[:3] == ["classic", "modern-american", "hand-and-foot"]
    assert len(FAMILY_PACKAGES) == 3
    assert family_named("modern-american").title == "Modern American Canasta"
    with pytest.raises(RulesError, match="unknown family"):
        family_named("gin")


def test_every_preset_of_every_family_is_one_mapping() -> None:
    assert set(canasta.PRESETS) == set(preset_names())
    assert {"classic", "classic-2p", "korean-old", "modern-american"} <= set(canasta.PRESETS)
    assert canasta.get_rules("Modern-American ") is canasta.PRESETS["modern-american"]
    assert canasta.get_rules("classic-4p") is canasta.PRESETS["classic"]
    with pytest.raises(RulesError, match=r"unknown preset 'gin'.*modern-american"):
        canasta.get_rules("gin")


@pytest.mark.parametrize("preset", PRESETS)
def test_a_family_is_found_by_each_of_its_things(preset: str) -> None:
    rules = canasta.get_rules(preset)
    family = family_of(rules)
    hand = canasta.new_hand(rules, seed=2)
    assert family_of(preset) is family and family_of(hand) is family
    assert family_of(rules.to_json()) is family
    assert family_of(canasta.observe(hand, 0)) is family
    assert canasta.rules_from_json(json.loads(json.dumps(rules.to_json()))) == rules


@pytest.mark.parametrize("preset", PRESETS)
def test_the_top_level_calls_play_a_hand_of_every_preset(preset: str) -> None:
    rules = canasta.get_rules(preset)
    rng = random.Random(preset)
    hand = canasta.new_hand(rules, seed=5)
    for _ in range(60):
        if hand.is_over:
            break
        legal = canasta.legal_actions(hand)
        action = rng.choice(legal)
        text = canasta.format_action(action, rules)
        assert canasta.parse_action(text, rules) == action
        assert canasta.is_legal(hand, action)
        after = canasta.apply(hand, text)
        assert after == canasta.apply(hand, action)
        hand = after
        back = canasta.parse_position(canasta.format_position(hand))
        assert canasta.state_to_json(back) == canasta.state_to_json(hand)
        view = canasta.observe(hand, hand.to_move).to_json()
        assert view["seat"] == hand.to_move


def test_every_family_names_a_completed_meld_in_its_own_word() -> None:
    """The facts' ``canasta_name``: singular and plural, a canasta but in Hand and Foot."""
    words = {}
    for family in canasta.families():
        rules = next(iter(family.presets().values()))
        facts = family.facts(family.observe(family.new_hand(rules, 0), 0))
        name = facts["canasta_name"]
        assert isinstance(name, list) and len(name) == 2 and all(isinstance(w, str) for w in name)
        words[family.name] = name
    assert words["classic"] == words["modern-american"] == ["canasta", "canastas"]
    assert words["hand-and-foot"] == ["book", "books"]

def test_an_illegal_action_names_the_rule_and_changes_nothing() -> None:
    hand = canasta.new_hand(canasta.get_rules("modern-american"), seed=3)
    before = canasta.state_to_json(hand)
    with pytest.raises(IllegalActionError, match="illegal action 'discard 5c'"):
        canasta.apply(hand, "discard 5c")
    assert not canasta.is_legal(hand, "discard 5c") and not canasta.is_legal(hand, "blah")
    assert canasta.state_to_json(hand) == before


@pytest.mark.parametrize("preset", ["classic-2p", "modern-american"])
def test_a_game_of_any_family_is_recorded_and_replays(preset: str) -> None:
    rules = canasta.get_rules(preset)
    game = canasta.Game(rules, seed=4)
    rng = random.Random(4)
    while game.hand_number < 3 and not game.is_over:
        if game.state.is_over:
            game.next_hand()
            continue
        game.apply(rng.choice(canasta.legal_actions(game.state)))
    record = canasta.GameRecord.loads(game.record.dumps())
    replayed = list(canasta.replay(record))
    assert [h.number for h in replayed] == [1, 2, 3]
    assert replayed[-1].state == game.state and replayed[-2].scores == game.scores


def test_a_position_names_its_family_by_its_rules() -> None:
    with pytest.raises(PositionError, match="lacks 'rules'"):
        canasta.state_from_json({"dealer": 0})
    with pytest.raises(RulesError, match="unknown preset"):
        canasta.state_from_json({"rules": "gin"})


def test_a_family_must_write_its_own_rules() -> None:
    @dataclasses.dataclass(frozen=True)
    class Silent(Rules):
        """Rules that would be written as classic ones."""

    class Broken(Family):
        name = "broken"
        rules_class = Silent

        def presets(self) -> dict[str, Rules]:
            return {"broken": Silent(name="broken")}

    with pytest.raises(ValueError, match="must write its rules"):
        register_family(Broken())
    assert family_of(Silent()).name == "classic"  # a classic rule set with behaviour added

    @dataclasses.dataclass(frozen=True)
    class Unknown(Rules):
        def to_json(self) -> str:
            return "unknown"

    with pytest.raises(RulesError, match="no registered family"):
        family_of(Unknown())


def test_a_preset_belongs_to_one_family() -> None:
    class Thief(Family):
        name = "thief"

        def presets(self) -> dict[str, Rules]:
            return {"classic": canasta.get_rules("classic")}

    with pytest.raises(ValueError, match="belongs to the family 'classic'"):
        register_family(Thief())
    assert "thief" not in [f.name for f in families()]
