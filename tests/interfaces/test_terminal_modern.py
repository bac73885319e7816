"""``canasta play --rules modern-american``: a whole game typed at the terminal, the table and
the refusals as a player reads them, and the saved record."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from pathlib import Path

from rich.console import Console

from canasta.interfaces.terminal.modern import play_game
from canasta.modern_american.game import replay


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
    assert f"Saved to {save}" in out.getvalue()
