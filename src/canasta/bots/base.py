"""The bot interface: a bot chooses an action from what its seat may know.

A bot never sees the true position: it gets its family's observation of the seat to move (for
classic Canasta an :class:`~canasta.observation.Observation`: its own hand, the table, counts of
the other hands; every family's observation holds no card the seat cannot see), the legal
actions, and a seeded :class:`random.Random` it must use for every random choice, so that play
is reproducible. A bot keeps no record between calls: what the table saw is in the observation.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable

from canasta.actions import Action


@runtime_checkable
class Bot(Protocol):
    """Anything with a ``name`` and a ``choose`` method is a bot."""

    name: str

    def choose(self, obs: Any, legal: Sequence[Action], rng: random.Random) -> Action:
        """Pick one of ``legal`` (never empty) for the seat ``obs.seat``, which is to move;
        ``obs`` is the observation of the bot's family."""
        ...


@runtime_checkable
class Explainer(Protocol):
    """A bot that can also say why: optional, see :func:`canasta.bots.explain`."""

    name: str

    def choose(self, obs: Any, legal: Sequence[Action], rng: random.Random) -> Action:
        """As :meth:`Bot.choose`."""
        ...

    def explain(self, obs: Any, legal: Sequence[Action],
                rng: random.Random) -> tuple[Action, str]:
        """The action ``choose`` would give for the same arguments, and a one-line reason."""
        ...
