"""What one seat may know of a Hand and Foot deal: its own cards, the table, how many cards
the others hold, and how many wait in each foot (nobody sees a foot before it is picked up,
not even its owner: HF §1.4.2)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from canasta.cards import Card, card_names
from canasta.hand_and_foot.deal import IN_FOOT, Deal, Ending, Melds
from canasta.hand_and_foot.knobs import HandFootRules, Knobs
from canasta.hand_and_foot.notation import FOOT_STATES, end_to_json, in_order, melds_to_json


@dataclass(frozen=True)
class Observation:
    """One seat's view of a deal; bots choose from this alone."""

    rules: HandFootRules
    seat: int
    dealer: int
    to_move: int
    phase: str
    hand: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    foot_sizes: tuple[int, ...]
    foot_state: tuple[int, ...]
    played_from_foot: tuple[bool, ...]
    stock_size: int
    pile: tuple[Card, ...]
    """The pile as far as the rules let it be seen (top last)."""
    pile_size: int
    pile_frozen: bool
    melds: tuple[Melds, ...]
    books: tuple[tuple[tuple[Card, ...], ...], ...]
    red_threes: tuple[tuple[Card, ...], ...]
    scores: tuple[int, ...]
    number: int
    asked: bool
    answer: str | None
    asks: tuple[int, ...]
    end: Ending | None

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

    def opened(self, side: int) -> bool:
        """True once ``side`` has melded this deal."""
        return bool(self.books[side]) or any(m is not None for m in self.melds[side])

    def in_foot(self, seat: int) -> bool:
        """True once ``seat`` has picked up its foot."""
        return self.foot_state[seat] == IN_FOOT

    def to_json(self) -> dict[str, Any]:
        """The view as JSON: other hands and every foot as counts, the stock as a count."""
        out: dict[str, Any] = {
            "rules": self.rules.to_json(), "seat": self.seat, "dealer": self.dealer,
            "to_move": self.to_move, "phase": self.phase, "deal_number": self.number,
            "hands": [card_names(self.hand) if s == self.seat else n
                      for s, n in enumerate(self.hand_sizes)],
            "feet": list(self.foot_sizes),
            "foot_state": [FOOT_STATES[s] for s in self.foot_state],
            "stock": self.stock_size, "pile": in_order(self.pile),
            "sides": [{"score": self.scores[s], "melds": melds_to_json(self.melds[s]),
                       "books": [card_names(b) for b in self.books[s]],
                       "red_threes": card_names(self.red_threes[s])}
                      for s in range(self.rules.num_sides)],
        }
        if self.pile_size > len(self.pile):
            out["pile_below"] = self.pile_size - len(self.pile)
        if self.pile_frozen:
            out["pile_frozen"] = True
        if self.asked:
            out["asked"] = True
        if self.answer is not None:
            out["answer"] = self.answer
        if self.end is not None:
            out["result"] = end_to_json(self.end)
        return out


def observe(deal: Deal, seat: int) -> Observation:
    """What ``seat`` may know of ``deal``."""
    depth = deal.knobs.pile_visible_depth
    pile = deal.pile if depth is None or len(deal.pile) <= depth else deal.pile[-depth:]
    return Observation(
        rules=deal.rules, seat=seat, dealer=deal.dealer, to_move=deal.to_move,
        phase=deal.phase, hand=deal.hands[seat],
        hand_sizes=tuple(len(h) for h in deal.hands),
        foot_sizes=tuple(len(f) for f in deal.feet), foot_state=deal.foot_state,
        played_from_foot=deal.played_from_foot, stock_size=len(deal.stock), pile=pile,
        pile_size=len(deal.pile), pile_frozen=deal.pile_frozen, melds=deal.melds,
        books=deal.books, red_threes=deal.red_threes, scores=deal.scores, number=deal.number,
        asked=deal.asked, answer=deal.answer, asks=deal.asks, end=deal.end)
