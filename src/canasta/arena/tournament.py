"""Running an arena: every pairing of the bots, in duplicate game pairs, over worker processes.

>>> from canasta.rules import get_rules
>>> config = ArenaConfig(get_rules("classic-2p"), ("random", "random"), hands=2, seed=1,
...                      bootstrap=20)
>>> result = run_arena(config)
>>> p = result.pairings[0]
>>> (p.a, p.b, p.hands >= 2, p.games)
('random#1', 'random#2', True, 2)

How many game pairs are played: for each pairing, game pairs ``0, 1, 2, ...`` are taken in
order until their duplicate pairs hold at least ``hands`` hands. Work is handed out in batches
sized from the hands per game pair seen so far, and results are used in game-pair order, so a
run gives the same figures whatever the number of processes, and whatever pool plays them
(only the thinking times differ).

Where the game pairs are played is pluggable: :func:`run_arena` plays them in this process, in
a :mod:`multiprocessing` pool, or in any :class:`WorkerPool` it is given (the ``ray`` backend
of ``canasta arena`` passes a pool of Ray actors, :mod:`canasta.interfaces.ray_backend`).
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

from canasta.arena.play import ArenaError, GamePairResult, GamePairTask, play_game_pair
from canasta.arena.schedule import bot_labels, derive_seed, pairings
from canasta.arena.stats import (
    WinMatrix,
    binomial,
    bootstrap_ratings,
    bradley_terry,
    correlation,
    elo_ratings,
    mean_ci,
    wilson,
)
from canasta.bots import make_bot
from canasta.cards import format_card
from canasta.rules import Rules

PRIOR_HANDS_PER_GAME_PAIR = 8
"""Duplicate-paired hands expected from one game pair before any has been played."""

RATING_PRIOR = 0.5
"""Virtual wins given to each bot of every pairing in the Bradley–Terry fit."""

SCHEME = (
    "duplicate game pairs: both twins of game pair g are dealt hand j from the same pack order "
    "(the same for every pairing); in twin 0 bot A holds every seat of the lead side and B the "
    "others, twin 1 swaps them; first dealer g % players, lead side = side of the seat "
    "1 + (g // players) % sides after the dealer; bots get fresh instances and rng seeds per "
    "hand, seat and twin; a hand's figure is A's mean side total minus B's; duplicate pairs "
    "are the hands both twins played"
)

CHUNKS_PER_WORKER = 4
"""A batch of game pairs is cut into about this many chunks per worker: few enough that cheap
bots are not slowed by sending one game pair at a time, enough that the workers finish
together."""

ProgressCallback = Callable[[int, int], None]
"""Called with (hands done, hands wanted) as results come in."""

Task = TypeVar("Task")
Result = TypeVar("Result")


class WorkerPool(Protocol):
    """Workers that play game pairs: what :func:`run_arena` needs of a process pool."""

    @property
    def size(self) -> int:
        """How many game pairs it plays at once."""
        ...

    def imap(self, func: Callable[[Task], Result], tasks: Sequence[Task],
             chunksize: int) -> Iterator[Result]:
        """``func`` of every task, in the order of ``tasks``, handed out ``chunksize`` at a
        time; raises the error a task raised."""
        ...


def chunk_size(tasks: int, workers: int) -> int:
    """Game pairs sent to a worker at once, for a batch of ``tasks`` over ``workers``."""
    return max(1, math.ceil(tasks / (CHUNKS_PER_WORKER * workers)))


@dataclass(frozen=True)
class ArenaConfig:
    """What to play: the rules, the bot specs (at least two) and how much."""

    rules: Rules
    """Any family's rule set: the bots are that family's (:func:`canasta.bots.make_bot`)."""
    bots: tuple[str, ...]
    hands: int
    """Duplicate-paired hands wanted per pairing (at least; whole game pairs are played)."""
    seed: int
    max_hands_per_game: int = 100
    keep_records: bool = False
    bootstrap: int = 1000
    """Bootstrap rounds for the rating intervals."""
    anchor: int | None = None
    """Index of the bot rated 1500; ``None`` puts the average at 1500."""

    def __post_init__(self) -> None:
        if len(self.bots) < 2:
            raise ArenaError("an arena needs at least two bots")
        if self.hands < 1:
            raise ArenaError(f"hands must be at least 1, not {self.hands}")
        if self.max_hands_per_game < 1:
            raise ArenaError("max_hands_per_game must be at least 1")
        if self.anchor is not None and not 0 <= self.anchor < len(self.bots):
            raise ArenaError(f"anchor {self.anchor} is not one of the bots")

    @property
    def labels(self) -> list[str]:
        """The bots' names in reports."""
        return bot_labels(self.bots)


@dataclass(frozen=True)
class PairingStats:
    """The figures of one pairing, from A's side (A is the bot named first)."""

    a: str
    b: str
    hands: int
    """Hands in duplicate pairs (twice the number of pairs)."""
    pairs: int
    points_per_hand: float | None
    """Mean of A's side total minus B's per hand."""
    ci95: tuple[float, float] | None
    """Student-t 95% interval over duplicate-pair means."""
    sd_hand: float | None
    """Standard deviation of the per-hand figure."""
    sd_pair: float | None
    """Standard deviation of the duplicate-pair means."""
    rho: float | None
    """Correlation of the two tables' results for the same seats (BOTS.md §5.2)."""
    hand_win_rate: float | None
    """Share of paired hands where A's side scored more (ties count half)."""
    unpaired_hands: int
    """Hands of the longer twin beyond the end of the shorter one (not in the figures above)."""
    game_pairs: int
    games: int
    """Finished games (two per game pair, less any left unfinished)."""
    wins: int
    """Games won by A."""
    unfinished: int
    win_rate: float | None
    win_rate_ci95: tuple[float, float] | None
    """Wilson 95% interval."""

    def to_json(self) -> dict[str, Any]:
        """The pairing as a JSON-ready dict."""
        return {
            "a": self.a, "b": self.b, "hands": self.hands, "pairs": self.pairs,
            "points_per_hand": self.points_per_hand,
            "ci95": list(self.ci95) if self.ci95 else None,
            "sd_hand": self.sd_hand, "sd_pair": self.sd_pair, "rho": self.rho,
            "hand_win_rate": self.hand_win_rate, "unpaired_hands": self.unpaired_hands,
            "game_pairs": self.game_pairs, "games": self.games, "wins": self.wins,
            "unfinished": self.unfinished, "win_rate": self.win_rate,
            "win_rate_ci95": list(self.win_rate_ci95) if self.win_rate_ci95 else None,
        }


@dataclass(frozen=True)
class Rating:
    """A bot's Bradley–Terry rating on the Elo scale, with a bootstrap 95% interval."""

    bot: str
    rating: float
    ci95: tuple[float, float]
    games: int
    wins: int

    def to_json(self) -> dict[str, Any]:
        """The rating as a JSON-ready dict."""
        return {"bot": self.bot, "rating": self.rating, "ci95": list(self.ci95),
                "games": self.games, "wins": self.wins}


@dataclass
class ArenaResult:
    """Everything a run produced: per-pairing figures, ratings and the raw game pairs."""

    config: ArenaConfig
    pairings: list[PairingStats]
    ratings: list[Rating]
    units: list[list[GamePairResult]] = field(repr=False)
    """Per pairing, its game pairs in order."""
    decisions: list[int]
    seconds: list[float]

    def to_json(self) -> dict[str, Any]:
        """Every figure, and with ``keep_records`` every game's record (NOTATION §4)."""
        cfg = self.config
        labels = cfg.labels
        bots = [{"bot": label, "spec": spec, "decisions": n,
                 "ms_per_decision": 1000 * s / n if n else None}
                for label, spec, n, s in zip(labels, cfg.bots, self.decisions, self.seconds)]
        out: dict[str, Any] = {
            "rules": cfg.rules.to_json(), "seed": cfg.seed, "hands_per_pairing": cfg.hands,
            "max_hands_per_game": cfg.max_hands_per_game, "scheme": SCHEME, "bots": bots,
            "pairings": [p.to_json() for p in self.pairings],
            "ratings": [r.to_json() for r in self.ratings],
            "rating_method": (
                f"Bradley-Terry fitted by MM on finished games with {RATING_PRIOR} virtual win "
                "each way per pairing; Elo scale (400 log10), "
                + (f"{labels[cfg.anchor]} = 1500" if cfg.anchor is not None
                   else "average = 1500")
                + f"; 95% parametric bootstrap percentile intervals ({cfg.bootstrap} rounds)"),
        }
        if cfg.keep_records:
            out["games"] = list(self._games_json())
        return out

    def dumps(self) -> str:
        """:meth:`to_json` as text: the figures indented, one line per game record."""
        parts = []
        for key, value in self.to_json().items():
            if key == "games":
                body = "[\n" + ",\n".join("  " + json.dumps(g, separators=(",", ":"))
                                          for g in value) + "\n ]"
            else:
                body = json.dumps(value, indent=2).replace("\n", "\n ")
            parts.append(f" {json.dumps(key)}: {body}")
        return "{\n" + ",\n".join(parts) + "\n}\n"

    def _games_json(self) -> Iterator[dict[str, Any]]:
        cfg = self.config
        labels = cfg.labels
        rules_json = cfg.rules.to_json()
        for index, (i, j) in enumerate(pairings(len(cfg.bots))):
            for unit in self.units[index]:
                for twin in unit.twins:
                    seats = [labels[i] if h == 0 else labels[j] for h in twin.holders]
                    paired = unit.paired_hands
                    yield {
                        "pairing": index, "a": labels[i], "b": labels[j],
                        "game_pair": unit.game_pair, "twin": twin.twin, "seats": seats,
                        "winner_side": twin.winner,
                        "winner": None if twin.winner is None else seats[twin.winner],
                        "a_won": twin.a_won, "scores": list(twin.scores),
                        "hands": [{"hand": n + 1, "dealer": h.dealer, "scores": list(h.scores),
                                   "totals": list(h.totals), "diff": h.diff,
                                   "went_out": h.went_out, "paired": n < paired}
                                  for n, h in enumerate(twin.hands)],
                        "record": {
                            "rules": rules_json, "players": [f"bot:{s}" for s in seats],
                            "hands": [{"dealer": h.dealer,
                                       "deck": [format_card(c) for c in h.deck],
                                       "actions": list(h.actions)} for h in twin.hands]},
                    }


def run_arena(config: ArenaConfig, jobs: int = 1,
              progress: ProgressCallback | None = None,
              pool: WorkerPool | None = None) -> ArenaResult:
    """Play every pairing of ``config.bots`` and compute the figures.

    ``jobs`` > 1 plays game pairs in that many worker processes; a ``pool`` plays them there
    instead (``jobs`` is then unused). Raises :class:`ArenaError` when a bot fails or chooses
    an illegal action, and :class:`~canasta.bots.BotSpecError` for a bot spec that names no
    bot of the rules' family.
    """
    for spec in config.bots:  # unknown bots fail here, before any work is handed out
        make_bot(spec, config.rules)
    pairs = pairings(len(config.bots))
    wanted = config.hands
    units: list[list[GamePairResult]] = [[] for _ in pairs]
    have = [0] * len(pairs)
    next_game = [0] * len(pairs)

    def report() -> None:
        if progress is not None:
            progress(sum(min(h, wanted) for h in have), wanted * len(pairs))

    def batch() -> list[GamePairTask]:
        tasks = []
        for p, (i, j) in enumerate(pairs):
            if have[p] >= wanted:
                continue
            per_unit = (have[p] / len(units[p]) if units[p] else PRIOR_HANDS_PER_GAME_PAIR)
            count = max(1, math.ceil((wanted - have[p]) / max(per_unit, 1.0)))
            for g in range(next_game[p], next_game[p] + count):
                tasks.append(GamePairTask(
                    rules=config.rules, a=config.bots[i], b=config.bots[j], pairing=p,
                    game_pair=g, seed=config.seed, max_hands=config.max_hands_per_game,
                    keep_records=config.keep_records))
            next_game[p] += count
        return tasks

    def consume(results: Iterator[GamePairResult]) -> None:
        for res in results:
            p = res.pairing
            if have[p] >= wanted:
                continue  # played ahead of need: not used, so --jobs cannot change the figures
            units[p].append(res)
            have[p] += 2 * res.paired_hands
            report()

    def play_on(workers: WorkerPool) -> None:
        report()
        while tasks := batch():
            consume(workers.imap(play_game_pair, tasks, chunk_size(len(tasks), workers.size)))

    if pool is not None:
        play_on(pool)
    elif jobs <= 1:
        report()
        while tasks := batch():
            consume(play_game_pair(t) for t in tasks if have[t.pairing] < wanted)
    else:
        # the workers start before the first progress report, so a caller may start a display
        # thread in that callback without forking a process that runs threads
        with ProcessPool(jobs) as processes:
            play_on(processes)
    return summarise(config, units)


class ProcessPool:
    """A :mod:`multiprocessing` pool of ``jobs`` processes as a :class:`WorkerPool` (the
    default backend)."""

    def __init__(self, jobs: int) -> None:
        import multiprocessing

        self.size = jobs
        self._pool = multiprocessing.Pool(jobs, initializer=_ignore_interrupts)

    def imap(self, func: Callable[[Task], Result], tasks: Sequence[Task],
             chunksize: int) -> Iterator[Result]:
        """``func`` of every task in order (see :meth:`WorkerPool.imap`)."""
        return self._pool.imap(func, tasks, chunksize)

    def __enter__(self) -> ProcessPool:
        return self

    def __exit__(self, *exc: object) -> None:
        self._pool.terminate()
        self._pool.join()


def _ignore_interrupts() -> None:
    """Workers leave Ctrl-C to the main process, which stops the pool (no worker tracebacks)."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)


def summarise(config: ArenaConfig, units: list[list[GamePairResult]]) -> ArenaResult:
    """The figures of a run from its game pairs (per pairing, in order)."""
    labels = config.labels
    pairs = pairings(len(config.bots))
    stats = [pairing_stats(labels[i], labels[j], units[p]) for p, (i, j) in enumerate(pairs)]
    decisions = [0] * len(labels)
    seconds = [0.0] * len(labels)
    for p, (i, j) in enumerate(pairs):
        for u in units[p]:
            decisions[i] += u.decisions[0]
            decisions[j] += u.decisions[1]
            seconds[i] += u.seconds[0]
            seconds[j] += u.seconds[1]
    ratings = fit_ratings(config, units)
    return ArenaResult(config, stats, ratings, units, decisions, seconds)


def pairing_stats(a: str, b: str, units: Sequence[GamePairResult]) -> PairingStats:
    """The figures of one pairing from its game pairs."""
    pairs = [pair for u in units for pair in u.pairs()]
    means = [(d0 + d1) / 2.0 for d0, d1 in pairs]
    hand_diffs = [d for pair in pairs for d in pair]
    ci = mean_ci(means)
    per_hand = mean_ci(hand_diffs)
    rho = correlation([d0 for d0, _ in pairs], [-d1 for _, d1 in pairs])
    hand_wins = sum(1.0 if d > 0 else 0.5 if d == 0 else 0.0 for d in hand_diffs)
    unpaired = sum(abs(len(u.twins[0].hands) - len(u.twins[1].hands)) for u in units)
    results = [t.a_won for u in units for t in u.twins]
    finished = [r for r in results if r is not None]
    wins = sum(1 for r in finished if r)
    games = len(finished)
    return PairingStats(
        a=a, b=b, hands=len(hand_diffs), pairs=len(pairs), points_per_hand=ci.mean,
        ci95=(ci.low, ci.high) if ci.low is not None and ci.high is not None else None,
        sd_hand=per_hand.sd, sd_pair=ci.sd, rho=rho,
        hand_win_rate=hand_wins / len(hand_diffs) if hand_diffs else None,
        unpaired_hands=unpaired, game_pairs=len(units), games=games, wins=wins,
        unfinished=len(results) - games, win_rate=wins / games if games else None,
        win_rate_ci95=wilson(wins, games) if games else None)


def fit_ratings(config: ArenaConfig, units: list[list[GamePairResult]]) -> list[Rating]:
    """Bradley–Terry ratings of the bots from the finished games, with bootstrap intervals.

    The fit gives every pairing :data:`RATING_PRIOR` virtual wins each way, so a clean sweep
    still has a finite rating. The intervals come from a parametric bootstrap: each round
    draws every pairing's games again from the fitted win probabilities (games taken as
    independent) and refits. (Resampling the game pairs themselves would give an interval of
    zero width whenever a pairing is a clean sweep.)
    """
    k = len(config.bots)
    pairs = pairings(k)
    full = [[0.0] * k for _ in range(k)]
    for (i, j), rows in zip(pairs, units):
        for u in rows:
            for t in u.twins:
                if t.a_won is True:
                    full[i][j] += 1
                elif t.a_won is False:
                    full[j][i] += 1

    def fit(w: WinMatrix) -> list[float]:
        return elo_ratings(bradley_terry(w, prior=RATING_PRIOR), config.anchor)

    strengths = bradley_terry(full, prior=RATING_PRIOR)
    point = elo_ratings(strengths, config.anchor)

    def sample(rng: random.Random) -> WinMatrix:
        w = [[0.0] * k for _ in range(k)]
        for i, j in pairs:
            n = int(full[i][j] + full[j][i])
            a = binomial(rng, n, strengths[i] / (strengths[i] + strengths[j]))
            w[i][j], w[j][i] = a, n - a
        return w

    intervals = (bootstrap_ratings(sample, fit, config.bootstrap,
                                   derive_seed("bootstrap", config.seed))
                 if config.bootstrap > 0 else [(r, r) for r in point])
    labels = config.labels
    out = []
    for i in range(k):
        games = sum(full[i][j] + full[j][i] for j in range(k) if j != i)
        wins = sum(full[i][j] for j in range(k) if j != i)
        out.append(Rating(labels[i], point[i], intervals[i], int(games), int(wins)))
    return out
