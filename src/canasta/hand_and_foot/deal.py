"""One moment of a deal of Hand and Foot (:class:`Deal`), and the deal itself (HF §1.4).

Seats hold their *hand* in ``hands`` until it is used up; the *foot* waits face down in
``feet`` and moves into ``hands`` when it is picked up (HF §9). A side's open melds are kept by
key (a natural rank, or :data:`WILD_MELD`), at most one per key (HF §4.3.1); its books, the
melds that reached seven cards, are a list of their own (HF §5).
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from canasta.cards import IS_RED_THREE, IS_WILD, TWO, Card, make_pack
from canasta.deal import check_pack
from canasta.errors import PositionError
from canasta.hand_and_foot.knobs import HandFootRules, Knobs

WILD_MELD: Final = TWO
"""The key of a side's meld of wild cards alone (HF §4.6)."""
NUM_KEYS: Final = 13
"""Meld keys 0..12: the natural ranks 0..10, 11 unused (threes never meld), 12 the wild meld."""

IN_HAND: Final = 0
"""The seat plays its hand; its foot waits unseen."""
PENDING: Final = 1
"""The hand is used up by a discard and the foot is picked up at the seat's next turn
(``walk_pickup_timing = "next_turn"``, HF §9.3)."""
IN_FOOT: Final = 2
"""The foot is picked up: its cards are the seat's hand (HF §9.5)."""

Melds = tuple[tuple[Card, ...] | None, ...]
"""A side's open melds by key (``None``: no open meld of that key)."""
NO_MELDS: Final[Melds] = (None,) * NUM_KEYS


@dataclass(frozen=True)
class SideScore:
    """One side's score for a deal (HF §12.1): ``total = melded + books + red_threes +
    going_out − in_hand`` (``red_threes`` is the laid threes' bonus less the penalty of those
    caught in hands and feet; it may be negative)."""

    melded: int
    books: int
    red_threes: int
    going_out: int
    in_hand: int
    total: int

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        # by its fields: a compiled frozen dataclass cannot be rebuilt attribute by attribute
        return SideScore, (self.melded, self.books, self.red_threes, self.going_out,
                           self.in_hand, self.total)


@dataclass(frozen=True)
class Ending:
    """How a deal ended: the seat that went out (or ``None``: the stock ran out, or nobody
    would take the pile) and each side's score."""

    went_out: int | None
    sides: tuple[SideScore, ...]

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return Ending, (self.went_out, self.sides)


@dataclass(frozen=True)
class Deal:
    """One moment of one deal: every card's place and whose turn it is. A value: the engine
    makes a new one for every action (:func:`canasta.hand_and_foot.turn.apply`)."""

    rules: HandFootRules
    dealer: int
    to_move: int
    phase: str
    """``draw``, ``play`` (after the draw), ``answer`` (the partner answers the question) or
    ``over``."""
    hands: tuple[tuple[Card, ...], ...]
    """Each seat's cards in play (the hand, then the foot once picked up), sorted."""
    feet: tuple[tuple[Card, ...], ...]
    """Each seat's foot while it waits (empty once picked up), sorted."""
    foot_state: tuple[int, ...]
    """Per seat :data:`IN_HAND`, :data:`PENDING` or :data:`IN_FOOT`."""
    played_from_foot: tuple[bool, ...]
    """Per seat: it has played part of a turn from its foot (HF §10.1c, ``played_from``)."""
    stock: tuple[Card, ...]
    """Top first."""
    pile: tuple[Card, ...]
    """Top last."""
    melds: tuple[Melds, ...]
    books: tuple[tuple[tuple[Card, ...], ...], ...]
    """Per side, its books in the order they were completed, each sorted."""
    red_threes: tuple[tuple[Card, ...], ...]
    """Per side, the red threes laid (HF §2.1)."""
    scores: tuple[int, ...]
    """Per side, the cumulative score when the deal began."""
    number: int = 1
    """The deal's number in the game, from 1 (HF §6.1)."""
    pile_frozen: bool = False
    """A wild card was discarded since the last take (HF §8.4, ``natural_plus_wild`` only)."""
    asked: bool = False
    """The player to move (or the asker, while the partner answers) asked this turn."""
    answer: str | None = None
    asks: tuple[int, ...] = ()
    """Per seat, the questions asked this deal."""
    stock_out: bool = False
    """The stock ran out this turn: the deal ends with the turn (HF §11.2)."""
    end: Ending | None = None

    @property
    def knobs(self) -> Knobs:
        """The family's rules."""
        return self.rules.knobs

    @property
    def is_over(self) -> bool:
        """True once the deal has ended."""
        return self.end is not None

    def side_of(self, seat: int) -> int:
        """The side ``seat`` plays for."""
        return seat % self.rules.num_sides

    def partners_of(self, seat: int) -> list[int]:
        """The other seats of ``seat``'s side, in turn order after it."""
        n = self.rules.num_players
        return [(seat + i) % n for i in range(1, n) if self.side_of((seat + i) % n)
                == self.side_of(seat)]

    def opened(self, side: int) -> bool:
        """True once ``side`` has melded this deal (HF §6)."""
        return bool(self.books[side]) or any(m is not None for m in self.melds[side])

    def in_foot(self, seat: int) -> bool:
        """True once ``seat`` has picked up its foot."""
        return self.foot_state[seat] == IN_FOOT

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        # pickled and copied by its fields (compiled, it cannot be rebuilt attribute by
        # attribute)
        return Deal, tuple(getattr(self, name) for name in DEAL_FIELDS)

    def but(self, **changes: Any) -> Deal:
        """A copy with some fields changed."""
        fields = {name: getattr(self, name) for name in DEAL_FIELDS}
        fields.update(changes)
        return Deal(**fields)


DEAL_FIELDS: Final = tuple(f.name for f in dataclasses.fields(Deal))
"""The fields of a :class:`Deal`, in order."""


def shuffled_pack(rules: HandFootRules, seed: int | None) -> list[Card]:
    """The pack of ``rules`` shuffled by ``seed``, first card on top."""
    pack = make_pack(rules.num_decks, rules.num_jokers)
    random.Random(seed).shuffle(pack)
    return pack


def _reburied(knobs: Knobs, card: Card) -> bool:
    kinds = knobs.upcard_rebury_kinds
    return ("red3" in kinds and IS_RED_THREE[card]) or ("wild" in kinds and IS_WILD[card])


def lay_red_threes(cards: list[Card], stock: list[Card], laid: list[Card]) -> None:
    """Lay the red threes of ``cards`` into ``laid``, replacing each from the stock's top
    while it lasts (HF §2.1.1, §2.1.4)."""
    while True:
        threes = [c for c in cards if IS_RED_THREE[c]]
        if not threes:
            return
        for c in threes:
            cards.remove(c)
            laid.append(c)
            if stock:
                cards.append(stock.pop(0))


def new_deal(rules: HandFootRules, seed: int | None = None, *,
             deck: Sequence[Card] | None = None, dealer: int | None = None,
             scores: Sequence[int] | None = None, number: int = 1) -> Deal:
    """Deal ``number`` of a game (HF §1.4): eleven cards (``hand_size``) to each hand one at a
    time from the dealer's left, then the feet the same way; the upcard, reburied at the
    stock's bottom while it is a red three or a wild card; then, from the dealer's left, each
    player lays the red threes of the hand and draws replacements (the hand's threes are laid
    at the deal rather than at the owner's first turn: the cards are the same)."""
    knobs = rules.knobs
    n = rules.num_players
    if deck is not None:
        check_pack(rules, deck)
    cards = list(deck) if deck is not None else shuffled_pack(rules, seed)
    dealer = rules.first_dealer if dealer is None else dealer
    if isinstance(dealer, bool) or not 0 <= dealer < n:
        raise PositionError(f"dealer {dealer} is not a seat of {n} players")
    score_list = (0,) * rules.num_sides if scores is None else tuple(scores)
    if len(score_list) != rules.num_sides:
        raise PositionError(f"{len(score_list)} scores given for {rules.num_sides} sides")
    order = [(dealer + 1 + i) % n for i in range(n)]
    hands: list[list[Card]] = [[] for _ in range(n)]
    feet: list[list[Card]] = [[] for _ in range(n)]
    pos = 0
    for packets, size in ((hands, knobs.hand_size), (feet, knobs.foot_size)):
        for _ in range(size):
            for seat in order:
                packets[seat].append(cards[pos])
                pos += 1
    stock = cards[pos:]
    pile: list[Card] = []
    if knobs.upcard:
        for _ in range(len(stock)):
            card = stock.pop(0)
            if not _reburied(knobs, card):
                pile.append(card)
                break
            stock.append(card)
    laid: list[list[Card]] = [[] for _ in range(rules.num_sides)]
    if knobs.red_three_mode == "bonus":
        for seat in order:
            lay_red_threes(hands[seat], stock, laid[seat % rules.num_sides])
    return Deal(
        rules=rules, dealer=dealer, to_move=order[0], phase="draw",
        hands=tuple(tuple(sorted(h)) for h in hands), feet=tuple(tuple(sorted(f)) for f in feet),
        foot_state=(IN_HAND,) * n, played_from_foot=(False,) * n, stock=tuple(stock),
        pile=tuple(pile), melds=(NO_MELDS,) * rules.num_sides,
        books=((),) * rules.num_sides, red_threes=tuple(tuple(t) for t in laid),
        scores=score_list, number=number, asks=(0,) * n)
