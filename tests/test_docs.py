"""The examples in the README, in every module's docstrings and in the bots' pages run as written;
the bots' pages quote commands, links and scripts that exist."""

from __future__ import annotations

import ast
import doctest
import importlib
import re
import shlex
from pathlib import Path

import pytest

from canasta import get_rules
from canasta.arena import split_bot_specs
from canasta.bots import make_bot
from canasta.interfaces.cli import _load_extra_commands, build_parser

ROOT = Path(__file__).resolve().parents[1]
SOURCE = ROOT / "src"
MODULES = sorted(
    ".".join(path.relative_to(SOURCE).with_suffix("").parts).removesuffix(".__init__")
    for path in (SOURCE / "canasta").rglob("*.py") if ">>>" in path.read_text(encoding="utf-8"))
"""Every module whose docstrings hold an example: a stale example fails here, not in a reader."""


def test_readme_examples() -> None:
    failed, tried = doctest.testfile(str(ROOT / "README.md"), module_relative=False)
    assert tried > 5 and failed == 0


def _compiled_examples(module: object, name: str) -> tuple[int, int]:
    """Run the examples of a compiled module's docstrings, read from its ``.py`` source (which
    rides along in the wheel): doctest cannot find them on compiled functions."""
    path = Path(str(getattr(module, "__file__", ""))).parent / f"{name.rpartition('.')[2]}.py"
    tree = ast.parse(path.read_text(encoding="utf-8"))
    runner = doctest.DocTestRunner()
    parser = doctest.DocTestParser()
    nodes = (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)
    for node in ast.walk(tree):
        text = ast.get_docstring(node, clean=False) if isinstance(node, nodes) else None
        if text:
            where = f"{name}.{getattr(node, 'name', '')}".rstrip(".")
            globs = dict(vars(module))  # a fresh namespace per docstring, as testmod gives
            line = getattr(node, "lineno", 0)
            runner.run(parser.get_doctest(text, globs, where, str(path), line))
    return runner.failures, runner.tries


@pytest.mark.parametrize("name", MODULES)
def test_module_examples(name: str) -> None:
    try:
        module = importlib.import_module(name)
    except ModuleNotFoundError as missing:  # an adapter whose optional extra is not installed
        if (missing.name or "").startswith("canasta"):
            raise
        pytest.skip(f"{name} needs {missing.name}")
    if str(getattr(module, "__file__", "")).endswith(".py"):
        failed, tried = doctest.testmod(module)
    else:
        failed, tried = _compiled_examples(module, name)
    assert tried > 0 and failed == 0


BOT_PAGES = (ROOT / "docs" / "bots.md", ROOT / "docs" / "bot-experiments.md")
"""The bots' reference and the records of what was measured for them."""
PLACEHOLDER = re.compile(r"\b[A-Z]+\b")
"""A word a reader fills in (``--rules R``, ``POSITION``): such a command is a form, not a run."""
EXAMPLE_PLUGINS = ("never-takes", "openspiel-ismcts")
"""Bots the pages show installed by entry point, which this checkout does not install."""


def test_bots_page_examples() -> None:
    failed, tried = doctest.testfile(str(BOT_PAGES[0]), module_relative=False)
    assert tried > 5 and failed == 0


def _quoted_commands(text: str) -> list[str]:
    """The ``canasta ...`` commands a page quotes, inline or as lines of its ``sh`` blocks,
    each cut at its first redirection or pipe, with shell variables filled in."""
    quoted = re.findall(r"`(canasta [^`]+)`", text)
    for block in re.findall(r"```sh\n(.*?)```", text, re.DOTALL):
        quoted += [line.strip() for line in block.splitlines()
                   if line.strip().startswith("canasta ")]
    return [re.sub(r"\$\w+", "1", re.split(r" [>|] ", command)[0]) for command in quoted]


@pytest.mark.parametrize("page", BOT_PAGES, ids=lambda p: p.name)
def test_bot_pages_commands_run_as_written(page: Path) -> None:
    """Every command quoted with its values parses, and names bots of its rules' family."""
    _load_extra_commands()  # play, arena, serve and selfplay, as the command line adds them
    checked = 0
    for command in _quoted_commands(page.read_text(encoding="utf-8")):
        words = shlex.split(command)
        if (len(words) < 3 or PLACEHOLDER.search(command) or "--help" in words
                or any(plugin in command for plugin in EXAMPLE_PLUGINS)):
            continue  # a command named in passing, a form to fill in, or a plugin's
        args = build_parser().parse_args(words[1:])
        specs = [*split_bot_specs(getattr(args, "bots", None) or []),
                 *(getattr(args, key, None) or "" for key in ("partner", "opponents"))]
        rules = get_rules(getattr(args, "rules", None) or "classic")
        for spec in filter(None, specs):
            make_bot(spec, rules)
        checked += 1
    assert checked >= 3


@pytest.mark.parametrize("page", BOT_PAGES, ids=lambda p: p.name)
def test_bot_pages_links_and_scripts_exist(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    links = [target for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", text)
             if not target.startswith(("http://", "https://"))]
    scripts = re.findall(r"\b(benchmarks/\w+\.py)\b", text)
    assert links or scripts
    for target in links:
        assert (page.parent / target).exists(), f"{page.name} links to {target}, which is missing"
    for script in scripts:
        assert (ROOT / script).exists(), f"{page.name} names {script}, which is missing"
