"""The heuristic bot's weights: every number its choices are scored with, the tunings of the
presets that play best with their own, and the book that picks the weights for a game.

A spec overrides any weight by name (``heuristic:aggression=1.5,keep_wild=150``); the search bot
takes the same names for the heuristic of its play-outs.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from canasta.bots.view import STOCK_ROUNDS
from canasta.rules import Rules


@dataclass(frozen=True)
class HeuristicWeights:
    """Every tunable number of the heuristic bot, in points unless said otherwise.

    The eighteen weights that ``benchmarks/spsa_tune.py`` moves by default were tuned together
    by it (classic, 500 iterations of 2,000 hands of self-play; docs/bot-experiments.md, "The
    weights tuned together"): their defaults are its result, rounded.
    """

    # -- taking the pile
    take_base: float = 37.0
    """Worth of any take: a meld made and the tempo of the pile."""
    take_per_card: float = 46.0
    """Worth of each card picked up (a natural card and a two take a pile of three: a small pile
    taken is one that cannot grow into a big feed)."""
    leave_pile: int = 2
    """A pile of this many cards or fewer is left for the stock: its take scores
    ``LEFT_PILE_COST`` below drawing (0: off). Taking a two-card pile (most often a black
    three and a card that fits a meld) reads as a gain by the weights above, yet played on it
    loses: the stock card is worth more than the card laid off, and the black three thrown
    back only blocks a turn (docs/bot-experiments.md, "Taking the pile")."""
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
    warrant, and gained less (docs/bot-experiments.md, "Melding and going out")."""
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
    later; on a pile this big that still pays (docs/bot-experiments.md, "Discarding")."""
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
    lost about 10 points a hand against heuristic-v2 (docs/bot-experiments.md)."""
    black_three_per_card: float = 0.33
    """How much less a black three is worth keeping per card of the pile: on a big pile it is
    the block to use now."""
    danger: float = 6.6
    """Weight of the expected pile value handed to the next opponent (high: a pile given away
    is rarely won back, and the card that risks least is nearly always the one to throw; at 12
    a point of risk outweighs a pair)."""
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
    such setting lost points, docs/bot-experiments.md). The defensive freeze below is the one
    that plays."""
    defend_min_pile: int = 10
    """Smallest open pile (with the discard) a wild card freezes in defence: when the pile
    points the safest natural card would likely hand the next opponent outweigh the wild card's
    worth; 0: never. 8 to 12 play alike; 15 and 20 lost points head to head
    (docs/bot-experiments.md, "Discarding")."""
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
    fight_lone_odds: float = 0.05
    """Against a pile of ``fight_lone_pile`` cards or more, frozen for the side and for the
    next opponent, breaking a natural pair while a lone natural card could go costs this much
    more chance of handing over the pile (weighed like ``danger``): each pair is a chance to
    take the pile, so the lone card goes unless the next player is clearly likelier to take
    with it; 0: off. 0.05 played even with off (+1 and +3 a hand head to head over two seeds
    of 10,000 hands); 0.1 lost a little (-13), and more so from piles of 25 (-17;
    docs/bot-experiments.md, "Discarding")."""
    fight_lone_pile: int = 15
    """Smallest pile (with the discard) on which ``fight_lone_odds`` keeps the pairs."""
    canasta_gift: float = 1.0
    """Share of a canasta's bonus added to the pile's worth when the discard (with the pile's
    cards of its rank) would complete a canasta of the next opponent's side: late in a hand a
    one-card pile is worth little, but the card that finishes their canasta is worth 300 or 500
    to them. Where every natural card would do that, a wild card freezes (or blocks) even a
    small pile. 0: off (about 28 points a hand less against heuristic-v2,
    docs/bot-experiments.md)."""
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
    (``benchmarks/search_deviations.py``, docs/bot-experiments.md); 0: any pile."""
    offer_dump_threat: float = 0.15
    """Least threat (an opponent with the canastas to go out holding eight cards or fewer, a
    short hand, a low stock) at which the search also weighs laying everything down: before
    that, its play-outs, which count held cards against the side, chose it too often, and it
    cost points (``benchmarks/search_deviations.py``, docs/bot-experiments.md); 0: always."""
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
    # three players each alone, and three sides of two: small piles are taken too (leaving
    # them measured no gain there); six players fear the stock's end a round sooner
    "classic-3p": dataclasses.replace(DEFAULT_WEIGHTS, leave_pile=0),
    "classic-6p-3x2": dataclasses.replace(DEFAULT_WEIGHTS, leave_pile=0, stock_rounds=3.0),
    "classic-6p": dataclasses.replace(DEFAULT_WEIGHTS, stock_rounds=3.0),
}
"""The defaults of the presets that play best with weights of their own: tuned on them by
``benchmarks/spsa_tune.py --rules NAME`` (docs/bot-experiments.md, "The weights tuned
together"), with the pile size each leaves for the stock and the stock's horizon measured on
them; any other preset plays :data:`DEFAULT_WEIGHTS`."""


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
