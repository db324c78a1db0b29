# The compiled layout of the effects' module functions (Cython reads this beside effects.py;
# plain Python ignores it): those the compiled statements call at every step type the game.
from provost.interpreter.state cimport GameFields

cpdef _push_effect(entry, make_scope, GameFields g, dict env)
cpdef _gain(amounts, GameFields g, dict env)
cpdef _pay(amounts, pos, GameFields g, dict env)
cpdef _pass_turn(order, GameFields g, dict env)
cpdef _place_worker(target, GameFields g, dict env)
