"""A turn of Hand and Foot: why an action is refused, and the deal after it (HF §3–§11).

:func:`play` is the one source of the rules of a turn: :func:`apply` raises its refusal,
:func:`problem` returns it, and the legal list keeps the actions it accepts.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from canasta.actions import MIXED_RANK, NO_RANK, Action, Group
from canasta.cards import (
    BLACK_THREE_RANK,
    IS_BLACK_THREE,
    IS_NATURAL,
    IS_RED_THREE,
    IS_WILD,
    JOKER,
    RANK_OF,
    Card,
    format_card,
    rank_name,
)
from canasta.errors import IllegalActionError
from canasta.hand_and_foot.action_text import format_action
from canasta.hand_and_foot.deal import (
    IN_FOOT,
    IN_HAND,
    PENDING,
    WILD_MELD,
    Deal,
    Melds,
    lay_red_threes,
)
from canasta.hand_and_foot.going_out import book_counts, can_go_out, enough_books
from canasta.hand_and_foot.knobs import BOOK
from canasta.hand_and_foot.melds import key_name, place
from canasta.hand_and_foot.scoring import ended


def minimum(deal: Deal, side: int) -> int:
    """The opening count ``side`` needs in this deal (HF §6.1)."""
    return deal.knobs.minimum(deal.number, deal.scores[side])


def out_problem(deal: Deal, seat: int, books: Sequence[tuple[Card, ...]]) -> str | None:
    """Why ``seat`` may not go out with its side owning ``books``, or ``None`` (HF §10.1)."""
    knobs = deal.knobs
    if deal.foot_state[seat] != IN_FOOT:
        return "you go out only from your foot"
    if not enough_books(knobs, book_counts(books)):
        clean, dirty, wild = knobs.books_to_go_out
        need = f"{clean} clean and {dirty} dirty books" + (f" and {wild} wild" if wild else "")
        return f"to go out your side needs {need}"
    partner = partner_problem(deal, seat)
    if partner is not None:
        return partner
    if knobs.permission_required and knobs.partnership and deal.answer != "yes":
        # the question is asked once a turn: after "no" asking again is no way out
        return ("your partner said no: you may not go out this turn" if deal.answer == "no"
                else "ask your partner before going out")
    return None


def partner_problem(deal: Deal, seat: int) -> str | None:
    """Why ``seat``'s partners keep it from going out (HF §10.1c), or ``None``."""
    need = deal.knobs.partner_foot_requirement
    for p in deal.partners_of(seat):
        if need == "picked_up" and deal.foot_state[p] != IN_FOOT:
            return "your partner has not picked up the foot yet"
        if need == "played_from" and not deal.played_from_foot[p]:
            return "your partner has not played from the foot yet"
    return None


def could_go_out(deal: Deal, seat: int, held: Sequence[Card]) -> bool:
    """Whether ``seat`` has a line that goes out this turn with ``held`` (permission aside)."""
    side = deal.side_of(seat)
    if deal.foot_state[seat] != IN_FOOT or partner_problem(deal, seat) is not None:
        return False
    need = None if deal.opened(side) else minimum(deal, side)
    return can_go_out(deal.knobs, held, deal.melds[side], deal.books[side], need,
                      deal.rules.value_of)


def discard_problem(deal: Deal, held: Sequence[Card], card: Card) -> str | None:
    """Why ``card`` may not be discarded from ``held`` by the rules of the card alone."""
    if IS_RED_THREE[card] and deal.knobs.red_three_mode == "bonus":
        return "red threes are laid, never discarded"
    if IS_WILD[card] and not deal.knobs.wild_discard_allowed and not all(
            IS_WILD[c] for c in held):
        return "these rules forbid discarding a wild card"
    return None


def _taken(held: Sequence[Card], cards: Sequence[Card]) -> list[Card] | None:
    """``held`` less ``cards``, or ``None`` when ``held`` lacks some of them."""
    left = list(held)
    for c in cards:
        try:
            left.remove(c)
        except ValueError:
            return None
    return left


def _group_key(group: Group) -> int | str:
    """The meld key a group is laid on, or why it names none."""
    if group.rank == WILD_MELD:
        return WILD_MELD
    if group.rank == NO_RANK:
        return "wild cards alone name the meld they join: 'meld K: 2c' (or 'W:' for a meld " \
               "of wild cards)"
    if group.rank == BLACK_THREE_RANK or any(IS_BLACK_THREE[c] for c in group.cards):
        return "black threes are never melded"
    if group.rank == MIXED_RANK or any(IS_RED_THREE[c] for c in group.cards):
        return "a meld is of one rank (threes are never melded)"
    return group.rank


def _lay(deal: Deal, side: int, groups: Sequence[tuple[int, Sequence[Card]]],
         ) -> tuple[Melds, tuple[tuple[Card, ...], ...]] | str:
    """The side's melds and books after laying ``groups`` (key, cards), or why not."""
    knobs = deal.knobs
    melds = list(deal.melds[side])
    books = list(deal.books[side])
    for key, cards in groups:
        placed = place(knobs, tuple(melds), books, key, cards)
        if isinstance(placed, str):
            return f"{key_name(key)}: {placed}"
        meld, made, joined = placed
        if joined >= 0:
            books[joined] = tuple(sorted((*books[joined], *cards)))
            continue
        melds[key] = meld
        books.extend(made)
    return tuple(melds), tuple(books)


def _turn_over(deal: Deal) -> Deal:
    """The next player's turn, or the end of the deal when the stock has run out (HF §11)."""
    knobs = deal.knobs
    rule = knobs.stock_exhausted_rule
    if not deal.stock and (rule == "end_after_last_discard" or (
            rule == "reshuffle_pile" and len(deal.pile) < 2)):
        return ended(deal, None)
    seat = (deal.to_move + 1) % deal.rules.num_players
    after = deal.but(to_move=seat, phase="draw", asked=False, answer=None, stock_out=False)
    if after.foot_state[seat] == PENDING:
        after = _pick_up_foot(after, seat)
    return after


def _pick_up_foot(deal: Deal, seat: int) -> Deal:
    """``seat`` picks up its foot; red threes in it are laid and replaced (HF §9)."""
    cards = list(deal.feet[seat])
    stock = list(deal.stock)
    laid = list(deal.red_threes[deal.side_of(seat)])
    if deal.knobs.red_three_mode == "bonus":
        lay_red_threes(cards, stock, laid)
    return deal.but(
        hands=_with(deal.hands, seat, tuple(sorted(cards))), feet=_with(deal.feet, seat, ()),
        foot_state=_with(deal.foot_state, seat, IN_FOOT), stock=tuple(stock),
        red_threes=_with(deal.red_threes, deal.side_of(seat), tuple(laid)),
        stock_out=deal.stock_out or (not stock and bool(deal.stock)))


def _with(values: tuple, index: int, value: object) -> tuple:  # type: ignore[type-arg]
    return values[:index] + (value,) + values[index + 1:]


def _laying_problem(deal: Deal, seat: int, held: Sequence[Card],
                    books: Sequence[tuple[Card, ...]]) -> str | None:
    """Why ``seat`` may not lay cards that leave it ``held`` with its side owning ``books``:
    going out, and the hand-size rule of the foot (HF §10.1, §10.6)."""
    knobs = deal.knobs
    if deal.foot_state[seat] != IN_FOOT or len(held) > 1:
        return None
    if not held:
        why = out_problem(deal, seat, books)
        if why is None and knobs.going_out_discard == "required":
            why = "these rules go out with a discard: keep a card to discard"
        return None if why is None else f"you may not lay your last card: {why}"
    if deal.answer == "no":
        return "your partner said no: keep a card after your discard"
    why = out_problem(deal, seat, books)
    if why is None and knobs.going_out_discard == "forbidden":
        why = "these rules go out by melding, not by a discard"
    if why is None:
        why = discard_problem(deal, held, held[0])
    if why is not None:
        return (f"you would keep one card and could not go out by discarding it ({why}); "
                "a player in the foot keeps a card after discarding")
    return None


def _after_laying(deal: Deal, seat: int, held: list[Card]) -> Deal:
    """The deal once ``seat`` has laid cards (checked by :func:`_laying_problem`) and holds
    ``held``: running to the foot (HF §9.2), or going out."""
    deal = deal.but(hands=_with(deal.hands, seat, tuple(held)))
    if deal.foot_state[seat] == IN_HAND:
        if held:
            return deal
        deal = _pick_up_foot(deal, seat)
        return _turn_over(deal) if deal.knobs.foot_on_meld_out == "end_turn" else deal
    return deal if held else ended(deal, seat)


def _draw(deal: Deal) -> Deal | str:
    knobs = deal.knobs
    if deal.phase != "draw":
        return "you have drawn already this turn"
    stock, pile = list(deal.stock), deal.pile
    if not stock:
        if knobs.stock_exhausted_rule != "reshuffle_pile" or len(pile) < 2:
            return "the stock is empty: take the pile or pass"
        stock = list(pile[:-1])
        random.Random(f"{deal.number}:{len(pile)}:{sum(pile)}:{pile[-1]}").shuffle(stock)
        pile = pile[-1:]
    seat = deal.to_move
    count = min(knobs.draw_count, len(stock))
    cards = stock[:count]
    stock = stock[count:]
    laid = list(deal.red_threes[deal.side_of(seat)])
    if knobs.red_three_mode == "bonus":
        lay_red_threes(cards, stock, laid)
    after = deal.but(
        hands=_with(deal.hands, seat, tuple(sorted((*deal.hands[seat], *cards)))),
        stock=tuple(stock), pile=pile, phase="play", stock_out=not stock,
        red_threes=_with(deal.red_threes, deal.side_of(seat), tuple(laid)),
        played_from_foot=_played(deal, seat))
    if not stock and not _can_end_turn(after):
        # the stock's last cards were red threes, laid without replacement, and the one card
        # left in the foot may neither be discarded nor melded: the deal ends (HF §10.7, §11.2)
        return ended(after, None)
    return after


def _can_end_turn(deal: Deal) -> bool:
    """Whether the player to move, holding one card in the foot after the draw, may still
    end the turn (discard it, or meld it, going out); ``True`` with more cards."""
    held = deal.hands[deal.to_move]
    if deal.foot_state[deal.to_move] != IN_FOOT or len(held) != 1:
        return True
    card = held[0]
    if _discard_check(deal, card) is None:
        return True
    keys = [RANK_OF[card]] if IS_NATURAL[card] else [*range(11), WILD_MELD] if IS_WILD[
        card] else []
    return any(not isinstance(_meld_plan(deal, Action("meld", (Group(key, held),))), str)
               for key in keys)


def _played(deal: Deal, seat: int) -> tuple[bool, ...]:
    if deal.foot_state[seat] == IN_FOOT and not deal.played_from_foot[seat]:
        return _with(deal.played_from_foot, seat, True)
    return deal.played_from_foot


def _take_problem(deal: Deal, first: Group, key: int) -> str | None:
    """Why ``first`` may not take the pile's top card (HF §7.1, §7.6, §7.7)."""
    knobs = deal.knobs
    top = deal.pile[-1]
    if IS_WILD[top]:
        if key != WILD_MELD:
            return "a wild card on top is taken only onto the side's meld of wild cards"
        same = sum(1 for c in first.cards if (c == JOKER) == (top == JOKER) and IS_WILD[c])
        return None if same >= 2 else (
            "a wild card on top is taken with a pair of its kind (two twos, or two jokers)")
    if key != RANK_OF[top]:
        return f"the pile's top card is {format_card(top)}: the cards that take it are " \
               f"{rank_name(RANK_OF[top])}"
    naturals = sum(1 for c in first.cards if IS_NATURAL[c])
    wilds = len(first.cards) - naturals
    rule = knobs.pile_take_pair
    if naturals >= 2:
        return None
    if rule == "natural_plus_wild" and naturals == 1 and wilds >= 1:
        return "the pile is frozen by a wild card: only a natural pair takes it" \
            if deal.pile_frozen else None
    if rule == "one_natural" and naturals == 1:
        if wilds or deal.melds[deal.side_of(deal.to_move)][key] is not None:
            return "one natural card takes the pile only to start a new clean meld"
        return None
    return f"taking the pile needs two natural {rank_name(key)} from your hand"


def _take(deal: Deal, action: Action) -> Deal | str:
    knobs = deal.knobs
    if deal.phase != "draw":
        return "the pile is taken instead of drawing, at the start of the turn"
    if not deal.pile:
        return "the pile is empty"
    top = deal.pile[-1]
    if not IS_NATURAL[top] and not (IS_WILD[top] and knobs.wild_on_top_takeable):
        return ("a three on top blocks the pile" if not IS_WILD[top]
                else "a wild card on top blocks the pile")
    if not action.groups:
        return "name the cards that meld the top card: 'take Kh Kd'"
    seat, side = deal.to_move, deal.side_of(deal.to_move)
    if knobs.pile_take_requires_opened and not deal.opened(side):
        return "your side must meld before it takes the pile"
    keys = [_group_key(g) for g in action.groups]
    for k in keys:
        if isinstance(k, str):
            return k
    if len(set(keys)) != len(keys):
        return "one group per meld in an action"
    first_key = keys[0]
    assert isinstance(first_key, int)
    why = _take_problem(deal, action.groups[0], first_key)
    if why is not None:
        return why
    laid_cards = [c for g in action.groups for c in g.cards]
    held = _taken(deal.hands[seat], laid_cards)
    if held is None:
        return "you do not hold those cards"
    if not deal.opened(side):
        count = sum(deal.rules.value_of[c] for c in laid_cards)
        if knobs.initial_meld_counts_pile_top:
            count += deal.rules.value_of[top]
        need = minimum(deal, side)
        if count < need:
            return f"your side's first meld needs {need} points in one action: this counts {count}"
    groups = [(int(k), tuple(g.cards) + ((top,) if i == 0 else ()))  # the top joins the first
              for i, (k, g) in enumerate(zip(keys, action.groups, strict=True))]
    # the top card and the cards that take it make one meld, never a book and a new meld
    joined = len(deal.melds[side][first_key] or ()) + len(groups[0][1])
    if joined > BOOK:
        return (f"the top card and the cards that take it go into one meld: "
                f"{key_name(first_key)} would hold {joined} cards, more than {BOOK}")
    laid = _lay(deal, side, groups)
    if isinstance(laid, str):
        return laid
    count = len(deal.pile) if knobs.pile_take_count is None else min(knobs.pile_take_count,
                                                                       len(deal.pile))
    rest = deal.pile[len(deal.pile) - count:-1]
    held = sorted((*held, *rest))
    why = _laying_problem(deal, seat, held, laid[1])
    if why is not None:
        return why
    after = deal.but(melds=_with(deal.melds, side, laid[0]),
                     books=_with(deal.books, side, laid[1]),
                     pile=deal.pile[:len(deal.pile) - count], pile_frozen=False, phase="play",
                     played_from_foot=_played(deal, seat))
    return _after_laying(after, seat, held)


def _meld_plan(deal: Deal, action: Action) -> tuple[tuple[Melds, tuple[tuple[Card, ...], ...]],
                                                     list[Card]] | str:
    """The side's melds and books and the cards held after ``action`` (a ``meld``), or why
    it is refused."""
    if deal.phase != "play":
        return "draw or take the pile first" if deal.phase == "draw" else "wait for the answer"
    if not action.groups:
        return "name the cards to meld"
    seat, side = deal.to_move, deal.side_of(deal.to_move)
    keys = [_group_key(g) for g in action.groups]
    for k in keys:
        if isinstance(k, str):
            return k
    if len(set(keys)) != len(keys):
        return "one group per meld in an action"
    laid_cards = [c for g in action.groups for c in g.cards]
    held = _taken(deal.hands[seat], laid_cards)
    if held is None:
        return "you do not hold those cards"
    if not deal.opened(side):
        count = sum(deal.rules.value_of[c] for c in laid_cards)
        need = minimum(deal, side)
        if count < need:
            return f"your side's first meld needs {need} points in one action: this counts {count}"
    laid = _lay(deal, side, [(int(k), g.cards) for k, g in zip(keys, action.groups,
                                                                  strict=True)])
    if isinstance(laid, str):
        return laid
    why = _laying_problem(deal, seat, held, laid[1])
    return why if why is not None else (laid, held)


def _meld(deal: Deal, action: Action) -> Deal | str:
    plan = _meld_plan(deal, action)
    if isinstance(plan, str):
        return plan
    (melds, books), held = plan
    seat, side = deal.to_move, deal.side_of(deal.to_move)
    after = deal.but(melds=_with(deal.melds, side, melds), books=_with(deal.books, side, books),
                     played_from_foot=_played(deal, seat))
    return _after_laying(after, seat, held)


def _discard_check(deal: Deal, card: Card) -> str | None:
    """Why the player to move may not discard ``card`` (HF §8, §10), or ``None``."""
    knobs = deal.knobs
    if deal.phase != "play":
        return "draw or take the pile first" if deal.phase == "draw" else "wait for the answer"
    seat, side = deal.to_move, deal.side_of(deal.to_move)
    hand = deal.hands[seat]
    if card not in hand:
        return f"you do not hold {format_card(card)}" if 0 <= card <= JOKER else "no such card"
    why = discard_problem(deal, hand, card)
    if why is not None:
        return why
    if deal.foot_state[seat] == IN_FOOT:
        if len(hand) == 1:
            out = out_problem(deal, seat, deal.books[side])
            if out is None and knobs.going_out_discard == "forbidden":
                out = "these rules go out by melding, not by a discard"
            if out is not None:
                return f"a discard of your last card goes out, and {out}"
        elif deal.answer == "yes" and could_go_out(deal, seat, hand):
            return "your partner said yes: go out this turn"
    return None


def _discard(deal: Deal, card: Card) -> Deal | str:
    why = _discard_check(deal, card)
    if why is not None:
        return why
    knobs = deal.knobs
    seat = deal.to_move
    held = list(deal.hands[seat])
    held.remove(card)
    state = deal.foot_state[seat]
    frozen = deal.pile_frozen or (IS_WILD[card] and knobs.wild_discard_freezes_pile
                                  and knobs.pile_take_pair == "natural_plus_wild")
    after = deal.but(hands=_with(deal.hands, seat, tuple(held)), pile=(*deal.pile, card),
                     pile_frozen=frozen, played_from_foot=_played(deal, seat))
    if state == IN_FOOT and not held:
        return ended(after, seat)
    if state == IN_HAND and not held:  # walking into the foot (HF §9.3)
        if knobs.walk_pickup_timing == "end_of_turn":
            after = _pick_up_foot(after, seat)
        else:
            after = after.but(foot_state=_with(after.foot_state, seat, PENDING))
    return _turn_over(after)


def _ask(deal: Deal) -> Deal | str:
    knobs = deal.knobs
    seat = deal.to_move
    if deal.phase != "play":
        return "ask after drawing, in your own turn"
    if not (knobs.partnership and knobs.permission_question_enabled):
        return "there is no partner to ask"
    if deal.asked:
        return "you have asked this turn already"
    limit = knobs.permission_asks_per_hand
    if limit is not None and deal.asks[seat] >= limit:
        return f"you may ask {limit} time(s) a deal"
    if deal.foot_state[seat] != IN_FOOT:
        return "you may ask to go out only from your foot"
    why = partner_problem(deal, seat)
    if why is not None:
        return why
    if not could_go_out(deal, seat, deal.hands[seat]):
        return "you could not go out this turn with the cards you hold"
    return deal.but(phase="answer", to_move=deal.partners_of(seat)[0], asked=True,
                    asks=_with(deal.asks, seat, deal.asks[seat] + 1))


def _answer(deal: Deal, word: str) -> Deal | str:
    if deal.phase != "answer":
        return "nobody has asked to go out"
    asker = deal.partners_of(deal.to_move)[-1]
    return deal.but(phase="play", to_move=asker, answer=word)


def _pass(deal: Deal) -> Deal | str:
    if deal.phase != "draw" or deal.stock or deal.knobs.stock_exhausted_rule != \
            "continue_by_pile":
        return "pass only when the stock is empty and you do not take the pile"
    return ended(deal, None)


def play(deal: Deal, action: Action) -> Deal | str:
    """The deal after ``action`` of the player to move, or why the rules refuse it."""
    if deal.end is not None:
        return "the deal is over"
    verb = action.verb
    if deal.phase == "answer" and verb not in ("yes", "no"):
        return "your partner asked to go out: answer yes or no"
    if verb == "draw":
        return _draw(deal)
    if verb == "take":
        return _take(deal, action)
    if verb == "meld":
        return _meld(deal, action)
    if verb == "discard":
        return _discard(deal, action.card)
    if verb == "ask":
        return _ask(deal)
    if verb in ("yes", "no"):
        return _answer(deal, verb)
    if verb == "pass":
        return _pass(deal)
    return f"{verb!r} is not an action of Hand and Foot"


def check(deal: Deal, action: Action) -> str | None:
    """Why ``action`` is refused, or ``None`` (as :func:`problem`; a meld or a discard is
    checked without making the deal after it)."""
    if deal.end is None and deal.phase == "play":
        if action.verb == "meld":
            plan = _meld_plan(deal, action)
            return plan if isinstance(plan, str) else None
        if action.verb == "discard":
            return _discard_check(deal, action.card)
    after = play(deal, action)
    return after if isinstance(after, str) else None


def apply(deal: Deal, action: Action) -> Deal:
    """The deal after ``action``; :class:`~canasta.errors.IllegalActionError` naming the rule
    when it is refused (``deal`` is a value: nothing changes)."""
    after = play(deal, action)
    if isinstance(after, str):
        raise IllegalActionError(format_action(action), after)
    return after


def problem(deal: Deal, action: Action) -> str | None:
    """Why ``action`` is refused, or ``None``."""
    after = play(deal, action)
    return after if isinstance(after, str) else None

