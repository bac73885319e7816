"""Plans of a turn: whether a take or a meld is legal (and why not, in a player's words), and
what the table looks like after it (RULES §1.6–§1.13).

The engine carries a plan out (:mod:`canasta.engine`), the legal-action generator tests its
candidates with it (:mod:`canasta.legal`): one decision for both, and neither needs the other to
know whether a take or a meld may be played. A refusal is a ``ValueError`` whose text names the
rule.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from canasta import table
from canasta.actions import MIXED_RANK, NO_RANK, Action, Group
from canasta.cards import (
    BLACK_THREE_RANK,
    IS_BLACK_THREE,
    IS_NATURAL,
    IS_RED_THREE,
    IS_WILD,
    RANK_OF,
    Card,
    Rank,
    format_card,
    rank_name,
)
from canasta.going_out import going_out_of
from canasta.melds import black_three_problem, split_counts
from canasta.state import PLAY, Draft, HandState, Meld, SideMelds, turn_info
from canasta.variant import variant_of

YES_TAKE = ("your partner said yes: you must go out this turn, and this take would make it "
            "impossible")


def remove_cards(hand: tuple[Card, ...], cards: Sequence[Card]) -> list[Card] | None:
    """``hand`` without ``cards`` (as multisets), or ``None`` if the hand lacks one of them."""
    rest = list(hand)
    try:
        for c in cards:
            rest.remove(c)
    except ValueError:
        return None
    return rest


def missing_text(hand: tuple[Card, ...], cards: Sequence[Card]) -> str:
    rest = list(hand)
    for c in cards:
        if c in rest:
            rest.remove(c)
        else:
            return f"you hold no {format_card(c)}" + (" to spare" if c in hand else "")
    return "cards missing"


def multiset_min(a: Sequence[Card], b: Sequence[Card]) -> tuple[Card, ...]:
    """The cards common to ``a`` and ``b`` (multiset intersection), sorted."""
    rest = list(b)
    out = []
    for c in a:
        if c in rest:
            rest.remove(c)
            out.append(c)
    return tuple(sorted(out))


def with_slot(tup: tuple, index: int, value: object) -> tuple:  # type: ignore[type-arg]
    return tup[:index] + (value,) + tup[index + 1:]


def frozen_for(state: HandState, seat: int) -> bool:
    """RULES §1.11: frozen for everyone, or for a side that has not melded."""
    return table.frozen_for(state.rules, state.pile_frozen, state.side_has_melded(seat))


def group_problem(group: Group) -> str | None:
    """Problems a group has whatever the table: red threes, mixed ranks, bare wild cards."""
    cards = group.cards
    if any(IS_RED_THREE[c] for c in cards):
        return "red threes are never melded"
    if group.rank == MIXED_RANK:
        if any(IS_BLACK_THREE[c] for c in cards):
            return "black threes meld only with black threes"
        return "a meld holds natural cards of one rank only (no sequences)"
    if group.rank == NO_RANK:
        return "wild cards cannot be melded alone: name the meld they join (e.g. 'meld 7: 2c')"
    return None


def merged(existing: Meld | None, cards: Sequence[Card]) -> Meld:
    if existing is None:
        return tuple(sorted(cards))
    return tuple(sorted(existing + tuple(cards)))


def check_meld_group(state: HandState, melds: SideMelds, group: Group) -> tuple[Meld, bool]:
    """Validate one group onto the side's melds; returns (new meld, joined an existing meld).

    Raises ``ValueError`` with the reason.
    """
    problem = group_problem(group)
    if problem:
        raise ValueError(problem)
    rules = state.rules
    rank = group.rank
    existing = melds[rank]
    if rank == BLACK_THREE_RANK:
        problem = black_three_problem(rules, group.cards)
        if problem:
            raise ValueError(problem)
        if existing is not None:
            raise ValueError("black threes are melded once, when going out")
        return tuple(group.cards), False
    naturals, wilds = split_counts(group.cards)
    if existing is None and naturals == 0:
        raise ValueError(f"there is no meld of {rank_name(rank)} for these wild cards to join")
    en, ew = split_counts(existing) if existing is not None else (0, 0)
    problem = variant_of(rules).meld_problem(rank, en + naturals, ew + wilds,
                                             adds_wilds=wilds > 0, joining=existing is not None)
    if problem:
        raise ValueError(problem)
    return merged(existing, group.cards), existing is not None


def canastas_in(state: HandState, melds: SideMelds) -> int:
    """The completed canastas among ``melds`` (the variant's count)."""
    return variant_of(state.rules).canastas(melds)


def going_out_problem(state: HandState, melds: SideMelds, cards_left: int,
                       discarding: bool = False) -> str | None:
    """Why the player may not end this action with ``cards_left`` (0 or 1) cards, or ``None``.

    ``discarding`` is True when the action is the final discard itself.
    """
    if cards_left == 1 and state.turn.last_red_three:
        return None  # no discard follows: the card stays in hand (RULES §1.16.1)
    rules = state.rules
    if cards_left == 0 and not discarding and rules.going_out_requires_discard:
        return "going out needs a final discard: keep one card"
    if state.answer == "no":
        return "your partner said no: you may not go out this turn (keep a card after discarding)"
    variant = variant_of(rules)
    return variant.out_problem(variant.canastas(melds), cards_left)


def opening_exempt(state: HandState, seat: int, cards_left: int, created_canasta: bool) -> bool:
    """RULES §1.10 exception: a concealed going out after a stock draw needs no minimum."""
    rules = state.rules
    return (rules.concealed_out_minimum_exempt_on_stock_draw and not state.turn.took_pile
            and not state.has_melded[seat] and cards_left <= most_left_going_out(state)
            and (created_canasta or not rules.concealed_requires_own_canasta))


def most_left_going_out(state: HandState) -> int:
    """Cards a meld may leave and still go out: the one to discard, or none when no discard
    follows (a last red three the rules let the player meld on, RULES §1.16.1)."""
    return 0 if state.turn.last_red_three else 1


def hidden_after(state: HandState, owner: int,
                  new_hidden: list[Rank]) -> tuple[tuple[Rank, ...], ...]:
    if not new_hidden:
        return state.hidden
    return with_slot(state.hidden, owner, tuple(sorted(state.hidden[owner] + tuple(new_hidden))))


def forget_known(state: HandState, seat: int,
                  cards: Sequence[Card]) -> tuple[tuple[Card, ...], ...]:
    known = state.known[seat]
    if not known:
        return state.known
    rest = list(known)
    for c in cards:
        if c in rest:
            rest.remove(c)
    if len(rest) == len(known):
        return state.known
    return with_slot(state.known, seat, tuple(rest))


def one_card_take_banned(state: HandState) -> bool:
    """RULES §1.12.6: the player to move holds one card, the pile is one card, and the rules
    forbid that take now (``one_card_pile_take_ban``: always, or once the stock is out)."""
    ban = state.rules.one_card_pile_take_ban
    if ban == "never" or len(state.pile) != 1 or len(state.hands[state.to_move]) != 1:
        return False
    return ban == "always" or not state.stock


class Plan:
    """What a legal take or meld lays: the cards from the hand, the side's melds after it, the
    keys of melds it begins, whether it adds to a meld begun before this turn, and the canastas
    it lays whole (for ``hidden_canasta_bonus``). The checks fill it in as they go."""

    __slots__ = ("created", "extended", "hidden", "laid", "melds")

    def __init__(self, laid: list[Card], melds: SideMelds, created: list[Rank], extended: bool,
                 hidden: list[Rank]) -> None:
        self.laid = laid
        self.melds = melds
        self.created = created
        self.extended = extended
        self.hidden = hidden


def top_block(pile: Sequence[Card]) -> str | None:
    """Why nobody may take ``pile`` whatever they hold, in a player's words (``a black three
    is on top``), or ``None`` (RULES §1.11: a black three, a wild card or a red three on top)."""
    if not pile:
        return None
    top = pile[-1]
    if IS_BLACK_THREE[top]:
        return "a black three is on top"
    if IS_WILD[top]:
        return "a wild card is on top"
    if IS_RED_THREE[top]:
        return "a red three is on top"
    return None


def takeable_top(state: HandState) -> Card:
    """The pile's top card, when the pile may be taken at all (RULES §1.11, §1.12.6)."""
    pile = state.pile
    if not pile:
        raise ValueError("the pile is empty")
    blocked = top_block(pile)
    if blocked is not None:
        raise ValueError(f"the pile is blocked: {blocked}")
    top = pile[-1]
    if one_card_take_banned(state):
        raise ValueError("a player holding one card may not take a pile of one card" + (
            " once the stock is exhausted" if state.rules.one_card_pile_take_ban == "stock_out"
            else ""))
    return top


def shown_problem(state: HandState, rank: Rank, existing: Meld | None, shown: Group) -> str | None:
    """Why the cards ``shown`` with a top card of ``rank`` do not take the pile, or ``None``
    (RULES §1.12: a natural pair on a frozen pile; on an open one also a natural card and a wild
    card, or the top card alone onto the side's meld)."""
    if shown.cards and (any(IS_RED_THREE[c] or IS_BLACK_THREE[c] for c in shown.cards)
                        or shown.rank not in (rank, NO_RANK)):
        return f"the cards shown with the top card must be {rank_name(rank)} or wild cards"
    rules = state.rules
    naturals, wilds = split_counts(shown.cards)
    if frozen_for(state, state.to_move):
        if naturals < 2:
            return (f"pile is frozen ({state.freeze_for(state.to_move).reason}): a natural "
                    f"pair of {rank_name(rank)} is needed")
        return None
    if (naturals >= 2 or (existing is not None and rules.unfrozen_take_by_adding_to_meld)
            or (naturals == 1 and wilds >= 1 and rules.unfrozen_take_natural_plus_wild)):
        return None
    options = "a natural pair" + (
        ", or a natural card and a wild card," if rules.unfrozen_take_natural_plus_wild else "")
    return f"{options} of {rank_name(rank)} is needed to take the pile"


def _laid_out(state: HandState, new_melds: list[Meld | None], groups: Sequence[Group],
              seen: set[Rank], plan: Plan, extends: Callable[[Rank], bool]) -> Plan:
    """``plan`` with ``groups`` laid onto ``new_melds`` one after the other (``extends``: whether
    joining the meld of a key adds to a meld begun before this turn)."""
    canasta_size = state.rules.canasta_size
    counts_hidden = state.rules.hidden_canasta_bonus > 0
    extended = plan.extended
    for group in groups:
        if group.rank in seen:
            raise ValueError(f"two groups of {rank_name(group.rank)} in one action")
        seen.add(group.rank)
        meld, joined = check_meld_group(state, tuple(new_melds), group)
        if joined:
            extended = extended or extends(group.rank)
        else:
            plan.created.append(group.rank)
            if counts_hidden and len(meld) >= canasta_size:
                plan.hidden.append(group.rank)
        new_melds[group.rank] = meld
        plan.laid.extend(group.cards)
    plan.melds = tuple(new_melds)
    plan.extended = extended
    return plan


def _opening_problem(state: HandState, total: int, via_pile: bool) -> str | None:
    """Why a first meld of the side counting ``total`` is below its minimum, or ``None``."""
    minimum = state.minimum(state.to_move)
    if total >= minimum:
        return None
    what = " (top card and cards from the hand)" if via_pile else ""
    return f"opening meld counts {total}{what}, below the minimum of {minimum}"


def take_plan(state: HandState, action: Action) -> Plan:
    """Check a take (RULES §1.12); returns its :class:`Plan` or raises ``ValueError``."""
    rules = state.rules
    seat = state.to_move
    hand = state.hands[seat]
    top = takeable_top(state)
    rank = RANK_OF[top]
    melds = state.melds[state.owner_of(seat)]
    existing = melds[rank]
    groups = action.groups
    first = groups[0] if groups else Group(rank, ())
    problem = shown_problem(state, rank, existing, first)
    if problem:
        raise ValueError(problem)
    naturals, wilds = split_counts(first.cards)
    en, ew = split_counts(existing) if existing is not None else (0, 0)
    problem = variant_of(rules).meld_problem(rank, en + naturals + 1, ew + wilds,
                                             adds_wilds=wilds > 0)
    if problem:
        raise ValueError(problem)
    new_melds = list(melds)
    new_melds[rank] = merged(existing, (top, *first.cards))
    plan = Plan(list(first.cards), (), [] if existing is not None else [rank],
                existing is not None, [])
    if (rules.hidden_canasta_bonus > 0 and existing is None
            and len(new_melds[rank] or ()) >= rules.canasta_size):
        plan.hidden.append(rank)
    plan = _laid_out(state, new_melds, groups[1:], {rank}, plan, lambda _: True)
    rest = remove_cards(hand, plan.laid)
    if rest is None:
        raise ValueError(missing_text(hand, plan.laid))
    if not table.has_melded(melds):
        problem = _opening_problem(state, sum(rules.value_of[c] for c in (top, *plan.laid)),
                                   via_pile=True)
        if problem:
            raise ValueError(problem)
    left = len(rest) + sum(1 for c in state.pile[:-1]
                           if not IS_RED_THREE[c] or rules.pile_red_threes_replaced)
    if left <= 1:
        problem = going_out_problem(state, plan.melds, left)
        if problem:
            raise ValueError(problem)
    if plan.melds[BLACK_THREE_RANK] is not None and left > 1:
        raise ValueError("black threes may be melded only when going out")
    return plan


def meld_problem_of(state: HandState, action: Action) -> str | None:
    """Why ``action`` (a ``meld``) is illegal now, or ``None``."""
    try:
        meld_plan(state, action)
    except ValueError as e:
        return str(e)
    return None


def meld_plan(state: HandState, action: Action) -> Plan:
    """Check a meld (RULES §1.7–§1.10, §1.13); returns its :class:`Plan` or raises
    ``ValueError``."""
    rules = state.rules
    seat = state.to_move
    hand = state.hands[seat]
    melds = state.melds[state.owner_of(seat)]
    if not action.groups:
        raise ValueError("a meld lays cards: name them")
    turn_created = state.turn.created
    plan = _laid_out(state, list(melds), action.groups, set(), Plan([], (), [], False, []),
                     lambda key: key not in turn_created)
    rest = remove_cards(hand, plan.laid)
    if rest is None:
        raise ValueError(missing_text(hand, plan.laid))
    left = len(rest)
    problem = _meld_leaves_problem(state, plan, melds, left)
    if problem is None and not table.has_melded(melds):
        problem = _opening_problem(state, sum(rules.value_of[c] for c in plan.laid), False)
        own_canasta = any(len(plan.melds[r] or ()) >= rules.canasta_size for r in plan.created)
        if problem and opening_exempt(state, seat, left, own_canasta):
            problem = None
    if problem is None and state.answer == "yes" and left > 0 and not going_out_of(
            rules).can_go_out(rest, plan.melds, discard=not state.turn.last_red_three):
        problem = ("your partner said yes: you must go out this turn, and this meld would make "
                   "it impossible")
    if problem:
        raise ValueError(problem)
    if plan.hidden:  # a canasta laid whole counts only with cards the pile did not give
        own = tuple(remove_cards(hand, state.turn.picked_up) or [])
        cards = {g.rank: g.cards for g in action.groups}
        plan.hidden = [r for r in plan.hidden if remove_cards(own, cards[r]) is not None]
    return plan


def _meld_leaves_problem(state: HandState, plan: Plan, melds: SideMelds,
                         left: int) -> str | None:
    """Why a meld may not leave ``left`` cards in hand (going out, black threes), or ``None``."""
    if left <= 1:
        problem = going_out_problem(state, plan.melds, left)
        if problem:
            return problem
    if (left > most_left_going_out(state) and plan.melds[BLACK_THREE_RANK] is not None
            and melds[BLACK_THREE_RANK] is None):
        return "black threes may be melded only when going out" + (
            " (with at most one card left to discard)" if left > 1 else
            ": after a last red three no discard follows")
    return None


def forced_take(state: HandState) -> bool:
    """RULES §1.16.3: with the stock exhausted, a matching unfrozen pile must be taken."""
    rules = state.rules
    if state.stock or not rules.stock_out_forced_take or not state.pile:
        return False
    seat = state.to_move
    top = state.pile[-1]
    if not IS_NATURAL[top] or frozen_for(state, seat):
        return False
    if state.melds[state.owner_of(seat)][RANK_OF[top]] is None:
        return False
    return not one_card_take_banned(state)


def out_from(state: HandState, seat: int, discard: bool | None = None) -> bool:
    """Whether ``seat``, having drawn or taken, can go out this turn from its hand now."""
    rules = state.rules
    melds = state.melds[state.owner_of(seat)]
    if table.has_melded(melds):
        minimum = None
        exempt = False
    else:
        minimum = state.minimum(seat)
        exempt = (rules.concealed_out_minimum_exempt_on_stock_draw
                  and not state.turn.took_pile and not state.has_melded[seat])
    if discard is None:
        discard = not state.turn.last_red_three
    return going_out_of(rules).can_go_out(state.hands[seat], melds, minimum, exempt, discard)


def out_after_any_draw(state: HandState, seat: int) -> bool:
    """Whether ``seat``, before its draw, goes out this turn whatever the stock gives: it draws
    one card and melds its whole hand, so the drawn card is the discard (RULES §1.14, asking
    before the draw). With two cards drawn nothing is sure."""
    if state.rules.draw_count != 1 or not state.stock:
        return False
    return out_from(state, seat, discard=False)  # before the draw the turn took no pile


def become_lone_hand(state: Draft, seat: int) -> None:
    """Cutthroat (RULES §2.2): the first to take the pile plays alone; the others pool melds."""
    others = [s for s in range(state.rules.num_players) if s != seat]
    keep, fold = others[0], others[1]
    melds = list(state.melds)
    pooled = [
        (None if a is None and b is None else tuple(sorted((a or ()) + (b or ()))))
        for a, b in zip(melds[keep], melds[fold])
    ]
    melds[keep] = tuple(pooled)
    melds[fold] = (None,) * len(pooled)
    hidden = list(state.hidden)
    hidden[keep] = tuple(sorted(set(hidden[keep]) | set(hidden[fold])))
    hidden[fold] = ()
    state.melds = tuple(melds)
    state.hidden = tuple(hidden)
    state.lone_hand = seat


def taken(state: HandState, action: Action) -> Draft:
    """The table after the take ``action`` (the hand not yet ended when it empties the hand).

    Raises ``ValueError`` with the rule when the take is illegal.
    """
    plan = take_plan(state, action)
    laid = plan.laid
    rules = state.rules
    seat = state.to_move
    side = seat % rules.num_sides
    owner = state.owner_of(seat)
    rest = remove_cards(state.hands[seat], laid)
    assert rest is not None
    picked = [c for c in state.pile[:-1] if not IS_RED_THREE[c]]
    reds = tuple(c for c in state.pile[:-1] if IS_RED_THREE[c])
    stock = state.stock
    red_threes = state.red_threes
    if reds:
        red_threes = with_slot(red_threes, side, red_threes[side] + reds)
        if rules.pile_red_threes_replaced:
            for _ in reds:  # replacements come from the stock while it lasts
                while stock:
                    card, stock = stock[0], stock[1:]
                    if IS_RED_THREE[card]:
                        red_threes = with_slot(red_threes, side, red_threes[side] + (card,))
                        continue
                    rest.append(card)
                    break
    rest.extend(picked)
    rest.sort()
    new = state.copy()
    new.hands = with_slot(state.hands, seat, tuple(rest))
    new.stock = stock
    new.pile = ()
    new.pile_frozen = False
    if red_threes is not state.red_threes:
        red_threes = with_slot(red_threes, side, tuple(sorted(red_threes[side])))
    new.red_threes = red_threes
    new.melds = with_slot(state.melds, owner, plan.melds)
    new.hidden = hidden_after(state, owner, plan.hidden)
    new.phase = PLAY
    new.turn = turn_info(took_pile=True, melded=False, created=tuple(plan.created),
                         extended=plan.extended, picked_up=tuple(sorted(picked)),
                         last_red_three=False)
    known = forget_known(state, seat, laid)
    if picked:
        known = with_slot(known, seat, tuple(sorted(known[seat] + tuple(picked))))
    new.known = known
    if rules.lone_hand and state.lone_hand is None:
        become_lone_hand(new, seat)
    return new


def take_problem(state: HandState, action: Action) -> str | None:
    """Why the take ``action`` may not be played now, or ``None``."""
    try:
        new = taken(state, action)
    except ValueError as e:
        return str(e)
    seat = state.to_move
    if new.hands[seat] and state.answer == "yes" and not out_from(new, seat):
        return YES_TAKE
    return None
