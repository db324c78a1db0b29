"""Expressions become Python functions built from syntax trees: the trees stay in a closed
language, and nothing a rule file says is ever Python code."""
from __future__ import annotations

import ast

import pytest

from provost.dsl.loader import load_checked
from provost.interpreter.engine import Game
from provost.interpreter.expressions import ExprCompiler
from provost.interpreter.program import program_for
from provost.interpreter.pycode import UnsafeCode, check_closed, make_functions


def _tree(source: str) -> ast.Module:
    return ast.parse(source)


@pytest.mark.parametrize("source", [
    "import os",
    "def _f0(g, env):\n    return __import__('os')",
    "def _f0(g, env):\n    return g.__class__",
    "def _f0(g, env):\n    return open",
    "def _f0(g, env):\n    return 1.5",
    "def _f0(g, env):\n    return b'x'",
    "def _f0(g, env):\n    return sorted(env, key=len)",
    "def _f0(g, env):\n    global x\n    return 1",
    "def _f0(g, env):\n    return [x for x in env]",
    "@staticmethod\ndef _f0(g, env):\n    return 1",
    "def run(g, env):\n    return 1",
    "def _f0(g, env, *rest):\n    return 1",
    "def _f0(g, env):\n    return (yield 1)",
])
def test_anything_outside_the_closed_language_is_refused(source):
    with pytest.raises(UnsafeCode):
        check_closed(_tree(source))


def test_the_closed_language_is_what_the_compiler_emits():
    check_closed(_tree("def _f0(g, env):\n    return [_l1 for _l1 in g.s.zones['x'] if _l1 not in env['y']]"))


def test_make_functions_checks_before_compiling():
    tree = _tree("def _f0(g, env):\n    return g.__dict__")
    with pytest.raises(UnsafeCode):
        make_functions(tree.body, {}, "<test>")


def test_made_functions_see_only_their_own_builtins():
    made = make_functions(_tree("def _f0(g, env):\n    return len(env)").body, {}, "<test>")
    assert made["_f0"](None, {"a": 1}) == 1
    assert "open" not in made["_f0"].__globals__["__builtins__"]


HOSTILE = "__import__('os').system('echo pwned')"


def test_a_rule_string_that_looks_like_python_is_only_a_string():
    compiler = ExprCompiler(program_for(load_checked("caylus")))
    e = {"e": "binop", "op": "+", "left": {"e": "str", "v": HOSTILE, "pos": [1, 1]},
         "right": {"e": "str", "v": "!", "pos": [1, 2]}, "pos": [1, 1]}
    f = compiler.compile(e, frozenset({"player"}))
    assert f(None, {"player": 0}) == HOSTILE + "!"


def test_a_name_that_looks_like_python_is_a_symbol():
    compiler = ExprCompiler(program_for(load_checked("caylus")))
    e = {"e": "binop", "op": "==", "left": {"e": "name", "id": "__class__", "pos": [1, 1]},
         "right": {"e": "name", "id": "x", "pos": [1, 2]}, "pos": [1, 1]}
    assert compiler.compile(e, frozenset({"player"}))(None, {"player": 0}) is False


def test_expressions_of_every_shipped_ruleset_compile_and_play():
    # Building a program compiles every expression of the rules through check_closed.
    for name in ("caylus", "caylus1303", "ys"):
        g = Game.new(load_checked(name), players=4, seed=1)
        assert g.legal_options()


def test_prepare_rewrites_trees_that_are_compiled_and_never_code_from_the_cache():
    # A rewrite before compiling (reading state tables first) must cost nothing when the code
    # comes from the cache, and must not change what the functions are called.
    class Cache:
        native = recorder = None        # no rules compiled ahead of time, no sources recorded
        shared = ()                     # no shipped module's units to share

        def __init__(self):
            self.kept = {}

        def next_unit(self, where, names):
            return self.kept.get((where, names))

        def keep(self, where, names):
            unit = self.kept[(where, names)] = [where, names, None, None]
            return unit

        def compiled(self, unit, codes):
            unit[2] = tuple(codes[n] for n in unit[1])

    prepared = []
    cache = Cache()
    source = "def _f0(g, env):\n    return len(env)"
    for _ in range(2):
        made = make_functions(_tree(source).body, {}, "<test>", cache, prepare=prepared.append)
        assert made["_f0"](None, {"a": 1}) == 1
    assert [d.name for d in prepared] == ["_f0"]          # the second build took the cached code


def test_a_comprehension_reads_each_state_table_once_before_it_runs():
    # Generated code reads `g.s.FIELD` for a comprehension into a local at the function's start,
    # so a listing makes one read however many values it goes through.
    from provost.interpreter import expressions

    u = expressions._Unit()
    body = ast.parse("def _f0(g, env):\n    return [_l1 for _l1 in env['xs'] if g.s.zones['locked'] != _l1"
                     " and g.s.zones['open']]").body[0].body
    u.function(body, None)
    fn = u.defs[0]
    first, rest = ast.unparse(fn.body[0]), ast.unparse(fn.body[1])
    local = first.split(" = ")[0]
    assert first == local + " = g.s.zones" and "g.s" not in rest and rest.count(local + "[") == 2
