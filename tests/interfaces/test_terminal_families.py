"""``canasta play`` for every family of rules: the same table, commands and saves play each
family's presets, reading what differs from the family's facts; and Modern American at the
terminal as a player reads it (melds of wild cards, laid threes, the turn card, a kept three
hidden from the others), with every option (``--set``, ``--partner``, ``--opponents``), its hint
and its saves resumed."""

from __future__ import annotations

import io
import json
import random
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("rich")

from rich.console import Console

from canasta.bots import make_bot
from canasta.family import families, family_of, get_rules, new_hand, state_from_json
from canasta.game import Game, GameRecord, replay
from canasta.interfaces.cli import main
from canasta.interfaces.terminal import house_rules, render
from canasta.interfaces.terminal.advice import describe
from canasta.interfaces.terminal.app import NEXT_HAND_PROMPT, TerminalApp
from canasta.interfaces.terminal.session import Table

MODERN = "modern-american"
FAMILIES = [f.name for f in families()]


class Script:
    """Answers prompts: the given lines first, then '1' (the first suggestion, Enter between
    hands) ``budget`` times, then 'quit'."""

    def __init__(self, budget: int, first: tuple[str, ...] = ()) -> None:
        self.first = list(first)
        self.budget = budget

    def __call__(self, prompt: str) -> str:
        if self.first:
            return self.first.pop(0)
        if self.budget <= 0:
            return "quit"
        self.budget -= 1
        return "" if prompt == NEXT_HAND_PROMPT else "1"


def run_app(table: Table, reader: Callable[[str], str], width: int = 100) -> tuple[int, str]:
    console = Console(record=True, width=width, file=io.StringIO(), color_system=None)
    status = TerminalApp(table, console, reader).run()
    return status, console.export_text()


def render_text(renderable: object, width: int = 100) -> str:
    console = Console(record=True, width=width, file=io.StringIO(), color_system=None)
    console.print(renderable)
    return console.export_text()


def new_table(tmp_path: Path, preset: str, seed: int = 3, bots: str = "random",
              name: str = "game.json") -> Table:
    return Table.new(get_rules(preset), seed, bots, bots, tmp_path / name)


# -- every family ----------------------------------------------------------------------------

@pytest.mark.parametrize("family_name", FAMILIES)
def test_every_family_plays_at_the_terminal(tmp_path: Path, family_name: str) -> None:
    table = new_table(tmp_path, family_name, seed=4)
    status, text = run_app(table, Script(30, ("legal", "hint", "show", "score", "log")))
    assert status == 0 and "Traceback" not in text
    assert f"Hand 1 · {table.rules.name} · " in text and "Your hand (" in text
    assert "legal action" in text and "Hint: " in text and "Score sheet" in text
    record = GameRecord.loads((tmp_path / "game.json").read_text())
    assert record.rules == table.rules and len(record.hands[0].actions) > 10
    assert list(replay(record))[-1].state == table.state


@pytest.mark.parametrize("family_name", FAMILIES[1:])
def test_every_family_resumes_exactly_as_without_the_break(tmp_path: Path,
                                                           family_name: str) -> None:
    """(The first family's, across the end of a hand: test_terminal.py.)"""
    whole = new_table(tmp_path, family_name, seed=11, name="whole.json")
    run_app(whole, Script(24))
    first = new_table(tmp_path, family_name, seed=11, name="broken.json")
    run_app(first, Script(10))
    record = GameRecord.loads((tmp_path / "broken.json").read_text())
    resumed = Table.resume(record, tmp_path / "broken.json", "heuristic", "heuristic")
    assert [b.spec for b in resumed.bots.values()] == ["random"] * 3  # the record's bots
    assert resumed.state == first.state and resumed.names == first.names
    run_app(resumed, Script(14))
    assert (tmp_path / "whole.json").read_text() == (tmp_path / "broken.json").read_text()


PROTOCOL_FACTS = ("family", "title", "num_players", "num_sides", "partners", "canasta_size",
                  "canastas_to_go_out", "opening_minimum", "meld_keys", "canastas", "pile",
                  "stock")
"""The facts every family states (a new family may state no more)."""


def test_a_family_that_states_only_the_first_facts_plays_at_the_terminal(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    family = families()[0]
    stated = family.facts

    def first_facts(obs: Any) -> dict[str, Any]:
        facts = stated(obs)
        return {key: facts[key] for key in PROTOCOL_FACTS} | {
            "pile": {k: facts["pile"][k] for k in ("size", "top", "frozen", "why")}}

    monkeypatch.setattr(family, "facts", first_facts)
    table = new_table(tmp_path, family.name, seed=21)

    def reader(prompt: str) -> str:
        return "quit" if prompt == NEXT_HAND_PROMPT else "1"

    status, text = run_app(table, reader)
    assert status == 0 and "Traceback" not in text and "internal error" not in text
    assert "Cards left in the other hands" in text and "Total" in text  # the hand's end
    record = GameRecord.loads(table.save_path.read_text())
    from canasta.interfaces.terminal.advice import replay_text

    assert list(replay_text(record))[-1].startswith(("The game goes on", "Game over"))



@pytest.mark.parametrize(("preset", "one", "many"), [("hand-and-foot", "book", "books"),
                                                     ("classic-2p", "canasta", "canastas")])
def test_the_board_and_the_moves_call_a_canasta_by_the_family_s_word(
        preset: str, one: str, many: str) -> None:
    """A completed meld in the family's word (the facts' ``canasta_name``): Hand and Foot's
    books to go out, its sides' books and a book just made; classic's canastas."""
    rules = get_rules(preset)
    family = family_of(rules)
    bot = make_bot("greedy", family)
    names = ["You", "Nina", "Teo", "Carla"][:rules.num_players]
    game, rng, said = Game(rules, seed=1), random.Random(1), []
    while not game.state.is_over:
        state = game.state
        action = bot.choose(family.observe(state, state.to_move), family.legal_actions(state),
                            rng)
        game.apply(action)
        said += describe(family, state, action, game.state, names, viewer=None)
        if any(f" {one} of " in line for line in said):
            break
    made = [line for line in said if f" {one} of " in line]
    assert made and re.search(rf"\(a (natural|mixed|wild) {one} of \w[\w ]*!\)", made[0]), made
    obs = family.observe(game.state, 0)
    text = render_text(render.board(family, obs, names, 1), width=120)
    need = family.facts(obs)["canastas_to_go_out"]
    assert f"{need} {many} to go out" in text
    assert re.search(rf"\b1 {one} \d+", text), text  # the side's running points
    other = "canasta" if one == "book" else "book"
    assert other not in text and not any(f" {other} of " in line for line in said)

# -- Modern American at the table -------------------------------------------------------------

def _take(stock: list[str], *cards: str) -> list[str]:
    for card in cards:
        stock.remove(card)
    return list(cards)


def modern_position() -> Any:
    """A hand of Modern American after the player's draw: a meld of wild cards and threes on
    the player's side, a natural canasta of eights (dead) on the other."""
    position = family_of(MODERN).position_to_json(new_hand(get_rules(MODERN), 4))
    stock = position["stock"]
    position.pop("turn_card")
    position["sides"][0]["melds"] = {"W": _take(stock, "2h", "2h", "JK"),
                                     "Q": _take(stock, "Qc", "Qc", "Qs")}
    position["sides"][0]["threes"] = _take(stock, "3c", "3c")
    position["sides"][1]["melds"] = {"8": _take(stock, "8c", "8c", "8h", "8h", "8d", "8d",
                                                "8s")}
    position["sides"][1]["threes"] = _take(stock, "3s")
    position["pile"] = _take(stock, "Tc", "9d")
    position.update(to_move=0, phase="play",
                    turn={"threes_chosen": True, "kept": None, "drew": True, "took": False,
                          "opening": False, "talon": 0, "melded": False})
    return state_from_json(position)


def test_the_modern_american_board_reads_the_family_facts() -> None:
    state = modern_position()
    family = family_of(state)
    names = ["You", "Nina", "Teo", "Carla"]
    text = render_text(render.board(family, family.observe(state, 0), names, 1, "seed 4",
                                    ["", "easy", "medium", "hard"]), width=120)
    assert "Hand 1 · modern-american · your turn: meld, then discard" in text
    assert "Game to 8500, 2 canastas to go out: You & Teo 0 · Nina & Carla 0" in text
    assert "(the turn card still in it)" in text
    assert "Pile 2, top 9♦ · always frozen: a natural pair picks it · dead: 8" in text
    assert "Nina (easy) 13 cards · Teo (medium, partner) 13 cards · Carla (hard) 13 cards D" \
        not in text  # the dealer is seat 0
    assert "Teo (medium, partner) 13 cards" in text
    assert "  Q 3  W 3" in text  # the meld of wild cards, keyed W, after the ranks
    assert "[8 7 natural]" in text
    # the side's points as the hand would end now: a meld of wild cards short of a canasta
    # costs its penalty, laid threes count against a side without a canasta
    assert "You & Teo -2420 (melds -120 · penalties -2000) · threes -300 3♣ 3♣" in text
    assert "Nina & Carla +570 (melds 70 · 1 canasta 500) · threes +0 3♠" in text


def test_a_bots_kept_three_is_hidden_from_the_player() -> None:
    state = new_hand(get_rules(MODERN), 4)
    family = family_of(state)
    keep = next(a for a in family.legal_actions(state) if a.verb == "keep"
                and family.format_action(state.rules, a) != "keep none")
    kept = family.format_action(state.rules, keep)[5:]
    after = family.apply(state, keep)
    names = ["You", "Nina", "Teo", "Carla"]
    seen_by_you = describe(family, state, keep, after, names, viewer=0)
    assert seen_by_you == ["Nina lays threes 3d 3s"]  # the threes laid, not the one kept
    assert describe(family, state, keep, after, names, viewer=None)[0].startswith(
        f"Nina keeps {kept} in hand")
    as_nina = describe(family, state, keep, after, ["A", "You", "B", "C"], viewer=1)
    assert as_nina[0].startswith(f"You keep {kept} in hand")


def test_a_step_of_the_familys_own_comes_first_at_the_table(tmp_path: Path) -> None:
    """Dealt a three while the side has not melded, the player first says which to keep:
    the table and the prompt say so, and the short list offers the choices."""
    table = new_table(tmp_path, MODERN, seed=0)
    prompts: list[str] = []

    def reader(prompt: str) -> str:
        prompts.append(prompt)
        return "keep none" if len(prompts) == 1 else "quit"

    status, text = run_app(table, reader)
    assert status == 0 and prompts == ["keep> ", "draw/take> "]
    assert "your turn: keep first" in text and "Keep  1 3" in text and " none" in text
    assert "You keep no three and lay " in text


def test_a_whole_modern_american_game_typed_at_the_terminal(tmp_path: Path) -> None:
    rules = house_rules(get_rules(MODERN), ["target_score=100"])  # one hand, for speed
    table = Table.new(rules, 2, "easy", "easy", tmp_path / "game.json")
    reader = Script(200, ("discard JK", "meld Zz", "99", "help", "legal"))
    status, text = run_app(table, reader)
    assert status == 0
    assert "Not allowed: " in text             # a well-formed action the rules refuse
    assert "Cannot read that: " in text        # a card that does not exist
    assert "There is no suggestion 99" in text
    assert "meld W: 2c 2d JK" in text          # help shows the family's own actions
    assert "legal action" in text and "Cards left in the other hands" in text
    assert "Canasta and going-out bonuses" in text and "Threes laid" in text
    assert "Score sheet (game to 100)" in text and "Game over: " in text
    record = GameRecord.loads((tmp_path / "game.json").read_text())
    hands = list(replay(record))
    assert max(hands[-1].scores) >= 100 and hands[-1].state.is_over


def test_modern_american_takes_every_option_of_play(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    answers = iter(["legal", "quit"])
    monkeypatch.setattr("builtins.input", lambda prompt="": next(answers))
    save = tmp_path / "game.json"
    assert main(["play", "--rules", MODERN, "--set", "special_hands=pagat", "--set",
                 "target_score=5000", "--partner", "greedy", "--opponents", "medium",
                 "--seed", "5", "--save", str(save), "--delay", "0"]) == 0
    out = capsys.readouterr().out
    assert "canasta play · modern-american · with " in out
    assert "(medium)" in out and "(easy)" in out  # the greedy bot is the easy level
    assert "legal action" in out and "Game saved to" in out
    record = GameRecord.loads(save.read_text())
    assert record.rules.to_json() == {"preset": MODERN, "special_hands": "pagat",
                                      "target_score": 5000}
    assert record.players == ("human", "bot:medium", "bot:greedy", "bot:medium")


def test_a_bad_option_for_the_family_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--rules", MODERN, "--set", "hand_size=11"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("invalid --set: ") and err.count("\n") == 1
    assert main(["play", "--rules", MODERN, "--opponents", "heuristic-v2"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("invalid bot: unknown bot 'heuristic-v2' for Modern American")


# -- saving and resuming Modern American --------------------------------------------------------

def _saved(tmp_path: Path, moves: int = 4, seed: int = 2) -> Path:
    table = new_table(tmp_path, MODERN, seed=seed, bots="heuristic")
    run_app(table, Script(moves))
    return table.save_path


def test_play_resume_goes_on_with_a_saved_modern_american_game(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    save = _saved(tmp_path)
    moves = len(json.loads(save.read_text())["hands"][0]["actions"])
    monkeypatch.setattr("builtins.input", lambda prompt="": "quit")
    assert main(["play", "--resume", str(save), "--seed", "4", "--delay", "0"]) == 0
    out = capsys.readouterr().out
    assert f"(hand 1, {moves} moves into it)" in out and "Your hand (" in out
    assert "--seed is ignored when resuming" in out
    assert "Game saved to" in out and "canasta play --resume" in out
    assert len(json.loads(save.read_text())["hands"][0]["actions"]) == moves


def test_a_save_of_the_old_modern_american_table_resumes(tmp_path: Path) -> None:
    """Saves of the first Modern American table wrote each action with its seat (``p1:``) and
    named its bots ``modern-heuristic``: they resume with those bots."""
    table = new_table(tmp_path, MODERN, seed=7, bots="heuristic")
    run_app(table, Script(6))
    record = GameRecord.loads(table.save_path.read_text())
    family = family_of(record.rules)
    state = family.new_hand(record.rules, deck=record.hands[0].deck,
                            dealer=record.hands[0].dealer)
    lines = []
    for line in record.hands[0].actions:
        lines.append(f"p{state.to_move}: {line}")
        state = family.apply(state, family.parse_action(record.rules, line))
    old = record.to_json()
    old["hands"][0]["actions"] = lines
    old["players"] = ["human", *["bot:modern-heuristic"] * 3]
    path = tmp_path / "old.json"
    path.write_text(json.dumps(old))
    resumed = Table.resume(GameRecord.loads(path.read_text()), path, "random", "random")
    assert resumed.state == table.state and not resumed.notes
    assert [b.spec for b in resumed.bots.values()] == ["modern-heuristic"] * 3


def _broken(save: Path) -> None:
    record = json.loads(save.read_text())
    record["hands"][0]["actions"][1] = "discard JK JK"
    save.write_text(json.dumps(record))


@pytest.mark.parametrize("spoil, rules, message", [
    (lambda p: p.write_text('{"rules": "modern-american", "hands": ['), None, "bad JSON"),
    (lambda p: p.write_text("{not json"), MODERN, "bad JSON"),
    (_broken, None, "hand 1, action 2"),
    (lambda p: p.write_text(json.dumps({**json.loads(p.read_text()), "hands": []})), None,
     "no hand to resume"),
    (lambda p: None, "classic", "it holds a game of Modern American Canasta, not classic"),
])
def test_a_save_that_cannot_be_resumed_is_one_line(
        tmp_path: Path, spoil: Callable[[Path], None], rules: str | None, message: str,
        capsys: pytest.CaptureFixture[str]) -> None:
    save = _saved(tmp_path)
    spoil(save)
    assert main(["play", "--resume", str(save), *(["--rules", rules] if rules else [])]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(f"cannot resume {str(save)!r}: "), err
    assert message in err


def test_a_classic_save_is_not_resumed_as_modern_american(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    save = tmp_path / "classic.json"
    save.write_text(Game(get_rules("classic"), seed=1, players=["human"] + ["bot:random"] * 3)
                    .record.dumps())
    assert main(["play", "--resume", str(save), "--rules", MODERN]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "it holds a game of Classic Canasta, not modern-american" in err


def test_a_modern_american_game_saved_between_two_hands_deals_the_next(tmp_path: Path) -> None:
    table = new_table(tmp_path, MODERN, seed=11, bots="heuristic")

    def reader(prompt: str) -> str:
        return "quit" if prompt == NEXT_HAND_PROMPT else "1"

    status, text = run_app(table, reader)
    assert status == 0 and "Cards left in the other hands" in text
    record = GameRecord.loads(table.save_path.read_text())
    assert len(record.hands) == 1 and table.state.is_over
    resumed = Table.resume(record, table.save_path, "random", "random")
    status, text = run_app(resumed, Script(2))
    assert "Hand 1: " in text and "Hand 2: " in text  # the breakdown again, then the deal
    assert len(GameRecord.loads(table.save_path.read_text()).hands) == 2


def test_a_take_that_leaves_part_of_the_pile_says_how_many_cards_moved() -> None:
    """Hand and Foot moves the pile's top seven cards (HF §7.3): the move says seven, and what
    is left; a take of the whole pile says the pile."""
    import canasta
    from tests.hand_and_foot.builders import position

    pile = "4c 5c 6c 7c 8c 9c Tc Jc Qc Kh"
    opened = {"NS": {"Q": "Qd Qh Qs"}}
    state = position(phase="draw", to_move="N", hands={"N": "Kc Kd 5h 6h"}, pile=pile,
                     melds=opened)
    family = canasta.family_of(state)
    action = canasta.parse_action("take Kc Kd", state.rules)
    after = canasta.apply(state, action)
    names = ["Ann", "Nina", "Mara", "Carla"]
    said = describe(family, state, action, after, names, viewer=None)[0]
    assert "takes 7 cards of the pile (3 left)" in said, said
    whole = position(phase="draw", to_move="N", hands={"N": "Kc Kd 5h 6h"}, pile="9c Kh",
                     melds=opened)
    said = describe(family, whole, action, canasta.apply(whole, action), names, viewer=None)[0]
    assert "takes the pile (2 cards)" in said, said
