"""The ``random`` bot: random legal actions. The bottom rung of the ladder (BOTS.md §4.1, L0).

Uniform over the legal actions, except after the draw: a turn's legal list is mostly melds, so a
uniform choice would meld nearly every card. Like L0 of BOTS.md, this bot instead ends its turn
(discards) with probability ``stop`` (½ by default) at each decision of the play phase.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from canasta.actions import Action
from canasta.observation import Observation


class RandomBot:
    """Random legal actions; in the play phase it discards with probability ``stop``."""

    name = "random"

    def __init__(self, stop: str | float = 0.5) -> None:
        self.stop = float(stop)
        if not 0.0 <= self.stop <= 1.0:
            raise ValueError(f"stop must be a probability from 0 to 1, not {stop!r}")

    def choose(self, obs: Observation, legal: Sequence[Action], rng: random.Random) -> Action:
        """A random legal action (see the module docstring)."""
        if obs.phase == "play":
            discards = [a for a in legal if a.verb == "discard"]
            others = [a for a in legal if a.verb != "discard"]
            if discards and others:
                pool = discards if rng.random() < self.stop else others
                return pool[rng.randrange(len(pool))]
        return legal[rng.randrange(len(legal))]
