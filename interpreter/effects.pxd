# The compiled layout the statements' functions use (Cython reads this beside effects.py; plain
# Python ignores it): the closures run at almost every step annotate the game as GameFields.
from provost.interpreter.state cimport GameFields
