"""Scoring a hand (RULES §1.17, §2.2 cutthroat, §3.3 void draw, §4.3 hidden canastas).

Each side's :class:`~canasta.state.SideResult` is a breakdown whose parts add up:
``total = melded + canastas + hidden + red_threes + going_out - in_hand``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from canasta.rules import Rules
from canasta.state import HandResult, HandState, SideMelds, SideResult
from canasta.variant import MIXED, variant_of

ZERO: Final = SideResult(0, 0, 0, 0, 0, 0, 0)


@dataclass(frozen=True)
class TablePoints:
    """What one side has laid so far in a hand, counted as the hand's score would count it:
    the running total a player checks during the hand (cards in hand and going out aside)."""

    melded: int
    """The point values of the cards in the side's melds."""
    natural_canastas: int
    mixed_canastas: int
    canastas: int
    """The canasta bonuses."""
    hidden: int
    """Hidden-canasta bonuses (RULES §4.3)."""
    red_threes: int
    """The red threes' bonus, negative while the side has not melded (when the rules say so)."""

    @property
    def total(self) -> int:
        """Everything on the table: melds, bonuses and red threes."""
        return self.melded + self.canastas + self.hidden + self.red_threes


def table_points(rules: Rules, melds: SideMelds, hidden: Sequence[int],
                 red_threes: int) -> TablePoints:
    """The points of one side's melds (``hidden``: its hidden-canasta ranks) and of its
    ``red_threes`` red threes, as :func:`score_hand` counts them."""
    value = rules.value_of
    variant = variant_of(rules)
    melded = natural = mixed = hidden_bonus = 0
    for rank, meld in enumerate(melds):
        if meld is None:
            continue
        melded += sum(value[c] for c in meld)
        kind = variant.canasta_kind(meld)
        if kind is not None:
            if kind == MIXED:
                mixed += 1
            else:
                natural += 1
            if rank in hidden:
                hidden_bonus += rules.hidden_canasta_bonus
    red = rules.red_three_score(red_threes) if red_threes else 0
    if rules.red_threes_negative_if_no_meld and not any(m is not None for m in melds):
        red = -red
    return TablePoints(melded, natural, mixed,
                       natural * rules.natural_canasta_bonus + mixed * rules.mixed_canasta_bonus,
                       hidden_bonus, red)


def _going_out_part(state: HandState, went_out: int | None, concealed: bool) -> int:
    if went_out is None:
        return 0
    rules = state.rules
    return rules.concealed_going_out_bonus if concealed else rules.going_out_bonus


def score_hand(state: HandState, went_out: int | None, concealed: bool, void: bool) -> HandResult:
    """The result of a hand that ends in ``state`` (melds, hands and red threes as they lie)."""
    rules = state.rules
    if void and rules.draw_hand_scoring == "none":
        return HandResult(None, False, True, (ZERO,) * rules.num_sides)
    value = rules.value_of
    sides: list[SideResult] = []
    for side in range(rules.num_sides):
        seats = [s for s in range(rules.num_players) if s % rules.num_sides == side]
        owner = state.owner_of(seats[0])
        members = [s for s in range(rules.num_players) if state.owner_of(s) == owner]
        laid = table_points(rules, state.melds[owner], state.hidden[owner],
                            len(state.red_threes[side]))
        melded, canastas, hidden, red = laid.melded, laid.canastas, laid.hidden, laid.red_threes
        in_hand = sum(value[c] for s in members for c in state.hands[s])
        out = _going_out_part(state, went_out, concealed) if (
            went_out is not None and state.owner_of(went_out) == owner) else 0
        total = melded + canastas + hidden + red + out - in_hand
        sides.append(SideResult(melded, in_hand, canastas, hidden, red, out, total))
    return HandResult(went_out, concealed, void, tuple(sides))
