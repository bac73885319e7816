"""The Hand and Foot bots on small hand-written positions: each rule of thumb the heuristic
plays (and the greedy bot's and the search's own), each shown where switching it off changes
the choice. Seats N(0)/S(2) are side NS, E(1)/W(3) side EW; N moves unless said."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from canasta.actions import Action
from canasta.bots import hint, make_bot
from canasta.cards import IS_RED_THREE, make_pack
from canasta.hand_and_foot.action_text import format_action
from canasta.hand_and_foot.bots import BOTS, LEVELS
from canasta.hand_and_foot.deal import Deal, new_deal
from canasta.hand_and_foot.greedy import GreedyBot
from canasta.hand_and_foot.heuristic import HeuristicBot
from canasta.hand_and_foot.knobs import HAND_AND_FOOT
from canasta.hand_and_foot.legal import legal_actions
from canasta.hand_and_foot.observation import observe
from canasta.hand_and_foot.search import SearchBot, determinize, standing
from canasta.hand_and_foot.turn import apply
from tests.hand_and_foot.builders import position

NS_OUT_BOOKS = ["Kh Kh Kh Kh Kd Kd Kd", "8h 8h 8h 8h 8d 8d 8d",
                "Qh Qh Qh Qh Qd 2h Jk", "5h 5h 5h 5h 2h 2d Jk"]
"""Two clean and two dirty books: enough to go out by default (HF §10.1b)."""
OPENED = {"NS": {"A": "Ah Ad As"}}
EARLY = "4d 5d 6d 7d 8d 9d Td Jd Qd Kd Ad 4h 5h 6h 7h 8h 9h Th"
"""A stock of eighteen cards: the deal is young."""


def pick(bot: Any, deal: Deal, seed: int = 0) -> str:
    """The bot's choice for the player to move, as text."""
    action: Action = bot.choose(observe(deal, deal.to_move), legal_actions(deal),
                                random.Random(seed))
    assert action in legal_actions(deal)
    return format_action(action)


# -- the registry -------------------------------------------------------------------------------
def test_levels_name_the_family_bots() -> None:
    assert set(BOTS) == {"greedy", "heuristic", "search"}
    assert LEVELS == {"easy": "greedy", "medium": "heuristic", "hard": "search",
                      "expert": "search:rollouts=24"}
    expert = make_bot("expert", HAND_AND_FOOT)
    assert isinstance(expert, SearchBot) and expert.rollouts == 24
    assert isinstance(make_bot("easy", HAND_AND_FOOT), GreedyBot)


def test_a_hint_gives_a_reason_in_words() -> None:
    deal = position(phase="draw", hands={"N": "Kh Ks 9d 7c"}, pile="5d Kd", melds=OPENED)
    action, reason = hint(observe(deal, 0), legal_actions(deal))
    assert format_action(action) == "take Kh Ks"
    assert "pile" in reason


# -- greedy -------------------------------------------------------------------------------------
def test_greedy_lays_the_most_points_and_discards_its_least_useful_card() -> None:
    deal = position(hands={"N": "Kh Kd Ks 5h 5d 5s 4h 4d Ah"}, melds=OPENED)
    assert pick(GreedyBot(), deal) == "meld Kd Kh Ks"
    deal = position(hands={"N": "Kh 4h 9d 9s"}, melds=OPENED)
    assert pick(GreedyBot(), deal) == "discard 4h"
    deal = position(phase="draw", hands={"N": "Kh Ks 9d"}, pile="5d Kd", melds=OPENED)
    assert pick(GreedyBot(), deal) == "take Kh Ks"


# -- the heuristic: the pile, the foot, the books -----------------------------------------------
def test_heuristic_takes_the_pile_with_a_pair() -> None:
    deal = position(phase="draw", hands={"N": "Kh Ks 9d 7c"}, pile="5d 9h Kd", melds=OPENED)
    assert pick(HeuristicBot(), deal) == "take Kh Ks"
    assert pick(HeuristicBot(take_min=10_000), deal) == "draw"


def test_heuristic_keeps_a_pair_to_take_the_pile() -> None:
    deal = position(hands={"N": "Qh Qd 5h 6h 8s 9d Tc Jc"}, in_foot="NESW",
                    melds={"NS": {"Q": "Qs Qs Qc"}})
    assert not pick(HeuristicBot(), deal).startswith("meld")
    assert pick(HeuristicBot(pair_value=0), deal) == "meld Qd Qh"


def test_heuristic_runs_to_its_foot() -> None:
    deal = position(hands={"N": "7h 7d 2c"}, melds=OPENED, stock=EARLY)
    assert pick(HeuristicBot(wild_cost=100, small_hand=0), deal) == "meld 7d 7h 2c"
    assert pick(HeuristicBot(wild_cost=100, small_hand=0, run_bonus=0), deal).startswith(
        "discard")


def test_heuristic_keeps_a_clean_meld_clean_while_the_side_needs_clean_books() -> None:
    deal = position(hands={"N": "2h 7h 5d"}, melds={"NS": {"K": "Kh Kh Kd Kd"}}, stock=EARLY)
    assert pick(HeuristicBot(), deal).startswith("discard")
    assert pick(HeuristicBot(clean_cost=0), deal) == "meld K: 2h"


def test_heuristic_lays_its_wild_cards_before_the_end() -> None:
    deal = position(hands={"N": "2h 7h 5d 9c Td Qs"}, in_foot="NESW",
                    melds={"NS": {"J": "Jh Jd Js 2d"}}, stock=EARLY)
    late = position(hands={"N": "2h 7h 5d 9c Td Qs"}, in_foot="NESW",
                    melds={"NS": {"J": "Jh Jd Js 2d"}}, stock="4d 5d 6d")
    assert pick(HeuristicBot(), deal).startswith("discard")
    assert pick(HeuristicBot(), late) == "meld J: 2h"


# -- the heuristic: going out -------------------------------------------------------------------
def test_heuristic_asks_before_going_out() -> None:
    deal = position(hands={"N": "9h 9d 9s 6h"}, in_foot="NESW", books={"NS": NS_OUT_BOOKS})
    assert pick(HeuristicBot(), deal) == "ask"
    assert pick(HeuristicBot(ask=0), deal) != "ask"


def test_heuristic_answers_by_the_points_in_its_own_hand() -> None:
    few = position(to_move="S", phase="answer", hands={"N": "9h 9d 9s 6h", "S": "4h 5d"},
                   in_foot="NESW", books={"NS": NS_OUT_BOOKS}, asked=True)
    many = position(to_move="S", phase="answer",
                    hands={"N": "9h 9d 9s 6h", "S": "Ah Ad Kh Qd Jk 2c"},
                    in_foot="NESW", books={"NS": NS_OUT_BOOKS}, asked=True)
    assert pick(HeuristicBot(), few) == "yes"
    assert pick(HeuristicBot(), many) == "no"
    assert pick(HeuristicBot(answer_points=10_000), many) == "yes"


def test_heuristic_goes_out_after_a_yes() -> None:
    deal = position(hands={"N": "9h 9d 9s Th Td Ts 6h"}, in_foot="NESW",
                    books={"NS": NS_OUT_BOOKS}, answer="yes", asked=True)
    bot = HeuristicBot()
    rng = random.Random(0)
    while deal.end is None and deal.to_move == 0:
        deal = apply(deal, bot.choose(observe(deal, 0), legal_actions(deal), rng))
    assert deal.end is not None and deal.end.went_out == 0


# -- the heuristic: discards --------------------------------------------------------------------
def test_heuristic_discards_a_rank_the_next_side_cannot_take() -> None:
    # EW holds five sixes open: a pair of sixes would pass seven cards (HF §7.2); the fours
    # are mostly seen, yet less safe
    deal = position(hands={"N": "6h 4h Kd Kh 9s 9d"}, melds={"EW": {"6": "6c 6c 6d 6d 6s"}},
                    books={"NS": ["4c 4c 4d 4d 4s 4s 4h"]}, pile="4s 4d 4h 4c 4c 7h",
                    in_foot="NESW")
    assert pick(HeuristicBot(), deal) == "discard 6h"


def test_heuristic_avoids_the_ranks_it_has_not_seen() -> None:
    deal = position(hands={"N": "7h 4h Kd Kh 9s 9d"}, books={"NS": ["4c 4c 4d 4d 4s 4s 4h"]},
                    pile="4s 4d 4h 4c 4c 8h", in_foot="NESW")
    assert pick(HeuristicBot(), deal) == "discard 4h"


def test_heuristic_blocks_a_big_pile_with_a_black_three() -> None:
    pile = "7h 8h 9h Th Jh Qh"
    deal = position(hands={"N": "3s 6h Kd Kh"}, melds={"EW": {"6": "6c 6c 6d 6d 6s"}},
                    pile=pile, in_foot="NESW")
    assert pick(HeuristicBot(), deal) == "discard 3s"
    assert pick(HeuristicBot(block_pile=100), deal) == "discard 6h"


def test_every_bot_gives_a_reason() -> None:
    deal = new_deal(HAND_AND_FOOT, seed=4)
    rng = random.Random(1)
    bots: list[Any] = [GreedyBot(), HeuristicBot(), SearchBot(rollouts=2, horizon=2)]
    for _ in range(40):
        obs, legal = observe(deal, deal.to_move), legal_actions(deal)
        for bot in bots:
            action, reason = bot.explain(obs, legal, random.Random(0))
            assert action in legal and reason
        deal = apply(deal, bots[1].choose(obs, legal, rng))


# -- the search ---------------------------------------------------------------------------------
def _middle(seed: int = 3, steps: int = 60) -> Deal:
    deal = new_deal(HAND_AND_FOOT, seed=seed)
    rng, bot = random.Random(seed), HeuristicBot()
    for _ in range(steps):
        deal = apply(deal, bot.choose(observe(deal, deal.to_move), legal_actions(deal), rng))
    return deal


def test_determinize_deals_the_unseen_cards_by_the_observed_counts() -> None:
    deal = _middle()
    obs = observe(deal, deal.to_move)
    world = determinize(obs, random.Random(5))
    assert world is not None
    every: Counter[int] = Counter()
    for s in range(4):
        every.update(world.hands[s])
        every.update(world.feet[s])
        assert len(world.hands[s]) == len(deal.hands[s])
        assert len(world.feet[s]) == len(deal.feet[s])
        if s != obs.seat:
            assert not any(IS_RED_THREE[c] for c in world.hands[s])
    every.update(world.stock)
    every.update(world.pile)
    for side in range(2):
        every.update(c for m in world.melds[side] if m is not None for c in m)
        every.update(c for b in world.books[side] for c in b)
        every.update(world.red_threes[side])
    assert every == Counter(make_pack(HAND_AND_FOOT.num_decks, HAND_AND_FOOT.num_jokers))
    assert world.hands[obs.seat] == deal.hands[obs.seat] and world.pile == deal.pile
    assert legal_actions(world) == legal_actions(deal)


def test_the_search_reads_only_what_its_seat_sees() -> None:
    deal = _middle()
    seat = deal.to_move
    other = (seat + 1) % 4
    # another deal that differs only in cards the seat cannot see: the next hand and the
    # stock trade their first cards
    hand, stock = list(deal.hands[other]), list(deal.stock)
    hand[0], stock[0] = stock[0], hand[0]
    twin = deal.but(hands=deal.hands[:other] + (tuple(sorted(hand)),) + deal.hands[other + 1:],
                    stock=tuple(stock))
    assert twin != deal and observe(twin, seat) == observe(deal, seat)
    bot = SearchBot(rollouts=3, horizon=3)
    assert pick(bot, deal, seed=7) == pick(bot, twin, seed=7)


def test_the_search_keeps_the_heuristic_choice_unless_the_play_outs_disagree() -> None:
    deal = _middle()
    while deal.phase != "play" or not any(a.verb == "discard" for a in legal_actions(deal)) \
            or any(a.verb == "meld" for a in legal_actions(deal)):
        deal = apply(deal, HeuristicBot().choose(observe(deal, deal.to_move),
                                                 legal_actions(deal), random.Random(0)))
    obs, legal = observe(deal, deal.to_move), legal_actions(deal)
    options = SearchBot(close=1e9).candidates(obs, legal, random.Random(2))
    assert options[0] == HeuristicBot().choose(obs, legal, random.Random(2))
    assert len(options) == 2
    stubborn = SearchBot(rollouts=3, horizon=3, least=1e9, close=1e9)
    assert stubborn.choose(obs, legal, random.Random(2)) == options[0]
    eager = SearchBot(rollouts=3, horizon=3, least=0, margin=0, close=1e9, hold=1)
    assert eager.choose(obs, legal, random.Random(2)) == options[1]


def test_standing_scores_the_table_as_it_stands() -> None:
    deal = position(hands={"N": "4h 5h"}, melds={"NS": {"K": "Kh Kd Ks"}},
                    books={"EW": ["Qh Qh Qh Qh Qd Qd Qd"]})
    assert standing(deal, 0) == 30 - 10 - (70 + 500)
    assert standing(deal, 0, hold=0.0) == 30 - (70 + 500)


def test_the_search_weighs_only_the_calls_it_is_set_to() -> None:
    draw = position(phase="draw", hands={"N": "Kh Ks 9d 7c"}, pile="5d 9h Kd", melds=OPENED)
    obs, legal = observe(draw, 0), legal_actions(draw)
    assert [format_action(a) for a in SearchBot().candidates(obs, legal, random.Random(0))] == [
        "take Kh Ks", "draw"]
    assert len(SearchBot(takes=0).candidates(obs, legal, random.Random(0))) == 1
    asked = position(to_move="S", phase="answer", hands={"N": "9h 9d 9s 6h", "S": "4h 5d"},
                     in_foot="NESW", books={"NS": NS_OUT_BOOKS}, asked=True)
    obs, legal = observe(asked, 2), legal_actions(asked)
    assert len(SearchBot().candidates(obs, legal, random.Random(0))) == 1
    assert [format_action(a) for a in SearchBot(answer=1).candidates(
        obs, legal, random.Random(0))] == ["yes", "no"]
    assert SearchBot(answer=1, rollouts=2).choose(obs, legal, random.Random(0)) in legal
