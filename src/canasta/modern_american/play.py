"""The turn of Modern American Canasta: why an action is refused (:func:`problem`) and what it
does (:func:`apply`).

A turn: lay the threes (one may be kept while the side has not melded, ``keep``), draw one card
or pick the pack with a natural pair, meld, discard. A side that makes its initial meld from the
hand before the turn card is drawn receives its talon after the discard. Going out needs two
canastas, nothing incomplete that costs a penalty, and a final discard (MA §2, §3, §8–§10, §12).
The legal list (:func:`legal_actions`) is the candidates of :mod:`canasta.modern_american.choices`
that these checks accept: one source for both.

>>> from canasta.modern_american.hand import deal
>>> h = new_hand(seed=3)
>>> h.phase, h.to_move
('draw', 1)
>>> after = apply(h, Action("draw"))
>>> after.phase, len(after.stock) < len(h.stock)
('play', True)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from canasta.actions import NO_RANK, Action, Group
from canasta.cards import IS_NATURAL, IS_WILD, RANK_OF, THREE, Card, Rank, format_card, rank_name
from canasta.errors import IllegalActionError
from canasta.modern_american.action_text import format_action
from canasta.modern_american.choices import KEEP_NONE, candidates, meld_candidates, take_candidates
from canasta.modern_american.discards import discard_problem, pick_problem
from canasta.modern_american.ending import end_hand
from canasta.modern_american.hand import (
    ANSWER,
    DRAW,
    NEW_TURN,
    NUM_PLAYERS,
    NUM_SIDES,
    OVER,
    PLAY,
    RULES,
    Hand,
    Meld,
    SideMelds,
    Turn,
    deal,
)
from canasta.modern_american.knobs import RETRACT_MELDS, SET_ASIDE, Knobs, ModernAmericanRules
from canasta.modern_american.melds import (
    MAX_MELD,
    WILD_MELD,
    MeldContext,
    meld_problem,
    opening_problem,
)
from canasta.modern_american.scoring import incomplete_penalty
from canasta.modern_american.special_hands import CATALOGUES, SIZE, special_problem


def new_hand(seed: int | None = None, *, deck: Sequence[Card] | None = None, dealer: int = 0,
             scores: Sequence[int] = (0, 0), rules: ModernAmericanRules = RULES,
             number: int = 1) -> Hand:
    """Deal hand ``number`` of a game and begin the first turn (its player's threes are laid
    unless a three may be kept)."""
    return start_turn(deal(seed, deck=deck, dealer=dealer, scores=scores, rules=rules,
                           number=number))


# -- the table while an action is carried out ----------------------------------------------------

@dataclass
class _Table:
    """The changing parts of a hand while one action is carried out."""

    hand: Hand
    hands: list[list[Card]] = field(init=False)
    stock: list[Card] = field(init=False)
    threes: list[list[Card]] = field(init=False)
    talons: list[tuple[Card, ...]] = field(init=False)
    last_three: tuple[int, Card] | None = None

    def __post_init__(self) -> None:
        self.hands = [list(h) for h in self.hand.hands]
        self.stock = list(self.hand.stock)
        self.threes = [list(t) for t in self.hand.threes]
        self.talons = list(self.hand.talons)

    def draw(self, seat: int, n: int) -> bool:
        """Draw ``n`` cards into ``seat``'s hand, laying each three drawn and replacing it;
        True when a three was the stock's last card, which ends the hand (MA §12.1)."""
        for _ in range(n):
            while self.stock:
                card = self.stock.pop(0)
                if RANK_OF[card] != THREE:
                    self.hands[seat].append(card)
                    break
                if not self.stock:
                    self.hands[seat].append(card)
                    self.last_three = (seat, card)
                    return True
                self.threes[seat % NUM_SIDES].append(card)
        return False

    def give_talon(self, seat: int, n: int) -> bool:
        """Give ``seat`` its talon of ``n`` cards: from the stock's top, or the set-aside pile
        due (each three in it laid and replaced from the stock, MA §8.3); True when a three
        was the stock's last card."""
        if self.hand.knobs.talon_source != SET_ASIDE:
            return self.draw(seat, n)
        index = _talon_index(self.hand, seat % NUM_SIDES)
        cards, self.talons[index] = self.talons[index], ()
        for card in cards:
            if RANK_OF[card] != THREE:
                self.hands[seat].append(card)
                continue
            self.threes[seat % NUM_SIDES].append(card)
            if self.draw(seat, 1):
                return True
        return False

    def lay_threes(self, seat: int, kept: Card | None) -> bool:
        """Lay every three ``seat`` holds but ``kept``, each replaced from the stock (MA §2.1)."""
        held = self.hands[seat]
        for card in [c for c in held if RANK_OF[c] == THREE]:
            if card == kept:
                kept = None
                continue
            held.remove(card)
            self.threes[seat % NUM_SIDES].append(card)
            if self.draw(seat, 1):
                return True
        return False

    def seal(self, **changes: object) -> Hand:
        return self.hand.but(hands=tuple(tuple(sorted(h)) for h in self.hands),
                             stock=tuple(self.stock), talons=tuple(self.talons),
                             threes=tuple(tuple(sorted(t)) for t in self.threes), **changes)


# -- the facts the checks share ------------------------------------------------------------------

def may_go_out(h: Hand, side: int, melds: SideMelds | None = None) -> str | None:
    """Why ``side`` (with ``melds``, its melds by default) may not go out, or ``None``
    (MA §10.1): two canastas, and no incomplete meld that costs a penalty."""
    melds = h.melds[side] if melds is None else melds
    need = h.rules.min_canastas_to_go_out
    if sum(1 for m in melds if m is not None and len(m) >= MAX_MELD) < need:
        return f"going out needs {need} canastas on your side's table"
    for key, m in enumerate(melds):
        if m is not None and incomplete_penalty(h.knobs, key, m):
            what = "wild cards" if key == WILD_MELD else rank_name(key)
            return f"your side's meld of {what} is incomplete: it must be a canasta first"
    return None


def _dead_after(h: Hand, side: int, melds: SideMelds) -> frozenset[Rank]:
    """The dead ranks once ``side`` has ``melds``: those of now, and any canasta just made."""
    dead = h.dead
    if not h.knobs.dead_ranks:
        return dead
    made = [key for key, (m, old) in enumerate(zip(melds, h.melds[side]))
            if m is not old and key != WILD_MELD and m is not None and len(m) >= MAX_MELD]
    return dead.union(made) if made else dead


def _any_discard(h: Hand, hand: Sequence[Card], pile_empty: bool, dead: frozenset[Rank]) -> bool:
    return any(discard_problem(h.knobs, c, hand, pile_empty, dead) is None for c in set(hand))


def _talon_index(h: Hand, side: int) -> int:
    """Which talon a side opening now receives: the first (four cards) while the other side
    has not melded, else the second (three), MA §8.1."""
    return 1 if h.side_melded(1 - side) else 0


def _talon_due(h: Hand, side: int) -> int:
    """The talon a side earns by opening from the hand now (MA §8.1, §8.2): from the stock
    until the turn card is drawn, or the set-aside pile due while it is there."""
    if h.knobs.talon_source == SET_ASIDE:
        return len(h.talons[_talon_index(h, side)]) if h.talons else 0
    if h.turn_card_drawn:
        return 0
    return h.knobs.talon_sizes[_talon_index(h, side)]


def _no_talon_for_pick(h: Hand) -> bool:
    return h.turn.took and h.knobs.talon_not_after_pile_take


def _left_problem(h: Hand, side: int, hand: Sequence[Card], melds: SideMelds, pile_empty: bool,
                  talon: int) -> str | None:
    """Why a meld or a pick that leaves ``hand`` and ``melds`` is refused: the turn must still
    end with a discard, and a player who does not go out keeps a card (MA §7.4, §9)."""
    if not hand:
        return "every turn ends with a discard: keep a card to discard"
    dead = _dead_after(h, side, melds)
    if any(m is not None and len(m) > MAX_MELD for m in melds):
        # an eighth card: only with the meld the player goes out with (MA §4.1.1)
        out = may_go_out(h, side, melds) or ("your partner said no" if h.answer == "no" else None)
        if out is not None:
            return f"a meld passes {MAX_MELD} cards only when you go out, and {out}"
        return discard_problem(h.knobs, hand[0], hand, pile_empty, dead, going_out=True)
    if len(hand) == 1:
        card = hand[0]
        if talon and h.knobs.talon_counts_as_held_card:
            if discard_problem(h.knobs, card, hand, pile_empty, dead) is None:
                return None
        out = may_go_out(h, side, melds)
        if out is None and h.answer != "no":
            return discard_problem(h.knobs, card, hand, pile_empty, dead, going_out=True)
        return (f"this would leave one card, and {out or 'your partner said no'}: keep one "
                "card to hold and one to discard")
    if (not _takes_back_melds(h.knobs) and not _any_discard(h, hand, pile_empty, dead)
            and _any_discard(h, h.hands[h.to_move], not h.pile, h.dead)):
        return "after this you would hold no card you may discard (MA §7.4)"
    return None


# -- laying cards: melds and picks ---------------------------------------------------------------

def _group_key(group: Group) -> tuple[Rank | None, str | None]:
    if any(RANK_OF[c] == THREE and not IS_WILD[c] for c in group.cards):
        return None, "threes are never melded"
    if group.rank == NO_RANK:
        return None, ("name the meld a group of wild cards joins: W: for a meld of wild "
                      "cards, or the rank of your meld")
    if group.rank < 0:
        return None, "a group holds cards of one rank and wild cards"
    return group.rank, None


def _owned(hand: Sequence[Card], cards: Sequence[Card]) -> str:
    missing = Counter(cards) - Counter(hand)
    return "you do not hold " + " ".join(format_card(c) for c in sorted(missing.elements()))


def _opening_via_pick(h: Hand, side: int, top: Card, shown: Sequence[Card],
                      rest: list[tuple[Rank, Meld]]) -> str | None:
    """An initial meld by picking the pack: the hand's cards alone reach the minimum with a
    clean triple; the top card counts for nothing (MA §5.4)."""
    problem = pick_problem(h.knobs, top, shown, (), MeldContext(True, dead=h.dead))
    if problem is not None:
        return problem
    value_of = h.rules.value_of
    top_points = value_of[top] if h.knobs.initial_meld_counts_pile_top else 0
    if h.knobs.pile_top_may_form_clean_triple:
        # the pick's meld takes part in the check; a top card that does not count is made up
        groups = [(RANK_OF[top], (top, *shown)), *rest]
        need = h.minimum(side) + value_of[top] - top_points
    else:
        groups = rest
        need = h.minimum(side) - sum(value_of[c] for c in shown) - top_points
        if not rest:
            return ("to open by picking the pack, your hand's cards alone must make the "
                    f"initial meld ({h.minimum(side)}, with a clean triple): lay further melds "
                    "with it")
    problem = opening_problem(h.knobs, value_of, groups, need, h.dead)
    if problem is not None and problem.startswith("the initial meld counts"):
        total = top_points + sum(value_of[c] for c in (*shown, *(
            c for _, cards in rest for c in cards)))
        counted = "with the top card" if top_points else "the top card does not count"
        return (f"your hand's cards count {total} ({counted}), and your side needs "
                f"{h.minimum(side)}")
    return problem


def _keyed(groups: Sequence[Group]) -> tuple[str | None, list[tuple[Rank, Meld]]]:
    """The groups by meld key, or why they cannot be laid as written."""
    laid: list[tuple[Rank, Meld]] = []
    for group in groups:
        key, problem = _group_key(group)
        if problem is not None or key is None:
            return problem, laid
        if any(k == key for k, _ in laid):
            return f"two groups for one meld of {rank_name(key)}: join them", laid
        laid.append((key, group.cards))
    return None, laid


def _left_after(hand: Sequence[Card], laid: list[tuple[Rank, Meld]]
                ) -> tuple[str | None, list[Card]]:
    """The hand without the laid cards, or which of them the player does not hold."""
    left = list(hand)
    for _, cards in laid:
        for c in cards:
            if c not in left:
                return _owned(hand, [c for _, cs in laid for c in cs]), left
            left.remove(c)
    return None, left


def _melds_problem(h: Hand, side: int, laid: list[tuple[Rank, Meld]], top: Card | None,
                   going_out: bool = False) -> str | None:
    """The meld rules for ``laid`` (the first group onto the pile's ``top`` when picking);
    ``going_out``: the cards leave the player one card, to go out with."""
    if not h.side_melded(side):
        if top is not None:
            return _opening_via_pick(h, side, top, laid[0][1], laid[1:])
        return opening_problem(h.knobs, h.rules.value_of, laid, h.minimum(side), h.dead)
    melds = h.melds[side]
    wild = [*(melds[WILD_MELD] or ()), *(c for k, cs in laid if k == WILD_MELD for c in cs)]
    ctx = MeldContext(h.turn.opening, bool(wild) and len(wild) < MAX_MELD, h.dead, going_out)
    for i, (key, cards) in enumerate(laid):
        if i == 0 and top is not None:
            problem = pick_problem(h.knobs, top, cards, melds[key] or (), ctx)
        else:
            problem = meld_problem(h.knobs, key, melds[key] or (), cards, ctx)
        if problem is not None:
            return problem
    return None


def _lay(h: Hand, groups: Sequence[Group], top: Card | None
         ) -> tuple[str | None, SideMelds, list[Card]]:
    """Check laying ``groups`` from the hand (the first onto the pile's ``top`` card when
    picking); the problem, or the side's melds and the hand after."""
    side = h.side_of(h.to_move)
    hand = list(h.hands[h.to_move])
    left = hand
    problem, laid = _keyed(groups)
    if problem is None:
        problem, left = _left_after(hand, laid)
    if problem is None and top is not None and (
            not laid or laid[0][0] != RANK_OF[top] or not IS_NATURAL[top]):
        what = rank_name(RANK_OF[top]) if IS_NATURAL[top] else "a natural rank"
        problem = (f"the pile is picked by melding its top card with a natural pair of {what} "
                   "from your hand: list those first")
    if problem is None:
        held = len(left) + (len(h.pile) - 1 if top is not None else 0)
        problem = _melds_problem(h, side, laid, top, going_out=held == 1)
    if problem is not None:
        return problem, h.melds[side], hand
    melds = list(h.melds[side])
    for i, (key, cards) in enumerate(laid):
        extra = (top,) if i == 0 and top is not None else ()
        melds[key] = tuple(sorted((*(melds[key] or ()), *cards, *extra)))
    return None, tuple(melds), left


def _meld_problem(h: Hand, action: Action) -> str | None:
    side = h.side_of(h.to_move)
    problem, melds, hand = _lay(h, action.groups, None)
    if problem is not None:
        return problem
    talon = h.turn.talon or (0 if h.side_melded(side) or _no_talon_for_pick(h)
                             else _talon_due(h, side))
    return _left_problem(h, side, hand, melds, bool(not h.pile), talon)


def _take_problem(h: Hand, action: Action) -> str | None:
    if not h.pile:
        return "the pile is empty"
    top = h.pile[-1]
    if not action.groups:
        return ("the pile is always frozen: it is picked only with a natural pair of the top "
                "card's rank from your hand (take 7c 7d)")
    problem, melds, hand = _lay(h, action.groups, top)
    if problem is not None:
        return problem
    side = h.side_of(h.to_move)
    talon = 0 if h.side_melded(side) or h.knobs.talon_not_after_pile_take else \
        _talon_due(h, side)
    return _left_problem(h, side, [*hand, *h.pile[:-1]], melds, True, talon)


# -- taking back this turn's melds (no_legal_discard_remedy="retract_melds", MA §7.4) ----------

def _takes_back_melds(knobs: Knobs) -> bool:
    return knobs.no_legal_discard_remedy == RETRACT_MELDS


def _laid_now(turn: Turn, laid: Sequence[tuple[Rank, Meld]]) -> Turn:
    """``turn`` with ``laid`` (key and hand cards) added to the cards laid this turn."""
    by_key = dict(turn.laid)
    for key, cards in laid:
        by_key[key] = tuple(sorted((*by_key.get(key, ()), *cards)))
    return _with(turn, laid=tuple(sorted(by_key.items())))


def _must_take_back(h: Hand) -> bool:
    """Whether the player discards a card melded this turn, taken back (MA §7.4, CLA): the
    rules say so, the player holds more than one card and none it may discard, and one card
    melded this turn can be taken back. Where none can, any card but a three may go."""
    hand = h.hands[h.to_move]
    if not (_takes_back_melds(h.knobs) and h.turn.laid and len(hand) > 1) or _any_discard(
            h, hand, not h.pile, h.dead):
        return False
    return any(_take_back(h, c)[0] is None for _, cards in h.turn.laid for c in set(cards))


def _take_back(h: Hand, card: Card) -> tuple[str | None, SideMelds, tuple[Card, ...]]:
    """Discarding ``card`` from the melds laid this turn: why not, or the side's melds after
    and the cards that go back to the hand with it. The turn's melds without the card must be
    what the turn could have laid; where the meld it was laid in (begun this turn) cannot stand
    without it, the rest of that meld comes back to the hand too."""
    side = h.side_of(h.to_move)
    key = next((k for k, cards in h.turn.laid if card in cards), None)
    if key is None:
        return ("you hold no card you may discard: discard one you melded this turn, taken "
                "back from its meld"), h.melds[side], ()
    top = h.turn.top
    top_key = None if top is None else RANK_OF[top]
    picked = {} if top is None else {top_key: (top,)}  # the pick's top card, by its meld
    before = list(h.melds[side])  # the side's melds before this turn
    for k, cards in h.turn.laid:
        left = list(before[k] or ())
        for c in (*cards, *picked.get(k, ())):
            left.remove(c)
        before[k] = tuple(left) or None
    start = h.but(melds=_set(h.melds, side, tuple(before)))
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
        problem = _melds_problem(start, side, groups, top)
        if problem is None:
            melds = list(h.melds[side])
            melds[key] = tuple(sorted((*(before[key] or ()), *kept,
                                       *picked.get(key, ())))) or None
            returned = tuple((Counter(rest) - Counter(kept)).elements())
            dead = _dead_after(start, side, tuple(melds))
            hand = (*h.hands[h.to_move], *returned, card)
            return discard_problem(h.knobs, card, hand, not h.pile, dead), tuple(melds), returned
        why = problem  # the last try's: the meld taken back whole, where it may be
    return (f"taking back {format_card(card)} would undo this turn's melds: {why}",
            h.melds[side], ())


# -- discards, questions, special hands ------------------------------------------------------

def _discard_problem(h: Hand, card: Card) -> str | None:
    hand = h.hands[h.to_move]
    if card not in hand and not _must_take_back(h):
        return f"you do not hold {format_card(card)}"
    side = h.side_of(h.to_move)
    if len(hand) == 1:
        out = may_go_out(h, side)
        if out is not None or h.answer == "no":
            if h.turn.talon and h.knobs.talon_counts_as_held_card:
                return discard_problem(h.knobs, card, hand, not h.pile, h.dead)
            return (out or "your partner said no") + ": keep a card after discarding"
        return discard_problem(h.knobs, card, hand, not h.pile, h.dead, going_out=True)
    if _must_take_back(h):
        return _take_back(h, card)[0]
    if h.answer == "yes" and _could_meld(h):
        return "your partner said yes: you must go out this turn"
    problem = discard_problem(h.knobs, card, hand, not h.pile, h.dead)
    if problem is not None and RANK_OF[card] != THREE and not _any_discard(
            h, hand, not h.pile, h.dead):
        return None  # nothing else may go: any card but a three (MA §7.4)
    return problem


def _could_meld(h: Hand) -> bool:
    return any(_meld_problem(h, a) is None for a in meld_candidates(h))


def ask_problem(h: Hand) -> str | None:
    """Why the player to move may not ask "partner, may I go out?" now (MA §10.5)."""
    seat = h.to_move
    limit = h.rules.permission_asks_per_hand
    if not h.rules.permission_question_enabled:
        return "these rules have no question to the partner"
    if h.turn.melded:
        return "ask before you meld this turn"
    if limit is not None and h.asks[seat] >= limit:
        return f"you may ask to go out only {limit} time{'s' if limit > 1 else ''} a hand"
    if h.answer is not None:
        return "you have had your answer this turn"
    if not h.side_melded(h.side_of(seat)):
        return "your side has not melded yet"
    return None


def special_name(h: Hand, index: int) -> str:
    """The name of the special hand ``index`` of the rules' catalogue."""
    return CATALOGUES[h.knobs.special_hands][index].name


def _special_problem(h: Hand, index: int) -> str | None:
    catalogue = CATALOGUES[h.knobs.special_hands]
    if not 0 <= index < len(catalogue):
        return "there is no such special hand in these rules"
    if h.side_melded(h.side_of(h.to_move)) and h.courtesy != h.to_move:
        return "a special hand is laid only while your side has not melded"
    if not h.turn.drew or h.turn.melded:
        return "a special hand is laid after drawing from the stock, before any meld"
    hand = h.hands[h.to_move]
    if len(hand) != SIZE:
        return f"a special hand holds {SIZE} cards; you hold {len(hand)}"
    return special_problem(hand, catalogue[index].name, h.knobs.special_hands)


# -- the checks by verb ------------------------------------------------------------------------

_PHASE_OF = {"keep": DRAW, "draw": DRAW, "take": DRAW, "pass": DRAW, "meld": PLAY,
             "discard": PLAY, "ask": PLAY, "special": PLAY, "yes": ANSWER, "no": ANSWER}


def _phase_problem(h: Hand, verb: str) -> str | None:
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


def problem(h: Hand, action: Action) -> str | None:
    """Why ``action`` is refused in ``h``, in a player's words, or ``None``."""
    verb = action.verb
    wrong = _phase_problem(h, verb)
    if wrong is not None:
        return wrong
    if verb == "keep":
        if h.turn.threes_chosen:
            return "you have already laid your threes this turn"
        if action.card != KEEP_NONE and action.card not in h.threes_in(h.to_move):
            return "keep names a three in your hand, or none"
        return None
    if verb == "draw":
        return None if h.stock else "the stock is empty: pick the pack, or pass to end the hand"
    if verb == "pass":
        return None if not h.stock else "pass only when the stock is empty; draw instead"
    if verb == "take":
        return _take_problem(h, action)
    if verb == "meld":
        return _meld_problem(h, action)
    if verb == "discard":
        return _discard_problem(h, action.card)
    if verb == "ask":
        return ask_problem(h)
    if verb == "special":
        return _special_problem(h, action.card)
    return None  # yes, no


# -- carrying actions out ----------------------------------------------------------------------

def apply(h: Hand, action: Action) -> Hand:
    """The hand after ``action``; raises :class:`~canasta.errors.IllegalActionError` (and
    changes nothing) when :func:`problem` refuses it."""
    why = problem(h, action)
    if why is not None:
        raise IllegalActionError(format_action(h, action), why)
    return _DO[action.verb](h, action)


def _next_turn(t: _Table, **changes: object) -> Hand:
    h = t.hand
    seat = (h.to_move + 1) % NUM_PLAYERS
    courtesy = None if h.courtesy == h.to_move else h.courtesy
    if h.turn.opening and h.knobs.special_hand_after_partner_meld == "next_turn_courtesy":
        courtesy = (h.to_move + 2) % NUM_PLAYERS  # the partner's next turn (MA §11.1.2)
    return start_turn(t.seal(to_move=seat, phase=DRAW, turn=NEW_TURN, answer=None,
                             courtesy=courtesy, **changes))


def start_turn(h: Hand) -> Hand:
    """Begin the turn of ``h.to_move``: lay the threes unless the player may keep one, and end
    the hand when the stock is empty and the pack cannot be picked (MA §2.2, §12.2)."""
    seat = h.to_move
    side = h.side_of(seat)
    threes = h.threes_in(seat)
    if threes and h.knobs.keep_one_three_for_straight and not h.side_melded(side):
        return h  # the player chooses (keep)
    t = _Table(h)
    if t.lay_threes(seat, None):
        return _end(t, None)
    return _stock_check(t.seal(turn=Turn(threes_chosen=True)))


def _stock_check(h: Hand) -> Hand:
    if h.stock:
        return h
    if any(_take_problem(h, a) is None for a in take_candidates(h)):
        return h
    return _end(_Table(h), None)


def _keep(h: Hand, action: Action) -> Hand:
    kept = None if action.card == KEEP_NONE else action.card
    t = _Table(h)
    if t.lay_threes(h.to_move, kept):
        return _end(t, None)
    return _stock_check(t.seal(turn=Turn(threes_chosen=True, kept=kept)))


def _draw(h: Hand, action: Action) -> Hand:
    del action
    t = _Table(h)
    if t.draw(h.to_move, h.rules.draw_count):
        return _end(t, None)
    return t.seal(phase=PLAY, turn=_with(h.turn, drew=True))


def _with(turn: Turn, **changes: object) -> Turn:
    return replace(turn, **changes)  # type: ignore[arg-type]


def _take(h: Hand, action: Action) -> Hand:
    side = h.side_of(h.to_move)
    _, melds, hand = _lay(h, action.groups, h.pile[-1])
    t = _Table(h)
    t.hands[h.to_move] = [*hand, *h.pile[:-1]]
    opens = not h.side_melded(side)
    talon = _talon_due(h, side) if opens and not h.knobs.talon_not_after_pile_take else 0
    turn = _with(h.turn, took=True, opening=h.turn.opening or opens, talon=talon)
    if _takes_back_melds(h.knobs):
        turn = _laid_now(_with(turn, top=h.pile[-1]), _keyed(action.groups)[1])
    return t.seal(phase=PLAY, pile=(), melds=_set(h.melds, side, melds), turn=turn)


def _set(all_melds: tuple[SideMelds, ...], side: int, melds: SideMelds) -> tuple[SideMelds, ...]:
    return tuple(melds if s == side else m for s, m in enumerate(all_melds))


def _meld(h: Hand, action: Action) -> Hand:
    side = h.side_of(h.to_move)
    opening = not h.side_melded(side)
    _, melds, hand = _lay(h, action.groups, None)
    talon = h.turn.talon or (_talon_due(h, side) if opening and not _no_talon_for_pick(h)
                             else 0)
    t = _Table(h)
    t.hands[h.to_move] = hand
    turn = _with(h.turn, melded=True, opening=h.turn.opening or opening, talon=talon)
    if _takes_back_melds(h.knobs):
        turn = _laid_now(turn, _keyed(action.groups)[1])
    return t.seal(melds=_set(h.melds, side, melds), turn=turn)


def _discard(h: Hand, action: Action) -> Hand:
    seat = h.to_move
    t = _Table(h)
    if _must_take_back(h):
        _, melds, returned = _take_back(h, action.card)
        t.hands[seat] += returned
        t.hand = h = h.but(melds=_set(h.melds, h.side_of(seat), melds))
    else:
        t.hands[seat].remove(action.card)
    pile = (*h.pile, action.card)
    if not t.hands[seat] and may_go_out(h, h.side_of(seat)) is None and h.answer != "no":
        return _end(t, seat, pile=pile)
    if h.turn.talon and t.give_talon(seat, h.turn.talon):  # after the discard (MA §8)
        return _end(t, None, pile=pile)
    return _next_turn(t, pile=pile)


def _ask(h: Hand, action: Action) -> Hand:
    del action
    seat = h.to_move
    asks = tuple(n + (s == seat) for s, n in enumerate(h.asks))
    return h.but(phase=ANSWER, to_move=(seat + 2) % NUM_PLAYERS, asks=asks)


def _answer(h: Hand, action: Action) -> Hand:
    return h.but(phase=PLAY, to_move=(h.to_move + 2) % NUM_PLAYERS, answer=action.verb)


def _pass(h: Hand, action: Action) -> Hand:
    del action
    return _end(_Table(h), None)


def _special(h: Hand, action: Action) -> Hand:
    return _end(_Table(h), None, special=(h.to_move, action.card))


def _end(t: _Table, went_out: int | None, *, pile: tuple[Card, ...] | None = None,
         special: tuple[int, int] | None = None) -> Hand:
    """The hand is over: score both sides (MA §13)."""
    h = t.seal(**({} if pile is None else {"pile": pile}))
    return end_hand(h, went_out, special=special, last_three=t.last_three)


def legal_actions(h: Hand) -> list[Action]:
    """Every action :func:`apply` accepts now, each once, in canonical form: the complete list
    of ways to play the turn, one action at a time."""
    return [a for a in candidates(h) if problem(h, a) is None]


_DO = {"keep": _keep, "draw": _draw, "take": _take, "meld": _meld, "discard": _discard,
       "ask": _ask, "yes": _answer, "no": _answer, "pass": _pass, "special": _special}
