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

All weights live in :class:`HeuristicWeights`; a spec overrides them by name
(``heuristic:aggression=1.5,keep_wild=150``).
"""

from __future__ import annotations

import dataclasses
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from canasta.actions import ASK, DISCARDS, DRAW, NO, PASS, YES, Action, Group
from canasta.bots.view import (
    STOCK_ROUNDS,
    TAKE_ODDS_FROZEN,
    TAKE_ODDS_OPEN,
    OutPlan,
    View,
    hand_points,
    plan_going_out,
    refit_take_odds,
)
from canasta.bots.words import (
    a_rank,
    a_size,
    count_words,
    percent_words,
    rank_word,
    wild_words,
)
from canasta.cards import (
    IS_BLACK_THREE,
    IS_NATURAL,
    IS_RED_THREE,
    IS_WILD,
    JOKER,
    RANK_OF,
    format_card,
)
from canasta.engine import is_legal
from canasta.legal import ask_problem, legal_actions
from canasta.melds import split_counts, wild_cap
from canasta.observation import Observation
from canasta.plans import meld_problem_of
from canasta.rules import Rules
from canasta.state import DRAW as DRAW_PHASE
from canasta.state import PLAY, State


@dataclass(frozen=True)
class HeuristicWeights:
    """Every tunable number of the heuristic bot, in points unless said otherwise.

    The eighteen weights that ``benchmarks/spsa_tune.py`` moves by default were tuned together
    by it (classic, 500 iterations of 2,000 hands of self-play; docs/bots.md, sixth round): their
    defaults are its result, rounded.
    """

    # -- taking the pile
    take_base: float = 37.0
    """Worth of any take: a meld made and the tempo of the pile."""
    take_per_card: float = 46.0
    """Worth of each card picked up (a natural card and a two take a pile of three: a small pile
    taken is one that cannot grow into a big feed; 25, then 60 before the tuning)."""
    leave_pile: int = 2
    """A pile of this many cards or fewer is left for the stock: its take scores
    ``LEFT_PILE_COST`` below drawing (0: off). Taking a two-card pile (most often a black
    three and a card that fits a meld) reads as a gain by the weights above, yet played on it
    loses: the stock card is worth more than the card laid off, and the black three thrown
    back only blocks a turn (docs/bots.md, "Tenth round")."""
    take_red_three: float = 100.0
    """Worth of a red three lying in the pile."""
    take_wild_cost: float = 106.0
    """Cost of a two spent on the take (a joker costs twice as much)."""
    take_canasta: float = 0.0
    """Share of a canasta's bonus a take is worth for each canasta of the side that the pile's
    cards (with the hand's of the rank) would complete; 0: off."""
    take_late_risk: float = 1.0
    """Share of the pile's points charged when the hand may end soon (times the threat)."""
    # -- melding
    open_wild_cost: float = 30.0
    """Cost of a two spent on the opening meld (a joker costs twice as much)."""
    open_card_cost: float = 3.0
    """Cost of each card laid in the opening (cards held keep options)."""
    open_wait_pile: int = 4
    """While the pile holds fewer cards than this and the hand is in no danger of ending
    (``open_wait_threat``), an opening that spends a wild card waits: a small pile does not pay
    for the wild card, which can later meet the minimum with a pile taken from the hand; 0:
    never wait."""
    open_wait_threat: float = 0.1
    """Threat (of the hand ending soon) from which such an opening is made at once."""
    keep_cards: int = 3
    """Cards kept in hand when melding, unless going out or the hand is about to end."""
    meld_discard_margin: float = 300.0
    """Pile points of extra risk a meld may add to the discard that follows it: a meld that
    would leave only riskier cards to throw (its naturals were the safe discards) waits while a
    big pile is at stake; 0: off. Smaller margins held back melds that the risk did not
    warrant, and gained less (docs/bots.md, "Eleventh round")."""
    layoff_value: float = -42.0
    """Worth of laying natural cards onto the side's meld (negative: rather hold them)."""
    new_meld_value: float = -44.0
    """Worth of starting a meld of three or more natural cards (negative: rather hold them)."""
    meld_threat: float = 350.0
    """Extra worth of any lay-off or new meld per unit of threat: held cards count against the
    side if the hand ends, so they go down once an opposing side can go out."""
    hold_pairs_pile: int = 4
    """Pile size from which a frozen pile makes the bot keep a natural pair of each rank."""
    fight_hold: float = 2.5
    """Cost per pile card of laying cards down (short of a canasta) while the pile is frozen
    for the side: held cards are the pairs that take it and the safe discards that keep it."""
    finish_wilds: int = 2
    """Most wild cards spent to finish a canasta once the side has the canastas to go out."""
    dump_threat: float = 0.5
    """Threat above which everything that fits is laid down to save points."""
    load_cards: int = 15
    """Hand size above which held cards are a load: after a big take, lay down what fits."""
    meld_load: float = 2.0
    """Extra worth of a lay-off or new meld per card held above ``load_cards``."""
    short_hand: int = 3
    """An opponent whose side has melded and who holds this many cards or fewer may go out
    within a few turns (even short of canastas): lay off against it."""
    short_threat: float = 0.115
    """The threat such a short hand adds when melding (at least this much): with ``meld_threat``
    it about cancels ``layoff_value``, so a short hand tips a lay-off only with another reason
    (a big hand, ``meld_load``)."""
    stock_rounds: float = STOCK_ROUNDS
    """Rounds of draws left in the stock from which the hand may end with it (its threat rises
    from 0 there to 1 at the last card)."""
    # -- discarding
    keep_wild: float = 265.0
    """Cost of discarding a two: wild cards finish canastas, so one goes only when every other
    card would hand the next player a big pile (or as a deliberate freeze, when set)."""
    joker_factor: float = 1.5
    """A joker's worth in hand over a two's."""
    block_share: float = 0.5
    """Share of the cost of the cheapest natural card that a wild card on an already frozen pile
    of ``block_min_pile`` cards or more still leaves (it blocks only the next player)."""
    block_min_pile: int = 20
    """Smallest frozen pile on which a two may block the next player."""
    joker_block_min_pile: int = 24
    """Smallest frozen pile on which a joker may block the next player, weighed like a two; 0:
    never. A joker so thrown stops one player for one turn and goes to whoever takes the pile
    later; on a pile this big that still pays (docs/bots.md, fourteenth round)."""
    joker_block_odds: float = 0.4
    """A joker blocks a frozen pile all the same when even the safest natural card hands the
    next player the pile at these odds or more (the pile is lost anyway without it); 0: never."""
    keep_pair: float = 45.0
    """Cost of breaking a natural pair (the currency for frozen piles)."""
    keep_triple: float = 40.0
    """Cost of discarding one of three or more natural cards of a rank (a pair stays)."""
    frozen_pair_per_card: float = 0.15
    """Extra worth of a pair, per pile card, while the pile is frozen for the side."""
    keep_single: float = 7.0
    """Cost of discarding a lone natural card."""
    keep_melded_rank: float = 4.0
    """Cost of discarding a natural card of a rank the side has melded."""
    shed_their_ranks: float = 25.0
    """Preference, while the pile is frozen for the next opponent, for discarding a rank their
    side has melded: it needs a pair now, but would hand them an open pile later."""
    canasta_progress: float = 27.0
    """Extra cost of discarding a card of the side's unfinished meld, divided by the cards the
    meld still lacks for a canasta (the last ones are the dearest)."""
    keep_black_three: float = 8.0
    """Worth of keeping a black three for later, in pile points saved, when the pile is worth
    blocking (the next player cannot take a pile topped by it); weighed like ``danger``. At 40
    (with ``black_three_per_card=2.5``) a black three stays off piles of a few cards, but that
    lost about 10 points a hand against heuristic-v2 (docs/bots.md)."""
    black_three_per_card: float = 0.33
    """How much less a black three is worth keeping per card of the pile: on a big pile it is
    the block to use now."""
    danger: float = 6.6
    """Weight of the expected pile value handed to the next opponent (high: a pile given away
    is rarely won back, and the card that risks least is nearly always the one to throw; 12
    at first, which let a point of risk outweigh a pair)."""
    pile_base: float = 60.0
    """What any pile is worth to its taker."""
    pile_per_card: float = 50.0
    """What each card of a pile is worth to its taker."""
    pile_points: float = 1.0
    """What each point of the pile's cards is worth to its taker, besides the cards."""
    unmelded_take_factor: float = 0.5
    """Chance that an unmelded side also meets its minimum when it holds the pair."""
    take_odds_fit: float = 1.0
    """Share (0-1) of the way, in log-odds, that the odds of the next player taking a discard
    move to what play found (:data:`~canasta.bots.view.TAKE_ODDS_FROZEN`, ``TAKE_ODDS_OPEN``);
    0 keeps the odds by counting and the pile story alone."""
    freeze_value: float = 10.0
    """Worth per pile card of freezing the pile when the opponents have melded."""
    freeze_share: float = 0.5
    """Share of the danger of the safest other card that freezing the pile saves."""
    freeze_min_pile: int = 0
    """Smallest pile (with the discard) worth an eager freeze with a wild card (the weighing of
    ``freeze_value``, ``freeze_share``); 0: never (the default: against heuristic-v1 every
    such setting lost points, docs/bots.md). The defensive freeze below is the one that plays."""
    defend_min_pile: int = 10
    """Smallest open pile (with the discard) a wild card freezes in defence: when the pile
    points the safest natural card would likely hand the next opponent outweigh the wild card's
    worth; 0: never. 8 to 12 play alike; 15 and 20 lost points head to head (docs/bots.md,
    fifteenth round)."""
    freeze_wild_worth: float = 236.0
    """A two's worth in hand, in pile points, against the points a defensive freeze saves (a
    joker is worth ``joker_factor`` times as much)."""
    freeze_opened: float = 0.5
    """Extra weight of those points when the next opponent's side has opened (it needs no
    minimum to take)."""
    freeze_cannot_take: float = 0.5
    """Extra weight when our side has not opened (the pile is as good as frozen for us)."""
    fight_pair_share: float = 0.03
    """Share of a frozen pile's worth that each natural pair in hand stands for while the pile is
    frozen for the side (pairs are how the side takes it): breaking one costs that much,
    weighed like ``danger`` and divided among the pairs held."""
    canasta_gift: float = 1.0
    """Share of a canasta's bonus added to the pile's worth when the discard (with the pile's
    cards of its rank) would complete a canasta of the next opponent's side: late in a hand a
    one-card pile is worth little, but the card that finishes their canasta is worth 300 or 500
    to them. Where every natural card would do that, a wild card freezes (or blocks) even a
    small pile. 0: off, as before (about 28 points a hand less against heuristic-v2,
    docs/bots.md)."""
    pile_canasta: float = 0.0
    """Share of a canasta's bonus added to the pile's worth for each canasta of the next
    opponent's side that the pile's own cards would complete; 0: off."""
    points_weight: float = 1.0
    """Weight of a card's points when the hand may end soon (times the threat)."""
    # -- the search's candidates
    offer_freeze_pile: int = 15
    """Smallest pile (with the discard) on which the search always weighs a freeze or a block
    with a wild card: on smaller piles its play-outs, which do not see a wild card's worth
    beyond their horizon, threw wild cards that cost points
    (``benchmarks/search_deviations.py``, docs/bots.md); 0: any pile."""
    offer_dump_threat: float = 0.15
    """Least threat (an opponent with the canastas to go out holding eight cards or fewer, a
    short hand, a low stock) at which the search also weighs laying everything down: before
    that, its play-outs, which count held cards against the side, chose it too often, and it
    cost points (``benchmarks/search_deviations.py``, docs/bots.md); 0: always."""
    # -- going out
    aggression: float = 1.7
    """Scales the wish to go out (race) against staying to build."""
    out_base: float = 100.0
    """Going out's own worth (the bonus) before the situation is weighed."""
    out_opp_unmelded: float = 400.0
    """Extra wish to go out while an opposing side has not melded."""
    out_threat: float = 300.0
    """Extra wish to go out per unit of threat (the hand may end anyway)."""
    out_build: float = 79.0
    """Wish to stay for each meld of the side that is close to a canasta."""
    out_partner_card: float = 15.0
    """Wish to stay per card in the partner's hand (they count against the side)."""
    out_opp_card: float = 0.0
    """Wish to go out per card in an opposing side's hands (they count against it)."""
    ask_partner_cards: int = 4
    """Ask the partner first when they hold at least this many cards."""
    answer_points: float = 55.0
    """What a round of play costs the side, in points, when the partner asks to go out: the
    partner answers "no" only if staying is worth more (times one plus the threat)."""
    answer_meld: float = 1.0
    """Worth of each point the hand could lay down by staying."""
    answer_canasta: float = 300.0
    """Worth of each canasta the hand could finish by staying."""

    @classmethod
    def from_params(cls, params: dict[str, str],
                    base: HeuristicWeights | None = None) -> HeuristicWeights:
        """Weights with the named fields overridden (on ``base``, else the defaults); raises
        ``ValueError`` on a bad name/value."""
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
        return dataclasses.replace(base or cls(), **changes)


DEFAULT_WEIGHTS = HeuristicWeights()

PRESET_WEIGHTS: dict[str, HeuristicWeights] = {
    # three players, each alone (``spsa_tune.py --rules classic-3p-cutthroat``): the pile is
    # taken far less eagerly (one of ten cards or fewer not at all: its first taker plays
    # alone against two), cards are held longer, going out is raced less, and the stock's end
    # is feared a round sooner; a wild card freezes only open piles of 15+ cards (10: 30 points
    # a hand fewer)
    "classic-3p-cutthroat": dataclasses.replace(
        DEFAULT_WEIGHTS, take_base=0.0, take_per_card=20.0, take_wild_cost=197.0,
        layoff_value=-38.0, new_meld_value=-85.0, meld_threat=340.0, fight_hold=3.1,
        keep_wild=181.0, keep_pair=41.0, keep_single=12.0, canasta_progress=33.0,
        keep_black_three=7.0, danger=2.7, pile_per_card=58.0, freeze_wild_worth=210.0,
        aggression=0.93, out_build=50.0, answer_points=80.0, leave_pile=10, stock_rounds=3.0,
        defend_min_pile=15),
    # two players (``spsa_tune.py --rules classic-2p``, then against a pool of heuristic-v1,
    # heuristic-v2 and these weights, ``--opponents``): a small pile is worth little more than
    # a stock card, so cards that fit a meld are laid off at once rather than kept for the
    # pile, natural cards for a new meld are held a little (they take a frozen pile), and a
    # wild card is spent on a take only for a big one; a pile of five cards or fewer is left
    "classic-2p": dataclasses.replace(
        DEFAULT_WEIGHTS, take_base=17.5, take_per_card=21.8, take_wild_cost=189.0,
        layoff_value=7.5, new_meld_value=-1.4, meld_threat=417.0, fight_hold=3.2,
        keep_wild=282.0, keep_pair=39.3, keep_single=2.2, canasta_progress=35.6,
        keep_black_three=8.6, danger=3.1, pile_per_card=53.8, freeze_wild_worth=240.0,
        aggression=1.99, out_build=30.6, answer_points=71.0, leave_pile=5),
    # the void draw (``spsa_tune.py --rules korean-old``): going out valued over building; a
    # pile of three cards or fewer is left; the stock's end, which voids the hand, is feared
    # half a round sooner; a two blocks the pile, frozen from the start, from 12 cards
    "korean-old": dataclasses.replace(
        DEFAULT_WEIGHTS, take_base=37.0, take_per_card=43.0, take_wild_cost=107.0,
        layoff_value=-44.0, new_meld_value=-37.0, meld_threat=386.0, fight_hold=2.4,
        keep_wild=254.0, keep_pair=48.0, keep_single=7.3, canasta_progress=30.0,
        keep_black_three=7.1, danger=6.5, pile_per_card=47.0, freeze_wild_worth=225.0,
        aggression=2.07, out_build=54.0, answer_points=58.0, leave_pile=3, stock_rounds=2.5,
        block_min_pile=12),
    # three players each alone, and three sides of two: small piles are taken as before
    # (leaving them measured no gain there); six players fear the stock's end a round sooner
    "classic-3p": dataclasses.replace(DEFAULT_WEIGHTS, leave_pile=0),
    "classic-6p-3x2": dataclasses.replace(DEFAULT_WEIGHTS, leave_pile=0, stock_rounds=3.0),
    "classic-6p": dataclasses.replace(DEFAULT_WEIGHTS, stock_rounds=3.0),
}
"""The defaults of the presets that play best with weights of their own: tuned on them by
``benchmarks/spsa_tune.py --rules NAME`` (docs/bots.md, sixth and eighth rounds), with the pile
size each leaves for the stock (tenth round) and the stock's horizon (twelfth round) measured
on them; any other preset plays :data:`DEFAULT_WEIGHTS`."""


def resolve_weights(weights: object, params: dict[str, str]) -> HeuristicWeights:
    """Weights given whole (from code) or by name (from a spec); raises ``ValueError``."""
    if weights is None:
        return HeuristicWeights.from_params(params) if params else DEFAULT_WEIGHTS
    if not isinstance(weights, HeuristicWeights) or params:
        raise ValueError("give the weights either as HeuristicWeights or by name, "
                         f"not {weights!r}")
    return weights


class WeightBook:
    """The weights a bot plays with on each preset: a spec's overrides on top of the preset's
    own defaults (:data:`PRESET_WEIGHTS`), or the weights given whole, on every preset."""

    def __init__(self, weights: object, params: dict[str, str]) -> None:
        self.default = resolve_weights(weights, params)  # a bad name or value fails here
        self._params = {} if weights is not None else dict(params)
        self._whole = weights is not None
        self._by_preset: dict[str, HeuristicWeights] = {}

    def of(self, rules: Rules) -> HeuristicWeights:
        """The weights for a game under ``rules``."""
        w = self._by_preset.get(rules.name)
        if w is None:
            tuned = None if self._whole else PRESET_WEIGHTS.get(rules.name)
            w = self.default if tuned is None else HeuristicWeights.from_params(self._params,
                                                                                 tuned)
            self._by_preset[rules.name] = w
        return w


class NoMoveError(ValueError):
    """A simulated state where the player to move has no legal action (an impossible sample)."""


class Moves:
    """The legal actions of the seat to move: a given list, or checked on demand against a state.

    Bots get the list. Simulations (which know the sampled state) pass the state instead: listing
    every meld of a big hand costs far more than checking the few the heuristic wants to play.
    """

    __slots__ = ("_list", "_set", "_state")

    def __init__(self, legal: Sequence[Action] | None = None, state: State | None = None) -> None:
        if legal is None and state is None:
            raise ValueError("Moves needs the legal actions or a state")
        self._list = legal
        self._set: set[Action] | None = None
        self._state = state

    def listed(self) -> Sequence[Action]:
        """Every legal action (computed from the state on first use)."""
        if self._list is None:
            assert self._state is not None
            self._list = legal_actions(self._state)
            if not self._list:
                raise NoMoveError("no legal action in this state")
        return self._list

    def only(self) -> Action | None:
        """The single legal action, when the list is known to hold just one."""
        if self._list is not None and len(self._list) == 1:
            return self._list[0]
        return None

    def __contains__(self, action: object) -> bool:
        if self._list is not None:
            if self._set is None:
                self._set = set(self._list)
            return action in self._set
        state = self._state
        assert state is not None
        if not isinstance(action, Action):
            return False
        verb = action.verb
        if verb == "meld":
            return state.phase == PLAY and meld_problem_of(state, action) is None
        if verb == "discard":
            return state.phase == PLAY and is_legal(state, action)
        if verb == "ask":
            return state.phase in (PLAY, DRAW_PHASE) and ask_problem(state) is None
        return action in self.listed()

    def of(self, verb: str) -> list[Action]:
        """The legal actions with this verb."""
        return [a for a in self.listed() if a.verb == verb]

    def discards(self, obs: Observation) -> list[Action]:
        """The legal discards."""
        if (self._list is None and len(obs.hand) >= 2 and obs.answer != "yes"
                and not obs.turn.last_red_three):
            return [DISCARDS[c] for c in sorted(set(obs.hand))]  # any card may go
        return self.of("discard")


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
                return f"discard {format_card(a.card)}: {reason}{_keep_note(view, a)}"
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
    ``benchmarks/search_deviations.py``, docs/bots.md). With a ``margin`` (points), takes and
    discards the heuristic rates that much worse than its best are left out, and so is drawing
    when a take is worth more than the margin. Whatever the margin and the width, a play
    decision also offers the moves a strong player weighs (:func:`defences`): a freeze or a
    block of a big pile, a black three, laying everything down under threat and the safest
    discard.
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
        return [first]  # searched answers cost points (docs/bots.md): the heuristic's stands
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
    safest = _safest_discard(view, w, [a for _, a, _ in costs if IS_NATURAL[a.card]])
    if safest is not None:
        out.append(safest)
    return out


def _safest_discard(view: View, w: HeuristicWeights, naturals: list[Action]) -> Action | None:
    """The natural discard the next opponent is least likely to take the pile with (ties: the
    heuristic's order)."""
    if not naturals or view.next_owner == view.owner:
        return None
    s = discard_setting(view, w)
    odds: dict[int, float] = {}
    return min(naturals, key=lambda a: _danger(view, s, w, a.card, odds)[0])


def _kind(card: int) -> int:
    """Cards that play alike share a kind: a natural rank, black threes, twos, the joker."""
    if IS_BLACK_THREE[card]:
        return 100
    if IS_WILD[card]:
        return 102 if card == JOKER else 101
    return card >> 2


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
small pile is worth. Where no draw is left (the stock is out), the pile is weighed as before."""


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
        return DRAW, (f"draw: a {count_words(n)}-card pile is worth less than a card from the "
                      "stock")
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
        action, why = _discard(view, moves, w)
        if waiting is not None:
            why += (f"; no opening yet: a {len(view.obs.pile)}-card pile is not worth"
                    " a wild card")
        return action, why
    if not (w.meld_discard_margin and _strands(view, meld[0], w)):
        return meld
    action, why = _discard(view, moves, w)
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


# -- discarding ----------------------------------------------------------------------------

class DiscardSetting(NamedTuple):
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
    fight_pair: float
    """What breaking a natural pair costs in a fight for a pile frozen for the side (the pile's
    worth to us, shared among the pairs that could take it)."""


def discard_setting(view: View, w: HeuristicWeights) -> DiscardSetting:
    """The facts of the discard ``view``'s seat is about to make, as the weights ``w`` read
    them."""
    rules = view.rules
    pile_n = len(view.obs.pile) + 1
    unmelded_factor = w.unmelded_take_factor if rules.minimum_for(0) > 15 else 1.0
    next_unmelded = not view.owner_melded(view.next_owner)
    # pairs are what takes a frozen pile: the bigger the pile, the dearer they are
    frozen_us = view.frozen_for(view.seat)
    pair_boost = 1.0 + (w.frozen_pair_per_card * pile_n if frozen_us else 0.0)
    value = rules.value_of
    worth = (w.pile_base + w.pile_per_card * (pile_n - 1)
             + w.pile_points * sum(value[c] for c in view.obs.pile))
    if w.pile_canasta:
        worth += w.pile_canasta * sum(_completes(view, r, 0)
                                      for r in range(len(view.nat)))
    fight_pair = 0.0
    if frozen_us and pile_n >= w.hold_pairs_pile:
        pairs = sum(1 for k in view.nat if k == 2)
        fight_pair = w.danger * w.fight_pair_share * worth / max(1, pairs)
    return DiscardSetting(view.threat(w.stock_rounds), pile_n, worth,
                          view.next_owner != view.owner, view.frozen_for(view.next_seat),
                          unmelded_factor if next_unmelded else 1.0, pair_boost, fight_pair)


def _keep_cost(view: View, s: DiscardSetting, w: HeuristicWeights, c: int) -> tuple[float, str]:
    """What parting with the natural card ``c`` costs the hand (its meld, pair or rank), and why
    it is the one to go."""
    size = view.rules.canasta_size
    cost = -w.points_weight * s.threat * view.rules.value_of[c]
    r = RANK_OF[c]
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
        cost += w.keep_pair * s.pair_boost + s.fight_pair
        reason = f"my pair of {rank_word(r)} is the one to break"
    else:
        cost += w.keep_single
        reason = "a lone card"
    if s.next_is_opp and s.frozen_next and view.obs.melds[view.next_owner][r] is not None:
        # safe now that a pair is needed, and a gift once the pile opens: shed it now
        cost -= w.shed_their_ranks
        reason = f"the pile is frozen: {a_rank(r)} matches their meld only later"
    return cost, reason


def _danger(view: View, s: DiscardSetting, w: HeuristicWeights, c: int,
            odds: dict[int, float]) -> tuple[float, str | None]:
    """The pile value the natural card ``c`` risks handing the next opponent, and a reason when
    that is what decides (``odds`` caches the chance to take per rank)."""
    if not s.next_is_opp:
        return 0.0, None
    r = RANK_OF[c]
    p = odds.get(r, -1.0)
    if p < 0.0:
        p = odds[r] = next_take_odds(view, s, w, r)
    danger = w.danger * p * (s.pile_worth + _canasta_gift(view, w, r))
    if p >= 0.99:
        return danger, "any card may hand the next player the pile; this one costs least"
    if p == 0.0 and view.unseen()[r] == 0:
        return danger, f"safe: every other {rank_word(r, 1)} is in sight"
    if danger < 10 and _lone(view, r):
        return danger, f"safe: the next player can hardly use {a_rank(r)}"
    return danger, None


def next_take_odds(view: View, s: DiscardSetting, w: HeuristicWeights, r: int) -> float:
    """The chance that the next player can take the pile topped by a card of rank ``r``: the
    reader's odds, times ``take_factor``, refitted to what play found (``take_odds_fit``)."""
    p = view.p_can_take(view.next_seat, r, s.frozen_next) * s.take_factor
    fit = TAKE_ODDS_FROZEN if s.frozen_next else TAKE_ODDS_OPEN
    return refit_take_odds(fit, p, view.melds[r] is not None,
                           view.obs.melds[view.next_owner][r] is not None, w.take_odds_fit,
                           len(view.obs.pile) + 1)


def _canasta_gift(view: View, w: HeuristicWeights, r: int) -> float:
    """What a card of rank ``r`` adds to the pile's worth for the next opponent when, with the
    pile's cards of that rank, it completes a canasta of their side (its bonus times
    ``canasta_gift``)."""
    if not w.canasta_gift or (w.pile_canasta and _completes(view, r, 0)):
        return 0.0  # the pile alone completes it: counted in the pile's worth
    return w.canasta_gift * _completes(view, r, 1)


def _completes(view: View, r: int, extra: int) -> int:
    """The bonus of the next opponent's canasta of rank ``r`` that the pile's cards and
    ``extra`` more of the rank would complete (0 when they would not)."""
    if r >= len(view.obs.melds[view.next_owner]):
        return 0
    meld = view.obs.melds[view.next_owner][r]
    rules = view.rules
    if meld is None or len(meld) >= rules.canasta_size:
        return 0
    more = extra + sum(1 for c in view.obs.pile if IS_NATURAL[c] and RANK_OF[c] == r)
    if not more or len(meld) + more < rules.canasta_size:
        return 0
    mixed = any(not IS_NATURAL[c] for c in meld)
    return rules.mixed_canasta_bonus if mixed else rules.natural_canasta_bonus


def _gives_canasta(s: DiscardSetting, w: HeuristicWeights, least_danger: float) -> bool:
    """Whether even the safest natural card likely hands the next opponent more than the pile:
    the card that finishes a canasta of their side (``canasta_gift``)."""
    return bool(w.canasta_gift) and s.next_is_opp and least_danger > w.danger * s.pile_worth


def _black_three_cost(view: View, s: DiscardSetting, w: HeuristicWeights, c: int,
                      least_danger: float) -> tuple[float, str]:
    """A black three blocks the next player for a turn: keep it for when that matters."""
    cost = -w.points_weight * s.threat * view.rules.value_of[c]
    if s.next_is_opp:
        # kept for a big pile, weighed like the pile points it will save; never quite free
        cost += w.danger * max(BLACK_THREE_FLOOR,
                               w.keep_black_three - w.black_three_per_card * s.pile_n)
    reason = ("a black three blocks the next player" if least_danger >= 10 or s.pile_n > 6
              else "a black three is of no use in my hand")
    return cost, reason


def _wild_cost(view: View, s: DiscardSetting, w: HeuristicWeights, c: int,
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
        # (it also hands the pile's next taker a wild card: a joker only when every natural
        # card likely hands the pile over)
        least = w.block_min_pile if c != JOKER else w.joker_block_min_pile or math.inf
        odds = least_danger / (w.danger * s.pile_worth) if s.pile_worth else 0.0
        if not s.next_is_opp or (pile_n < least and not (
                c == JOKER and w.joker_block_odds and odds >= w.joker_block_odds)
                and not _gives_canasta(s, w, least_danger)):
            return cost + least_natural, _unwanted_wild(view, s, frozen=True)
        block = _defensive_freeze(view, s, w, c, least_danger, block=True)
        if block is not None:
            return least_natural - w.danger * block[0], block[1]
        if s.next_is_opp and pile_n >= w.block_min_pile:
            cost += w.block_share * least_natural
        else:
            cost += least_natural
        return cost, (f"every other card would break a pair or risk the {pile_n}-card pile: "
                      "the wild card blocks the next player")
    defence = _defensive_freeze(view, s, w, c, least_danger)
    if defence is not None:
        gain, reason = defence
        return least_natural - w.danger * gain, reason
    if not (w.freeze_min_pile and pile_n >= w.freeze_min_pile):
        return cost + least_natural, _unwanted_wild(view, s, frozen=False)  # not worth it
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


def _unwanted_wild(view: View, s: DiscardSetting, frozen: bool) -> str:
    """Why a wild card the heuristic would keep goes all the same (the search may throw it):
    what it does to the pile, or that the hand holds nothing else."""
    if all(IS_WILD[c] for c in view.obs.hand):
        return "no other card to discard"
    if not s.next_is_opp:
        return "the wild card goes to the pile"
    if frozen:
        return "the wild card blocks the next player for a turn"
    return f"the wild card freezes the {s.pile_n}-card pile"


BLACK_THREE_FLOOR = 1.5
"""Least worth of keeping a black three, in pile points (times ``danger``): more than a safe lone
card, less than a pair."""


def _defensive_freeze(view: View, s: DiscardSetting, w: HeuristicWeights, c: int,
                      least_danger: float, block: bool = False) -> tuple[float, str] | None:
    """How much a freeze of the open pile with the wild card ``c`` beats the safest natural
    card, in pile points, and why; ``None`` when it does not pay (BOTS.md §3.2 D: a big pile
    open to the next opponent, above all once they have opened and we cannot take). With
    ``block``, the pile is frozen already: the wild card only keeps the next player from it for
    a turn, so the points it saves count once."""
    if not w.defend_min_pile or least_danger <= 0 or not s.next_is_opp:
        return None
    gift = least_danger / w.danger  # pile points the safest natural card likely hands over
    canasta = _gives_canasta(s, w, least_danger)
    if s.pile_n < w.defend_min_pile and not canasta:
        return None
    opened = view.owner_melded(view.next_owner)
    weight = 1.0 if block else (1.0 + (w.freeze_opened if opened else 0.0)
                                + (w.freeze_cannot_take if not view.side_melded else 0.0))
    worth = w.freeze_wild_worth * (w.joker_factor if c == JOKER else 1.0)
    gain = gift * weight - worth
    if gain <= 0:
        return None
    if canasta and s.pile_n < w.defend_min_pile:
        return gain, ("every natural card would likely finish a canasta of the next "
                      "player's side: the wild card " + ("blocks the pile" if block
                                                         else "freezes the pile"))
    if block:
        return gain, (f"block: every other card risks handing the next player the {s.pile_n}-"
                      "card pile")
    why = f"freeze: {a_size(s.pile_n, 'card')} pile is open to the next player"
    if opened:
        why += ", whose side has opened"
    if not view.side_melded:
        why += ", and we have not"
    return gain, why


def discard_costs(view: View, moves: Moves,
                  w: HeuristicWeights = DEFAULT_WEIGHTS) -> list[tuple[float, Action, str]]:
    """Each legal discard with its cost (lower is better) and the main reason, cheapest first.

    A card costs what keeping it is worth (wild cards most, then the cards of melds close to a
    canasta, pairs, lone cards) plus, when the next player is an opponent, the chance that it
    lets them take the pile times what the pile is worth to them.
    """
    s = discard_setting(view, w)
    out: list[tuple[float, Action, str]] = []
    later: list[Action] = []  # wild cards and black threes, weighed against the naturals
    least_danger = least_natural = 0.0
    odds: dict[int, float] = {}  # the next player's chance to take, per rank
    keeps: list[float] = []  # what keeping each natural card is worth, in the order of ``out``
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
        keeps.append(cost if why is None else math.nan)
    if s.next_is_opp and s.pile_n >= ODDS_WORDS_PILE and out:
        _word_the_odds(view, s, out, keeps, odds)
    for action in later:
        c = action.card
        if IS_BLACK_THREE[c]:
            cost, reason = _black_three_cost(view, s, w, c, least_danger)
        else:
            cost, reason = _wild_cost(view, s, w, c, least_danger, least_natural)
        out.append((cost, action, reason))
    out.sort(key=lambda t: t[0])
    return out


ODDS_WORDS_PILE = 8
"""From this many cards in the pile (with the discard) the odds of handing it over are worth
naming in the reason for a natural discard."""

ODDS_WORTH_NAMING = 0.1
"""The chance of handing over a big pile that a reason names even when the card is also the
cheapest to part with."""


def _word_the_odds(view: View, s: DiscardSetting, out: list[tuple[float, Action, str]],
                   keeps: list[float], odds: dict[int, float]) -> None:
    """Rewrite in place the reasons of the natural discards in ``out`` that are the least likely
    to hand the next opponent the big pile, where that is what decides: the card is dearer to
    keep than another (``keeps``: what keeping each is worth, NaN where ``_danger`` worded the
    odds already), or its chance is worth telling. What the card costs the hand stays in the
    words: "the least likely card to give the next player the 44-card pile (23%), though it
    breaks my pair of queens"."""
    chance = [odds[RANK_OF[a.card]] for _, a, _ in out]
    least = min(chance)
    cheapest = min((k for k in keeps if not math.isnan(k)), default=math.nan)
    tied = len({RANK_OF[a.card] for (_, a, _), p in zip(out, chance) if p <= least}) > 1
    for i, (total, action, reason) in enumerate(out):
        p, r = chance[i], RANK_OF[action.card]
        named = p >= ODDS_WORTH_NAMING
        if math.isnan(keeps[i]) or p > least or not (keeps[i] > cheapest or named):
            continue
        theirs = s.frozen_next and view.obs.melds[view.next_owner][r] is not None
        if theirs and not named:
            continue  # "matches their meld only later" says it: a pair is all that takes
        safe = percent_words(p) == "0%"
        if safe:
            odds_words = (f"the next player can hardly take the {s.pile_n}-card pile with "
                          f"{a_rank(r)}")
        else:
            which = "as unlikely as any card" if tied else "the least likely card"
            odds_words = (f"{which} to give the next player the {s.pile_n}-card pile "
                          f"({percent_words(p)})")
        meld = view.melds[r]
        if meld is not None and len(meld) >= view.rules.canasta_size:
            out[i] = (total, action, f"{reason}, and {odds_words}")  # a canasta made already
            continue
        odds_words = "safe: " + odds_words if safe else odds_words
        hand = _hand_words(view, r)
        if theirs and not hand:
            hand = f"; {a_rank(r)} matches their meld only once the pile opens"
        out[i] = (total, action, odds_words + hand)


def _hand_words(view: View, r: int) -> str:
    """What parting with a card of rank ``r`` does to the hand, as the end of a sentence: a
    meld's way to a canasta or a pair lost, a pair kept from three (empty for a lone card)."""
    meld = view.melds[r]
    if meld is not None:
        short = view.rules.canasta_size - len(meld)
        return f", though our {rank_word(r)} need {count_words(short)} more for a canasta"
    k = view.nat[r]
    if k >= 3:
        return f", and I keep a pair of {rank_word(r)} for the pile"
    if k == 2:
        return f", though it breaks my pair of {rank_word(r)}"
    return ""


def _discard(view: View, moves: Moves, w: HeuristicWeights) -> tuple[Action, str]:
    costs = discard_costs(view, moves, w)
    if not costs:
        return moves.listed()[0], "nothing better to do"
    _, action, reason = costs[0]
    return action, (f"discard {format_card(action.card)}: {reason}{_keep_note(view, action)}"
                    f"{_spared_note(view, action)}")


def _spared_note(view: View, action: Action) -> str:
    """``"; not the 8d: the next player threw eights onto the frozen pile and may keep a
    pair"`` when a lone card goes and another lone card stays because the next opponent,
    fighting for a pile frozen for it, threw that rank: players throw from three of a kind and
    keep the pair (:data:`~canasta.bots.view.DISCARD_FROZEN_PAIR_LOGIT`). Empty otherwise."""
    nxt, c = view.next_seat, action.card
    if (view.next_owner == view.owner or not IS_NATURAL[c] or not view.frozen_for(nxt)
            or not _lone(view, RANK_OF[c])):
        return ""
    lone = [(view.pair_odds(nxt, RANK_OF[k]), k) for k in view.obs.hand
            if IS_NATURAL[k] and k != c and _lone(view, RANK_OF[k])]
    odds, spared = max(lone, default=(0.0, c))
    if odds <= max(1.0, view.pair_odds(nxt, RANK_OF[c])):
        return ""
    return (f"; not the {format_card(spared)}: the next player threw "
            f"{rank_word(RANK_OF[spared])} onto the frozen pile and may keep a pair")


def _lone(view: View, r: int) -> bool:
    """A single card of rank ``r`` in hand, with no meld of the side to lay it on."""
    return view.nat[r] == 1 and view.melds[r] is None


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
    if IS_NATURAL[action.card] and RANK_OF[action.card] == r:
        return f"; keep {wild_words(kept)} for them"  # the reason already named that meld
    return (f"; keep {wild_words(kept)}: our {rank_word(r)} need {count_words(short)} more for a "
            "canasta")
