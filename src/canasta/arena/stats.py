"""The arena's statistics, standard library only (BOTS.md §5).

- :func:`mean_ci`: the mean of a sample with a two-sided Student-t interval. The arena feeds it
  one value per duplicate pair (the mean of the pair's two hands), so the luck of the deal
  cancels inside each value.
- :func:`t_quantile`: Student-t quantiles, from the regularised incomplete beta function.
- :func:`wilson`: the Wilson score interval of a win rate.
- :func:`bradley_terry`: Bradley–Terry strengths fitted by Hunter's MM algorithm, and
  :func:`elo_ratings`, the same strengths on the Elo scale (400·log10), with
  :func:`bootstrap_ratings` for percentile intervals.

>>> round(t_quantile(0.975, 4), 4)
2.7764
>>> [round(x, 4) for x in wilson(7, 10)]
[0.3968, 0.8922]
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from statistics import NormalDist

Z95 = NormalDist().inv_cdf(0.975)
"""The normal quantile of a two-sided 95% interval (1.959964)."""


# -- Student t -------------------------------------------------------------------------------
def _beta_cf(a: float, b: float, x: float) -> float:
    """Continued fraction of the incomplete beta function (modified Lentz)."""
    tiny = 1e-300
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c, d = 1.0, 1.0 - qab * x / qap
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 500):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < 1e-15:
            break
    return h


def betainc(a: float, b: float, x: float) -> float:
    """The regularised incomplete beta function I_x(a, b), for a, b > 0 and 0 <= x <= 1."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    log_front = (math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b)
                 + a * math.log(x) + b * math.log1p(-x))
    if x < (a + 1.0) / (a + b + 2.0):
        return math.exp(log_front) * _beta_cf(a, b, x) / a
    return 1.0 - math.exp(log_front) * _beta_cf(b, a, 1.0 - x) / b


def t_cdf(t: float, df: float) -> float:
    """P(T <= t) for Student's t with ``df`` degrees of freedom."""
    tail = 0.5 * betainc(df / 2.0, 0.5, df / (df + t * t))
    return 1.0 - tail if t >= 0 else tail


def t_quantile(p: float, df: float) -> float:
    """The ``p`` quantile of Student's t with ``df`` > 0 degrees of freedom (bisection)."""
    if not 0.0 < p < 1.0:
        raise ValueError(f"p must be in (0, 1), not {p!r}")
    if df <= 0:
        raise ValueError(f"degrees of freedom must be positive, not {df!r}")
    if p < 0.5:
        return -t_quantile(1.0 - p, df)
    lo, hi = 0.0, 1.0
    while t_cdf(hi, df) < p:
        hi *= 2.0
    for _ in range(200):
        mid = (lo + hi) / 2.0
        if t_cdf(mid, df) < p:
            lo = mid
        else:
            hi = mid
        if hi - lo < 1e-12 * max(1.0, hi):
            break
    return (lo + hi) / 2.0


# -- means and rates -------------------------------------------------------------------------
@dataclass(frozen=True)
class MeanCI:
    """A sample mean with its standard deviation and a two-sided confidence interval."""

    n: int
    mean: float | None
    sd: float | None
    """Sample standard deviation (n - 1 in the denominator); ``None`` below two values."""
    low: float | None
    high: float | None


def mean_ci(values: Sequence[float], level: float = 0.95) -> MeanCI:
    """Mean and Student-t interval ``mean ± t(1-α/2, n-1)·sd/√n``.

    The interval is ``None`` with fewer than two values; with zero spread it is the mean itself.
    """
    n = len(values)
    if n == 0:
        return MeanCI(0, None, None, None, None)
    mean = math.fsum(values) / n
    if n < 2:
        return MeanCI(n, mean, None, None, None)
    sd = math.sqrt(math.fsum((v - mean) ** 2 for v in values) / (n - 1))
    half = t_quantile(0.5 + level / 2.0, n - 1) * sd / math.sqrt(n)
    return MeanCI(n, mean, sd, mean - half, mean + half)


def correlation(xs: Sequence[float], ys: Sequence[float]) -> float | None:
    """Pearson's correlation; ``None`` with fewer than two pairs or no spread."""
    n = len(xs)
    if n != len(ys):
        raise ValueError("correlation needs two samples of the same size")
    if n < 2:
        return None
    mx, my = math.fsum(xs) / n, math.fsum(ys) / n
    sxy = math.fsum((x - mx) * (y - my) for x, y in zip(xs, ys))
    sxx = math.fsum((x - mx) ** 2 for x in xs)
    syy = math.fsum((y - my) ** 2 for y in ys)
    if sxx == 0 or syy == 0:
        return None
    return sxy / math.sqrt(sxx * syy)


def wilson(successes: float, n: float, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion ``successes / n`` (``(0, 1)`` when n is 0).

    ``(p + z²/2n ± z·sqrt(p(1-p)/n + z²/4n²)) / (1 + z²/n)``.
    """
    if n <= 0:
        return (0.0, 1.0)
    p = successes / n
    z2 = z * z
    denom = 1.0 + z2 / n
    centre = (p + z2 / (2.0 * n)) / denom
    half = z * math.sqrt(p * (1.0 - p) / n + z2 / (4.0 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


# -- Bradley–Terry ---------------------------------------------------------------------------
WinMatrix = Sequence[Sequence[float]]
"""``wins[i][j]``: games player ``i`` won against player ``j``."""


def bradley_terry(wins: WinMatrix, prior: float = 0.0, tol: float = 1e-10,
                  max_iter: int = 10000) -> list[float]:
    """Bradley–Terry strengths ``p`` (P(i beats j) = p_i / (p_i + p_j)), geometric mean 1.

    Fitted by Hunter's (2004) MM iteration ``p_i ← W_i / Σ_j n_ij / (p_i + p_j)``, where
    ``W_i`` are i's wins and ``n_ij`` the games between i and j. ``prior`` adds that many
    virtual wins to each side of every pair that met, which keeps the estimate finite when a
    player won (or lost) every game. Players that met nobody keep strength 1.
    """
    k = len(wins)
    w = [[float(wins[i][j]) for j in range(k)] for i in range(k)]
    for i in range(k):
        for j in range(k):
            if i != j and w[i][j] + w[j][i] > 0:
                w[i][j] += prior
    games = [[w[i][j] + w[j][i] for j in range(k)] for i in range(k)]
    total = [math.fsum(w[i][j] for j in range(k) if j != i) for i in range(k)]
    p = [1.0] * k
    for _ in range(max_iter):
        new = []
        for i in range(k):
            denom = math.fsum(games[i][j] / (p[i] + p[j]) for j in range(k)
                              if j != i and games[i][j] > 0)
            if denom == 0:
                new.append(p[i])
            else:
                new.append(max(total[i], 1e-300) / denom)
        logs = [math.log(x) for x in new]
        centre = math.fsum(logs) / k
        new = [math.exp(x - centre) for x in logs]
        change = max(abs(math.log(a) - math.log(b)) for a, b in zip(new, p))
        p = new
        if change < tol:
            break
    return p


ELO_SCALE = 400.0 / math.log(10.0)
"""Elo points per natural-log unit of strength: a 400-point gap is odds of 10 to 1."""


def elo_ratings(strengths: Sequence[float], anchor: int | None = None,
                base: float = 1500.0) -> list[float]:
    """Strengths on the Elo scale: ``base + 400·log10(p_i)``, shifted so that the ``anchor``
    player (or, without one, the average player) rates ``base``."""
    r = [ELO_SCALE * math.log(p) for p in strengths]
    shift = r[anchor] if anchor is not None else math.fsum(r) / len(r)
    return [base + x - shift for x in r]


def bootstrap_ratings(
    sample: Callable[[random.Random], WinMatrix], fit: Callable[[WinMatrix], list[float]],
    rounds: int, seed: int, level: float = 0.95,
) -> list[tuple[float, float]]:
    """Percentile bootstrap intervals of ratings.

    ``sample(rng)`` draws one bootstrap win matrix,
    ``fit`` turns a win matrix into ratings; returns ``(low, high)`` per player.
    """
    rng = random.Random(seed)
    draws = [fit(sample(rng)) for _ in range(rounds)]
    k = len(draws[0]) if draws else 0
    alpha = (1.0 - level) / 2.0
    out = []
    for i in range(k):
        xs = sorted(d[i] for d in draws)
        out.append((percentile(xs, alpha), percentile(xs, 1.0 - alpha)))
    return out


def binomial(rng: random.Random, n: int, p: float) -> int:
    """A Binomial(n, p) draw: exact (n Bernoulli trials) up to 2,000 trials, beyond that the
    normal approximation, rounded and clipped to 0..n."""
    if n <= 2000:
        return sum(1 for _ in range(n) if rng.random() < p)
    x = round(rng.gauss(n * p, math.sqrt(n * p * (1.0 - p))))
    return min(n, max(0, x))


def percentile(sorted_values: Sequence[float], q: float) -> float:
    """The ``q`` quantile of sorted values, interpolating linearly between order statistics."""
    if not sorted_values:
        raise ValueError("percentile of no values")
    pos = q * (len(sorted_values) - 1)
    lo = math.floor(pos)
    hi = min(lo + 1, len(sorted_values) - 1)
    frac = pos - lo
    return sorted_values[lo] + (sorted_values[hi] - sorted_values[lo]) * frac
