"""The returns option every adapter shares: points (the default), points scaled into [-1, 1],
win/loss; the same episode gives the same returns through the table, OpenSpiel, PettingZoo
and Gymnasium."""

from __future__ import annotations

import random

import pytest

from canasta import get_rules
from canasta.rl.table import (
    RETURNS,
    Table,
    check_returns,
    episode_returns,
    return_bound,
    utility_range,
    win_returns,
)
from canasta.rules import PRESETS


def _play(table: Table, seed: int) -> list[list[float]]:
    """A random episode; the rewards of every play that brought some."""
    rng = random.Random(seed)
    table.reset(seed)
    rewards = []
    while not table.over:
        table.play(rng.choice(table.legal_ids()))
        if table.rewards is not None:
            rewards.append(table.rewards)
    return rewards


@pytest.mark.parametrize("preset", ["classic-2p", "classic-3p"])
def test_the_three_kinds_of_the_same_episode(preset: str) -> None:
    rules = get_rules(preset)
    tables = {kind: Table(rules, hands=2, returns=kind) for kind in RETURNS}
    got = {kind: _play(table, 7) for kind, table in tables.items()}
    points = tables["points"].returns
    assert all(t.returns == points for t in tables.values())  # the same play each time
    summed = {kind: [sum(r[p] for r in got[kind]) for p in range(rules.num_players)]
              for kind in RETURNS}
    assert summed["points"] == points and any(points)
    bound = return_bound(rules, 2)
    assert summed["scaled"] == pytest.approx([p / bound for p in points])
    assert len(got["scaled"]) == len(got["points"]) == 2  # a reward at each hand's end
    assert len(got["win"]) == 1  # win/loss once, at the episode's end
    for kind in RETURNS:
        low, high = utility_range(rules, 2, kind)
        assert all(low <= v <= high for v in summed[kind])
        assert sum(summed[kind]) == pytest.approx(0.0)  # zero-sum
        assert summed[kind] == pytest.approx(episode_returns(rules, 2, points, kind))
    best = max(points)
    assert [v > 0 for v in summed["win"]] == [p == best for p in points]


def test_win_returns_with_two_and_three_sides() -> None:
    two, three = get_rules("classic"), get_rules("classic-3p")
    assert win_returns(two, [300, -300, 300, -300]) == [1, -1, 1, -1]
    assert win_returns(two, [0, 0, 0, 0]) == [0, 0, 0, 0]
    assert win_returns(three, [500, -100, -400]) == [1, -0.5, -0.5]
    assert win_returns(three, [200, 200, -400]) == [0.5, 0.5, -1]


def test_the_bound_holds_and_the_kind_is_checked() -> None:
    for name, rules in PRESETS.items():
        table = Table(rules, hands=1, returns="scaled")
        for seed in range(2):
            for rewards in _play(table, seed):
                assert all(-1 <= r <= 1 for r in rewards), name
    with pytest.raises(ValueError, match="returns must be one of points, scaled, win"):
        check_returns("elo")
    with pytest.raises(ValueError, match="returns must be one of"):
        Table(get_rules("classic"), returns="elo")


def test_openspiel_utilities_and_returns_follow_the_kind() -> None:
    pytest.importorskip("pyspiel")
    import numpy as np

    from canasta.rl.openspiel import load

    rules = get_rules("classic-2p")
    finals = {}
    for kind in RETURNS:
        game = load("classic-2p", hands=1, returns=kind)
        assert (game.min_utility(), game.max_utility()) == utility_range(rules, 1, kind)
        rng = np.random.default_rng(3)
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes())
                state.apply_action(int(rng.choice(outcomes, p=probs)))
            else:
                state.apply_action(int(rng.choice(state.legal_actions())))
        finals[kind] = state.returns()
    points = finals["points"]
    assert finals["scaled"] == pytest.approx([p / return_bound(rules, 1) for p in points])
    assert finals["win"] == win_returns(rules, points)
    assert game.max_utility() == 1.0 and load("classic").max_utility() > 1000


def test_pettingzoo_and_gymnasium_rewards_follow_the_kind() -> None:
    pytest.importorskip("pettingzoo")
    import numpy as np

    from canasta.rl.gym import CanastaEnv
    from canasta.rl.pettingzoo import env as canasta_env

    totals = {}
    for kind in RETURNS:
        env = canasta_env(preset="classic-2p", returns=kind)
        env.reset(seed=5)
        rng = np.random.default_rng(5)
        total = dict.fromkeys(env.possible_agents, 0.0)
        for agent in env.agent_iter(5000):
            obs, reward, terminated, truncated, _ = env.last()
            total[agent] += reward
            if terminated or truncated:
                env.step(None)
            else:
                env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        totals[kind] = list(total.values())
    rules = get_rules("classic-2p")
    assert totals["scaled"] == pytest.approx(
        [p / return_bound(rules, 1) for p in totals["points"]])
    assert totals["win"] == win_returns(rules, totals["points"])

    gym_totals = {}
    for kind in RETURNS:
        genv = CanastaEnv(preset="classic-2p", opponents="greedy", returns=kind)
        _, info = genv.reset(seed=2)
        rng = np.random.default_rng(2)
        total, done = 0.0, False
        while not done:
            _, reward, done, _, info = genv.step(int(rng.choice(
                np.flatnonzero(info["action_mask"]))))
            total += reward
        gym_totals[kind] = total
        assert genv.reward_scale == (0.01 if kind == "points" else 1.0)
    points = gym_totals["points"] / 0.01
    assert gym_totals["scaled"] == pytest.approx(points / return_bound(rules, 1))
    assert gym_totals["win"] == (1.0 if points > 0 else -1.0 if points < 0 else 0.0)
