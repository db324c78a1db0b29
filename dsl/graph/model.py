"""The structure of a game, inferred from the IR: one linear walk, shared by every graph check.

The language has no notion of "road", "gate" or "bridge"; this module derives them from what
the rules *do* (see docs/graph_checks.md, "Inferences"):

* every body (phase, setup, final, effect, trigger, table, space or building `work`/`owner`/
  `on_build`) becomes a small tree of *ops*: gain, pay, move (a worker onto a space), emit (an
  event), call (an effect), table (`do` a table entry), activate (spaces, in order), road
  (`activate_road`), build, perform, and branch (the alternatives of a `choose` or an `if`);
* the values an expression can take are approximated by *symbol sets*: the names of resources,
  buildings, spaces and enum values it may denote (`c in cubes` -> {food, wood, stone, cloth}),
  with `*` for "anything".  Effect parameters and zones get their sets from every call site and
  every `put` (a small fixpoint), so `take_from_bank(c)` knows which resources `c` may be;
* the road is the first `track` (the one `activate_road` walks, as in the interpreter); the
  slots a building may occupy come from `at`, `deal_tiles`, `place_tile`, `build_tile` (the first
  free slot), `transform_tile`, `build_on` and `other_side`.

Everything here is plain Python and linear in the size of the rules (each declaration is walked
once; summaries are memoised); networkx is imported by the checks only when a graph may contain
a cycle, and by `provost graph`.
"""
from __future__ import annotations

import os

from dataclasses import dataclass, field

from .. import primitives as P

TOP = "*"                     # a symbol standing for "anything"
ANY = frozenset((TOP,))
EMPTY: frozenset = frozenset()
OPEN = "@open"                # open_spaces(): every placeable space and every workable road tile
ROADSYM = "@road"             # a tile on the road (road_tiles(), road_at(), ...), or the road itself
ROAD_FUNCS = {"road_at", "road_tiles", "slot_of", "owned_tiles"}
"""Functions whose use in a condition counts as "a rule for when the road is full"."""

EMITS = {"place_worker": "worker_placed", "move_worker": "worker_placed", "build_tile": "tile_built",
         "build_on": "tile_built", "place_piece": "piece_placed"}
"""Events the engine emits, by the primitive that emits them (interpreter/engine.py `emit`)."""

# Functions whose value is made of the symbols of their first argument.
PASS_THROUGH = {"first", "distinct", "multisets", "combinations", "min", "max", "rank_by"}
# Functions whose value holds no symbols we track (numbers, players, truth values).
NO_SYMBOLS = {"count", "sum", "abs", "held", "index", "position", "occupants", "players", "is_neutral",
              "piece_values", "strength", "piece_count", "all_pieces_count", "all_strength", "present",
              "room", "hidden_pieces", "has_tag", "slot_of", "awaited"}
MAX_LET_DEPTH = 12


def pos_of(node, field: str | None = None) -> list:
    """[line, col] of ``node`` (an IR node or a position); with ``field``, of where that field of
    a declaration is written, when the IR says (``attr_pos``)."""
    at = node.get("attr_pos") if field is not None and isinstance(node, dict) else None
    pos = at.get(field) if isinstance(at, dict) and field in at else (
        node.get("pos") if isinstance(node, dict) else node)
    if isinstance(pos, (list, tuple)) and len(pos) >= 2 and type(pos[0]) is int and type(pos[1]) is int:
        return [max(1, pos[0]), max(1, pos[1])]
    return [1, 1]


@dataclass
class Op:
    """One thing a body does.  `kind` is one of the op kinds listed in the module docstring."""
    kind: str
    pos: list
    i: int                       # the declaration the op is written in
    syms: frozenset = EMPTY      # gain: resources; move: target spaces; build: categories
    amounts: list = field(default_factory=list)   # pay: [(syms, pos)]
    name: str = ""               # call/table: the callee; emit: the event; move/build: the primitive
    spaces: list = field(default_factory=list)    # activate: [(space, pos)]
    alts: list = field(default_factory=list)      # branch: [ops, ops, ...]
    arg: dict | None = None      # road: the range expression
    prim: str = ""               # emit: the primitive that emits the event


@dataclass
class Body:
    key: tuple                   # ("phase", name), ("effect", name), ("work", name), ...
    i: int                       # declaration index
    ops: list


class Facts:
    """The inferred structure of one resolved ruleset (built once; see `facts`)."""

    def __init__(self, ruleset):
        self.ruleset = ruleset
        self.decls: list = [d for d in ruleset.decls]
        self.files: list = list(ruleset.files)
        chain = getattr(ruleset, "chain", None) or []
        self.main_file = chain[-1] if chain else (self.files[0] if self.files else "<rules>")
        self.by_kind: dict[str, dict[str, int]] = {}
        self.value_of_enum: dict[str, str] = {}
        for i, d in enumerate(self.decls):
            name = d.get("name")
            if isinstance(name, str):
                self.by_kind.setdefault(d.get("kind"), {}).setdefault(name, i)
            if d.get("kind") == "enum":
                for v in d.get("values") or []:
                    self.value_of_enum.setdefault(v, name)
        k = self.by_kind
        self.resources = set(k.get("resource", {}))
        self.counters = {n: self.decls[i] for n, i in k.get("counter", {}).items()}
        self.lets = {n: self.decls[i] for n, i in k.get("let", {}).items()}
        self.effects = {n: self.decls[i] for n, i in k.get("effect", {}).items()}
        self.tables = {n: self.decls[i] for n, i in k.get("table", {}).items()}
        self.spaces = {n: self.decls[i] for n, i in k.get("space", {}).items()}
        self.buildings = {n: self.decls[i] for n, i in k.get("building", {}).items()}
        self.categories = {n: self.decls[i] for n, i in k.get("category", {}).items()}
        self.zones = set(k.get("zone", {}))
        self.enums = {n: self.decls[i] for n, i in k.get("enum", {}).items()}
        self.phases = {n: self.decls[i] for n, i in k.get("phase", {}).items()}
        self.decl_index = {id(d): i for i, d in enumerate(self.decls)}
        games = [d for d in self.decls if d.get("kind") == "game"]
        self.game: dict = games[0] if games else {}
        tracks = [(i, d) for i, d in enumerate(self.decls) if d.get("kind") == "track"]
        self.road_i, self.road = tracks[0] if tracks else (None, None)
        length = self.road.get("length") if self.road else None
        self.road_length: int | None = length if type(length) is int and length >= 0 else None
        self.tracks = tracks
        self.placeable = [n for n, d in self.spaces.items() if d.get("placeable", True)]
        self.buildings_of: dict[str, list[str]] = {}
        for n, d in self.buildings.items():
            self.buildings_of.setdefault(d.get("category"), []).append(n)

        # Filled by the walk.
        self.bodies: dict[tuple, Body] = {}
        self.refs: dict[str, set] = {}              # name -> declaration indexes that mention it
        self.param_sources: dict[tuple, list] = {}  # (effect, index) -> [syms]
        self.zone_sources: dict[str, list] = {}     # zone -> [syms]
        self.sets: dict[str, list] = {}             # counter -> [(op, value expr, pos, i)]
        self.amount_units: set = set()              # names used as the unit of an amount
        self.compares: list = []                    # (left, op, right, pos, i)  bare-name comparisons
        self.road_calls: list = []                  # (arg expr, pos, i, body key)
        self.deals: list = []                       # (category syms, (lo, hi) or None, pos, i)
        self.places: list = []                      # (kinds syms, (lo, hi) or None, pos, i, in_setup, times)
        self.builds: list = []                      # (category syms, guarded, pos, i, body key, primitive)
        self.transforms: list = []                  # (target syms, kind name or None, categories, pos, i)
        self.supplies: list = []                    # (building name or None, value, times, pos, i)
        self.road_uses: list = []                   # (pos, i, what) every use of the road
        self.calls_of: dict[str, list] = {}         # effect -> [(guarded, pos, i)]
        self.emitters: dict[str, list] = {}         # event -> [(body key, pos, i, primitive)]
        self._let_syms: dict = {}
        self._let_busy: set = set()
        self._resolved: dict = {}
        self._solved = False
        self._walk()
        self._solve()

    # ================================================================ positions and names
    def at(self, i: int | None, pos) -> str:
        """'file.rules:LINE' for a position of declaration ``i``: a rule a message points to may be
        in another file than the one the message is reported in (a variant and its base)."""
        return "%s:%d" % (os.path.basename(self.path(i)), pos[0] if pos else 1)

    def path(self, i: int | None) -> str:
        if i is not None and 0 <= i < len(self.files) and self.files[i]:
            return self.files[i]
        return self.main_file

    def kind_of(self, name: str) -> str | None:
        for kind in ("let", "effect", "table", "resource", "building", "space", "category", "enum", "counter",
                     "zone", "order", "track", "pieces", "phase"):
            if name in self.by_kind.get(kind, {}):
                return kind
        if name in self.value_of_enum:
            return "enum value"
        return None

    def _ref(self, name, i: int) -> None:
        if isinstance(name, str):
            s = self.refs.get(name)
            if s is None:
                self.refs[name] = {i}
            else:
                s.add(i)

    # ================================================================ the walk
    def _walk(self) -> None:
        for i, d in enumerate(self.decls):
            kind = d.get("kind")
            name = d.get("name")
            self._walk_fields(d, i)
            if kind == "phase":
                self._body(("phase", name), i, d.get("body"), {}, in_setup=False)
            elif kind in ("setup", "final"):
                self._body((kind,), i, d.get("body"), {}, in_setup=(kind == "setup"))
            elif kind == "effect":
                env = {p: _binding(frozenset(((("P", name, n)),))) for n, p in enumerate(d.get("params") or [])}
                self._body(("effect", name), i, d.get("body"), env)
            elif kind == "trigger":
                self._body(("trigger", i), i, d.get("body"), {})
            elif kind == "table":
                alts = []
                self._table_entries(d.get("entries") or [], i, alts)
                self.bodies[("table", name)] = Body(("table", name), i, [Op("branch", pos_of(d), i, alts=alts)])
            elif kind in ("space", "building"):
                for part in ("work", "owner", "on_build"):
                    if d.get(part):
                        self._body((part, name), i, d.get(part), {})
            elif kind == "let":
                if isinstance(d.get("value"), dict):
                    self._refs_in(d["value"], i)

    def _walk_fields(self, d: dict, i: int) -> None:
        """References held by declaration fields (not bodies)."""
        kind = d.get("kind")
        if kind == "building":
            self._ref(d.get("category"), i)
            self._ref(d.get("other_side"), i)
            for a in d.get("cost") or []:
                if isinstance(a, dict):
                    self._ref(a.get("what"), i)
                    self.amount_units.add(a.get("what"))
                    if isinstance(a.get("n"), dict):
                        self._refs_in(a["n"], i)
            if type(d.get("at")) is int:
                self.road_uses.append((pos_of(d), i, "at"))
        elif kind == "category":
            self._ref(d.get("built_on"), i)
        elif kind in ("counter", "zone"):
            self._ref(d.get("by"), i)
        elif kind == "game":
            self._ref(d.get("score"), i)
            self._ref(d.get("workers_return_to"), i)
            for r in d.get("rounds") or []:
                self._ref(r, i)
            for key in ("ends_if", "tiebreak"):
                if isinstance(d.get(key), dict):
                    self._refs_in(d[key], i)
        elif kind == "invariant" and isinstance(d.get("value"), dict):
            self._refs_in(d["value"], i)
        elif kind == "pieces":
            pass

    def _table_entries(self, entries: list, i: int, alts: list) -> None:
        for e in entries:
            if not isinstance(e, dict):
                continue
            if "entries" in e:
                self._table_entries(e.get("entries") or [], i, alts)
            else:
                self._ref(e.get("key"), i)
                alts.append(self._block(e.get("body"), i, {}, _Ctx()))

    def _body(self, key: tuple, i: int, stmts, env: dict, in_setup: bool = False) -> None:
        ctx = _Ctx(key=key, in_setup=in_setup)
        self.bodies[key] = Body(key, i, self._block(stmts, i, env, ctx))

    # ---------------------------------------------------------------- statements
    def _block(self, stmts, i: int, env: dict, ctx) -> list:
        ops: list = []
        if not isinstance(stmts, list):
            return ops
        env = dict(env)
        for st in stmts:
            if isinstance(st, dict):
                self._stmt(st, i, env, ctx, ops)
        return ops

    def _stmt(self, st: dict, i: int, env: dict, ctx, ops: list) -> None:
        s = st.get("s")
        if s == "call":
            self._call(st, i, env, ctx, ops)
        elif s == "set":
            t = st.get("target") or {}
            name = t.get("name")
            self._ref(name, i)
            for key in ("index", "of"):
                if isinstance(t.get(key), dict):
                    self._refs_in(t[key], i)
            value = st.get("value")
            if isinstance(value, dict):
                self._refs_in(value, i)
            self.sets.setdefault(name, []).append((st.get("op"), value, pos_of(st), i))
            if name in self.resources and st.get("op") in ("=", "+="):
                ops.append(Op("gain", pos_of(st), i, syms=frozenset((name,))))
        elif s == "let":
            value = st.get("value")
            if isinstance(value, dict):
                self._refs_in(value, i)
                env[st.get("name")] = _binding(self.sym(value, env), self.interval(value, env))
        elif s == "choose":
            alts = []
            for o in st.get("options") or []:
                inner = dict(env)
                guarded = ctx.guarded
                for prm in o.get("params") or []:
                    it, where = prm.get("in"), prm.get("where")
                    if isinstance(it, dict):
                        self._refs_in(it, i)
                        syms = self.sym(it, inner)
                    else:
                        syms = ANY
                    if isinstance(where, dict):
                        self._refs_in(where, i)
                        syms = syms | _exclusions(where, prm.get("name"))
                        guarded = guarded or self._mentions_road(where)
                    inner[prm.get("name")] = _binding(syms, self.interval(it, inner) if isinstance(it, dict) else None)
                if isinstance(o.get("when"), dict):
                    self._refs_in(o["when"], i)
                    guarded = guarded or self._mentions_road(o["when"])
                alts.append(self._block(o.get("body"), i, inner, ctx.with_guard(guarded)))
            if alts:
                ops.append(Op("branch", pos_of(st), i, alts=alts))
        elif s == "if":
            alts = []
            guarded = ctx.guarded
            for branch in st.get("branches") or []:
                if not (isinstance(branch, (list, tuple)) and len(branch) == 2):
                    continue
                cond, body = branch
                if isinstance(cond, dict):
                    self._refs_in(cond, i)
                    guarded = guarded or self._mentions_road(cond)
                alts.append(self._block(body, i, env, ctx.with_guard(guarded)))
            alts.append(self._block(st.get("else"), i, env, ctx.with_guard(guarded)))
            ops.append(Op("branch", pos_of(st), i, alts=alts))
        elif s == "for":
            it = st.get("iter")
            inner = dict(env)
            if isinstance(it, dict):
                self._refs_in(it, i)
                inner[st.get("var")] = _binding(self.sym(it, env), self.interval(it, env))
            ops.extend(self._block(st.get("body"), i, inner, ctx.in_loop(self._static_size(it, env))))
        elif s == "repeat":
            for key in ("times", "while"):
                if isinstance(st.get(key), dict):
                    self._refs_in(st[key], i)
            times = self.interval(st.get("times"), env) if isinstance(st.get("times"), dict) else None
            n = times[0] if times and times[0] == times[1] else None
            ops.extend(self._block(st.get("body"), i, env, ctx.in_loop(n)))
        elif s == "turns":
            if isinstance(st.get("order"), dict):
                self._refs_in(st["order"], i)
            ops.extend(self._block(st.get("body"), i, env, ctx.in_loop(None)))
        elif s == "as":
            if isinstance(st.get("player"), dict):
                self._refs_in(st["player"], i)
            ops.extend(self._block(st.get("body"), i, env, ctx))
        elif s == "defer":
            if isinstance(st.get("until_vacant"), dict):
                self._refs_in(st["until_vacant"], i)
            ops.extend(self._block(st.get("body"), i, env, ctx))
        elif s in ("step", "block", "entry"):
            ops.extend(self._block(st.get("body"), i, env, ctx))

    def _call(self, st: dict, i: int, env: dict, ctx, ops: list) -> None:
        name = st.get("name")
        args = [a for a in st.get("args") or [] if isinstance(a, dict)]
        kw = st.get("kw") or {}
        pos = pos_of(st)
        self._ref(name, i)
        for a in args + [v for v in kw.values() if isinstance(v, dict)]:
            if a.get("e") == "amount":
                self._ref(a.get("what"), i)
                self.amount_units.add(a.get("what"))
                if isinstance(a.get("n"), dict):
                    self._refs_in(a["n"], i)
            else:
                self._refs_in(a, i)
        if name in self.effects:
            params = self.effects[name].get("params") or []
            for n, a in enumerate(args[:len(params)]):
                self.param_sources.setdefault((name, n), []).append(
                    self.sym(a, env) if a.get("e") != "amount" else ANY)
            self.calls_of.setdefault(name, []).append((ctx.guarded, pos, i))
            ops.append(Op("call", pos, i, name=name))
            return
        if name in ("gain", "pay"):
            amounts = [(self.amount_syms(a, env), pos_of(a)) for a in args]
            if name == "gain":
                syms = frozenset().union(*[s for s, _ in amounts]) if amounts else EMPTY
                ops.append(Op("gain", pos, i, syms=syms))
            else:
                ops.append(Op("pay", pos, i, amounts=amounts))
        elif name in ("place_worker", "move_worker"):
            target = args[-1] if args else None
            syms = self.sym(target, env) if target is not None else ANY
            ops.append(Op("move", pos, i, syms=syms, name=name))
            ops.append(Op("emit", pos, i, name=EMITS[name], prim=name))
            self.emitters.setdefault(EMITS[name], []).append((ctx.key, pos, i, name))
        elif name == "activate":
            spaces = [(a.get("id"), pos_of(a)) for a in args if a.get("e") == "name"]
            ops.append(Op("activate", pos, i, spaces=spaces))
        elif name == "activate_road":
            ops.append(Op("road", pos, i, arg=args[0] if args else None))
            self.road_calls.append((args[0] if args else None, pos, i, ctx.key))
            self.road_uses.append((pos, i, name))
        elif name in ("build_tile", "build_on"):
            cat = args[0] if name == "build_tile" else (args[1] if len(args) > 1 else None)
            cats = self.sym(cat, env) if cat is not None else ANY
            ops.append(Op("build", pos, i, syms=cats, name=name))
            ops.append(Op("emit", pos, i, name="tile_built", prim=name))
            self.emitters.setdefault("tile_built", []).append((ctx.key, pos, i, name))
            self.builds.append((cats, ctx.guarded, pos, i, ctx.key, name))
            if name == "build_on" and args:
                self.transforms.append((self.sym(args[0], env), None, cats, pos, i))
        elif name == "place_piece":
            ops.append(Op("emit", pos, i, name="piece_placed", prim=name))
            self.emitters.setdefault("piece_placed", []).append((ctx.key, pos, i, name))
        elif name == "perform":
            ops.append(Op("perform", pos, i))
        elif name == "do":
            tables = [n for n in _names_in(args[0]) if n in self.tables] if args else []
            alts = [[Op("table", pos, i, name=t)] for t in tables]
            if alts:
                ops.append(Op("branch", pos, i, alts=alts))
        elif name == "deal_tiles" and len(args) == 2:
            rng = self.interval(args[1], env)
            self.deals.append((self.sym(args[0], env), rng, pos, i))
            self.road_uses.append((pos, i, name))
        elif name == "place_tile" and len(args) == 2:
            kinds = self.sym(args[0], env)
            self.places.append((kinds, self.interval(args[1], env), pos, i, ctx.in_setup, ctx.times))
            self.road_uses.append((pos, i, name))
        elif name == "transform_tile" and len(args) == 2:
            kind = args[1].get("id") if args[1].get("e") == "name" else None
            self.transforms.append((self.sym(args[0], env), kind, EMPTY, pos, i))
        elif name == "set_supply" and len(args) == 2 and ctx.in_setup:
            value = self.interval(args[1], env)
            kind = args[0].get("id") if args[0].get("e") == "name" and args[0].get("id") in self.buildings else None
            times = ctx.times
            self.supplies.append((kind, value[0] if value and value[0] == value[1] else None, times, pos, i))
        elif name == "put" and len(args) == 2:
            z = _zone_name(args[1])
            if z is not None:
                self.zone_sources.setdefault(z, []).append(self.sym(args[0], env))
        elif name == "move_top" and len(args) == 3:
            z, src = _zone_name(args[2]), _zone_name(args[0])
            if z is not None and src is not None:
                self.zone_sources.setdefault(z, []).append(frozenset((("Z", src),)))
        elif name == "swap_zones" and len(args) == 2:
            a, b = _zone_name(args[0]), _zone_name(args[1])
            if a is not None and b is not None:
                self.zone_sources.setdefault(a, []).append(frozenset((("Z", b),)))
                self.zone_sources.setdefault(b, []).append(frozenset((("Z", a),)))

    # ---------------------------------------------------------------- expressions: references
    def _refs_in(self, e: dict, i: int) -> None:
        """Record every name an expression mentions (iteratively: expressions may nest deeply)."""
        stack = [e]
        while stack:
            e = stack.pop()
            if not isinstance(e, dict):
                continue
            k = e.get("e")
            if k == "name":
                self._ref(e.get("id"), i)
                if e.get("id") in ROAD_FUNCS:
                    self.road_uses.append((pos_of(e), i, e.get("id")))
            elif k == "call":
                self._ref(e.get("fn"), i)
                if e.get("fn") in ROAD_FUNCS:
                    self.road_uses.append((pos_of(e), i, e.get("fn")))
                if e.get("fn") == "tagged":
                    self._tags_used(e, i)
                stack.extend(e.get("args") or [])
            elif k == "amount":
                self._ref(e.get("what"), i)
                stack.append(e.get("n"))
            elif k == "dict":
                for item in e.get("items") or []:
                    if isinstance(item, (list, tuple)) and len(item) == 2:
                        self._ref(item[0], i)
                        stack.append(item[1])
            else:
                if k == "binop" and e.get("op") in ("<", "<=", ">", ">=", "==", "!="):
                    self.compares.append((e.get("left"), e.get("op"), e.get("right"), pos_of(e), i))
                for key in ("left", "right", "x", "key", "player", "cond", "then", "else", "lo", "hi", "item", "iter", "n"):
                    v = e.get(key)
                    if isinstance(v, dict):
                        stack.append(v)
                for v in e.get("items") or ():
                    if isinstance(v, dict):
                        stack.append(v)

    def _tags_used(self, call: dict, i: int) -> None:
        """`tagged("city")` uses every space tagged city; a computed tag may be any tag."""
        args = call.get("args") or []
        strings, dynamic = [], False
        stack = list(args)
        while stack:
            a = stack.pop()
            if not isinstance(a, dict):
                continue
            if a.get("e") == "str":
                strings.append(a.get("v"))
            elif a.get("e") in ("name", "call", "attr", "of"):
                dynamic = dynamic or a.get("e") != "name" or a.get("id") not in self.value_of_enum
                if a.get("e") == "name" and a.get("id") in self.value_of_enum:
                    strings.append(a.get("id"))
                stack.extend(a.get("args") or [])
            elif a.get("e") == "dict":
                for item in a.get("items") or []:
                    if isinstance(item, (list, tuple)) and len(item) == 2:
                        stack.append(item[1])
            elif a.get("e") == "index":
                stack += [a.get("x")]
            else:
                for key in ("left", "right", "then", "else", "x"):
                    if isinstance(a.get(key), dict):
                        stack.append(a[key])
        for n, d in self.spaces.items():
            tags = d.get("tags") or ()
            if dynamic or any(t in tags for t in strings):
                self._ref(n, i)

    def _mentions_road(self, e: dict, depth: int = 0) -> bool:
        """Whether a condition looks at the road (directly or through lets)."""
        for n in _names_in(e):
            if n in ROAD_FUNCS:
                return True
            if n in self.lets and depth < MAX_LET_DEPTH and n not in self._let_busy:
                v = self.lets[n].get("value")
                if isinstance(v, dict):
                    self._let_busy.add(n)
                    try:
                        if self._mentions_road(v, depth + 1):
                            return True
                    finally:
                        self._let_busy.discard(n)
        return False

    # ---------------------------------------------------------------- expressions: symbols
    def amount_syms(self, a: dict, env: dict) -> frozenset:
        """The resources (or counters) an amount or bundle argument may be made of."""
        if a.get("e") == "amount":
            what = a.get("what")
            if what in env:
                return env[what].syms
            if what in self.resources or what in self.counters:
                return frozenset((what,))
            if what in self.lets:
                return self.sym({"e": "name", "id": what}, env)
            return ANY
        return self.sym(a, env)

    def sym(self, e, env: dict, depth: int = 0) -> frozenset:
        """The symbols an expression's value may be (or contain); see the module docstring."""
        if not isinstance(e, dict) or depth > 60:
            return ANY
        k = e.get("e")
        if k in ("int", "str", "range", "not", "neg"):
            return EMPTY
        if k == "name":
            n = e.get("id")
            if n in env:
                return env[n].syms
            if n in self.lets:
                return self._let_value(n)
            if n in self.enums:
                return frozenset(self.enums[n].get("values") or ())
            if n in self.zones:
                return frozenset((("Z", n),))
            if n in self.counters or n in P.CONSTANTS or n in ("player", "slot", "round", "player_count", "worker"):
                return EMPTY
            if n in ("target", "self"):
                return ANY
            if self.kind_of(n) is not None:
                return frozenset((n,))
            return ANY
        if k in ("list",):
            out = set()
            for it in e.get("items") or []:
                out |= self.sym(it, env, depth + 1)
            return frozenset(out)
        if k == "dict":
            out = set()
            for item in e.get("items") or []:
                if isinstance(item, (list, tuple)) and len(item) == 2:
                    out |= self.sym(item[1], env, depth + 1)
            return frozenset(out)
        if k == "comp":
            inner = dict(env)
            inner[e.get("var")] = _binding(self.sym(e.get("iter"), env, depth + 1))
            return self.sym(e.get("item"), inner, depth + 1)
        if k == "binop":
            if e.get("op") == "+":
                return self.sym(e.get("left"), env, depth + 1) | self.sym(e.get("right"), env, depth + 1)
            return EMPTY
        if k == "if":
            return self.sym(e.get("then"), env, depth + 1) | self.sym(e.get("else"), env, depth + 1)
        if k in ("index", "of"):
            return self.sym(e.get("x"), env, depth + 1)
        if k == "attr":
            inner = self.sym(e.get("x"), env, depth + 1)
            attr = e.get("name")
            if attr == "other_side":
                if TOP in inner or any(type(s) is tuple for s in inner):
                    return frozenset((("A", "other_side", inner),)) if TOP not in inner else ANY
                return frozenset(self.buildings[b].get("other_side") for b in inner
                                 if b in self.buildings and self.buildings[b].get("other_side"))
            if attr == "kind":
                return inner if TOP not in inner and ROADSYM not in inner else ANY
            if attr == "category":
                return frozenset(self.buildings[b].get("category") for b in inner if b in self.buildings) \
                    if TOP not in inner and ROADSYM not in inner else ANY
            return EMPTY
        if k == "call":
            fn = e.get("fn")
            args = e.get("args") or []
            if fn in PASS_THROUGH:
                return self.sym(args[0], env, depth + 1) if args else EMPTY
            if fn in NO_SYMBOLS:
                return EMPTY
            if fn == "open_spaces":
                return frozenset((OPEN,))
            if fn in ("road_tiles", "owned_tiles", "road_at"):
                return frozenset((ROADSYM,))
            if fn == "tagged":
                if args and args[0].get("e") == "str":
                    tag = args[0].get("v")
                    return frozenset(n for n, d in self.spaces.items() if tag in (d.get("tags") or ()))
                return frozenset(self.spaces)
            if fn in self.lets:
                d = self.lets[fn]
                params = d.get("params") or []
                if fn in self._let_busy or depth > MAX_LET_DEPTH:
                    return ANY
                inner = {p: _binding(self.sym(a, env, depth + 1)) for p, a in zip(params, args)}
                self._let_busy.add(fn)
                try:
                    return self.sym(d.get("value"), inner, depth + 1)
                finally:
                    self._let_busy.discard(fn)
            return ANY
        return ANY

    def _let_value(self, n: str) -> frozenset:
        found = self._let_syms.get(n)
        if found is not None:
            return found
        if n in self._let_busy:
            return ANY
        self._let_busy.add(n)
        try:
            d = self.lets[n]
            value = self.sym(d.get("value"), {}) if not d.get("params") else ANY
        finally:
            self._let_busy.discard(n)
        self._let_syms[n] = value
        return value

    # ---------------------------------------------------------------- expressions: whole numbers
    def interval(self, e, env: dict | None = None, depth: int = 0):
        """(lo, hi) bounds of a whole-number expression known before play, or None."""
        if not isinstance(e, dict) or depth > 40:
            return None
        env = env or {}
        k = e.get("e")
        if k == "int":
            v = e.get("v")
            return (v, v) if type(v) is int else None
        if k == "name":
            n = e.get("id")
            if n in env:
                return env[n].interval
            d = self.lets.get(n)
            if d is not None and not d.get("params") and n not in self._let_busy:
                self._let_busy.add(n)
                try:
                    return self.interval(d.get("value"), {}, depth + 1)
                finally:
                    self._let_busy.discard(n)
            return None
        if k == "range":
            lo, hi = self.interval(e.get("lo"), env, depth + 1), self.interval(e.get("hi"), env, depth + 1)
            if lo is not None and hi is not None and lo[0] == lo[1] and hi[0] == hi[1]:
                return (lo[0], hi[0])
            return None
        if k == "neg":
            x = self.interval(e.get("x"), env, depth + 1)
            return (-x[1], -x[0]) if x else None
        if k == "binop" and e.get("op") in ("+", "-", "*"):
            a, b = self.interval(e.get("left"), env, depth + 1), self.interval(e.get("right"), env, depth + 1)
            if a is None or b is None:
                return None
            op = e.get("op")
            if op == "+":
                return (a[0] + b[0], a[1] + b[1])
            if op == "-":
                return (a[0] - b[1], a[1] - b[0])
            products = [x * y for x in a for y in b]
            return (min(products), max(products))
        return None

    def _static_size(self, it, env) -> int | None:
        r = self.interval(it, env) if isinstance(it, dict) and it.get("e") == "range" else None
        if r is not None:
            return max(0, r[1] - r[0] + 1)
        if isinstance(it, dict) and it.get("e") == "list":
            return len(it.get("items") or [])
        return None

    # ================================================================ solving parameters and zones
    def _solve(self) -> None:
        """Resolve ("P", effect, n) and ("Z", zone) markers into plain symbol sets (a fixpoint)."""
        keys = [("P",) + k for k in self.param_sources] + [("Z", z) for z in self.zone_sources]
        value = {k: EMPTY for k in keys}
        sources = {("P",) + k: v for k, v in self.param_sources.items()}
        sources.update({("Z", z): v for z, v in self.zone_sources.items()})
        for _ in range(len(keys) + 2):
            changed = False
            for k in keys:
                new = set()
                for s in sources[k]:
                    new |= self._expand(s, value)
                new = frozenset(new) if TOP not in new else ANY
                if new != value[k]:
                    value[k] = new
                    changed = True
            if not changed:
                break
        self._markers = value
        self._solved = True

    def _expand(self, syms: frozenset, value: dict) -> frozenset:
        if not any(type(s) is tuple for s in syms):
            return syms
        out = set()
        for s in syms:
            if type(s) is not tuple:
                out.add(s)
            elif s[0] == "A":
                inner = self._expand(s[2], value)
                if TOP in inner:
                    return ANY
                out |= {self.buildings[b].get("other_side") for b in inner
                        if b in self.buildings and self.buildings[b].get("other_side")}
            else:
                out |= value.get(s, ANY if s[0] == "P" else EMPTY)
        return frozenset(out)

    def resolve(self, syms: frozenset) -> frozenset:
        """A symbol set without markers (parameters and zones replaced by what they may hold)."""
        found = self._resolved.get(syms)
        if found is None:
            found = self._expand(syms, self._markers)
            if TOP in found:
                found = ANY
            self._resolved[syms] = found
        return found

    def resources_of(self, syms: frozenset) -> frozenset:
        """The resources a symbol set may name: ANY if unknown."""
        r = self.resolve(syms)
        if TOP in r:
            return ANY
        return frozenset(s for s in r if s in self.resources)

    def spaces_of(self, syms: frozenset) -> frozenset:
        """The spaces (and ROADSYM for road tiles) a symbol set may name: ANY if unknown."""
        r = self.resolve(syms)
        if TOP in r:
            return ANY
        out = set()
        excluded = {s[1:] for s in r if type(s) is str and s.startswith("!")}
        for s in r:
            if s == OPEN:
                out.update(n for n in self.placeable if n not in excluded)
                out.add(ROADSYM)
            elif s == ROADSYM or s in self.buildings:
                out.add(ROADSYM)
            elif s in self.spaces:
                out.add(s)
        return frozenset(out)


# ==================================================================== helpers
@dataclass(frozen=True)
class _Binding:
    syms: frozenset
    interval: tuple | None = None


def _binding(syms: frozenset, interval=None) -> _Binding:
    return _Binding(syms, interval)


@dataclass(frozen=True)
class _Ctx:
    key: tuple = ()
    in_setup: bool = False
    guarded: bool = False
    times: int | None = 1          # how many times this point runs per execution of the body (None: unknown)

    def with_guard(self, guarded: bool) -> "_Ctx":
        return self if guarded == self.guarded else _Ctx(self.key, self.in_setup, guarded, self.times)

    def in_loop(self, n: int | None) -> "_Ctx":
        times = None if (n is None or self.times is None) else self.times * n
        return _Ctx(self.key, self.in_setup, self.guarded, times)


def _exclusions(where: dict, var: str) -> frozenset:
    """`t != gate and t != inn` -> {"!gate", "!inn"}: spaces an option parameter may not be."""
    out = set()
    stack = [where]
    while stack:
        e = stack.pop()
        if not isinstance(e, dict) or e.get("e") != "binop":
            continue
        if e.get("op") == "and":
            stack += [e.get("left"), e.get("right")]
        elif e.get("op") == "!=":
            left, right = e.get("left") or {}, e.get("right") or {}
            if left.get("e") == "name" and left.get("id") == var and right.get("e") == "name":
                out.add("!" + str(right.get("id")))
            elif right.get("e") == "name" and right.get("id") == var and left.get("e") == "name":
                out.add("!" + str(left.get("id")))
    return frozenset(out)


def _names_in(e) -> list:
    out = []
    stack = [e]
    while stack:
        e = stack.pop()
        if not isinstance(e, dict):
            continue
        if e.get("e") == "name":
            out.append(e.get("id"))
        elif e.get("e") == "call":
            out.append(e.get("fn"))
            stack.extend(e.get("args") or [])
        else:
            for key in ("left", "right", "x", "key", "player", "cond", "then", "else", "lo", "hi", "item", "iter", "n"):
                if isinstance(e.get(key), dict):
                    stack.append(e[key])
            for v in e.get("items") or ():
                if isinstance(v, dict):
                    stack.append(v)
                elif isinstance(v, (list, tuple)) and len(v) == 2 and isinstance(v[1], dict):
                    stack.append(v[1])
    return out


def _zone_name(e) -> str | None:
    while isinstance(e, dict) and e.get("e") in ("of", "index"):
        e = e.get("x")
    if isinstance(e, dict) and e.get("e") == "name":
        return e.get("id")
    return None


# ==================================================================== one Facts per ruleset
_cache: list = [None, None, None]   # [ruleset, fingerprint, Facts]


def facts(ruleset) -> Facts:
    """The ruleset's Facts, built once and shared by the graph checks that run on it."""
    fingerprint = (id(ruleset.decls), len(ruleset.decls), tuple(map(id, ruleset.decls)))
    if _cache[0] is ruleset and _cache[1] == fingerprint:
        return _cache[2]
    f = Facts(ruleset)
    _cache[0], _cache[1], _cache[2] = ruleset, fingerprint, f
    return f
