"""What a club player expects of the heuristic and the search, on constructed positions: a
defensive freeze of a big open pile, a dead card shed as safe, melding against a short hand,
a wild card rather than the card that finishes the next side's canasta, an opening that spends
a wild card held back beside a small pile, both pairs kept and the lone card thrown beside a big
frozen pile, and a search whose candidates always hold the freeze,
the block and the safest discard (and, under threat, laying down everything).
Each test also plays the position with the behaviour switched off (or with the frozen
``heuristic-v2``), so it fails if the behaviour goes."""

from __future__ import annotations

import dataclasses
import random

import pytest

from canasta import legal_actions, observe
from canasta.actions import Action, format_action, parse_action
from canasta.bots import make_bot
from canasta.bots.discards import discard_setting, next_take_odds
from canasta.bots.heuristic import HeuristicBot, alternatives, decide, defences, reason_for
from canasta.bots.moves import Moves
from canasta.bots.view import (
    DISCARD_PAIR_LOGIT,
    FIT_PILE,
    TAKE_ODDS_FROZEN,
    TAKE_ODDS_OPEN,
    TakeOddsFit,
    View,
    _refit,
    p_at_least,
    refit_take_odds,
)
from canasta.bots.weights import PRESET_WEIGHTS, HeuristicWeights
from canasta.bots.words import a_size
from canasta.cards import IS_BLACK_THREE, IS_WILD, parse_card
from canasta.state import State

from .helpers import position

STOCK = ["5s", "6s", "7s", "8s", "6h", "8h", "5c", "7c"]
OPEN_PILE = ["5d", "5c", "9c", "Jd", "7c", "8d", "Jc", "9d", "8c", "Td", "4c", "6d", "Tc",
             "Qd", "Kc", "4h", "6h", "Qc", "4d", "6c", "Ac", "7h", "8h", "Kd"]
"""A 24-card pile with no wild card and no black three: open to whoever holds a natural card
and a wild card of the top rank."""


def _choice(state: State, spec: str) -> tuple[Action, str]:
    legal = legal_actions(state)
    action, why = make_bot(spec).explain(  # type: ignore[attr-defined]
        observe(state, state.to_move), legal, random.Random(0))
    assert action in legal and why
    return action, why


def _freeze_position() -> State:
    # the opponents have opened (aces), we have not; the 25-card pile with our discard is
    # open to the next player
    return position(stock=STOCK, pile=OPEN_PILE,
                    hands=[["JK", "Th", "9h", "7d", "5h", "Qh", "Js"], 8, 8, 8],
                    sides=[{"score": 0}, {"score": 0, "melds": {"A": ["Ad", "As", "As"]}}])


def test_freezes_a_big_pile_open_to_an_opponent_who_has_opened() -> None:
    state = _freeze_position()
    action, why = _choice(state, "heuristic")
    assert action.verb == "discard" and IS_WILD[action.card], why
    assert why.startswith("discard JK: freeze: a 25-card pile is open to the next player")
    assert "whose side has opened" in why
    for spec in ("heuristic:defend_min_pile=0", "heuristic-v2"):
        old, _ = _choice(state, spec)
        assert not IS_WILD[old.card]  # without the defence: a lone natural card goes


def test_a_twelve_card_pile_open_to_an_opponent_who_has_opened_is_frozen_too() -> None:
    # the same seat with a two beside 11 cards: its safest natural card still likely hands the
    # next player the pile, and the pile is big enough (defend_min_pile) for the two to freeze it
    state = position(stock=STOCK, pile=OPEN_PILE[-11:],
                     hands=[["2c", "Th", "9h", "7d", "5h", "Qh", "Js"], 8, 8, 8],
                     sides=[{"score": 0}, {"score": 0, "melds": {"A": ["Ad", "As", "As"]}}])
    pile = len(state.pile) + 1
    assert HeuristicWeights().defend_min_pile <= pile
    action, why = _choice(state, "heuristic")
    assert format_action(action) == "discard 2c", why
    assert why.startswith(f"discard 2c: freeze: a {pile}-card pile is open to the next player")
    for spec in (f"heuristic:defend_min_pile={pile + 1}", "heuristic-v2"):
        assert not IS_WILD[_choice(state, spec)[0].card]


def test_a_small_open_pile_is_not_worth_a_wild_card() -> None:
    state = position(stock=STOCK, pile=OPEN_PILE[-5:],
                     hands=[["JK", "Th", "9h", "7d", "5h", "Qh", "Js"], 8, 8, 8],
                     sides=[{"score": 0}, {"score": 0, "melds": {"A": ["Ad", "As", "As"]}}])
    action, _ = _choice(state, "heuristic")
    assert not IS_WILD[action.card]


def test_a_dead_rank_is_shed_as_safe() -> None:
    # seven jacks are on the table: nobody can hold a pair, so the jack is the card to throw
    state = position(
        stock=STOCK, pile=["4c", "2h", "Kh", "9c", "Td", "Qc", "8d", "7c"],
        hands=[["9d", "Jh", "Qh", "Qs", "5h", "5s"], 8, 8, 8],
        sides=[{"score": 0, "melds": {"K": ["Kc", "Kd", "Ks"]}},
               {"score": 0, "melds": {"J": ["Jc", "Jc", "Jd", "Jd", "Js", "Js", "Jh"]}}])
    action, why = _choice(state, "heuristic")
    assert format_action(action) == "discard Jh"
    assert "every other jack is in sight" in why
    assert "in sight" not in _choice(state, "heuristic-v2")[1]


def test_lays_off_from_a_big_hand_when_an_opponent_is_down_to_three_cards() -> None:
    # both sides have melded; we hold 17 cards, and the next opponent three: it could go out
    # within a few turns, and what we hold would count against us
    state = position(
        stock=STOCK, pile=["4c", "9c", "Td"],
        hands=[["Kh", "4d", "5d", "6h", "7h", "8d", "9h", "Th", "Jh", "Qs", "Ah", "4h", "5h",
                "6d", "7d", "8h", "9d"], 3, 9, 9],
        sides=[{"score": 0, "melds": {"K": ["Kc", "Kd", "Ks", "Kd"]}},
               {"score": 0, "melds": {"A": ["Ac", "Ad", "As"], "Q": ["Qc", "Qd", "Qh"]}}])
    action, why = _choice(state, "heuristic")
    assert action.verb == "meld", why
    for spec in ("heuristic:short_threat=0", "heuristic:meld_load=0", "heuristic-v2"):
        assert _choice(state, spec)[0].verb == "discard"


def _defence_position(their_aces: list[str]) -> State:
    return position(stock=STOCK, pile=OPEN_PILE,
                    hands=[["2c", "3s", "Th", "9h", "Kh", "5h", "Qh", "Js"], 8, 8, 8],
                    sides=[{"score": 0, "melds": {"K": ["Kc", "Kd", "Ks"]}},
                           {"score": 0, "melds": {"A": their_aces}}])


def test_the_search_always_weighs_a_freeze_a_block_and_the_safest_card() -> None:
    # the heuristic here would not freeze (the defence is off), and a margin of zero leaves it
    # no alternative of its own: the defences are offered all the same; the opponents hold a
    # canasta and eight cards each, so laying everything down is weighed too
    w = HeuristicWeights(defend_min_pile=0)
    state = _defence_position(["Ad", "Ad", "As", "As", "Ah", "Ah", "Ac"])
    obs = observe(state, 0)
    legal = legal_actions(state)
    offered = alternatives(obs, legal, w, width=2, margin=0.0)
    assert any(a.verb == "discard" and IS_WILD[a.card] for a in offered)  # the freeze
    assert any(a.verb == "discard" and IS_BLACK_THREE[a.card] for a in offered)  # the block
    assert any(a.verb == "meld" for a in offered)  # laying the king down
    special = defences(View(obs), Moves(legal), w)
    assert set(special) <= set(offered) and len(special) == 4
    safest = special[-1]
    assert safest.verb == "discard" and not IS_WILD[safest.card]


def test_laying_everything_down_is_weighed_only_under_threat() -> None:
    # no opposing canasta and a stock of eight turns: the search's play-outs, which count held
    # cards against the side, would lay the king down for nothing
    w = HeuristicWeights(defend_min_pile=0)
    state = _defence_position(["Ad", "As", "As"])
    obs = observe(state, 0)
    legal = legal_actions(state)
    assert not any(a.verb == "meld" for a in defences(View(obs), Moves(legal), w))
    always = dataclasses.replace(w, offer_dump_threat=0.0)
    assert any(a.verb == "meld" for a in defences(View(obs), Moves(legal), always))
    assert [a.verb for a in defences(View(obs), Moves(legal), w)] == ["discard"] * 3


def test_a_wild_card_is_weighed_only_against_a_big_pile() -> None:
    # a six-card pile: the search's play-outs, blind to a wild card's worth beyond their
    # horizon, would throw the two for little
    state = position(stock=STOCK, pile=OPEN_PILE[-5:],
                     hands=[["2c", "3s", "Th", "9h", "Kh", "5h", "Qh", "Js"], 8, 8, 8],
                     sides=[{"score": 0, "melds": {"K": ["Kc", "Kd", "Ks"]}},
                            {"score": 0, "melds": {"A": ["Ad", "As", "As"]}}])
    view, moves = View(observe(state, 0)), Moves(legal_actions(state))
    assert not any(IS_WILD[a.card] for a in defences(view, moves))
    anywhere = HeuristicWeights(offer_freeze_pile=0)
    assert any(IS_WILD[a.card] for a in defences(view, moves, anywhere))


def test_a_joker_blocks_a_big_pile_that_is_frozen_already() -> None:
    # a 31-card pile frozen by a two, the next side has opened; we hold a joker and three
    # pairs: from joker_block_min_pile cards the joker stops the next player for a turn
    # rather than break a pair, though whoever takes the pile later gets it
    pile = [*OPEN_PILE[:10], "2c", *OPEN_PILE[10:], "5h", "9s", "Js", "7s", "8s", "Ts"]
    state = position(stock=STOCK[:6], pile=pile,
                     hands=[["JK", "Th", "Tc", "9h", "9d", "7d", "7h"], 8, 8, 8],
                     sides=[{"score": 0, "melds": {"K": ["Kc", "Ks", "Ks"]}},
                            {"score": 0, "melds": {"A": ["Ad", "As", "As"]}}])
    assert state.pile_frozen
    with_discard = len(pile) + 1
    assert 0 < HeuristicWeights().joker_block_min_pile <= with_discard
    for spec in ("heuristic", "heuristic-v2"):
        action, why = _choice(state, spec)
        assert action.card == parse_card("JK"), why
    assert "block" in _choice(state, "heuristic")[1]
    for never in (0, with_discard + 1):
        action, why = _choice(state, f"heuristic:joker_block_min_pile={never}")
        assert action.verb == "discard" and not IS_WILD[action.card], why


def test_in_korean_old_a_two_blocks_a_smaller_frozen_pile() -> None:
    # a 15-card pile frozen by a two; we have not opened and hold a two and three pairs. In
    # korean-old the two blocks the next player for a turn from a smaller pile than in classic
    # (PRESET_WEIGHTS); in classic, and with the default threshold, a pair is broken instead
    pile = [*OPEN_PILE[:3], "2c", *OPEN_PILE[3:14]]
    with_discard = len(pile) + 1
    assert PRESET_WEIGHTS["korean-old"].block_min_pile <= with_discard
    assert with_discard < HeuristicWeights().block_min_pile

    def fight(rules: str) -> State:
        return position(rules=rules, stock=STOCK, pile=pile,
                        hands=[["2h", "Th", "Tc", "9h", "9d", "7d", "7h"], 8, 8, 8],
                        sides=[{"score": 0, "melds": {}},
                               {"score": 0, "melds": {"A": ["Ad", "As", "As"]}}])

    korean = fight("korean-old")
    assert korean.pile_frozen
    action, why = _choice(korean, "heuristic")
    assert action.card == parse_card("2h") and "block" in why, why
    default = HeuristicWeights().block_min_pile
    for state, spec in ((korean, f"heuristic:block_min_pile={default}"),
                        (fight("classic"), "heuristic")):
        action, why = _choice(state, spec)
        assert action.verb == "discard" and not IS_WILD[action.card], why


def test_a_joker_blocks_a_frozen_pile_when_every_natural_card_gives_it() -> None:
    # the same fight, but the next player is known to hold (from a pile it took) a pair of
    # each of our ranks: without the joker the pile goes now
    pile = [*OPEN_PILE[:10], "2c", *OPEN_PILE[10:], "5h", "9s", "Js", "7s", "8s", "Ts"]
    held = ["Td", "Ts", "9c", "9s", "7c", "7d"]
    state = position(stock=STOCK[:6], pile=pile, known=[[], held, [], []],
                     hands=[["JK", "Th", "Tc", "9h", "9d", "7d", "7h"], [*held, "Ah", "Ah"], 8, 8],
                     sides=[{"score": 0, "melds": {"K": ["Kc", "Ks", "Ks"]}},
                            {"score": 0, "melds": {"A": ["Ad", "As", "As"]}}])
    action, why = _choice(state, "heuristic")
    assert action.card == parse_card("JK"), why
    assert "block" in why
    assert not IS_WILD[_choice(state, "heuristic:joker_block_odds=0,joker_block_min_pile=0")[0]
                       .card]


def test_a_natural_and_a_two_take_a_three_card_pile() -> None:
    # a small open pile taken now cannot grow into a big feed for the next side
    state = position(stock=STOCK, pile=["4c", "Td", "9d"], phase="draw",
                     hands=[["9h", "2c", "Kh", "Qh", "5h", "6d", "Jh", "Js"], 8, 8, 8],
                     sides=[{"score": 0, "melds": {"K": ["Kc", "Kd", "Ks"]}},
                            {"score": 0, "melds": {"A": ["Ad", "As", "As"]}}])
    action, why = _choice(state, "heuristic")
    assert format_action(action) == "take 9h 2c", why
    for spec in ("heuristic:take_per_card=25", "heuristic-v2"):
        assert _choice(state, spec)[0].verb == "draw"


def test_a_wild_card_the_heuristic_keeps_is_explained_by_what_it_does_to_the_pile() -> None:
    # the search may throw a wild card the heuristic would keep: its hint names the freeze or
    # the block, not "no other card to discard" beside six natural cards
    naturals = ["Th", "9h", "7d", "5h", "Qh", "Js"]
    sides = [{"score": 0}, {"score": 0, "melds": {"A": ["Ad", "As", "As"]}}]
    for wild, pile, words in (
            ("JK", OPEN_PILE[-5:], "the wild card freezes the 6-card pile"),
            ("2d", ["5d", "2c", "9c", "Jd", "7c"],
             "the wild card blocks the next player for a turn")):
        state = position(stock=STOCK, pile=pile, hands=[[wild, *naturals], 8, 8, 8], sides=sides)
        obs, legal = observe(state, 0), legal_actions(state)
        thrown = parse_action(f"discard {wild}")
        assert decide(obs, legal)[0] != thrown
        assert reason_for(obs, legal, thrown) == f"discard {wild}: {words}"
    # with nothing but wild cards in hand, there is no other card
    joker = parse_action("discard JK")
    state = position(stock=STOCK, pile=OPEN_PILE[-5:], hands=[["JK", "2c"], 8, 8, 8],
                     sides=sides)
    why = reason_for(observe(state, 0), legal_actions(state), joker)
    assert why.startswith("discard JK: no other card to discard"), why


def test_an_eighteen_card_pile_is_frozen_in_words_a_player_reads() -> None:
    state = position(stock=STOCK, pile=OPEN_PILE[-17:],
                     hands=[["2d", "Th", "9h", "7d", "5h", "Qh", "Js"], 8, 8, 8],
                     sides=[{"score": 0}, {"score": 0, "melds": {"A": ["Ad", "As", "As"]}}])
    action, why = _choice(state, "heuristic")
    assert action.card == parse_card("2d"), why
    assert why.startswith("discard 2d: freeze: an 18-card pile is open to the next player")


def test_the_odds_of_a_pair_are_those_of_counting_alone() -> None:
    # with nothing shown about a rank, the next player's pair is as likely as counting says
    # (the old enrichment overstated pairs on frozen piles about 1.8 times against heuristic-v2)
    state = position(stock=STOCK, pile=OPEN_PILE[-10:],
                     hands=[["2d", "Th", "9h", "7d", "5h", "Qh", "Js"], 8, 8, 8],
                     sides=[{"score": 0}, {"score": 0, "melds": {"A": ["Ad", "As", "As"]}}])
    view = View(observe(state, 0))
    rank = parse_card("Th") >> 2
    counted = p_at_least(view.unseen()[rank], view.slot_share(1), 2)
    assert 0.0 < counted < 1.0
    assert view.p_holds(1, rank, 2) == pytest.approx(counted)


PAIR_FIGHT_PILE = ["2c", "Qs", "2h", "9s", "5h", "Js", "Qd", "Ac", "2s", "6d", "Ah", "Ad", "5c",
                   "9s", "Qd", "2d", "Ac", "5d", "9h", "6d", "6s", "Jh", "5s", "Qc", "6c", "9d",
                   "6c", "Ts", "Jc", "5d"]
"""A 30-card pile frozen by a two; the next player (seat 1) threw the ten third from the top."""


def test_a_pair_is_kept_against_a_player_who_discards_from_three_of_a_kind() -> None:
    # the next player just threw a ten, yet holds two more: players discard from three of a
    # kind, so a discarded rank is no safer than counting says where few copies are in sight.
    # The pair of tens stays and the lone jack goes.
    state = position(stock=["Qh", "9d", "6s", "2d", "As", "5c", "Qc", "6h", "9c", "5h", "9h",
                            "Qs", "2s", "2h", "8s", "7s", "3s", "Kc"],
                     pile=PAIR_FIGHT_PILE,
                     hands=[["4c", "4c", "7d", "8c", "8h", "Tc", "Td", "Jd", "Kh", "Kh", "Ks",
                             "Ks"], ["Th", "Th", "Qh", "5s", "6h", "9c", "Ad", "As", "Ah", "3c"],
                            9, 8])
    assert state.pile_frozen
    action, why = _choice(state, "heuristic")
    assert format_action(action) == "discard Jd", why
    view = View(observe(state, 0))
    ten = parse_card("Th") >> 2
    counted = p_at_least(view.unseen()[ten], view.slot_share(1), 2)
    assert view.p_holds(1, ten, 2) > counted  # five tens unseen: the discard says "more"
    assert format_action(_choice(state, "heuristic-v2")[0]) in ("discard Tc", "discard Td")


def test_a_wild_card_freezes_a_small_pile_rather_than_finish_their_canasta() -> None:
    # late in the hand, a one-card pile: our six would make the next side's sixes a canasta
    # (300 points to them, more than any pile of this size), so the two freezes the pile
    state = position(stock=STOCK[:3], pile=["9c"],
                     hands=[["2d", "6h"], 3, 4, 5],
                     sides=[{"score": 0, "melds": {"K": ["Kc", "Kd", "Ks"]}},
                            {"score": 0, "melds": {"6": ["6c", "6c", "6d", "6d", "6s", "2h"],
                                                   "A": ["Ad", "As", "As"]}}])
    action, why = _choice(state, "heuristic")
    assert action.card == parse_card("2d"), why
    assert "canasta of the next player's side" in why
    for spec in ("heuristic:canasta_gift=0", "heuristic-v2"):
        assert _choice(state, spec)[0].card == parse_card("6h")


def _lay_off_position(rules: str, players: int, stock_cards: int = 32) -> State:
    # our side has melded kings; the hand holds a fourth king and lone cards, the opponents
    # hold eleven cards and no canasta, the stock is long: nothing threatens the hand
    stock = [f"{r}{s}" for r in "56789TJQ" for s in "cdhs"][:stock_cards]
    hand = ["Kh", "4d", "6h", "8d", "Th", "Qs", "Ah", "Jc"]
    sides = [{"score": 0, "melds": {"K": ["Kc", "Kd", "Ks"]}},
             {"score": 0, "melds": {"A": ["Ac", "Ad", "As"]}}]
    return position(rules=rules, dealer=players - 1, stock=stock, pile=["4c", "9c"],
                    hands=[hand, *[11] * (players - 1)], sides=sides)


def test_between_two_players_a_card_that_fits_a_meld_goes_down_at_once() -> None:
    # two players play weights of their own (heuristic.PRESET_WEIGHTS): a small pile is worth
    # little more than a stock card there, so a card is laid off rather than kept for it;
    # four players hold it, and so does the heuristic with the four-player weights
    two = _lay_off_position("classic-2p", 2)
    action, why = _choice(two, "heuristic")
    assert action.verb == "meld" and [g.rank for g in action.groups] == [9], why
    assert _choice(_lay_off_position("classic", 4), "heuristic")[0].verb == "discard"
    bot = HeuristicBot(HeuristicWeights())  # the same weights on every preset
    assert bot.choose(observe(two, 0), legal_actions(two), random.Random(0)).verb == "discard"


def test_korean_old_lays_off_sooner_before_the_stock_voids_the_hand() -> None:
    # sixteen cards are eight draws of two: two rounds of four players. The stock's end voids
    # a korean-old hand, and its weights fear it from two and a half rounds out: the king goes
    # down. From two rounds out, as in classic, the stock is no threat yet and the king is
    # kept off the table (thrown: it is the safe card)
    state = _lay_off_position("korean-old", 4, stock_cards=16)
    view = View(observe(state, 0))
    assert view.stock_threat(2.0) == 0.0
    assert view.stock_threat(2.5) == pytest.approx(0.2)
    action, why = _choice(state, "heuristic")
    assert action.verb == "meld" and [g.rank for g in action.groups] == [9], why
    assert _choice(state, "heuristic:stock_rounds=2")[0].verb == "discard"
    assert _choice(_lay_off_position("korean-old", 4), "heuristic")[0].verb == "discard"


def _two_card_pile(stock: list[str]) -> State:
    # a black three under an eight that fits our meld of eights
    return position(stock=stock, pile=["3c", "8h"], phase="draw",
                    hands=[["Kh", "Qh", "5h", "6d", "Jh", "Js", "9c"], 8, 8, 8],
                    sides=[{"score": 0, "melds": {"8": ["8c", "8d", "8s"]}},
                           {"score": 0, "melds": {"A": ["Ad", "As", "As"]}}])


def test_a_two_card_pile_is_left_for_the_stock() -> None:
    state = _two_card_pile(STOCK)
    action, why = _choice(state, "heuristic")
    assert action.verb == "draw", why
    assert why == "draw: a two-card pile is worth less than a card from the stock"
    assert _choice(state, "heuristic:leave_pile=0")[0].verb == "take"  # the pile's card laid off
    assert _choice(state, "heuristic-v2")[0].verb == "take"


def test_a_small_pile_is_taken_when_the_stock_is_out() -> None:
    forced = _two_card_pile([])  # the eight fits our meld: a take the rules force
    assert [a.verb for a in legal_actions(forced)] == ["take"]
    # a pair of nines takes a black three under a nine, or the hand ends (RULES §1.16)
    free = position(stock=[], pile=["3c", "9h"], phase="draw",
                    hands=[["Kh", "Qh", "5h", "9d", "9c", "Js", "7c"], 8, 8, 8],
                    sides=[{"score": 0, "melds": {"8": ["8c", "8d", "8s"]}},
                           {"score": 0, "melds": {"A": ["Ad", "As", "As"]}}])
    assert {a.verb for a in legal_actions(free)} == {"take", "pass"}
    for state in (forced, free):
        action, why = _choice(state, "heuristic")
        assert action.verb == "take", why


def test_cutthroat_leaves_a_small_first_pile_because_its_taker_plays_alone() -> None:
    # nobody has taken the pile yet: its first taker becomes the lone hand (RULES §2.2); three
    # aces would meet the minimum of 50
    state = position(rules="classic-3p-cutthroat", dealer=2, stock=STOCK, phase="draw",
                     pile=["3c", "4d", "9h", "Td", "5c", "Ah"],
                     hands=[["Ac", "Ad", "Kh", "Qh", "5h", "6d", "Jh", "Js", "7c", "4s", "6s",
                             "9c", "Tc"], 13, 13],
                     sides=[{"score": 0}, {"score": 0}, {"score": 0}])
    action, why = _choice(state, "heuristic")
    assert action.verb == "draw", why
    assert why.startswith("draw: the first to take the pile plays alone against two")
    assert _choice(state, "heuristic:leave_pile=0")[0].verb == "take"


def _dead_pair_position(pile: list[str]) -> State:
    # neither side has opened; the other six fives lie in the pile, so our pair of fives is the
    # only safe discard, and with two twos it is also our opening (50 points)
    return position(stock=["8s", "6c", "7h", "Ks"], pile=pile,
                    hands=[["5c", "5s", "2c", "2d", "8h", "7d", "9h", "Kh"], 8, 8, 8])


DEAD_FIVES_PILE = ["Jh", "Jd", "5d", "Qh", "Ts", "Jc", "5h", "4c", "6d", "5d", "Tc", "Qd",
                   "5c", "4h", "6h", "Qc", "5h", "4d", "5s", "Td"]
"""Six fives and no seven, eight, nine or king: our lone cards of those ranks are risky."""


def test_a_meld_waits_while_its_cards_are_the_safe_discards_of_a_big_pile() -> None:
    state = _dead_pair_position(DEAD_FIVES_PILE)
    action, why = _choice(state, "heuristic")
    assert format_action(action) in ("discard 5c", "discard 5s"), why
    assert why.endswith("no meld yet: it would leave only risky cards to throw")
    for spec in ("heuristic:meld_discard_margin=0", "heuristic-v2"):
        old, _ = _choice(state, spec)
        assert format_action(old) == "meld 5c 5s 2c 2d"  # opens, then throws a risky card


def test_the_same_meld_goes_down_beside_a_small_pile() -> None:
    # four cards in the pile: what the next player may take is not worth holding the opening
    state = _dead_pair_position(DEAD_FIVES_PILE[-4:])
    assert _choice(state, "heuristic")[0].verb == "meld"


def _frozen_fight_position() -> State:
    # classic, from a game of the expert against the heuristic: Paula (seat 3, her side has not
    # opened) faces a 41-card pile frozen by twos; Gus (seat 0, next) threw 8c on each of his
    # last two turns, from four eights, and kept 8h 8s for the pile. No ten is in his hand.
    return position(
        dealer=0, to_move=3,
        stock=["5h", "5h", "5d", "Tc", "Td", "6s", "Qc", "Qd", "8s", "4d", "Ad", "Ts", "4h", "7s",
               "Kc", "5c", "As", "Kc"],
        pile=["2c", "2s", "4h", "Qh", "7c", "3s", "3c", "3c", "4s", "9c", "4d", "9d", "3s", "9d",
              "4s", "9h", "7d", "9h", "7h", "2c", "7h", "2d", "7s", "7d", "Ad", "7c", "2d", "Tc",
              "Th", "9s", "2h", "Td", "8d", "2h", "8c", "9s", "8h", "9c", "8c", "Th", "6c"],
        hands=[["6d", "8h", "8s", "Jh", "Qc", "Qs", "Kd", "Kh", "Ac", "Ah", "JK"],
               ["5s", "6c", "6h", "Jc", "Js", "Qs", "Kh", "Ks", "As", "2s", "JK"],
               ["5s", "6d", "6s", "Jc", "Js", "Kd", "Ah", "JK"],
               ["5c", "5d", "6h", "8d", "Ts", "Jd", "Jd", "Jh", "Qd", "Qh", "Ks", "Ac"]],
        sides=[{"score": 1470, "melds": {"4": ["4c", "4c", "JK"]},
                "red_threes": ["3d", "3d", "3h"]},
               {"score": 3280, "red_threes": ["3h"]}])


def test_a_rank_thrown_into_a_frozen_fight_is_read_as_a_pair_kept() -> None:
    # on a pile frozen for them players throw from three or four of a kind and keep the pair
    # for the pile: the discards read against the real hands say so (DISCARD_FROZEN_PAIR_LOGIT),
    # so the lone eight is the dangerous card and the lone ten goes
    state = _frozen_fight_position()
    assert state.pile_frozen
    view = View(observe(state, 3))
    eight = parse_card("8c") >> 2
    counted = p_at_least(view.unseen()[eight], view.slot_share(0), 2)
    open_read = _refit(DISCARD_PAIR_LOGIT, counted, view.unseen()[eight])
    assert view.p_holds(0, eight, 2) > 2 * open_read  # read as on an open pile: half as likely
    action, why = _choice(state, "heuristic")
    assert format_action(action) == "discard Ts", why
    # the hint says why the eight, as lone a card as the ten, stays
    assert why.endswith("; not the 8d: the next player threw eights onto the frozen pile and "
                        "may keep a pair")
    assert format_action(_choice(state, "heuristic-v2")[0]) == "discard 8d"


def _their_queens() -> State:
    # a 16-card pile frozen by a two; the next side melded queens, three jacks lie in the pile
    pile = ["5d", "5c", "4d", "2c", "Jd", "8s", "8d", "Jc", "6h", "8c", "Td", "Jh", "6d", "Tc",
            "Qd", "Kc"]
    return position(stock=STOCK, pile=pile, hands=[["7h", "9d", "Js", "Qh"], 8, 8, 8],
                    sides=[{"score": 0, "melds": {"5": ["5h", "5s", "5d"],
                                                  "A": ["Ah", "As", "Ad"]}},
                           {"score": 0, "melds": {"Q": ["Qc", "Qs", "Qd"],
                                                  "K": ["Kc", "Ks", "Kh"]}}])


def test_a_rank_the_next_side_melded_is_read_safer_on_a_frozen_pile() -> None:
    # by counting and the pile story the jack is the safer card; but a player whose side has
    # melded queens lays its queens off rather than keep a pair of them, and the refitted odds
    # (fitted on real hands) say so: the queen goes. Without the refit the jack goes
    state = _their_queens()
    assert state.pile_frozen
    view = View(observe(state, 0))
    w = HeuristicWeights()
    unfitted = dataclasses.replace(w, take_odds_fit=0.0)
    setting = discard_setting(view, w)
    jack, queen = parse_card("Js") >> 2, parse_card("Qh") >> 2
    counted = {r: next_take_odds(view, setting, unfitted, r) for r in (jack, queen)}
    read = {r: next_take_odds(view, setting, w, r) for r in (jack, queen)}
    assert counted[jack] < counted[queen] and read[queen] < read[jack]
    action, why = _choice(state, "heuristic")
    assert format_action(action) == "discard Qh", why
    assert format_action(_choice(state, "heuristic:take_odds_fit=0")[0]) == "discard Js"


@pytest.mark.parametrize("fit", [TAKE_ODDS_FROZEN, TAKE_ODDS_OPEN])
def test_the_take_odds_refit_moves_odds_by_its_share_and_keeps_certainties(
        fit: TakeOddsFit) -> None:
    import math

    for p in (0.0, 1.0):
        assert refit_take_odds(fit, p, True, True) == p
    assert refit_take_odds(fit, 0.3, False, False, share=0.0) == 0.3
    z = math.log(0.3 / 0.7)
    found = fit.base + fit.scale * z + fit.our_meld
    full = refit_take_odds(fit, 0.3, True, False)
    assert full == pytest.approx(1 / (1 + math.exp(-found)))
    half = refit_take_odds(fit, 0.3, True, False, share=0.5)
    assert half == pytest.approx(1 / (1 + math.exp(-(z + found) / 2)))
    # the next side's meld moves the odds by its term, and by the pile's term per ten cards
    for pile in (FIT_PILE - 10, FIT_PILE, FIT_PILE + 20):
        theirs = fit.base + fit.scale * z + fit.their_meld + fit.their_meld_pile * (
            pile - FIT_PILE) / 10
        assert refit_take_odds(fit, 0.3, False, True, pile=pile) == pytest.approx(
            1 / (1 + math.exp(-theirs)))


def test_a_pair_of_their_melded_rank_is_feared_beside_a_big_frozen_pile() -> None:
    # a 40-card pile frozen by a two; the next side melded queens. Beside a small pile a pair of
    # a melded rank is laid off, but a pile this big is worth keeping the pair for: the queen,
    # which a single term for their meld reads as the safer card, is now read as the riskier
    top = ["5d", "5c", "4d", "2c", "Ad", "8s", "8d", "Jc", "6h", "8c", "Td", "Jh", "6d", "Tc",
           "As", "Kc"]
    below = ["4c", "4c", "4h", "4h", "4s", "4s", "6c", "6c", "Tc", "Th", "Th", "Ts", "Ts", "Ac",
             "Ac", "Ah", "Kd", "Kd", "Ks", "Kh", "4d", "6d", "Jd", "Jh"]
    state = position(stock=STOCK, pile=below + top, hands=[["7h", "9d", "Js", "Qh"], 8, 8, 8],
                     sides=[{"score": 0, "melds": {"5": ["5h", "5s", "5d"],
                                                   "A": ["Ah", "As", "Ad"]}},
                            {"score": 0, "melds": {"Q": ["Qc", "Qs", "Qd"],
                                                   "K": ["Kc", "Ks", "Kh"]}}])
    assert state.pile_frozen and len(state.pile) == 40
    view = View(observe(state, 0))
    w = HeuristicWeights()
    setting = discard_setting(view, w)
    jack, queen = parse_card("Js") >> 2, parse_card("Qh") >> 2
    counted = next_take_odds(view, setting, dataclasses.replace(w, take_odds_fit=0.0), queen)
    flat = TAKE_ODDS_FROZEN._replace(their_meld_pile=0.0)  # the pile's size left out
    assert refit_take_odds(flat, counted, False, True) < next_take_odds(view, setting, w, jack)
    assert next_take_odds(view, setting, w, queen) > next_take_odds(view, setting, w, jack)
    action, why = _choice(state, "heuristic")
    assert format_action(action) == "discard Js", why


def _joker_opening(pile: int, stock: list[str]) -> State:
    # neither side has opened; our only opening is 7c 7s and the joker (60 points)
    return position(stock=stock, pile=["4h", "9c", "Qd", "Kd", "5h", "8d", "Tc", "6d"][:pile],
                    hands=[["7c", "7s", "JK", "4d", "9h", "Qh", "Ks", "5d", "8h", "Td", "6s"],
                           8, 8, 8])


LONG_STOCK = ["5s", "8s", "6h", "5c", "9d", "Th", "Jd", "Js"] * 2
"""Sixteen cards: four rounds of draws, so the stock's end threatens nothing yet."""


def test_an_opening_that_spends_a_joker_waits_beside_a_small_pile() -> None:
    small = HeuristicWeights().open_wait_pile - 1
    assert small >= 1
    state = _joker_opening(small, LONG_STOCK)
    action, why = _choice(state, "heuristic")
    assert action.verb == "discard" and not IS_WILD[action.card], why
    pile = a_size(small, "card", spelled=True)
    assert why.endswith(f"no opening yet: {pile} pile is not worth a wild card")
    # the search still weighs opening now
    obs, legal = observe(state, state.to_move), legal_actions(state)
    assert parse_action("meld 7c 7s JK") in alternatives(obs, legal, margin=120)
    for spec in ("heuristic:open_wait_pile=0", "heuristic-v2"):
        assert format_action(_choice(state, spec)[0]) == "meld 7c 7s JK"


def test_the_joker_opens_beside_a_bigger_pile_or_when_the_hand_may_end() -> None:
    bigger = _joker_opening(HeuristicWeights().open_wait_pile, LONG_STOCK)
    short_stock = _joker_opening(1, LONG_STOCK[:2])
    for state in (bigger, short_stock):
        action, why = _choice(state, "heuristic")
        assert format_action(action) == "meld 7c 7s JK", why
        assert why.startswith("open with 60 points")


FIGHT_PILE = ["2c", "Qs", "4h", "9s", "6h", "Js", "Qd", "Ac", "8s", "6d", "Ah", "Ad", "4c", "Ts",
              "Qd", "Kd", "Ac", "7d", "Th", "6d", "8d"]
"""A 21-card pile frozen by a two, nines and jacks among it."""


def _fight_position(lone: str, pile: list[str] = FIGHT_PILE) -> State:
    # nobody has opened; we hold two pairs and a lone card, nothing to meld
    return position(stock=["Qh", "9d", "6s", "2d", "As", "5c", "Qc", "6h", "9c", "5h"],
                    pile=pile, hands=[["9h", "9d", "5h", "5d", lone], 8, 9, 8])


@pytest.mark.parametrize("lone", ["Jh", "Kh"])
def test_both_pairs_are_kept_for_a_big_frozen_pile_and_the_lone_card_goes(lone: str) -> None:
    # counting says the next player holds a pair of nines (two unseen) less often than a pair
    # of the lone card's rank, but each pair is a chance to take the pile: the lone card goes
    state = _fight_position(lone)
    assert state.pile_frozen and len(state.pile) == 21
    action, why = _choice(state, "heuristic")
    assert format_action(action) == f"discard {lone}", why
    assert why == f"discard {lone}: a lone card: my pairs are for the 22-card pile"
    for spec in ("heuristic:fight_lone_odds=0", "heuristic:fight_lone_pile=23"):
        assert format_action(_choice(state, spec)[0]) in ("discard 9h", "discard 9d")

