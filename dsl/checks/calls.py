"""Call checks (A4xx): effects called as statements and functions called in expressions.

Signatures are read from dsl/primitives.py at check time, so a primitive the interpreter adds is
known to the checker as soon as it has its Signature there.
"""
from __future__ import annotations

from .. import primitives as P
from ..diagnostics import Diagnostic, explain, register
from .model import model

register("A401", "error", "unknown effect")
register("A402", "error", "wrong number of arguments to an effect")
register("A403", "error", "unknown keyword argument")
register("A404", "error", "unknown function")
register("A405", "error", "wrong number of arguments to a function")
register("A406", "error", "a let without parameters called as a function")
register("A407", "error", "a let with parameters used without arguments")
explain("A401", """
A statement names an effect: a primitive of the library (`gain`, `pay`, `place_worker`, ...) or
an `effect` declared in the rules.  A name that is neither gives the engine nothing to run at
that line, and it refuses the rules before a game starts.  A let or a library function written
as a statement is reported too: they compute values, and a value on its own line does nothing.

    phase p:
        gian 1 pp          # error: unknown effect 'gian'; did you mean 'gain'?

Fix: the name of an effect, as the suggestion says (`gain 1 pp`), or declare it with
`effect NAME(...):`; a let or a function goes inside a statement (`gain bonus pp`).""")
explain("A402", """
An effect takes as many arguments as it has parameters: a declared effect exactly one per
parameter, a primitive the number the library gives it (`nothing` none, `place_worker` one
space, `gain` one or more amounts).  A declared effect's arguments are bound to its parameters in
order, so an extra argument would be dropped without a word and a missing one would leave a
parameter with no value when the body reads it.

    effect score(n, m):
        gain n + m pp
    phase p:
        score 1            # error: effect 'score' takes 2 arguments (n, m), not 1

Fix: one argument per parameter, in order (`score 1, 2`), or change the effect's parameters.""")
explain("A403", """
Keyword arguments (`NAME = VALUE`) are taken only by the primitives the library lists them for:
`build_tile` takes `discount`, `place_piece` and `gather_pieces` take `owner`; a declared
effect takes none.  The engine reads only the keywords it knows, so a misspelt or unknown one
would be ignored in play: here the discount would never be given.

    category c
    phase p:
        build_tile c, discont = 1 wood    # error: 'build_tile' has no keyword argument
                                          # 'discont'; did you mean 'discount'?

Fix: the keyword the primitive takes (`build_tile c, discount = 1 wood`); for a declared effect,
a parameter and a positional argument (`effect score(n, bonus):` and `score 1, 2`).""")
explain("A404", """
A call in an expression, `NAME(...)`, names a library function (`count`, `held`, `max`, ...) or
a let with parameters.  Any other name has nothing to compute.  An effect called in an
expression is reported too (effects are statements and have no value), and so is a local value
(a parameter, a `let` statement, a loop variable) followed by parentheses.

    phase p:
        gain cont([1]) pp      # error: unknown function 'cont'; did you mean 'count'?

Fix: the function's name, as the suggestion says (`count([1])`), or declare the let
(`let price(n) = n + 1`); call an effect as a statement of its own.""")
explain("A405", """
A function takes the number of arguments the library gives it (`count`, `sum` and `max` one
list each), and a let with parameters exactly one per parameter.  Any other number leaves a
parameter without a value, or an argument that no parameter receives.

    let price(n) = n + 1
    phase p:
        gain count([1], 2) + price() pp   # error: 'count' takes 1 argument, not 2
                                          # error: 'price' takes 1 argument (n), not 0

Fix: one argument per parameter (`gain count([1]) + price(2) pp`).""")
explain("A406", """
A let without parameters is a value, written by its name alone; parentheses are for the lets
that take parameters and for functions.  Calling a value suggests it takes arguments, and any
given would be dropped without a word, so the rules say `bonus`, never `bonus()`.

    let bonus = 2
    phase p:
        gain bonus() pp        # error: 'bonus' is a value, not a function: write 'bonus'
                               # without parentheses

Fix: the name alone (`gain bonus pp`), or give the let parameters if it needs them
(`let bonus(n) = n * 2`).""")
explain("A407", """
A let with parameters has no value until it is given its arguments: read by its name alone,
it is refused by the engine ("'price' needs arguments"), not taken as some value.

    let price(n) = n + 1
    phase p:
        gain price pp          # error: 'price' takes 1 argument: write 'price(n)'

Fix: call it with its arguments (`gain price(2) pp`), or declare it without parameters
(`let price = 2`) if it does not need them.""")


def _expects(lo: int, hi: int | None) -> str:
    if hi is None:
        return "at least %d argument%s" % (lo, "" if lo == 1 else "s")
    if lo == hi:
        return "%d argument%s" % (lo, "" if lo == 1 else "s")
    return "%d to %d arguments" % (lo, hi)


def _arity_ok(n: int, lo: int, hi: int | None) -> bool:
    return n >= lo and (hi is None or n <= hi)


def check_effect_calls(ruleset) -> list[Diagnostic]:
    """`NAME args`: a primitive effect or an `effect` declaration, with the right arguments."""
    m = model(ruleset)
    sym = m.sym
    out = []
    for st, scope, i in m.uses.calls:
        name, n = st["name"], len(st["args"])
        if name in sym.effects:
            params = sym.effects[name].get("params") or []
            if n != len(params):
                out.append(sym.diag(i, st, "A402", "effect '%s' takes %s (%s), not %d"
                                    % (name, _expects(len(params), len(params)), ", ".join(params) or "none", n)))
            for k, v in st["kw"].items():
                out.append(sym.diag(i, v, "A403", "effect '%s' takes no keyword arguments (got '%s')" % (name, k)))
            continue
        sig = P.EFFECTS.get(name)
        if sig is None:
            if name in sym.lets or name in P.FUNCTIONS:
                msg = "'%s' is %s, not an effect; use it inside an expression" % (
                    name, "a let" if name in sym.lets else "a function")
            else:
                msg = "unknown effect '%s'%s" % (name, m.hint(name, "effects", lambda: sorted(set(P.EFFECTS) | set(sym.effects))))
            out.append(sym.diag(i, st, "A401", msg))
            continue
        if not _arity_ok(n, sig.min_args, sig.max_args):
            out.append(sym.diag(i, st, "A402", "'%s' takes %s, not %d" % (name, _expects(sig.min_args, sig.max_args), n)))
        for k, v in st["kw"].items():
            if k not in sig.kwargs:
                allowed = ("; it takes %s" % ", ".join(sig.kwargs)) if sig.kwargs else "; it takes none"
                hint = m.hint(k, ("kwargs", name), sig.kwargs)
                out.append(sym.diag(i, v, "A403", "'%s' has no keyword argument '%s'%s" % (name, k, hint or allowed)))
    return out


def check_worker_counter(ruleset) -> list[Diagnostic]:
    """`place_worker` takes the worker from the acting player's counter `workers`, the one counter
    the engine reads by name: without it, per player and not kept `by` an enum, a game of rules
    that check clean would fail at the first worker placed."""
    m = model(ruleset)
    sym = m.sym
    counter = sym.counters.get("workers")
    if counter is not None and counter.get("scope") != "global" and counter.get("by") is None:
        return []
    if counter is None:
        why = "no counter 'workers' is declared; declare the workers in hand: counter workers per player start N"
    else:
        why = "'workers' is %s; it must be per player, without 'by'" % (
            "a global counter" if counter.get("scope") == "global" else "kept 'by %s'" % counter.get("by"))
    return [sym.diag(i, st, "N103", "'place_worker' takes the worker from the acting player's counter 'workers', "
                     "but %s" % why)
            for st, _, i in m.uses.calls if st["name"] == "place_worker" and len(st["args"]) == 1][:1]


def check_function_calls(ruleset) -> list[Diagnostic]:
    """`fn(args)`: a library function or a let with parameters; lets are called iff they take parameters."""
    m = model(ruleset)
    sym = m.sym
    out = []
    for e, scope, i in m.uses.funcalls:
        fn, n = e["fn"], len(e["args"])
        let = sym.lets.get(fn) if fn not in scope else None
        if let is not None:
            params = let.get("params")
            if params is None:
                out.append(sym.diag(i, e, "A406", "'%s' is a value, not a function: write '%s' without parentheses"
                                    % (fn, fn)))
            elif n != len(params):
                out.append(sym.diag(i, e, "A405", "'%s' takes %s (%s), not %d"
                                    % (fn, _expects(len(params), len(params)), ", ".join(params) or "none", n)))
            continue
        sig = P.FUNCTIONS.get(fn)
        if sig is None:
            if fn in scope:
                # a parameter, a let statement or a loop variable: a value, which hides a let of
                # its name as locals hide declarations (a hint would only repeat the name)
                msg = ("'%s' here is a local value that hides the let '%s'; rename one of them" % (fn, fn)
                       if fn in sym.lets else
                       "'%s' is a local value, not a function: write '%s' without parentheses" % (fn, fn))
            elif fn in sym.effects or fn in P.EFFECTS:
                msg = "'%s' is an effect, not a function; call it as a statement" % fn
            else:
                msg = "unknown function '%s'%s" % (fn, m.hint(fn, "functions", lambda: sorted(
                    set(P.FUNCTIONS) | {k for k, d in sym.lets.items() if d.get("params") is not None})))
            out.append(sym.diag(i, e, "A404", msg))
            continue
        if not _arity_ok(n, sig.min_args, sig.max_args):
            out.append(sym.diag(i, e, "A405", "'%s' takes %s, not %d" % (fn, _expects(sig.min_args, sig.max_args), n)))
    for e, scope, i in m.uses.names:
        name = e["id"]
        if name in scope:
            continue
        let = sym.lets.get(name)
        if let is not None and let.get("params") is not None:
            out.append(sym.diag(i, e, "A407", "'%s' takes %s: write '%s(%s)'" % (
                name, _expects(len(let["params"]), len(let["params"])), name, ", ".join(let["params"]))))
    return out
