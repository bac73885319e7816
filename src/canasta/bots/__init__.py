"""Bots, selectable by name: ``make_bot("random")``, ``make_bot("ismcts:iterations=2000")``.

Every bot follows :class:`~canasta.bots.base.Bot`. New bots register a factory in
:data:`BOTS`; a factory takes the parameters of the spec as keyword strings.
"""

from __future__ import annotations

from collections.abc import Callable

from canasta.bots.base import Bot
from canasta.bots.random_bot import RandomBot
from canasta.errors import CanastaError

BOTS: dict[str, Callable[..., Bot]] = {"random": RandomBot}
"""Bot factories by name."""

LEVELS: dict[str, str] = {}
"""Difficulty levels for players (``easy`` ...) mapped to bot specs."""


class BotSpecError(CanastaError):
    """An unknown bot name or a bad parameter in a bot spec."""


def parse_spec(spec: str) -> tuple[str, dict[str, str]]:
    """``"ismcts:iterations=2000,seconds=1"`` -> ``("ismcts", {"iterations": "2000", ...})``."""
    name, _, rest = spec.strip().partition(":")
    params: dict[str, str] = {}
    for part in filter(None, (p.strip() for p in rest.split(","))):
        key, eq, value = part.partition("=")
        if not eq or not key.strip():
            raise BotSpecError(f"bad bot parameter {part!r} in {spec!r} (want key=value)")
        params[key.strip()] = value.strip()
    return name.strip().lower(), params


def make_bot(spec: str) -> Bot:
    """A bot from its spec (a name, a level, or ``name:key=value,...``)."""
    name, params = parse_spec(LEVELS.get(spec.strip().lower(), spec))
    factory = BOTS.get(name)
    if factory is None:
        known = ", ".join([*BOTS, *LEVELS])
        raise BotSpecError(f"unknown bot {name!r} (known: {known})")
    try:
        return factory(**params)
    except TypeError as e:
        raise BotSpecError(f"bad parameters for bot {name!r}: {e}") from None
