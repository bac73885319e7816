"""Worlds dealt from a seat's observation of a Modern American hand, agreeing with what the
whole table has seen.

A search bot plays its candidates out in *worlds*: the hand with the cards its seat cannot see
(the other hands, the stock, the pile below its visible top, the talons set aside) dealt anew.
Dealing them uniformly forgets what the whole table saw: a player who picked the pack holds its
cards until they are melded or discarded. The hand keeps that public record
(:class:`~canasta.modern_american.record.Seen`, ``Hand.seen``) and the observation carries it;
:func:`determinize` deals a world in which every player still holds the picked cards known to
be in hand, holds no three it was dealt once its turn has come, and holds fewer pairs of a rank
it discarded.

A world is built from the observation alone (the seat's own hand, the table, the counts of the
other hands and of the stock, and the record): two positions that differ only in hidden cards
give the same world for the same generator.

>>> from canasta.modern_american.observation import observe
>>> from canasta.modern_american.play import new_hand
>>> h = new_hand(seed=3)
>>> world = determinize(observe(h, h.to_move), random.Random(1))
>>> world.hands[h.to_move] == h.hands[h.to_move], sorted(world.all_cards()) == sorted(
...     h.all_cards())
(True, True)
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Final

from canasta.cards import IS_NATURAL, RANK_OF, THREE, Card, Rank, make_pack
from canasta.modern_american.hand import Hand
from canasta.modern_american.observation import Observation
from canasta.modern_american.record import Seen

AVOID: Final = 0.5
"""The chance that :func:`determinize` moves a card of a rank its holder has discarded into the
stock, for each card it dealt of that rank beyond the first."""


def unseen_cards(obs: Observation) -> Counter[Card]:
    """The cards the seat of ``obs`` cannot see: the pack less its hand, the melds, the laid
    threes and the visible pile (so the other hands, the talons set aside, the stock and the
    pile below its visible top)."""
    left = Counter(make_pack(obs.rules.num_decks, obs.rules.num_jokers))
    left.subtract(obs.hand)
    left.subtract(obs.pile)
    left.subtract(c for melds in obs.melds for m in melds if m is not None for c in m)
    left.subtract(c for laid in obs.threes for c in laid)
    return left


def determinize(obs: Observation, rng: random.Random, *, seen: Seen | None = None,
                avoid: float = AVOID) -> Hand:
    """A world the seat of ``obs`` cannot tell from what it sees: the other hands, the stock,
    the pile below its visible top and the talons set aside dealt anew, each keeping its size,
    every player keeping the cards the record (``seen``, the observation's own by default)
    knows it holds; the world keeps the record, so that play in it goes on from it. A player
    whose turn has come holds no three it was dealt; a player who discarded a rank holds fewer
    pairs of it: each card of that rank dealt to it beyond the first is swapped, with chance
    ``avoid``, with a stock card of another rank."""
    if seen is None:
        seen = obs.seen
    seat = obs.seat
    pool = unseen_cards(obs)
    sizes = obs.hand_sizes
    known: list[list[Card]] = [[] for _ in sizes]
    for s in range(len(sizes)):
        if s == seat:
            continue
        for c in seen.held[s]:
            if pool[c] > 0 and len(known[s]) < sizes[s]:
                known[s].append(c)
                pool[c] -= 1
    cards = sorted(pool.elements())
    rng.shuffle(cards)
    hands: list[list[Card]] = [[] for _ in sizes]
    at = 0
    for s in range(len(sizes)):
        if s != seat:
            n = sizes[s] - len(known[s])
            hands[s] = cards[at:at + n]
            at += n
    below = obs.pile_size - len(obs.pile)
    pile = (*cards[at:at + below], *obs.pile)
    at += below
    talons: list[tuple[Card, ...]] = []
    for size in obs.talons:  # set aside face down
        talons.append(tuple(sorted(cards[at:at + size])))
        at += size
    stock = cards[at:]
    for s in range(len(sizes)):
        if s != seat and seen.played[s]:
            _threes_to_stock(hands[s], stock, rng)
        if s != seat and seen.discarded[s] and avoid > 0:
            _thin_pairs(hands[s], seen.discarded[s], stock, rng, avoid)
    dealt = tuple(obs.hand if s == seat else tuple(sorted((*hands[s], *known[s])))
                  for s in range(len(sizes)))
    return Hand(dealer=obs.dealer, to_move=obs.to_move, phase=obs.phase, hands=dealt,
                stock=tuple(stock), pile=pile, melds=obs.melds, threes=obs.threes,
                scores=obs.scores, asks=obs.asks, answer=obs.answer, turn=obs.turn,
                end=obs.end, courtesy=obs.courtesy, number=obs.number, talons=tuple(talons),
                rules=obs.rules, seen=seen)


def _swap_out(dealt: list[Card], i: int, stock: list[Card], rng: random.Random,
              unwanted: frozenset[Rank]) -> bool:
    """Swap ``dealt[i]`` with a stock card of no rank in ``unwanted`` (False: none there)."""
    others = [j for j, c in enumerate(stock) if RANK_OF[c] not in unwanted]
    if not others:
        return False
    j = rng.choice(others)
    dealt[i], stock[j] = stock[j], dealt[i]
    return True


def _threes_to_stock(dealt: list[Card], stock: list[Card], rng: random.Random) -> None:
    """The threes dealt to a player whose turn has come go to the stock (it laid its own)."""
    for i, c in enumerate(dealt):
        if RANK_OF[c] == THREE and not _swap_out(dealt, i, stock, rng, frozenset({THREE})):
            return


def _thin_pairs(dealt: list[Card], ranks: frozenset[Rank], stock: list[Card],
                rng: random.Random, avoid: float) -> None:
    """Swap each card of ``ranks`` in ``dealt`` beyond the first of its rank with a stock card
    of another rank, each with chance ``avoid``."""
    for rank in sorted(ranks):
        at = [i for i, c in enumerate(dealt) if IS_NATURAL[c] and RANK_OF[c] == rank]
        for i in at[1:]:
            if rng.random() < avoid and not _swap_out(dealt, i, stock, rng, ranks | {THREE}):
                return
