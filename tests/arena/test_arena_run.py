"""Whole arena runs on tiny budgets: determinism across --jobs, the JSON schema, failures."""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import pytest

from canasta.actions import Action
from canasta.arena import ArenaConfig, ArenaError, GamePairResult, GamePairTask, run_arena
from canasta.arena.tournament import chunk_size
from canasta.bots import bot_table
from canasta.bots.base import Bot
from canasta.errors import CanastaError
from canasta.game import GameRecord, replay
from canasta.observation import Observation
from canasta.rules import get_rules

BOTS = bot_table().bots


class FirstBot:
    """Always the first legal action: a very weak player (it never melds)."""

    name = "first"

    def choose(self, obs: Observation, legal: Sequence[Action], rng: random.Random) -> Action:
        return legal[0]


class BrokenBot:
    name = "broken"

    def choose(self, obs: Observation, legal: Sequence[Action], rng: random.Random) -> Action:
        raise RuntimeError("out of ideas")


class CheatBot:
    name = "cheat"

    def choose(self, obs: Observation, legal: Sequence[Action], rng: random.Random) -> Action:
        from canasta.actions import parse_action

        return parse_action("discard JK") if obs.phase == "play" else legal[0]


@pytest.fixture
def test_bots() -> Iterator[None]:
    added: dict[str, Callable[..., Bot]] = {"first": FirstBot, "broken": BrokenBot,
                                            "cheat": CheatBot}
    BOTS.update(added)
    yield
    for name in added:
        BOTS.pop(name, None)


def _figures(data: dict[str, Any]) -> dict[str, Any]:
    """Everything but the thinking times, which are the one thing allowed to differ."""
    data = dict(data)
    data["bots"] = [{k: v for k, v in b.items() if k != "ms_per_decision"} for b in data["bots"]]
    return data


def test_same_figures_whatever_the_jobs() -> None:
    config = ArenaConfig(get_rules("classic-2p"), ("random", "random", "random"), hands=6,
                         seed=4, keep_records=True, bootstrap=50)
    one = run_arena(config, jobs=1).to_json()
    two = run_arena(config, jobs=2).to_json()
    assert _figures(one) == _figures(two)
    assert [p["hands"] >= 6 for p in one["pairings"]] == [True] * 3
    # another seed, other deals
    other = run_arena(ArenaConfig(get_rules("classic-2p"), ("random", "random", "random"),
                                  hands=6, seed=5, bootstrap=50)).to_json()
    assert other["pairings"] != one["pairings"]


def test_json_schema_and_records_replay() -> None:
    config = ArenaConfig(get_rules("classic"), ("random", "random"), hands=4, seed=2,
                         keep_records=True, bootstrap=20)
    result = run_arena(config)
    data = json.loads(result.dumps())
    assert data == json.loads(json.dumps(result.to_json()))
    (p,) = data["pairings"]
    assert p["a"] == "random#1" and p["b"] == "random#2"
    for key, kind in (("hands", int), ("points_per_hand", float), ("games", int),
                      ("wins", int), ("win_rate", float)):
        assert isinstance(p[key], kind), key
    assert len(p["ci95"]) == 2 and p["ci95"][0] <= p["points_per_hand"] <= p["ci95"][1]
    lo, hi = p["win_rate_ci95"]
    assert 0 <= lo <= p["win_rate"] <= hi <= 1
    assert p["hands"] == 2 * p["pairs"] >= 4
    assert p["games"] == 2 * p["game_pairs"] == len(data["games"])
    assert sorted(r["bot"] for r in data["ratings"]) == ["random#1", "random#2"]
    for r in data["ratings"]:
        assert r["ci95"][0] <= r["rating"] <= r["ci95"][1]
    assert data["rules"] == "classic" and data["seed"] == 2
    diffs = []
    seat_hands: Counter[tuple[str, int]] = Counter()
    for game in data["games"]:
        record = GameRecord.from_json(game["record"])  # a NOTATION §4 record ...
        replayed = list(replay(record))  # ... that replays to the same hands and totals
        assert len(replayed) == len(game["hands"])
        for hand, info in zip(replayed, game["hands"]):
            assert hand.state.result is not None
            assert [s.total for s in hand.state.result.sides] == info["totals"]
            if info["paired"]:
                diffs.append(info["diff"])
                for seat, bot in enumerate(game["seats"]):
                    seat_hands[(bot, seat)] += 1
        assert game["winner"] == game["seats"][game["winner_side"]]
        assert game["record"]["players"] == [f"bot:{s}" for s in game["seats"]]
    assert sum(diffs) / len(diffs) == pytest.approx(p["points_per_hand"])
    # in the duplicate pairs both bots held every seat equally often
    assert seat_hands[("random#1", 0)] == seat_hands[("random#2", 0)] == p["pairs"]
    assert len(set(seat_hands.values())) == 1


def test_strength_shows_up_from_a_side(test_bots: None) -> None:
    result = run_arena(ArenaConfig(get_rules("classic"), ("random", "first"), hands=16,
                                   seed=3, bootstrap=50))
    (p,) = result.pairings
    assert p.points_per_hand is not None and p.points_per_hand > 500
    assert p.ci95 is not None and p.ci95[0] > 0
    assert p.win_rate == 1.0
    strong, weak = result.ratings
    assert strong.rating > weak.rating
    # a clean sweep still has a finite rating and an interval of some width
    assert strong.ci95[0] < strong.ci95[1] and weak.ci95[0] < weak.ci95[1]


def test_unfinished_games() -> None:
    result = run_arena(ArenaConfig(get_rules("classic"), ("random", "random"), hands=2,
                                   seed=1, max_hands_per_game=1, bootstrap=10))
    (p,) = result.pairings
    assert (p.games, p.unfinished, p.win_rate, p.win_rate_ci95) == (0, 2, None, None)
    assert p.hands == 2


def test_bot_failures_are_reported(test_bots: None) -> None:
    with pytest.raises(ArenaError, match=r"bot 'broken' at seat .* failed: RuntimeError"):
        run_arena(ArenaConfig(get_rules("classic"), ("random", "broken"), hands=2, seed=1))
    with pytest.raises(ArenaError, match=r"bot 'cheat' .* illegal action"):
        run_arena(ArenaConfig(get_rules("classic"), ("cheat", "random"), hands=2, seed=1))


def test_bad_configs() -> None:
    with pytest.raises(CanastaError, match="unknown bot 'nobody'"):
        run_arena(ArenaConfig(get_rules("classic"), ("random", "nobody"), hands=2, seed=1))
    with pytest.raises(ArenaError, match="two bots"):
        ArenaConfig(get_rules("classic"), ("random",), hands=2, seed=1)
    with pytest.raises(ArenaError, match="hands"):
        ArenaConfig(get_rules("classic"), ("random", "random"), hands=0, seed=1)


class RecordingPool:
    """A worker pool that plays in this process and notes how work was handed out."""

    size = 2

    def __init__(self) -> None:
        self.chunks: list[tuple[int, int]] = []

    def imap(self, func: Callable[[GamePairTask], GamePairResult],
             tasks: Sequence[GamePairTask], chunksize: int) -> Iterator[GamePairResult]:
        self.chunks.append((len(tasks), chunksize))
        return map(func, tasks)


def test_any_pool_gives_the_same_figures_and_cheap_bots_go_in_chunks() -> None:
    config = ArenaConfig(get_rules("classic-2p"), ("random", "greedy"), hands=60, seed=8,
                         bootstrap=20)
    pool = RecordingPool()
    assert _figures(run_arena(config, pool=pool).to_json()) == \
        _figures(run_arena(config).to_json())
    assert pool.chunks[0][0] == 8  # 60 hands at 8 a game pair, before any is played
    assert all(chunksize == chunk_size(tasks, pool.size) for tasks, chunksize in pool.chunks)
    # about four chunks a worker: 250 game pairs go 32 at a time to each of 2 workers
    assert chunk_size(250, 2) == 32 and chunk_size(3, 8) == 1
