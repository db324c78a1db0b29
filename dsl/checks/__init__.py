"""Semantic checks over a resolved ruleset.  Each check is a function
``check_x(ruleset) -> list[Diagnostic]``; adding a check is adding it to CHECKS."""
from __future__ import annotations

CHECKS: list = []


def run_checks(ruleset) -> list:
    out = []
    for check in CHECKS:
        out.extend(check(ruleset))
    return out
