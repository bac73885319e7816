"""Modern American's bots and levels, as the registry of :mod:`canasta.bots` reads them.

Every bot chooses from its seat's :class:`~canasta.modern_american.observation.Observation`,
the legal list and the generator it is given (:class:`~canasta.bots.base.Bot`): ``random``
(every family's, :data:`canasta.bots.GENERIC_BOTS`), ``greedy``
(:mod:`~canasta.modern_american.greedy`), ``heuristic`` (:mod:`~canasta.modern_american.
heuristic`), its frozen yardstick ``heuristic-v1`` (:mod:`~canasta.modern_american.heuristic_v1`)
and ``search`` (:mod:`~canasta.modern_american.search`). The names the family's bots
had before it joined the registry (``modern-heuristic``, ...) still name them
(:data:`ALIASES`): saved tables and arena specs use them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from canasta.bots.base import Bot
from canasta.modern_american.greedy import GreedyBot
from canasta.modern_american.heuristic import HeuristicBot
from canasta.modern_american.heuristic_v1 import HeuristicV1Bot
from canasta.modern_american.search import SearchBot

BOTS: dict[str, Callable[..., Bot]] = {
    "greedy": GreedyBot,
    "heuristic": HeuristicBot,
    "heuristic-v1": HeuristicV1Bot,
    "search": SearchBot,
}
"""Bot factories by name (``random`` plays every family: :data:`canasta.bots.GENERIC_BOTS`)."""

ALIASES: dict[str, str] = {f"modern-{name}": name
                           for name in ("random", "greedy", "heuristic", "heuristic-v1", "search")}
"""Older names of the bots: name -> the name in :data:`BOTS` (or a generic bot's)."""

LEVELS: dict[str, str] = {
    "easy": "greedy",
    "medium": "heuristic",
    "hard": "search",
    "expert": "search:rollouts=16",
}
"""Difficulty levels for players mapped to bot specs: the greedy bot knows none of the family's
risks, the heuristic plays them by rules of thumb, the search settles the heuristic's close
calls (the draw or the pick, the discard) by play-outs, the expert with twice as many, so that
it overrules the heuristic on smaller differences (docs/bots.md gives their strength)."""

HINT_LEVEL: Final = "hard"
"""The level behind hints: the search answers within the second a player waits, and says what
its play-outs found or the heuristic's reason."""
