"""Every value a rule expression can take, bounded from the rules alone.

An abstract interpretation of the program: each expression gets a *domain*, a
finite superset of the values it can have in any game, or ``None`` when the
rules do not bound it (an amount of money, a round number without a last
round).  The statements are walked once with the domains of the names in scope
(loop variables, earlier parameters of an option, an effect's parameters, local
lets), and what can flow into a zone (``put``, ``move_top``, ``swap_zones``) is
followed to a fixed point, so ``option character(c in offer)`` ranges over every
character some rule can put on the offer.

Two readings of an expression:

- ``values(e, env)``: the values ``e`` itself can take;
- ``elements(e, env)``: the items of the list ``e`` can be.

Values are hashable: a list is a tuple.  A domain larger than ``CAP`` is given
up (``None``).  Conditions (``if``, ``where``) are ignored, which keeps every
domain a superset.  Expressions whose value follows from the rules and the
names in scope are simply computed, once per combination of those names'
values.

Used by the action catalogue (``provost.adapters.catalogue``: every option id a
``choose`` can offer) and by the observation vocabularies (every item a zone can
hold).
"""
from __future__ import annotations

from itertools import product

from .program import is_static

#: A domain with more values than this is not bounded (None).
CAP = 50_000
#: At most this many combinations of the names in scope are computed for one expression.
COMBINATIONS = 4_096
#: Passes over the statements before the zones' and effects' domains must have settled.
PASSES = 12

_EMPTY: frozenset = frozenset()
_BOOL = frozenset({True, False})
#: Names the interpreter reads from the state, not from the scope: never computed with a domain's values.
_FROM_STATE = frozenset({"round"})


class ListOf:
    """A name bound to a list whose values are not bounded but whose items are (a let's or an
    effect's list argument, a local list)."""
    __slots__ = ("items",)

    def __init__(self, items):
        self.items = items

    def __eq__(self, other):
        return isinstance(other, ListOf) and self.items == other.items

    def __hash__(self):
        return hash(self.items)


def hashable(v):
    """A value as a domain holds it: lists become tuples."""
    if isinstance(v, list):
        return tuple(hashable(x) for x in v)
    if isinstance(v, dict):
        return tuple(sorted((k, hashable(x)) for k, x in v.items()))
    return v


def listed(v):
    """A domain's value as the interpreter holds it: tuples become lists."""
    if isinstance(v, tuple):
        return [listed(x) for x in v]
    return v


def _union(*doms):
    out = set()
    for d in doms:
        if d is None:
            return None
        out |= d
    return frozenset(out) if len(out) <= CAP else None


def _bounded(xs):
    s = frozenset(xs)
    return s if len(s) <= CAP else None


def _names(e, out=None) -> set:
    out = set() if out is None else out
    if isinstance(e, dict):
        if e.get("e") == "name":
            out.add(e["id"])
        elif e.get("e") == "call":
            out.add(e["fn"])
        for v in e.values():
            _names(v, out)
    elif isinstance(e, list):
        for v in e:
            _names(v, out)
    return out


def tile_instances(prog) -> list[str]:
    """Every tile instance name the engine can give (``kind``, ``kind_2`` ... up to how many can exist)."""
    out = []
    for kind, b in prog.buildings.items():
        count = b["count"]
        cap = prog.road_length if not isinstance(count, int) else max(1, count)
        cap = max(1, min(cap, max(1, prog.road_length)))
        out.append(kind)
        out.extend("%s_%d" % (kind, k) for k in range(2, cap + 1))
    return out


class Domains:
    """The domains of one program (a ruleset, variant and player count), computed once."""

    def __init__(self, game):
        self.g = game
        self.prog = prog = game.prog
        self.players = frozenset(range(game.s.players))
        self.tiles = tile_instances(prog)
        self._kind_of = {t: t.rsplit("_", 1)[0] if t not in prog.buildings else t for t in self.tiles}
        self.sites = frozenset(prog.spaces) | frozenset(self.tiles) | frozenset(prog.buildings)
        rounds = prog.max_rounds if isinstance(prog.max_rounds, int) and prog.max_rounds > 0 else None
        self.base_env = {"player": self.players, "worker": self.players, "player_count": frozenset({game.s.humans}),
                         "round": frozenset(range(1, rounds + 1)) if rounds else None,
                         "target": None, "self": None, "slot": None}
        self._effects = {d["name"]: d for d in prog.rs.decls if d.get("kind") == "effect"}
        self._compiled: dict = {}
        self._calling: list = []
        #: item domain of every zone (the items its lists can hold)
        self.zone_items: dict = {name: _EMPTY for name in prog.zones}
        #: every place a kind of piece can be (where it starts, its declared places, where effects move it)
        self.piece_places: dict = {kind: frozenset([d.get("start")] + list(d.get("private") or ())
                                                   + list(d.get("public") or ())) - {None}
                                   for kind, d in prog.pieces.items()}
        #: per user effect, the domain of each parameter (union over its calls)
        self.effect_args: dict = {name: [_EMPTY] * len(d.get("params") or []) for name, d in self._effects.items()}
        #: [(option name, [domain of each parameter])] for every option of every choose
        self.options: list = []
        self._settle()

    # ------------------------------------------------------------ the walk over statements
    def _settle(self) -> None:
        for _ in range(PASSES):
            before = (dict(self.zone_items), {k: list(v) for k, v in self.effect_args.items()},
                      dict(self.piece_places))
            self.options = []
            for d in self.prog.rs.decls:
                if d.get("kind") == "effect":
                    params = d.get("params") or []
                    env = dict(self.base_env)
                    env.update(zip(params, self.effect_args[d["name"]]))
                    self._walk(d.get("body"), env)
                elif d.get("kind") not in ("let", "invariant"):
                    self._walk(d, dict(self.base_env))
            if (self.zone_items, self.effect_args, self.piece_places) == before:
                return
        # Not settled (a domain kept growing): what still changes is not bounded.
        for name, items in before[0].items():
            if self.zone_items[name] != items:
                self.zone_items[name] = None
        for kind, places in before[2].items():
            if self.piece_places[kind] != places:
                self.piece_places[kind] = None

    def _walk(self, x, env) -> None:
        if isinstance(x, list):
            if x and all(isinstance(i, dict) and "s" in i for i in x):
                self._block(x, env)
            else:
                for i in x:
                    self._walk(i, env)
        elif isinstance(x, dict) and "e" not in x:
            if "s" in x:
                self._block([x], env)
            else:
                for v in x.values():
                    self._walk(v, env)

    def _block(self, statements, env) -> None:
        env = dict(env)
        for st in statements:
            kind = st["s"]
            if kind == "let":
                env[st["name"]] = self.binding(st["value"], env)
            elif kind == "for":
                self._walk(st["body"], {**env, st["var"]: self.elements(st["iter"], env)})
            elif kind == "choose":
                for option in st["options"]:
                    self._walk(option["body"], self._option(option, env))
            elif kind == "call":
                self._call(st, env)
            else:
                for key, v in st.items():
                    if key not in ("s", "pos"):
                        self._walk(v, env)

    def _option(self, option, env) -> dict:
        inner = dict(env)
        doms = []
        for prm in option["params"]:
            d = self.elements(prm["in"], inner)
            doms.append(d)
            inner[prm["name"]] = d
        self.options.append((option["name"], doms))
        return inner

    def _call(self, st, env) -> None:
        name, args = st["name"], st["args"]
        if name in self._effects:
            doms = self.effect_args[name]
            for i, a in enumerate(args[:len(doms)]):
                doms[i] = _merge(doms[i], self.binding(a, env))
        elif name == "put" and len(args) == 2:
            self._into(args[1], self._items(args[0], env))
        elif name == "move_top" and len(args) == 3:
            self._into(args[2], self.zone_items.get(self._zone(args[0])))
        elif name in _PIECE_DESTINATION and len(args) > _PIECE_DESTINATION[name]:
            kind = args[0].get("id")
            if kind in self.piece_places and self.piece_places[kind] is not None:
                self.piece_places[kind] = _union(self.piece_places[kind],
                                                 self.values(args[_PIECE_DESTINATION[name]], env))
        elif name == "swap_zones" and len(args) == 2:
            a, b = self._zone(args[0]), self._zone(args[1])
            both = _union(self.zone_items.get(a), self.zone_items.get(b))
            self._into(args[0], both)
            self._into(args[1], both)

    def _items(self, e, env):
        """What ``put e`` adds: a list's items, or the value itself."""
        vals = self.values(e, env)
        if vals is None:
            return self.elements(e, env)
        out = set()
        for v in vals:
            out.update(v if isinstance(v, tuple) else (v,))
        return _bounded(out)

    def _zone(self, e):
        if e.get("e") == "of":
            e = e["x"]
        if e.get("e") == "index":
            e = e["x"]
        return e.get("id") if e.get("e") == "name" else None

    def _into(self, zone_expr, items) -> None:
        z = self._zone(zone_expr)
        if z in self.zone_items and self.zone_items[z] is not None:
            self.zone_items[z] = _union(self.zone_items[z], items)

    def binding(self, e, env):
        """What a name bound to ``e`` holds: its values, or (a list) the items it can hold."""
        vals = self.values(e, env)
        if vals is not None:
            return vals
        items = self.elements(e, env)
        return None if items is None else ListOf(items)

    # ------------------------------------------------------------ expressions
    def _computed(self, e, env):
        """The values of an expression that follows from the rules and the names in scope, or
        False when it does not (or cannot be computed)."""
        used = _names(e)
        if used & _FROM_STATE or any(n in env and not isinstance(env[n], frozenset) for n in used):
            return False
        bound = [n for n in used if n in env]
        if not is_static(e, self.prog, frozenset(bound)):
            return False
        key = (id(e), frozenset(bound))
        f = self._compiled.get(key)
        if f is None:
            try:
                f = self.prog.expr.compile(e, frozenset(bound) | {"player"})
            except Exception:                   # noqa: BLE001 - not computable here: bounded structurally
                f = False
            self._compiled[key] = f
        if f is False:
            return False
        doms = [sorted(env[n], key=_natural) for n in bound]
        size = 1
        for d in doms:
            size *= len(d)
        if size > COMBINATIONS:
            return False
        out, failed = set(), 0
        for combo in product(*doms):
            scope = {"player": 0}
            scope.update({n: listed(v) for n, v in zip(bound, combo)})
            try:
                out.add(hashable(f(self.g, scope)))
            except Exception:                   # noqa: BLE001 - a combination no game reaches
                failed += 1
        if failed and not out:
            return False
        return out

    def values(self, e, env):
        """A superset of the values of ``e`` (a frozenset), or None."""
        got = self._computed(e, env)
        if got is not False:
            return _bounded(got)
        k = e.get("e")
        if k in ("int", "str"):
            return frozenset({e["v"]})
        if k == "name":
            return self._name_values(e["id"], env)
        if k == "list":
            parts = [self.values(i, env) for i in e["items"]]
            if any(p is None for p in parts) or product_size(parts) > CAP:
                return None
            return frozenset(product(*parts))
        if k == "binop":
            return self._binop(e, env)
        if k == "not":
            return _BOOL
        if k == "neg":
            x = self.values(e["x"], env)
            return None if x is None else _bounded(-v for v in x if isinstance(v, int))
        if k == "if":
            return _union(self.values(e["then"], env), self.values(e["else"], env))
        if k == "index":
            return self._index_values(e, env)
        if k == "attr":
            return self._attr_values(e, env)
        if k == "of":
            return self.values(e["x"], env)
        if k == "call":
            return self._call_values(e, env)
        return None

    def elements(self, e, env):
        """A superset of the items of the list ``e`` (a frozenset), or None."""
        got = self._computed(e, env)
        if got is not False:
            return self._items_of(got)
        k = e.get("e")
        if k == "name":
            n = e["id"]
            if n in env:
                v = env[n]
                return v.items if isinstance(v, ListOf) else self._items_of(v)
            if n in self.prog.zones:
                return None if self.prog.zones[n].get("by") else self.zone_items[n]
            d = self.prog.lets.get(n)
            if d is not None and not d.get("params"):
                return self._in_let(n, [], env, self.elements)
            return None
        if k == "list":
            return _union(*[self.values(i, env) for i in e["items"]])
        if k == "range":
            lo, hi = self.values(e["lo"], env), self.values(e["hi"], env)
            if not lo or not hi or not all(isinstance(v, int) for v in lo | hi):
                return None
            return frozenset(range(min(lo), max(hi) + 1)) if max(hi) - min(lo) < CAP else None
        if k == "comp":
            inner = {**env, e["var"]: self.elements(e["iter"], env)}
            return self.values(e["item"], inner)
        if k == "binop" and e["op"] == "+":
            return _union(self.elements(e["left"], env), self.elements(e["right"], env))
        if k == "if":
            return _union(self.elements(e["then"], env), self.elements(e["else"], env))
        if k == "index":
            base = e["x"]
            z = base.get("id") if base.get("e") == "name" else None
            if z in self.prog.zones and self.prog.zones[z].get("by") and z not in env:
                return self.zone_items[z]
            return self._items_of(self.values(e, env))
        if k == "of":
            return self.elements(e["x"], env)
        if k == "call":
            return self._call_elements(e, env)
        return None

    @staticmethod
    def _items_of(dom):
        if dom is None:
            return None
        out = set()
        for v in dom:
            if isinstance(v, tuple):
                out.update(v)
            elif v is not None:
                return None                      # not a list
        return _bounded(out)

    def _name_values(self, n, env):
        if n in env:
            v = env[n]
            return v if isinstance(v, frozenset) else None
        prog = self.prog
        if n in prog.zones or n in prog.orders:
            return None
        c = prog.counters.get(n)
        if c is not None and n not in prog.resources:
            return None if c.get("by") else self._counter_values(c)
        d = prog.lets.get(n)
        if d is not None and not d.get("params"):
            return self._in_let(n, [], env, self.values)
        return None

    @staticmethod
    def _counter_values(c):
        """A counter stays within its declared bounds (the engine clamps every change to them;
        an undeclared minimum is 0)."""
        lo, hi = c.get("min"), c.get("max")
        if hi is None or lo is None:
            return None
        return frozenset(range(lo, hi + 1)) if hi - lo < CAP else None

    def _in_let(self, name, args, env, reading):
        """``reading`` (values or elements) of a let's body, its parameters bound to ``args``."""
        if name in self._calling or len(self._calling) > 16:
            return None                          # recursion: not bounded here
        d = self.prog.lets[name]
        inner = {"player": env.get("player", self.players)}
        inner.update(zip(d.get("params") or [], args))
        self._calling.append(name)
        try:
            return reading(d["value"], inner)
        finally:
            self._calling.pop()

    def _binop(self, e, env):
        op = e["op"]
        if op in ("and", "or", "==", "!=", "<", "<=", ">", ">=", "in", "not in"):
            return _BOOL
        a, b = self.values(e["left"], env), self.values(e["right"], env)
        if a is None or b is None or len(a) * len(b) > CAP:
            return None
        out = set()
        for x, y in product(a, b):
            try:
                if op == "+":
                    out.add(x + y)
                elif op == "-":
                    out.add(x - y)
                elif op == "*":
                    out.add(x * y)
                elif op == "//":
                    out.add(x // y)
                elif op == "%":
                    out.add(x % y)
                else:
                    return None
            except (TypeError, ZeroDivisionError):
                continue
        return _bounded(out)

    def _index_values(self, e, env):
        base, key = e["x"], e["key"]
        z = base.get("id") if base.get("e") == "name" else None
        if z in self.prog.zones and z not in env:
            return None if self.prog.zones[z].get("by") else self.zone_items[z]
        if z in self.prog.counters and z not in env and z not in self.prog.resources:
            return self._counter_values(self.prog.counters[z])     # favor_level[r]
        xs, keys = self.values(base, env), self.values(key, env)
        if xs is None:
            return None
        out = set()
        for x in xs:
            if isinstance(x, tuple) and x and isinstance(x[0], tuple) and len(x[0]) == 2 and \
                    all(isinstance(p, tuple) and len(p) == 2 for p in x):
                pairs = dict(x)                  # a dict value (sorted pairs)
                out.update(pairs.values() if keys is None else (pairs[k] for k in keys if k in pairs))
            elif isinstance(x, tuple):
                if keys is None:
                    out.update(x)
                else:
                    out.update(x[k] for k in keys if isinstance(k, int) and -len(x) <= k < len(x))
            else:
                return None
        return _bounded(out)

    def _attr_values(self, e, env):
        attr = e["name"]
        xs = self.values(e["x"], env)
        if attr == "owner":
            return self.players | {None}
        if xs is None:
            return None
        out = set()
        for x in xs:
            if x is None:
                out.add(None)
                continue
            kind = self._kind_of.get(x, x)
            if attr == "kind":
                out.add(kind)
                continue
            try:
                out.add(hashable(self.prog.attribute(self.g, kind, attr, None)))
            except Exception:                    # noqa: BLE001 - not an attribute of the rules' data
                return None
        return _bounded(out)

    # ------------------------------------------------------------ functions
    def _call_values(self, e, env):
        fn, args = e["fn"], e["args"]
        if fn in self.prog.lets:
            return self._in_let(fn, [self.binding(a, env) for a in args], env, self.values)
        if fn == "first":
            items = self.elements(args[0], env)
            return None if items is None else items | {None}
        if fn in ("max", "min"):
            items = self.elements(args[0], env)
            return None if items is None else items | {0}
        if fn == "road_at":
            return frozenset(self.tiles) | {None}
        if fn in _BOOLEAN_FUNCTIONS:
            return _BOOL
        return None

    def _call_elements(self, e, env):
        fn, args = e["fn"], e["args"]
        prog = self.prog
        if fn in prog.lets:
            return self._in_let(fn, [self.binding(a, env) for a in args], env, self.elements)
        if fn == "distinct":
            return self.elements(args[0], env)
        if fn in ("multisets", "combinations"):
            # The picks keep the order of a list this analysis does not know (only its items):
            # every ordered k-tuple of the items is a superset of both.
            items, ks = self.elements(args[0], env), self.values(args[1], env)
            if items is None or ks is None:
                return None
            out = set()
            for k in ks:
                if not isinstance(k, int) or k < 0 or len(items) ** k > CAP:
                    return None
                out.update(product(sorted(items, key=_natural), repeat=k))
            return _bounded(out)
        if fn == "rank_by":
            rows = args[0]
            if rows.get("e") == "comp" and rows["item"].get("e") == "list" and rows["item"]["items"]:
                inner = {**env, rows["var"]: self.elements(rows["iter"], env)}
                return self.values(rows["item"]["items"][0], inner)
            got = self.elements(rows, env)
            return None if got is None else _bounded(r[0] for r in got if isinstance(r, tuple) and r)
        if fn == "open_spaces":
            return frozenset(n for n, d in prog.spaces.items() if d["placeable"]) | frozenset(self.tiles)
        if fn in ("road_tiles", "owned_tiles"):
            return frozenset(self.tiles)
        if fn in ("players", "occupants", "present"):
            return self.players
        if fn == "spaces":
            return frozenset(prog.spaces)
        if fn == "buildings":
            return frozenset(prog.buildings)
        if fn == "worker_places":
            return frozenset(prog.spaces) | frozenset(self.tiles)
        if fn == "piece_values":
            return self._piece_values(args[0], env)
        if fn == "hidden_pieces":
            places = self._places(args[1], env)
            kinds = self.values(args[0], env)
            if places is None or kinds is None:
                return None
            most = max((len(self._all_values(k)) for k in kinds), default=0)
            return _bounded(product(self.players, places, range(most)))
        return None

    def _places(self, e, env):
        """A place argument: one place or a list of places."""
        vals = self.values(e, env)
        if vals is not None and not any(isinstance(v, tuple) for v in vals):
            return vals
        return self.elements(e, env)

    def _all_values(self, kind) -> list:
        d = self.prog.pieces.get(kind) or {}
        return list(d.get("values") or ()) + list(d.get("reserve") or ())

    def _piece_values(self, kind_expr, env):
        kinds = self.values(kind_expr, env)
        if kinds is None:
            return None
        out = set()
        for k in kinds:
            d = self.prog.pieces.get(k)
            if d is None:
                return None
            out.update(self._all_values(k))
            out.update(d.get("neutral_values") or ())
        return _bounded(out)


#: The effects that move pieces, and which argument is where to.
_PIECE_DESTINATION = {"place_piece": 3, "gather_pieces": 2}

#: Functions whose value is yes or no.
_BOOLEAN_FUNCTIONS = frozenset({"has_tag", "is_neutral", "awaited", "all"})


def _merge(a, b):
    """Two bindings of one parameter joined (values with values, items with items)."""
    if a is None or b is None:
        return None
    if isinstance(a, ListOf) or isinstance(b, ListOf):
        items = [x.items if isinstance(x, ListOf) else Domains._items_of(x) for x in (a, b)]
        joined = _union(*items)
        return None if joined is None else ListOf(joined)
    return _union(a, b)


def _natural(v):
    return (0, v, "") if isinstance(v, int) else (1, 0, repr(v))


def product_size(parts) -> int:
    """How many combinations a list of domains makes (an empty one counted as one)."""
    n = 1
    for p in parts:
        n *= max(1, len(p))
    return n
