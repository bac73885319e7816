"""The classic family's research interface (its family's ``research_module``): the 125 ids of
:mod:`canasta.rl.encoding`, the tensor of :mod:`canasta.rl.tensor`, and the deals of what a
seat cannot see (:mod:`canasta.bots.determinize`).

>>> from canasta import get_rules
>>> research = research(get_rules("classic"))
>>> research.alphabet.size, len(research.dealing_tensor()), research.max_steps_per_hand()
(125, 684, 1296)
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from canasta.bots.determinize import Determinizer
from canasta.bots.value import counted_lead
from canasta.cards import Card
from canasta.observation import Observation
from canasta.rl.research import Research, seen_line
from canasta.rl.tensor import (
    Layout,
    dealing_tensor,
    max_side_points,
    observation_tensor,
    respell,
    tensor_bounds,
    tensor_layout,
)
from canasta.rules import Rules
from canasta.state import State, seal


class ClassicResearch(Research):
    """A classic rule set (any preset of RULES §6, house rules included) for the adapters."""

    def tensor(self, position: Any, seat: int) -> list[float]:
        return observation_tensor(self.family.observe(position, seat))

    def respell(self, values: Sequence[float], prefix: Sequence[int]) -> list[float]:
        return respell(values, self.rules, prefix)

    def dealing_tensor(self) -> list[float]:
        return dealing_tensor(self.rules)

    def tensor_layout(self) -> Layout:
        return tensor_layout(self.rules)

    def tensor_bounds(self, hands: int) -> tuple[list[float], list[float]]:
        return tensor_bounds(self.rules, hands)

    def max_side_points(self) -> int:
        return max_side_points(self.rules)

    def seen_text(self, position: Any, seat: int, deal: bool) -> str:
        """The seat's hand, the pile (all of it at the deal, else its top and size), the red
        threes, the hands' sizes and the stock's."""
        state: State = position
        return seen_line(deal, state.hands[seat], state.pile, "reds", state.red_threes,
                         [len(h) for h in state.hands], len(state.stock))

    def resampler(self, position: Any, seat: int, held: Sequence[Card]
                  ) -> Callable[[random.Random], Any]:
        """Deals from the seat's observation (:class:`~canasta.bots.determinize.Determinizer`),
        the cards ``held`` known to be in the hand of the player to move."""
        state: State = position
        obs: Observation = self.family.observe(state, seat)
        if held:
            known = list(obs.known)
            mover = state.to_move
            cards: Counter[Card] = Counter(known[mover]) | Counter(held)
            known[mover] = tuple(sorted(cards.elements()))
            sampler = Determinizer(dataclasses.replace(obs, known=tuple(known)))
        else:
            sampler = Determinizer(obs)

        def deal(rng: random.Random) -> State:
            new = sampler.sample(rng).copy()
            new.stock = tuple(sorted(new.stock))  # the stock is not ordered until drawn
            new.known = obs.known  # what the spelling showed is no knowledge of the position
            return seal(new)

        return deal

    def world(self, observation: Any, rng: random.Random) -> State:
        obs: Observation = observation
        return Determinizer(obs).sample(rng)

    def lead(self, position: Any, seat: int) -> float:
        """:func:`~canasta.bots.value.counted_lead`: the melds, red threes and hands as they
        stand."""
        return counted_lead(position, seat)


def research(rules: Rules) -> ClassicResearch:
    """The research interface of a classic rule set."""
    return ClassicResearch(rules)
