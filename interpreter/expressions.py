"""IR expressions -> Python closures ``f(g, env) -> value``.

Names are resolved once, at compile time, to the thing they denote (a local
binding, a counter, an order, a let, a symbol), so evaluation does no lookups
by kind.  Values are ints, strings (symbols: resources, spaces, tiles, enum
values), lists, dicts, None, and table references (see ``TableRef``).
"""
from __future__ import annotations

import itertools
import operator

from dsl.primitives import CONSTANTS

from .library import FUNCTION_BUILDERS


class RuleRuntimeError(Exception):
    """An expression failed at run time (a bad index, a type clash); carries the rule's position."""

    def __init__(self, message: str, pos=None):
        super().__init__(message)
        self.pos = pos


class TableRef:
    """A table, or a row of one, while an expression indexes into it."""
    __slots__ = ("entries",)

    def __init__(self, entries):
        self.entries = entries   # list of (key, payload): key is a symbol or (from, to); payload node id or TableRef

    def lookup(self, key, pos):
        for k, payload in self.entries:
            if type(k) is tuple:
                if type(key) is int and key >= k[0] and (k[1] is None or key <= k[1]):
                    return payload
            elif k == key:
                return payload
        raise RuleRuntimeError("table has no entry for %r" % (key,), pos)


_BINOPS = {
    "+": operator.add, "-": operator.sub, "*": operator.mul,
    "==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le,
    ">": operator.gt, ">=": operator.ge,
}


def _short(v, limit: int = 80) -> str:
    text = repr(v)
    return text if len(text) <= limit else text[:limit] + "..."


def _floordiv(a, b):
    return a // b if b else 0


def _mod(a, b):
    return a % b if b else 0


def _constant(v):
    """A closure for a literal or a symbol; ``value`` lets callers specialise on it."""
    def constant(g, env):
        return v
    constant.value = v
    return constant


_WITH_CONSTANT = {
    "+": lambda a, v: lambda g, env: a(g, env) + v,
    "-": lambda a, v: lambda g, env: a(g, env) - v,
    "==": lambda a, v: lambda g, env: a(g, env) == v,
    "!=": lambda a, v: lambda g, env: a(g, env) != v,
    "<": lambda a, v: lambda g, env: a(g, env) < v,
    ">": lambda a, v: lambda g, env: a(g, env) > v,
    "<=": lambda a, v: lambda g, env: a(g, env) <= v,
    ">=": lambda a, v: lambda g, env: a(g, env) >= v,
}


# A loop variable or parameter (read from the scope) against a literal or any expression:
# the commonest comparisons in filters and `when`s, one closure call instead of two or three.
_VAR_WITH_CONSTANT = {
    "==": lambda n, v: lambda g, env: env[n] == v,
    "!=": lambda n, v: lambda g, env: env[n] != v,
    "<": lambda n, v: lambda g, env: env[n] < v,
    ">": lambda n, v: lambda g, env: env[n] > v,
    "<=": lambda n, v: lambda g, env: env[n] <= v,
    ">=": lambda n, v: lambda g, env: env[n] >= v,
    "in": lambda n, v: lambda g, env: env[n] in v,
    "not in": lambda n, v: lambda g, env: env[n] not in v,
}
_VAR_WITH = {
    "==": lambda n, b: lambda g, env: env[n] == b(g, env),
    "!=": lambda n, b: lambda g, env: env[n] != b(g, env),
    "<": lambda n, b: lambda g, env: env[n] < b(g, env),
    ">": lambda n, b: lambda g, env: env[n] > b(g, env),
    "<=": lambda n, b: lambda g, env: env[n] <= b(g, env),
    ">=": lambda n, b: lambda g, env: env[n] >= b(g, env),
    "in": lambda n, b: lambda g, env: env[n] in b(g, env),
    "not in": lambda n, b: lambda g, env: env[n] not in b(g, env),
}


class ExprCompiler:
    """Compiles expressions against a Program (which knows the declarations)."""

    def __init__(self, program):
        self.p = program

    def compile(self, e, scope: frozenset):
        kind = e["e"]
        return getattr(self, "c_" + kind)(e, scope)

    # ------------------------------------------------------------ literals
    def c_int(self, e, scope):
        return _constant(e["v"])

    def c_str(self, e, scope):
        return _constant(e["v"])

    def c_list(self, e, scope):
        items = [self.compile(i, scope) for i in e["items"]]
        return lambda g, env: [f(g, env) for f in items]

    def c_dict(self, e, scope):
        items = [(k, self.compile(v, scope)) for k, v in e["items"]]
        return lambda g, env: {k: f(g, env) for k, f in items}

    def c_range(self, e, scope):
        lo, hi = self.compile(e["lo"], scope), self.compile(e["hi"], scope)
        return lambda g, env: list(range(lo(g, env), hi(g, env) + 1))

    def c_amount(self, e, scope):  # only valid where amounts are; compiled by the statement compiler
        raise RuleRuntimeError("an amount is not a value here", e["pos"])

    # ------------------------------------------------------------ names
    def c_name(self, e, scope):
        name = e["id"]
        pos = e["pos"]
        if name in scope:
            # A missing binding raises KeyError, which the engine reports at the running statement.
            return lambda g, env: env[name]
        p = self.p
        if name in p.counters and name not in p.resources:
            c = p.counters[name]
            if c["by"] is not None:
                if c["scope"] == "player":
                    return lambda g, env: g.s.counters[name][env["player"]]
                return lambda g, env: g.s.counters[name]
            if c["scope"] == "player":
                return lambda g, env: g.s.counters[name][env["player"]]
            return lambda g, env: g.s.counters[name]
        if name in p.orders:
            # Lists from the state are read, never changed, by expressions; a `let`
            # or an effect argument that keeps one takes a copy (effects.py).
            return lambda g, env: g.s.orders[name]
        if name in p.zones:
            z = p.zones[name]
            if z["scope"] == "player":
                return lambda g, env: g.s.zones[name][env["player"]]
            return lambda g, env: g.s.zones[name]
        if name in p.lets:
            let = p.lets[name]
            if let["params"]:
                raise RuleRuntimeError("'%s' needs arguments" % name, pos)
            return p.let_value(name)
        if name in p.enums:
            values = p.enums[name]
            return lambda g, env: list(values)
        if name in p.tables:
            ref = p.tables[name]
            return lambda g, env: ref
        if name in CONSTANTS:
            v = CONSTANTS[name]
            return lambda g, env: v
        if name == "round":
            return lambda g, env: g.s.round
        if name == "player_count":
            return lambda g, env: g.s.humans
        if name in ("player", "target", "slot", "self"):
            def ctx(g, env):
                try:
                    return env[name]
                except KeyError:
                    raise RuleRuntimeError("'%s' is not defined here" % name, pos)
            return ctx
        # Any other declared name is a symbol: a resource, a space, a building, an enum value.
        return _constant(name)

    # ------------------------------------------------------------ operators
    def c_binop(self, e, scope):
        op = e["op"]
        a, b = self.compile(e["left"], scope), self.compile(e["right"], scope)
        if op == "and":
            return lambda g, env: a(g, env) and b(g, env)
        if op == "or":
            return lambda g, env: a(g, env) or b(g, env)
        left = e["left"]
        if left["e"] == "name" and left["id"] in scope and op in _VAR_WITH:
            n = left["id"]
            # A missing binding raises KeyError, reported by the engine at the running statement.
            if hasattr(b, "value") and type(b.value) is not list:
                return _VAR_WITH_CONSTANT[op](n, b.value)
            return _VAR_WITH[op](n, b)
        if op == "in":
            return lambda g, env: a(g, env) in b(g, env)
        if op == "not in":
            return lambda g, env: a(g, env) not in b(g, env)
        if op == "//":
            return lambda g, env: _floordiv(a(g, env), b(g, env))
        if op == "%":
            return lambda g, env: _mod(a(g, env), b(g, env))
        # Type clashes (a symbol compared with a number) surface as TypeError and are
        # reported by the engine with the position of the statement running.
        if hasattr(b, "value") and op in _WITH_CONSTANT:
            return _WITH_CONSTANT[op](a, b.value)      # `x > 0`, `n + 1`, `c == blue`: one call fewer
        if op == "+":
            return lambda g, env: a(g, env) + b(g, env)
        if op == "-":
            return lambda g, env: a(g, env) - b(g, env)
        if op == "==":
            return lambda g, env: a(g, env) == b(g, env)
        if op == "!=":
            return lambda g, env: a(g, env) != b(g, env)
        if op == "<":
            return lambda g, env: a(g, env) < b(g, env)
        if op == ">":
            return lambda g, env: a(g, env) > b(g, env)
        if op == "<=":
            return lambda g, env: a(g, env) <= b(g, env)
        if op == ">=":
            return lambda g, env: a(g, env) >= b(g, env)
        f = _BINOPS[op]
        return lambda g, env: f(a(g, env), b(g, env))

    def c_not(self, e, scope):
        inner = e["x"]
        if inner["e"] == "binop" and inner["op"] in ("in", "not in"):
            # `not (t in xs)` is `t not in xs`: one closure, not two.
            flipped = "not in" if inner["op"] == "in" else "in"
            return self.c_binop({**inner, "op": flipped}, scope)
        x = self.compile(inner, scope)
        return lambda g, env: not x(g, env)

    def c_neg(self, e, scope):
        x = self.compile(e["x"], scope)
        return lambda g, env: -x(g, env)

    def c_if(self, e, scope):
        c, t, o = (self.compile(e[k], scope) for k in ("cond", "then", "else"))
        return lambda g, env: t(g, env) if c(g, env) else o(g, env)

    def c_comp(self, e, scope):
        var = e["var"]
        it = self.compile(e["iter"], scope)
        inner = scope | {var}
        # Parts of the item and the filter that do not depend on the loop variable are
        # evaluated once per comprehension (on first use, so nothing runs that would not).
        hoist = _Hoister(self, var, scope)
        cond = self.compile(hoist.rewrite(e["cond"]), inner) if e["cond"] is not None else None

        if cond is not None and e["item"]["e"] == "name" and e["item"]["id"] == var:
            def select(g, env):          # [t for t in xs if ...]: a filter keeps the items themselves
                local = dict(env)
                out = []
                for v in it(g, env):
                    local[var] = v
                    if cond(g, local):
                        out.append(v)
                return out
            return select

        item = self.compile(hoist.rewrite(e["item"], top=True), inner)

        def comp(g, env):
            out = []
            local = dict(env)
            for v in it(g, env):
                local[var] = v
                if cond is None or cond(g, local):
                    out.append(item(g, local))
            return out
        return comp

    def c_hoisted(self, e, scope):
        """A loop-invariant part of a comprehension: computed once, kept in the comprehension's frame."""
        key, f = e["key"], e["fn"]

        def hoisted(g, env):
            try:
                return env[key]
            except KeyError:
                v = env[key] = f(g, env)
                return v
        return hoisted

    def c_index(self, e, scope):
        x, k = self.compile(e["x"], scope), self.compile(e["key"], scope)
        pos = e["pos"]
        # Counters indexed by an enum: map the symbol to its position once.
        base = e["x"]
        if base["e"] == "name" and base["id"] in self.p.counters and base["id"] not in scope:
            c = self.p.counters[base["id"]]
            if c["by"] is not None:
                slot = self.p.enum_index[c["by"]]
                name = base["id"]
                if c["scope"] == "player":
                    return lambda g, env: g.s.counters[name][env["player"]][slot[k(g, env)]]
                return lambda g, env: g.s.counters[name][slot[k(g, env)]]

        def index(g, env):
            obj, key = x(g, env), k(g, env)
            if type(obj) is TableRef:
                payload = obj.lookup(key, pos)
                return payload
            try:
                return obj[key]
            except (KeyError, IndexError, TypeError):
                raise RuleRuntimeError("no entry %r in %s" % (key, _short(obj)), pos)
        return index

    def c_attr(self, e, scope):
        x = self.compile(e["x"], scope)
        attr = e["name"]
        p = self.p
        pos = e["pos"]
        return lambda g, env: p.attribute(g, x(g, env), attr, pos)

    def c_of(self, e, scope):
        x = self.compile(e["x"], scope)
        who = self.compile(e["player"], scope)
        base = e["x"]
        if base["e"] == "name" and base["id"] not in scope and base["id"] not in self.p.resources:
            c = self.p.counters.get(base["id"])
            if c is not None and c["scope"] == "player":
                name = base["id"]       # `order_card of q`: read the seat's counter, no new scope
                return lambda g, env: g.s.counters[name][who(g, env)]

        def of(g, env):
            local = dict(env)
            local["player"] = who(g, env)
            return x(g, local)
        return of

    # ------------------------------------------------------------ calls
    def c_call(self, e, scope):
        fn = e["fn"]
        args = [self.compile(a, scope) for a in e["args"]]
        p = self.p
        pos = e["pos"]
        if fn in p.lets:
            let = p.lets[fn]
            params = let["params"] or []
            body = p.let_function(fn)

            if len(params) == 1 and len(args) == 1:
                (n0,), (a0,) = params, args
                return lambda g, env: body(g, {"player": env.get("player"), n0: a0(g, env)})
            if not params:
                return lambda g, env: body(g, {"player": env.get("player")})

            def call_let(g, env):
                local = {"player": env.get("player")}
                for n, a in zip(params, args):
                    local[n] = a(g, env)
                return body(g, local)
            return call_let
        impl = getattr(self, "f_" + fn, None)
        if impl is not None:
            return impl(args, pos)
        builder = FUNCTION_BUILDERS.get(fn)
        if builder is None:
            raise RuleRuntimeError("unknown function '%s'" % fn, pos)
        return builder(self, args, pos)

    def f_count(self, args, pos):
        (a,) = args
        return lambda g, env: len(a(g, env))

    def f_sum(self, args, pos):
        (a,) = args
        return lambda g, env: sum(a(g, env))

    def f_max(self, args, pos):
        (a,) = args
        return lambda g, env: max(a(g, env), default=0)

    def f_min(self, args, pos):
        (a,) = args
        return lambda g, env: min(a(g, env), default=0)

    def f_held(self, args, pos):
        (a,) = args

        def held(g, env):
            try:
                return g.s.counters[a(g, env)][env["player"]]
            except (KeyError, TypeError):
                raise RuleRuntimeError("%r is not a resource" % (a(g, env),), pos)
        return held

    def f_abs(self, args, pos):
        (a,) = args
        return lambda g, env: abs(a(g, env))

    def f_first(self, args, pos):
        (a,) = args

        def first(g, env):
            xs = a(g, env)
            return xs[0] if xs else None
        return first

    def f_index(self, args, pos):
        a, b = args

        def index(g, env):
            xs, x = a(g, env), b(g, env)
            return xs.index(x) if x in xs else -1
        return index

    def f_position(self, args, pos):
        a, b = args

        def position(g, env):
            xs, x = a(g, env), b(g, env)
            return xs.index(x) + 1 if x in xs else 0
        return position

    def f_occupants(self, args, pos):
        (a,) = args
        return lambda g, env: g.s.occ.get(a(g, env)) or []

    def f_open_spaces(self, args, pos):
        return lambda g, env: g.open_spaces(env["player"])

    def f_road_tiles(self, args, pos):
        return lambda g, env: [t for t in g.s.road if t is not None]

    def f_owned_tiles(self, args, pos):
        (a,) = args

        def owned(g, env):
            who = a(g, env)
            tiles = g.s.tiles
            return [t for t in g.s.road if t is not None and tiles[t][1] == who]
        return owned

    def f_multisets(self, args, pos):
        a, b = args
        cache: dict = {}

        def multisets(g, env):
            xs, n = a(g, env), b(g, env)
            key = (tuple(xs), n)
            r = cache.get(key)
            if r is None:
                r = [list(c) for c in itertools.combinations_with_replacement(xs, n)]
                cache[key] = r
            return [c[:] for c in r]
        return multisets


# Expression kinds worth computing once per comprehension, and the kinds whose
# operands are evaluated in the same environment (the rewrite descends into them).
_COSTLY = frozenset({"call", "comp", "of"})
_DESCEND = {"binop": ("left", "right"), "not": ("x",), "neg": ("x",), "if": ("cond", "then", "else"),
            "index": ("x", "key"), "attr": ("x",), "range": ("lo", "hi")}


class _Hoister:
    """Rewrites a comprehension's item or filter so that costly parts free of the loop
    variable become ``hoisted`` nodes (expressions are pure: computing one once is exact)."""

    _serial = itertools.count()

    def __init__(self, compiler, var, scope):
        self.c, self.var, self.scope = compiler, var, scope

    def rewrite(self, e, top=False):
        from .effects import names_in      # one free-name analysis for the whole interpreter

        kind = e["e"]
        if kind in _COSTLY:
            if not top and self.var not in names_in(e):
                f = self.c.compile(e, self.scope)
                return {"e": "hoisted", "key": "\0h%d" % next(self._serial), "fn": f, "pos": e.get("pos")}
            if kind != "call":
                return e
            return {**e, "args": [self.rewrite(a) for a in e["args"]]}
        if kind in _DESCEND:
            return {**e, **{k: self.rewrite(e[k]) for k in _DESCEND[kind]}}
        if kind == "list":
            return {**e, "items": [self.rewrite(i) for i in e["items"]]}
        if kind == "dict":
            return {**e, "items": [(k, self.rewrite(v)) for k, v in e["items"]]}
        return e
