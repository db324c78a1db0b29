# The compiled layout of Game (Cython reads this beside engine.py; plain Python ignores it): the
# engine reads the game's fields and the state's directly, and its hot methods type their locals.
cimport cython
from provost.interpreter.state cimport State, GameFields
from provost.interpreter.nodes cimport Node
from provost.interpreter.prims_pieces cimport PieceIndex
from provost.interpreter.runtime cimport index_in

cdef class Game(GameFields):

    @cython.locals(s=State, pend=dict, frame=list, node=Node, at=Py_ssize_t)
    cpdef apply(self, option)
    cpdef ask(self, player, prompt, options, node)
    cpdef ended(self)
    cpdef reset(self, when)
    cpdef owner_of(self, where)
    cpdef work_body(self, where)
    cpdef return_road_beyond(self, upto)
    cpdef return_road_before(self, first)
    cpdef pass_turn(self, p, order)
    cpdef place_worker(self, p, target)
    @cython.locals(g=Game, ix=PieceIndex)
    cpdef clone(self, bint shared=*)
    @cython.locals(s=State, stack=list, nodes=list, f=list, node=Node, ix=PieceIndex, at=Py_ssize_t,
                   limit=Py_ssize_t, step=Py_ssize_t)
    cpdef _run(self)
    @cython.locals(s=State, bounds=dict, row=list)
    cpdef gain(self, p, amounts)
    @cython.locals(s=State)
    cpdef pay(self, p, amounts, pos=*)
    @cython.locals(s=State, occ=dict, out=list, here=list, tiles=dict, slots=Py_ssize_t, workable=frozenset)
    cpdef list open_spaces(self, p)
    @cython.locals(here=list)
    cpdef return_one(self, where, p)
    cpdef emit(self, event, player, target)
    @cython.locals(road=list, i=Py_ssize_t)
    cpdef first_free_slot(self)
    @cython.locals(s=State, have=dict, out=list, sites=list)
    cpdef list build_options(self, p, category, discount)
    cpdef list _payments(self, cost, discount, dict have)
    cpdef list _payment_ways(self, cost, discount)

cpdef bint _affords(dict have, dict pay)
