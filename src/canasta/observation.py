"""What one seat may know (hidden information).

:func:`observe` keeps the seat's own hand, the whole table (melds, red threes, the pile: every
discard was seen), the number of cards in every other hand and in the stock, and the cards known
to be in another hand because they were taken with the pile. Nothing else: never another hand,
never the order of the stock.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from canasta import table
from canasta.cards import Card, card_names, format_card, rank_char
from canasta.melds import melds_to_json
from canasta.position import result_to_json, turn_to_json
from canasta.rules import Rules
from canasta.state import HandResult, SideMelds, State, TurnInfo


@dataclass(frozen=True)
class Observation:
    """A seat's view of a state: the fields of :class:`~canasta.state.State`, hidden parts out."""

    rules: Rules
    seat: int
    dealer: int
    to_move: int
    phase: str
    hand: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    stock_size: int
    pile: tuple[Card, ...]
    pile_frozen: bool
    melds: tuple[SideMelds, ...]
    red_threes: tuple[tuple[Card, ...], ...]
    hidden: tuple[tuple[int, ...], ...]
    scores: tuple[int, ...]
    has_melded: tuple[bool, ...]
    asks: tuple[int, ...]
    answer: str | None
    turn: TurnInfo
    known: tuple[tuple[Card, ...], ...]
    lone_hand: int | None
    result: HandResult | None

    # -- facts of the table (canasta.table), as the engine decides them
    def owner_of(self, seat: int) -> int:
        """Index into ``melds`` of the melds ``seat`` plays on."""
        return table.owner_of(self.rules, seat, self.lone_hand)

    def side_has_melded(self, seat: int) -> bool:
        """True when the melds ``seat`` plays on are not empty."""
        return table.has_melded(self.melds[self.owner_of(seat)])

    def canastas(self, owner: int) -> int:
        """Number of completed canastas among an owner's melds."""
        return table.canastas(self.rules, self.melds[owner])

    def freeze_for(self, seat: int) -> table.Freeze:
        """Whether, why and by which card the pile is frozen for ``seat``."""
        return table.freeze_for(self.rules, self.pile, self.pile_frozen,
                                self.side_has_melded(seat))

    @property
    def freeze(self) -> table.Freeze:
        """Whether, why and by which card the pile is frozen for this seat."""
        return self.freeze_for(self.seat)

    def to_json(self) -> dict[str, Any]:
        """The NOTATION §3 position with what the seat may not see left out: other hands and
        the stock become counts. ``seat`` says whose view it is."""
        out: dict[str, Any] = {
            "rules": self.rules.to_json(), "seat": self.seat, "dealer": self.dealer,
            "to_move": self.to_move, "phase": self.phase,
            "hands": [card_names(self.hand) if s == self.seat else n
                      for s, n in enumerate(self.hand_sizes)],
            "stock": self.stock_size, "pile": [format_card(c) for c in self.pile],
            "sides": [
                {"score": self.scores[i], "melds": melds_to_json(self.melds[i]),
                 "red_threes": card_names(self.red_threes[i]),
                 "hidden_canastas": [rank_char(r) for r in self.hidden[i]]}
                for i in range(self.rules.num_sides)],
            "pile_frozen": self.pile_frozen, "has_melded": list(self.has_melded),
            "asks": list(self.asks), "answer": self.answer, "turn": turn_to_json(self.turn),
            "known": [card_names(k) for k in self.known],
        }
        if self.rules.lone_hand:
            out["lone_hand"] = self.lone_hand
        if self.result is not None:
            out["result"] = result_to_json(self.result)
        return out


def observe(state: State, seat: int) -> Observation:
    """What ``seat`` may know of ``state``."""
    if not 0 <= seat < state.rules.num_players:
        raise ValueError(f"seat {seat} is not at this table")
    return Observation(
        rules=state.rules, seat=seat, dealer=state.dealer, to_move=state.to_move,
        phase=state.phase, hand=state.hands[seat],
        hand_sizes=tuple(len(h) for h in state.hands), stock_size=len(state.stock),
        pile=state.pile, pile_frozen=state.pile_frozen, melds=state.melds,
        red_threes=state.red_threes, hidden=state.hidden, scores=state.scores,
        has_melded=state.has_melded, asks=state.asks, answer=state.answer, turn=state.turn,
        known=state.known, lone_hand=state.lone_hand, result=state.result)
