"""Build of canasta: the rules core is compiled with mypyc when it can be, pure Python otherwise.

Everything else is declared in pyproject.toml. The compiled modules are the same ``.py`` files
(there is no second implementation); a compiled module takes precedence over its source on import.
The build stays pure Python, with the reason printed, when

* ``CANASTA_PURE=1`` is set (any value but empty or ``0``);
* the install is editable (``pip install -e .``): a compiled module would shadow the sources
  being edited;
* no C compiler is found, mypyc cannot be imported, or the compilation fails.
"""

from __future__ import annotations

import os
import shlex
import shutil
import sys
import sysconfig
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

COMPILED_MODULES = ("cards", "actions", "variant", "table", "state", "melds", "plans", "legal",
                    "engine", "scoring", "deal", "going_out", "bots/view", "bots/words",
                    "bots/weights", "bots/moves", "bots/discards", "bots/heuristic",
                    "modern_american/record", "modern_american/melds",
                    "modern_american/discards", "modern_american/scoring",
                    "modern_american/special_hands", "modern_american/hand",
                    "modern_american/ending", "modern_american/layings",
                    "modern_american/facts", "modern_american/going_out",
                    "modern_american/checks",
                    "modern_american/choices", "modern_american/play",
                    "hand_and_foot/deal", "hand_and_foot/melds", "hand_and_foot/going_out",
                    "hand_and_foot/scoring", "hand_and_foot/turn", "hand_and_foot/legal")
"""The modules of ``src/canasta`` that are compiled: the rules core's hot path, the Modern
American and Hand and Foot engines (their hands, checks, legal lists and turns:
``benchmarks/family_playout.py``), and
the heuristic bot, which plays every move of the search's play-outs (compiled, the search runs
about twice as many iterations a second, ``benchmarks/bots_speed.py``). A family of rules
may still subclass the variant in plain Python: ``ClassicVariant`` is marked to accept
interpreted subclasses (``canasta._mypyc``). ``rules.py`` stays interpreted: compiled, its
dataclass would check field types before the validation that turns a wrong value into a clear
:class:`~canasta.errors.RulesError`."""

PLACEHOLDER = "canasta._mypyc_core"
"""Stands for the compiled modules until ``build_ext`` runs, so that mypyc only runs (slowly)
when a wheel is really built, not for metadata or an sdist; it also makes the wheel
platform-specific."""


def note(message: str) -> None:
    """Say why the build is what it is (pip shows it with ``-v``)."""
    print(f"canasta build: {message}", file=sys.stderr)


def pure_reason() -> str | None:
    """Why this build is pure Python, or ``None`` when it may compile."""
    if os.environ.get("CANASTA_PURE", "") not in ("", "0"):
        return "CANASTA_PURE is set"
    if any(cmd in sys.argv for cmd in ("editable_wheel", "develop")):
        return "an editable install runs the sources as they are edited"
    compiler = os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc"
    words = shlex.split(compiler)
    if not words or shutil.which(words[0]) is None:
        return f"no C compiler ({compiler!r} not found)"
    try:
        import mypyc.build  # noqa: F401
    except ImportError as exc:
        return f"mypyc is not importable ({exc})"
    return None


class OptionalBuildExt(build_ext):
    """Compiles the core with mypyc; any failure leaves a pure-Python build."""

    def finalize_options(self) -> None:
        dist = self.distribution
        if any(ext.name == PLACEHOLDER for ext in dist.ext_modules or ()):
            try:
                from mypyc.build import mypycify

                dist.ext_modules = mypycify(
                    [f"src/canasta/{m}.py" for m in COMPILED_MODULES], opt_level="3")
            except Exception as exc:  # mypyc refusing the code is not an installation error
                note(f"mypyc failed, installing pure Python ({exc})")
                dist.ext_modules = []
        super().finalize_options()

    def run(self) -> None:
        if not self.extensions:
            return
        try:
            super().run()
        except Exception as exc:  # nor is a compiler that fails
            for path in self.get_outputs():
                Path(path).unlink(missing_ok=True)
            note(f"compiling the core failed, installing pure Python ({exc})")
            return
        note(f"compiled with mypyc: {', '.join(COMPILED_MODULES)}")


reason = pure_reason()
if reason:
    note(f"pure Python ({reason})")
setup(
    ext_modules=[] if reason else [Extension(PLACEHOLDER, sources=[])],
    cmdclass={"build_ext": OptionalBuildExt},
)
