"""Semantic checks over a resolved ruleset.  Each check is a function
``check_x(ruleset) -> list[Diagnostic]``; adding a check is adding it to CHECKS.

Code families: N1xx names (names.py), T2xx types (types.py; T217-T219 values.py; T220, an
option's values, options.py), R3xx ranges (ranges.py), A4xx calls and arity (calls.py), C8xx
definitions that never finish (cycles.py; loops that never end, `repeat while` and `turns`:
loops.py).  The checks share one symbol table and one scoped walk of the ruleset (model.py),
built once per `run_checks`.  The graph checks (G5xx-G7xx, dsl/graph/) come
last and run only when the checks before them found no errors (`after_clean`).
"""
from __future__ import annotations

from .calls import check_effect_calls, check_function_calls, check_worker_counter
from .cycles import check_written_depth, check_effect_cycles, check_let_cycles
from .loops import check_constant_loops, check_endless_turns, check_unchanging_loops
from .options import check_option_values
from .values import check_values
from .model import shared_model
from .names import check_duplicates, check_game, check_local_names, check_undefined
from .ranges import check_counters, check_numbers, check_players, check_road_positions, check_tables
from .types import (check_amounts, check_arg_kinds, check_attributes, check_indexes, check_of, check_placement,
                    check_references, check_set_targets)
from ..graph import GRAPH_CHECKS

CHECKS: list = [
    check_game,
    check_duplicates,
    check_undefined,
    check_local_names,
    check_effect_calls,
    check_function_calls,
    check_worker_counter,
    check_amounts,
    check_arg_kinds,
    check_set_targets,
    check_indexes,
    check_of,
    check_references,
    check_placement,
    check_attributes,
    check_option_values,
    check_players,
    check_counters,
    check_numbers,
    check_road_positions,
    check_tables,
    check_let_cycles,
    check_effect_cycles,
    check_written_depth,
    check_constant_loops,
    check_unchanging_loops,
    check_endless_turns,
    check_values,
] + GRAPH_CHECKS


def run_checks(ruleset) -> list:
    out = []
    with shared_model(ruleset):
        for check in CHECKS:
            if getattr(check, "after_clean", False) and any(d.severity == "error" for d in out):
                continue
            out.extend(check(ruleset))
    return out
