"""The Hand and Foot search: the heuristic, with its choices of draw or take and of discard
tried out in play-outs of deals dealt from the seat's observation.

The candidates are the heuristic's own choice and, at the draw, the best take and the draw;
at the discard, the ``width`` discards the heuristic likes best whose cost by its rules of
thumb is within ``close`` of its own choice's (the close calls); with ``answer``, the yes and
the no to a partner's question. Each candidate is played out ``rollouts`` times by four
heuristics, the cards the seat cannot see (the other hands, every foot still face down, the
stock, the pile below what the rules show) dealt anew each time (:func:`determinize`: counts
as the observation gives them; red threes, which are laid as soon as they are seen, only where
nobody has looked yet). A play-out runs to the end of the deal or for ``horizon`` turns (an
answer's to the end), and is then scored as the table stands (:func:`standing`): each side's
melds, books and red threes, less ``hold`` times the cards in its players' hands. Every
candidate meets the same deals and the same play-out seeds, so their figures differ by the
candidate alone; one replaces the heuristic's own choice only when its mean of its side's
score less the others' is ahead by more than ``margin`` standard errors of the paired
differences and by at least ``least`` points (0 and 0: the best mean wins).

Discards and takes weigh little against the luck of a deal of Hand and Foot: a play-out's
result spreads over hundreds of points while the choices differ by tens, so the settings keep
the heuristic's choice unless the play-outs are clear (measured in docs and the module's
tests; ``takes=0`` and ``close=-1`` switch the take and the discard off).

>>> import random
>>> from canasta.hand_and_foot import HAND_AND_FOOT
>>> from canasta.hand_and_foot.deal import new_deal
>>> from canasta.hand_and_foot.legal import legal_actions
>>> from canasta.hand_and_foot.observation import observe
>>> d = new_deal(HAND_AND_FOOT, seed=2)
>>> bot = SearchBot(rollouts=1, width=2, horizon=2)
>>> bot.choose(observe(d, d.to_move), legal_actions(d), random.Random(0)) in legal_actions(d)
True
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

from canasta.actions import Action
from canasta.cards import IS_RED_THREE, Card, make_pack
from canasta.hand_and_foot.action_text import format_action
from canasta.hand_and_foot.deal import IN_FOOT, Deal
from canasta.hand_and_foot.heuristic import HeuristicBot, number
from canasta.hand_and_foot.legal import legal_actions
from canasta.hand_and_foot.observation import Observation, observe
from canasta.hand_and_foot.scoring import score_side
from canasta.hand_and_foot.turn import apply

__all__ = ["SearchBot", "determinize", "play_out", "standing"]


def determinize(obs: Observation, rng: random.Random) -> Deal | None:
    """A deal the seat of ``obs`` cannot tell from the true one: the cards it has not seen
    dealt at random to the other hands, the feet still face down, the stock and the pile below
    what it sees, each by the count the observation gives (no red three in a hand: it would
    have been laid). ``None`` when the counts do not add up."""
    rules = obs.rules
    unseen = Counter(make_pack(rules.num_decks, rules.num_jokers))
    seen: list[Card] = [*obs.hand, *obs.pile]
    for side in range(rules.num_sides):
        seen.extend(c for m in obs.melds[side] if m is not None for c in m)
        seen.extend(c for b in obs.books[side] for c in b)
        seen.extend(obs.red_threes[side])
    unseen.subtract(seen)
    if any(n < 0 for n in unseen.values()):
        return None
    pool = sorted(unseen.elements())
    rng.shuffle(pool)
    threes = [c for c in pool if IS_RED_THREE[c]]
    plain = [c for c in pool if not IS_RED_THREE[c]]
    n = rules.num_players
    hands: list[tuple[Card, ...]] = []
    for s in range(n):
        if s == obs.seat:
            hands.append(obs.hand)
            continue
        size = obs.hand_sizes[s]
        if size > len(plain):
            return None
        hands.append(tuple(sorted(plain[:size])))
        del plain[:size]
    rest = plain + threes
    rng.shuffle(rest)
    below = obs.pile_size - len(obs.pile)
    if len(rest) != sum(obs.foot_sizes) + obs.stock_size + below:
        return None
    feet: list[tuple[Card, ...]] = []
    for s in range(n):
        size = obs.foot_sizes[s]
        feet.append(tuple(sorted(rest[:size])))
        del rest[:size]
    stock = tuple(rest[:obs.stock_size])
    pile = (*rest[obs.stock_size:], *obs.pile)
    return Deal(rules=rules, dealer=obs.dealer, to_move=obs.to_move, phase=obs.phase,
                hands=tuple(hands), feet=tuple(feet), foot_state=obs.foot_state,
                played_from_foot=obs.played_from_foot, stock=stock, pile=pile,
                melds=obs.melds, books=obs.books, red_threes=obs.red_threes,
                scores=obs.scores, number=obs.number, pile_frozen=obs.pile_frozen,
                asked=obs.asked, answer=obs.answer, asks=obs.asks,
                stock_out=obs.stock_size == 0)


def standing(deal: Deal, side: int, hold: float = 1.0) -> float:
    """``side``'s score less the mean of the other sides': the deal's result when it is over,
    else the table as it stands (melds, books, red threes, less ``hold`` times the cards in
    hand, which may yet be laid; the feet still face down do not count, as they are nobody's
    doing yet)."""
    sides = range(deal.rules.num_sides)
    totals: list[float] = []
    if deal.end is not None:
        totals = [float(deal.end.sides[s].total) for s in sides]
    else:
        value = deal.rules.value_of
        for s in sides:
            part = score_side(deal, s, None)
            feet = sum(value[c] for p in range(deal.rules.num_players)
                       if deal.side_of(p) == s and deal.foot_state[p] != IN_FOOT
                       for c in deal.feet[p])
            totals.append(part.total + feet + (1.0 - hold) * (part.in_hand - feet))
    others = [totals[s] for s in sides if s != side]
    return totals[side] - sum(others) / len(others)


PLAY_OUT_BOT = HeuristicBot()
"""The player of every seat in a play-out."""


def play_out(deal: Deal, side: int, seed: int, horizon: int, hold: float = 1.0) -> float:
    """Four heuristics play ``deal`` (a world) on, each from its seat's observation, to its end
    or for ``horizon`` more turns: :func:`standing` for ``side`` then (``hold``: what a
    point in hand costs)."""
    rng = random.Random(seed)
    turns = 0
    while deal.end is None:
        legal = legal_actions(deal)
        if not legal:
            break
        action = PLAY_OUT_BOT.choose(observe(deal, deal.to_move), legal, rng)
        if action.verb in ("draw", "take"):
            turns += 1
            if turns > horizon:
                break
        deal = apply(deal, action)
    return standing(deal, side, hold)


class SearchBot(HeuristicBot):
    """The heuristic, its close calls settled by play-outs (see the module docstring); the
    heuristic's settings (``pair_value``, ...) apply to its own choices."""

    name = "search"

    def __init__(self, rollouts: str | int = 12, width: str | int = 2,
                 horizon: str | int = 8, margin: str | float = 2.5, hold: str | float = 0.5,
                 least: str | float = 50.0, close: str | float = 5.0,
                 takes: str | int = 1, answer: str | int = 0,
                 **settings: str | float) -> None:
        super().__init__(**settings)  # type: ignore[arg-type]
        self.rollouts = int(number("rollouts", rollouts, int))
        self.width = int(number("width", width, int))
        self.horizon = int(number("horizon", horizon, int))
        self.margin = number("margin", margin, float)
        self.hold = number("hold", hold, float)
        self.least = number("least", least, float)
        self.close = number("close", close, float)
        self.takes = bool(number("takes", takes, int))
        self.answer = bool(number("answer", answer, int))
        if self.rollouts < 1 or self.width < 1 or self.horizon < 1:
            raise ValueError("rollouts, width and horizon must be at least 1")

    def choose(self, obs: Observation, legal: Sequence[Action], rng: random.Random) -> Action:
        """The heuristic's choice, or the candidate its play-outs show to be better."""
        return self._decide(obs, legal, rng)[0]

    def explain(self, obs: Observation, legal: Sequence[Action],
                rng: random.Random) -> tuple[Action, str]:
        """The action :meth:`choose` plays, and why: the heuristic's reason, or what the
        play-outs found."""
        action, found = self._decide(obs, legal, rng)
        return action, self.reason(obs, legal, action) if found is None else found

    def candidates(self, obs: Observation, legal: Sequence[Action],
                   rng: random.Random) -> list[Action]:
        """The choices the play-outs weigh, the heuristic's first; one alone where the
        heuristic decides by itself (melds, the question, its answer)."""
        mine = super().choose(obs, legal, rng)
        verbs = {a.verb for a in legal}
        if obs.phase == "draw" and "take" in verbs and self.takes:
            best = max((a for a in legal if a.verb == "take"),
                       key=lambda a: self.take_value(obs, a))
            plain = [a for a in legal if a.verb in ("draw", "pass")]
            return [mine] + [a for a in (best, *plain[:1]) if a != mine]
        if obs.phase == "answer" and self.answer:
            return [mine] + [a for a in legal if a != mine]
        if mine.verb == "discard" and len(obs.hand) > 1:
            discards = [a for a in legal if a.verb == "discard"]
            order = self.discard_order(obs, discards, rng)[:self.width]
            worst = self.discard_cost(obs, mine.card) + self.close
            return [mine] + [a for a in order
                             if a != mine and self.discard_cost(obs, a.card) <= worst]
        return [mine]

    def _decide(self, obs: Observation, legal: Sequence[Action],
                rng: random.Random) -> tuple[Action, str | None]:
        """The action, and what the play-outs found when they chose it (``None`` where the
        heuristic chose alone)."""
        options = self.candidates(obs, legal, rng)
        if len(options) == 1:
            return options[0], None
        return self._best(obs, legal, options, rng)

    def _best(self, obs: Observation, legal: Sequence[Action], options: Sequence[Action],
              rng: random.Random) -> tuple[Action, str | None]:
        """``options[0]`` (the heuristic's), unless another is ahead by more than the margin
        over the same deals; with what the play-outs found, in words."""
        side = obs.side_of(obs.seat)
        seeds = [(rng.getrandbits(32), rng.getrandbits(32)) for _ in range(self.rollouts)]
        worlds = [(w, play) for w, play in ((determinize(obs, random.Random(world)), play)
                                            for world, play in seeds) if w is not None]
        if not worlds:
            return options[0], None
        # the answer to the question ends the deal or not: those play-outs run to its end
        horizon = 10_000 if obs.phase == "answer" else self.horizon
        values = [[play_out(apply(w, a), side, play, horizon, self.hold) for w, play in worlds]
                  for a in options]
        base = values[0]
        pick, lead = options[0], 0.0
        for a, vs in zip(options[1:], values[1:], strict=True):
            diffs = [v - b for v, b in zip(vs, base, strict=True)]
            mean = sum(diffs) / len(diffs)
            sd = (sum((d - mean) ** 2 for d in diffs) / max(1, len(diffs) - 1)) ** 0.5
            if mean > max(lead, self.least) and mean > self.margin * sd / len(diffs) ** 0.5:
                pick, lead = a, mean
        if pick == options[0]:
            return pick, (f"{self.reason(obs, legal, pick)}; {len(worlds)} play-outs found "
                          "nothing surely better")
        return pick, (f"over {len(worlds)} play-outs (the unseen cards dealt anew each time) "
                      f"this scores {lead:.0f} points more than {format_action(options[0])}, "
                      "the rule of thumb's choice")
