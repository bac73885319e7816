"""What the heuristic does that the frozen heuristic-v1 did not: decision puzzles on constructed
positions. Each puzzle also shows the old choice, so a test fails if the behaviour goes."""

from __future__ import annotations

import dataclasses
import random
import re

from canasta import apply, legal_actions, observe
from canasta.actions import Action, format_action
from canasta.bots import make_bot
from canasta.bots.base import Bot
from canasta.bots.discards import discard_costs
from canasta.bots.heuristic import reason_for
from canasta.bots.moves import Moves
from canasta.bots.view import View
from canasta.bots.weights import HeuristicWeights
from canasta.bots.words import a_rank, a_size, percent_words
from canasta.cards import IS_BLACK_THREE, IS_WILD, RANK_OF, parse_card
from canasta.state import State

from .helpers import position

STOCK = ["5s", "6s", "7s", "8s", "6h", "8h", "5c", "7c"]
BIG_PILE = ["2h", "5d", "5c", "9c", "Jd", "7c", "8d", "Jc", "9d", "8c", "Td", "4c", "6d", "Tc",
            "Qd", "Kc", "4h", "6h", "Qc", "4d", "6c", "Ac"]
"""A big pile frozen by a two, whose recent cards (fours, sixes, tens, queens, kings, aces)
tell nothing about the sevens, nines and jacks of the tests."""


def _choice(state: State, spec: str = "heuristic") -> tuple[Action, str]:
    bot: Bot = make_bot(spec)
    legal = legal_actions(state)
    action, why = bot.explain(observe(state, state.to_move), legal,  # type: ignore[attr-defined]
                              random.Random(0))
    assert action in legal and why
    return action, why


def _rank(action: Action) -> str:
    return format_action(action)[-2]


def test_keeps_a_wild_card_off_a_frozen_pile() -> None:
    # the pile is frozen by a two: a wild card there only blocks one turn
    state = position(
        stock=STOCK, pile=["4c", "6d", "2h", "8c", "Tc"],
        hands=[["2c", "9d", "Jh", "Qh", "Qs", "5h"], 8, 8, 8],
        sides=[{"score": 0, "melds": {"K": ["Kc", "Kd", "Ks"]}},
               {"score": 0, "melds": {"A": ["Ac", "Ad", "As"]}}])
    action, why = _choice(state)
    assert action.verb == "discard" and not IS_WILD[action.card], why
    assert IS_WILD[_choice(state, "heuristic-v1")[0].card]  # the old bot threw the two


def test_keeps_a_black_three_until_the_pile_is_worth_blocking() -> None:
    # a small frozen pile, and a jack nobody else can hold a pair of (seven jacks are seen)
    small = position(
        stock=STOCK, pile=["4c", "2h", "Kh"],
        hands=[["3s", "9d", "Jh", "Qc", "Qs"], 8, 8, 8],
        sides=[{"score": 0, "melds": {"K": ["Kc", "Kd", "Ks"]}},
               {"score": 0, "melds": {"J": ["Jc", "Jc", "Jd", "Jd", "Js", "Js"]}}])
    action, _ = _choice(small)
    assert not IS_BLACK_THREE[action.card]
    assert IS_BLACK_THREE[_choice(small, "heuristic-v1")[0].card]  # the old bot threw it at once
    big = position(
        stock=STOCK, pile=BIG_PILE,
        hands=[["3s", "9h", "Jh", "Qc", "Qs"], 8, 8, 8],
        sides=[{"score": 0, "melds": {"K": ["Kc", "Kd", "Ks"]}},
               {"score": 0, "melds": {"A": ["Ad", "As", "As"]}}])
    action, why = _choice(big)
    assert IS_BLACK_THREE[action.card] and "blocks" in why


def test_a_rank_the_next_player_passed_by_is_the_safer_discard() -> None:
    # seat 0 to play; reading the pile back: 9h came from seat 0 itself, and seat 1 (the next
    # player) then drew instead of taking the frozen pile with it: seat 1 holds no pair of nines
    pile = ["2c", "5c", "Td", "6c", "8c", "Qd", "9h", "Kc", "4c", "7d"]
    state = position(
        stock=STOCK, pile=pile,
        hands=[["9s", "Jc", "Qh", "Qs", "Ah", "Ad"], 11, 11, 11],
        sides=[{"score": 0, "melds": {"K": ["Kd", "Kd", "Ks"]}},
               {"score": 0, "melds": {"A": ["Ac", "As", "As"]}}])
    view = View(observe(state, 0))
    assert view.pair_odds(1, RANK_OF[parse_card("9s")]) < 0.5  # seat 1 passed by the nine
    assert view.pair_odds(1, RANK_OF[parse_card("Jc")]) == 1.0
    # seat 2 discarded a four with seven fours unseen and eleven cards in hand: players discard
    # from three of a kind, so that makes a pair likelier than counting says, not rarer
    assert view.pair_odds(2, RANK_OF[parse_card("4c")]) > 1.0
    action, _ = _choice(state)
    assert _rank(action) == "9"
    assert _rank(_choice(state, "heuristic-v1")[0]) != "9"  # counting alone: nines are live


def test_keeps_its_pair_and_spares_a_third_card_in_a_frozen_fight() -> None:
    # two sevens and two jacks unseen each, and nothing known of them from the pile's story
    pile = ["2h", "7c", "Js", "Jh", "4c", "6d", "Jc", "Jd", "Tc", "Qd", "7d", "7d"]
    state = position(
        stock=STOCK, pile=pile,
        hands=[["7s", "7h", "7h", "Jh", "Js", "2d", "2s"], 11, 11, 11],
        sides=[{"score": 0, "melds": {"K": ["Kd", "Kd", "Ks"]}},
               {"score": 0, "melds": {"A": ["Ad", "As", "As"]}}])
    action, why = _choice(state)
    assert _rank(action) == "7" and "pair of sevens for the pile" in why
    assert _rank(_choice(state, "heuristic-v1")[0]) in ("J", "2")


def test_holds_its_cards_while_the_pile_is_frozen_for_its_side() -> None:
    # an opponent with a canasta and six cards makes laying off tempting; while the big pile
    # is frozen the nine stays in hand (a safe discard, and cards win the pile)
    state = position(
        stock=STOCK, pile=BIG_PILE,
        hands=[["9h", "Jh", "Qc", "Qs", "5h", "5s"], 6, 11, 11],
        sides=[{"score": 0, "melds": {"9": ["9s", "9s", "9d"]}},
               {"score": 0, "melds": {"A": ["Ad", "As", "As", "Ah", "Ac", "Ah", "2c"]}}])
    action, _ = _choice(state)
    assert action.verb == "discard"
    assert _choice(state, "heuristic-v1")[0].verb == "meld"  # the old bot laid the nine off


def _asked(partner_hand: list[str]) -> State:
    return position(
        phase="answer", to_move=2, stock=STOCK, asks=[1, 0, 0, 0],
        hands=[["Qc", "Qd", "Qh", "8c"], 8, partner_hand, 8],
        sides=[{"score": 0, "melds": {"K": ["Kc", "Kc", "Kd", "Kd", "Kh", "Ks", "Ks"],
                                      "J": ["Jc", "Jd", "Jd", "Jh", "Js"]}},
               {"score": 0, "melds": {"A": ["Ac", "Ad", "As"]}}])


def test_answers_by_what_the_hand_could_still_lay_down() -> None:
    # ninety points of lone cards would be lost either way: let the partner go out
    action, why = _choice(_asked(["Ad", "Ah", "Td", "9s", "8d", "6s"]))
    assert action.verb == "yes" and "points" in why
    assert _choice(_asked(["Ad", "Ah", "Td", "9s", "8d", "6s"]), "heuristic-v1")[0].verb == "no"
    # two jacks finish the canasta of jacks: stay
    action, why = _choice(_asked(["Jh", "Js", "5d", "6s"]))
    assert action.verb == "no" and "canasta of jacks" in why


def test_asks_before_drawing_when_going_out_is_sure() -> None:
    state = position(
        rules={"preset": "classic", "ask_before_draw": True}, phase="draw", stock=STOCK,
        hands=[["Qc", "Qd", "Qh"], 8, ["4d", "5d", "6c", "9d", "Td", "Jd"], 8],
        sides=[{"score": 0, "melds": {"K": ["Kc", "Kc", "Kd", "Kd", "Kh", "Ks", "Ks"]}},
               {"score": 0, "melds": {"A": ["Ac", "Ad", "As"]}}])
    action, why = _choice(state)
    assert action.verb == "ask" and "before drawing" in why
    assert _choice(state, "heuristic-v1")[0].verb == "draw"
    answered = apply(state, action)
    yes = apply(answered, _choice(answered)[0])
    end = yes
    for _ in range(6):
        if end.is_over:
            break
        end = apply(end, _choice(end)[0])
    assert end.is_over and end.result is not None and end.result.went_out == 0


def test_lays_down_what_it_can_after_a_last_red_three() -> None:
    state = position(
        rules={"preset": "classic", "last_red_three_may_meld": True}, phase="draw",
        stock=["3d"], hands=[["Ac", "Ad", "Ah", "5c", "5d", "5h", "9s"], 8, 8, 8],
        sides=[{"score": 0, "melds": {"K": ["Kc", "Kd", "Ks"]}},
               {"score": 0, "melds": {"Q": ["Qc", "Qd", "Qs"]}}])
    state = apply(state, "draw")
    assert state.turn.last_red_three
    action, why = _choice(state)
    assert format_action(action) == "meld Ac Ad Ah" and "before the end" in why
    state = apply(state, action)
    action, _ = _choice(state)
    assert format_action(action) == "meld 5c 5d 5h"
    assert apply(state, action).is_over


def test_sheds_a_rank_the_next_side_melded_while_the_pile_is_frozen() -> None:
    # the two freezes the pile: a nine now needs a pair from seat 1, and once the pile opens
    # it would lay off on their nines; the jack is about as safe by counting
    state = position(
        stock=STOCK, pile=["Jc", "Jd", "4c", "6d", "2h", "8c", "Tc"],
        hands=[["9d", "Jh", "Qh", "Qs", "Ah", "Ad"], 8, 8, 8],
        sides=[{"score": 0, "melds": {"K": ["Kc", "Kd", "Ks"]}},
               {"score": 0, "melds": {"9": ["9c", "2c", "9h"]}}])
    view = View(observe(state, 0))
    moves = Moves(legal_actions(state))

    def cost(card: str, w: HeuristicWeights) -> float:
        return next(c for c, a, _ in discard_costs(view, moves, w) if a.card == parse_card(card))

    # without the shedding and the refitted odds (which also read their ranks as safer)
    plain = HeuristicWeights(shed_their_ranks=0.0, take_odds_fit=0.0)
    assert cost("9d", plain) >= cost("Jh", plain)
    assert cost("9d", dataclasses.replace(plain, shed_their_ranks=HeuristicWeights()
                                          .shed_their_ranks)) < cost("Jh", plain)
    assert cost("9d", HeuristicWeights()) < cost("Jh", HeuristicWeights())
    action, why = _choice(state)
    assert _rank(action) == "9" and "matches their meld only" in why


def test_a_seat_that_passed_an_open_pile_holds_no_card_and_wild_for_it() -> None:
    # reading back from seat 0's turn: 7d from seat 3, 4c from seat 2, Kc from seat 1, and
    # below it seat 0's own discard, which seat 1 (melded, the pile open) drew instead of taking
    def odds(passed: str) -> float:
        state = position(
            stock=STOCK, pile=["5c", "Td", "6c", passed, "Kc", "4c", "7d"],
            hands=[["9s", "Jc", "Qh", "Qs", "Ah", "Ad"], 11, 11, 11],
            sides=[{"score": 0, "melds": {"K": ["Kd", "Kd", "Ks"]}},
                   {"score": 0, "melds": {"A": ["Ac", "As", "As"]}}])
        return View(observe(state, 0)).p_can_take(1, RANK_OF[parse_card("9s")], frozen=False)

    assert odds("9h") < 0.5 * odds("8h")


def test_explanations_name_ranks_in_words_and_the_wild_card_kept() -> None:
    # the kings need two more for a canasta: the joker stays, a lone card goes
    state = position(
        stock=STOCK, pile=["4c", "6d", "8c", "Tc"],
        hands=[["JK", "Kh", "9d", "5h", "Qs", "Qh"], 8, 8, 8],
        sides=[{"score": 0, "melds": {"K": ["Kc", "Kd", "Ks", "Kd", "Kc"]}},
               {"score": 0, "melds": {"A": ["Ac", "Ad", "As"]}}])
    legal = legal_actions(state)
    obs = observe(state, 0)
    action, why = _choice(state)
    assert action.verb in ("discard", "meld")
    discard_5h = next(a for a in legal if a.verb == "discard" and a.card == parse_card("5h"))
    said = reason_for(obs, legal, discard_5h)
    assert said.startswith("discard 5h: ") and "keep the JK: our kings need" in said
    lay_off = next(a for a in legal if a.verb == "meld" and len(a.groups) == 1
                   and a.groups[0].cards == (parse_card("Kh"),))
    assert "kings" in reason_for(obs, legal, lay_off)
    # a king discarded: its reason names the kings' meld, the kept joker is not told twice
    discard_kh = next(a for a in legal if a.verb == "discard" and a.card == parse_card("Kh"))
    said = reason_for(obs, legal, discard_kh)
    assert said.count("kings need") == 1 and said.endswith("; keep the JK for them")
    assert not any(f" {r}s" in why for r in "456789TJQKA")  # "As", "Ks": never in words
    assert a_rank(RANK_OF[parse_card("8c")]) == "an eight"
    assert a_rank(RANK_OF[parse_card("Kc")]) == "a king"


def test_names_the_odds_when_they_decide_a_discard_onto_a_big_frozen_pile() -> None:
    # both sides have blocked a 43-card pile; the next side melded queens, and every rank in
    # the hand is a pair or more: the queen goes because it is the least likely to be taken,
    # not because it "matches their meld only later" (a natural pair of queens takes it now)
    pile = ["2h", "5c", "9c", "Jd", "7c", "8d", "Jc", "9d", "8c", "4d", "6d", "2c", "Kc", "4h",
            "6h", "7d", "2h", "5h", "9h", "Js", "7h", "8s", "Ah", "6s", "JK", "9s", "5s", "Jh",
            "7s", "8h", "6c", "2c", "9d", "JK", "Jd", "7c", "8c", "6d", "5c", "9c", "7h", "6h",
            "Ah"]
    state = position(
        stock=["5s", "6s", "7s", "8s", "4s", "4s", "5d", "Kc"], pile=pile,
        hands=[["4c", "4c", "5d", "Tc", "Td", "Th", "Qc", "Qh", "Qs", "Kd", "Kh", "Ks"],
               9, 10, 11],
        sides=[{"score": 0, "melds": {"A": ["Ac", "Ad", "As"]}},
               {"score": 0, "melds": {"Q": ["Qd", "Qh", "2d", "2s"]}}])
    action, why = _choice(state)
    assert _rank(action) == "Q"
    assert "the least likely card to give the next player the 44-card pile (" in why
    assert why.endswith("and I keep a pair of queens for the pile") and "only later" not in why
    # the search's hint gives the same reason for the same throw
    assert reason_for(observe(state, 0), legal_actions(state), action).startswith(why)


def test_a_cheap_safe_discard_keeps_its_own_reason() -> None:
    # on a small pile the odds are not worth naming: the lone card says why it goes
    state = position(
        stock=STOCK, pile=["4c", "6d", "Tc"],
        hands=[["9d", "Jh", "Qh", "Qs", "Ah", "Ad"], 8, 8, 8],
        sides=[{"score": 0, "melds": {"K": ["Kc", "Kd", "Ks"]}},
               {"score": 0, "melds": {"9": ["9c", "2c", "9h"]}}])
    _, why = _choice(state)
    assert "likely" not in why and "hardly take" not in why


def test_a_chance_is_worded_as_a_player_reads_it() -> None:
    # a chance that rounds to nothing is not called nothing, nor one that rounds to certainty
    assert [percent_words(p) for p in (0.0, 0.003, 0.234, 0.996, 1.0)] == [
        "0%", "under 1%", "23%", "over 99%", "100%"]


def test_a_pile_size_takes_the_article_it_is_spoken_with() -> None:
    assert [a_size(n, "card", spelled=True) for n in (1, 2, 8, 11)] == [
        "a one-card", "a two-card", "an eight-card", "an 11-card"]
    assert [a_size(n, "card") for n in (8, 18, 25)] == ["an 8-card", "an 18-card", "a 25-card"]


def test_a_last_natural_rank_onto_a_big_pile_says_the_risk_not_that_it_is_least_likely() -> None:
    # two sevens left, a 22-card frozen pile, and a next player with thirteen cards: either
    # seven may hand it over, and there is no safer card to call it "the least likely" against
    state = position(
        stock=STOCK, pile=BIG_PILE, hands=[["7h", "7s"], 13, 8, 8],
        sides=[{"score": 0, "melds": {"7": ["7d", "7d", "7h"], "A": ["Ac", "Ad", "Ah"]}},
               {"score": 0, "melds": {"Q": ["Qd", "Qh", "Qs"]}}])
    action, why = _choice(state)
    assert _rank(action) == "7" and "least likely" not in why
    assert re.search(r"a seven may give the next player the 23-card pile \(\d+%\), but I hold no "
                     r"other natural card$", why), why
