# The compiled layout of the runtime helpers (Cython reads this beside runtime.py; plain Python
# ignores it): ``counted`` runs for every list a rule builds, and reads and writes the game's
# count of work as a field (state.pxd's GameFields) rather than as a Python attribute.  The
# functions declared here are the ones the rules' compiled functions call through C
# (native.C_FUNCTIONS).
cimport cython
from provost.interpreter.state cimport GameFields

cpdef counted(GameFields g, xs, pos)

cpdef list kept_entry(dict memo, value, list entry)
cpdef kept_list_entry(dict memo, value)

@cython.locals(i=Py_ssize_t)
cpdef Py_ssize_t index_in(list xs, x) except -2
