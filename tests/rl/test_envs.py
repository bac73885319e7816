"""The PettingZoo environment (direct and through Shimmy) and the Gymnasium environment pass
their libraries' conformance checks, and behave as documented."""

from __future__ import annotations

import warnings
from typing import Any

import pytest

pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

import numpy as np
from gymnasium import spaces
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

from canasta import get_rules, parse_action
from canasta.family import preset_names
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


@pytest.mark.parametrize("preset", preset_names())
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


# -- Gymnasium: the registered id, truncation, the mask once an episode ends ------------------

def test_gymnasium_make_knows_the_id_and_passes_the_checker() -> None:
    import gymnasium

    import canasta.rl.gym as canasta_gym

    env = gymnasium.make(canasta_gym.ENV_ID, preset="classic-2p", opponents="random",
                         returns="scaled")
    assert env.spec is not None and env.spec.id == "canasta/Canasta-v0"
    assert isinstance(env.unwrapped, CanastaEnv) and env.unwrapped.table.kind == "scaled"
    assert env.unwrapped.table.rules.name == "classic-2p"
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(env.unwrapped, skip_render_check=True)
    canasta_gym.register()  # again: harmless


def test_gymnasium_truncates_at_max_steps_and_the_mask_is_full_once_ended() -> None:
    from canasta.rl.table import max_steps_per_hand

    env = CanastaEnv(preset="classic-2p", opponents="random", max_steps=4)
    env.reset(seed=1)
    results = [env.step(END) for _ in range(4)]  # illegal ids: nothing moves, steps count
    assert [r[3] for r in results] == [False, False, False, True]
    assert not any(r[2] for r in results)
    assert env.action_masks().all() and results[-1][4]["action_mask"].all()
    with pytest.raises(RuntimeError, match="reset"):
        env.step(DRAW_ID)
    env.reset(seed=1)
    assert not env.action_masks().all()  # a fresh episode's mask is the legal ids again
    assert CanastaEnv(preset="classic", hands=3).max_steps == \
        max_steps_per_hand(get_rules("classic")) * 3
    with pytest.raises(ValueError, match="max_steps"):
        CanastaEnv(max_steps=0)


def test_gymnasium_a_loop_that_keeps_sampling_the_mask_never_meets_an_empty_one() -> None:
    env = CanastaEnv(preset="classic-2p", opponents="greedy")
    _, info = env.reset(seed=3)
    rng = np.random.default_rng(3)
    terminated = False
    for _ in range(5000):
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))  # fails on no id
        if terminated:
            break
        _, _, terminated, _, info = env.step(action)
    assert terminated and env.table.over
    assert info["action_mask"].sum() == NUM_IDS


# -- PettingZoo: the Parallel form, the Box observation, bounds, SuperSuit ---------------------

@pytest.mark.parametrize("preset", sorted(PRESETS))
@pytest.mark.parametrize("observation", ["dict", "box"])
def test_pettingzoo_parallel_api_on_every_preset(preset: str, observation: str) -> None:
    from pettingzoo.test import parallel_api_test

    from canasta.rl.pettingzoo import parallel_env

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        parallel_api_test(parallel_env(preset=preset, observation=observation),
                          num_cycles=300)
    assert not [str(w.message) for w in caught]


def test_pettingzoo_parallel_seeds_replay_and_only_the_active_agent_plays() -> None:
    from pettingzoo.test import parallel_seed_test

    from canasta.rl.pettingzoo import parallel_env

    parallel_seed_test(lambda: parallel_env(preset="classic"), num_cycles=100)
    env = parallel_env(preset="classic-2p", observation="box", returns="win")
    _, infos = env.reset(seed=4)
    rng = np.random.default_rng(4)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    steps = 0
    while env.agents:
        active = infos[env.agents[0]]["active_agent"]
        assert {infos[a]["active_agent"] for a in env.agents} == {active}
        actions = {a: END for a in env.agents}  # "end" is never legal first: ignored
        actions[active] = int(rng.choice(np.flatnonzero(infos[active]["action_mask"])))
        _, rewards, terminations, truncations, infos = env.step(actions)
        for agent, reward in rewards.items():
            totals[agent] += reward
        steps += 1
    assert steps > 50 and sorted(totals.values()) == [-1.0, 1.0]
    assert all(terminations.values()) and not any(truncations.values())
    with pytest.raises(RuntimeError, match="reset"):
        env.step({})


def test_pettingzoo_parallel_an_illegal_id_of_the_active_agent_ends_the_episode() -> None:
    from canasta.rl.pettingzoo import parallel_env, raw_parallel_env

    env = parallel_env(preset="classic-2p", illegal_reward=-5.0)
    _, infos = env.reset(seed=1)
    active = infos["player_0"]["active_agent"]
    _, rewards, terminations, _, _ = env.step(dict.fromkeys(env.possible_agents, END))
    assert rewards[active] == -5.0 and sum(rewards.values()) == -5.0
    assert all(terminations.values()) and not env.agents
    raw = raw_parallel_env(preset="classic-2p")
    raw.reset(seed=1)
    with pytest.raises(ValueError, match="not legal"):
        raw.step(dict.fromkeys(raw.possible_agents, END))


def test_pettingzoo_box_observation_has_the_mask_in_the_infos() -> None:
    dict_env = canasta_env(preset="classic", observation="dict")
    box_env = canasta_env(preset="classic", observation="box")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(canasta_env(preset="classic-3p", observation="box"), num_cycles=100)
    assert not [str(w.message) for w in caught]  # no Dict warnings with a Box
    dict_env.reset(seed=6)
    box_env.reset(seed=6)
    rng = np.random.default_rng(6)
    for _ in range(200):
        if dict_env.terminations[dict_env.agent_selection]:
            break
        obs, *_ = dict_env.last()
        box_obs, _, _, _, info = box_env.last()
        assert isinstance(box_env.observation_space(box_env.agent_selection), spaces.Box)
        assert box_obs.dtype == np.float32 and np.array_equal(box_obs, obs["observation"])
        assert np.array_equal(info["action_mask"], obs["action_mask"])
        for agent in box_env.agents:
            assert np.array_equal(box_env.infos[agent]["action_mask"],
                                  dict_env.observe(agent)["action_mask"])
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        dict_env.step(action)
        box_env.step(action)
    with pytest.raises(ValueError, match="observation must be one of dict, box"):
        canasta_env(observation="tuple")


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_observation_bounds_are_tight_and_hold(preset: str) -> None:
    from canasta.cards import NUM_CARD_TYPES
    from canasta.rl.pettingzoo import observation_box
    from canasta.rl.tensor import piece_slices

    rules = get_rules(preset)
    box = observation_box(rules, hands=2)
    assert box.dtype == np.float32 and np.all(box.high > box.low)
    slices = piece_slices(rules)
    for piece in ("phase", "to_move", "pile_top", "turn", "building_group"):
        start, stop = slices[piece]
        assert np.all(box.low[start:stop] == 0) and np.all(box.high[start:stop] == 1)
    start, _ = slices["hand"]
    assert box.high[start] == rules.num_decks and box.high[start + 52] == rules.num_jokers
    assert box.high[slices["known"][1] - 1] == rules.num_jokers
    assert box.high.max() <= max(rules.deck_size * 2 + 2, 20)
    assert slices["hand"][1] - slices["hand"][0] == NUM_CARD_TYPES
    env = canasta_env(preset=preset, hands=2, observation="box")
    env.reset(seed=2)
    rng = np.random.default_rng(2)
    seen = 0
    for agent in env.agent_iter(3000):
        obs, _, terminated, truncated, info = env.last()
        assert box.contains(obs), agent
        for other in env.agents:
            assert box.contains(env.observe(other))
        seen += 1
        if terminated or truncated:
            env.step(None)
        else:
            env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
    assert seen > 100


def test_supersuit_observation_wrappers_take_the_box_observation() -> None:
    ss = pytest.importorskip("supersuit")
    from pettingzoo.test import parallel_api_test

    from canasta.rl.pettingzoo import parallel_env

    def wrapped(env: Any) -> Any:
        return ss.frame_stack_v1(ss.normalize_obs_v0(ss.dtype_v0(env, np.float32)), 3)

    aec = wrapped(canasta_env(preset="classic-2p", observation="box"))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(aec, num_cycles=60)
    aec.reset(seed=0)
    obs, _, _, _, info = aec.last()
    size = get_rules("classic-2p")
    assert obs.shape == (3 * 566,) and obs.dtype == np.float32
    assert obs.min() >= 0.0 and obs.max() <= 1.0  # normalised by the Box's bounds
    assert info["action_mask"].sum() > 0 and size.num_players == 2
    par = wrapped(parallel_env(preset="classic-2p", observation="box"))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        parallel_api_test(par, num_cycles=60)
    observations, infos = par.reset(seed=0)
    active = infos["player_0"]["active_agent"]
    assert observations[active].shape == (3 * 566,) and infos[active]["action_mask"].any()


def test_shimmy_float64_is_made_float32_by_supersuit() -> None:
    pytest.importorskip("pyspiel")
    shimmy = pytest.importorskip("shimmy")
    ss = pytest.importorskip("supersuit")
    import canasta.rl.openspiel  # noqa: F401  (registers python_canasta)

    env = shimmy.OpenSpielCompatibilityV0(game_name="python_canasta",
                                          config={"preset": "classic-2p"})
    env.reset(seed=0)
    assert env.last()[0].dtype == np.float64  # Shimmy's own choice
    env = ss.dtype_v0(env, np.float32)
    env.reset(seed=0)
    obs, _, _, _, info = env.last()
    assert obs.dtype == np.float32 and info["action_mask"].sum() > 0
