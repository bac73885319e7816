"""The rules in motion: apply an action to a state and get the next state (RULES §1–§4).

:func:`apply` checks the action against the rules first; an illegal action raises
:class:`~canasta.errors.IllegalActionError` naming the rule, and the state it was given is never
changed (states are values). The legal actions themselves are listed by :mod:`canasta.legal`.

>>> from canasta import new_hand, get_rules
>>> s = new_hand(get_rules("classic"), seed=1)
>>> s.phase, len(s.hands[s.to_move])
('draw', 11)
>>> apply(s, "draw").phase
'play'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from canasta.actions import MIXED_RANK, NO_RANK, Action, Group, format_action, parse_action
from canasta.cards import (
    BLACK_THREE_RANK,
    IS_BLACK_THREE,
    IS_NATURAL,
    IS_RED_THREE,
    IS_WILD,
    RANK_OF,
    Card,
    Rank,
    rank_name,
)
from canasta.errors import IllegalActionError
from canasta.melds import black_three_problem, can_go_out, meld_problem, split_counts
from canasta.scoring import score_hand
from canasta.state import (
    ANSWER,
    DRAW,
    NEW_TURN,
    OVER,
    PLAY,
    Draft,
    HandState,
    Meld,
    SideMelds,
    State,
    TurnInfo,
    seal,
)


def apply(state: HandState, action: Action | str) -> State:
    """The state after ``action`` (an :class:`~canasta.actions.Action` or its text).

    Raises :class:`~canasta.errors.IllegalActionError` if the rules forbid it (the given state is
    untouched) and :class:`~canasta.errors.NotationError` if the text cannot be parsed.
    """
    if isinstance(action, str):
        action = parse_action(action)
    handler = _HANDLERS.get(action.verb)
    if handler is None:
        raise _illegal(action, f"unknown verb {action.verb!r}")
    if state.phase not in _PHASES_OF[action.verb]:
        raise _illegal(action, _wrong_phase(state, action))
    return seal(handler(state, action))


def check(state: HandState, action: Action | str) -> None:
    """Raise :class:`~canasta.errors.IllegalActionError` if ``action`` is not legal in ``state``."""
    apply(state, action)


def is_legal(state: HandState, action: Action | str) -> bool:
    """True when ``action`` may be played in ``state``."""
    try:
        apply(state, action)
    except IllegalActionError:
        return False
    return True


# -- helpers ---------------------------------------------------------------------------------

def _illegal(action: Action, reason: str) -> IllegalActionError:
    return IllegalActionError(format_action(action), reason)


_PHASES_OF = {"draw": (DRAW,), "take": (DRAW,), "meld": (PLAY,), "discard": (PLAY,),
              "yes": (ANSWER,), "no": (ANSWER,),
              # the handlers say when: asking before the draw (``ask_before_draw``), passing
              # after a last red three (``last_red_three_may_meld``)
              "ask": (PLAY, DRAW), "pass": (DRAW, PLAY)}


def _wrong_phase(state: HandState, action: Action) -> str:
    phase, verb = state.phase, action.verb
    if phase == OVER:
        return "the hand is over"
    if phase == ANSWER:
        return "your partner asked to go out: the answer is 'yes' or 'no'"
    if verb in ("yes", "no"):
        return "nobody asked to go out"
    if phase == PLAY:
        if verb == "take":
            return "the pile may only be taken instead of drawing, at the start of the turn"
        if verb == "draw":
            return "you have already drawn this turn"
        return "'pass' is only for declining the pile once the stock is exhausted"
    return "the turn starts with 'draw' or 'take'" + (
        " (or 'pass' when the stock is exhausted)" if not state.stock else "")


def remove_cards(hand: tuple[Card, ...], cards: Sequence[Card]) -> list[Card] | None:
    """``hand`` without ``cards`` (as multisets), or ``None`` if the hand lacks one of them."""
    rest = list(hand)
    try:
        for c in cards:
            rest.remove(c)
    except ValueError:
        return None
    return rest


def _missing(hand: tuple[Card, ...], cards: Sequence[Card]) -> str:
    from canasta.cards import format_card

    rest = list(hand)
    for c in cards:
        if c in rest:
            rest.remove(c)
        else:
            return f"you hold no {format_card(c)}" + (" to spare" if c in hand else "")
    return "cards missing"


def _multiset_min(a: Sequence[Card], b: Sequence[Card]) -> tuple[Card, ...]:
    """The cards common to ``a`` and ``b`` (multiset intersection), sorted."""
    rest = list(b)
    out = []
    for c in a:
        if c in rest:
            rest.remove(c)
            out.append(c)
    return tuple(sorted(out))


def _with_slot(tup: tuple, index: int, value: object) -> tuple:  # type: ignore[type-arg]
    return tup[:index] + (value,) + tup[index + 1:]


def _next_seat(state: HandState, seat: int) -> int:
    return (seat + 1) % state.rules.num_players


def _frozen_for(state: HandState, seat: int) -> bool:
    """RULES §1.11: frozen for everyone, or for a side that has not melded."""
    return state.freeze_for(seat).frozen


def _group_problem(group: Group) -> str | None:
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


def _merged(existing: Meld | None, cards: Sequence[Card]) -> Meld:
    if existing is None:
        return tuple(sorted(cards))
    return tuple(sorted(existing + tuple(cards)))


def _check_meld_group(state: HandState, melds: SideMelds, group: Group) -> tuple[Meld, bool]:
    """Validate one group onto the side's melds; returns (new meld, joined an existing meld).

    Raises ``ValueError`` with the reason.
    """
    problem = _group_problem(group)
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
    if existing is None and naturals < rules.min_naturals_per_meld:
        # a card offered to a meld of another rank reads as a new meld of its own rank
        raise ValueError(f"your side has no meld of {rank_name(rank)} to add to, and a new "
                         f"meld needs at least {rules.min_naturals_per_meld} natural cards")
    en, ew = split_counts(existing) if existing is not None else (0, 0)
    problem = meld_problem(rules, en + naturals, ew + wilds, adds_wilds=wilds > 0)
    if problem:
        raise ValueError(problem)
    return _merged(existing, group.cards), existing is not None


def _canastas_in(state: HandState, melds: SideMelds) -> int:
    size = state.rules.canasta_size
    return sum(1 for m in melds if m is not None and len(m) >= size)


def _going_out_problem(state: HandState, melds: SideMelds, cards_left: int,
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
    need = rules.min_canastas_to_go_out
    if _canastas_in(state, melds) < need:
        what = "a canasta" if need == 1 else f"{need} canastas"
        if cards_left == 0:
            return f"going out needs {what} on your side's table"
        return (f"this would leave one card, and going out needs {what}: "
                "keep at least one card after discarding")
    return None


def _opening_exempt(state: HandState, seat: int, cards_left: int, created_canasta: bool) -> bool:
    """RULES §1.10 exception: a concealed going out after a stock draw needs no minimum."""
    rules = state.rules
    return (rules.concealed_out_minimum_exempt_on_stock_draw and not state.turn.took_pile
            and not state.has_melded[seat] and cards_left <= _most_left_going_out(state)
            and (created_canasta or not rules.concealed_requires_own_canasta))


def _most_left_going_out(state: HandState) -> int:
    """Cards a meld may leave and still go out: the one to discard, or none when no discard
    follows (a last red three the rules let the player meld on, RULES §1.16.1)."""
    return 0 if state.turn.last_red_three else 1


def _hidden_after(state: HandState, owner: int,
                  new_hidden: list[Rank]) -> tuple[tuple[Rank, ...], ...]:
    if not new_hidden:
        return state.hidden
    return _with_slot(state.hidden, owner, tuple(sorted(state.hidden[owner] + tuple(new_hidden))))


def _forget_known(state: HandState, seat: int,
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
    return _with_slot(state.known, seat, tuple(rest))


# -- draw ------------------------------------------------------------------------------------

def _draw(state: HandState, action: Action) -> Draft:
    rules = state.rules
    stock = state.stock
    need = rules.draw_count
    if state.answer == "yes" and not out_after_any_draw(state, state.to_move):
        raise _illegal(action, "your partner said yes: you must go out this turn, and after a "
                       "draw you might not: take the pile")
    void_rule = rules.stock_exhausted_rule == "void_draw"
    if void_rule and (not stock or (rules.draw_trigger == "cannot_supply" and len(stock) < need)):
        return _end_hand(state, None, void=True)
    if not stock:
        raise _illegal(action, "the stock is exhausted: take the pile or pass")
    seat = state.to_move
    if need == 1 and not IS_RED_THREE[stock[0]] and len(stock) > 1:
        new = state.copy()  # the usual draw: one card, not a red three, more to come
        new.hands = _with_slot(state.hands, seat, tuple(sorted(state.hands[seat]
                                                                        + stock[:1])))
        new.stock = stock[1:]
        new.phase = PLAY
        new.turn = NEW_TURN
        return new
    side = seat % rules.num_sides
    hand = list(state.hands[seat])
    reds = state.red_threes[side]
    pos = gained = 0
    while need:
        if pos == len(stock):
            break
        card = stock[pos]
        pos += 1
        need -= 1
        if IS_RED_THREE[card]:
            reds = reds + (card,)
            need += 1
        else:
            hand.append(card)
            gained += 1
    new = state.copy()
    hand.sort()
    new.hands = _with_slot(state.hands, seat, tuple(hand))
    new.stock = stock[pos:]
    if reds is not state.red_threes[side]:
        new.red_threes = _with_slot(state.red_threes, side, tuple(sorted(reds)))
    new.phase = PLAY
    new.turn = NEW_TURN
    if pos == len(stock):
        if void_rule and (need or rules.draw_trigger == "stock_empty"):
            # no replacement for a red three (the drawn cards stay drawn: they may score)
            return _end_hand(new, None, void=True)
        if gained == 0 and rules.red_three_last_card_ends_hand:
            # RULES §1.16.1: a red three was the last card
            if not rules.last_red_three_may_meld:
                return _end_hand(new, None)
            new.turn = TurnInfo(last_red_three=True)
            return _end_unless_melds_left(new)
    return new


def _end_unless_melds_left(state: Draft) -> Draft:
    """After a last red three (``last_red_three_may_meld``): the hand ends once nothing more
    can be melded."""
    from canasta.legal import legal_actions

    if any(a.verb == "meld" for a in legal_actions(state)):
        return state
    return _end_hand(state, None)


# -- take ------------------------------------------------------------------------------------

def one_card_take_banned(state: HandState) -> bool:
    """RULES §1.12.6: the player to move holds one card, the pile is one card, and the rules
    forbid that take now (``one_card_pile_take_ban``: always, or once the stock is out)."""
    ban = state.rules.one_card_pile_take_ban
    if ban == "never" or len(state.pile) != 1 or len(state.hands[state.to_move]) != 1:
        return False
    return ban == "always" or not state.stock


def _take_plan(state: HandState, action: Action) -> tuple[list[Card], SideMelds, list[Rank], bool,
                                                        list[Rank]]:
    """Check a take; returns (cards laid from hand, new melds, ranks created, extended, hidden)."""
    rules = state.rules
    pile = state.pile
    seat = state.to_move
    hand = state.hands[seat]
    if not pile:
        raise ValueError("the pile is empty")
    top = pile[-1]
    if IS_BLACK_THREE[top]:
        raise ValueError("the pile is blocked: a black three is on top")
    if IS_WILD[top]:
        raise ValueError("the pile is blocked: a wild card is on top")
    if IS_RED_THREE[top]:
        raise ValueError("the pile is blocked: a red three is on top")
    if one_card_take_banned(state):
        raise ValueError("a player holding one card may not take a pile of one card" + (
            " once the stock is exhausted" if rules.one_card_pile_take_ban == "stock_out"
            else ""))
    rank = RANK_OF[top]
    owner = state.owner_of(seat)
    melds = state.melds[owner]
    existing = melds[rank]
    side_melded = any(m is not None for m in melds)
    groups = action.groups
    first = groups[0] if groups else Group(rank, ())
    if first.cards:
        if any(IS_RED_THREE[c] or IS_BLACK_THREE[c] for c in first.cards) or first.rank not in (
                rank, NO_RANK):
            raise ValueError(f"the cards shown with the top card must be {rank_name(rank)} or "
                             "wild cards")
    naturals, wilds = split_counts(first.cards)
    freeze = state.freeze_for(seat)
    if freeze.frozen:
        if naturals < 2:
            raise ValueError(f"pile is frozen ({freeze.reason}): a natural pair of "
                             f"{rank_name(rank)} is needed")
    elif naturals >= 2:
        pass
    elif existing is not None and rules.unfrozen_take_by_adding_to_meld:
        pass
    elif naturals == 1 and wilds >= 1 and rules.unfrozen_take_natural_plus_wild:
        pass
    else:
        options = "a natural pair" + (
            ", or a natural card and a wild card," if rules.unfrozen_take_natural_plus_wild else "")
        raise ValueError(f"{options} of {rank_name(rank)} is needed to take the pile")
    laid: list[Card] = list(first.cards)
    en, ew = split_counts(existing) if existing is not None else (0, 0)
    problem = meld_problem(rules, en + naturals + 1, ew + wilds, adds_wilds=wilds > 0)
    if problem:
        raise ValueError(problem)
    new_melds = list(melds)
    new_melds[rank] = _merged(existing, (top, *first.cards))
    created: list[Rank] = [] if existing is not None else [rank]
    extended = existing is not None
    hidden: list[Rank] = []
    counts_hidden = rules.hidden_canasta_bonus > 0
    if counts_hidden and existing is None and len(new_melds[rank] or ()) >= rules.canasta_size:
        hidden.append(rank)
    seen = {rank}
    for group in groups[1:]:
        if group.rank in seen:
            raise ValueError(f"two groups of {rank_name(group.rank)} in one action")
        seen.add(group.rank)
        meld, joined = _check_meld_group(state, tuple(new_melds), group)
        if joined:
            extended = True
        else:
            created.append(group.rank)
            if counts_hidden and len(meld) >= rules.canasta_size:
                hidden.append(group.rank)
        new_melds[group.rank] = meld
        laid.extend(group.cards)
    rest = remove_cards(hand, laid)
    if rest is None:
        raise ValueError(_missing(hand, laid))
    if not side_melded:
        value = rules.value_of
        total = value[top] + sum(value[c] for c in laid)
        minimum = state.minimum(seat)
        if total < minimum:
            raise ValueError(f"opening meld counts {total} (top card and cards from the hand), "
                             f"below the minimum of {minimum}")
    left = len(rest) + sum(1 for c in pile[:-1]
                           if not IS_RED_THREE[c] or rules.pile_red_threes_replaced)
    melds_after: SideMelds = tuple(new_melds)
    if left <= 1:
        problem = _going_out_problem(state, melds_after, left)
        if problem:
            raise ValueError(problem)
    if melds_after[BLACK_THREE_RANK] is not None and left > 1:
        raise ValueError("black threes may be melded only when going out")
    return laid, melds_after, created, extended, hidden


def _take(state: HandState, action: Action) -> Draft:
    try:
        laid, melds_after, created, extended, hidden = _take_plan(state, action)
    except ValueError as e:
        raise _illegal(action, str(e)) from None
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
        red_threes = _with_slot(red_threes, side, red_threes[side] + reds)
        if rules.pile_red_threes_replaced:
            for _ in reds:  # replacements come from the stock while it lasts
                while stock:
                    card, stock = stock[0], stock[1:]
                    if IS_RED_THREE[card]:
                        red_threes = _with_slot(red_threes, side, red_threes[side] + (card,))
                        continue
                    rest.append(card)
                    break
    rest.extend(picked)
    rest.sort()
    new = state.copy()
    new.hands = _with_slot(state.hands, seat, tuple(rest))
    new.stock = stock
    new.pile = ()
    new.pile_frozen = False
    if red_threes is not state.red_threes:
        red_threes = _with_slot(red_threes, side, tuple(sorted(red_threes[side])))
    new.red_threes = red_threes
    new.melds = _with_slot(state.melds, owner, melds_after)
    new.hidden = _hidden_after(state, owner, hidden)
    new.phase = PLAY
    new.turn = TurnInfo(took_pile=True, created=tuple(created), extended=extended,
                               picked_up=tuple(sorted(picked)))
    known = _forget_known(state, seat, laid)
    if picked:
        known = _with_slot(known, seat, tuple(sorted(known[seat] + tuple(picked))))
    new.known = known
    if rules.lone_hand and state.lone_hand is None:
        _become_lone_hand(new, seat)
    if not rest:
        return _end_hand(new, seat)
    if state.answer == "yes" and not _out_from(new, seat):
        raise _illegal(action, "your partner said yes: you must go out this turn, and this take "
                       "would make it impossible")
    return new


def _become_lone_hand(state: Draft, seat: int) -> None:
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


# -- meld ------------------------------------------------------------------------------------

def meld_problem_of(state: HandState, action: Action) -> str | None:
    """Why ``action`` (a ``meld``) is illegal now, or ``None``."""
    try:
        _meld_plan(state, action)
    except ValueError as e:
        return str(e)
    return None


def _meld_plan(state: HandState, action: Action) -> tuple[list[Card], SideMelds, list[Rank], bool,
                                                        list[Rank]]:
    rules = state.rules
    seat = state.to_move
    hand = state.hands[seat]
    owner = state.owner_of(seat)
    melds = state.melds[owner]
    side_melded = any(m is not None for m in melds)
    new_melds = list(melds)
    laid: list[Card] = []
    created: list[Rank] = []
    extended = False
    hidden_candidates: list[tuple[Rank, tuple[Card, ...]]] = []
    seen: set[Rank] = set()
    turn_created = state.turn.created
    if not action.groups:
        raise ValueError("a meld lays cards: name them")
    for group in action.groups:
        if group.rank in seen:
            raise ValueError(f"two groups of {rank_name(group.rank)} in one action")
        seen.add(group.rank)
        meld, joined = _check_meld_group(state, tuple(new_melds), group)
        if joined:
            if group.rank not in turn_created:
                extended = True
        else:
            created.append(group.rank)
            if len(meld) >= rules.canasta_size:
                hidden_candidates.append((group.rank, group.cards))
        new_melds[group.rank] = meld
        laid.extend(group.cards)
    rest = remove_cards(hand, laid)
    if rest is None:
        raise ValueError(_missing(hand, laid))
    left = len(rest)
    melds_after: SideMelds = tuple(new_melds)
    if left <= 1:
        problem = _going_out_problem(state, melds_after, left)
        if problem:
            raise ValueError(problem)
    if (left > _most_left_going_out(state) and melds_after[BLACK_THREE_RANK] is not None
            and melds[BLACK_THREE_RANK] is None):
        raise ValueError("black threes may be melded only when going out" + (
            " (with at most one card left to discard)" if left > 1 else
            ": after a last red three no discard follows"))
    if not side_melded:
        total = sum(rules.value_of[c] for c in laid)
        minimum = state.minimum(seat)
        if total < minimum:
            own_canasta = any(
                melds_after[r] is not None and len(melds_after[r] or ()) >= rules.canasta_size
                for r in created)
            if not _opening_exempt(state, seat, left, own_canasta):
                raise ValueError(f"opening meld counts {total}, below the minimum of {minimum}")
    if state.answer == "yes" and left > 0:
        if not can_go_out(rules, rest, melds_after, None, False,
                          discard=not state.turn.last_red_three):
            raise ValueError("your partner said yes: you must go out this turn, and this meld "
                             "would make it impossible")
    hidden: list[Rank] = []
    if rules.hidden_canasta_bonus and hidden_candidates:
        own = remove_cards(hand, state.turn.picked_up) or []
        for rank, cards in hidden_candidates:
            if remove_cards(tuple(own), cards) is not None:
                hidden.append(rank)
    return laid, melds_after, created, extended, hidden


def _meld(state: HandState, action: Action) -> Draft:
    try:
        laid, melds_after, created, extended, hidden = _meld_plan(state, action)
    except ValueError as e:
        raise _illegal(action, str(e)) from None
    seat = state.to_move
    owner = state.owner_of(seat)
    rest = remove_cards(state.hands[seat], laid)
    assert rest is not None
    turn = state.turn
    new = state.copy()
    new.hands = _with_slot(state.hands, seat, tuple(rest))
    new.melds = _with_slot(state.melds, owner, melds_after)
    new.hidden = _hidden_after(state, owner, hidden)
    new.known = _forget_known(state, seat, laid)
    new.turn = TurnInfo(
        took_pile=turn.took_pile, melded=True, created=turn.created + tuple(created),
        extended=turn.extended or extended,
        picked_up=_multiset_min(turn.picked_up, rest) if turn.picked_up else (),
        last_red_three=turn.last_red_three)
    if not rest:
        return _end_hand(new, seat)
    if turn.last_red_three:
        return _end_unless_melds_left(new)
    return new


# -- discard ---------------------------------------------------------------------------------

def _discard(state: HandState, action: Action) -> Draft:
    seat = state.to_move
    hand = state.hands[seat]
    card = action.card
    if card not in hand:
        raise _illegal(action, _missing(hand, (card,)))
    rules = state.rules
    if state.turn.last_red_three:
        raise _illegal(action, "the stock's last card was a red three: you may meld, but not "
                       "discard ('pass' ends the hand)")
    if len(hand) == 1:
        problem = _going_out_problem(state, state.melds[state.owner_of(seat)], 0, True)
        if problem:
            raise _illegal(action, problem)
    elif state.answer == "yes":
        raise _illegal(action, "your partner said yes: you must go out this turn")
    i = hand.index(card)
    rest = hand[:i] + hand[i + 1:]
    turn = state.turn
    new = state.copy()
    new.hands = _with_slot(state.hands, seat, rest)
    new.pile = state.pile + (card,)
    if not state.pile_frozen and ((IS_WILD[card] and rules.pile_frozen_by_wild) or (
            IS_BLACK_THREE[card] and rules.black_three_freezes_pile)):
        new.pile_frozen = True
    new.known = _forget_known(state, seat, (card,))
    if not rest:
        return _end_hand(new, seat)
    if (turn.created or turn.extended) and not state.has_melded[seat]:
        new.has_melded = _with_slot(state.has_melded, seat, True)
    new.to_move = _next_seat(state, seat)
    new.phase = DRAW
    new.turn = NEW_TURN
    new.answer = None
    return start_turn(new)


def start_turn(state: Draft) -> Draft:
    """End the hand at once when the player to move cannot go on (RULES §1.16, §3.3, §2.2)."""
    rules = state.rules
    stock = len(state.stock)
    if stock >= rules.draw_count:
        return state
    from canasta.legal import take_actions

    rule = rules.stock_exhausted_rule
    if rule == "void_draw":
        if rules.draw_trigger == "stock_empty" or take_actions(state):
            return state
        return _end_hand(state, None, void=True)
    if stock > 0:
        return state  # a partial draw is still possible
    if rule == "end_after_last_discard" or not take_actions(state):
        return _end_hand(state, None)
    return state


# -- pass, ask, answer -----------------------------------------------------------------------

def forced_take(state: HandState) -> bool:
    """RULES §1.16.3: with the stock exhausted, a matching unfrozen pile must be taken."""
    rules = state.rules
    if state.stock or not rules.stock_out_forced_take or not state.pile:
        return False
    seat = state.to_move
    top = state.pile[-1]
    if not IS_NATURAL[top] or _frozen_for(state, seat):
        return False
    if state.melds[state.owner_of(seat)][RANK_OF[top]] is None:
        return False
    return not one_card_take_banned(state)


def _pass(state: HandState, action: Action) -> Draft:
    if state.phase == PLAY:
        if not state.turn.last_red_three:
            raise _illegal(action, "'pass' is only for declining the pile once the stock is "
                           "exhausted, or for ending the hand after a last red three")
        if state.answer == "yes":
            raise _illegal(action, "your partner said yes: you must go out this turn")
        return _end_hand(state, None)  # RULES §1.16.1: done melding after a last red three
    if state.answer == "yes":
        raise _illegal(action, "your partner said yes: you must go out this turn")
    if state.stock:
        raise _illegal(action, "'pass' is only allowed once the stock is exhausted")
    if state.rules.stock_exhausted_rule == "void_draw":
        raise _illegal(action, "under these rules 'draw' with a short stock ends the hand")
    from canasta.legal import take_actions

    if forced_take(state) and take_actions(state):
        top = state.pile[-1]
        raise _illegal(action, "with the stock exhausted you must take the pile: its top card "
                       f"matches your side's meld of {rank_name(RANK_OF[top])}")
    return _end_hand(state, None)


def ask_problem(state: HandState) -> str | None:
    """Why the player to move may not ask "partner, may I go out?" now, or ``None`` (§1.14)."""
    rules = state.rules
    seat = state.to_move
    if not rules.permission_question_enabled:
        return "there is no partner to ask under these rules"
    if state.phase == DRAW:
        if not rules.ask_before_draw:
            return "the partner is asked after the draw (these rules do not allow it before)"
    elif state.turn.melded:
        return "the partner is asked before the first meld of the turn"
    if state.answer is not None:
        return "you have already asked this turn"
    if state.phase == PLAY and len(state.hands[seat]) < 2:
        return "with one card left you must go out: there is nothing to ask"
    limit = rules.permission_asks_per_hand
    if limit is not None and state.asks[seat] >= limit:
        return f"the partner may be asked only {limit} time(s) per hand"
    if not could_go_out(state, seat):
        return "only a player who could go out this turn may ask" + (
            " (before the draw: whatever the stock gives, or by taking the pile)"
            if state.phase == DRAW else "")
    return None


def could_go_out(state: HandState, seat: int) -> bool:
    """Whether ``seat``, playing its turn in ``state``, can still go out this turn (with the
    opening minimum or its concealed exemption when its side has not melded), whatever its
    partner would answer.

    Before the draw (a question asked first, ``ask_before_draw``) that means whatever the stock
    gives (:func:`out_after_any_draw`) or by a take of the pile.
    """
    if state.phase == DRAW or (state.phase == ANSWER and state.turn.asked_before_draw):
        return out_after_any_draw(state, seat) or _out_by_a_take(state, seat)
    return _out_from(state, seat)


def _out_from(state: HandState, seat: int, discard: bool | None = None) -> bool:
    """Whether ``seat``, having drawn or taken, can go out this turn from its hand now."""
    rules = state.rules
    melds = state.melds[state.owner_of(seat)]
    size = rules.canasta_size
    longest = max((len(m) for m in melds if m is not None), default=0)
    have = sum(1 for m in melds if m is not None and len(m) >= size)
    if have < rules.min_canastas_to_go_out and longest + len(state.hands[seat]) < size:
        return False  # no canasta within reach
    side_melded = longest > 0
    minimum = None if side_melded else state.minimum(seat)
    exempt = (not side_melded and rules.concealed_out_minimum_exempt_on_stock_draw
              and not state.turn.took_pile and not state.has_melded[seat])
    if discard is None:
        discard = not state.turn.last_red_three
    return can_go_out(rules, state.hands[seat], melds, minimum, exempt, discard=discard)


def out_after_any_draw(state: HandState, seat: int) -> bool:
    """Whether ``seat``, before its draw, goes out this turn whatever the stock gives: it draws
    one card and melds its whole hand, so the drawn card is the discard (RULES §1.14, asking
    before the draw). With two cards drawn nothing is sure."""
    if state.rules.draw_count != 1 or not state.stock:
        return False
    return _out_from(state, seat, discard=False)  # before the draw the turn took no pile


def _out_by_a_take(state: HandState, seat: int) -> bool:
    """Whether ``seat``, before its draw, can take the pile and then go out this turn."""
    from canasta.legal import take_actions

    probe = state
    if state.phase != DRAW or state.to_move != seat or state.answer is not None:
        draft = state.copy()
        draft.phase, draft.to_move, draft.answer, draft.turn = DRAW, seat, None, NEW_TURN
        probe = seal(draft)
    for take in take_actions(probe):
        after = apply(probe, take)
        if after.is_over or _out_from(after, seat):
            return True
    return False


def _ask(state: HandState, action: Action) -> Draft:
    problem = ask_problem(state)
    if problem:
        raise _illegal(action, problem)
    seat = state.to_move
    new = state.copy()
    new.asks = _with_slot(state.asks, seat, state.asks[seat] + 1)
    if state.phase == DRAW:
        new.turn = TurnInfo(asked_before_draw=True)
    new.phase = ANSWER
    new.to_move = partner_to_answer(state, seat)
    return new


def partner_to_answer(state: HandState, seat: int) -> int:
    """The partner who answers ``seat``'s question: the next seat of the same side."""
    return (seat + state.rules.num_sides) % state.rules.num_players


def asker_of(state: HandState) -> int:
    """In the ``answer`` phase, the seat that asked."""
    return (state.to_move - state.rules.num_sides) % state.rules.num_players


def _answer(state: HandState, action: Action) -> Draft:
    new = state.copy()
    new.to_move = asker_of(state)
    if state.turn.asked_before_draw:
        new.phase = DRAW  # the answer binds the whole turn, from its draw on
        new.turn = NEW_TURN
    else:
        new.phase = PLAY
    new.answer = action.verb
    if state.turn.last_red_three and action.verb == "no":
        return _end_unless_melds_left(new)
    return new


# -- the end of the hand ---------------------------------------------------------------------

def _end_hand(state: HandState, went_out: int | None, void: bool = False) -> Draft:
    concealed = went_out is not None and _is_concealed(state, went_out)
    new = state.copy()
    new.phase = OVER
    if went_out is not None and state.rules.lone_hand and new.lone_hand is None:
        _become_lone_hand(new, went_out)
    new.result = score_hand(new, went_out, concealed, void)
    return new


def _is_concealed(state: HandState, seat: int) -> bool:
    """RULES §1.15, judged when ``seat`` empties the hand."""
    rules = state.rules
    if state.has_melded[seat]:
        return False
    turn = state.turn
    if turn.took_pile and not rules.concealed_allows_pile_take:
        return False
    if turn.extended and rules.concealed_forbids_adding_to_partner_melds:
        return False
    if rules.concealed_requires_own_canasta:
        melds = state.melds[state.owner_of(seat)]
        size = rules.canasta_size
        if not any((m := melds[r]) is not None and len(m) >= size for r in turn.created):
            return False
    return True


_HANDLERS: Final = {"draw": _draw, "take": _take, "meld": _meld, "discard": _discard, "ask": _ask,
             "yes": _answer, "no": _answer, "pass": _pass}
