"""The ``random`` bot: random legal actions. The bottom rung of the ladder (BOTS.md §4.1, L0).

A uniform choice over the legal list would mostly meld and take the pile, because those verbs
have many variants (every choice of cards) where drawing and discarding have few. Like L0 of
BOTS.md, this bot first picks *what to do* and then *how*: at the start of the turn one of the
verbs it may play (draw, take, pass) uniformly; after the draw it ends its turn (discards) with
probability ``stop`` (½ by default) at each decision, else melds or asks; then a uniformly random
action of that verb.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from canasta.actions import Action
from canasta.observation import Observation


class RandomBot:
    """Random legal actions, a random verb first (see the module docstring)."""

    name = "random"

    def __init__(self, stop: str | float = 0.5) -> None:
        self.stop = float(stop)
        if not 0.0 <= self.stop <= 1.0:
            raise ValueError(f"stop must be a probability from 0 to 1, not {stop!r}")

    def choose(self, obs: Observation, legal: Sequence[Action], rng: random.Random) -> Action:
        """A random legal action (see the module docstring)."""
        by_verb: dict[str, list[Action]] = {}
        for action in legal:
            by_verb.setdefault(action.verb, []).append(action)
        verbs = list(by_verb)
        if obs.phase == "play" and "discard" in by_verb and len(verbs) > 1:
            if rng.random() < self.stop:
                verbs = ["discard"]
            else:
                verbs.remove("discard")
        pool = by_verb[verbs[rng.randrange(len(verbs))]]
        return pool[rng.randrange(len(pool))]
