"""Why an action of a Modern American turn is refused (:func:`problem`): the one source of every
refusal, which :func:`~canasta.modern_american.play.apply` and the legal list
(:mod:`~canasta.modern_american.choices`) both ask.

Each check reads the position through :class:`Facts`, the facts of the position that every
check needs (the player's side and hand, the side's melds, the dead ranks, whether the hand
holds a card it may discard), found once per position: the legal list asks many actions of one
position. The meld rules themselves are the pure functions of
:mod:`~canasta.modern_american.melds` and :mod:`~canasta.modern_american.discards`.

>>> from canasta.actions import Action
>>> from canasta.modern_american.play import new_hand
>>> h = new_hand(seed=3)
>>> print(problem(h, Action("discard", (), h.hands[h.to_move][0])))
the turn starts with 'draw' or a pick of the pack (take)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from typing import Final

from canasta.actions import NO_RANK, Action, Group
from canasta.cards import (
    IS_NATURAL,
    IS_WILD,
    RANK_OF,
    THREE,
    Card,
    Rank,
    format_card,
    rank_name,
)
from canasta.modern_american.discards import discard_problem, pick_problem
from canasta.modern_american.facts import Facts, any_discard, facts_of
from canasta.modern_american.going_out import ways_out
from canasta.modern_american.hand import (
    ANSWER,
    DRAW,
    OVER,
    PLAY,
    Hand,
    Meld,
    SideMelds,
    Turn,
)
from canasta.modern_american.knobs import SET_ASIDE, Knobs
from canasta.modern_american.layings import meld_candidates
from canasta.modern_american.melds import (
    MAX_MELD,
    MAX_WILDS,
    MIN_NATURALS,
    WILD_MELD,
    MeldContext,
    meld_problem,
    opening_problem,
    wild_problem,
)
from canasta.modern_american.scoring import incomplete_penalty
from canasta.modern_american.special_hands import CATALOGUES, SIZE, special_problem

KEEP_NONE: Final = -1
"""The ``card`` of ``keep none``: every three is laid."""

Laid = list[tuple[Rank, Meld]]
"""Cards laid in one action, by meld key (the pick's group first)."""


# -- the facts the checks share ------------------------------------------------------------------

def may_go_out(h: Hand, side: int, melds: SideMelds | None = None) -> str | None:
    """Why ``side`` (with ``melds``, its melds by default) may not go out, or ``None``
    (MA §10.1): two canastas, and no incomplete meld that costs a penalty."""
    return _out_problem(h.rules.min_canastas_to_go_out, h.knobs,
                        h.melds[side] if melds is None else melds)


def _out_problem(need: int, knobs: Knobs, melds: SideMelds) -> str | None:
    canastas = 0
    for m in melds:
        if m is not None and len(m) >= MAX_MELD:
            canastas += 1
    if canastas < need:
        return f"going out needs {need} canastas on your side's table"
    for key, m in enumerate(melds):
        if m is not None and len(m) < MAX_MELD and incomplete_penalty(knobs, key, m):
            what = "wild cards" if key == WILD_MELD else rank_name(key)
            return f"your side's meld of {what} is incomplete: it must be a canasta first"
    return None


def dead_after(f: Facts, melds: SideMelds) -> frozenset[Rank]:
    """The dead ranks once the side has ``melds``: those of now, and any canasta just made."""
    dead = f.dead
    if not f.knobs.dead_ranks:
        return dead
    made: list[Rank] = []
    old = f.melds
    for key in range(WILD_MELD):
        m = melds[key]
        if m is not None and m is not old[key] and len(m) >= MAX_MELD:
            made.append(key)
    return dead.union(made) if made else dead


def talon_index(h: Hand, side: int) -> int:
    """Which talon a side opening now receives: the first (four cards) while the other side
    has not melded, else the second (three), MA §8.1."""
    return 1 if h.side_melded(1 - side) else 0


def talon_due(h: Hand, side: int) -> int:
    """The talon a side earns by opening from the hand now (MA §8.1, §8.2): from the stock
    until the turn card is drawn, or the set-aside pile due while it is there."""
    knobs = h.knobs
    if knobs.talon_source == SET_ASIDE:
        return len(h.talons[talon_index(h, side)]) if h.talons else 0
    if h.turn_card_drawn:
        return 0
    return knobs.talon_sizes[talon_index(h, side)]


def left_problem(f: Facts, hand: Sequence[Card], melds: SideMelds, pile_empty: bool,
                 talon: int) -> str | None:
    """Why a meld or a pick that leaves ``hand`` and ``melds`` is refused: the turn must still
    end with a discard, and a player who does not go out keeps a card (MA §7.4, §9)."""
    if not hand:
        return "every turn ends with a discard: keep a card to discard"
    h = f.h
    knobs = f.knobs
    for m in melds:
        if m is not None and len(m) > MAX_MELD:
            # an eighth card: only with the meld the player goes out with (MA §4.1.1)
            out = may_go_out(h, f.side, melds) or (
                "your partner said no" if h.answer == "no" else None)
            if out is not None:
                return f"a meld passes {MAX_MELD} cards only when you go out, and {out}"
            return discard_problem(knobs, hand[0], hand, pile_empty, dead_after(f, melds),
                                   going_out=True)
    if len(hand) == 1:
        card = hand[0]
        dead = dead_after(f, melds)
        if talon and knobs.talon_counts_as_held_card:
            if discard_problem(knobs, card, hand, pile_empty, dead) is None:
                return None
        out = may_go_out(h, f.side, melds)
        if out is None and h.answer != "no":
            return discard_problem(knobs, card, hand, pile_empty, dead, going_out=True)
        return (f"this would leave one card, and {out or 'your partner said no'}: keep one "
                "card to hold and one to discard")
    if f.retract:
        return None
    # off an empty pile no discard reads the dead ranks
    dead = dead_after(f, melds) if pile_empty else f.dead
    if not any_discard(knobs, hand, pile_empty, dead) and f.may_discard_now():
        return "after this you would hold no card you may discard (MA §7.4)"
    return None


# -- laying cards: melds and picks ---------------------------------------------------------------

def _group_key(group: Group) -> tuple[Rank, str | None]:
    for c in group.cards:
        if RANK_OF[c] == THREE:
            return NO_RANK, "threes are never melded"
    if group.rank == NO_RANK:
        return NO_RANK, ("name the meld a group of wild cards joins: W: for a meld of wild "
                         "cards, or the rank of your meld")
    if group.rank < 0:
        return NO_RANK, "a group holds cards of one rank and wild cards"
    return group.rank, None


def _owned(hand: Sequence[Card], cards: Sequence[Card]) -> str:
    missing = Counter(cards) - Counter(hand)
    return "you do not hold " + " ".join(format_card(c) for c in sorted(missing.elements()))


def keyed(groups: Sequence[Group]) -> tuple[str | None, Laid]:
    """The groups by meld key, or why they cannot be laid as written."""
    laid: Laid = []
    for group in groups:
        key, problem = _group_key(group)
        if problem is not None:
            return problem, laid
        for k, _ in laid:
            if k == key:
                return f"two groups for one meld of {rank_name(key)}: join them", laid
        laid.append((key, group.cards))
    return None, laid


def left_after(hand: Sequence[Card], laid: Laid) -> tuple[str | None, list[Card]]:
    """The hand without the laid cards, or which of them the player does not hold."""
    cards = laid[0][1] if len(laid) == 1 else [c for _, cs in laid for c in cs]
    left = _without(hand, sorted(cards))
    if left is not None:
        return None, left
    left = list(hand)  # the hand may not be sorted: card by card
    for c in cards:
        if c not in left:
            return _owned(hand, cards), list(hand)
        left.remove(c)
    return None, left


def _without(hand: Sequence[Card], cards: Sequence[Card]) -> list[Card] | None:
    """Sorted ``hand`` less sorted ``cards``, or ``None`` when it lacks one of them (or is
    not sorted)."""
    left: list[Card] = []
    i = 0
    n = len(cards)
    for c in hand:
        if i < n and cards[i] == c:
            i += 1
        elif i < n and cards[i] < c:
            return None
        else:
            left.append(c)
    return left if i == n else None


def _opening_via_pick(f: Facts, top: Card, shown: Sequence[Card], rest: Laid) -> str | None:
    """An initial meld by picking the pack: the hand's cards alone reach the minimum with a
    clean triple; the top card counts for nothing (MA §5.4)."""
    h = f.h
    knobs = f.knobs
    problem = pick_problem(knobs, top, shown, (), MeldContext(True, dead=f.dead))
    if problem is not None:
        return problem
    value_of = h.rules.value_of
    top_points = value_of[top] if knobs.initial_meld_counts_pile_top else 0
    minimum = h.minimum(f.side)
    groups: Laid
    if knobs.pile_top_may_form_clean_triple:
        # the pick's meld takes part in the check; a top card that does not count is made up
        groups = [(RANK_OF[top], (top, *shown)), *rest]
        need = minimum + value_of[top] - top_points
    else:
        groups = rest
        need = minimum - sum([value_of[c] for c in shown]) - top_points
        if not rest:
            return ("to open by picking the pack, your hand's cards alone must make the "
                    f"initial meld ({minimum}, with a clean triple): lay further melds with it")
    problem = opening_problem(knobs, value_of, groups, need, f.dead)
    if problem is not None and problem.startswith("the initial meld counts"):
        total = top_points + sum([value_of[c] for c in shown]) + sum(
            [value_of[c] for _, cards in rest for c in cards])
        counted = "with the top card" if top_points else "the top card does not count"
        return f"your hand's cards count {total} ({counted}), and your side needs {minimum}"
    return problem


def melds_problem(f: Facts, laid: Laid, top: Card | None, going_out: bool = False
                  ) -> str | None:
    """The meld rules for ``laid`` (the first group onto the pile's ``top`` when picking);
    ``going_out``: the cards leave the player one card, to go out with."""
    h = f.h
    knobs = f.knobs
    if not f.melded:
        if top is not None:
            return _opening_via_pick(f, top, laid[0][1], laid[1:])
        return opening_problem(knobs, h.rules.value_of, laid, h.minimum(f.side), f.dead)
    melds = f.melds
    wild_meld = melds[WILD_MELD]
    wilds = 0 if wild_meld is None else len(wild_meld)
    for k, cs in laid:
        if k == WILD_MELD:
            wilds += len(cs)
    ctx = MeldContext(h.turn.opening, 0 < wilds < MAX_MELD, f.dead, going_out)
    first = True
    for key, cards in laid:
        before = melds[key] or ()
        if first and top is not None:
            problem = pick_problem(knobs, top, cards, before, ctx)
        else:
            problem = meld_problem(knobs, key, before, cards, ctx)
        if problem is not None:
            return problem
        first = False
    return None


def laid_out(f: Facts, groups: Sequence[Group], top: Card | None
              ) -> tuple[SideMelds, list[Card]]:
    """The side's melds and the hand once ``groups`` (accepted by the checks) are laid from
    the hand, the first onto the pile's ``top`` card when picking."""
    _, laid = keyed(groups)
    _, left = left_after(f.hand, laid)
    return melds_with(f.melds, laid, top), left


def melds_with(melds: SideMelds, laid: Laid, top: Card | None) -> SideMelds:
    """The side's ``melds`` with ``laid`` added (and the pile's ``top`` card to the first
    group when picking)."""
    out = list(melds)
    first = True
    for key, cards in laid:
        before = out[key]
        if first and top is not None:
            cards = (top, *cards)
        out[key] = tuple(sorted((*before, *cards))) if before else tuple(sorted(cards))
        first = False
    return tuple(out)


def no_talon_for_pick(h: Hand) -> bool:
    """An initial meld made by picking the pack earns no talon (``talon_not_after_pile_take``)."""
    return h.turn.took and h.knobs.talon_not_after_pile_take


def meld_refusal(f: Facts, laid: Laid, left: Sequence[Card]) -> str | None:
    """Why laying ``laid`` from the hand, which leaves ``left``, is refused (the cards are the
    player's and keyed: :func:`lay` checks that)."""
    problem = melds_problem(f, laid, None, going_out=len(left) == 1)
    if problem is not None:
        return problem
    h = f.h
    talon = h.turn.talon or (0 if f.melded or no_talon_for_pick(h)
                             else talon_due(h, f.side))
    return left_problem(f, left, melds_with(f.melds, laid, None), f.pile_empty, talon)


def _meld_problem(f: Facts, action: Action) -> str | None:
    problem, laid = keyed(action.groups)
    left: list[Card] = []
    if problem is None:
        problem, left = left_after(f.hand, laid)
    if problem is not None:
        return problem
    return meld_refusal(f, laid, left)


def take_refusal(f: Facts, laid: Laid, left: Sequence[Card]) -> str | None:
    """Why picking the pack by laying ``laid`` (the pick's group first, from the hand, keyed),
    which leaves ``left`` of the hand, is refused."""
    h = f.h
    top = h.pile[-1]
    if not laid or laid[0][0] != RANK_OF[top] or not IS_NATURAL[top]:
        what = rank_name(RANK_OF[top]) if IS_NATURAL[top] else "a natural rank"
        return (f"the pile is picked by melding its top card with a natural pair of {what} "
                "from your hand: list those first")
    held = len(left) + len(h.pile) - 1
    problem = melds_problem(f, laid, top, going_out=held == 1)
    if problem is not None:
        return problem
    talon = 0 if f.melded or f.knobs.talon_not_after_pile_take else talon_due(h, f.side)
    return left_problem(f, [*left, *h.pile[:-1]], melds_with(f.melds, laid, top), True, talon)


def pick_example(top: Card) -> str:
    """How a pick of the pile with ``top`` on it is written, as an example: a natural pair of
    the top card's rank."""
    first = RANK_OF[top] * 4
    return f"take {format_card(first)} {format_card(first + 1)}"


def take_problem(f: Facts, action: Action) -> str | None:
    h = f.h
    if not h.pile:
        return "the pile is empty"
    top = h.pile[-1]
    if not action.groups:
        if not IS_NATURAL[top]:
            return "the pile cannot be picked while a wild card is on top"
        return ("the pile is always frozen: it is picked only with a natural pair of the top "
                f"card's rank from your hand ({pick_example(top)})")
    problem, laid = keyed(action.groups)
    left: list[Card] = []
    if problem is None:
        problem, left = left_after(f.hand, laid)
    if problem is not None:
        return problem
    return take_refusal(f, laid, left)


# -- taking back this turn's melds (no_legal_discard_remedy="retract_melds", MA §7.4) ----------

def must_take_back(f: Facts) -> bool:
    """Whether the player discards a card melded this turn, taken back (MA §7.4, CLA): the
    rules say so, the player holds more than one card and none it may discard, and one card
    melded this turn can be taken back. Where none can, any card but a three may go."""
    h = f.h
    if not (f.retract and h.turn.laid and len(f.hand) > 1) or f.may_discard_now():
        return False
    return any(take_back(f, c)[0] is None for _, cards in h.turn.laid for c in set(cards))


def side_melds(all_melds: tuple[SideMelds, ...], side: int, melds: SideMelds
               ) -> tuple[SideMelds, ...]:
    """Both sides' melds with ``side``'s replaced by ``melds``."""
    return (melds, all_melds[1]) if side == 0 else (all_melds[0], melds)


def take_back(f: Facts, card: Card) -> tuple[str | None, SideMelds, tuple[Card, ...]]:
    """Discarding ``card`` from the melds laid this turn: why not, or the side's melds after
    and the cards that go back to the hand with it. The turn's melds without the card must be
    what the turn could have laid; where the meld it was laid in (begun this turn) cannot stand
    without it, the rest of that meld comes back to the hand too."""
    h = f.h
    side = f.side
    key = next((k for k, cards in h.turn.laid if card in cards), None)
    if key is None:
        return ("you hold no card you may discard: discard one you melded this turn, taken "
                "back from its meld"), f.melds, ()
    top = h.turn.top
    top_key = None if top is None else RANK_OF[top]
    picked: dict[Rank, tuple[Card, ...]] = {} if top is None or top_key is None else {
        top_key: (top,)}  # the pick's top card, by its meld
    before = list(f.melds)  # the side's melds before this turn
    for k, cards in h.turn.laid:
        left = list(before[k] or ())
        for c in (*cards, *picked.get(k, ())):
            left.remove(c)
        before[k] = tuple(left) or None
    start = Facts(h.but(melds=side_melds(h.melds, side, tuple(before))))
    laid = dict(h.turn.laid)
    rest = list(laid[key])
    rest.remove(card)
    tries = [tuple(rest)]
    if before[key] is None and key != top_key:
        tries.append(())  # the whole meld taken back
    why = None
    for kept in tries:
        groups = [(k, tuple(kept) if k == key else cards) for k, cards in laid.items()]
        groups = [(k, cards) for k, cards in groups if cards or k == top_key]
        groups.sort(key=lambda g: g[0] != top_key)  # the pick's group first
        problem = melds_problem(start, groups, top)
        if problem is None:
            melds = list(f.melds)
            melds[key] = tuple(sorted((*(before[key] or ()), *kept,
                                       *picked.get(key, ())))) or None
            returned = tuple((Counter(rest) - Counter(kept)).elements())
            dead = dead_after(start, tuple(melds))
            hand = (*f.hand, *returned, card)
            return (discard_problem(f.knobs, card, hand, f.pile_empty, dead), tuple(melds),
                    returned)
        why = problem  # the last try's: the meld taken back whole, where it may be
    return (f"taking back {format_card(card)} would undo this turn's melds: {why}",
            f.melds, ())


# -- discards, questions, special hands ------------------------------------------------------

def discard_refusal(f: Facts, card: Card) -> str | None:
    """Why discarding ``card`` is refused (MA §7, §10)."""
    hand = f.hand
    h = f.h
    if card not in hand and not must_take_back(f):
        return f"you do not hold {format_card(card)}"
    if len(hand) == 1:
        out = may_go_out(h, f.side)
        if out is not None or h.answer == "no":
            if h.turn.talon and f.knobs.talon_counts_as_held_card:
                return discard_problem(f.knobs, card, hand, f.pile_empty, f.dead)
            return (out or "your partner said no") + ": keep a card after discarding"
        return discard_problem(f.knobs, card, hand, f.pile_empty, f.dead, going_out=True)
    if f.retract and must_take_back(f):
        return take_back(f, card)[0]
    if h.answer == "yes" and could_meld(f):
        return "your partner said yes: you must go out this turn"
    problem = discard_problem(f.knobs, card, hand, f.pile_empty, f.dead)
    if problem is not None and RANK_OF[card] != THREE and not f.may_discard_now():
        return None  # nothing else may go: any card but a three (MA §7.4)
    return problem


def could_meld(f: Facts) -> bool:
    """Whether the player may lay any meld now."""
    return any(_meld_problem(f, a) is None for a in meld_candidates(f))


def ask_problem(h: Hand, f: Facts | None = None) -> str | None:
    """Why the player to move may not ask "partner, may I go out?" now (MA §10.5, RULES
    §1.14): once a hand, before the turn's first meld, and only by a player who could go out
    this turn."""
    seat = h.to_move
    rules = h.rules
    limit = rules.permission_asks_per_hand
    if not rules.permission_question_enabled:
        return "these rules have no question to the partner"
    if h.turn.melded:
        return "ask before you meld this turn"
    if limit is not None and h.asks[seat] >= limit:
        return f"you may ask to go out only {limit} time{'s' if limit > 1 else ''} a hand"
    if h.answer is not None:
        return "you have had your answer this turn"
    if not h.side_melded(h.side_of(seat)):
        return "your side has not melded yet"
    f = f or facts_of(h)
    if len(f.hand) < 2 and h.phase != DRAW:
        # after a "no" the turn must end keeping a card: one card can only go out
        return "with one card left you can only go out: there is nothing to ask"
    if not could_go_out(f):
        return "only a player who could go out this turn may ask (RULES §1.14)"
    return None


def could_go_out(f: Facts) -> bool:
    """Whether the player to move, its side melded, could go out this turn, whatever its
    partner would answer: lay every card but one, at once, and discard that one (MA §10.1).
    A cheap bound decides most positions; the rest try the ways of
    :func:`~canasta.modern_american.going_out.ways_out`."""
    h = f.h
    hand = f.hand
    need = h.rules.min_canastas_to_go_out
    if len(hand) == 1:
        return (_out_problem(need, f.knobs, f.melds) is None and discard_problem(
            f.knobs, hand[0], hand, f.pile_empty, f.dead, going_out=True) is None)
    if not _within_reach(f, need):
        return False
    for action in ways_out(f.knobs, hand, f.melds, f.dead, h.turn.opening, need):
        _, laid = keyed(action.groups)
        if _meld_problem(f, action) is None and _out_problem(
                need, f.knobs, melds_with(f.melds, laid, None)) is None:
            return True
    return False


def _within_reach(f: Facts, need: int) -> bool:
    """Cheap bounds: every card but one of the hand has a place (no three; a natural card
    joins its rank's meld, up to seven cards, or makes a new one with another of its rank,
    unless its rank is dead), every meld of the side that costs a penalty while incomplete can
    be completed, and the side can hold ``need`` canastas with the hand's cards, each natural
    card going to its rank's meld and the wild cards anywhere."""
    melds = f.melds
    hand = f.hand
    knobs = f.knobs
    naturals = [0] * (WILD_MELD + 1)
    wilds = 0
    for c in hand:
        if RANK_OF[c] == THREE:
            return False  # a three is never melded nor discarded
        if IS_WILD[c]:
            wilds += 1
        else:
            naturals[RANK_OF[c]] += 1
    past_seven = knobs.max_meld_size_exception_when_going_out
    homeless = 0
    for key in range(WILD_MELD):
        n = naturals[key]
        if not n:
            continue
        m = melds[key]
        size = 0 if m is None else len(m)
        if m is None and (n < MIN_NATURALS or key in f.dead):
            homeless += n
        elif m is not None and key in f.dead and not (past_seven and size >= MAX_MELD):
            homeless += n
        elif not past_seven and size + n > MAX_MELD:
            homeless += size + n - MAX_MELD  # a meld holds seven cards at most
    if homeless > 1:
        return False  # only the discard may be left
    ctx = MeldContext(f.h.turn.opening, False, f.dead, True)
    for key, m in enumerate(melds):
        if m is None or len(m) >= MAX_MELD or not incomplete_penalty(knobs, key, m):
            continue
        room = wilds if key == WILD_MELD else naturals[key]
        if key != WILD_MELD and wilds:
            in_meld = sum(1 for c in m if IS_WILD[c])
            if wild_problem(knobs, key, m, len(m) - in_meld + naturals[key], ctx) is None:
                room += min(wilds, MAX_WILDS - in_meld)
        if len(m) + room < MAX_MELD:
            return False  # it stays incomplete, and no side goes out so (MA §10.1)
    have = 0
    short: list[int] = []
    for key, m in enumerate(melds):
        size = 0 if m is None else len(m)
        if size >= MAX_MELD:
            have += 1
            continue
        reach = size + naturals[key] + wilds if key != WILD_MELD else size + wilds
        if key != WILD_MELD and size == 0 and naturals[key] < MIN_NATURALS:
            continue
        if reach >= MAX_MELD:
            short.append(MAX_MELD - size)
    if have >= need:
        return True
    short.sort()
    missing = need - have
    return len(short) >= missing and sum(short[:missing]) <= len(hand) - 1


def special_name(h: Hand, index: int) -> str:
    """The name of the special hand ``index`` of the rules' catalogue."""
    return CATALOGUES[h.knobs.special_hands][index].name


def special_refusal(f: Facts, index: int) -> str | None:
    """Why laying the special hand ``index`` of the catalogue is refused (MA §11)."""
    catalogue = CATALOGUES[f.knobs.special_hands]
    if not 0 <= index < len(catalogue):
        return "there is no such special hand in these rules"
    return special_moment_problem(f) or special_problem(f.hand, catalogue[index].name,
                                                        f.knobs.special_hands)


def special_moment_problem(f: Facts) -> str | None:
    """Why no special hand may be laid now, whatever the cards (MA §11.1)."""
    h = f.h
    if f.melded and h.courtesy != f.seat:
        return "a special hand is laid only while your side has not melded"
    if not h.turn.drew or h.turn.melded:
        return "a special hand is laid after drawing from the stock, before any meld"
    if len(f.hand) != SIZE:
        return f"a special hand holds {SIZE} cards; you hold {len(f.hand)}"
    return None


# -- the checks by verb ------------------------------------------------------------------------

_PHASE_OF: Final = {"keep": DRAW, "draw": DRAW, "take": DRAW, "pass": DRAW, "meld": PLAY,
                    "discard": PLAY, "ask": PLAY, "special": PLAY, "yes": ANSWER, "no": ANSWER}


def phase_problem(h: Hand, verb: str) -> str | None:
    """Why ``verb`` may not be played in this phase of the turn."""
    want = _PHASE_OF.get(verb)
    if want is None:
        return f"there is no {verb!r} in these rules"
    if h.phase == OVER:
        return "the hand is over"
    if h.phase == ANSWER and want != ANSWER:
        return "your partner asked to go out: the answer is 'yes' or 'no'"
    if want == ANSWER and h.phase != ANSWER:
        return "nobody asked to go out"
    if h.phase == DRAW and not h.turn.threes_chosen and verb != "keep":
        return "first say which three you keep (keep 3s) or that you lay them all (keep none)"
    if want == DRAW and h.phase != DRAW:
        return "you have already drawn this turn"
    if want == PLAY and h.phase != PLAY:
        return "the turn starts with 'draw' or a pick of the pack (take)"
    return None


def keep_problem(h: Hand, card: Card) -> str | None:
    """Why keeping the three ``card`` (or none, :data:`KEEP_NONE`) is refused (MA §2.3)."""
    if h.turn.threes_chosen:
        return "you have already laid your threes this turn"
    if card != KEEP_NONE and card not in h.threes_in(h.to_move):
        return "keep names a three in your hand, or none"
    return None


_LISTED: Final[list[tuple[Hand, list[Action]]]] = []
"""The last position whose legal list was found, with it (one pair, replaced whole)."""


def remember_listed(h: Hand, actions: list[Action]) -> None:
    """Keep ``actions``, the legal list of ``h``: the action then chosen from it is known to
    be accepted."""
    if _LISTED:
        _LISTED[0] = (h, actions)
    else:
        _LISTED.append((h, actions))


def listed(h: Hand, action: Action) -> bool:
    """Whether ``action`` is in the legal list last found, that of ``h``."""
    if not _LISTED:
        return False
    known, actions = _LISTED[0]
    return known is h and action in actions


def problem(h: Hand, action: Action) -> str | None:
    """Why ``action`` is refused in ``h``, in a player's words, or ``None``."""
    return judge(h, action)[0]


def judge(h: Hand, action: Action) -> tuple[str | None, Facts | None]:
    """:func:`problem`, with the facts of the position it read (``None`` for the verbs that
    need none), for :func:`~canasta.modern_american.play.apply` to carry the action out."""
    verb = action.verb
    wrong = phase_problem(h, verb)
    if wrong is not None:
        return wrong, None
    if verb == "keep":
        return keep_problem(h, action.card), None
    if verb == "draw":
        return (None if h.stock else
                "the stock is empty: pick the pack, or pass to end the hand"), None
    if verb == "pass":
        return (None if not h.stock else "pass only when the stock is empty; draw instead"), None
    if verb == "yes" or verb == "no":
        return None, None
    f = facts_of(h)
    if verb == "take":
        return take_problem(f, action), f
    if verb == "meld":
        return _meld_problem(f, action), f
    if verb == "discard":
        return discard_refusal(f, action.card), f
    if verb == "ask":
        return ask_problem(h, f), f
    return special_refusal(f, action.card), f  # special


def turn_with(turn: Turn, *, drew: bool | None = None, took: bool | None = None,
              opening: bool | None = None, talon: int | None = None,
              melded: bool | None = None,
              laid: tuple[tuple[Rank, tuple[Card, ...]], ...] | None = None,
              top: Card | None = None) -> Turn:
    """``turn`` with some of its fields changed."""
    return Turn(threes_chosen=turn.threes_chosen, kept=turn.kept,
                drew=turn.drew if drew is None else drew,
                took=turn.took if took is None else took,
                opening=turn.opening if opening is None else opening,
                talon=turn.talon if talon is None else talon,
                melded=turn.melded if melded is None else melded,
                laid=turn.laid if laid is None else laid,
                top=turn.top if top is None else top)


def each_card_once(cards: Sequence[Card]) -> Iterator[Card]:
    """The distinct cards of sorted ``cards``, in order."""
    last = -1
    for c in cards:
        if c != last:
            yield c
            last = c
