"""The command line of NOTATION §5: outputs, exit statuses and error lines."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from canasta import get_rules, legal_actions, new_hand
from canasta.game import Game
from canasta.position import state_to_json

SHARED = Path(__file__).resolve().parents[3] / "shared" / "conformance" / "cli_contract.py"


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "canasta", *args], input=stdin,
                          capture_output=True, text=True, timeout=120)


def write(tmp_path: Path, data: Any, name: str = "pos.json") -> str:
    path = tmp_path / name
    path.write_text(json.dumps(data))
    return str(path)


def test_deal_is_seeded_and_complete() -> None:
    first = run("deal", "--rules", "classic", "--seed", "7")
    assert first.returncode == 0, first.stderr
    assert run("deal", "--rules", "classic", "--seed", "7").stdout == first.stdout
    assert run("deal", "--rules", "classic", "--seed", "8").stdout != first.stdout
    pos = json.loads(first.stdout)
    assert pos == state_to_json(new_hand(get_rules("classic"), 7))
    assert [len(h) for h in pos["hands"]] == [11, 11, 11, 11]


def test_deal_options() -> None:
    out = run("deal", "--rules", "korean-old", "--seed", "1", "--dealer", "2",
              "--scores", "1500,-20")
    pos = json.loads(out.stdout)
    assert (pos["dealer"], pos["to_move"]) == (2, 3)
    assert [s["score"] for s in pos["sides"]] == [1500, -20]


@pytest.mark.parametrize("scores", [["--scores", "-35,0"], ["--scores=-35,0"],
                                    ["--scores", "-35,-5"]])
def test_deal_takes_a_negative_first_score_as_written(scores: list[str]) -> None:
    out = run("deal", "--rules", "classic", "--seed", "1", *scores)
    assert out.returncode == 0, out.stderr
    first = int(scores[-1].removeprefix("--scores=").split(",")[0])
    assert json.loads(out.stdout)["sides"][0]["score"] == first == -35


def test_legal_prints_one_canonical_action_per_line(tmp_path: Path) -> None:
    state = new_hand(get_rules("classic"), 3)
    out = run("legal", write(tmp_path, state_to_json(state)))
    assert out.returncode == 0
    lines = out.stdout.splitlines()
    assert lines[0] == "draw" and len(lines) == len(set(lines))


def test_apply_reads_standard_input_and_applies_in_order() -> None:
    state = new_hand(get_rules("classic"), 3)
    card = state.hands[state.to_move][0]
    from canasta import format_card

    out = run("apply", "-", "draw", f"discard {format_card(card)}",
              stdin=json.dumps(state_to_json(state)))
    assert out.returncode == 0, out.stderr
    pos = json.loads(out.stdout)
    assert pos["phase"] == "draw" and pos["to_move"] == (state.to_move + 1) % 4
    assert pos["pile"][-1] == format_card(card)


def test_an_illegal_action_exits_1_with_one_line_naming_the_rule(tmp_path: Path) -> None:
    state = new_hand(get_rules("classic"), 3)
    out = run("apply", write(tmp_path, state_to_json(state)), "meld Kh Kd Ks")
    assert out.returncode == 1
    assert out.stdout == ""
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("illegal action 'meld Kd Kh Ks'")
    assert "draw" in lines[0]


@pytest.mark.parametrize(("args", "stdin", "fragment"), [
    (["apply", "-", "fold"], "POS", "unknown verb"),
    (["apply", "-", "discard 1x"], "POS", "unknown card"),
    (["legal", "-"], "{not json", "bad JSON"),
    (["legal", "-"], '{"rules": "classic"}', "missing key"),
    (["legal", "-"], '{"rules": "nope"}', "unknown preset 'nope'"),
    (["deal", "--rules", "nope"], None, "unknown preset"),
    (["legal", "/no/such/file.json"], None, "cannot read"),
    (["deal"], None, "--rules"),
    (["frobnicate"], None, "invalid"),
])
def test_bad_input_exits_2_with_one_line_starting_invalid(
        args: list[str], stdin: str | None, fragment: str) -> None:
    if stdin == "POS":
        stdin = json.dumps(state_to_json(new_hand(get_rules("classic"), 3)))
    out = run(*args, stdin=stdin)
    assert out.returncode == 2, out.stderr
    assert out.stdout == ""
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("invalid"), lines
    assert fragment in lines[0]
    assert "Traceback" not in out.stderr


@pytest.mark.parametrize("mutate", [
    lambda p: p.update(rules={"preset": "classic", "no_such_field": 1}),
    lambda p: p.update(rules={"preset": "classic", "hand_size": "eleven"}),
    lambda p: p.update(to_move=9),
    lambda p: p["hands"][0].extend(["JK"] * 5),
    lambda p: p.update(phase="dance"),
    lambda p: p["hands"][1].append("3h"),
])
def test_invalid_positions_exit_2(tmp_path: Path, mutate: Any) -> None:
    pos = state_to_json(new_hand(get_rules("classic"), 3))
    mutate(pos)
    out = run("legal", write(tmp_path, pos))
    assert out.returncode == 2
    assert out.stderr.startswith("invalid")


def test_replay_prints_each_hand_and_the_final_scores(tmp_path: Path) -> None:
    import random

    from canasta import legal_actions

    game = Game(get_rules("classic"), seed=4)
    rng = random.Random(4)
    for _ in range(2):
        while not game.state.is_over:
            game.apply(rng.choice(legal_actions(game.state)))
        game.next_hand()
    path = write(tmp_path, game.record.to_json(), "game.json")
    out = run("replay", path)
    assert out.returncode == 0, out.stderr
    report = json.loads(out.stdout)
    assert len(report["hands"]) == 3  # two ended hands and the one just dealt
    assert report["hands"][1]["scores"] == list(game.scores)
    assert report["scores"] == list(game.scores)


def test_replay_text_tells_the_game_move_by_move(tmp_path: Path) -> None:
    game = Game(get_rules("classic"), seed=4)
    game.apply("draw")
    out = run("replay", "--text", write(tmp_path, game.record.to_json(), "game.json"))
    assert out.returncode == 0, out.stderr
    assert "Hand 1" in out.stdout and "draw" in out.stdout.lower()


def test_replay_of_an_illegal_record_exits_1(tmp_path: Path) -> None:
    game = Game(get_rules("classic"), seed=4)
    record = game.record.to_json()
    record["hands"][0]["actions"] = ["draw", "draw"]
    out = run("replay", write(tmp_path, record, "bad.json"))
    assert out.returncode == 1
    assert out.stderr.startswith("illegal action 'draw'") and "hand 1, action 2" in out.stderr


OLD_SAVE = Path(__file__).resolve().parents[1] / "saves" / (
    "classic-6p-3x2-saved-before-the-one-card-rule.json")


def test_replay_of_a_save_from_before_the_one_card_rule_says_how_it_replays(
        tmp_path: Path) -> None:
    """A record names the preset as it is now; one saved before RULES §1.12.6 changed is told
    how it replays, and does with the older rule written into it."""
    out = run("replay", str(OLD_SAVE))
    assert out.returncode == 1 and out.stdout == ""
    assert out.stderr.startswith("illegal action 'take': hand 1, action 150: a player holding")
    assert '"one_card_pile_take_ban": "stock_out"' in out.stderr
    assert len(out.stderr.splitlines()) == 1
    record = json.loads(OLD_SAVE.read_text())
    record["rules"] = {"preset": record["rules"], "one_card_pile_take_ban": "stock_out"}
    fixed = run("replay", write(tmp_path, record, "fixed.json"))
    assert fixed.returncode == 0, fixed.stderr
    assert json.loads(fixed.stdout)["rules"] == record["rules"]


def test_help_explains_the_commands() -> None:
    out = run("--help")
    assert out.returncode == 0
    for word in ("deal", "legal", "apply", "replay", "exit status"):
        assert word in out.stdout


@pytest.mark.skipif(not SHARED.exists(), reason="the shared conformance sample is not present")
def test_public_contract_sample(tmp_path: Path) -> None:
    launcher = tmp_path / "canasta"
    launcher.write_text(f"#!/bin/sh\nexec {sys.executable} -m canasta \"$@\"\n")
    launcher.chmod(0o755)
    out = subprocess.run([sys.executable, str(SHARED), str(launcher)], capture_output=True,
                         text=True, timeout=600)
    assert out.returncode == 0, out.stdout + out.stderr


def test_deal_takes_a_rules_object() -> None:
    out = run("deal", "--rules", '{"preset": "classic", "hand_size": 13}', "--seed", "1")
    assert out.returncode == 0, out.stderr
    pos = json.loads(out.stdout)
    assert pos["rules"] == {"preset": "classic", "hand_size": 13}
    assert [len(h) for h in pos["hands"]] == [13] * 4
    bad = run("deal", "--rules", '{"preset":', "--seed", "1")
    assert bad.returncode == 2 and bad.stderr.startswith("invalid")


def test_a_result_naming_a_seat_beyond_the_table_is_invalid(tmp_path: Path) -> None:
    game = Game(get_rules("classic"), seed=5)
    while not game.state.is_over:
        game.apply(legal_actions(game.state)[0])
    data = state_to_json(game.state)
    assert run("legal", write(tmp_path, data)).returncode == 0
    data["result"]["went_out"] = 9
    out = run("legal", write(tmp_path, data))
    assert out.returncode == 2 and "went_out" in out.stderr
