"""Going out (RULES §1.13): whether a player's cards can all be melded away onto the side's
melds this turn, leaving none or the one card to discard (§1.6), and how.

One solver per rule set (:func:`going_out_of`) answers for every caller: the engine (a partner's
"yes" binds the player to go out: :func:`canasta.plans.out_from`), the legal list (the question
to the partner, the actions that lay a whole hand) and the bots (the plan they follow).

* The **cheap bounds** run first, on counts alone: :meth:`GoingOut.surely_not` (two cards that
  no meld takes, since one discard frees one; too few canastas within reach),
  :meth:`GoingOut.canastas_within_reach` and :meth:`GoingOut.kept_cards` (the cards that may be
  the one left to discard). Each is a necessary condition of the exact answer.
* The **exact answer**, :meth:`GoingOut.can_go_out`, shares the wild cards among the melds by
  count: each meld takes at least what its make-up needs and at most what the meld limits allow
  (RULES §1.7), and those left over complete the nearest canastas first.
* **How**: :meth:`GoingOut.plan` gives the groups to lay, in an order where each step is legal on
  its own, and the discard (the plan that scores most); :meth:`GoingOut.ways` gives every way to
  lay a set of cards, as the legal list needs them.

Black threes meld only when going out, three or four together (§1.9, ``black_three_meld_sizes``),
and never onto a meld of black threes; a side that has not melded goes out with the opening count
(§1.10) or, concealed, with the canasta its minimum waives (``concealed_requires_own_canasta``).

>>> from canasta.cards import parse_cards
>>> from canasta.rules import get_rules
>>> melds = [None] * 12
>>> melds[3] = tuple(parse_cards("7c 7d 7h 7s 7c 7d 7h"))
>>> outs = going_out_of(get_rules("classic"))
>>> outs.can_go_out(parse_cards("9c 9d 9h Kc"), melds)
True
>>> outs.plan(parse_cards("9c 9d 9h Kc"), melds)
OutPlan(groups=(Group(rank=5, cards=(20, 21, 22)),), discard=36, score=30)
>>> outs.can_go_out(parse_cards("9c 9d Kc Qc"), melds)
False
"""

from __future__ import annotations

import itertools
from bisect import bisect_left
from collections.abc import Iterator, Sequence
from typing import Final, NamedTuple

from canasta.actions import Action, Group, canonical
from canasta.cards import (
    FIRST_THREE,
    FIRST_WILD,
    IS_BLACK_THREE,
    IS_NATURAL,
    IS_RED_THREE,
    IS_WILD,
    NATURAL_RANKS,
    RANK_OF,
    THREE,
    TWO,
    Card,
    Rank,
)
from canasta.melds import MeldLimits, limits_of, split_counts
from canasta.rules import Rules
from canasta.variant import variant_of

Melds = Sequence[Sequence[Card] | None]
"""One side's melds by rank (natural ranks, then black threes), ``None`` where it has none."""

RED: Final = TWO + 1
"""Where :func:`_counts` counts red threes (never in a hand: they are laid out at once)."""
FREE: Final = -1
"""No card is stuck: any card may be the one kept for the discard."""
STUCK: Final = -2
"""Cards of two kinds are stuck: one discard cannot free both."""


class OutPlan(NamedTuple):
    """Meld groups that empty a hand, in the order to lay them, and the final discard. The
    ``score`` is what the groups add to the side's table (their values, the canastas they
    complete, less a natural bonus a wild card spoils), less 5 for a wild card discarded:
    plans are compared by it."""

    groups: tuple[Group, ...]
    discard: Card | None
    score: int


# -- the hand by kind ----------------------------------------------------------------------

_SUBSETS: Final[dict[tuple[tuple[Card, ...], int], list[tuple[Card, ...]]]] = {}


def submultisets(cards: tuple[Card, ...], k: int) -> list[tuple[Card, ...]]:
    """The distinct ``k``-card sub-multisets of sorted ``cards`` (one rank and suit: one
    choice), in order."""
    key = (cards, k)
    found = _SUBSETS.get(key)
    if found is None:
        found = sorted(set(itertools.combinations(cards, k)))
        if len(_SUBSETS) > 200_000:
            _SUBSETS.clear()
        _SUBSETS[key] = found
    return found


def hand_profile(hand: tuple[Card, ...]) -> tuple[dict[Rank, tuple[Card, ...]],
                                                   tuple[Card, ...], tuple[Card, ...]]:
    """(naturals by rank, wild cards, black threes) of a sorted hand."""
    # Sorted, the natural cards come first (rank by rank), then the threes, then the wild cards.
    by_rank: dict[Rank, tuple[Card, ...]] = {}
    n = len(hand)
    start = 0
    while start < n and hand[start] < FIRST_THREE:
        rank = hand[start] >> 2
        end = start + 1
        while end < n and hand[end] >> 2 == rank:
            end += 1
        by_rank[rank] = hand[start:end]
        start = end
    wild = bisect_left(hand, FIRST_WILD, start)
    blacks = tuple(c for c in hand[start:wild] if IS_BLACK_THREE[c]) if wild > start else ()
    return by_rank, hand[wild:], blacks


def _counts(hand: Sequence[Card]) -> list[int]:
    """The cards of ``hand`` counted by rank: natural ranks, black threes (``THREE``), wild cards
    (``TWO``) and red threes (``RED``)."""
    counts = [0] * (RED + 1)
    for c in hand:
        counts[RANK_OF[c]] += 1
    if counts[THREE]:
        for c in hand:
            if IS_RED_THREE[c]:
                counts[THREE] -= 1
                counts[RED] += 1
    return counts


def _wilds_in(meld: Sequence[Card]) -> int:
    """The wild cards of a meld (sorted: they come last)."""
    return len(meld) - bisect_left(meld, FIRST_WILD)


# -- the solver ----------------------------------------------------------------------------

class GoingOut:
    """Whether cards can be melded away onto one side's melds under one rule set, and how
    (see the module's words). Made once per rules value by :func:`going_out_of`."""

    __slots__ = ("black_sizes", "canasta_size", "concealed_own_canasta", "limits",
                 "max_wilds", "min_naturals", "mixed_bonus", "natural_bonus", "need",
                 "requires_discard", "rules", "value_of")

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.limits: MeldLimits = limits_of(rules)
        self.canasta_size: int = rules.canasta_size
        self.need: int = rules.min_canastas_to_go_out
        self.min_naturals: int = rules.min_naturals_per_meld
        self.max_wilds: int = rules.max_wilds_per_meld
        self.black_sizes: tuple[int, ...] = tuple(rules.black_three_meld_sizes)
        self.requires_discard: bool = rules.going_out_requires_discard
        self.concealed_own_canasta: bool = rules.concealed_requires_own_canasta
        self.value_of: tuple[int, ...] = rules.value_of
        self.natural_bonus: int = rules.natural_canasta_bonus
        self.mixed_bonus: int = rules.mixed_canasta_bonus

    # -- the cheap bounds ------------------------------------------------------------------
    def surely_not(self, hand: Sequence[Card], melds: Melds, discard: bool = True) -> bool:
        """True when ``hand`` surely cannot be melded away onto ``melds`` (with one card kept
        for the discard where ``discard``): a red three, too few canastas within reach, or
        cards of two kinds that no meld can take. False says only "perhaps"
        (:meth:`can_go_out` is the exact answer)."""
        counts = _counts(hand)
        return bool(counts[RED]) or self._stuck(counts, melds, -1, discard) == STUCK or (
            self._reach(counts, melds, -1, self.need) < self.need)

    def canastas_within_reach(self, hand: Sequence[Card], melds: Melds,
                              top_rank: Rank = -1) -> int:
        """The most canastas the side could have with the cards of ``hand`` (and a pile's top
        card of rank ``top_rank``) laid: those on the table, and each meld or rank that every
        natural card of the rank and the wild cards a meld may take would complete."""
        return self._reach(_counts(hand), melds, top_rank, len(NATURAL_RANKS))

    def kept_cards(self, hand: Sequence[Card], melds: Melds, may_keep: bool = True,
                   top_rank: Rank = -1) -> list[Card | None]:
        """The cards of which one may stay in hand for the discard while the rest is melded
        (``None``: every card is melded), each once and in order; an empty list when the cards
        surely cannot be melded away. A lone natural card of a rank that no meld takes (nor the
        pile's top card, of rank ``top_rank``) must be the one kept, and so must a black three
        that cannot be melded with the others; without ``may_keep`` every card is melded."""
        counts = _counts(hand)
        if counts[RED]:
            return []
        stuck = self._stuck(counts, melds, top_rank, may_keep)
        if stuck == STUCK:
            return []
        if stuck == FREE:
            return [None, *sorted(set(hand))] if may_keep else [None]
        kept: list[Card | None] = []
        if stuck == THREE:
            kept.extend(sorted({c for c in hand if IS_BLACK_THREE[c]}))
        else:
            kept.extend(c for c in hand if IS_NATURAL[c] and RANK_OF[c] == stuck)
        return kept

    def _reach(self, counts: list[int], melds: Melds, top_rank: Rank, enough: int) -> int:
        """:meth:`canastas_within_reach` of counted cards, counted up to ``enough``."""
        size = self.canasta_size
        wild_room = min(counts[TWO], self.max_wilds)
        made = 0
        for rank in NATURAL_RANKS:
            if made >= enough:
                break
            meld = melds[rank]
            before = 0 if meld is None else len(meld)
            if before >= size:
                made += 1
            elif before + counts[rank] + wild_room + (1 if rank == top_rank else 0) >= size:
                made += 1
        return made

    def _stuck(self, counts: list[int], melds: Melds, top_rank: Rank, may_keep: bool) -> int:
        """The rank (``THREE`` for black threes) whose card must be the one kept because no
        meld can take it, :data:`FREE` when there is none, :data:`STUCK` when one discard
        cannot free them all (or none may be kept)."""
        low = self.min_naturals
        stuck = FREE
        for rank in NATURAL_RANKS:
            n = counts[rank]
            if n and n < low and melds[rank] is None and rank != top_rank:
                if stuck != FREE or n > 1 or not may_keep:
                    return STUCK  # a lone card needs a meld it has not got: only the discard
                stuck = rank
        blacks = counts[THREE]
        if blacks and (blacks not in self.black_sizes or melds[THREE] is not None):
            if stuck != FREE or not may_keep:
                return STUCK
            stuck = THREE
        return stuck

    # -- the exact answer ------------------------------------------------------------------
    def can_go_out(self, hand: Sequence[Card], melds: Melds, minimum: int | None = None,
                   exempt: bool = False, discard: bool = True) -> bool:
        """Whether ``hand`` can be emptied this turn onto ``melds`` (the melds the player plays
        on): melded, with one card left to discard where ``discard``, and the canastas the rules
        need to go out on the table (RULES §1.13).

        ``minimum`` is the opening count the melds must reach when the side has not melded
        (``None`` otherwise); with ``exempt`` the minimum is waived for a concealed going out,
        which then needs a canasta of the player's own (§1.10). With ``discard`` False the whole
        hand must be melded (no discard follows, as after a last red three, §1.16.1).
        """
        need = self.need
        size = self.canasta_size
        longest = have = 0
        for meld in melds:
            if meld is not None:
                if len(meld) > longest:
                    longest = len(meld)
                if len(meld) >= size:
                    have += 1
        if have < need and longest + len(hand) < size:
            return False  # no canasta within reach whatever the cards: they need no counting
        counts = _counts(hand)
        if counts[RED]:
            return False
        stuck = self._stuck(counts, melds, -1, discard)
        if stuck == STUCK or self._reach(counts, melds, -1, need) < need:
            return False
        options: list[Card | None]
        if not discard:
            if self.requires_discard:
                return False
            options = [None]
        elif stuck == THREE:
            options = [c for c in set(hand) if IS_BLACK_THREE[c]]
        elif stuck != FREE:
            options = [c for c in set(hand) if IS_NATURAL[c] and RANK_OF[c] == stuck]
        else:
            options = [*sorted(set(hand))]
            if not self.requires_discard:
                options.append(None)
        return self._out_with_one_of(hand, counts, options, melds, minimum, exempt)

    def can_meld_all(self, cards: Sequence[Card], melds: Melds, minimum: int | None = None,
                     exempt: bool = False) -> bool:
        """Whether every card of ``cards`` can be laid on ``melds`` and new melds, with the
        canastas needed to go out (and, for a side that has not melded, the opening count or a
        concealed canasta: see :meth:`can_go_out`)."""
        counts = _counts(cards)
        if counts[RED]:
            return False
        value = 0
        for c in cards:
            value += self.value_of[c]
        return self._lays_out(counts, counts[THREE], counts[TWO], value, melds, minimum, exempt)

    def _out_with_one_of(self, hand: Sequence[Card], counts: list[int],
                         options: list[Card | None], melds: Melds, minimum: int | None,
                         exempt: bool) -> bool:
        """Whether ``hand`` (counted: ``counts``) less one of ``options`` (``None``: no card)
        can all be laid (:meth:`can_meld_all`)."""
        value_of = self.value_of
        value = 0
        for c in hand:
            value += value_of[c]
        blacks = counts[THREE]
        wilds = counts[TWO]
        for card in options:
            # the hand's counts without the discard, put back after the test
            if card is None:
                out = self._lays_out(counts, blacks, wilds, value, melds, minimum, exempt)
            elif IS_NATURAL[card]:
                counts[RANK_OF[card]] -= 1
                out = self._lays_out(counts, blacks, wilds, value - value_of[card], melds,
                                     minimum, exempt)
                counts[RANK_OF[card]] += 1
            else:
                black = 1 if IS_BLACK_THREE[card] else 0
                out = self._lays_out(counts, blacks - black, wilds - (1 - black),
                                     value - value_of[card], melds, minimum, exempt)
            if out:
                return True
        return False

    def _lays_out(self, counts: list[int], blacks: int, wilds: int, value: int, melds: Melds,
                  minimum: int | None, exempt: bool) -> bool:
        """:meth:`can_meld_all` of cards counted: the natural cards in ``counts`` by rank,
        ``blacks`` black threes and ``wilds`` wild cards, worth ``value`` in all."""
        if blacks and (blacks not in self.black_sizes or melds[THREE] is not None):
            return False
        size = self.canasta_size
        have = lower_total = cap_total = 0
        extras: list[int] = []
        for rank in NATURAL_RANKS:
            n = counts[rank]
            existing = melds[rank]
            if existing is None:
                if n == 0:
                    continue
            elif len(existing) >= size:
                have += 1
            room = self._room(n, existing)
            if room is None:
                return False
            lower, cap, base = room
            lower_total += lower
            cap_total += cap
            if base >= size:
                if existing is None or len(existing) < size:
                    have += 1
            elif size - base <= cap - lower:
                extras.append(size - base)
        if not lower_total <= wilds <= cap_total:
            return False
        # the wild cards left after each meld's least complete the nearest canastas first
        budget = wilds - lower_total
        for extra in sorted(extras):
            if extra > budget:
                break
            budget -= extra
            have += 1
        if have < self.need:
            return False
        if minimum is None:
            return True
        if exempt:
            # the side has no meld yet, so every canasta made now is the player's own
            return have > 0 or not self.concealed_own_canasta
        return value >= minimum

    def _room(self, naturals: int, existing: Sequence[Card] | None
              ) -> tuple[int, int, int] | None:
        """For ``naturals`` natural cards laid on ``existing`` (or as a new meld): (wild cards
        the meld needs at least, wild cards it may take at most, its size with the least), or
        ``None`` when the meld cannot be made. A meld that takes no natural card is never in
        the way, though a merge in cutthroat may leave it above a limit."""
        limits = self.limits
        if existing is None:
            if naturals < limits.min_naturals:
                return None
            cap = limits.wild_cap(naturals)
            lower = max(0, limits.min_size - naturals)
            base = naturals + lower
        else:
            ew = _wilds_in(existing)
            cap = limits.wild_cap(len(existing) - ew + naturals) - ew
            lower = 0
            base = len(existing) + naturals
        if limits.max_size is not None:
            room = limits.max_size - base
            if room < 0 and naturals:
                return None
            cap = min(cap, lower + room)
        if existing is not None and cap < 0:
            cap = 0
        if lower > cap:
            return None
        return lower, cap, base

    # -- how: the plan a player follows ----------------------------------------------------
    def plan(self, hand: Sequence[Card], melds: Melds) -> OutPlan | None:
        """The best way to meld ``hand`` away onto ``melds`` (the side has melded), or ``None``.

        Tries melding every card and each card that may be the final discard
        (:meth:`kept_cards`). The plan meets the canastas the rules need to go out and lays
        canasta-making groups first, so each step is legal on its own; of two plans the one
        that scores more (:class:`OutPlan`) is chosen, the first of equals.
        """
        counts = _counts(hand)
        if counts[RED]:
            return None
        stuck = self._stuck(counts, melds, -1, True)
        if stuck == STUCK or self._reach(counts, melds, -1, self.need) < self.need:
            return None
        options: list[Card | None] = [] if self.requires_discard or stuck != FREE else [None]
        if stuck == FREE:
            options.extend(sorted(set(hand), reverse=True))
        elif stuck == THREE:
            options.extend(sorted({c for c in hand if IS_BLACK_THREE[c]}, reverse=True))
        else:
            options.extend(c for c in set(hand) if IS_NATURAL[c] and RANK_OF[c] == stuck)
        best: OutPlan | None = None
        for discard in options:
            rest = list(hand)
            if discard is not None:
                rest.remove(discard)
                if not rest:
                    continue
            plan = self._partition(rest, melds, discard)
            if plan is not None and (best is None or plan.score > best.score):
                best = plan
                if discard is None:
                    break  # melding every card scores best: the last card counts too
        return best

    def _partition(self, rest: list[Card], melds: Melds, discard: Card | None) -> OutPlan | None:
        """The plan that lays every card of ``rest`` and then discards ``discard``, or ``None``:
        the wild cards a meld needs, then those that complete the nearest canastas, then the
        rest where they spoil least."""
        naturals: list[list[Card]] = [[] for _ in NATURAL_RANKS]
        wilds: list[Card] = []
        blacks: list[Card] = []
        for c in rest:
            if IS_NATURAL[c]:
                naturals[RANK_OF[c]].append(c)
            elif IS_WILD[c]:
                wilds.append(c)
            else:
                blacks.append(c)
        if blacks and (len(blacks) not in self.black_sizes or melds[THREE] is not None):
            return None
        # per rank the plan lays cards on: the wild cards it must take, may take beyond that,
        # its size with the must, and whether it is natural so far
        lower: dict[Rank, int] = {}
        room: dict[Rank, int] = {}
        base: dict[Rank, int] = {}
        natural: dict[Rank, bool] = {}
        size = self.canasta_size
        made = 0
        for r in NATURAL_RANKS:
            n = len(naturals[r])
            existing = melds[r]
            if existing is None:
                if n == 0:
                    continue
            elif len(existing) >= size:
                made += 1
            bounds = self._room(n, existing)
            if bounds is None:
                return None
            low, cap, b = bounds
            if n == 0 and cap == 0:
                continue  # a meld the plan does not touch
            lower[r], room[r], base[r] = low, cap - low, b
            natural[r] = existing is None or _wilds_in(existing) == 0
        budget = len(wilds) - sum(lower.values())
        if budget < 0 or budget > sum(room.values()):
            return None
        extra = dict.fromkeys(lower, 0)
        # wild cards finish the closest canastas until the rules' count is met
        made += sum(1 for r in base if base[r] >= size and (
            melds[r] is None or len(melds[r] or ()) < size))
        for r in sorted((r for r in base if base[r] < size and size - base[r] <= room[r]),
                        key=lambda r: size - base[r]):
            need = size - base[r]
            if need > budget or made >= self.need:
                break
            extra[r] += need
            budget -= need
            made += 1
        if made < self.need:
            return None

        # spare wild cards go where they spoil least (mixed melds first, natural canastas last)
        def spoil(r: Rank) -> tuple[int, int]:
            total = base[r] + extra[r]
            return (1 if natural[r] and lower[r] + extra[r] == 0 and total >= size else 0,
                    -total)

        for r in sorted(room, key=spoil):
            if not budget:
                break
            add = min(budget, room[r] - extra[r])
            if add > 0:
                extra[r] += add
                budget -= add
        if budget:
            return None
        wild_pool = sorted(wilds)  # twos before jokers
        first: list[Group] = []
        then: list[Group] = []
        score = 0
        for r in lower:
            k = lower[r] + extra[r]
            cards = naturals[r] + wild_pool[:k]
            del wild_pool[:k]
            if not cards:
                continue
            before = melds[r] or ()
            score += self._group_score(before, cards, k)
            completes = len(before) + len(cards) >= size > len(before)
            (first if completes else then).append(Group(r, tuple(sorted(cards))))
        # canasta-making groups first: after them every step may leave the hand short
        ordered = first + then
        if blacks:
            score += sum(self.value_of[c] for c in blacks)
            ordered.append(Group(THREE, tuple(sorted(blacks))))
        if discard is not None and IS_WILD[discard]:
            score -= 5  # a discarded wild card freezes nothing useful at the end; keep it counted
        return OutPlan(tuple(ordered), discard, score)

    def _group_score(self, before: Sequence[Card], cards: Sequence[Card], wilds: int) -> int:
        """What laying ``cards`` (``wilds`` of them wild) on ``before`` scores: their values and
        the canasta it makes, less the natural bonus a wild card spoils."""
        size = self.canasta_size
        total = len(before) + len(cards)
        score = 0
        for c in cards:
            score += self.value_of[c]
        mixed_before = any(IS_WILD[c] for c in before)
        if total >= size and len(before) < size:
            score += self.mixed_bonus if wilds > 0 or mixed_before else self.natural_bonus
        elif total >= size and wilds and not mixed_before:
            score -= self.natural_bonus - self.mixed_bonus
        return score

    # -- how: every way, for the legal list ------------------------------------------------
    def ways(self, rest: tuple[Card, ...], melds: Melds, top_rank: Rank = -1) -> Iterator[Action]:
        """Each way to lay every card of sorted ``rest`` (with the pile's top card of rank
        ``top_rank`` first, for a take; a ``meld`` without it), the wild cards shared among the
        melds in every way; checked against the meld rules by count only (the variant's
        ``meld_problem``), not against going out."""
        low = self.min_naturals
        ranks, wilds, blacks = hand_profile(rest)
        if any(len(cards) < low and melds[r] is None and r != top_rank
               for r, cards in ranks.items()):
            return
        if blacks and len(blacks) not in self.black_sizes:
            return
        if len(rest) != sum(map(len, ranks.values())) + len(wilds) + len(blacks):
            return  # a red three: never melded
        targets = sorted(set(ranks).union(r for r in NATURAL_RANKS if melds[r] is not None))
        if top_rank >= 0:
            targets = [top_rank] + [r for r in targets if r != top_rank]
        made = []  # (naturals, wild cards) of each target's meld with these naturals
        for r in targets:
            nat, wild = split_counts(melds[r] or ())
            made.append((nat + len(ranks.get(r, ())) + (1 if r == top_rank else 0), wild))
        variant = variant_of(self.rules)
        room = [variant.wild_room(r, nat, wild) for r, (nat, wild) in zip(targets, made)]
        verb = "take" if top_rank >= 0 else "meld"
        for split in _spreads(wilds, room):
            if any((w or r in ranks)
                   and variant.meld_problem(r, nat, wild + len(w), adds_wilds=bool(w))
                   for r, (nat, wild), w in zip(targets, made, split)):
                continue  # a meld too small, or with too few natural cards
            groups = [Group(r, tuple(sorted(ranks.get(r, ()) + w)))
                      for r, w in zip(targets, split)]
            if top_rank >= 0 and not groups[0].cards:
                continue  # a plain take lays no hand card: the minimal takes list it
            if blacks:
                groups.append(Group(THREE, blacks))
            laid = tuple(g for g in groups if g.cards)
            if laid:
                yield canonical(Action(verb, laid))


def _spreads(wilds: tuple[Card, ...], room: list[int]) -> Iterator[list[tuple[Card, ...]]]:
    """Every way to share all ``wilds`` among groups that take at most ``room[i]`` each."""
    if len(wilds) > sum(room):
        return
    if len(room) <= 1:
        if room or not wilds:
            yield [wilds] if room else []
        return
    for n in range(min(len(wilds), room[0]) + 1):
        for chosen in submultisets(wilds, n):
            rest = list(wilds)
            for c in chosen:
                rest.remove(c)
            for tail in _spreads(tuple(rest), room[1:]):
                yield [chosen, *tail]


# -- one solver per rule set ---------------------------------------------------------------

_SOLVERS: Final[dict[int, GoingOut]] = {}


class _Last:
    """The solver asked for last (nearly every question in a row is about the same rules)."""

    __slots__ = ("solver",)

    def __init__(self) -> None:
        self.solver: GoingOut | None = None


_LAST: Final = _Last()


def going_out_of(rules: Rules) -> GoingOut:
    """The going-out solver of ``rules`` (made once per rules value)."""
    last = _LAST.solver
    if last is not None and last.rules is rules:
        return last
    found = _SOLVERS.get(id(rules))
    if found is None or found.rules is not rules:
        if len(_SOLVERS) > 1000:  # rules read from many requests: keep the table small
            _SOLVERS.clear()
        found = _SOLVERS[id(rules)] = GoingOut(rules)
    _LAST.solver = found
    return found
