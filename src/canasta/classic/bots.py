"""The classic family's bots and levels, as the registry of :mod:`canasta.bots` reads them."""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from canasta.bots.base import Bot
from canasta.bots.greedy import GreedyBot
from canasta.bots.heuristic import HeuristicBot
from canasta.bots.heuristic_v1 import HeuristicV1Bot
from canasta.bots.heuristic_v2 import HeuristicV2Bot
from canasta.bots.ismcts import ISMCTSBot

BOTS: dict[str, Callable[..., Bot]] = {
    "greedy": GreedyBot,
    "heuristic": HeuristicBot,
    "heuristic-v1": HeuristicV1Bot,
    "heuristic-v2": HeuristicV2Bot,
    "ismcts": ISMCTSBot,
}
"""Bot factories by name (``random`` plays every family: :data:`canasta.bots.GENERIC_BOTS`)."""

LEVELS: dict[str, str] = {
    "easy": "greedy",
    "medium": "heuristic",
    "hard": "ismcts:iterations=100,seconds=1",
    "expert": "ismcts:iterations=400,seconds=1,mode=flat,z=2,value=fit",
}
"""Difficulty levels for players mapped to bot specs. The expert searches every candidate on the
same sampled deals and overrules the heuristic only by two standard errors of the paired
differences, and values the end of each play-out by the lead fitted to where self-play hands
ended (``value=fit``, :mod:`canasta.bots.value`); docs/bots.md gives their strength."""

HINT_LEVEL: Final = "expert"
"""The level behind hints (the terminal's ``hint``, the web table's hint): the strongest bot
that answers within the second a player waits; its explanation names the reason in the
heuristic's words and what the search found."""
