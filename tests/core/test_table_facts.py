"""The facts of the table (canasta.table): why the pile is frozen, and by which card, in the
engine's refusals, a seat's observation and the state alike."""

from __future__ import annotations

import pytest

from canasta import IllegalActionError, apply, get_rules, observe
from canasta.cards import parse_card
from canasta.position import state_from_json
from canasta.table import freeze_for, freezing_card


def _position(rules: object, pile: list[str], frozen: bool) -> dict[str, object]:
    return {"rules": rules, "dealer": 1, "to_move": 0, "phase": "draw",
            "hands": [["8h", "9c", "9d", "Kc", "Ks"], ["4h", "5c", "6d", "7s", "Td"]],
            "stock": ["7s", "Ks", "7c", "9d"], "pile": pile,
            "sides": [{"score": 0, "melds": {"Q": ["Qc", "Qd", "Qh"]}, "red_threes": []},
                      {"score": 0, "melds": {}, "red_threes": []}],
            "pile_frozen": frozen}


BLACK_THREE_FREEZES = {"preset": "classic-2p", "black_three_freezes_pile": True}


def test_a_pile_frozen_by_a_black_three_says_so() -> None:
    state = state_from_json(_position(BLACK_THREE_FREEZES, ["4c", "3s", "6h", "8d"], True))
    with pytest.raises(IllegalActionError, match=r"pile is frozen \(a black three is in it\)"):
        apply(state, "take 8h")
    freeze = observe(state, 0).freeze
    assert freeze.frozen and freeze.card == parse_card("3s")
    assert freeze.reason == "a black three is in it"


def test_a_pile_frozen_by_a_wild_card_names_the_lowest_one() -> None:
    state = state_from_json(_position("classic-2p", ["4c", "2d", "6h", "JK", "8d"], True))
    with pytest.raises(IllegalActionError, match=r"pile is frozen \(a wild card is in it\)"):
        apply(state, "take 8h")
    assert state.freeze_for(0) == observe(state, 0).freeze
    assert observe(state, 1).freeze.card == parse_card("2d")


def test_a_red_three_turned_up_freezes_the_pile_by_name() -> None:
    state = state_from_json(_position("classic-2p", ["3h", "6h", "8d"], True))
    assert state.freeze_for(1).reason == "a red three is in it"
    assert state.freeze_for(1).card == parse_card("3h")


def test_a_side_that_has_not_melded_finds_the_pile_frozen_for_it_alone() -> None:
    state = state_from_json(_position("classic-2p", ["4c", "6h", "8d"], False))
    assert not state.freeze_for(0).frozen
    assert state.freeze_for(1).reason == "your side has not melded"
    assert state.freeze_for(1).card is None


def test_a_black_three_in_the_pile_freezes_nothing_by_default() -> None:
    rules = get_rules("classic")
    pile = tuple(parse_card(c) for c in ("4c", "3s", "6h"))
    assert freezing_card(rules, pile) is None
    assert not freeze_for(rules, pile, False, side_melded=True).frozen


def test_the_bots_read_a_black_three_freeze_from_the_table_facts() -> None:
    from canasta.bots.view import View

    state = state_from_json(_position(BLACK_THREE_FREEZES, ["4c", "3s", "6h", "8d"], True))
    view = View(observe(state, 0))
    assert view.frozen_for(0) and view.frozen_for(1)
    # the pile was frozen from the black three up: every card above it was passed frozen
    story = {card: frozen for card, _, frozen in view.pile_story()}
    assert story[parse_card("8d")] and story[parse_card("6h")]


def test_the_terminal_names_the_black_three_that_froze_the_pile() -> None:
    from canasta.family import family_of
    from canasta.interfaces.terminal.render import pile_text

    state = state_from_json(_position(BLACK_THREE_FREEZES, ["4c", "3s", "6h", "8d"], True))
    assert "frozen by 3♠" in pile_text(family_of(state).facts(observe(state, 0))).plain
