# The compiled layout of the piece index (Cython reads this beside prims_pieces.py; plain Python
# ignores it): a search builds an index for every clone and checks it at every run.
cimport cython

cdef class PieceIndex:
    cdef public dict at
    cdef public list pieces, objects, places
    cdef public object numbers

    cpdef dict _numbers(self)
    @cython.locals(at=dict, found=list)
    cpdef moved(self, list piece, src)
    @cython.locals(objects=list, places=list, n=Py_ssize_t, i=Py_ssize_t, x=list)
    cpdef bint still_valid(self, list pieces)


@cython.locals(at=dict, found=list, both=list, x=list)
cpdef dict _grouped(list pieces)

cpdef _remove(list pieces, list piece)

@cython.locals(ix=PieceIndex)
cpdef dict _index(g)

@cython.locals(index=dict, found=list)
cpdef _pieces_at(g, player, kd, where, bint mine)

@cython.locals(x=list)
cpdef _total(pieces)
