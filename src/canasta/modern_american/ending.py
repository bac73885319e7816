"""The end of a Modern American hand: each side's score by the matrix (MA §13), and a special
hand's value in place of its side's (MA §11.1.5); the end of a game (MA §14)."""

from __future__ import annotations

from collections.abc import Sequence

from canasta.cards import Card
from canasta.modern_american.hand import NUM_PLAYERS, NUM_SIDES, OVER, Hand, HandEnd
from canasta.modern_american.scoring import score_side
from canasta.modern_american.special_hands import CATALOGUES
from canasta.rules import Rules


def end_hand(h: Hand, went_out: int | None, *, special: tuple[int, int] | None = None,
             last_three: tuple[int, Card] | None = None,
             threes: Sequence[Sequence[Card]] | None = None) -> Hand:
    """``h`` over: ``went_out`` is the seat that went out, ``special`` the seat and catalogue
    index of a special hand, ``last_three`` a three drawn as the stock's last card (it stays in
    that hand and costs little)."""
    laid = h.threes if threes is None else threes
    named: tuple[int, str] | None = None
    wins = False
    sides = []
    for side in range(NUM_SIDES):
        value = None
        if special is not None and h.side_of(special[0]) == side:
            kind = CATALOGUES[h.knobs.special_hands][special[1]]
            value, named, wins = kind.value, (special[0], kind.name), kind.wins_game
        last = last_three[1] if last_three and h.side_of(last_three[0]) == side else None
        sides.append(score_side(
            h.rules, h.knobs, dict(h.side_melds(side)), laid[side],
            [h.hands[s] for s in range(NUM_PLAYERS) if h.side_of(s) == side],
            went_out is not None and h.side_of(went_out) == side, last, value))
    end = HandEnd(went_out, named, last_three, tuple(sides), wins)
    return h.but(phase=OVER, end=end)


def winner(rules: Rules, scores: Sequence[int], dream: int | None = None) -> int | None:
    """The side that has won with these cumulative ``scores``, or ``None`` to play on: a Dream
    Hand's side (``dream``) at once, else the higher side once one reaches the target; equal
    scores at the target play another hand (MA §14)."""
    if dream is not None:
        return dream
    if max(scores) < rules.target_score:
        return None
    best = max(scores)
    leaders = [s for s, v in enumerate(scores) if v == best]
    return leaders[0] if len(leaders) == 1 else None
