# The compiled layout of the piece index (Cython reads this beside prims_pieces.py; plain Python
# ignores it): a search builds an index for every clone and checks it at every run.
cimport cython
from provost.interpreter.state cimport State, GameFields

cdef class PieceIndex:
    cdef public dict at, mine
    cdef public list pieces, objects, places
    cdef public bint shared, checked
    cdef public object owned

    cpdef PieceIndex for_copy(self, list pieces)
    @cython.locals(table=dict)
    cpdef everyone(self, kind, where)
    @cython.locals(by_owner=dict)
    cpdef places_of(self, kind, owner)
    @cython.locals(by_owner=dict, table=dict)
    cpdef owned_by(self, kind, where, owner)
    @cython.locals(piece=list, everyone=dict, own=dict)
    cpdef moved(self, Py_ssize_t i, src)
    @cython.locals(owned=set, found=list)
    cpdef list _own(self, dict table, where)
    @cython.locals(objects=list, places=list, n=Py_ssize_t, i=Py_ssize_t, x=list)
    cpdef bint still_valid(self, list pieces)


@cython.locals(ix=PieceIndex, s=State)
cpdef list own_piece(GameFields g, Py_ssize_t i)

@cython.locals(j=Py_ssize_t, x=Py_ssize_t)
cpdef _take_out(list positions, Py_ssize_t i)

@cython.locals(at=dict, mine=dict, table=dict, by_owner=dict, x=list, i=Py_ssize_t)
cpdef tuple _grouped(list pieces)

@cython.locals(ix=PieceIndex, table=dict, found=list, places=list, i=Py_ssize_t)
cpdef _positions_at(GameFields g, player, kd, where, bint mine)

@cython.locals(j=Py_ssize_t)
cdef bint _listed_before(list places, Py_ssize_t i) except -1

@cython.locals(x=list)
cpdef _total(list pieces, at)

@cython.locals(ix=PieceIndex)
cpdef PieceIndex _piece_index(GameFields g)

cpdef _reduced(reduce, bint mine, GameFields g, player, kind, where)

@cython.locals(ix=PieceIndex, table=dict, slots=Py_ssize_t)
cpdef Py_ssize_t _room_left(dict slots_of, GameFields g, player, kind, w) except? -1

@cython.locals(out=list, players=Py_ssize_t, owner=Py_ssize_t)
cpdef list _hidden_pieces(GameFields g, me, kd, where)
