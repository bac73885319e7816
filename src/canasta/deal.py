"""The deal (RULES §1.4, §1.5; NOTATION §4): from a seeded shuffle or a given pack order.

>>> from canasta.rules import get_rules
>>> s = new_hand(get_rules("classic"), seed=7)
>>> [len(h) for h in s.hands], s.to_move, s.phase
([11, 11, 11, 11], 1, 'draw')
>>> new_hand(get_rules("classic"), seed=7) == s
True
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

from canasta.cards import IS_RED_THREE, Card, card_kind, format_card, make_pack
from canasta.errors import PositionError
from canasta.rules import Rules
from canasta.state import DRAW, NEW_TURN, NUM_MELD_RANKS, State, build_state


def shuffled_pack(rules: Rules, seed: int | None) -> list[Card]:
    """The pack in the order a seeded shuffle gives (first element on top)."""
    pack = make_pack(rules.num_decks, rules.num_jokers)
    shuffle(pack, random.Random(seed))
    return pack


def shuffle(cards: list[Card], rng: random.Random) -> None:
    """Shuffle ``cards`` in place into the order ``rng.shuffle(cards)`` gives.

    The same steps as :meth:`random.Random.shuffle`: from the last place down, each card swaps
    with the one at a place drawn below its own place + 1 (``getrandbits`` of that number's bit
    length, drawn again while too large). Written out, the compiled build makes no
    Python-level call per card.
    """
    getrandbits = rng.getrandbits
    for i in range(len(cards) - 1, 0, -1):
        n = i + 1
        bits = n.bit_length()
        j = getrandbits(bits)
        while j >= n:
            j = getrandbits(bits)
        cards[i], cards[j] = cards[j], cards[i]


def check_pack(rules: Rules, deck: Sequence[Card]) -> None:
    """Raise :class:`PositionError` unless ``deck`` is exactly the rules' pack, in some order."""
    want = Counter(make_pack(rules.num_decks, rules.num_jokers))
    got = Counter(deck)
    if got != want:
        extra = sorted((got - want).elements())
        lack = sorted((want - got).elements())
        parts = []
        if extra:
            parts.append("too many " + " ".join(format_card(c) for c in extra[:6]))
        if lack:
            parts.append("missing " + " ".join(format_card(c) for c in lack[:6]))
        raise PositionError(f"the deck is not the {rules.deck_size}-card pack: "
                            + "; ".join(parts))


def new_hand(
    rules: Rules,
    seed: int | None = None,
    *,
    deck: Sequence[Card] | None = None,
    dealer: int | None = None,
    scores: Sequence[int] | None = None,
) -> State:
    """Deal a hand: from ``deck`` (top first) if given, else from a shuffle seeded by ``seed``.

    ``dealer`` defaults to ``rules.first_dealer``; ``scores`` are the sides' cumulative scores
    at the start of the hand (they set the initial-meld minimums), zeros by default.
    """
    if deck is None:
        deck = shuffled_pack(rules, seed)
    else:
        check_pack(rules, deck)
    n = rules.num_players
    dealer = rules.first_dealer if dealer is None else dealer
    if not 0 <= dealer < n:
        raise PositionError(f"dealer {dealer} is not a seat of {n} players")
    if scores is None:
        scores = [0] * rules.num_sides
    if len(scores) != rules.num_sides:
        raise PositionError(f"{len(scores)} scores given for {rules.num_sides} sides")
    cards = list(deck)
    pos = 0
    hands: list[list[Card]] = [[] for _ in range(n)]
    for i in range(n * rules.hand_size):  # one card at a time from the dealer's left
        hands[(dealer + 1 + i) % n].append(cards[pos])
        pos += 1
    pile = [cards[pos]]
    pos += 1
    while card_kind(pile[-1]) in rules.upcard_cover_kinds and pos < len(cards):
        pile.append(cards[pos])
        pos += 1
    frozen = any(card_kind(c) in rules.upcard_freeze_kinds for c in pile)
    red_threes: list[list[Card]] = [[] for _ in range(rules.num_sides)]
    for i in range(n):  # red threes laid out and replaced, from the dealer's left
        seat = (dealer + 1 + i) % n
        hand = hands[seat]
        while True:
            reds = [c for c in hand if IS_RED_THREE[c]]
            if not reds:
                break
            for c in reds:
                hand.remove(c)
                red_threes[seat % rules.num_sides].append(c)
            if not rules.dealt_red_threes_replaced:
                break
            for _ in reds:
                if pos < len(cards):
                    hand.append(cards[pos])
                    pos += 1
    empty_melds = (None,) * NUM_MELD_RANKS
    return build_state(
        rules=rules, dealer=dealer, to_move=(dealer + 1) % n, phase=DRAW,
        hands=tuple(tuple(sorted(h)) for h in hands), stock=tuple(cards[pos:]),
        pile=tuple(pile), melds=(empty_melds,) * rules.num_sides,
        red_threes=tuple(tuple(sorted(r)) for r in red_threes), hidden=((),) * rules.num_sides,
        scores=tuple(scores), pile_frozen=frozen, has_melded=(False,) * n, asks=(0,) * n,
        answer=None, turn=NEW_TURN, known=((),) * n, lone_hand=None, result=None,
    )
