"""Fights over a big frozen pile, and the cards held when an opponent goes out: a bot against a
named baseline on the same seeded classic hands.

Hand ``i`` is dealt from ``derive_seed("frozen-fights", seed, i)`` by seat ``i % players``. The
measured bot (``--bots A``) plays every seat, or (``--bots A B``) the seats of side ``i % sides``
with ``B`` at the others; then the same hands are played again with the baseline
(``--baseline``) in ``A``'s seats. The figures count ``A``'s seats (or the baseline's):

* **fights**: a pile frozen for every seat that reaches 20 cards (``--min-pile``) is fought over
  until it is taken or the hand ends; a side is in the fight when one of its players holds a
  natural pair (two natural cards of a rank, the means to take it) while it lasts. **Lost**: the
  opponents took the pile; **won**: the side took it;
* **pairs broken**: discards onto such a pile (frozen for the discarder's side, the next player an
  opponent) by a player who holds a natural pair and a lone natural card of ranks the side has
  not melded: how often the card thrown broke the pair rather than going as the lone card;
* **caught in hand**: when an opponent goes out, the points (and cards) of the side's hands, a
  hand's average over those hands.

Usage::

    python benchmarks/frozen_fights.py --bots heuristic --baseline heuristic:fight_lone_odds=0 \
        --hands 1000 --seed 1 --jobs 2
    python benchmarks/frozen_fights.py --bots heuristic heuristic-v2 --baseline heuristic-v2
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import random
import sys
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from canasta import COMPILED
from canasta.arena.schedule import derive_seed
from canasta.bots import BotSpecError, make_bot
from canasta.cards import IS_NATURAL, RANK_OF
from canasta.deal import new_hand, shuffled_pack
from canasta.engine import apply
from canasta.legal import legal_actions
from canasta.observation import observe
from canasta.rules import PRESETS, Rules, get_rules
from canasta.state import State

MAX_ACTIONS_PER_HAND = 20_000
BIG_PILE = 20
"""Cards in a frozen pile from which the fight over it is counted (``--min-pile``)."""


@dataclass
class Tally:
    """The counts of one bot's seats over some hands."""

    hands: int = 0
    big_hands: int = 0
    """Hands in which a frozen pile reached the size counted."""
    fights: int = 0
    won: int = 0
    lost: int = 0
    choices: int = 0
    """Discards onto a big frozen pile by a player holding a natural pair and a lone card."""
    broke: int = 0
    """Of those, the discards that broke the pair."""
    outs: int = 0
    """Hands an opponent went out."""
    caught_points: int = 0
    caught_cards: int = 0

    def add(self, other: Tally) -> None:
        for f in dataclasses.fields(self):
            setattr(self, f.name, getattr(self, f.name) + getattr(other, f.name))


def _ranks(hand: Sequence[int], melds: Sequence[object]) -> tuple[set[int], set[int]]:
    """The ranks of which ``hand`` holds a natural pair and a lone natural card, among those
    its side has not melded."""
    count: dict[int, int] = {}
    for c in hand:
        if IS_NATURAL[c]:
            count[RANK_OF[c]] = count.get(RANK_OF[c], 0) + 1
    pairs = {r for r, k in count.items() if k == 2 and melds[r] is None}
    lone = {r for r, k in count.items() if k == 1 and melds[r] is None}
    return pairs, lone


def _frozen_all(state: State) -> bool:
    return all(state.freeze_for(s).frozen for s in range(state.rules.num_players))


def _has_pair(state: State, seats: Sequence[int]) -> bool:
    for s in seats:
        seen: set[int] = set()
        for c in state.hands[s]:
            if IS_NATURAL[c]:
                if RANK_OF[c] in seen:
                    return True
                seen.add(RANK_OF[c])
    return False


def play_hand(specs: tuple[str, str | None], rules: Rules, seed: int, index: int,
              min_pile: int) -> Tally:
    """Hand ``index``: ``specs[0]`` at every seat, or at the seats of side ``index % sides``
    with ``specs[1]`` at the others; the counts of ``specs[0]``'s seats."""
    spec, against = specs
    n = rules.num_players
    deck = tuple(shuffled_pack(rules, derive_seed("frozen-fights", seed, index)))
    state = new_hand(rules, deck=deck, dealer=index % n)
    if against is None:
        counted = set(range(n))
    else:
        mine = index % rules.num_sides
        counted = {s for s in range(n) if s % rules.num_sides == mine}
    bots = [make_bot(spec if s in counted else against or spec) for s in range(n)]
    rngs = [random.Random(derive_seed("frozen-fights-bot", seed, index, s)) for s in range(n)]
    owners = sorted({state.owner_of(s) for s in range(n)})
    seats_of = {o: [s for s in range(n) if state.owner_of(s) == o] for o in owners}
    counted_owners = {state.owner_of(s) for s in counted}
    tally = Tally(hands=1)
    fighting: set[int] | None = None  # the owners holding a pair during the current fight
    big = False
    for _ in range(MAX_ACTIONS_PER_HAND):
        if state.is_over:
            break
        if fighting is None and len(state.pile) >= min_pile and _frozen_all(state):
            fighting, big = set(), True
        if fighting is not None:
            fighting.update(o for o in owners if _has_pair(state, seats_of[o]))
        seat = state.to_move
        legal = legal_actions(state)
        action = bots[seat].choose(observe(state, seat), legal, rngs[seat])
        if action not in legal:
            raise RuntimeError(f"{bots[seat].name} chose the illegal {action} in hand {index}")
        owner = state.owner_of(seat)
        if (action.verb == "discard" and seat in counted and len(state.pile) + 1 >= min_pile
                and state.freeze_for(seat).frozen
                and state.owner_of((seat + 1) % n) != owner):
            pairs, lone = _ranks(state.hands[seat], state.melds[owner])
            if pairs and lone:
                tally.choices += 1
                tally.broke += IS_NATURAL[action.card] and RANK_OF[action.card] in pairs
        if action.verb == "take" and fighting is not None:
            for o in fighting & counted_owners:
                tally.fights += 1
                tally.won += o == owner
                tally.lost += o != owner
            fighting = None
        state = apply(state, action)
    else:
        raise RuntimeError(f"hand {index} of {spec!r} did not end")
    if fighting is not None:
        tally.fights += len(fighting & counted_owners)
    tally.big_hands = int(big)
    assert state.result is not None
    out = state.result.went_out
    if out is not None:
        value = rules.value_of
        for o in counted_owners - {state.owner_of(out)}:
            tally.outs += 1
            cards = [c for s in seats_of[o] for c in state.hands[s]]
            tally.caught_cards += len(cards)
            tally.caught_points += sum(value[c] for c in cards)
    return tally


def _chunk(args: tuple[tuple[str, str | None], Rules, int, list[int], int]) -> Tally:
    specs, rules, seed, indices, min_pile = args
    total = Tally()
    for i in indices:
        total.add(play_hand(specs, rules, seed, i, min_pile))
    return total


def measure(spec: str, against: str | None, rules: Rules, hands: int, seed: int, jobs: int,
            min_pile: int = BIG_PILE) -> Tally:
    """The counts of ``spec``'s seats over ``hands`` hands."""
    chunks = [((spec, against), rules, seed, list(range(j, hands, jobs)), min_pile)
              for j in range(jobs)]
    total = Tally()
    if jobs == 1:
        total.add(_chunk(chunks[0]))
        return total
    with ProcessPoolExecutor(jobs) as pool:
        for tally in pool.map(_chunk, chunks):
            total.add(tally)
    return total


def _rate(k: int, n: int) -> str:
    """``"31.2% (52/167) ±7.0"``: a share with its count and the half-width of a normal 95%
    interval."""
    if not n:
        return "-"
    p = k / n
    return f"{100 * p:.1f}% ({k}/{n}) ±{196 * math.sqrt(p * (1 - p) / n):.1f}"


def figures(t: Tally) -> list[tuple[str, str]]:
    """The report's rows for one bot."""
    return [
        ("hands with a big frozen pile", f"{t.big_hands} of {t.hands}"),
        ("fights (a side holding a pair)", str(t.fights)),
        ("fight lost (opponents took it)", _rate(t.lost, t.fights)),
        ("fight won (the side took it)", _rate(t.won, t.fights)),
        ("pair broken beside a lone card", _rate(t.broke, t.choices)),
        ("opponent went out", f"{t.outs} hands"),
        ("points caught in hand", f"{t.caught_points / t.outs:.1f}" if t.outs else "-"),
        ("cards caught in hand", f"{t.caught_cards / t.outs:.2f}" if t.outs else "-"),
    ]


def report_text(rules: Rules, hands: int, seed: int, min_pile: int, against: str | None,
                results: dict[str, Tally]) -> str:
    build = "compiled with mypyc" if COMPILED else "pure Python"
    table = "every seat" if against is None else f"one side, against {against}"
    lines = [f"frozen fights: {rules.name}, {hands} hands, seed {seed}, frozen piles of "
             f"{min_pile}+ cards, {table}; {build}"]
    names = list(results)
    rows = [figures(results[name]) for name in names]
    width = max(len(label) for label, _ in rows[0])
    cols = [max(len(name), *(len(v) for _, v in r)) for name, r in zip(names, rows)]
    lines.append(" ".join([" " * width, *(n.ljust(c) for n, c in zip(names, cols))]))
    for i, (label, _) in enumerate(rows[0]):
        lines.append(" ".join([label.ljust(width),
                               *(r[i][1].ljust(c) for r, c in zip(rows, cols))]))
    lines.append("±: half-width of a normal 95% interval of the share, in points of percent")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """Print the figures of the bot and the baseline; return the exit status."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bots", nargs="+", default=["heuristic"], metavar="SPEC",
                        help="the bot measured, at every seat; with a second spec, the measured "
                             "bot holds one side (alternating by hand) and the second the other")
    parser.add_argument("--baseline", default="heuristic:fight_lone_odds=0",
                        help="the bot played in the measured bot's seats on the same hands "
                             "(default: heuristic:fight_lone_odds=0)")
    parser.add_argument("--rules", default="classic", choices=sorted(PRESETS))
    parser.add_argument("--hands", type=int, default=200, help="hands (default: 200)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the deals (default: 1)")
    parser.add_argument("--jobs", type=int, default=1, help="processes (default: 1)")
    parser.add_argument("--min-pile", type=int, default=BIG_PILE,
                        help=f"cards of a frozen pile counted as a fight (default: {BIG_PILE})")
    args = parser.parse_args(argv)
    if len(args.bots) > 2:
        parser.error("--bots takes one or two specs")
    rules = get_rules(args.rules)
    against = args.bots[1] if len(args.bots) == 2 else None
    try:
        for spec in [*args.bots, args.baseline]:
            make_bot(spec)
    except BotSpecError as e:
        parser.error(str(e))
    results: dict[str, Tally] = {}
    for spec in (args.bots[0], args.baseline):
        results[spec] = measure(spec, against, rules, args.hands, args.seed,
                                max(1, args.jobs), args.min_pile)
    print(report_text(rules, args.hands, args.seed, args.min_pile, against, results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
