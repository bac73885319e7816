"""The legal-action list where a going out cannot be reached through smaller listed steps.

NOTATION §5: "every legal way to play the turn can be made from listed actions". Most legal
actions are reached by a listed smaller one followed by more melds; not when the smaller step
leaves one card the player could not discard (NOTATION §2). These positions check that such
goings out are listed, and that what is listed after a "yes" keeps going out possible.
"""

from __future__ import annotations

import pytest

from canasta import IllegalActionError, apply, legal_actions, parse_action
from tests.rules_book.builders import position, presets_where
from tests.rules_book.checks import assert_illegal, listed

ONE_CANASTA = presets_where(lambda r: r.min_canastas_to_go_out == 1)


@pytest.mark.parametrize("preset", ONE_CANASTA)
def test_taking_one_card_onto_a_meld_of_six_goes_out(preset: str) -> None:
    # a one-card hand may take a one-card pile only where the rules allow it (RULES §1.12.6)
    rules = {"preset": preset, "one_card_pile_take_ban": "never"}
    state = position(preset, rules=rules, phase="draw", hands={0: "7h"}, pile="7h",
                     melds={0: {"7": "7c 7c 7d 7d 7s"}})
    assert_illegal(state, "take")  # would leave the 7h, with no canasta to discard it after
    assert "take 7h" in listed(state)
    assert apply(state, parse_action("take 7h")).result.went_out == 0  # type: ignore[union-attr]


@pytest.mark.parametrize("preset", ONE_CANASTA)
def test_taking_a_frozen_pile_with_the_wild_card_that_makes_the_canasta(preset: str) -> None:
    state = position(preset, phase="draw", hands={0: "7s 7s 2c"}, pile="7h", pile_frozen=True,
                     melds={0: {"7": "7c 7c 7d"}})
    assert_illegal(state, "take 7s 7s")  # leaves the 2c, with no canasta
    assert "take 7s 7s 2c" in listed(state)


@pytest.mark.parametrize("preset", ONE_CANASTA)
def test_an_opening_above_the_minimum_that_goes_out_is_listed(preset: str) -> None:
    # the minimal opening (six aces, 120) leaves the seventh ace, with no canasta
    state = position(preset, hands={0: "Ac Ac Ad Ad Ah Ah As"}, scores=[3000] + [0] * 5)
    whole = "meld Ac Ac Ad Ad Ah Ah As"
    assert whole in listed(state)
    assert apply(state, parse_action(whole)).is_over


@pytest.mark.parametrize("preset", ONE_CANASTA)
def test_an_opening_through_the_pile_that_goes_out_is_listed(preset: str) -> None:
    state = position(preset, phase="draw", hands={0: "Ac Ac Ad Ad Ah Ah"}, pile="As",
                     scores=[3000] + [0] * 5)
    assert "take Ac Ac Ad Ad Ah Ah" in listed(state)


def test_after_yes_the_only_way_out_is_listed() -> None:
    state = position("classic", hands={0: "Ac Ac Ad Ad Ah Ah As"}, scores=[3000, 0])
    state = apply(apply(state, parse_action("ask")), parse_action("yes"))
    assert listed(state) == ["meld Ac Ac Ad Ad Ah Ah As"]


@pytest.mark.parametrize("preset", presets_where(
    lambda r: r.permission_question_enabled and r.min_canastas_to_go_out == 1))
def test_after_yes_no_opening_that_prevents_going_out_is_listed(preset: str) -> None:
    state = position(preset, hands={0: "Kc Kc Kd Kd Kh Kh 2c Qc Qd Qh 5d"})
    state = apply(apply(state, parse_action("ask")), parse_action("yes"))
    actions = legal_actions(state)
    assert actions
    for action in actions:
        apply(state, action)  # raises if the list holds an opening the engine refuses
    assert_illegal(state, "meld Qc Qd Qh 2c")


def test_no_minimum_still_lists_no_meld_without_cards() -> None:
    from canasta import get_rules, new_hand
    from canasta.actions import Action

    rules = get_rules("classic").replace(initial_meld_thresholds=((None, 0),))
    state = apply(new_hand(rules, seed=1000), "draw")
    melds = [a for a in legal_actions(state) if a.verb == "meld"]
    assert melds and all(a.groups for a in melds)
    with pytest.raises(IllegalActionError, match="a meld lays cards"):
        apply(state, Action("meld", ()))


def test_a_card_offered_to_a_meld_of_another_rank_is_refused_in_words() -> None:
    from canasta.position import state_from_json

    state = state_from_json({
        "rules": "classic-2p", "dealer": 1, "to_move": 0, "phase": "play",
        "hands": [["7c", "9c", "9d", "Kc"], ["4h", "5c", "6d", "7s"]],
        "stock": ["7s", "Ks", "7c", "9d"], "pile": ["4c"],
        "sides": [{"score": 0, "melds": {"A": ["Ac", "Ad", "Ah"]}, "red_threes": []},
                  {"score": 0, "melds": {}, "red_threes": []}]})
    with pytest.raises(IllegalActionError, match="your side has no meld of sevens to add to, "
                       "and a new meld needs at least 2 natural cards"):
        apply(state, "meld 7c")
