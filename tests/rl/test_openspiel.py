"""The OpenSpiel game ``python_canasta`` passes OpenSpiel's own conformance checks on every
preset, and OpenSpiel's bots play it."""

from __future__ import annotations

import pickle
import random

import pytest

pyspiel = pytest.importorskip("pyspiel")

import numpy as np  # noqa: E402
from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402

from canasta import apply, get_rules, legal_actions, new_hand, observe  # noqa: E402
from canasta.rl import openspiel as cos  # noqa: E402
from canasta.rl.encoding import encode  # noqa: E402
from canasta.rules import PRESETS  # noqa: E402
from canasta.state import State  # noqa: E402


def play_randomly(state: object, rng: random.Random, check: object = None) -> int:
    """Play uniformly random ids (chance by its probabilities) to the end; the player steps."""
    steps = 0
    while not state.is_terminal():  # type: ignore[attr-defined]
        if state.is_chance_node():  # type: ignore[attr-defined]
            outcomes = state.chance_outcomes()  # type: ignore[attr-defined]
            card = rng.choices([c for c, _ in outcomes], [p for _, p in outcomes])[0]
            state.apply_action(card)  # type: ignore[attr-defined]
            continue
        if check is not None:
            check(state)  # type: ignore[operator]
        state.apply_action(rng.choice(state.legal_actions()))  # type: ignore[attr-defined]
        steps += 1
    return steps


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_random_simulation_with_serialization_on_every_preset(preset: str) -> None:
    game = pyspiel.load_game(f"python_canasta(preset={preset})")
    assert game.num_players() == get_rules(preset).num_players
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def test_several_hands_carry_the_scores_and_rotate_the_dealer() -> None:
    game = pyspiel.load_game("python_canasta(preset=classic-2p,hands=3)")
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)
    state = game.new_initial_state()
    rng = random.Random(5)
    dealers = []
    while not state.is_terminal():
        if state.is_player_node() and state.engine_state.dealer not in dealers[-1:]:
            dealers.append(state.engine_state.dealer)
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(rng.choices([c for c, _ in outcomes], [p for _, p in outcomes])[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    assert dealers[:3] == [0, 1, 0][: len(dealers)] and len(dealers) >= 2
    returns = state.returns()
    assert returns[0] == -returns[1] and returns[0] != 0


def test_the_python_queries_agree_with_openspiel_s_own() -> None:
    game = cos.load("classic")
    state = game.new_initial_state()
    rng = random.Random(2)
    for _ in range(400):
        if state.is_terminal():
            break
        player = state.current_player()
        assert state.is_chance_node() == (player == pyspiel.PlayerId.CHANCE)
        assert state.is_player_node() == (player >= 0)
        assert state.legal_actions() == pyspiel.State.legal_actions(state)
        if player >= 0:
            other = (player + 1) % game.num_players()
            assert state.legal_actions(other) == pyspiel.State.legal_actions(state, other) == []
            mask = state.legal_actions_mask()
            assert [i for i, m in enumerate(mask) if m] == state.legal_actions()
        state.apply_action(rng.choice(state.legal_actions()) if player >= 0 else
                           rng.choice([c for c, _ in state.chance_outcomes()]))


@pytest.mark.parametrize("preset", ["classic", "classic-3p-cutthroat", "classic-6p-3x2"])
def test_resampling_keeps_the_seat_s_information_and_hides_the_rest(preset: str) -> None:
    game = cos.load(preset)
    state = game.new_initial_state()
    rng = random.Random(3)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    checked = 0

    def check(s: cos.CanastaState) -> None:
        nonlocal checked
        if rng.random() > 0.15:
            return
        for p in range(game.num_players()):
            other = s.resample_from_infostate(p, sampler)
            assert other.information_state_string(p) == s.information_state_string(p)
            assert other.information_state_tensor(p) == s.information_state_tensor(p)
            assert other.observation_tensor(p) == s.observation_tensor(p)
            assert other.current_player() == s.current_player()
            if p == s.current_player():  # another seat's legal ids depend on its hidden hand
                assert other.legal_actions() == s.legal_actions()
            else:
                assert other.legal_actions()  # the spelling in progress can be finished
            # a resample of a resample, for another seat, keeps that seat's information too
            q = (p + 1) % game.num_players()
            again = other.resample_from_infostate(q, sampler)
            assert again.information_state_string(q) == other.information_state_string(q)
            # the other seats' histories are not those of the true deal
            assert "?" in other.information_state_string(q) or not s._t.seen
        checked += 1

    play_randomly(state, rng, check)
    assert checked > 5


def test_a_resample_deals_the_hidden_cards_anew() -> None:
    game = cos.load("classic")
    state = game.new_initial_state()
    rng = random.Random(1)
    while state.is_chance_node() or state.engine_state is None:
        state.apply_action(rng.choice([c for c, _ in state.chance_outcomes()]))
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    hands = {state.resample_from_infostate(0, sampler).engine_state.hands[1] for _ in range(8)}
    assert len(hands) > 1
    assert all(state.resample_from_infostate(0, sampler).engine_state.hands[0]
               == state.engine_state.hands[0] for _ in range(3))


def test_chance_outcomes_are_the_cards_left_with_their_frequencies() -> None:
    game = cos.load("classic-2p")
    state = game.new_initial_state()
    outcomes = dict(state.chance_outcomes())
    assert len(outcomes) == 53 and abs(sum(outcomes.values()) - 1) < 1e-12
    assert outcomes[52] == pytest.approx(4 / 108) and outcomes[0] == pytest.approx(2 / 108)
    state.apply_action(52)
    assert dict(state.chance_outcomes())[52] == pytest.approx(3 / 107)
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 52) == "deal JK"
    rng = random.Random(0)
    while state.engine_state is None:
        state.apply_action(rng.choice([c for c, _ in state.chance_outcomes()]))
    engine = state.engine_state
    assert isinstance(engine, State) and list(engine.stock) == sorted(engine.stock)
    assert 52 in engine.hands[1] + engine.hands[0] + engine.pile  # the first card dealt
    state.apply_action(encode(legal_actions(engine)[0])[0])  # draw
    assert state.is_chance_node()
    outcomes = dict(state.chance_outcomes())
    assert sum(outcomes.values()) == pytest.approx(1)
    assert set(outcomes) == set(engine.stock)
    card = max(outcomes)
    state.apply_action(card)
    assert card in state.engine_state.hands[engine.to_move] or card in (45, 46)


def test_spelling_moves_the_engine_only_when_complete() -> None:
    game = cos.load("classic")
    position = apply(new_hand(get_rules("classic"), seed=7), "draw")
    state = cos.state_at(game, position)
    meld = next(a for a in legal_actions(position) if a.verb == "meld")
    ids = encode(meld)
    for i in ids[:-1]:
        state.apply_action(i)
        assert state.engine_state.hands == position.hands and state.prefix
        assert state.current_player() == position.to_move
    state.apply_action(ids[-1])
    expected = apply(position, meld)
    assert state.engine_state.hands == expected.hands and state.prefix == ()
    assert observe(state.engine_state, 0) == observe(expected, 0)
    with pytest.raises(ValueError, match="not legal"):
        state._apply_action(124)  # "end" is not legal at the start of an action


def test_states_serialize_and_pickle_round_trip() -> None:
    game = cos.load("classic-3p")
    state = game.new_initial_state()
    rng = random.Random(4)
    for _ in range(300):
        state.apply_action(rng.choice(state.legal_actions()))
    again = game.deserialize_state(state.serialize())
    assert str(again) == str(state) and again.history() == state.history()
    assert again.information_state_string(1) == state.information_state_string(1)
    assert pickle.loads(pickle.dumps(state._t)) == state._t


def test_the_game_length_bound_holds_for_long_random_hands() -> None:
    # the bound (docs/rl.md) counts every id; random play spells the longest hands
    for preset in ("classic-6p", "korean-old"):
        game = cos.load(preset)
        steps = play_randomly(game.new_initial_state(), random.Random(9))
        assert 0 < steps <= game.max_game_length()


def test_parameters_are_checked() -> None:
    with pytest.raises(Exception, match="hands"):
        pyspiel.load_game("python_canasta(hands=0)")
    with pytest.raises(Exception, match="unknown preset"):
        pyspiel.load_game("python_canasta(preset=bridge)")
    game = pyspiel.load_game("python_canasta")
    assert game.get_parameters() == {"preset": "classic", "hands": 1, "rules": "",
                                     "returns": "points"}
    with pytest.raises(Exception, match="field:value"):
        pyspiel.load_game("python_canasta", {"rules": "ask_before_draw"})
    with pytest.raises(Exception, match="unknown rules field"):
        pyspiel.load_game("python_canasta", {"rules": "colour:1"})
    with pytest.raises(ValueError, match="list"):
        cos.params_of(get_rules("classic").replace(black_three_meld_sizes=(3,)))
    assert game.observation_tensor_shape() == [684]


def play_with(game: object, bots: dict[int, object], rs: np.random.RandomState) -> list[float]:
    """A whole episode, each seat played by its OpenSpiel bot, chance by ``rs``."""
    state = game.new_initial_state()  # type: ignore[attr-defined]
    while not state.is_terminal():
        if state.is_chance_node():
            cards, probs = zip(*state.chance_outcomes())
            state.apply_action(rs.choice(cards, p=probs))
        else:
            state.apply_action(bots[state.current_player()].step(state))  # type: ignore
    returns: list[float] = state.returns()
    return returns


def test_uniform_random_bots_play_whole_games() -> None:
    game = pyspiel.load_game("python_canasta(preset=classic-2p,hands=2)")
    uniform = [pyspiel.make_uniform_random_bot(p, 7 + p) for p in range(2)]
    returns = pyspiel.evaluate_bots(game.new_initial_state(), uniform, 11)
    assert returns[0] == -returns[1] != 0


def test_openspiel_ismcts_plays_whole_games() -> None:
    from canasta.rl.openspiel_bot import HeuristicPlayouts

    game = pyspiel.load_game("python_canasta(preset=classic-2p)")
    rs = np.random.RandomState(5)
    search = ismcts.ISMCTSBot(game, HeuristicPlayouts(1, random.Random(5)), 400.0, 3,
                              random_state=rs)
    returns = play_with(game, {0: search, 1: pyspiel.make_uniform_random_bot(1, 3)}, rs)
    assert sum(returns) == 0 and returns[0] != 0


@pytest.mark.slow
def test_openspiel_ismcts_with_its_own_random_rollouts_plays_whole_games() -> None:
    game = pyspiel.load_game("python_canasta(preset=classic-2p)")
    rs = np.random.RandomState(5)
    search = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rs), 500.0, 4,
                              random_state=rs)
    returns = play_with(game, {0: search, 1: pyspiel.make_uniform_random_bot(1, 3)}, rs)
    assert sum(returns) == 0


def test_the_information_state_tensor_counts_each_seat_s_discards_this_hand() -> None:
    game = cos.load("classic-3p", hands=2)
    state = game.new_initial_state()
    rng = random.Random(8)
    observer = game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=True))
    checked = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice([c for c, _ in state.chance_outcomes()]))
            continue
        seat = state.current_player()
        for p in range(3):
            observer.set_from(state, p)
            assert list(observer.tensor) == state.information_state_tensor(p)
        hand = state._t.hand
        counted = [0] * 3
        log = state._t.log
        for k in range(2 * state._t.hand_start, len(log), 2):
            if 53 <= log[k + 1] < 106:
                counted[log[k]] += 1
        observer.set_from(state, seat)
        assert [int(observer.dict["discarded"][(s - seat) % 3].sum()) for s in range(3)] == counted
        checked += hand == 2 and sum(counted) > 0
        state.apply_action(rng.choice(state.legal_actions()))
    assert checked


def test_the_observation_tensor_is_the_seat_s_view_with_the_spelling() -> None:
    from canasta.rl.tensor import observation_tensor

    game = cos.load("classic")
    state = game.new_initial_state()
    rng = random.Random(6)
    checked = 0
    while not state.is_terminal() and checked < 40:
        if state.is_chance_node():
            state.apply_action(rng.choice([c for c, _ in state.chance_outcomes()]))
            continue
        for p in (state.current_player(), (state.current_player() + 1) % 4):
            expected = observation_tensor(observe(state.engine_state, p), state.prefix)
            assert state.observation_tensor(p) == pytest.approx(expected)
        checked += bool(state.prefix)
        state.apply_action(rng.choice(state.legal_actions()))
    assert checked == 40


@pytest.mark.parametrize("preset", ["classic", "classic-2p", "korean-old", "classic-6p-3x2"])
def test_fed_a_shuffled_pack_by_chance_the_game_plays_the_engine_s_hand(preset: str) -> None:
    # chance outcomes given in the pack's order rebuild the engine's own deal and draws, so
    # the same choices lead to the same hand: the explicit chance changes nothing in the game
    from canasta.deal import shuffled_pack

    rules = get_rules(preset)
    game = cos.load(preset)
    for seed in range(3):
        deck = shuffled_pack(rules, seed)
        native = new_hand(rules, deck=deck, dealer=0)
        state = game.new_initial_state()
        rng = random.Random(seed)
        drawn = 0
        while not native.is_over:
            while state.is_chance_node():
                assert deck[drawn] in dict(state.chance_outcomes())
                state.apply_action(deck[drawn])
                drawn += 1
            engine = state.engine_state
            assert engine.hands == native.hands and engine.pile == native.pile
            assert sorted(engine.stock) == sorted(native.stock)
            legal = legal_actions(native)
            assert state.engine_actions() == legal
            action = legal[rng.randrange(len(legal))]
            for i in encode(action):
                state.apply_action(i)
            native = apply(native, action)
        while state.is_chance_node():  # a void draw still turns up the stock's top card
            state.apply_action(deck[drawn])
            drawn += 1
        assert state.is_terminal() and state.engine_state.result == native.result


def test_house_rules_through_the_rules_parameter() -> None:
    game = pyspiel.load_game(
        "python_canasta(preset=classic,rules=ask_before_draw:true;last_red_three_may_meld:true;"
        "one_card_pile_take_ban:stock_out)")
    assert game.rules.ask_before_draw and game.rules.last_red_three_may_meld
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)
    assert cos.load(game.rules).rules == game.rules  # any rules, back to parameters
    asked_first = False
    state = game.new_initial_state()
    rng = random.Random(2)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice([c for c, _ in state.chance_outcomes()]))
            continue
        ids = state.legal_actions()
        asked_first |= state.engine_state.phase == "draw" and 121 in ids
        state.apply_action(rng.choice(ids))
    assert asked_first
