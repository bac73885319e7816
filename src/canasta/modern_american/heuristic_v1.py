"""The frozen Modern American ``heuristic-v1``: rules of thumb of club play, read from the seat's
observation, as they played before :mod:`~canasta.modern_american.heuristic` added its own.

It is the fixed yardstick of docs/bots.md for the family: a claim that the Modern American
heuristic got stronger is measured against it on duplicate deals, so its play never changes (the
heuristic extends it by overriding its methods; do not improve it here).

It plays the family's risks: no meld of sevens, natural aces or wild cards it cannot finish
(each costs 2500 or 2000 when left incomplete, MA §13.3), wild cards kept for the canasta they
finish, the pack picked when it is worth it, a special hand laid when it is there, and discards
that the next player is least likely to pick (dead ranks first, then single cards), shedding
aces and sevens while it holds as many as the end-of-hand penalty counts (MA §13.5).

It reads an :class:`~canasta.modern_american.observation.Observation` and the legal list alone:
its own hand, the table and the counts of the other hands, never a hidden card.

>>> import random
>>> from canasta.modern_american.observation import observe
>>> from canasta.modern_american.play import apply, legal_actions, new_hand
>>> h = new_hand(seed=2)
>>> action = HeuristicV1Bot().choose(observe(h, h.to_move), legal_actions(h), random.Random(0))
>>> apply(h, action).phase in ("draw", "play")
True
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Callable, Sequence

from canasta.actions import Action, Group
from canasta.cards import IS_NATURAL, IS_WILD, RANK_OF, THREE, Card, format_card, rank_name
from canasta.modern_american.action_text import parse_action
from canasta.modern_american.knobs import AFTER_OPENING, ALWAYS
from canasta.modern_american.melds import MAX_MELD, WILD_MELD
from canasta.modern_american.observation import Observation, world
from canasta.modern_american.play import problem
from canasta.modern_american.scoring import incomplete_penalty
from canasta.modern_american.special_hands import CATALOGUES


def number(name: str, value: str | float, kind: type[int] | type[float]) -> float:
    """A bot setting from a spec (text) or from code, checked: a finite number, and a whole
    one where ``kind`` is :class:`int`."""
    try:
        got = float(value)
    except (TypeError, ValueError):
        got = math.nan
    if not math.isfinite(got):
        raise ValueError(f"{name} must be a number, not {value!r}")
    if kind is int:
        if not got.is_integer():
            raise ValueError(f"{name} must be an integer, not {value!r}")
        return int(got)
    return got


def may_go_out(obs: Observation, side: int) -> bool:
    """Whether ``side`` may go out as its table stands (MA §10.1): enough canastas, and no
    incomplete meld that costs a penalty."""
    if obs.canastas(side) < obs.rules.min_canastas_to_go_out:
        return False
    return not any(incomplete_penalty(obs.knobs, key, m) for key, m in obs.side_melds(side))


class HeuristicV1Bot:
    """Rules of thumb of club play (see the module docstring).

    ``shed_held`` is how much it prefers discarding an ace or a seven while it holds as many
    as the end-of-hand penalty counts (0: it does not); ``risky_hold`` the natural aces or
    sevens it wants in hand before it begins a meld of them; ``wild_keep`` what a wild card
    laid short of a canasta costs it; ``hold_pairs`` the cards it keeps in hand (after the
    initial meld) before it begins a new meld rather than keep its pairs for picking the pack
    (0: it melds whatever it can)."""

    name = "heuristic-v1"

    def __init__(self, shed_held: str | float = 150.0, risky_hold: str | int = 6,
                 wild_keep: str | float = 40.0, hold_pairs: str | int = 7) -> None:
        self.shed_held = number("shed_held", shed_held, float)
        self.risky_hold = int(number("risky_hold", risky_hold, int))
        self.wild_keep = number("wild_keep", wild_keep, float)
        self.hold_pairs = int(number("hold_pairs", hold_pairs, int))

    def choose(self, obs: Observation, legal: Sequence[Action], rng: random.Random) -> Action:
        """The action these rules of thumb prefer among ``legal``."""
        by_verb: dict[str, list[Action]] = {}
        for a in legal:
            by_verb.setdefault(a.verb, []).append(a)
        if "special" in by_verb:
            return by_verb["special"][0]
        if "keep" in by_verb:
            return self._keep(obs, by_verb["keep"])
        if "yes" in by_verb:
            return by_verb["yes"][0]
        if obs.phase == "draw":
            takes = [a for a in by_verb.get("take", []) if self.take_value(obs, a) > 0]
            if takes:
                return max(takes, key=lambda a: self.take_value(obs, a))
            return by_verb.get("draw", by_verb.get("pass", list(legal)))[0]
        melds = [(self._meld_value(obs, a), a) for a in by_verb.get("meld", [])]
        good = [(v, a) for v, a in melds if v > 0]
        if good:
            return max(good, key=lambda va: va[0])[1]
        return self.discard(obs, by_verb.get("discard", list(legal)), rng)

    def explain(self, obs: Observation, legal: Sequence[Action],
                rng: random.Random) -> tuple[Action, str]:
        """The action :meth:`choose` plays, with the rule of thumb behind it in a player's
        words (a hint)."""
        action = self.choose(obs, legal, rng)
        return action, self.reason(obs, legal, action)

    def reason(self, obs: Observation, legal: Sequence[Action], action: Action) -> str:
        """Why these rules of thumb play ``action`` (one of ``legal``)."""
        if action.verb == "special":
            name = CATALOGUES[obs.knobs.special_hands][action.card].name
            return f"{name} is a special hand: lay it, the hand ends"
        if action.verb == "keep":
            if action.card >= 0:
                return "a Straight is in sight: keep a three for it"
            return "no Straight in sight: lay every three"
        if action.verb == "take":
            rank = rank_name(RANK_OF[obs.pile[-1]])
            return f"{obs.pile_size} cards are worth picking with your pair of {rank}"
        if action.verb in ("draw", "pass"):
            return self._draw_reason(obs, legal)
        if action.verb == "meld":
            side = obs.side_of(obs.seat)
            laid = sum(len(g.cards) for g in action.groups)
            done = [rank_name(g.rank) if g.rank != WILD_MELD else "wild cards"
                    for g in action.groups
                    if len(obs.melds[side][g.rank] or ()) + len(g.cards) >= MAX_MELD]
            if done:
                return f"it completes a canasta of {' and '.join(done)}"
            return f"it lays {laid} card{'s' if laid > 1 else ''} where nothing is at risk"
        if action.verb == "discard":
            return self._discard_reason(obs, action.card)
        return f"{action.verb}: the only sensible move"

    def _draw_reason(self, obs: Observation, legal: Sequence[Action]) -> str:
        if any(a.verb == "take" for a in legal):
            return ("the pack is not worth the wild cards or the meld it needs, which "
                    "would cost a penalty unfinished")
        if not obs.pile:
            return "the pile is empty"
        top = obs.pile[-1]
        pair = [c for c in obs.hand if IS_NATURAL[c] and IS_NATURAL[top]
                and RANK_OF[c] == RANK_OF[top]][:2]
        if len(pair) < 2:
            return "the pack cannot be picked: you hold no natural pair of its top card"
        # the refusal reads the seat's cards and the table: any world of the observation says it
        seen = world(obs, random.Random(0))
        why = problem(seen, parse_action(obs.rules, "take " + " ".join(map(format_card, pair))))
        return f"your pair of {rank_name(RANK_OF[top])} cannot pick the pack: {why}"

    def _discard_reason(self, obs: Observation, card: Card) -> str:
        hand = obs.hand
        if card not in hand:
            return "you hold no card you may discard: it comes back from this turn's meld"
        if len(hand) == 1:
            return "your last card: you go out"
        if IS_WILD[card]:
            return "nothing but wild cards is left to discard"
        rank = RANK_OF[card]
        held = sum(1 for c in hand if IS_NATURAL[c] and RANK_OF[c] == rank)
        limit = {r: least for r, least, _ in obs.knobs.hand_penalty}.get(rank, 99)
        theirs = obs.melds[1 - obs.side_of(obs.seat)][rank] is not None
        if rank in obs.dead:
            return f"{rank_name(rank)} are dead: nobody can pick the pack with one"
        if held >= limit and self.shed_held:
            return f"{held} {rank_name(rank)} held when the hand ends cost a penalty"
        if held == 1 and not theirs:
            return "a single card, of a rank the other side has not melded"
        if theirs:
            return (f"the least risky card, though the other side has melded "
                    f"{rank_name(rank)}")
        return "the least risky card: every other breaks a pair or is worth more"

    # -- the start of a turn ---------------------------------------------------------------------
    def _keep(self, obs: Observation, keeps: Sequence[Action]) -> Action:
        """Keep a three only with a Straight in sight: ten different ranks or more."""
        ranks = {RANK_OF[c] for c in obs.hand if not IS_WILD[c]} | (
            {13} if any(IS_WILD[c] for c in obs.hand) else set())
        if len(ranks) >= 10:
            threes = [a for a in keeps if a.card >= 0]
            if threes:
                return threes[0]
        return next(a for a in keeps if a.card < 0)

    def take_value(self, obs: Observation, action: Action) -> float:
        """What picking the pack with ``action`` is worth: its cards, less the wild cards it
        lays and the melds it begins that risk a penalty."""
        wilds = sum(1 for g in action.groups for c in g.cards if IS_WILD[c])
        risky = sum(1 for g in action.groups if self._risky(obs, g))
        return (obs.pile_size * 10 + sum(len(g.cards) for g in action.groups) - wilds * 25
                - risky * 200)

    # -- melds -----------------------------------------------------------------------------------
    def _risky(self, obs: Observation, group: Group) -> bool:
        """A new meld that costs a penalty while incomplete and is far from a canasta."""
        side = obs.side_of(obs.seat)
        existing = obs.melds[side][group.rank]
        size = len(existing or ()) + len(group.cards)
        if size >= MAX_MELD:
            return False
        if group.rank == WILD_MELD:
            return True
        mode = obs.knobs.natural_only(group.rank)
        natural = not any(IS_WILD[c] for c in (*(existing or ()), *group.cards))
        if mode == ALWAYS or (mode == AFTER_OPENING and natural):
            held = sum(1 for c in obs.hand if IS_NATURAL[c] and RANK_OF[c] == group.rank)
            return existing is None and held + len(existing or ()) < self.risky_hold
        return False

    def _meld_value(self, obs: Observation, action: Action,
                    hold_pairs: int | None = None) -> float:
        """What laying ``action`` is worth (-1: not now), keeping ``hold_pairs`` cards in hand
        for the pack (the bot's own setting by default)."""
        hold = self.hold_pairs if hold_pairs is None else hold_pairs
        side = obs.side_of(obs.seat)
        melded = obs.side_melded(side)
        value = 0.0
        for g in action.groups:
            existing = obs.melds[side][g.rank]
            size = len(existing or ()) + len(g.cards)
            wilds = sum(1 for c in g.cards if IS_WILD[c])
            if self._risky(obs, g):
                return -1.0
            if (existing is None and melded and not obs.turn.opening
                    and len(g.cards) < MAX_MELD
                    and len(obs.hand) - len(g.cards) >= hold > 0):
                return -1.0  # keep the pairs in hand to pick the pack with them
            value += len(g.cards) * 10 + (300 if size >= MAX_MELD else 0)
            if wilds and size < MAX_MELD and melded and not obs.turn.opening:
                value -= self.wild_keep * wilds  # keep wild cards for the canasta they finish
            if wilds and not melded:
                value -= 5 * wilds
        left = len(obs.hand) - sum(len(g.cards) for g in action.groups)
        if left <= 2 and not may_go_out(obs, side) and obs.canastas(side) < 1:
            value -= 100  # do not run out of cards far from going out
        return value

    # -- discards ----------------------------------------------------------------------------
    def discard(self, obs: Observation, discards: Sequence[Action],
                rng: random.Random) -> Action:
        """The discard the next player is least likely to pick, among ``discards`` (ties
        broken by ``rng``)."""
        return min(discards, key=self._discard_cost(obs, rng))

    def discard_order(self, obs: Observation, discards: Sequence[Action],
                      rng: random.Random) -> list[Action]:
        """``discards`` from the safest to the riskiest."""
        return sorted(discards, key=self._discard_cost(obs, rng))

    def _discard_cost(self, obs: Observation, rng: random.Random
                      ) -> Callable[[Action], tuple[float, float]]:
        hand = obs.hand
        counts = Counter(RANK_OF[c] for c in hand if IS_NATURAL[c])
        dead = obs.dead
        other = 1 - obs.side_of(obs.seat)
        theirs = {k for k, m in enumerate(obs.melds[other]) if m is not None}
        held_limit = {rank: least for rank, least, _ in obs.knobs.hand_penalty}
        melded = {k: m for k, m in enumerate(obs.melds[obs.side_of(obs.seat)]) if m is not None}
        value_of = obs.rules.value_of

        def cost(a: Action) -> tuple[float, float]:
            c: Card = a.card
            if len(hand) == 1:
                return (-1000.0, 0.0)
            if IS_WILD[c] or RANK_OF[c] == THREE:
                return (500.0, 0.0)
            rank = RANK_OF[c]
            danger = 0.0 if rank in dead else 30.0 + (40.0 if rank in theirs else 0.0)
            danger += 25.0 * (counts[rank] - 1)  # breaking a pair of our own
            if counts[rank] >= held_limit.get(rank, 99) and not melded.get(rank):
                danger -= self.shed_held  # 3 aces or sevens held at the end cost 1500 (§13.5)
            return (danger + value_of[c] / 5, rng.random())

        return cost
