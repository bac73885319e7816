"""Scoring a hand (RULES §1.17, §2.2 cutthroat, §3.3 void draw, §4.3 hidden canastas).

Each side's :class:`~canasta.state.SideResult` is a breakdown whose parts add up:
``total = melded + canastas + hidden + red_threes + going_out - in_hand``.
"""

from __future__ import annotations

from canasta.cards import IS_WILD
from canasta.state import HandResult, SideMelds, SideResult, State

ZERO = SideResult(0, 0, 0, 0, 0, 0, 0)


def _table_parts(state: State, melds: SideMelds, hidden: tuple[int, ...]) -> tuple[int, int, int]:
    """(melded card values, canasta bonuses, hidden-canasta bonuses) of one set of melds."""
    rules = state.rules
    value = rules.value_of
    size = rules.canasta_size
    melded = canastas = hidden_bonus = 0
    for rank, meld in enumerate(melds):
        if meld is None:
            continue
        melded += sum(value[c] for c in meld)
        if len(meld) >= size:
            mixed = any(IS_WILD[c] for c in meld)
            canastas += rules.mixed_canasta_bonus if mixed else rules.natural_canasta_bonus
            if rank in hidden:
                hidden_bonus += rules.hidden_canasta_bonus
    return melded, canastas, hidden_bonus


def _red_three_part(state: State, side: int, melded: bool) -> int:
    rules = state.rules
    score = rules.red_three_score(len(state.red_threes[side]))
    if rules.red_threes_negative_if_no_meld and not melded:
        return -score
    return score


def _going_out_part(state: State, went_out: int | None, concealed: bool) -> int:
    if went_out is None:
        return 0
    rules = state.rules
    return rules.concealed_going_out_bonus if concealed else rules.going_out_bonus


def score_hand(state: State, went_out: int | None, concealed: bool, void: bool) -> HandResult:
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
        melds = state.melds[owner]
        melded, canastas, hidden = _table_parts(state, melds, state.hidden[owner])
        in_hand = sum(value[c] for s in members for c in state.hands[s])
        has_melded = any(m is not None for m in melds)
        red = _red_three_part(state, side, has_melded)
        out = _going_out_part(state, went_out, concealed) if (
            went_out is not None and state.owner_of(went_out) == owner) else 0
        total = melded + canastas + hidden + red + out - in_hand
        sides.append(SideResult(melded, in_hand, canastas, hidden, red, out, total))
    return HandResult(went_out, concealed, void, tuple(sides))
