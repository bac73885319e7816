"""What the research adapters need of a family of rules beyond the family protocol: its
alphabet of action ids, its observation tensor and their bounds, and what OpenSpiel's chance
and resampling read (standard library only).

A family (:class:`canasta.family.Family`) names a module in its ``research_module``; that
module's ``research(rules)`` returns a :class:`Research` for one rule set of the family.
:func:`research_of` finds it for a rule set, a preset name or rules as JSON, so the adapters
(OpenSpiel, PettingZoo, Gymnasium, self-play) never name a family. A family that names no
module is played with this module's own :class:`Research`: the classic alphabet (it spells any
family whose actions are the classic verbs and meld ranks) and a small tensor of what every
family's observation and facts state (:data:`GENERIC_PHASES`, :meth:`Research.tensor_layout`).

>>> research = research_of("modern-american")
>>> research.family.name, research.alphabet.size, len(research.dealing_tensor())
('modern-american', 142, 394)
>>> research_of("classic-2p").alphabet.size, research_of("classic-2p").max_steps_per_hand()
(125, 1296)
"""

from __future__ import annotations

import importlib
import json
import random
from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache
from typing import Any, Final

from canasta.cards import NUM_CARD_TYPES, Card, card_names, format_card, make_pack, parse_card
from canasta.family import Family, family_of, rules_from_json
from canasta.rl.encoding import CLASSIC, NUM_GROUP_RANKS, Alphabet, Choice
from canasta.rl.tensor import (
    MELD_PARTS,
    POINT_SCALE,
    SIZE_SCALE,
    VERBS,
    Layout,
    Offsets,
    max_side_points,
    respell_at,
    write_building,
)
from canasta.rules import Rules

IDS_PER_CARD: Final = 12
"""The classic bound on player steps per hand: 12 ids per card of the pack (docs/rl.md)."""

GENERIC_PHASES: Final = ("deal", "draw", "play", "answer", "over")
"""The phases the generic tensor names; any other phase of a family is its last entry."""

RulesLike = Rules | str | Mapping[str, Any]
"""A rule set, a preset name, or rules as JSON (``{"preset": NAME, FIELD: VALUE}``)."""


def seen_line(deal: bool, hand: Sequence[Card], pile: Sequence[Card], laid_name: str,
              laid: Sequence[Sequence[Card]], sizes: Sequence[int], stock: int) -> str:
    """A seat's line of what a chance event showed it, for a family of hands, a pile and cards
    laid per side (:meth:`Research.seen_text`): the seat's ``hand``, the pile (all of it at the
    ``deal``, else its top card and size), the cards each side has laid (``laid_name``: "reds",
    "threes"), the hands' sizes and the stock's."""
    shown = " ".join(card_names(pile)) if deal else (
        f"{format_card(pile[-1]) if pile else '-'}x{len(pile)}")
    side_laid = "/".join(" ".join(card_names(cards)) for cards in laid)
    return (f"{'deal' if deal else 'stock'}: hand {' '.join(card_names(hand))} | pile {shown}"
            f" | {laid_name} {side_laid} | sizes {','.join(map(str, sizes))} | stock {stock}")


class Research:
    """One rule set of a family as the research adapters see it. A family's research module
    subclasses it and overrides what its positions need; these answers fit any family from the
    protocol alone (the generic tensor, the classic alphabet).

    A value: two are equal when their class and rules are, and it pickles as its rules."""

    alphabet: Alphabet = CLASSIC
    """The action ids (a policy's output size is ``alphabet.size``)."""
    ids_per_card: int = IDS_PER_CARD
    """Player steps per card of the pack that bound one hand (:meth:`max_steps_per_hand`)."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.family: Family = family_of(rules)
        """The family of rules (the core protocol: deal, legal list, apply, totals...)."""

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Research):
            return NotImplemented
        return type(self) is type(other) and self.rules == other.rules

    def __hash__(self) -> int:
        return hash((type(self).__name__, self.rules))

    def __reduce__(self) -> tuple[Any, tuple[Rules]]:
        return research_of, (self.rules,)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {json.dumps(self.rules.to_json(), sort_keys=True)}>"

    # -- the legal ids ---------------------------------------------------------------------------
    def choice(self, position: Any) -> Choice:
        """The spellings of the legal actions of ``position``."""
        return Choice(self.family.legal_actions(position), self.alphabet)

    def max_steps_per_hand(self) -> int:
        """A bound on the player steps (ids) of one hand: :attr:`ids_per_card` per card of the
        pack (docs/rl.md proves it for each shipped family)."""
        return self.ids_per_card * self.rules.deck_size

    # -- the tensor ------------------------------------------------------------------------------
    def tensor(self, position: Any, seat: int) -> list[float]:
        """``seat``'s observation tensor of ``position`` with no spelling in progress, computed
        from what the seat observes."""
        obs = self.family.observe(position, seat)
        facts = self.family.facts(obs)
        at = self._offsets()
        rules = self.rules
        n, k = rules.num_players, rules.num_sides
        out = [0.0] * at.size
        phase = obs.phase
        out[at.phase + (GENERIC_PHASES.index(phase) if phase in GENERIC_PHASES
                        else len(GENERIC_PHASES))] = 1.0
        out[at.to_move + (obs.to_move - seat) % n] = 1.0
        for card in obs.hand:
            out[at.hand + card] += 1.0
        pile = facts["pile"]
        if pile["top"] is not None:
            out[at.pile_top + parse_card(pile["top"])] = 1.0
        out[at.pile_size] = pile["size"] / SIZE_SCALE
        out[at.pile_frozen] = float(bool(pile["frozen"]))
        out[at.stock_size] = facts["stock"] / SIZE_SCALE
        my_side = rules.side_of(seat)
        for side in range(k):
            rel = (side - my_side) % k
            out[at.canastas + rel] = float(facts["canastas"][side])
            out[at.minimums + rel] = facts["opening_minimum"][side] / POINT_SCALE
            out[at.scores + rel] = position.scores[side] / POINT_SCALE
        write_building((), out, at, 0)
        return out

    def respell(self, values: Sequence[float], prefix: Sequence[int]) -> list[float]:
        """The tensor ``values`` (written with no spelling) with ``prefix`` spelled instead."""
        return respell_at(values, self._offsets(), prefix)

    def dealing_tensor(self) -> list[float]:
        """The tensor of a table still being dealt: nothing is seen yet but the phase."""
        at = self._offsets()
        out = [0.0] * at.size
        out[at.phase] = 1.0
        return out

    def tensor_layout(self) -> Layout:
        """The tensor's pieces in order: (name, shape)."""
        n, k, c = self.rules.num_players, self.rules.num_sides, NUM_CARD_TYPES
        return (
            ("phase", (len(GENERIC_PHASES) + 1,)), ("to_move", (n,)), ("hand", (c,)),
            ("pile_top", (c,)), ("pile_size", (1,)), ("pile_frozen", (1,)), ("stock_size", (1,)),
            ("canastas", (k,)), ("minimums", (k,)), ("scores", (k,)),
            ("building_verb", (len(VERBS),)), ("building_cards", (c,)),
            ("building_groups", (NUM_GROUP_RANKS, len(MELD_PARTS))),
            ("building_group", (NUM_GROUP_RANKS + 1,)),
        )

    def tensor_bounds(self, hands: int) -> tuple[list[float], list[float]]:
        """Each entry's least and greatest value over an episode of ``hands`` hands (every
        range positive)."""
        at = self._offsets()
        rules = self.rules
        low, high = [0.0] * at.size, [1.0] * at.size
        counts = _card_counts(rules)
        pack = rules.deck_size / SIZE_SCALE
        points = hands * self.max_side_points() / POINT_SCALE
        minimum = max([1, *(value for _, value in rules.initial_meld_thresholds)]) / POINT_SCALE
        parts = [4.0 * rules.num_decks, 4.0 * rules.num_decks, float(rules.num_jokers)]
        for name, (start, stop) in at.slices.items():
            width = stop - start
            if name in ("hand", "building_cards"):
                high[start:stop] = counts
            elif name in ("pile_size", "stock_size"):
                high[start:stop] = [pack]
            elif name == "canastas":
                high[start:stop] = [rules.deck_size / 3] * width  # three cards at least each
            elif name == "minimums":
                high[start:stop] = [minimum] * width
            elif name == "scores":
                low[start:stop] = [-points] * width
                high[start:stop] = [points] * width
            elif name == "building_groups":
                high[start:stop] = [max(p, 1.0) for _ in range(NUM_GROUP_RANKS) for p in parts]
        return low, high

    def max_side_points(self) -> int:
        """A bound on one side's total for one hand (the classic bound from the rules' fields
        by default: every card, canasta bonus, red three and going-out bonus)."""
        return max_side_points(self.rules)

    def _offsets(self) -> Offsets:
        return _generic_offsets(self.tensor_layout())

    # -- chance and information (OpenSpiel) -----------------------------------------------------
    def seen_text(self, position: Any, seat: int, deal: bool) -> str:
        """What ``seat`` sees of a chance event's outcome (``deal``: the deal; else cards read
        from the stock), as a line of its information string: exact, and nothing hidden."""
        view = json.dumps(self.family.observe(position, seat).to_json(), sort_keys=True)
        return f"{'deal' if deal else 'stock'}: {view}"

    def chance_json(self, position: Any) -> dict[str, Any]:
        """The position as JSON with what chance has not decided left out (the stock's order is
        decided as cards are drawn; its cards are listed in canonical order)."""
        return self.family.position_to_json(position)

    def resampler(self, position: Any, seat: int, held: Sequence[Card]
                  ) -> Callable[[random.Random], Any]:
        """A function that deals, at each call, ``position`` with what ``seat`` cannot see dealt
        anew: each hidden part keeps its size, the player to move holds the cards ``held``
        (those it has spelled so far), the stock is in canonical order (chance orders it)."""
        raise NotImplementedError(f"the family {self.family.name} deals no unseen cards anew: "
                                  "its research module has no resampler()")

    def world(self, observation: Any, rng: random.Random) -> Any:
        """A position the seat of ``observation`` cannot tell from the true one, built from the
        observation alone (a search's sampled deal)."""
        raise NotImplementedError(f"the family {self.family.name} builds no position from an "
                                  "observation: its research module has no world()")

    def lead(self, position: Any, seat: int) -> float:
        """``seat``'s side's lead in points over the mean of the others: the hand's result once
        it is over, else the table as it stands (nothing counted by default)."""
        if not position.is_over:
            return 0.0
        totals = self.family.totals(position)
        mine = self.rules.side_of(seat)
        others = [t for side, t in enumerate(totals) if side != mine]
        return totals[mine] - sum(others) / len(others)


def _card_counts(rules: Rules) -> list[float]:
    """Copies of each card in the pack of ``rules`` (one at least, so every range is
    positive)."""
    counts = [0.0] * NUM_CARD_TYPES
    for card in make_pack(rules.num_decks, rules.num_jokers):
        counts[card] += 1.0
    return [max(c, 1.0) for c in counts]


@lru_cache(maxsize=64)
def _generic_offsets(layout: Layout) -> Offsets:
    return Offsets(layout)


def research(rules: Rules) -> Research:
    """The generic research interface of ``rules`` (a family that names no module of its own,
    or names this one)."""
    return Research(rules)


def rules_of(value: RulesLike) -> Rules:
    """A rule set of any family from a rule set, a preset name or rules as JSON."""
    if isinstance(value, Rules):
        return value
    return rules_from_json(value)


def research_of(value: Research | RulesLike) -> Research:
    """The research interface of a rule set of any family (or a preset name, or rules as
    JSON), from its family's research module; a :class:`Research` is returned as it is."""
    if isinstance(value, Research):
        return value
    return _research(rules_of(value))


@lru_cache(maxsize=256)
def _research(rules: Rules) -> Research:
    module = family_of(rules).research_module or __name__
    made: Research = importlib.import_module(module).research(rules)
    return made
