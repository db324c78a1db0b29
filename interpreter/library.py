"""Registry for primitives that live outside the core compilers.

A module that adds a general mechanism (pieces with values, decks, contests)
registers its builders here, so new primitives do not grow one file forever:

    @effect("draw")
    def build_draw(compiler, st, scope) -> int: ...      # returns a node id

    @function("majority")
    def build_majority(compiler, pos): ...                # returns f(g, player, *argument values)

A function's arguments are computed by the expression that calls it (one Python
function per expression, interpreter/expressions.py); ``player`` is the acting
player (the other one inside ``X of P``).

Every name must also have a Signature in dsl/primitives.py (the checker's
half of the contract); tests/test_primitives.py checks the two agree.
"""
from __future__ import annotations

EFFECT_BUILDERS: dict = {}
FUNCTION_BUILDERS: dict = {}


def effect(name: str):
    def register(fn):
        EFFECT_BUILDERS[name] = fn
        return fn
    return register


def function(name: str):
    def register(fn):
        FUNCTION_BUILDERS[name] = fn
        return fn
    return register


def load_all() -> None:
    """Import the modules that register primitives (kept explicit: no import-time magic)."""
    from . import prims_pieces, prims_state, prims_tiles, prims_zones  # noqa: F401
