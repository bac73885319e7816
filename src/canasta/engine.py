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

from typing import Final

from canasta.actions import Action, format_action, parse_action
from canasta.cards import (
    IS_BLACK_THREE,
    IS_RED_THREE,
    IS_WILD,
    RANK_OF,
    rank_name,
)
from canasta.errors import IllegalActionError
from canasta.legal import ask_problem, legal_actions, take_actions
from canasta.plans import (
    YES_TAKE,
    become_lone_hand,
    forced_take,
    forget_known,
    going_out_problem,
    hidden_after,
    meld_plan,
    missing_text,
    multiset_min,
    out_after_any_draw,
    out_from,
    remove_cards,
    taken,
    with_slot,
)
from canasta.scoring import score_hand
from canasta.state import (
    ANSWER,
    DRAW,
    NEW_TURN,
    OVER,
    PLAY,
    Draft,
    HandState,
    State,
    TurnInfo,
    seal,
    turn_info,
)
from canasta.variant import fields_of


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


def _next_seat(state: HandState, seat: int) -> int:
    return (seat + 1) % state.rules.num_players


# -- draw ------------------------------------------------------------------------------------

def _draw(state: HandState, action: Action) -> Draft:
    rules = state.rules
    fields = fields_of(rules)
    stock = state.stock
    need = fields.draw_count
    if state.answer == "yes" and not out_after_any_draw(state, state.to_move):
        raise _illegal(action, "your partner said yes: you must go out this turn, and after a "
                       "draw you might not: take the pile")
    void_rule = fields.stock_exhausted_rule == "void_draw"
    if void_rule and (not stock or (rules.draw_trigger == "cannot_supply" and len(stock) < need)):
        return _end_hand(state, None, void=True)
    if not stock:
        raise _illegal(action, "the stock is exhausted: take the pile or pass")
    seat = state.to_move
    if need == 1 and not IS_RED_THREE[stock[0]] and len(stock) > 1:
        new = state.copy()  # the usual draw: one card, not a red three, more to come
        new.hands = with_slot(state.hands, seat, tuple(sorted(state.hands[seat]
                                                                        + stock[:1])))
        new.stock = stock[1:]
        new.phase = PLAY
        new.turn = NEW_TURN
        return new
    side = seat % fields.num_sides
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
    new.hands = with_slot(state.hands, seat, tuple(hand))
    new.stock = stock[pos:]
    if reds is not state.red_threes[side]:
        new.red_threes = with_slot(state.red_threes, side, tuple(sorted(reds)))
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
    if any(a.verb == "meld" for a in legal_actions(state)):
        return state
    return _end_hand(state, None)


# -- take ------------------------------------------------------------------------------------


def _take(state: HandState, action: Action) -> Draft:
    try:
        new = taken(state, action)
    except ValueError as e:
        raise _illegal(action, str(e)) from None
    seat = state.to_move
    if not new.hands[seat]:
        return _end_hand(new, seat)
    if state.answer == "yes" and not out_from(new, seat):
        raise _illegal(action, YES_TAKE)
    return new


# -- meld ------------------------------------------------------------------------------------


def _meld(state: HandState, action: Action) -> Draft:
    try:
        plan = meld_plan(state, action)
    except ValueError as e:
        raise _illegal(action, str(e)) from None
    laid = plan.laid
    seat = state.to_move
    owner = state.owner_of(seat)
    rest = remove_cards(state.hands[seat], laid)
    assert rest is not None
    turn = state.turn
    new = state.copy()
    new.hands = with_slot(state.hands, seat, tuple(rest))
    new.melds = with_slot(state.melds, owner, plan.melds)
    new.hidden = hidden_after(state, owner, plan.hidden)
    new.known = forget_known(state, seat, laid)
    new.turn = turn_info(
        took_pile=turn.took_pile, melded=True, created=turn.created + tuple(plan.created),
        extended=turn.extended or plan.extended,
        picked_up=multiset_min(turn.picked_up, rest) if turn.picked_up else (),
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
        raise _illegal(action, missing_text(hand, (card,)))
    rules = state.rules
    if state.turn.last_red_three:
        raise _illegal(action, "the stock's last card was a red three: you may meld, but not "
                       "discard ('pass' ends the hand)")
    if len(hand) == 1:
        problem = going_out_problem(state, state.melds[state.owner_of(seat)], 0, True)
        if problem:
            raise _illegal(action, problem)
    elif state.answer == "yes":
        raise _illegal(action, "your partner said yes: you must go out this turn")
    i = hand.index(card)
    rest = hand[:i] + hand[i + 1:]
    turn = state.turn
    new = state.copy()
    new.hands = with_slot(state.hands, seat, rest)
    new.pile = state.pile + (card,)
    if not state.pile_frozen and ((IS_WILD[card] and rules.pile_frozen_by_wild) or (
            IS_BLACK_THREE[card] and rules.black_three_freezes_pile)):
        new.pile_frozen = True
    new.known = forget_known(state, seat, (card,))
    if not rest:
        return _end_hand(new, seat)
    if (turn.created or turn.extended) and not state.has_melded[seat]:
        new.has_melded = with_slot(state.has_melded, seat, True)
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
    if forced_take(state) and take_actions(state):
        top = state.pile[-1]
        raise _illegal(action, "with the stock exhausted you must take the pile: its top card "
                       f"matches your side's meld of {rank_name(RANK_OF[top])}")
    return _end_hand(state, None)


def _ask(state: HandState, action: Action) -> Draft:
    problem = ask_problem(state)
    if problem:
        raise _illegal(action, problem)
    seat = state.to_move
    new = state.copy()
    new.asks = with_slot(state.asks, seat, state.asks[seat] + 1)
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
        become_lone_hand(new, went_out)
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
