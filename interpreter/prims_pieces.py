# cython: nonecheck=True, annotation_typing=True
# (compiled, g is typed as GameFields here: a None raises an AttributeError instead of reading a null;
# the annotations are C types, and prims_pieces.pxd gives those of the functions it declares)
"""Pieces with values: tokens a player owns, each with a number, that sit behind
a screen, in front of it, or on board spaces, face up or face down (Ys's brokers).

A piece is ``[kind, owner, value, where, face_up, seen_by, placed]``: ``where`` is a
board space or one of the kind's player zones (``screen``, ``front``...);
``seen_by`` is a bit set of players who were shown a face-down piece; ``placed`` is the number
of the decision during which it last moved (0: never), so that face-down pieces are listed in
the order they were placed, which carries no value (the state's order follows the values).  A
value set by ``set_piece_value`` is an eighth entry, dropped when the piece is gathered.  Who
may see a value is decided in one place, ``visible_value``, which observations use.
"""
from __future__ import annotations

import types
from functools import partial
from operator import itemgetter

from . import nodes as N
from .expressions import RuleRuntimeError
from .library import effect, function
from .runtime import short_repr
from .state import GameFields

KIND, OWNER, VALUE, WHERE, UP, SEEN, PLACED, OVERRIDE = range(8)
assert (KIND, OWNER, VALUE, WHERE, UP, SEEN, PLACED, OVERRIDE) == tuple(range(8))   # written as literals where it counts


def visible_value(g, piece, viewer):
    """The piece's value as ``viewer`` may know it, or None."""
    if viewer == piece[OWNER]:
        return piece[VALUE]
    private = g.prog.pieces[piece[KIND]]["private"]
    if piece[WHERE] in private:
        return None
    if piece[UP] or (piece[SEEN] >> viewer) & 1:
        return piece[VALUE]
    return None


def own_piece(g, i):
    """The piece at position ``i`` of the state's list, the state's own to change: a clone shares
    its pieces with the game it was taken from until one changes (`State.own_piece`).  The
    index learns of the copy, so that it still finds the pieces it knows."""
    s = g.s
    if s.owned is None:                 # never cloned: every piece its own (most games)
        return s.pieces[i]
    piece = s.own_piece(i)
    ix = g.piece_index
    if ix is not None and ix.checked and ix.pieces is s.pieces:
        # (an index not checked in this run may describe pieces changed from outside: it is
        # left to fail its check rather than be told this copy is what it indexed)
        ix.objects[i] = piece
    return piece


def _where_list(v):
    return v if type(v) is list else [v]


def _kind(c, arg):
    if arg["e"] != "name" or arg["id"] not in c.p.pieces:
        raise RuleRuntimeError("expected a kind of pieces", arg["pos"])
    return arg["id"]


def _player_of(c, st, scope):
    who = st["kw"].get("owner")
    return c.ex.compile(who, scope) if who is not None else None


@effect("place_piece")
def build_place_piece(c, st, scope):
    """place_piece KIND, VALUE, FROM, TO, FACE -- one of the acting player's pieces moves."""
    kind = _kind(c, st["args"][0])
    value, src, dst, face = (c.ex.compile(a, scope) for a in st["args"][1:5])
    owner = _player_of(c, st, scope)
    pos = st["pos"]

    def place_piece(g: GameFields, env: dict):
        p, v, f, t = env["player"], value(g, env), src(g, env), dst(g, env)
        if owner is not None:
            p = owner(g, env)       # a piece of another seat, e.g. a neutral player's
        # The first such piece in the state's order (pieces alike may differ in who has seen them).
        # (Typed locals and literal indexes, compiled to C: 2 VALUE, 3 WHERE, 4 UP, 5 SEEN, 6 PLACED.)
        ix: PieceIndex = _piece_index(g)
        pieces: list = ix.pieces
        found = [i for i in ix.owned_by(kind, f, p) if pieces[i][2] == v]
        if not found:
            raise RuleRuntimeError("player %d has no %s of value %s in %s" % (p, kind, short_repr(v), short_repr(f)), pos)
        i = min(found)
        piece: list = own_piece(g, i)
        piece[3] = t
        ix.moved(i, f)                      # kept: several moves a turn, queries in between
        fc = face(g, env)
        if fc != "keep":
            piece[4] = 1 if fc == "up" else 0
            piece[5] = 0
        piece[6] = g.s.decisions + 1
        g.emit("piece_placed", p, t)
    return c.p.add(N.Atom(place_piece), st["pos"])


@effect("gather_pieces")
def build_gather_pieces(c, st, scope):
    """gather_pieces KIND, FROM, TO -- every player's pieces at FROM (a place or list) go to TO, face down."""
    kind = _kind(c, st["args"][0])
    src, dst = (c.ex.compile(a, scope) for a in st["args"][1:3])
    only = _player_of(c, st, scope)

    def gather(g: GameFields, env: dict):
        to = dst(g, env)
        who = only(g, env) if only is not None else None
        ix: PieceIndex = _piece_index(g)
        for w in set(_where_list(src(g, env))):
            for i in list(ix.everyone(kind, w) if who is None else ix.owned_by(kind, w, who)):
                piece: list = own_piece(g, i)
                piece[3] = to                   # (literal indexes: 3 WHERE, 4 UP, 5 SEEN, 6 PLACED)
                ix.moved(i, w)
                piece[4] = 0
                piece[5] = 0
                piece[6] = g.s.decisions + 1
                if len(piece) > OVERRIDE:
                    del piece[OVERRIDE:]
    return c.p.add(N.Atom(gather), st["pos"])


@effect("reveal_pieces")
def build_reveal_pieces(c, st, scope):
    kind = _kind(c, st["args"][0])
    where = c.ex.compile(st["args"][1], scope)

    def reveal(g: GameFields, env: dict):
        ix: PieceIndex = _piece_index(g)
        pieces: list = ix.pieces
        for w in set(_where_list(where(g, env))):
            for i in ix.everyone(kind, w):
                if pieces[i][4] != 1:               # 4 is UP (a literal index compiles to C)
                    own_piece(g, i)[4] = 1
    return c.p.add(N.Atom(reveal), st["pos"])


@effect("show_piece")
def build_show_piece(c, st, scope):
    """show_piece KIND, OWNER, AT, N -- the acting player sees the N-th face-down piece of OWNER at AT."""
    kind = _kind(c, st["args"][0])
    owner, at, n = (c.ex.compile(a, scope) for a in st["args"][1:4])

    def show(g: GameFields, env: dict):
        hidden = _hidden_at(g, kind, owner(g, env), at(g, env))
        k = n(g, env)
        if 0 <= k < len(hidden):
            shown = hidden[k]
            i = next(i for i, x in enumerate(g.s.pieces) if x is shown)
            own_piece(g, i)[SEEN] |= 1 << env["player"]
    return c.p.add(N.Atom(show), st["pos"])


def _hidden_at(g, kind, owner, at):
    """The face-down pieces of ``owner`` at ``at``, in the order they were placed there (pieces
    placed in one decision: in the state's order), an order that says nothing of their values."""
    ix: PieceIndex = _piece_index(g)
    here = ix.owned_by(kind, at, owner)
    if not here:
        return []
    pieces: list = ix.pieces
    down = [pieces[i] for i in sorted(here) if not pieces[i][UP]]    # in the state's order ...
    return sorted(down, key=itemgetter(PLACED)) if len(down) > 1 else down    # ... then by when placed


@effect("set_piece_value")
def build_set_piece_value(c, st, scope):
    """set_piece_value KIND, VALUE, AT, NEW -- one of the acting player's pieces at AT counts as NEW until gathered."""
    kind = _kind(c, st["args"][0])
    value, at, new = (c.ex.compile(a, scope) for a in st["args"][1:4])

    def set_value(g: GameFields, env: dict):
        p, v, w = env["player"], value(g, env), at(g, env)
        for i, piece in enumerate(g.s.pieces):
            if piece[KIND] == kind and piece[OWNER] == p and piece[WHERE] == w and piece[VALUE] == v:
                own_piece(g, i).append(new(g, env))     # an override; gather_pieces drops it
                return
    return c.p.add(N.Atom(set_value), st["pos"])


def _total(pieces, at) -> int:
    """The values of the pieces at positions ``at`` added up, a value set by ``set_piece_value``
    counting instead of the printed one (7 is OVERRIDE, 2 VALUE: literal indexes compile to C)."""
    total = 0
    for i in at:
        x = pieces[i]
        total += x[7] if len(x) > 7 else x[2]
    return total


def _values(pieces, at) -> list:
    """The printed values of the pieces at positions ``at``, smallest first."""
    return sorted([pieces[i][2] for i in at])


def _count(pieces, at) -> int:
    return len(at)


def _owners(pieces, at) -> list:
    """The seats owning a piece at positions ``at``, in seat order."""
    return sorted({pieces[i][1] for i in at})


# ------------------------------------------------------------------ functions
def _positions_at(g, player, kd, where, mine):
    """The positions in the state's list of the pieces of kind ``kd`` on the places ``where``
    (``player``'s only if ``mine``).

    In no particular order: every caller reduces them (sums, counts, sorted values)."""
    ix = g.piece_index
    if ix is None or not ix.checked:        # (_piece_index's own test, written out: a hot path)
        ix = _piece_index(g)
    table = ix.places_of(kd, player) if mine else ix.at.get(kd)
    if table is None:
        return ()
    if type(where) is list:
        places = where
        found = []
        if _COMPILED:
            for i in range(len(places)):
                here = table.get(places[i])
                if here is not None and not _listed_before(places, i):
                    found.extend(here)
        else:       # as Python, a set of the places costs less than a call per place
            for w in (set(places) if len(places) > 1 else places):
                here = table.get(w)
                if here is not None:
                    found.extend(here)
        return found
    return table.get(where, ())


def _listed_before(places, i):
    """Whether ``places[i]`` is also one of the places before it (counted there already).
    Compiled, a loop over the few places a rule lists, rather than a set of them: building and
    hashing a set cost more than the comparisons, which find the same string objects at once."""
    w = places[i]
    for j in range(i):
        if places[j] == w:
            return True
    return False


class PieceIndex:
    """The pieces by kind and place, and by kind, owner and place, as positions in the state's
    list of pieces, in no particular order, for the rules that count them.

    ``at[kind][place]`` and ``mine[kind][owner][place]``: nested tables whose keys are the
    strings and seats the rules already hold, so that a lookup hashes no tuple (a lookup by a
    tuple key builds it, hashes it and compares it: three times the cost of a string's).

    Built on first use and kept up to date by ``place_piece`` and ``gather_pieces``, it outlives
    the engine run that built it while ``still_valid`` finds the pieces where it left them: the
    state was not edited from outside the engine (a test, a referee) since.  A run marks it
    unchecked (``checked``) and its first use in the run checks it (``_piece_index``): a run
    that counts no piece does not go through them all.  A clone
    of the game takes it over (``for_copy``): positions are the same in a copy of the list, so
    the two share the tables and lists of positions, and each copies the tables, then a list,
    before it first changes them.
    """
    __slots__ = ("at", "mine", "pieces", "objects", "places", "shared", "owned", "checked")

    def __init__(self, pieces: list):
        self.at, self.mine = _grouped(pieces)
        self.pieces, self.objects, self.places = pieces, pieces[:], list(map(_place_of, pieces))
        self.shared = False
        self.owned = None           # the ids of the lists that are this index's own; None: all of them
        self.checked = True         # made from the pieces as they are

    def for_copy(self, pieces: list) -> "PieceIndex":
        """This index for ``pieces``, a copy of the list it indexes (piece by piece, in the
        same order): a search's clone starts with it instead of grouping every piece again."""
        new = PieceIndex.__new__(PieceIndex)
        new.at, new.mine, new.places = self.at, self.mine, self.places
        new.pieces, new.objects = pieces, pieces[:]
        new.shared = self.shared = True
        new.checked = True          # (a copy is taken of an index just found valid)
        return new

    def everyone(self, kind, where):
        """The positions of the pieces of ``kind`` at ``where``, every owner's."""
        table = self.at.get(kind)
        return table.get(where, ()) if table is not None else ()

    def places_of(self, kind, owner):
        """``owner``'s pieces of ``kind`` by place, or None if there are none."""
        by_owner = self.mine.get(kind)
        return by_owner.get(owner) if by_owner is not None else None

    def owned_by(self, kind, where, owner):
        """The positions of ``owner``'s pieces of ``kind`` at ``where``."""
        by_owner = self.mine.get(kind)
        table = by_owner.get(owner) if by_owner is not None else None
        return table.get(where, ()) if table is not None else ()

    def flat(self) -> dict:
        """The index as one table, ``(kind, place)`` and ``(kind, place, owner)`` -> sorted
        positions, without empty lists: for tests and for reading."""
        out = {}
        for kind, table in self.at.items():
            for where, found in table.items():
                if found:
                    out[(kind, where)] = sorted(found)
        for kind, by_owner in self.mine.items():
            for owner, table in by_owner.items():
                for where, found in table.items():
                    if found:
                        out[(kind, where, owner)] = sorted(found)
        return out

    def moved(self, i, src):
        """The piece at position ``i`` has gone from ``src`` to where it is now."""
        if self.shared:
            # The first move since a clone took the tables over: tables of this index's own,
            # pointing at the shared lists until it changes them (a search moves a piece or two).
            self.at = {kind: dict(table) for kind, table in self.at.items()}
            self.mine = {kind: {owner: dict(table) for owner, table in by_owner.items()}
                         for kind, by_owner in self.mine.items()}
            self.places = self.places[:]
            self.shared = False
            self.owned = set()
        piece = self.pieces[i]
        kind, dst, owner = piece[0], piece[3], piece[1]      # KIND, WHERE, OWNER: literals compile to C
        # The piece was indexed at ``src``: its kind's and its owner's tables are there.
        everyone, own = self.at[kind], self.mine[kind][owner]
        if self.owned is None:          # every list is this index's own: the usual case, kept short
            _take_out(everyone[src], i)
            _take_out(own[src], i)
            everyone.setdefault(dst, []).append(i)
            own.setdefault(dst, []).append(i)
        else:
            _take_out(self._own(everyone, src), i)
            _take_out(self._own(own, src), i)
            self._own(everyone, dst).append(i)
            self._own(own, dst).append(i)
        self.places[i] = dst

    def _own(self, table: dict, where) -> list:
        """The list of positions at ``where`` in ``table`` (one of this index's own tables), this
        index's own to change (a new one if none), once the index has taken over another's
        lists.  ``owned`` holds the ids of the lists it made since (as `State.owned` does, and
        for the same reason: a list shared with the other index was made before, and no list
        leaves the tables)."""
        owned = self.owned
        found = table.get(where)
        if found is None:
            found = table[where] = []
        elif id(found) in owned:
            return found
        else:
            found = table[where] = found[:]
        owned.add(id(found))
        return found

    def still_valid(self, pieces):
        """The same list holding the same pieces, each in the place the index has it.

        As Python: two comparisons of whole lists, each a loop in C, the pieces against the
        objects indexed (the same objects compare at once; a piece replaced by an equal one is
        indexed right), then their places, made into a list in C.  Compiled: one loop of
        identity tests, three times faster than that (there ``map`` calls the item getter
        through a tuple per piece); a place set by hand to an equal string then counts as a
        move: a rebuild, no harm."""
        if pieces is not self.pieces:
            return False
        if not _COMPILED:
            return pieces == self.objects and list(map(_place_of, pieces)) == self.places
        objects, places = self.objects, self.places
        n = len(pieces)
        if n != len(objects):
            return False
        for i in range(n):
            x = pieces[i]
            if x is not objects[i] or x[3] is not places[i]:     # 3 is WHERE: a constant index compiles to C
                return False
        return True


def _take_out(positions, i):
    """Take position ``i`` out of a list of positions (compiled: a loop over C integers)."""
    for j in range(len(positions)):
        x = positions[j]
        if x == i:
            del positions[j]
            return


#: Whether this module runs compiled: Cython makes its functions builtins, not Python functions.
_COMPILED = type(_take_out) is not types.FunctionType


def _grouped(pieces: list) -> tuple:
    """``at`` and ``mine`` of a new index: kind -> place -> positions and kind -> owner -> place
    -> positions, in one pass with literal indexes (0 KIND, 3 WHERE, 1 OWNER: compiled to C)."""
    at: dict = {}
    mine: dict = {}
    for i in range(len(pieces)):
        x = pieces[i]
        kind, where, owner = x[0], x[3], x[1]
        table = at.get(kind)
        if table is None:
            table = at[kind] = {}
            mine[kind] = {}
        table.setdefault(where, []).append(i)
        by_owner = mine[kind]
        table = by_owner.get(owner)
        if table is None:
            table = by_owner[owner] = {}
        table.setdefault(where, []).append(i)
    return at, mine


_place_of = itemgetter(WHERE)


def _piece_index(g) -> PieceIndex:
    """The game's index of pieces, checked in this run (built now if there is none, or if a
    piece moved outside the engine since the index last followed it)."""
    ix = g.piece_index
    if ix is None or (not ix.checked and not ix.still_valid(g.s.pieces)):
        ix = g.piece_index = PieceIndex(g.s.pieces)
    ix.checked = True
    return ix


def _reduced(reduce, mine, g, player, kind, where):
    """``reduce`` of the pieces of KIND at WHERE (PLAYER's only if MINE).  A module function
    under ``partial``: compiled, it reads the game's fields directly (a lambda's ``g`` has no
    type); as Python, one frame a call as a lambda."""
    return reduce(g.s.pieces, _positions_at(g, player, kind, where, mine))


def _over_pieces(name, mine, reduce, doc):
    """Register a function ``name(KIND, PLACES)`` that reduces the pieces found there:
    ``reduce(pieces, positions)``."""
    def build(c, pos):
        return partial(_reduced, reduce, mine)
    build.__doc__ = doc
    function(name)(build)


_over_pieces("piece_values", True, _values,
             "The acting player's piece values at a place (or list of places), smallest first.")
_over_pieces("strength", True, _total,
             "Sum of the acting player's piece values at the places (face-down pieces count).")
_over_pieces("piece_count", True, _count, "How many pieces the acting player has at the places.")
_over_pieces("all_pieces_count", False, _count, "Every player's pieces of a kind at the places (a column's brokers).")
_over_pieces("all_strength", False, _total, "Every player's total at the places.")
_over_pieces("present", False, _owners,
             "The players with at least one piece of the kind at the places, in seat order.")


@function("room")
def build_room(c, pos):
    """Free places for pieces on a space: its slots less the pieces on it (99 for unlimited)."""
    return partial(_room_left, {name: d["slots"] for name, d in c.p.spaces.items()})


def _room_left(slots_of, g, player, kind, w):
    """``room``'s value, given the spaces' slots.  A module function under ``partial``:
    compiled, the game and the table are typed and the value is a C integer (a rule compiled
    ahead of time compares it in C); as Python, one frame a call as a closure."""
    given = slots_of.get(w)
    if given is None:
        return 0
    slots = given
    if slots < 0:
        return 99
    ix = g.piece_index
    if ix is None or not ix.checked:        # (as in _positions_at)
        ix = _piece_index(g)
    table = ix.at.get(kind)
    return slots - len(table.get(w, ())) if table is not None else slots


@function("hidden_pieces")
def build_hidden_pieces(c, pos):
    """[owner, place, n] for every face-down piece on the places the acting player cannot see."""
    return _hidden_pieces


def _hidden_pieces(g, me, kd, where):
    """``hidden_pieces``'s value (a module function: compiled, the seats are a C loop)."""
    out = []
    players = g.s.players
    for w in _where_list(where):
        for owner in range(players):
            if owner == me:
                continue
            hs = _hidden_at(g, kd, owner, w)
            for n, piece in enumerate(hs):
                if not (piece[SEEN] >> me) & 1:
                    out.append([owner, w, n])
    return out
