"""Where a search bot departs from the heuristic, and what each departure is worth.

Four ``heuristic`` bots play seeded hands. At every decision with a choice, the search bot
(``--spec``) is asked too; where it would play otherwise, both actions are played on from the
true position by four heuristics to the end of the hand, and the difference in the deciding
side's lead is that departure's worth. The heuristic is deterministic, so one play-on on the true
stock decides it; ``--play-ons N`` averages N, the first on the true stock and the others on
the stock shuffled again (no one has seen it), the same shuffles for both actions: the stock's
luck, most of a single play-on's noise, then cancels out of the difference. The hand then goes
on with the heuristic's action, so every spec is asked on the same positions and two specs
compare departure by departure.

For a search bot (one with a ``search`` method, such as ``ismcts``) the report also sorts the
departures by the search's own estimate of their edge (the searched action's mean value less
the heuristic's choice's, in points): whether the close calls gain as much as the clear ones.

The worth is measured against heuristic play afterwards, and one play-on is noisy (a different
card changes the rest of the hand): read the mean per kind of departure over hundreds of them,
with its interval, or use ``--play-ons``. It answers in minutes what an arena run answers in
hours: which kinds of departure gain and which lose. Usage::

    python benchmarks/search_deviations.py --spec 'ismcts:iterations=400' --hands 20 --seed 1
    python benchmarks/search_deviations.py --spec 'ismcts:iterations=400,mode=flat' --play-ons 16
    python benchmarks/search_deviations.py --spec 'ismcts:iterations=800,mode=flat,z=2' \
        --baseline 'ismcts:iterations=400,mode=flat,z=2' --play-ons 16

``--baseline SPEC`` asks a second bot at the same positions and reports the worth per decision
of the spec less the baseline's, decision by decision: where both depart alike (or neither
does) the difference is nil, as the play-ons of one position share their stocks, so the
comparison carries only the noise of the decisions where the two differ. ``--json --each``
lists every departure (its hand and its place among the hand's decisions with a choice), so
the positions behind a kind of departure can be set up again with :func:`positions` and read.
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import random
import sys
import time
from collections import defaultdict
from collections.abc import Iterator, Sequence

from canasta.actions import Action, format_action
from canasta.arena.schedule import derive_seed
from canasta.bots import BotSpecError, make_bot
from canasta.bots.base import Bot
from canasta.bots.heuristic import decide, decide_in
from canasta.cards import IS_BLACK_THREE, IS_WILD
from canasta.deal import new_hand, shuffled_pack
from canasta.engine import apply
from canasta.legal import legal_actions
from canasta.observation import Observation, observe
from canasta.rules import PRESETS, Rules, get_rules
from canasta.state import OVER, State, seal


def positions(rules: Rules, seed: int, index: int) -> Iterator[tuple[State, list[Action], Action]]:
    """The decisions with a choice in seeded hand ``index``, in order, as four heuristics play
    it: the state, the legal actions and the heuristic's choice."""
    deck = shuffled_pack(rules, derive_seed("deviations", seed, index))
    state = new_hand(rules, deck=deck, dealer=index % rules.num_players)
    while state.phase != OVER:
        legal = legal_actions(state)
        mine = decide(observe(state, state.to_move), legal)[0]
        if len(legal) > 1:
            yield state, legal, mine
        state = apply(state, mine)


def lead_at_end(state: State, seat: int) -> int:
    """The hand played on by four heuristics: ``seat``'s side's total minus the best other."""
    while state.phase != OVER:
        state = apply(state, decide_in(state))
    assert state.result is not None
    sides = state.result.sides
    mine = seat % state.rules.num_sides
    return sides[mine].total - max(s.total for i, s in enumerate(sides) if i != mine)


def restocked(state: State, rng: random.Random) -> State:
    """``state`` with its stock in a fresh random order (what no player has seen)."""
    draft = state.copy()
    stock = list(state.stock)
    rng.shuffle(stock)
    draft.stock = tuple(stock)
    return seal(draft)


def departure_worth(state: State, searched: Action, mine: Action, seat: int, play_ons: int,
                    seed: int) -> float:
    """The mean, over ``play_ons`` play-ons, of ``searched``'s lead less ``mine``'s: the first
    on the true stock, the others on the stock shuffled again, the same for both actions."""
    total = 0.0
    rng = random.Random(seed)
    for n in range(play_ons):
        start = restocked(state, rng) if n else state
        total += (lead_at_end(apply(start, searched), seat)
                  - lead_at_end(apply(start, mine), seat))
    return total / play_ons


def ask(bot: Bot, obs: Observation, legal: Sequence[Action],
        rng: random.Random) -> tuple[Action, dict[Action, float]]:
    """The bot's action and, for a search bot (one with a ``search`` method, such as
    ``ismcts``), its values of the candidates (points)."""
    search = getattr(bot, "search", None)
    if search is None:
        return bot.choose(obs, legal, rng), {}
    searched, stats = search(obs, legal, rng)
    return searched, {a: v for a, _, v in stats}


def verb(action: Action) -> str:
    """The action's verb, a discard of a wild card or a black three named as such."""
    if action.verb == "discard":
        if IS_WILD[action.card]:
            return "wild discard"
        if IS_BLACK_THREE[action.card]:
            return "black-three discard"
    return action.verb


EDGE_BINS = (0.0, 10.0, 25.0, 50.0, 100.0, 200.0)
"""Lower bounds of the bins of the search's estimated edge (points); below the first: the
search played an action its own values rate lower (the most visited is not the best valued)."""


def edge_bin(edge: float) -> str:
    """The name of the bin of ``edge``: ``"<0"``, ``"0-10"``, …, ``"200+"``."""
    if edge < EDGE_BINS[0]:
        return f"<{EDGE_BINS[0]:.0f}"
    for lo, hi in itertools.pairwise(EDGE_BINS):
        if edge < hi:
            return f"{lo:.0f}-{hi:.0f}"
    return f"{EDGE_BINS[-1]:.0f}+"


def _bin_order(name: str) -> float:
    """Bins in the order of their edges."""
    return -math.inf if name.startswith("<") else float(name.rstrip("+").split("-")[0])


def _groups(groups: dict[str, list[float]], order: Sequence[str]) -> dict[str, dict[str, float]]:
    """Count, mean and 95% half-width of each group of worths, in ``order``."""
    return {k: dict(zip(("count", "mean", "interval"), (len(groups[k]), *mean_interval(groups[k]))))
            for k in order}


def mean_interval(values: Sequence[float]) -> tuple[float, float]:
    """The mean and the half-width of its normal 95% interval."""
    n = len(values)
    if not n:
        return 0.0, 0.0
    mean = sum(values) / n
    if n < 2:
        return mean, math.inf
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    return mean, 1.96 * math.sqrt(var / n)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Where a search bot departs from the heuristic and what each departure is "
                    "worth, played on by heuristics from the true position (see the module's "
                    "docstring).")
    parser.add_argument("--spec", default="ismcts:iterations=400", help="the search bot's spec")
    parser.add_argument("--rules", default="classic", choices=sorted(PRESETS))
    parser.add_argument("--hands", type=int, default=20, help="seeded hands (default: 20)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the deals (default: 1)")
    parser.add_argument("--play-ons", type=int, default=1,
                        help="play-ons averaged per departure, the stock shuffled again for all "
                             "but the first (default: 1, the true stock alone)")
    parser.add_argument("--baseline", metavar="SPEC",
                        help="a second bot asked at the same positions: the report adds the "
                             "spec's worth per decision less the baseline's, paired decision "
                             "by decision")
    parser.add_argument("--each", action="store_true",
                        help="with --json: list every departure (hand, decision: its place "
                             "among the hand's decisions with a choice, as positions() yields "
                             "them; seat; both actions; worth)")
    parser.add_argument("--json", action="store_true", help="print one line of JSON")
    args = parser.parse_args(argv)
    if args.play_ons < 1:
        parser.error("--play-ons must be at least 1")
    try:
        bot = make_bot(args.spec)
        baseline = None if args.baseline is None else make_bot(args.baseline)
    except BotSpecError as exc:
        parser.error(str(exc))
    rules = get_rules(args.rules)
    kinds: dict[str, list[float]] = defaultdict(list)
    edges: dict[str, list[float]] = defaultdict(list)
    paired: list[float] = []  # per decision: the spec's worth less the baseline's
    each: list[dict[str, object]] = []
    differ = 0
    asked = 0
    start = time.process_time()
    for index in range(args.hands):
        rng = random.Random(derive_seed("deviations-bot", args.seed, index))
        base_rng = random.Random(derive_seed("deviations-baseline", args.seed, index))
        for nth, (state, legal, mine) in enumerate(positions(rules, args.seed, index)):
            asked += 1
            seat = state.to_move
            obs = observe(state, seat)
            searched, values = ask(bot, obs, legal, rng)
            theirs = searched if baseline is None else ask(baseline, obs, legal, base_rng)[0]
            # the play-ons of one position share their stocks, so one action's worth is the
            # same whichever bot chose it
            stocks = derive_seed("deviations-stock", args.seed, index, asked)
            worths = {a: departure_worth(state, a, mine, seat, args.play_ons, stocks)
                      for a in {searched, theirs} if a != mine}
            worth = worths.get(searched, 0.0)
            if searched != mine:
                kinds[f"{verb(searched)} for {verb(mine)}"].append(worth)
                if searched in values and mine in values:
                    edges[edge_bin(values[searched] - values[mine])].append(worth)
            if baseline is not None:
                differ += theirs != searched
                paired.append(worth - worths.get(theirs, 0.0))
            if args.each and worths:
                each.append({"hand": index, "decision": nth, "seat": seat,
                             "heuristic": format_action(mine),
                             "searched": format_action(searched), "worth": worth,
                             **({} if baseline is None else
                                {"baseline": format_action(theirs),
                                 "baseline_worth": worths.get(theirs, 0.0)})})
    every = [v for values in kinds.values() for v in values]
    mean, half = mean_interval(every)
    report = {
        "spec": args.spec, "rules": args.rules, "hands": args.hands, "seed": args.seed,
        "play_ons": args.play_ons,
        "decisions": asked, "departures": len(every), "mean": mean, "interval": half,
        "cpu_seconds": time.process_time() - start,
        "kinds": _groups(kinds, sorted(kinds, key=lambda k: -len(kinds[k]))),
        "edges": _groups(edges, sorted(edges, key=_bin_order)),
    }
    if args.each:
        report["each"] = each
    if baseline is not None:
        report["baseline"] = dict(zip(("spec", "differ", "mean", "interval"),
                                      (args.baseline, differ, *mean_interval(paired))))
    if args.json:
        print(json.dumps(report))
        return 0
    print(f"{args.spec} on {args.rules}: {args.hands} hands (seed {args.seed}), "
          f"{asked} decisions with a choice, {len(every)} departures from the heuristic "
          f"({report['cpu_seconds']:.0f} CPU seconds; {args.play_ons} play-on"
          f"{'' if args.play_ons == 1 else 's'} a departure)")
    print(f"  worth of a departure: {mean:+.0f} ± {half:.0f} points (95%)")
    rows = [(kind, figures) for kind, figures in report["kinds"].items()]
    if edges:
        rows.append(("by the search's own estimate of its edge (points):", None))
        rows += [("edge " + name, figures) for name, figures in report["edges"].items()]
    for name, figures in rows:
        print(f"  {name}" if figures is None else
              f"  {name:34s} {figures['count']:5d}   {figures['mean']:+7.0f} ± "
              f"{figures['interval']:.0f}")
    if baseline is not None:
        pair = report["baseline"]
        print(f"  against {args.baseline}: {pair['mean']:+.1f} ± {pair['interval']:.1f} points a "
              f"decision; the two play differently at {differ} of {asked} decisions")
    print("worth: the side's lead at the end of the hand, played on by heuristics from the true "
          "position, the search's action minus the heuristic's; kinds: the search's verb for "
          "the heuristic's")
    return 0


if __name__ == "__main__":
    sys.exit(main())
