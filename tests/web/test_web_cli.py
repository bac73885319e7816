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


def test_serve_help_gives_every_limit_s_default(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--help"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    for option, default in (("--max-tables", "500"), ("--tables-per-minute", "20"),
                            ("--hints-per-minute", "10"), ("--table-idle-seconds", "1800"),
                            ("--finished-table-seconds", "60"), ("--durability", "normal"),
                            ("--allow-origin", "none")):
        assert option in out
        entry = out.rsplit(option, 1)[1].split(" --")[0]
        assert f"(default: {default}" in entry, (option, entry)


@pytest.mark.parametrize("args", [["--durability", "fast"], ["--max-tables", "0"],
                                  ["--tables-per-minute", "-1"]])
def test_serve_refuses_bad_limits(args: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", *args]) == 2
    assert capsys.readouterr().err.startswith("invalid")
