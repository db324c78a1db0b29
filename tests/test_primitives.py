"""The effect library's contract: every primitive the checker accepts is implemented, every
implemented primitive is declared for the checker, and each one can say itself in English."""
from __future__ import annotations

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
