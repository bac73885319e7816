"""Bots of every family, selectable by name: ``make_bot("random")``,
``make_bot("ismcts:iterations=2000")``, ``make_bot("expert", "modern-american")``.

Every bot follows :class:`~canasta.bots.base.Bot`: it chooses from its seat's observation and
the legal list. One registry keyed by family gives each family's bots and its levels
(``easy`` ... ``expert``): a family names the module that holds them
(:attr:`~canasta.family.Family.bots_module`, with ``BOTS``: name -> factory, ``LEVELS``: level ->
spec, ``HINT_LEVEL``), read here by :func:`bot_table`; the bots of :data:`GENERIC_BOTS` play
every family. A factory takes the parameters of the spec as keyword strings. :func:`explain`
and :func:`hint` give an action with a reason, for "what would the bot do and why".

>>> bot = make_bot("heuristic:aggression=1.5")
>>> bot.name, bot.weights.aggression
('heuristic', 1.5)
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from importlib.metadata import EntryPoint, entry_points
from typing import Any

from canasta.actions import Action
from canasta.bots.base import Bot, Explainer
from canasta.bots.random_bot import RandomBot
from canasta.errors import CanastaError
from canasta.family import Family, families, family_of

GENERIC_BOTS: dict[str, Callable[..., Bot]] = {"random": RandomBot}
"""Bots that play every family (they read only what every observation holds: the phase)."""


@dataclass(frozen=True)
class BotTable:
    """One family's bots: factories by name, levels (``easy`` ... ``expert``) by spec, and the
    level that gives hints."""

    family: Family
    bots: dict[str, Callable[..., Bot]]
    levels: dict[str, str]
    hint_level: str

    def names(self) -> list[str]:
        """The bots' names, then the levels."""
        return [*self.bots, *self.levels]


_TABLES: dict[str, BotTable] = {}


def bot_table(family: Any = None) -> BotTable:
    """The bots of ``family`` (a family, a rule set, a position, an observation or a preset
    name; ``None``: the first family, classic Canasta)."""
    fam = families()[0] if family is None else family_of(family)
    table = _TABLES.get(fam.name)
    if table is None or table.family is not fam:
        module = importlib.import_module(fam.bots_module)
        bots: dict[str, Callable[..., Bot]] = {**GENERIC_BOTS, **module.BOTS}
        table = BotTable(fam, bots, dict(module.LEVELS), str(module.HINT_LEVEL))
        _TABLES[fam.name] = table
    return table

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
        if key.strip() in params:
            raise BotSpecError(f"bot parameter {key.strip()!r} given twice in {spec!r}")
        params[key.strip()] = value.strip()
    return name.strip().lower(), params


def make_bot(spec: str, family: Any = None) -> Bot:
    """A bot of ``family`` (see :func:`bot_table`; the first family by default) from its spec
    (a name, a level, or ``name:key=value,...``).

    Raises :class:`BotSpecError` for an unknown name or parameter, or a bad value.
    """
    table = bot_table(family)
    name, params = parse_spec(table.levels.get(spec.strip().lower(), spec))
    factory = table.bots.get(name) or _plugin(name)
    if factory is None:
        known = ", ".join([*table.bots, *sorted(ep.name for ep in _plugins()), *table.levels])
        raise BotSpecError(f"unknown bot {name!r} for {table.family.title} (known: {known})")
    try:
        return factory(**params)
    except (TypeError, ValueError) as e:
        raise BotSpecError(f"bad parameters for bot {name!r}: {e}") from None


PLUGIN_GROUP = "canasta.bots"
"""The entry-point group where installed packages name further bots (``openspiel-ismcts`` of
the ``rl`` extra is one): they are imported only when a spec names them."""


def _plugins() -> list[EntryPoint]:
    return list(entry_points(group=PLUGIN_GROUP))


def _plugin(name: str) -> Callable[..., Bot] | None:
    for ep in _plugins():
        if ep.name == name:
            try:
                factory: Callable[..., Bot] = ep.load()
            except ImportError as e:
                raise BotSpecError(f"the bot {name!r} needs a package that is not installed "
                                   f"({e.name or e}): pip install 'canasta[rl]'") from None
            return factory
    return None


def explain(bot: Bot, obs: Any, legal: Sequence[Action],
            rng: random.Random) -> tuple[Action, str]:
    """The bot's action and why: its own ``explain`` when it has one, else a generic line."""
    if isinstance(bot, Explainer):
        return bot.explain(obs, legal, rng)
    action = bot.choose(obs, legal, rng)
    return action, f"the {bot.name} bot plays {action}"


def hint(obs: Any, legal: Sequence[Action]) -> tuple[Action, str]:
    """What the family's hint level (its strongest bot that answers within the second a player
    waits) would play for ``obs.seat`` and why (a "hint" for players)."""
    table = bot_table(obs)
    return explain(make_bot(table.hint_level, table.family), obs, legal, random.Random(0))
