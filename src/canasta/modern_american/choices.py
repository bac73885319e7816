"""The legal list of a Modern American turn (:func:`legal_actions`): every action
:func:`~canasta.modern_american.play.apply` accepts, each once, in canonical form.

It is the candidates of :mod:`~canasta.modern_american.layings` (every way to lay the cards,
counting cards only) that the checks of :mod:`~canasta.modern_american.checks` accept, so the
list and the engine cannot disagree. Two things make it cheap:

* the facts of the position that every check reads are found once (:class:`~canasta.
  modern_american.checks.Facts`);
* the rules never read a card's suit (a meld, a pick or a discard counts natural cards by rank
  and wild cards by kind, two or joker), so actions that differ only in suits are judged once:
  the first of them is checked and the others share its verdict.

>>> from canasta.modern_american.play import new_hand
>>> [str(a) for a in legal_actions(new_hand(seed=3))]
['draw']
"""

from __future__ import annotations

from typing import Final

from canasta.actions import ASK, DISCARDS, DRAW, NO, PASS, YES, Action
from canasta.cards import IS_WILD, JOKER, RANK_OF, THREE, Card
from canasta.modern_american.checks import (
    KEEP_NONE,
    ask_problem,
    discard_refusal,
    each_card_once,
    keyed,
    left_after,
    meld_refusal,
    remember_listed,
    special_moment_problem,
    special_refusal,
    take_refusal,
)
from canasta.modern_american.facts import Facts, facts_of
from canasta.modern_american.hand import ANSWER, OVER, PLAY, Hand
from canasta.modern_american.layings import meld_candidates, take_candidates
from canasta.modern_american.special_hands import SIZE, matching

__all__ = ["KEEP_NONE", "legal_actions"]

ANSWERS: Final = [YES, NO]


def suit_class(action: Action) -> int:
    """What the rules read of a meld or a pick: per group its key, how many natural cards,
    twos and jokers, as one number (two actions that differ only in suits share it)."""
    out = 0
    for group in action.groups:
        naturals = twos = jokers = 0
        for c in group.cards:
            if c == JOKER:
                jokers += 1
            elif IS_WILD[c]:
                twos += 1
            else:
                naturals += 1
        # a group holds at most 14 cards: 16 values per count, 16 per key
        out = (((out * 16 + group.rank + 1) * 16 + naturals) * 16 + twos) * 16 + jokers
    return out


def _lays(f: Facts, candidates: list[Action], take: bool) -> list[Action]:
    """The ``candidates`` (melds, or picks of the pack with ``take``) that the checks accept,
    each suit class judged once."""
    verdicts: dict[int, bool] = {}
    out: list[Action] = []
    for action in candidates:
        key = suit_class(action)
        ok = verdicts.get(key)
        if ok is None:
            problem, laid = keyed(action.groups)
            if problem is None:
                problem, left = left_after(f.hand, laid)
                if problem is None:
                    problem = (take_refusal(f, laid, left) if take
                               else meld_refusal(f, laid, left))
            ok = problem is None
            verdicts[key] = ok
        if ok:
            out.append(action)
    return out


def _card_class(card: Card) -> int:
    """What a discard's check reads of a card: its rank, the joker apart from the twos."""
    return 13 if card == JOKER else RANK_OF[card]


def _discards(f: Facts, cards: list[Card]) -> list[Action]:
    """The discards of ``cards`` that the checks accept (by rank, unless cards melded this
    turn may be taken back: then card by card)."""
    verdicts: dict[int, bool] = {}
    out: list[Action] = []
    by_card = f.retract
    for c in cards:
        key = c if by_card else _card_class(c)
        ok = verdicts.get(key)
        if ok is None:
            ok = discard_refusal(f, c) is None
            verdicts[key] = ok
        if ok:
            out.append(DISCARDS[c])
    return out


def legal_actions(h: Hand) -> list[Action]:
    """Every action :func:`~canasta.modern_american.play.apply` accepts now, each once, in
    canonical form: the complete list of ways to play the turn, one action at a time."""
    phase = h.phase
    if phase == OVER:
        return []
    if phase == ANSWER:
        return list(ANSWERS)
    seat = h.to_move
    if phase != PLAY:
        if not h.turn.threes_chosen:
            threes = [c for c in each_card_once(h.hands[seat]) if RANK_OF[c] == THREE]
            return [Action("keep", (), c) for c in threes] + [Action("keep", (), KEEP_NONE)]
        f = facts_of(h)
        first = DRAW if h.stock else PASS
        out = [first, *_lays(f, take_candidates(f), True)]
        remember_listed(h, out)
        return out
    f = facts_of(h)
    hand = f.hand
    out = _lays(f, meld_candidates(f), False)
    out += _discards(f, list(each_card_once(hand)))
    if f.retract and h.turn.laid:
        # a card melded this turn, taken back (no_legal_discard_remedy="retract_melds")
        laid = sorted({c for _, cards in h.turn.laid for c in cards} - set(hand))
        out += _discards(f, laid)
    if ask_problem(h, f) is None:
        out.append(ASK)
    if len(hand) == SIZE and h.turn.drew and special_moment_problem(f) is None:
        for i in matching(hand, f.knobs.special_hands):
            if special_refusal(f, i) is None:
                out.append(Action("special", (), i))
    remember_listed(h, out)
    return out
