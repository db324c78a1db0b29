# The compiled layout the zones' functions see (Cython reads this beside prims_zones.py; plain
# Python ignores it): their game is a GameFields and its state a State, whose fields they read
# in C rather than by name.
from provost.interpreter.state cimport GameFields, State
