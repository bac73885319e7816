"""Every legal action of a position, in canonical form, each once (NOTATION §5).

The list is *complete*: every legal way to play a turn can be made from listed actions. To keep
it short it lists

* single-group melds of every size (several groups in one action add nothing once the side has
  melded: the same cards can be laid one group after the other);
* for a side that has not melded, every *minimal* opening: groups whose count reaches the minimum
  and would fall below it without any one of their cards (more cards are added by later melds);
* for taking the pile, the smallest ways to meld the top card (the pair, the natural card and
  wild card, or the top card alone onto the side's meld), and for an opening the minimal ones;
* every legal action that goes out, or leaves only the card to discard, where a smaller listed
  step would leave one card the player may not yet discard: whole-hand openings (the concealed
  going out of §1.10 among them), takes of a small pile, single cards on several melds;
* where the rules give a bonus for a canasta laid at once (``hidden_canasta_bonus``), also the
  groups that lay a whole canasta in one action.

Generation never changes the state. Cards of one rank and suit are one choice.
"""

from __future__ import annotations

import itertools
from bisect import bisect_left
from collections.abc import Iterator
from typing import Final

from canasta.actions import (
    ASK,
    DISCARDS,
    DRAW,
    NO,
    PASS,
    TAKE,
    YES,
    Action,
    Group,
    canonical,
    new_action,
    new_group,
)
from canasta.cards import (
    BLACK_THREE_RANK,
    FIRST_WILD,
    IS_NATURAL,
    IS_WILD,
    JOKER,
    NATURAL_RANKS,
    RANK_OF,
    RED_THREES,
    Card,
    Rank,
)
from canasta.going_out import going_out_of, hand_profile, submultisets
from canasta.melds import split_counts
from canasta.plans import (
    forced_take,
    meld_problem_of,
    one_card_take_banned,
    out_after_any_draw,
    out_from,
    remove_cards,
    take_problem,
    taken,
    top_block,
)
from canasta.rules import Rules
from canasta.state import ANSWER, NEW_TURN, PLAY, HandState, Meld, SideMelds, seal
from canasta.state import DRAW as DRAW_PHASE
from canasta.table import has_melded
from canasta.variant import fields_of, variant_of


def legal_actions(state: HandState) -> list[Action]:
    """Every legal action for the player to move, canonical and without repeats."""
    phase = state.phase
    if phase == PLAY:
        return _play_actions(state)
    if phase == DRAW_PHASE:
        return _draw_actions(state)
    if phase == ANSWER:
        return [YES, NO]
    return []


# -- single-group melds, cached -------------------------------------------------------------

RankOptions = tuple[list[Action], list[int], int]
"""A rank's single-group melds: the actions, the number of cards each lays, the largest."""
WildCounts = tuple[tuple[int, ...], ...]
"""For each number of natural cards laid (0, 1, …), the numbers of wild cards that may go with
them onto a meld: what the meld rules allow a make-up, whatever the cards."""
OptionsKey = tuple[int, tuple[Card, ...], tuple[Card, ...]]
"""An allowance's number and the hand's cards laid under it: its natural cards, its wild cards."""
MakeUp = tuple[Rank, tuple[int, int] | None, int, int]
"""A rank, the make-up of the meld joined (natural cards, wild cards; ``None`` for a new meld)
and the numbers of natural and wild cards the hand holds for it."""


class _OptionsTable:
    """The single-group meld options under one family's meld rules (one variant type, one
    ``Rules.meld_shape``): what each make-up allows, and the options of each hand's cards."""

    __slots__ = ("allowances", "allowed", "ids", "options")

    def __init__(self) -> None:
        self.options: dict[OptionsKey, RankOptions] = {}
        """The options, by the allowance of a make-up and the cards."""
        self.allowed: dict[MakeUp, int] = {}
        """The allowance of each make-up seen."""
        self.ids: dict[tuple[Rank, WildCounts], int] = {}
        """Each rank and :data:`WildCounts` seen, numbered: make-ups that allow the same share
        their options."""
        self.allowances: list[tuple[Rank, WildCounts]] = []
        """The rank and wild-card counts of each number."""


def _allowance(table: _OptionsTable, rules: Rules, rank: Rank, shape: tuple[int, int] | None,
               naturals: int, wilds: int) -> int:
    """The number of what the meld rules allow ``naturals`` natural and ``wilds`` wild cards
    of a hand laid onto rank ``rank`` (a meld of make-up ``shape``, or a new one)."""
    make_up = (rank, shape, naturals, wilds)
    found = table.allowed.get(make_up)
    if found is not None:
        return found
    variant = variant_of(rules)
    en, ew = shape or (0, 0)
    least_naturals = rules.min_naturals_per_meld
    counts: list[tuple[int, ...]] = []
    for k in range(naturals + 1):
        if k < (0 if shape else least_naturals) or en + k < least_naturals:
            counts.append(())
            continue
        # how many wild cards may join k natural cards (none at all is always allowed)
        most = min(wilds, variant.wild_room(rank, en + k, ew))
        least = max(0, rules.min_meld_size - en - ew - k, 1 if k == 0 else 0)
        if rules.max_meld_size is not None:
            if en + ew + k > rules.max_meld_size:
                counts.extend(() for _ in range(k, naturals + 1))
                break
            most = min(most, rules.max_meld_size - en - ew - k)
        if least == 0:
            most = max(most, 0)
        # the make-up alone decides: ask once per count of wild cards, not per choice of cards
        counts.append(tuple(w for w in range(least, most + 1)
                            if variant.meld_problem(rank, en + k, ew + w, adds_wilds=w > 0)
                            is None))
    allowance = (rank, tuple(counts))
    number = table.ids.get(allowance)
    if number is None:
        if len(table.ids) > _MAX_ALLOWANCES:  # numbers start again: so do the options
            table.ids.clear()
            table.allowed.clear()
            table.allowances.clear()
            table.options.clear()
        number = table.ids[allowance] = len(table.allowances)
        table.allowances.append(allowance)
    table.allowed[make_up] = number
    return number


_MAX_ALLOWANCES: Final = 100_000
_MAX_OPTIONS: Final = 200_000
_RANK_OPTIONS: Final[dict[tuple[object, ...], _OptionsTable]] = {}
"""Per variant and meld make-up rules (``Rules.meld_shape``), the options table."""


_CACHE_OF: Final[dict[int, tuple[Rules, _OptionsTable]]] = {}
"""The options table of each rules value, by its ``id`` (the rules value is kept with it)."""


def _options_cache(rules: Rules) -> _OptionsTable:
    """The options table of the variant and meld make-up rules of ``rules``."""
    found = _CACHE_OF.get(id(rules))
    if found is not None and found[0] is rules:
        return found[1]
    key = (type(variant_of(rules)), rules.meld_shape)
    table = _RANK_OPTIONS.get(key)
    if table is None:
        table = _RANK_OPTIONS[key] = _OptionsTable()
    if len(_CACHE_OF) > 1000:  # rules read from many requests: keep the table small
        _CACHE_OF.clear()
    _CACHE_OF[id(rules)] = (rules, table)
    return table


_MELD_ACTIONS: Final[dict[Rank, dict[tuple[Card, ...], Action]]] = {}
"""The single-group meld actions made so far, by rank and cards: the lists share them."""


def _rank_options(table: _OptionsTable, naturals: tuple[Card, ...], wilds: tuple[Card, ...],
                  allowance: int, key: OptionsKey) -> RankOptions:
    """The single-group meld actions of ``naturals`` and ``wilds`` under an allowance (its rank
    and wild-card counts): the actions, their sizes and the largest size, kept in ``table``
    under ``key``."""
    rank, counts = table.allowances[allowance]
    out: list[Action] = []
    sizes: list[int] = []
    largest = 0
    wild_sets = [submultisets(wilds, w) for w in range(len(wilds) + 1)]
    actions = _MELD_ACTIONS.get(rank)
    if actions is None:
        actions = _MELD_ACTIONS[rank] = {}
    for k, allowed in enumerate(counts):
        if not allowed:
            continue
        largest = max(largest, k + allowed[-1])  # the counts rise, and k cards can be chosen
        for nat in submultisets(naturals, k):
            for w in allowed:
                for wild in wild_sets[w]:
                    cards = nat + wild
                    action = actions.get(cards)
                    if action is None:
                        action = new_action("meld", (new_group(rank, cards),))
                        actions[cards] = action
                    out.append(action)
                    sizes.append(k + w)
    if len(table.options) > _MAX_OPTIONS:
        table.options.clear()
        _MELD_ACTIONS.clear()
    result = (out, sizes, largest)
    table.options[key] = result
    return result


# -- the draw phase --------------------------------------------------------------------------

def _draw_actions(state: HandState) -> list[Action]:
    rules = state.rules
    rule = rules.stock_exhausted_rule
    acts: list[Action] = []
    if state.answer == "yes":  # asked before the draw: only what keeps going out possible
        # the draw only where it surely goes out; takes that keep going out possible
        acts = [DRAW] if out_after_any_draw(state, state.to_move) else []
        acts.extend(a for a in take_actions(state) if take_problem(state, a) is None)
        return acts
    if state.stock or rule == "void_draw":
        acts.append(DRAW)
    takes = take_actions(state)
    acts.extend(takes)
    if not state.stock and rule != "void_draw" and not (takes and forced_take(state)):
        acts.append(PASS)
    if rules.ask_before_draw and state.answer is None and ask_problem(state) is None:
        acts.append(ASK)
    return acts


def _pile_gain(state: HandState) -> int:
    """Cards the hand gains from the pile below its top card."""
    pile = state.pile
    if state.rules.pile_red_threes_replaced:
        return len(pile) - 1
    return len(pile) - 1 - sum(pile.count(c) for c in RED_THREES)  # red threes are laid out


def take_actions(state: HandState) -> list[Action]:
    """The legal ways to take the pile now (an empty list when it cannot be taken)."""
    pile = state.pile
    if not pile or top_block(pile) is not None or one_card_take_banned(state):
        return []
    top = pile[-1]
    rules = state.rules
    fields = fields_of(rules)
    seat = state.to_move
    hand = state.hands[seat]
    rank = RANK_OF[top]
    owner = seat % fields.num_sides if state.lone_hand is None else state.owner_of(seat)
    melds = state.melds[owner]
    unmelded = not has_melded(melds)
    frozen = state.pile_frozen or (fields.pile_frozen_until_side_melds and unmelded)
    start = bisect_left(hand, rank << 2)
    end = bisect_left(hand, (rank + 1) << 2, start)
    existing = melds[rank]
    if end - start < (2 if frozen or existing is None else 0) and (
            end == start or frozen or not fields.unfrozen_take_natural_plus_wild):
        return []  # the usual case: no pair of the top card's rank in hand
    gain = _pile_gain(state)
    if unmelded:
        return _opening_takes(state, hand, melds, top, frozen, gain)
    groups = _take_groups(rules, hand[start:end], hand[bisect_left(hand, FIRST_WILD):],
                          existing, frozen)
    if not groups:
        return []
    acts = _takes_with(state, groups, rank, existing, state.canastas(owner), gain)
    if len(hand) + gain <= 3:  # taking with a pair (or less) could leave at most one card
        acts.extend(_whole_hand_actions(state, hand, melds, top, gain))
    return list(dict.fromkeys(acts))


def _opening_takes(state: HandState, hand: tuple[Card, ...], melds: SideMelds, top: Card,
                   frozen: bool, gain: int) -> list[Action]:
    """The minimal openings through the pile, and those that lay the whole hand."""
    by_rank, wilds, _ = hand_profile(hand)
    acts = _openings(state, hand, by_rank, wilds, state.minimum(state.to_move), top, frozen, gain)
    if gain <= 1 and len(hand) <= WHOLE_HAND_OPENING:  # it could leave at most one card
        acts.extend(a for a in _whole_hand_actions(state, hand, melds, top, gain)
                    if a not in acts)
    return acts


def _take_groups(rules: Rules, naturals: tuple[Card, ...], wilds: tuple[Card, ...],
                 existing: Meld | None, frozen: bool) -> list[tuple[Card, ...]]:
    """The hand cards that may go with the top card when the side has melded: none (onto the
    side's meld), a pair, a natural and a wild card, or a whole canasta laid at once."""
    fields = fields_of(rules)
    open_pair = not frozen and fields.unfrozen_take_natural_plus_wild
    groups: list[tuple[Card, ...]] = []
    if not frozen and existing is not None and rules.unfrozen_take_by_adding_to_meld:
        groups.append(())
    groups.extend(submultisets(naturals, 2))
    if open_pair:
        groups.extend(n + w for n in submultisets(naturals, 1) for w in submultisets(wilds, 1))
    if fields.hidden_canasta_bonus and existing is None:
        for group in submultisets(naturals + wilds, fields.canasta_size - 1):
            n = sum(1 for c in group if IS_NATURAL[c])
            if n >= 2 or (open_pair and n == 1):
                groups.append(group)
    return groups


def _takes_with(state: HandState, groups: list[tuple[Card, ...]], rank: Rank,
                existing: Meld | None, canastas: int, gain: int) -> list[Action]:
    """The takes that lay ``groups`` with the top card, where the meld and the hand allow."""
    rules = state.rules
    fields = fields_of(rules)
    variant = variant_of(rules)
    en, ew = split_counts(existing) if existing is not None else (0, 0)
    n_hand = len(state.hands[state.to_move])
    size = fields.canasta_size
    acts = []
    for group in groups:
        n, w = split_counts(group)
        if variant.meld_problem(rank, en + n + 1, ew + w, adds_wilds=w > 0):
            continue
        left = n_hand - len(group) + gain
        if left <= 1:
            made = canastas + (1 if en + ew + 1 + len(group) >= size > en + ew else 0)
            if not _may_end_with(state, made, left):
                continue
        acts.append(new_action("take", (new_group(rank, group),)) if group else TAKE)
    return acts


def _may_end_with(state: HandState, canastas: int, left: int) -> bool:
    """The hand-size rule (§1.6): may the player be left with ``left`` (0 or 1) cards?"""
    if left == 1 and state.turn.last_red_three:
        return True  # no discard follows: the card stays in hand (RULES §1.16.1)
    rules = state.rules
    if left == 0 and rules.going_out_requires_discard:
        return False
    return state.answer != "no" and canastas >= rules.min_canastas_to_go_out


# -- openings --------------------------------------------------------------------------------

Shape = tuple[int, int, int, int]  # rank, naturals from hand, twos, jokers


def _openings(state: HandState, hand: tuple[Card, ...], by_rank: dict[Rank, tuple[Card, ...]],
              wilds: tuple[Card, ...], minimum: int, top: Card | None, frozen: bool,
              gain: int) -> list[Action]:
    """Minimal opening melds (``meld``), or with ``top`` the minimal openings through the pile."""
    rules = state.rules
    variant = variant_of(rules)
    value = rules.value_of
    twos = tuple(c for c in wilds if c != JOKER)
    jokers = len(wilds) - len(twos)
    top_rank = RANK_OF[top] if top is not None else -1
    least = variant.limits.min_naturals
    ranks = [r for r in sorted(by_rank) if r != top_rank and len(by_rank[r]) >= least]
    top_value = value[top] if top is not None else 0
    # The search depends on the ranks only through their values and counts: cache it so.
    top_count = len(by_rank.get(top_rank, ())) if top is not None else -1
    key = (type(variant), rules.opening_id, top_value, top_count, frozen, minimum, len(twos),
           jokers, tuple((value[r * 4], len(by_rank[r])) for r in ranks))
    cached = _OPENINGS.get(key)
    if cached is not None:
        found = [[((ranks[i] if i >= 0 else top_rank), k, t, j) for i, k, t, j in chosen]
                 for chosen in cached]
        return _opening_actions(state, hand, by_rank, twos, jokers, found, top, top_rank, gain)
    if top is not None and top_count < (2 if frozen else 1):
        return []
    search = _OpeningSearch(rules, by_rank, ranks, minimum, top_rank, top_value, frozen,
                            (len(twos), jokers))
    if top is not None:
        for shape in search.shapes(top_rank, len(twos), jokers):
            t, j = shape[2], shape[3]
            search.search(0, [shape], search.group_count(*shape), len(twos) - t, jokers - j)
    else:
        search.search(0, [], 0, len(twos), jokers)
    results = search.results
    index = {r: i for i, r in enumerate(ranks)}
    if len(_OPENINGS) > 100_000:
        _OPENINGS.clear()
    _OPENINGS[key] = [[(index.get(r, -1), k, t, j) for r, k, t, j in chosen] for chosen in results]
    return _opening_actions(state, hand, by_rank, twos, jokers, results, top, top_rank, gain)


_OPENINGS: Final[dict[tuple[object, ...], list[list[Shape]]]] = {}


class _OpeningSearch:
    """The search for minimal openings at the level of shapes (rank, naturals, twos, jokers):
    the groups of ``ranks`` (and of the top card's rank, for a take) whose count reaches
    ``minimum`` and falls below it without any one of their cards."""

    def __init__(self, rules: Rules, by_rank: dict[Rank, tuple[Card, ...]],
                 ranks: list[Rank], minimum: int, top_rank: Rank, top_value: int,
                 frozen: bool, wilds: tuple[int, int]) -> None:
        self.rules = rules
        self.variant = variant_of(rules)
        self.value = value = rules.value_of
        self.by_rank = by_rank
        self.ranks = ranks
        self.minimum = minimum
        self.top_rank = top_rank
        self.top_value = top_value
        self.frozen = frozen
        self.v2 = value[FIRST_WILD]
        self.vj = value[JOKER]
        twos, jokers = wilds
        self.wild_value = twos * self.v2 + jokers * self.vj
        self.max_value = {r: len(by_rank[r]) * value[r * 4] for r in ranks}
        self.results: list[list[Shape]] = []

    def valid(self, rank: Rank, k: int, t: int, j: int) -> bool:
        """Whether ``k`` natural cards of ``rank``, ``t`` twos and ``j`` jokers make a group."""
        top = rank == self.top_rank
        if top and k < 2:
            if self.frozen or not (k == 1 and t + j >= 1
                                   and self.rules.unfrozen_take_natural_plus_wild):
                return False
        return self.variant.meld_problem(rank, k + (1 if top else 0), t + j) is None

    def group_count(self, rank: Rank, k: int, t: int, j: int) -> int:
        """The count of a group (the top card's included for its rank)."""
        return (k * self.value[rank * 4] + t * self.v2 + j * self.vj
                + (self.top_value if rank == self.top_rank else 0))

    def shapes(self, rank: Rank, t_left: int, j_left: int) -> Iterator[Shape]:
        """The groups of ``rank`` with at most ``t_left`` twos and ``j_left`` jokers."""
        n = len(self.by_rank.get(rank, ()))
        low = 0 if rank == self.top_rank else self.variant.limits.min_naturals
        for k in range(low, n + 1):
            for t in range(t_left + 1):
                for j in range(j_left + 1):
                    if self.valid(rank, k, t, j):
                        yield (rank, k, t, j)

    def minimal(self, chosen: list[Shape], total: int) -> bool:
        """Whether no group and no card of ``chosen`` (counting ``total``) can be left out."""
        minimum = self.minimum
        hidden_rule = self.rules.hidden_canasta_bonus > 0
        canasta = self.rules.canasta_size
        for rank, k, t, j in chosen:
            size = k + t + j + (1 if rank == self.top_rank else 0)
            if (rank != self.top_rank and len(chosen) > 1
                    and total - self.group_count(rank, k, t, j) >= minimum):
                return False
            if hidden_rule and size == canasta:
                continue  # a smaller group would lose the canasta laid at once
            for dk, dt, dj, dv in ((1, 0, 0, self.value[rank * 4]), (0, 1, 0, self.v2),
                                   (0, 0, 1, self.vj)):
                if (k >= dk and t >= dt and j >= dj and total - dv >= minimum
                        and self.valid(rank, k - dk, t - dt, j - dj)):
                    return False
        return True

    def search(self, i: int, chosen: list[Shape], total: int, t_left: int, j_left: int) -> None:
        """Add to ``results`` the minimal openings that extend ``chosen`` by ranks from ``i``."""
        if total >= self.minimum and chosen:  # an opening lays a meld, even with no minimum
            if self.minimal(chosen, total):
                self.results.append(list(chosen))
            return
        ranks = self.ranks
        if i == len(ranks):
            return
        if total + sum(self.max_value[r] for r in ranks[i:]) + self.wild_value < self.minimum:
            return
        for shape in self.shapes(ranks[i], t_left, j_left):
            t, j = shape[2], shape[3]
            chosen.append(shape)
            self.search(i + 1, chosen, total + self.group_count(*shape), t_left - t, j_left - j)
            chosen.pop()
        self.search(i + 1, chosen, total, t_left, j_left)


def _opening_actions(state: HandState, hand: tuple[Card, ...],
                     by_rank: dict[Rank, tuple[Card, ...]], twos: tuple[Card, ...],
                     jokers: int, results: list[list[Shape]], top: Card | None,
                     top_rank: Rank, gain: int) -> list[Action]:
    """The opening actions of value-level openings: every choice of suits, canonical."""
    canasta = state.rules.canasta_size
    acts: dict[Action, None] = {}
    n_hand = len(hand)
    for chosen in results:
        laid = sum(k + t + j for _, k, t, j in chosen)
        left = n_hand - laid + gain
        if left <= 1:
            made = sum(1 for r, k, t, j in chosen
                       if k + t + j + (1 if r == top_rank else 0) >= canasta)
            if not _may_end_with(state, made, left):
                continue
        # groups in canonical order (a take's top-card group first), so no sorting per action
        ordered = sorted(chosen, key=lambda shape: (shape[0] != top_rank, -shape[0]))
        verb = "take" if top is not None else "meld"
        for groups in _expand(ordered, by_rank, twos, jokers):
            acts[new_action(verb, groups)] = None
    return list(acts)


def _expand(chosen: list[Shape], by_rank: dict[Rank, tuple[Card, ...]], twos: tuple[Card, ...],
            jokers: int) -> Iterator[tuple[Group, ...]]:
    """Every choice of suits for value-level groups (the twos are shared between groups)."""
    for groups in _expand_from(chosen, 0, by_rank, twos, jokers):
        yield tuple(groups)


def _expand_from(chosen: list[Shape], i: int, by_rank: dict[Rank, tuple[Card, ...]],
                 twos: tuple[Card, ...], jokers: int) -> Iterator[list[Group]]:
    """The choices of suits for ``chosen[i:]`` with the twos ``twos`` left."""
    if i == len(chosen):
        yield []
        return
    rank, k, t, j = chosen[i]
    for nat in submultisets(by_rank.get(rank, ()), k):
        for two in submultisets(twos, t):
            rest = list(twos)
            for c in two:
                rest.remove(c)
            group = new_group(rank, nat + two + (JOKER,) * j)  # in canonical order
            for tail in _expand_from(chosen, i + 1, by_rank, tuple(rest), jokers):
                yield [group, *tail]


WHOLE_HAND_OPENING: Final = 16
"""The largest hand whose whole-hand openings are all listed. A larger hand that goes out at
once can open with fewer cards than all but two, and listed melds reach the rest, unless its
whole count is below the minimum (a concealed going out the rules free from it: still listed).
This keeps the list short when a side that has not melded holds many wild cards."""


def _whole_hand_actions(state: HandState, hand: tuple[Card, ...], melds: SideMelds,
                        top: Card | None, gain: int) -> list[Action]:
    """The legal melds (or takes, with the pile's ``top``) that lay the whole hand, or all of it
    but one card to discard.

    A going out is usually reached through smaller listed steps, but not when the smaller step
    would leave one card the player could not discard (NOTATION §2): the minimal opening or the
    pair for the pile leaves the card that completes the canasta needed. So every legal action
    that ends the hand this way is listed, which also gives the concealed going out that the
    opening minimum does not bind (RULES §1.10). ``gain`` is the cards the pile adds below its
    top card. The going-out solver's bounds come first, then each of its ways
    (:meth:`~canasta.going_out.GoingOut.ways`) that the plans accept.
    """
    outs = going_out_of(state.rules)
    top_rank = RANK_OF[top] if top is not None else -1
    # with a card from the pile in hand, the whole hand must be laid
    keeps = outs.kept_cards(hand, melds, gain == 0, top_rank)
    if not keeps or outs.canastas_within_reach(hand, melds, top_rank) < outs.need:
        return []  # the usual case: a lone card could go nowhere, or too few canastas
    acts: dict[Action, None] = {}
    for keep in keeps:
        rest = list(hand)
        if keep is not None:
            rest.remove(keep)
        if not rest and top is None:
            continue
        for action in outs.ways(tuple(rest), melds, top_rank):
            if action not in acts and (take_problem(state, action) if top is not None
                                       else meld_problem_of(state, action)) is None:
                acts[action] = None
    return list(acts)


# -- the play phase --------------------------------------------------------------------------

def _play_actions(state: HandState) -> list[Action]:
    rules = state.rules
    seat = state.to_move
    hand = state.hands[seat]
    owner = seat % rules.num_sides if state.lone_hand is None else state.owner_of(seat)
    melds = state.melds[owner]
    side_melded = has_melded(melds)
    canastas = state.canastas(owner) if side_melded else 0
    acts = _discard_actions(state, hand, canastas)
    by_rank, wilds, blacks = hand_profile(hand)
    if not side_melded:
        acts.extend(_opening_melds(state, hand, by_rank, wilds, melds))
    else:
        acts.extend(_meld_actions(state, hand, by_rank, wilds, melds, canastas))
        if len(blacks) >= 3 and melds[BLACK_THREE_RANK] is None:
            acts.extend(_black_three_outs(state, hand, blacks, melds, canastas))
    answer = state.answer
    if (rules.permission_question_enabled and answer is None and not state.turn.melded
            and not going_out_of(rules).surely_not(hand, melds) and ask_problem(state) is None):
        acts.append(ASK)
    if state.turn.last_red_three and answer != "yes":
        acts.append(PASS)  # done melding: the hand ends
    return acts


def _discard_actions(state: HandState, hand: tuple[Card, ...], canastas: int) -> list[Action]:
    """The discards open to the player: none after a red three drawn last (melds may follow, no
    discard: RULES §1.16.1), the last card only when the side may go out, none after a 'yes'."""
    answer = state.answer
    if state.turn.last_red_three:
        return []
    if len(hand) == 1:
        may_end = answer != "no" and canastas >= state.rules.min_canastas_to_go_out
        return [DISCARDS[hand[0]]] if may_end else []
    if answer != "yes":
        acts = []
        last = -1
        for c in hand:  # sorted: equal cards are neighbours, and one of them is one choice
            if c != last:
                acts.append(DISCARDS[c])
                last = c
        return acts
    return []


def _opening_melds(state: HandState, hand: tuple[Card, ...],
                   by_rank: dict[Rank, tuple[Card, ...]], wilds: tuple[Card, ...],
                   melds: SideMelds) -> list[Action]:
    """The openings of a side that has not melded: the minimal ones, and those that lay the
    whole hand (a concealed going out among them)."""
    answer = state.answer
    minimum = state.minimum(state.to_move)
    openings = _openings(state, hand, by_rank, wilds, minimum, None, False, 0)
    if answer == "yes":  # the asker must go out this turn: no opening that prevents it
        openings = [a for a in openings if _still_out(state, hand, melds, a)]
    if answer != "no" and (len(hand) <= WHOLE_HAND_OPENING or sum(
            map(state.rules.value_of.__getitem__, hand)) < minimum):  # only a concealed out
        whole = _whole_hand_actions(state, hand, melds, None, 0)
        openings.extend([a for a in whole if a not in openings])
    return openings


def _meld_actions(state: HandState, hand: tuple[Card, ...],
                  by_rank: dict[Rank, tuple[Card, ...]], wilds: tuple[Card, ...],
                  melds: SideMelds, canastas: int) -> list[Action]:
    """The single-group melds of a side that has melded, and the goings out that need a card
    on each of several melds at once."""
    rules = state.rules
    fields = fields_of(rules)
    ranks: list[Rank] | dict[Rank, tuple[Card, ...]] = by_rank
    if wilds:
        ranks = sorted(set(by_rank).union(r for r in NATURAL_RANKS if melds[r] is not None))
    table = _options_cache(rules)
    min_naturals = fields.min_naturals_per_meld
    n_hand = len(hand)
    roomy = n_hand - 2 if state.answer != "yes" else -1  # options this large leave 2+ cards
    acts: list[Action] = []
    for rank in ranks:
        naturals = by_rank.get(rank, ())
        existing = melds[rank]
        if existing is None:
            if len(naturals) < min_naturals:
                continue
            shape = None
        else:
            wild_count = len(existing) - bisect_left(existing, FIRST_WILD)
            shape = (len(existing) - wild_count, wild_count)
        allowance = table.allowed.get((rank, shape, len(naturals), len(wilds)))
        if allowance is None:
            allowance = _allowance(table, rules, rank, shape, len(naturals), len(wilds))
        key = (allowance, naturals, wilds)
        found = table.options.get(key)
        if found is None:
            found = _rank_options(table, naturals, wilds, allowance, key)
        options, sizes, largest = found
        if largest <= roomy:
            acts.extend(options)  # the usual case: no option comes near going out
        else:
            before = len(existing) if existing is not None else 0
            acts.extend(_near_out_melds(state, hand, melds, options, sizes, before, canastas))
    if (state.answer != "no" and canastas < fields.min_canastas_to_go_out
            and 2 <= n_hand <= _melds_on_table(melds)
            and not fields.going_out_requires_discard):
        acts.extend(_outs_one_card_each(state, hand, melds, canastas))
    return acts


def _melds_on_table(melds: SideMelds) -> int:
    """How many of a side's meld slots hold a meld."""
    laid = 0
    for meld in melds:
        if meld is not None:
            laid += 1
    return laid


def _near_out_melds(state: HandState, hand: tuple[Card, ...], melds: SideMelds,
                    options: list[Action], sizes: list[int], before: int,
                    canastas: int) -> list[Action]:
    """The melds among ``options`` (of ``sizes`` cards, onto a meld of ``before`` cards) that
    the hand-size rule (§1.6) and a partner's answer allow."""
    rules = state.rules
    fields = fields_of(rules)
    n_hand = len(hand)
    answer = state.answer
    last_red_three = state.turn.last_red_three
    need = fields.min_canastas_to_go_out
    size = fields.canasta_size
    acts = []
    for action, k in zip(options, sizes):
        left = n_hand - k
        if left == 0 or (left == 1 and not last_red_three):
            made = canastas + (1 if before + k >= size > before else 0)
            if answer == "no" or made < need or (
                    left == 0 and fields.going_out_requires_discard):
                continue
        if answer == "yes" and left and not _still_out(state, hand, melds, action):
            continue
        acts.append(action)
    return acts


def _black_three_outs(state: HandState, hand: tuple[Card, ...], blacks: tuple[Card, ...],
                      melds: SideMelds, canastas: int) -> list[Action]:
    """The melds of black threes, which only a going out lays (RULES §1.9)."""
    rules = state.rules
    answer = state.answer
    if answer == "no" or canastas < rules.min_canastas_to_go_out:
        return []
    last_red_three = state.turn.last_red_three
    acts = []
    for k in rules.black_three_meld_sizes:
        left = len(hand) - k
        if left > (0 if last_red_three else 1) or (
                left == 0 and rules.going_out_requires_discard):
            continue
        for group in submultisets(blacks, k):
            action = Action("meld", (Group(BLACK_THREE_RANK, group),))
            if answer == "yes" and left and not _still_out(state, hand, melds, action):
                continue
            acts.append(action)
    return acts


def _outs_one_card_each(state: HandState, hand: tuple[Card, ...], melds: SideMelds,
                        canastas: int) -> list[Action]:
    """Going out by laying each card of the hand on a different meld, in one action.

    Such a going out cannot be played one card at a time when the canastas it needs are only all
    complete with its last card: the step before would leave one card that cannot be discarded
    (NOTATION §2). Listed only then; otherwise single-card melds reach it.
    """
    rules = state.rules
    variant = variant_of(rules)
    size = rules.canasta_size
    need = rules.min_canastas_to_go_out
    if canastas >= need or len(hand) > sum(1 for r in NATURAL_RANKS if melds[r] is not None):
        return []  # single-card melds reach it, or there are not enough melds
    if any(IS_NATURAL[c] and melds[c >> 2] is None for c in hand):
        return []
    targets: list[list[Rank]] = []
    for c in hand:
        if IS_WILD[c]:
            options = [r for r in NATURAL_RANKS if melds[r] is not None
                       and variant.meld_problem(r, *_plus(melds[r], 0, 1)) is None]
        elif IS_NATURAL[c] and melds[c >> 2] is not None:
            options = [c >> 2]
        else:
            return []
        if not options:
            return []
        targets.append(options)
    out: list[Action] = []
    for choice in itertools.product(*targets):
        if len(set(choice)) < len(choice):
            continue
        completes = [len(melds[r] or ()) + 1 >= size > len(melds[r] or ()) for r in choice]
        total = canastas + sum(completes)
        if total < need or total - max(completes) >= need:
            continue  # not enough canastas, or playable one card at a time
        groups = tuple(Group(r, (c,)) for r, c in zip(choice, hand))
        out.append(canonical(Action("meld", groups)))
    return list(dict.fromkeys(out))


def _plus(meld: Meld | None, naturals: int, wilds: int) -> tuple[int, int]:
    n, w = split_counts(meld or ())
    return n + naturals, w + wilds


def _still_out(state: HandState, hand: tuple[Card, ...], melds: SideMelds, action: Action) -> bool:
    """After a 'yes': can the player still go out once ``action`` is played?"""
    laid = [c for g in action.groups for c in g.cards]
    rest = remove_cards(hand, laid)
    if rest is None:
        return False
    new = list(melds)
    for g in action.groups:
        existing = new[g.rank]
        new[g.rank] = tuple(sorted((existing or ()) + g.cards))
    return going_out_of(state.rules).can_go_out(rest, new, discard=not state.turn.last_red_three)


# -- asking the partner (RULES §1.14) ---------------------------------------------------------

def ask_problem(state: HandState) -> str | None:
    """Why the player to move may not ask "partner, may I go out?" now, or ``None`` (§1.14)."""
    rules = state.rules
    seat = state.to_move
    if not rules.permission_question_enabled:
        return "there is no partner to ask under these rules"
    if state.phase == DRAW_PHASE:
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
            if state.phase == DRAW_PHASE else "")
    return None


def could_go_out(state: HandState, seat: int) -> bool:
    """Whether ``seat``, playing its turn in ``state``, can still go out this turn (with the
    opening minimum or its concealed exemption when its side has not melded), whatever its
    partner would answer.

    Before the draw (a question asked first, ``ask_before_draw``) that means whatever the stock
    gives (:func:`out_after_any_draw`) or by a take of the pile.
    """
    if state.phase == DRAW_PHASE or (state.phase == ANSWER and state.turn.asked_before_draw):
        return out_after_any_draw(state, seat) or _out_by_a_take(state, seat)
    return out_from(state, seat)


def _out_by_a_take(state: HandState, seat: int) -> bool:
    """Whether ``seat``, before its draw, can take the pile and then go out this turn."""
    probe = state
    if state.phase != DRAW_PHASE or state.to_move != seat or state.answer is not None:
        draft = state.copy()
        draft.phase, draft.to_move, draft.answer, draft.turn = DRAW_PHASE, seat, None, NEW_TURN
        probe = seal(draft)
    for take in take_actions(probe):
        after = taken(probe, take)
        if not after.hands[seat] or out_from(after, seat):
            return True
    return False
