"""The ``heuristic`` bot (ladder rung L2): the expert policy of BOTS.md §3 as scored choices.

Each decision scores its candidates in points and plays the best one:

* **draw or take** (§3.2 A): a pile is worth a base plus so much per card and per red three, less
  the wild cards the take spends and, when the hand may end soon, the points it would leave in
  hand;
* **melds** (§3.2 B): open with the cheapest minimal opening; then *hold* cards (a big hand takes
  frozen piles and hides the side's plans) and meld only to complete a canasta, or once an
  opposing side could go out (a lay-off or new meld is worth more the higher that threat);
  keep natural pairs while the pile is frozen; spend wild cards only to finish a canasta (any
  number for the side's first canasta, fewer later); lay down everything that fits once the
  hand is about to end;
* **discard** (§3.2 C, D): each card costs what keeping it is worth (wild cards, pairs, black
  threes) plus the chance that the next opponent can take the pile with it times what the pile
  is worth to them (their melded ranks, unfrozen piles, card counting of unseen copies); wild
  cards stay in hand, but for a freeze of a big open pile or a block of a big frozen one (a
  joker blocks only when every natural card would likely hand the pile over);
* **going out** (§3.2 E, F): race when the opponents have not melded, threaten to go out, or the
  stock is running dry, or when the side's canastas are made and little is left to build; ask the
  partner first when the partner holds many cards, and answer with the partner's hand in mind.

All weights live in :class:`~canasta.bots.weights.HeuristicWeights`; a spec overrides them by
name (``heuristic:aggression=1.5,keep_wild=150``). The discard is worked out in
:mod:`canasta.bots.discards`.
"""

from __future__ import annotations

import dataclasses
import math
import random
from collections.abc import Sequence
from typing import NamedTuple

from canasta.actions import ASK, DISCARDS, DRAW, NO, PASS, YES, Action, Group
from canasta.bots.discards import choose_discard, discard_costs, keep_note, safest_discard
from canasta.bots.moves import Moves
from canasta.bots.view import OutPlan, View, hand_points, plan_going_out
from canasta.bots.weights import DEFAULT_WEIGHTS, HeuristicWeights, WeightBook
from canasta.bots.words import a_rank, a_size, count_words, rank_word
from canasta.cards import (
    IS_BLACK_THREE,
    IS_NATURAL,
    IS_RED_THREE,
    IS_WILD,
    JOKER,
    RANK_OF,
    format_card,
)
from canasta.melds import split_counts, wild_cap
from canasta.observation import Observation
from canasta.state import State


class HeuristicBot:
    """The expert heuristic of BOTS.md §3; see the module docstring."""

    name = "heuristic"

    def __init__(self, weights: object = None, **params: str) -> None:
        # ``object``: a spec's ``weights=1`` arrives as text and gets resolve_weights' message
        self.book = WeightBook(weights, params)
        self.weights = self.book.default
        """The weights of any preset without its own (:data:`PRESET_WEIGHTS`)."""

    def choose(self, obs: Observation, legal: Sequence[Action], rng: random.Random) -> Action:
        """The heuristic's action (deterministic: ``rng`` is not used)."""
        return decide(obs, legal, self.book.of(obs.rules))[0]

    def explain(self, obs: Observation, legal: Sequence[Action],
                rng: random.Random) -> tuple[Action, str]:
        """The heuristic's action and a one-line reason a player can read."""
        return decide(obs, legal, self.book.of(obs.rules))


def decide(obs: Observation, legal: Sequence[Action] | Moves,
           w: HeuristicWeights = DEFAULT_WEIGHTS) -> tuple[Action, str]:
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


def reason_for(obs: Observation, legal: Sequence[Action] | Moves, action: Action,
               w: HeuristicWeights = DEFAULT_WEIGHTS) -> str:
    """A sentence for a player on why ``action`` is worth playing, in the heuristic's terms,
    whether or not it is the heuristic's own choice (for search bots and hints)."""
    moves = legal if isinstance(legal, Moves) else Moves(legal)
    choice, why = decide(obs, moves, w)
    if action == choice:
        return why
    view = View(obs)
    verb = action.verb
    if verb == "discard":
        for _, a, reason in discard_costs(view, moves, w):
            if a == action:
                return f"discard {format_card(a.card)}: {reason}{keep_note(view, a)}"
    elif verb == "meld":
        for _, a, reason in meld_scores(view, moves, w):
            if a == action:
                return reason
        if obs.answer == "yes" or plan_going_out(view.rules, obs.hand, view.melds):
            return "lay cards down towards going out"
        if not view.side_melded:
            return "open: the pile is frozen for us until we meld"
        ranks = {g.rank for g in action.groups}
        words = " and ".join(rank_word(r) for r in sorted(ranks) if r < len(view.nat))
        return f"lay down {words or 'cards'} now rather than risk holding them"
    elif verb == "take":
        n = len(obs.pile)
        return f"take the pile ({n} card{'s' if n != 1 else ''})"
    elif verb == "draw":
        return "draw from the stock rather than take the pile"
    elif verb == "ask":
        return f"ask partner before going out ({want_out(view, w)[1]})"
    elif verb == "yes":
        return "yes: let partner go out now"
    elif verb == "no":
        return "no: I still have cards to lay down first"
    elif verb == "pass":
        return "pass: end the hand"
    return "a move worth playing here"


def decide_in(state: State, w: HeuristicWeights = DEFAULT_WEIGHTS) -> Action:
    """The heuristic's action for the player to move in a full state (used by simulations).

    The player still decides from its own observation; the state only answers legality checks.
    """
    from canasta.observation import observe

    return decide(observe(state, state.to_move), Moves(state=state), w)[0]


def alternatives(obs: Observation, legal: Sequence[Action] | Moves,
                 w: HeuristicWeights = DEFAULT_WEIGHTS, width: int = 4,
                 margin: float | None = None) -> list[Action]:
    """The heuristic's choice first, then the other actions worth a search, best guess first.

    Only decisions that matter get alternatives: a take (the best takes, and drawing instead),
    the discard (the cheapest few), going out or asking against playing on, and melding now
    against discarding at once. Anything else returns the choice alone: a draw (searched takes
    against it cost points) and the answer to "may I go out?" (searched answers did too;
    ``benchmarks/search_deviations.py``, docs/bot-experiments.md, "The search"). With a
    ``margin`` (points), takes and discards the heuristic rates that much worse than its best
    are left out, and so is drawing when a take is worth more than the margin. Whatever the
    margin and the width, a play decision also offers the moves a strong player weighs
    (:func:`defences`): a freeze or a block of a big pile, a black three, laying everything
    down under threat and the safest discard.
    """
    moves = legal if isinstance(legal, Moves) else Moves(legal)
    first = decide(obs, moves, w)[0]
    if moves.only() is not None:
        return [first]
    view = View(obs)
    out = [first]
    wide = math.inf if margin is None else margin
    extra: list[Action] = []
    if obs.phase == "answer":
        return [first]  # searched answers cost points: the heuristic's answer stands
    if obs.phase == "draw":
        if first.verb == "draw":
            return [first]  # searched takes against the heuristic's draw cost points
        out.extend(_draw_alternatives(view, moves, w, wide))
    elif obs.answer != "yes":
        costs = discard_costs(view, moves, w)
        out.extend(_play_alternatives(view, moves, w, costs, wide, width, first))
        extra = defences(view, moves, w, costs)
    unique = list(dict.fromkeys(out))[:max(width, 2)]
    return list(dict.fromkeys(unique + extra))


def _draw_alternatives(view: View, moves: Moves, w: HeuristicWeights,
                       wide: float) -> list[Action]:
    """The best takes within ``wide`` points, and drawing (or passing) unless a take is clear."""
    takes = sorted(take_scores(view, moves, w), key=lambda t: -t[0])
    if not takes:
        return []
    best = takes[0][0]
    out = [a for score, a in takes[:2] if score >= best - wide and score > -wide]
    if best < wide:
        out.extend(a for a in (DRAW, PASS) if a in moves)
    return out


def _play_alternatives(view: View, moves: Moves, w: HeuristicWeights,
                       costs: list[tuple[float, Action, str]], wide: float, width: int,
                       first: Action) -> list[Action]:
    """Going out or asking, the heuristic's meld (or the opening it holds back), and the
    cheapest discards of distinct kinds."""
    out: list[Action] = []
    if view.obs.answer != "no":
        eager = dataclasses.replace(w, aggression=w.aggression + 100.0, out_base=1000.0)
        going = _going_out(view, moves, eager)
        if going is not None:
            out.append(going[0])
            if going[0] != ASK and ASK in moves:
                out.append(ASK)
    meld, waiting = _meld_or_wait(view, moves, w)
    if meld is not None:
        out.append(meld[0])
    elif waiting is not None:
        out.append(waiting)  # the heuristic waits (``open_wait_pile``): the search may open
    if costs:
        cheapest = costs[0][0]
        kinds: set[int] = set()
        close = []
        for cost, a, _ in costs:
            kind = _kind(a.card)
            if cost <= cheapest + wide and kind not in kinds:
                kinds.add(kind)  # suits do not matter: one card of each kind is enough
                close.append(a)
        out.extend(close[:max(1, width - 1)] if first.verb == "discard" else close[:1])
    return out


def defences(view: View, moves: Moves, w: HeuristicWeights = DEFAULT_WEIGHTS,
             costs: list[tuple[float, Action, str]] | None = None) -> list[Action]:
    """The moves a strong player always weighs in the play phase, however the heuristic rates
    them: a freeze of a big open pile (or a block of a big frozen one) with the cheapest wild
    card (``offer_freeze_pile``), a block with a black three, laying down everything that fits
    under threat (``offer_dump_threat``), and the safest natural discard (the one least likely
    to hand the next opponent the pile)."""
    if costs is None:
        costs = discard_costs(view, moves, w)
    out: list[Action] = []
    wild = [a for _, a, _ in costs if IS_WILD[a.card]]
    if wild and view.next_owner != view.owner and len(view.obs.pile) + 1 >= w.offer_freeze_pile:
        out.append(min(wild, key=lambda a: (a.card == JOKER, a.card)))
    three = [a for _, a, _ in costs if IS_BLACK_THREE[a.card]]
    if three:
        out.append(three[0])
    if view.side_melded and _meld_threat(view, w) >= w.offer_dump_threat:
        dump = _choose_meld(view, moves, dataclasses.replace(w, dump_threat=0.0))
        if dump is not None:
            out.append(dump[0])
    safest = safest_discard(view, w, [a for _, a, _ in costs if IS_NATURAL[a.card]])
    if safest is not None:
        out.append(safest)
    return out


KIND_BLACK_THREE, KIND_TWO, KIND_JOKER = -1, -2, -3
"""The kinds of card that are not a natural rank (a natural card's kind is its rank)."""


def _kind(card: int) -> int:
    """Cards that play alike share a kind: a natural rank, black threes, twos, the joker."""
    if IS_BLACK_THREE[card]:
        return KIND_BLACK_THREE
    if IS_WILD[card]:
        return KIND_JOKER if card == JOKER else KIND_TWO
    return RANK_OF[card]


# -- the draw phase ------------------------------------------------------------------------

def take_scores(view: View, moves: Moves,
                w: HeuristicWeights = DEFAULT_WEIGHTS) -> list[tuple[float, Action]]:
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
            - w.take_late_risk * view.threat(w.stock_rounds) * sum(value[c] for c in picked))
    if w.take_canasta:
        gain += w.take_canasta * _our_canastas(view, pile)
    if len(pile) <= w.leave_pile and DRAW in moves:
        gain -= LEFT_PILE_COST
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


LEFT_PILE_COST = 1000.0
"""What taking a pile of ``leave_pile`` cards or fewer costs against drawing: more than any
small pile is worth. Where no draw is left (the stock is out), such a pile is weighed as any
other."""


def _our_canastas(view: View, picked: Sequence[int]) -> int:
    """The bonuses of the side's canastas that the pile's cards, with the hand's naturals of
    their ranks, would complete."""
    rules = view.rules
    size = rules.canasta_size
    total = 0
    for r in {RANK_OF[c] for c in picked if IS_NATURAL[c]}:
        meld = view.melds[r]
        if meld is None or len(meld) >= size:
            continue
        more = view.nat[r] + sum(1 for c in picked if IS_NATURAL[c] and RANK_OF[c] == r)
        if len(meld) + more >= size:
            mixed = any(not IS_NATURAL[c] for c in meld)
            total += rules.mixed_canasta_bonus if mixed else rules.natural_canasta_bonus
    return total


def _draw_phase(view: View, moves: Moves, w: HeuristicWeights) -> tuple[Action, str]:
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
    n = len(view.obs.pile)
    if scored and n <= w.leave_pile:
        if view.rules.lone_hand and view.obs.lone_hand is None:
            return DRAW, (f"draw: the first to take the pile plays alone against two, and "
                          f"{count_words(n)} cards are not worth it")
        return DRAW, (f"draw: {a_size(n, 'card', spelled=True)} pile is worth less than a card "
                      "from the stock")
    if scored:
        return DRAW, "draw: the pile is not worth what taking it costs"
    return DRAW, "draw from the stock (the pile cannot be taken)"


# -- answering "may I go out?" -------------------------------------------------------------

def _answer(view: View, w: HeuristicWeights) -> tuple[Action, str]:
    """Yes unless what this hand could still lay down outweighs what a round costs.

    A "yes" ends the hand: the cards in this hand count against the side. A "no" keeps it going
    for a round, in which this hand can lay down what fits (its points then count for the side
    instead of against it, and may finish a canasta), while the opponents play on too.
    """
    points = hand_points(view.rules, view.obs.hand)
    threat = view.threat(w.stock_rounds)
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

def _play_phase(view: View, moves: Moves, w: HeuristicWeights) -> tuple[Action, str]:
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
    meld, waiting = _meld_or_wait(view, moves, w)
    if meld is None:
        action, why = choose_discard(view, moves, w)
        if waiting is not None:
            n = len(view.obs.pile)
            pile = f"{a_size(n, 'card', spelled=True)} pile" if n else "an empty pile"
            why += f"; no opening yet: {pile} is not worth a wild card"
        return action, why
    if not (w.meld_discard_margin and _strands(view, meld[0], w)):
        return meld
    action, why = choose_discard(view, moves, w)
    return action, f"{why}; no meld yet: it would leave only risky cards to throw"


def _strands(view: View, meld: Action, w: HeuristicWeights) -> bool:
    """Whether ``meld`` would leave only risky cards to throw: its naturals are the safe
    discards, and the cheapest discard after it costs more than ``meld_discard_margin`` pile
    points over the cheapest now (a strong player keeps the dead pair while a big pile is at
    stake, and melds it later)."""
    obs = view.obs
    if view.next_owner == view.owner:
        return False
    laid = [c for g in meld.groups for c in g.cards]
    left = list(obs.hand)
    for c in laid:
        left.remove(c)
    if len(left) < 2:
        return False  # one card left is the discard that goes out, or the last card
    now = _least_discard(view, w)
    after = _least_discard(View(_after_meld(obs, view.owner, meld, tuple(left))), w)
    return after - now > w.danger * w.meld_discard_margin


def _least_discard(view: View, w: HeuristicWeights) -> float:
    """The cost of the cheapest card of the hand to throw."""
    legal = [DISCARDS[c] for c in sorted(set(view.obs.hand))]
    return min(cost for cost, _, _ in discard_costs(view, Moves(legal), w))


def _after_meld(obs: Observation, owner: int, meld: Action, hand: tuple[int, ...]) -> Observation:
    """The seat's view once ``meld`` is on the table and ``hand`` is what is left."""
    melds = list(obs.melds[owner])
    for g in meld.groups:
        melds[g.rank] = tuple(sorted((melds[g.rank] or ()) + g.cards))
    sides = list(obs.melds)
    sides[owner] = tuple(melds)
    sizes = list(obs.hand_sizes)
    sizes[obs.seat] = len(hand)
    return dataclasses.replace(obs, hand=hand, hand_sizes=tuple(sizes), melds=tuple(sides))


def _last_melds(view: View, moves: Moves, w: HeuristicWeights) -> tuple[Action, str]:
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


def want_out(view: View, w: HeuristicWeights = DEFAULT_WEIGHTS) -> tuple[float, str]:
    """How much going out now beats staying in (positive: go out), and the main reason."""
    obs = view.obs
    size = view.rules.canasta_size
    opp_unmelded = any(not view.owner_melded(o) for o in view.opp_owners)
    threat = view.threat(w.stock_rounds)
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


def _going_out(view: View, moves: Moves, w: HeuristicWeights) -> tuple[Action, str] | None:
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


def _should_ask(view: View, w: HeuristicWeights) -> bool:
    if not view.partners or view.obs.turn.melded:
        return False
    if (any(not view.owner_melded(o) for o in view.opp_owners)
            or view.threat(w.stock_rounds) >= 0.5):
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

def _opening_cost(action: Action, w: HeuristicWeights) -> float:
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
    load: float
    """Extra worth of any meld: held cards are a load in a big hand."""


class _MeldOption(NamedTuple):
    """What laying a rank's naturals down does: its worth, wild cards added and why."""

    score: float
    extra: int
    need: int
    """Cards the meld still lacks for a canasta after the naturals (and a pairing wild card)."""
    made: bool
    """The meld is a canasta already."""
    reason: str


def _meld_setting(view: View, w: HeuristicWeights) -> _MeldSetting:
    rules = view.rules
    threat = view.threat(w.stock_rounds)
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
    load = w.meld_load * max(0, len(view.obs.hand) - w.load_cards)
    return _MeldSetting(_meld_threat(view, w), dumping, sorted(view.wilds), keep,
                        view.canastas < rules.min_canastas_to_go_out, hold, fight, load)


def _meld_threat(view: View, w: HeuristicWeights) -> float:
    """The threat that melding answers: the hand ending soon, or a short opposing hand."""
    return max(view.threat(w.stock_rounds), _short_threat(view, w))


def _short_threat(view: View, w: HeuristicWeights) -> float:
    """``short_threat`` when an opponent whose side has melded is down to a few cards."""
    obs = view.obs
    for s in range(view.n):
        owner = obs.owner_of(s)
        if (owner != view.owner and obs.hand_sizes[s] <= w.short_hand
                and view.owner_melded(owner)):
            return w.short_threat
    return 0.0


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


def _meld_option(view: View, s: _MeldSetting, w: HeuristicWeights, r: int, k: int,
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


def _weigh_meld(view: View, moves: Moves, s: _MeldSetting, w: HeuristicWeights, r: int, k: int,
                paired: int, opt: _MeldOption) -> tuple[float, Action, str] | None:
    """The option scored against holding the cards, as a legal action; ``None`` when holding
    is better or the meld would leave too few cards."""
    score = opt.score
    base = w.new_meld_value if view.melds[r] is None else w.layoff_value
    score += base + w.meld_threat * s.threat + s.load
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
                w: HeuristicWeights = DEFAULT_WEIGHTS) -> list[tuple[float, Action, str]]:
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


def _choose_meld(view: View, moves: Moves, w: HeuristicWeights) -> tuple[Action, str] | None:
    """The meld to make now and why; ``None``: discard instead."""
    return _meld_or_wait(view, moves, w)[0]


def _meld_or_wait(view: View, moves: Moves, w: HeuristicWeights
                  ) -> tuple[tuple[Action, str] | None, Action | None]:
    """The meld to make now and why (``None``: discard instead), and the opening held back
    beside a small pile (``open_wait_pile``), if any: the reason and the search both name it."""
    if not view.side_melded:
        best = _cheapest_opening(view, moves, w)
        if best is None:
            return None, None
        if _opening_waits(view, best, w):
            return None, best
        count = sum(view.rules.value_of[c] for g in best.groups for c in g.cards)
        return (best, f"open with {count} points: the pile is frozen for us until we meld"), None
    scored = meld_scores(view, moves, w)
    if not scored:
        return None, None
    _, action, reason = scored[0]
    return (action, reason), None


def _cheapest_opening(view: View, moves: Moves, w: HeuristicWeights) -> Action | None:
    """The opening meld that spends least (``open_wild_cost``, ``open_card_cost``) and keeps a
    card in hand; ``None`` when there is none."""
    openings = moves.of("meld")
    if not openings:
        return None
    best = min(openings, key=lambda a: _opening_cost(a, w))
    laid = sum(len(g.cards) for g in best.groups)
    return best if len(view.obs.hand) - laid >= 1 else None


def _opening_waits(view: View, opening: Action, w: HeuristicWeights) -> bool:
    """Whether ``opening`` spends a wild card on a pile too small to pay for it, while the hand
    is in no danger of ending (``open_wait_pile``)."""
    return (len(view.obs.pile) < w.open_wait_pile and _meld_threat(view, w) < w.open_wait_threat
            and any(IS_WILD[c] for g in opening.groups for c in g.cards))
