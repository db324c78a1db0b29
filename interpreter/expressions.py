"""IR expressions -> Python functions ``f(g, env) -> value``, one per expression.

Each expression becomes a single Python function whose body computes the whole
expression: operators, comparisons, comprehensions and reads of the state are
Python's own, so evaluating ``[t for t in board() if room(broker, t) > 0 and not
(t in locked)]`` is one call to the function and one to each primitive it names,
not a call per operator and per name.  The function is built as a Python syntax
tree from the IR and compiled; interpreter/pycode.py checks that the tree stays
in a small closed language (a rule's names and symbols are only ever string
constants) before it is compiled.

Names are resolved once, at compile time, to the thing they denote (a local
binding, a counter, an order, a let, a symbol), so evaluation does no lookups by
kind.  Values are ints, strings (symbols: resources, spaces, tiles, enum values),
lists, dicts, None, and table references (see ``TableRef``).
"""
from __future__ import annotations

import ast
import copy
import itertools

from provost.dsl.primitives import CONSTANTS

from .library import FUNCTION_BUILDERS
from .pycode import make_functions
from .runtime import (MAX_LIST, RuleRuntimeError, bounded_range, constant_function, counted, TableRef, each_in_scope, context_value, floordiv, held, holds_bundle, kept_entry, kept_list_entry, KEPT_TYPES,
                      index_into, index_of, mod, Multisets, owned_tiles, position_of, road_tiles)


class _Bundle:
    """The resource of a payment ``(resource, amount, workers)`` whose amount is a bundle of
    resources, one of each (`pay b`): ``BUNDLE``, the only one."""

    def __repr__(self):
        return "BUNDLE"


BUNDLE = _Bundle()


_UNSET = object()      # a loop-invariant part not computed yet

# ------------------------------------------------------------------ syntax-tree builders
_G, _ENV = "g", "env"


def _name(n):
    return ast.Name(id=n, ctx=ast.Load())


def _const(v):
    return ast.Constant(value=v)


def _item(x, key):
    return ast.Subscript(value=x, slice=key, ctx=ast.Load())


def _attr(x, *names):
    for n in names:
        x = ast.Attribute(value=x, attr=n, ctx=ast.Load())
    return x


def _call(f, *args):
    return ast.Call(func=f, args=list(args), keywords=[])


def _state(*names):
    return _attr(_name(_G), "s", *names)


def _player():
    return _item(_name(_ENV), _const("player"))


def _dict(pairs):
    return ast.Dict(keys=[k if k is None else _const(k) for k, _ in pairs], values=[v for _, v in pairs])


_COMPARE = {"==": ast.Eq, "!=": ast.NotEq, "<": ast.Lt, "<=": ast.LtE, ">": ast.Gt, ">=": ast.GtE,
            "in": ast.In, "not in": ast.NotIn}
_ARITH = {"+": ast.Add, "-": ast.Sub, "*": ast.Mult}
_HELPER_OPS = {"//": floordiv, "%": mod}
_CONSTANT_TYPES = (int, str, bool, type(None))

#: ``Program.static_value`` of a let whose value is not known before a game runs it.
NOT_STATIC = object()

#: A placed tile is ``g.s.tiles[x] == [kind, owner]`` (owner -1: nobody); these two reads are
#: written out where they are made (``_inline_tile_read``), the reader stays the fallback.
_TILE_FIELDS = {"kind": 0, "owner": 1}
_SCALAR_FUNCTIONS = frozenset({"count", "sum", "abs", "held", "index", "position"})

# Names that are read from the scope, never a comprehension's own local.
_CONTEXT = frozenset({"player", "target", "slot", "self", "worker"})

# Expression kinds worth computing once per comprehension, and the kinds whose
# operands are evaluated in the same scope (the rewrite descends into them).
_COSTLY = frozenset({"call", "comp", "of"})
_DESCEND = {"binop": ("left", "right"), "not": ("x",), "neg": ("x",), "if": ("cond", "then", "else"),
            "index": ("x", "key"), "attr": ("x",), "range": ("lo", "hi")}


class _Unit:
    """One compiled expression: its functions, the objects they refer to, fresh names."""

    def __init__(self, code_cache=None):
        self.code_cache = code_cache
        self.ns: dict = {}
        self.defs: list = []
        self._refs: dict = {}
        self._serial = itertools.count()
        self.tile_reads: dict = {}      # id(call) -> (call, field, spaces' name): _inline_tile_reads

    def fresh(self, prefix: str) -> str:
        return "_%s%d" % (prefix, next(self._serial))

    def ref(self, obj):
        """A name for an object the code uses (a helper, a table, a position)."""
        name = self._refs.get(id(obj))
        if name is None:
            name = self._refs[id(obj)] = self.fresh("k")
            self.ns[name] = obj
        return _name(name)

    def value(self, v):
        return _const(v) if type(v) in _CONSTANT_TYPES else self.ref(v)

    def define(self, name, params, body_statements):
        self.defs.append(ast.FunctionDef(name=name, args=_arguments(params), body=body_statements,
                                         decorator_list=[], returns=None, type_comment=None))

    def function(self, body_statements, pos):
        """The function ``f(g, env)`` running the statements, compiled with every ``define``d one."""
        name = self.fresh("f")
        self.define(name, [_G, _ENV], body_statements)
        pos = pos or [0, 0]
        return make_functions(self.defs, self.ns, "<rules %s:%s>" % (pos[0], pos[1]), self.code_cache,
                              prepare=self._prepare)[name]

    def _prepare(self, fn: ast.FunctionDef) -> None:
        self._read_tables_first(fn)
        if self.tile_reads:
            self._inline_tile_reads(fn)

    def _read_tables_first(self, fn: ast.FunctionDef) -> None:
        """Read each state table a comprehension of ``fn`` uses (``g.s.zones``) once, at the start.

        Such a read cannot fail, and nothing changes the state while an expression is evaluated
        (``g`` is never rebound in generated code); compiled, each read is two attribute lookups,
        which a comprehension would make for every value."""
        names: dict = {}

        def rewrite(node, inside):
            for field, value in ast.iter_fields(node):
                if isinstance(value, list):
                    setattr(node, field, [visit(v, inside) if isinstance(v, ast.AST) else v for v in value])
                elif isinstance(value, ast.AST):
                    setattr(node, field, visit(value, inside))

        def visit(node, inside):
            table = state_table(node)
            if table is not None and inside:
                if table not in names:
                    names[table] = self.fresh("t")
                return _name(names[table])
            rewrite(node, inside or type(node) is ast.ListComp)
            return node

        for statement in fn.body:
            rewrite(statement, False)
        fn.body[:0] = [ast.Assign(targets=[ast.Name(id=t, ctx=ast.Store())], value=_state(table))
                       for table, t in names.items()]

    def _inline_tile_reads(self, fn: ast.FunctionDef) -> None:
        """Write a tile's owner or kind read out where it is made, the reader called only for
        what is not a placed tile (Caylus' placement listing reads the owner of every open space:
        two thousand calls a game).  Not inside a comprehension's iterable, where Python allows
        no assignment (and so no ``:=``)."""
        def visit(node, in_iterable):
            found = self.tile_reads.get(id(node)) if type(node) is ast.Call and not in_iterable else None
            if found is not None and found[0] is node:
                return self._inline_tile_read(*found)
            for field, value in ast.iter_fields(node):
                inner = in_iterable or (type(node) is ast.comprehension and field == "iter")
                if isinstance(value, ast.AST):
                    setattr(node, field, visit(value, inner))
                elif isinstance(value, list):
                    setattr(node, field, [visit(v, inner) if isinstance(v, ast.AST) else v for v in value])
            return node

        for statement in fn.body:
            visit(statement, False)

    def _inline_tile_read(self, call: ast.Call, field: str, spaces: str) -> ast.expr:
        """``reader(tiles, x, g, pos)`` as ``_r[i] if (_r := tiles.get(x)) is not None else
        reader(...)`` (the owner -1 read as None, a space's owner None), what the reader computes
        (Program._reader): one lookup of a placed tile (its entry is a list, never None)."""
        reader, tiles, x, g, pos = call.func, *call.args
        first = tiles
        if type(tiles) is not ast.Name:             # g.s.tiles: read once, where it is first needed
            kept = self.fresh("w")
            first = ast.NamedExpr(target=ast.Name(id=kept, ctx=ast.Store()), value=tiles)
            tiles = _name(kept)

        def at():                                    # x again: a local, a constant or env[k]
            return copy.deepcopy(x)

        entry = self.fresh("r")
        lookup = ast.NamedExpr(target=ast.Name(id=entry, ctx=ast.Store()), value=_call(_attr(first, "get"), at()))
        placed = ast.Compare(left=lookup, ops=[ast.IsNot()], comparators=[_const(None)])
        value = _item(_name(entry), _const(_TILE_FIELDS[field]))
        fallback = _call(reader, tiles, at(), g, pos)
        if field == "kind":
            return ast.IfExp(test=placed, body=value, orelse=fallback)
        who = self.fresh("o")
        kept_who = ast.NamedExpr(target=ast.Name(id=who, ctx=ast.Store()), value=value)
        owner = ast.IfExp(test=ast.Compare(left=kept_who, ops=[ast.GtE()], comparators=[_const(0)]),
                          body=_name(who), orelse=_const(None))
        space = ast.IfExp(test=ast.Compare(left=at(), ops=[ast.In()], comparators=[_name(spaces)]),
                          body=_const(None), orelse=fallback)
        return ast.IfExp(test=placed, body=owner, orelse=space)


class _Ctx:
    """What names mean where an expression is.

    ``scope``: the rule names read from ``env``; ``local``: rule names whose value is a syntax
    tree (a comprehension's variable, an inlined let's argument); ``player``: the acting player's
    syntax tree when it is not ``env['player']`` (inside ``X of P``); ``visible``: every Python
    local in reach, which a comprehension's own function receives as parameters."""
    __slots__ = ("scope", "local", "player", "visible")

    def __init__(self, scope, local, player=None, visible=()):
        self.scope, self.local, self.player, self.visible = scope, local, player, visible

    def but(self, **changes):
        fields = {k: getattr(self, k) for k in self.__slots__}
        fields.update(changes)
        return _Ctx(**fields)

    def acting(self):
        """The acting player, for a primitive or a player's counter."""
        return self.player if self.player is not None else _player()

    def passed_player(self):
        """The acting player as a called let or effect receives it (None where there is none)."""
        return self.player if self.player is not None else _call(_attr(_name(_ENV), "get"), _const("player"))

    def let_scope(self):
        """The scope a let's function receives: the acting player, nothing else of the caller's."""
        return _dict([("player", self.passed_player())])


def _read_only(tree):
    """TREE where its list is only read (the right of ``in``, a comprehension's source): a
    copy made for readers that might keep it (``xs[:]``, a let's value) is left out."""
    if type(tree) is ast.Subscript and type(tree.slice) is ast.Slice \
            and tree.slice.lower is None and tree.slice.upper is None and tree.slice.step is None:
        return tree.value
    return tree


def _is_simple(tree) -> bool:
    """A tree that is cheap and pure to evaluate again (a local, a constant, ``env[k]``)."""
    return type(tree) in (ast.Name, ast.Constant) or (
        type(tree) is ast.Subscript and type(tree.value) is ast.Name and type(tree.slice) is ast.Constant)


def _arguments(params):
    return ast.arguments(posonlyargs=[], args=[ast.arg(arg=n) for n in params], vararg=None, kwonlyargs=[],
                         kw_defaults=[], kwarg=None, defaults=[])


def _lambda(params, body):
    return ast.Lambda(args=_arguments(params), body=body)


# A let whose body is at most this many IR nodes is written out where it is called, when
# its arguments are simple (a local, a constant, a scope name), at most this many lets deep.
_INLINE_SIZE = 60
_INLINE_DEPTH = 3


def _size(e) -> int:
    n, stack = 0, [e]
    while stack:
        x = stack.pop()
        if isinstance(x, dict):
            n += "e" in x
            stack.extend(x.values())
        elif isinstance(x, list):
            stack.extend(x)
    return n


class ExprCompiler:
    """Compiles expressions against a Program (which knows the declarations)."""

    def __init__(self, program):
        self.p = program
        self._inlining: list = []          # the lets being written out, innermost last
        self.code_cache = None             # a CodeCache while the program is being built

    def compile(self, e, scope: frozenset):
        """A function ``f(g, env)`` computing the expression; ``scope`` is what ``env`` binds."""
        u = _Unit(self.code_cache)
        tree = self.x(e, _Ctx(scope, {}), u)
        if type(tree) is ast.Constant:
            return constant_function(tree.value)
        return u.function([ast.Return(value=tree)], e.get("pos"))

    def compile_bindings(self, option: str, number: int, params: list, scope: frozenset,
                         when=None, payment=None):
        """A function ``f(g, env)`` listing the entries ``[id, bindings, number]`` of option
        ``number`` of its choice, for every combination of its parameters' values that their
        ``where``s allow, the first parameter outermost; with ``when`` (an expression) and
        ``payment`` (``(resource or its name expression, amount expression, workers)``, or
        ``(BUNDLE, bundle expression, workers)``; see ``effects._inline_test``), only the
        combinations for which the option's condition holds and the acting player holds the
        amount and the workers.

        A parameter's list that names no earlier parameter is computed once, before the others."""
        from .effects import names_in
        from .nodes import _fmt

        u = _Unit(self.code_cache)
        ctx = _Ctx(scope, {})
        setup, gens, names, locals_ = [], [], [], []
        for k, prm in enumerate(params):
            values = _read_only(self.x(prm["in"], ctx, u))
            if k > 0 and not (names_in(prm["in"]) & set(names)):
                kept = u.fresh("i")
                setup.append(ast.Assign(targets=[ast.Name(id=kept, ctx=ast.Store())], value=values))
                values = _name(kept)
            local = u.fresh("l")
            ctx = ctx.but(local={**ctx.local, prm["name"]: _name(local)}, visible=ctx.visible + (local,))
            ifs = [self.x(prm["where"], ctx, u)] if prm["where"] is not None else []
            gens.append(ast.comprehension(target=ast.Name(id=local, ctx=ast.Store()), iter=values, ifs=ifs, is_async=0))
            names.append(prm["name"])
            locals_.append(_name(local))
        tests = [self.x(when, ctx, u)] if when is not None else []
        if payment is not None:
            tests += self._payment_tests(payment, ctx, u)
        gens[-1].ifs.extend(tests)
        setup += _hoist_from_filters(gens, u)
        # The id `name:v1:v2`, a symbol written as it is (the usual value), anything else by _fmt.
        oid = None
        for v in locals_:
            text = ast.IfExp(test=ast.Compare(left=_call(u.ref(type), v), ops=[ast.Is()], comparators=[u.ref(str)]),
                             body=v, orelse=_call(u.ref(_fmt), v))
            head = _const(option + ":") if oid is None else ast.BinOp(left=oid, op=ast.Add(), right=_const(":"))
            oid = ast.BinOp(left=head, op=ast.Add(), right=text)
        if oid is None:
            oid = _const(option)
        entry = ast.List(elts=[oid, _dict(list(zip(names, locals_))), _const(number)], ctx=ast.Load())
        if locals_:
            # The entry of values that are strings or ints is kept from one listing to the next,
            # under the value (one parameter) or the tuple of the values:
            # `(_e if (type(v) is str or type(v) is int) and ... and (_e := memo.get(key)) is not None
            # else kept_entry(memo, key, entry))`.
            memo, e = u.ref({}), u.fresh("e")
            key = locals_[0] if len(locals_) == 1 else ast.Tuple(elts=list(locals_), ctx=ast.Load())
            found = ast.Compare(left=ast.NamedExpr(target=ast.Name(id=e, ctx=ast.Store()),
                                                   value=_call(ast.Attribute(value=memo, attr="get", ctx=ast.Load()), key)),
                                ops=[ast.IsNot()], comparators=[_const(None)])
            tests = [ast.BoolOp(op=ast.Or(), values=[
                ast.Compare(left=_call(u.ref(type), v), ops=[ast.Is()], comparators=[u.ref(kind)]) for kind in KEPT_TYPES])
                for v in locals_]
            made = _call(u.ref(kept_entry), memo, key, entry)
            if len(locals_) == 1:
                # A list of strings and ints (two brokers bid) is kept under its tuple: looked
                # for before the entry is made, `(_e := kept_list_entry(memo, v)) is not None`.
                listed = ast.Compare(left=ast.NamedExpr(target=ast.Name(id=e, ctx=ast.Store()),
                                                        value=_call(u.ref(kept_list_entry), memo, key)),
                                     ops=[ast.IsNot()], comparators=[_const(None)])
                made = ast.IfExp(test=listed, body=_name(e), orelse=made)
            entry = ast.IfExp(test=ast.BoolOp(op=ast.And(), values=tests + [found]), body=_name(e), orelse=made)
        return u.function(setup + [ast.Return(value=ast.ListComp(elt=entry, generators=gens))],
                          params[0]["in"].get("pos"))

    def _payment_tests(self, payment, ctx, u) -> list:
        """The tests that the acting player holds a payment (``effects._inline_test``'s
        ``(resource or its name expression, amount expression, workers)``)."""
        res, amount, workers = payment
        if res is BUNDLE:           # `pay b`: one of each resource in the list, the workers with them
            return [_call(u.ref(holds_bundle), _state("counters"), ctx.acting(), self.x(amount, ctx, u),
                          _const(workers))]
        tests = []
        if amount is not None:
            held = self.x(res, ctx, u) if type(res) is dict else _const(res)    # `pay 1 r`: r's value
            tests.append(ast.Compare(left=_item(_item(_state("counters"), held), ctx.acting()), ops=[ast.GtE()],
                                     comparators=[self.x(amount, ctx, u)]))
        if workers:
            tests.append(ast.Compare(left=_item(_item(_state("counters"), _const("workers")), ctx.acting()),
                                     ops=[ast.GtE()], comparators=[_const(workers)]))
        return tests

    def compile_payment_test(self, payment, scope: frozenset, pos):
        """A function ``f(g, env)``: whether the acting player holds ``payment`` (as
        ``compile_bindings`` takes it), for an option whose payment is tested once."""
        u = _Unit(self.code_cache)
        tests = self._payment_tests(payment, _Ctx(scope, {}), u)
        test = tests[0] if len(tests) == 1 else ast.BoolOp(op=ast.And(), values=tests)
        return u.function([ast.Return(value=test)], pos)

    def compile_scope(self, names: list, values: list, scope: frozenset, keep=None):
        """A function ``f(g, env)`` making a called effect's scope: ``{"player": the acting
        player, name: value, ...}``, each value passed through ``keep`` (a copy of what the
        state may still change) unless it is a number or a symbol."""
        u = _Unit(self.code_cache)
        ctx = _Ctx(scope, {})
        pairs = [("player", ctx.passed_player())]
        for n, e in zip(names, values):
            tree = self.x(e, ctx, u)
            if keep is not None and type(tree) is not ast.Constant and not self._scalar(e, scope):
                tree = _call(u.ref(keep), tree)
            pairs.append((n, tree))
        return u.function([ast.Return(value=_dict(pairs))], values[0].get("pos") if values else None)

    def _scalar(self, e, scope) -> bool:
        """The expression's value is a number, a truth value or a symbol, never a list."""
        k = e["e"]
        if k in ("int", "str"):
            return True
        if k == "binop":
            return e["op"] not in ("and", "or")
        if k in ("not", "neg"):
            return True
        if k == "call":
            return e["fn"] in _SCALAR_FUNCTIONS
        if k == "name":
            n, p = e["id"], self.p
            if n in scope:
                return False
            if n in p.counters and n not in p.resources:
                return p.counters[n]["by"] is None
            return not (n in p.orders or n in p.zones or n in p.lets or n in p.enums or n in p.tables
                        or n in CONSTANTS or n in _CONTEXT)
        return False

    def x(self, e, ctx, u):
        """The syntax tree of an expression."""
        return getattr(self, "c_" + e["e"])(e, ctx, u)

    # ------------------------------------------------------------ literals
    def c_int(self, e, ctx, u):
        return u.value(e["v"])

    c_str = c_int

    def c_list(self, e, ctx, u):
        return ast.List(elts=[self.x(i, ctx, u) for i in e["items"]], ctx=ast.Load())

    def c_dict(self, e, ctx, u):
        return ast.Dict(keys=[u.value(k) for k, _ in e["items"]], values=[self.x(v, ctx, u) for _, v in e["items"]])

    def c_range(self, e, ctx, u):
        lo, hi = e["lo"], e["hi"]
        if lo.get("e") == "int" and hi.get("e") == "int" and hi["v"] - lo["v"] < MAX_LIST:
            return _call(_name("list"), _call(_name("range"), self.x(lo, ctx, u), _const(hi["v"] + 1)))
        return _call(u.ref(bounded_range), self.x(lo, ctx, u), self.x(hi, ctx, u), u.value(e.get("pos")))

    def c_amount(self, e, ctx, u):  # only valid where amounts are; compiled by the statement compiler
        raise RuleRuntimeError("an amount is not a value here", e["pos"])

    # ------------------------------------------------------------ names
    def c_name(self, e, ctx, u):
        name = e["id"]
        if name in ctx.local:
            return ctx.local[name]
        if name == "player" and ctx.player is not None:
            return ctx.player
        if name in ctx.scope:
            # A missing binding raises KeyError, which the engine reports at the running statement.
            return _item(_name(_ENV), _const(name))
        p = self.p
        if name in p.counters and name not in p.resources:
            if p.counters[name]["scope"] == "player":
                return _item(_item(_state("counters"), _const(name)), ctx.acting())
            return _item(_state("counters"), _const(name))
        if name in p.orders:
            # Lists from the state are read, never changed, by expressions; a `let`
            # or an effect argument that keeps one takes a copy (effects.py).
            return _item(_state("orders"), _const(name))
        if name in p.zones:
            if p.zones[name]["scope"] == "player":
                return _item(_item(_state("zones"), _const(name)), ctx.acting())
            return _item(_state("zones"), _const(name))
        if name in p.lets:
            if p.lets[name]["params"]:
                raise RuleRuntimeError("'%s' needs arguments" % name, e["pos"])
            held = self._static_let(name, u)
            if held is not None:
                return held
            scope = _name(_ENV) if ctx.player is None else ctx.let_scope()
            return _call(u.ref(p.let_value(name)), _name(_G), scope)
        if name in p.enums:
            return ast.List(elts=[_const(v) for v in p.enums[name]], ctx=ast.Load())
        if name in p.tables:
            return u.ref(p.tables[name])
        if name in CONSTANTS:
            return u.value(CONSTANTS[name])
        if name == "round":
            return _state("round")
        if name == "player_count":
            return _state("humans")
        if name in ("player", "target", "slot", "self"):
            return _call(u.ref(context_value), _name(_ENV), _const(name), u.value(e["pos"]))
        # Any other declared name is a symbol: a resource, a space, a building, an enum value.
        return _const(name)

    # ------------------------------------------------------------ operators
    def c_binop(self, e, ctx, u):
        op = e["op"]
        a, b = self.x(e["left"], ctx, u), self.x(e["right"], ctx, u)
        if op in ("and", "or"):
            return ast.BoolOp(op=ast.And() if op == "and" else ast.Or(), values=[a, b])
        # Type clashes (a symbol compared with a number) surface as TypeError and are
        # reported by the engine with the position of the statement running.
        if op in _COMPARE:
            if op in ("in", "not in"):
                b = _read_only(b)
            return ast.Compare(left=a, ops=[_COMPARE[op]()], comparators=[b])
        if op in _ARITH:
            return ast.BinOp(left=a, op=_ARITH[op](), right=b)
        if op in _HELPER_OPS:
            return _call(u.ref(_HELPER_OPS[op]), a, b)
        raise RuleRuntimeError("unknown operator '%s'" % op, e["pos"])

    def c_not(self, e, ctx, u):
        inner = e["x"]
        if inner["e"] == "binop" and inner["op"] in ("in", "not in"):
            flipped = "not in" if inner["op"] == "in" else "in"      # `not (t in xs)` is `t not in xs`
            return self.c_binop({**inner, "op": flipped}, ctx, u)
        return ast.UnaryOp(op=ast.Not(), operand=self.x(inner, ctx, u))

    def c_neg(self, e, ctx, u):
        return ast.UnaryOp(op=ast.USub(), operand=self.x(e["x"], ctx, u))

    def c_if(self, e, ctx, u):
        return ast.IfExp(test=self.x(e["cond"], ctx, u), body=self.x(e["then"], ctx, u),
                         orelse=self.x(e["else"], ctx, u))

    def c_comp(self, e, ctx, u):
        var = e["var"]
        if var in _CONTEXT:
            return self._comp_in_scope(e, ctx, u)
        local = u.fresh("l")
        inner = ctx.but(local={**ctx.local, var: _name(local)}, visible=ctx.visible + (local,))
        p = self.p
        # a let read by name (`let open = ...`) is a call too; a local or a scope name is not
        hoister = _Hoister(var, u, lambda n: n in p.lets and not p.lets[n]["params"]
                           and n not in ctx.local and n not in ctx.scope)
        item = hoister.rewrite(e["item"], top=True)
        cond = hoister.rewrite(e["cond"]) if e["cond"] is not None else None
        if not hoister.names:
            return self._listcomp(e, item, cond, local, ctx, inner, u)
        # Loop-invariant parts are computed on first use, once per evaluation of the
        # comprehension (nothing runs that would not have): the comprehension gets a
        # function of its own whose locals keep them.
        fn = u.fresh("c")
        outer = list(ctx.visible)
        body = [ast.Assign(targets=[ast.Name(id=h, ctx=ast.Store())], value=u.ref(_UNSET)) for h in hoister.names]
        body.append(ast.Return(value=self._listcomp(e, item, cond, local, ctx, inner, u)))
        u.define(fn, [_G, _ENV] + outer, body)
        return _call(_name(fn), _name(_G), _name(_ENV), *[_name(n) for n in outer])

    def _counted(self, e, ctx, u):
        """The comprehension's list, counted against the work budget between decisions (runtime.counted)."""
        return _call(u.ref(counted), _name(_G), _read_only(self.x(e["iter"], ctx, u)), u.ref(e.get("pos")))

    def _listcomp(self, e, item, cond, local, ctx, inner, u):
        gen = ast.comprehension(target=ast.Name(id=local, ctx=ast.Store()), iter=self._counted(e, ctx, u),
                                ifs=[self.x(cond, inner, u)] if cond is not None else [], is_async=0)
        return ast.ListComp(elt=self.x(item, inner, u), generators=[gen])

    def _comp_in_scope(self, e, ctx, u):
        """A comprehension over a context name (`[... for player in ...]`): each value goes in
        the scope, where the rules' primitives read it."""
        var = e["var"]
        inner = ctx.but(scope=ctx.scope | {var}, local={k: v for k, v in ctx.local.items() if k != var},
                        player=None if var == "player" else ctx.player)
        values = _call(u.ref(each_in_scope), _name(_ENV), _const(var), self._counted(e, ctx, u))
        gen = ast.comprehension(target=ast.Name(id=_ENV, ctx=ast.Store()), iter=values,
                                ifs=[self.x(e["cond"], inner, u)] if e["cond"] is not None else [], is_async=0)
        return ast.ListComp(elt=self.x(e["item"], inner, u), generators=[gen])

    def c_hoisted(self, e, ctx, u):
        """``_h if _h is not UNSET else (_h := value)``: a loop-invariant part, kept once computed."""
        h = e["name"]
        first = ast.NamedExpr(target=ast.Name(id=h, ctx=ast.Store()), value=self.x(e["x"], ctx, u))
        kept = ast.Compare(left=_name(h), ops=[ast.IsNot()], comparators=[u.ref(_UNSET)])
        return ast.IfExp(test=kept, body=_name(h), orelse=first)

    def c_index(self, e, ctx, u):
        base = e["x"]
        key = self.x(e["key"], ctx, u)
        p = self.p
        if base["e"] == "name" and base["id"] in p.counters and base["id"] not in ctx.scope \
                and base["id"] not in ctx.local:
            c = p.counters[base["id"]]
            if c["by"] is not None:
                # A counter indexed by an enum: the symbol's position is looked up in a dict.
                slot = _item(u.ref(p.enum_index[c["by"]]), key)
                return _item(self.c_name(base, ctx, u), slot)
        return _call(u.ref(index_into), self.x(base, ctx, u), key, u.value(e["pos"]))

    def c_attr(self, e, ctx, u):
        attr = e["name"]
        read = _call(u.ref(self.p.attribute_reader(attr)), _state("tiles"), self.x(e["x"], ctx, u), _name(_G),
                     u.value(e["pos"]))
        if attr in _TILE_FIELDS and _is_simple(read.args[1]):
            # Named now, not when the function is prepared: code from the cache is not prepared.
            u.tile_reads[id(read)] = (read, attr, u.ref(self.p.spaces).id)
        return read

    def c_of(self, e, ctx, u):
        base = e["x"]
        who = self.x(e["player"], ctx, u)
        if base["e"] == "name" and base["id"] not in ctx.scope and base["id"] not in ctx.local \
                and base["id"] not in self.p.resources:
            c = self.p.counters.get(base["id"])
            if c is not None and c["scope"] == "player":
                return _item(_item(_state("counters"), _const(base["id"])), who)   # `order_card of q`
        # Anything else is evaluated with the other player acting: a local, a constant or a
        # scope name is put in its place, anything else is computed once, as a lambda's parameter.
        if _is_simple(who):
            return self.x(base, ctx.but(player=who), u)
        param = u.fresh("p")
        inner = ctx.but(player=_name(param), visible=ctx.visible + (param,))
        return _call(_lambda([param], self.x(base, inner, u)), who)

    # ------------------------------------------------------------ calls
    def c_call(self, e, ctx, u):
        fn = e["fn"]
        args = [self.x(a, ctx, u) for a in e["args"]]
        p = self.p
        pos = e["pos"]
        if fn in p.lets:
            params = p.lets[fn]["params"] or []
            held = None if params else self._static_let(fn, u)
            if held is not None:
                return held
            if self._inlinable(fn, args):
                return self._inline(fn, params, args, ctx, u)
            # A let sees the acting player and its arguments, nothing else of the caller's scope.
            scope = ctx.let_scope()
            scope.keys += [_const(n) for n in params]
            scope.values += args
            return _call(u.ref(p.let_function(fn)), _name(_G), scope)
        impl = getattr(self, "f_" + fn, None)
        if impl is not None:
            return impl(args, pos, u, ctx)
        builder = FUNCTION_BUILDERS.get(fn)
        if builder is None:
            raise RuleRuntimeError("unknown function '%s'" % fn, pos)
        return _call(u.ref(builder(self, pos)), _name(_G), ctx.acting(), *args)

    def _static_let(self, name, u):
        """The code for a parameterless let of the rules alone, its value known now
        (``Program.static_value``): the value, a list copied as the let's memo would copy it;
        None when the value is not known before a game runs the let."""
        v = self.p.static_value(name)
        if v is NOT_STATIC:
            return None
        if type(v) is list:
            return ast.Subscript(value=u.ref(v), slice=ast.Slice(), ctx=ast.Load())
        return u.value(v)

    def _inlinable(self, name, args) -> bool:
        d = self.p.lets[name]
        return (all(map(_is_simple, args)) and name not in self._inlining
                and len(self._inlining) < _INLINE_DEPTH and _size(d["value"]) <= _INLINE_SIZE
                and not self.p.let_is_static(name))

    def _inline(self, name, params, args, ctx, u):
        """The let's body where it is called, each parameter replaced by its (simple) argument:
        it sees the acting player and its arguments, nothing else of the caller's scope."""
        inner = _Ctx(frozenset({"player"}) if ctx.player is None else frozenset(), dict(zip(params, args)),
                     ctx.player, ctx.visible)
        self._inlining.append(name)
        try:
            return self.x(self.p.lets[name]["value"], inner, u)
        finally:
            self._inlining.pop()

    def f_count(self, args, pos, u, ctx):
        return _call(_name("len"), *args)

    def f_sum(self, args, pos, u, ctx):
        return _call(_name("sum"), *args)

    def f_max(self, args, pos, u, ctx):
        return ast.Call(func=_name("max"), args=args, keywords=[ast.keyword(arg="default", value=_const(0))])

    def f_min(self, args, pos, u, ctx):
        return ast.Call(func=_name("min"), args=args, keywords=[ast.keyword(arg="default", value=_const(0))])

    def f_abs(self, args, pos, u, ctx):
        return _call(_name("abs"), *args)

    def f_held(self, args, pos, u, ctx):
        return _call(u.ref(held), _name(_G), ctx.acting(), *args, u.value(pos))

    def f_first(self, args, pos, u, ctx):
        (xs,) = args             # `(xs or [None])[0]`: the first item, None for an empty list
        return _item(ast.BoolOp(op=ast.Or(), values=[xs, ast.List(elts=[_const(None)], ctx=ast.Load())]), _const(0))

    def f_index(self, args, pos, u, ctx):
        return self._place_in_list(args, u, index_of, 0, -1)

    def f_position(self, args, pos, u, ctx):
        return self._place_in_list(args, u, position_of, 1, 0)

    def _place_in_list(self, args, u, helper, first, missing):
        """``index(xs, x)`` / ``position(xs, x)``; on a list of constants (an enum, a literal)
        a lookup in a dict made now: ``{value: place}.get(x, missing)``."""
        xs, x = args
        if type(xs) is ast.List and all(type(v) is ast.Constant for v in xs.elts):
            places: dict = {}
            for i, v in enumerate(xs.elts):
                places.setdefault(v.value, i + first)     # the first occurrence, as list.index
            return _call(_attr(u.ref(places), "get"), x, _const(missing))
        return _call(u.ref(helper), xs, x)

    def f_occupants(self, args, pos, u, ctx):
        found = _call(_attr(_state("occ"), "get"), *args)
        return ast.BoolOp(op=ast.Or(), values=[found, ast.List(elts=[], ctx=ast.Load())])

    def f_open_spaces(self, args, pos, u, ctx):
        return _call(_attr(_name(_G), "open_spaces"), ctx.acting())

    def f_road_tiles(self, args, pos, u, ctx):
        return _call(u.ref(road_tiles), _name(_G))

    def f_owned_tiles(self, args, pos, u, ctx):
        return _call(u.ref(owned_tiles), _name(_G), *args)

    def f_multisets(self, args, pos, u, ctx):
        return _call(u.ref(Multisets()), *args, u.value(pos))


_KEEP_OPS = 5       # operations (reads, comparisons, arithmetic) in a part worth keeping without a call


def _hoist_from_filters(gens: list, u: _Unit) -> list:
    """Rewrite the filters of one comprehension (``gens``, its generators) so that each
    largest part that names none of its variables and calls something, or takes _KEEP_OPS
    operations or more (``g.s.counters['workers'][env['player']] >= 1``), is computed on first
    use and kept (``_h if _h is not UNSET else (_h := part)``); the statements that start
    the kept names, for the function around the comprehension.

    It works on the syntax tree, after lets were written out where they are called, so it
    also finds what the IR-level ``_Hoister`` cannot see (the inn's occupants in Caylus'
    placement cost).  Expressions are pure and a part is computed where it was first
    computed before, so nothing runs that would not have run.  Nested comprehensions and
    lambdas are taken whole or left alone: an assignment inside one would bind in its scope."""
    bound = {gen.target.id for gen in gens}
    kept: list = []
    facts: dict = {}        # id(node) -> (names none of the variables, worth keeping), one pass

    def learn(node) -> tuple:
        """(names none of the variables, calls something, operations in it)."""
        invariant = not (type(node) is ast.Name and node.id in bound)
        costly = type(node) in (ast.Call, ast.ListComp)
        ops = 0 if type(node) in (ast.Name, ast.Constant) or not isinstance(node, ast.expr) else 1
        for child in ast.iter_child_nodes(node):
            inv, cost, n = learn(child)
            invariant, costly, ops = invariant and inv, costly or cost, ops + n
        # Reading a kept part is about four steps: worth it for a call or a longer chain of
        # reads (measured: keeping three-operation parts gained nothing).
        facts[id(node)] = invariant and (costly or ops >= _KEEP_OPS)
        return invariant, costly, ops

    def rewrite(node):
        if type(node) not in (ast.Name, ast.Constant) and isinstance(node, ast.expr) and facts[id(node)]:
            h = u.fresh("h")
            kept.append(h)
            return kept_on_first_use(h, u.ref(_UNSET), node)
        if type(node) in (ast.ListComp, ast.Lambda):
            return node
        return rewrite_children(node, rewrite)

    for gen in gens:
        for test in gen.ifs:
            learn(test)
        gen.ifs = [rewrite(test) for test in gen.ifs]
    return [ast.Assign(targets=[ast.Name(id=h, ctx=ast.Store())], value=u.ref(_UNSET)) for h in kept]


def kept_on_first_use(name: str, unset, value) -> ast.expr:
    """``name if name is not unset else (name := value)``: VALUE computed where it is first
    needed, then read from NAME (which the function starts at ``unset``)."""
    done = ast.Compare(left=_name(name), ops=[ast.IsNot()], comparators=[unset])
    first = ast.NamedExpr(target=ast.Name(id=name, ctx=ast.Store()), value=value)
    return ast.IfExp(test=done, body=_name(name), orelse=first)


def rewrite_children(node, rewrite):
    """NODE with each child syntax tree replaced by ``rewrite(child)``."""
    for field, value in ast.iter_fields(node):
        if isinstance(value, ast.AST):
            setattr(node, field, rewrite(value))
        elif isinstance(value, list):
            setattr(node, field, [rewrite(v) if isinstance(v, ast.AST) else v for v in value])
    return node


def state_table(node) -> str | None:
    """The field's name when ``node`` reads a table of the state, ``g.s.FIELD``."""
    if type(node) is ast.Attribute and type(node.value) is ast.Attribute and node.value.attr == "s" \
            and type(node.value.value) is ast.Name and node.value.value.id == _G:
        return node.attr
    return None


class _Hoister:
    """Rewrites a comprehension's item or filter so that costly parts free of the loop
    variable become ``hoisted`` nodes (expressions are pure: computing one once is exact)."""

    def __init__(self, var, unit, costly_name=lambda name: False):
        self.var, self.u, self.costly_name = var, unit, costly_name
        self.names: list = []
        self._lets: dict = {}

    def rewrite(self, e, top=False):
        from .effects import names_in      # one free-name analysis for the whole interpreter

        kind = e["e"]
        if kind == "name" and not top and e["id"] != self.var and self.costly_name(e["id"]):
            name = self._lets.get(e["id"])
            if name is None:            # one value per let, however often the comprehension reads it
                name = self._lets[e["id"]] = self.u.fresh("h")
                self.names.append(name)
            return {"e": "hoisted", "name": name, "x": e, "pos": e.get("pos")}
        if kind in _COSTLY:
            if not top and self.var not in names_in(e):
                name = self.u.fresh("h")
                self.names.append(name)
                return {"e": "hoisted", "name": name, "x": e, "pos": e.get("pos")}
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
