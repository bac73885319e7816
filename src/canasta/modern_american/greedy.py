"""The Modern American greedy bot: it lays as many cards as it can.

The largest pick or meld first, a special hand when there is one; else it discards its lowest
card. It knows none of the family's risks (an unfinished meld of sevens, aces or wild cards, the
aces and sevens held at the end), so it is the easy level.

>>> import random
>>> from canasta.modern_american.observation import observe
>>> from canasta.modern_american.play import legal_actions, new_hand
>>> h = new_hand(seed=2)
>>> GreedyBot().choose(observe(h, h.to_move), legal_actions(h), random.Random(0)) in (
...     legal_actions(h))
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from canasta.actions import Action
from canasta.modern_american.observation import Observation


class GreedyBot:
    """The legal action that lays the most cards, else the cheapest discard (ties at random)."""

    name = "greedy"

    def choose(self, obs: Observation, legal: Sequence[Action], rng: random.Random) -> Action:
        """See the class docstring."""
        laid = [a for a in legal if a.verb in ("special", "take", "meld")]
        if laid:
            return max(laid, key=lambda a: (a.verb == "special",
                                            sum(len(g.cards) for g in a.groups)))
        discards = [a for a in legal if a.verb == "discard"]
        if discards:
            value_of = obs.rules.value_of
            return min(discards, key=lambda a: (value_of[a.card], rng.random()))
        plain = [a for a in legal if a.verb in ("draw", "pass", "yes")]
        return plain[0] if plain else legal[-1]

    def explain(self, obs: Observation, legal: Sequence[Action],
                rng: random.Random) -> tuple[Action, str]:
        """The action :meth:`choose` plays, and why, in a player's words."""
        action = self.choose(obs, legal, rng)
        laid = sum(len(g.cards) for g in action.groups)
        if action.verb == "special":
            reason = "a special hand: lay it, the hand ends"
        elif action.verb in ("take", "meld"):
            reason = f"it lays {laid} card{'s' if laid != 1 else ''}, the most you can"
        elif action.verb == "discard":
            reason = "nothing more to lay: discard your lowest card"
        elif action.verb == "draw":
            reason = "nothing to pick the pack with: draw"
        else:
            reason = f"{action.verb}: the simplest move"
        return action, reason
