"""The arena for Modern American Canasta: two bots on duplicate deals, sides swapped.

Every deal (a seeded pack and dealer) is played twice with the bots swapping sides, and the
deal's figure is the first bot's side score minus the other's, averaged over the two plays, so
the luck of the cards cancels out. The result is the mean points per hand for the first bot with
a 95% interval (normal approximation over deals) and the hands each bot's side won.

>>> result = pairing("modern-heuristic", "modern-random", deals=2, seed=1)
>>> result.deals, result.hands, result.low <= result.points_per_hand <= result.high
(2, 4, True)

With ``keep_records`` every deal also keeps both plays as records (NOTATION §4, one hand each),
which ``canasta replay`` reads: ``canasta arena --json`` writes them.

A deal is one work unit (:class:`DealTask`, played by :func:`play_deal`): its pack comes from
the seed and its index alone and its bots are seeded by the index, so the deals can be played
in any process, by a :mod:`multiprocessing` pool (``jobs``) or any
:class:`~canasta.arena.tournament.WorkerPool` (the Ray actors of ``canasta arena --backend
ray``), and the figures are the same as in this process.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from canasta.arena.play import ArenaError
from canasta.arena.tournament import ProcessPool, WorkerPool, chunk_size
from canasta.bots.modern import make_modern_bot, tell
from canasta.cards import format_card
from canasta.errors import CanastaError
from canasta.modern_american.action_text import format_action
from canasta.modern_american.hand import shuffled_pack
from canasta.modern_american.knobs import NAME
from canasta.modern_american.play import apply, new_hand

Progress = Callable[[int, int], None]
"""Called with (hands played, hands wanted) as deals come in."""


@dataclass(frozen=True)
class Pairing:
    """``first`` against ``second``: points per hand for ``first`` with a 95% interval."""

    first: str
    second: str
    deals: int
    points_per_hand: float
    low: float
    high: float
    first_won: int
    hands: int


@dataclass(frozen=True)
class DealTask:
    """One duplicate deal of a pairing: the pack's seed, the deal's index (its dealer and its
    bots' seeds) and the two bots."""

    first: str
    second: str
    deal: int
    deck_seed: int
    pairing: int = 0
    """Which pairing of a run the deal belongs to."""
    keep_records: bool = False
    """Whether the result keeps both plays as records."""


@dataclass(frozen=True)
class DealResult:
    """Both plays of a deal: the sides' totals with ``first`` on side 0, then swapped."""

    pairing: int
    deal: int
    first_at_0: tuple[int, int]
    second_at_0: tuple[int, int]
    records: tuple[dict[str, Any], ...] = ()
    """With :attr:`DealTask.keep_records`: the play with ``first`` on side 0, then the other."""

    @property
    def diff(self) -> float:
        """``first``'s side total minus the other's, averaged over the two plays."""
        (a0, b1), (b0, a1) = self.first_at_0, self.second_at_0
        return ((a0 - b1) + (a1 - b0)) / 2

    @property
    def first_won(self) -> int:
        """Of the two plays, the hands ``first``'s side scored more."""
        (a0, b1), (b0, a1) = self.first_at_0, self.second_at_0
        return int(a0 > b1) + int(a1 > b0)


def play_hand(first: str, second: str, deck: list[int], dealer: int, seed: int,
              lines: list[str] | None = None) -> tuple[int, int]:
    """One hand, ``first`` on side 0 (seats 0 and 2): the two sides' totals; each action is
    appended to ``lines`` as a record spells it (``p1: draw``) when given."""
    bots = [make_modern_bot(first if seat % 2 == 0 else second, seed * 4 + seat)
            for seat in range(4)]
    h = new_hand(deck=deck, dealer=dealer)
    while h.end is None:
        seat = h.to_move
        spec = first if seat % 2 == 0 else second
        try:
            action = bots[seat].choose(h)
        except Exception as e:  # reported in words, not as a worker's traceback
            raise ArenaError(f"bot {spec!r} at seat {seat} failed: {type(e).__name__}: {e} "
                             f"(deal {seed})") from None
        tell(bots, h, action)
        if lines is not None:
            lines.append(f"p{seat}: {format_action(h, action)}")
        try:
            h = apply(h, action)
        except CanastaError as e:
            raise ArenaError(f"bot {spec!r} at seat {seat} chose an illegal action: {e} "
                             f"(deal {seed})") from None
    return h.end.sides[0].total, h.end.sides[1].total


def play_deal(task: DealTask) -> DealResult:
    """Play a deal twice, the bots' sides swapped (a work unit for a pool)."""
    deck = shuffled_pack(seed=task.deck_seed)
    dealer = task.deal % 4
    plays = []
    records = []
    for a, b in ((task.first, task.second), (task.second, task.first)):
        lines: list[str] | None = [] if task.keep_records else None
        plays.append(play_hand(a, b, deck, dealer, task.deal, lines))
        if lines is not None:
            records.append({"rules": NAME, "players": [a, b, a, b], "hands": [
                {"dealer": dealer, "deck": [format_card(c) for c in deck], "actions": lines}]})
    return DealResult(task.pairing, task.deal, plays[0], plays[1], tuple(records))


def deal_tasks(first: str, second: str, deals: int, seed: int, pairing: int = 0,
               keep_records: bool = False) -> list[DealTask]:
    """The deals of a pairing, in order: the packs' seeds drawn from ``seed``."""
    rng = random.Random(seed)
    return [DealTask(first, second, i, rng.getrandbits(63), pairing, keep_records)
            for i in range(deals)]


def summarise(first: str, second: str, results: Sequence[DealResult]) -> Pairing:
    """The figures of a pairing from its deals."""
    diffs = [r.diff for r in results]
    mean = sum(diffs) / len(diffs)
    sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / max(1, len(diffs) - 1))
    half = 1.96 * sd / math.sqrt(len(diffs))
    return Pairing(first, second, len(results), mean, mean - half, mean + half,
                   sum(r.first_won for r in results), 2 * len(results))


def run_pairings(first: str, others: Sequence[str], deals: int, seed: int = 0, *,
                 jobs: int = 1, pool: WorkerPool | None = None,
                 progress: Progress | None = None,
                 played: list[list[DealResult]] | None = None) -> list[Pairing]:
    """``first`` against each of ``others`` over ``deals`` duplicate deals each (the same
    packs for every pairing), played here, in ``jobs`` processes or in ``pool``; the figures
    do not depend on where. ``played``, when given, receives each pairing's deals in order,
    with their records."""
    for spec in (first, *others):  # a bad spec fails before any play
        make_modern_bot(spec)
    keep = played is not None
    tasks = [t for p, other in enumerate(others)
             for t in deal_tasks(first, other, deals, seed, pairing=p, keep_records=keep)]
    results: list[list[DealResult]] = [[] for _ in others]

    def consume(played: Iterable[DealResult]) -> None:
        done = 0
        for result in played:
            results[result.pairing].append(result)
            done += 2
            if progress is not None:
                progress(done, 2 * len(tasks))

    if progress is not None:
        progress(0, 2 * len(tasks))
    if pool is not None:
        consume(pool.imap(play_deal, tasks, chunk_size(len(tasks), pool.size)))
    elif jobs > 1:
        with ProcessPool(jobs) as processes:
            consume(processes.imap(play_deal, tasks, chunk_size(len(tasks), jobs)))
    else:
        consume(play_deal(t) for t in tasks)
    for rows in results:
        rows.sort(key=lambda r: r.deal)
    if played is not None:
        played.extend(results)
    return [summarise(first, other, rows) for other, rows in zip(others, results)]


def pairing(first: str, second: str, deals: int, seed: int = 0, *, jobs: int = 1,
            pool: WorkerPool | None = None) -> Pairing:
    """``first`` against ``second`` over ``deals`` duplicate deals."""
    return run_pairings(first, [second], deals, seed, jobs=jobs, pool=pool)[0]


def run_json(seed: int, rows: Sequence[Pairing], played: Sequence[Sequence[DealResult]]
             ) -> dict[str, Any]:
    """What ``canasta arena --json`` writes for this family: the figures of every pairing and
    every deal with its two records (``jq '.deals[0].records[0]' run.json | canasta replay
    --text -`` tells the first play move by move)."""
    return {
        "rules": NAME, "seed": seed,
        "pairings": [{"first": p.first, "second": p.second, "deals": p.deals,
                      "points_per_hand": p.points_per_hand, "interval_95": [p.low, p.high],
                      "first_won": p.first_won, "hands": p.hands} for p in rows],
        "deals": [{"first": p.first, "second": p.second, "deal": r.deal,
                   "first_at_0": list(r.first_at_0), "second_at_0": list(r.second_at_0),
                   "diff": r.diff, "records": list(r.records)}
                  for p, results in zip(rows, played) for r in results]}
