"""One hand of Modern American Canasta: the state, the deal and the facts derived from it.

A :class:`Hand` is a value, like the classic :class:`~canasta.state.State`: the play module
(:mod:`canasta.modern_american.play`) returns a new one for every action. Its melds are kept per
side in :data:`SLOTS` slots by key: the natural ranks, and :data:`~canasta.modern_american.melds.
WILD_MELD` for a meld of wild cards alone. Laid threes of both colours are ``threes`` per side.

>>> h = deal(seed=7)
>>> [len(cards) for cards in h.hands], len(h.stock), h.pile, h.to_move, h.phase
([13, 13, 13, 13], 56, (), 1, 'draw')
>>> h.turn_card_drawn
False
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Final

from canasta.cards import RANK_OF, THREE, Card, Rank, make_pack
from canasta.modern_american.knobs import (
    MODERN_AMERICAN,
    SET_ASIDE,
    Knobs,
    ModernAmericanRules,
)
from canasta.modern_american.melds import MAX_MELD, WILD_MELD, MeldContext
from canasta.modern_american.record import NOTHING_SEEN, Seen
from canasta.modern_american.scoring import SideScore
from canasta.rules import Rules

RULES: Final = MODERN_AMERICAN
"""The ``modern-american`` preset: the classic fields (MA §16.1) and the knobs (MA §16.2)."""
SLOTS: Final = WILD_MELD + 1
"""Meld slots per side: the natural ranks 0..10, an unused slot for threes (never melded) and
the meld of wild cards."""
NUM_PLAYERS: Final = 4
NUM_SIDES: Final = 2

DRAW: Final = "draw"
PLAY: Final = "play"
ANSWER: Final = "answer"
OVER: Final = "over"
PHASES: Final = (DRAW, PLAY, ANSWER, OVER)

Meld = tuple[Card, ...]
SideMelds = tuple[Meld | None, ...]
NO_MELDS: Final[SideMelds] = (None,) * SLOTS


class Turn:
    """What the player to move has done this turn.

    ``threes_chosen``: the player has chosen which three to keep (``keep``), or had no choice;
    ``kept``: the three kept in hand, if any; ``drew``: drew from the stock (a special hand may
    follow); ``took``: picked the pack; ``opening``: the side made its initial meld this turn
    (wild cards follow the initial meld's rules for the rest of the turn); ``talon``: cards due
    at the end of the turn; ``melded``: a meld was made (the partner may no longer be asked).

    Kept only where a player may take melds back (``no_legal_discard_remedy="retract_melds"``):
    ``laid``, the cards laid from the hand this turn by meld key, and ``top``, the pile's top
    card picked this turn."""

    def __init__(self, threes_chosen: bool = False, kept: Card | None = None,
                 drew: bool = False, took: bool = False, opening: bool = False, talon: int = 0,
                 melded: bool = False, laid: tuple[tuple[Rank, tuple[Card, ...]], ...] = (),
                 top: Card | None = None) -> None:
        self.threes_chosen: Final = threes_chosen
        self.kept: Final = kept
        self.drew: Final = drew
        self.took: Final = took
        self.opening: Final = opening
        self.talon: Final = talon
        self.melded: Final = melded
        self.laid: Final = laid
        self.top: Final = top

    def fields(self) -> tuple[object, ...]:
        """The fields' values, in the order of :data:`TURN_FIELDS`."""
        return (self.threes_chosen, self.kept, self.drew, self.took, self.opening, self.talon,
                self.melded, self.laid, self.top)

    def but(self, **changes: object) -> Turn:
        """A copy with ``changes`` (fields by name)."""
        return Turn(**{**dict(zip(TURN_FIELDS, self.fields())), **changes})  # type: ignore[arg-type]

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Turn) and self.fields() == other.fields()

    def __hash__(self) -> int:
        return hash(self.fields())

    def __repr__(self) -> str:
        return _repr("Turn", TURN_FIELDS, self.fields())

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        return Turn, self.fields()


TURN_FIELDS: Final = ("threes_chosen", "kept", "drew", "took", "opening", "talon", "melded",
                      "laid", "top")
"""The fields of a :class:`Turn`, in order."""


def _repr(name: str, names: Sequence[str], values: Sequence[object]) -> str:
    return f"{name}({', '.join(f'{n}={v!r}' for n, v in zip(names, values))})"


NEW_TURN: Final = Turn()


@dataclass(frozen=True)
class HandEnd:
    """How a hand ended: who went out, who laid a special hand (seat and name), a three drawn
    as the stock's last card (seat and card), and each side's score."""

    went_out: int | None
    special: tuple[int, str] | None
    last_three: tuple[int, Card] | None
    sides: tuple[SideScore, ...]
    wins_game: bool = False


class Hand:
    """One moment of one Modern American hand (four players, partners opposite).

    ``hands`` per seat, sorted; ``stock`` top first; ``pile`` top last; ``melds`` per side,
    :data:`SLOTS` slots; ``threes`` per side, the threes laid; ``scores`` per side at the start
    of the hand; ``asks`` per seat, questions asked this hand; ``answer`` the answer the player
    to move received this turn; ``turn`` this turn's :class:`Turn`; ``end`` once it is over;
    ``seen`` the public record of the hand (:mod:`~canasta.modern_american.record`).
    """

    def __init__(self, dealer: int, to_move: int, phase: str,
                 hands: tuple[tuple[Card, ...], ...], stock: tuple[Card, ...],
                 pile: tuple[Card, ...], melds: tuple[SideMelds, ...] = (NO_MELDS, NO_MELDS),
                 threes: tuple[tuple[Card, ...], ...] = ((), ()),
                 scores: tuple[int, ...] = (0, 0), asks: tuple[int, ...] = (0, 0, 0, 0),
                 answer: str | None = None, turn: Turn = NEW_TURN, end: HandEnd | None = None,
                 courtesy: int | None = None, number: int = 1,
                 talons: tuple[tuple[Card, ...], ...] = (),
                 rules: ModernAmericanRules = RULES, seen: Seen = NOTHING_SEEN) -> None:
        self.dealer: Final = dealer
        self.to_move: Final = to_move
        self.phase: Final = phase
        self.hands: Final = hands
        self.stock: Final = stock
        self.pile: Final = pile
        self.melds: Final = melds
        self.threes: Final = threes
        self.scores: Final = scores
        self.asks: Final = asks
        self.answer: Final = answer
        self.turn: Final = turn
        self.end: Final = end
        self.courtesy: Final = courtesy
        """The seat that may still lay a special hand on this turn of its own although its
        partner has just made the side's initial meld (``special_hand_after_partner_meld``)."""
        self.number: Final = number
        """The hand's number in the game, from 1 (``initial_meld_by_hand_number``)."""
        self.talons: Final = talons
        """With ``talon_source="set_aside"``: the two piles set aside at the deal, for the first
        and the second side to open from the hand; a pile given (or never set aside) is
        empty."""
        self.rules: Final = rules
        self.seen: Final = seen
        """What every seat has seen of the others' hands (picked cards, discarded ranks)."""

    def fields(self) -> tuple[object, ...]:
        """The fields' values, in the order of :data:`HAND_FIELDS`."""
        return (self.dealer, self.to_move, self.phase, self.hands, self.stock, self.pile,
                self.melds, self.threes, self.scores, self.asks, self.answer, self.turn,
                self.end, self.courtesy, self.number, self.talons, self.rules, self.seen)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Hand) and self.fields() == other.fields()

    def __hash__(self) -> int:
        return hash(self.fields())

    def __repr__(self) -> str:
        return _repr("Hand", HAND_FIELDS, self.fields())

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        return Hand, self.fields()

    # -- facts -------------------------------------------------------------------------------
    @property
    def knobs(self) -> Knobs:
        """The family's own rules (MA §16.2), as the rule set holds them."""
        return self.rules.knobs

    @property
    def is_over(self) -> bool:
        """True once the hand has ended."""
        return self.end is not None

    @property
    def result(self) -> HandEnd | None:
        """How the hand ended (``end``), under the name every family's position uses."""
        return self.end

    def side_of(self, seat: int) -> int:
        """The side of ``seat``: partners sit opposite."""
        return seat % NUM_SIDES

    def side_melded(self, side: int) -> bool:
        """True once ``side`` has a meld on the table (laid threes are not melds)."""
        return any(m is not None for m in self.melds[side])

    def canastas(self, side: int) -> int:
        """The completed canastas (seven cards, any kind) of ``side``."""
        return sum(1 for m in self.melds[side] if m is not None and len(m) >= MAX_MELD)

    @property
    def dead(self) -> frozenset[Rank]:
        """The natural ranks of which either side has completed a canasta (MA §4.6)."""
        return dead_ranks(self.knobs, self.melds)

    def wild_meld_incomplete(self, side: int) -> bool:
        """True while ``side`` has a meld of wild cards short of a canasta."""
        m = self.melds[side][WILD_MELD]
        return m is not None and len(m) < MAX_MELD

    def context(self, side: int) -> MeldContext:
        """The moment of a meld by ``side`` now (:class:`~canasta.modern_american.melds.
        MeldContext`)."""
        opening = self.turn.opening or not self.side_melded(side)
        return MeldContext(opening, self.wild_meld_incomplete(side), self.dead)

    @property
    def turn_card_drawn(self) -> bool:
        """The turn card (``turn_card_depth`` from the bottom of the stock) has been drawn:
        no talon is given from then on (MA §1.4.4). With set-aside talons no turn card lies in
        the stock: always True."""
        return (self.knobs.talon_source == SET_ASIDE
                or len(self.stock) < self.knobs.turn_card_depth)

    @property
    def turn_card(self) -> Card | None:
        """The turn card while it is still in the stock."""
        if self.turn_card_drawn:
            return None
        return self.stock[-self.knobs.turn_card_depth]

    def minimum(self, side: int) -> int:
        """The count of the initial meld of ``side`` (MA §5.1): by the side's score, or by the
        hand's number where the rules say so (the last minimum for every later hand)."""
        by_number = self.knobs.initial_meld_by_hand_number
        if by_number:
            return by_number[min(self.number, len(by_number)) - 1]
        return self.rules.minimum_for(self.scores[side])

    def side_melds(self, side: int) -> Iterator[tuple[Rank, Meld]]:
        """The melds of ``side`` on the table, with their keys."""
        for key, m in enumerate(self.melds[side]):
            if m is not None:
                yield key, m

    def threes_in(self, seat: int) -> tuple[Card, ...]:
        """The threes in the hand of ``seat``."""
        return tuple(c for c in self.hands[seat] if RANK_OF[c] == THREE)

    def all_cards(self) -> list[Card]:
        """Every card of the hand wherever it lies (for checks of conservation)."""
        out = [*self.stock, *self.pile]
        for cards in self.hands:
            out += cards
        for melds in self.melds:
            for m in melds:
                if m is not None:
                    out += m
        for laid in self.threes:
            out += laid
        for talon in self.talons:
            out += talon
        return out

    def but(self, **changes: object) -> Hand:
        """A copy with ``changes`` (fields by name)."""
        return Hand(**{**dict(zip(HAND_FIELDS, self.fields())), **changes})  # type: ignore[arg-type]


HAND_FIELDS: Final = ("dealer", "to_move", "phase", "hands", "stock", "pile", "melds", "threes",
                      "scores", "asks", "answer", "turn", "end", "courtesy", "number", "talons",
                      "rules", "seen")
"""The fields of a :class:`Hand`, in order."""


NO_DEAD: Final[frozenset[Rank]] = frozenset()


def dead_ranks(knobs: Knobs, melds: Sequence[SideMelds]) -> frozenset[Rank]:
    """The natural ranks of which a side of ``melds`` has completed a canasta, where the
    rules make them dead (MA §4.6)."""
    if not knobs.dead_ranks:
        return NO_DEAD
    dead: list[Rank] = []
    for side in melds:
        for key in range(WILD_MELD):
            m = side[key]
            if m is not None and len(m) >= MAX_MELD:
                dead.append(key)
    return frozenset(dead) if dead else NO_DEAD


def shuffled_pack(rules: Rules = RULES, seed: int | None = None) -> list[Card]:
    """The 108-card pack in the order a seeded shuffle gives (first element on top)."""
    pack = make_pack(rules.num_decks, rules.num_jokers)
    random.Random(seed).shuffle(pack)
    return pack


def deal(seed: int | None = None, *, deck: Sequence[Card] | None = None, dealer: int = 0,
         scores: Sequence[int] = (0, 0), rules: ModernAmericanRules = RULES,
         number: int = 1) -> Hand:
    """Deal hand ``number`` of a game (MA §1.4): thirteen cards each, one at a time from the
    seat after the dealer, no upcard, the rest is the stock with the turn card in it. Threes
    stay in the hands: each player lays them at the start of the first turn (MA §2.2). With
    set-aside talons the next cards of the pack, after the hands, are the two talons (four
    cards, then three) and the stock is what is left (MA §1.4.5)."""
    cards = list(deck) if deck is not None else shuffled_pack(rules, seed)
    hands: list[list[Card]] = [[] for _ in range(NUM_PLAYERS)]
    at = 0
    for _ in range(rules.hand_size):
        for k in range(1, NUM_PLAYERS + 1):
            hands[(dealer + k) % NUM_PLAYERS].append(cards[at])
            at += 1
    talons: list[tuple[Card, ...]] = []
    knobs = rules.knobs
    if knobs.talon_source == SET_ASIDE:
        for size in knobs.talon_sizes:
            talons.append(tuple(sorted(cards[at:at + size])))
            at += size
    return Hand(dealer=dealer, to_move=(dealer + 1) % NUM_PLAYERS, phase=DRAW,
                hands=tuple(tuple(sorted(h)) for h in hands), stock=tuple(cards[at:]),
                pile=(), scores=tuple(scores), number=number, talons=tuple(talons),
                rules=rules)
