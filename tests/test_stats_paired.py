"""Statistics of tools/sim/stats.py: t intervals for means, paired differences for same-seed runs."""
from __future__ import annotations

import math
import random

import pytest

from provost.tools.sim.stats import Moments, mean_difference, paired_difference, t975


@pytest.mark.parametrize("df, t", [(1, 12.7062), (4, 2.7764), (30, 2.0423), (40, 2.0211), (120, 1.9799),
                                   (1000, 1.9623)])
def test_t_quantiles(df, t):
    assert t975(df) == pytest.approx(t, abs=2e-4)


def test_a_mean_interval_uses_t():
    m = Moments()
    for x in (3, 5, 7, 9, 11):
        m.add(x)
    lo, hi = m.ci()
    half = 2.7764 * m.sd / math.sqrt(5)             # z would give 1.96: 30% narrower
    assert (lo, hi) == pytest.approx((7 - half, 7 + half), abs=1e-3)


def test_paired_differences_cancel_the_seeds_luck():
    r = random.Random(1)
    luck = [r.gauss(50, 10) for _ in range(200)]      # each seed's shared luck
    base = [x + r.gauss(0, 2) for x in luck]
    other = [x + 1 + r.gauss(0, 2) for x in luck]     # the variant adds 1 point
    paired = paired_difference(base, other)
    a, b = Moments(), Moments()
    for x, y in zip(base, other):
        a.add(x)
        b.add(y)
    unpaired = mean_difference(a, b)
    assert paired["paired"] and paired["n"] == 200
    assert paired["ci95"][0] <= paired["diff"] <= paired["ci95"][1]
    assert paired["significant"] and not unpaired["significant"]
    width = lambda d: d["ci95"][1] - d["ci95"][0]  # noqa: E731
    assert width(paired) < width(unpaired) / 3


def test_sim_compare_is_paired(capsys):
    import json
    from provost.tools.cli import main
    assert main(["sim", "caylus", "--games", "3", "--compare", "simplified_favor", "--format", "json"]) == 0
    d = json.loads(capsys.readouterr().out)["differences"]
    assert d["paired_seeds"] == 3 and d["by_seat"][0]["score"]["paired"]


def test_the_compare_plot_draws_the_differences(tmp_path, capsys):
    pytest.importorskip("matplotlib")
    from provost.tools.cli import main
    png = tmp_path / "cmp.png"
    assert main(["sim", "caylus", "--games", "2", "--compare", "simplified_favor", "--plot", str(png)]) == 0
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
