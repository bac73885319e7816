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

BOTS: dict[str, Callable[..., Bot]] = {
    "greedy": GreedyBot,
    "heuristic": HeuristicBot,
}
"""Bot factories by name (``random`` plays every family: :data:`canasta.bots.GENERIC_BOTS`)."""

LEVELS: dict[str, str] = {"easy": "greedy", "medium": "heuristic", "hard": "heuristic",
                          "expert": "heuristic"}
"""Difficulty levels for players mapped to bot specs."""

HINT_LEVEL: Final = "medium"
"""The level behind hints."""
