"""Small hand-written Hand and Foot positions for the tests (HF §18).

Seats are named by letter (``N`` 0, ``E`` 1, ``S`` 2, ``W`` 3) or number, sides by ``NS``
(0) / ``EW`` (1) or number; cards are written as text (``"Kh Kd 2c"``). A seat still in its
hand gets a foot of eleven clubs unless one is given, so tests use clubs sparingly.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from canasta import apply, family_of, parse_action
from canasta.cards import IS_BLACK_THREE, IS_RED_THREE, IS_WILD, Card, make_pack, parse_cards
from canasta.hand_and_foot.deal import Deal, new_deal
from canasta.hand_and_foot.knobs import HandFootRules, rules_from_json
from canasta.hand_and_foot.notation import deal_from_json
from canasta.hand_and_foot.turn import check

SEATS = {"N": 0, "E": 1, "S": 2, "W": 3}
SIDES = {"NS": 0, "EW": 1}
FOOT = "4c 5c 6c 7c 8c 9c Tc Jc Qc Kc Ac"
"""The foot of a seat still in its hand when a test gives none (11 cards, 100 points)."""
STOCK = "4d 5d 6d 7d 8d 9d Td Jd Qd Kd Ad"
"""The stock when a test gives none: top first."""


def seat(name: str | int) -> int:
    """A seat from its letter or number."""
    return name if isinstance(name, int) else SEATS[name]


def side(name: str | int) -> int:
    """A side from its seats' letters or its number."""
    return name if isinstance(name, int) else SIDES[name]


def cards(text: str) -> list[str]:
    """Card names from text, as a position's JSON writes them."""
    return text.split()


def position(*, rules: Any = "hand-and-foot", to_move: str | int = "N", phase: str = "play",
             hands: Mapping[Any, str] | None = None,
             feet: Mapping[Any, str] | None = None, in_foot: Iterable[Any] = (),
             stock: str = STOCK, pile: str = "",
             melds: Mapping[Any, Mapping[str, str]] | None = None,
             books: Mapping[Any, Sequence[str]] | None = None,
             red_threes: Mapping[Any, str] | None = None, deal_number: int = 1,
             **extra: Any) -> Deal:
    """A position built through its JSON (the notation checks it): ``hands``/``feet`` by seat,
    ``in_foot`` the seats that have picked up their foot, ``melds``/``books``/``red_threes``
    by side, ``pile`` bottom to top; ``extra`` are further JSON keys (``answer``, ...)."""
    hf: HandFootRules = rules_from_json(rules)
    n, num_sides = hf.num_players, hf.num_sides
    hands_by = {seat(k): v for k, v in (hands or {}).items()}
    feet_by = {seat(k): v for k, v in (feet or {}).items()}
    up = {seat(s) for s in in_foot}
    melds_by = {side(k): v for k, v in (melds or {}).items()}
    books_by = {side(k): v for k, v in (books or {}).items()}
    threes_by = {side(k): v for k, v in (red_threes or {}).items()}
    data: dict[str, Any] = {
        "rules": rules, "dealer": 0, "to_move": seat(to_move), "phase": phase,
        "deal_number": deal_number,
        "hands": [cards(hands_by.get(s, "")) for s in range(n)],
        "feet": [[] if s in up else cards(feet_by.get(s, FOOT)) for s in range(n)],
        "foot_state": ["foot" if s in up else "hand" for s in range(n)],
        "stock": cards(stock), "pile": cards(pile),
        "sides": [{"melds": {k: cards(v) for k, v in melds_by.get(x, {}).items()},
                   "books": [cards(b) for b in books_by.get(x, ())],
                   "red_threes": cards(threes_by.get(x, ""))} for x in range(num_sides)],
    }
    data.update(extra)
    return deal_from_json(data)


def play(deal: Deal, *actions: str) -> Deal:
    """``deal`` after ``actions`` (text), each of the player then to move."""
    for action in actions:
        deal = apply(deal, action)
    return deal


def refusal(deal: Deal, action: str) -> str | None:
    """Why the rules refuse ``action`` (text) in ``deal``, or ``None``; the legal list's
    check (which makes no deal after a meld or a discard) must give the same answer."""
    parsed = parse_action(action, deal.rules)
    found: str | None = family_of(deal).problem(deal, parsed)
    assert check(deal, parsed) == found, f"the legal list's check disagrees on {action!r}"
    return found


def held(deal: Deal, who: str | int) -> Counter[Card]:
    """The cards a seat holds, as a multiset."""
    return Counter(deal.hands[seat(who)])


def multiset(text: str) -> Counter[Card]:
    """Cards written as text, as a multiset."""
    return Counter(parse_cards(text))


def arranged_deal(rules: HandFootRules, *, hands: Mapping[Any, str] | None = None,
                  upcards: str | None = None, stock_top: str = "") -> Deal:
    """A deal from a pack stacked so that the named seats are dealt the named hand cards,
    the upcard turns ``upcards`` in order (default: one natural card) and the stock then
    begins with ``stock_top``. Every other place gets natural cards first (then black threes,
    wild cards, red threes), so no red three or wild card turns up unless named."""
    n = rules.num_players
    order = [(rules.first_dealer + 1 + i) % n for i in range(n)]
    size_h, size_f = rules.knobs.hand_size, rules.knobs.foot_size
    dealt = n * (size_h + size_f)
    slots: list[Card | None] = [None for _ in range(rules.num_decks * 54)]
    for who, text in (hands or {}).items():
        s = order.index(seat(who))
        for i, c in enumerate(parse_cards(text)):
            slots[i * n + s] = c
    turned: list[Card | None] = [None]  # one natural card unless named
    if upcards is not None:
        turned = [*parse_cards(upcards)]
    for i, card in enumerate([*turned, *parse_cards(stock_top)]):
        slots[dealt + i] = card
    spare = Counter(make_pack(rules.num_decks, rules.num_jokers))
    spare.subtract(c for c in slots if c is not None)
    filler = iter(sorted(spare.elements(), key=lambda c: (
        IS_RED_THREE[c], IS_WILD[c], IS_BLACK_THREE[c], c)))
    deck = [c if c is not None else next(filler) for c in slots]
    return new_deal(rules, deck=deck)
