# The compiled layout of the nodes (Cython reads this beside nodes.py; plain Python ignores it):
# a node's fields, the state's and the locals typed here are read directly, not through
# Python's attribute lookup.
cimport cython
from provost.interpreter.state cimport State, GameFields

cdef class Node:
    cdef public object id, pos, file
    cpdef run(self, GameFields g, list frame)
    cpdef choose(self, GameFields g, list frame, entry)

cdef class Seq(Node):
    cdef public list children
    cdef public object atoms
    @cython.locals(pc=Py_ssize_t, last=Py_ssize_t, s=State, st=list, atoms=list)
    cpdef run(self, GameFields g, list frame)

cdef class Atom(Node):
    cdef public object fn
    cpdef run(self, GameFields g, list frame)

cdef class If(Node):
    cdef public object branches, orelse
    cpdef run(self, GameFields g, list frame)

cdef class For(Node):
    cdef public object var, iter, body, acting
    @cython.locals(st=list, items=list, i=Py_ssize_t, env=dict, outer=dict)
    cpdef run(self, GameFields g, list frame)

cdef class As(Node):
    cdef public object who, body
    @cython.locals(env=dict, outer=dict)
    cpdef run(self, GameFields g, list frame)

cdef class Repeat(Node):
    cdef public object times, cond, body
    @cython.locals(st=list)
    cpdef run(self, GameFields g, list frame)

cdef class Turns(Node):
    cdef public object order, body
    @cython.locals(st=list, data=list, passed=list, n=Py_ssize_t, i=Py_ssize_t, new=dict, env=dict)
    cpdef run(self, GameFields g, list frame)

cdef class Break(Node):
    @cython.locals(st=list)
    cpdef run(self, GameFields g, list frame)

cdef class Option:
    cdef public object name, params, when, requires, body, pos, bindings
    cdef public bint when_fixed, requires_fixed, filtered

cdef class Choose(Node):
    cdef public object title, ask_always
    cdef public list options
    @cython.locals(opt=Option, ids=list, out=list, kept=list, local=dict)
    cpdef tuple legal(self, GameFields g, dict env)
    @cython.locals(s=State, ids=list, legal=list, env=dict, opt=Option)
    cpdef run(self, GameFields g, list frame)
    @cython.locals(env=dict, opt=Option)
    cpdef choose(self, GameFields g, list frame, entry)

cdef _enter(list frame, body, env)

cdef class Activate(Node):
    cdef public object spaces, road_upto, road_from
    @cython.locals(s=State, d=list)
    cpdef run(self, GameFields g, list frame)
    @cython.locals(s=State)
    cpdef _target(self, GameFields g, list d)

cdef class BuildTile(Node):
    cdef public object category, discount
    cpdef run(self, GameFields g, list frame)
    cpdef choose(self, GameFields g, list frame, entry)

cdef class Root(Node):
    @cython.locals(s=State)
    cpdef run(self, GameFields g, list frame)
