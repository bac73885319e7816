"""The two builds of the rules core: pure Python and compiled with mypyc give the same results.

``make test`` runs the whole suite twice: with the pure sources (``.venv``, where
``CANASTA_COMPILED_PYTHON`` names the compiled build's interpreter for the comparisons here) and
with the compiled build (``.venv-compiled``, where ``CANASTA_EXPECT_COMPILED=1``). Outside
``make test`` the checks that need the other build are skipped, each saying why; CI
(``CANASTA_REQUIRE_SYSTEM_TESTS``) turns those skips into failures.
"""

from __future__ import annotations

import ast
import os
import subprocess
import sys
import venv
import zipfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

import canasta
from tests.builds.digest_playouts import hands_of

ROOT = Path(__file__).resolve().parents[2]
SRC = ROOT / "src"
DIGEST = Path(__file__).with_name("digest_playouts.py")
HANDS_PER_PRESET = 2000
"""Seeded random hands per preset that both builds play and compare (every classic preset;
the presets of the other families play fewer, ``digest_playouts.hands_of``)."""


def _compiled_modules() -> tuple[str, ...]:
    """``COMPILED_MODULES`` as setup.py declares it (read, not imported: setup.py runs setup)."""
    tree = ast.parse((ROOT / "setup.py").read_text())
    for node in tree.body:
        if not isinstance(node, ast.Assign):
            continue
        target = node.targets[0]
        if isinstance(target, ast.Name) and target.id == "COMPILED_MODULES":
            value = ast.literal_eval(node.value)
            assert isinstance(value, tuple)
            return value
    raise AssertionError("setup.py declares no COMPILED_MODULES")


def _need(variable: str) -> str:
    """The value of an environment variable that a check needs, or skip (fail under CI)."""
    value = os.environ.get(variable, "")
    if not value and os.environ.get("CANASTA_EXPECT_COMPILED"):
        pytest.skip("a check of both builds: the pure run of make test makes it")
    if not value:
        why = f"{variable} is not set (make test sets it)"
        if os.environ.get("CANASTA_REQUIRE_SYSTEM_TESTS"):
            pytest.fail(why)
        pytest.skip(why)
    return value


def _is_extension(module: object) -> bool:
    return not str(getattr(module, "__file__", "")).endswith(".py")


def test_no_compiled_module_lies_among_the_sources() -> None:
    # A compiled module next to its source takes precedence on import: edits would be ignored.
    stale = [p.relative_to(ROOT) for ext in ("*.so", "*.pyd") for p in SRC.rglob(ext)]
    assert not stale, f"compiled modules in src/ would shadow the sources: {stale}"


def test_canasta_compiled_says_which_build_runs() -> None:
    import importlib

    modules = [importlib.import_module("canasta." + name.replace("/", "."))
               for name in _compiled_modules()]
    assert [_is_extension(m) for m in modules] == [canasta.COMPILED] * len(modules)
    if os.environ.get("CANASTA_EXPECT_COMPILED"):
        assert canasta.COMPILED, "the compiled build's wheel came out pure Python"


def test_version_names_the_build(capsys: pytest.CaptureFixture[str]) -> None:
    from canasta.interfaces.cli import main

    assert main(["--version"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"canasta {canasta.__version__} (")
    assert ("compiled with mypyc" in out) is canasta.COMPILED


def _digests(python: str, *args: str) -> list[str]:
    out = subprocess.run([python, str(DIGEST), str(HANDS_PER_PRESET), *args],
                         capture_output=True, text=True, check=False, cwd=ROOT,
                         env={**os.environ, "PYTHONHASHSEED": "0"})
    assert out.returncode == 0, out.stderr
    return out.stdout.splitlines()


def test_both_builds_list_and_play_every_preset_alike() -> None:
    compiled = _need("CANASTA_COMPILED_PYTHON")
    presets = sorted(canasta.PRESETS)
    with ThreadPoolExecutor(max_workers=2) as pool:  # the two builds play side by side
        pure_run = pool.submit(_digests, sys.executable, "--pure", str(SRC), *presets)
        compiled_run = pool.submit(_digests, compiled, *presets)
        pure, built = pure_run.result(), compiled_run.result()
    assert pure[0] == "compiled False" and built[0] == "compiled True"
    assert len(pure) == 1 + sum(hands_of(p, HANDS_PER_PRESET) for p in presets)
    assert any(hands_of(p, HANDS_PER_PRESET) < HANDS_PER_PRESET for p in presets), (
        "every family's presets are digested")
    for mine, theirs in zip(pure[1:], built[1:], strict=True):
        preset, seed, _ = mine.split()
        assert mine == theirs, (
            f"the builds differ on {preset} hand {seed} (replay: canasta.new_hand(get_rules("
            f"{preset!r}), seed={seed}, dealer={seed} % players), choices from "
            f"random.Random({seed}).choice)")


def _dist() -> tuple[Path, Path]:
    """The wheel and the sdist that ``make dist`` (``python -m build``) left in dist/."""
    _need("CANASTA_COMPILED_PYTHON")  # set by make test, which builds dist/ first
    wheels = sorted((ROOT / "dist").glob("canasta-*.whl"))
    sdists = sorted((ROOT / "dist").glob("canasta-*.tar.gz"))
    assert len(wheels) == 1 and len(sdists) == 1, "dist/ should hold one wheel and one sdist"
    return wheels[0], sdists[0]


def test_the_wheel_is_compiled_for_this_platform() -> None:
    wheel, _ = _dist()
    assert "-none-any" not in wheel.name, f"{wheel.name} is not platform-specific"
    names = zipfile.ZipFile(wheel).namelist()
    for module in _compiled_modules():
        assert f"canasta/{module}.py" in names  # the sources ride along (tracebacks, reading)
        assert any(n.startswith(f"canasta/{module}.") and n.endswith(".so") for n in names), (
            f"canasta/{module} is not compiled in {wheel.name}")


def test_without_a_compiler_a_clean_clone_and_the_sdist_install_pure_python(
        tmp_path: Path) -> None:
    _, sdist = _dist()
    if os.environ.get("CANASTA_EXPECT_COMPILED"):
        pytest.skip("installs are checked once, in the pure-Python run")
    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "--quiet", str(ROOT), str(clone)], check=True)
    env_dir = tmp_path / "env"
    venv.create(env_dir, with_pip=True)
    python = str(env_dir / "bin" / "python")
    no_compiler = tmp_path / "bin"  # a PATH without cc or gcc: the compiler is hidden
    no_compiler.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("CC", "CANASTA_PURE", "PYTHONPATH")}
    env["PATH"] = str(no_compiler)
    play = ("import random, canasta\n"
            "assert not canasta.COMPILED\n"
            "s = canasta.new_hand(canasta.get_rules('classic'), seed=1)\n"
            "r = random.Random(1)\n"
            "while not s.is_over:\n"
            "    s = canasta.apply(s, r.choice(canasta.legal_actions(s)))\n"
            "print(s.result.went_out)\n")
    for source in (clone, sdist):
        install = subprocess.run([python, "-m", "pip", "install", "--no-deps",  # -v: the notes
                                  "--force-reinstall", "-v", str(source)],
                                 capture_output=True, text=True, env=env, check=False)
        assert install.returncode == 0, install.stderr[-3000:]
        assert "canasta build: pure Python (no C compiler" in install.stderr + install.stdout
        ran = subprocess.run([python, "-c", play], capture_output=True, text=True, env=env,
                             cwd=tmp_path, check=False)
        assert ran.returncode == 0, ran.stderr
