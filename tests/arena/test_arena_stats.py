"""The arena's statistics against values worked out by hand (or read from printed tables)."""

from __future__ import annotations

import math
import random

import pytest

from canasta.arena.stats import (
    Z95,
    WinMatrix,
    binomial,
    bootstrap_ratings,
    bradley_terry,
    correlation,
    elo_ratings,
    mean_ci,
    percentile,
    t_cdf,
    t_quantile,
    wilson,
)


@pytest.mark.parametrize(("df", "expected"), [
    (1, 12.7062), (2, 4.3027), (4, 2.7764), (10, 2.2281), (30, 2.0423), (1000, 1.9623),
])
def test_t_quantile_matches_the_printed_table(df: int, expected: float) -> None:
    """Two-sided 95% critical values of Student's t, from any printed t table."""
    assert t_quantile(0.975, df) == pytest.approx(expected, abs=1e-4)
    assert t_quantile(0.025, df) == pytest.approx(-expected, abs=1e-4)


def test_t_cdf_is_a_distribution() -> None:
    assert t_cdf(0.0, 5) == pytest.approx(0.5)
    # df = 1 is the Cauchy distribution: P(T <= 1) = 1/2 + atan(1)/pi = 0.75
    assert t_cdf(1.0, 1) == pytest.approx(0.75, abs=1e-12)
    assert t_cdf(-1.0, 1) == pytest.approx(0.25, abs=1e-12)


def test_mean_ci_by_hand() -> None:
    """Duplicate-pair means 100, -50, 200, 150, 0.

    mean = 400 / 5 = 80
    deviations 20, -130, 120, 70, -80; squares 400 + 16900 + 14400 + 4900 + 6400 = 43000
    sd = sqrt(43000 / 4) = sqrt(10750) = 103.6822
    se = 103.6822 / sqrt(5) = 46.3681
    t(0.975, 4) = 2.776445, half-width = 2.776445 * 46.3681 = 128.7385
    95% CI = [80 - 128.7385, 80 + 128.7385] = [-48.7385, 208.7385]
    """
    ci = mean_ci([100, -50, 200, 150, 0])
    assert ci.n == 5
    assert ci.mean == pytest.approx(80.0)
    assert ci.sd == pytest.approx(103.6822, abs=1e-4)
    assert ci.low == pytest.approx(-48.7385, abs=1e-3)
    assert ci.high == pytest.approx(208.7385, abs=1e-3)


def test_mean_ci_small_samples() -> None:
    assert mean_ci([]).mean is None
    one = mean_ci([42.0])
    assert (one.mean, one.sd, one.low, one.high) == (42.0, None, None, None)
    flat = mean_ci([5.0, 5.0, 5.0])
    assert (flat.low, flat.high) == (5.0, 5.0)


def test_wilson_by_hand() -> None:
    """7 wins in 10 games, z = 1.959964, z^2 = 3.841459.

    p = 0.7; denominator 1 + z^2/n = 1.3841459
    centre = (0.7 + 3.841459 / 20) / 1.3841459 = 0.8920729 / 1.3841459 = 0.6444925
    half = z * sqrt(0.7 * 0.3 / 10 + 3.841459 / 400) / 1.3841459
         = 1.959964 * sqrt(0.0306036) / 1.3841459 = 1.959964 * 0.1749389 / 1.3841459 = 0.2477155
    interval = [0.3967770, 0.8922080]
    """
    assert abs(Z95 - 1.959964) < 1e-6
    low, high = wilson(7, 10)
    assert low == pytest.approx(0.396777, abs=1e-5)
    assert high == pytest.approx(0.892208, abs=1e-5)


def test_wilson_edges() -> None:
    """0 of 4: p = 0, centre = (z^2/8) / (1 + z^2/4) = 0.4801824 / 1.9603648 = 0.2449456,
    half = z * sqrt(z^2/64) / 1.9603648 = z^2 / 8 / 1.9603648 = the centre, so [0, 0.4898912]."""
    low, high = wilson(0, 4)
    assert low == 0.0
    assert high == pytest.approx(0.4898912, abs=1e-6)
    assert wilson(0, 0) == (0.0, 1.0)
    assert wilson(4, 4) == pytest.approx((1 - 0.4898912, 1.0), abs=1e-6)


def test_bradley_terry_by_hand() -> None:
    """Three bots whose results fit strengths 4 : 2 : 1 exactly.

    X beat Y 2-1, Y beat Z 2-1, X beat Z 4-1. The likelihood equations say each bot's wins
    equal its expected wins, sum_j n_ij p_i / (p_i + p_j):
      X: 3 * 4/6 + 5 * 4/5 = 2 + 4 = 6 = 2 + 4 wins
      Y: 3 * 2/6 + 3 * 2/3 = 1 + 2 = 3 = 1 + 2 wins
      Z: 3 * 1/3 + 5 * 1/5 = 1 + 1 = 2 = 1 + 1 wins
    so p = (4, 2, 1) up to scale; with geometric mean 1: 4/2, 2/2, 1/2 = (2, 1, 0.5).
    Elo: 400 log10 4 = 240.82, 400 log10 2 = 120.41, 0; average 120.41 -> 1620.41, 1500,
    1379.59. Anchored on Z: 1740.82, 1620.41, 1500.
    """
    wins = [[0, 2, 4], [1, 0, 2], [1, 1, 0]]
    p = bradley_terry(wins)
    assert p == pytest.approx([2.0, 1.0, 0.5], rel=1e-8)
    assert elo_ratings(p) == pytest.approx([1620.412, 1500.0, 1379.588], abs=1e-3)
    assert elo_ratings(p, anchor=2) == pytest.approx([1740.824, 1620.412, 1500.0], abs=1e-3)


def test_bradley_terry_prior_keeps_a_clean_sweep_finite() -> None:
    """A beat B 3-1; with 0.5 virtual wins each: 3.5 vs 1.5, so p_A / p_B = 3.5 / 1.5 = 7/3
    and the gap is 400 log10(7/3) = 147.19 Elo. A 3-0 sweep: 3.5 / 0.5 = 7, 400 log10 7 =
    338.04."""
    a, b = elo_ratings(bradley_terry([[0, 3], [1, 0]], prior=0.5))
    assert a - b == pytest.approx(147.19, abs=0.01)
    assert (a + b) / 2 == pytest.approx(1500.0)
    a, b = elo_ratings(bradley_terry([[0, 3], [0, 0]], prior=0.5))
    assert a - b == pytest.approx(338.04, abs=0.01)


def test_bradley_terry_leaves_players_without_games_alone() -> None:
    p = bradley_terry([[0, 1, 0], [1, 0, 0], [0, 0, 0]], prior=0.5)
    assert all(math.isfinite(x) for x in p)
    assert p[0] == pytest.approx(p[1])


def test_correlation_by_hand() -> None:
    """x = 1, 2, 3, y = 2, 4, 7: means 2 and 13/3; sxy = (-1)(-7/3) + 0 + (1)(8/3) = 5,
    sxx = 2, syy = 49/9 + 1/9 + 64/9 = 114/9; r = 5 / sqrt(2 * 114/9) = 0.99339."""
    assert correlation([1, 2, 3], [2, 4, 7]) == pytest.approx(0.99339, abs=1e-5)
    assert correlation([1, 1], [2, 3]) is None
    assert correlation([1], [2]) is None


def test_percentile_and_bootstrap() -> None:
    """Linear interpolation: in 10, 20, 30, 40 the 0.25 quantile sits at position 0.75,
    10 + 0.75 * 10 = 17.5."""
    assert percentile([10, 20, 30, 40], 0.25) == pytest.approx(17.5)
    assert percentile([10, 20, 30, 40], 1.0) == 40

    def sample(rng: random.Random) -> WinMatrix:
        a = sum(rng.random() < 0.7 for _ in range(20))
        return [[0, a], [20 - a, 0]]

    def fit(w: WinMatrix) -> list[float]:
        return elo_ratings(bradley_terry(w, prior=0.5))

    first = bootstrap_ratings(sample, fit, 200, seed=5)
    assert first == bootstrap_ratings(sample, fit, 200, seed=5)
    (lo_a, hi_a), (lo_b, hi_b) = first
    # 14 wins in 20 with the prior: 14.5 / 6.5, 400 log10(2.23) = 139 Elo, so A near 1570
    assert lo_a < 1570 < hi_a
    assert lo_b < 1430 < hi_b
    assert lo_a > lo_b and hi_a > hi_b


def test_binomial_draws() -> None:
    rng = random.Random(3)
    assert binomial(rng, 0, 0.5) == 0
    assert binomial(rng, 10, 0.0) == 0 and binomial(rng, 10, 1.0) == 10
    draws = [binomial(rng, 100, 0.3) for _ in range(200)]
    assert 28 < sum(draws) / len(draws) < 32  # mean n p = 30, sd of the mean 0.32
    big = binomial(rng, 100000, 0.5)  # normal approximation: sd 158
    assert 49000 < big < 51000
