"""Cards and actions as text (NOTATION §1–§2): parsing, canonical output, round trips."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from canasta import Action, Group, NotationError, format_action, format_card, parse_action
from canasta.actions import canonical, make_group, parse_action_line
from canasta.cards import JOKER, RANK_OF, parse_card, parse_cards

CARDS = st.integers(min_value=0, max_value=JOKER)


def test_cards_parse_case_insensitively_and_ten_as_t() -> None:
    assert parse_card("KH") == parse_card("kh") == parse_card("Kh")
    assert parse_card("10h") == parse_card("Th")
    assert format_card(parse_card("jk")) == "JK"
    assert format_card(parse_card("10S")) == "Ts"


@pytest.mark.parametrize("text", ["1x", "K", "Kx", "11h", "JJ", "", "3"])
def test_unknown_cards_are_notation_errors(text: str) -> None:
    with pytest.raises(NotationError):
        parse_card(text)


@given(CARDS)
def test_every_card_round_trips(card: int) -> None:
    assert parse_card(format_card(card)) == card
    assert parse_card(format_card(card).upper()) == card


def test_canonical_order_of_cards_and_groups() -> None:
    a = parse_action("meld 2s 8d 8c, Ks Kh Kd")
    assert format_action(a) == "meld Kd Kh Ks, 8c 8d 2s"
    assert format_action(parse_action("meld JK 5c 5d 2h")) == "meld 5c 5d 2h JK"
    assert format_action(parse_action("take 7d 7h, Ad Ac As")) == "take 7d 7h, Ac Ad As"
    assert format_action(parse_action("meld 3s 3c 3s, 9c 9d 9h")) == "meld 9c 9d 9h, 3c 3s 3s"


def test_rank_prefix_only_on_wild_groups() -> None:
    assert format_action(parse_action("meld 7: 2c")) == "meld 7: 2c"
    assert format_action(parse_action("meld 7:2c JK")) == "meld 7: 2c JK"
    assert format_action(parse_action("meld 7: 7c 7d 2c")) == "meld 7c 7d 2c"
    assert format_action(parse_action("meld 10: 2h")) == "meld T: 2h"


def test_a_prefix_that_contradicts_the_cards_is_a_notation_error() -> None:
    with pytest.raises(NotationError, match="prefix 8: does not match"):
        parse_action("meld 8: 7c 7d 7h")
    assert parse_action("meld 7c 8d 9h").groups[0].rank < 0  # a sequence: the engine refuses


@pytest.mark.parametrize("text", ["draw", "ask", "yes", "no", "pass", "take", "discard 9s",
                                  "take 7h 7d", "meld Kh Kd Ks", "meld 7: 2c JK"])
def test_simple_actions_round_trip(text: str) -> None:
    assert format_action(parse_action(text)) == format_action(parse_action(text.upper()))
    assert parse_action(format_action(parse_action(text))) == parse_action(text)


@pytest.mark.parametrize("text", ["fold", "draw 5c", "discard", "discard 5c 6c", "meld",
                                  "meld 5c,", "take ,", "meld 2: 2c", ""])
def test_malformed_actions_are_notation_errors(text: str) -> None:
    with pytest.raises(NotationError):
        parse_action(text)


def test_seat_prefix() -> None:
    assert parse_action_line("p2: discard 9s") == (2, parse_action("discard 9s"))
    assert parse_action_line("discard 9s") == (None, parse_action("discard 9s"))


GROUPS = st.lists(CARDS, min_size=1, max_size=8).map(lambda cs: make_group(cs))


@given(st.lists(GROUPS, min_size=1, max_size=4), st.sampled_from(["meld", "take"]))
def test_any_group_action_round_trips(groups: list[Group], verb: str) -> None:
    action = canonical(Action(verb, tuple(groups)))
    text = format_action(action)
    again = parse_action(text)
    assert format_action(again) == text
    if all(g.rank >= 0 for g in groups):
        assert again == action


@given(st.lists(CARDS, min_size=3, max_size=3))
def test_group_rank_is_the_rank_of_its_natural_cards(cards: list[int]) -> None:
    group = make_group(cards)
    naturals = {RANK_OF[c] for c in cards if c < 44}
    if len(naturals) == 1 and all(c < 44 or c >= 48 for c in cards):
        assert group.rank == naturals.pop()


def test_parse_cards_accepts_lists_and_text() -> None:
    assert parse_cards("Kh 10d jk") == parse_cards(["KH", "Td", "JK"])
    with pytest.raises(NotationError):
        parse_cards([3])  # type: ignore[list-item]
