"""``canasta play --rules modern-american``: a whole game typed at the terminal, the table and
the refusals as a player reads them, the saved record, and a saved game resumed."""

from __future__ import annotations

import io
import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from canasta.errors import PositionError
from canasta.interfaces.cli import main
from canasta.interfaces.terminal.modern import ModernTable, play_game, play_on
from canasta.modern_american.game import replay
from canasta.modern_american.play import legal_actions
from canasta.rules import get_rules


def scripted(lines: list[str]) -> Iterator[str]:
    yield from lines
    while True:
        yield "1"


def test_a_whole_game_at_the_terminal(tmp_path: Path) -> None:
    out = io.StringIO()
    console = Console(file=out, width=100, highlight=False, color_system=None)
    answers = scripted(["discard JK", "meld Zz", "99", "help"])
    save = tmp_path / "game.json"
    assert play_game(console, lambda prompt: next(answers), seed=3, save=save) == 0
    text = out.getvalue()
    assert "Not allowed: " in text            # a well-formed action the rules refuse
    assert "I did not understand that" in text  # a card that does not exist
    assert "Choose a number from 1 to" in text
    assert "Going out needs two canastas" in text  # help
    assert "Your hand:" in text and "Stock:" in text and "Pile:" in text
    assert "The hand is over:" in text and "canasta and going-out bonuses" in text
    assert "Game over: " in text
    record = json.loads(save.read_text())
    final = list(replay(record))[-1]
    assert final.winner is not None
    assert f"{max(final.scores)} to {min(final.scores)}" in text


def test_quit_saves_the_game_in_progress(tmp_path: Path) -> None:
    out = io.StringIO()
    console = Console(file=out, width=100, highlight=False, color_system=None)
    answers = iter(["1", "1", "quit"])
    save = tmp_path / "game.json"
    assert play_game(console, lambda prompt: next(answers), seed=5, save=save) == 0
    record = json.loads(save.read_text())
    played = list(replay(record))
    assert played[-1].hand.end is None and len(record["hands"][0]["actions"]) >= 2
    assert f"Game saved to {save}" in out.getvalue()


def test_a_hint_names_a_legal_move_and_its_reason(tmp_path: Path) -> None:
    out = io.StringIO()
    console = Console(file=out, width=200, highlight=False, color_system=None)
    answers = iter(["hint", "1", "hint", "quit"])
    assert play_game(console, lambda prompt: next(answers), seed=5,
                     save=tmp_path / "game.json") == 0
    hints = [line for line in out.getvalue().splitlines() if line.startswith("Hint: ")]
    assert len(hints) == 2 and all(" — " in h and h.endswith(".") for h in hints), hints
    table = ModernTable.new(5)
    action, why = table.hint()
    assert action in legal_actions(table.hand) and why
    assert table.hint() == (action, why)  # seeded by the game and the moves so far


# -- saving and resuming -------------------------------------------------------------------------

def _quiet() -> Console:
    return Console(file=io.StringIO(), width=100, highlight=False, color_system=None)


def quit_after(n: int) -> Callable[[str], str]:
    """Answers: the first suggestion ``n`` times, then ``quit``."""
    answers = iter(["1"] * n + ["quit"])
    return lambda prompt: next(answers)


def test_resume_mid_hand_gives_the_same_position(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    table = ModernTable.new(seed=7)
    assert play_on(_quiet(), quit_after(4), table, save) == 0
    assert table.hand.end is None and len(table.actions) > 4  # mid-hand, bots' moves too
    resumed = ModernTable.resume(save.read_text())
    assert resumed.hand == table.hand
    assert (resumed.number, resumed.actions, resumed.scores) == (1, table.actions, [0, 0])
    assert resumed.bots == {1: "modern-heuristic", 2: "modern-heuristic", 3: "modern-heuristic"}
    assert list(replay(json.loads(save.read_text())))[-1].hand == table.hand
    assert resumed.history == table.history and len(table.history) == len(table.actions)


def test_a_bot_that_keeps_a_record_is_told_the_hand_after_a_resume(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from canasta.interfaces.terminal import modern

    save = tmp_path / "game.json"
    assert play_on(_quiet(), quit_after(2), ModernTable.new(seed=7), save) == 0
    record = json.loads(save.read_text())
    record["players"][1] = "bot:modern-search:rollouts=1,width=2"
    told: list[int] = []
    real = modern.tell
    monkeypatch.setattr(modern, "tell", lambda bots, h, a: (told.append(1), real(bots, h, a)))
    resumed = ModernTable.resume(json.dumps(record))
    assert resumed.bots[1] == "modern-search:rollouts=1,width=2"
    before = len(resumed.actions)
    assert play_on(_quiet(), quit_after(10), resumed, None) == 0
    eva = next(i for i, line in enumerate(resumed.actions) if i >= before
               and line.startswith("p1:"))  # the search bot's first move after the resume
    assert len(told) >= eva  # told every action of the hand before its first choice


def test_resume_goes_on_exactly_as_without_the_break(tmp_path: Path) -> None:
    whole = ModernTable.new(seed=11)
    assert play_on(_quiet(), quit_after(40), whole, None) == 0
    assert len(whole.record["hands"]) >= 2  # the run crosses into a second hand
    save = tmp_path / "broken.json"
    first = ModernTable.new(seed=11)
    assert play_on(_quiet(), quit_after(15), first, save) == 0
    resumed = ModernTable.resume(save.read_text())
    assert play_on(_quiet(), quit_after(25), resumed, save) == 0
    assert resumed.record == whole.record and resumed.hand == whole.hand
    assert resumed.scores == whole.scores and json.loads(save.read_text()) == whole.record


def test_a_game_saved_between_two_hands_deals_the_next(tmp_path: Path) -> None:
    whole = ModernTable.new(seed=11)
    assert play_on(_quiet(), quit_after(40), whole, None) == 0
    record = json.loads(json.dumps(whole.record))
    record["hands"] = record["hands"][:1]  # as if stopped once the first hand ended
    resumed = ModernTable.resume(json.dumps(record))
    assert resumed.number == 2 and resumed.actions == []
    assert resumed.record["hands"][1]["deck"] == whole.record["hands"][1]["deck"]
    assert resumed.scores == list(next(replay(record)).scores) != [0, 0]


def _saved(tmp_path: Path, moves: int = 3, seed: int = 2) -> Path:
    save = tmp_path / "game.json"
    assert play_on(_quiet(), quit_after(moves), ModernTable.new(seed), save) == 0
    return save


def test_play_resume_goes_on_with_the_saved_game(tmp_path: Path, monkeypatch: Any,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    save = _saved(tmp_path)
    moves = len(json.loads(save.read_text())["hands"][0]["actions"])
    monkeypatch.setattr(Console, "input", lambda self, prompt="": "quit")
    assert main(["play", "--resume", str(save), "--seed", "4", "--delay", "0"]) == 0
    out = capsys.readouterr().out
    assert f"(hand 1, {moves} moves into it)" in out and "Your hand:" in out
    assert "--seed is ignored when resuming" in out
    assert "Game saved to" in out and "canasta play --resume" in out
    assert len(json.loads(save.read_text())["hands"][0]["actions"]) == moves


def _broken(save: Path) -> None:
    record = json.loads(save.read_text())
    record["hands"][0]["actions"][1] = "p1: discard JK JK"
    save.write_text(json.dumps(record))


def _over(save: Path) -> None:
    """The first hand played to its end under a target of 50 points: the game is over."""
    table = ModernTable.new(seed=11)
    assert play_on(_quiet(), quit_after(40), table, None) == 0
    record = {**table.record, "rules": {"preset": "modern-american", "target_score": 50},
              "hands": table.record["hands"][:1]}
    assert max(next(replay(record)).scores) >= 50
    save.write_text(json.dumps(record))


@pytest.mark.parametrize("spoil, rules, message", [
    (lambda p: p.write_text('{"rules": "modern-american", "hands": ['), None, "bad JSON"),
    (lambda p: p.write_text("{not json"), "modern-american", "not a saved game: bad JSON"),
    (_broken, None, "the record does not replay"),
    (lambda p: p.write_text(json.dumps({**json.loads(p.read_text()), "hands": []})), None,
     "no hand to resume"),
    (lambda p: None, "classic", "it holds a game of modern-american, not classic"),
    (_over, None, "that game is over: "),
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
    from canasta.game import Game

    save = tmp_path / "classic.json"
    save.write_text(Game(get_rules("classic"), seed=1, players=["human"] + ["bot:random"] * 3)
                    .record.dumps())
    assert main(["play", "--resume", str(save), "--rules", "modern-american"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "a game of the classic family, not modern-american" in err
    with pytest.raises(PositionError, match="not modern-american"):
        ModernTable.resume(save.read_text())
