"""The bot interface: a bot chooses an action from what its seat may know.

A bot never sees the true state: it gets an :class:`~canasta.observation.Observation` (its own
hand, the table, counts of the other hands), the legal actions, and a seeded
:class:`random.Random` it must use for every random choice, so that play is reproducible.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from canasta.actions import Action
from canasta.observation import Observation


@runtime_checkable
class Bot(Protocol):
    """Anything with a ``name`` and a ``choose`` method is a bot."""

    name: str

    def choose(self, obs: Observation, legal: Sequence[Action], rng: random.Random) -> Action:
        """Pick one of ``legal`` (never empty) for the seat ``obs.seat``, which is to move."""
        ...


@runtime_checkable
class Explainer(Protocol):
    """A bot that can also say why: optional, see :func:`canasta.bots.explain`."""

    name: str

    def choose(self, obs: Observation, legal: Sequence[Action], rng: random.Random) -> Action:
        """As :meth:`Bot.choose`."""
        ...

    def explain(self, obs: Observation, legal: Sequence[Action],
                rng: random.Random) -> tuple[Action, str]:
        """The action ``choose`` would give for the same arguments, and a one-line reason."""
        ...
