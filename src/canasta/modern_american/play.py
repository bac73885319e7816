"""The turn of Modern American Canasta: what an action does (:func:`apply`), with why one is
refused (:func:`problem`, :mod:`~canasta.modern_american.checks`) and the legal list
(:func:`legal_actions`, :mod:`~canasta.modern_american.choices`).

A turn: lay the threes (one may be kept while the side has not melded, ``keep``), draw one card
or pick the pack with a natural pair, meld, discard. A side that makes its initial meld from the
hand before the turn card is drawn receives its talon after the discard. Going out needs two
canastas, nothing incomplete that costs a penalty, and a final discard (MA §2, §3, §8–§10, §12).
:func:`apply` keeps the hand's public record up to date (``Hand.seen``,
:mod:`~canasta.modern_american.record`).

>>> h = new_hand(seed=3)
>>> h.phase, h.to_move
('draw', 1)
>>> after = apply(h, Action("draw"))
>>> after.phase, len(after.stock) < len(h.stock)
('play', True)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from canasta.actions import Action
from canasta.cards import RANK_OF, THREE, Card, Rank
from canasta.errors import IllegalActionError
from canasta.modern_american.action_text import format_action
from canasta.modern_american.checks import (
    KEEP_NONE,
    ask_problem,
    judge,
    keyed,
    laid_out,
    listed,
    may_go_out,
    must_take_back,
    no_talon_for_pick,
    problem,
    side_melds,
    special_name,
    take_back,
    take_problem,
    talon_due,
    talon_index,
    turn_with,
)
from canasta.modern_american.choices import legal_actions
from canasta.modern_american.ending import end_hand
from canasta.modern_american.facts import Facts, facts_of
from canasta.modern_american.hand import (
    ANSWER,
    DRAW,
    NEW_TURN,
    NUM_PLAYERS,
    NUM_SIDES,
    PLAY,
    RULES,
    Hand,
    Meld,
    SideMelds,
    Turn,
    deal,
)
from canasta.modern_american.knobs import SET_ASIDE, ModernAmericanRules
from canasta.modern_american.layings import take_candidates
from canasta.modern_american.record import Seen, seen_after

__all__ = ["apply", "ask_problem", "legal_actions", "may_go_out", "new_hand", "problem",
           "special_name", "start_turn"]


def new_hand(seed: int | None = None, *, deck: Sequence[Card] | None = None, dealer: int = 0,
             scores: Sequence[int] = (0, 0), rules: ModernAmericanRules = RULES,
             number: int = 1) -> Hand:
    """Deal hand ``number`` of a game and begin the first turn (its player's threes are laid
    unless a three may be kept)."""
    return start_turn(deal(seed, deck=deck, dealer=dealer, scores=scores, rules=rules,
                           number=number))


# -- the table while an action is carried out ----------------------------------------------------

class _Table:
    """The changing parts of a hand while one action is carried out: the hands touched (as
    lists), the stock drawn from, the laid threes, the talons."""

    hand: Hand
    held: list[list[Card] | None]
    drawn: int
    threes: list[tuple[Card, ...]]
    talons: tuple[tuple[Card, ...], ...]
    last_three: tuple[int, Card] | None
    seen: Seen

    def __init__(self, h: Hand, seen: Seen | None = None) -> None:
        self.hand = h
        self.seen = h.seen if seen is None else seen
        self.held = [None] * NUM_PLAYERS
        self.drawn = 0
        self.threes = list(h.threes)
        self.talons = h.talons
        self.last_three = None

    def cards(self, seat: int) -> list[Card]:
        """The hand of ``seat``, to change."""
        held = self.held[seat]
        if held is None:
            held = list(self.hand.hands[seat])
            self.held[seat] = held
        return held

    def lay_three(self, seat: int, card: Card) -> None:
        side = seat % NUM_SIDES
        self.threes[side] = (*self.threes[side], card)

    def draw(self, seat: int, n: int) -> bool:
        """Draw ``n`` cards into ``seat``'s hand, laying each three drawn and replacing it;
        True when a three was the stock's last card, which ends the hand (MA §12.1)."""
        stock = self.hand.stock
        held = self.cards(seat)
        for _ in range(n):
            while self.drawn < len(stock):
                card = stock[self.drawn]
                self.drawn += 1
                if RANK_OF[card] != THREE:
                    held.append(card)
                    break
                if self.drawn == len(stock):
                    held.append(card)
                    self.last_three = (seat, card)
                    return True
                self.lay_three(seat, card)
        return False

    def give_talon(self, seat: int, n: int) -> bool:
        """Give ``seat`` its talon of ``n`` cards: from the stock's top, or the set-aside pile
        due (each three in it laid and replaced from the stock, MA §8.3); True when a three
        was the stock's last card."""
        if self.hand.knobs.talon_source != SET_ASIDE:
            return self.draw(seat, n)
        index = talon_index(self.hand, seat % NUM_SIDES)
        cards = self.talons[index]
        self.talons = tuple(() if i == index else t for i, t in enumerate(self.talons))
        held = self.cards(seat)
        for card in cards:
            if RANK_OF[card] != THREE:
                held.append(card)
                continue
            self.lay_three(seat, card)
            if self.draw(seat, 1):
                return True
        return False

    def lay_threes(self, seat: int, kept: Card | None) -> bool:
        """Lay every three ``seat`` holds but ``kept``, each replaced from the stock (MA §2.1)."""
        threes = [c for c in self.hand.hands[seat] if RANK_OF[c] == THREE]
        if not threes:
            return False
        held = self.cards(seat)
        for card in threes:
            if card == kept:
                kept = None
                continue
            held.remove(card)
            self.lay_three(seat, card)
            if self.draw(seat, 1):
                return True
        return False

    def seal(self, phase: str, to_move: int, pile: tuple[Card, ...],
             melds: tuple[SideMelds, ...], turn: Turn, answer: str | None,
             courtesy: int | None) -> Hand:
        """The hand with the table's changes and these fields."""
        h = self.hand
        hands = h.hands
        if any(held is not None for held in self.held):
            hands = tuple(h.hands[s] if held is None else tuple(sorted(held))
                          for s, held in enumerate(self.held))
        threes = h.threes
        if self.threes[0] is not threes[0] or self.threes[1] is not threes[1]:
            threes = (tuple(sorted(self.threes[0])), tuple(sorted(self.threes[1])))
        return Hand(dealer=h.dealer, to_move=to_move, phase=phase, hands=hands,
                    stock=h.stock[self.drawn:] if self.drawn else h.stock, pile=pile,
                    melds=melds, threes=threes, scores=h.scores, asks=h.asks, answer=answer,
                    turn=turn, end=None, courtesy=courtesy, number=h.number,
                    talons=self.talons, rules=h.rules, seen=self.seen)

    def keep(self, turn: Turn) -> Hand:
        """The hand with the table's changes and this ``turn``, the rest as it was."""
        h = self.hand
        return self.seal(h.phase, h.to_move, h.pile, h.melds, turn, h.answer, h.courtesy)


def _set(all_melds: tuple[SideMelds, ...], side: int, melds: SideMelds) -> tuple[SideMelds, ...]:
    return side_melds(all_melds, side, melds)


# -- turns ---------------------------------------------------------------------------------------

def _next_turn(t: _Table, pile: tuple[Card, ...]) -> Hand:
    h = t.hand
    seat = (h.to_move + 1) % NUM_PLAYERS
    courtesy = None if h.courtesy == h.to_move else h.courtesy
    if h.turn.opening and h.knobs.special_hand_after_partner_meld == "next_turn_courtesy":
        courtesy = (h.to_move + 2) % NUM_PLAYERS  # the partner's next turn (MA §11.1.2)
    if not any(RANK_OF[c] == THREE for c in h.hands[seat]):  # no three to lay or keep
        return _stock_check(t.seal(DRAW, seat, pile, h.melds, THREES_LAID, None, courtesy))
    return start_turn(t.seal(DRAW, seat, pile, h.melds, NEW_TURN, None, courtesy))


THREES_LAID: Final = Turn(threes_chosen=True)
"""A turn whose threes are laid, with nothing done yet."""


def start_turn(h: Hand) -> Hand:
    """Begin the turn of ``h.to_move``: lay the threes unless the player may keep one, and end
    the hand when the stock is empty and the pack cannot be picked (MA §2.2, §12.2)."""
    seat = h.to_move
    if (h.knobs.keep_one_three_for_straight and not h.side_melded(seat % NUM_SIDES)
            and any(RANK_OF[c] == THREE for c in h.hands[seat])):
        return h  # the player chooses (keep)
    t = _Table(h)
    if t.lay_threes(seat, None):
        return _end(t, None)
    return _stock_check(t.keep(THREES_LAID))


def _stock_check(h: Hand) -> Hand:
    """The hand ends when the stock is empty and the player may not pick the pack (MA §12.2)."""
    if h.stock:
        return h
    f = facts_of(h)
    if any(take_problem(f, a) is None for a in take_candidates(f)):
        return h
    return _end(_Table(h), None)


# -- carrying actions out ----------------------------------------------------------------------

def apply(h: Hand, action: Action) -> Hand:
    """The hand after ``action``; raises :class:`~canasta.errors.IllegalActionError` (and
    changes nothing) when :func:`problem` refuses it."""
    if listed(h, action):  # the legal list just found for ``h`` holds it
        f: Facts | None = facts_of(h)
    else:
        why, f = judge(h, action)
        if why is not None:
            raise IllegalActionError(format_action(h, action), why)
    verb = action.verb
    seen = _seen_after(h, action)
    if verb == "draw":
        return _draw(h, seen)
    if f is not None and verb == "discard":
        return _discard(f, action.card, seen)
    if f is not None and verb == "meld":
        return _meld(f, action, seen)
    if f is not None and verb == "take":
        return _take(f, action, seen)
    if verb == "keep":
        return _keep(h, action.card, seen)
    if verb == "ask":
        return _ask(h, seen)
    if verb == "yes" or verb == "no":
        return h.but(phase=PLAY, to_move=(h.to_move + 2) % NUM_PLAYERS, answer=verb,
                     seen=seen)
    if verb == "pass":
        return _end(_Table(h, seen), None)
    return _end(_Table(h, seen), None, special=(h.to_move, action.card))  # special


def _seen_after(h: Hand, action: Action) -> Seen:
    """The public record once the player to move has played ``action``."""
    verb = action.verb
    cards: tuple[Card, ...] = ()
    picked: tuple[Card, ...] = ()
    if verb == "take" or verb == "meld":
        cards = tuple(c for g in action.groups for c in g.cards)
        if verb == "take":
            depth = h.knobs.pile_visible_depth
            visible = h.pile if depth is None else h.pile[-depth:]
            picked = visible[:-1]
    elif verb == "discard":
        cards = (action.card,)
    return seen_after(h.seen, h.to_move, h.turn.threes_chosen, verb, cards, picked)


def _keep(h: Hand, card: Card, seen: Seen) -> Hand:
    kept = None if card == KEEP_NONE else card
    t = _Table(h, seen)
    if t.lay_threes(h.to_move, kept):
        return _end(t, None)
    return _stock_check(t.keep(Turn(threes_chosen=True, kept=kept)))


def _draw(h: Hand, seen: Seen) -> Hand:
    t = _Table(h, seen)
    if t.draw(h.to_move, h.rules.draw_count):
        return _end(t, None)
    return t.seal(PLAY, h.to_move, h.pile, h.melds, turn_with(h.turn, drew=True), h.answer,
                  h.courtesy)


def _laid_now(turn: Turn, laid: Sequence[tuple[Rank, Meld]]) -> Turn:
    """``turn`` with ``laid`` (key and hand cards) added to the cards laid this turn."""
    by_key = dict(turn.laid)
    for key, cards in laid:
        by_key[key] = tuple(sorted((*by_key.get(key, ()), *cards)))
    return turn_with(turn, laid=tuple(sorted(by_key.items())))


def _take(f: Facts, action: Action, seen: Seen) -> Hand:
    h = f.h
    side = f.side
    top = h.pile[-1]
    melds, hand = laid_out(f, action.groups, top)
    t = _Table(h, seen)
    t.held[h.to_move] = [*hand, *h.pile[:-1]]
    opens = not f.melded
    talon = talon_due(h, side) if opens and not h.knobs.talon_not_after_pile_take else 0
    turn = turn_with(h.turn, took=True, opening=h.turn.opening or opens, talon=talon)
    if f.retract:
        turn = _laid_now(turn_with(turn, top=top), keyed(action.groups)[1])
    return t.seal(PLAY, h.to_move, (), _set(h.melds, side, melds), turn, h.answer, h.courtesy)


def _meld(f: Facts, action: Action, seen: Seen) -> Hand:
    h = f.h
    side = f.side
    opening = not f.melded
    melds, hand = laid_out(f, action.groups, None)
    talon = h.turn.talon or (talon_due(h, side) if opening and not no_talon_for_pick(h)
                             else 0)
    t = _Table(h, seen)
    t.held[h.to_move] = hand
    turn = turn_with(h.turn, melded=True, opening=h.turn.opening or opening, talon=talon)
    if f.retract:
        turn = _laid_now(turn, keyed(action.groups)[1])
    return t.seal(h.phase, h.to_move, h.pile, _set(h.melds, side, melds), turn, h.answer,
                  h.courtesy)


def _discard(f: Facts, card: Card, seen: Seen) -> Hand:
    h = f.h
    seat = f.seat
    side = f.side
    t = _Table(h, seen)
    if must_take_back(f):
        _, melds, returned = take_back(f, card)
        t.cards(seat).extend(returned)
        t.hand = h = h.but(melds=_set(h.melds, side, melds))
    else:
        t.cards(seat).remove(card)
    pile = (*h.pile, card)
    if not t.cards(seat) and may_go_out(h, side) is None and h.answer != "no":
        return _end(t, seat, pile=pile)
    if h.turn.talon and t.give_talon(seat, h.turn.talon):  # after the discard (MA §8)
        return _end(t, None, pile=pile)
    return _next_turn(t, pile)


def _ask(h: Hand, seen: Seen) -> Hand:
    seat = h.to_move
    asks = tuple(n + 1 if s == seat else n for s, n in enumerate(h.asks))
    return h.but(phase=ANSWER, to_move=(seat + 2) % NUM_PLAYERS, asks=asks, seen=seen)


def _end(t: _Table, went_out: int | None, *, pile: tuple[Card, ...] | None = None,
         special: tuple[int, int] | None = None) -> Hand:
    """The hand is over: score both sides (MA §13)."""
    h = t.hand
    sealed = t.seal(h.phase, h.to_move, h.pile if pile is None else pile, h.melds, h.turn,
                    h.answer, h.courtesy)
    return end_hand(sealed, went_out, special=special, last_three=t.last_three)

