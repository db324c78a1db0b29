# The compiled layout the zones' functions see (Cython reads this beside prims_zones.py; plain
# Python ignores it): their game is a GameFields and its state a State, whose fields they read
# in C rather than by name; the picks of `combinations` recurse in C.
cimport cython
from provost.interpreter.state cimport GameFields, State

@cython.locals(groups=list, out=list)
cpdef list _distinct_picks(list items, n)

@cython.locals(j=Py_ssize_t, k=Py_ssize_t, group=list)
cpdef _pick(list groups, Py_ssize_t start, Py_ssize_t left, list pick, list used, list out)
