# cython: nonecheck=True, annotation_typing=True
# (compiled, the statements' functions type g as GameFields: a None raises an AttributeError;
# annotation_typing: the annotations below are the C types of the compiled module)
"""IR statements -> nodes; the effect primitives of dsl/primitives.py live here.

Each ``p_NAME`` method compiles one primitive call into a node.  Primitives
that complete at once are ``Atom`` closures over game methods; the ones that
may stop for a decision (choices, building, activation) are their own nodes.
The closures run at almost every step (an effect's call, ``gain``, ``pay``...)
annotate the game as ``GameFields``: compiled, they call the engine's primitives
through C (state.pxd) rather than looking each one up by name.
"""
from __future__ import annotations

from . import nodes as N
from .expressions import BUNDLE, RuleRuntimeError
from .library import EFFECT_BUILDERS, load_all
from .runtime import MAX_KEPT, MAX_NUMBER, holds, short_repr, too_large
from .state import GameFields

load_all()


def _kept(v):
    """A value stored in a frame: a copy if it is a list or dict the state may still change.  A
    number or a list beyond what a rule may keep (MAX_NUMBER, MAX_KEPT) is an error at the
    statement: a `let` that squares or doubles itself in a loop would otherwise never end."""
    t = type(v)
    if t is list or t is tuple:
        if len(v) > MAX_KEPT:
            raise too_large(v, "a let or an effect's parameter")
        return list(v)
    if t is dict:
        return {k: (x[:] if type(x) is list else x) for k, x in v.items()}
    if t is int and (v > MAX_NUMBER or v < -MAX_NUMBER):
        raise too_large(v, "a let or an effect's parameter")
    return v


def block_entry(nodes, nid: int) -> int:
    """Where running block ``nid`` starts: its only statement if it has one."""
    node = nodes[nid]
    while type(node) is N.Seq and len(node.children) == 1:
        nid = node.children[0]
        node = nodes[nid]
    return nid


def names_in(e) -> set:
    """Every name an IR expression mentions (a conservative free-variable set)."""
    out: set = set()
    stack = [e]
    while stack:
        x = stack.pop()
        if isinstance(x, dict):
            if x.get("e") == "name":
                out.add(x["id"])
            stack.extend(x.values())
        elif isinstance(x, list):
            stack.extend(x)
    return out


def _add_payment_names(names: set, st: dict) -> None:
    """The names a payment's arguments mention, the resources of its amounts among them (`pay 1 c`)."""
    names |= names_in([st["args"], st.get("kw")])
    names |= {a["what"] for a in st["args"] if a.get("e") == "amount"}


class EffectCompiler:
    def __init__(self, program):
        self.p = program

    @property
    def ex(self):
        return self.p.expr

    # ------------------------------------------------------------ blocks
    def block(self, stmts, scope) -> int:
        """The node id of a block; a block of one statement is that statement's node (one frame
        and one dispatch fewer).  The block's own node stays in the table all the same, so the
        nodes keep their numbers, which saved games refer to."""
        nid = self.p.reserve()
        self.compile_into(nid, stmts, scope)
        return block_entry(self.p.nodes, nid)

    def compile_into(self, nid: int, stmts, scope) -> None:
        children = []
        scope = frozenset(scope)
        first_pos = stmts[0]["pos"] if stmts else None
        for st in stmts or []:
            children.append(self.stmt(st, scope))
            if st["s"] == "let":
                scope = scope | {st["name"]}
        node = N.Seq(children)
        node.id, node.pos = nid, first_pos
        self.p.nodes[nid] = node

    def stmt(self, st, scope) -> int:
        return getattr(self, "s_" + st["s"])(st, scope)

    # ------------------------------------------------------------ control flow
    def s_if(self, st, scope):
        branches = [(self.ex.compile(c, scope), self.block(b, scope)) for c, b in st["branches"]]
        orelse = self.block(st["else"], scope) if st["else"] else None
        return self.p.add(N.If(branches, orelse), st["pos"])

    def s_for(self, st, scope):
        inner = scope | {st["var"]}
        return self.p.add(N.For(st["var"], self.ex.compile(st["iter"], scope), self.block(st["body"], inner),
                                st["acting"]), st["pos"])

    def s_as(self, st, scope):
        return self.p.add(N.As(self.ex.compile(st["player"], scope), self.block(st["body"], scope)), st["pos"])

    def s_repeat(self, st, scope):
        times = self.ex.compile(st["times"], scope) if st["times"] is not None else None
        cond = self.ex.compile(st["while"], scope) if st["while"] is not None else None
        return self.p.add(N.Repeat(times, cond, self.block(st["body"], scope)), st["pos"])

    def s_turns(self, st, scope):
        return self.p.add(N.Turns(self.ex.compile(st["order"], scope), self.block(st["body"], scope)), st["pos"])

    def s_break(self, st, scope):
        return self.p.add(N.Break(), st["pos"])

    def s_step(self, st, scope):
        return self.p.with_events(self.block(st["body"], scope), "step", st["name"], st["pos"])

    def s_block(self, st, scope):
        raise RuleRuntimeError("'%s:' is not a statement here" % st["label"], st["pos"])

    s_entry = s_block

    def s_choose(self, st, scope):
        options, hidden = [], False
        for number, o in enumerate(st["options"]):
            params, inner = [], scope
            earlier: set = set()
            for prm in o["params"]:
                it = self.ex.compile(prm["in"], inner)
                independent = not (names_in(prm["in"]) & earlier)
                inner = inner | {prm["name"]}
                earlier.add(prm["name"])
                where = self.ex.compile(prm["where"], inner) if prm["where"] is not None else None
                params.append((prm["name"], it, where, independent))
            when = self.ex.compile(o["when"], inner) if o["when"] is not None else None
            when_fixed = when is not None and not (names_in(o["when"]) & earlier)
            paid_with: set = set()
            requires = self._requirement(o["body"], inner, paid_with)
            requires_fixed = requires is not None and not (paid_with & earlier)
            bindings, filtered = None, False
            if o["params"]:
                # The tests that name a parameter go into the bindings' comprehension when they
                # can: one generated loop instead of two calls and a scope per binding.
                when_per_binding = when is not None and not when_fixed
                pay_per_binding = requires is not None and not requires_fixed
                payment = requires.inline if pay_per_binding else None
                filtered = (when_per_binding or pay_per_binding) and (payment is not None or not pay_per_binding)
                bindings = self.ex.compile_bindings(o["name"], number, o["params"], scope,
                                                    o["when"] if filtered and when_per_binding else None,
                                                    payment if filtered else None)
            options.append(N.Option(o["name"], params, when, requires, self.block(o["body"], inner), o["pos"],
                                    when_fixed, requires_fixed, bindings, filtered))
            hidden = hidden or self._depends_on_hidden([[prm["in"], prm["where"]] for prm in o["params"]]
                                                       + [o["when"]], paid_with)
        return self.p.add(N.Choose(st["title"] or "Choose", options, hidden), st["pos"])

    def _depends_on_hidden(self, exprs: list, paid: set) -> bool:
        """Whether an option's legality can depend on state some seat may not see: its domain or
        condition (EXPRS) or its opening payment (PAID names) names a hidden zone, counter or
        resource or a private place of pieces, directly or through the `let` functions called."""
        hidden = self.p.hidden_names()
        if paid & hidden:
            return True
        seen: set = set()
        stack = list(exprs)
        while stack:
            x = stack.pop()
            if isinstance(x, dict):
                if x.get("e") == "name" and x["id"] in hidden:
                    return True
                if x.get("e") == "call" and x["fn"] in self.p.lets and x["fn"] not in seen:
                    seen.add(x["fn"])
                    stack.append(self.p.lets[x["fn"]]["value"])
                stack.extend(x.values())
            elif isinstance(x, list):
                stack.extend(x)
        return False

    def _requirement(self, body, scope, names: set):
        """An option is legal only if the payments that open its effect can be made.

        ``names`` receives every name the payments' arguments mention (the option's
        parameters among them make the check depend on the parameters' values)."""
        checks = self._leading_payments(body, scope, 0, names)
        if not checks:
            return None

        amount_checks = [c for c in checks if c is not None]
        workers_needed = len(checks) - len(amount_checks)   # place_worker: one worker from the hand each
        inline = _inline_test(amount_checks, workers_needed)
        single = getattr(amount_checks[0], "single", None) if len(amount_checks) == 1 else None
        if single is not None and single[0] != "workers":
            # One amount of one resource (`pay 1 denier`): a closure of the compiled engine,
            # cheaper to call from Choose.legal than a generated function (0.3% of a game).
            res, n = single

            def requires(g, env):
                p = env["player"]
                counters = g.s.counters
                return counters[res][p] >= n(g, env) and (not workers_needed or counters["workers"][p] >= workers_needed)
        elif inline is not None and inline[1] is not None:
            # One amount (or one bundle), the workers in it or apart: one generated test, as
            # the bindings would write it, instead of scopes and a total per call.
            requires = self.ex.compile_payment_test(inline, scope, body[0].get("pos"))
        else:
            one = amount_checks[0] if len(amount_checks) == 1 else None

            def requires(g, env):
                pairs = one(g, env) if one is not None else [x for amounts in amount_checks for x in amounts(g, env)]
                return holds(g.s.counters, env["player"], pairs, workers_needed)
        requires.checks = checks          # read by interpreter/explain.py to say what is missing
        requires.inline = inline
        return requires

    def _leading_payments(self, body, scope, depth, names: set):
        """The payments a block opens with, also inside a named effect it opens with (`spend 2`).

        ``names`` receives the names the opening payments' arguments mention, and only theirs: the
        statement after them (`gain 4 pp`) has no part in whether the option can be taken."""
        checks = []
        for st in body:
            if st["s"] == "call" and st["name"] == "pay":
                if depth == 0:
                    _add_payment_names(names, st)
                checks.append(self.amounts(st["args"], scope))
            elif st["s"] == "call" and st["name"] == "place_worker":
                checks.append(None)
            elif st["s"] == "call" and st["name"] in self.p.effects and depth < 4 and not st["kw"]:
                d = self.p.effects[st["name"]]
                inner = self._leading_payments(d["body"], frozenset(d["params"]) | {"player"}, depth + 1, names)
                if not inner:
                    break
                if depth == 0:
                    _add_payment_names(names, st)
                args = [self.ex.compile(a, scope) for a in st["args"]]
                checks.extend(_bound(inner, d["params"], args, st["args"]))
                if len(inner) < len(d["body"]):
                    break
            else:
                break
        return checks

    def s_defer(self, st, scope):
        target = self.ex.compile(st["until_vacant"], scope)
        body = self.block(st["body"], scope)

        def defer(g, env):
            g.defer_until_vacant(target(g, env), body, env)
        return self.p.add(N.Atom(defer), st["pos"])

    # ------------------------------------------------------------ state changes
    def s_let(self, st, scope):
        name = st["name"]
        value = self.ex.compile(st["value"], scope)

        def let(g, env):
            env[name] = _kept(value(g, env))
        return self.p.add(N.Atom(let), st["pos"])

    def s_set(self, st, scope):
        t = st["target"]
        name = t["name"]
        c = self.p.counters.get(name)
        if c is None:
            raise RuleRuntimeError("'%s' is not a counter" % name, st["pos"])
        value = self.ex.compile(st["value"], scope)
        index = self.ex.compile(t["index"], scope) if t["index"] is not None else None
        who = self.ex.compile(t["of"], scope) if t["of"] is not None else None
        slots = self.p.enum_index.get(c["by"]) if c["by"] else None
        lo, hi = self.p.counter_bounds[name]     # MAX_NUMBER where the rules give none
        op = st["op"]
        per_player = c["scope"] == "player"
        pos = st["pos"]

        def set_counter(g, env):
            v = value(g, env)
            s = g.s
            holder, key = s.counters, name
            if per_player or index is not None:
                # the counter's list, the state's own to change (never cloned: all its own)
                holder = holder[name] if s.owned is None else s.own_counter(name)
            if per_player:
                key = who(g, env) if who is not None else env["player"]
            if index is not None:
                if per_player:
                    holder = holder[key]
                try:
                    key = slots[index(g, env)]
                except (KeyError, TypeError):
                    raise RuleRuntimeError("'%s' has no entry %s" % (name, short_repr(index(g, env))), pos)
            old = holder[key]
            new = v if op == "=" else old + v if op == "+=" else old - v
            if new < lo:
                if lo == -MAX_NUMBER:
                    raise too_large(new, "'%s'" % name)
                new = lo
            if new > hi:
                if hi == MAX_NUMBER:
                    raise too_large(new, "'%s'" % name)
                new = hi
            holder[key] = new
        return self.p.add(N.Atom(set_counter), st["pos"])

    # ------------------------------------------------------------ calls
    def s_call(self, st, scope):
        name = st["name"]
        if name in self.p.effects:
            return self._call_effect(st, scope)
        prim = getattr(self, "p_" + name, None)
        if prim is not None:
            return prim(st, scope)
        builder = EFFECT_BUILDERS.get(name)
        if builder is None:
            raise RuleRuntimeError("unknown effect '%s'" % name, st["pos"])
        return builder(self, st, scope)

    def _call_effect(self, st, scope):
        d = self.p.effects[st["name"]]
        make_scope = self.ex.compile_scope(d["params"], st["args"], scope, keep=_kept)
        # The effect's body may not be compiled yet (effects call each other): the program
        # sets the node a call starts at once every body is compiled (Program.effect_entry).
        entry = self.p.effect_entry(st["name"])

        def call(g: GameFields, env: dict):
            g.s.stack.append([entry[0], 0, make_scope(g, env), None])
        return self.p.add(N.Atom(call), st["pos"])

    def amounts(self, args, scope):
        """Compile `2 food, 1 c, b` into a closure giving [(resource, n), ...]."""
        parts = []
        for a in args:
            if a["e"] == "amount":
                n = self.ex.compile(a["n"], scope)
                what = a["what"]
                if what in scope:
                    parts.append(("var", n, what))
                elif what in self.p.resources or self._plain_player_counter(what):
                    parts.append(("res", n, what))
                else:
                    raise RuleRuntimeError("'%s' is not a resource" % what, a["pos"])
            else:
                parts.append(("bundle", self.ex.compile(a, scope), None))

        fixed = _fixed_amounts(parts)
        if fixed is not None:
            def evaluate(g, env):
                return fixed            # the same list at every call: callers only read it
        else:
            evaluate = _evaluate_amounts(parts)
        if len(parts) == 1 and parts[0][0] == "res":
            evaluate.single = (parts[0][2], parts[0][1])     # read by _requirement's fast path
        if len(parts) == 1 and parts[0][0] != "bundle":
            # the resource (or the name that holds it) and the amount, as expressions (_inline_test)
            a = args[0]
            what = a["what"] if parts[0][0] == "res" else {"e": "name", "id": a["what"], "pos": a.get("pos")}
            evaluate.inline = (what, a["n"])
        elif len(parts) == 1:
            evaluate.inline = (BUNDLE, args[0])         # `pay b`: the bundle as an expression
        return evaluate

    def _plain_player_counter(self, name) -> bool:
        """A per-player counter without an enum index counts like a resource in amounts (`pay 2 workers`)."""
        c = self.p.counters.get(name)
        return c is not None and c["scope"] == "player" and c["by"] is None

    def p_gain(self, st, scope):
        amounts = self.amounts(st["args"], scope)

        def gain(g: GameFields, env: dict):
            g.gain(env["player"], amounts(g, env))
        return self.p.add(N.Atom(gain), st["pos"])

    def p_pay(self, st, scope):
        amounts = self.amounts(st["args"], scope)
        pos = st["pos"]

        def pay(g: GameFields, env: dict):
            g.pay(env["player"], amounts(g, env), pos)
        return self.p.add(N.Atom(pay), st["pos"])

    def p_lose(self, st, scope):
        amounts = self.amounts(st["args"], scope)
        return self.p.add(N.Atom(lambda g, env: g.lose(env["player"], amounts(g, env))), st["pos"])

    def p_nothing(self, st, scope):
        return self.p.add(N.Atom(lambda g, env: None), st["pos"])

    def p_pass_turn(self, st, scope):
        order = st["args"][0]["id"] if st["args"] else None

        def pass_turn(g: GameFields, env: dict):
            g.pass_turn(env["player"], order)
        return self.p.add(N.Atom(pass_turn), st["pos"])

    def _args(self, st, scope):
        return [self.ex.compile(a, scope) for a in st["args"]]

    def p_place_worker(self, st, scope):
        (target,) = self._args(st, scope)

        def place_worker(g: GameFields, env: dict):
            g.place_worker(env["player"], target(g, env))
        return self.p.add(N.Atom(place_worker), st["pos"])

    def p_move_worker(self, st, scope):
        a, b = self._args(st, scope)
        return self.p.add(N.Atom(lambda g, env: g.move_worker(env["player"], a(g, env), b(g, env))), st["pos"])

    def p_return_workers(self, st, scope):
        (a,) = self._args(st, scope)
        return self.p.add(N.Atom(lambda g, env: g.return_all(a(g, env))), st["pos"])

    def p_activate(self, st, scope):
        spaces = [a["id"] for a in st["args"]]
        return self.p.add(N.Activate(spaces, None), st["pos"])

    def p_activate_road(self, st, scope):
        rng = st["args"][0]
        start = None
        if rng["e"] == "range":
            upto = self.ex.compile(rng["hi"], scope)
            lo = rng["lo"]
            if not (lo.get("e") == "int" and lo.get("v") == 1):
                start = self.ex.compile(lo, scope)      # the road from another slot than the first
        else:
            upto = self.ex.compile(rng, scope)
        return self.p.add(N.Activate(None, upto, start), st["pos"])

    def p_move_in_order(self, st, scope):
        order = st["args"][0]["id"]
        who, where = self._args(st, scope)[1:]
        return self.p.add(N.Atom(lambda g, env: g.move_in_order(order, who(g, env), where(g, env))), st["pos"])

    def p_shuffle(self, st, scope):
        order = st["args"][0]["id"]
        return self.p.add(N.Atom(lambda g, env: g.shuffle_order(order)), st["pos"])

    def p_deal_tiles(self, st, scope):
        cat = st["args"][0]["id"]
        rng = self.ex.compile(st["args"][1], scope)
        return self.p.add(N.Atom(lambda g, env: g.deal_tiles(cat, rng(g, env))), st["pos"])

    def p_build_tile(self, st, scope):
        cat = self.ex.compile(st["args"][0], scope)
        discount = None
        if "discount" in st["kw"]:
            amounts = self.amounts([st["kw"]["discount"]], scope)

            def discount(g, env):
                out: dict = {}
                for r, n in amounts(g, env):
                    out[r] = out.get(r, 0) + n
                return out
        return self.p.add(N.BuildTile(cat, discount), st["pos"])

    def p_transform_tile(self, st, scope):
        target = self.ex.compile(st["args"][0], scope)
        kind = st["args"][1]["id"]
        return self.p.add(N.Atom(lambda g, env: g.transform_tile(env["player"], target(g, env), kind)), st["pos"])

    def p_do(self, st, scope):
        (cell,) = self._args(st, scope)
        pos = st["pos"]
        entries = self.p.entry_nodes        # filled as the tables are compiled

        def do(g, env):
            node = cell(g, env)
            if type(node) is not int or node not in entries:   # a number is not an entry's node
                raise RuleRuntimeError("'do' needs one table entry, got %s" % short_repr(node), pos)
            g.s.stack.append([node, 0, env, None])
        return self.p.add(N.Atom(do), st["pos"])


def _inline_test(amount_checks, workers: int):
    """``requires``' test as data the bindings' comprehension can write out
    (``ExprCompiler.compile_bindings``): ``(resource or the name expression holding it, amount
    expression, workers)``, the resource and amount None when only workers are placed; None when
    the test adds several amounts up (several payments, workers paid in a resource a variable
    names besides the placed ones) or a called effect's amount names more than its parameters.
    Workers paid besides the placed ones are one total, as ``requires`` adds them up."""
    if not amount_checks:
        return None, None, workers
    inline = getattr(amount_checks[0], "inline", None) if len(amount_checks) == 1 else None
    if inline is None:
        return None
    what, amount = inline
    if what is BUNDLE:
        return what, amount, workers        # holds_bundle adds the workers up with the bundle
    if workers and type(what) is dict:
        return None             # the payment may be in workers: one total with the placed ones
    if workers and what == "workers":
        # Workers paid besides the placed ones: one total, as the general check adds them up.
        total = {"e": "binop", "op": "+", "left": amount, "right": {"e": "int", "v": workers}, "pos": amount.get("pos")}
        return what, total, 0
    return what, amount, workers


def _fixed_amounts(parts) -> list | None:
    """``[(resource, n), ...]`` when every amount is a number written in the rules (`gain 2
    food, 1 cloth`), None otherwise."""
    fixed = []
    for kind, f, what in parts:
        n = getattr(f, "value", None)
        if kind != "res" or type(n) is not int:
            return None
        fixed.append((what, n))
    return fixed


def _evaluate_amounts(parts):
    """The function giving the amounts' ``[(resource, n), ...]`` in a scope."""
    if len(parts) == 1 and parts[0][0] == "res":
        _, n, what = parts[0]

        def one(g, env):                # `pay cost denier`: most payments
            return [(what, n(g, env))]
        return one

    def evaluate(g, env):
        out = []
        for kind, f, what in parts:
            if kind == "res":
                out.append((what, f(g, env)))
            elif kind == "var":
                out.append((env[what], f(g, env)))
            else:
                v = f(g, env)
                for r in (v if type(v) is list else [v]):
                    out.append((r, 1))
        return out
    return evaluate


def _bound(checks, params, args, arg_exprs):
    """Payment checks of a called effect, evaluated with its parameters bound to the call's
    arguments (``args`` compiled, ``arg_exprs`` as the IR has them)."""
    out = []
    for amounts in checks:
        if amounts is None:
            out.append(None)
            continue

        def bound(g, env, amounts=amounts):
            local = {"player": env.get("player")}
            for n, a in zip(params, args):
                local[n] = a(g, env)
            return amounts(g, local)
        bound.inline = _in_callers_terms(getattr(amounts, "inline", None), params, arg_exprs)
        out.append(bound)
    return out


def _in_callers_terms(inline, params, arg_exprs):
    """A called effect's payment ``(resource, amount)`` as expressions of the caller's scope: a
    parameter becomes the call's argument (`return_to_camp extra` pays ``extra`` workers); None
    when the amount names anything else, which the caller's scope could mean otherwise (or when
    the effect's payment has no such form itself)."""
    def caller_expr(x):
        if type(x) is dict and x.get("e") == "name" and x["id"] in params:
            i = params.index(x["id"])
            return arg_exprs[i] if i < len(arg_exprs) else None
        return x if type(x) is not dict or not names_in(x) else None

    if inline is None:
        return None
    what, amount = caller_expr(inline[0]), caller_expr(inline[1])
    return None if what is None or amount is None else (what, amount)
