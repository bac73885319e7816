"""A family joins every client by registration alone: Toy Rummy (examples/toy_family.py, the
family docs/families.md builds) plays in ``canasta legal``, ``canasta arena`` and the OpenSpiel
game, none of which knows it."""

from __future__ import annotations

import doctest
import importlib
import itertools
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

import canasta
from canasta.interfaces.cli import main

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def toy() -> Iterator[ModuleType]:
    """The toy family, registered for one test (and forgotten after it)."""
    sys.path.insert(0, str(ROOT / "examples"))
    try:
        module = importlib.import_module("toy_family")
        module.register()
        yield module
        module.unregister()
    finally:
        sys.path.remove(str(ROOT / "examples"))


def test_the_toy_family_is_a_preset_of_the_library(toy: ModuleType) -> None:
    rules = canasta.get_rules("toy-rummy")
    assert "toy-rummy" in canasta.PRESETS and canasta.family_of(rules).title == "Toy Rummy"
    assert doctest.testmod(toy).failed == 0


def test_unregistered_the_toy_family_is_unknown(toy: ModuleType) -> None:
    toy.unregister()
    with pytest.raises(canasta.RulesError, match="unknown preset 'toy-rummy'"):
        canasta.get_rules("toy-rummy")
    toy.register()


def test_canasta_legal_lists_the_toy_familys_actions(
        toy: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["deal", "--rules", "toy-rummy", "--seed", "3"]) == 0
    dealt = capsys.readouterr().out
    assert json.loads(dealt)["rules"] == "toy-rummy"
    position = tmp_path / "pos.json"
    position.write_text(dealt)
    assert main(["legal", str(position)]) == 0
    assert capsys.readouterr().out == "draw\n"
    assert main(["apply", str(position), "draw"]) == 0
    position.write_text(capsys.readouterr().out)
    assert main(["legal", str(position)]) == 0
    drawn = canasta.parse_position(position.read_text())
    assert capsys.readouterr().out.splitlines() == [
        str(a) for a in canasta.legal_actions(drawn)]
    assert main(["apply", str(position), "discard JK"]) == 1  # no joker in this pack
    assert "illegal action 'discard JK'" in capsys.readouterr().err


def test_canasta_arena_plays_the_toy_family(
        toy: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run = tmp_path / "run.json"
    assert main(["arena", "--rules", "toy-rummy", "--bots", "random,easy", "--hands", "2",
                 "--seed", "2", "--json", str(run), "--no-progress"]) == 0
    assert "arena toy-rummy" in capsys.readouterr().out
    data = json.loads(run.read_text())
    assert data["rules"] == "toy-rummy" and data["pairings"][0]["games"] == 2


def test_the_openspiel_game_plays_the_toy_family(toy: ModuleType) -> None:
    pyspiel = pytest.importorskip("pyspiel")
    importlib.import_module("canasta.rl.openspiel")
    game = pyspiel.load_game("python_canasta(preset=toy-rummy)")
    state = game.new_initial_state()
    steps = 0
    while not state.is_terminal() and steps < 2000:
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[0][0])
        else:
            state.apply_action(state.legal_actions()[0])
        steps += 1
    assert state.is_terminal() and len(state.returns()) == 2


def test_the_families_page_runs_as_written(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    monkeypatch.setattr(sys, "path", list(sys.path))
    failed, tried = doctest.testfile(str(ROOT / "docs" / "families.md"), module_relative=False)
    assert tried > 5 and failed == 0


def _code_words(path: Path) -> Iterator[tuple[int, str]]:
    """The names and the strings of a module's code, each with its line: docstrings and
    comments (where a family may be named as an example) are left out."""
    import ast
    import tokenize

    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                  if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef,
                                       ast.AsyncFunctionDef))
                  and node.body and isinstance(node.body[0], ast.Expr)
                  and isinstance(node.body[0].value, ast.Constant)}
    lines = {node.lineno for node in ast.walk(tree) if id(node) in docstrings}
    # a docstring of a variable (a string alone after an assignment) is documentation too
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list):
            for before, after in itertools.pairwise(body):
                if (isinstance(before, (ast.Assign, ast.AnnAssign))
                        and isinstance(after, ast.Expr) and isinstance(after.value, ast.Constant)
                        and isinstance(after.value.value, str)):
                    lines.add(after.lineno)
    with path.open("rb") as f:
        for token in tokenize.tokenize(f.readline):
            if token.type in (tokenize.NAME, tokenize.STRING) and token.start[0] not in lines:
                yield token.start[0], token.string


WEB_MIGRATIONS = Path("interfaces") / "web" / "migrations"
"""Database migrations name the tables of their time: history, not clients."""

OLD_ADDRESSES = {"\"/modern.html\""}
"""Addresses of pages that are gone, kept so that links players saved still open their table."""


def test_no_module_outside_a_familys_package_names_it() -> None:
    package = Path(canasta.__file__).resolve().parent
    for family in canasta.families()[1:]:  # the first family's engine is the rules core
        home = package / type(family).__module__.split(".")[1]
        words = {family.name, family.name.replace("-", "_"), home.name}
        title = family.title.lower()
        words |= {title, title.replace(" ", "_"), title.replace(" ", "")}
        # a title's long words name the family too ("modern", "american"); short ones are the
        # language of every client ("hand", "and")
        words |= {w for w in title.split() if w != "canasta" and len(w) >= 6}
        found = []
        for path in sorted(package.rglob("*")):
            rel = path.relative_to(package)
            if (home in path.parents or rel.parts[:3] == WEB_MIGRATIONS.parts
                    or rel == Path("family.py") or path.suffix not in (".py", ".js", ".html")):
                continue
            if path.suffix == ".py":
                # prose (a help text, a message) may name a preset as an example; a name or a
                # key in the code would be a test of the family
                found += [f"{rel}:{line}: {text}" for line, text in _code_words(path)
                          if not any(c.isspace() for c in text) and text not in OLD_ADDRESSES
                          and any(w in text.lower() for w in words)]
            else:
                found += [f"{rel}:{n}" for n, line in enumerate(
                    path.read_text(encoding="utf-8").splitlines(), 1)
                    if any(w in line.lower() for w in words)]
        assert not found, f"{family.name} is named outside its package:\n" + "\n".join(found)
