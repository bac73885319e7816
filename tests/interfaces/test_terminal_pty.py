"""``canasta play`` in a real pseudo-terminal (stdlib ``pty``): readline, rich and the input loop.

The session reads the screen and answers each prompt: a few commands first (help, a bad line, an
illegal action, tab completion of 'dr' + Tab), then the first numbered suggestion at every
prompt until the hand's score breakdown appears; Enter deals the next hand, and 'quit' saves and
leaves. The saved record must replay with :func:`canasta.game.replay`.
"""

from __future__ import annotations

import fcntl
import os
import pty
import re
import select
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

import pytest

pytest.importorskip("rich")

from canasta.game import GameRecord, replay

ANSI = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(\x07|\x1b\\)|\x1b[=>()][0-9A-B]?")
PROMPT = re.compile(r"(draw/take|meld/discard|yes/no|press Enter for the next hand \(or quit\))"
                    r"> $")
SRC = Path(__file__).resolve().parents[2] / "src"
WAIT = 60.0
"""Seconds to wait for the screen: generous, so a busy machine does not fail the test."""


def _controlling_terminal() -> None:
    """In the child: a new session whose controlling terminal is the pty (so Ctrl-C signals)."""
    os.setsid()
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)


class Terminal:
    """A process on a pseudo-terminal of 80×24, with the screen as clean text."""

    def __init__(self, args: list[str], env: dict[str, str]) -> None:
        master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
        self.proc = subprocess.Popen(args, stdin=slave, stdout=slave, stderr=slave, env=env,
                                     preexec_fn=_controlling_terminal, close_fds=True)
        os.close(slave)
        self.fd = master
        self.raw = b""
        self.seen = 0  # how much of the screen text the test has read

    def text(self) -> str:
        return ANSI.sub("", self.raw.decode("utf-8", "replace")).replace("\r", "")

    def _pump(self, timeout: float) -> bool:
        ready, _, _ = select.select([self.fd], [], [], timeout)
        if not ready:
            return False
        try:
            data = os.read(self.fd, 65536)
        except OSError:  # the child closed the terminal
            data = b""
        if not data:
            raise EOFError
        self.raw += data
        return True

    def expect(self, pattern: re.Pattern[str] | str, timeout: float = WAIT) -> re.Match[str]:
        """Wait for ``pattern`` in the text after what was read so far."""
        regex = re.compile(pattern) if isinstance(pattern, str) else pattern
        deadline = time.monotonic() + timeout
        while True:
            match = regex.search(self.text(), self.seen)
            if match:
                self.seen = match.end()
                return match
            if time.monotonic() > deadline:
                tail = self.text()[-2000:]
                raise AssertionError(f"no {regex.pattern!r} on the screen; it ends with:\n{tail}")
            try:
                self._pump(0.2)
            except EOFError:
                raise AssertionError(f"the program ended before {regex.pattern!r}:\n"
                                     f"{self.text()[-2000:]}") from None

    def prompt(self) -> str:
        """Wait until the program waits for input; returns the prompt's name."""
        deadline = time.monotonic() + WAIT
        while True:
            text = self.text()
            match = PROMPT.search(text, self.seen)
            if match and match.end() == len(text):
                self.seen = match.end()
                return match.group(1)
            if time.monotonic() > deadline:
                raise AssertionError(f"no prompt; the screen ends with:\n{text[-2000:]}")
            try:
                self._pump(0.2)
            except EOFError:
                raise AssertionError(f"the program ended:\n{text[-2000:]}") from None

    def send(self, line: str, enter: bool = True) -> None:
        os.write(self.fd, (line + ("\r" if enter else "")).encode())

    def wait(self, timeout: float = WAIT) -> int:
        deadline = time.monotonic() + timeout
        while self.proc.poll() is None and time.monotonic() < deadline:
            try:
                self._pump(0.1)
            except EOFError:
                break
        return self.proc.wait(timeout=max(0.1, deadline - time.monotonic()))

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        os.close(self.fd)


def start(tmp_path: Path, *args: str) -> Terminal:
    env = dict(os.environ, TERM="xterm", COLUMNS="100", LINES="50",
               PYTHONPATH=os.pathsep.join([str(SRC), os.environ.get("PYTHONPATH", "")]),
               XDG_DATA_HOME=str(tmp_path / "data"), HOME=str(tmp_path))
    env.pop("NO_COLOR", None)
    return Terminal([sys.executable, "-m", "canasta.interfaces.cli", "play", *args], env)


def test_a_whole_hand_in_a_terminal(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    term = start(tmp_path, "--seed", "1", "--partner", "random", "--opponents", "random",
                 "--save", str(save), "--delay", "0")
    try:
        term.expect(f"Saving the game to {save}")
        assert term.prompt() == "draw/take"
        screen = term.text()
        assert "Your hand (11)" in screen and "Stock " in screen and "Pile " in screen
        assert "50 to open" in screen

        term.send("help")
        term.expect("Short cuts")
        assert term.prompt() == "draw/take"
        term.send("fetch")
        term.expect("Cannot read that: unknown command 'fetch'")
        term.prompt()
        term.send("x JK")
        term.expect("Not allowed: the turn starts with 'draw' or 'take'")
        term.prompt()
        term.send("dr\t", enter=False)  # readline completes the verb
        term.expect("draw")
        term.send("")
        term.expect(r"You draw \S\S")
        assert term.prompt() == "meld/discard"

        for _ in range(400):  # the first suggestion, until the hand ends
            term.send("1")
            if term.prompt() == "press Enter for the next hand (or quit)":
                break
        else:
            pytest.fail("the hand did not end")
        screen = term.text()
        for row in ("Melded cards", "Canastas", "Red threes", "Going out", "Cards in hand",
                    "Total", "Score sheet"):
            assert row in screen
        term.send("")  # Enter: the next hand
        term.expect(r"Hand 2: \w+ deals")
        term.prompt()
        term.send("quit")
        term.expect("Game saved to")
        assert term.wait() == 0
        assert "Traceback" not in term.text()
    finally:
        term.close()

    record = GameRecord.loads(save.read_text())
    assert record.players == ("human", "bot:random", "bot:random", "bot:random")
    hands = list(replay(record))
    assert len(hands) == 2
    assert hands[0].state.is_over and not hands[1].state.is_over


def test_ctrl_c_saves_to_the_data_dir(tmp_path: Path) -> None:
    term = start(tmp_path, "--seed", "3", "--partner", "random", "--opponents", "random",
                 "--delay", "0")
    try:
        where = term.expect(r"Saving the game to (\S+\.json)")
        path = Path(where.group(1))
        assert path.parent == tmp_path / "data" / "canasta" / "games"
        term.prompt()
        # Ctrl-C. The prompt text can show a moment before input() waits for the keyboard, and
        # an interrupt in that moment is only seen at the next key (as for a person at the
        # keyboard, who would press Ctrl-C again): so press it again until the game leaves.
        for _ in range(10):
            term.send("\x03", enter=False)
            try:
                term.expect("Game saved to", timeout=3)
                break
            except AssertionError:
                continue
        else:
            pytest.fail("Ctrl-C did not save and leave")
        assert term.wait() == 0
        assert "Traceback" not in term.text()
    finally:
        term.close()
    assert list(replay(GameRecord.loads(path.read_text())))


@pytest.mark.slow
def test_a_modern_american_game_in_a_terminal(tmp_path: Path) -> None:
    """The family's own rules from the command line, its table on the screen, played to the
    end of the game (a target of 100 points: one hand). Slow: the in-process sessions of
    test_terminal_families.py draw the same table; this one adds the real terminal."""
    save = tmp_path / "game.json"
    term = start(tmp_path, "--rules", "modern-american", "--set", "target_score=100",
                 "--seed", "2", "--partner", "easy", "--opponents", "easy", "--save",
                 str(save), "--delay", "0")
    try:
        term.expect("canasta play · modern-american · with ")
        term.prompt()
        screen = term.text()
        assert "Game to 100, 2 canastas to go out" in screen
        assert "(the turn card still in it)" in screen and "Your hand (13)" in screen
        term.send("legal")
        term.expect("legal action")
        term.prompt()
        for _ in range(200):  # the first suggestion, until the game ends
            term.send("1")
            try:
                term.prompt()
            except AssertionError:
                break
        term.expect("Game over: ")
        term.expect("The record is in")
        assert term.wait() == 0
        screen = term.text()
        assert "Canasta and going-out bonuses" in screen and "Threes laid" in screen
        assert "Traceback" not in screen
    finally:
        term.close()
    hands = list(replay(GameRecord.loads(save.read_text())))
    assert hands[-1].state.is_over and max(hands[-1].scores) >= 100
