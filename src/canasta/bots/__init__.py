"""Bots of every family, selectable by name: ``make_bot("random")``,
``make_bot("ismcts:iterations=2000")``, ``make_bot("expert", rules)`` (the expert of the
family of ``rules``).

Every bot follows :class:`~canasta.bots.base.Bot`: it chooses from its seat's observation (of
its family), the legal list and a seeded generator. One registry keyed by family gives each
family's bots and its levels (``easy``, ``medium``, ``hard``, ``expert``): a family names the
module that holds them (:attr:`~canasta.family.Family.bots_module`, with ``BOTS``: name ->
factory, ``LEVELS``: level -> spec, ``HINT_LEVEL``, and optionally ``ALIASES``: older names),
read here by :func:`bot_table`; the bots of :data:`GENERIC_BOTS` play every family, and
installed packages add bots by entry point (:data:`PLUGIN_GROUP`). A factory takes the
parameters of the spec as keyword strings. :func:`register_bot` adds a bot to a family's table
(a test's, an experiment's); :func:`explain` and :func:`hint` give an action with a reason, for
"what would the bot do and why".

>>> bot = make_bot("heuristic:aggression=1.5")
>>> bot.name, bot.weights.aggression
('heuristic', 1.5)
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from importlib.metadata import EntryPoint, entry_points
from typing import Any, Final

from canasta.actions import Action
from canasta.bots.base import Bot, Explainer
from canasta.bots.random_bot import RandomBot
from canasta.errors import CanastaError
from canasta.family import Family, families, family_of

GENERIC_BOTS: dict[str, Callable[..., Bot]] = {"random": RandomBot}
"""Bots that play every family (they read only what every observation holds: the phase)."""


LEVEL_NAMES: Final = ("easy", "medium", "hard", "expert")
"""The levels every family gives, from the weakest."""


@dataclass(frozen=True)
class BotTable:
    """One family's bots: factories by name, levels (:data:`LEVEL_NAMES`) by spec, the level
    that gives hints, and older names of its bots (old name -> name)."""

    family: Family
    bots: dict[str, Callable[..., Bot]]
    levels: dict[str, str]
    hint_level: str
    aliases: dict[str, str] = field(default_factory=dict)

    def names(self) -> list[str]:
        """The bots' names, then the levels (older names left out)."""
        return [*self.bots, *self.levels]

    def resolve(self, spec: str) -> tuple[str, dict[str, str]]:
        """The bot name and parameters ``spec`` (a name, a level, an older name, with or
        without ``:key=value,...``) stands for."""
        name, params = parse_spec(self.levels.get(spec.strip().lower(), spec))
        return self.aliases.get(name, name), params


_TABLES: dict[str, BotTable] = {}


def bot_table(family: Any = None) -> BotTable:
    """The bots of ``family`` (a family, a rule set, a position, an observation or a preset
    name; ``None``: the first family, classic Canasta)."""
    fam = families()[0] if family is None else family_of(family)
    table = _TABLES.get(fam.name)
    if table is None or table.family is not fam:
        module = importlib.import_module(fam.bots_module)
        bots: dict[str, Callable[..., Bot]] = {**GENERIC_BOTS, **module.BOTS}
        levels = dict(module.LEVELS)
        if set(levels) != set(LEVEL_NAMES):
            raise CanastaError(f"{fam.bots_module}.LEVELS must give the levels "
                               f"{', '.join(LEVEL_NAMES)}, not {', '.join(levels)}")
        table = BotTable(fam, bots, levels, str(module.HINT_LEVEL),
                         dict(getattr(module, "ALIASES", {})))
        _TABLES[fam.name] = table
    return table


def register_bot(name: str, factory: Callable[..., Bot],
                 family: Any = None) -> Callable[[], None]:
    """Add the bot ``name`` to the table of ``family`` (see :func:`bot_table`), in place of any
    bot of that name; the call that undoes it is returned (a test's bot, an experiment's).

    >>> from canasta.bots.random_bot import RandomBot
    >>> undo = register_bot("coin", RandomBot)
    >>> make_bot("coin").name
    'random'
    >>> undo(); "coin" in bot_table().bots
    False
    """
    bots = bot_table(family).bots
    before = bots.get(name)
    bots[name] = factory

    def undo() -> None:
        if before is None:
            bots.pop(name, None)
        else:
            bots[name] = before
    return undo


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
    (a name, a level, an older name of the family's, or ``name:key=value,...``).

    Raises :class:`BotSpecError` for an unknown name or parameter, or a bad value.
    """
    table = bot_table(family)
    name, params = table.resolve(spec)
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
