"""Graph checks: the structure of a game (road, activation dependencies, reachability).

`GRAPH_CHECKS` lists the check functions (same signature as dsl/checks: `check_x(ruleset) ->
list[Diagnostic]`); dsl/checks/__init__.py runs them after the other checks, on rulesets those
found no errors in (their inferences assume names resolve and calls are well formed).  Codes:
G5xx road ordering (road.py, activation.py), G6xx activation dependencies (activation.py,
triggers.py), G7xx reachability (reach.py).  docs/graph_checks.md documents every code and the
inferences behind them.  networkx is imported lazily: by a check only when a graph may hold a
cycle, and by `provost graph`.
"""
from __future__ import annotations

from .activation import check_activation
from .reach import check_reachability
from .road import check_road
from .triggers import check_trigger_cycles


def _in_checked_file(check):
    """Keep errors wherever they are, but warnings and notes only in the checked file: checking a
    variant does not repeat its base's warnings (check the base for those)."""
    def run(ruleset):
        chain = getattr(ruleset, "chain", None) or []
        main = chain[-1] if chain else None
        return [d for d in check(ruleset) if d.severity == "error" or main is None or d.path == main]
    run.__name__, run.__doc__ = check.__name__, check.__doc__
    run.after_clean = True        # run only when the other checks found no errors
    return run


GRAPH_CHECKS: list = [_in_checked_file(c) for c in (check_road, check_activation, check_trigger_cycles,
                                                    check_reachability)]
