"""Which card the heuristic discards, and why (BOTS.md §3.2 C, D).

Each card costs what keeping it is worth to the hand (wild cards most, then the cards of melds
close to a canasta, pairs, lone cards) plus, when the next player is an opponent, the chance that
it lets them take the pile times what the pile is worth to them. Wild cards stay in hand but for
a freeze of a big open pile or a block of a big frozen one; black threes wait for a pile worth
blocking. Each choice carries the reason a player would give for it.
"""

from __future__ import annotations

import math
from typing import NamedTuple

from canasta.actions import Action
from canasta.bots.moves import Moves
from canasta.bots.view import TAKE_ODDS_FROZEN, TAKE_ODDS_OPEN, View, refit_take_odds
from canasta.bots.weights import DEFAULT_WEIGHTS, HeuristicWeights
from canasta.bots.words import a_rank, a_size, count_words, percent_words, rank_word, wild_words
from canasta.cards import IS_BLACK_THREE, IS_NATURAL, IS_WILD, JOKER, RANK_OF, format_card

SAFE_RISK = 10.0
"""What a discard risks handing over (its odds times the pile's worth, times ``danger``) below
which the words call it safe, or a black three's block of no use."""

BLOCK_WORDS_PILE = 7
"""From this many cards in the pile (with the discard) a black three's block is worth telling
whatever the other cards risk."""


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
    fight_lone: float
    """What breaking a natural pair costs besides, in a fight for a big pile frozen for both
    sides, while a lone natural card could go instead (``fight_lone_odds``)."""


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
    next_is_opp = view.next_owner != view.owner
    frozen_next = view.frozen_for(view.next_seat)
    fight_lone = 0.0
    if (w.fight_lone_odds and frozen_us and frozen_next and next_is_opp
            and pile_n >= w.fight_lone_pile
            and any(IS_NATURAL[c] and _lone(view, RANK_OF[c]) for c in view.obs.hand)):
        fight_lone = w.danger * w.fight_lone_odds * worth
    return DiscardSetting(view.threat(w.stock_rounds), pile_n, worth, next_is_opp, frozen_next,
                          unmelded_factor if next_unmelded else 1.0, pair_boost, fight_pair,
                          fight_lone)


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
        cost += w.keep_pair * s.pair_boost + s.fight_pair + s.fight_lone
        reason = f"my pair of {rank_word(r)} is the one to break"
    else:
        cost += w.keep_single
        reason = LONE_CARD
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
    if danger < SAFE_RISK and _lone(view, r):
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
    blocks = least_danger >= SAFE_RISK or s.pile_n >= BLOCK_WORDS_PILE
    reason = ("a black three blocks the next player" if blocks
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
    if s.fight_lone and out and out[0][2] == LONE_CARD:
        _word_the_fight(view, s, out)
    return out


LONE_CARD = "a lone card"


def _word_the_fight(view: View, s: DiscardSetting, out: list[tuple[float, Action, str]]) -> None:
    """Say so in place when the lone card at the head of ``out`` goes because a big frozen
    pile makes the pairs dearer (``fight_lone_odds``): without that, a pair would have been
    broken."""
    first = out[0][0]
    if any(IS_NATURAL[a.card] and view.nat[RANK_OF[a.card]] == 2
           and view.melds[RANK_OF[a.card]] is None and total - s.fight_lone < first
           for total, a, _ in out[1:]):
        total, action, _ = out[0]
        out[0] = (total, action, f"{LONE_CARD}: my pairs are for the {s.pile_n}-card pile")


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
    one_rank = len({RANK_OF[a.card] for _, a, _ in out}) == 1
    for i, (total, action, reason) in enumerate(out):
        p, r = chance[i], RANK_OF[action.card]
        named = p >= ODDS_WORTH_NAMING
        if math.isnan(keeps[i]) or p > least or not (keeps[i] > cheapest or named):
            continue
        if one_rank:  # nothing to compare it with: say the risk it runs
            out[i] = (total, action, f"{a_rank(r)} may give the next player the {s.pile_n}-card "
                                     f"pile ({percent_words(p)}), but I hold no other natural card")
            continue
        theirs = s.frozen_next and view.obs.melds[view.next_owner][r] is not None
        if theirs and not named:
            continue  # "matches their meld only later" says it: a pair is all that takes
        safe = p <= 0.0  # no chance at all: said in words, not as 0%
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


def choose_discard(view: View, moves: Moves, w: HeuristicWeights) -> tuple[Action, str]:
    costs = discard_costs(view, moves, w)
    if not costs:
        return moves.listed()[0], "nothing better to do"
    _, action, reason = costs[0]
    return action, (f"discard {format_card(action.card)}: {reason}{keep_note(view, action)}"
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


def keep_note(view: View, action: Action) -> str:
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


def safest_discard(view: View, w: HeuristicWeights, naturals: list[Action]) -> Action | None:
    """The natural discard the next opponent is least likely to take the pile with (ties: the
    heuristic's order)."""
    if not naturals or view.next_owner == view.owner:
        return None
    s = discard_setting(view, w)
    odds: dict[int, float] = {}
    return min(naturals, key=lambda a: _danger(view, s, w, a.card, odds)[0])
