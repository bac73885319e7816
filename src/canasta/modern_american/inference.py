"""What the whole table has seen of a Modern American hand, and worlds dealt to agree with it.

A search bot plays its candidates out in *worlds*: the hand with the cards its seat cannot see
(the other hands, the stock, the pile below its visible top, the talons set aside) dealt anew.
Dealing them uniformly forgets what the whole table saw: a player who picked the pack holds its
cards until they are melded or discarded. :class:`Seen` keeps that public record, :func:`observe`
brings it up to date after each action of anyone at the table, and :func:`determinize` deals a
world from a seat's observation in which every player still holds the picked cards known to be
in hand, and a player who discarded a rank holds fewer pairs of it.

A world is built from the observation alone (the seat's own hand, the table, the counts of the
other hands and of the stock, and the record): two positions that differ only in hidden cards
give the same world for the same generator.

>>> from canasta.modern_american.observation import observe as seat_view
>>> from canasta.modern_american.play import new_hand
>>> h = new_hand(seed=3)
>>> world = determinize(seat_view(h, h.to_move), random.Random(1))
>>> world.hands[h.to_move] == h.hands[h.to_move], sorted(world.all_cards()) == sorted(
...     h.all_cards())
(True, True)
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Final

from canasta.actions import Action
from canasta.cards import IS_NATURAL, RANK_OF, THREE, Card, Rank, make_pack
from canasta.modern_american.hand import Hand
from canasta.modern_american.observation import Observation
from canasta.modern_american.play import apply
from canasta.modern_american.record import NOTHING_SEEN, Seen

AVOID: Final = 0.5
"""The chance that :func:`determinize` moves a card of a rank its holder has discarded into the
stock, for each card it dealt of that rank beyond the first."""


def visible_pile(h: Hand) -> tuple[Card, ...]:
    """The pile cards every player sees: all of it, or its top ``pile_visible_depth``."""
    depth = h.knobs.pile_visible_depth
    return h.pile if depth is None else h.pile[-depth:]


def _less(cards: Sequence[Card], gone: Iterable[Card]) -> tuple[Card, ...]:
    left = Counter(cards)
    left.subtract(gone)
    return tuple(sorted(left.elements()))


def observe(seen: Seen, h: Hand, action: Action) -> Seen:
    """``seen`` once the player to move in ``h`` has played ``action``.

    Reads the public part of the move alone: the pile before a pick (its visible cards, less
    the top card melded), the cards laid in a pick or a meld and the card discarded. A draw, a
    three kept and the questions to the partner change nothing; the threes a player holds are
    laid at the start of its turn, so none is known in hand once its turn has begun."""
    seat = h.to_move
    mine = seen.held[seat]
    if h.turn.threes_chosen and any(RANK_OF[c] == THREE for c in mine):
        mine = tuple(c for c in mine if RANK_OF[c] != THREE)
    discarded = seen.discarded
    if action.verb in ("take", "meld"):
        laid = [c for g in action.groups for c in g.cards]
        mine = _less(mine, laid)
        if action.verb == "take":
            mine = tuple(sorted((*mine, *visible_pile(h)[:-1])))
    elif action.verb == "discard":
        mine = _less(mine, [action.card])
        if IS_NATURAL[action.card]:
            discarded = tuple(d | {RANK_OF[action.card]} if s == seat else d
                              for s, d in enumerate(discarded))
    held = tuple(mine if s == seat else cards for s, cards in enumerate(seen.held))
    played = seen.played
    if h.turn.threes_chosen and not played[seat]:
        played = tuple(p or s == seat for s, p in enumerate(played))
    return Seen(held, discarded, played)


def record(h: Hand, actions: Iterable[Action]) -> tuple[Seen, Hand]:
    """The record after ``actions`` played from ``h`` (a hand's deal), and the hand they
    reach."""
    seen = NOTHING_SEEN
    for action in actions:
        seen = observe(seen, h, action)
        h = apply(h, action)
    return seen, h


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
    knows it holds. A player whose turn has come holds no three it was dealt; a player who
    discarded a rank holds fewer pairs of it: each card of that rank dealt to it beyond the
    first is swapped, with chance ``avoid``, with a stock card of another rank."""
    if seen is None:
        seen = seen_of(obs)
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
                rules=obs.rules)


def seen_of(obs: Observation) -> Seen:
    """The public record an observation carries (nothing known where it carries none)."""
    seen: Seen = getattr(obs, "seen", NOTHING_SEEN)
    return seen


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
