"""Small, exact statistics for simulation reports (stdlib only).

Everything is computed from integer sums (count, sum, sum of squares), so the
result does not depend on the order the games arrived in: a report is the same
for any number of jobs and any backend.  Intervals are 95% (z = 1.96):

- a proportion: the Wilson score interval (good for small counts and rates near 0 or 1);
- a difference of two proportions: Newcombe's hybrid score interval (method 10),
  built from the two Wilson intervals;
- a mean: Student's t interval, mean +- t(0.975, n - 1) * sd / sqrt(n) (z would be 30% too
  narrow at n = 5);
- a difference of two means on the same seeds: the paired t interval of the per-seed
  differences (`paired_difference`): the seeds' shared luck cancels, so it is narrower than
  treating the two runs as independent;
- a difference of two means otherwise: Welch's t interval (Welch-Satterthwaite degrees of freedom).
"""
from __future__ import annotations

import math

Z95 = 1.959963984540054
DIGITS = 4
"""Reports round to this many decimals, so that they are short and compare equal as text."""


# t(0.975, df) for df = 1..30 (tables of Student's t); beyond, a Cornish-Fisher expansion in 1/df
# is within 1e-4 of the exact quantile.
_T975 = [12.7062, 4.3027, 3.1824, 2.7764, 2.5706, 2.4469, 2.3646, 2.3060, 2.2622, 2.2281, 2.2010, 2.1788,
         2.1604, 2.1448, 2.1314, 2.1199, 2.1098, 2.1009, 2.0930, 2.0860, 2.0796, 2.0739, 2.0687, 2.0639,
         2.0595, 2.0555, 2.0518, 2.0484, 2.0452, 2.0423]


def t975(df: float) -> float:
    """The 97.5% quantile of Student's t with ``df`` degrees of freedom (the 95% two-sided factor)."""
    if df < 1:
        return float("inf")
    if df <= 30 and float(df).is_integer():
        return _T975[int(df) - 1]
    z = Z95
    return (z + (z ** 3 + z) / (4 * df) + (5 * z ** 5 + 16 * z ** 3 + 3 * z) / (96 * df ** 2)
            + (3 * z ** 7 + 19 * z ** 5 + 17 * z ** 3 - 15 * z) / (384 * df ** 3))


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

    def ci(self) -> tuple[float, float] | None:
        """The 95% t interval of the mean (a single value: that value)."""
        if not self.n:
            return None
        half = t975(self.n - 1) * self.sd / math.sqrt(self.n) if self.n > 1 else 0.0
        return self.mean - half, self.mean + half

    def summary(self) -> dict:
        ci = self.ci()
        return {"mean": rnd(self.mean), "sd": rnd(self.sd), "min": self.low, "max": self.high,
                "ci95": [rnd(ci[0]), rnd(ci[1])] if ci else None}


def welch_df(a: Moments, b: Moments) -> float:
    va, vb = a.sd ** 2 / a.n, b.sd ** 2 / b.n
    denom = (va * va / (a.n - 1) if a.n > 1 else 0) + (vb * vb / (b.n - 1) if b.n > 1 else 0)
    return (va + vb) ** 2 / denom if denom else float(max(a.n + b.n - 2, 1))


def mean_difference(a: Moments, b: Moments) -> dict:
    """The change of the mean from ``a`` to ``b`` (independent samples) with Welch's t interval."""
    if not a.n or not b.n:
        return {"base": rnd(a.mean), "compare": rnd(b.mean), "diff": None, "ci95": None, "significant": False}
    d = b.mean - a.mean
    half = t975(welch_df(a, b)) * math.sqrt(a.sd ** 2 / a.n + b.sd ** 2 / b.n)
    return {"base": rnd(a.mean), "compare": rnd(b.mean), "diff": rnd(d), "ci95": [rnd(d - half), rnd(d + half)],
            "significant": not (d - half <= 0 <= d + half)}


def rate_difference(s1: int, n1: int, s2: int, n2: int) -> dict:
    if not n1 or not n2:
        return {"base": None, "compare": None, "diff": None, "ci95": None, "significant": False}
    d, low, high = newcombe(s1, n1, s2, n2)
    return {"base": rnd(s1 / n1), "compare": rnd(s2 / n2), "diff": rnd(d), "ci95": [rnd(low), rnd(high)],
            "significant": not (low <= 0 <= high)}


def paired_difference(base: list, other: list, bounds: tuple | None = None) -> dict:
    """The change from ``base`` to ``other``, values paired by seed (same length, same order): the
    mean of the per-seed differences with its t interval ("paired": true, "n" pairs), clipped to
    ``bounds`` (a rate's change lies in -1..1)."""
    diffs, a, b = Moments(), Moments(), Moments()
    for x, y in zip(base, other):
        diffs.add(y - x)
        a.add(x)
        b.add(y)
    if not diffs.n:
        return {"base": None, "compare": None, "diff": None, "ci95": None, "significant": False,
                "paired": True, "n": 0}
    lo, hi = diffs.ci()
    if bounds is not None:
        lo, hi = max(bounds[0], lo), min(bounds[1], hi)
    return {"base": rnd(a.mean), "compare": rnd(b.mean), "diff": rnd(diffs.mean), "ci95": [rnd(lo), rnd(hi)],
            "significant": not (lo <= 0 <= hi) and diffs.n > 1, "paired": True, "n": diffs.n}
