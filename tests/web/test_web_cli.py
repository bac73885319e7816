"""``canasta serve``: the command is there, its options are checked."""

from __future__ import annotations

import pytest

from canasta.interfaces.cli import main


def test_serve_is_a_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--help"]) == 0
    out = capsys.readouterr().out
    for option in ("--host", "--port", "--database", "--bot-delay", "--bot-workers"):
        assert option in out


@pytest.mark.parametrize("args", [["--port", "70000"], ["--port", "x"], ["--bot-delay", "-1"]])
def test_serve_refuses_bad_options(args: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", *args]) == 2
    assert capsys.readouterr().err.startswith("invalid")
