"""The ways a Modern American player might go out this turn: every card of the hand but one
laid at once onto the side's melds, and the last one discarded (MA §10.1).

:func:`ways_out` finds them by kinds of card, as the rules read them: natural cards by rank,
twos, jokers (no rule reads a suit), so each way stands for all the ways that differ only in
suits. Each meld key's share of the wild cards is tried only where the meld rules
(:func:`~canasta.modern_american.melds.meld_problem`, with the moment of a going-out meld) take
it, and a way that leaves too few canastas, or a meld incomplete that costs a penalty, is never
built. What is left is for the checks to accept (:func:`canasta.modern_american.checks.
could_go_out`): a player may ask "partner, may I go out?" only where one is accepted.

>>> from canasta.cards import parse_cards
>>> from canasta.modern_american.hand import NO_MELDS
>>> from canasta.modern_american.knobs import KNOBS
>>> melds = list(NO_MELDS)
>>> melds[4], melds[5] = tuple(parse_cards("8c 8c 8d 8d 8h 8h 8s")), tuple(parse_cards(
...     "9c 9c 9d 9d 9h 9h"))
>>> [str(a) for a in ways_out(KNOBS, tuple(parse_cards("9s 5c")), tuple(melds), frozenset(),
...                           False, 2)]
['meld 9s']
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from canasta.actions import Action, Group
from canasta.cards import IS_WILD, JOKER, NATURAL_RANKS, RANK_OF, THREE, Card, Rank
from canasta.modern_american.knobs import Knobs
from canasta.modern_american.melds import (
    MAX_MELD,
    MAX_WILDS,
    MIN_NATURALS,
    WILD_MELD,
    MeldContext,
    meld_problem,
)
from canasta.modern_american.scoring import incomplete_penalty

Meld = tuple[Card, ...]


def _kind(card: Card) -> int:
    """A card as the rules read it: the joker, a two, or a natural card's (or three's) rank."""
    return 13 if card == JOKER else RANK_OF[card]


def ways_out(knobs: Knobs, hand: Sequence[Card], melds: Sequence[Meld | None],
             dead: frozenset[Rank], opening: bool, need: int) -> Iterator[Action]:
    """The ways to lay all of ``hand`` (sorted) but one card onto the side's ``melds``, at once,
    that the meld rules allow group by group and that leave ``need`` canastas or more and no
    incomplete meld with a penalty; one per way the rules tell apart. ``opening``: the side
    made its initial meld this turn (its rules hold for the rest of the turn)."""
    last = -1
    verdicts: dict[int, bool] = {}
    for keep in hand:
        kind = _kind(keep)
        if kind == last or RANK_OF[keep] == THREE:
            continue
        last = kind
        rest = list(hand)
        rest.remove(keep)
        yield from _ways_keeping(knobs, rest, melds, dead, opening, need, verdicts)


def _ways_keeping(knobs: Knobs, rest: list[Card], melds: Sequence[Meld | None],
                  dead: frozenset[Rank], opening: bool, need: int,
                  verdicts: dict[int, bool]) -> Iterator[Action]:
    """The ways to lay all of ``rest``; ``verdicts`` keeps what the meld rules said of a
    key's group (by its natural and wild cards, and whether the meld of wild cards stays
    incomplete), for the other cards kept."""
    naturals: dict[Rank, list[Card]] = {}
    twos: list[Card] = []
    jokers: list[Card] = []
    for c in rest:
        if c == JOKER:
            jokers.append(c)
        elif IS_WILD[c]:
            twos.append(c)
        elif RANK_OF[c] == THREE:
            return  # a three is never melded
        else:
            naturals.setdefault(RANK_OF[c], []).append(c)
    past_seven = knobs.max_meld_size_exception_when_going_out
    for r, cards in naturals.items():
        m = melds[r]
        if (m is None and len(cards) < MIN_NATURALS) or (r in dead and knobs.dead_ranks and not (
                past_seven and m is not None and len(m) >= MAX_MELD)):
            return  # a natural card the meld rules give no place (a meld's two, a dead rank)
    keys = [r for r in reversed(NATURAL_RANKS) if r in naturals or melds[r] is not None]
    wild_before = melds[WILD_MELD] or ()
    for j0 in range(len(jokers) + 1):
        for t0 in range(len(twos) + 1):
            added = (*twos[:t0], *jokers[:j0])
            size = len(wild_before) + len(added)
            ctx = MeldContext(opening, 0 < size < MAX_MELD, dead, True)
            canastas = 0
            if added:
                if meld_problem(knobs, WILD_MELD, wild_before, added, ctx) is not None:
                    continue
            if size:
                final = (*wild_before, *added)
                if size < MAX_MELD and incomplete_penalty(knobs, WILD_MELD, final):
                    continue  # an incomplete meld of wild cards: no going out
                canastas += size >= MAX_MELD
            spare = [*twos[t0:], *jokers[j0:]]
            options = _options(knobs, keys, naturals, melds, spare, ctx, verdicts)
            if options is None:
                continue
            for shares in _shares(options, len(spare), need - canastas):
                groups = []
                at = 0
                for (key, _), w in zip(options, shares):
                    laid = (*naturals.get(key, ()), *spare[at:at + w])
                    at += w
                    if laid:
                        groups.append(Group(key, tuple(sorted(laid))))
                if added:
                    groups.append(Group(WILD_MELD, tuple(sorted(added))))
                if groups:
                    yield Action("meld", tuple(groups))


Options = list[tuple[Rank, list[tuple[int, bool]]]]
"""Per natural meld key, the wild cards it may take, each with whether it then is a canasta."""


def _options(knobs: Knobs, keys: list[Rank], naturals: dict[Rank, list[Card]],
             melds: Sequence[Meld | None], spare: list[Card], ctx: MeldContext,
             verdicts: dict[int, bool]) -> Options | None:
    """For each key, how many of the ``spare`` wild cards its meld may take (with whether it
    is then a canasta): the meld rules allow the group, and the meld is not left incomplete
    with a penalty. ``None`` when a key has no way."""
    out: Options = []
    for key in keys:
        nat = naturals.get(key, [])
        before = melds[key] or ()
        ways: list[tuple[int, bool]] = []
        for w in range(min(MAX_WILDS, len(spare)) + 1):
            added = (*nat, *spare[:w])
            final = (*before, *added)
            if added:
                # the rules read the key, how many natural and wild cards, and the moment
                memo = ((key * 16 + len(nat)) * 16 + w) * 2 + ctx.wild_meld_incomplete
                ok = verdicts.get(memo)
                if ok is None:
                    ok = meld_problem(knobs, key, before, added, ctx) is None
                    verdicts[memo] = ok
                if not ok:
                    continue
            if not final:
                continue
            complete = len(final) >= MAX_MELD
            if not complete and incomplete_penalty(knobs, key, final):
                continue
            ways.append((w, complete))
        if not ways:
            return None
        out.append((key, ways))
    return out


def _shares(options: Options, wilds: int, canastas: int) -> Iterator[list[int]]:
    """Every way to give ``wilds`` wild cards to the keys of ``options`` that makes at least
    ``canastas`` canastas: the count for each key, in order."""
    if not options:
        if wilds == 0 and canastas <= 0:
            yield []
        return
    most = [max(w for w, _ in ways) for _, ways in options]
    reach = [any(done for _, done in ways) for _, ways in options]
    room = [0] * (len(options) + 1)
    can = [0] * (len(options) + 1)
    for i in range(len(options) - 1, -1, -1):
        room[i] = room[i + 1] + most[i]
        can[i] = can[i + 1] + reach[i]
    chosen = [0] * len(options)

    def give(i: int, left: int, need: int) -> Iterator[list[int]]:
        if i == len(options):
            if left == 0 and need <= 0:
                yield list(chosen)
            return
        if left > room[i] or need > can[i]:
            return
        for w, done in options[i][1]:
            if w <= left:
                chosen[i] = w
                yield from give(i + 1, left - w, need - done)

    yield from give(0, wilds, canastas)
