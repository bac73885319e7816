"""How low can a heuristic's feed rate go? What its take odds know, and what only seeing the
next player's hand would add.

Plays the audit's deals (``bot_audit.py``: hand ``i`` from ``derive_seed("audit", seed, i)``,
four copies of the bot) and prints:

* **calibration**: over every natural card the bot could have discarded to an opponent, its
  estimated chance that the next player can take the pile (``next_take_odds``: the reader's
  odds, times ``take_factor``, refitted by ``take_odds_fit``), by tenths, against the odds
  before the refit and how often that player really could, and for the ranks the next side
  melded, by the pile's size; with ``--fit``, the refit
  (:class:`~canasta.bots.view.TakeOddsFit`) that matches these hands best, per frozen and open
  pile, fitted to the odds before the refit;
* **feeds with a safe natural**: the bot's discards that let the next player take the pile
  while another natural card would not have, and in how many of those the bot's own odds rated
  that safer card lower by more than 0.1 (a feed its estimate could have avoided);
* **the floor with the hand in sight**: the audit's figures when each discard is replaced by the
  cheapest card, by the bot's own costs, within ``T`` points of its choice that does not let the
  next player take the pile, seen from the true hand (no real player can do this); wild cards
  are never the replacement, and a wild card the bot would throw onto a frozen pile is first
  replaced by its cheapest natural card.

Usage::

    python benchmarks/feed_floor.py --bot heuristic --hands 100 --seed 1 --tolerance 0 1000
    python benchmarks/feed_floor.py --hands 3000 --seed 21 --min-pile 8 --fit --tolerance
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import random
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import NamedTuple

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bot_audit import Tally, _can_take, _discard_facts, fit_logistic
from canasta.actions import Action
from canasta.arena.schedule import derive_seed
from canasta.bots import BotSpecError, make_bot
from canasta.bots.discards import discard_costs, discard_setting, next_take_odds
from canasta.bots.heuristic import HeuristicBot
from canasta.bots.moves import Moves
from canasta.bots.view import FIT_PILE, TakeOddsFit, View
from canasta.cards import IS_NATURAL, IS_WILD
from canasta.deal import new_hand, shuffled_pack
from canasta.engine import apply
from canasta.legal import legal_actions
from canasta.observation import observe
from canasta.rules import PRESETS, Rules, get_rules
from canasta.state import State

TENTHS = 10
FIT_MIN_ROWS = 50
"""Fewest readings a refit is fitted to."""
PILE_BANDS: tuple[tuple[int, float], ...] = ((1, 12), (12, 21), (21, 35), (35, math.inf))
"""Pile sizes (with the discard) the calibration of the next side's melded ranks is split by."""
SAFER_BY = 0.1
"""How much lower the bot's odds for a safe card must be to count the feed as avoidable."""


def _feeds(state: State, action: Action) -> bool:
    """Whether ``action`` (a discard) lets the next player take the pile."""
    after = apply(state, action)
    return not after.is_over and after.to_move != state.to_move and _can_take(after)


def _deals(rules: Rules, seed: int, hands: int) -> list[State]:
    return [new_hand(rules, deck=tuple(shuffled_pack(rules, derive_seed("audit", seed, i))),
                     dealer=i % rules.num_players) for i in range(hands)]


class Odds(NamedTuple):
    """One natural card the bot could discard to an opponent, as the take odds read it."""

    before: float
    """The odds before the refit (``take_odds_fit=0``)."""
    odds: float
    """The bot's odds."""
    frozen: bool
    our_meld: bool
    their_meld: bool
    pile: int
    """The pile's cards with the discard."""
    fed: bool
    """Whether the next player could really take the pile after it."""


def calibration(bot: HeuristicBot, rules: Rules, seed: int, hands: int,
                min_pile: int = 1) -> tuple[list[Odds], int, int]:
    """The odds of every natural card the bot could discard to an opponent onto a pile of
    ``min_pile`` cards or more (counting the discard); feeds that had a safe natural; of those,
    the ones where the bot's odds rated a safe natural lower."""
    rows: list[Odds] = []
    safe_feeds = avoidable = 0
    w = bot.weights
    unfitted = dataclasses.replace(w, take_odds_fit=0.0)
    for state in _deals(rules, seed, hands):
        rng = random.Random(0)
        while not state.is_over:
            legal = legal_actions(state)
            action = bot.choose(observe(state, state.to_move), legal, rng)
            if action.verb == "discard" and len(state.pile) + 1 >= min_pile:
                view = View(observe(state, state.to_move))
                if view.next_owner != view.owner:
                    setting = discard_setting(view, w)
                    theirs = view.obs.melds[view.next_owner]
                    odds: dict[int, tuple[float, bool]] = {}
                    for a in legal:
                        if a.verb == "discard" and IS_NATURAL[a.card]:
                            r = a.card >> 2
                            p = next_take_odds(view, setting, w, r)
                            fed = _feeds(state, a)
                            rows.append(Odds(next_take_odds(view, setting, unfitted, r), p,
                                             setting.frozen_next, view.melds[r] is not None,
                                             theirs[r] is not None, len(state.pile) + 1, fed))
                            odds[a.card] = (p, fed)
                    chosen = odds.get(action.card)
                    safe = [p for p, fed in odds.values() if not fed]
                    if chosen is not None and chosen[1] and safe:
                        safe_feeds += 1
                        avoidable += min(safe) < chosen[0] - SAFER_BY
            state = apply(state, action)
    return rows, safe_feeds, avoidable


def fit_take_odds(rows: Sequence[Odds]) -> TakeOddsFit | None:
    """The refit that matches ``rows`` best (odds of 0 or 1 left out; a meld feature none of
    them has stays 0, and so does the pile's term with it); ``None`` with too few rows to fit."""
    rows = [o for o in rows if 0.0 < o.before < 1.0]
    if len(rows) < FIT_MIN_ROWS:
        return None
    theirs = any(o.their_meld for o in rows)
    used = [True, True, any(o.our_meld for o in rows), theirs, theirs]
    xs = [[x for x, u in zip((1.0, math.log(o.before / (1.0 - o.before)), float(o.our_meld),
                              float(o.their_meld),
                              o.their_meld * (o.pile - FIT_PILE) / 10), used) if u]
          for o in rows]
    start = [0.0, 1.0, 0.0, 0.0, 0.0]
    theta = iter(fit_logistic(xs, [int(o.fed) for o in rows],
                              [x for x, u in zip(start, used) if u]))
    return TakeOddsFit(*(next(theta) if u else 0.0 for u in used))


def by_pile(rows: Sequence[Odds]) -> list[tuple[str, int, float, float, float]]:
    """Ranks the next side melded, by the pile's size: (sizes, readings, estimated, before the
    refit, actual)."""
    out = []
    for lo, hi in PILE_BANDS:
        band = [o for o in rows if o.their_meld and lo <= o.pile < hi and 0.0 < o.before < 1.0]
        if band:
            n = len(band)
            out.append((f"{lo}+" if hi == math.inf else f"{lo}-{int(hi) - 1}", n,
                        sum(o.odds for o in band) / n, sum(o.before for o in band) / n,
                        sum(o.fed for o in band) / n))
    return out


def floor(bot: HeuristicBot, rules: Rules, seed: int, hands: int, tolerance: float) -> Tally:
    """The audit's counts when each discard is replaced as the module docstring says."""
    tally = Tally()
    w = bot.weights
    for state in _deals(rules, seed, hands):
        rng = random.Random(0)
        tally.hands += 1
        while not state.is_over:
            legal = legal_actions(state)
            obs = observe(state, state.to_move)
            action = bot.choose(obs, legal, rng)
            if action.verb == "discard":
                costs = discard_costs(View(obs), Moves(legal), w)
                if IS_WILD[action.card] and state.pile_frozen:
                    action = next((a for _, a, _ in costs if not IS_WILD[a.card]), action)
                best = next(cost for cost, a, _ in costs if a == action)
                for cost, a, _ in costs:
                    if cost > best + tolerance:
                        break
                    if not IS_WILD[a.card] and not _feeds(state, a):
                        action = a
                        break
                _discard_facts(state, action, legal, tally)
            state = apply(state, action)
    return tally


def main(argv: Sequence[str] | None = None) -> int:
    """Print the three measurements; return the exit status."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bot", default="heuristic",
                        help="a heuristic spec, e.g. heuristic or heuristic:danger=4")
    parser.add_argument("--rules", default="classic", choices=sorted(PRESETS))
    parser.add_argument("--hands", type=int, default=100, help="hands (default: 100)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the deals (default: 1)")
    parser.add_argument("--tolerance", type=float, nargs="*", default=[0.0, 1000.0],
                        help="points above the bot's choice a non-feeding card may cost, one run "
                             "per value (default: 0 1000)")
    parser.add_argument("--min-pile", type=int, default=1,
                        help="read only discards onto a pile of this many cards or more, the "
                             "discard counted (default: 1, every discard)")
    parser.add_argument("--fit", action="store_true",
                        help="also fit the take odds' refit to these hands")
    args = parser.parse_args(argv)
    if args.hands < 1 or args.min_pile < 1:
        parser.error("--hands and --min-pile must be at least 1")
    try:
        bot = make_bot(args.bot)
    except BotSpecError as e:
        parser.error(str(e))
    if not isinstance(bot, HeuristicBot):
        parser.error(f"{args.bot!r} is not a heuristic bot (its discard costs are needed)")
    rules = get_rules(args.rules)
    rows, safe_feeds, avoidable = calibration(bot, rules, args.seed, args.hands, args.min_pile)
    print(f"feed floor: {args.bot}, {rules.name}, {args.hands} hands, seed {args.seed}"
          + (f", piles of {args.min_pile}+ cards" if args.min_pile > 1 else ""))
    for frozen in (True, False):
        part = [o for o in rows if o.frozen == frozen]
        if not part:
            continue
        print(f"take odds by tenth, pile {'frozen' if frozen else 'open'}: estimated / before "
              "the refit / actual (count)")
        for k in range(TENTHS):
            tenth = [o for o in part if min(TENTHS - 1, int(o.odds * TENTHS)) == k]
            if tenth:
                n = len(tenth)
                print(f"  {k / TENTHS:.1f}-{(k + 1) / TENTHS:.1f}: "
                      f"{sum(o.odds for o in tenth) / n:.2f} / "
                      f"{sum(o.before for o in tenth) / n:.2f} / "
                      f"{sum(o.fed for o in tenth) / n:.2f} ({n})")
        bands = by_pile(part)
        if bands:
            print("  ranks the next side melded, by the pile's cards: estimated / before the "
                  "refit / actual (count)")
        for band, n, odds, before, fed in bands:
            print(f"  {band:>6}: {odds:.2f} / {before:.2f} / {fed:.2f} ({n})")
        if args.fit:
            fitted = fit_take_odds(part)
            name = "TAKE_ODDS_FROZEN" if frozen else "TAKE_ODDS_OPEN"
            print(f"  {name} = " + (f"TakeOddsFit({', '.join(f'{x:.2f}' for x in fitted)})"
                                    if fitted else "too few readings to fit"))
    print(f"feeds while a natural card would not have fed: {safe_feeds}; the bot's odds rated "
          f"such a card safer by more than {SAFER_BY}: {avoidable}")
    if args.tolerance:
        print("with the next hand in sight (tolerance: wild discards, wild onto frozen, feed "
              "rate)")
    for t in args.tolerance:
        f = floor(bot, rules, args.seed, args.hands, t).figures()
        print(f"  {t:g} points: {f['wild_discard_pct']:.1f}%, {f['wild_onto_frozen_pct']:.1f}%, "
              f"{f['feed_pct']:.1f}%")
    return 0


if __name__ == "__main__":
    sys.exit(main())
