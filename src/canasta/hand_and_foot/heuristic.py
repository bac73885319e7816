"""The Hand and Foot heuristic: the rules of thumb of a good family player, read from the
seat's observation.

* **the pile**: it takes the pile whenever a pair lets it (seven cards build books), unless
  the stock is nearly out and the cards taken would be caught in hand; it keeps pairs in hand
  to take the pile with (``pair_value``), more of them in the foot than in the hand;
* **to the foot early**: in the hand it lays whatever it can, and a meld that empties the
  hand (running to the foot, HF §9.2) is worth a bonus (``run_bonus``); a lone last card is
  discarded (walking, HF §9.3);
* **the books the side needs** (HF §10.1b): a wild card goes where it finishes a book, or onto
  a meld that is already dirty, and not onto a clean meld while the side still needs clean
  books (``clean_cost``); a finished book is worth its bonus, more when it is of a kind the
  side still needs;
* **wild cards are not held to the end**: each wild card laid costs ``wild_cost`` while the
  deal is young, nothing once the stock runs low or the hand is small;
* **going out**: it asks its partner as soon as it could go out (HF §10.4) and then lays the
  line that goes out; asked, it answers yes when its own cards hold few points
  (``answer_points``) or the stock is nearly out, else no (a turn more to lay them);
* **safe discards**: never a wild card while there is another; a black three when the pile is
  big (``block_pile``: nobody can take it, HF §7.6); a rank the next opponent's side has an
  open meld of five or six is safe (a pair would pass seven cards, HF §7.2); else the fewer
  cards of a rank it has not seen (in its hand, the melds, the books, the pile), the less
  likely the next player holds a pair of it, and every risk weighs more as the pile grows
  (``pile_weight``); a rank the next side melds is read as a little safer (``meld_danger``:
  a player lays the cards of its side's melds rather than hold them); a lone card before one
  of a pair or of the side's melds.

It reads an :class:`~canasta.hand_and_foot.observation.Observation` and the legal list alone:
its own cards, the table and the counts of the other hands and feet, never a hidden card.

>>> import random
>>> from canasta.hand_and_foot import HAND_AND_FOOT
>>> from canasta.hand_and_foot.deal import new_deal
>>> from canasta.hand_and_foot.legal import legal_actions
>>> from canasta.hand_and_foot.observation import observe
>>> d = new_deal(HAND_AND_FOOT, seed=2)
>>> HeuristicBot().choose(observe(d, d.to_move), legal_actions(d), random.Random(0)) in (
...     legal_actions(d))
True
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import TypeVar

from canasta.actions import Action
from canasta.cards import (
    IS_BLACK_THREE,
    IS_NATURAL,
    IS_WILD,
    RANK_OF,
    Card,
    format_card,
    rank_name,
)
from canasta.hand_and_foot.deal import WILD_MELD, Melds
from canasta.hand_and_foot.going_out import book_counts, can_go_out
from canasta.hand_and_foot.knobs import BOOK
from canasta.hand_and_foot.melds import CLEAN, DIRTY, book_kind, key_name, place
from canasta.hand_and_foot.observation import Observation

__all__ = ["HeuristicBot", "Laid", "after_laying", "number"]

T = TypeVar("T", int, float)

Laid = tuple[Melds, tuple[tuple[Card, ...], ...], tuple[Card, ...]]
"""A side's melds and books, and the cards the player holds, after an action."""


def number(name: str, value: str | float, kind: type[T]) -> T:
    """A bot setting from its spec (a string) or its default, as ``kind``."""
    try:
        return kind(value)
    except ValueError:
        raise ValueError(f"{name} must be a number, not {value!r}") from None


def after_laying(obs: Observation, action: Action) -> Laid | None:
    """The side's melds and books and the cards held after the take or meld ``action``
    (``None`` when the rules would refuse it: the legal list never holds such an action)."""
    side = obs.side_of(obs.seat)
    melds = list(obs.melds[side])
    books = list(obs.books[side])
    held = Counter(obs.hand)
    top: tuple[Card, ...] = ()
    if action.verb == "take" and obs.pile:
        top = (obs.pile[-1],)
        count = obs.knobs.pile_take_count
        below = obs.pile[:-1] if count is None else obs.pile[max(0, len(obs.pile) - count):-1]
        held.update(below)
    for i, g in enumerate(action.groups):
        held.subtract(g.cards)
        key = WILD_MELD if g.rank == WILD_MELD else g.rank
        placed = place(obs.knobs, tuple(melds), books, key, (*g.cards, *(top if i == 0 else ())))
        if isinstance(placed, str):
            return None
        meld, made, joined = placed
        if joined >= 0:
            books[joined] = tuple(sorted((*books[joined], *g.cards)))
            continue
        melds[key] = meld
        books.extend(made)
    return tuple(melds), tuple(books), tuple(sorted(held.elements()))


class HeuristicBot:
    """The rules of thumb of the module docstring. Settings (a spec's ``key=value``):
    ``pair_value`` what a pair kept in the foot is worth (half of it in the hand),
    ``wild_cost`` what laying a wild card costs early in the deal, ``clean_cost`` what
    dirtying a clean meld costs while the side needs clean books, ``run_bonus`` what emptying
    the hand into the foot is worth, ``answer_points`` the most points its cards may hold for
    it to let its partner go out, ``block_pile`` the pile from which it blocks with a black
    three, ``ask`` whether it asks to go out (0: never), ``pile_weight`` how much more a risky
    discard costs per card of the pile, ``small_hand`` the hand from which it lays wild cards
    and pairs freely, ``take_min`` the least worth of a take it makes, ``meld_danger`` how
    risky a rank the next side melds is against one it does not."""

    name = "heuristic"

    def __init__(self, pair_value: str | float = 45.0, wild_cost: str | float = 25.0,
                 clean_cost: str | float = 60.0, run_bonus: str | float = 100.0,
                 answer_points: str | int = 100, block_pile: str | int = 5,
                 ask: str | int = 1, pile_weight: str | float = 0.15,
                 small_hand: str | int = 3, take_min: str | float = 0.0,
                 meld_danger: str | float = 0.3) -> None:
        self.pair_value = number("pair_value", pair_value, float)
        self.wild_cost = number("wild_cost", wild_cost, float)
        self.clean_cost = number("clean_cost", clean_cost, float)
        self.run_bonus = number("run_bonus", run_bonus, float)
        self.answer_points = int(number("answer_points", answer_points, int))
        self.block_pile = int(number("block_pile", block_pile, int))
        self.ask = bool(number("ask", ask, int))
        self.pile_weight = number("pile_weight", pile_weight, float)
        self.small_hand = int(number("small_hand", small_hand, int))
        self.take_min = number("take_min", take_min, float)
        self.meld_danger = number("meld_danger", meld_danger, float)

    # -- the choice ------------------------------------------------------------------------------
    def choose(self, obs: Observation, legal: Sequence[Action], rng: random.Random) -> Action:
        """The action these rules of thumb prefer among ``legal``."""
        verbs = {a.verb: a for a in legal}
        if "yes" in verbs and "no" in verbs:
            return verbs["yes"] if self.lets_partner_out(obs) else verbs["no"]
        if obs.phase == "draw":
            takes = [a for a in legal if a.verb == "take"]
            best = max(takes, key=lambda a: self.take_value(obs, a), default=None)
            if best is not None and self.take_value(obs, best) > self.take_min:
                return best
            return next((a for a in legal if a.verb in ("draw", "pass")), legal[0])
        if "ask" in verbs and self.ask and not obs.asked:
            return verbs["ask"]
        if obs.answer == "yes":
            out = self.going_out(obs, legal)
            if out is not None:
                return out
        melds = [a for a in legal if a.verb == "meld"]
        if melds:
            best = max(melds, key=lambda a: self.meld_value(obs, a))
            if self.meld_value(obs, best) > 0:
                return best
        discards = [a for a in legal if a.verb == "discard"]
        if discards:
            return self.discard_order(obs, discards, rng)[0]
        return legal[0]

    def explain(self, obs: Observation, legal: Sequence[Action],
                rng: random.Random) -> tuple[Action, str]:
        """The action :meth:`choose` plays, and why, in a player's words."""
        action = self.choose(obs, legal, rng)
        return action, self.reason(obs, legal, action)

    def reason(self, obs: Observation, legal: Sequence[Action], action: Action) -> str:
        """Why these rules of thumb play ``action`` (one of ``legal``)."""
        verb = action.verb
        if verb == "yes":
            return "your cards hold few points: let your partner go out"
        if verb == "no":
            return "your cards hold too many points: one more turn to lay them first"
        if verb == "ask":
            return "you can go out this turn: ask your partner first"
        if verb == "take":
            return self._take_reason(obs, action)
        if verb == "draw":
            takes = [a for a in legal if a.verb == "take"]
            if takes:
                return "the pile's cards would be caught in your hand: draw"
            return "nothing to take the pile with: draw"
        if verb == "meld":
            return self._meld_reason(obs, action)
        if verb == "discard":
            return self._discard_reason(obs, action.card)
        return f"{verb}: the only sensible move"

    # -- the partner's question ------------------------------------------------------------------
    def hand_points(self, obs: Observation) -> int:
        """What this player's cards would cost if the deal ended now."""
        value = obs.rules.value_of
        return sum(value[c] for c in obs.hand)

    def lets_partner_out(self, obs: Observation) -> bool:
        """Yes when this player's cards hold few points, or the stock is nearly out."""
        return self.hand_points(obs) <= self.answer_points or obs.stock_size <= 6

    def going_out(self, obs: Observation, legal: Sequence[Action]) -> Action | None:
        """After a yes: the action that goes out, or a meld that keeps the way out open."""
        for a in legal:
            if a.verb == "meld":
                laid = after_laying(obs, a)
                if laid is not None and not laid[2]:
                    return a  # the whole hand laid: out
        if len(obs.hand) == 1:
            return next((a for a in legal if a.verb == "discard"), None)
        best: tuple[float, Action] | None = None
        for a in legal:
            if a.verb != "meld":
                continue
            laid = after_laying(obs, a)
            if laid is None:
                continue
            melds, books, held = laid
            if len(held) == 1 or can_go_out(obs.knobs, held, melds, books, None,
                                           obs.rules.value_of):
                score = self.meld_value(obs, a)
                if best is None or score > best[0]:
                    best = (score, a)
        return best[1] if best is not None else None

    # -- the pile --------------------------------------------------------------------------------
    def take_value(self, obs: Observation, action: Action) -> float:
        """What taking the pile with ``action`` is worth: the cards it lays and the cards it
        brings that fit the side's melds, the pairs of the hand or are wild; less the points
        caught in hand when the stock is nearly out."""
        laid = after_laying(obs, action)
        if laid is None:
            return -1.0
        value = obs.rules.value_of
        count = obs.knobs.pile_take_count
        below = obs.pile[:-1] if count is None else obs.pile[max(0, len(obs.pile) - count):-1]
        side = obs.side_of(obs.seat)
        held = Counter(RANK_OF[c] for c in obs.hand if IS_NATURAL[c])
        worth = 20.0 + sum(value[c] for g in action.groups for c in g.cards) + value[obs.pile[-1]]
        for c in below:
            if IS_WILD[c]:
                worth += 30
            elif IS_NATURAL[c] and (held[RANK_OF[c]] or obs.melds[side][RANK_OF[c]]):
                worth += 15
            elif IS_NATURAL[c]:
                worth += 5
            else:
                worth -= 5
        if obs.stock_size <= 8:
            worth -= sum(value[c] for c in below) * (1.0 - obs.stock_size / 10)
        return worth

    # -- melds -----------------------------------------------------------------------------------
    def _late(self, obs: Observation) -> bool:
        """The stock runs low, or the player is in the foot with few cards: wild cards go."""
        return obs.stock_size <= 12 or len(obs.hand) <= self.small_hand

    def meld_value(self, obs: Observation, action: Action) -> float:
        """What laying ``action`` is worth now (more than 0: lay it)."""
        laid = after_laying(obs, action)
        if laid is None:
            return -1000.0
        _melds, books, held = laid
        side = obs.side_of(obs.seat)
        before = book_counts(obs.books[side])
        clean_need, dirty_need, _ = obs.knobs.books_to_go_out
        need_clean = max(0, clean_need - before[0])
        need_dirty = max(0, dirty_need - before[1])
        value = obs.rules.value_of
        in_foot = obs.in_foot(obs.seat)
        late = self._late(obs)
        worth = 0.0
        new_books = books[len(obs.books[side]):]
        for b in new_books:
            kind = book_kind(b)
            if kind == CLEAN:
                worth += 500 + (200 if need_clean else 0)
                need_clean = max(0, need_clean - 1)
            elif kind == DIRTY:
                worth += 300 + (200 if need_dirty else 0)
                need_dirty = max(0, need_dirty - 1)
            else:
                worth += 1500
        for g in action.groups:
            wilds = sum(1 for c in g.cards if IS_WILD[c])
            naturals = len(g.cards) - wilds
            worth += 10 * len(g.cards) + 0.5 * sum(value[c] for c in g.cards)
            finished = any(len(b) == BOOK and g.rank != WILD_MELD and any(
                IS_NATURAL[c] and RANK_OF[c] == g.rank for c in b) for b in new_books)
            if wilds and not finished and not late:
                worth -= self.wild_cost * wilds
            open_before = obs.melds[side][g.rank] if g.rank != WILD_MELD else None
            if wilds and not finished and need_clean and (
                    (open_before is not None and not any(IS_WILD[c] for c in open_before))
                    or (open_before is None and naturals >= 3)):
                worth -= self.clean_cost  # a clean meld made dirty while clean books are needed
            if g.rank != WILD_MELD and not finished:
                kept = sum(1 for c in held if IS_NATURAL[c] and RANK_OF[c] == g.rank)
                had = sum(1 for c in obs.hand if IS_NATURAL[c] and RANK_OF[c] == g.rank)
                pair = self.pair_value if in_foot else self.pair_value / 2
                if had >= 2 and kept < 2 and len(held) > self.small_hand:
                    worth -= pair  # the pair that would take the pile
        if not held and not in_foot:
            worth += self.run_bonus  # running to the foot
        return worth

    # -- discards --------------------------------------------------------------------------------
    def discard_cost(self, obs: Observation, card: Card) -> float:
        """What discarding ``card`` risks and loses (the least is discarded)."""
        value = obs.rules.value_of
        if len(obs.hand) == 1:
            return 0.0
        if IS_WILD[card]:
            return 500.0 + value[card]
        pile = 1.0 + self.pile_weight * obs.pile_size
        if IS_BLACK_THREE[card]:
            return -100.0 if obs.pile_size >= self.block_pile else 3.0
        rank = RANK_OF[card]
        n = len(obs.hand_sizes)
        nxt = (obs.seat + 1) % n
        theirs = obs.melds[obs.side_of(nxt)][rank]
        side = obs.side_of(obs.seat)
        if theirs is not None and len(theirs) >= BOOK - 2:
            danger = 0.0  # a pair would pass seven cards: they cannot take it
        else:
            share = self.unseen(obs, rank) / (4 * obs.rules.num_decks)
            danger = 40.0 * pile * share * share * (self.meld_danger if theirs is not None
                                                     else 1.0)
        counts = Counter(RANK_OF[c] for c in obs.hand if IS_NATURAL[c])
        keep = 0.0
        if counts[rank] == 2:
            keep += 30.0
        elif counts[rank] >= 3:
            keep += 20.0
        if obs.melds[side][rank] is not None:
            keep += 15.0
        return danger + keep + value[card] / 5

    def unseen(self, obs: Observation, rank: int) -> int:
        """The natural cards of ``rank`` this seat has not seen: not in its hand, in no meld
        or book, not in the pile (the others' hands, the feet and the stock hold them)."""
        seen = sum(1 for c in obs.hand if IS_NATURAL[c] and RANK_OF[c] == rank)
        for side in range(obs.rules.num_sides):
            meld = obs.melds[side][rank]
            seen += len(meld) if meld is not None else 0
            seen += sum(1 for b in obs.books[side] for c in b if IS_NATURAL[c]
                        and RANK_OF[c] == rank)
        seen += sum(1 for c in obs.pile if IS_NATURAL[c] and RANK_OF[c] == rank)
        return max(0, 4 * obs.rules.num_decks - seen)

    def discard_order(self, obs: Observation, discards: Sequence[Action],
                      rng: random.Random) -> list[Action]:
        """``discards`` from the one these rules of thumb prefer (ties at random)."""
        return sorted(discards, key=lambda a: (self.discard_cost(obs, a.card), rng.random()))

    # -- reasons ---------------------------------------------------------------------------------
    def _take_reason(self, obs: Observation, action: Action) -> str:
        top = obs.pile[-1] if obs.pile else None
        taken = min(obs.pile_size, obs.knobs.pile_take_count or obs.pile_size)
        what = f"the {format_card(top)} on top" if top is not None else "the top card"
        if not obs.opened(obs.side_of(obs.seat)):
            return f"take the pile: {what} opens your side's melds and brings {taken} cards"
        return f"take the pile with your pair: {what} and {taken - 1} more cards to build books"

    def _meld_reason(self, obs: Observation, action: Action) -> str:
        laid = after_laying(obs, action)
        side = obs.side_of(obs.seat)
        if obs.answer == "yes":
            return "your partner said yes: lay down toward going out"
        if laid is not None:
            _melds, books, held = laid
            made = books[len(obs.books[side]):]
            if made:
                kind = book_kind(made[-1])
                return f"it makes a {kind} book of {key_name(action.groups[0].rank)}"
            if not held and not obs.in_foot(obs.seat):
                return "lay the last cards of your hand and run to your foot"
        if not obs.opened(side):
            return "it opens your side's melds"
        g = action.groups[0]
        if any(IS_WILD[c] for c in g.cards) and self._late(obs):
            return "the deal nears its end: lay wild cards rather than be caught with them"
        return f"lay {key_name(g.rank)}: every card laid counts and brings the foot closer"

    def _discard_reason(self, obs: Observation, card: Card) -> str:
        if len(obs.hand) == 1 and not obs.in_foot(obs.seat):
            return "discard your last card and walk into your foot"
        if IS_BLACK_THREE[card]:
            if obs.pile_size >= self.block_pile:
                return f"the pile holds {obs.pile_size} cards: block it with a black three"
            return "a black three never melds: discard it"
        if IS_WILD[card]:
            return "nothing else to discard"
        rank = RANK_OF[card]
        nxt = (obs.seat + 1) % len(obs.hand_sizes)
        theirs = obs.melds[obs.side_of(nxt)][rank]
        if theirs is not None and len(theirs) >= BOOK - 2:
            return (f"the next player's side has {len(theirs)} {rank_name(rank)} open: "
                    "a pair could not take the pile, a safe discard")
        return f"{format_card(card)} is the least useful card and the safest to give"
