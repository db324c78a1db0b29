"""Loops that would never finish: `repeat while` with a condition that cannot change, or a body
that changes nothing the condition reads (C803, C804, C806), and `turns ... until all passed` in
which nobody can pass (C805) -- with nothing in the body leaving the loop.  A `break` or a
`pass_turn` in an option no player is ever offered (`when no`) does not count.

The interpreter runs a `repeat while` body until the condition is false or a `break` leaves it,
and turns until every player has passed; a loop none of these can end runs until the engine's
step budget stops the game (E100 in play).
"""
from __future__ import annotations

from .. import primitives as P
from ..diagnostics import Diagnostic, explain, register
from .cycles import _dicts_in, _line
from .model import model

register("C803", "error", "a `repeat while` loop whose condition cannot change")
register("C804", "warning", "a `repeat while` loop whose body changes nothing its condition reads")
register("C806", "error", "a `repeat while` loop whose only way out is an option no player is ever offered")
register("C805", "error", "a `turns ... until all passed` loop in which no player can ever pass")

explain("C803", """
`repeat while COND:` runs while COND holds; when COND uses only constants and nothing in the
body leaves the loop, it never ends.

    repeat while yes:
        gain 1 pp          # error: this loop never ends

Fix: make the condition depend on the game (`repeat while held(coin) > 0:`), or `break`.""")
explain("C804", """
`repeat while COND:` that nothing in its body can make false: the body changes none of the
counters and resources COND reads, or COND reads only names that keep their value while the loop
runs -- an effect's parameter, a `for` or `each` variable, an option's parameter, a
`let` bound before the loop, and the context names (`player`, `target`, `self`, `slot`, `worker`,
`round`, `player_count`).  If COND is false on entry the loop never runs; once it is true it
never ends.  A warning, not an error: which of the two happens depends on the game.

    effect spend(n):
        repeat while n > 1:    # warning: it reads only 'n', which keeps its value while the loop runs
            gain 1 coin

Fix: change what the condition reads in the body (`set moves += 1`, `let n = n - 1`), or
`break` out of it.""")
explain("C806", """
A choice offers only the options whose `when` holds and whose parameters have a value to take;
an option whose `when` is a false constant (`when no`, `when 1 > 2`) or whose parameter ranges
over nothing (`in []`, `in 3..1`, `where no`) is never offered, and a choice with no option to
offer is passed over without asking anyone.  When such an option holds the only `break` of a
`repeat while` loop whose condition cannot change, the loop never ends.

    repeat while yes:
        choose "Go on?":                 # error: the loop at line N never ends: its only way
                                         # out, option 'stop' of this choice, is never offered
            option stop when no: break
            option more: gain 1 coin

Fix: a condition that can hold (`option stop when held(coin) > 3: break`), or no condition.""")

explain("C805", """
`turns in ORDER until all passed:` gives the players turns until every one has passed with
`pass_turn`; when nothing the turns run can pass (nor `break` out), it never ends.

    turns in turn_order until all passed:    # error: these turns never end: nothing in them
                                             # passes (`pass_turn`) or leaves the loop (`break`)
        choose "Place a worker":
            option place(t in open_spaces()): place_worker t

Fix: an option that passes, `option pass: pass_turn`.""")

def _constant(e) -> bool:
    """True when an expression's value cannot change while the game runs: literals and constants."""
    for x in _dicts_in(e):
        k = x.get("e")
        if k == "name" and x.get("id") not in P.CONSTANTS:
            return False
        if k in ("call", "comp", "attr", "index", "of"):
            return False
    return True


_UNKNOWN = object()
_OPS = {"==": lambda a, b: a == b, "!=": lambda a, b: a != b, "<": lambda a, b: a < b,
        "<=": lambda a, b: a <= b, ">": lambda a, b: a > b, ">=": lambda a, b: a >= b,
        "+": lambda a, b: a + b, "-": lambda a, b: a - b, "*": lambda a, b: a * b}


def _value(e):
    """The value of an expression of constants and literals (`no`, `1 > 2`, `[]`, `3..1`), or
    _UNKNOWN for anything else."""
    k = e.get("e") if isinstance(e, dict) else None
    if k in ("int", "str"):
        return e.get("v")
    if k == "name":
        return P.CONSTANTS.get(e.get("id"), _UNKNOWN)
    if k == "list":
        items = [_value(x) for x in e.get("items") or ()]
        return _UNKNOWN if any(x is _UNKNOWN for x in items) else items
    args = [_value(e.get(key)) for key in {"not": ("x",), "neg": ("x",), "range": ("lo", "hi"),
                                           "binop": ("left", "right")}.get(k, ())]
    if not args or any(x is _UNKNOWN for x in args):
        return _UNKNOWN
    op = e.get("op")
    try:
        if k == "not":
            return not args[0]
        if k == "neg":
            return -args[0]
        if k == "range":
            return range(args[0], args[1] + 1)
        if op in ("and", "or"):
            return (args[0] and args[1]) if op == "and" else (args[0] or args[1])
        return _OPS[op](*args) if op in _OPS else _UNKNOWN
    except (TypeError, KeyError):
        return _UNKNOWN


def _false(e) -> bool:
    """A constant that is false (`no`, `none`, `0`, `1 > 2`, `[]`): a loop that never runs
    finishes, an option whose `when` is such is never offered."""
    v = _value(e)
    return v is not _UNKNOWN and not v


def _never_offered(option: dict) -> bool:
    """An option no player is ever offered: its `when` is a false constant, or one of its
    parameters has no value to take (`in []`, `in 3..1`, `where no`)."""
    if option.get("when") is not None and _false(option["when"]):
        return True
    return any(_empty(prm.get("in")) or (prm.get("where") is not None and _false(prm["where"]))
               for prm in option.get("params") or ())


def _empty(e) -> bool:
    """A constant list or range with nothing in it (`[]`, `3..1`)."""
    v = _value(e)
    return isinstance(v, (list, range)) and not v


def _way_out(body, effects, offered_only: bool = True):
    """The first statement that leaves this loop in `body` -- a `break` not inside a nested loop,
    or an effect call (its `break` may leave the caller's loop) -- as (statement, (choose, option)
    of the option never offered it is in, or None); None when nothing leaves.  With
    `offered_only` the bodies of options never offered are passed over: they never run."""
    stack = [(st, None) for st in body or ()]
    while stack:
        st, hidden = stack.pop()
        if not isinstance(st, dict):
            continue
        s = st.get("s")
        if s == "break" or (s == "call" and st.get("name") in effects):
            return st, hidden
        if s in ("for", "repeat", "turns", "defer"):
            continue
        for key, v in st.items():
            if isinstance(v, list):
                for x in v:
                    if isinstance(x, dict) and "s" in x:
                        stack.append((x, hidden))
                    elif isinstance(x, dict) and "body" in x:          # options of a choose
                        never = _never_offered(x)
                        if not (never and offered_only):
                            inner = hidden or ((st, x) if never else None)
                            stack.extend((y, inner) for y in x.get("body") or ())
                    elif isinstance(x, (list, tuple)) and len(x) == 2 and isinstance(x[1], list):
                        stack.extend((y, hidden) for y in x[1])         # branches of an if
    return None


def _breaks_out(body, effects) -> bool:
    """True when something in `body` leaves this loop (`_way_out`, options never offered aside)."""
    return _way_out(body, effects) is not None


def check_constant_loops(ruleset) -> list[Diagnostic]:
    """C803: `repeat while COND` where COND is true and cannot change, with no way out of the body;
    C806: the same loop whose only ways out are in options no player is ever offered."""
    m = model(ruleset)
    sym = m.sym
    out = []
    for i, d in enumerate(sym.decls):
        for x in _dicts_in(d):
            if x.get("s") != "repeat" or x.get("while") is None or not _constant(x["while"]) \
                    or _false(x["while"]) or _breaks_out(x.get("body"), sym.effects):
                continue
            hidden = _way_out(x.get("body"), sym.effects, offered_only=False)
            if hidden is None:
                out.append(sym.diag(i, x, "C803", "this loop never ends: its condition cannot change "
                                    "and nothing in its body leaves it (add a condition on the game's state "
                                    "or a `break`)"))
                continue
            choose, option = hidden[1]
            why = "its `when` is always false" if option.get("when") is not None and _false(option["when"]) \
                else "a parameter has no value to take"
            passed = "; a choice with no option to offer is passed over" \
                if all(_never_offered(o) for o in choose.get("options") or ()) else ""
            out.append(sym.diag(i, choose, "C806", "the loop at line %d never ends: its only way out, option "
                                "'%s' of this choice, is never offered (%s)%s"
                                % (_line(x.get("pos")), option.get("name"), why, passed)))
    return out


_READERS = {"held", "count", "sum", "min", "max", "abs", "first", "distinct"}   # pure functions of their args
_CHANGES_NOTHING = {"nothing"}
_CHANGES_AMOUNTS = {"gain", "pay", "lose"}
# Bound by the engine around a body (the acting player, the space at work, the event's target,
# the round): a statement of the body cannot change them, `as` and `each` bind a new scope.
_FIXED = frozenset(P.CONTEXT_NAMES)


def _reads(e, sym, local=None, seen=()) -> tuple[set, set] | None:
    """What an expression reads, as (counters and resources, fixed names), or None when it may read
    anything else.  Fixed names keep their value while a loop runs: the context names (`player`,
    `target`, `round` ...) and the locals bound outside it (`local(name node)`: the local names in
    scope there, Model.scope_at) -- unless the loop's body binds them again."""
    out: set = set()
    fixed: set = set()
    for x in _dicts_in(e):
        k = x.get("e")
        if k == "name":
            name = x.get("id")
            if name in P.CONSTANTS:
                continue
            if (local is not None and name in local(x)) or name in _FIXED:
                fixed.add(name)
            elif name in sym.counters or name in sym.resources:
                out.add(name)
            elif name in sym.lets and name not in seen and sym.lets[name].get("params") is None:
                more = _reads(sym.lets[name].get("value"), sym, local, seen + (name,))
                if more is None:
                    return None
                out |= more[0]
                fixed |= more[1]
            elif sym.kind(name) not in ("enum value", "space", "building", "category"):
                return None
        elif (k == "call" and x.get("fn") not in _READERS) or k in ("attr", "index", "of", "comp"):
            return None
    return out, fixed


def _changes(body, sym) -> set | None:
    """What a loop body may change (counter and resource names), or None when it may change anything."""
    out: set = set()
    stack = list(body or ())
    while stack:
        st = stack.pop()
        if not isinstance(st, dict):
            continue
        s = st.get("s")
        if s == "call":
            name = st.get("name")
            if name in _CHANGES_AMOUNTS:
                for a in st.get("args") or []:
                    what = a.get("what") if isinstance(a, dict) else None
                    if what in sym.resources:
                        out.add(what)
                    elif what in sym.lets:
                        out |= {it.get("id") for it in (sym.lets[what].get("value") or {}).get("items") or []
                                if isinstance(it, dict)}
                    else:
                        return None
            elif name not in _CHANGES_NOTHING:
                return None
        elif s == "set":
            out.add((st.get("target") or {}).get("name"))
        elif s == "choose" and all(_never_offered(o) for o in st.get("options") or ()):
            continue                              # no option to offer: the choice is passed over
        elif s in ("choose", "turns", "defer"):
            return None                           # decisions and later bodies: anything may change
        for key, v in st.items():
            if isinstance(v, list):
                for x in v:
                    if isinstance(x, dict) and "s" in x:
                        stack.append(x)
                    elif isinstance(x, (list, tuple)) and len(x) == 2 and isinstance(x[1], list):
                        stack.extend(x[1])
    return out


def check_unchanging_loops(ruleset) -> list[Diagnostic]:
    """C804: `repeat while COND` whose body changes none of what COND reads (a warning: if COND is
    false on entry the loop never runs, but once it is true it never ends).  A condition on fixed
    names alone (a parameter, a `for` variable, `target` ...) cannot change whatever the body does,
    unless the body binds one of them again (`let`)."""
    m = model(ruleset)
    sym = m.sym
    out = []
    for i, d in enumerate(sym.decls):
        for x in _dicts_in(d):
            cond = x.get("while") if x.get("s") == "repeat" else None
            if cond is None or _constant(cond) or _breaks_out(x.get("body"), sym.effects):
                continue
            found = _reads(cond, sym, m.scope_at)
            if found is None:
                continue
            reads, fixed = found
            if fixed & {y.get("name") for y in _dicts_in(x.get("body")) if y.get("s") == "let"}:
                continue
            if reads:
                changes = _changes(x.get("body"), sym)
                if changes is not None and not (reads & changes):
                    out.append(sym.diag(i, x, "C804", "this loop never ends once its condition holds: nothing "
                                        "in it changes %s" % ", ".join("'%s'" % r for r in sorted(reads))))
            elif fixed:
                out.append(sym.diag(i, x, "C804", "this loop never ends once its condition holds: it reads "
                                    "only %s, which keep%s %s value while the loop runs (bound outside it)"
                                    % (", ".join("'%s'" % r for r in sorted(fixed)),
                                       "s" if len(fixed) == 1 else "", "its" if len(fixed) == 1 else "their")))
    return out


def _may_leave_turns(body, effects, seen: set) -> bool:
    """True when running ``body`` may pass a turn or leave a loop: a `pass_turn` or `break`
    anywhere in it or in an effect it calls, or a `do` (a table's entries may do anything); not
    in an option never offered."""
    stack = list(body or ())
    while stack:
        x = stack.pop()
        if isinstance(x, list):
            stack.extend(x)
            continue
        if not isinstance(x, dict):
            continue
        s = x.get("s")
        if s == "break":
            return True
        if s == "call":
            name = x.get("name")
            if name in ("pass_turn", "do"):
                return True
            if name in effects and name not in seen:
                seen.add(name)
                stack.append(effects[name].get("body"))
        if "s" not in x and "body" in x and _never_offered(x):
            continue                    # an option never offered: its body never runs
        stack.extend(v for key, v in x.items() if key != "pos" and isinstance(v, (list, dict)))
    return False


def check_endless_turns(ruleset) -> list[Diagnostic]:
    """C805: `turns ... until all passed` whose body can never pass nor break (effects followed;
    nothing is reported when a trigger could pass, since the body may set it off)."""
    m = model(ruleset)
    sym = m.sym
    if any(d.get("kind") == "trigger" and _may_leave_turns(d.get("body"), sym.effects, set()) for d in sym.decls):
        return []
    out = []
    for i, d in enumerate(sym.decls):
        for x in _dicts_in(d):
            if x.get("s") == "turns" and not _may_leave_turns(x.get("body"), sym.effects, set()):
                out.append(sym.diag(i, x, "C805", "these turns never end: nothing in them passes "
                                    "(`pass_turn`) or leaves the loop (`break`); give the players an "
                                    "option that passes"))
    return out
