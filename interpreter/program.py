"""Checked ruleset -> executable program, built once per ruleset.

Declarations are indexed by kind, expressions become Python functions
(interpreter/expressions.py) and statements become nodes
(interpreter/nodes.py) stored in one list, so a frame refers to its node by
an integer and the game state stays plain data.
"""
from __future__ import annotations

import sys

from provost.dsl.loader import Ruleset

from . import nodes as N
from . import native
from .codecache import CodeCache, interpreter_digest, program_key
from .effects import EffectCompiler, block_entry
from .expressions import NOT_STATIC, ExprCompiler, RuleRuntimeError, TableRef
from .runtime import MAX_NUMBER, short_repr
from .state import ProgramFields


class Program(ProgramFields):
    def __init__(self, rs: Ruleset, recorder=None):
        """``recorder``: a `native.Recorder` given the source of every generated function."""
        self.rs = rs
        _intern_names(rs.decls)
        self.nodes: list = []
        self.game = rs.game()
        decls = rs.decls
        self.counters = {d["name"]: d for d in decls if d["kind"] == "counter"}
        self.resources = {d["name"]: d for d in decls if d["kind"] == "resource"}
        self.enums = {d["name"]: d["values"] for d in decls if d["kind"] == "enum"}
        self.enum_index = {k: {v: i for i, v in enumerate(vs)} for k, vs in self.enums.items()}
        self.lets = {d["name"]: d for d in decls if d["kind"] == "let"}
        self.orders = {d["name"]: d for d in decls if d["kind"] == "order"}
        self.tracks = {d["name"]: d for d in decls if d["kind"] == "track"}
        self.categories = {d["name"]: d for d in decls if d["kind"] == "category"}
        # At run time unlimited slots are -1 (the IR says "unlimited"); the IR itself is left as is.
        self.spaces = {d["name"]: (dict(d, slots=-1) if d["slots"] == "unlimited" else d)
                       for d in decls if d["kind"] == "space"}
        self.buildings = {d["name"]: d for d in decls if d["kind"] == "building"}
        self._readers: dict = {}       # attribute -> its reader (attribute_reader)
        # category -> [(kind, declaration)] in declaration order: what Game.build_options offers
        self.buildings_of: dict = {}
        for name, d in self.buildings.items():
            self.buildings_of.setdefault(d.get("category"), []).append((name, d))
        self.effects = {d["name"]: d for d in decls if d["kind"] == "effect"}
        self.phases = {d["name"]: d for d in decls if d["kind"] == "phase"}
        self.zones = {d["name"]: d for d in decls if d["kind"] == "zone"}
        self.pieces = {d["name"]: d for d in decls if d["kind"] == "pieces"}
        self.score = self.game["score"]
        self._hidden_names: set | None = None
        self._resets: dict = {}
        self.payment_ways: dict = {}       # Game._payment_ways: a cost's ways of paying, by cost and discount
        self.worker_home = self.game.get("workers_return_to") or "workers"   # where workers go off a space
        self.road_name = next(iter(self.tracks), None)
        self.road_length = self.tracks[self.road_name]["length"] if self.road_name else 0
        #: The nodes of the tables' entries: the only node ids `do` may run (effects.p_do).
        self.entry_nodes: set = set()
        self.expr = ExprCompiler(self)
        self.stmt = EffectCompiler(self)
        # The code of the generated functions comes from an earlier build of these rules, if any.
        self.expr.code_cache = CodeCache(rs.digest, rs.name, rs.variant, recorder) if rs.digest else None
        self._let_cache: dict = {}
        self._let_funcs: dict = {}
        self._static_values: dict = {}
        # Resources: every resource is a per-player counter too.
        for name, r in self.resources.items():
            self.counters.setdefault(name, {"kind": "counter", "name": name, "scope": "player", "by": None,
                                            "start": 0, "min": 0, "max": None, "reset": None,
                                            "visible": r.get("visible", "public"), "pos": r["pos"]})
        #: A counter's (min, max): what ``Game.gain`` clamps to; a counter or resource without a
        #: min or max of its own is held within +-MAX_NUMBER instead, beyond which it is an error.
        self.counter_bounds = {name: (-MAX_NUMBER if c["min"] is None else c["min"],
                                      MAX_NUMBER if c["max"] is None else c["max"])
                               for name, c in self.counters.items()}
        # Effects first get an id, so that effects may call each other (and themselves).
        self.effect_nodes = {name: self.reserve() for name in self.effects}
        self._effect_entries: dict = {}
        self.tables = {}
        for d in decls:
            if d["kind"] == "table":
                self.tables[d["name"]] = TableRef([], d["name"])
                self.tables[d["name"]].entries = self._table(d["entries"], d["name"]).entries
        for name, d in self.effects.items():
            self.stmt.compile_into(self.effect_nodes[name], d["body"], frozenset(d["params"]) | {"player"})
        base_scope = frozenset({"player"})
        self.work_nodes = {}
        self.owner_nodes = {}
        for name, d in list(self.spaces.items()) + list(self.buildings.items()):
            if d.get("work"):
                self.work_nodes[name] = self.stmt.block(d["work"], base_scope | {"slot", "self"})
            if d.get("owner"):
                self.owner_nodes[name] = self.stmt.block(d["owner"], base_scope | {"self", "worker"})
        # What open_spaces() reads each time a worker may be placed, worked out once.
        self.placeable_spaces = [(name, d["slots"], d["per_player"]) for name, d in self.spaces.items() if d["placeable"]]
        self.workable_kinds = frozenset(
            kind for kind, b in self.buildings.items()
            if kind in self.work_nodes and (self.categories.get(b.get("category")) or {}).get("workable"))
        self.on_build_nodes = {name: self.stmt.block(d["on_build"], base_scope | {"self"})
                               for name, d in self.buildings.items() if d.get("on_build")}
        self.triggers: dict = {}
        for d in decls:
            if d["kind"] == "trigger":
                node = self.stmt.block(d["body"], base_scope | {"target"})
                self.triggers.setdefault(d["event"], []).append(node)
        self.phase_nodes = {name: self.with_events(self.stmt.block(d["body"], base_scope), "phase", name, d["pos"])
                            for name, d in self.phases.items()}
        self.rounds = list(self.game["rounds"])
        setup = [d for d in decls if d["kind"] == "setup"]
        final = [d for d in decls if d["kind"] == "final"]
        self.setup_node = self.stmt.block(setup[0]["body"], base_scope) if setup else None
        self.final_node = self.stmt.block(final[0]["body"], base_scope) if final else None
        self.ends_if = self.expr.compile(self.game["ends_if"], base_scope) if self.game.get("ends_if") else None
        self.max_rounds = self.game.get("max_rounds") or 100
        self.tiebreak = self.expr.compile(self.game["tiebreak"], base_scope) if self.game.get("tiebreak") else None
        self.root_id = self.add(N.Root())
        for name, entry in self._effect_entries.items():
            entry[0] = block_entry(self.nodes, self.effect_nodes[name])
        code_cache = self.expr.code_cache
        #: Every generated function of the build came from the rules compiled ahead of time (native.py).
        self.compiled_ahead = code_cache is not None and code_cache.native is not None and code_cache.native.complete
        #: (generated units taken compiled, from this program's module or shared with a shipped
        #: one, units built): a variant runs most of its units compiled (native.SharedUnits).
        self.units_compiled = code_cache.counts() if code_cache is not None else (0, 0)
        if code_cache is not None:
            code_cache.close()
            self.expr.code_cache = None     # what is compiled later (on demand) is not in build order

    def resets(self, when) -> tuple:
        """The counters ``[(name, start, per player)]``, the orders and the zones reset ``when``
        ("round", "phase"...), as declared."""
        found = self._resets.get(when)
        if found is None:
            found = self._resets[when] = (
                [(name, c["start"], c["scope"] == "player") for name, c in self.counters.items() if c["reset"] == when],
                [name for name, o in self.orders.items() if o["reset"] == when],
                [name for name, z in self.zones.items() if z.get("reset") == when])
        return found

    def empty_zone(self, name: str, players: int):
        """Zone ``name`` as a new game has it, and as ``reset`` leaves it: empty lists, one per
        player for a zone per player, one per value of its enum for a zone ``by`` one."""
        z = self.zones[name]

        def empty():
            return {k: [] for k in self.enums[z["by"]]} if z["by"] else []
        return [empty() for _ in range(players)] if z["scope"] == "player" else empty()

    def hidden_names(self) -> set:
        """Names of what some seat may not see: zones, counters and resources not public, and
        the private places of pieces (behind a screen)."""
        if self._hidden_names is None:
            names = {n for n, z in self.zones.items() if z.get("visible", "public") != "public"}
            names |= {n for n, c in self.counters.items() if c.get("visible", "public") != "public"}
            names |= {n for n, r in self.resources.items() if r.get("visible", "public") != "public"}
            for pc in self.pieces.values():
                names |= set(pc.get("private") or ())
            self._hidden_names = names
        return self._hidden_names

    def effect_entry(self, name: str) -> list:
        """``[node id]`` where a call of effect ``name`` starts, set once every body is compiled."""
        return self._effect_entries.setdefault(name, [self.effect_nodes[name]])

    # ------------------------------------------------------------ node table
    def reserve(self) -> int:
        self.nodes.append(None)
        return len(self.nodes) - 1

    def add(self, node, pos=None) -> int:
        node.id = len(self.nodes)
        node.pos = pos
        self.nodes.append(node)
        return node.id

    def with_events(self, body: int, what: str, target, pos) -> int:
        """``body`` between the ``WHAT_start`` and ``WHAT_end`` events, when a trigger waits for
        either (without one the rules run exactly as before: same nodes, same games)."""
        triggers = getattr(self, "triggers", {})
        start, end = what + "_start", what + "_end"
        if start not in triggers and end not in triggers:
            return body
        kids = [self.add(N.Atom(lambda g, env, e=e: g.emit(e, None, target)), pos)
                for e in (start,) if e in triggers]
        kids.append(body)
        kids += [self.add(N.Atom(lambda g, env, e=e: g.emit(e, None, target)), pos) for e in (end,) if e in triggers]
        return self.add(N.Seq(kids), pos)

    # ------------------------------------------------------------ lets
    def let_value(self, name):
        """A function for a parameterless let; one that follows from the rules alone is evaluated once."""
        if name in self._let_cache:
            return self._let_cache[name]
        d = self.lets[name]
        self._let_cache[name] = lambda g, env: f(g, env)  # allows self-reference to fail cleanly
        f = self.expr.compile(d["value"], frozenset({"player"}))
        result = _memoised(f, []) if is_static(d["value"], self) else f
        self._let_cache[name] = result
        return result

    def static_value(self, name):
        """The value of a parameterless let that follows from the rules alone, computed now, so
        that the code reading it holds the value instead of calling for it (the memo the call
        would go through gives the same value, a list copied); ``NOT_STATIC`` when the let is
        not one, or fails: then it is called, and fails where a game runs it."""
        if name not in self._static_values:
            d = self.lets[name]
            value = NOT_STATIC
            if not d["params"] and self.let_is_static(name):
                self._static_values[name] = NOT_STATIC        # a let that reads itself is called
                try:
                    value = self.let_value(name)(None, {"player": None})
                except Exception:       # noqa: BLE001 - any failure is the game's to report, at its place
                    value = NOT_STATIC
            self._static_values[name] = value
        return self._static_values[name]

    def let_is_static(self, name) -> bool:
        """The let's value follows from the rules and its arguments alone (it is memoised)."""
        d = self.lets[name]
        return is_static(d["value"], self, frozenset(d["params"] or []))

    def let_function(self, name):
        if name not in self._let_funcs:
            d = self.lets[name]
            self._let_funcs[name] = lambda g, env: body(g, env)
            body = self.expr.compile(d["value"], frozenset(d["params"] or []) | {"player"})
            if self.let_is_static(name):
                body = _memoised(body, d["params"] or [])
            self._let_funcs[name] = body
        return self._let_funcs[name]

    # ------------------------------------------------------------ tables
    def _table(self, entries, name: str) -> TableRef:
        out = []
        for e in entries:
            key = e["key"] if "key" in e else (e["from"], e["to"])
            if "entries" in e:
                payload = self._table(e["entries"], "%s[%s]" % (name, key if "key" in e else e["from"]))
            else:
                payload = self.stmt.block(e["body"], frozenset({"player"}))
                self.entry_nodes.add(payload)
            out.append((key, payload))
        return TableRef(out, name)

    # ------------------------------------------------------------ attributes of spaces and tiles
    def attribute(self, g, x, attr, pos):
        if x is None:
            return None
        tiles = g.s.tiles
        if x in tiles:
            kind, owner = tiles[x]
            if attr == "owner":
                return owner if owner >= 0 else None
            if attr == "kind":
                return kind
            d = self.buildings[kind]
        elif x in self.spaces:
            d = self.spaces[x]
            if attr == "owner":
                return None
            if attr == "kind":
                return x
        elif x in self.buildings:
            d = self.buildings[x]
            if attr == "kind":
                return x
        else:
            raise RuleRuntimeError("%s has no attribute '%s'" % (short_repr(x), attr), pos)
        return self._declared(d, attr)

    def _declared(self, d, attr):
        """The attribute as the declaration ``d`` (a building, a space) gives it, or its category;
        0 when neither does."""
        if attr in d and attr not in ("work", "owner", "on_build", "pos"):
            return d[attr]
        cat = self.categories.get(d.get("category"))
        if cat is not None and attr in cat:
            return cat[attr]
        if attr == "category":
            return d.get("category")
        return 0

    def attribute_reader(self, attr):
        """``f(tiles, x, g, pos)``: ``attribute(g, x, attr, pos)`` for one attribute named in the
        rules, ``tiles`` being ``g.s.tiles`` (read once before the loop when the read is in a
        listing's tests); one function per attribute.  A tile's or a space's owner and kind, the
        usual reads (Caylus' placement cost reads the owner of every open space), are answered
        from the state's tiles; any other attribute is the declarations', so it is looked up in
        a table by building and by space made once (Caylus 1303 reads a tile's category
        thousands of times a game); everything else, and every error, goes through ``attribute``."""
        reader = self._readers.get(attr)
        if reader is None:
            reader = self._readers[attr] = self._reader(attr)
        return reader

    def _reader(self, attr):
        general, spaces = self.attribute, self.spaces
        if attr == "owner":
            def owner(tiles, x, g, pos):
                if x in tiles:
                    who = tiles[x][1]
                    return who if who >= 0 else None
                if x in spaces:
                    return None
                return general(g, x, "owner", pos)
            return owner
        if attr == "kind":
            def kind(tiles, x, g, pos):
                if x in tiles:
                    return tiles[x][0]
                if x in spaces:
                    return x
                return general(g, x, "kind", pos)
            return kind
        by_building = {name: self._declared(d, attr) for name, d in self.buildings.items()}
        by_space = {name: self._declared(d, attr) for name, d in spaces.items()}

        def declared(tiles, x, g, pos):
            if x in tiles:
                kind = tiles[x][0]
                if kind in by_building:
                    return by_building[kind]
            elif x in by_space:
                return by_space[x]
            elif x in by_building:
                return by_building[x]
            return general(g, x, attr, pos)
        return declared

    def saved_data(self, node: int, data):
        """A frame's progress as a save holds it (State.to_dict)."""
        return self.nodes[node].saved_data(data)

    def loaded_data(self, node: int, data):
        """A frame's progress from a save (State.from_dict)."""
        return self.nodes[node].loaded_data(data)

    def owner_body(self, kind):
        return self.owner_nodes.get(kind)


def _intern_names(decls: list) -> None:
    """Make the declarations' own strings (names, kinds, lists of values) the interned ones.

    They become the keys of the state's tables and the values of its lists, which the
    generated code reads with the same names as constants, interned by the compiler: a lookup
    or a comparison of the same object is decided by its address, of an equal copy (JSON and
    the parser make copies) by comparing the characters.  Equal strings, so nothing else
    changes."""
    intern = sys.intern
    for d in decls:
        for k, v in d.items():
            if type(v) is str:
                d[k] = intern(v)
            elif type(v) is list:
                for i, x in enumerate(v):
                    if type(x) is str:
                        v[i] = intern(x)


def _memoised(body, params):
    """A let of the rules' data alone: one value per argument list, for the program's life
    (computed on first use; callers get their own copy of a list)."""
    memo: dict = {}
    single = params[0] if len(params) == 1 else None     # `areas(n)`: the argument is the key

    def memoised(g, env):
        try:
            key = env[single] if single is not None else tuple([env[n] for n in params])
            value = memo[key]
        except KeyError:
            value = memo[key] = body(g, env)
        except TypeError:                     # an argument that is a list: not a key
            return body(g, env)
        return value[:] if type(value) is list else value
    return memoised


# Names whose value comes from the state or the context, never from the rules alone.
_CONTEXT_NAMES = frozenset({"player", "target", "slot", "self", "round", "player_count"})

# Functions of their arguments only (no state, no acting player, no player count).
_PURE_FUNCTIONS = frozenset({"count", "sum", "max", "min", "abs", "first", "index", "position", "multisets",
                             "tagged", "has_tag", "distinct", "combinations", "rank_by"})


def _is_name_static(n, prog, bound, seen) -> bool:
    if n in bound:
        return True
    if n in _CONTEXT_NAMES or n in prog.orders or n in prog.zones or (n in prog.counters and n not in prog.resources):
        return False                             # read from the state (a resource's name is a symbol)
    if n in prog.lets:
        d = prog.lets[n]
        return not d["params"] and _let_static(n, prog, seen)
    return True                                  # a symbol, an enum, a table, a constant


def _let_static(name, prog, seen) -> bool:
    if name in seen:
        return False                             # recursion: not worth proving
    d = prog.lets[name]
    return is_static(d["value"], prog, frozenset(d["params"] or []), seen | {name})


def is_static(e, prog, bound=frozenset(), seen=frozenset()) -> bool:
    """True when an expression's value follows from the rules and the names in ``bound`` alone."""
    k = e["e"]
    if k in ("int", "str"):
        return True
    if k == "name":
        return _is_name_static(e["id"], prog, bound, seen)
    if k == "list":
        return all(is_static(i, prog, bound, seen) for i in e["items"])
    if k == "dict":
        return all(is_static(v, prog, bound, seen) for _, v in e["items"])
    if k in ("binop", "range", "not", "neg", "if", "index"):
        return all(is_static(e[f], prog, bound, seen) for f in ("left", "right", "lo", "hi", "x", "cond", "then",
                                                                "else", "key") if f in e)
    if k == "comp":
        inner = bound | {e["var"]}
        return (is_static(e["iter"], prog, bound, seen) and is_static(e["item"], prog, inner, seen)
                and (e["cond"] is None or is_static(e["cond"], prog, inner, seen)))
    if k == "call":
        fn = e["fn"]
        if not all(is_static(a, prog, bound, seen) for a in e["args"]):
            return False
        if fn in prog.lets:
            return _let_static(fn, prog, seen)
        return fn in _PURE_FUNCTIONS
    return False


_programs: dict = {}


def program_for(rs: Ruleset) -> Program:
    """One compiled program per ruleset per process."""
    key = (rs.digest, rs.name, rs.variant)
    prog = _programs.get(key)
    if prog is None:
        prog = _programs[key] = Program(rs)
    return prog


def native_source(rs: Ruleset) -> tuple[str, str]:
    """The key and the Python source of the native module of RS's program (native.py): a build
    of the program that records the source of each unit it compiles."""
    recorder = native.Recorder()
    Program(rs, recorder)
    key = program_key(rs.digest, rs.name, rs.variant)
    return key, native.module_source(key, recorder.units, interpreter_digest())


def compile_native(rs: Ruleset) -> str:
    """Compile the generated functions of RS's program ahead of time, to a native module in the
    user's cache directory that later builds of the same rules take their functions from
    (native.py); its path.  Raises ``native.NativeError`` when it cannot be built (no Cython,
    no C compiler, no cache directory)."""
    if not rs.digest:
        raise native.NativeError("these rules have no digest (not loaded from files)")
    return native.build(*native_source(rs))
