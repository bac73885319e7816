"""Behaviour audit of bots: what a club player would notice at the table, counted.

For each bot, plays ``--hands`` seeded hands with four copies of it (every seat of the preset
is that bot) and counts, over its own decisions:

* **wild discards**: the share of its discards that are wild cards;
* **wild onto frozen**: the share of its discards that are wild cards thrown onto a pile that
  was already frozen (a wild card there freezes nothing new: a black three or a safe card
  blocks the next player as well);
* **feed rate**: the share of its discards after which the next player may legally take the
  pile, counted only where another legal discard would not have allowed it;
* **short-hand gifts**: discards of a rank that the next player's side has melded, while that
  player (an opponent) holds one or two cards;
* **pile points handed over**: per discard of the bot, the points of the pile (the discard
  included) that the next player, an opponent, took on the turn after it, as a strong player
  counts a feed; the part of them from piles of ``BIG_FEED`` cards or more, of that the part
  from piles the discard left open, and the part where another natural card of the hand would
  have kept the pile from the next player (a safe card misread, not a block left unmade);
* per hand: pile takes, canastas completed, and how often the hand ends by a going out;
* the mean time a decision takes.

With ``--against SPEC`` each bot holds one side only and ``SPEC`` every other seat (the side
changes from hand to hand: hand ``i`` gives the bot side ``i % sides``), and only the bot's own
decisions are counted (canastas and goings out: its side's). The pile points it feeds are then
taken by the same opponent for every bot audited: a figure of the discarder, where in self-play
every take follows a discard of the other side and the points fed are the points taken.

Every bot plays the same deals: hand ``i`` is dealt from the pack order of
``derive_seed("audit", seed, i)`` by dealer ``i % players``, with the scores at zero; the bot at
seat ``s`` gets a ``random.Random`` seeded from ``(seed, i, s)``. A run is reproducible from its
command line (decision times aside) and gives the same figures whatever ``--jobs`` is.

Usage::

    python benchmarks/bot_audit.py --bots heuristic,heuristic-v1 --rules classic --hands 100 \\
        --seed 1
    python benchmarks/bot_audit.py --bots heuristic --hands 20 --seed 3 --json
    python benchmarks/bot_audit.py --bots heuristic,heuristic-v2 --against heuristic-v2 \\
        --hands 200 --seed 1

With ``--pair-odds`` it measures instead how players read each other's discards: the first two
bots play the hands against each other (seats swapped every other hand), and the report gives
how often a natural discard came from three of a kind or more, and, for every rank the next
player discarded in the last round, the odds the reader's view gives that this player holds a
pair (and one card) of it, against counting alone and against the real hand. ``--fit`` fits
``view.DISCARD_PAIR_LOGIT`` and ``DISCARD_ONE_LOGIT`` to those hands::

    python benchmarks/bot_audit.py --pair-odds --fit --bots heuristic,heuristic-v2 --hands 1500 \
        --seed 7

With ``--threat`` it measures how the first bot's threat table (``view.OUT_THREAT``,
``NEAR_THREAT``, ``FAR_THREAT``) compares with how often an opponent really goes out before
the reader's next turn: the first two bots play the hands against each other (sides swapped
every other hand), and at the first play decision of each turn of the first bot every
opponent is counted, by how near its side is to going out and the cards it holds::

    python benchmarks/bot_audit.py --threat --bots heuristic,heuristic-v2 --hands 4000 --seed 4
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from collections import defaultdict
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, fields
from typing import Any, NamedTuple

from canasta.actions import DISCARDS, Action
from canasta.arena.schedule import derive_seed, split_bot_specs
from canasta.bots import BotSpecError, make_bot
from canasta.bots import view as view_module
from canasta.bots.view import View, p_at_least
from canasta.cards import IS_NATURAL, IS_WILD
from canasta.deal import new_hand, shuffled_pack
from canasta.engine import apply
from canasta.legal import legal_actions, take_actions
from canasta.observation import observe
from canasta.rules import PRESETS, Rules, get_rules
from canasta.state import DRAW, PLAY, State

MAX_ACTIONS_PER_HAND = 20000
"""A hand still going after this many actions is a bot or engine fault."""
BIG_FEED = 8
"""Piles of this many cards (the discard included) or more count as big feeds."""


@dataclass
class Tally:
    """Counts over some hands of one bot (added up across hands)."""

    hands: int = 0
    decisions: int = 0
    seconds: float = 0.0
    discards: int = 0
    wild_discards: int = 0
    wild_onto_frozen: int = 0
    fed_discards: int = 0
    """Discards followed by a turn of another player (the feed rate's denominator)."""
    feeds: int = 0
    short_gifts: int = 0
    fed_points: int = 0
    """Points of the piles the next opponent took right after a discard of the bot."""
    big_fed_points: int = 0
    """The part of ``fed_points`` from piles of ``BIG_FEED`` cards or more."""
    big_open_fed_points: int = 0
    """The part of ``big_fed_points`` from piles that the discard left open (not frozen)."""
    big_spared_fed_points: int = 0
    """The part of ``big_fed_points`` where another natural card of the hand would have kept
    the pile from the next player: a safe card was there to read, no wild card or black three
    needed."""
    takes: int = 0
    canastas: int = 0
    went_out: int = 0
    actions: int = 0

    def add(self, other: Tally) -> None:
        """Add ``other``'s counts to these."""
        for f in fields(self):
            setattr(self, f.name, getattr(self, f.name) + getattr(other, f.name))

    def figures(self) -> dict[str, float]:
        """The audit's figures (shares in percent, rates per hand, time in milliseconds)."""
        def pct(a: int, b: int) -> float:
            return 100.0 * a / b if b else 0.0

        hands = max(1, self.hands)
        return {
            "wild_discard_pct": pct(self.wild_discards, self.discards),
            "wild_onto_frozen_pct": pct(self.wild_onto_frozen, self.discards),
            "feed_pct": pct(self.feeds, self.fed_discards),
            "short_gift_pct": pct(self.short_gifts, self.discards),
            "fed_points_per_discard": self.fed_points / max(1, self.discards),
            "big_fed_points_per_discard": self.big_fed_points / max(1, self.discards),
            "big_open_fed_points_per_discard": self.big_open_fed_points / max(1, self.discards),
            "big_spared_fed_points_per_discard":
                self.big_spared_fed_points / max(1, self.discards),
            "takes_per_hand": self.takes / hands,
            "canastas_per_hand": self.canastas / hands,
            "going_out_pct": pct(self.went_out, self.hands),
            "ms_per_decision": 1000.0 * self.seconds / max(1, self.decisions),
            "discards_per_hand": self.discards / hands,
            "actions_per_hand": self.actions / hands,
        }


def _can_take(state: State) -> bool:
    """Whether the player to move may take the pile now."""
    return state.phase == DRAW and bool(take_actions(state))


def _another_spares(state: State, card: int, cards: set[int]) -> bool:
    """Whether a discard of one of ``cards`` other than ``card`` would have kept the pile from
    the next player."""
    return any(not _can_take(apply(state, DISCARDS[c])) for c in cards - {card})


def _discard_facts(state: State, action: Action, legal: Sequence[Action], tally: Tally) -> None:
    """Count one discard of the player to move in ``state`` (before it is applied)."""
    card = action.card
    rules = state.rules
    tally.discards += 1
    if IS_WILD[card]:
        tally.wild_discards += 1
        if state.pile_frozen:
            tally.wild_onto_frozen += 1
    after = apply(state, action)
    if after.is_over or after.to_move == state.to_move:
        return
    tally.fed_discards += 1
    seat, nxt = state.to_move, after.to_move
    if _can_take(after):
        # a feed only if another card would have kept the pile from the next player
        if _another_spares(state, card, {a.card for a in legal if a.verb == "discard"}):
            tally.feeds += 1
    if (IS_NATURAL[card] and state.owner_of(nxt) != state.owner_of(seat)
            and len(after.hands[nxt]) <= 2 and state.melds[state.owner_of(nxt)][card >> 2]
            is not None and rules.num_players > 1):
        tally.short_gifts += 1


class Handed(NamedTuple):
    """A pile a discard leaves to the next player, an opponent."""

    taker: int
    points: int
    cards: int
    frozen: bool
    """Whether the pile holds a freezing card after the discard (RULES §1.11): only a natural
    pair takes it then."""
    spared: bool = False
    """Whether, the pile being big (``BIG_FEED`` cards) and the next player able to take it,
    another natural card of the hand would have kept it from them."""


def _handed(state: State, action: Action,
            legal: Sequence[Action] | None = None) -> Handed | None:
    """After this discard: the next player, if an opponent, with the pile's points and cards
    (and, given the ``legal`` actions, whether another natural card would have spared a big
    pile)."""
    after = apply(state, action)
    if after.is_over or state.owner_of(after.to_move) == state.owner_of(state.to_move):
        return None
    value = state.rules.value_of
    spared = False
    if legal is not None and len(after.pile) >= BIG_FEED and _can_take(after):
        naturals = {a.card for a in legal if a.verb == "discard" and IS_NATURAL[a.card]}
        spared = _another_spares(state, action.card, naturals)
    return Handed(after.to_move, sum(value[c] for c in after.pile), len(after.pile),
                  after.pile_frozen, spared)


def audit_hand(spec: str, rules: Rules, seed: int, index: int, against: str | None = None,
               side: int | None = None) -> Tally:
    """Play hand ``index`` of the run with ``spec`` at every seat, or with ``against`` everywhere
    but the seats of ``side`` (default ``index % sides``); the counts of ``spec``'s seats."""
    n = rules.num_players
    deck = tuple(shuffled_pack(rules, derive_seed("audit", seed, index)))
    state = new_hand(rules, deck=deck, dealer=index % n)
    if against is None:
        audited = set(range(n))
    else:
        mine = index % rules.num_sides if side is None else side
        audited = {s for s in range(n) if s % rules.num_sides == mine}
    bots = [make_bot(against if against is not None and s not in audited else spec)
            for s in range(n)]
    rngs = [random.Random(derive_seed("audit-bot", seed, index, s)) for s in range(n)]
    tally = Tally(hands=1)
    handed: Handed | None = None
    played = 0
    while not state.is_over:
        played += 1
        if played > MAX_ACTIONS_PER_HAND:
            raise RuntimeError(f"hand {index} of {spec!r} did not end")
        seat = state.to_move
        legal = legal_actions(state)
        start = time.perf_counter()
        action = bots[seat].choose(observe(state, seat), legal, rngs[seat])
        elapsed = time.perf_counter() - start
        if action not in legal:
            raise RuntimeError(f"{spec!r} chose the illegal {action} in hand {index}")
        if handed is not None and handed.taker == seat:
            if action.verb == "take":
                tally.fed_points += handed.points
                if handed.cards >= BIG_FEED:
                    tally.big_fed_points += handed.points
                    tally.big_open_fed_points += 0 if handed.frozen else handed.points
                    tally.big_spared_fed_points += handed.points if handed.spared else 0
            handed = None
        if seat in audited:
            tally.actions += 1
            tally.seconds += elapsed
            tally.decisions += 1
            if action.verb == "discard":
                _discard_facts(state, action, legal, tally)
                handed = _handed(state, action, legal)
            elif action.verb == "take":
                tally.takes += 1
        state = apply(state, action)
    size = rules.canasta_size
    owners = {state.owner_of(s) for s in audited}
    tally.canastas = sum(1 for owner in owners for m in state.melds[owner]
                         if m is not None and len(m) >= size)
    assert state.result is not None
    went_out = state.result.went_out
    tally.went_out = int(went_out is not None and state.owner_of(went_out) in owners)
    return tally


def _audit_chunk(args: tuple[str, Rules, int, list[int], str | None]) -> Tally:
    spec, rules, seed, indices, against = args
    total = Tally()
    for i in indices:
        total.add(audit_hand(spec, rules, seed, i, against))
    return total


def audit(spec: str, rules: Rules, hands: int, seed: int, jobs: int = 1,
          against: str | None = None) -> Tally:
    """The counts of ``hands`` hands of ``spec`` at every seat (or at one side's, ``against``
    at the others)."""
    chunks = [(spec, rules, seed, list(range(j, hands, jobs)), against) for j in range(jobs)]
    total = Tally()
    if jobs == 1:
        total.add(_audit_chunk(chunks[0]))
        return total
    with ProcessPoolExecutor(jobs) as pool:
        for tally in pool.map(_audit_chunk, chunks):
            total.add(tally)
    return total


Reading = tuple[float, int, int]
"""One reading of a discarded rank: the odds by counting alone, the copies unseen, whether the
player held it (1) or not (0)."""


def read_discards(specs: Sequence[str], rules: Rules, hands: int, seed: int, jobs: int = 1
                  ) -> tuple[list[int], dict[str, list[Reading]]]:
    """Play ``hands`` hands of the first two ``specs`` against each other; the natural discards
    counted by how many of the rank the player held (1, 2, 3 or more), and per model of
    :data:`READ_MODELS` the readings of the next player's ranks discarded in the last round."""
    chunks = [(specs, rules, seed, list(range(j, hands, jobs))) for j in range(jobs)]
    if jobs == 1:
        parts = [_read_chunk(chunks[0])]
    else:
        with ProcessPoolExecutor(jobs) as pool:
            parts = list(pool.map(_read_chunk, chunks))
    held = [sum(h[i] for h, _ in parts) for i in range(3)]
    return held, {name: [row for _, r in parts for row in r[name]] for name in READ_MODELS}


def _read_chunk(args: tuple[Sequence[str], Rules, int, list[int]]
                ) -> tuple[list[int], dict[str, list[Reading]]]:
    specs, rules, seed, indices = args
    n = rules.num_players
    held = [0, 0, 0]
    readings: dict[str, list[Reading]] = {name: [] for name in READ_MODELS}
    for i in indices:
        deck = tuple(shuffled_pack(rules, derive_seed("pair-odds", seed, i)))
        state = new_hand(rules, deck=deck, dealer=i % n)
        bots = [make_bot(specs[(s + i) % 2]) for s in range(n)]
        rngs = [random.Random(derive_seed("pair-odds-bot", seed, i, s)) for s in range(n)]
        for _ in range(MAX_ACTIONS_PER_HAND):
            if state.is_over:
                break
            seat = state.to_move
            legal = legal_actions(state)
            obs = observe(state, seat)
            if any(a.verb == "discard" for a in legal):
                _read(View(obs), state, readings)
            action = bots[seat].choose(obs, legal, rngs[seat])
            if action.verb == "discard" and IS_NATURAL[action.card]:
                r = action.card >> 2
                held[min(2, sum(1 for c in state.hands[seat] if c < 44 and c >> 2 == r) - 1)] += 1
            state = apply(state, action)
    return held, readings


READ_MODELS = {
    "DISCARD_FROZEN_PAIR_LOGIT": "a pair of a rank the next player discarded, the pile frozen "
                                 "for it",
    "DISCARD_PAIR_LOGIT": "a pair of a rank the next player discarded, the pile open to it",
    "DISCARD_ONE_LOGIT": "one or more of a rank the next player discarded",
}
"""The discard-reading models of :mod:`canasta.bots.view`, by name, with what each reads of the
next player's hand."""


def _read(view: View, state: State, readings: dict[str, list[Reading]]) -> None:
    nxt = view.next_seat
    if view.next_owner == view.owner:
        return
    story = view.pile_story()
    # a rank it also passed by is read from the pass (View.pair_evidence): left out here
    passed = {card >> 2 for card, seat, _ in story if (seat + 1) % view.n == nxt}
    ranks = {card >> 2 for k, (card, seat, _) in enumerate(story)
             if seat == nxt and IS_NATURAL[card] and k < view.n} - passed
    pair = "DISCARD_FROZEN_PAIR_LOGIT" if view.frozen_for(nxt) else "DISCARD_PAIR_LOGIT"
    for r in ranks:
        known, _ = view.known_count(nxt, r)
        unseen = view.unseen()[r]
        actual = sum(1 for c in state.hands[nxt] if c < 44 and c >> 2 == r)
        for k, name in ((1, "DISCARD_ONE_LOGIT"), (2, pair)):
            count = p_at_least(unseen, view.slot_share(nxt), k - known)
            if 0.0 < count < 1.0:
                readings[name].append((count, unseen, int(actual >= k)))


def fit_logit(rows: Sequence[Reading]) -> tuple[float, float, float]:
    """``(a, b, c)`` of the logistic ``a + b * logit(count) + c * (unseen - 5)`` that fits the
    readings best."""
    a, b, c = fit_logistic([(1.0, math.log(p / (1.0 - p)), u - 5.0) for p, u, _ in rows],
                           [y for _, _, y in rows], (0.0, 1.0, 0.0))
    return a, b, c


def fit_logistic(xs: Sequence[Sequence[float]], ys: Sequence[int],
                 start: Sequence[float]) -> list[float]:
    """The weights ``theta`` of ``P(y = 1) = 1 / (1 + exp(-theta . x))`` that fit the rows best
    (maximum likelihood, Newton's method from ``start``)."""
    theta = list(start)
    k = len(theta)
    for _ in range(25):
        grad = [0.0] * k
        hess = [[0.0] * k for _ in range(k)]
        for x, y in zip(xs, ys):
            q = 1.0 / (1.0 + math.exp(-sum(t * v for t, v in zip(theta, x))))
            for i in range(k):
                grad[i] += (q - y) * x[i]
                for j in range(k):
                    hess[i][j] += q * (1.0 - q) * x[i] * x[j]
        step = _solve(hess, grad)
        theta = [t - d for t, d in zip(theta, step)]
    return theta


def _solve(m: list[list[float]], v: list[float]) -> list[float]:
    """``m⁻¹ v`` (Gauss–Jordan with pivoting)."""
    k = len(v)
    rows = [[*m[i], v[i]] for i in range(k)]
    for i in range(k):
        pivot = max(range(i, k), key=lambda r: abs(rows[r][i]))
        rows[i], rows[pivot] = rows[pivot], rows[i]
        for r in range(k):
            if r != i:
                f = rows[r][i] / rows[i][i]
                rows[r] = [a - f * b for a, b in zip(rows[r], rows[i])]
    return [rows[i][k] / rows[i][i] for i in range(k)]


def pair_odds_text(specs: Sequence[str], rules: Rules, hands: int, seed: int, fit: bool,
                   jobs: int = 1) -> str:
    """The ``--pair-odds`` report."""
    held, readings = read_discards(specs, rules, hands, seed, jobs)
    total = max(1, sum(held))
    lines = [f"discard reading: {rules.name}, {specs[0]} against {specs[1]}, {hands} hands, "
             f"seed {seed}",
             f"natural discards: {sum(held)}; from a lone card {100 * held[0] / total:.1f}%, "
             f"from a pair {100 * held[1] / total:.1f}%, from three or more "
             f"{100 * held[2] / total:.1f}%"]
    for name, what in READ_MODELS.items():
        rows = readings[name]
        if not rows:
            continue
        logit = fit_logit(rows) if fit else getattr(view_module, name)
        lines.append(f"holding {what} ({len(rows)} readings); {name} = "
                     f"({logit[0]:.2f}, {logit[1]:.2f}, {logit[2]:.2f})"
                     f"{' (fitted here)' if fit else ''}")
        lines.append("  unseen  readings  counting  model  found")
        for u in sorted({u for _, u, _ in rows}):
            sel = [(p, y) for p, uu, y in rows if uu == u]
            model = sum(view_module._refit(logit, p, u) for p, _ in sel) / len(sel)
            lines.append(f"  {u:6d}  {len(sel):8d}  {sum(p for p, _ in sel) / len(sel):8.3f}  "
                         f"{model:5.3f}  {sum(y for _, y in sel) / len(sel):5.3f}")
    return "\n".join(lines)


Threat = tuple[str, int]
"""An opponent as the threat table sorts it: ``"out"`` (its side may go out), ``"near"`` (a
canasta short with a meld two cards from one, six cards or fewer) or ``"far"``; and its cards,
at most ``len(view.OUT_THREAT)``."""


def _threat_of(state: State, seat: int) -> tuple[Threat, float] | None:
    """How the reader's table sorts the opponent at ``seat`` (``view.opponent_threat``), and
    the threat it says (``None`` for a side two canastas short or more)."""
    cards = len(state.hands[seat])
    kind, threat = view_module.opponent_threat(state.rules, state.melds[state.owner_of(seat)],
                                               cards)
    if kind == "none":
        return None
    return (kind, min(max(cards, 1), len(view_module.OUT_THREAT))), threat


def read_threats(specs: Sequence[str], rules: Rules, hands: int, seed: int
                 ) -> dict[Threat, list[tuple[float, int]]]:
    """Play ``hands`` hands of the first two ``specs`` against each other; per kind of
    opponent, at each first play decision of a turn of the first bot, the threat its table
    says and whether that opponent went out on its next turn (1) or not (0)."""
    n = rules.num_players
    rows: dict[Threat, list[tuple[float, int]]] = defaultdict(list)
    for i in range(hands):
        deck = tuple(shuffled_pack(rules, derive_seed("threat", seed, i)))
        state = new_hand(rules, deck=deck, dealer=i % n)
        bots = [make_bot(specs[(s + i) % 2]) for s in range(n)]
        rngs = [random.Random(derive_seed("threat-bot", seed, i, s)) for s in range(n)]
        turn = 0
        pending: list[tuple[Threat, float, int, int]] = []  # kind, said, seat, its next turn
        for _ in range(MAX_ACTIONS_PER_HAND):
            if state.is_over:
                break
            seat = state.to_move
            if state.phase == DRAW and not state.turn.asked_before_draw:
                turn += 1
            legal = legal_actions(state)
            obs = observe(state, seat)
            if (seat + i) % 2 == 0 and state.phase == PLAY and not state.turn.melded:
                for ahead in range(1, n):
                    other = (seat + ahead) % n
                    if state.owner_of(other) == state.owner_of(seat):
                        continue
                    sorted_as = _threat_of(state, other)
                    if sorted_as is not None:
                        pending.append((*sorted_as, other, turn + ahead))
            state = apply(state, bots[seat].choose(obs, legal, rngs[seat]))
        result = state.result
        went_out = result.went_out if result is not None else None
        for kind, said, other, when in pending:
            rows[kind].append((said, int(went_out == other and when == turn)))
    return rows


def threat_text(specs: Sequence[str], rules: Rules, hands: int, seed: int) -> str:
    """The ``--threat`` report."""
    rows = read_threats(specs, rules, hands, seed)
    lines = [f"threat reading: {rules.name}, {specs[0]} reading, against {specs[1]}, "
             f"{hands} hands, seed {seed}",
             "an opponent goes out before the reader's next turn: the table's threat against "
             "how often it did",
             "  side      cards  opponent-turns  said   found"]
    for kind in sorted(rows, key=lambda k: (("out", "near", "far").index(k[0]), k[1])):
        sel = rows[kind]
        cards = f"{kind[1]}+" if kind[1] == len(view_module.OUT_THREAT) else str(kind[1])
        lines.append(f"  {kind[0]:8s}  {cards:>5s}  {len(sel):14d}  "
                     f"{sum(s for s, _ in sel) / len(sel):5.3f}  "
                     f"{sum(y for _, y in sel) / len(sel):5.3f}")
    return "\n".join(lines)


COLUMNS = (
    ("wild_discard_pct", "wild discards", "{:.1f}%"),
    ("wild_onto_frozen_pct", "wild onto frozen", "{:.1f}%"),
    ("feed_pct", "feed rate", "{:.1f}%"),
    ("short_gift_pct", "short-hand gifts", "{:.2f}%"),
    ("fed_points_per_discard", "pile points fed", "{:.1f}"),
    ("big_fed_points_per_discard", f"of them {BIG_FEED}+", "{:.1f}"),
    ("big_open_fed_points_per_discard", f"{BIG_FEED}+ open", "{:.1f}"),
    ("big_spared_fed_points_per_discard", f"{BIG_FEED}+ spared", "{:.1f}"),
    ("takes_per_hand", "takes/hand", "{:.2f}"),
    ("canastas_per_hand", "canastas/hand", "{:.2f}"),
    ("going_out_pct", "went out", "{:.0f}%"),
    ("ms_per_decision", "ms/decision", "{:.2f}"),
)


def report_text(rules: Rules, hands: int, seed: int, results: dict[str, Tally],
                against: str | None = None) -> str:
    """The plain-text report: one row per bot."""
    head = ["bot", *(title for _, title, _ in COLUMNS)]
    rows = [head]
    for spec, tally in results.items():
        figs = tally.figures()
        rows.append([spec, *(fmt.format(figs[key]) for key, _, fmt in COLUMNS)])
    widths = [max(len(r[i]) for r in rows) for i in range(len(head))]
    who = ("each bot at every seat" if against is None
           else f"each bot holding one side, {against} the others")
    lines = [f"bot audit: {rules.name}, {hands} hands, seed {seed} "
             f"({who}; the same deals for every bot)"]
    for k, row in enumerate(rows):
        lines.append("  ".join(cell.ljust(w) if i == 0 else cell.rjust(w)
                               for i, (cell, w) in enumerate(zip(row, widths))))
        if k == 0:
            lines.append("  ".join("-" * w for w in widths))
    lines.append("")
    lines.append("shares are of the bot's discards (the feed rate: of those after which another "
                 "player moves; a feed counts only where another legal discard would have kept "
                 "the pile from the next player); short-hand gifts: discards of a rank the next "
                 "opponent's side has melded while that opponent holds one or two cards; "
                 "pile points fed: per discard, points of the piles the next opponent took "
                 f"right after it (of them {BIG_FEED}+: from piles of {BIG_FEED} cards or more; "
                 f"{BIG_FEED}+ open: of those, piles the discard left open, not frozen; "
                 f"{BIG_FEED}+ spared: of those, where another natural card of the hand would "
                 "have kept the pile from the next player).")
    for spec, tally in results.items():
        lines.append(f"{spec}: {tally.discards} discards, {tally.decisions} decisions, "
                     f"{tally.takes} takes, {tally.canastas} canastas")
    return "\n".join(lines)


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    """The command-line options."""
    parser = argparse.ArgumentParser(
        description="Audit bots' play: wild-card discards, discards onto a frozen pile, feeding "
                    "the pile, gifts to a short hand, pile takes, canastas and goings out per "
                    "hand, time per decision. Each bot plays the same seeded hands with "
                    "copies of itself at every seat, or (--against) holding one side against "
                    "another bot.")
    parser.add_argument("--bots", required=True,
                        help="bot specs separated by commas, e.g. heuristic,heuristic-v1 or "
                             "'ismcts:iterations=100,heuristic'")
    parser.add_argument("--rules", default="classic", choices=sorted(PRESETS),
                        help="rules preset (default: classic)")
    parser.add_argument("--hands", type=int, default=100, help="hands per bot (default: 100)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the deals (default: 0)")
    parser.add_argument("--jobs", type=int, default=1,
                        help="worker processes (default: 1); figures do not depend on it")
    parser.add_argument("--against", metavar="SPEC",
                        help="the bot at the other seats: each audited bot holds one side (it "
                             "changes from hand to hand) and only its decisions are counted, "
                             "so the pile points it feeds are taken by the same opponent for "
                             "every bot (default: the bot itself at every seat)")
    parser.add_argument("--json", action="store_true",
                        help="print one line of JSON instead of text")
    parser.add_argument("--pair-odds", action="store_true",
                        help="measure the reading of discards instead (the first two bots "
                             "against each other): discards from three of a kind, and the "
                             "odds of a pair after a discard against the real hands")
    parser.add_argument("--threat", action="store_true",
                        help="measure the threat table instead (the first two bots against "
                             "each other): the threat the first bot's view says an opponent "
                             "poses against how often it went out before the reader's next "
                             "turn")
    parser.add_argument("--fit", action="store_true",
                        help="with --pair-odds: fit the discard-reading model to these hands")
    args = parser.parse_args(argv)
    if args.hands < 1:
        parser.error("--hands must be at least 1")
    if args.jobs < 1:
        parser.error("--jobs must be at least 1")
    args.specs = split_bot_specs([args.bots])
    if not args.specs:
        parser.error("--bots names no bot")
    if args.pair_odds and len(args.specs) < 2:
        parser.error("--pair-odds needs two bots, e.g. --bots heuristic,heuristic-v2")
    if args.threat and (len(args.specs) < 2 or args.pair_odds or args.against is not None):
        parser.error("--threat needs two bots, e.g. --bots heuristic,heuristic-v2, and goes "
                     "with neither --pair-odds nor --against")
    if args.fit and not args.pair_odds:
        parser.error("--fit goes with --pair-odds")
    if args.against is not None and args.pair_odds:
        parser.error("--against does not go with --pair-odds")
    for spec in [*args.specs, *([args.against] if args.against is not None else [])]:
        try:
            make_bot(spec)
        except BotSpecError as e:
            parser.error(str(e))
    return args


def main(argv: Sequence[str] | None = None) -> int:
    """Run the audit; return the exit status."""
    args = parse_args(argv)
    rules = get_rules(args.rules)
    if args.pair_odds:
        print(pair_odds_text(args.specs, rules, args.hands, args.seed, args.fit, args.jobs))
        return 0
    if args.threat:
        print(threat_text(args.specs, rules, args.hands, args.seed))
        return 0
    results = {spec: audit(spec, rules, args.hands, args.seed, args.jobs, args.against)
               for spec in args.specs}
    if args.json:
        out: dict[str, Any] = {
            "rules": rules.name, "hands": args.hands, "seed": args.seed, "against": args.against,
            "bots": {spec: {**t.figures(), "counts": asdict(t)} for spec, t in results.items()},
        }
        print(json.dumps(out))
    else:
        print(report_text(rules, args.hands, args.seed, results, args.against))
    return 0


if __name__ == "__main__":
    sys.exit(main())
