"""Call checks (A4xx): effects called as statements and functions called in expressions.

Signatures are read from dsl/primitives.py at check time, so a primitive the interpreter adds is
known to the checker as soon as it has its Signature there.
"""
from __future__ import annotations

from .. import primitives as P
from ..diagnostics import Diagnostic, register
from .model import model

register("A401", "error", "unknown effect")
register("A402", "error", "wrong number of arguments to an effect")
register("A403", "error", "unknown keyword argument")
register("A404", "error", "unknown function")
register("A405", "error", "wrong number of arguments to a function")
register("A406", "error", "a let without parameters called as a function")
register("A407", "error", "a let with parameters used without arguments")


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
            if fn in sym.effects or fn in P.EFFECTS:
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
