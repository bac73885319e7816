"""Hints for the compiled build (mypyc) that cost nothing when the core runs as written.

:func:`mypyc_attr` marks a class of the core that a family of rules may subclass in plain
Python (``allow_interpreted_subclasses``). The type checker and mypyc read its declaration in
``_mypyc.pyi``, which names mypyc's own marker; mypyc keeps such a class native and never calls
the marker at run time. Run as written, the marker below returns the class unchanged, so the
core still imports only the standard library.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


def mypyc_attr(*attrs: str, **kwattrs: object) -> Callable[[T], T]:
    """A class decorator that leaves the class as it is (see the module's docstring)."""
    del attrs, kwattrs

    def mark(cls: T) -> T:
        return cls

    return mark
