"""Kinds of values and the context they need (T217-T219): what would otherwise fail at play.

One walk over every body infers, for each expression, a coarse kind -- a number, a list, a symbol
(a resource, an enum value, a space), none, or unknown -- and knows which context names are bound
where it stands (`player` in a player's turn, `self` and `slot` while a space works, `target` in
a trigger whose event has one).  It reports only what is certain to fail when it runs:

- T217: a context name (`self`, `slot`, `target`, `worker`, `player`) where nothing binds it;
- T218: a value of a kind an operator, function or statement cannot take (`abs(food)`,
  `for q in 7:`, `food + 1`, `repeat [1, 2]:`, `as none:`, `gain bonus[2] pp` or `do 3` where
  `bonus` is a table: a table's entries are rules to `do`, not values; a dictionary written out
  whose values are of different kinds, `{1: 5, 2: "six"}`, or a flat list of plain names and
  numbers mixed, `[food, wood, 3]`, reported at the odd value).  A list or dictionary
  written out that holds a table entry beside other values (`[bonus[1], 1]`) is reported at the
  entry; a list of entries only is followed to where its entries are used (`sum`, an amount);
- T219: something only a player can do or have (a per-player counter or zone, `gain`, `held`) in a phase,
  setup or final body outside any player's turn (`each player in ...`, `turns`, `as`), or in
  the game's `ends_if`, tested after a round with no player acting.

Unknown kinds (parameters, loop variables, attributes, lets with parameters) are never
reported, and bodies entered from elsewhere (effects, tables, lets) have an unknown context, so
the check makes no false claims about them.
"""
from __future__ import annotations

from .. import primitives as P
from ..diagnostics import Diagnostic, explain, register
from .model import model

register("T217", "error", "a context name (self, slot, target, worker, player) where nothing binds it")
register("T218", "error", "a value of a kind an operator, function or statement cannot take")
register("T219", "error", "something only the acting player has, used where no player is acting")

explain("T217", """
`self` and `slot` exist while a space or building works, `target` in a trigger whose event
concerns a space, `worker` in a building's owner bonus, `player` where a player is acting.
Anywhere else the name has no value, and the line would fail when it runs.

    phase p:
        set level = slot             # error: 'slot' is not defined here: 'slot' is bound only
                                     # while a space works
        each player in players():
            if self == target:       # error: 'self' is not defined here (and so for 'target')
                gain 1 pp

Fix: use the name inside the declaration that binds it, or pass the value as a parameter.""")
explain("T218", """
An operator, function or statement met a value it cannot use: a number where a list is needed,
a resource name where a number is needed, and so on.  The kinds are numbers, lists, names
(resources, spaces, enum values), none, and tables and their entries, which hold rules that only
`do` runs.

    for q in 7:            # error: 'for' needs a list to go through, not a number
    gain abs(food) pp      # error: 'abs' needs a number, not a name
    gain bonus[2] pp       # error: an amount needs a number, not a table entry
    do held(coin)          # error: 'do' runs a table entry (do TABLE[KEY]), not a number
    do [bonus[1], 2][held(coin)]    # error (at bonus[1]): a table entry in a list beside a number

Fix: `for q in 1..7:`, `gain held(food) pp`, `do bonus[2]`, `do bonus[held(coin)]`; a list
holding entries only (`[bonus[1], bonus[2]]`), each item given to `do`.

A dictionary written out is read by key and a list item by item, every one alike, so a
dictionary whose values mix numbers, names and lists (`{1: 5, 2: "six"}`), or a list of plain
names with a plain number among them (`[food, wood, 3]`), is reported at the odd value: it would
fail where it is read, often in the base a variant's `replace let` changes.  Lists inside a list
(`[[farm, 2], [mill, 3]]`) and the items a comprehension makes are records read by position, and
`none` may stand beside any kind.""")
explain("T219", """
A phase, the setup and the final scoring run with no player acting, so what belongs to the
acting player (a per-player counter, `gain`/`pay`/`lose`, `held`, a choice) has no owner there.

    phase p:
        gain 1 pp               # error: 'gain' is done by the acting player, and no player is
                                # acting here
        set moves = held(pp)    # error: 'moves' is a per-player counter and no player is acting
                                # here (and 'held' is about the acting player)

Fix: `each player in turn_order:` (or `turns`, or `as PLAYER:`) around it, or `COUNTER of PLAYER`.""")

NUM, LIST, SYM, NONE, ANY = "a number", "a list", "a name", "none", "?"
TABLE, ENTRY = "a table", "a table entry"   # a table's name; TABLE[KEY] (an entry, or a row of entries)
ENTRIES = "a list of table entries"         # [bonus[1], bonus[2]]: its items are for `do`
SYMS = "a list of names"                # an enum's values, a list of resources: a list all the same
NUMS = "a list of numbers"              # a range, [1, 2]
LISTS = (LIST, SYMS, NUMS)
_ARITH = {"+", "-", "*", "//", "%"}
_ORDER = {"<", "<=", ">", ">="}
_CONTEXT = ("self", "slot", "target", "worker", "player")
_NUMBERED_EVENTS = {"round_start", "round_end"}     # their `target` is a number (dsl/primitives.py EVENTS)
# Functions whose argument must be a list (or something iterable) and what they give.
_LIST_FUNCS = {"count": NUM, "sum": NUM, "max": ANY, "min": ANY, "first": ANY, "distinct": LIST,
               "rank_by": LIST}
_PLAYER_FUNCS = {"held", "open_spaces", "piece_values", "strength", "piece_count"}


NOT_NUMBER = (LIST, SYMS, NUMS, SYM, NONE, TABLE, ENTRY, ENTRIES)
NOT_LIST = (NUM, NONE, SYM, TABLE, ENTRY)
NOT_ENTRY = (NUM, LIST, SYMS, NUMS, SYM, NONE, TABLE, ENTRIES)     # what `do` cannot run
VALUES = (NUM, LIST, SYMS, NUMS, SYM, NONE)                 # values, not rules: what an entry is not


# Kinds a dictionary's values are compared by (`mixed_values`): a single known kind only.
_GROUP = {NUM: "number", SYM: "name", LIST: "list", SYMS: "list", NUMS: "list"}
_KIND_ONE = {"number": "a number", "name": "a name", "list": "a list"}
_KIND_MANY = {"number": "numbers", "name": "names", "list": "lists"}


def _odd_ones(items, groups):
    """The kind most of ``items`` are (of ``groups``, None for an item of no kind that counts)
    and the items of another kind with theirs: none when fewer than two kinds are there."""
    seen = [g for g in groups if g is not None]
    if len(set(seen)) < 2:
        return None, []
    usual = max(seen, key=lambda g: (seen.count(g), -seen.index(g)))
    return usual, [(x, g) for x, g in zip(items, groups) if g is not None and g != usual]


def _may(k: str, group) -> bool:
    """True when a value of kind `k` (perhaps a union `a|b` from `or`, `and`, `if`) can be in `group`."""
    return any(m in group for m in k.split("|"))


def _show(k: str) -> str:
    return " or ".join(k.split("|"))


def _union(a: str, b: str) -> str:
    if ANY in (a, b) or a.startswith(ANY) or b.startswith(ANY):
        return ANY
    return a if a == b else "|".join(sorted(set(a.split("|")) | set(b.split("|"))))


def _combine(op: str, a: str, b: str) -> str | None:
    """The kind of `a OP b` for single kinds, or None when Python would raise."""
    if op in _ORDER:
        ok = a != NONE and (a == b or a in LISTS and b in LISTS and {a, b} != {SYMS, NUMS})
        return NUM if ok else None
    if a == NUM and b == NUM:
        return NUM
    if op == "+" and a in LISTS and b in LISTS:
        return a if a == b else LIST
    if op == "+" and a == b == ENTRIES or op == "*" and {a, b} == {ENTRIES, NUM}:
        return ENTRIES
    if op == "+" and a == b == SYM:
        return SYM
    if op == "*" and (a in LISTS and b == NUM or b in LISTS and a == NUM):
        return LIST
    return None


def _item(k: str) -> str:
    """The kind of an item of a list of kind `k`, where the check knows it."""
    return {SYMS: SYM, NUMS: NUM, ENTRIES: ENTRY}.get(k, ANY)


def _entry_item(k: str) -> str:
    """The kind a loop over a list of kind `k` binds: an entry from a list of entries; else left
    unknown (a loop variable is never reported otherwise)."""
    return ENTRY if k == ENTRIES else ANY


def _acting_effects() -> set[str]:
    return {name for name, sig in P.EFFECTS.items() if "acting player" in (sig.says or "")}


class _Scope:
    """What is bound where an expression stands: locals (name -> kind), context names, the player.

    `context` is None where it is unknown (bodies run from elsewhere): nothing is reported there."""
    __slots__ = ("locals", "context")

    def __init__(self, locals_: dict, context: frozenset | None):
        self.locals, self.context = locals_, context

    def bind(self, name: str, kind: str = ANY) -> "_Scope":
        ctx = self.context
        if ctx is not None and name in _CONTEXT:
            ctx = ctx | {name}
        if name == "player" and kind == ANY:
            kind = NUM                          # a player is a seat number
        return _Scope({**self.locals, name: kind}, ctx)

    def with_player(self) -> "_Scope":
        if self.context is None or "player" in self.context:
            return self
        return _Scope(self.locals, self.context | {"player"})

    def has(self, name: str) -> bool:
        return self.context is None or name in self.context


class _Check:
    def __init__(self, ruleset):
        self.m = model(ruleset)
        self.sym = self.m.sym
        self.out: list[Diagnostic] = []
        self.i = 0
        self.acting = _acting_effects()
        self._let_kinds: dict = {}
        self._effect_needs: dict = {}
        self._tuples: set[int] = set()      # ids of lists written out inside lists (records)
        self.seen = 0

    def diag(self, node, code, message):
        if len(self.out) < 200:            # hostile files: enough to report, not all
            self.out.append(self.sym.diag(self.i, node, code, message))

    # ------------------------------------------------------------ declarations
    def run(self) -> list[Diagnostic]:
        for i, d in enumerate(self.sym.decls):
            self.i = i
            kind = d.get("kind")
            if kind in ("effect", "table", "let"):
                context = None                  # run from elsewhere: whatever the caller binds
            elif kind in ("space", "building", "category"):
                context = None                  # worked for a player: self, slot, worker, player bound
            elif kind == "trigger":
                context = frozenset(P.EVENTS.get(d.get("event"), ())) if d.get("event") in P.EVENTS else None
            elif kind in ("phase", "setup", "final"):
                context = frozenset()           # the engine runs these with no player acting
            else:
                context = None                  # the game's tiebreak is per player; others vary
            params = {p: ANY for p in d.get("params") or ()}
            if kind == "trigger" and d.get("event") in _NUMBERED_EVENTS:
                params["target"] = NUM          # the round's number, not a space's name
            scope = _Scope(params, context)
            if kind == "game":
                self.game_conditions(d)
                continue
            if kind == "table":
                self.entries(d.get("entries") or [], scope)
                continue
            for key, v in d.items():
                if key == "pos":
                    continue
                if type(v) is dict and "e" in v:
                    if v["e"] == "amount":
                        self.amount(v, scope)
                    else:
                        self.expr(v, scope)
                elif type(v) is list and v and type(v[0]) is dict:
                    if "s" in v[0]:
                        self.block(v, scope)
                    elif "e" in v[0]:
                        for a in v:
                            if type(a) is dict and a.get("e") == "amount":
                                self.amount(a, scope)
                            elif type(a) is dict and "e" in a:
                                self.expr(a, scope)
        return self.out

    def game_conditions(self, d):
        """`ends_if` is tested after a round, with no player acting; `tiebreak` is worked out for
        each player in turn, as that player."""
        for key, context in (("ends_if", frozenset()), ("tiebreak", frozenset({"player"}))):
            if type(d.get(key)) is dict and "e" in d[key]:
                self.expr(d[key], _Scope({}, context))

    def entries(self, entries, scope):
        for e in entries:
            if "entries" in e:
                self.entries(e["entries"], scope)
            else:
                self.block(e.get("body"), scope)

    # ------------------------------------------------------------ statements
    def block(self, stmts, scope):
        for st in stmts or ():
            if type(st) is not dict:
                continue
            scope = self.stmt(st, scope)

    def stmt(self, st, scope) -> _Scope:
        """Check one statement; return the scope after it (a `let` binds its name)."""
        s = st.get("s")
        if s == "call":
            name = st["name"]
            if name in self.sym.effects and scope.context is not None:
                self.effect_call(st, name, scope)
            if name in self.acting and name not in self.sym.effects and not scope.has("player"):
                self.diag(st, "T219", "'%s' is done by the acting player, and no player is acting here "
                          "(put it inside 'each player in ...', 'turns' or 'as')" % name)
            for a in st["args"]:
                k = self.arg(a, scope)
                if name == "do" and name not in self.sym.effects and k is not None and _may(k, NOT_ENTRY):
                    self.diag(a, "T218", "'do' runs a table entry (do TABLE[KEY]), not %s" % _show(k))
            for a in st["kw"].values():
                self.arg(a, scope)
        elif s == "set":
            t = st["target"]
            c = self.sym.counters.get(t.get("name")) if t.get("name") not in scope.locals else None
            if c is not None and c.get("scope") == "player" and t.get("of") is None and not scope.has("player"):
                self.diag(st, "T219", "'%s' is a per-player counter and no player is acting here; write "
                          "'set %s of PLAYER ...' or put it inside 'each player in ...'" % (t["name"], t["name"]))
            if t.get("index") is not None:
                self.expr(t["index"], scope)
            if t.get("of") is not None:
                self.expr(t["of"], scope)
            k = self.expr(st["value"], scope)
            if c is not None and c.get("by") is None and _may(k, NOT_NUMBER) and t.get("index") is None:
                self.diag(st["value"], "T218", "counter '%s' holds a number, not %s" % (t["name"], _show(k)))
        elif s == "let":
            k = self.expr(st["value"], scope)
            return scope.bind(st["name"], k)
        elif s == "choose":
            if not scope.has("player"):
                self.diag(st, "T219", "a choice is made by the acting player, and no player is acting here "
                          "(put it inside 'each player in ...', 'turns' or 'as')")
            for o in st["options"]:
                inner = scope
                for prm in o["params"]:
                    self.iterable(prm["in"], inner, "an option's choices")
                    inner = inner.bind(prm["name"])
                    if prm["where"] is not None:
                        self.expr(prm["where"], inner)
                if o["when"] is not None:
                    self.expr(o["when"], inner)
                self.block(o["body"], inner)
        elif s == "if":
            for cond, body in st["branches"]:
                self.expr(cond, scope)
                self.block(body, scope)
            self.block(st["else"], scope)
        elif s == "for":
            inner = scope.bind(st["var"], _entry_item(self.iterable(st["iter"], scope, "'for'")))
            self.block(st["body"], inner.with_player() if st.get("acting") else inner)
        elif s == "as":
            k = self.expr(st["player"], scope)
            if _may(k, NOT_NUMBER):
                self.diag(st["player"], "T218", "'as' needs a player, not %s" % _show(k))
            self.block(st["body"], scope.with_player())
        elif s == "repeat":
            if st["times"] is not None:
                k = self.expr(st["times"], scope)
                if _may(k, NOT_NUMBER):
                    self.diag(st["times"], "T218", "'repeat' needs a number of times, not %s" % _show(k))
            if st["while"] is not None:
                self.expr(st["while"], scope)
            self.block(st["body"], scope)
        elif s == "turns":
            self.iterable(st["order"], scope, "'turns'")
            self.block(st["body"], scope.with_player())
        elif s == "defer":
            self.expr(st["until_vacant"], scope)
            self.block(st["body"], scope)
        elif s in ("step", "block", "entry"):
            self.block(st.get("body"), scope)
        return scope

    def effect_call(self, st, name, scope):
        """An effect runs in its caller's context: what its body needs that the caller lacks (a
        player, `self`...) is reported at the call."""
        d = self.sym.effects[name]
        key = (name, scope.context)
        found = self._effect_needs.get(key)
        if found is None:
            self._effect_needs[key] = ()              # an effect reaching itself (C802): nothing more
            saved_out, saved_i = self.out, self.i
            self.out = []
            try:
                self.block(d.get("body"), _Scope({p: ANY for p in d.get("params") or ()}, scope.context))
                found = tuple(x for x in self.out if x.code in ("T217", "T219"))
            finally:
                self.out, self.i = saved_out, saved_i
            self._effect_needs[key] = found
        if found:
            first = found[0]
            self.diag(st, first.code, "effect '%s' cannot run here: %s (line %d of the effect)"
                      % (name, first.message, first.line))

    def arg(self, a, scope):
        """Check an argument; its kind, None for an amount."""
        if a.get("e") == "amount":
            self.amount(a, scope)
            return None
        return self.expr(a, scope)

    def amount(self, a, scope):
        k = self.expr(a["n"], scope)
        if _may(k, NOT_NUMBER):
            self.diag(a["n"], "T218", "an amount needs a number, not %s" % _show(k))

    def iterable(self, e, scope, what) -> str:
        k = self.expr(e, scope)
        if _may(k, NOT_LIST):
            self.diag(e, "T218", "%s needs a list to go through, not %s" % (what, _show(k)))
        return k

    # ------------------------------------------------------------ expressions
    def expr(self, e, scope) -> str:
        self.seen += 1
        k = e.get("e")
        method = getattr(self, "e_" + str(k), None)
        return method(e, scope) if method is not None else ANY

    def e_int(self, e, scope):
        return NUM

    def e_str(self, e, scope):
        return SYM

    def e_name(self, e, scope):
        name = e["id"]
        if name in scope.locals:
            return scope.locals[name]
        if name in _CONTEXT:
            if not scope.has(name):
                where = ("no player is acting here (put it inside 'each player in ...', 'turns' or 'as')"
                         if name == "player" else "'%s' is bound only %s" % (name, {
                             "self": "while a space or building works", "slot": "while a space works",
                             "target": "in a trigger whose event concerns a space",
                             "worker": "in a building's owner bonus"}[name]))
                self.diag(e, "T217", "'%s' is not defined here: %s" % (name, where))
            return NUM if name in ("player", "worker", "slot") else SYM     # players are seat numbers
        if name in ("round", "player_count"):
            return NUM
        if name in P.CONSTANTS:
            return NONE if P.CONSTANTS[name] is None else NUM
        sym = self.sym
        c = sym.counters.get(name)
        if c is not None:
            if c.get("scope") == "player" and not scope.has("player"):
                self.diag(e, "T219", "'%s' is a per-player counter and no player is acting here; write "
                          "'%s of PLAYER' or put it inside 'each player in ...'" % (name, name))
            return ANY if c.get("by") is not None else NUM
        kind = sym.kind(name)
        if kind == "zone" and sym.of_kind["zone"][name].get("scope") == "player" and not scope.has("player"):
            self.diag(e, "T219", "'%s' is a per-player zone (each player has one) and no player is acting here; "
                      "put it inside 'each player in ...', 'turns' or 'as'" % name)
        if kind in ("resource", "enum value", "space", "building", "category"):
            return SYM
        if kind == "enum":
            return SYMS
        if kind == "order":
            return LIST
        if kind == "let":
            return self.let_kind(name)
        if kind == "table":
            return TABLE
        return ANY

    def let_kind(self, name):
        found = self._let_kinds.get(name)
        if found is not None:
            return found
        self._let_kinds[name] = ANY              # a cycle (reported as C801) stays unknown
        d = self.sym.lets[name]
        if d.get("params") is not None or type(d.get("value")) is not dict:
            return ANY
        saved_out, saved_i = self.out, self.i
        self.out = []                            # the let's own diagnostics come from its declaration
        try:
            k = self.expr(d["value"], _Scope({}, None))
        finally:
            self.out, self.i = saved_out, saved_i
        self._let_kinds[name] = k
        return k

    def let_call(self, e, fn, kinds) -> str:
        """A let with parameters, worked out for the kinds of this call's arguments: what fails
        inside it for these arguments is reported at the call."""
        d = self.sym.lets[fn]
        params = d.get("params") or []
        if len(params) != len(kinds) or type(d.get("value")) is not dict:
            return ANY
        key = (fn, tuple(kinds))
        found = self._let_kinds.get(key)
        if found is None:
            self._let_kinds[key] = (ANY, None)   # a let reaching itself (C801) stays unknown
            saved_out, saved_i = self.out, self.i
            self.out = []
            try:
                k = self.expr(d["value"], _Scope(dict(zip(params, kinds)), None))
                inner = next((x for x in self.out if x.code == "T218"), None)
            finally:
                self.out, self.i = saved_out, saved_i
            found = self._let_kinds[key] = (k, inner)
        k, inner = found
        if inner is not None:
            self.diag(e, "T218", "%s(%s) cannot be worked out: %s (in the let at line %d)"
                      % (fn, ", ".join(_show(k) for k in kinds), inner.message, inner.line))
        return k

    def e_list(self, e, scope):
        self._mark_tuples(e["items"])
        kinds = [self.expr(x, scope) for x in e["items"]]
        self.entries_beside_values(e["items"], kinds, "list")
        if id(e) not in self._tuples:
            self.names_beside_numbers(e["items"], kinds)
        if kinds and all(k == ENTRY for k in kinds):
            return ENTRIES
        if kinds and all(k == SYM for k in kinds):
            return SYMS
        return NUMS if kinds and all(k == NUM for k in kinds) else LIST

    def e_dict(self, e, scope):
        values = [v for _, v in e["items"]]
        self._mark_tuples(values)
        kinds = [self.expr(v, scope) for v in values]
        self.entries_beside_values(values, kinds, "dictionary")
        self.mixed_values(values, kinds)
        return ANY

    def mixed_values(self, values, kinds):
        """A dictionary written out whose values are of different kinds (numbers and a name, a
        list beside numbers): it is read by key, and the rule reading it uses every entry alike,
        so the odd entry fails where it is read -- often in another file (a variant's `replace
        let` read by its base).  Reported at each value of a kind other than most of them; none
        may stand for a missing value beside any kind."""
        usual, odd = _odd_ones(values, [_GROUP.get(k) for k in kinds])
        for v, g in odd:
            self.diag(v, "T218", "%s in a dictionary of %s: a rule reads every entry of a dictionary "
                      "the same way, so this one would fail where it is read" % (_KIND_ONE[g], _KIND_MANY[usual]))

    def _mark_tuples(self, items):
        """Lists written out as the items of a list, the values of a dictionary or the item of a
        comprehension are records read by position (`[[farm, 2], [mill, 3]]`, `[c, held(c)]`):
        a name beside a number is what they are for."""
        self._tuples.update(id(x) for x in items if x.get("e") == "list")

    def names_beside_numbers(self, items, kinds):
        """A flat list written out of plain names and plain numbers mixed (`[food, wood, 3]`): a
        rule goes through a list or picks from it reading every item the same way, so the odd
        item fails where it is read -- often in another file (a variant's `replace let` read by
        its base).  Reported at each item of the kind fewer items have; none stays allowed."""
        plain = [("number" if x.get("e") == "int" else "name") if k == (NUM if x.get("e") == "int" else SYM)
                 and x.get("e") in ("int", "name") else None for x, k in zip(items, kinds)]
        usual, odd = _odd_ones(items, plain)
        for x, g in odd:
            self.diag(x, "T218", "%s in a list of %s: a rule reads every item of a list the same way, "
                      "so this one would fail where it is read" % (_KIND_ONE[g], _KIND_MANY[usual]))

    def entries_beside_values(self, items, kinds, what):
        """A list or dictionary written out with a table entry (or a table, or a list of entries)
        beside a value (a number, a name, none...): whichever item is taken, an entry is used as a
        value or a value is given to `do`.  Reported at each entry, where it is written."""
        rules = (ENTRY, ENTRIES, TABLE)
        value = next((k for k in kinds if k != ANY and _may(k, VALUES) and not _may(k, rules)), None)
        if value is None:
            return
        for x, k in zip(items, kinds):
            if _may(k, rules):
                self.diag(x, "T218", "%s in a %s beside %s: a table's entries are rules that only 'do' runs, "
                          "not values" % (_show(k), what, _show(value)))

    def e_range(self, e, scope):
        for key in ("lo", "hi"):
            k = self.expr(e[key], scope)
            if _may(k, NOT_NUMBER):
                self.diag(e[key], "T218", "a range goes between numbers, not %s" % _show(k))
        return NUMS

    def e_comp(self, e, scope):
        inner = scope.bind(e["var"], _entry_item(self.iterable(e["iter"], scope, "a list comprehension")))
        if e["cond"] is not None:
            self.expr(e["cond"], inner)
        self._mark_tuples([e["item"]])
        return ENTRIES if self.expr(e["item"], inner) == ENTRY else LIST

    def e_not(self, e, scope):
        self.expr(e["x"], scope)
        return NUM

    def e_neg(self, e, scope):
        k = self.expr(e["x"], scope)
        if _may(k, NOT_NUMBER):
            self.diag(e, "T218", "'-' needs a number, not %s" % _show(k))
        return NUM

    def e_if(self, e, scope):
        self.expr(e["cond"], scope)
        return _union(self.expr(e["then"], scope), self.expr(e["else"], scope))

    def e_binop(self, e, scope):
        op = e["op"]
        a, b = self.expr(e["left"], scope), self.expr(e["right"], scope)
        if op in ("and", "or"):
            if a == NONE:                          # none is false: `none and x` is none, `none or x` is x
                return NONE if op == "and" else b
            return _union(a, b)                   # either operand may be the value
        if op in ("==", "!="):
            return NUM
        if op in ("in", "not in"):
            if _may(b, NOT_LIST):
                self.diag(e["right"], "T218", "'%s' needs a list on its right, not %s" % (op, _show(b)))
            return NUM
        if ANY in (a, b):
            return ANY if op in _ARITH else NUM
        results = set()
        for x in a.split("|"):
            for y in b.split("|"):
                r = _combine(op, x, y)
                if r is None:
                    verb = "compare" if op in _ORDER else "combine"
                    self.diag(e, "T218", "'%s' cannot %s %s with %s" % (op, verb, _show(a), _show(b)))
                    return ANY
                results.add(r)
        return "|".join(sorted(results)) if results else ANY

    def e_call(self, e, scope):
        fn = e["fn"]
        kinds = [self.expr(a, scope) for a in e["args"]]
        if fn in scope.locals:
            return ANY
        if fn in self.sym.lets:
            return self.let_call(e, fn, kinds)
        if fn in _PLAYER_FUNCS and not scope.has("player"):
            self.diag(e, "T219", "'%s' is about the acting player, and no player is acting here" % fn)
        if not kinds:
            return LIST if fn in ("open_spaces", "road_tiles", "players") else ANY
        first = kinds[0]
        if fn in _LIST_FUNCS:
            if _may(first, NOT_LIST):
                self.diag(e["args"][0], "T218", "'%s' needs a list, not %s" % (fn, _show(first)))
            elif fn == "sum" and first in (SYMS, ENTRIES):
                self.diag(e["args"][0], "T218", "'sum' adds numbers, not %s" % first)
            if fn in ("max", "min", "first") and first in (SYMS, NUMS, ENTRIES):
                return _item(first)
            return first if fn == "distinct" and first in (SYMS, NUMS, ENTRIES) else _LIST_FUNCS[fn]
        if fn == "abs":
            if _may(first, NOT_NUMBER):
                self.diag(e["args"][0], "T218", "'abs' needs a number, not %s" % _show(first))
            return NUM
        if fn == "held":
            a = e["args"][0]
            if _may(first, (NUM, LIST, SYMS, NUMS, NONE)):
                self.diag(a, "T218", "'held' needs a resource, not %s" % _show(first))
            elif a.get("e") == "name" and a["id"] not in scope.locals \
                    and self.sym.kind(a["id"]) in ("space", "building", "category", "enum value"):
                self.diag(a, "T218", "'held' needs a resource, not %s '%s'" % (self.sym.kind(a["id"]), a["id"]))
            return NUM
        if fn == "owned_tiles" and _may(first, NOT_NUMBER):
            self.diag(e["args"][0], "T218", "'owned_tiles' needs a player, not %s" % _show(first))
            return LIST
        if fn == "occupants" and _may(first, (NUM, LIST, SYMS, NUMS, NONE)):
            self.diag(e["args"][0], "T218", "'occupants' needs a space, not %s" % _show(first))
            return LIST
        if fn in ("owned_tiles", "occupants", "tagged", "multisets", "combinations", "piece_values"):
            return LIST
        if fn in ("index", "position", "strength", "piece_count"):
            return NUM
        return ANY

    def e_index(self, e, scope):
        k = self.expr(e["x"], scope)
        key = self.expr(e["key"], scope)
        if k in (TABLE, ENTRY):
            return ENTRY                           # an entry, or a row of a table to index again
        if _may(k, NOT_LIST):
            self.diag(e["x"], "T218", "%s cannot be indexed" % _show(k))
        elif (k in LISTS or k == ENTRIES) and _may(key, NOT_NUMBER):
            self.diag(e["key"], "T218", "a list is indexed by a number, not %s" % _show(key))
        if k == ENTRIES:
            return ENTRY                           # whichever item it is: an entry
        if k in (SYMS, NUMS) and key == NUM:
            return _item(k)
        return ANY

    def e_attr(self, e, scope):
        self.expr(e["x"], scope)
        return ANY

    def e_of(self, e, scope):
        self.expr(e["player"], scope)
        x = e["x"]
        if x.get("e") == "name" and x["id"] in self.sym.counters and x["id"] not in scope.locals:
            c = self.sym.counters[x["id"]]
            return ANY if c.get("by") is not None else NUM
        self.expr(x, scope.with_player())        # evaluated with that player acting
        return ANY

    def e_amount(self, e, scope):
        self.amount(e, scope)
        return ANY


def check_values(ruleset) -> list[Diagnostic]:
    """T217-T219 (see the module's docstring)."""
    return _Check(ruleset).run()


# Reported once the file is otherwise free of errors: a misspelt name or a wrong argument count
# says more than the kinds and contexts worked out around it.
check_values.after_clean = True
