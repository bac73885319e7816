"""The PettingZoo environment (direct and through Shimmy) and the Gymnasium environment pass
their libraries' conformance checks, and behave as documented."""

from __future__ import annotations

import warnings

import pytest

pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

import numpy as np
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

from canasta import get_rules, parse_action
from canasta.rl.encoding import DRAW_ID, END, NUM_IDS, encode
from canasta.rl.gym import CanastaEnv
from canasta.rl.pettingzoo import env as canasta_env
from canasta.rl.pettingzoo import raw_env
from canasta.rules import PRESETS

# api_test warns about what it does not fail on; only these two remain, and they are about the
# Dict observation of PettingZoo's classic games, which the environment is asked to use
DICT_OBSERVATION_WARNINGS = ("Observation is not a NumPy array",
                             "Observation space for each agent probably should be")


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_pettingzoo_api_on_every_preset(preset: str) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(canasta_env(preset=preset), num_cycles=60)
    unexpected = {str(w.message) for w in caught}
    assert all(m.startswith(DICT_OBSERVATION_WARNINGS) for m in unexpected), unexpected


def test_pettingzoo_seeds_replay_an_episode() -> None:
    seed_test(lambda: canasta_env(preset="classic"), num_cycles=200)


def test_pettingzoo_a_seat_acts_several_times_in_a_row_and_rewards_are_zero_sum() -> None:
    env = canasta_env(preset="classic-2p", hands=2)
    env.reset(seed=3)
    rng = np.random.default_rng(3)
    repeats = 0
    previous = None
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter(20_000):
        obs, reward, terminated, truncated, _ = env.last()
        totals[agent] += reward
        if terminated or truncated:
            env.step(None)
            continue
        repeats += agent == previous
        previous = agent
        mask = obs["action_mask"]
        assert mask.dtype == np.int8 and mask.sum() > 0
        env.step(int(rng.choice(np.flatnonzero(mask))))
    assert repeats > 10
    assert totals["player_0"] == -totals["player_1"] != 0
    assert not env.agents


def test_pettingzoo_an_illegal_id_ends_the_episode_with_the_penalty() -> None:
    env = canasta_env(preset="classic", illegal_reward=-7.0)
    env.reset(seed=1)
    agent = env.agent_selection
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        env.step(END)  # "end" never starts an action
    assert all(env.terminations.values())
    assert env.rewards[agent] == -7.0
    raw = raw_env(preset="classic")
    raw.reset(seed=1)
    with pytest.raises(ValueError, match="not legal"):
        raw.step(END)


def test_pettingzoo_only_the_agent_to_act_has_a_mask_and_render_shows_the_spelling() -> None:
    env = canasta_env(preset="classic", render_mode="ansi")
    env.reset(seed=2)
    acting = env.agent_selection
    for agent in env.agents:
        mask = env.observe(agent)["action_mask"]
        assert (mask.sum() > 0) == (agent == acting)
    env.step(DRAW_ID)
    assert "draw" not in (env.render() or "spelling")
    meld_ids = [i for i in np.flatnonzero(env.observe(env.agent_selection)["action_mask"])
                if 106 <= i < 118]
    if meld_ids:
        env.step(int(meld_ids[0]))
        assert "spelling: group" in env.render()


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_shimmy_wraps_the_openspiel_game_for_pettingzoo(preset: str) -> None:
    pytest.importorskip("pyspiel")
    shimmy = pytest.importorskip("shimmy")
    import canasta.rl.openspiel  # noqa: F401  (registers python_canasta)

    env = shimmy.OpenSpielCompatibilityV0(game_name="python_canasta", config={"preset": preset})
    with warnings.catch_warnings():
        # Shimmy declares every OpenSpiel tensor unbounded; api_test warns about it
        warnings.filterwarnings("ignore", message="Agent's m.* observation space value is")
        api_test(env, num_cycles=40)
    assert env.game_state.get_game().num_players() == get_rules(preset).num_players


def test_gymnasium_checker_passes() -> None:
    env = CanastaEnv(preset="classic-2p", opponents="random")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(env, skip_render_check=True)


def test_gymnasium_an_illegal_id_changes_nothing_and_costs_the_penalty() -> None:
    env = CanastaEnv(preset="classic", opponents="greedy", illegal_penalty=-0.5)
    obs, info = env.reset(seed=4)
    before = env.table.state
    obs2, reward, terminated, truncated, info2 = env.step(END)
    assert reward == -0.5 and info2["illegal"] and not terminated and not truncated
    assert env.table.state is before and np.array_equal(obs, obs2)
    assert np.array_equal(info["action_mask"], info2["action_mask"])
    assert env.action_masks().dtype == bool and env.action_masks()[DRAW_ID]


def test_gymnasium_episodes_replay_from_the_seed_and_end_with_the_hand_points() -> None:
    def run(seed: int) -> tuple[float, int]:
        env = CanastaEnv(preset="classic-2p", opponents="heuristic", reward_scale=1.0)
        env.reset(seed=seed)
        rng = np.random.default_rng(0)
        total, steps, done = 0.0, 0, False
        while not done:
            action = int(rng.choice(np.flatnonzero(env.action_masks())))
            _, reward, done, _, _ = env.step(action)
            total += reward
            steps += 1
        state = env.table.state
        assert state.is_over and total == env.table.returns[0]
        return total, steps

    assert run(8) == run(8)


def test_gymnasium_with_partner_self_the_agent_plays_both_seats_of_its_side() -> None:
    env = CanastaEnv(preset="classic", opponents="greedy", partner="self")
    _, info = env.reset(seed=5)
    seats = {info["seat"]}
    rng = np.random.default_rng(1)
    done = False
    while not done:
        _, _, done, _, info = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
        seats.add(info["seat"])
    assert seats == {0, 2}


def test_gymnasium_options_are_checked() -> None:
    with pytest.raises(ValueError):
        CanastaEnv(seat=4)
    with pytest.raises(ValueError):
        CanastaEnv(partner="other")
    with pytest.raises(Exception, match="unknown bot"):
        CanastaEnv(opponents="nobody")
    assert CanastaEnv().action_space.n == NUM_IDS
    assert encode(parse_action("draw")) == (DRAW_ID,)


def test_pettingzoo_and_gymnasium_take_house_rules() -> None:
    house = get_rules("classic").replace(ask_before_draw=True, one_card_pile_take_ban="never")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(canasta_env(rules=house), num_cycles=30)
    env = CanastaEnv(rules=house, opponents="random")
    env.reset(seed=1)
    assert env.table.rules is house
