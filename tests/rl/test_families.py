"""Every adapter plays every registered family of rules: the research interface found from the
family alone, the id-by-id table and its record, the OpenSpiel game (conformance, chance fed a
native hand's pack, resampling), PettingZoo, Gymnasium with the family's bots and levels, and
OpenSpiel's ISMCTS as a bot. A few steps or one hand each: the family's own tests go deeper."""

from __future__ import annotations

import pickle
import random
import warnings
from typing import Any

import pytest

from canasta.family import Family, families
from canasta.game import replay
from canasta.rl import research as research_module
from canasta.rl.research import Research, research_of
from canasta.rl.table import Table

FAMILIES = families()


def family_id(family: Family) -> str:
    return family.name


every_family = pytest.mark.parametrize("family", FAMILIES, ids=family_id)


def random_positions(family: Family, seed: int, limit: int = 400) -> list[tuple[Any, Any]]:
    """The positions of one hand of random legal actions (melds and takes preferred, so that
    the table fills), with the action played at each."""
    rng = random.Random(seed)
    rules = family.default_rules
    position = family.new_hand(rules, seed)
    out = []
    while not position.is_over and len(out) < limit:
        legal = family.legal_actions(position)
        laying = [a for a in legal if a.verb in ("meld", "take")]
        action = rng.choice(laying) if laying and rng.random() < 0.7 else rng.choice(legal)
        out.append((position, action))
        position = family.apply(position, action)
    return out


@every_family
def test_the_research_interface_comes_from_the_family(family: Family) -> None:
    rules = family.default_rules
    research = research_of(rules)
    assert isinstance(research, Research) and research.family is family
    assert research_of(rules.to_json()) is research  # by its rules JSON, cached
    assert pickle.loads(pickle.dumps(research)) is research
    size = sum(_volume(shape) for _, shape in research.tensor_layout())
    assert len(research.dealing_tensor()) == size
    low, high = research.tensor_bounds(2)
    assert len(low) == len(high) == size and all(h > lo for lo, h in zip(low, high))
    assert research.max_steps_per_hand() >= 12 * rules.deck_size
    for position, action in random_positions(family, 1)[::9]:
        ids = research.alphabet.encode(action)
        assert research.alphabet.decode(ids) == action
        for seat in range(rules.num_players):
            values = research.tensor(position, seat)
            assert len(values) == size
            assert all(lo <= v <= h for lo, v, h in zip(low, values, high))
        half = research.respell(research.tensor(position, position.to_move), ids[:-1])
        assert len(half) == size


def _volume(shape: tuple[int, ...]) -> int:
    out = 1
    for d in shape:
        out *= d
    return out


@every_family
def test_a_seat_s_tensor_does_not_change_when_what_it_cannot_see_is_dealt_anew(
        family: Family) -> None:
    research = research_of(family.default_rules)
    rng = random.Random(2)
    checked = 0
    for position, _ in random_positions(family, 2)[::11]:
        for seat in range(family.default_rules.num_players):
            deal = research.resampler(position, seat, ())
            other = deal(rng)
            assert research.tensor(other, seat) == research.tensor(position, seat)
            checked += 1
    assert checked > 8


@every_family
def test_a_table_plays_two_hands_and_its_record_replays_to_their_points(family: Family) -> None:
    table = Table(family.default_rules, hands=2, returns="points")
    table.reset(seed=5)
    rng = random.Random(5)
    finished = []
    while not table.over:
        table.play(rng.choice(table.legal_ids()))
        if table.finished is not None:
            finished.append(table.finished)
            assert abs(sum(table.finished)) < 1e-9  # zero-sum
    assert table.legal_ids() == []
    assert table.game is not None
    hands = list(replay(table.game.record))
    assert len(hands) == len(finished) >= 1 and hands[-1].state.is_over
    totals = [family.totals(h.state) for h in hands]
    rules = table.rules
    assert table.returns[0] == pytest.approx(sum(
        t[0] - sum(t[1:]) / (rules.num_sides - 1) for t in totals))


def test_a_family_that_names_no_research_module_plays_through_the_generic_one(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # a family registered with no research module of its own: the classic family, here, as if
    # it named none; every adapter plays it through Research's own ids and tensor
    pytest.importorskip("pyspiel")
    pytest.importorskip("pettingzoo")
    from pettingzoo.test import api_test

    from canasta.family import get_rules
    from canasta.rl import openspiel as cos
    from canasta.rl.pettingzoo import env

    family = FAMILIES[0]
    rules = get_rules("classic-2p")
    monkeypatch.setattr(type(family), "research_module", "")
    research_module._research.cache_clear()
    try:
        research = research_of(rules)
        assert type(research) is Research and research.alphabet.size == 125
        layout = dict(research.tensor_layout())
        assert layout["hand"] == (53,) and layout["scores"] == (2,)
        table = Table(rules, hands=1)
        table.reset(seed=2)
        rng = random.Random(2)
        while not table.over:
            table.play(rng.choice(table.legal_ids()))
        assert sum(table.returns) == 0
        game = cos.load(rules)
        assert game.observation_tensor_shape() == [len(research.dealing_tensor())]
        state = game.new_initial_state()
        steps = 0
        while not state.is_terminal() and steps < 60:
            if state.is_chance_node():
                state.apply_action(rng.choice([c for c, _ in state.chance_outcomes()]))
                continue
            player = state.current_player()
            assert len(state.observation_tensor(player)) == len(research.dealing_tensor())
            assert state.information_state_string(player).startswith(f"p{player} of ")
            state.apply_action(rng.choice(state.legal_actions()))
            steps += 1
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            api_test(env(rules=rules, observation="box"), num_cycles=20)
        with pytest.raises(NotImplementedError, match="resampler"):
            research.resampler(table.state, 0, ())
    finally:
        monkeypatch.undo()
        research_module._research.cache_clear()


# -- OpenSpiel -------------------------------------------------------------------------------

@every_family
def test_openspiel_random_simulation_with_serialization(family: Family) -> None:
    pyspiel = pytest.importorskip("pyspiel")
    from canasta.rl import openspiel as cos

    rules = family.default_rules
    game = cos.load(rules, hands=2, returns="scaled")
    research = research_of(rules)
    assert game.num_distinct_actions() == research.alphabet.size
    assert game.observation_tensor_shape() == [len(research.dealing_tensor())]
    assert game.max_game_length() == 2 * research.max_steps_per_hand()
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


@every_family
def test_openspiel_fed_a_native_hand_s_pack_by_chance_plays_that_hand(family: Family) -> None:
    pytest.importorskip("pyspiel")
    from canasta.bots import make_bot
    from canasta.rl import openspiel as cos

    rules = family.default_rules
    game = cos.load(rules)
    alphabet = game.research.alphabet
    deck = family.shuffled_pack(rules, 3)
    native = family.new_hand(rules, deck=deck)
    state = game.new_initial_state()
    bots = [make_bot("easy", family) for _ in range(rules.num_players)]
    rng = random.Random(3)
    drawn = 0
    while not native.is_over:
        while state.is_chance_node():
            assert deck[drawn] in dict(state.chance_outcomes())
            state.apply_action(deck[drawn])
            drawn += 1
        assert state.engine_state.hands == native.hands
        assert sorted(state.engine_state.stock) == sorted(native.stock)
        assert state.engine_actions() == family.legal_actions(native)
        seat = native.to_move
        action = bots[seat].choose(family.observe(native, seat), family.legal_actions(native),
                                   rng)
        for i in alphabet.encode(action):
            state.apply_action(i)
        native = family.apply(native, action)
    while state.is_chance_node():
        state.apply_action(deck[drawn])
        drawn += 1
    assert state.is_terminal() and family.totals(state.engine_state) == family.totals(native)


@every_family
def test_openspiel_resampling_keeps_each_seat_s_information(family: Family) -> None:
    pyspiel = pytest.importorskip("pyspiel")
    from canasta.rl import openspiel as cos

    game = cos.load(family.default_rules)
    state = game.new_initial_state()
    rng = random.Random(4)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    checked = 0
    while not state.is_terminal() and checked < 6:
        if state.is_chance_node():
            state.apply_action(rng.choice([c for c, _ in state.chance_outcomes()]))
            continue
        if rng.random() < 0.1:
            for p in range(game.num_players()):
                other = state.resample_from_infostate(p, sampler)
                assert other.information_state_string(p) == state.information_state_string(p)
                assert other.information_state_tensor(p) == state.information_state_tensor(p)
                assert other.engine_state.hands[p] == state.engine_state.hands[p]
                assert other.legal_actions()
            checked += 1
        state.apply_action(rng.choice(state.legal_actions()))
    assert checked >= 3


@every_family
def test_openspiel_ismcts_as_a_bot_plays_the_family(family: Family) -> None:
    pytest.importorskip("pyspiel")
    from canasta.bots import make_bot

    bot = make_bot("openspiel-ismcts:iterations=2,horizon=1", family)
    position = family.new_hand(family.default_rules, 6)
    legal = family.legal_actions(position)
    while len(legal) == 1:  # a choice worth a search
        position = family.apply(position, legal[0])
        legal = family.legal_actions(position)
    obs = family.observe(position, position.to_move)
    assert bot.choose(obs, legal, random.Random(1)) in legal


# -- PettingZoo and Gymnasium ----------------------------------------------------------------

DICT_OBSERVATION_WARNINGS = ("Observation is not a NumPy array",
                             "Observation space for each agent probably should be")


@every_family
def test_pettingzoo_passes_its_api_and_seed_tests(family: Family) -> None:
    pytest.importorskip("pettingzoo")
    from pettingzoo.test import api_test, parallel_api_test, seed_test

    from canasta.rl.pettingzoo import env, parallel_env

    rules = family.default_rules
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(env(rules=rules), num_cycles=40)
    assert all(str(w.message).startswith(DICT_OBSERVATION_WARNINGS) for w in caught)
    parallel_api_test(parallel_env(rules=rules, observation="box"), num_cycles=40)
    seed_test(lambda: env(rules=rules), num_cycles=40)
    e = env(rules=rules)
    e.reset(seed=1)
    n = research_of(rules).alphabet.size
    assert e.action_space("player_0").n == n
    assert e.observe(e.agent_selection)["action_mask"].shape == (n,)


@every_family
def test_gymnasium_plays_against_the_family_s_bots_and_levels(family: Family) -> None:
    pytest.importorskip("gymnasium")
    import numpy as np
    from gymnasium.utils.env_checker import check_env

    from canasta.rl.gym import CanastaEnv

    rules = family.default_rules
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(CanastaEnv(rules=rules, opponents="random"), skip_render_check=True)
    env = CanastaEnv(rules=rules, opponents="easy", reward_scale=1.0)
    env.reset(seed=3)
    rng = np.random.default_rng(3)
    total, done = 0.0, False
    while not done:
        _, reward, done, _, _ = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
        total += reward
    assert env.table.state.is_over and total == env.table.returns[0]
    with pytest.raises(Exception, match="unknown bot"):
        CanastaEnv(rules=rules, opponents="nobody")
