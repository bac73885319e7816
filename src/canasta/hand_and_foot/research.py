"""Hand and Foot for the research adapters (the family's ``research_module``): the classic ids
and ``group W`` (a group of the meld of wild cards), the tensor of the generic interface
(:class:`canasta.rl.research.Research`, from what every family's observation and facts state),
and the deals of what a seat cannot see that
OpenSpiel's resampling and a search's worlds need: the other hands, every foot still face
down (its owner's too: HF §1.4.2), the stock and the pile below what the rules show.

>>> from canasta import get_rules
>>> from canasta.family import new_hand
>>> import random
>>> research = research(get_rules("hand-and-foot"))
>>> deal = new_hand(research.rules, seed=3)
>>> other = research.resampler(deal, 0, ())(random.Random(1))
>>> other.hands[0] == deal.hands[0] and other.hands[1] != deal.hands[1]
True
>>> [len(f) for f in other.feet] == [len(f) for f in deal.feet]
True
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any, Final

from canasta.actions import Action, Group
from canasta.cards import IS_RED_THREE, Card, make_pack
from canasta.hand_and_foot.deal import WILD_MELD, Deal
from canasta.hand_and_foot.knobs import HandFootRules
from canasta.hand_and_foot.observation import Observation
from canasta.rl.encoding import (
    END,
    GROUP,
    NUM_GROUP_RANKS,
    NUM_IDS,
    TAKE_ID,
    Alphabet,
    decode,
    encode,
    first_id,
    id_text,
    is_single,
    read_groups,
)
from canasta.rl.research import Research
from canasta.rl.tensor import respell_at
from canasta.rules import Rules

GROUP_W: Final = NUM_IDS
"""``group W``, a group of the meld of wild cards (125), after the classic ids."""
_KEYS: Final = {**{GROUP + rank: rank for rank in range(NUM_GROUP_RANKS)}, GROUP_W: WILD_MELD}
"""The meld key each ``group`` id starts."""
GROUP_ROWS: Final = {GROUP_W: NUM_GROUP_RANKS - 1}
"""The ``building_groups`` row of ``group W``: the last, the black threes' (the rules that
meld black threes go out with them, never in a meld of wild cards)."""


class HandFootAlphabet(Alphabet):
    """The classic ids and ``group W`` (125), which starts a group of the meld of wild cards
    (where the rules allow one); a spelling is its action's groups in the legal list's order."""

    name = "hand-and-foot"
    size = NUM_IDS + 1

    def _group_id(self, group: Group) -> int:
        if group.rank == WILD_MELD:
            return GROUP_W
        if not 0 <= group.rank < NUM_GROUP_RANKS:
            raise ValueError(f"a group of no meld key cannot be spelled: {group.cards}")
        return GROUP + group.rank

    def first_id(self, action: Action) -> int:
        if action.verb == "meld" and action.groups:
            return self._group_id(action.groups[0])
        return first_id(action)

    def encode(self, action: Action) -> tuple[int, ...]:
        if action.verb not in ("meld", "take") or not action.groups:
            if action.verb == "meld":
                raise ValueError("a meld needs at least one group")
            return encode(action)
        ids = [TAKE_ID] if action.verb == "take" else []
        for group in action.groups:
            ids.append(self._group_id(group))
            ids.extend(sorted(group.cards))
        ids.append(END)
        return tuple(ids)

    def decode(self, ids: Sequence[int]) -> Action:
        if not ids:
            raise ValueError("an empty spelling")
        if len(ids) == 1 and self.is_single(ids[0]):
            return decode(ids)
        verb, groups = read_groups(ids, _KEYS, self.id_text)
        if verb == "meld" and not groups:
            raise ValueError("a meld needs at least one group")
        action = Action(verb, tuple(groups))
        if self.encode(action) != tuple(ids):
            raise ValueError(f"{list(ids)} is not a canonical spelling")
        return action

    def id_text(self, i: int) -> str:
        return "group W" if i == GROUP_W else id_text(i)

    def is_single(self, i: int) -> bool:
        return i != GROUP_W and is_single(i)


HAND_AND_FOOT: Final = HandFootAlphabet()
"""The 126 ids."""


class HandFootResearch(Research):
    """A Hand and Foot rule set for the adapters: the generic tensor, the classic ids and
    ``group W``, and its deals."""

    alphabet: Alphabet = HAND_AND_FOOT

    def respell(self, values: Sequence[float], prefix: Sequence[int]) -> list[float]:
        return respell_at(values, self._offsets(), prefix, GROUP_ROWS)

    def resampler(self, position: Any, seat: int, held: Sequence[Card]
                  ) -> Callable[[random.Random], Any]:
        """Deals the other hands, every foot, the stock (in canonical order: chance orders it)
        and the pile's hidden part anew, each keeping its size; the player to move keeps the
        cards ``held`` (those it has spelled so far)."""
        deal: Deal = position
        mover = deal.to_move
        fixed = Counter(held) if mover != seat else Counter()
        below = _hidden_pile(deal.rules, len(deal.pile))
        others = [s for s in range(deal.rules.num_players) if s != seat]
        pool = (Counter(c for s in others for c in deal.hands[s]) + Counter(deal.stock)
                + Counter(c for foot in deal.feet for c in foot) + Counter(deal.pile[:below]))
        pool.subtract(fixed)
        if any(n < 0 for n in pool.values()):
            raise ValueError(f"seat {mover} does not hold {sorted(held)}")
        cards = sorted(pool.elements())
        sizes = {s: len(deal.hands[s]) - (fixed.total() if s == mover else 0) for s in others}
        held_cards = tuple(fixed.elements())

        def new(rng: random.Random) -> Deal:
            hands, feet, stock, hidden = _dealt(deal.rules, cards, sizes,
                                                [len(f) for f in deal.feet], len(deal.stock),
                                                below, rng)
            if mover in hands:
                hands[mover] = tuple(sorted((*hands[mover], *held_cards)))
            return deal.but(hands=tuple(hands.get(s, deal.hands[s])
                                        for s in range(deal.rules.num_players)),
                            feet=feet, stock=tuple(sorted(stock)),
                            pile=(*hidden, *deal.pile[below:]))

        return new

    def world(self, observation: Any, rng: random.Random) -> Deal:
        """A deal the seat of ``observation`` cannot tell from the true one: the cards it has
        not seen dealt at random to the other hands, the feet, the stock and the pile's hidden
        part, each by the count the observation gives."""
        obs: Observation = observation
        rules = obs.rules
        unseen = Counter(make_pack(rules.num_decks, rules.num_jokers))
        unseen.subtract([*obs.hand, *obs.pile])
        for side in range(rules.num_sides):
            unseen.subtract(c for m in obs.melds[side] if m is not None for c in m)
            unseen.subtract(c for b in obs.books[side] for c in b)
            unseen.subtract(obs.red_threes[side])
        below = obs.pile_size - len(obs.pile)
        sizes = {s: n for s, n in enumerate(obs.hand_sizes) if s != obs.seat}
        hands, feet, stock, hidden = _dealt(rules, sorted(unseen.elements()), sizes,
                                            list(obs.foot_sizes), obs.stock_size, below, rng)
        return Deal(rules=rules, dealer=obs.dealer, to_move=obs.to_move, phase=obs.phase,
                    hands=tuple(hands.get(s, obs.hand) for s in range(rules.num_players)),
                    feet=feet, foot_state=obs.foot_state, played_from_foot=obs.played_from_foot,
                    stock=stock, pile=(*hidden, *obs.pile), melds=obs.melds, books=obs.books,
                    red_threes=obs.red_threes, scores=obs.scores, number=obs.number,
                    pile_frozen=obs.pile_frozen, asked=obs.asked, answer=obs.answer,
                    asks=obs.asks, end=obs.end)


def _hidden_pile(rules: Rules, size: int) -> int:
    """How many cards at the pile's bottom nobody may look at."""
    assert isinstance(rules, HandFootRules)
    depth = rules.knobs.pile_visible_depth
    return 0 if depth is None else max(0, size - depth)


def _dealt(rules: Rules, cards: list[Card], sizes: dict[int, int], feet: list[int], stock: int,
           below: int, rng: random.Random
           ) -> tuple[dict[int, tuple[Card, ...]], tuple[tuple[Card, ...], ...],
                      tuple[Card, ...], tuple[Card, ...]]:
    """``cards`` shuffled into hands of ``sizes`` (by seat), feet of ``feet`` cards, a stock of
    ``stock`` and ``below`` hidden cards of the pile. Where red threes are laid as they come
    (``red_three_mode`` ``bonus``) none goes to a hand or the pile: one is never held there."""
    assert isinstance(rules, HandFootRules)
    pool = list(cards)
    rng.shuffle(pool)
    laid_at_once = rules.knobs.red_three_mode == "bonus"
    threes = [c for c in pool if laid_at_once and IS_RED_THREE[c]]
    plain = [c for c in pool if not (laid_at_once and IS_RED_THREE[c])]
    hands: dict[int, tuple[Card, ...]] = {}
    for s, size in sizes.items():
        hands[s], plain = tuple(sorted(plain[:size])), plain[size:]
    hidden, plain = tuple(plain[:below]), plain[below:]
    rest = plain + threes
    rng.shuffle(rest)
    dealt_feet = []
    for size in feet:
        dealt_feet.append(tuple(sorted(rest[:size])))
        rest = rest[size:]
    if len(rest) != stock:
        raise ValueError(f"{len(rest)} cards left for a stock of {stock}")
    return hands, tuple(dealt_feet), tuple(rest), hidden


def research(rules: Rules) -> HandFootResearch:
    """The research interface of a Hand and Foot rule set."""
    return HandFootResearch(rules)
