"""Modern American's bots and levels, as the registry of :mod:`canasta.bots` reads them.

Every bot chooses from its seat's :class:`~canasta.modern_american.observation.Observation`
and the legal list (:class:`~canasta.bots.base.Bot`). The family's rules of thumb read a hand:
each decision they get a :func:`~canasta.modern_american.observation.world` built from the
observation alone (the cards the seat cannot see dealt at random), so they cannot learn a hidden
card.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, Final

from canasta.actions import Action
from canasta.bots.modern import (
    ModernGreedyBot,
    ModernHeuristicBot,
    ModernRandomBot,
    ModernSearchBot,
)
from canasta.modern_american.observation import Observation, world


class SeatBot:
    """A bot of the family that decides on a hand, seated behind the bot protocol: it is
    given a world dealt from the observation (see the module docstring)."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.name: str = inner.name

    def choose(self, obs: Observation, legal: Sequence[Action], rng: random.Random) -> Action:
        """The inner bot's action in a world of ``obs``."""
        del legal  # the world's legal list is the same: it depends on the seat's cards only
        return self.inner.choose(world(obs, rng))  # type: ignore[no-any-return]

    def explain(self, obs: Observation, legal: Sequence[Action],
                rng: random.Random) -> tuple[Action, str]:
        """The action and the rule of thumb behind it."""
        del legal
        explained: tuple[Action, str] = self.inner.explain(world(obs, rng))
        return explained


def _seated(kind: Callable[..., Any]) -> Callable[..., SeatBot]:
    def make(**params: str) -> SeatBot:
        settings = {k: float(v) if "." in v else int(v) for k, v in params.items()}
        return SeatBot(kind(0, **settings))
    return make


BOTS: dict[str, Callable[..., Any]] = {
    "uniform": _seated(ModernRandomBot),
    "greedy": _seated(ModernGreedyBot),
    "heuristic": _seated(ModernHeuristicBot),
    "search": _seated(ModernSearchBot),
}
BOTS.update({f"modern-{name}": factory for name, factory in list(BOTS.items())})
BOTS["modern-random"] = BOTS.pop("modern-uniform")

LEVELS: dict[str, str] = {
    "easy": "greedy",
    "medium": "heuristic",
    "hard": "search",
    "expert": "search:rollouts=16",
}
"""Difficulty levels for players mapped to bot specs (docs/bots.md gives their strength)."""

HINT_LEVEL: Final = "hard"
"""The level behind hints: the search, ahead of the heuristic."""
