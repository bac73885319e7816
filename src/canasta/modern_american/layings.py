"""The ways to lay a Modern American hand's cards, each once (equal cards are one card):
the picks of the pack, the melds of one group, the initial melds, and every card but one laid at
once. They count cards only: which of them the rules accept is for
:mod:`~canasta.modern_american.checks` to say, and the legal list
(:mod:`~canasta.modern_american.choices`) keeps those.

The candidates are complete for play one action at a time: a meld after the initial meld lays
one group (several groups are the same as several actions), and an initial meld lays a set of
groups from which no group and no natural card can be left out (what else the player lays that
turn follows as further melds, under the initial meld's rules for the whole turn).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import replace
from itertools import combinations
from typing import Final

from canasta.actions import Action, Group, new_action, new_group
from canasta.cards import IS_NATURAL, IS_WILD, NATURAL_RANKS, RANK_OF, Card, Rank
from canasta.modern_american.facts import Facts
from canasta.modern_american.hand import Meld
from canasta.modern_american.knobs import Knobs
from canasta.modern_american.melds import (
    MAX_MELD,
    MAX_WILDS,
    MIN_MELD,
    MIN_NATURALS,
    WILD_MELD,
    MeldContext,
    meld_problem,
    opening_count_problem,
    requirement_within_reach,
    too_small,
    wild_problem,
)

SEARCH_LIMIT: Final = 20_000
"""The most shapes the initial-meld search tries in one position (a bound on its time)."""


def submultisets(cards: Sequence[Card], k: int) -> list[tuple[Card, ...]]:
    """The distinct ``k``-card selections of ``cards`` (equal cards are one card), each
    sorted, in the order of :func:`itertools.combinations` of the sorted cards."""
    if k == 0:
        return [()]
    if k == len(cards):
        return [tuple(sorted(cards))]
    if k == 1:
        return [(c,) for c in sorted(set(cards))]
    return list(dict.fromkeys(combinations(sorted(cards), k)))


def _by_rank(hand: Sequence[Card]) -> dict[Rank, tuple[Card, ...]]:
    out: dict[Rank, list[Card]] = {}
    for c in hand:
        if IS_NATURAL[c]:
            out.setdefault(RANK_OF[c], []).append(c)
    return {r: tuple(cs) for r, cs in out.items()}


def _wilds(hand: Sequence[Card]) -> tuple[Card, ...]:
    return tuple(c for c in hand if IS_WILD[c])


def take_candidates(f: Facts) -> list[Action]:
    """Picks of the pack: its top card with a natural pair or more of its rank and wild cards
    (MA §6); for a side that has not melded, with the initial meld from the hand (MA §5.4)."""
    h = f.h
    if not h.pile or not IS_NATURAL[h.pile[-1]]:
        return []
    top = h.pile[-1]
    rank = RANK_OF[top]
    hand = f.hand
    naturals = _by_rank(hand).get(rank, ())
    if len(naturals) < MIN_NATURALS:
        return []
    room = MAX_MELD - 1 - len(f.melds[rank] or ())
    if f.knobs.max_meld_size_exception_when_going_out and f.melded:
        room = len(hand)  # past seven when the pick leaves one card to go out with
    wilds = _wilds(hand)
    picks = [nat + ws for k in range(MIN_NATURALS, min(len(naturals), room) + 1)
             for nat in submultisets(naturals, k)
             for w in range(min(MAX_WILDS, room - k) + 1)
             for ws in submultisets(wilds, w)]
    if f.melded:
        return [new_action("take", (new_group(rank, tuple(sorted(p))),)) for p in picks]
    out = []
    value_of = f.value_of
    minimum = f.minimum
    knobs = f.knobs
    top_points = value_of[top] if knobs.initial_meld_counts_pile_top else 0
    for pick in picks:
        rest = list(hand)
        for c in pick:
            rest.remove(c)
        need = minimum - sum(value_of[c] for c in pick) - top_points
        if knobs.pile_top_may_form_clean_triple and opening_count_problem(
                knobs, value_of, [(rank, (top, *pick))], -1, f.dead) is None:
            # the pick's own meld meets the requirement: the rest need only reach the count
            free = replace(knobs, initial_meld_requirement="none")
            found = [()] if need <= 0 else openings(f, rest, need, exclude=rank, knobs=free)
        else:
            found = openings(f, rest, need, exclude=rank)
        for groups in found:
            out.append(new_action("take", (new_group(rank, tuple(sorted(pick))), *groups)))
    return out


def meld_candidates(f: Facts) -> list[Action]:
    """Melds from the hand: the initial meld's sets of groups while the side has not melded,
    else one group onto each meld key (MA §4)."""
    hand = f.hand
    if not f.melded:
        return [new_action("meld", groups) for groups in openings(f, hand, f.minimum)]
    melds = f.melds
    by_rank = _by_rank(hand)
    wilds = _wilds(hand)
    ctx = f.context()
    knobs = f.knobs
    wild_sets = [submultisets(wilds, w) for w in range(MAX_WILDS + 1)]
    out: list[Action] = []
    for rank in NATURAL_RANKS:
        naturals = by_rank.get(rank, ())
        before = melds[rank] or ()
        if not naturals and not before:
            continue
        room = MAX_MELD - len(before)
        held = sum(1 for c in before if not IS_WILD[c])
        for k in range(min(len(naturals), room) + 1):
            # the same check the meld gets: no wild card where the moment forbids one
            most = 0 if not wilds or wild_problem(knobs, rank, before, held + k, ctx) else \
                min(MAX_WILDS, room - k)
            least = 0
            while least <= most and too_small(len(before), held + k, k + least):
                least += 1  # a meld this small is refused whatever it holds
            if k + most == 0 or least > most:
                continue
            for nat in submultisets(naturals, k):
                for w in range(max(least, 0 if k else 1), most + 1):
                    for ws in wild_sets[w]:
                        out.append(new_action("meld", (new_group(rank, nat + ws),)))
    room = MAX_MELD - len(melds[WILD_MELD] or ())
    least = 1 if melds[WILD_MELD] else knobs.wild_meld_sizes[0]
    for w in range(least, min(len(wilds), room) + 1):
        for ws in submultisets(wilds, w):
            out.append(new_action("meld", (new_group(WILD_MELD, ws),)))
    if knobs.max_meld_size_exception_when_going_out:
        out += going_out_past_seven(f)
    return out


def going_out_past_seven(f: Facts) -> list[Action]:
    """The melds that go out past seven cards (``max_meld_size_exception_when_going_out``):
    every card but one laid at once, one group per meld key, at least one meld passing seven.
    They are listed whole, because a smaller step would leave more than one card, and a meld
    passes seven only with the one card left to go out with (MA §4.1.1)."""
    hand = f.hand
    melds = f.melds
    if not any(m is not None and len(m) + len(hand) - 1 > MAX_MELD for m in melds):
        return []  # no meld can pass seven
    return [a for a in melds_away(hand, melds, f.dead)
            if any(len(melds[g.rank] or ()) + len(g.cards) > MAX_MELD for g in a.groups)]


def melds_away(hand: Sequence[Card], melds: Sequence[Meld | None], dead: frozenset[Rank]
               ) -> Iterator[Action]:
    """Every way to lay all of ``hand`` but one card at once onto the side's ``melds``, one
    group per meld key (the natural ranks from the highest, then the meld of wild cards): the
    ways to go out (MA §10.1). For each card kept to discard, each share of the wild cards."""
    for keep in sorted(set(hand)):
        rest = list((Counter(hand) - Counter([keep])).elements())
        by_rank = _by_rank(rest)
        wilds = sorted(_wilds(rest))
        if any(r in dead and len(melds[r] or ()) < MAX_MELD for r in by_rank) or any(
                melds[r] is None and len(cs) < MIN_NATURALS for r, cs in by_rank.items()):
            continue  # a natural card with nowhere to go
        keys = sorted({*by_rank, *(k for k, m in enumerate(melds) if m is not None
                                   and k != WILD_MELD), WILD_MELD})
        for share in _shares(wilds, keys):
            groups = []
            for key in keys:
                laid = (*by_rank.get(key, ()), *share.get(key, ()))
                if laid:
                    groups.append(Group(key, tuple(sorted(laid))))
            natural = [g for g in groups if g.rank != WILD_MELD]
            wild = [g for g in groups if g.rank == WILD_MELD]
            if groups:
                yield Action("meld", tuple(sorted(natural, key=lambda g: -g.rank) + wild))


def _shares(wilds: Sequence[Card], keys: Sequence[Rank]) -> Iterator[dict[Rank, tuple[Card, ...]]]:
    """Every distinct way to give the wild cards ``wilds`` (sorted) to the meld ``keys``."""
    if not wilds:
        yield {}
        return
    seen: set[tuple[tuple[Rank, tuple[Card, ...]], ...]] = set()

    def give(i: int, share: dict[Rank, list[Card]]) -> Iterator[dict[Rank, tuple[Card, ...]]]:
        if i == len(wilds):
            key = tuple(sorted((k, tuple(v)) for k, v in share.items() if v))
            if key not in seen:
                seen.add(key)
                yield dict(key)
            return
        for k in keys:
            if k != WILD_MELD and len(share.get(k, ())) >= MAX_WILDS:
                continue
            share.setdefault(k, []).append(wilds[i])
            yield from give(i + 1, share)
            share[k].pop()

    yield from give(0, {})


# -- the initial meld ------------------------------------------------------------------------

Shape = tuple[Rank, int, int]
"""A group by its key, its natural cards and its wild cards."""


def _shapes(key: Rank, naturals: int) -> list[tuple[int, int]]:
    if key == WILD_MELD:
        return [(0, w) for w in range(MIN_MELD, MAX_MELD + 1)]
    return [(k, w) for k in range(MIN_NATURALS, min(naturals, MAX_MELD) + 1)
            for w in range(min(MAX_WILDS, MAX_MELD - k) + 1) if k + w >= MIN_MELD]


def openings(f: Facts, hand: Sequence[Card], minimum: int, exclude: Rank | None = None,
             knobs: Knobs | None = None) -> list[tuple[Group, ...]]:
    """The initial melds ``hand`` can lay toward ``minimum`` from which no group and no
    natural card can be left out, as groups (MA §5); ``knobs`` in place of the table's (a
    requirement already met elsewhere)."""
    knobs = knobs or f.knobs
    if not _may_reach(knobs, f.value_of, f.dead, hand, minimum, exclude):
        return []
    search = _OpeningSearch(knobs, f.value_of, f.dead, hand, minimum, exclude)
    search.search(0, [], 0, len(search.wilds))
    out: list[tuple[Group, ...]] = []
    for shapes in search.found:
        out += _spread(search.by_rank, search.wilds, shapes)
    return out


def _may_reach(knobs: Knobs, value_of: Sequence[int], dead: frozenset[Rank],
               hand: Sequence[Card], minimum: int, exclude: Rank | None) -> bool:
    """Whether the search of :func:`openings` may find anything: some meld key (a natural
    pair, three wild cards), the count of every key's cards reaching ``minimum``, and the
    initial meld's requirement within reach."""
    counts = [0] * WILD_MELD
    points = [0] * WILD_MELD
    wilds = wild_points = 0
    for c in hand:
        if IS_WILD[c]:
            wilds += 1
            wild_points += value_of[c]
        elif IS_NATURAL[c]:
            counts[RANK_OF[c]] += 1
            points[RANK_OF[c]] += value_of[c]
    total = wild_points
    keys = wilds >= MIN_MELD
    for r in NATURAL_RANKS:
        if counts[r] >= MIN_NATURALS and r != exclude:
            total += points[r]
            keys = True
    if not keys or total < minimum:
        return False
    triples = [r for r in NATURAL_RANKS if counts[r] >= MIN_MELD and r != exclude]
    return requirement_within_reach(knobs, triples, wilds, dead)


class _OpeningSearch:
    """The search of :func:`openings`: the meld keys in turn, each left out or given a shape
    (natural cards, wild cards), pruned by the best count the rest can reach; a set of shapes
    that makes an initial meld is kept when it is minimal."""

    def __init__(self, knobs: Knobs, value_of: Sequence[int], dead: frozenset[Rank],
                 hand: Sequence[Card], minimum: int, exclude: Rank | None) -> None:
        self.knobs = knobs
        self.value_of = value_of
        self.dead = dead
        self.minimum = minimum
        self.by_rank = _by_rank(hand)
        self.wilds = _wilds(hand)
        keys = [r for r in sorted(self.by_rank, reverse=True)
                if r != exclude and len(self.by_rank[r]) >= MIN_NATURALS]
        if len(self.wilds) >= MIN_MELD:
            keys.append(WILD_MELD)
        self.keys = keys
        # the points of each key's natural cards, best first, summed: gains[key][k]
        self.gains: dict[Rank, list[int]] = {}
        for r in keys:
            points = sorted((value_of[c] for c in self.by_rank.get(r, ())), reverse=True)
            sums = [0]
            for p in points:
                sums.append(sums[-1] + p)
            self.gains[r] = sums
        self.best_after = [0] * (len(keys) + 1)  # the natural points of keys[i:]
        for i in range(len(keys) - 1, -1, -1):
            r = keys[i]
            self.best_after[i] = self.best_after[i + 1] + (
                self.gains[r][-1] if r != WILD_MELD else 0)
        wild_points = sorted((value_of[c] for c in self.wilds), reverse=True)
        self.wild_sums = [0]
        for p in wild_points:
            self.wild_sums.append(self.wild_sums[-1] + p)
        self.rich = tuple(sorted(self.wilds, key=lambda c: -value_of[c]))  # the best count
        self.shapes = {r: _shapes(r, len(self.by_rank.get(r, ()))) for r in keys}
        self.ctx = MeldContext(opening=True, dead=dead)
        self.shape_verdicts: dict[Shape, bool] = {}
        self.found: list[list[Shape]] = []
        self.budget = SEARCH_LIMIT
        self.verdicts: dict[tuple[Shape, ...], bool] = {}
        self.splash = knobs.splash_allowed

    def reach(self, i: int, points: int, wilds_left: int) -> int:
        """The best count the keys from ``i`` on can add to ``points``."""
        return points + self.best_after[i] + self.wild_sums[wilds_left]

    def shape_ok(self, shape: Shape) -> bool:
        """Whether the meld rules take a group of this shape in an initial meld: one they
        refuse spoils every set it is in."""
        known = self.shape_verdicts.get(shape)
        if known is None:
            key, k, w = shape
            cards = (*self.by_rank.get(key, ())[:k], *self.rich[:w])
            known = meld_problem(self.knobs, key, (), cards, self.ctx) is None
            self.shape_verdicts[shape] = known
        return known

    def valid(self, shapes: Sequence[Shape]) -> bool:
        """Whether ``shapes`` (each taken by the meld rules, :meth:`shape_ok`; with the natural
        cards of their keys and the richest wild cards) make an initial meld."""
        key_of = tuple(shapes)
        known = self.verdicts.get(key_of)
        if known is not None:
            return known
        groups = []
        used = 0
        for key, k, w in shapes:
            groups.append((key, (*self.by_rank.get(key, ())[:k], *self.rich[used:used + w])))
            used += w
        ok = opening_count_problem(self.knobs, self.value_of, groups, self.minimum,
                                   self.dead) is None
        self.verdicts[key_of] = ok
        return ok

    def minimal(self, shapes: list[Shape]) -> bool:
        """No shape, and no natural card of one, can be left out."""
        for i, (key, k, w) in enumerate(shapes):
            if self.valid(shapes[:i] + shapes[i + 1:]):
                return False
            if key != WILD_MELD and (k - 1, w) in _shapes(key, k - 1) and self.shape_ok(
                    (key, k - 1, w)) and self.valid(
                    [*shapes[:i], (key, k - 1, w), *shapes[i + 1:]]):
                return False
        return True

    def search(self, i: int, chosen: list[Shape], points: int, wilds_left: int) -> None:
        """Try the keys from ``i`` on after ``chosen`` (whose best count is ``points``)."""
        if self.budget <= 0:
            return
        self.budget -= 1
        # ``points`` never undercounts what ``chosen`` can reach, so below the minimum the
        # check is not needed (unless a canasta may open alone)
        if chosen and (points >= self.minimum or self.splash) and self.valid(
                chosen):
            if self.minimal(chosen):
                self.found.append(list(chosen))
            return
        if i == len(self.keys) or self.reach(i, points, wilds_left) < self.minimum:
            return
        key = self.keys[i]
        self.search(i + 1, chosen, points, wilds_left)
        gains = self.gains[key]
        for k, w in self.shapes[key]:
            if w > wilds_left or not self.shape_ok((key, k, w)):
                continue
            chosen.append((key, k, w))
            self.search(i + 1, chosen, points + gains[k] + self.wild_sums[w], wilds_left - w)
            chosen.pop()


def _spread(by_rank: dict[Rank, tuple[Card, ...]], wilds: tuple[Card, ...],
            shapes: list[Shape]) -> list[tuple[Group, ...]]:
    """Every distinct choice of cards for ``shapes``."""
    out: list[tuple[Group, ...]] = []
    seen: set[tuple[Group, ...]] = set()
    _fill(by_rank, shapes, 0, tuple(sorted(wilds)), [], out, seen)
    return out


def _fill(by_rank: dict[Rank, tuple[Card, ...]], shapes: list[Shape], i: int,
          left: tuple[Card, ...], groups: list[Group], out: list[tuple[Group, ...]],
          seen: set[tuple[Group, ...]]) -> None:
    if i == len(shapes):
        ordered = tuple(groups)
        if ordered not in seen:
            seen.add(ordered)
            out.append(ordered)
        return
    key, k, w = shapes[i]
    for nat in submultisets(by_rank.get(key, ()), k):
        for ws in submultisets(left, w):
            rest = list(left)
            for c in ws:
                rest.remove(c)
            groups.append(new_group(key, (*nat, *ws)))
            _fill(by_rank, shapes, i + 1, tuple(rest), groups, out, seen)
            groups.pop()
