"""Bots for Modern American Canasta (:mod:`canasta.modern_american`).

They read what their seat may know: their own hand, the table (melds, laid threes, the pile,
the size of the stock) and the legal list. ``modern-random`` picks any legal action,
``modern-greedy`` lays the most cards it can, ``modern-search`` plays out the heuristic's
candidates; ``modern-heuristic`` plays the family's risks:
no meld of sevens, natural aces or wild cards it cannot finish (each costs 2500 or 2000 when
left incomplete), wild cards kept for the canasta they finish, the pack picked when it is worth
it, a special hand laid when it is there, and discards that the next player is least likely to
pick (dead ranks first, then single cards).

>>> from canasta.modern_american.play import apply, new_hand
>>> h = new_hand(seed=2)
>>> bot = ModernHeuristicBot()
>>> apply(h, bot.choose(h)).phase in ("draw", "play")
True
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from canasta.actions import Action, Group
from canasta.cards import IS_NATURAL, IS_WILD, RANK_OF, THREE, Card, format_card, rank_name
from canasta.modern_american.action_text import format_action, parse_action
from canasta.modern_american.hand import Hand
from canasta.modern_american.inference import NOTHING_SEEN, Seen, determinize, observe
from canasta.modern_american.knobs import AFTER_OPENING, ALWAYS
from canasta.modern_american.melds import MAX_MELD, WILD_MELD
from canasta.modern_american.observation import observe as seat_view
from canasta.modern_american.play import (
    apply,
    legal_actions,
    may_go_out,
    problem,
    special_name,
)


class ModernRandomBot:
    """Any legal action, uniformly (a seeded generator)."""

    name = "modern-random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, h: Hand) -> Action:
        """A legal action of ``h``, at random."""
        return self.rng.choice(legal_actions(h))


class ModernGreedyBot:
    """Lays as many cards as it can: the largest pick or meld first, a special hand when there
    is one; discards its lowest card. It knows none of the family's risks."""

    name = "modern-greedy"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, h: Hand) -> Action:
        """The legal action that lays the most cards, else the cheapest discard."""
        legal = legal_actions(h)
        laid = [a for a in legal if a.verb in ("special", "take", "meld")]
        if laid:
            return max(laid, key=lambda a: (a.verb == "special",
                                            sum(len(g.cards) for g in a.groups)))
        discards = [a for a in legal if a.verb == "discard"]
        if discards:
            return min(discards, key=lambda a: (h.rules.value_of[a.card], self.rng.random()))
        plain = [a for a in legal if a.verb in ("draw", "pass", "yes")]
        return plain[0] if plain else legal[-1]


class ModernHeuristicBot:
    """Rules of thumb of club play (see the module docstring).

    ``shed_held`` is how much it prefers discarding an ace or a seven while it holds as many
    as the end-of-hand penalty counts (0 plays as the first version did); ``risky_hold`` the
    natural aces or sevens it wants in hand before it begins a meld of them; ``wild_keep`` what
    a wild card laid short of a canasta costs it; ``hold_pairs`` the cards it keeps in hand
    (after the initial meld) before it begins a new meld rather than keep its pairs for picking
    the pack (0: it melds whatever it can)."""

    name = "modern-heuristic"

    def __init__(self, seed: int | None = None, *, shed_held: float = 150.0,
                 risky_hold: int = 6, wild_keep: float = 40.0, hold_pairs: int = 7) -> None:
        self.rng = random.Random(seed)
        self.shed_held = shed_held
        self.risky_hold = risky_hold
        self.wild_keep = wild_keep
        self.hold_pairs = hold_pairs

    def choose(self, h: Hand) -> Action:
        """The action these rules of thumb prefer among the legal ones."""
        legal = legal_actions(h)
        by_verb: dict[str, list[Action]] = {}
        for a in legal:
            by_verb.setdefault(a.verb, []).append(a)
        if "special" in by_verb:
            return by_verb["special"][0]
        if "keep" in by_verb:
            return self._keep(h, by_verb["keep"])
        if "yes" in by_verb:
            return by_verb["yes"][0]
        if h.phase == "draw":
            takes = [a for a in by_verb.get("take", []) if self._take_value(h, a) > 0]
            if takes:
                return max(takes, key=lambda a: self._take_value(h, a))
            return by_verb.get("draw", by_verb.get("pass", legal))[0]
        melds = [(self._meld_value(h, a), a) for a in by_verb.get("meld", [])]
        good = [(v, a) for v, a in melds if v > 0]
        if good:
            return max(good, key=lambda va: va[0])[1]
        return self._discard(h, by_verb.get("discard", legal))

    def explain(self, h: Hand) -> tuple[Action, str]:
        """The action :meth:`choose` plays, with the rule of thumb behind it in a player's
        words (a hint)."""
        action = self.choose(h)
        return action, self.reason(h, action)

    def reason(self, h: Hand, action: Action) -> str:
        """Why these rules of thumb play ``action`` in ``h``."""
        seat = h.to_move
        if action.verb == "special":
            return f"{special_name(h, action.card)} is a special hand: lay it, the hand ends"
        if action.verb == "keep":
            if action.card >= 0:
                return "a Straight is in sight: keep a three for it"
            return "no Straight in sight: lay every three"
        if action.verb == "take":
            rank = rank_name(RANK_OF[h.pile[-1]])
            return f"{len(h.pile)} cards are worth picking with your pair of {rank}"
        if action.verb in ("draw", "pass"):
            takes = [a for a in legal_actions(h) if a.verb == "take"]
            if takes:
                return ("the pack is not worth the wild cards or the meld it needs, which "
                        "would cost a penalty unfinished")
            if not h.pile:
                return "the pile is empty"
            top = h.pile[-1]
            pair = [c for c in h.hands[seat] if IS_NATURAL[c] and IS_NATURAL[top]
                    and RANK_OF[c] == RANK_OF[top]][:2]
            if len(pair) < 2:
                return "the pack cannot be picked: you hold no natural pair of its top card"
            why = problem(h, parse_action(h, "take " + " ".join(map(format_card, pair))))
            return f"your pair of {rank_name(RANK_OF[top])} cannot pick the pack: {why}"
        if action.verb == "meld":
            side = h.side_of(seat)
            laid = sum(len(g.cards) for g in action.groups)
            done = [rank_name(g.rank) if g.rank != WILD_MELD else "wild cards"
                    for g in action.groups
                    if len(h.melds[side][g.rank] or ()) + len(g.cards) >= MAX_MELD]
            if done:
                return f"it completes a canasta of {' and '.join(done)}"
            return f"it lays {laid} card{'s' if laid > 1 else ''} where nothing is at risk"
        if action.verb == "discard":
            return self._discard_reason(h, action.card)
        return f"{action.verb}: the only sensible move"

    def _discard_reason(self, h: Hand, card: Card) -> str:
        hand = h.hands[h.to_move]
        if card not in hand:
            return "you hold no card you may discard: it comes back from this turn's meld"
        if len(hand) == 1:
            return "your last card: you go out"
        if IS_WILD[card]:
            return "nothing but wild cards is left to discard"
        rank = RANK_OF[card]
        held = sum(1 for c in hand if IS_NATURAL[c] and RANK_OF[c] == rank)
        limit = {r: least for r, least, _ in h.knobs.hand_penalty}.get(rank, 99)
        theirs = h.melds[1 - h.side_of(h.to_move)][rank] is not None
        if rank in h.dead:
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
    def _keep(self, h: Hand, keeps: Sequence[Action]) -> Action:
        """Keep a three only with a Straight in sight: ten different ranks or more."""
        hand = h.hands[h.to_move]
        ranks = {RANK_OF[c] for c in hand if not IS_WILD[c]} | ({13} if any(
            IS_WILD[c] for c in hand) else set())
        if len(ranks) >= 10:
            threes = [a for a in keeps if a.card >= 0]
            if threes:
                return threes[0]
        return next(a for a in keeps if a.card < 0)

    def _take_value(self, h: Hand, action: Action) -> float:
        pile = len(h.pile)
        wilds = sum(1 for g in action.groups for c in g.cards if IS_WILD[c])
        risky = sum(1 for g in action.groups if self._risky(h, g))
        return pile * 10 + sum(len(g.cards) for g in action.groups) - wilds * 25 - risky * 200

    # -- melds -----------------------------------------------------------------------------------
    def _risky(self, h: Hand, group: Group) -> bool:
        """A new meld that costs a penalty while incomplete and is far from a canasta."""
        side = h.side_of(h.to_move)
        existing = h.melds[side][group.rank]
        size = len(existing or ()) + len(group.cards)
        if size >= MAX_MELD:
            return False
        if group.rank == WILD_MELD:
            return True
        mode = h.knobs.natural_only(group.rank)
        natural = not any(IS_WILD[c] for c in (*(existing or ()), *group.cards))
        if mode == ALWAYS or (mode == AFTER_OPENING and natural):
            held = sum(1 for c in h.hands[h.to_move] if IS_NATURAL[c]
                       and RANK_OF[c] == group.rank)
            return existing is None and held + len(existing or ()) < self.risky_hold
        return False

    def _meld_value(self, h: Hand, action: Action) -> float:
        side = h.side_of(h.to_move)
        value = 0.0
        for g in action.groups:
            existing = h.melds[side][g.rank]
            size = len(existing or ()) + len(g.cards)
            wilds = sum(1 for c in g.cards if IS_WILD[c])
            if self._risky(h, g):
                return -1.0
            if (existing is None and h.side_melded(side) and not h.turn.opening
                    and len(g.cards) < MAX_MELD
                    and len(h.hands[h.to_move]) - len(g.cards) >= self.hold_pairs > 0):
                return -1.0  # keep the pairs in hand to pick the pack with them
            value += len(g.cards) * 10 + (300 if size >= MAX_MELD else 0)
            if wilds and size < MAX_MELD and h.side_melded(side) and not h.turn.opening:
                value -= self.wild_keep * wilds  # keep wild cards for the canasta they finish
            if wilds and not h.side_melded(side):
                value -= 5 * wilds
        left = len(h.hands[h.to_move]) - sum(len(g.cards) for g in action.groups)
        if left <= 2 and may_go_out(h, side) is not None and h.canastas(side) < 1:
            value -= 100  # do not run out of cards far from going out
        return value

    # -- discards ----------------------------------------------------------------------------
    def _discard(self, h: Hand, discards: Sequence[Action]) -> Action:
        hand = h.hands[h.to_move]
        counts = Counter(RANK_OF[c] for c in hand if IS_NATURAL[c])
        dead = h.dead
        other = 1 - h.side_of(h.to_move)
        theirs = {k for k, m in enumerate(h.melds[other]) if m is not None}
        held_limit = {rank: least for rank, least, _ in h.knobs.hand_penalty}
        melded = {k: m for k, m in enumerate(h.melds[h.side_of(h.to_move)]) if m is not None}

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
            return (danger + h.rules.value_of[c] / 5, self.rng.random())

        return min(discards, key=cost)


class ModernSearchBot(ModernHeuristicBot):
    """The heuristic, with its choices of draw or pick and of discard tried out: each of the
    ``width`` best candidates is played out ``rollouts`` times to the end of the hand by four
    heuristics, the hidden cards (the other hands and the stock) dealt anew each time
    (:func:`~canasta.modern_american.inference.determinize`): a player keeps the pile cards it
    picked and still holds, a player who discarded a rank holds fewer pairs of it, as far as the
    table's actions told the bot (:meth:`observe`). Every candidate meets the same worlds
    and the same play-out seeds, so their figures differ by the candidate alone; one replaces
    the heuristic's own choice only when its mean of its side's score less the other side's is
    ahead by more than ``margin`` standard errors of the paired differences (0: the best mean
    wins)."""

    name = "modern-search"

    def __init__(self, seed: int | None = None, *, rollouts: int = 8, width: int = 3,
                 margin: float = 1.0, **settings: Any) -> None:
        super().__init__(seed, **settings)
        self.rollouts = rollouts
        self.width = width
        self.margin = margin
        self.seen: Seen = NOTHING_SEEN
        self._hand_mark: tuple[int, tuple[int, ...], int] | None = None

    def observe(self, h: Hand, action: Action) -> None:
        """Take note of ``action``, played by anyone at the table (the bot too) in ``h``: its
        public part (the pile picked, the cards laid or discarded) enters :attr:`seen`. A table
        that never calls it leaves the bot dealing its worlds uniformly."""
        self._same_hand(h)
        self.seen = observe(self.seen, h, action)

    def _same_hand(self, h: Hand) -> None:
        """Forget the record when ``h`` is a new hand (another dealer or scores, a fuller
        stock)."""
        mark = (h.dealer, h.scores, len(h.stock))
        last = self._hand_mark
        if last is None or last[:2] != mark[:2] or mark[2] > last[2]:
            self.seen = NOTHING_SEEN
        self._hand_mark = mark

    def choose(self, h: Hand) -> Action:
        """The heuristic's choice, or the candidate its play-outs show to be better."""
        return self._decide(h)[0]

    def explain(self, h: Hand) -> tuple[Action, str]:
        """The action :meth:`choose` plays, and why: the heuristic's reason, or what the
        play-outs found."""
        action, found = self._decide(h)
        if found is None:
            return action, self.reason(h, action)
        return action, found

    def _decide(self, h: Hand) -> tuple[Action, str | None]:
        """The action, and what the play-outs found when they chose it (``None`` where the
        heuristic chose alone)."""
        self._same_hand(h)
        legal = legal_actions(h)
        verbs = {a.verb for a in legal}
        if h.phase == "draw" and "take" in verbs and "keep" not in verbs:
            mine = super().choose(h)
            takes = [a for a in legal if a.verb == "take"]
            best = max(takes, key=lambda a: self._take_value(h, a))
            plain = next(a for a in legal if a.verb in ("draw", "pass"))
            options = [mine] + [a for a in (best, plain) if a != mine]
        elif h.phase == "play" and verbs <= {"discard", "ask"} and len(h.hands[h.to_move]) > 1:
            options = self._discard_order(h, [a for a in legal if a.verb == "discard"])
            options = options[:self.width]
        else:
            return super().choose(h), None
        if len(options) == 1:
            return options[0], None
        return self._best(h, options)

    def _discard_order(self, h: Hand, discards: Sequence[Action]) -> list[Action]:
        ranked = []
        rest = list(discards)
        while rest:
            pick = self._discard(h, rest)
            ranked.append(pick)
            rest = [a for a in rest if a != pick]
        return ranked

    def _best(self, h: Hand, options: Sequence[Action]) -> tuple[Action, str]:
        """``options[0]`` (the heuristic's), unless another is ahead by more than the margin
        over the same worlds; with what the play-outs found, in words."""
        side = h.side_of(h.to_move)
        seeds = [(self.rng.getrandbits(32), self.rng.getrandbits(32))
                 for _ in range(self.rollouts)]
        worlds = [determinize(seat_view(h, h.to_move), random.Random(world), seen=self.seen)
                  for world, _ in seeds]
        values = [[_play_out(apply(w, a), side, play) for w, (_, play) in zip(worlds, seeds)]
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
            return pick, (f"{self.reason(h, pick)}; {len(worlds)} play-outs of the hand found "
                          "nothing surely better")
        return pick, (f"over {len(worlds)} play-outs of the hand (the unseen cards dealt as "
                      f"the table's play suggests) this scores {lead:.0f} points a hand more "
                      f"than {format_action(h, options[0])}, the rule of thumb's choice")


def _play_out(h: Hand, side: int, seed: int) -> float:
    """Four heuristics finish the hand: ``side``'s score less the other side's."""
    bots = [ModernHeuristicBot(seed + s) for s in range(4)]
    while h.end is None:
        h = apply(h, bots[h.to_move].choose(h))
    return h.end.sides[side].total - h.end.sides[1 - side].total


def tell(bots: Sequence[Any], h: Hand, action: Action) -> None:
    """Tell every bot at the table that keeps a record of the hand (one with ``observe``, such
    as ``modern-search``) that ``action`` is played in ``h``; a table calls it for every
    action, before applying it."""
    for bot in bots:
        note = getattr(bot, "observe", None)
        if note is not None:
            note(h, action)


MODERN_BOTS: dict[str, Callable[..., Any]] = {
    "modern-random": ModernRandomBot, "modern-greedy": ModernGreedyBot,
    "modern-heuristic": ModernHeuristicBot, "modern-search": ModernSearchBot}
"""The bots of the family, by name."""


def make_modern_bot(spec: str, seed: int | None = None) -> Any:
    """A bot of the family from a spec: a name, and for ``modern-heuristic`` its settings
    (``modern-heuristic:shed_held=0,risky_hold=5``)."""
    name, _, rest = spec.partition(":")
    factory = MODERN_BOTS.get(name.strip())
    if factory is None:
        raise ValueError(f"unknown bot {name!r} (known: {', '.join(MODERN_BOTS)})")
    params: dict[str, float] = {}
    for part in filter(None, (p.strip() for p in rest.split(","))):
        key, _, value = part.partition("=")
        try:
            params[key.strip()] = float(value) if "." in value else int(value)
        except ValueError:
            raise ValueError(f"bad setting {part!r} in {spec!r}") from None
    try:
        return factory(seed, **params)
    except TypeError as e:
        raise ValueError(f"bad settings in {spec!r}: {e}") from None
