"""The arena of every family: one code for any preset, the family's bots seated by their
observation alone, every option of the command line, records that replay."""

from __future__ import annotations

import dataclasses
import json
import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

import pytest

from canasta.actions import Action
from canasta.arena import ArenaConfig, run_arena
from canasta.bots import bot_table
from canasta.classic.family import ClassicFamily
from canasta.family import families, family_of, get_rules, register_family, unregister_family
from canasta.interfaces.cli import main
from canasta.rules import Rules
from tests.arena.test_arena_run import _figures

MODERN = "modern-american"
"""A family other than the first, with bots of its own (heuristic vs greedy games end in a few
hands: seed 1 plays 5 and 6)."""


def test_a_second_family_plays_every_option_of_the_command_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("MPLBACKEND", "Agg")
    run, png = tmp_path / "run.json", tmp_path / "ratings.png"
    assert main(["arena", "--rules", MODERN, "--bots", "heuristic,greedy", "--hands", "2",
                 "--seed", "1", "--jobs", "2", "--bootstrap", "20", "--anchor", "greedy",
                 "--json", str(run), "--plot", str(png), "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert f"arena {MODERN}: heuristic, greedy; seed 1" in out and "on 2 processes" in out
    assert f"wrote {run}" in out and f"wrote {png}" in out
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    data = json.loads(run.read_text())
    assert data["rules"] == MODERN
    assert {r["bot"]: r["rating"] for r in data["ratings"]}["greedy"] == 1500  # the anchor
    assert "greedy = 1500" in data["rating_method"]
    # the worker processes gave the figures of this process
    config = ArenaConfig(get_rules(MODERN), ("heuristic", "greedy"), hands=2, seed=1,
                         keep_records=True, bootstrap=20, anchor=1)
    assert _figures(run_arena(config).to_json()) == _figures(data)
    # every game of the run replays with `canasta replay` to its scores
    (p,) = data["pairings"]
    assert p["games"] == len(data["games"]) == 2
    for game in data["games"]:
        record = tmp_path / "game.json"
        record.write_text(json.dumps(game["record"]))
        assert main(["replay", str(record)]) == 0
        replayed = json.loads(capsys.readouterr().out)
        assert replayed["scores"] == game["scores"] and replayed["over"] is True
        assert len(replayed["hands"]) == len(game["hands"])


@pytest.fixture
def spies() -> Iterator[list[tuple[Any, Any]]]:
    """A ``spy`` bot in every family's table: it notes what it is given and plays at random."""
    seen: list[tuple[Any, Any]] = []

    class Spy:
        name = "spy"

        def choose(self, obs: Any, legal: Sequence[Action], rng: random.Random) -> Action:
            seen.append((obs, list(legal)))
            return rng.choice(list(legal))

    tables = [bot_table(family).bots for family in families()]
    for bots in tables:
        bots["spy"] = Spy
    yield seen
    for bots in tables:
        bots.pop("spy", None)


@pytest.mark.parametrize("preset", [f.default_rules.name for f in families()])
def test_bots_are_given_their_seats_observation_and_the_legal_list(
        preset: str, spies: list[tuple[Any, Any]], monkeypatch: pytest.MonkeyPatch) -> None:
    family = family_of(preset)
    observed: dict[int, tuple[Any, list[Action]]] = {}
    real_observe: Callable[[Any, int], Any] = family.observe

    def observe(position: Any, seat: int) -> Any:
        obs = real_observe(position, seat)
        observed[id(obs)] = (obs, family.legal_actions(position))
        return obs

    monkeypatch.setattr(family, "observe", observe)
    run_arena(ArenaConfig(family.default_rules, ("spy", "random"), hands=2, seed=3,
                          max_hands_per_game=1, bootstrap=0))
    assert spies
    for obs, legal in spies:  # the family's observation of the seat to move, nothing else
        assert observed[id(obs)] == (obs, legal)
        assert obs.seat == obs.to_move


def test_a_family_has_its_own_bots(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "--rules", MODERN, "--bots", "ismcts,random", "--hands", "2"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "unknown bot 'ismcts' for Modern American" in err


def test_rules_as_json_with_a_house_rule(tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    rules = {"preset": "classic-2p", "target_score": 1000}
    run = tmp_path / "run.json"
    assert main(["arena", "--rules", json.dumps(rules), "--bots", "greedy,random", "--hands",
                 "2", "--seed", "1", "--bootstrap", "0", "--json", str(run)]) == 0
    capsys.readouterr()
    data = json.loads(run.read_text())
    assert data["rules"] == rules
    assert all(g["record"]["rules"] == rules for g in data["games"])


@pytest.mark.parametrize(("rules", "message"), [
    ('{"preset": "classic", "target_score": "high"}', "--rules: "),
    ('{"preset": "classic"', "--rules: not JSON"),
    ('{"target_score": 100}', "--rules: a rules object needs a \"preset\""),
])
def test_bad_rules_as_json(rules: str, message: str,
                           capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "--rules", rules, "--bots", "random,random"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("invalid arguments: ") and message in err


@dataclass(frozen=True)
class OneHandRules(Rules):
    """The rules of a family registered by this test."""

    def to_json(self) -> str:
        """The family's one preset, by name."""
        return "one-hand"


class OneHandFamily(ClassicFamily):
    """Two-player classic hands, except that the first hand ends the game, won by side 0."""

    name: ClassVar[str] = "one-hand"
    rules_class: ClassVar[type[Rules]] = OneHandRules

    def presets(self) -> Mapping[str, Rules]:
        fields = {f.name: getattr(get_rules("classic-2p"), f.name)
                  for f in dataclasses.fields(Rules) if f.init}
        return {self.name: OneHandRules(**{**fields, "name": self.name})}

    def rules_from_json(self, value: Any) -> Rules:
        return self.default_rules

    def winner(self, rules: Rules, scores: Sequence[int], position: Any) -> int | None:
        return 0


@pytest.fixture
def one_hand() -> Iterator[OneHandFamily]:
    family = register_family(OneHandFamily())
    yield family
    unregister_family(family.name)


def test_worker_processes_play_a_registered_familys_rules(one_hand: OneHandFamily) -> None:
    config = ArenaConfig(one_hand.default_rules, ("greedy", "random"), hands=4, seed=2,
                         bootstrap=0)
    played = run_arena(config, jobs=2)
    assert [len(t.hands) for u in played.units[0] for t in u.twins] == [1, 1, 1, 1]
    assert all(t.winner == 0 for u in played.units[0] for t in u.twins)
    assert _figures(played.to_json()) == _figures(run_arena(config).to_json())
