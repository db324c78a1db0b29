"""Small, exact statistics for simulation reports (stdlib only).

Everything is computed from integer sums (count, sum, sum of squares), so the
result does not depend on the order the games arrived in: a report is the same
for any number of jobs and any backend.  Intervals are 95% (z = 1.96):

- a proportion: the Wilson score interval (good for small counts and rates near 0 or 1);
- a difference of two proportions: Newcombe's hybrid score interval (method 10),
  built from the two Wilson intervals;
- a mean: mean +- z * sd / sqrt(n) (normal approximation: fine for the hundreds of
  games a sim plays; only indicative below about 30 games);
- a difference of two means: Welch's normal approximation, z * sqrt(sd1^2/n1 + sd2^2/n2).
"""
from __future__ import annotations

import math

Z95 = 1.959963984540054
DIGITS = 4
"""Reports round to this many decimals, so that they are short and compare equal as text."""


def rnd(x: float | None) -> float | None:
    return None if x is None else round(float(x), DIGITS)


def wilson(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of ``successes / n`` (``(0, 1)`` when ``n`` is 0)."""
    if n <= 0:
        return 0.0, 1.0
    p = successes / n
    z2 = z * z
    denom = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def newcombe(s1: int, n1: int, s2: int, n2: int, z: float = Z95) -> tuple[float, float, float]:
    """``(p2 - p1, low, high)``: the change from sample 1 to sample 2 with Newcombe's interval."""
    p1 = s1 / n1 if n1 else 0.0
    p2 = s2 / n2 if n2 else 0.0
    l1, u1 = wilson(s1, n1, z)
    l2, u2 = wilson(s2, n2, z)
    d = p2 - p1
    low = d - math.sqrt((p2 - l2) ** 2 + (u1 - p1) ** 2)
    high = d + math.sqrt((u2 - p2) ** 2 + (p1 - l1) ** 2)
    return d, max(-1.0, low), min(1.0, high)


class Moments:
    """Count, sum, sum of squares, min and max of integers (exact, order-independent)."""

    __slots__ = ("n", "total", "squares", "low", "high")

    def __init__(self):
        self.n = self.total = self.squares = 0
        self.low = self.high = None

    def add(self, x) -> None:
        self.n += 1
        self.total += x
        self.squares += x * x
        self.low = x if self.low is None or x < self.low else self.low
        self.high = x if self.high is None or x > self.high else self.high

    @property
    def mean(self) -> float | None:
        return self.total / self.n if self.n else None

    @property
    def sd(self) -> float | None:
        """The sample standard deviation (n - 1), 0 for a single value."""
        if self.n < 2:
            return 0.0 if self.n else None
        var = (self.n * self.squares - self.total * self.total) / (self.n * (self.n - 1))
        return math.sqrt(max(var, 0))

    def ci(self, z: float = Z95) -> tuple[float, float] | None:
        if not self.n:
            return None
        half = z * self.sd / math.sqrt(self.n)
        return self.mean - half, self.mean + half

    def summary(self) -> dict:
        ci = self.ci()
        return {"mean": rnd(self.mean), "sd": rnd(self.sd), "min": self.low, "max": self.high,
                "ci95": [rnd(ci[0]), rnd(ci[1])] if ci else None}


def mean_difference(a: Moments, b: Moments, z: float = Z95) -> dict:
    """The change of the mean from ``a`` to ``b`` with Welch's normal-approximation interval."""
    if not a.n or not b.n:
        return {"base": rnd(a.mean), "compare": rnd(b.mean), "diff": None, "ci95": None, "significant": False}
    d = b.mean - a.mean
    half = z * math.sqrt(a.sd ** 2 / a.n + b.sd ** 2 / b.n)
    return {"base": rnd(a.mean), "compare": rnd(b.mean), "diff": rnd(d), "ci95": [rnd(d - half), rnd(d + half)],
            "significant": not (d - half <= 0 <= d + half)}


def rate_difference(s1: int, n1: int, s2: int, n2: int) -> dict:
    if not n1 or not n2:
        return {"base": None, "compare": None, "diff": None, "ci95": None, "significant": False}
    d, low, high = newcombe(s1, n1, s2, n2)
    return {"base": rnd(s1 / n1), "compare": rnd(s2 / n2), "diff": rnd(d), "ci95": [rnd(low), rnd(high)],
            "significant": not (low <= 0 <= high)}


def _t_density(x: float, df: int) -> float:
    c = math.lgamma((df + 1) / 2) - math.lgamma(df / 2) - 0.5 * math.log(df * math.pi)
    return math.exp(c - (df + 1) / 2 * math.log1p(x * x / df))


def _t_cdf_from_zero(x: float, df: int, steps: int = 400) -> float:
    """P(0 <= T <= x) by Simpson's rule: the density is smooth and x stays below ~13 here."""
    h = x / steps
    total = _t_density(0.0, df) + _t_density(x, df)
    for i in range(1, steps):
        total += (4 if i % 2 else 2) * _t_density(i * h, df)
    return total * h / 3


def t_quantile(p: float, df: int) -> float:
    """The ``p`` quantile (``p`` in [0.5, 1)) of Student's t with ``df`` degrees of freedom."""
    if df <= 0:
        return math.inf
    lo, hi = 0.0, 1.0
    while 0.5 + _t_cdf_from_zero(hi, df) < p and hi < 1e6:
        lo, hi = hi, hi * 2
    for _ in range(60):
        mid = (lo + hi) / 2
        if 0.5 + _t_cdf_from_zero(mid, df) < p:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def paired_difference(base: list[float], other: list[float], level: float = 0.95) -> dict:
    """The mean of ``other[i] - base[i]`` over games played on the same seeds, with Student's t
    interval: pairing removes what the seed decides from the spread (the interval is narrower
    than two independent samples' would be)."""
    diffs = [b - a for a, b in zip(base, other)]
    n = len(diffs)
    if n == 0:
        return {"base": None, "compare": None, "diff": None, "ci95": None, "significant": False, "n": 0}
    mean_a, mean_b = sum(base[:n]) / n, sum(other[:n]) / n
    d = sum(diffs) / n
    if n < 2:
        return {"base": rnd(mean_a), "compare": rnd(mean_b), "diff": rnd(d), "ci95": None, "significant": False, "n": n}
    sd = math.sqrt(sum((x - d) ** 2 for x in diffs) / (n - 1))
    half = t_quantile(0.5 + level / 2, n - 1) * sd / math.sqrt(n)
    return {"base": rnd(mean_a), "compare": rnd(mean_b), "diff": rnd(d), "ci95": [rnd(d - half), rnd(d + half)],
            "significant": not (d - half <= 0 <= d + half), "n": n}
