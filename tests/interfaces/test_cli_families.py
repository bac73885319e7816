"""The engine commands (deal, legal, apply, replay, hint) for every family of rules: a position
or record says its family by its rules, and each command answers it with the same exit statuses
and error lines as classic Canasta's (NOTATION §5)."""

from __future__ import annotations

import io
import json
import random
import sys
from contextlib import redirect_stderr, redirect_stdout
from typing import Any

import pytest

from canasta.bots import bot_table, make_bot
from canasta.family import families, family_of, get_rules, new_hand, preset_names, state_to_json
from canasta.game import Game
from canasta.interfaces.cli import main

MODERN = "modern-american"


def run(*argv: str, stdin: str = "") -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    old = sys.stdin
    sys.stdin = io.StringIO(stdin)
    try:
        with redirect_stdout(out), redirect_stderr(err):
            code = main(list(argv))
    finally:
        sys.stdin = old
    return code, out.getvalue(), err.getvalue()


def played(rules: Any, seed: int, hands: int, bot: str = "random",
           players: list[str] | None = None) -> Game:
    """A game of ``hands`` hands (or to its end) played by bots of ``bot`` in every seat."""
    family = family_of(rules)
    game = Game(rules, seed=seed, players=players)
    player = make_bot(bot, family)
    rng = random.Random(seed)
    for number in range(hands):
        while not game.state.is_over:
            seat = game.state.to_move
            game.apply(player.choose(family.observe(game.state, seat),
                                     family.legal_actions(game.state), rng))
        if number + 1 < hands:
            game.next_hand()
            if game.is_over:
                break
    return game


@pytest.mark.parametrize("preset", preset_names())
def test_every_preset_deals_lists_and_applies(preset: str) -> None:
    code, dealt, err = run("deal", "--rules", preset, "--seed", "4")
    assert code == 0, err
    position = json.loads(dealt)
    rules = get_rules(preset)
    assert position == state_to_json(new_hand(rules, 4))
    code, listed, _ = run("legal", "-", stdin=dealt)
    assert code == 0 and listed
    first = listed.splitlines()[0]
    code, after, err = run("apply", "-", f"p{position['to_move']}: {first}", stdin=dealt)
    assert code == 0, err
    assert json.loads(after) != position


def test_the_command_line_plays_modern_american() -> None:
    code, dealt, _ = run("deal", "--rules", MODERN, "--seed", "4")
    assert code == 0
    position = json.loads(dealt)
    assert position["rules"] == MODERN and position["pile"] == []
    assert [len(h) for h in position["hands"]] == [13] * 4 and len(position["stock"]) == 56
    assert position["turn_card"] == position["stock"][-9]
    code, listed, _ = run("legal", "-", stdin=dealt)
    assert code == 0 and listed.split("\n")[0].startswith(("keep", "draw", "take"))
    first = listed.split("\n")[0]
    code, after, _ = run("apply", "-", first, stdin=dealt)
    assert code == 0 and json.loads(after)["to_move"] == position["to_move"]
    code, out, err = run("apply", "-", "discard JK", stdin=dealt)
    assert code == 1 and out == "" and err.startswith("illegal action")
    code, out, err = run("apply", "-", "p2: draw", stdin=dealt)
    assert code == 1 and out == "" and err.startswith("illegal action 'draw': p2 is not to move")
    code, out, err = run("apply", "-", "special Nothing", stdin=dealt)
    assert code == 2 and out == "" and err.startswith("invalid")
    bad = dict(position, hands=[["JK"] * 5] + position["hands"][1:])
    code, out, err = run("legal", "-", stdin=json.dumps(bad))
    assert code == 2 and "more copies" in err


def test_a_modern_american_position_deals_under_its_own_rules() -> None:
    rules = {"preset": MODERN, "draw_count": 2, "target_score": 3000}
    code, dealt, _ = run("deal", "--rules", json.dumps(rules), "--seed", "1")
    assert code == 0 and json.loads(dealt)["rules"] == rules
    code, _, err = run("deal", "--rules", MODERN, "--scores", "1,2,3")
    assert code == 2 and err.startswith("invalid") and "3 scores given for 2 sides" in err
    code, _, err = run("deal", "--rules", MODERN, "--dealer", "4")
    assert code == 2 and "dealer 4 is not a seat of 4 players" in err


def test_the_command_line_replays_a_modern_american_record() -> None:
    game = played(get_rules(MODERN), seed=2, hands=2, players=["ann", "bob", "cat", "dan"])
    record = game.record.to_json()
    code, out, _ = run("replay", "-", stdin=json.dumps(record))
    report = json.loads(out)
    scores = [s + t for s, t in zip(game.scores, game.family.totals(game.state))]
    assert code == 0 and report["scores"] == scores and report["rules"] == MODERN
    assert [h["hand"] for h in report["hands"]] == [1, 2]
    assert "went_out" in report["hands"][0]["result"]
    code, text, _ = run("replay", "--text", "-", stdin=json.dumps(record))
    assert code == 0 and "Hand 2: bob deals" in text and "hand scores: ann & cat " in text
    assert text.rstrip().splitlines()[-1].startswith(("The game goes on (to 8500)",
                                                      "Game over"))
    broken = dict(record, hands=[dict(record["hands"][0], actions=["discard 2c"])])
    code, out, err = run("replay", "-", stdin=json.dumps(broken))
    assert code == 1 and out == "" and err.startswith("illegal action")
    code, out, err = run("replay", "--text", "-", stdin=json.dumps(broken))
    assert code == 1 and out == ""  # an illegal record prints nothing


def test_a_modern_american_record_whose_hands_do_not_follow_is_invalid() -> None:
    record = played(get_rules(MODERN), seed=3, hands=2).record.to_json()
    wrong_dealer = dict(record, hands=[record["hands"][0], dict(record["hands"][1], dealer=3)])
    code, out, err = run("replay", "-", stdin=json.dumps(wrong_dealer))
    assert code == 2 and out == "" and "the dealer should be seat 1" in err
    unfinished = dict(record, hands=[dict(record["hands"][0], actions=[]), record["hands"][1]])
    code, out, err = run("replay", "-", stdin=json.dumps(unfinished))
    assert code == 2 and "is not over, but another hand follows" in err


def test_replay_text_tells_a_modern_american_game_as_it_was_played() -> None:
    """Threes laid, a kept three (every card is face up in a replay), melds of the family's
    keys, the talon after the discard, and how each hand ended."""
    game = played(get_rules(MODERN), seed=5, hands=3, bot="heuristic")
    code, text, err = run("replay", "--text", "-", stdin=game.record.dumps())
    assert code == 0, err
    assert "the pile starts empty" in text
    assert " lays a three " in text or " lays threes " in text
    assert " and gets " in text  # a talon after the first meld
    assert "canasta of" in text
    assert text.count("hand scores:") == sum(1 for _, st in game.finished) + (
        1 if game.state.is_over and not game.is_over else 0)


# -- canasta hint ----------------------------------------------------------------------------

def _mid_hand(family_name: str) -> str:
    """A position a few moves into a hand of the family's default preset."""
    family = families()[[f.name for f in families()].index(family_name)]
    rules = family.default_rules
    state = family.new_hand(rules, 6)
    rng = random.Random(6)
    for _ in range(9):
        state = family.apply(state, rng.choice(family.legal_actions(state)))
    return json.dumps(family.position_to_json(state))


@pytest.mark.parametrize("family_name", [f.name for f in families()])
def test_hint_prints_the_move_and_its_reason(family_name: str) -> None:
    position = _mid_hand(family_name)
    code, out, err = run("hint", "-", "--level", "medium", stdin=position)
    assert code == 0, err
    action, reason = out.rstrip("\n").split("\n")
    code, listed, _ = run("legal", "-", stdin=position)
    assert action in listed.splitlines() and reason
    assert run("hint", "-", "--level", "medium", stdin=position)[1] == out  # seeded
    code, out, err = run("hint", "-", "--bot", "random", "--seed", "3", "--json",
                         stdin=position)
    answer = json.loads(out)
    assert code == 0 and set(answer) == {"action", "reason", "bot", "seat"}
    assert answer["action"] in listed.splitlines() and answer["bot"] == "random"
    assert answer["seat"] == json.loads(position)["to_move"]


@pytest.mark.parametrize("family_name", [f.name for f in families()])
def test_hint_asks_the_family_hint_level_by_default(family_name: str,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    from canasta import bots

    asked: list[tuple[str, str]] = []
    real = bots.make_bot

    def spy(spec: str, family: Any = None) -> Any:
        asked.append((spec, family_of(family).name))
        return real("random", family)

    monkeypatch.setattr(bots, "make_bot", spy)
    code, _, err = run("hint", "-", stdin=_mid_hand(family_name))
    assert code == 0, err
    assert asked == [(bots.bot_table(family_name).hint_level, family_name)]


@pytest.mark.parametrize(("args", "stdin", "says"), [
    (["--bot", "nobody"], "MID", "invalid --bot: unknown bot 'nobody'"),
    (["--level", "grandmaster"], "MID", "invalid --level 'grandmaster': one of easy"),
    (["--level", "easy", "--bot", "random"], "MID", "not allowed with argument"),
    ([], "OVER", "the hand is over"),
    ([], "{not json", "bad JSON"),
    ([], '{"rules": "nope"}', "unknown preset"),
])
def test_hint_refuses_what_it_cannot_answer_in_one_line(args: list[str], stdin: str,
                                                        says: str) -> None:
    if stdin == "MID":
        stdin = _mid_hand(families()[0].name)
    elif stdin == "OVER":
        game = played(families()[0].default_rules, seed=1, hands=1)
        stdin = json.dumps(state_to_json(game.state))
    code, out, err = run("hint", "-", *args, stdin=stdin)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("invalid") and says in err, err


def test_hint_help_answers_what_a_user_asks() -> None:
    code, out, _ = run("hint", "--help")
    assert code == 0
    for words in ("--bot", "--level", "--seed", "--json", "easy, medium, hard and expert",
                  "exit status", "never the other hands"):
        assert words in out
    for family in families():  # what --bot and --level accept, family by family
        table = bot_table(family)
        assert f"{family.title} ({family.name}" in out
        assert "bots: " + ", ".join(table.bots) in " ".join(out.split())
    code, played_help, _ = run("play", "--help")
    assert code == 0 and "bots (a name, or name:key=value,...) and levels" in played_help
    code, out, _ = run("--help")
    assert code == 0 and "hint" in out and MODERN in out  # every preset of every family

