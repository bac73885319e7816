"""Hand and Foot's bots and levels, as the registry of :mod:`canasta.bots` reads them."""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from canasta.bots.base import Bot

BOTS: dict[str, Callable[..., Bot]] = {}
LEVELS: dict[str, str] = {"easy": "random", "medium": "random", "hard": "random",
                          "expert": "random"}
HINT_LEVEL: Final = "medium"
