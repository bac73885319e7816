"""Bots, selectable by name: ``make_bot("random")``, ``make_bot("ismcts:iterations=2000")``.

Every bot follows :class:`~canasta.bots.base.Bot`. New bots register a factory in
:data:`BOTS`; a factory takes the parameters of the spec as keyword strings. Players pick a
difficulty from :data:`LEVELS`. :func:`explain` and :func:`hint` give an action with a reason,
for "what would the bot do and why" in the interfaces.

>>> bot = make_bot("heuristic:aggression=1.5")
>>> bot.name, bot.weights.aggression
('heuristic', 1.5)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from importlib.metadata import EntryPoint, entry_points

from canasta.actions import Action
from canasta.bots.base import Bot, Explainer
from canasta.bots.greedy import GreedyBot
from canasta.bots.heuristic import HeuristicBot
from canasta.bots.heuristic_v1 import HeuristicV1Bot
from canasta.bots.heuristic_v2 import HeuristicV2Bot
from canasta.bots.ismcts import ISMCTSBot
from canasta.bots.random_bot import RandomBot
from canasta.errors import CanastaError
from canasta.observation import Observation

BOTS: dict[str, Callable[..., Bot]] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "heuristic": HeuristicBot,
    "heuristic-v1": HeuristicV1Bot,
    "heuristic-v2": HeuristicV2Bot,
    "ismcts": ISMCTSBot,
}
"""Bot factories by name."""

LEVELS: dict[str, str] = {
    "easy": "greedy",
    "medium": "heuristic",
    "hard": "ismcts:iterations=100,seconds=1",
    "expert": "ismcts:iterations=400,seconds=1,mode=flat,z=2,value=fit",
}
"""Difficulty levels for players mapped to bot specs. The expert searches every candidate on the
same sampled deals and overrules the heuristic only by two standard errors of the paired
differences: its departures gain as much as the tree search's, half as many and each surer,
at less time a decision (docs/bots.md, nineteenth round). It values the end of each play-out
by the lead fitted to where self-play hands ended (``value=fit``, :mod:`canasta.bots.value`),
which gained about six points a decision over the lead as the table shows it (twenty-fifth
round)."""


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


def make_bot(spec: str) -> Bot:
    """A bot from its spec (a name, a level, or ``name:key=value,...``).

    Raises :class:`BotSpecError` for an unknown name or parameter, or a bad value.
    """
    name, params = parse_spec(LEVELS.get(spec.strip().lower(), spec))
    factory = BOTS.get(name) or _plugin(name)
    if factory is None:
        known = ", ".join([*BOTS, *sorted(ep.name for ep in _plugins()), *LEVELS])
        raise BotSpecError(f"unknown bot {name!r} (known: {known})")
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


def explain(bot: Bot, obs: Observation, legal: Sequence[Action],
            rng: random.Random) -> tuple[Action, str]:
    """The bot's action and why: its own ``explain`` when it has one, else a generic line."""
    if isinstance(bot, Explainer):
        return bot.explain(obs, legal, rng)
    action = bot.choose(obs, legal, rng)
    return action, f"the {bot.name} bot plays {action}"


HINT_BOT = "expert"
"""The bot behind hints (the terminal's ``hint``, the web table's hint): the strongest bot that
answers within the second a player waits, the ``expert`` search; its explanation names the
reason in the heuristic's words and what the search found."""


def hint(obs: Observation, legal: Sequence[Action]) -> tuple[Action, str]:
    """What the hint bot would play for ``obs.seat`` and why (a "hint" for players)."""
    return explain(make_bot(HINT_BOT), obs, legal, random.Random(0))
