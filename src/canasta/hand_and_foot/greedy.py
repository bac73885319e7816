"""The Hand and Foot greedy bot: it lays the most points it can.

It takes the pile whenever it can (the take that lays the most points), lays the meld worth
the most points while there is one, asks to go out whenever it may and answers yes, and
discards its least useful card: the lowest, a lone card before one of a pair. It knows none of
the family's plans (the clean and dirty books the side needs, the pairs kept for the pile, safe
discards), so it is the easy level.

>>> import random
>>> from canasta.hand_and_foot import HAND_AND_FOOT
>>> from canasta.hand_and_foot.deal import new_deal
>>> from canasta.hand_and_foot.legal import legal_actions
>>> from canasta.hand_and_foot.observation import observe
>>> d = new_deal(HAND_AND_FOOT, seed=2)
>>> GreedyBot().choose(observe(d, d.to_move), legal_actions(d), random.Random(0)) in (
...     legal_actions(d))
True
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

from canasta.actions import Action
from canasta.cards import IS_NATURAL, RANK_OF
from canasta.hand_and_foot.observation import Observation


def laid_points(obs: Observation, action: Action) -> int:
    """The card points ``action`` lays from the hand (a take's top card included)."""
    value = obs.rules.value_of
    points = sum(value[c] for g in action.groups for c in g.cards)
    if action.verb == "take" and obs.pile:
        points += value[obs.pile[-1]]
    return points


class GreedyBot:
    """The take or meld that lays the most points, else the cheapest discard (ties at
    random); ``ask`` whenever it may, ``yes`` to every question."""

    name = "greedy"

    def choose(self, obs: Observation, legal: Sequence[Action], rng: random.Random) -> Action:
        """See the class docstring."""
        verbs = {a.verb: a for a in legal}
        if "yes" in verbs:
            return verbs["yes"]
        laid = [a for a in legal if a.verb in ("take", "meld")]
        if laid:
            return max(laid, key=lambda a: (laid_points(obs, a),
                                            sum(len(g.cards) for g in a.groups)))
        if "ask" in verbs and obs.answer is None:
            return verbs["ask"]
        discards = [a for a in legal if a.verb == "discard"]
        if discards:
            value_of = obs.rules.value_of
            counts = Counter(RANK_OF[c] for c in obs.hand if IS_NATURAL[c])
            return min(discards, key=lambda a: (value_of[a.card],
                                                counts[RANK_OF[a.card]] if IS_NATURAL[a.card]
                                                else 0, rng.random()))
        plain = [a for a in legal if a.verb in ("draw", "pass", "no")]
        return plain[0] if plain else legal[-1]

    def explain(self, obs: Observation, legal: Sequence[Action],
                rng: random.Random) -> tuple[Action, str]:
        """The action :meth:`choose` plays, and why, in a player's words."""
        action = self.choose(obs, legal, rng)
        points = laid_points(obs, action)
        if action.verb == "take":
            reason = f"take the pile: it lays {points} points, the most you can"
        elif action.verb == "meld":
            reason = f"it lays {points} points, the most you can"
        elif action.verb == "discard":
            reason = "nothing more to lay: discard your least useful card"
        elif action.verb == "draw":
            reason = "nothing to take the pile with: draw"
        elif action.verb == "ask":
            reason = "you may go out: ask your partner"
        elif action.verb == "yes":
            reason = "let your partner go out"
        else:
            reason = f"{action.verb}: the simplest move"
        return action, reason
