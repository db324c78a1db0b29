"""The effect library's contract: every primitive the checker accepts is implemented, every
implemented primitive is declared for the checker, and each one can say itself in English."""
from __future__ import annotations

import pytest

from provost.dsl.primitives import EFFECTS, FUNCTIONS
from provost.interpreter.effects import EffectCompiler
from provost.interpreter.expressions import ExprCompiler
from provost.interpreter.library import EFFECT_BUILDERS, FUNCTION_BUILDERS

CONTROL = {"pay", "gain"}   # implemented as p_ methods like the rest


def _implemented_effects():
    return {n[2:] for n in dir(EffectCompiler) if n.startswith("p_")} | set(EFFECT_BUILDERS)


def _implemented_functions():
    return {n[2:] for n in dir(ExprCompiler) if n.startswith("f_")} | set(FUNCTION_BUILDERS)


def test_every_declared_effect_is_implemented():
    assert set(EFFECTS) - _implemented_effects() == set()


def test_every_implemented_effect_is_declared():
    assert _implemented_effects() - set(EFFECTS) == set()


def test_every_declared_function_is_implemented():
    assert set(FUNCTIONS) - _implemented_functions() == set()


def test_every_implemented_function_is_declared():
    assert _implemented_functions() - set(FUNCTIONS) == set()


def test_every_primitive_has_a_sentence():
    missing = [n for n, s in list(EFFECTS.items()) + list(FUNCTIONS.items()) if not s.says.strip()]
    assert missing == []


def test_combinations_gives_each_different_pick_once_in_the_order_itertools_first_finds_it():
    """`combinations` goes through the different picks alone (prims_zones._distinct_picks), not
    every combination of the positions: the same picks, in the same order, of the same items
    (equal items of different types, 1 and True, are not swapped for each other)."""
    import itertools
    import random

    combos = FUNCTION_BUILDERS["combinations"](None, [1, 1])

    def through_every_combination(xs, n):
        out = []
        for combo in itertools.combinations(sorted(xs), n):
            if list(combo) not in out:
                out.append(list(combo))
        return out

    assert combos(None, 0, [3, 1, 3], 2) == [[1, 3], [3, 3]]
    rng = random.Random(7)
    pools = ([0, 1, 2, 3], list("abc"), [[0, 1], [1, 0], [0, 0]], [1, True, 2, 1.0, 0, False])
    for _ in range(3000):
        pool = rng.choice(pools)
        xs = [rng.choice(pool) for _ in range(rng.randrange(9))]
        n = rng.randrange(len(xs) + 2)
        got, want = combos(None, 0, xs, n), through_every_combination(xs, n)
        assert got == want and [[type(x) for x in p] for p in got] == [[type(x) for x in p] for p in want], (xs, n)
    assert combos(None, 0, [2, 1], True) == [[1], [2]]      # a bool is its int, as itertools takes it
    for bad in (1.5, "2"):
        with pytest.raises(TypeError):          # E101, a value of the wrong kind
            combos(None, 0, [1, 2], bad)
    from provost.interpreter.expressions import RuleRuntimeError
    with pytest.raises(RuleRuntimeError, match="combinations needs a count of 0 or more, not -1"):
        combos(None, 0, [1, 2], -1)             # itertools' ValueError was an internal error


def test_rank_by_orders_as_a_stable_sort_on_the_keys_and_refuses_what_it_refused():
    """`rank_by` with 0 or 1 rows skips the sort, not the checks: the same answers and errors."""
    from provost.interpreter.expressions import RuleRuntimeError

    rank_by = FUNCTION_BUILDERS["rank_by"](None, [1, 1])
    assert rank_by(None, 0, []) == []
    assert rank_by(None, 0, [["a", 2]]) == ["a"]
    assert rank_by(None, 0, [["a", 1, 5], ["b", 2, 0], ["c", 1, 5], ["d", 2, 1]]) == ["d", "b", "a", "c"]
    for bad in ([5], [None], [{1: 2}], 5):
        with pytest.raises(RuleRuntimeError, match="rank_by needs rows"):
            rank_by(None, 0, bad)
    with pytest.raises(IndexError):
        rank_by(None, 0, [[]])          # no item: the engine reports it at the rule's place
