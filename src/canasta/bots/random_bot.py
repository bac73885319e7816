"""The ``random`` bot: a uniformly random legal action. The baseline of the ladder."""

from __future__ import annotations

import random
from collections.abc import Sequence

from canasta.actions import Action
from canasta.observation import Observation


class RandomBot:
    """Chooses uniformly among the legal actions."""

    name = "random"

    def choose(self, obs: Observation, legal: Sequence[Action], rng: random.Random) -> Action:
        """A uniformly random legal action."""
        return legal[rng.randrange(len(legal))]
