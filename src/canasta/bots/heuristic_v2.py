"""The frozen ``heuristic-v2`` bot: the heuristic as it played before it learned to freeze.

The second fixed yardstick of docs/bots.md, beside ``heuristic-v1``: it is the heuristic that
keeps its wild cards (it never freezes an open pile) and beat ``heuristic-v1`` by about +200
points a hand. It is a self-contained copy (its view, card counting, going-out plans and words
included), so that work on the shared helpers of the other bots (:mod:`canasta.bots.view`,
:mod:`canasta.bots.heuristic`, :mod:`canasta.bots.words`) cannot move it; it reads only the
observation, the legal list and the rules. ``tests/bots/test_heuristic_v2.py`` checks its
decisions on hundreds of recorded positions. Do not improve it: improve ``heuristic`` instead.

Its policy, in short (BOTS.md §3): a pile is worth a base plus so much per card and red three,
less the wild cards the take spends; it opens with the cheapest minimal opening, then holds
cards back and melds to complete canastas or once an opposing side threatens to go out; each
discard costs what keeping the card is worth plus the chance that the next opponent takes the
pile with it, weighed heavily; wild cards stay in hand but for a block of a frozen pile of 20
cards or more; it goes out when the opponents have not melded, threaten to go out, or little is
left to build, and asks its partner first when the partner holds many cards.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from canasta import table
from canasta.actions import ASK, DISCARDS, DRAW, NO, PASS, YES, Action, Group
from canasta.cards import (
    BLACK_THREE_RANK,
    IS_BLACK_THREE,
    IS_NATURAL,
    IS_RED_THREE,
    IS_WILD,
    JOKER,
    Card,
    Rank,
    card_kind,
    format_card,
)
from canasta.melds import split_counts, wild_cap
from canasta.observation import Observation
from canasta.rules import Rules
from canasta.state import SideMelds

# -- words ---------------------------------------------------------------------------------

RANK_WORDS = ("four", "five", "six", "seven", "eight", "nine", "ten", "jack", "queen", "king",
              "ace")
"""The natural ranks 0..10 in words (singular)."""

NUMBER_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
                "ten")


def rank_word(rank: Rank, count: int = 2) -> str:
    """``kings`` (or ``king`` for a count of one); black threes for the three slot."""
    if rank >= len(RANK_WORDS):
        return "black three" if count == 1 else "black threes"
    word = RANK_WORDS[rank]
    if count == 1:
        return word
    return word + ("es" if word == "six" else "s")


def a_rank(rank: Rank) -> str:
    """One card of a rank with its article: ``a king``, ``an eight``, ``an ace``."""
    word = rank_word(rank, 1)
    return ("an " if word[0] in "aeiou" else "a ") + word


def count_words(n: int) -> str:
    """``two`` for 2; digits from eleven on."""
    return NUMBER_WORDS[n] if 0 <= n < len(NUMBER_WORDS) else str(n)


def wild_words(cards: Iterable[Card]) -> str:
    """``the JK``, ``the 2c``, or ``two wild cards``."""
    cards = list(cards)
    if len(cards) == 1:
        return "the " + format_card(cards[0])
    return f"{count_words(len(cards))} wild cards"



# -- the view -----------------------------------------------------------------------------

NATURAL_RANKS = 11

PAIR_ENRICHMENT = 1.4
"""Exponent that turns the odds of a pair in a randomly dealt hand into the odds in a hand that
has been kept for pairs: ``1 - (1 - p) ** 1.4`` (measured: hands of the heuristic hold a pair of
a given rank about 1.3 times as often as counting alone says)."""
PASSED_PAIR_ODDS = 0.15
"""Odds left (against counting alone) that a player holds a pair of a rank it passed by on an
unfrozen pile: a pair would have taken it, so only a pair drawn since remains."""
PASSED_FROZEN_PAIR_ODDS = 0.15
"""The same for a pile of ``BIG_PILE`` cards or more frozen for it."""
SMALL_PILE_PAIR_ODDS = 0.5
"""The same for a smaller frozen pile, which may not have been worth taking."""
BIG_PILE = 6
DISCARDED_PAIR_ODDS = 0.35
"""Odds left that a player holds a pair of a rank it discarded (players rarely break pairs)."""


def owner_of(obs: Observation, seat: int) -> int:
    """The melds ``seat`` plays on (:func:`canasta.table.owner_of`)."""
    return obs.owner_of(seat)


def canastas_of(rules: Rules, melds: SideMelds) -> int:
    """Completed canastas among one owner's melds (:func:`canasta.table.canastas`)."""
    return table.canastas(rules, melds)


def hand_points(rules: Rules, cards: Sequence[Card]) -> int:
    """The count of cards (what they cost if still in hand when the hand ends)."""
    value = rules.value_of
    return sum(value[c] for c in cards)


def p_at_least(copies: int, p: float, k: int) -> float:
    """P(at least ``k`` of ``copies`` cards land in a hand), each independently with ``p``.

    A binomial stand-in for the hypergeometric odds: close enough for a pool of 40+ cards.
    """
    if k <= 0:
        return 1.0
    if copies < k or p <= 0.0:
        return 0.0
    if p >= 1.0:
        return 1.0
    q = 1.0 - p
    below = q ** copies  # exactly 0
    if k >= 2:
        below += copies * p * q ** (copies - 1)
    if k >= 3:
        below += copies * (copies - 1) / 2 * p * p * q ** (copies - 2)
    return max(0.0, 1.0 - below)


class View:
    """Counts and derived facts of one observation, computed once per decision."""

    __slots__ = (
        "obs", "rules", "seat", "n", "owner", "melds", "side_melded", "canastas", "nat",
        "nat_cards", "wilds", "blacks", "next_seat", "next_owner", "opp_owners", "partners",
        "_unseen", "_pool", "_threat", "_lacks", "_open_passes",
    )

    def __init__(self, obs: Observation) -> None:
        rules = obs.rules
        self.obs = obs
        self.rules = rules
        self.seat = seat = obs.seat
        self.n = n = rules.num_players
        self.owner = owner = owner_of(obs, seat)
        self.melds: SideMelds = obs.melds[owner]
        self.side_melded = any(m is not None for m in self.melds)
        self.canastas = canastas_of(rules, self.melds)
        nat = [0] * NATURAL_RANKS
        nat_cards: list[list[Card]] = [[] for _ in range(NATURAL_RANKS)]
        wilds: list[Card] = []
        blacks: list[Card] = []
        for c in obs.hand:
            if c < 44:
                r = c >> 2
                nat[r] += 1
                nat_cards[r].append(c)
            elif c >= 48:
                wilds.append(c)
            elif IS_BLACK_THREE[c]:
                blacks.append(c)
        self.nat = nat
        self.nat_cards = nat_cards
        self.wilds = wilds
        self.blacks = blacks
        self.next_seat = (seat + 1) % n
        self.next_owner = owner_of(obs, self.next_seat)
        self.opp_owners = sorted({owner_of(obs, s) for s in range(n)} - {owner})
        self.partners = [s for s in range(n) if s != seat and owner_of(obs, s) == owner]
        self._unseen: list[int] | None = None
        self._pool = 0
        self._threat: float | None = None
        self._lacks: dict[tuple[int, Rank], float] | None = None
        self._open_passes: dict[tuple[int, Rank], float] = {}

    # -- card counting ---------------------------------------------------------------------
    def unseen(self) -> list[int]:
        """Per natural rank (0..10), then wild cards (index 11): copies the seat cannot see."""
        if self._unseen is None:
            rules, obs = self.rules, self.obs
            copies = 4 * rules.num_decks
            left = [copies] * NATURAL_RANKS + [copies + rules.num_jokers]
            reds_seen = 0

            def see(cards: Sequence[Card]) -> None:
                nonlocal reds_seen
                for c in cards:
                    if c < 44:
                        left[c >> 2] -= 1
                    elif c >= 48:
                        left[11] -= 1
                    elif IS_RED_THREE[c]:
                        reds_seen += 1

            see(obs.hand)
            see(obs.pile)
            for melds in obs.melds:
                for m in melds:
                    if m is not None:
                        see(m)
            for reds in obs.red_threes:
                reds_seen += len(reds)
            for s, known in enumerate(obs.known):
                if s != self.seat:
                    see(known)
            self._unseen = left
            hidden = obs.stock_size + sum(
                size - len(obs.known[s]) for s, size in enumerate(obs.hand_sizes)
                if s != self.seat)
            # unseen red threes all lie in the stock: they are never in a hand
            self._pool = max(1, hidden - (2 * rules.num_decks - reds_seen))
        return self._unseen

    def slot_share(self, seat: int) -> float:
        """The chance that one given unseen card is among ``seat``'s unknown cards."""
        self.unseen()
        free = self.obs.hand_sizes[seat] - len(self.obs.known[seat])
        return min(1.0, max(0, free) / self._pool)

    def known_count(self, seat: int, rank: Rank) -> tuple[int, int]:
        """(naturals of ``rank``, wild cards) known to be in ``seat``'s hand."""
        nat = wild = 0
        for c in self.obs.known[seat]:
            if c < 44 and c >> 2 == rank:
                nat += 1
            elif c >= 48:
                wild += 1
        return nat, wild

    def p_holds(self, seat: int, rank: Rank, k: int) -> float:
        """P(``seat`` holds at least ``k`` natural cards of ``rank``), lowered for a pair of a
        rank the seat showed it lacks (:meth:`pair_odds`)."""
        known_nat, _ = self.known_count(seat, rank)
        p = p_at_least(self.unseen()[rank], self.slot_share(seat), k - known_nat)
        if k - known_nat >= 2:
            # players keep their pairs and throw their lone cards, so hands hold more pairs
            # than a random deal would give them
            p = (1.0 - (1.0 - p) ** PAIR_ENRICHMENT) * self.pair_odds(seat, rank)
        return p

    # -- what the discards and the passes showed -------------------------------------------
    def pile_story(self) -> list[tuple[Card, int, bool]]:
        """The pile's cards below the top few turns, newest first, with the seat that discarded
        each and whether the pile was frozen (by its cards) when the next seat passed it by.

        Every turn ends with one discard, so counting back from the seat whose turn it is, the
        top card came from the seat before, the next from the one before that, and so on. The
        bottom cards are left out when they may be the deal's upcards.
        """
        obs = self.obs
        pile = obs.pile
        turn_seat = obs.to_move
        if obs.phase == "answer":
            turn_seat = (obs.to_move - self.rules.num_sides) % self.n  # the asker's turn
        frozen_below = [False] * len(pile)
        frozen = False
        for i, c in enumerate(pile):
            frozen = frozen or table.freezes(self.rules, c)
            frozen_below[i] = frozen
        # the deal's upcards: any covered ones and the card that covers them
        dealt = 0
        cover = self.rules.upcard_cover_kinds
        while dealt < len(pile) - 1 and card_kind(pile[dealt]) in cover:
            dealt += 1
        story = []
        for k in range(min(len(pile) - 1 - dealt, 3 * self.n)):
            i = len(pile) - 1 - k
            story.append((pile[i], (turn_seat - 1 - k) % self.n, frozen_below[i]))
        return story

    def pair_evidence(self) -> dict[tuple[int, Rank], float]:
        """Per (seat, rank) that the pile story speaks of: the odds left that the seat holds a
        natural pair of the rank (see :meth:`pair_odds`)."""
        if self._lacks is None:
            self._lacks = self._read_pile_story()
        return self._lacks

    def pair_odds(self, seat: int, rank: Rank) -> float:
        """How much likelier than by counting it is that ``seat`` holds a natural pair of
        ``rank``: below 1 when it passed by a pile topped by that rank (it would have taken it
        with a pair) or discarded one (players keep their pairs)."""
        return self.pair_evidence().get((seat, rank), 1.0)

    def _read_pile_story(self) -> dict[tuple[int, Rank], float]:
        lacks: dict[tuple[int, Rank], float] = {}
        n = self.n
        for k, (card, discarder, frozen) in enumerate(self.pile_story()):
            if not IS_NATURAL[card]:
                continue
            rank = card >> 2
            key = (discarder, rank)
            lacks[key] = min(lacks.get(key, 1.0), DISCARDED_PAIR_ODDS)
            passer = (discarder + 1) % n
            if passer == discarder or passer == self.seat:
                continue
            melded = self.owner_melded(owner_of(self.obs, passer))
            size = len(self.obs.pile) - k  # the pile the passer saw
            if melded and not frozen:
                odds = PASSED_PAIR_ODDS
                self._open_passes[(passer, rank)] = PASSED_PAIR_ODDS
            else:
                odds = PASSED_FROZEN_PAIR_ODDS if size >= BIG_PILE else SMALL_PILE_PAIR_ODDS
            key = (passer, rank)
            lacks[key] = min(lacks.get(key, 1.0), odds)
        return lacks

    def p_can_take(self, seat: int, rank: Rank, frozen: bool) -> float:
        """P(``seat`` could take a pile topped by ``rank``) given whether it is frozen for it."""
        rules = self.rules
        owner = owner_of(self.obs, seat)
        if not frozen and rules.unfrozen_take_by_adding_to_meld and (
                self.obs.melds[owner][rank] is not None):
            return 1.0
        pair = self.p_holds(seat, rank, 2)
        if frozen or not rules.unfrozen_take_natural_plus_wild:
            return pair
        one = max(0.0, self.p_holds(seat, rank, 1) - pair)
        _, known_wild = self.known_count(seat, rank)
        wild = 1.0 if known_wild else p_at_least(self.unseen()[11], self.slot_share(seat), 1)
        # a seat that passed by an open pile topped by this rank had no card and wild to take it
        self.pair_evidence()
        return min(1.0, pair + one * wild * self._open_passes.get((seat, rank), 1.0))

    # -- the table -------------------------------------------------------------------------
    def owner_melded(self, owner: int) -> bool:
        """True when ``owner`` has a meld on the table."""
        return table.has_melded(self.obs.melds[owner])

    def frozen_for(self, seat: int) -> bool:
        """Whether the pile is frozen for ``seat`` now (RULES §1.11)."""
        return self.obs.freeze_for(seat).frozen

    def hand_cards(self, owner: int) -> int:
        """Cards held by the seats that play on ``owner``'s melds."""
        obs = self.obs
        return sum(size for s, size in enumerate(obs.hand_sizes) if owner_of(obs, s) == owner)

    def table_points(self, owner: int) -> int:
        """Card values plus canasta bonuses of one owner's melds."""
        rules = self.rules
        value = rules.value_of
        total = 0
        for m in self.obs.melds[owner]:
            if m is None:
                continue
            total += sum(value[c] for c in m)
            if len(m) >= rules.canasta_size:
                mixed = any(IS_WILD[c] for c in m)
                total += rules.mixed_canasta_bonus if mixed else rules.natural_canasta_bonus
        return total

    def threat(self) -> float:
        """Roughly, how likely the hand ends within a round (an opponent going out, or the stock
        running dry), from 0 to 1. Cards still held then count against their side."""
        if self._threat is None:
            self._threat = self._estimate_threat()
        return self._threat

    def _estimate_threat(self) -> float:
        rules, obs = self.rules, self.obs
        need = rules.min_canastas_to_go_out
        worst = 0.0
        for s in range(self.n):
            owner = owner_of(obs, s)
            if owner == self.owner:
                continue
            melds = obs.melds[owner]
            size = obs.hand_sizes[s]
            made = canastas_of(rules, melds)
            if made >= need:
                t = (0.75 if size <= 2 else 0.5 if size <= 3 else 0.3 if size <= 5
                     else 0.15 if size <= 8 else 0.05)
            elif made == need - 1:
                near = max((len(m) for m in melds if m is not None and len(m) < rules.canasta_size),
                           default=0)
                t = 0.2 if near >= rules.canasta_size - 2 and size <= 6 else 0.05
            else:
                t = 0.0
            worst = max(worst, t)
        stock_turns = obs.stock_size / max(1, rules.draw_count)
        if stock_turns < self.n * 2:
            worst = max(worst, 1.0 - stock_turns / (self.n * 2))
        return worst


# -- going out -----------------------------------------------------------------------------

class OutPlan(NamedTuple):
    """Meld groups that empty a hand, in the order to lay them, and the final discard."""

    groups: tuple[Group, ...]
    discard: Card | None
    score: int


def _orphans(rules: Rules, nat: Sequence[int], melds: SideMelds, blacks: int) -> int:
    """Cards that cannot be melded at all (lone naturals of unmelded ranks, stray threes)."""
    out = 0
    for r in range(NATURAL_RANKS):
        k = nat[r]
        if k and melds[r] is None and k < rules.min_naturals_per_meld:
            out += k
    if blacks and (blacks not in rules.black_three_meld_sizes
                   or melds[BLACK_THREE_RANK] is not None):
        out += blacks if blacks > max(rules.black_three_meld_sizes) else 1
    return out


def plan_going_out(rules: Rules, hand: Sequence[Card], melds: SideMelds) -> OutPlan | None:
    """The best way to meld ``hand`` away onto ``melds`` (the side has melded), or ``None``.

    Tries melding every card and every single final discard. The plan meets the canastas the
    rules need to go out and lays canasta-making groups first, so each step is legal on its own.
    """
    nat = [0] * NATURAL_RANKS
    blacks = 0
    for c in hand:
        if c < 44:
            nat[c >> 2] += 1
        elif IS_BLACK_THREE[c]:
            blacks += 1
        elif IS_RED_THREE[c]:
            return None
    if _orphans(rules, nat, melds, blacks) > 1:
        return None
    options: list[Card | None] = [] if rules.going_out_requires_discard else [None]
    options.extend(sorted(set(hand), reverse=True))
    best: OutPlan | None = None
    for discard in options:
        rest = list(hand)
        if discard is not None:
            rest.remove(discard)
            if not rest:
                continue
        plan = _partition(rules, rest, melds, discard)
        if plan is not None and (best is None or plan.score > best.score):
            best = plan
            if discard is None:
                break  # melding every card scores best: the last card counts too
    return best


class _Bounds(NamedTuple):
    """Per rank a plan lays cards on: wild cards it must take (``lower``), may take beyond that
    (``room``), its size with the must (``base``) and whether it is natural so far."""

    lower: dict[Rank, int]
    room: dict[Rank, int]
    base: dict[Rank, int]
    natural: dict[Rank, bool]


def _sort_hand(rest: Sequence[Card]) -> tuple[list[list[Card]], list[Card], list[Card]]:
    """The cards by kind: naturals per rank, wild cards, black threes."""
    naturals: list[list[Card]] = [[] for _ in range(NATURAL_RANKS)]
    wilds: list[Card] = []
    blacks: list[Card] = []
    for c in rest:
        if IS_NATURAL[c]:
            naturals[c >> 2].append(c)
        elif IS_WILD[c]:
            wilds.append(c)
        else:
            blacks.append(c)
    return naturals, wilds, blacks


def _add_rank(rules: Rules, b: _Bounds, r: Rank, n: int, existing: Sequence[Card] | None
              ) -> bool:
    """Record in ``b`` the wild-card bounds of rank ``r`` holding ``n`` naturals (nothing when
    the rank takes no part); ``False`` when its naturals cannot be melded."""
    if existing is None:
        if n == 0:
            return True
        if n < rules.min_naturals_per_meld:
            return False
        low, cap, size = max(0, rules.min_meld_size - n), wild_cap(rules, n), n
        b.natural[r] = True
    else:
        en, ew = split_counts(existing)
        low, cap, size = 0, max(0, wild_cap(rules, en + n) - ew), len(existing) + n
        b.natural[r] = ew == 0
        if n == 0 and cap == 0:
            return True
    if rules.max_meld_size is not None:
        cap = min(cap, rules.max_meld_size - size)
    if low > cap:
        return False
    b.lower[r], b.room[r], b.base[r] = low, cap - low, size + low
    return True


def _bounds(rules: Rules, naturals: Sequence[Sequence[Card]], melds: SideMelds) -> _Bounds | None:
    """The wild-card bounds of every rank the plan lays cards on, or ``None`` if one cannot."""
    b = _Bounds({}, {}, {}, {})
    for r in range(NATURAL_RANKS):
        if not _add_rank(rules, b, r, len(naturals[r]), melds[r]):
            return None
    return b


def _finish_canastas(rules: Rules, melds: SideMelds, b: _Bounds, extra: dict[Rank, int],
                     budget: int) -> int | None:
    """Spend wild cards finishing the closest canastas until the rules' count is met; the
    budget left, or ``None`` when the canastas to go out cannot be made."""
    size = rules.canasta_size
    base, room = b.base, b.room
    made = canastas_of(rules, melds) + sum(1 for r in base if base[r] >= size and (
        melds[r] is None or len(melds[r] or ()) < size))
    for r in sorted((r for r in base if base[r] < size and size - base[r] <= room[r]),
                    key=lambda r: size - base[r]):
        need = size - base[r]
        if need > budget or made >= rules.min_canastas_to_go_out:
            break
        extra[r] += need
        budget -= need
        made += 1
    return budget if made >= rules.min_canastas_to_go_out else None


def _spread_spare(rules: Rules, b: _Bounds, extra: dict[Rank, int], budget: int) -> int:
    """Put spare wild cards where they spoil least (mixed melds first, natural canastas last);
    the wild cards that found no room."""
    size = rules.canasta_size

    def spoil(r: Rank) -> tuple[int, int]:
        total = b.base[r] + extra[r]
        return (1 if b.natural[r] and b.lower[r] + extra[r] == 0 and total >= size else 0,
                -total)

    for r in sorted(b.room, key=spoil):
        if not budget:
            break
        add = min(budget, b.room[r] - extra[r])
        if add > 0:
            extra[r] += add
            budget -= add
    return budget


def _group_score(rules: Rules, before: Sequence[Card], cards: Sequence[Card], wilds: int) -> int:
    """What laying ``cards`` (``wilds`` of them wild) on ``before`` scores: their values and the
    canasta it makes, less the natural bonus a wild card spoils."""
    size = rules.canasta_size
    total = len(before) + len(cards)
    score = sum(rules.value_of[c] for c in cards)
    mixed_before = any(IS_WILD[c] for c in before)
    if total >= size and len(before) < size:
        score += (rules.mixed_canasta_bonus if wilds > 0 or mixed_before
                  else rules.natural_canasta_bonus)
    elif total >= size and wilds and not mixed_before:
        score -= rules.natural_canasta_bonus - rules.mixed_canasta_bonus
    return score


def _partition(rules: Rules, rest: list[Card], melds: SideMelds,
               discard: Card | None) -> OutPlan | None:
    naturals, wilds, blacks = _sort_hand(rest)
    if blacks and (len(blacks) not in rules.black_three_meld_sizes
                   or melds[BLACK_THREE_RANK] is not None):
        return None
    b = _bounds(rules, naturals, melds)
    if b is None:
        return None
    budget = len(wilds) - sum(b.lower.values())
    if budget < 0 or budget > sum(b.room.values()):
        return None
    extra = dict.fromkeys(b.lower, 0)
    left = _finish_canastas(rules, melds, b, extra, budget)
    if left is None or _spread_spare(rules, b, extra, left):
        return None
    wild_pool = sorted(wilds)  # twos before jokers
    size = rules.canasta_size
    first: list[Group] = []
    then: list[Group] = []
    score = 0
    for r in b.lower:
        k = b.lower[r] + extra[r]
        cards = naturals[r] + wild_pool[:k]
        del wild_pool[:k]
        if not cards:
            continue
        before = melds[r] or ()
        score += _group_score(rules, before, cards, k)
        completes = len(before) + len(cards) >= size > len(before)
        (first if completes else then).append(Group(r, tuple(sorted(cards))))
    # canasta-making groups first: after them every step may leave the hand short
    ordered = first + then
    if blacks:
        score += sum(rules.value_of[c] for c in blacks)
        ordered.append(Group(BLACK_THREE_RANK, tuple(sorted(blacks))))
    if discard is not None and IS_WILD[discard]:
        score -= 5  # a discarded wild card freezes nothing useful at the end; keep it counted
    return OutPlan(tuple(ordered), discard, score)



# -- the policy ---------------------------------------------------------------------------

@dataclass(frozen=True)
class V2Weights:
    """Every tunable number of the heuristic bot, in points unless said otherwise."""

    # -- taking the pile
    take_base: float = 40.0
    """Worth of any take: a meld made and the tempo of the pile."""
    take_per_card: float = 25.0
    """Worth of each card picked up."""
    take_red_three: float = 100.0
    """Worth of a red three lying in the pile."""
    take_wild_cost: float = 105.0
    """Cost of a two spent on the take (a joker costs twice as much)."""
    take_late_risk: float = 1.0
    """Share of the pile's points charged when the hand may end soon (times the threat)."""
    # -- melding
    open_wild_cost: float = 30.0
    """Cost of a two spent on the opening meld (a joker costs twice as much)."""
    open_card_cost: float = 3.0
    """Cost of each card laid in the opening (cards held keep options)."""
    keep_cards: int = 3
    """Cards kept in hand when melding, unless going out or the hand is about to end."""
    layoff_value: float = -30.0
    """Worth of laying natural cards onto the side's meld (negative: rather hold them)."""
    new_meld_value: float = -30.0
    """Worth of starting a meld of three or more natural cards (negative: rather hold them)."""
    meld_threat: float = 300.0
    """Extra worth of any lay-off or new meld per unit of threat: held cards count against the
    side if the hand ends, so they go down once an opposing side can go out."""
    hold_pairs_pile: int = 4
    """Pile size from which a frozen pile makes the bot keep a natural pair of each rank."""
    fight_hold: float = 2.0
    """Cost per pile card of laying cards down (short of a canasta) while the pile is frozen
    for the side: held cards are the pairs that take it and the safe discards that keep it."""
    finish_wilds: int = 2
    """Most wild cards spent to finish a canasta once the side has the canastas to go out."""
    dump_threat: float = 0.5
    """Threat above which everything that fits is laid down to save points."""
    # -- discarding
    keep_wild: float = 300.0
    """Cost of discarding a two: wild cards finish canastas, so one goes only when every other
    card would hand the next player a big pile (or as a deliberate freeze, when set)."""
    joker_factor: float = 1.5
    """A joker's worth in hand over a two's."""
    block_share: float = 0.5
    """Share of the cost of the cheapest natural card that a wild card on an already frozen pile
    of ``block_min_pile`` cards or more still leaves (it blocks only the next player)."""
    block_min_pile: int = 20
    """Smallest frozen pile on which a wild card may block the next player."""
    keep_pair: float = 30.0
    """Cost of breaking a natural pair (the currency for frozen piles)."""
    keep_triple: float = 40.0
    """Cost of discarding one of three or more natural cards of a rank (a pair stays)."""
    frozen_pair_per_card: float = 0.15
    """Extra worth of a pair, per pile card, while the pile is frozen for the side."""
    keep_single: float = 12.0
    """Cost of discarding a lone natural card."""
    keep_melded_rank: float = 4.0
    """Cost of discarding a natural card of a rank the side has melded."""
    shed_their_ranks: float = 25.0
    """Preference, while the pile is frozen for the next opponent, for discarding a rank their
    side has melded: it needs a pair now, but would hand them an open pile later."""
    canasta_progress: float = 30.0
    """Extra cost of discarding a card of the side's unfinished meld, divided by the cards the
    meld still lacks for a canasta (the last ones are the dearest)."""
    keep_black_three: float = 60.0
    """Worth of keeping a black three for later, when the pile is worth blocking (the next
    player cannot take a pile topped by it)."""
    black_three_per_card: float = 4.0
    """How much less a black three is worth keeping per card of the pile: on a big pile it is
    the block to use now."""
    danger: float = 12.0
    """Weight of the expected pile value handed to the next opponent (high: a pile given away
    is rarely won back, and the card that risks least is nearly always the one to throw)."""
    pile_base: float = 60.0
    """What any pile is worth to its taker."""
    pile_per_card: float = 40.0
    """What each card of a pile is worth to its taker."""
    unmelded_take_factor: float = 0.5
    """Chance that an unmelded side also meets its minimum when it holds the pair."""
    freeze_value: float = 10.0
    """Worth per pile card of freezing the pile when the opponents have melded."""
    freeze_share: float = 0.5
    """Share of the danger of the safest other card that freezing the pile saves."""
    freeze_min_pile: int = 0
    """Smallest pile (with the discard) worth freezing with a wild card; 0: never freeze (the
    default: against heuristic-v1 every freezing setting measured lost points,
    docs/bot-experiments.md)."""
    points_weight: float = 1.0
    """Weight of a card's points when the hand may end soon (times the threat)."""
    # -- going out
    aggression: float = 2.0
    """Scales the wish to go out (race) against staying to build."""
    out_base: float = 100.0
    """Going out's own worth (the bonus) before the situation is weighed."""
    out_opp_unmelded: float = 400.0
    """Extra wish to go out while an opposing side has not melded."""
    out_threat: float = 300.0
    """Extra wish to go out per unit of threat (the hand may end anyway)."""
    out_build: float = 90.0
    """Wish to stay for each meld of the side that is close to a canasta."""
    out_partner_card: float = 15.0
    """Wish to stay per card in the partner's hand (they count against the side)."""
    out_opp_card: float = 0.0
    """Wish to go out per card in an opposing side's hands (they count against it)."""
    ask_partner_cards: int = 4
    """Ask the partner first when they hold at least this many cards."""
    answer_points: float = 60.0
    """What a round of play costs the side, in points, when the partner asks to go out: the
    partner answers "no" only if staying is worth more (times one plus the threat)."""
    answer_meld: float = 1.0
    """Worth of each point the hand could lay down by staying."""
    answer_canasta: float = 300.0
    """Worth of each canasta the hand could finish by staying."""

    @classmethod
    def from_params(cls, params: dict[str, str]) -> V2Weights:
        """Weights with the named fields overridden; raises ``ValueError`` on a bad name/value."""
        fields = {f.name: f for f in dataclasses.fields(cls)}
        changes: dict[str, Any] = {}
        for key, text in params.items():
            f = fields.get(key)
            if f is None:
                raise ValueError(f"unknown weight {key!r} (weights: {', '.join(fields)})")
            try:
                changes[key] = int(text) if f.type in ("int", int) else float(text)
            except ValueError:
                kind = "an integer" if f.type in ("int", int) else "a number"
                raise ValueError(f"weight {key!r} must be {kind}, not {text!r}") from None
        return dataclasses.replace(cls(), **changes)


DEFAULT_WEIGHTS = V2Weights()


def resolve_weights(weights: object, params: dict[str, str]) -> V2Weights:
    """Weights given whole (from code) or by name (from a spec); raises ``ValueError``."""
    if weights is None:
        return V2Weights.from_params(params) if params else DEFAULT_WEIGHTS
    if not isinstance(weights, V2Weights) or params:
        raise ValueError("give the weights either as V2Weights or by name, "
                         f"not {weights!r}")
    return weights


class Moves:
    """The legal actions of the seat to move."""

    __slots__ = ("_list", "_set")

    def __init__(self, legal: Sequence[Action]) -> None:
        self._list = legal
        self._set: set[Action] | None = None

    def listed(self) -> Sequence[Action]:
        """Every legal action."""
        return self._list

    def only(self) -> Action | None:
        """The single legal action, when the list holds just one."""
        return self._list[0] if len(self._list) == 1 else None

    def __contains__(self, action: object) -> bool:
        if self._set is None:
            self._set = set(self._list)
        return action in self._set

    def of(self, verb: str) -> list[Action]:
        """The legal actions with this verb."""
        return [a for a in self._list if a.verb == verb]

    def discards(self, obs: Observation) -> list[Action]:
        """The legal discards."""
        return self.of("discard")


class HeuristicV2Bot:
    """The frozen heuristic of the second release; see the module docstring."""

    name = "heuristic-v2"

    def __init__(self, weights: V2Weights | None = None, **params: str) -> None:
        self.weights = resolve_weights(weights, params)

    def choose(self, obs: Observation, legal: Sequence[Action], rng: random.Random) -> Action:
        """The heuristic's action (deterministic: ``rng`` is not used)."""
        return decide(obs, legal, self.weights)[0]

    def explain(self, obs: Observation, legal: Sequence[Action],
                rng: random.Random) -> tuple[Action, str]:
        """The heuristic's action and a one-line reason a player can read."""
        return decide(obs, legal, self.weights)


def decide(obs: Observation, legal: Sequence[Action] | Moves,
           w: V2Weights = DEFAULT_WEIGHTS) -> tuple[Action, str]:
    """The heuristic's choice among the legal actions and why."""
    moves = legal if isinstance(legal, Moves) else Moves(legal)
    single = moves.only()
    if single is not None:
        return single, "the only legal action"
    phase = obs.phase
    if phase == "draw":
        return _draw_phase(View(obs), moves, w)
    if phase == "answer":
        return _answer(View(obs), w)
    return _play_phase(View(obs), moves, w)


# -- the draw phase ------------------------------------------------------------------------

def take_scores(view: View, moves: Moves,
                w: V2Weights = DEFAULT_WEIGHTS) -> list[tuple[float, Action]]:
    """Each legal take with its worth against drawing (positive: better than the stock)."""
    takes = moves.of("take")
    if not takes:
        return []
    obs = view.obs
    value = view.rules.value_of
    pile = obs.pile
    picked = [c for c in pile[:-1] if not IS_RED_THREE[c]]
    reds = len(pile) - 1 - len(picked)
    gain = (w.take_base + w.take_per_card * len(picked) + w.take_red_three * reds
            - w.take_late_risk * view.threat() * sum(value[c] for c in picked))
    out: list[tuple[float, Action]] = []
    for action in takes:
        cost = 0.0
        for i, group in enumerate(action.groups):
            for c in group.cards:
                if IS_WILD[c]:
                    cost += w.take_wild_cost * (2 if c == JOKER else 1)
                elif i:
                    cost += w.open_card_cost
        out.append((gain - cost, action))
    return out


def _draw_phase(view: View, moves: Moves, w: V2Weights) -> tuple[Action, str]:
    obs = view.obs
    if (view.rules.ask_before_draw and obs.answer is None and view.side_melded
            and _should_ask(view, w)):
        # asking before the draw is allowed only when going out is sure: ask now if going out
        # is wanted (a "yes" keeps it possible, and a take that goes out leaves no later time)
        score, why = want_out(view, w)
        if score > 0 and ASK in moves:
            return ASK, f"ask partner before drawing: I can go out whatever I draw ({why})"
    scored = take_scores(view, moves, w)
    fallback = DRAW if DRAW in moves else PASS if PASS in moves else None
    if scored:
        score, best = max(scored, key=lambda t: t[0])
        if score > 0 or fallback is None:
            n = len(view.obs.pile)
            return best, (f"take the pile ({n} card{'s' if n != 1 else ''}, worth about "
                          f"{score:+.0f} points over drawing)")
    if fallback is None:
        return moves.listed()[0], "the only kind of action left"
    if fallback == PASS:
        return PASS, "the stock is out and the pile is not worth taking: end the hand"
    if scored:
        return DRAW, "draw: the pile is not worth what taking it costs"
    return DRAW, "draw from the stock (the pile cannot be taken)"


# -- answering "may I go out?" -------------------------------------------------------------

def _answer(view: View, w: V2Weights) -> tuple[Action, str]:
    """Yes unless what this hand could still lay down outweighs what a round costs.

    A "yes" ends the hand: the cards in this hand count against the side. A "no" keeps it going
    for a round, in which this hand can lay down what fits (its points then count for the side
    instead of against it, and may finish a canasta), while the opponents play on too.
    """
    points = hand_points(view.rules, view.obs.hand)
    threat = view.threat()
    if any(not view.owner_melded(o) for o in view.opp_owners):
        return YES, "yes: the opponents have not melded, so going out now costs them most"
    if threat >= 0.5:
        return YES, "yes: the hand may end any moment anyway"
    if _crosses_target(view, points):
        return YES, "yes: going out should win the game"
    fits, canastas = _layable(view)
    stay = w.answer_meld * fits + w.answer_canasta * len(canastas)
    if stay <= w.answer_points * (1.0 + threat):
        return YES, f"yes: my hand counts only {points} points"
    if canastas:
        ranks = " and ".join(rank_word(r) for r in canastas)
        return NO, f"no: I can still finish the canasta of {ranks}"
    return NO, f"no: I can still lay down {fits} points of my {points}"


def _layable(view: View) -> tuple[int, list[int]]:
    """Points of the hand that fit the side's melds or make new ones, and the ranks whose
    canasta the hand could finish."""
    rules = view.rules
    value = rules.value_of
    size = rules.canasta_size
    room = 0
    fits = 0
    canastas = []
    for r in range(len(view.nat)):
        k = view.nat[r]
        meld = view.melds[r]
        if meld is None:
            if k >= rules.min_naturals_per_meld and k + len(view.wilds) >= rules.min_meld_size:
                fits += sum(value[c] for c in view.nat_cards[r])
            continue
        fits += sum(value[c] for c in view.nat_cards[r])
        _, ew = split_counts(meld)
        spare = max(0, wild_cap(rules, len(meld) - ew + k) - ew)
        room += spare
        if len(meld) < size and len(meld) + k + min(spare, len(view.wilds)) >= size:
            canastas.append(r)
    if room:
        fits += sum(value[c] for c in view.wilds)
    return fits, canastas


def _crosses_target(view: View, in_hand: int) -> bool:
    rules = view.rules
    mine = view.obs.scores[view.seat % rules.num_sides]
    return (mine + view.table_points(view.owner) + rules.going_out_bonus - in_hand
            >= rules.target_score)


# -- the play phase ------------------------------------------------------------------------

def _play_phase(view: View, moves: Moves, w: V2Weights) -> tuple[Action, str]:
    answer = view.obs.answer
    if view.obs.turn.last_red_three:
        return _last_melds(view, moves, w)
    if answer != "no":
        out = _going_out(view, moves, w)
        if out is not None:
            return out
    if answer == "yes":  # bound to go out: lay the most cards
        melds = moves.of("meld")
        if melds:
            return (max(melds, key=lambda a: sum(len(g.cards) for g in a.groups)),
                    "partner said yes: laying cards down to go out")
        return moves.listed()[0], "partner said yes: going out"
    meld = _choose_meld(view, moves, w)
    if meld is not None:
        return meld
    return _discard(view, moves, w)


def _last_melds(view: View, moves: Moves, w: V2Weights) -> tuple[Action, str]:
    """After a last red three (``last_red_three_may_meld``) the hand ends with this turn and no
    discard follows: go out if the hand melds whole, else lay down what counts most (an
    opening first: it also turns the side's red threes positive), then stop."""
    if view.obs.answer != "no":
        out = _going_out(view, moves, dataclasses.replace(w, aggression=w.aggression + 100.0))
        if out is not None:
            return out
    value = view.rules.value_of
    size = view.rules.canasta_size

    def worth(action: Action) -> float:
        total = 0.0
        for g in action.groups:
            total += sum(value[c] for c in g.cards)
            meld = view.melds[g.rank] if g.rank < len(view.melds) else None
            before = len(meld) if meld is not None else 0
            if before < size <= before + len(g.cards):
                total += view.rules.mixed_canasta_bonus
        return total

    melds = [a for a in moves.of("meld") if worth(a) > 0]
    if melds:
        best = max(melds, key=worth)
        return best, "the stock is out after my red three: laying down what I can before the end"
    if PASS in moves:
        return PASS, "the stock is out after my red three and nothing more melds: the hand ends"
    return moves.listed()[0], "the only kind of action left"


def want_out(view: View, w: V2Weights = DEFAULT_WEIGHTS) -> tuple[float, str]:
    """How much going out now beats staying in (positive: go out), and the main reason."""
    obs = view.obs
    size = view.rules.canasta_size
    opp_unmelded = any(not view.owner_melded(o) for o in view.opp_owners)
    threat = view.threat()
    score = w.aggression * (w.out_base + w.out_threat * threat
                            + (w.out_opp_unmelded if opp_unmelded else 0.0))
    near = sum(1 for m in view.melds if m is not None and size - 3 <= len(m) < size)
    partner_cards = sum(obs.hand_sizes[p] for p in view.partners)
    opp_cards = sum(view.hand_cards(o) for o in view.opp_owners) / len(view.opp_owners)
    score += w.out_opp_card * opp_cards
    score -= w.out_build * near + w.out_partner_card * partner_cards
    if _crosses_target(view, 0):
        return score + 1000.0, "going out should win the game"
    if opp_unmelded:
        why = "the opponents have not melded yet"
    elif threat >= 0.5:
        why = "the hand may end any moment"
    elif score > 0:
        why = "little is left to build"
    else:
        why = f"{near} meld(s) close to a canasta are worth staying for"
    return score, why


def _going_out(view: View, moves: Moves, w: V2Weights) -> tuple[Action, str] | None:
    obs = view.obs
    must = obs.answer == "yes"
    if not view.side_melded:
        # whole-hand melds of a concealed going out (or leaving one card to discard)
        if not must and want_out(view, w)[0] + view.rules.concealed_going_out_bonus <= 0:
            return None
        n = len(obs.hand)
        outs = [a for a in moves.of("meld") if n - sum(len(g.cards) for g in a.groups) <= 1]
        if not outs:
            return None
        best = max(outs, key=lambda a: sum(len(g.cards) for g in a.groups))
        return best, "go out concealed: every card melded at once"
    why = ""
    if not must:
        score, why = want_out(view, w)
        if score <= 0:
            return None
    plan = plan_going_out(view.rules, obs.hand, view.melds)
    if plan is None:
        return None
    if not must:
        if _should_ask(view, w) and ASK in moves:
            return ASK, f"ask partner before going out ({why})"
    step = _plan_action(plan, moves)
    if step is None:
        return None
    return step, ("partner said yes: going out" if must else f"go out: {why}")


def _should_ask(view: View, w: V2Weights) -> bool:
    if not view.partners or view.obs.turn.melded:
        return False
    if any(not view.owner_melded(o) for o in view.opp_owners) or view.threat() >= 0.5:
        return False
    return max(view.obs.hand_sizes[p] for p in view.partners) >= w.ask_partner_cards


def _plan_action(plan: OutPlan, moves: Moves) -> Action | None:
    if plan.groups:
        action = Action("meld", (plan.groups[0],))
    elif plan.discard is not None:
        action = DISCARDS[plan.discard]
    else:
        return None
    return action if action in moves else None


# -- melding -------------------------------------------------------------------------------

def _opening_cost(action: Action, w: V2Weights) -> float:
    cost = 0.0
    for g in action.groups:
        for c in g.cards:
            if IS_WILD[c]:
                cost += w.open_wild_cost * (2 if c == JOKER else 1)
            else:
                cost += w.open_card_cost
    return cost


class _MeldSetting(NamedTuple):
    """The facts of one melding decision that every rank's option reads."""

    threat: float
    dumping: bool
    """Lay everything that fits: the hand may end before the next turn."""
    wilds: list[int]
    """The hand's wild cards, twos before jokers."""
    keep: int
    """Cards to keep in hand unless a canasta is finished."""
    first_canasta: bool
    hold: bool
    """A frozen pile worth taking: keep a natural pair of each rank for it."""
    fight: bool
    """The pile is frozen for the side: held cards win the fight for it."""


class _MeldOption(NamedTuple):
    """What laying a rank's naturals down does: its worth, wild cards added and why."""

    score: float
    extra: int
    need: int
    """Cards the meld still lacks for a canasta after the naturals (and a pairing wild card)."""
    made: bool
    """The meld is a canasta already."""
    reason: str


def _meld_setting(view: View, w: V2Weights) -> _MeldSetting:
    rules = view.rules
    threat = view.threat()
    dumping = threat >= w.dump_threat
    if dumping:
        keep = 1
    elif view.canastas >= rules.min_canastas_to_go_out:
        keep = min(2, w.keep_cards)
    else:
        keep = w.keep_cards
    # a frozen pile is taken only with a natural pair from the hand: keep pairs for it
    hold = (not dumping and view.obs.pile_frozen
            and len(view.obs.pile) >= w.hold_pairs_pile)
    # while a frozen pile grows, the hand that holds more pairs and safe cards takes it
    fight = not dumping and view.frozen_for(view.seat)
    return _MeldSetting(threat, dumping, sorted(view.wilds), keep,
                        view.canastas < rules.min_canastas_to_go_out, hold, fight)


def _naturals_to_lay(view: View, s: _MeldSetting, r: int) -> tuple[int, int] | None:
    """How many naturals of rank ``r`` to lay, and 1 when a wild card makes a pair a meld (the
    hand is about to end); ``None`` when the rank has nothing to lay."""
    rules = view.rules
    k = view.nat[r]
    if view.melds[r] is not None:
        if k == 0 and not s.wilds:
            return None
        return (k - 2 if s.hold and k >= 2 else k), 0
    if k < 2 or (k == 2 and not (s.dumping and s.wilds and wild_cap(rules, 2) >= 1)):
        return None
    paired = 1 if k == 2 else 0
    if s.hold and k >= 3:
        k = k - 2 if k - 2 >= max(3, rules.min_naturals_per_meld) else 0
        if not k:
            return None
    return k, paired


def _meld_option(view: View, s: _MeldSetting, w: V2Weights, r: int, k: int,
                 paired: int) -> _MeldOption | None:
    """What laying ``k`` naturals of rank ``r`` (and ``paired`` wild cards) is worth before the
    weights of holding: finishing or completing a canasta, dumping cards, or a plain meld."""
    rules = view.rules
    size = rules.canasta_size
    existing = view.melds[r]
    en, ew = split_counts(existing) if existing is not None else (0, 0)
    total = en + ew + k + paired
    room = max(0, wild_cap(rules, en + k) - ew - paired)
    avail = len(s.wilds) - paired
    need = size - total
    made = existing is not None and len(existing) >= size
    first_bonus = 150.0 if s.first_canasta else 0.0
    if 0 < need <= min(room, avail) and (s.first_canasta or need <= w.finish_wilds or s.dumping):
        return _MeldOption(rules.mixed_canasta_bonus + first_bonus, need, need, made,
                           f"finish a canasta of {rank_word(r)} with {count_words(need)} wild "
                           f"card{'s' if need > 1 else ''}")
    if need <= 0 and not made and k:
        natural = ew + paired == 0
        score = float(rules.natural_canasta_bonus if natural else rules.mixed_canasta_bonus)
        return _MeldOption(score + first_bonus, 0, need, made,
                           f"complete a canasta of {rank_word(r)}")
    if s.dumping and room and avail and (ew or paired or total < size):
        extra = min(room, avail)
        return _MeldOption(5.0 * extra, extra, need, made,
                           f"lay {rank_word(r)} and wild cards down before the hand ends")
    if k:
        some = a_rank(r) if k == 1 else f"{count_words(k)} {rank_word(r)}"
        return _MeldOption(0.0, 0, need, made, f"meld {some}" if existing is None
                           else f"lay off {some} on our {rank_word(r)}")
    return None


def _weigh_meld(view: View, moves: Moves, s: _MeldSetting, w: V2Weights, r: int, k: int,
                paired: int, opt: _MeldOption) -> tuple[float, Action, str] | None:
    """The option scored against holding the cards, as a legal action; ``None`` when holding
    is better or the meld would leave too few cards."""
    score = opt.score
    base = w.new_meld_value if view.melds[r] is None else w.layoff_value
    score += base + w.meld_threat * s.threat
    if s.fight and not opt.extra and (opt.need > 0 or opt.made):
        score -= w.fight_hold * len(view.obs.pile)  # cards in hand win the pile fight
    laid = view.nat_cards[r][:k] + s.wilds[:paired + opt.extra]
    if s.dumping:
        value = view.rules.value_of
        score += sum(value[c] for c in laid)
    left = len(view.obs.hand) - len(laid)
    if left < 1 or (left < s.keep and opt.need > opt.extra):
        return None  # hold cards back unless this finishes a canasta
    if score <= 0:
        return None  # not worth laying down now: the cards keep options in hand
    action = Action("meld", (Group(r, tuple(sorted(laid))),))
    return (score, action, opt.reason) if action in moves else None


def meld_scores(view: View, moves: Moves,
                w: V2Weights = DEFAULT_WEIGHTS) -> list[tuple[float, Action, str]]:
    """Worthwhile single-group melds once the side has melded, best first, with reasons."""
    s = _meld_setting(view, w)
    out: list[tuple[float, Action, str]] = []
    for r in range(11):
        lay = _naturals_to_lay(view, s, r)
        if lay is None:
            continue
        k, paired = lay
        opt = _meld_option(view, s, w, r, k, paired)
        if opt is None:
            continue
        scored = _weigh_meld(view, moves, s, w, r, k, paired, opt)
        if scored is not None:
            out.append(scored)
    out.sort(key=lambda t: -t[0])
    return out


def _choose_meld(view: View, moves: Moves, w: V2Weights) -> tuple[Action, str] | None:
    if not view.side_melded:
        openings = moves.of("meld")
        if not openings:
            return None
        best = min(openings, key=lambda a: _opening_cost(a, w))
        laid = sum(len(g.cards) for g in best.groups)
        if len(view.obs.hand) - laid < 1:
            return None
        count = sum(view.rules.value_of[c] for g in best.groups for c in g.cards)
        return best, (f"open with {count} points: the pile is frozen for us until we meld")
    scored = meld_scores(view, moves, w)
    if not scored:
        return None
    _, action, reason = scored[0]
    return action, reason


# -- discarding ----------------------------------------------------------------------------

class _DiscardSetting(NamedTuple):
    """The facts of one discard decision that every card's cost reads."""

    threat: float
    pile_n: int
    """Cards in the pile with the discard."""
    pile_worth: float
    """What the pile is worth to the next player if they take it."""
    next_is_opp: bool
    frozen_next: bool
    take_factor: float
    """Share of the next player's odds of holding what takes that also let them meet their
    minimum (below 1 while their side has not melded)."""
    pair_boost: float
    """How much dearer a pair is while the pile is frozen for the side."""


def _discard_setting(view: View, w: V2Weights) -> _DiscardSetting:
    rules = view.rules
    pile_n = len(view.obs.pile) + 1
    unmelded_factor = w.unmelded_take_factor if rules.minimum_for(0) > 15 else 1.0
    next_unmelded = not view.owner_melded(view.next_owner)
    # pairs are what takes a frozen pile: the bigger the pile, the dearer they are
    pair_boost = 1.0 + (w.frozen_pair_per_card * pile_n if view.frozen_for(view.seat) else 0.0)
    return _DiscardSetting(view.threat(), pile_n, w.pile_base + w.pile_per_card * (pile_n - 1),
                           view.next_owner != view.owner, view.frozen_for(view.next_seat),
                           unmelded_factor if next_unmelded else 1.0, pair_boost)


def _keep_cost(view: View, s: _DiscardSetting, w: V2Weights, c: int) -> tuple[float, str]:
    """What parting with the natural card ``c`` costs the hand (its meld, pair or rank), and why
    it is the one to go."""
    size = view.rules.canasta_size
    cost = -w.points_weight * s.threat * view.rules.value_of[c]
    r = c >> 2
    k = view.nat[r]
    meld = view.melds[r]
    if meld is not None and len(meld) < size:
        short = size - len(meld)
        cost += w.keep_melded_rank + w.canasta_progress / short
        reason = (f"our {rank_word(r)} need {count_words(short)} more for a canasta, "
                  "but it is the card to spare")
    elif meld is not None:
        cost += w.keep_melded_rank
        reason = f"our {rank_word(r)} are a canasta already"
    elif k >= 3:
        cost += w.keep_triple  # a pair stays for the pile
        reason = f"I keep a pair of {rank_word(r)} for the pile"
    elif k == 2:
        cost += w.keep_pair * s.pair_boost
        reason = f"my pair of {rank_word(r)} is the one to break"
    else:
        cost += w.keep_single
        reason = "a lone card"
    if s.next_is_opp and s.frozen_next and view.obs.melds[view.next_owner][r] is not None:
        # safe now that a pair is needed, and a gift once the pile opens: shed it now
        cost -= w.shed_their_ranks
        reason = f"the pile is frozen: {a_rank(r)} matches their meld only later"
    return cost, reason


def _danger(view: View, s: _DiscardSetting, w: V2Weights, c: int,
            odds: dict[int, float]) -> tuple[float, str | None]:
    """The pile value the natural card ``c`` risks handing the next opponent, and a reason when
    that is what decides (``odds`` caches the chance to take per rank)."""
    if not s.next_is_opp:
        return 0.0, None
    r = c >> 2
    p = odds.get(r, -1.0)
    if p < 0.0:
        p = odds[r] = view.p_can_take(view.next_seat, r, s.frozen_next) * s.take_factor
    danger = w.danger * p * s.pile_worth
    if p >= 0.99:
        return danger, "any card may hand the next player the pile; this one costs least"
    if danger < 10 and view.nat[r] == 1 and view.melds[r] is None:
        return danger, f"safe: the next player can hardly use {a_rank(r)}"
    return danger, None


def _black_three_cost(view: View, s: _DiscardSetting, w: V2Weights, c: int,
                      least_danger: float) -> tuple[float, str]:
    """A black three blocks the next player for a turn: keep it for when that matters."""
    cost = -w.points_weight * s.threat * view.rules.value_of[c]
    if s.next_is_opp:
        cost += max(0.0, w.keep_black_three - w.black_three_per_card * s.pile_n)
    reason = ("a black three blocks the next player" if least_danger >= 10 or s.pile_n > 6
              else "a black three is of no use in my hand")
    return cost, reason


def _wild_cost(view: View, s: _DiscardSetting, w: V2Weights, c: int,
               least_danger: float, least_natural: float) -> tuple[float, str]:
    """A wild card stays in hand, but for a block of a big frozen pile (or a freeze, when the
    weights ask for one): its cost against the best natural card."""
    rules = view.rules
    pile_n = s.pile_n
    cost = w.keep_wild * (w.joker_factor if c == JOKER else 1.0)
    cost -= w.points_weight * s.threat * rules.value_of[c]
    if view.obs.pile_frozen or not s.next_is_opp or not rules.pile_frozen_by_wild:
        # on a frozen pile a wild card only blocks one turn: worth it only when the pile
        # decides the hand and every other card would break a pair or risk it
        if s.next_is_opp and pile_n >= w.block_min_pile:
            cost += w.block_share * least_natural
        else:
            cost += least_natural
        return cost, (f"every other card would break a pair or risk the {pile_n}-card pile: "
                      "the wild card blocks the next player")
    if not (w.freeze_min_pile and pile_n >= w.freeze_min_pile):
        return cost + least_natural, "no other card to discard"  # not worth a wild card
    # a deliberate freeze: no take now, and only a natural pair takes it later
    cost -= w.freeze_share * least_danger
    reason = (f"freeze the pile ({pile_n} cards): every other card could hand it to "
              "the next player")
    if any(view.owner_melded(o) for o in view.opp_owners):
        factor = 2.0 if not view.side_melded else 1.0
        if view.hand_cards(view.owner) > view.hand_cards(view.next_owner):
            factor *= 1.5
        cost -= w.freeze_value * pile_n * factor
        reason = (f"freeze the pile ({pile_n} cards): the opponents are likelier than "
                  "us to take it")
    return cost, reason


def discard_costs(view: View, moves: Moves,
                  w: V2Weights = DEFAULT_WEIGHTS) -> list[tuple[float, Action, str]]:
    """Each legal discard with its cost (lower is better) and the main reason, cheapest first.

    A card costs what keeping it is worth (wild cards most, then the cards of melds close to a
    canasta, pairs, lone cards) plus, when the next player is an opponent, the chance that it
    lets them take the pile times what the pile is worth to them.
    """
    s = _discard_setting(view, w)
    out: list[tuple[float, Action, str]] = []
    later: list[Action] = []  # wild cards and black threes, weighed against the naturals
    least_danger = least_natural = 0.0
    odds: dict[int, float] = {}  # the next player's chance to take, per rank
    for action in moves.discards(view.obs):
        c = action.card
        if not IS_NATURAL[c]:
            later.append(action)
            continue
        cost, reason = _keep_cost(view, s, w, c)
        danger, why = _danger(view, s, w, c, odds)
        least_danger = danger if not out else min(least_danger, danger)
        least_natural = cost + danger if not out else min(least_natural, cost + danger)
        out.append((cost + danger, action, why or reason))
    for action in later:
        c = action.card
        if IS_BLACK_THREE[c]:
            cost, reason = _black_three_cost(view, s, w, c, least_danger)
        else:
            cost, reason = _wild_cost(view, s, w, c, least_danger, least_natural)
        out.append((cost, action, reason))
    out.sort(key=lambda t: t[0])
    return out


def _discard(view: View, moves: Moves, w: V2Weights) -> tuple[Action, str]:
    costs = discard_costs(view, moves, w)
    if not costs:
        return moves.listed()[0], "nothing better to do"
    _, action, reason = costs[0]
    return action, f"discard {format_card(action.card)}: {reason}{_keep_note(view, action)}"


def _keep_note(view: View, action: Action) -> str:
    """``"; keep the JK: our kings need two more for a canasta"`` when a wild card stays in
    hand for a meld of the side within its reach (empty otherwise)."""
    kept = [c for c in view.wilds if c != action.card]
    if not kept:
        return ""
    size = view.rules.canasta_size
    near = [(size - len(m), r) for r, m in enumerate(view.melds[:len(view.nat)])
            if m is not None and len(m) < size]
    if not near:
        return ""
    short, r = min(near)
    kept.sort(key=lambda c: c != JOKER)  # name the joker when one is kept
    if IS_NATURAL[action.card] and action.card >> 2 == r:
        return f"; keep {wild_words(kept)} for them"  # the reason already named that meld
    return (f"; keep {wild_words(kept)}: our {rank_word(r)} need {count_words(short)} more for a "
            "canasta")
