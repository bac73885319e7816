"""The heuristic bot: decision puzzles of BOTS.md §5.7, weights, plans, and its fast path."""

from __future__ import annotations

import random

import pytest

from canasta import apply, get_rules, legal_actions, observe
from canasta.actions import Action
from canasta.bots import make_bot
from canasta.bots.heuristic import HeuristicBot, alternatives, decide
from canasta.bots.moves import Moves
from canasta.bots.view import plan_going_out
from canasta.bots.weights import HeuristicWeights
from canasta.cards import IS_BLACK_THREE, IS_WILD, RANK_OF, parse_cards
from canasta.rules import PRESETS
from canasta.state import State

from .helpers import duplicate_lead, play_until, position

STOCK = ["5s", "6s", "7s", "8s", "Ts", "Ks", "As", "7h", "8h", "Th", "Kh", "Ah"]
LONG_STOCK = ["5s", "6s", "7s", "8s", "9s", "Ts", "Js", "Qs", "5h", "6h", "7h", "8h", "9h", "Th"]


def _choice(state: State, bot: HeuristicBot | None = None) -> tuple[Action, str]:
    bot = bot or HeuristicBot()
    legal = legal_actions(state)
    action, why = bot.explain(observe(state, state.to_move), legal, random.Random(0))
    assert action in legal and why
    assert action == bot.choose(observe(state, state.to_move), legal, random.Random(0))
    return action, why


def test_takes_a_big_unfrozen_pile_with_a_natural_pair() -> None:
    state = position(
        phase="draw", stock=STOCK,
        hands=[["7c", "7d", "9c", "Jd", "Qh", "3s"], 2, 2, 2],
        pile=["4c", "4d", "6c", "6d", "8c", "8d", "Tc", "Td", "Jc", "Qc", "Kh", "7h"],
        sides=[{"score": 0, "melds": {"K": ["Kc", "Kd", "Ks"]}},
               {"score": 0, "melds": {"A": ["Ac", "Ad", "Ah"]}}])
    action, why = _choice(state)
    assert action.verb == "take"
    assert "take the pile" in why


def test_does_not_feed_the_next_opponent_a_rank_their_side_melded() -> None:
    state = position(
        stock=STOCK, pile=["4c", "6d", "8c", "Tc", "Qd", "5d"],
        hands=[["9d", "4d", "Jh", "Jc"], 8, 8, 8],
        sides=[{"score": 0, "melds": {"K": ["Kc", "Kd", "Ks"]}},
               {"score": 0, "melds": {"9": ["9c", "9c", "9h"]}}])
    action, _ = _choice(state)
    assert action.verb == "discard" and RANK_OF[action.card] != RANK_OF[parse_cards("9d")[0]]
    # with the danger weight off, the lone nine is just the cheapest card to part with
    careless = HeuristicBot(HeuristicWeights(danger=0.0, keep_single=0.0))
    assert _choice(state, careless)[0].card == parse_cards("9d")[0]


def _growing_open_pile() -> State:
    """An open pile of 9 cards; every natural card in hand matches a meld of the opponents."""
    return position(
        stock=STOCK, pile=["4c", "6d", "8c", "Tc", "5d", "5c", "6c", "Qd"],
        hands=[["2c", "9d", "9h", "Jd", "Jh", "Qc", "Qh", "4d", "4h"],
               8, 8, 8],
        sides=[{"score": 0},
               {"score": 0, "melds": {"9": ["9c", "9c", "9s"], "J": ["Jc", "Jc", "Js"],
                                      "Q": ["Qs", "Qs", "Qd"], "4": ["4c", "4s", "4s"]}}])


def test_freezes_a_growing_pile_the_opponents_could_take_when_set_to() -> None:
    freezer = HeuristicBot(HeuristicWeights(freeze_min_pile=8))
    action, why = _choice(_growing_open_pile(), freezer)
    assert action.verb == "discard" and IS_WILD[action.card]
    assert "freeze" in why


def test_keeps_its_wild_card_rather_than_freeze_an_open_pile_by_default() -> None:
    action, why = _choice(_growing_open_pile())
    assert action.verb == "discard" and not IS_WILD[action.card]
    assert "hand the next player the pile" in why


def test_prefers_a_black_three_on_a_big_pile() -> None:
    state = position(
        stock=STOCK, pile=["4c", "6d", "8c", "Tc", "5d", "5c", "6c", "Qd", "Kh"],
        hands=[["3s", "9d", "Jh", "Qc", "Ah"], 8, 8, 8],
        sides=[{"score": 0, "melds": {"K": ["Kc", "Kd", "Ks"]}},
               {"score": 0, "melds": {"A": ["Ac", "Ad", "As"]}}])
    action, _ = _choice(state)
    assert IS_BLACK_THREE[action.card]


def _asked(partner_hand: list[str], opponents_melded: bool) -> State:
    return position(
        phase="answer", to_move=2, stock=LONG_STOCK, asks=[1, 0, 0, 0],
        hands=[["Qc", "Qd", "Qh", "8c"], 8, partner_hand, 8],
        sides=[{"score": 0, "melds": {"K": ["Kc", "Kc", "Kd", "Kd", "Kh", "Ks", "Ks"]}},
               {"score": 0, "melds": {"A": ["Ac", "Ad", "As"]} if opponents_melded else {}}])


def test_answers_no_while_holding_jokers_and_yes_when_the_opponents_have_not_melded() -> None:
    jokers = ["JK", "JK", "9d", "Jh", "6d"]
    action, why = _choice(_asked(jokers, opponents_melded=True))
    assert action.verb == "no" and "points" in why
    assert _choice(_asked(jokers, opponents_melded=False))[0].verb == "yes"
    assert _choice(_asked(["4d", "5d"], opponents_melded=True))[0].verb == "yes"


def test_races_out_when_the_opponents_have_not_melded() -> None:
    state = position(
        stock=LONG_STOCK,
        hands=[["Qc", "Qd", "Qh", "8c"], 8, 8, 8],
        sides=[{"score": 0, "melds": {"K": ["Kc", "Kc", "Kd", "Kd", "Kh", "Ks", "Ks"]}},
               {"score": 0}])
    bot = HeuristicBot()
    for _ in range(4):
        if state.is_over:
            break
        state = apply(state, _choice(state, bot)[0])
    assert state.is_over and state.result is not None and state.result.went_out == 0


def test_weights_come_from_the_spec_and_change_play() -> None:
    bot = make_bot("heuristic:danger=0,keep_single=0")
    assert isinstance(bot, HeuristicBot)
    assert bot.weights == HeuristicWeights(danger=0.0, keep_single=0.0)
    with pytest.raises(ValueError, match="unknown weight"):
        HeuristicWeights.from_params({"nerve": "1"})


def test_a_preset_with_weights_of_its_own_plays_them_under_a_spec(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import canasta.bots.weights as weights

    tuned = HeuristicWeights(keep_pair=90.0, danger=3.0)
    monkeypatch.setitem(weights.PRESET_WEIGHTS, "korean-old", tuned)
    korean, classic = get_rules("korean-old"), get_rules("classic")
    plain = make_bot("heuristic")
    assert isinstance(plain, HeuristicBot)
    assert plain.book.of(korean) == tuned and plain.book.of(classic) == HeuristicWeights()
    spec = make_bot("heuristic:danger=8")  # a spec's weights go on top of the preset's
    assert isinstance(spec, HeuristicBot)
    assert spec.book.of(korean) == HeuristicWeights(keep_pair=90.0, danger=8.0)
    assert spec.book.of(classic) == spec.weights == HeuristicWeights(danger=8.0)
    whole = HeuristicBot(HeuristicWeights(danger=5.0))  # weights given whole hold everywhere
    assert whole.book.of(korean) == whole.book.of(classic) == HeuristicWeights(danger=5.0)
    # and the bot plays them: a korean-old decision where the two sets of weights differ
    state = play_until(korean, [make_bot("heuristic") for _ in range(4)], 3, 0)
    for _ in range(400):
        if state.is_over:
            break
        obs, legal = observe(state, state.to_move), legal_actions(state)
        if decide(obs, legal, tuned)[0] != decide(obs, legal, HeuristicWeights())[0]:
            break
        state = apply(state, decide(obs, legal, tuned)[0])
    assert not state.is_over
    assert plain.choose(obs, legal, random.Random(0)) == decide(obs, legal, tuned)[0]
    from canasta.bots.ismcts import ISMCTSBot

    search = make_bot("ismcts:iterations=4")
    assert isinstance(search, ISMCTSBot) and search.book.of(korean) == tuned


def _positions() -> list[State]:
    states = []
    for preset in sorted(PRESETS):
        rules = get_rules(preset)
        bots = [make_bot("heuristic") for _ in range(rules.num_players)]
        for seed in range(6):
            for steps in (7, 30, 55, 80, 120):
                state = play_until(rules, bots, seed, steps)
                if not state.is_over:
                    states.append(state)
    return states


POSITIONS = _positions()


def test_the_fast_path_decides_exactly_like_the_listed_one() -> None:
    for state in POSITIONS:
        obs = observe(state, state.to_move)
        assert decide(obs, legal_actions(state))[0] == decide(obs, Moves(state=state))[0]
        assert alternatives(obs, legal_actions(state)) == alternatives(obs, Moves(state=state))


def test_alternatives_start_with_the_choice_and_are_legal() -> None:
    searched = 0
    for state in POSITIONS:
        obs = observe(state, state.to_move)
        legal = legal_actions(state)
        alts = alternatives(obs, legal, width=4)
        assert alts[0] == decide(obs, legal)[0]
        # the width bounds the heuristic's own candidates; the defences come on top
        assert len(alts) == len(set(alts)) <= 4 + 4 and all(a in legal for a in alts)
        searched += len(alts) > 1
        narrow = alternatives(obs, legal, width=4, margin=0.0)
        assert set(narrow) <= set(alts) and narrow[0] == alts[0]
    assert searched > len(POSITIONS) // 4


def test_a_draw_is_not_searched_against_a_take() -> None:
    # searched takes against the heuristic's draw cost points (docs/bot-experiments.md)
    draws = takes = 0
    for state in POSITIONS:
        obs = observe(state, state.to_move)
        legal = legal_actions(state)
        if obs.phase != "draw" or not any(a.verb == "take" for a in legal):
            continue
        choice = decide(obs, legal)[0]
        alts = alternatives(obs, legal, width=4)
        if choice.verb == "draw":
            draws += 1
            assert alts == [choice]
        else:
            takes += 1
            assert alts[0] == choice
    assert draws and takes


def test_the_answer_to_may_i_go_out_is_not_searched() -> None:
    # searched answers cost points (docs/bot-experiments.md): the heuristic's answer is the
    # only candidate
    rules = get_rules("classic")
    bots = [make_bot("heuristic") for _ in range(rules.num_players)]
    answers = []
    for seed in range(40):
        state = play_until(rules, bots, seed, 0)
        while not state.is_over and len(answers) < 5:
            if state.phase == "answer":
                answers.append(state)
            obs = observe(state, state.to_move)
            state = apply(state, bots[state.to_move].choose(obs, legal_actions(state),
                                                            random.Random(0)))
    assert answers, "no partner was asked in these hands"
    for state in answers:
        obs = observe(state, state.to_move)
        legal = legal_actions(state)
        assert len(legal) == 2
        assert alternatives(obs, legal, width=4) == [decide(obs, legal)[0]]


def test_a_going_out_plan_empties_the_hand_step_by_step() -> None:
    planned = 0
    rules = get_rules("classic")
    bots = [make_bot("heuristic") for _ in range(rules.num_players)]
    late = [play_until(rules, bots, seed, steps) for seed in range(12)
            for steps in range(40, 320, 20)]
    for state in POSITIONS + [s for s in late if not s.is_over]:
        if state.phase != "play" or state.answer is not None:
            continue
        seat = state.to_move
        melds = state.melds[state.owner_of(seat)]
        if not any(m is not None for m in melds):
            continue
        plan = plan_going_out(state.rules, state.hands[seat], melds)
        if plan is None:
            continue
        planned += 1
        for group in plan.groups:
            state = apply(state, Action("meld", (group,)))
        if plan.discard is not None:
            state = apply(state, Action("discard", (), plan.discard))
        assert state.is_over and state.result is not None and state.result.went_out == seat
    assert planned >= 3


def test_heuristic_beats_greedy_and_greedy_beats_random_on_fixed_deals() -> None:
    rules = get_rules("classic")
    deals = range(900, 920)
    assert duplicate_lead(rules, lambda: make_bot("heuristic"), lambda: make_bot("greedy"),
                          deals) > 100
    assert duplicate_lead(rules, lambda: make_bot("greedy"), lambda: make_bot("random"),
                          deals) > 100
