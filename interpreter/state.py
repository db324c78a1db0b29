"""The game state: compact plain data, nothing but ints, strings, lists and dicts.

Everything the game needs to continue lives here, including the control
position (the stack of frames the engine is executing) and the random state,
so saving is serialising this object and cloning is copying it.

A frame is ``[node_id, pc, env, data]``: which compiled node runs, how far it
got, the variable bindings it sees, and its loop bookkeeping.  Frames of one
block share their ``env`` dict (a ``let`` is visible to the statements after
it); serialisation and cloning keep that sharing.
"""
from __future__ import annotations

import copy


class ProgramFields:
    """The program's tables that the engine, the nodes and the primitives read at every step
    (``g.prog.nodes``, ``prog.triggers``, ``prog.placeable_spaces``); ``program.Program`` builds
    them and adds the rest.  Declared here for the reason GameFields is: compiled, state.pxd gives
    them a C layout and ``GameFields.prog`` this type, so that the compiled modules read them as
    fields instead of looking each one up in the program's instance dictionary, without importing
    the program's module (which imports them)."""


class GameFields:
    """A game's fields (engine.Game adds the methods): the state, the program and the piece
    index, which the nodes and the rules' compiled functions read at every step.  Declared
    here, below them, so that their compiled code types ``g`` with this layout (state.pxd)
    without importing the engine, which imports them.

    The engine's primitives that the nodes call at every step are declared here too, and
    ``engine.Game`` implements them: compiled, a node calls them through the class's table of
    C methods instead of looking each one up by name."""
    __slots__ = ("rs", "prog", "s", "seed", "variant", "piece_index", "work")

    def ask(self, player, prompt, options, node):
        raise NotImplementedError

    def ended(self):
        raise NotImplementedError

    def reset(self, when):
        raise NotImplementedError

    def emit(self, event, player, target):
        raise NotImplementedError

    def owner_of(self, where):
        raise NotImplementedError

    def work_body(self, where):
        raise NotImplementedError

    def return_one(self, where, p):
        raise NotImplementedError

    def return_road_beyond(self, upto):
        raise NotImplementedError

    def return_road_before(self, first):
        raise NotImplementedError

    def build_options(self, p, category, discount) -> list:
        raise NotImplementedError

    def gain(self, p, amounts):
        raise NotImplementedError

    def pay(self, p, amounts, pos=None):
        raise NotImplementedError

    def pass_turn(self, p, order):
        raise NotImplementedError

    def place_worker(self, p, target):
        raise NotImplementedError


class State:
    __slots__ = ("players", "humans", "counters", "orders", "occ", "road", "tiles", "supply", "next_tile", "zones", "pieces",
                 "stack", "pending", "deferred", "rng", "round", "phase", "finished", "decisions", "owned")

    def __init__(self, players: int):
        self.players = players         # every seat, the rules' neutral players included
        self.humans = players          # the seats that decide; seats from here on are played by the rules
        self.counters: dict = {}      # name -> int | list[int] (per player) | list (by enum) | list[list]
        self.orders: dict = {}        # name -> list of seats
        self.occ: dict = {}           # space or tile instance -> seats, in order of arrival
        self.road: list = []          # slot -> tile instance or None (index 0 unused)
        self.tiles: dict = {}         # tile instance -> [kind, owner seat or -1], replaced, never changed in place
        self.supply: dict = {}        # kind -> tiles left (-1: unlimited)
        self.next_tile = 1
        self.zones: dict = {}         # name -> list | per player [list] | by enum {key: list}
        self.pieces: list = []        # [kind, owner, value, where, face_up, seen_by_bits]
        self.stack: list = []
        self.pending: dict | None = None
        self.deferred: list = []      # [target, node_id, env]
        self.rng = 0
        self.round = 0
        self.phase = ""
        self.finished = False
        self.decisions = 0
        self.owned = None             # see "Changing the shared lists" below

    # ------------------------------------------------------------ copying
    def clone(self, shared: bool = False) -> "State":
        """A copy of this state, every list its own; or, ``shared``, one that shares the lists of
        counters, zones, orders, occupants and pieces with this state until either changes one
        through the ``own_*`` methods, as the engine does (copy on write, below): what a search
        wants, which plays many clones a few steps each; a hand edit of a shared list would
        change both states."""
        # The tables are copied with ``dict.copy`` (it takes the slots as they are, quicker
        # than inserting every key again), then their lists replaced by copies unless shared.
        new = State.__new__(State)
        new.players = self.players
        new.humans = self.humans
        new.counters = self.counters.copy()
        new.orders = self.orders.copy()
        new.occ = self.occ.copy()
        new.zones = self.zones.copy()
        new.pieces = self.pieces[:]
        new.road = self.road[:]
        new.tiles = self.tiles.copy()      # an entry is replaced, never changed (a claim, a flip)
        new.supply = self.supply.copy()
        if shared:
            self.owned = set()
            new.owned = set()
        else:
            _own_all(new)
        new.next_tile = self.next_tile
        memo: list = [None]         # (see _copy_env)
        new.stack = [_copy_frame(f, memo) for f in self.stack]
        p = self.pending
        new.pending = {"player": p["player"], "prompt": p["prompt"], "options": p["options"][:]} if p else None
        new.deferred = [[t, n, _copy_env(e, memo)] for t, n, e in self.deferred]
        new.rng = self.rng
        new.round = self.round
        new.phase = self.phase
        new.finished = self.finished
        new.decisions = self.decisions
        return new

    # ------------------------------------------------------------ changing the shared lists
    # A clone and the state it was taken from share the lists of counters, zones, orders,
    # occupants and pieces until one of them changes a list: whatever changes one asks the ``own_*``
    # method for it, which copies the list first unless this state made it since the last
    # clone (its id is in ``owned``; None: a state never cloned, every list its own).  Ids are
    # safe keys: a list another state holds too was made before the last clone emptied
    # ``owned``, so it was alive when each id in ``owned`` was given and cannot have that id.
    # A search clones the game at every option and each clone changes a few lists: copying
    # every list at every clone was a third of a greedy decision in Ys.
    def own_counter(self, name: str) -> list:
        """The list of counter ``name`` (per player, by enum, or both), this state's to change."""
        return self._own_in(self.counters, name, _copy_counter)

    def own_zone(self, name: str):
        """Zone ``name`` (a list, a list per player or a dict of lists), this state's to change."""
        return self._own_in(self.zones, name, _copy_zone)

    def own_order(self, name: str) -> list:
        """Order ``name``'s list of seats, this state's to change."""
        return self._own_in(self.orders, name, _copy_list)

    def own_piece(self, i: int) -> list:
        """The piece at position ``i``, this state's to change (`prims_pieces.own_piece` also
        keeps the game's piece index in step)."""
        return self._own_in(self.pieces, i, _copy_list)

    def _own_in(self, table, key, copy):
        """``table[key]``, replaced first by ``copy`` of it unless it is this state's own."""
        v = table[key]
        owned = self.owned
        if owned is not None and id(v) not in owned:
            v = table[key] = copy(v)
            owned.add(id(v))
        return v

    def own_occupants(self, where, make: bool = False):
        """The seats on ``where``, this state's list to change (a new empty one if ``make`` and
        there is none; else None)."""
        v = self.occ.get(where)
        owned = self.owned
        if v is None:
            if not make:
                return None
            v = self.occ[where] = []
        elif owned is not None and id(v) not in owned:
            v = self.occ[where] = v[:]
        else:
            return v
        if owned is not None:
            owned.add(id(v))
        return v

    # ------------------------------------------------------------ JSON
    def to_dict(self, saved_data=None) -> dict:
        """The state as JSON values; ``saved_data(node, data)``: a frame's progress as the save
        holds it (the engine's nodes know their own)."""
        envs: list = []
        ids: dict = {}

        def env_ref(e):
            key = id(e)
            if key not in ids:
                ids[key] = len(envs)
                envs.append(e)
            return ids[key]

        # a pending choice's options are kept as a tuple (shared by clones); saved as a list
        stack = [[f[0], f[1], env_ref(f[2]), list(f[3]) if type(f[3]) is tuple else f[3]] for f in self.stack]
        if saved_data is not None:
            for f in stack:
                f[3] = saved_data(f[0], f[3])
        deferred = [[t, n, env_ref(e)] for t, n, e in self.deferred]
        return {"players": self.players, "humans": self.humans, "counters": self.counters, "orders": self.orders,
                "occ": self.occ, "road": self.road, "tiles": self.tiles, "supply": self.supply,
                "next_tile": self.next_tile, "zones": self.zones, "pieces": self.pieces, "envs": envs, "stack": stack, "pending": self.pending,
                "deferred": deferred, "rng": self.rng, "round": self.round, "phase": self.phase,
                "finished": self.finished, "decisions": self.decisions}

    @classmethod
    def from_dict(cls, d: dict, loaded_data=None) -> "State":
        """The state of ``to_dict``; ``loaded_data(node, data)``: a frame's progress from the save."""
        s = cls(d["players"])
        s.humans = d.get("humans", d["players"])
        d = copy.deepcopy(d)
        s.counters, s.orders, s.occ = d["counters"], d["orders"], d["occ"]
        s.road, s.tiles, s.supply, s.next_tile = d["road"], d["tiles"], d["supply"], d["next_tile"]
        s.zones, s.pieces = d.get("zones", {}), d.get("pieces", [])
        envs = d["envs"]
        s.stack = [[f[0], f[1], envs[f[2]], f[3] if loaded_data is None else loaded_data(f[0], f[3])]
                   for f in d["stack"]]
        s.deferred = [[t, n, envs[e]] for t, n, e in d["deferred"]]
        s.pending, s.rng, s.round, s.phase = d["pending"], d["rng"], d["round"], d["phase"]
        s.finished, s.decisions = d["finished"], d["decisions"]
        return s


def _own_all(new: State) -> None:
    """Give ``new``, a copy of a state's tables, copies of their lists: every list its own."""
    c = new.counters
    for k, v in c.items():
        if type(v) is list:
            c[k] = _copy_counter(v)
    for table in (new.orders, new.occ):
        for k, v in table.items():
            table[k] = v[:]
    # A hand edit reaches into a card (a Ys placement card is [space, value]) or a tile's entry
    # (a claim's owner): copied to the bottom, which the engine, replacing them whole, never needs.
    z = new.zones
    for k, v in z.items():
        z[k] = _copy_data(v)
    t = new.tiles
    for k, v in t.items():
        t[k] = _copy_data(v)
    new.pieces = [piece[:] for piece in new.pieces]
    new.owned = None


def _copy_counter(v: list) -> list:
    # a counter's elements are all lists (per player, by enum) or all numbers
    return [row[:] for row in v] if v and type(v[0]) is list else v[:]


def _copy_list(v: list) -> list:
    return v[:]


def _copy_lists(table: dict) -> dict:
    """A copy of a dict of lists, each list copied."""
    new = table.copy()
    for k, v in new.items():
        new[k] = v[:]
    return new


def _copy_zone(z):
    if type(z) is dict:
        return _copy_lists(z)
    if z and type(z[0]) is list:
        return [row[:] for row in z]
    return z[:]


#: Bindings looked up by identity in a list while a clone has copied at most this many: a
#: state's frames share a few (4 for 6 frames in a Ys search), and a C loop over them costs less
#: than a dict keyed by ``id()``, a call of the builtin each.  A deeper stack (a recursive rule)
#: takes the dict, so that a clone stays linear in the frames.
_SCANNED = 16


def _copy_env(env: dict, memo: list) -> dict:
    """A copy of a frame's bindings, made once for all the frames and deferred bodies that
    share them.  ``memo``, the bindings copied so far: ``[table or None, original, copy,
    original, copy...]``, the table (``id(original) -> copy``) made once there are more than
    ``_SCANNED``."""
    by_id = memo[0]
    if by_id is None:
        for j in range(1, len(memo), 2):
            if memo[j] is env:
                return memo[j + 1]
    else:
        found = by_id.get(id(env))
        if found is not None:
            return found
    new = env.copy()
    for k, v in new.items():
        if type(v) is list:
            new[k] = v[:]
    if by_id is None:
        memo.append(env)
        memo.append(new)
        if len(memo) > 2 * _SCANNED:
            memo[0] = {id(memo[j]): memo[j + 1] for j in range(1, len(memo), 2)}
    else:
        by_id[id(env)] = new
    return new


def _copy_data(x):
    """A copy of a frame's bookkeeping: plain lists, dicts and scalars (no sharing inside)."""
    t = type(x)
    if t is list:
        return [_copy_data(v) for v in x]
    if t is dict:
        return {k: _copy_data(v) for k, v in x.items()}
    return x


def _copy_frame(f: list, memo: list) -> list:
    data = f[3]
    if data is not None and type(data) is not int:
        data = _copy_data(data)
    return [f[0], f[1], _copy_env(f[2], memo), data]
