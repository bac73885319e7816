"""Names for the bots at a table: a distinct, friendly first name per bot seat, and its level.

Table talk is easy to follow only when every player has a name of their own ("Rosa discards
9♠", not "Medium bot: discard 9s" twice in a row). The names come from a fixed list, shuffled by
a seed that belongs to the table (a web table's id, a terminal game's key), so a table keeps its
names across reloads and restarts, and two tables rarely share them. A name a person at the
table already uses is never given to a bot.

Standard library only.

>>> names = seat_names(["Ann", "bot:medium", "human", "bot:medium"], seed="table-1")
>>> names[0], names[2], len(set(names))
('Ann', 'human', 4)
>>> level_of("heuristic"), level_of("ismcts:iterations=100,seconds=1"), level_of("random")
('medium', 'hard', 'random')
>>> with_level("Rosa", "heuristic")
'Rosa (medium)'
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import Any

from canasta.bots import bot_table

FRIENDLY_NAMES: tuple[str, ...] = (
    "Ada", "Alma", "Ana", "Ben", "Bruno", "Carla", "Clara", "Dora", "Elena", "Emil", "Eva",
    "Felix", "Flora", "Gus", "Hana", "Hugo", "Ines", "Ivan", "Jonas", "Juno", "Kai", "Lena",
    "Leo", "Lola", "Luca", "Mara", "Marco", "Mila", "Nico", "Nina", "Noor", "Olga", "Omar",
    "Otto", "Paula", "Pedro", "Rosa", "Ruth", "Sami", "Sofia", "Tara", "Teo", "Uma", "Vera",
    "Yara", "Zoe",
)
"""The names bots are given: short, easy to tell apart, from many languages."""

BOT_PREFIX = "bot:"
"""How a game record names a bot player (``bot:medium``); every other name is a person's."""


def level_of(spec: str, family: Any = None) -> str:
    """The level a bot spec of ``family`` (the first family by default, see
    :func:`~canasta.bots.bot_table`) plays at (``easy``, ``medium``, ``hard``, ``expert``), or
    the bot's own name when the spec is no level's (``random``, ``greedy:...``); an older name
    of the family's bot counts as its name."""
    table = bot_table(family)
    key = spec.strip().lower()
    if key in table.levels:
        return key
    name, params = table.resolve(key)
    for level, level_spec in table.levels.items():
        if (name, params) == table.resolve(level_spec):
            return level
    return name or "bot"


def with_level(name: str, spec: str, family: Any = None) -> str:
    """A bot's name with its level (see :func:`level_of`): ``Rosa (medium)``."""
    return f"{name} ({level_of(spec, family)})"


def friendly_names(seed: object, count: int, taken: Iterable[str] = ()) -> list[str]:
    """``count`` distinct names from :data:`FRIENDLY_NAMES`, in an order fixed by ``seed``,
    none of them in ``taken`` (compared without case). Past the list, names get a number."""
    avoid = {t.strip().lower() for t in taken}
    pool = [n for n in FRIENDLY_NAMES if n.lower() not in avoid]
    random.Random(f"canasta-names:{seed}").shuffle(pool)
    names = pool[:count]
    number = 2
    while len(names) < count:
        candidate = f"{FRIENDLY_NAMES[len(names) % len(FRIENDLY_NAMES)]} {number}"
        if candidate.lower() not in avoid and candidate not in names:
            names.append(candidate)
        else:
            number += 1
    return names


def seat_names(players: Sequence[str], seed: object) -> list[str]:
    """Names by seat: a person keeps their name, each bot (``bot:SPEC``) gets a friendly one."""
    bots = [i for i, p in enumerate(players) if p.startswith(BOT_PREFIX)]
    people = [p for i, p in enumerate(players) if i not in bots]
    given = iter(friendly_names(seed, len(bots), taken=people))
    return [next(given) if i in bots else p for i, p in enumerate(players)]
