"""The Modern American heuristic: rules of thumb of club play, read from the seat's observation.

It plays the rules of thumb of the frozen :mod:`~canasta.modern_american.heuristic_v1` (no meld
of sevens, natural aces or wild cards it cannot finish, wild cards kept for the canasta they
finish, the pack picked when it is worth it, special hands, discards the next player is least
likely to pick) and adds what a club player watches most:

* **aces and sevens in hand** (three or more of either cost 1500 when the hand ends, MA §13.5):
  it sheds them harder than the frozen bot, lays a meld of them it may keep whatever pairs it
  holds for the pack, and counts them before it picks a pack full of them;
* **the pairs for the pack**: after its initial meld it keeps four cards in hand, not seven,
  before it melds whatever it can;
* **the end of the hand**: with an opponent's side able to go out, or its own, it melds down
  whatever risks nothing;
* **safe discards**: a rank of which the next player's side holds a meld of five or more cannot
  be picked with a pair (it would pass seven cards, MA §6.3), as safe as a dead rank; a rank
  the next player is known to hold a pair of is dangerous, one it threw less so, and every
  risky discard weighs more as the pack grows;
* **asking before going out**: it asks its partner while the partner holds cards that could
  cost, and a partner answers no while one turn of its own would shed its penalty.

It reads an :class:`~canasta.modern_american.observation.Observation` and the legal list alone:
its own hand, the table and the counts of the other hands, never a hidden card.

>>> import random
>>> from canasta.modern_american.observation import observe
>>> from canasta.modern_american.play import apply, legal_actions, new_hand
>>> h = new_hand(seed=2)
>>> action = HeuristicBot().choose(observe(h, h.to_move), legal_actions(h), random.Random(0))
>>> apply(h, action).phase in ("draw", "play")
True
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence

from canasta.actions import Action, Group
from canasta.cards import IS_NATURAL, IS_WILD, RANK_OF, THREE, Card, Rank
from canasta.modern_american.heuristic_v1 import HeuristicV1Bot, may_go_out, number
from canasta.modern_american.melds import MAX_MELD
from canasta.modern_american.observation import Observation
from canasta.modern_american.scoring import held_penalty

__all__ = ["HeuristicBot", "may_go_out", "number"]

PACKS = 2
"""Modern American is played with two packs: eight natural cards of each rank."""

SAFE_MELD = MAX_MELD - 2
"""A side holding a meld of this many cards of a rank cannot pick the pack with a pair of it
(the meld would pass seven cards, MA §6.3)."""


class HeuristicBot(HeuristicV1Bot):
    """The frozen rules of thumb and those of the module docstring, with
    ``heuristic-v1``'s settings where they are its own (``shed_held`` 300, ``hold_pairs`` 4:
    measured against it in docs/bots.md).

    ``end_stock`` is the stock's size from which it also sheds aces and sevens from two held
    (0: only when an opponent may go out; measured weaker at 16); ``lay_held`` the natural
    aces or sevens (in hand and in its side's meld) from which it begins a meld of them when the
    unseen cards can still finish it (7: only a meld it finishes at once); ``ask`` whether it
    asks its partner before going out (0: it does not); ``take_held`` what a pack costs it per
    ace or seven it would leave in hand past the count that costs; ``read_safe`` whether a rank
    the next side holds five of counts as safe; ``pack_weight`` how much more a risky discard
    costs per card of the pack; ``race`` whether it melds down once its side may go out."""

    name = "heuristic"

    def __init__(self, shed_held: str | float = 300.0, risky_hold: str | int = 6,
                 wild_keep: str | float = 40.0, hold_pairs: str | int = 4,
                 end_stock: str | int = 0, lay_held: str | int = 7,
                 ask: str | int = 1, take_held: str | float = 50.0,
                 read_safe: str | int = 1, pack_weight: str | float = 0.3,
                 race: str | int = 1) -> None:
        super().__init__(shed_held, risky_hold, wild_keep, hold_pairs)
        self.take_held = number("take_held", take_held, float)
        self.read_safe = bool(number("read_safe", read_safe, int))
        self.pack_weight = number("pack_weight", pack_weight, float)
        self.race = bool(number("race", race, int))
        self.end_stock = int(number("end_stock", end_stock, int))
        self.lay_held = int(number("lay_held", lay_held, int))
        self.ask = bool(number("ask", ask, int))

    def choose(self, obs: Observation, legal: Sequence[Action], rng: random.Random) -> Action:
        """The action these rules of thumb prefer among ``legal``."""
        verbs = {a.verb: a for a in legal}
        if "yes" in verbs and "no" in verbs:
            return verbs["no"] if self._wants_a_turn(obs) else verbs["yes"]
        if "ask" in verbs and self._asks(obs):
            return verbs["ask"]
        melds = [a for a in legal if a.verb == "meld"]
        if obs.answer == "yes" and melds:
            # the partner said yes: the answer binds, lay down the most cards toward going out
            return max(melds, key=lambda a: (sum(len(g.cards) for g in a.groups),
                                             self._meld_value(obs, a)))
        return super().choose(obs, [a for a in legal if a.verb != "ask"] or legal, rng)

    def reason(self, obs: Observation, legal: Sequence[Action], action: Action) -> str:
        """Why these rules of thumb play ``action`` (one of ``legal``)."""
        if action.verb == "ask":
            return "you may go out: ask first, your partner may still hold cards that cost"
        if action.verb == "no":
            return "one more turn sheds the aces or sevens in your hand that would cost 1500"
        if action.verb == "yes":
            return "one more turn would not lower what your hand costs: let your partner go out"
        return super().reason(obs, legal, action)

    # -- the partner's question ------------------------------------------------------------------
    def _asks(self, obs: Observation) -> bool:
        """Ask before going out while the partner holds enough cards to hold a penalty."""
        partner = (obs.seat + 2) % len(obs.hand_sizes)
        least = min((n for _, n, _ in obs.knobs.hand_penalty), default=99)
        return self.ask and obs.hand_sizes[partner] >= least

    def _wants_a_turn(self, obs: Observation) -> bool:
        """Whether one more turn of this player's sheds a penalty its hand holds now."""
        if not held_penalty(obs.knobs, obs.hand):
            return False
        side = obs.side_of(obs.seat)
        counts = Counter(RANK_OF[c] for c in obs.hand if IS_NATURAL[c])
        for rank, least, _ in obs.knobs.hand_penalty:
            if obs.melds[side][rank] is None and counts[rank] - least + 1 > 1:
                return False  # more than one discard away: the penalty stays either way
        return True

    # -- aces and sevens -------------------------------------------------------------------------
    def _threatened(self, obs: Observation) -> bool:
        """A side of the opponents may go out soon: it may go out now, and one of its players
        holds four cards or fewer."""
        other = 1 - obs.side_of(obs.seat)
        return (may_go_out(obs, other)
                and min(obs.hand_sizes[s] for s in range(len(obs.hand_sizes))
                        if obs.side_of(s) == other) <= 4)

    def _near_end(self, obs: Observation) -> bool:
        """The stock runs low, or the opponents threaten to go out."""
        return obs.stock_size <= self.end_stock or self._threatened(obs)

    def _unseen(self, obs: Observation, rank: Rank) -> int:
        """The natural cards of ``rank`` this seat has not seen: in no meld, not in its hand,
        not in the pile."""
        seen = sum(1 for c in obs.hand if IS_NATURAL[c] and RANK_OF[c] == rank)
        seen += sum(1 for melds in obs.melds for c in (melds[rank] or ()) if IS_NATURAL[c])
        seen += sum(1 for c in obs.pile if IS_NATURAL[c] and RANK_OF[c] == rank)
        return max(0, 4 * PACKS - seen)

    def _penalised(self, obs: Observation) -> dict[Rank, int]:
        """The ranks that cost when held at the end, with the count that costs."""
        return {rank: least for rank, least, _ in obs.knobs.hand_penalty}

    def _risky(self, obs: Observation, group: Group) -> bool:
        if not super()._risky(obs, group):
            return False
        rank = group.rank
        if rank not in self._penalised(obs):
            return True
        side = obs.side_of(obs.seat)
        have = len(obs.melds[side][rank] or ()) + sum(
            1 for c in obs.hand if IS_NATURAL[c] and RANK_OF[c] == rank)
        # enough of them in hand, and the cards still unseen can finish the canasta
        return have < self.lay_held or MAX_MELD - have > self._unseen(obs, rank)

    def _meld_value(self, obs: Observation, action: Action,
                    hold_pairs: int | None = None) -> float:
        penalised = self._penalised(obs)
        lays_held = any(g.rank in penalised and not self._risky(obs, g) for g in action.groups)
        side = obs.side_of(obs.seat)
        racing = self.race and may_go_out(obs, side)
        if (lays_held or racing or self._threatened(obs)) and all(not self._risky(obs, g)
                                                                for g in action.groups):
            # nothing at risk: meld down now (the pairs kept for the pack matter less)
            value = super()._meld_value(obs, action, hold_pairs=0)
            bonus = sum(500.0 for g in action.groups if g.rank in penalised)
            return value + bonus if value > 0 else value
        return super()._meld_value(obs, action, hold_pairs)

    def take_value(self, obs: Observation, action: Action) -> float:
        """The pack's worth (see :class:`HeuristicV1Bot`), less the aces and sevens it would
        leave in hand, unmeldable, at a count that costs."""
        value = super().take_value(obs, action)
        side = obs.side_of(obs.seat)
        laid = Counter(RANK_OF[c] for g in action.groups for c in g.cards if IS_NATURAL[c])
        got = Counter(RANK_OF[c] for c in (*obs.hand, *obs.pile) if IS_NATURAL[c])
        for rank, least in self._penalised(obs).items():
            left = got[rank] - laid[rank]
            if (left >= least and obs.melds[side][rank] is None and laid[rank] == 0
                    and left < self.lay_held):
                value -= self.take_held * (left - least + 1)
        return value

    def _discard_cost(self, obs: Observation, rng: random.Random
                      ) -> Callable[[Action], tuple[float, float]]:
        """What a discard risks: the next player picking the pack with it (more as the pack
        grows; none for a dead or safe rank; more for a rank that player is known to hold, less
        for one it threw itself), the pair of our own it breaks, and the card's value; aces and
        sevens held at a count that costs are shed first, earlier as the end nears."""
        hand = obs.hand
        counts = Counter(RANK_OF[c] for c in hand if IS_NATURAL[c])
        side = obs.side_of(obs.seat)
        nxt = (obs.seat + 1) % len(obs.hand_sizes)
        theirs = obs.melds[obs.side_of(nxt)]
        known = Counter(RANK_OF[c] for c in obs.seen.held[nxt] if IS_NATURAL[c])
        thrown = obs.seen.discarded[nxt]
        penalised = self._penalised(obs)
        near = self._near_end(obs)
        pack = 1.0 + self.pack_weight * obs.pile_size
        value_of = obs.rules.value_of

        def cost(a: Action) -> tuple[float, float]:
            c: Card = a.card
            if len(hand) == 1:
                return (-1000.0, 0.0)
            if IS_WILD[c] or RANK_OF[c] == THREE:
                return (500.0, 0.0)
            rank = RANK_OF[c]
            meld = theirs[rank]
            if rank in obs.dead or (self.read_safe and meld is not None
                                    and len(meld) >= SAFE_MELD):
                danger = 0.0
            else:
                danger = 30.0 + (40.0 if meld is not None else 0.0)
                if known[rank] >= 2:
                    danger += 200.0  # they picked a pair of it: they take the pack with it
                elif rank in thrown:
                    danger *= 0.5  # they threw one: a pair of it is less likely
                danger *= pack
            danger += 25.0 * (counts[rank] - 1)  # breaking a pair of our own
            least = penalised.get(rank)
            if least is not None and obs.melds[side][rank] is None and (
                    counts[rank] >= least or (near and counts[rank] >= least - 1)):
                danger -= self.shed_held  # 3 aces or sevens held at the end cost 1500
            return (danger + value_of[c] / 5, rng.random())

        return cost
