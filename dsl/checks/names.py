"""Name checks (N1xx): the game declaration, duplicates, undefined names, local name clashes."""
from __future__ import annotations

from .. import primitives as P
from ..diagnostics import Diagnostic, explain, register
from .model import end_of, model

register("N100", "error", "no game declaration")
register("N101", "error", "name declared twice")
register("N102", "error", "more than one game declaration")
register("N103", "error", "undefined name")
register("N104", "error", "declaration hides a built-in name")
register("N105", "error", "two options of one choice have the same name")
register("N106", "error", "parameter or variable name given twice")
register("N107", "error", "declaration without a name")
explain("N100", """
A ruleset is one game: the `game` declaration gives its players, its score, its rounds and when
it ends, and without it there is nothing to play.  A single rule file without one is refused as
it is read (L005); this error is for a variant that removes the game of its base.

    variant v extends base:
        remove game base       # error: the ruleset has no 'game' declaration (did a variant remove it?)

Fix: keep the game; to change it, replace it whole (`replace game base:` followed by all its
attributes).""")
explain("N101", """
All declarations share one namespace (with enum values and the places of pieces), because a
name in an expression is read as one thing: a counter's value, a let, an order, a table.  Two
declarations of one name would leave one of them never read, without a word.  Resources,
categories, enum values and piece places are plain symbols and may coincide (`category wood`
beside `resource wood`); an enum value listed twice, and a second `setup` or `final` block, are
reported too.

    counter workers per player
    let workers = 3        # error: 'workers' is already declared as a counter at line 4

Fix: rename one of them (`let start_workers = 3`), or delete the copy; merge two `setup`
blocks into one.""")
explain("N102", """
A ruleset has exactly one `game` declaration.  One file can hold only one (L005), so a second
comes from a variant that declares a game of its own beside its base's: two games would give
two player counts, two scores and two lists of rounds.

    variant v extends base:
        game other:            # error: a second 'game' declaration ('other'); the first is at base.rules:4
            players 2..4

Fix: replace the base's game instead of adding one (`replace game base:` with all its
attributes), or make the file a game of its own rather than a variant.""")
explain("N103", """
Every name an expression reads, every resource an amount names and every counter `set`
changes must be declared, or be a local name where it is used: an effect's or a let's
parameter, a `let` statement (from the next statement to the end of its block), a `for` or
`each` variable, an option's parameter (in that option), a comprehension's variable (inside
it).  The engine reads a name it does not know as a plain symbol, as it reads a resource's or a
space's name: a misspelt counter in a condition (`if scor > 0:`) would be the word `scor`,
never the counter's value, and a misspelt unit or `set` target has nothing to change.  One
name is read by the engine itself: `place_worker` takes the worker from the counter `workers`,
which rules that place workers declare per player (`counter workers per player start 6`).

    resource pp, food
    counter provost global
    phase p:
        gain 2 fod             # error: undefined resource 'fod'; did you mean 'food'?
        set provst = 3         # error: undefined counter 'provst'; did you mean 'provost'?

Fix: the declared name, as the suggestion says (`gain 2 food`); declare it; or move the use
inside the block where the local name is bound.""")
explain("N104", """
Declarations may not take the name of a primitive effect, a library function, a constant or a
context name (`player`, `target`, `self` ...), because the rules could then not say which one
they mean: an effect named `gain` would replace the library's `gain` in every statement, and a
counter named `player` could never be read, as `player` means the acting player.

    effect gain(n):            # error: 'gain' is a built-in effect; give the effect another name
        nothing

Fix: another name (`effect gain_bonus(n):`), and the calls renamed with it.""")
explain("N105", """
An option's name is its id, the word a player, a log and a replay use to say which option was
taken (with its parameters' values, `place:wood_farm`).  Two options of one choice with the
same name would have the same id, so a move naming it could mean either.

    choose:
        option take: gain 1 pp
        option take: gain 2 pp     # error: option 'take' is offered twice in this choice; option ids must be unique

Fix: a name of its own for each option (`option take_one:` and `option take_two:`), or one
option with a parameter (`option take(n in [1, 2]): gain n pp`).""")
explain("N106", """
Each parameter of an effect, a let or an option, is a name its body reads.  A name given twice
binds the second value over the first, so the first argument could never be read (and an
option's id would show two values for one name).

    effect e(n, n):            # error: effect 'e' names its parameter 'n' twice
        gain n pp

Fix: a different name for each parameter (`effect e(n, m):`), and the body reading each.""")
explain("N107", """
Every declaration but `setup` and `final` has a name: the rules refer to it by that name,
variants replace or remove it by name, and diagnostics and logs name it.  The rule language
cannot write a declaration without one, so this comes only from an IR document (JSON or YAML)
written by hand or by another tool.

    decls:
    - {kind: phase, name: null, title: null, body: [], pos: [2, 1, 2, 7]}   # error: this phase declaration has no name

Fix: give the declaration its `name` (`name: work`), or write the game as rules and let
`provost export` write the IR.""")

# Which declarations may share a name.  The interpreter evaluates most names to something of
# their own (a counter's value, a let, an order, an enum's values, a table ...): such a name must
# be unique.  Spaces and buildings are looked up by name for their attributes: unique among
# themselves.  The rest are plain symbols -- the name is the value -- so a resource, a category,
# an enum value and a place for pieces may be the same symbol: `category wood` names the tiles
# built with `resource wood`, as the rulebooks say "wood building", and Ys's `enum colors` lists
# the gem resources.  An enum value twice in one enum is still a mistake.
SYMBOL_KINDS = {"resource", "category", "enum value", "piece place"}
ENTITY_KINDS = {"space", "building"}


def conflicts(kind: str, i: int, kind0: str, i0: int) -> bool:
    """Do two declarations of one name clash?"""
    if kind == kind0:
        return not (kind == "enum value" and i != i0)
    if kind in SYMBOL_KINDS and kind0 in SYMBOL_KINDS:
        return False
    return not ({kind, kind0} & SYMBOL_KINDS and not {kind, kind0} - SYMBOL_KINDS - ENTITY_KINDS)


_UNNAMED = {"setup", "final"}


def _where(sym, i: int, here: int) -> str:
    d = sym.decls[i]
    line = d["pos"][0] if isinstance(d.get("pos"), list) and d["pos"] else 1
    if sym.path(i) == sym.path(here):
        return "line %d" % line
    return "%s:%d" % (sym.path(i), line)


def _article(kind: str) -> str:
    return ("an " if kind[0] in "aeiou" else "a ") + kind


def check_game(ruleset) -> list[Diagnostic]:
    """Exactly one `game` declaration."""
    sym = model(ruleset).sym
    games = [i for i, d in enumerate(sym.decls) if d.get("kind") == "game"]
    if not games:
        return [Diagnostic(sym.default_path, 1, 1, "error", "N100",
                           "the ruleset has no 'game' declaration (did a variant remove it?)")]
    return [sym.diag(i, sym.decls[i], "N102", "a second 'game' declaration ('%s'); the first is at %s"
                     % (sym.decls[i].get("name"), _where(sym, games[0], i))) for i in games[1:]]


def check_duplicates(ruleset) -> list[Diagnostic]:
    """One global namespace: declaration names, enum values and piece places (see `conflicts`);
    built-in names are reserved."""
    sym = model(ruleset).sym
    out = []
    for name, entries in sym.by_name.items():
        for n, (kind, i) in enumerate(entries):
            for kind0, i0 in entries[:n]:
                if not conflicts(kind, i, kind0, i0):
                    continue
                d = sym.decls[i]
                if kind in _UNNAMED and kind0 == kind:
                    msg = "a second '%s' block (the first is at %s); merge them" % (kind, _where(sym, i0, i))
                elif kind == "enum value" and kind0 == "enum value" and i == i0:
                    msg = "'%s' is listed twice in enum '%s'" % (name, d.get("name"))
                else:
                    msg = "'%s' is already declared as %s at %s" % (name, _article(kind0), _where(sym, i0, i))
                    if kind == "enum value":
                        msg = "enum value " + msg
                out.append(sym.diag(i, d, "N101", msg))
                break
        if name in sym.builtin or name in P.EFFECTS or name in P.FUNCTIONS:
            what = ("a built-in effect" if name in P.EFFECTS else "a built-in function" if name in P.FUNCTIONS
                    else "a constant" if name in P.CONSTANTS else "a context name")
            for kind, i in entries:
                if kind in _UNNAMED:
                    continue
                out.append(sym.diag(i, sym.decls[i], "N104", "'%s' is %s; give the %s another name"
                                    % (name, what, kind)))
    for i, d in enumerate(sym.decls):
        if not isinstance(d.get("name"), str) and d.get("kind") not in _UNNAMED:
            out.append(sym.diag(i, d, "N107", "this %s declaration has no name" % d.get("kind")))
    return out


def check_undefined(ruleset) -> list[Diagnostic]:
    """Every name in an expression, amount unit and `set` target is defined where it is used."""
    m = model(ruleset)
    sym, uses = m.sym, m.uses
    out = []
    everything = []

    def names_in(scope):
        if not everything:
            everything.extend(sorted(sym.all_names()))
        return sorted(scope) + everything

    for e, scope, i in uses.names:
        name = e["id"]
        if name in scope or sym.is_defined(name):
            continue
        hint = ("; a piece's faces are symbols the game declares: enum faces %s" % ", ".join(P.PIECE_FACES)
                if name in P.PIECE_FACES else m.hint(name, ("names", scope), lambda: names_in(scope)))
        out.append(sym.diag(i, e, "N103", "undefined name '%s'%s" % (name, hint)))
    for a, scope, i, _ in uses.amounts:
        what = a["what"]
        if what in scope or sym.is_defined(what):
            continue
        out.append(sym.diag(i, end_of(a, len(what)), "N103", "undefined resource '%s'%s" % (
            what, m.hint(what, ("units", scope), lambda: sorted(scope) + sorted(sym.resources | sym.resource_lists)))))
    for st, scope, i in uses.sets:
        name = st["target"]["name"]
        if sym.is_defined(name) or name in scope:
            continue
        out.append(sym.diag(i, st, "N103", "undefined counter '%s'%s" % (
            name, m.hint(name, "counters", lambda: sorted(set(sym.counters) | sym.resources)))))
    return out


def check_local_names(ruleset) -> list[Diagnostic]:
    """Option names unique within a choice; parameter names unique within their list."""
    m = model(ruleset)
    sym = m.sym
    out = []
    for st, i in m.uses.chooses:
        seen = set()
        for o in st["options"]:
            if o["name"] in seen:
                out.append(sym.diag(i, o, "N105", "option '%s' is offered twice in this choice; "
                                    "option ids must be unique" % o["name"]))
            seen.add(o["name"])
            params = [p["name"] for p in o["params"]]
            for n, p in enumerate(params):
                if p in params[:n]:
                    out.append(sym.diag(i, o, "N106", "option '%s' names its parameter '%s' twice" % (o["name"], p)))
    for i, d in enumerate(sym.decls):
        params = d.get("params") if d.get("kind") in ("effect", "let") else None
        for n, p in enumerate(params or []):
            if p in params[:n]:
                out.append(sym.diag(i, d, "N106", "%s '%s' names its parameter '%s' twice" % (d["kind"], d.get("name"), p)))
    return out
