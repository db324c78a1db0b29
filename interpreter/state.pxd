# The compiled layout of State (Cython reads this beside state.py; plain Python ignores it): the
# engine's compiled modules read the state's fields directly, and through GameFields a game's
# (the nodes and the rules' compiled functions type ``g``), and the program's tables through
# ``g.prog`` (ProgramFields).  The copies' loop variables are typed lists, so that a slice is a C
# copy of the list rather than a generic subscript.
cimport cython

cdef class State:
    cdef public object players, humans, next_tile, rng, round, phase, finished, decisions, owned
    cdef public dict counters, orders, occ, tiles, supply, zones, pending
    cdef public list road, pieces, stack, deferred

    @cython.locals(new=State, memo=list)
    cpdef State clone(self, bint shared=*)
    cpdef list own_counter(self, str name)
    cpdef own_zone(self, str name)
    cpdef list own_order(self, str name)
    cpdef list own_piece(self, Py_ssize_t i)
    cdef _own_in(self, table, key, copy)
    @cython.locals(v=list)
    cpdef own_occupants(self, where, bint make=*)


# program.Program, a Python class, derives from it: what else it keeps is in its instance dictionary.
cdef class ProgramFields:
    cdef public list nodes, placeable_spaces, rounds
    cdef public dict triggers, counter_bounds, payment_ways, work_nodes, owner_nodes, on_build_nodes
    cdef public dict phase_nodes, effect_nodes, spaces, buildings, categories, counters, resources
    cdef public dict pieces, zones, orders, lets, enums, enum_index, _resets
    cdef public object game, score, worker_home, road_name, road_length, workable_kinds
    cdef public object setup_node, final_node, ends_if, max_rounds, tiebreak, root_id


cdef class GameFields:
    cdef public object rs, seed, variant, piece_index, work
    cdef public ProgramFields prog
    cdef public State s
    cpdef ask(self, player, prompt, options, node)
    cpdef ended(self)
    cpdef reset(self, when)
    cpdef emit(self, event, player, target)
    cpdef owner_of(self, where)
    cpdef work_body(self, where)
    cpdef return_one(self, where, p)
    cpdef return_road_beyond(self, upto)
    cpdef return_road_before(self, first)
    cpdef list build_options(self, p, category, discount)
    cpdef gain(self, p, amounts)
    cpdef pay(self, p, amounts, pos=*)
    cpdef pass_turn(self, p, order)
    cpdef place_worker(self, p, target)


@cython.locals(c=dict, z=dict, t=dict, table=dict, row=list, piece=list)
cpdef _own_all(State new)

@cython.locals(row=list)
cpdef list _copy_counter(list v)

cpdef list _copy_list(list v)

@cython.locals(new=dict, v=list)
cpdef dict _copy_lists(dict table)

@cython.locals(row=list)
cpdef _copy_zone(z)

@cython.locals(new=dict, by_id=dict, found=dict, j=Py_ssize_t)
cpdef dict _copy_env(dict env, list memo)

cpdef _copy_data(x)

cpdef list _copy_frame(list f, list memo)
