"""Type checks (T2xx), where the kind of a value is known without running the game.

Only bare names are judged (a local variable or a computed expression may hold anything): an
amount's unit, the arguments a primitive expects to be of a declaration kind, counters set and
indexed, and the references declarations make to each other by name.
"""
from __future__ import annotations

from .. import primitives as P
from ..diagnostics import Diagnostic, did_you_mean, explain, register
from .model import end_of, model

register("T201", "error", "the unit of an amount is not a resource")
register("T202", "error", "not an amount of resources")
register("T203", "error", "only counters can be set")
register("T204", "error", "a counter indexed without 'by', or a counter or zone kept 'by' an enum without an index")
register("T205", "error", "the index is not a value of the counter's (or zone's) enum")
register("T206", "error", "argument of the wrong kind")
register("T207", "error", "not a declared category")
register("T208", "error", "unknown trigger event")
register("T209", "error", "the game's score is missing or is not a resource")
register("T210", "error", "a round names something that is not a phase")
register("T211", "error", "'of PLAYER' needs a per-player counter or a resource")
register("T212", "error", "'by' does not name an enum")
register("T213", "error", "a category's removed_to is not supply or discard")
register("T214", "error", "a statement where it cannot run")
register("T215", "error", "unknown attribute")
register("T216", "error", "an attribute names the wrong kind of declaration")

explain("T201", """
The unit of an amount (`2 food`, `cost 1 wood`) is what a player gains, pays or loses, so it must
be something every player holds an amount of: a resource, a let that is a list of resources
(`1 goods`: one of them, in a building's cost only), a per-player counter without `by`, or a
variable holding a resource.  A space, an order or an enum has no amount to change, and the
engine refuses the line ("'yard' is not a resource") before the game can start.

    space yard:
        slots 1
    phase p:
        gain 2 yard        # error: 'yard' is a space, not a resource; the unit of an amount
                           # is a resource, a list of resources or a variable

Fix: name a resource, `gain 2 food` (a per-player counter without `by` may be a unit too:
`gain 1 workers`).""")
explain("T202", """
`gain`, `pay` and `lose` move amounts of resources: each argument is an amount (`3 coin`), a
resource or a list of resources (`pay [food, wood]`: one of each).  A bare number says how many
but not of what, and a name of another kind (an order, a space) is nothing a player holds, so
the statement would fail when it runs.

    phase p:
        gain 3             # error: 'gain' takes amounts of resources, not a number: write it
                           # with its resource, like '3 pp'

Fix: write the resource after the number, `gain 3 pp`.""")
explain("T203", """
`set NAME = VALUE` (and `+=`, `-=`) changes a counter or a resource.  Spaces, orders, enums and
the other declarations are not numbers, and a local name (a `for` variable, a parameter, a
`let` in a body) is a value the body binds, not a number the game keeps, so there is nothing for
the statement to change.

    space yard:
        slots 1
    phase p:
        set yard = 2       # error: 'yard' is a space; only counters can be set

Fix: declare a counter for the number (`counter yard_level global`) and set it (`set yard_level
= 2`); for a local, bind the name again, `let k = k + 1`.""")
explain("T204", """
A counter kept `by` an enum holds one number per value of the enum, so reading or setting it
needs the entry (`filled[a]`); a counter without `by` (or a resource) holds one number, which
has no entries to index.  A zone kept `by` an enum is one list per value, and a primitive that
takes a zone needs the entry too.  Without the right index the engine cannot tell which number
is meant.

    enum sections a, b
    counter filled global by sections
    phase p:
        set filled += 1    # error: counter 'filled' is kept by sections: give the entry,
                           # like 'filled[a]'

Fix: give the entry, `set filled[a] += 1` (or `for s in sections: set filled[s] += 1`); for a
counter without `by`, drop the index or keep it `by ENUM`.""")
explain("T205", """
A counter or zone kept `by` an enum has an entry for each value of that enum and no other: a
value of another enum, a misspelt value or a number is no entry, and reading or setting it
would fail when it runs.

    enum sections a, b
    enum colors red, blue
    counter filled global by sections
    phase p:
        set filled[red] = 1    # error: 'red' is not a value of sections (a, b)
        gain filled[1] pp      # error: counter 'filled' is indexed by sections values (a, b),
                               # not numbers

Fix: index with a value of the counter's enum, `set filled[a] = 1`, or a variable going through
it (`for s in sections:` and `filled[s]`).""")
explain("T206", """
A primitive takes arguments of set kinds: `place_worker` a space, `move_in_order` an order
first, `build_tile` a category, and so on (dsl/README.md lists them).  A declaration of
another kind, or an amount where no amount is taken, would fail when the line runs.

    order turn_order
    space yard:
        slots 1
    phase p:
        place_worker turn_order          # error: argument 1 of 'place_worker' must be a space;
                                         # 'turn_order' is an order
        move_in_order yard, player, 1    # error: argument 1 of 'move_in_order' must be an
                                         # order; 'yard' is a space

Fix: give each argument its kind: `place_worker yard`, `move_in_order turn_order, player, 1`.""")
explain("T207", """
A building belongs to a category (`building NAME "Title" CATEGORY:`), and a category may be
built over another (`built_on CATEGORY`).  Building is offered by category and the category
says whether workers may use the tile, so a building whose category is not declared is never
offered, and a `built_on` that names no category can never be met.

    building hut "Hut" cabin:    # error: the category of building 'hut' must be a category;
                                 # 'cabin' is not declared
        prestige 1

Fix: declare the category (`category cabin`) or name one that is declared.""")
explain("T208", """
A trigger runs its block when the engine emits its event, and the engine emits only its own
events (`worker_placed`, `tile_built`, `piece_placed`, `round_start`, `phase_end`, ...).  A
trigger on any other name is never run: the rule it states silently never happens.

    trigger t on worker_moved:   # error: trigger 't' waits for unknown event 'worker_moved';
                                 # the engine's events are ...; did you mean 'worker_placed'?
        gain 1 pp

Fix: one of the engine's events, `trigger t on worker_placed:`.""")
explain("T209", """
The game's score is the resource it is won with: a building's prestige is gained in it, and at
the end the players are ranked by how much of it each holds.  So `score` must name a resource,
something every player holds an amount of; a counter, a phase or a misspelt name is not one, and
the game would fail, or rank the players by something else, when it is scored.

    game g:
        score workers      # error: the score of game 'g' must be a resource;
                           # 'workers' is a counter
    resource pp
    counter workers per player

A game that names no score at all is reported at its head, for the same reason: the first
building's prestige, or the end of the game, would find nothing to count.

Fix: name the points' resource, `score pp` (declare it with `resource pp "prestige"`).""")
explain("T210", """
`rounds PHASE, PHASE, ...` lists the phases each round runs, in order.  A name that is not a
phase (a resource, a step, a misspelling) has no body to run, and the game would stop with an
error when the round reaches it.

    game g:
        score pp
        rounds work, pp    # error: round step 'pp' must be a phase; it is a resource

Fix: list only phases, `rounds work`, and declare any missing one (`phase tally:`).""")
explain("T211", """
`X of PLAYER` reads (or sets) another player's value, so X must be something each player has: a
per-player counter, a resource or a per-player zone.  A global counter has one value for the
whole game and no value of a player; the line would fail when it runs.

    counter provost global
    phase p:
        gain provost of player pp    # error: 'provost' is a global counter; 'of PLAYER' reads a
                                     # per-player counter or a resource
        set provost of player = 1    # error: counter 'provost' is global; it has no value
                                     # 'of' a player

Fix: drop `of PLAYER` for a global counter (`set provost = 1`), or declare it `per player`.""")
explain("T212", """
`counter NAME by ENUM` (or `zone NAME by ENUM`) keeps one number (or list) per value of the
enum, so `by` must name an enum: its values are the entries.  Any other name gives no entries,
and every read or write of the counter would fail.

    enum sections a, b
    counter filled global by section    # error: counter 'filled' is kept 'by section', which is
                                        # not declared; 'by' names an enum; did you mean 'sections'?

Fix: name the enum, `counter filled global by sections`, or declare it (`enum section a, b`).""")
explain("T213", """
A category's `removed_to` says where its tiles go when they leave the road: `supply` (back among
the tiles that can be built again) or `discard` (out of the game).  The engine returns a tile
to the supply only for the exact word `supply`, so any other word, a misspelling included,
silently discards the tiles.

    category c:
        removed_to suply   # error: removed_to of category 'c' must be supply or discard, not
                           # 'suply'; did you mean 'supply'?

Fix: `removed_to supply` or `removed_to discard`.""")
explain("T214", """
Some statements belong only in some places.  A labelled block (`bonus:`) or a numbered one
(`1:`) is an entry of a table, run by `do TABLE[KEY]`; in a body nothing would ever choose it.
`break` leaves the innermost loop (`repeat`, `for`, `each`, `turns`), and outside one there is
nothing to leave.  (A `break` in an effect or a table entry is allowed: it leaves the loop its
caller runs.)

    phase p:
        bonus:             # error: 'bonus:' is not a statement (labelled blocks belong in
                           # tables); a named part of a phase is 'step bonus:'
            gain 1 pp
        1: gain 2 pp       # error: a numbered entry '1:' outside a table
        break              # error: 'break' outside a loop (repeat, for, each, turns)

Fix: `step bonus:` for a named part of a phase, a `table` for labelled or numbered entries (run
with `do bonus[KEY]`), and `break` only inside a loop.""")
explain("T215", """
`X.NAME` reads an attribute of a space or tile, and there is a fixed set of them (`owner`,
`category`, `kind`, `prestige`, `slot`, `slots`, ...).  Any other name has no value, and the
expression would fail when it runs.

    for t in road_tiles():
        if t.ownr == player:     # error: unknown attribute '.ownr'; did you mean 'owner'?
                                 # (attributes: category, income, kind, other_side, owner, ...)
            gain 1 pp

Fix: one of the attributes the message lists, `t.owner`.""")
explain("T216", """
Some attributes name a declaration of a set kind: a building's `other_side` names the building
a two-sided tile turns into (`flip_tile`), and the game's `workers_return_to` the per-player
counter a worker goes back to when it leaves a space.  Another kind, or a name not declared,
breaks the game the first time a tile is flipped or a worker comes back.

    category c
    building hut "Hut" c:
        other_side cabin   # error: other_side of building 'hut' must be a building; 'cabin' is
                           # not declared

Fix: declare the other side (`building cabin "Cabin" c:`) or name a declared building; for
`workers_return_to`, a counter declared `per player`.""")

REMOVED_TO = ("supply", "discard")
VALUE_KINDS = ("amount", "expr")   # argument kinds that are not declaration kinds


def _article(kind: str) -> str:
    return ("an " if kind[0] in "aeiou" else "a ") + kind


def _bare(e: dict, scope, sym) -> str | None:
    """The name of a bare-name expression referring to a declaration, or None."""
    if e.get("e") != "name":
        return None
    name = e["id"]
    if name in scope or name in sym.builtin or name not in sym.by_name:
        return None
    return name


def _kind_at(sig, k: int) -> str:
    kinds = sig.arg_kinds
    if not kinds:
        return "expr"
    return kinds[min(k, len(kinds) - 1)]


# ------------------------------------------------------------------ amounts
def check_amounts(ruleset) -> list[Diagnostic]:
    """Amount units are resources (or lists of them, or variables); gain/pay/lose get amounts."""
    m = model(ruleset)
    sym = m.sym
    out = []
    for a, scope, i, where in m.uses.amounts:
        what = a["what"]
        if what in scope or what in sym.resources or what in sym.resource_lists or not sym.is_defined(what) \
                or _plain_player_counter(sym, what):
            continue
        kind = sym.kind(what) or "built-in name"
        extra = " (a let is a unit only when it is a list of resource names)" if kind == "let" else ""
        out.append(sym.diag(i, end_of(a, len(what)), "T201", "'%s' is %s, not a resource%s; the unit of an amount "
                            "is a resource, a list of resources or a variable%s"
                            % (what, _article(kind), extra, m.hint(what, "resources", lambda: sorted(sym.resources)))))
    for st, scope, i in m.uses.calls:
        sig = P.EFFECTS.get(st["name"])
        if sig is None or st["name"] in sym.effects:
            continue
        for k, a in enumerate(st["args"]):
            if _kind_at(sig, k) == "amount":
                out.extend(_amount_arg(st["name"], a, scope, i, sym))
                what = a.get("what") if a.get("e") == "amount" else None
                if what in sym.resource_lists and what not in scope and what not in sym.resources:
                    # "1 of any cube" needs a choice: only a building's cost makes it (build_tile).
                    out.append(sym.diag(i, end_of(a, len(what)), "T201",
                                        "'%s' lists several resources: such a unit is allowed in a building's "
                                        "cost only; here choose the resource first (option x(r in %s): %s 1 r)"
                                        % (what, what, st["name"])))
    return out


def _plain_player_counter(sym, name: str) -> bool:
    """A per-player counter without 'by' counts like a resource in amounts (`pay 2 workers`)."""
    c = sym.counters.get(name)
    return c is not None and c.get("scope") == "player" and c.get("by") is None


def _amount_arg(effect: str, a: dict, scope, i: int, sym) -> list[Diagnostic]:
    k = a.get("e")
    if k in ("int", "str", "dict", "range"):
        show = {"int": "a number", "str": "a string", "dict": "a dictionary", "range": "a range"}[k]
        unit = next(iter(sym.of_kind.get("resource", {})), "coin")      # the game's first resource
        hint = ": write it with its resource, like '%s %s'" % (a["v"], unit) if k == "int" else ""
        return [sym.diag(i, a, "T202", "'%s' takes amounts of resources, not %s%s" % (effect, show, hint))]
    items = a["items"] if k == "list" else [a] if k == "name" else []
    out = []
    for it in items:
        name = _bare(it, scope, sym) if it.get("e") == "name" else None
        if name is None:
            if it.get("e") in ("int", "str") and k == "list":
                out.append(sym.diag(i, it, "T202", "'%s' takes resources; %r is not one" % (effect, it["v"])))
            continue
        if name in sym.resources or name in sym.resource_lists:
            continue
        out.append(sym.diag(i, it, "T202", "'%s' takes amounts of resources; '%s' is %s"
                            % (effect, name, _article(sym.kind(name)))))
    return out


# ------------------------------------------------------------------ arguments of declaration kinds
def check_arg_kinds(ruleset) -> list[Diagnostic]:
    """A primitive's space/order/category/building (... any declaration kind) argument names one."""
    m = model(ruleset)
    sym = m.sym
    out = []
    calls = [(st["name"], st["args"], P.EFFECTS.get(st["name"]), st, scope, i)
             for st, scope, i in m.uses.calls if st["name"] not in sym.effects]
    calls += [(e["fn"], e["args"], P.FUNCTIONS.get(e["fn"]), e, scope, i)
              for e, scope, i in m.uses.funcalls if e["fn"] not in sym.lets or e["fn"] in scope]
    for name, args, sig, node, scope, i in calls:
        if sig is None:
            continue
        for k, a in enumerate(args):
            want = _kind_at(sig, k)
            if a.get("e") == "amount":
                if want != "amount":
                    out.append(sym.diag(i, a, "T206", "argument %d of '%s' must be %s, not an amount"
                                        % (k + 1, name, _article(want) if want != "expr" else "a value")))
                continue
            if k == P.FACE_ARGUMENT.get(name):
                out.extend(_face(name, k, a, scope, sym, i))
                continue
            if want in VALUE_KINDS:
                continue
            ref = _bare(a, scope, sym)
            if ref is None:
                continue
            kinds = [kd for kd, _ in sym.by_name[ref]]
            if want not in kinds:
                out.append(sym.diag(i, a, "T206", "argument %d of '%s' must be %s; '%s' is %s%s" % (
                    k + 1, name, _article(want), ref, _article(kinds[0]),
                    m.hint(ref, ("kind", want), lambda: sorted(sym.names(want))))))
            elif want == "zone":       # a zone kept by an enum is one list per value: name the value
                out.extend(_counter_index(ref, sym.of_kind["zone"][ref], None, scope, i, a, m, noun="zone"))
    return out


def _face(name: str, k: int, a: dict, scope, sym, i: int) -> list[Diagnostic]:
    """A face written as a name must be one the interpreter knows: any other lays the piece face down."""
    ref = _bare(a, scope, sym)
    if ref is None or ref in P.PIECE_FACES:
        return []
    return [sym.diag(i, a, "T206", "argument %d of '%s' is the face the piece is laid with, %s; '%s' would "
                     "lay it face down%s" % (k + 1, name, ", ".join(P.PIECE_FACES), ref,
                                             did_you_mean(ref, list(P.PIECE_FACES))))]


# ------------------------------------------------------------------ counters (and zones) kept by an enum
def _counter_index(name: str, counter: dict, index: dict | None, scope, i: int, node, m,
                   noun: str = "counter") -> list[Diagnostic]:
    sym = m.sym
    by = counter.get("by")
    if index is None:
        if by is not None:
            return [sym.diag(i, node, "T204", "%s '%s' is kept by %s: give the entry, like '%s[%s]'"
                             % (noun, name, by, name, (sym.enums.get(by, {}).get("values") or ["..."])[0]))]
        return []
    if by is None:
        return [sym.diag(i, index, "T204", "counter '%s' has one value (no 'by ENUM'); it cannot be indexed" % name)]
    values = sym.enums.get(by, {}).get("values") or []
    if index.get("e") == "int":
        return [sym.diag(i, index, "T205", "%s '%s' is indexed by %s values (%s), not numbers"
                         % (noun, name, by, ", ".join(values)))]
    ref = _bare(index, scope, sym)
    if ref is not None and by in sym.enums and ref not in values:
        return [sym.diag(i, index, "T205", "'%s' is not a value of %s (%s)%s"
                         % (ref, by, ", ".join(values), m.hint(ref, ("enum", by), values)))]
    return []


def check_set_targets(ruleset) -> list[Diagnostic]:
    """`set X[...] of P op value`: X is a counter (or a resource), indexed exactly when it has `by`."""
    m = model(ruleset)
    sym = m.sym
    out = []
    for st, scope, i in m.uses.sets:
        t = st["target"]
        name = t["name"]
        if name in scope:
            out.append(sym.diag(i, st, "T203", "'%s' is a local value; only counters can be set" % name))
            continue
        if name not in sym.by_name:
            continue   # undefined: N103
        if name in sym.counters:
            c = sym.counters[name]
            out.extend(_counter_index(name, c, t["index"], scope, i, st, m))
            if t["of"] is not None and c.get("scope") == "global":
                out.append(sym.diag(i, t["of"], "T211", "counter '%s' is global; it has no value 'of' a player" % name))
        elif name in sym.resources:
            if t["index"] is not None:
                out.append(sym.diag(i, t["index"], "T204", "resource '%s' has one amount per player; it cannot be indexed" % name))
        else:
            out.append(sym.diag(i, st, "T203", "'%s' is %s; only counters can be set%s"
                                % (name, _article(sym.kind(name)), m.hint(name, "counters", lambda: sorted(sym.counters)))))
    return out


def check_indexes(ruleset) -> list[Diagnostic]:
    """`counter[ENTRY]` in expressions: only counters with `by`, and entries of their enum."""
    m = model(ruleset)
    sym = m.sym
    out = []
    for e, scope, i in m.uses.indexes:
        name = _bare(e["x"], scope, sym)
        if name is None:
            continue
        if name in sym.counters:
            out.extend(_counter_index(name, sym.counters[name], e["key"], scope, i, e, m))
        elif sym.of_kind.get("zone", {}).get(name, {}).get("by") is not None:    # a zone without is a list
            out.extend(_counter_index(name, sym.of_kind["zone"][name], e["key"], scope, i, e, m, noun="zone"))
        elif name in sym.resources:
            out.append(sym.diag(i, e["key"], "T204", "resource '%s' cannot be indexed" % name))
    return out


def check_of(ruleset) -> list[Diagnostic]:
    """`X of PLAYER` reads a per-player counter or a resource of another player."""
    m = model(ruleset)
    sym = m.sym
    out = []
    for node, x, scope, i in m.uses.ofs:
        if x is None:
            continue   # `set ... of P`: check_set_targets
        base = x["x"] if x.get("e") == "index" else x
        name = _bare(base, scope, sym)
        if name is None or name in sym.resources:
            continue
        if sym.of_kind.get("zone", {}).get(name, {}).get("scope") == "player":
            continue   # a per-player zone: `hand of p`
        c = sym.counters.get(name)
        if c is not None and c.get("scope") != "global":
            continue
        what = "global counter" if c is not None else sym.kind(name)
        out.append(sym.diag(i, node, "T211", "'%s' is %s; 'of PLAYER' reads a per-player counter or a resource"
                            % (name, _article(what))))
    return out


# ------------------------------------------------------------------ references between declarations
def check_references(ruleset) -> list[Diagnostic]:
    """Names declarations give each other: categories, events, score, rounds, enums, removed_to."""
    sym = model(ruleset).sym
    out = []
    categories = sorted(sym.names("category"))

    def want(i, d, field, kind, code, what, candidates):
        name = d.get(field)
        if name is not None and name in sym.names(kind):
            return
        if name is None:
            out.append(sym.diag(i, d, code, "%s '%s' has no %s" % (d["kind"], d.get("name"), what)))
            return
        found = sym.kind(name)
        is_ = ("is %s" % _article(found)) if found else "is not declared"
        out.append(sym.diag(i, sym.at(d, field), code, "%s of %s '%s' must be %s; '%s' %s%s" % (
            what, d["kind"], d.get("name"), _article(kind), name, is_, did_you_mean(name, candidates))))

    for i, d in enumerate(sym.decls):
        kind = d.get("kind")
        if kind == "building":
            want(i, d, "category", "category", "T207", "the category", categories)
        elif kind == "category":
            if d.get("built_on") is not None:
                want(i, d, "built_on", "category", "T207", "built_on", categories)
            if d.get("removed_to") not in REMOVED_TO:
                out.append(sym.diag(i, sym.at(d, "removed_to"), "T213", "removed_to of category '%s' must be %s, not '%s'%s" % (
                    d.get("name"), " or ".join(REMOVED_TO), d.get("removed_to"),
                    did_you_mean(str(d.get("removed_to")), REMOVED_TO))))
        elif kind == "trigger":
            event = d.get("event")
            if event not in P.EVENTS:
                out.append(sym.diag(i, sym.at(d, "event"), "T208", "trigger '%s' waits for %s; the engine's events are %s%s" % (
                    d.get("name"), "no event" if event is None else "unknown event '%s'" % event,
                    ", ".join(sorted(P.EVENTS)), did_you_mean(str(event), sorted(P.EVENTS)))))
        elif kind == "game":
            score = d.get("score")
            if score is None:
                # the winner, the result and every building's prestige are counted in it
                out.append(sym.diag(i, d, "T209", "game '%s' names no score; add 'score RESOURCE', the resource "
                                    "that decides who wins (%s)" % (
                                        d.get("name"), ", ".join(sorted(sym.resources)) or "declare one with 'resource'")))
            elif score not in sym.resources:
                found = sym.kind(score)
                out.append(sym.diag(i, sym.at(d, "score"), "T209", "the score of game '%s' must be a resource; '%s' %s%s" % (
                    d.get("name"), score, ("is %s" % _article(found)) if found else "is not declared",
                    did_you_mean(score, sorted(sym.resources)))))
            phases = sorted(sym.names("phase"))
            for name in d.get("rounds") or []:
                if name not in sym.names("phase"):
                    found = sym.kind(name)
                    out.append(sym.diag(i, d.get("rounds_pos") or d, "T210", "round step '%s' must be a phase; it %s%s" % (
                        name, ("is %s" % _article(found)) if found else "is not declared", did_you_mean(name, phases))))
        if kind == "building" and d.get("other_side") is not None:
            want(i, d, "other_side", "building", "T216", "other_side", sorted(sym.names("building")))
        if kind == "game" and d.get("workers_return_to") is not None:
            name = d["workers_return_to"]
            c = sym.counters.get(name)
            if c is None or c.get("scope") != "player":
                found = "a global counter" if c is not None else (_article(sym.kind(name)) if sym.kind(name) else None)
                out.append(sym.diag(i, sym.at(d, "workers_return_to"), "T216", "workers_return_to of game '%s' must be a per-player counter; '%s' %s%s"
                                    % (d.get("name"), name, ("is " + found) if found else "is not declared",
                                       did_you_mean(name, sorted(n for n, c in sym.counters.items()
                                                                 if c.get("scope") == "player")))))
        if kind in ("counter", "zone") and d.get("by") is not None and d["by"] not in sym.enums:
            found = sym.kind(d["by"])
            out.append(sym.diag(i, sym.at(d, "by"), "T212", "%s '%s' is kept 'by %s', which %s; 'by' names an enum%s" % (
                kind, d.get("name"), d["by"], ("is %s" % _article(found)) if found else "is not declared",
                did_you_mean(str(d["by"]), sorted(sym.enums)))))
    return out


# ------------------------------------------------------------------ statements and attributes
def check_placement(ruleset) -> list[Diagnostic]:
    """`LABEL:` and `N:` blocks only in tables; `break` only inside a loop."""
    m = model(ruleset)
    sym = m.sym
    out = []
    for st, i, why in m.uses.misplaced:
        if why == "break":
            out.append(sym.diag(i, st, "T214", "'break' outside a loop (repeat, for, each, turns)"))
        elif why == "block":
            label = st["label"]
            hint = ""
            if label in P.EFFECTS or label in sym.effects:
                hint = "; to call '%s', write '%s ARGS' without ':'" % (label, label)
            else:
                hint = "; a named part of a phase is 'step %s:'" % label
            out.append(sym.diag(i, st, "T214", "'%s:' is not a statement (labelled blocks belong in tables)%s"
                                % (label, hint)))
        else:
            out.append(sym.diag(i, st, "T214", "a numbered entry '%s:' outside a table" % st["key"]["from"]))
    return out


def check_attributes(ruleset) -> list[Diagnostic]:
    """`x.NAME` reads one of the tile and space attributes in provost.dsl.primitives.ATTRIBUTES."""
    m = model(ruleset)
    sym = m.sym
    known = sorted(P.ATTRIBUTES)
    return [sym.diag(i, e, "T215", "unknown attribute '.%s'%s (attributes: %s)"
                     % (e["name"], m.hint(e["name"], "attributes", known), ", ".join(known)))
            for e, i in m.uses.attrs if e["name"] not in P.ATTRIBUTES]
