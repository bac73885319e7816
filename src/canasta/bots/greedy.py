"""The ``greedy`` bot (ladder rung L1): take every pile, meld everything, shed the costliest single.

It looks no further than the current action:

* takes the pile whenever the rules let it (with the fewest wild cards and hand cards), else draws;
* lays every meld it can, natural cards first, the biggest group first; goes out as soon as it can
  and never asks its partner (it answers "yes" when asked);
* discards the highest-valued natural card it holds alone, then other natural cards, then black
  threes, and a wild card only when nothing else is left.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from canasta.actions import DRAW, PASS, YES, Action
from canasta.bots.view import View, plan_going_out, plan_step
from canasta.cards import IS_BLACK_THREE, IS_NATURAL, IS_WILD
from canasta.observation import Observation


class GreedyBot:
    """Takes the pile whenever it can, melds as much as it can, discards its least useful card."""

    name = "greedy"

    def choose(self, obs: Observation, legal: Sequence[Action], rng: random.Random) -> Action:
        """The greedy choice (no use of ``rng``: the bot is deterministic)."""
        if len(legal) == 1:
            return legal[0]
        if obs.phase == "answer":
            return YES if YES in legal else legal[0]
        if obs.phase == "draw":
            return _draw(legal)
        return _play(obs, legal)


def _draw(legal: Sequence[Action]) -> Action:
    takes = [a for a in legal if a.verb == "take"]
    if takes:
        return min(takes, key=_take_cost)
    if DRAW in legal:
        return DRAW
    return PASS if PASS in legal else legal[0]


def _take_cost(action: Action) -> tuple[int, int]:
    cards = [c for g in action.groups for c in g.cards]
    return (sum(1 for c in cards if IS_WILD[c]), len(cards))


def _play(obs: Observation, legal: Sequence[Action]) -> Action:
    view = View(obs)
    melds = [a for a in legal if a.verb == "meld"]
    if view.side_melded and obs.answer != "no":
        plan = plan_going_out(obs.rules, obs.hand, view.melds)
        if plan is not None:
            step = plan_step(plan, set(legal))
            if step is not None:
                return step
    if melds:
        return max(melds, key=_meld_size)
    discards = [a for a in legal if a.verb == "discard"]
    if discards:
        return min(discards, key=lambda a: _discard_key(view, a))
    return legal[0]


def _meld_size(action: Action) -> tuple[int, int]:
    cards = [c for g in action.groups for c in g.cards]
    return (sum(1 for c in cards if IS_NATURAL[c]), len(cards))


def _discard_key(view: View, action: Action) -> tuple[int, int]:
    card = action.card
    value = view.rules.value_of[card]
    if IS_NATURAL[card]:
        return (0 if view.nat[card >> 2] == 1 else 1, -value)
    if IS_BLACK_THREE[card]:
        return (2, 0)
    return (3, value)
