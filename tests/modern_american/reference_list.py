"""The legal list as first written: every action that could be legal (the candidates),
filtered by :func:`canasta.modern_american.play.problem`. The engine's fast list must be the
same list, in the same order (``test_legal_list.py``); this is its reference, slow and plain.

The candidates count cards only, each action once, complete for play one action at a time: a
meld after the initial meld lays one group, and an initial meld lays a set of groups from which
no group and no natural card can be left out.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Iterator, Sequence
from itertools import combinations
from typing import Final

from canasta.actions import ASK, DRAW, NO, PASS, YES, Action, Group
from canasta.cards import IS_NATURAL, IS_WILD, NATURAL_RANKS, RANK_OF, Card, Rank
from canasta.modern_american.hand import ANSWER, OVER, PLAY, Hand
from canasta.modern_american.knobs import Knobs
from canasta.modern_american.melds import (
    MAX_MELD,
    MAX_WILDS,
    MIN_MELD,
    MIN_NATURALS,
    WILD_MELD,
    opening_problem,
    wild_problem,
)
from canasta.modern_american.special_hands import CATALOGUES, SIZE

KEEP_NONE: Final = -1
SEARCH_LIMIT: Final = 20_000
"""The most shapes the initial-meld search tries in one position (a bound on its time)."""


def submultisets(cards: Sequence[Card], k: int) -> list[tuple[Card, ...]]:
    """The distinct ``k``-card selections of ``cards`` (equal cards are one card)."""
    return list(dict.fromkeys(combinations(sorted(cards), k)))


def candidates(h: Hand) -> list[Action]:
    """Every action that could be legal in ``h``."""
    if h.phase == OVER:
        return []
    if h.phase == ANSWER:
        return [YES, NO]
    seat = h.to_move
    if h.phase != PLAY:
        if not h.turn.threes_chosen:
            threes = sorted(set(h.threes_in(seat)))
            return [Action("keep", (), c) for c in threes] + [Action("keep", (), KEEP_NONE)]
        return [DRAW if h.stock else PASS, *take_candidates(h)]
    hand = h.hands[seat]
    out = meld_candidates(h)
    out += [Action("discard", (), c) for c in sorted(set(hand))]
    # a card melded this turn, taken back (no_legal_discard_remedy="retract_melds")
    laid = {c for _, cards in h.turn.laid for c in cards} - set(hand)
    out += [Action("discard", (), c) for c in sorted(laid)]
    out.append(ASK)
    if len(hand) == SIZE and h.turn.drew:
        catalogue = CATALOGUES[h.knobs.special_hands]
        out += [Action("special", (), i) for i, s in enumerate(catalogue) if s.matches(hand)]
    return out


def _by_rank(hand: Sequence[Card]) -> dict[Rank, tuple[Card, ...]]:
    out: dict[Rank, list[Card]] = {}
    for c in hand:
        if IS_NATURAL[c]:
            out.setdefault(RANK_OF[c], []).append(c)
    return {r: tuple(cs) for r, cs in out.items()}


def _wilds(hand: Sequence[Card]) -> tuple[Card, ...]:
    return tuple(c for c in hand if IS_WILD[c])


def take_candidates(h: Hand) -> list[Action]:
    """Picks of the pack: its top card with a natural pair or more of its rank and wild cards
    (MA §6); for a side that has not melded, with the initial meld from the hand (MA §5.4)."""
    if not h.pile or not IS_NATURAL[h.pile[-1]]:
        return []
    top = h.pile[-1]
    rank = RANK_OF[top]
    seat = h.to_move
    side = h.side_of(seat)
    hand = h.hands[seat]
    naturals = _by_rank(hand).get(rank, ())
    room = MAX_MELD - 1 - len(h.melds[side][rank] or ())
    if h.knobs.max_meld_size_exception_when_going_out and h.side_melded(side):
        room = len(hand)  # past seven when the pick leaves one card to go out with
    picks = [nat + ws for k in range(MIN_NATURALS, min(len(naturals), room) + 1)
             for nat in submultisets(naturals, k)
             for w in range(min(MAX_WILDS, room - k) + 1)
             for ws in submultisets(_wilds(hand), w)]
    if h.side_melded(side):
        return [Action("take", (Group(rank, tuple(sorted(p))),)) for p in picks]
    out = []
    value_of = h.rules.value_of
    knobs = h.knobs
    top_points = value_of[top] if knobs.initial_meld_counts_pile_top else 0
    for pick in picks:
        rest = list((Counter(hand) - Counter(pick)).elements())
        need = h.minimum(side) - sum(value_of[c] for c in pick) - top_points
        clean = opening_problem(knobs, value_of, [(rank, (top, *pick))], -1, h.dead) is None
        if knobs.pile_top_may_form_clean_triple and clean:
            # the pick's meld is the clean triple: the rest of the opening needs only the count
            free = dataclasses.replace(knobs, initial_meld_requirement="none")
            found = [()] if need <= 0 else openings(h, rest, need, exclude=rank, knobs=free)
        else:
            found = openings(h, rest, need, exclude=rank)
        for groups in found:
            out.append(Action("take", (Group(rank, tuple(sorted(pick))), *groups)))
    return out


def meld_candidates(h: Hand) -> list[Action]:
    """Melds from the hand: the initial meld's sets of groups while the side has not melded,
    else one group onto each meld key (MA §4)."""
    seat = h.to_move
    side = h.side_of(seat)
    hand = h.hands[seat]
    if not h.side_melded(side):
        return [Action("meld", groups) for groups in openings(h, hand, h.minimum(side))]
    melds = h.melds[side]
    by_rank = _by_rank(hand)
    wilds = _wilds(hand)
    ctx = h.context(side)
    out = []
    for rank in NATURAL_RANKS:
        naturals = by_rank.get(rank, ())
        before = melds[rank] or ()
        if not naturals and not before:
            continue
        room = MAX_MELD - len(before)
        held = sum(1 for c in before if not IS_WILD[c])
        for k in range(min(len(naturals), room) + 1):
            # the same check the meld gets: no wild card where the moment forbids one
            most = 0 if not wilds or wild_problem(h.knobs, rank, before, held + k, ctx) else \
                min(MAX_WILDS, room - k)
            for nat in submultisets(naturals, k):
                for w in range(most + 1):
                    if k + w == 0:
                        continue
                    for ws in submultisets(wilds, w):
                        out.append(Action("meld", (Group(rank, nat + ws),)))
    room = MAX_MELD - len(melds[WILD_MELD] or ())
    least = 1 if melds[WILD_MELD] else h.knobs.wild_meld_sizes[0]
    for w in range(least, min(len(wilds), room) + 1):
        for ws in submultisets(wilds, w):
            out.append(Action("meld", (Group(WILD_MELD, ws),)))
    if h.knobs.max_meld_size_exception_when_going_out:
        out += going_out_past_seven(h)
    return out


def going_out_past_seven(h: Hand) -> list[Action]:
    """The melds that go out past seven cards (``max_meld_size_exception_when_going_out``):
    every card but one laid at once, one group per meld key, at least one meld passing seven.
    They are listed whole, because a smaller step would leave more than one card, and a meld
    passes seven only with the one card left to go out with (MA §4.1.1)."""
    seat = h.to_move
    side = h.side_of(seat)
    hand = h.hands[seat]
    melds = h.melds[side]
    if not any(m is not None and len(m) + len(hand) - 1 > MAX_MELD for m in melds):
        return []  # no meld can pass seven
    out: list[Action] = []
    for keep in sorted(set(hand)):
        rest = list((Counter(hand) - Counter([keep])).elements())
        by_rank = _by_rank(rest)
        wilds = sorted(_wilds(rest))
        if any(r in h.dead and len(melds[r] or ()) < MAX_MELD for r in by_rank) or any(
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
            if any(len(melds[g.rank] or ()) + len(g.cards) > MAX_MELD for g in groups):
                natural = [g for g in groups if g.rank != WILD_MELD]
                wild = [g for g in groups if g.rank == WILD_MELD]
                ordered = sorted(natural, key=lambda g: -g.rank) + wild
                out.append(Action("meld", tuple(ordered)))
    return out


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


def openings(h: Hand, hand: Sequence[Card], minimum: int, exclude: Rank | None = None,
             knobs: Knobs | None = None) -> list[tuple[Group, ...]]:
    """The initial melds ``hand`` can lay toward ``minimum`` from which no group and no
    natural card can be left out, as groups (MA §5), under ``knobs`` (the table's by
    default)."""
    knobs = knobs or h.knobs
    by_rank = _by_rank(hand)
    wilds = _wilds(hand)
    keys = [r for r in sorted(by_rank, reverse=True)
            if r != exclude and len(by_rank[r]) >= MIN_NATURALS]
    if len(wilds) >= MIN_MELD:
        keys.append(WILD_MELD)
    value_of = h.rules.value_of
    best = {r: sum(value_of[c] for c in by_rank[r]) for r in keys if r != WILD_MELD}
    wild_points = sorted((value_of[c] for c in wilds), reverse=True)
    found: list[list[Shape]] = []
    budget = [SEARCH_LIMIT]

    rich = tuple(sorted(wilds, key=lambda c: -value_of[c]))  # the best count a shape reaches

    def valid(shapes: Sequence[Shape]) -> bool:
        groups = []
        used = 0
        for key, k, w in shapes:
            groups.append((key, (*by_rank.get(key, ())[:k], *rich[used:used + w])))
            used += w
        return opening_problem(knobs, value_of, groups, minimum, h.dead) is None

    def minimal(shapes: list[Shape]) -> bool:
        for i, (key, k, w) in enumerate(shapes):
            if valid(shapes[:i] + shapes[i + 1:]):
                return False
            if key != WILD_MELD and (k - 1, w) in _shapes(key, k - 1) and valid(
                    [*shapes[:i], (key, k - 1, w), *shapes[i + 1:]]):
                return False
        return True

    def search(i: int, chosen: list[Shape], points: int, wilds_left: int) -> None:
        if budget[0] <= 0:
            return
        budget[0] -= 1
        # ``points`` never undercounts what ``chosen`` can reach, so below the minimum the
        # check is not needed (unless a canasta may open alone)
        if chosen and (points >= minimum or h.knobs.splash_allowed) and valid(chosen):
            if minimal(chosen):
                found.append(list(chosen))
            return
        if i == len(keys):
            return
        reach = points + sum(best[r] for r in keys[i:] if r != WILD_MELD) + sum(
            wild_points[:wilds_left])
        if reach < minimum:
            return
        key = keys[i]
        search(i + 1, chosen, points, wilds_left)
        for k, w in _shapes(key, len(by_rank.get(key, ()))):
            if w > wilds_left:
                continue
            chosen.append((key, k, w))
            gain = sum(sorted((value_of[c] for c in by_rank.get(key, ())), reverse=True)[:k])
            search(i + 1, chosen, points + gain + sum(wild_points[:w]), wilds_left - w)
            chosen.pop()

    search(0, [], 0, len(wilds))
    out: list[tuple[Group, ...]] = []
    for shapes in found:
        out += _spread(by_rank, wilds, shapes)
    return out


def _spread(by_rank: dict[Rank, tuple[Card, ...]], wilds: tuple[Card, ...],
            shapes: list[Shape]) -> Iterator[tuple[Group, ...]]:
    """Every distinct choice of cards for ``shapes``."""
    def fill(i: int, left: Counter[Card]) -> Iterator[list[Group]]:
        if i == len(shapes):
            yield []
            return
        key, k, w = shapes[i]
        for nat in submultisets(by_rank.get(key, ()), k):
            for ws in submultisets(list(left.elements()), w):
                rest = left - Counter(ws)
                for tail in fill(i + 1, rest):
                    yield [Group(key, (*nat, *ws)), *tail]

    seen: set[tuple[Group, ...]] = set()
    for groups in fill(0, Counter(wilds)):
        ordered = tuple(groups)
        if ordered not in seen:
            seen.add(ordered)
            yield ordered


def reference_legal(h: Hand) -> list[Action]:
    """The candidates that the engine's checks accept."""
    from canasta.modern_american.play import problem

    return [a for a in candidates(h) if problem(h, a) is None]
