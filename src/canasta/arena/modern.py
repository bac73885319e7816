"""The arena for Modern American Canasta: two bots on duplicate deals, sides swapped.

Every deal (a seeded pack and dealer) is played twice with the bots swapping sides, and the
deal's figure is the first bot's side score minus the other's, averaged over the two plays, so
the luck of the cards cancels out. The result is the mean points per hand for the first bot with
a 95% interval (normal approximation over deals) and the hands each bot's side won.

>>> result = pairing("modern-heuristic", "modern-random", deals=2, seed=1)
>>> result.deals, result.hands, result.low <= result.points_per_hand <= result.high
(2, 4, True)

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

from canasta.arena.play import ArenaError
from canasta.arena.tournament import ProcessPool, WorkerPool, chunk_size
from canasta.bots.modern import make_modern_bot, tell
from canasta.errors import CanastaError
from canasta.modern_american.hand import shuffled_pack
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


@dataclass(frozen=True)
class DealResult:
    """Both plays of a deal: the sides' totals with ``first`` on side 0, then swapped."""

    pairing: int
    deal: int
    first_at_0: tuple[int, int]
    second_at_0: tuple[int, int]

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


def play_hand(first: str, second: str, deck: list[int], dealer: int, seed: int
              ) -> tuple[int, int]:
    """One hand, ``first`` on side 0 (seats 0 and 2): the two sides' totals."""
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
    return DealResult(task.pairing, task.deal,
                      play_hand(task.first, task.second, deck, dealer, task.deal),
                      play_hand(task.second, task.first, deck, dealer, task.deal))


def deal_tasks(first: str, second: str, deals: int, seed: int, pairing: int = 0
               ) -> list[DealTask]:
    """The deals of a pairing, in order: the packs' seeds drawn from ``seed``."""
    rng = random.Random(seed)
    return [DealTask(first, second, i, rng.getrandbits(63), pairing) for i in range(deals)]


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
                 progress: Progress | None = None) -> list[Pairing]:
    """``first`` against each of ``others`` over ``deals`` duplicate deals each (the same
    packs for every pairing), played here, in ``jobs`` processes or in ``pool``; the figures
    do not depend on where."""
    for spec in (first, *others):  # a bad spec fails before any play
        make_modern_bot(spec)
    tasks = [t for p, other in enumerate(others)
             for t in deal_tasks(first, other, deals, seed, pairing=p)]
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
    return [summarise(first, other, rows) for other, rows in zip(others, results)]


def pairing(first: str, second: str, deals: int, seed: int = 0, *, jobs: int = 1,
            pool: WorkerPool | None = None) -> Pairing:
    """``first`` against ``second`` over ``deals`` duplicate deals."""
    return run_pairings(first, [second], deals, seed, jobs=jobs, pool=pool)[0]
