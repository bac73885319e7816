"""The search bot: reproducible, bounded, blind to hidden cards, and sound evaluation."""

from __future__ import annotations

import os
import random
import subprocess
import sys
import time

import pytest

from canasta import apply, get_rules, legal_actions, observe
from canasta.actions import Action
from canasta.bots import make_bot
from canasta.bots.heuristic import alternatives
from canasta.bots.ismcts import FLAT_MIN_DEALS, QUIET_TURNS, ISMCTSBot, Stats
from canasta.bots.value import counted_lead
from canasta.observation import Observation
from canasta.state import DRAW, FIELDS, OVER, State, build_state

from .helpers import play_hand, play_until


def _decision() -> State:
    """A classic position where the seat to move has several candidates worth a search."""
    rules = get_rules("classic")
    bots = [make_bot("heuristic") for _ in range(4)]
    for steps in range(20, 200):
        state = play_until(rules, bots, 31, steps)
        obs = observe(state, state.to_move)
        if state.phase == "play" and len(alternatives(obs, legal_actions(state), margin=120)) > 2:
            return state
    raise AssertionError("no decision found")


DECISION = _decision()


@pytest.mark.parametrize("mode", ["flat", "tree"])
def test_same_seed_and_budget_give_the_same_search(mode: str) -> None:
    obs, legal = observe(DECISION, DECISION.to_move), legal_actions(DECISION)
    bot = ISMCTSBot(iterations=24, mode=mode, horizon=3)
    first = bot.search(obs, legal, random.Random(9))
    assert first == bot.search(obs, legal, random.Random(9))
    assert first[0] in legal and len(first[1]) > 1
    # flat: every candidate on each sampled deal, as many deals as the budget holds
    assert (sum(n for _, n, _ in first[1]) >= 24 if mode == "tree"
            else first[1][0][1] == 24 // len(first[1]))


def _departure() -> tuple[Observation, list[Action], Action, Action, Stats]:
    """The first decision of a seeded hand where a small search departs from the heuristic
    with the heuristic's choice among its candidates: the view, the legal actions, both choices
    and the search's figures."""
    rules = get_rules("classic")
    bots = [make_bot("heuristic") for _ in range(4)]
    state = play_until(rules, bots, 31, 20)
    for _ in range(400):
        obs, legal = observe(state, state.to_move), legal_actions(state)
        own = bots[0].choose(obs, legal, random.Random(0))
        searched, stats = ISMCTSBot(iterations=24, horizon=3).search(obs, legal,
                                                                     random.Random(9))
        if searched != own and own in {a for a, _, _ in stats}:
            return obs, legal, own, searched, stats
        state = play_until(rules, bots, 31, 1, start=state)
        if state.is_over:
            break
    raise AssertionError("the search never departed")


def test_a_close_call_is_left_to_the_heuristic_with_defer() -> None:
    obs, legal, own, searched, stats = _departure()
    values = {a: v for a, _, v in stats}
    edge = values[searched] - values[own]
    assert searched != own and edge > 0  # the search departs
    # the same search with a threshold above that edge keeps the heuristic's choice; below, not
    kept = ISMCTSBot(iterations=24, horizon=3, defer=edge + 1).search(obs, legal,
                                                                     random.Random(9))
    assert kept == (own, stats)
    low = ISMCTSBot(iterations=24, horizon=3, defer=edge / 2)
    assert low.search(obs, legal, random.Random(9))[0] == searched
    with pytest.raises(ValueError, match="defer must be at least 0"):
        make_bot("ismcts:defer=-1")


def test_search_ignores_what_the_seat_cannot_see() -> None:
    """Moving an unseen card between another hand and the stock changes nothing."""
    state = DECISION
    seat = state.to_move
    other = (seat + 1) % 4
    hidden = [c for c in state.hands[other] if c not in state.known[other]]
    card, swap = hidden[0], next(c for c in state.stock if c != hidden[0])
    hands = list(state.hands)
    rest = list(hands[other])
    rest.remove(card)
    hands[other] = tuple(sorted([*rest, swap]))
    stock = list(state.stock)
    stock[stock.index(swap)] = card
    fields = {name: getattr(state, name) for name in FIELDS}
    fields.update(hands=tuple(hands), stock=tuple(stock))
    twin = build_state(**fields)
    assert twin != state and observe(twin, seat) == observe(state, seat)
    bot = ISMCTSBot(iterations=16, horizon=3)
    legal = legal_actions(state)
    assert bot.search(observe(state, seat), legal, random.Random(2)) == bot.search(
        observe(twin, seat), legal, random.Random(2))


def test_a_time_budget_is_kept() -> None:
    obs, legal = observe(DECISION, DECISION.to_move), legal_actions(DECISION)
    bot = make_bot("ismcts:seconds=0.2")
    start = time.perf_counter()
    action = bot.choose(obs, legal, random.Random(1))
    elapsed = time.perf_counter() - start
    assert action in legal
    assert 0.2 <= elapsed < 1.5


def test_trivial_decisions_are_left_to_the_heuristic() -> None:
    deals = (play_until(get_rules("classic"), [make_bot("heuristic")] * 4, s, 0)
             for s in range(50))
    state = next(s for s in deals if len(legal_actions(s)) == 1)  # only 'draw' is legal
    legal = legal_actions(state)
    bot = ISMCTSBot(iterations=1000)
    start = time.perf_counter()
    action, stats = bot.search(observe(state, state.to_move), legal, random.Random(0))
    assert action == legal[0] and stats == [] and time.perf_counter() - start < 0.1
    small = ISMCTSBot(iterations=8, horizon=2)
    action, why = small.explain(observe(DECISION, DECISION.to_move), legal_actions(DECISION),
                                random.Random(0))
    assert action in legal_actions(DECISION)
    assert "; played out on 8 deals, it " in why


def test_the_counted_lead_is_the_hand_result_at_the_end_and_antisymmetric() -> None:
    rules = get_rules("classic")
    state, _ = play_hand(rules, [make_bot("heuristic") for _ in range(4)], seed=8)
    assert state.result is not None
    sides = state.result.sides
    assert counted_lead(state, 0) == sides[0].total - sides[1].total
    assert counted_lead(state, 1) == -counted_lead(state, 0)
    assert counted_lead(DECISION, 0) == -counted_lead(DECISION, 1) == -counted_lead(DECISION, 3)
    # laying a meld down never lowers the side's estimate
    seat = DECISION.to_move
    melds = [a for a in legal_actions(DECISION) if a.verb == "meld"]
    for meld in melds[:5]:
        assert counted_lead(apply(DECISION, meld), seat) >= counted_lead(DECISION, seat)


def test_choices_do_not_depend_on_string_hashing() -> None:
    """Set and dict order of actions must not steer the search (hash seeds vary by process)."""
    code = ("import random; from canasta import get_rules, legal_actions, observe;"
            "from canasta.bots import make_bot; from tests.bots.test_search import DECISION as s;"
            "b = make_bot('ismcts:iterations=16,horizon=3,mode=tree');"
            "print(b.search(observe(s, s.to_move), legal_actions(s), random.Random(4)))")
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    outs = set()
    for seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        run = subprocess.run([sys.executable, "-c", code], cwd=root, env=env,
                             capture_output=True, text=True, check=True, timeout=120)
        outs.add(run.stdout)
    assert len(outs) == 1


def test_a_time_budget_caps_an_iteration_budget() -> None:
    obs, legal = observe(DECISION, DECISION.to_move), legal_actions(DECISION)
    started = time.perf_counter()
    action = ISMCTSBot(iterations=1_000_000, seconds=0.2).choose(obs, legal, random.Random(3))
    assert time.perf_counter() - started < 5.0
    assert action in legal
    assert ISMCTSBot().iterations == 400 and ISMCTSBot(seconds=1).iterations is None


def test_a_flat_search_departs_only_on_enough_deals() -> None:
    """With a deal or two the paired differences have no spread to speak of, so one lucky
    play-out would overrule the heuristic: below ``FLAT_MIN_DEALS`` its choice stands."""
    obs, legal = observe(DECISION, DECISION.to_move), legal_actions(DECISION)
    own = make_bot("heuristic").choose(obs, legal, random.Random(0))
    width = len(alternatives(obs, legal, margin=120))
    for seed in range(12):
        for deals in (1, 2):
            bot = ISMCTSBot(iterations=width * deals, mode="flat", horizon=3, z=0)
            action, stats = bot.search(obs, legal, random.Random(seed))
            assert stats[0][1] == deals and action == own


def test_pruning_gives_a_flat_search_s_deals_to_the_contenders() -> None:
    """``prune``: a candidate clearly worse than the heuristic's choice stops being played out;
    the budget goes to the others, and a search with no contender left ends early."""
    obs, legal = observe(DECISION, DECISION.to_move), legal_actions(DECISION)
    candidates = alternatives(obs, legal, margin=120)
    own, budget = candidates[0], 40 * len(candidates)
    dropped = 0
    for seed in range(4):
        plain = ISMCTSBot(iterations=budget, mode="flat", horizon=3, z=2)
        assert {n for _, n, _ in plain.search(obs, legal, random.Random(seed))[1]} == {40}
        pruned = ISMCTSBot(iterations=budget, mode="flat", horizon=3, z=2, prune=1)
        stats = pruned.search(obs, legal, random.Random(seed))[1]
        deals = {a: n for a, n, _ in stats}
        values = {a: v for a, _, v in stats}
        assert set(deals) == set(candidates) and sum(deals.values()) <= budget
        assert deals[own] == max(deals.values())  # played out on every deal
        for a, n in deals.items():
            if a != own and n < 40:  # dropped: it did worse than the heuristic's choice
                dropped += 1
                assert values[a] < values[own] and n >= FLAT_MIN_DEALS
    assert dropped


def test_a_quiet_play_out_goes_on_while_a_big_pile_is_fought_over() -> None:
    """``quiet``: a play-out that reaches its horizon beside a pile of ``quiet`` cards or more
    goes on until the pile is taken (or ``QUIET_TURNS`` turns more); beside a smaller pile it
    stops at the horizon like any other."""
    rules = get_rules("classic")
    bots = [make_bot("heuristic") for _ in range(4)]
    plain = ISMCTSBot(horizon=2)
    quiet = ISMCTSBot(horizon=2, quiet=12)
    went_on = stopped = 0
    for steps in range(40, 400, 6):
        state = play_until(rules, bots, 5, steps)
        if state.phase != DRAW:
            continue
        end, turns = plain.play_on(state)
        assert turns == 2 or end.phase == OVER
        quiet_end, quiet_turns = quiet.play_on(state)
        if end.phase == OVER or len(end.pile) < 12:
            assert quiet_turns == turns
            assert (quiet_end.hands, quiet_end.pile) == (end.hands, end.pile)
            stopped += 1
        else:
            assert quiet_turns > turns
            assert (len(quiet_end.pile) < 12 or quiet_end.phase == OVER
                    or quiet_turns == 2 + QUIET_TURNS)
            went_on += 1
    assert went_on and stopped
