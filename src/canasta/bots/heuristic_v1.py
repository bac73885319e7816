"""The frozen ``heuristic-v1`` bot: the heuristic as it played before the stronger one.

This is the fixed yardstick of docs/bots.md: every claim that a bot got stronger is measured
against it on duplicate deals, so its play never changes. It is a self-contained copy (its view,
card counting and going-out plans included), so that work on the shared helpers of the other bots
(:mod:`canasta.bots.view`, :mod:`canasta.bots.heuristic`) cannot move it; it reads only the
observation, the legal list and the rules. ``tests/bots/test_heuristic_v1.py`` checks its
decisions on hundreds of recorded positions. Do not improve it: improve ``heuristic`` instead.

Its policy, in short (BOTS.md §3): a pile is worth a base plus so much per card and red three,
less the wild cards the take spends; it opens with the cheapest minimal opening, then holds
cards back and melds to complete canastas or once an opposing side threatens to go out; each
discard costs what keeping the card is worth plus the chance that the next opponent takes the
pile with it; a wild card freezes the pile when the opponents are likelier to take it; it goes
out when the opponents have not melded, threaten to go out, or little is left to build.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

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
    format_card,
    rank_char,
)
from canasta.melds import split_counts, wild_cap
from canasta.observation import Observation
from canasta.rules import Rules
from canasta.state import SideMelds

NATURAL_RANKS = 11


def owner_of(obs: Observation, seat: int) -> int:
    """The melds ``seat`` plays on (mirrors :meth:`canasta.state.State.owner_of`)."""
    lone = obs.lone_hand
    if lone is None or seat == lone:
        return seat % obs.rules.num_sides
    return min(s for s in range(obs.rules.num_players) if s != lone)


def canastas_of(rules: Rules, melds: SideMelds) -> int:
    """Completed canastas among one owner's melds."""
    size = rules.canasta_size
    return sum(1 for m in melds if m is not None and len(m) >= size)


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
        "_unseen", "_pool", "_threat",
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
        """P(``seat`` holds at least ``k`` natural cards of ``rank``)."""
        known_nat, _ = self.known_count(seat, rank)
        return p_at_least(self.unseen()[rank], self.slot_share(seat), k - known_nat)

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
        one = self.p_holds(seat, rank, 1) - pair
        _, known_wild = self.known_count(seat, rank)
        wild = 1.0 if known_wild else p_at_least(self.unseen()[11], self.slot_share(seat), 1)
        return min(1.0, pair + one * wild)

    # -- the table -------------------------------------------------------------------------
    def owner_melded(self, owner: int) -> bool:
        """True when ``owner`` has a meld on the table."""
        return any(m is not None for m in self.obs.melds[owner])

    def frozen_for(self, seat: int) -> bool:
        """Whether the pile is frozen for ``seat`` now (RULES §1.11)."""
        if self.obs.pile_frozen:
            return True
        return (self.rules.pile_frozen_until_side_melds
                and not self.owner_melded(owner_of(self.obs, seat)))

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


def _partition(rules: Rules, rest: list[Card], melds: SideMelds,
               discard: Card | None) -> OutPlan | None:
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
    if blacks and (len(blacks) not in rules.black_three_meld_sizes
                   or melds[BLACK_THREE_RANK] is not None):
        return None
    size = rules.canasta_size
    have = canastas_of(rules, melds)
    lower: dict[Rank, int] = {}
    room: dict[Rank, int] = {}
    base: dict[Rank, int] = {}
    natural_meld: dict[Rank, bool] = {}
    for r in range(NATURAL_RANKS):
        n = len(naturals[r])
        existing = melds[r]
        if existing is None:
            if n == 0:
                continue
            if n < rules.min_naturals_per_meld:
                return None
            low = max(0, rules.min_meld_size - n)
            cap = wild_cap(rules, n)
            b = n
            natural_meld[r] = True
        else:
            en, ew = split_counts(existing)
            low = 0
            cap = max(0, wild_cap(rules, en + n) - ew)
            b = len(existing) + n
            natural_meld[r] = ew == 0
            if n == 0 and cap == 0:
                continue
        if rules.max_meld_size is not None:
            cap = min(cap, rules.max_meld_size - b)
        if low > cap:
            return None
        lower[r], room[r], base[r] = low, cap - low, b + low
    budget = len(wilds) - sum(lower.values())
    if budget < 0 or budget > sum(room.values()):
        return None
    extra = dict.fromkeys(lower, 0)
    made = have + sum(1 for r in base if base[r] >= size and (
        melds[r] is None or len(melds[r] or ()) < size))
    # first finish canastas that are closest, while the rules still need canastas
    for r in sorted((r for r in base if base[r] < size and size - base[r] <= room[r]),
                    key=lambda r: size - base[r]):
        need = size - base[r]
        if need > budget:
            break
        if made >= rules.min_canastas_to_go_out:
            break
        extra[r] += need
        budget -= need
        made += 1
    if made < rules.min_canastas_to_go_out:
        return None
    # spare wild cards go where they spoil least: mixed melds first, natural canastas last
    def spoil(r: Rank) -> tuple[int, int]:
        total = base[r] + extra[r]
        return (1 if natural_meld[r] and lower[r] + extra[r] == 0 and total >= size else 0,
                -total)

    for r in sorted(room, key=spoil):
        if not budget:
            break
        add = min(budget, room[r] - extra[r])
        if add > 0:
            extra[r] += add
            budget -= add
    if budget:
        return None
    wild_pool = sorted(wilds)  # twos before jokers
    groups: list[tuple[bool, Group]] = []
    score = 0
    value = rules.value_of
    for r in lower:
        k = lower[r] + extra[r]
        cards = naturals[r] + wild_pool[:k]
        del wild_pool[:k]
        if not cards:
            continue
        total = (len(melds[r] or ()) + len(cards))
        completes = total >= size and len(melds[r] or ()) < size
        mixed = k > 0 or any(IS_WILD[c] for c in melds[r] or ())
        if completes:
            score += rules.mixed_canasta_bonus if mixed else rules.natural_canasta_bonus
        elif total >= size and k and not any(IS_WILD[c] for c in melds[r] or ()):
            score -= rules.natural_canasta_bonus - rules.mixed_canasta_bonus
        score += sum(value[c] for c in cards)
        groups.append((completes, Group(r, tuple(sorted(cards)))))
    if blacks:
        score += sum(value[c] for c in blacks)
    # canasta-making groups first: after them every step may leave the hand short
    ordered = [g for c, g in groups if c] + [g for c, g in groups if not c]
    if blacks:
        ordered.append(Group(BLACK_THREE_RANK, tuple(sorted(blacks))))
    if discard is not None and IS_WILD[discard]:
        score -= 5  # a discarded wild card freezes nothing useful at the end; keep it counted
    return OutPlan(tuple(ordered), discard, score)



# -- the policy --------------------------------------------------------------------------

@dataclass(frozen=True)
class V1Weights:
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
    finish_wilds: int = 2
    """Most wild cards spent to finish a canasta once the side has the canastas to go out."""
    dump_threat: float = 0.5
    """Threat above which everything that fits is laid down to save points."""
    # -- discarding
    keep_wild: float = 55.0
    """Cost of discarding a two (a joker costs half as much again)."""
    keep_pair: float = 30.0
    """Cost of breaking a natural pair (the currency for frozen piles)."""
    keep_triple: float = 60.0
    """Cost of breaking three or more natural cards of a rank."""
    frozen_pair_per_card: float = 0.05
    """Extra worth of a pair, per pile card, while the pile is frozen for the side."""
    keep_single: float = 12.0
    """Cost of discarding a lone natural card."""
    keep_melded_rank: float = 4.0
    """Cost of discarding a natural card of a rank the side has melded."""
    black_three_bonus: float = 30.0
    """Preference for discarding a black three (it blocks the next player)."""
    danger: float = 4.0
    """Weight of the expected pile value handed to the next opponent."""
    pile_base: float = 60.0
    """What any pile is worth to its taker."""
    pile_per_card: float = 40.0
    """What each card of a pile is worth to its taker."""
    unmelded_take_factor: float = 0.5
    """Chance that an unmelded side also meets its minimum when it holds the pair."""
    freeze_value: float = 20.0
    """Worth per pile card of freezing the pile when the opponents have melded."""
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
    ask_partner_cards: int = 4
    """Ask the partner first when they hold at least this many cards."""
    answer_points: float = 60.0
    """Points in hand above which a partner answers "no" (unless the hand is urgent)."""

    @classmethod
    def from_params(cls, params: dict[str, str]) -> V1Weights:
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


DEFAULT_WEIGHTS = V1Weights()


def resolve_weights(weights: object, params: dict[str, str]) -> V1Weights:
    """Weights given whole (from code) or by name (from a spec); raises ``ValueError``."""
    if weights is None:
        return V1Weights.from_params(params) if params else DEFAULT_WEIGHTS
    if not isinstance(weights, V1Weights) or params:
        raise ValueError("give the weights either as V1Weights or by name, "
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
        """The single legal action, when there is just one."""
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


class HeuristicV1Bot:
    """The frozen heuristic; see the module docstring. Weights may still be overridden by name
    (``heuristic-v1:aggression=1.5``), for experiments against the yardstick."""

    name = "heuristic-v1"

    def __init__(self, weights: V1Weights | None = None, **params: str) -> None:
        self.weights = resolve_weights(weights, params)

    def choose(self, obs: Observation, legal: Sequence[Action], rng: random.Random) -> Action:
        """The heuristic's action (deterministic: ``rng`` is not used)."""
        return decide(obs, legal, self.weights)[0]

    def explain(self, obs: Observation, legal: Sequence[Action],
                rng: random.Random) -> tuple[Action, str]:
        """The heuristic's action and a one-line reason a player can read."""
        return decide(obs, legal, self.weights)


def decide(obs: Observation, legal: Sequence[Action] | Moves,
           w: V1Weights = DEFAULT_WEIGHTS) -> tuple[Action, str]:
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
                w: V1Weights = DEFAULT_WEIGHTS) -> list[tuple[float, Action]]:
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


def _draw_phase(view: View, moves: Moves, w: V1Weights) -> tuple[Action, str]:
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

def _answer(view: View, w: V1Weights) -> tuple[Action, str]:
    points = hand_points(view.rules, view.obs.hand)
    threat = view.threat()
    if any(not view.owner_melded(o) for o in view.opp_owners):
        return YES, "yes: the opponents have not melded, so going out now costs them most"
    if threat >= 0.5:
        return YES, "yes: the hand may end any moment anyway"
    if _crosses_target(view, points):
        return YES, "yes: going out should win the game"
    if points <= w.answer_points * (1.0 + threat):
        return YES, f"yes: my hand counts only {points} points"
    return NO, f"no: my hand still counts {points} points; I want to meld them first"


def _crosses_target(view: View, in_hand: int) -> bool:
    rules = view.rules
    mine = view.obs.scores[view.seat % rules.num_sides]
    return (mine + view.table_points(view.owner) + rules.going_out_bonus - in_hand
            >= rules.target_score)


# -- the play phase ------------------------------------------------------------------------

def _play_phase(view: View, moves: Moves, w: V1Weights) -> tuple[Action, str]:
    answer = view.obs.answer
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


def want_out(view: View, w: V1Weights = DEFAULT_WEIGHTS) -> tuple[float, str]:
    """How much going out now beats staying in (positive: go out), and the main reason."""
    obs = view.obs
    size = view.rules.canasta_size
    opp_unmelded = any(not view.owner_melded(o) for o in view.opp_owners)
    threat = view.threat()
    score = w.aggression * (w.out_base + w.out_threat * threat
                            + (w.out_opp_unmelded if opp_unmelded else 0.0))
    near = sum(1 for m in view.melds if m is not None and size - 3 <= len(m) < size)
    partner_cards = sum(obs.hand_sizes[p] for p in view.partners)
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


def _going_out(view: View, moves: Moves, w: V1Weights) -> tuple[Action, str] | None:
    obs = view.obs
    must = obs.answer == "yes"
    if not view.side_melded:
        # whole-hand melds of a concealed going out (or leaving one card to discard)
        n = len(obs.hand)
        outs = [a for a in moves.of("meld") if n - sum(len(g.cards) for g in a.groups) <= 1]
        if not outs:
            return None
        if not must and want_out(view, w)[0] + view.rules.concealed_going_out_bonus <= 0:
            return None
        best = max(outs, key=lambda a: sum(len(g.cards) for g in a.groups))
        return best, "go out concealed: every card melded at once"
    plan = plan_going_out(view.rules, obs.hand, view.melds)
    if plan is None:
        return None
    why = ""
    if not must:
        score, why = want_out(view, w)
        if score <= 0:
            return None
        if _should_ask(view, w) and ASK in moves:
            return ASK, f"ask partner before going out ({why})"
    step = _plan_action(plan, moves)
    if step is None:
        return None
    return step, ("partner said yes: going out" if must else f"go out: {why}")


def _should_ask(view: View, w: V1Weights) -> bool:
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

def _opening_cost(action: Action, w: V1Weights) -> float:
    cost = 0.0
    for g in action.groups:
        for c in g.cards:
            if IS_WILD[c]:
                cost += w.open_wild_cost * (2 if c == JOKER else 1)
            else:
                cost += w.open_card_cost
    return cost


def meld_scores(view: View, moves: Moves,
                w: V1Weights = DEFAULT_WEIGHTS) -> list[tuple[float, Action, str]]:
    """Worthwhile single-group melds once the side has melded, best first, with reasons."""
    rules = view.rules
    hand_n = len(view.obs.hand)
    size = rules.canasta_size
    threat = view.threat()
    dumping = threat >= w.dump_threat
    wilds = sorted(view.wilds)  # twos before jokers
    if dumping:
        keep = 1
    elif view.canastas >= rules.min_canastas_to_go_out:
        keep = min(2, w.keep_cards)
    else:
        keep = w.keep_cards
    first_canasta = view.canastas < rules.min_canastas_to_go_out
    first_bonus = 150.0 if first_canasta else 0.0
    # a frozen pile is taken only with a natural pair from the hand: keep pairs for it
    hold = (not dumping and view.obs.pile_frozen
            and len(view.obs.pile) >= w.hold_pairs_pile)
    value = rules.value_of
    out: list[tuple[float, Action, str]] = []
    for r in range(11):
        k = view.nat[r]
        existing = view.melds[r]
        en, ew = split_counts(existing) if existing is not None else (0, 0)
        paired = 0  # a wild card that lets a pair go down before the hand ends
        if existing is None:
            if k < 2 or (k == 2 and not (dumping and wilds and wild_cap(rules, 2) >= 1)):
                continue
            paired = 1 if k == 2 else 0
            if hold and k >= 3:
                k = k - 2 if k - 2 >= max(3, rules.min_naturals_per_meld) else 0
                if not k:
                    continue
        elif k == 0 and not wilds:
            continue
        elif hold and k >= 2:
            k -= 2
        naturals = view.nat_cards[r][:k]
        total = en + ew + k + paired
        room = max(0, wild_cap(rules, en + k) - ew - paired)
        avail = len(wilds) - paired
        need = size - total
        extra = 0
        made = existing is not None and len(existing) >= size
        if 0 < need <= min(room, avail) and (first_canasta or need <= w.finish_wilds or dumping):
            extra = need
            score = rules.mixed_canasta_bonus + first_bonus
            reason = f"finish a canasta of {rank_char(r)}s with {need} wild card(s)"
        elif need <= 0 and not made and k:
            natural = ew + paired == 0
            score = float(rules.natural_canasta_bonus if natural else rules.mixed_canasta_bonus)
            score += first_bonus
            reason = f"complete a canasta of {rank_char(r)}s"
        elif dumping and room and avail and (ew or paired or total < size):
            extra = min(room, avail)
            score = 5.0 * extra
            reason = f"lay {rank_char(r)}s and wild cards down before the hand ends"
        elif k:
            score = 0.0
            reason = (f"meld {k} {rank_char(r)}s" if existing is None
                      else f"lay off {rank_char(r)}s on our meld")
        else:
            continue
        score += (w.new_meld_value if existing is None else w.layoff_value) + w.meld_threat * threat
        laid = naturals + wilds[:paired + extra]
        if dumping:
            score += sum(value[c] for c in laid)
        left = hand_n - len(laid)
        if left < 1 or (left < keep and need > extra):
            continue  # hold cards back unless this finishes a canasta
        if score <= 0:
            continue  # not worth laying down now: the cards keep options in hand
        action = Action("meld", (Group(r, tuple(sorted(laid))),))
        if action in moves:
            out.append((score, action, reason))
    out.sort(key=lambda t: -t[0])
    return out


def _choose_meld(view: View, moves: Moves, w: V1Weights) -> tuple[Action, str] | None:
    if not view.side_melded:
        openings = moves.of("meld")
        if not openings:
            return None
        best = min(openings, key=lambda a: _opening_cost(a, w))
        laid = sum(len(g.cards) for g in best.groups)
        if len(view.obs.hand) - laid < 1:
            return None
        count = sum(view.rules.value_of[c] for g in best.groups for c in g.cards)
        return best, f"make the opening meld ({count} points): the pile is frozen until we do"
    scored = meld_scores(view, moves, w)
    if not scored:
        return None
    _, action, reason = scored[0]
    return action, reason


# -- discarding ----------------------------------------------------------------------------

def discard_costs(view: View, moves: Moves,
                  w: V1Weights = DEFAULT_WEIGHTS) -> list[tuple[float, Action, str]]:
    """Each legal discard with its cost (lower is better) and the main reason, cheapest first."""
    obs = view.obs
    rules = view.rules
    value = rules.value_of
    threat = view.threat()
    pile_n = len(obs.pile) + 1
    pile_worth = w.pile_base + w.pile_per_card * (pile_n - 1)
    nxt = view.next_seat
    next_is_opp = view.next_owner != view.owner
    frozen_next = view.frozen_for(nxt)
    next_unmelded = not view.owner_melded(view.next_owner)
    unmelded_factor = w.unmelded_take_factor if rules.minimum_for(0) > 15 else 1.0
    opp_melded = any(view.owner_melded(o) for o in view.opp_owners)
    mine = {view.seat, *view.partners}
    my_cards = sum(obs.hand_sizes[s] for s in mine)
    their_cards = sum(obs.hand_sizes[s] for s in range(view.n) if s not in mine)
    # pairs are what takes a frozen pile: the bigger the pile, the dearer they are
    pair_boost = 1.0 + (w.frozen_pair_per_card * pile_n if view.frozen_for(view.seat) else 0.0)
    out: list[tuple[float, Action, str]] = []
    for action in moves.discards(obs):
        c = action.card
        cost = -w.points_weight * threat * value[c]
        if IS_WILD[c]:
            cost += w.keep_wild * (1.5 if c == JOKER else 1.0)
            reason = "freeze the pile" if not obs.pile_frozen else "block the next player"
            if not obs.pile_frozen and next_is_opp and opp_melded and rules.pile_frozen_by_wild:
                factor = 2.0 if not view.side_melded else 1.0
                if my_cards > their_cards:
                    factor *= 1.5
                cost -= w.freeze_value * pile_n * factor
                reason = f"freeze the pile ({pile_n} cards) against the opponents"
            out.append((cost, action, reason))
            continue
        if IS_BLACK_THREE[c]:
            cost -= w.black_three_bonus + (w.pile_per_card * 0.2 * pile_n if next_is_opp else 0)
            out.append((cost, action, "a black three blocks the next player"))
            continue
        r = c >> 2
        k = view.nat[r]
        if view.melds[r] is not None:
            cost += w.keep_melded_rank
        elif k >= 3:
            cost += w.keep_triple * pair_boost
        elif k == 2:
            cost += w.keep_pair * pair_boost
        else:
            cost += w.keep_single
        reason = "a lone card" if k == 1 else f"break up my {rank_char(r)}s"
        if next_is_opp:
            p = view.p_can_take(nxt, r, frozen_next)
            if next_unmelded:
                p *= unmelded_factor
            risk = w.danger * p * pile_worth
            cost += risk
            if p >= 0.99:
                reason = f"the next player could take the pile with it ({p:.0%})"
            elif risk < 10 and k == 1:
                reason = f"safe: the next player can hardly use a {rank_char(r)}"
        out.append((cost, action, reason))
    out.sort(key=lambda t: t[0])
    return out


def _discard(view: View, moves: Moves, w: V1Weights) -> tuple[Action, str]:
    costs = discard_costs(view, moves, w)
    if not costs:
        return moves.listed()[0], "nothing better to do"
    _, action, reason = costs[0]
    return action, f"discard {format_card(action.card)}: {reason}"

