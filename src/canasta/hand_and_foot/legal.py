"""Every legal action of a Hand and Foot deal (the family's legal list).

The list is built from candidates that :func:`~canasta.hand_and_foot.turn.play` accepts, so it
cannot disagree with the turn. Suits never matter in Hand and Foot (outside red and black
threes), so a group names the natural cards of a rank and the twos by the lowest suits held;
the engine accepts the same group with any suits. To stay short the list holds

* once the side has melded, melds of one group (several groups add nothing: the same cards are
  laid one group after the other), and the whole hand laid in one action when that goes out;
* before it has melded, the *minimal* openings: groups whose count reaches the minimum and
  would fall below it without their least card (more cards are laid by later melds);
* for taking the pile, the pair (or the rules' other smallest take) that melds the top card,
  and before the side has melded the minimal openings that begin with a take;
* the discards, ``ask``, ``yes``/``no``, ``draw`` and ``pass`` where the rules allow them.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Final

from canasta.actions import ASK, DISCARDS, DRAW, NO, PASS, YES, Action, Group
from canasta.cards import FIRST_WILD, IS_NATURAL, IS_WILD, JOKER, RANK_OF, Card
from canasta.hand_and_foot.deal import WILD_MELD, Deal
from canasta.hand_and_foot.knobs import BOOK, MIN_MELD
from canasta.hand_and_foot.turn import check, minimum

MAX_OPENINGS: Final = 600
"""At most this many openings are listed (the smallest counts first)."""


def _wild_choices(held: Sequence[Card], most: int) -> list[tuple[Card, ...]]:
    """The distinct sets of up to ``most`` wild cards from ``held`` (twos by lowest suit)."""
    twos = [c for c in held if IS_WILD[c] and c != JOKER]
    jokers = sum(1 for c in held if c == JOKER)
    out: list[tuple[Card, ...]] = []
    for j in range(min(jokers, most) + 1):
        for t in range(min(len(twos), most - j) + 1):
            out.append(tuple(twos[:t]) + (JOKER,) * j)
    return out


def _naturals(held: Sequence[Card]) -> dict[int, list[Card]]:
    by_rank: dict[int, list[Card]] = {}
    for c in held:
        if IS_NATURAL[c]:
            by_rank.setdefault(RANK_OF[c], []).append(c)
    return by_rank


def _groups(deal: Deal, held: Sequence[Card], *, new_only: bool) -> Iterator[Group]:
    """Candidate groups of one key from ``held``: every count of natural cards with every
    choice of wild cards; ``new_only``: groups that can start a meld (three or more cards)."""
    knobs = deal.knobs
    melds = deal.melds[deal.side_of(deal.to_move)]
    wilds = _wild_choices(held, knobs.max_wilds_per_meld)
    naturals = _naturals(held)
    # a group that starts a meld needs three cards (unless a book may take it), and no meld
    # holds more wild cards than natural ones: cheap bounds before the turn's check
    small_ok = knobs.book_accepts_extra != "none"
    for rank, cards in sorted(naturals.items(), reverse=True):
        meld = melds[rank]
        start = new_only or meld is None
        base = 0 if meld is None else 2 * sum(1 for c in meld if not IS_WILD[c]) - len(meld)
        for k in range(len(cards), -1, -1):
            for w in wilds:
                size = k + len(w)
                if size == 0 or (k == 0 and start) or len(w) > k + base:
                    continue
                if start and size < MIN_MELD and (new_only or not small_ok):
                    continue
                if size > 2 * BOOK + 1:
                    continue
                yield Group(rank, tuple(cards[:k]) + w)
    if not new_only:
        for rank in range(11):
            if melds[rank] is not None and rank not in naturals:
                for w in wilds:
                    if w:
                        yield Group(rank, w)
    if knobs.allow_wild_only_melds:
        every = _wild_choices(held, BOOK)
        for w in every:
            if w and (len(w) >= MIN_MELD or melds[WILD_MELD] is not None):
                yield Group(WILD_MELD, w)


def _value(deal: Deal, cards: Sequence[Card]) -> int:
    value = deal.rules.value_of
    return sum(value[c] for c in cards)


def _openings(deal: Deal, held: Sequence[Card], verb: str, head: tuple[Group, ...],
              base: int, optional_low: int | None) -> list[Action]:
    """Minimal openings: ``head`` (a take's first group) and groups of distinct keys whose
    count with ``base`` reaches the minimum and falls below it without the least card."""
    need = minimum(deal, deal.side_of(deal.to_move))
    options: dict[int, list[Group]] = {}
    for g in _groups(deal, held, new_only=True):
        if head and g.rank == head[0].rank:
            continue
        options.setdefault(g.rank, []).append(g)
    keys = sorted(options, key=lambda key: (key == WILD_MELD, -key))  # canonical order
    out: list[Action] = []

    def least(groups: Sequence[Group]) -> int:
        values = [deal.rules.value_of[c] for g in groups for c in g.cards]
        if optional_low is not None:
            values.append(optional_low)
        return min(values) if values else 0

    def walk(i: int, chosen: list[Group], total: int, left: list[Card]) -> None:
        if len(out) >= MAX_OPENINGS:
            return
        if total >= need:
            if (chosen or head) and total - least(chosen) < need:
                out.append(Action(verb, head + tuple(chosen)))
            return
        for j in range(i, len(keys)):
            for g in options[keys[j]]:
                rest = list(left)
                try:
                    for c in g.cards:
                        rest.remove(c)
                except ValueError:
                    continue
                walk(j + 1, [*chosen, g], total + _value(deal, g.cards), rest)
    start = list(held)
    for g in head:
        for c in g.cards:
            start.remove(c)
    walk(0, [], base, start)
    return out


def _takes(deal: Deal) -> list[Action]:
    """Candidate takes of the pile (HF §7)."""
    if not deal.pile:
        return []
    knobs = deal.knobs
    top = deal.pile[-1]
    held = deal.hands[deal.to_move]
    side = deal.side_of(deal.to_move)
    if IS_WILD[top]:
        if not knobs.wild_on_top_takeable:
            return []
        same = [c for c in held if IS_WILD[c] and (c == JOKER) == (top == JOKER)]
        return [Action("take", (Group(WILD_MELD, tuple(same[:2])),))] if len(same) >= 2 else []
    if not IS_NATURAL[top]:
        return []
    rank = RANK_OF[top]
    naturals = _naturals(held).get(rank, [])
    wilds = _wild_choices(held, knobs.max_wilds_per_meld)
    firsts: list[Group] = []
    if deal.opened(side):
        if len(naturals) >= 2:
            firsts.append(Group(rank, tuple(naturals[:2])))
        if knobs.pile_take_pair != "natural_pair" and naturals:
            if knobs.pile_take_pair == "one_natural":
                firsts.append(Group(rank, tuple(naturals[:1])))
            firsts.extend(Group(rank, (naturals[0], *w)) for w in wilds if len(w) == 1)
        return [Action("take", (g,)) for g in firsts]
    out: list[Action] = []
    top_value = deal.rules.value_of[top] if knobs.initial_meld_counts_pile_top else 0
    low = 1 if knobs.pile_take_pair == "natural_pair" else 0
    for k in range(len(naturals), low, -1):
        for w in wilds:
            g = Group(rank, tuple(naturals[:k]) + w)
            extra = [deal.rules.value_of[c] for c in g.cards[2:]]
            out.extend(_openings(deal, held, "take", (g,), top_value + _value(deal, g.cards),
                                 min(extra) if extra else None))
    return out


def legal_actions(deal: Deal) -> list[Action]:
    """Every legal action of the player to move, each once, in canonical order."""
    if deal.end is not None:
        return []
    if deal.phase == "answer":
        return [YES, NO]
    knobs = deal.knobs
    candidates: list[Action] = []
    if deal.phase == "draw":
        if deal.stock or (knobs.stock_exhausted_rule == "reshuffle_pile" and len(deal.pile) > 1):
            candidates.append(DRAW)
        candidates.extend(_takes(deal))
        if not deal.stock and knobs.stock_exhausted_rule == "continue_by_pile":
            candidates.append(PASS)
    else:
        seat = deal.to_move
        held = deal.hands[seat]
        if deal.opened(deal.side_of(seat)):
            candidates.extend(Action("meld", (g,)) for g in _groups(deal, held, new_only=False))
            candidates.extend(_whole_hand(deal, held))
        else:
            candidates.extend(_openings(deal, held, "meld", (), 0, None))
        candidates.append(ASK)
        candidates.extend(DISCARDS[c] for c in sorted(set(held)))
    seen: set[Action] = set()
    out = []
    for action in candidates:
        if action not in seen and check(deal, action) is None:
            seen.add(action)
            out.append(action)
    return out


def _whole_hand(deal: Deal, held: Sequence[Card]) -> list[Action]:
    """The whole hand laid in one action, the wild cards on one key (a going out that single
    groups may not reach: each step would leave one card that may not yet be discarded)."""
    if not deal.in_foot(deal.to_move) or len(held) < 2:
        return []
    naturals = _naturals(held)
    wilds = tuple(c for c in held if c >= FIRST_WILD)
    if any(not IS_NATURAL[c] and not IS_WILD[c] for c in held):
        return []
    out = []
    keys = sorted(naturals, reverse=True)
    targets = keys if wilds else [None]
    for target in targets:
        groups = tuple(Group(r, tuple(naturals[r]) + (wilds if r == target else ()))
                       for r in keys)
        if len(groups) >= 2:
            out.append(Action("meld", groups))
    return out
