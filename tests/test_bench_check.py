"""tools/bench_check.py runs and reports its figure (the figure itself is machine-dependent)."""
from __future__ import annotations

import re

from provost.tools.dev import bench_check


def test_bench_check_reports_the_figure(capsys):
    assert bench_check.main(["--runs", "1"]) == 0
    out = capsys.readouterr().out
    assert re.match(r"rulesets/caylus\.rules: parse \+ check -?\d+ ms beyond interpreter start-up \(median of 1; "
                    r"wall \d+ ms vs \d+ ms for 'python -c pass'; CPU -?\d+ ms beyond, \d+ vs \d+\)\n$", out), out


def test_budget_exit_code(capsys):
    assert bench_check.main(["--runs", "1", "--budget", "1000000"]) == 0
    assert bench_check.main(["--runs", "1", "--budget", "-1000000"]) == 1
