"""Determinization: a full :class:`~canasta.state.State` consistent with one seat's view.

Search bots cannot play the hidden parts of a hand, so they play many *samples* of it. A sample
keeps everything the seat sees (its hand, the table, the pile, the hand sizes, the stock size and
the cards known to be in other hands because they were taken with the pile) and deals the cards
it cannot see at random:

1. the unseen cards are the pack minus the seat's hand, every meld, every red three laid out,
   the pile and the known cards of the other hands;
2. each other hand gets its known cards plus random unseen cards up to its size;
3. the rest, in random order, is the stock.

Two rules make the sample fit what the seat has seen: red threes never stay in a hand (they are
laid out at once, RULES §1.5), so unseen red threes always go to the stock; and a player who has
asked "partner, may I go out?" could go out when asking (only such a player may ask, §1.14), so
while the question or a "yes" stands, samples where the asker could not go out are dealt again.

With ``model_opponents`` (the default) the sample also follows what the other players showed by
their play (:meth:`~canasta.bots.view.View.pair_evidence`): a player who passed by a pile topped
by a rank, or discarded that rank, seldom holds a natural pair of it. A dealt pair of such a rank
is kept only with the odds the evidence leaves; otherwise one of its cards is swapped for a card
of the stock. The sample still uses no information the seat lacks.

>>> import random
>>> from canasta import get_rules, new_hand, observe
>>> state = new_hand(get_rules("classic"), seed=3)
>>> obs = observe(state, 1)
>>> sample = determinize(obs, random.Random(0))
>>> observe(sample, 1) == obs, sample.hands[1] == state.hands[1]
(True, True)
"""

from __future__ import annotations

import random

from canasta.bots.view import View
from canasta.cards import IS_RED_THREE, NUM_CARD_TYPES, RANK_OF, Card, make_pack
from canasta.legal import could_go_out
from canasta.observation import Observation
from canasta.state import ANSWER, PLAY, State, build_state

REDEALS = 200
"""Most deals tried for a sample that must let an asker go out (then the last one is kept)."""


class InconsistentObservationError(ValueError):
    """The observation shows more copies of a card than the pack holds, or sizes that cannot fit."""


class Determinizer:
    """Samples states for one observation; the fixed work is done once, in the constructor.

    Sampling only shuffles, so a search can draw thousands of samples of one decision cheaply.
    """

    __slots__ = ("obs", "_unseen", "_red_threes", "_slots", "_asker", "_evidence")

    def __init__(self, obs: Observation, model_opponents: bool = True) -> None:
        rules = obs.rules
        counts = [0] * NUM_CARD_TYPES
        for card in make_pack(rules.num_decks, rules.num_jokers):
            counts[card] += 1
        seen: list[Card] = list(obs.hand)
        seen.extend(obs.pile)
        for owner_melds in obs.melds:
            for meld in owner_melds:
                if meld is not None:
                    seen.extend(meld)
        for reds in obs.red_threes:
            seen.extend(reds)
        for seat, known in enumerate(obs.known):
            if seat != obs.seat:
                seen.extend(known)
        for card in seen:
            counts[card] -= 1
            if counts[card] < 0:
                raise InconsistentObservationError(
                    f"the view shows more copies of card {card} than the pack holds")
        unseen = [c for c in range(NUM_CARD_TYPES) for _ in range(counts[c])]
        self._red_threes = [c for c in unseen if IS_RED_THREE[c]]
        self._unseen = [c for c in unseen if not IS_RED_THREE[c]]
        slots: list[tuple[int, int]] = []
        for seat, size in enumerate(obs.hand_sizes):
            if seat == obs.seat:
                if size != len(obs.hand):
                    raise InconsistentObservationError("the seat's hand size does not match")
                continue
            free = size - len(obs.known[seat])
            if free < 0:
                raise InconsistentObservationError(f"seat {seat} has more known cards than cards")
            slots.append((seat, free))
        dealt = sum(free for _, free in slots)
        if dealt > len(self._unseen) or dealt + obs.stock_size != len(unseen):
            raise InconsistentObservationError(
                f"{len(unseen)} unseen cards cannot fill {dealt} hand slots and a stock of "
                f"{obs.stock_size}")
        self.obs = obs
        self._slots = slots
        self._asker = _hidden_asker(obs)
        evidence: list[tuple[int, int, float]] = []
        if model_opponents:
            evidence = [(seat, rank, odds) for (seat, rank), odds
                        in sorted(View(obs).pair_evidence().items())
                        if seat != obs.seat and odds < 1.0]
        self._evidence = evidence

    def sample(self, rng: random.Random) -> State:
        """One state drawn uniformly among those the seat cannot tell apart (see the module)."""
        state = self._deal(rng)
        asker = self._asker
        if asker is not None:
            for _ in range(REDEALS):
                if _could_have_asked(state, asker):
                    break
                state = self._deal(rng)
        return state

    def _deal(self, rng: random.Random) -> State:
        obs = self.obs
        cards = list(self._unseen)
        rng.shuffle(cards)
        hands: list[tuple[Card, ...]] = list(obs.known)  # placeholders, replaced below
        hands[obs.seat] = obs.hand
        pos = 0
        dealt: dict[int, list[Card]] = {}
        for seat, free in self._slots:
            dealt[seat] = cards[pos:pos + free]
            pos += free
        stock = cards[pos:]
        if self._evidence and stock:
            _follow_evidence(self._evidence, obs.known, dealt, stock, rng)
        for seat, part in dealt.items():
            hands[seat] = tuple(sorted(obs.known[seat] + tuple(part)))
        if self._red_threes:
            stock.extend(self._red_threes)
            rng.shuffle(stock)
        return build_state(
            rules=obs.rules, dealer=obs.dealer, to_move=obs.to_move, phase=obs.phase,
            hands=tuple(hands), stock=tuple(stock), pile=obs.pile, melds=obs.melds,
            red_threes=obs.red_threes, hidden=obs.hidden, scores=obs.scores,
            pile_frozen=obs.pile_frozen, has_melded=obs.has_melded, asks=obs.asks,
            answer=obs.answer, turn=obs.turn, known=obs.known, lone_hand=obs.lone_hand,
            result=obs.result)


def _follow_evidence(evidence: list[tuple[int, int, float]],
                     known: tuple[tuple[Card, ...], ...], dealt: dict[int, list[Card]],
                     stock: list[Card], rng: random.Random) -> None:
    """Break up dealt natural pairs that a seat's play makes unlikely, keeping each with the odds
    the evidence leaves (the card swapped out goes to a random place of the stock)."""
    for seat, rank, odds in evidence:
        part = dealt.get(seat)
        if part is None:
            continue
        mine = [i for i, c in enumerate(part) if RANK_OF[c] == rank]
        have = len(mine) + sum(1 for c in known[seat] if RANK_OF[c] == rank)
        if have < 2 or not mine or rng.random() < odds:
            continue
        for _ in range(4):  # a few tries for a stock card of another rank
            j = rng.randrange(len(stock))
            if RANK_OF[stock[j]] != rank:
                i = mine[0]
                part[i], stock[j] = stock[j], part[i]
                break


def _hidden_asker(obs: Observation) -> int | None:
    """The other seat whose question (or the "yes" to it) is pending, if any."""
    rules = obs.rules
    if obs.phase == ANSWER:
        asker = (obs.to_move - rules.num_sides) % rules.num_players
    elif obs.phase == PLAY and obs.answer == "yes":
        asker = obs.to_move
    else:
        return None
    return None if asker == obs.seat else asker


def _could_have_asked(state: State, asker: int) -> bool:
    """Whether ``asker`` can go out this turn, as asking requires (RULES §1.14)."""
    return could_go_out(state, asker)


def determinize(obs: Observation, rng: random.Random) -> State:
    """One random state consistent with ``obs`` (see the module docstring)."""
    return Determinizer(obs).sample(rng)
