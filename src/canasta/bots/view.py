"""What a seat can work out from its observation: counts, odds, threats and going-out plans.

Bots share these helpers. Everything here reads only an
:class:`~canasta.observation.Observation` (its own hand, the table, the pile, the hand sizes and
the cards known to be in other hands), never a full state.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import NamedTuple

from canasta import cards, scoring, table
from canasta.actions import Action
from canasta.cards import (
    IS_BLACK_THREE,
    IS_NATURAL,
    IS_RED_THREE,
    IS_WILD,
    RANK_OF,
    Card,
    Rank,
    card_kind,
)
from canasta.going_out import OutPlan as OutPlan  # the plan bots follow: re-exported
from canasta.going_out import going_out_of
from canasta.observation import Observation
from canasta.rules import Rules
from canasta.state import SideMelds

NATURAL_RANKS = len(cards.NATURAL_RANKS)
"""Ranks that meld naturally (four to ace), indexed from 0."""
WILD_SLOT = NATURAL_RANKS
"""Where :meth:`View.unseen` counts the wild cards, after the natural ranks."""

PAIR_ENRICHMENT = 1.0
"""Exponent that turns the odds of a pair in a randomly dealt hand into the odds in a hand that
has been kept for pairs: ``1 - (1 - p) ** PAIR_ENRICHMENT``. Hands of the heuristic against
itself hold a pair about 1.3 times as often as counting alone says, but 1.4 overstated the next
player's pairs on frozen piles against heuristic-v2 about 1.8 times (odds of 0.2-0.4 said,
0.14-0.18 found, 150 games of seed 7), and counting alone matches what is found."""
PASSED_PAIR_ODDS = 0.15
"""Odds left (against counting alone) that a player holds a pair of a rank it passed by on an
unfrozen pile: a pair would have taken it, so only a pair drawn since remains."""
PASSED_FROZEN_PAIR_ODDS = 0.15
"""The same for a pile of ``BIG_PILE`` cards or more frozen for it."""
SMALL_PILE_PAIR_ODDS = 0.5
"""The same for a smaller frozen pile, which may not have been worth taking."""
BIG_PILE = 6
STORY_ROUNDS = 3
"""Rounds of play back from the pile's top that the pile story reads (reading none plays about
35 points a hand worse against heuristic-v2; reading the whole pile no better)."""
OUT_THREAT = (0.75, 0.75, 0.5, 0.3, 0.3, 0.15, 0.15, 0.15, 0.05)
"""The threat an opponent whose side may go out poses, by the cards it holds (1, 2, ... 9+).
A scale the heuristic's weights were tuned with, not the odds: such an opponent holding one
card goes out before the reader's next turn about one time in four, holding four or more about
one in thirty (heuristic-v2, classic), and tables nearer those odds play worse
(docs/bot-experiments.md, "Melding and going out")."""
STOCK_ROUNDS = 2.0
"""Rounds of draws left in the stock from which the hand may end with it: the threat rises
from 0 there to 1 when the stock is empty."""
NEAR_THREAT = 0.2
"""The same for an opponent a canasta short, with a meld two cards from one and six cards or
fewer in hand."""
FAR_THREAT = 0.05
"""The same for any other opponent a canasta short."""
DISCARD_PAIR_LOGIT = (0.55, 1.34, 0.27)
"""The odds that a player still holds a natural pair of a rank it discarded onto a pile open to
it, as log-odds: ``a + b * logit(count) + c * (unseen - 5)``, where ``count`` is the odds by
counting alone and ``unseen`` the copies of the rank the reader cannot see. Players discard
from three of a kind (about one natural discard in ten, heuristic against heuristic-v2), so a
discard does not make a pair rarer on average; it does where the rank is mostly in sight and
hands are short, and makes it likelier where few copies are seen and hands are long. Fitted by
``benchmarks/bot_audit.py --pair-odds --fit`` on 4,500 hands of seed 7 (heuristic against
heuristic-v2; docs/bot-experiments.md, "Discarding")."""
DISCARD_FROZEN_PAIR_LOGIT = (1.92, 1.62, 0.18)
"""The same where the pile is frozen for the player: there players fight for the pile, throw
from three or four of a kind and keep the pair, and a discard says "a pair" about twice as
often as on an open pile (five copies unseen: counting says 0.14, 0.25 is found, and 0.12 on
open piles)."""
DISCARD_ONE_LOGIT = (0.32, 1.16, 0.36)
"""The odds that a player holds at least one natural card of a rank it discarded (with a wild
card it takes an open pile): counting alone says 0.55 where 0.83 is found with seven copies
unseen, and 0.29 where 0.20 is found with two. Fitted alike on 1,500 hands with an earlier
heuristic; the 4,500 hands refit it within 0.06, and playing the refit gained nothing."""


class TakeOddsFit(NamedTuple):
    """The log-odds that turn a reader's chance that the next player can take the pile into the
    chance found in play: ``base + scale * logit(p)``, plus ``our_meld`` where the reader's side
    has melded the rank and ``their_meld`` where the next player's side has, moved by
    ``their_meld_pile`` for every ten cards the pile would hold above :data:`FIT_PILE`."""

    base: float
    scale: float
    our_meld: float
    their_meld: float
    their_meld_pile: float = 0.0


FIT_PILE = 20
"""The pile size (with the discard) at which a fit's ``their_meld`` holds as it stands."""

TAKE_ODDS_FROZEN = TakeOddsFit(0.54, 1.17, 0.40, -1.27, 0.41)
"""The fit where the pile is frozen for the next player. Without it the heuristic's odds
(counting, the pile story and ``unmelded_take_factor``) said 0.22 where 0.27 was found at piles
of 8 cards or more, and 0.34 where 0.45 was found among the cards it read at 0.3-0.4. A rank our
side melded is taken more often than its count says. One the next side melded is taken less
often from a small pile (its cards are laid off, not kept in pairs) but not from a big one, where
the pair is kept for the pile: a single ``their_meld`` term (-0.99) said 0.15 where 0.24 was
found at piles of 35+ cards, and 0.04 where 0.03 was found at 12-15. Fitted to 3,000 hands of
the heuristic (before the refit) against heuristic-v2 and 3,000 against itself, at piles of 8+
cards (the two fits agree within 0.2); ``python benchmarks/feed_floor.py --hands 3000 --seed 21
--min-pile 8 --fit --tolerance`` refits it in self-play (docs/bot-experiments.md, "Discarding")."""
TAKE_ODDS_OPEN = TakeOddsFit(0.15, 0.99, 0.43, 0.0)
"""The same where the pile is open to the next player (0.54 said, 0.57 found; refitted in
self-play at (0.06, 0.98, 0.39, 0)). A rank the next side melded takes an open pile for certain
and is not refitted."""


def refit_take_odds(fit: TakeOddsFit, p: float, our_meld: bool, their_meld: bool,
                    share: float = 1.0, pile: int = FIT_PILE) -> float:
    """``p`` moved ``share`` of the way, in log-odds, to what ``fit`` says is found in play for a
    pile of ``pile`` cards (with the discard); odds of 0 or 1 (certain by the rules or by
    counting) stay."""
    if not 0.0 < p < 1.0 or share == 0.0:
        return p
    z = math.log(p / (1.0 - p))
    found = fit.base + fit.scale * z + (fit.our_meld if our_meld else 0.0)
    if their_meld:
        found += fit.their_meld + fit.their_meld_pile * (pile - FIT_PILE) / 10
    return 1.0 / (1.0 + math.exp(-(z + share * (found - z))))


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


def _refit(logit: tuple[float, float, float], count: float, unseen: int) -> float:
    """Odds by counting (strictly between 0 and 1) turned into the odds found after a discard:
    ``logit`` is ``(a, b, c)`` of :data:`DISCARD_PAIR_LOGIT`."""
    a, b, c = logit
    z = a + b * math.log(count / (1.0 - count)) + c * (unseen - 5)
    return 1.0 / (1.0 + math.exp(-z))


class View:
    """Counts and derived facts of one observation, computed once per decision."""

    __slots__ = (
        "obs", "rules", "seat", "n", "owner", "melds", "side_melded", "canastas", "nat",
        "nat_cards", "wilds", "blacks", "next_seat", "next_owner", "opp_owners", "partners",
        "_unseen", "_pool", "_threat", "_threat_rounds", "_lacks", "_open_passes", "_discarded",
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
            if IS_NATURAL[c]:
                r = RANK_OF[c]
                nat[r] += 1
                nat_cards[r].append(c)
            elif IS_WILD[c]:
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
        self._threat_rounds = STOCK_ROUNDS
        self._lacks: dict[tuple[int, Rank], float] | None = None
        self._open_passes: dict[tuple[int, Rank], float] = {}
        self._discarded: set[tuple[int, Rank]] = set()

    # -- card counting ---------------------------------------------------------------------
    def unseen(self) -> list[int]:
        """Per natural rank (0..10), then wild cards (:data:`WILD_SLOT`): copies the seat cannot
        see."""
        if self._unseen is None:
            rules, obs = self.rules, self.obs
            copies = 4 * rules.num_decks
            left = [copies] * NATURAL_RANKS + [copies + rules.num_jokers]
            reds_seen = 0

            def see(cards: Sequence[Card]) -> None:
                nonlocal reds_seen
                for c in cards:
                    if IS_NATURAL[c]:
                        left[RANK_OF[c]] -= 1
                    elif IS_WILD[c]:
                        left[WILD_SLOT] -= 1
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
            if RANK_OF[c] == rank:
                nat += 1
            elif IS_WILD[c]:
                wild += 1
        return nat, wild

    def p_holds(self, seat: int, rank: Rank, k: int) -> float:
        """P(``seat`` holds at least ``k`` natural cards of ``rank``), lowered for a pair of a
        rank the seat showed it lacks (:meth:`pair_odds`)."""
        known_nat, _ = self.known_count(seat, rank)
        p = p_at_least(self.unseen()[rank], self.slot_share(seat), k - known_nat)
        if k - known_nat == 1 and 0.0 < p < 1.0:
            self.pair_evidence()
            if (seat, rank) in self._discarded:
                p = _refit(DISCARD_ONE_LOGIT, p, self.unseen()[rank])
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
        for k in range(min(len(pile) - 1 - dealt, STORY_ROUNDS * self.n)):
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
        with a pair); after a discard of the rank, what :data:`DISCARD_PAIR_LOGIT` says (below
        or above 1)."""
        return self.pair_evidence().get((seat, rank), 1.0)

    def _read_pile_story(self) -> dict[tuple[int, Rank], float]:
        lacks: dict[tuple[int, Rank], float] = {}
        n = self.n
        for k, (card, discarder, frozen) in enumerate(self.pile_story()):
            if not IS_NATURAL[card]:
                continue
            rank = RANK_OF[card]
            key = (discarder, rank)
            lacks[key] = min(lacks.get(key, math.inf), self._discard_pair_factor(discarder, rank))
            self._discarded.add(key)
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

    def _discard_pair_factor(self, seat: int, rank: Rank) -> float:
        """How much likelier than by counting it is that ``seat`` holds a natural pair of
        ``rank`` now that it discarded one (:data:`DISCARD_PAIR_LOGIT`, or
        :data:`DISCARD_FROZEN_PAIR_LOGIT` where the pile is frozen for it)."""
        known_nat, _ = self.known_count(seat, rank)
        unseen = self.unseen()[rank]
        count = p_at_least(unseen, self.slot_share(seat), 2 - known_nat)
        if seat == self.seat or not 0.0 < count < 1.0:
            return 1.0
        logit = DISCARD_FROZEN_PAIR_LOGIT if self.frozen_for(seat) else DISCARD_PAIR_LOGIT
        return _refit(logit, count, unseen) / count

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
        wild = 1.0 if known_wild else p_at_least(self.unseen()[WILD_SLOT], self.slot_share(seat), 1)
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
        """Card values plus canasta bonuses of one owner's melds (as the hand's score counts
        them, red threes and hidden-canasta bonuses aside)."""
        points = scoring.table_points(self.rules, self.obs.melds[owner], (), 0)
        return points.melded + points.canastas

    def threat(self, stock_rounds: float = STOCK_ROUNDS) -> float:
        """Roughly, how likely the hand ends within a round (an opponent going out, or the stock
        running dry within ``stock_rounds`` rounds), from 0 to 1. Cards still held then count
        against their side."""
        if self._threat is None or self._threat_rounds != stock_rounds:
            self._threat = max(self._out_threat(), self.stock_threat(stock_rounds))
            self._threat_rounds = stock_rounds
        return self._threat

    def _out_threat(self) -> float:
        """The threat of the opponent nearest to going out (:func:`opponent_threat`)."""
        rules, obs = self.rules, self.obs
        worst = 0.0
        for s in range(self.n):
            owner = owner_of(obs, s)
            if owner != self.owner:
                worst = max(worst, opponent_threat(rules, obs.melds[owner], obs.hand_sizes[s])[1])
        return worst

    def stock_threat(self, rounds: float = STOCK_ROUNDS) -> float:
        """How near the stock is to running dry: 0 with ``rounds`` rounds of draws or more
        left, rising to 1 as it empties."""
        turns = self.obs.stock_size / max(1, self.rules.draw_count)
        horizon = self.n * rounds
        return 1.0 - turns / horizon if turns < horizon else 0.0


def opponent_threat(rules: Rules, melds: SideMelds, cards: int) -> tuple[str, float]:
    """How near an opponent holding ``cards`` cards, whose side has ``melds``, is to going out,
    and the threat that poses (:data:`OUT_THREAT`): ``"out"`` (its side has the canastas to go
    out), ``"near"`` (a canasta short, with a meld two cards from one and six cards or fewer),
    ``"far"`` (a canasta short otherwise) or ``"none"`` (threat 0)."""
    need = rules.min_canastas_to_go_out
    made = canastas_of(rules, melds)
    if made >= need:
        return "out", OUT_THREAT[min(max(cards, 1), len(OUT_THREAT)) - 1]
    if made < need - 1:
        return "none", 0.0
    near = max((len(m) for m in melds if m is not None and len(m) < rules.canasta_size),
               default=0)
    if near >= rules.canasta_size - 2 and cards <= 6:
        return "near", NEAR_THREAT
    return "far", FAR_THREAT


# -- going out -----------------------------------------------------------------------------

def plan_going_out(rules: Rules, hand: Sequence[Card], melds: SideMelds) -> OutPlan | None:
    """The best way to meld ``hand`` away onto ``melds`` (the side has melded), or ``None``:
    the going-out solver's plan (:meth:`canasta.going_out.GoingOut.plan`)."""
    return going_out_of(rules).plan(hand, melds)


def plan_step(plan: OutPlan, legal_set: set[Action] | frozenset[Action]) -> Action | None:
    """The next action of ``plan`` if it is legal now (its first group, or its discard)."""
    if plan.groups:
        action = Action("meld", (plan.groups[0],))
        return action if action in legal_set else None
    if plan.discard is not None:
        action = Action("discard", (), plan.discard)
        return action if action in legal_set else None
    return None

