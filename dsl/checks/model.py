"""What the checks share: the ruleset's symbol table and one scoped walk over every body.

`Symbols` indexes the declarations by name (one global namespace: declaration names and enum
values).  `Uses` is a single pass over every expression and statement that records, for each
reference, the local names in scope there; the checks then read the lists they need.  Both are
built once per ruleset (`model(ruleset)`), so adding a check costs no extra walk.

Scopes follow the interpreter: effect and let parameters; `let` statements from the next
statement to the end of their block (and the blocks inside it); `for`/`each` variables in their
body; option parameters in their option (an earlier parameter is visible in a later one's `in`
and `where`); comprehension variables inside the comprehension.
"""
from __future__ import annotations

from .. import primitives as P
from ..diagnostics import Diagnostic

# Kinds whose bodies are entered from elsewhere at run time: a `break` there may leave a loop of
# the caller (the interpreter pops frames up to the nearest loop), so it is not checked lexically.
DYNAMIC_BODIES = {"effect", "table"}


def always_defined() -> set[str]:
    """Names defined everywhere: constants, context names, and names primitives bind."""
    names = set(P.CONSTANTS) | set(P.CONTEXT_NAMES)
    for table in (P.EFFECTS, P.FUNCTIONS):
        for sig in table.values():
            names.update(sig.context)
    for bound in P.EVENTS.values():
        names.update(bound)
    return names


class Symbols:
    """The declarations of a resolved ruleset, indexed."""

    def __init__(self, ruleset):
        self.decls: list[dict] = ruleset.decls
        self.files: list[str] = ruleset.files
        self.default_path = (ruleset.chain[-1] if getattr(ruleset, "chain", None) else None) \
            or (self.files[0] if self.files else "<rules>")
        self.by_name: dict[str, list[tuple[str, int]]] = {}   # name -> [(kind, decl index)]
        self.enum_of_value: dict[str, str] = {}
        self.of_kind: dict[str, dict[str, dict]] = {}
        for i, d in enumerate(self.decls):
            kind, name = d.get("kind"), d.get("name")
            if isinstance(name, str):
                self.by_name.setdefault(name, []).append((kind, i))
                self.of_kind.setdefault(kind, {}).setdefault(name, d)
            if kind == "enum":
                for v in d.get("values") or []:
                    self.by_name.setdefault(v, []).append(("enum value", i))
                    self.enum_of_value.setdefault(v, name)
            elif kind == "pieces":
                # The places a kind of piece can be (`start`, `private`, `public`) are names too.
                zones = [d.get("start")] + list(d.get("private") or []) + list(d.get("public") or [])
                for z in dict.fromkeys(z for z in zones if isinstance(z, str)):
                    self.by_name.setdefault(z, []).append(("piece place", i))
        self.node_files = _step_node_files(ruleset)
        self.builtin = always_defined()
        self.resources = self.names("resource")
        self.counters = self.of_kind.get("counter", {})
        self.lets = self.of_kind.get("let", {})
        self.effects = self.of_kind.get("effect", {})
        self.enums = self.of_kind.get("enum", {})
        self.resource_lists = {n for n, d in self.lets.items() if self._is_resource_list(d)}

    def names(self, kind: str) -> set[str]:
        return set(self.of_kind.get(kind, {}))

    def kind(self, name: str) -> str | None:
        """The kind of the first declaration of `name` ('enum value' for enum values), or None."""
        found = self.by_name.get(name)
        return found[0][0] if found else None

    def is_defined(self, name: str) -> bool:
        return name in self.by_name or name in self.builtin

    def all_names(self) -> set[str]:
        return set(self.by_name) | self.builtin

    def path(self, i: int | None) -> str:
        if i is not None and 0 <= i < len(self.files) and self.files[i]:
            return self.files[i]
        return self.default_path

    def _is_resource_list(self, d: dict) -> bool:
        v = d.get("value")
        return (d.get("params") is None and isinstance(v, dict) and v.get("e") == "list" and bool(v["items"])
                and all(it.get("e") == "name" and it.get("id") in self.resources for it in v["items"]))

    @staticmethod
    def at(d: dict, field: str):
        """Where declaration ``d``'s ``field`` is written (its value's position), else ``d``
        itself: the head, for a field it leaves out or an IR file that does not say."""
        return (d.get("attr_pos") or {}).get(field) or d

    def diag(self, i: int | None, node_or_pos, code: str, message: str, severity: str | None = None) -> Diagnostic:
        """A diagnostic in the file of declaration `i`, at a node's (or a pos list's) position."""
        path = None
        if isinstance(node_or_pos, dict):
            pos = node_or_pos.get("pos")
            path = self.node_files.get(id(node_or_pos))     # in a step another file gave this phase
        else:
            pos = node_or_pos
        line, col = _line_col(pos)
        from ..diagnostics import CODES
        sev = severity or CODES.get(code, ("error",))[0]
        return Diagnostic(path or self.path(i), line, col, sev, code, message)


def _step_node_files(ruleset) -> dict[int, str]:
    """id of every IR node inside a step that came from another file than its phase (or inside a
    table's entry that came from another file than its table) -> that file."""
    out: dict[int, str] = {}
    entry_files = getattr(ruleset, "entry_files", None) or {}
    for d, path in zip(ruleset.decls, ruleset.files):
        if d["kind"] == "table" and (d["kind"], d.get("name")) in entry_files:
            # a table whose entries came from several files (a variant's `replace entry`)
            origins = entry_files[(d["kind"], d.get("name"))]
            parts = [(e, origins.get(e.get("key"), origins.get(""))) for e in d.get("entries") or []]
        else:
            origins = ruleset.step_files.get((d["kind"], d.get("name") or d["kind"])) if ruleset.step_files else None
            if not origins:
                continue
            parts = [(st, origins.get(st.get("name")) if st.get("s") == "step" else None) for st in d.get("body") or []]
        for st, origin in parts:
            if origin is None or origin == path:
                continue
            stack = [st]
            while stack:
                x = stack.pop()
                if isinstance(x, dict):
                    out[id(x)] = origin
                    stack.extend(x.values())
                elif isinstance(x, list):
                    stack.extend(x)
    return out


def _line_col(pos) -> tuple[int, int]:
    if isinstance(pos, (list, tuple)) and len(pos) >= 2 and all(type(p) is int for p in pos[:2]):
        return max(1, pos[0]), max(1, pos[1])
    return 1, 1


def end_of(node: dict, width: int) -> list[int]:
    """The position of the last `width` characters of a node (an amount's unit, for instance)."""
    pos = node.get("pos")
    if isinstance(pos, list) and len(pos) == 4 and all(type(p) is int for p in pos) and pos[0] == pos[2] \
            and pos[3] - width >= pos[1]:
        return [pos[2], pos[3] - width]
    return pos


# ------------------------------------------------------------------ the walk
class Uses:
    """Every reference in the ruleset with the locals in scope there (`i` is the declaration index)."""
    __slots__ = ("names", "calls", "funcalls", "amounts", "sets", "indexes", "ofs", "attrs", "ints", "chooses",
                 "misplaced")

    def __init__(self):
        self.names: list = []        # (expr name node, scope, i)
        self.calls: list = []        # (call statement, scope, i)
        self.funcalls: list = []     # (call expression, scope, i)
        self.amounts: list = []      # (amount node, scope, i, where) where: "arg" or the field ("cost")
        self.sets: list = []         # (set statement, scope, i)
        self.indexes: list = []      # (index expression, scope, i)
        self.ofs: list = []          # (of expression or set statement, x node or None, scope, i)
        self.attrs: list = []        # (attr expression, i)
        self.ints: list = []         # (int expression, i)
        self.chooses: list = []      # (choose statement, i)
        self.misplaced: list = []    # (statement, i, why)


class Walker:
    def __init__(self, uses: Uses):
        self.u = uses

    # ---------------------------------------------------------------- declarations
    def decl(self, d: dict, i: int) -> None:
        """Visit every expression and block a declaration holds, whatever its kind.

        Fields are recognised by shape (an expression has "e", a block is a list of statements,
        a cost a list of amounts), so a field a new declaration kind adds is checked too."""
        kind = d.get("kind")
        if kind == "table":
            self.entries(d.get("entries") or [], i)
            return
        scope = frozenset(d.get("params") or ()) if kind in ("effect", "let") else frozenset()
        for key, v in d.items():
            if key == "pos":
                continue
            if type(v) is dict and "e" in v:
                if v["e"] == "amount":
                    self.amount(v, scope, i, key)
                else:
                    self.expr(v, scope, i)
            elif type(v) is list and v and type(v[0]) is dict:
                if "s" in v[0]:
                    self.block(v, scope, i, 0, kind)
                elif "e" in v[0]:
                    for a in v:
                        if type(a) is dict and a.get("e") == "amount":
                            self.amount(a, scope, i, key)
                        elif type(a) is dict and "e" in a:
                            self.expr(a, scope, i)

    def entries(self, entries: list, i: int) -> None:
        for e in entries:
            if "entries" in e:
                self.entries(e["entries"], i)
            else:
                self.block(e.get("body"), frozenset(), i, 0, "table")

    # ---------------------------------------------------------------- statements
    def block(self, stmts, scope: frozenset, i: int, loops: int, where: str) -> None:
        for st in stmts or ():
            self.stmt(st, scope, i, loops, where)
            if st.get("s") == "let":
                scope = scope | {st["name"]}

    def stmt(self, st: dict, scope: frozenset, i: int, loops: int, where: str) -> None:
        u, s = self.u, st.get("s")
        if s == "call":
            u.calls.append((st, scope, i))
            for a in st["args"]:
                self.arg(a, scope, i)
            for a in st["kw"].values():
                self.arg(a, scope, i)
        elif s == "set":
            u.sets.append((st, scope, i))
            t = st["target"]
            if t["index"] is not None:
                self.expr(t["index"], scope, i)
            if t["of"] is not None:
                u.ofs.append((st, None, scope, i))
                self.expr(t["of"], scope, i)
            self.expr(st["value"], scope, i)
        elif s == "let":
            self.expr(st["value"], scope, i)
        elif s == "break":
            if loops == 0 and where not in DYNAMIC_BODIES:
                u.misplaced.append((st, i, "break"))
        elif s == "choose":
            u.chooses.append((st, i))
            for o in st["options"]:
                inner = scope
                for prm in o["params"]:
                    self.expr(prm["in"], inner, i)
                    inner = inner | {prm["name"]}
                    if prm["where"] is not None:
                        self.expr(prm["where"], inner, i)
                if o["when"] is not None:
                    self.expr(o["when"], inner, i)
                self.block(o["body"], inner, i, loops, where)
        elif s == "if":
            for cond, body in st["branches"]:
                self.expr(cond, scope, i)
                self.block(body, scope, i, loops, where)
            self.block(st["else"], scope, i, loops, where)
        elif s == "for":
            self.expr(st["iter"], scope, i)
            self.block(st["body"], scope | {st["var"]}, i, loops + 1, where)
        elif s == "as":
            self.expr(st["player"], scope, i)
            self.block(st["body"], scope, i, loops, where)
        elif s == "repeat":
            for key in ("times", "while"):
                if st[key] is not None:
                    self.expr(st[key], scope, i)
            self.block(st["body"], scope, i, loops + 1, where)
        elif s == "turns":
            self.expr(st["order"], scope, i)
            self.block(st["body"], scope, i, loops + 1, where)
        elif s == "defer":
            self.expr(st["until_vacant"], scope, i)
            self.block(st["body"], scope, i, 0, where)     # runs later, outside any loop
        elif s == "step":
            self.block(st["body"], scope, i, loops, where)
        elif s in ("block", "entry"):
            u.misplaced.append((st, i, s))
            self.block(st["body"], scope, i, loops, where)

    def arg(self, a: dict, scope: frozenset, i: int) -> None:
        if a.get("e") == "amount":
            self.amount(a, scope, i, "arg")
        else:
            self.expr(a, scope, i)

    def amount(self, a: dict, scope: frozenset, i: int, where: str) -> None:
        self.u.amounts.append((a, scope, i, where))
        self.expr(a["n"], scope, i)

    # ---------------------------------------------------------------- expressions
    def expr(self, e: dict, scope: frozenset, i: int) -> None:
        u = self.u
        while True:   # the last child is visited by looping, the others by recursion
            k = e.get("e")
            if k == "name":
                u.names.append((e, scope, i))
                return
            if k == "int":
                u.ints.append((e, i))
                return
            if k == "str":
                return
            if k == "binop":
                self.expr(e["left"], scope, i)
                e = e["right"]
            elif k in ("not", "neg"):
                e = e["x"]
            elif k == "call":
                u.funcalls.append((e, scope, i))
                for a in e["args"]:
                    self.expr(a, scope, i)
                return
            elif k == "list":
                for a in e["items"]:
                    self.expr(a, scope, i)
                return
            elif k == "dict":
                for _, v in e["items"]:     # keys are symbols, not references
                    self.expr(v, scope, i)
                return
            elif k == "comp":
                self.expr(e["iter"], scope, i)
                inner = scope | {e["var"]}
                if e["cond"] is not None:
                    self.expr(e["cond"], inner, i)
                self.expr(e["item"], inner, i)
                return
            elif k == "attr":
                u.attrs.append((e, i))
                e = e["x"]
            elif k == "index":
                u.indexes.append((e, scope, i))
                self.expr(e["key"], scope, i)
                e = e["x"]
            elif k == "of":
                u.ofs.append((e, e["x"], scope, i))
                self.expr(e["player"], scope, i)
                e = e["x"]
            elif k == "if":
                self.expr(e["cond"], scope, i)
                self.expr(e["then"], scope, i)
                e = e["else"]
            elif k == "range":
                self.expr(e["lo"], scope, i)
                e = e["hi"]
            elif k == "amount":          # only reachable from a hand-written IR; the schema forbids it
                self.amount(e, scope, i, "arg")
                return
            else:
                return


MAX_SUGGESTIONS = 300
""""Did you mean" searches per ruleset; a file with thousands of distinct misspellings gets plain
messages after that instead of a quadratic search (repeated misspellings are cached)."""


class Model:
    def __init__(self, ruleset):
        self.ruleset = ruleset
        self.sym = Symbols(ruleset)
        self.uses = Uses()
        w = Walker(self.uses)
        for i, d in enumerate(self.sym.decls):
            w.decl(d, i)
        self._hints: dict = {}
        self._budget = MAX_SUGGESTIONS
        self._scopes: dict | None = None

    def scope_at(self, name_node: dict) -> frozenset:
        """The local names in scope where a name expression stands (from the walk's records)."""
        if self._scopes is None:
            self._scopes = {id(e): scope for e, scope, _ in self.uses.names if scope}
        return self._scopes.get(id(name_node), frozenset())

    def hint(self, name: str, pool_key, pool) -> str:
        """`did_you_mean(name, pool)`, cached by (name, pool_key); `pool` may be a callable."""
        key = (name, pool_key)
        found = self._hints.get(key)
        if found is not None:
            return found
        if self._budget <= 0:
            return ""
        self._budget -= 1
        from ..diagnostics import did_you_mean
        found = self._hints[key] = did_you_mean(name, pool() if callable(pool) else pool)
        return found


_active: list = [None]   # the Model shared by the checks while run_checks runs


def model(ruleset) -> Model:
    """The ruleset's Model: shared while `run_checks` runs, built afresh for a lone check."""
    m = _active[0]
    if m is not None and m.ruleset is ruleset:
        return m
    return Model(ruleset)


class shared_model:
    """``with shared_model(ruleset):`` -- build the Model once for every check in the block."""

    def __init__(self, ruleset):
        self.ruleset = ruleset

    def __enter__(self):
        _active[0] = Model(self.ruleset)
        return _active[0]

    def __exit__(self, *exc):
        _active[0] = None
        return False
