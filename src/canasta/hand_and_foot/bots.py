"""Hand and Foot's bots and levels, as the registry of :mod:`canasta.bots` reads them.

Every bot chooses from its seat's :class:`~canasta.hand_and_foot.observation.Observation`,
the legal list and the generator it is given (:class:`~canasta.bots.base.Bot`): ``random``
(every family's, :data:`canasta.bots.GENERIC_BOTS`), ``greedy``
(:mod:`~canasta.hand_and_foot.greedy`), ``heuristic`` (:mod:`~canasta.hand_and_foot.heuristic`)
and ``search`` (:mod:`~canasta.hand_and_foot.search`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from canasta.bots.base import Bot
from canasta.hand_and_foot.greedy import GreedyBot
from canasta.hand_and_foot.heuristic import HeuristicBot
from canasta.hand_and_foot.search import SearchBot

BOTS: dict[str, Callable[..., Bot]] = {
    "greedy": GreedyBot,
    "heuristic": HeuristicBot,
    "search": SearchBot,
}
"""Bot factories by name (``random`` plays every family: :data:`canasta.bots.GENERIC_BOTS`)."""

LEVELS: dict[str, str] = {
    "easy": "greedy",
    "medium": "heuristic",
    "hard": "search",
    "expert": "search:rollouts=24",
}
"""Difficulty levels for players mapped to bot specs: the greedy bot lays the most points and
knows none of the family's plans, the heuristic plays them by rules of thumb, the search
settles the heuristic's close calls (the draw or the take, the discard) by play-outs, the
expert with more of them, so that it overrules the heuristic on smaller differences."""

HINT_LEVEL: Final = "hard"
"""The level behind hints: the search answers well within the second a player waits, and
says what its play-outs found or the heuristic's reason."""
