"""Reachability: what the rules can never do (G701-G705).

* G701 (error): the cost of a building some rule builds (`build_tile`/`build_on` of its category)
  includes a resource that no rule ever gives (no `gain`, no `set R += ...`, not the score the
  engine gives for building) -- the tile can never be paid for.
  Bodies that never run (effects and tables nobody uses, phases not in the rounds) give nothing.
* G702 (warning): a phase that is not in the game's `rounds` is never entered.  Steps run whenever
  their phase runs, so "a step never entered" is a phase never entered.
* G703 (warning): a definition nobody uses (see `_used` for what counts as a use).
* G704 (warning): a trigger on an event that nothing emits never fires.
* G705 (error): `ends_if` can never be true: it compares counters that never change (nothing sets
  them) or asks for values beyond their bounds.

Only declarations of the checked file are reported by G702-G704: checking a variant does not
re-report its base's definitions (check the base for those).
"""
from __future__ import annotations

from ..diagnostics import Diagnostic, explain, register
from .model import TOP, Facts, facts, pos_of
from .road import road

register("G701", "error", "a tile's cost includes a resource that no rule can ever give")
register("G702", "warning", "a phase that is never entered (not in the game's rounds)")
explain("G701", """
A tile that some rule builds (`build_tile` or `build_on` of its category) costs a resource that
no rule can ever give: no `gain` or `set R += ...` names it in a body that runs (unused effects
and tables, and phases not in the rounds, give nothing), and it is not the score, which the
engine gives for building.  No player can ever pay for the tile, so the build is never offered.

    resource pp, coin, wood, cloth
    building hut "Hut" wooden:
        cost 1 wood, 1 cloth    # error: building 'hut' costs cloth, but no rule ever gives
                                # cloth: it can never be paid for
    space post "Trading post":
        work: build_tile wooden

Fix: give the resource somewhere (`work: gain 1 wood, 1 cloth` for the mill), or take it out of
the cost (`cost 1 wood`).""")
explain("G702", """
A phase that is not in the game's `rounds` is never entered: its statements and steps never run,
so what it gives, scores or checks never happens.  Usually a phase added to the file and not to
the rounds.

    game g "G":
        players 2..4
        score pp
        rounds place, specials, activation
    phase market:    # warning: phase 'market' is never entered: it is not in the game's rounds
        each player in turn_order:
            gain 1 coin

Fix: add the phase to the rounds where it belongs (`rounds place, market, specials,
activation`), or remove it.""")
register("G703", "warning", "a definition that is never used")
FLOW_EVENTS = {"round_start", "round_end", "phase_start", "phase_end", "step_start", "step_end"}

register("G704", "warning", "a trigger that never fires (nothing emits its event)")
explain("G704", """
A trigger on an event that nothing in the rules emits never fires, so its body never runs.  The
engine's flow emits round_start, round_end, phase_start, phase_end, step_start and step_end;
the others come from primitives: worker_placed from `place_worker`/`move_worker`, tile_built
from `build_tile`/`build_on`, piece_placed from `place_piece`.  Such a primitive in an effect
nobody calls, or in a phase not in the rounds, does not count: it never runs.

    trigger seen on piece_placed:    # warning: trigger 'seen' never fires: nothing emits
        gain 1 pp                    # piece_placed (emitted by place_piece)

Fix: put the trigger on the event that does happen (`trigger seen on worker_placed:`), or
remove it.""")
explain("G703", """
A declaration (a resource, counter, category, let, effect, zone, ...) that no rule, cost,
condition or scoring reads: it changes nothing in a game.  A building is used when it stands at
a road slot, or its category is built, dealt or transformed into, or something names it.

    category special "special building":    # warning: category 'special' is never used
        workable yes

Fix: remove it, use it where it was meant to be used, or keep it and say in a comment why (a
name kept for the rulebook's words, as `caylus.rules` does for this category).""")
register("G705", "error", "an end condition that can never be met")
explain("G705", """
The game's `ends_if` can never be true: it compares a counter nothing ever changes (no `set`,
no amount naming it, so it keeps its `start`), or asks for a value beyond a counter's `min` or
`max`.  Such a game never ends by its condition, whatever the players do: it runs until
`max_rounds` (100 rounds when the game gives none).

    game g "G":
        players 2..4
        score pp
        ends_if laps >= 5    # error: the end condition can never be met: 'laps' never goes above 3
    counter laps global max 3

Fix: ask for a value the counter can reach (`ends_if laps >= 3`), or raise its bound
(`max 5`).""")

# Kinds whose unused definitions are reported, with the words for the message.
DEFINITIONS = ("effect", "let", "table", "counter", "zone", "order", "enum", "resource", "category", "track",
               "pieces", "space", "building")
IMPLICIT_COUNTERS = {"workers"}
"""Counters the engine itself reads and writes (interpreter/engine.py `place_worker`)."""


def _users(f: Facts, name: str, own: int) -> set:
    return {j for j in f.refs.get(name, ()) if j != own}


def unused_effects_and_tables(f: Facts) -> set:
    out = set()
    for kind in ("effect", "table"):
        for name, i in f.by_kind.get(kind, {}).items():
            if not _users(f, name, i):
                out.add((kind, name))
    return out


def check_reachability(ruleset) -> list[Diagnostic]:
    f = facts(ruleset)
    out: list[Diagnostic] = []

    def diag(i, pos, code, msg):
        from ..diagnostics import CODES
        out.append(Diagnostic(f.path(i), pos[0], pos[1], CODES[code][0], code, msg))

    mine = {i for i, p in enumerate(f.files) if p == f.main_file}
    rounds = list(f.game.get("rounds") or [])
    game_i = next((i for i, d in enumerate(f.decls) if d is f.game), None)
    dead = unused_effects_and_tables(f)
    dead |= {("phase", p) for p in f.phases if f.game and p not in rounds}

    # ---- G702: phases never entered
    if f.game:
        for name, d in f.phases.items():
            if name in rounds:
                continue
            i = f.decl_index[id(d)]
            listed = ", ".join(rounds) or "none"
            if i in mine:
                diag(i, pos_of(d), "G702", "phase '%s' is never entered: it is not in the game's rounds (%s)" % (name, listed))
            elif game_i in mine:
                diag(game_i, pos_of(f.game.get("rounds_pos") or f.game), "G702",
                     "phase '%s' (%s line %d) is never entered: it is not in these rounds" % (name, f.path(i), pos_of(d)[0]))

    # ---- G701: costs nothing can give
    given: frozenset = frozenset()
    top = False
    for key, body in f.bodies.items():
        if key in dead:
            continue
        for op in _all_ops(body.ops):
            if op.kind == "gain":
                g = f.resources_of(op.syms)
                if TOP in g:
                    top = True
                    break
                given |= g
        if top:
            break
    if f.game.get("score"):
        given |= {f.game["score"]}
    built = set()          # categories some rule builds (a tile of another category is never paid for)
    for cats, guarded, pos, i, key, prim in f.builds:
        cats = f.resolve(cats)
        built |= set(f.categories) if TOP in cats else {c for c in cats if type(c) is str}
    if not top:
        for name, d in f.buildings.items():
            if d.get("category") not in built:
                continue
            i = f.decl_index[id(d)]
            for a in d.get("cost") or []:
                if not isinstance(a, dict) or a.get("e") != "amount":
                    continue
                res = f.resources_of(f.amount_syms(a, {}))
                if not res or TOP in res or res & given:
                    continue
                words = " or ".join(sorted(res))
                diag(i, pos_of(a), "G701", "building '%s' costs %s, but no rule ever gives %s: it can never be paid for"
                     % (name, words, words))

    # ---- G703: definitions never used
    r = road(f) if f.road is not None else None
    road_used = bool(f.road_uses) or bool(r and r.first_free_categories)
    placed_categories = set()
    for c in f.categories:
        users = _users(f, c, f.by_kind["category"][c])
        if any(f.decls[j].get("kind") != "building" for j in users):
            placed_categories.add(c)
    for kind in DEFINITIONS:
        for name, i in f.by_kind.get(kind, {}).items():
            if i not in mine:
                continue
            d = f.decls[i]
            if _used(f, kind, name, i, d, road_used, placed_categories):
                continue
            why = ""
            if kind == "track" and d is not f.road:
                why = ": only the first track is the road"
            elif kind == "building":
                why = ": it is not at a road slot, its category '%s' is never built or dealt, and nothing names it" \
                      % d.get("category")
            diag(i, pos_of(d), "G703", "%s '%s' is never used%s" % (kind, name, why))

    # ---- G704: triggers that never fire
    for i, d in enumerate(f.decls):
        if d.get("kind") != "trigger" or i not in mine:
            continue
        ev = d.get("event")
        if ev in FLOW_EVENTS:
            continue                      # the engine's own flow emits these every round
        if not any(key not in dead for key, *_ in f.emitters.get(ev, [])):
            diag(i, pos_of(d), "G704", "trigger '%s' never fires: nothing emits %s (%s)"
                 % (d.get("name"), ev, _emitted_by(ev)))

    # ---- G705: the end condition
    cond = f.game.get("ends_if")
    if isinstance(cond, dict) and game_i is not None:
        why: list = []
        if _truth(cond, f, why) is False:
            diag(game_i, pos_of(cond), "G705", "the end condition can never be met: %s" % "; ".join(dict.fromkeys(why)))
    return out


def _used(f: Facts, kind, name, i, d, road_used, placed_categories) -> bool:
    if _users(f, name, i):
        return True
    if kind == "enum":
        return any(_users(f, v, i) for v in d.get("values") or [])
    if kind == "counter":
        return name in IMPLICIT_COUNTERS
    if kind == "track":
        return d is f.road and road_used
    if kind == "space":
        return bool(d.get("placeable", True))
    if kind == "building":
        return type(d.get("at")) is int or d.get("category") in placed_categories
    return False


def _all_ops(ops):
    stack = list(ops)
    while stack:
        op = stack.pop()
        yield op
        for alt in op.alts:
            stack.extend(alt)


def _emitted_by(ev) -> str:
    from .model import EMITS
    prims = [p for p, e in EMITS.items() if e == ev]
    return "emitted by " + "/".join(prims) if prims else "no primitive emits it"


# ---------------------------------------------------------------- three-valued evaluation of ends_if
INF = float("inf")


def _changed(f: Facts) -> set:
    out = set(f.sets) | set(f.amount_units) | IMPLICIT_COUNTERS
    if f.game.get("workers_return_to"):
        out.add(f.game["workers_return_to"])
    return out


def _interval(e, f: Facts):
    """(lo, hi, counter or None, fixed?) for a number the end condition reads, or None when unknown."""
    if not isinstance(e, dict):
        return None
    k = e.get("e")
    if k == "int":
        return (e.get("v"), e.get("v"), None, True)
    if k in ("index", "of"):
        base = e.get("x")
        while isinstance(base, dict) and base.get("e") in ("index", "of"):
            base = base.get("x")
        if isinstance(base, dict) and base.get("e") == "name" and base.get("id") in f.counters:
            return _counter(base.get("id"), f)
        return None
    if k == "name":
        n = e.get("id")
        if n in f.counters:
            return _counter(n, f)
        if n in f.lets:
            r = f.interval(e)
            return (r[0], r[1], None, True) if r else None
        return None
    if k == "call" and e.get("fn") == "held" and len(e.get("args") or []) == 1:
        a = e["args"][0]
        if isinstance(a, dict) and a.get("e") == "name" and a.get("id") in f.resources:
            n = a["id"]
            if n in _changed(f) or n == f.game.get("score"):
                return (0, INF, n, False)
            return (0, 0, n, True)
        return None
    if k in ("binop", "neg"):
        r = f.interval(e)
        return (r[0], r[1], None, True) if r else None
    return None


def _counter(n: str, f: Facts):
    d = f.counters[n]
    start = d.get("start") if type(d.get("start")) is int else 0
    if n not in _changed(f):
        return (start, start, n, True)
    lo = d.get("min") if type(d.get("min")) is int else -INF
    hi = d.get("max") if type(d.get("max")) is int else INF
    return (lo, hi, n, False)


def _reason(side, other) -> str | None:
    """Why a side of a false comparison cannot take the values it would need."""
    lo, hi, name, fixed = side
    if name is None:
        return None
    if fixed:
        return "nothing ever sets or gives '%s' (it stays %d)" % (name, lo)
    if other[1] < lo:
        return "'%s' never goes below %d" % (name, lo)
    if other[0] > hi:
        return "'%s' never goes above %d" % (name, hi)
    return None


def _truth(e, f: Facts, why: list):
    """True, False or None (unknown) for a condition; `why` collects the facts that decided it."""
    if not isinstance(e, dict):
        return None
    k = e.get("e")
    if k == "not":
        t = _truth(e.get("x"), f, why)
        return None if t is None else not t
    if k == "name" and e.get("id") in ("yes", "no"):
        return e["id"] == "yes"
    if k != "binop":
        return None
    op = e.get("op")
    if op in ("and", "or"):
        a, b = _truth(e.get("left"), f, why), _truth(e.get("right"), f, why)
        if op == "and":
            return False if (a is False or b is False) else (True if a and b else None)
        return True if (a is True or b is True) else (False if a is False and b is False else None)
    if op not in ("==", "!=", "<", "<=", ">", ">="):
        return None
    a, b = _interval(e.get("left"), f), _interval(e.get("right"), f)
    if a is None or b is None:
        return None
    result = _compare(op, a[:2], b[:2])
    if result is False:
        for side, other in ((a, b), (b, a)):
            r = _reason(side, other)
            if r:
                why.append(r)
    return result


def _compare(op, a, b):
    (alo, ahi), (blo, bhi) = a, b
    if op == "==":
        if ahi < blo or bhi < alo:
            return False
        return True if alo == ahi == blo == bhi else None
    if op == "!=":
        t = _compare("==", a, b)
        return None if t is None else not t
    if op == "<":
        return True if ahi < blo else (False if alo >= bhi else None)
    if op == "<=":
        return True if ahi <= blo else (False if alo > bhi else None)
    if op == ">":
        return _compare("<", b, a)
    if op == ">=":
        return _compare("<=", b, a)
    return None
