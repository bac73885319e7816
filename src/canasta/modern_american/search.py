"""The Modern American search: the heuristic, with its choices of draw or pick and of discard
tried out in play-outs of worlds dealt from the seat's observation.

Each of the ``width`` best candidates is played out ``rollouts`` times to the end of the hand by
four heuristics, the cards the seat cannot see dealt anew each time
(:func:`~canasta.modern_american.inference.determinize`: a player keeps the pile cards it picked
and still holds, a player who discarded a rank holds fewer pairs of it, as the table's public
record in the observation tells). Every candidate meets the same worlds and the same play-out
seeds, so their figures differ by the candidate alone; one replaces the heuristic's own choice
only when its mean of its side's score less the other side's is ahead by more than ``margin``
standard errors of the paired differences (0: the best mean wins).

>>> import random
>>> from canasta.modern_american.observation import observe
>>> from canasta.modern_american.play import legal_actions, new_hand
>>> h = new_hand(seed=2)
>>> bot = SearchBot(rollouts=1, width=2)
>>> bot.choose(observe(h, h.to_move), legal_actions(h), random.Random(0)) in legal_actions(h)
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from canasta.actions import Action
from canasta.modern_american.action_text import format_action
from canasta.modern_american.hand import Hand
from canasta.modern_american.heuristic import HeuristicBot, number
from canasta.modern_american.inference import determinize
from canasta.modern_american.observation import Observation, observe
from canasta.modern_american.play import apply, legal_actions


class SearchBot(HeuristicBot):
    """The heuristic, its close calls settled by play-outs (see the module docstring); the
    heuristic's settings (``shed_held``, ...) apply to its own choices."""

    name = "search"

    def __init__(self, rollouts: str | int = 8, width: str | int = 3,
                 margin: str | float = 1.0, **settings: str | float) -> None:
        super().__init__(**settings)  # type: ignore[arg-type]
        self.rollouts = int(number("rollouts", rollouts, int))
        self.width = int(number("width", width, int))
        self.margin = number("margin", margin, float)
        if self.rollouts < 1 or self.width < 1:
            raise ValueError("rollouts and width must be at least 1")

    def choose(self, obs: Observation, legal: Sequence[Action], rng: random.Random) -> Action:
        """The heuristic's choice, or the candidate its play-outs show to be better."""
        return self._decide(obs, legal, rng)[0]

    def explain(self, obs: Observation, legal: Sequence[Action],
                rng: random.Random) -> tuple[Action, str]:
        """The action :meth:`choose` plays, and why: the heuristic's reason, or what the
        play-outs found."""
        action, found = self._decide(obs, legal, rng)
        return action, self.reason(obs, legal, action) if found is None else found

    def _decide(self, obs: Observation, legal: Sequence[Action],
                rng: random.Random) -> tuple[Action, str | None]:
        """The action, and what the play-outs found when they chose it (``None`` where the
        heuristic chose alone)."""
        verbs = {a.verb for a in legal}
        if obs.phase == "draw" and "take" in verbs and "keep" not in verbs:
            mine = super().choose(obs, legal, rng)
            best = max((a for a in legal if a.verb == "take"),
                       key=lambda a: self.take_value(obs, a))
            plain = next(a for a in legal if a.verb in ("draw", "pass"))
            options = [mine] + [a for a in (best, plain) if a != mine]
        elif obs.phase == "play" and verbs <= {"discard", "ask"} and len(obs.hand) > 1:
            discards = [a for a in legal if a.verb == "discard"]
            options = self.discard_order(obs, discards, rng)[:self.width]
        else:
            return super().choose(obs, legal, rng), None
        if len(options) == 1:
            return options[0], None
        return self._best(obs, legal, options, rng)

    def _best(self, obs: Observation, legal: Sequence[Action], options: Sequence[Action],
              rng: random.Random) -> tuple[Action, str]:
        """``options[0]`` (the heuristic's), unless another is ahead by more than the margin
        over the same worlds; with what the play-outs found, in words."""
        side = obs.side_of(obs.seat)
        seeds = [(rng.getrandbits(32), rng.getrandbits(32)) for _ in range(self.rollouts)]
        worlds = [determinize(obs, random.Random(world)) for world, _ in seeds]
        values = [[play_out(apply(w, a), side, play) for w, (_, play) in zip(worlds, seeds)]
                  for a in options]
        base = values[0]
        pick, lead = options[0], 0.0
        for a, vs in zip(options[1:], values[1:]):
            diffs = [v - b for v, b in zip(vs, base)]
            mean = sum(diffs) / len(diffs)
            sd = (sum((d - mean) ** 2 for d in diffs) / max(1, len(diffs) - 1)) ** 0.5
            if mean > lead and mean > self.margin * sd / len(diffs) ** 0.5:
                pick, lead = a, mean
        if pick == options[0]:
            return pick, (f"{self.reason(obs, legal, pick)}; {len(worlds)} play-outs of the "
                          "hand found nothing surely better")
        return pick, (f"over {len(worlds)} play-outs of the hand (the unseen cards dealt as "
                      f"the table's play suggests) this scores {lead:.0f} points a hand more "
                      f"than {format_action(obs.rules, options[0])}, the rule of thumb's "
                      "choice")


PLAY_OUT_BOT = HeuristicBot()
"""The player of every seat in a play-out."""


def play_out(h: Hand, side: int, seed: int) -> float:
    """Four heuristics finish the hand ``h`` (a world), each from its seat's observation:
    ``side``'s score less the other side's."""
    rng = random.Random(seed)
    while h.end is None:
        h = apply(h, PLAY_OUT_BOT.choose(observe(h, h.to_move), legal_actions(h), rng))
    return h.end.sides[side].total - h.end.sides[1 - side].total
