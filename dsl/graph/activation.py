"""Activation order and what feeds what: the round walk behind G501, G506, G601 and G602.

A *summary* of a body says what running it may do, whatever the choices: the resources it may
gain, the payments it makes that nothing earlier in the body covers, the spaces it may move a
worker onto, and the events it may emit.  Summaries are memoised, so each body is summarised once.

The *round walk* goes through the phases in the game's `rounds` order, and through each phase's
statements in order (the alternatives of a `choose`/`if` are walked separately and merged).
`activate a, b` activates each space in turn; `activate_road` activates every building that may
stand on the road, in slot order.  Along the way it keeps, per phase, the resources produced so
far and the spaces activated so far, and per round the activation sequence.  From that:

* G601 (error): a space's work, or a statement of the phase, moves a worker onto a space the phase
  has already activated -- that worker can never be used there (the Caylus gate must come first);
* G602 (note): a space or road building pays a resource that nothing activated before it in the
  same phase produces -- it runs on stock from earlier turns (the Caylus joust field's cloth);
  for road buildings "before" means "may stand on an earlier slot";
* G501 (error): the round activates a space, or the road, twice (the cycle is printed);
* G506 (warning): a space activated after the road (special buildings come before the bridge).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..diagnostics import Diagnostic, explain, register
from .model import ANY, EMPTY, ROADSYM, TOP, Facts, Op, facts, pos_of
from .road import road

MAX_PASSES = 64

register("G601", "error", "an effect moves a worker onto a space already activated in the same phase")
register("G602", "note", "a building consumes a resource nothing earlier in the same phase produces (stock only)")
register("G604", "warning", "a space that takes workers and has work, which nothing activates")
explain("G601", """
A space or building can move a worker onto a space that its phase has already activated, so the
worker arrives after that space has done its work and can never be used there.  The same holds
for a statement of the phase that moves a worker after the `activate` that named the target.
The Caylus gate must come before every space it can send a worker to.

    space gate "Gate":
        work:
            choose:
                option stay: nothing
                option move(t in open_spaces() where t != gate):
                    move_worker gate, t
    phase specials:
        activate post, gate    # error: Space 'gate' can move a worker onto 'post', which phase
                               # 'specials' has already activated (line 43)

Fix: activate the space that moves workers before the spaces it moves them to
(`activate gate, post`).""")
explain("G602", """
A building or space pays a resource that nothing activated before it in the same phase
produces, so a player can use it only with that resource in stock from earlier turns (or, when
an earlier phase of the round may produce it, with what the player holds when the phase starts;
the message names that phase).  Often intended (the rulebook says so); a note, not a warning.

    space joust "Joust field":
        work:
            choose:
                option skip: nothing
                option joust:
                    pay 1 coin, 1 cloth    # note: Space 'joust' pays cloth, but nothing activated
                                           # before it in phase 'specials' produces cloth
    phase specials:
        activate gate, post, joust

Fix: none when the rules mean it (say so in a comment above the payment); otherwise activate a
producer of the resource before it.""")
explain("G604", """
A space that takes workers (`placeable`, the default) and has `work`, but no `activate` names it.
A worker placed there never works, and it stays on the space until some rule sends it home, so
its player loses the worker and the action.  (A space that takes workers and has no work, such as
the Caylus castle scored by a step of its own, is not reported.)

    space post "Trading post":    # warning: space 'post' takes workers and has work, but
        work: gain 2 coin         # nothing activates it: a worker placed there never works
    phase specials:
        activate gate

Fix: activate it where it belongs in the round (`activate gate, post`), or make it
`placeable no` if workers are not meant to go there.""")


@dataclass
class Need:
    res: frozenset            # the resources that would do (any one of them)
    pos: list
    i: int
    via: str | None = None    # "effect 'sell'" when the payment is inside a called effect


@dataclass
class Summary:
    gains: frozenset = EMPTY
    needs: list = field(default_factory=list)
    moves: list = field(default_factory=list)      # (spaces or ANY, pos, i, via)
    events: dict = field(default_factory=dict)     # event -> (pos, i, primitive, via)
    activates: bool = False


def covered(res: frozenset, produced: frozenset) -> bool:
    return TOP in produced or TOP in res or bool(res & produced)


def union(a: frozenset, b: frozenset) -> frozenset:
    if TOP in a or TOP in b:
        return ANY
    return a | b


class Analysis:
    """Summaries and the round walk for one ruleset (memoised on its Facts)."""

    def __init__(self, f: Facts):
        self.f = f
        self.road = road(f)
        self.summaries: dict = {}
        self._busy: set = set()
        self.triggers_on: dict[str, list] = {}
        for key, body in f.bodies.items():
            if key[0] == "trigger":
                ev = f.decls[key[1]].get("event")
                self.triggers_on.setdefault(ev, []).append(key)
        self._all_works = None
        self._on_build: dict = {}
        self.diags: list[Diagnostic] = []
        self._seen: set = set()
        # The deps graph, for `provost graph --kind deps`: units and edges per phase.
        self.units: list = []        # (unit id, phase, label, kind)
        self.edges: list = []        # (src, dst, label, style)
        self.round_edges: list = []  # (src node, dst node): the activation sequence of a round
        self.sequence: list = []     # spaces and "road" in the order a round first activates them
        self.revisits: list = []
        self.moves_to: list = []     # (unit, phase, space): a space's work can send a worker there
        self._recursive = False
        self._summarise_all()
        self.walk_round()

    # ================================================================ summaries
    def _summarise_all(self) -> None:
        """Every body's summary.  Bodies are summarised on demand, callees first; a body that is
        reached again while it is being summarised (recursion: an effect calling itself, a trigger
        firing through a favor into itself) gets an empty summary there, so when that happened the
        summaries are under-approximations, completed by iterating to a fixpoint (summaries only
        grow; MAX_PASSES bounds the loop)."""
        keys = list(self.f.bodies)
        for key in keys:
            self.summary(key)
        passes = 0
        while self._recursive and passes < MAX_PASSES:
            passes += 1
            old = {k: _signature(v) for k, v in self.summaries.items()}
            self._all_works, self._on_build = None, {}
            new = {}
            for key in keys:
                acc = Summary()
                self._run(self.f.bodies[key].ops, EMPTY, acc)
                new[key] = acc
            self.summaries = new
            if all(_signature(new[k]) == old.get(k) for k in keys):
                break
        self._all_works, self._on_build = None, {}

    def summary(self, key) -> Summary:
        found = self.summaries.get(key)
        if found is not None:
            return found
        body = self.f.bodies.get(key)
        if body is None:
            return Summary()
        if key in self._busy:
            self._recursive = True
            return Summary()
        self._busy.add(key)
        try:
            acc = Summary()
            self._run(body.ops, EMPTY, acc)
        finally:
            self._busy.discard(key)
        self.summaries[key] = acc
        return acc

    def _run(self, ops: list, produced: frozenset, acc: Summary) -> frozenset:
        f = self.f
        for op in ops:
            k = op.kind
            if k == "gain":
                g = f.resources_of(op.syms)
                produced = union(produced, g)
                acc.gains = union(acc.gains, g)
            elif k == "pay":
                for syms, apos in op.amounts:
                    res = f.resources_of(syms)
                    if res and TOP not in res and not covered(res, produced):
                        acc.needs.append(Need(res, apos, op.i))
            elif k == "move":
                acc.moves.append((f.spaces_of(op.syms), op.pos, op.i, None))
            elif k == "emit":
                acc.events.setdefault(op.name, (op.pos, op.i, op.prim, None))
                for t in self.triggers_on.get(op.name, []):
                    g = self.summary(t).gains
                    produced = union(produced, g)
                    acc.gains = union(acc.gains, g)
            elif k in ("call", "table"):
                sub = self.summary(("effect" if k == "call" else "table", op.name))
                produced = self._merge(sub, op, produced, acc, "%s '%s'" % ("effect" if k == "call" else "table", op.name),
                                       needs=(k == "call"))
            elif k == "activate":
                acc.activates = True
                for space, apos in op.spaces:
                    sub = self.summary(("work", space))
                    produced = self._merge(sub, op, produced, acc, "space '%s'" % space)
            elif k == "road":
                acc.activates = True
                sub = self.all_works()
                produced = union(produced, sub.gains)
                acc.gains = union(acc.gains, sub.gains)
            elif k == "build":
                cats = f.resolve(op.syms)
                for c in (f.categories if TOP in cats else cats):
                    sub = self.on_build(c)
                    produced = union(produced, sub.gains)
                    acc.gains = union(acc.gains, sub.gains)
                    for ev, v in sub.events.items():
                        acc.events.setdefault(ev, (op.pos, op.i, v[2], v[3]))
            elif k == "perform":
                sub = self.all_works()
                produced = union(produced, sub.gains)
                acc.gains = union(acc.gains, sub.gains)
                for ev, v in sub.events.items():
                    acc.events.setdefault(ev, (op.pos, op.i, v[2], "the performed tile"))
            elif k == "branch":
                outs = [self._run(alt, produced, acc) for alt in op.alts]
                for o in outs:
                    produced = union(produced, o)
        return produced

    def _merge(self, sub: Summary, op: Op, produced: frozenset, acc: Summary, via: str, needs: bool = True) -> frozenset:
        # Payments inside table entries (`do t[r][c]`) stay inside: which entry runs depends on the state.
        for need in (sub.needs if needs else ()):
            if not covered(need.res, produced):
                acc.needs.append(Need(need.res, op.pos, op.i, need.via or via))
        for targets, pos, i, v in sub.moves:
            acc.moves.append((targets, op.pos, op.i, v or via))
        for ev, v in sub.events.items():
            acc.events.setdefault(ev, (op.pos, op.i, v[2], v[3] or via))
        acc.activates = acc.activates or sub.activates
        acc.gains = union(acc.gains, sub.gains)
        return union(produced, sub.gains)

    def on_build(self, category) -> Summary:
        """What building any tile of a category may do when it is built (its `on_build`)."""
        found = self._on_build.get(category)
        if found is None:
            found = self._on_build[category] = Summary()
            acc = Summary()
            for b in self.f.buildings_of.get(category, []):
                if ("on_build", b) in self.f.bodies:
                    sub = self.summary(("on_build", b))
                    acc.gains = union(acc.gains, sub.gains)
                    for ev, v in sub.events.items():
                        acc.events.setdefault(ev, (v[0], v[1], v[2], "building '%s' when built" % b))
            self._on_build[category] = found = acc
        return found

    def all_works(self) -> Summary:
        """What running any building's work (the road, `perform`) may do."""
        if self._all_works is None:
            self._all_works = Summary()
            acc = Summary()
            for name in self.f.buildings:
                for part in ("work", "owner"):
                    if (part, name) in self.f.bodies:
                        sub = self.summary((part, name))
                        acc.gains = union(acc.gains, sub.gains)
                        for ev, v in sub.events.items():
                            acc.events.setdefault(ev, v)
            self._all_works = acc
        return self._all_works

    # ================================================================ the round walk
    def _diag(self, i, pos, code, msg):
        key = (code, self.f.path(i), pos[0], pos[1])
        if key in self._seen:
            return
        self._seen.add(key)
        from ..diagnostics import CODES
        self.diags.append(Diagnostic(self.f.path(i), pos[0], pos[1], CODES[code][0], code, msg))

    def walk_round(self) -> None:
        f = self.f
        rounds = [p for p in (f.game.get("rounds") or []) if p in f.phases]
        st = _State()
        self.earlier: dict = {}      # resource -> the first phase of the round that may produce it
        for name in rounds:
            body = f.bodies.get(("phase", name))
            if body is None:
                continue
            st.phase = name
            st.produced = EMPTY
            st.producers = {}
            st.activated = {}
            st.prev_unit = None
            st = self._walk(body.ops, st, set())
            for r in (st.produced if TOP not in st.produced else ()):
                self.earlier.setdefault(r, name)
        self._report_revisits()

    def _walk(self, ops: list, st: "_State", inlining: set) -> "_State":
        f = self.f
        for op in ops:
            k = op.kind
            if k == "gain":
                st.produced = union(st.produced, f.resources_of(op.syms))
            elif k == "move":
                self._check_move(f.spaces_of(op.syms), None, op.pos, op.i, st, "a statement of phase '%s'" % st.phase)
            elif k == "emit":
                for t in self.triggers_on.get(op.name, []):
                    st.produced = union(st.produced, self.summary(t).gains)
            elif k in ("call", "table"):
                key = ("effect" if k == "call" else "table", op.name)
                sub = self.summary(key)
                if sub.activates and key not in inlining and key in f.bodies:
                    st = self._walk(f.bodies[key].ops, st, inlining | {key})
                else:
                    for targets, pos, i, via in sub.moves:
                        self._check_move(targets, None, op.pos, op.i, st,
                                         "%s (called from phase '%s')" % (_name(key), st.phase))
                    st.produced = union(st.produced, sub.gains)
            elif k == "build" or k == "perform":
                sub = Summary()
                self._run([op], EMPTY, sub)
                st.produced = union(st.produced, sub.gains)
            elif k == "activate":
                for space, apos in op.spaces:
                    self._activate_space(space, apos, op.i, st)
            elif k == "road":
                self._activate_road(op, st)
            elif k == "branch":
                outs = [self._walk(alt, st.copy(), inlining) for alt in op.alts]
                st = _State.merge(outs) if outs else st
        return st

    # ---------------------------------------------------------------- one space
    def _visit(self, node: str, pos, i, st: "_State") -> None:
        if node not in self.sequence:
            self.sequence.append(node)
        if node in st.visited:
            self.revisits.append((node, st.visited[node], (pos, i)))
        for last in st.last:
            self.round_edges.append((last, node))
        st.last = {node}
        st.visited.setdefault(node, (pos, i))

    def _activate_space(self, space: str, apos, i: int, st: "_State") -> None:
        f = self.f
        if st.road_seen is not None:
            rpos, ri = st.road_seen
            self._diag(i, apos, "G506", "space '%s' is activated after the road (activate_road at %s): special "
                       "buildings come before the bridge" % (space, f.at(ri, rpos)))
        self._visit(space, apos, i, st)
        unit = ("unit", st.phase, space)
        self._unit(unit, st, space, "space")
        sub = self.summary(("work", space))
        hits = set()
        for targets, pos, mi, via in sub.moves:
            if TOP in targets:
                continue
            for t in sorted(targets):
                if t in st.activated and t != space:
                    hits.add(t)
                    self.edges.append((unit, ("unit", st.phase, t) if t != ROADSYM else ("unit", st.phase, "road"),
                                       "moves a worker (too late)", "error"))
                elif t != space and t in f.spaces:
                    self.moves_to.append((unit, st.phase, t))
        if hits:
            names = sorted(hits, key=lambda t: st.activated[t][0])
            first = names[0]
            where = ", ".join(_space_words(t) for t in names)
            self._diag(i, apos, "G601", "Space '%s' can move a worker onto %s, which phase '%s' has already activated (line %d): "
                       "that worker could never be used there; activate '%s' before %s"
                       % (space, where, st.phase, st.activated[first][0][0], space, _space_words(first)))
        self._needs(sub, unit, "space '%s'" % space, st, lambda res: covered(res, st.produced))
        self._produce(sub.gains, unit, st)
        st.activated.setdefault(space, (apos, i))

    def _needs(self, sub: Summary, unit, words: str, st: "_State", is_covered) -> None:
        fed = []          # "denier can come from 'trading_post'": what earlier units do provide
        missing = []
        for need in sub.needs:
            if not is_covered(need.res):
                missing.append(need)
                continue
            for r in sorted(need.res):
                srcs = [u for u in st.producers.get(r, []) if u != unit]
                if srcs:
                    self.edges.append((srcs[-1], unit, r, "feed"))
                    fed.append("%s can come from '%s'" % (r, srcs[-1][2]))
                    break
        for need in missing:
            res, it = _res_words(need.res)
            via = " (in %s)" % need.via if need.via else ""
            others = [t for t in dict.fromkeys(fed) if t.split(" ")[0] not in need.res]
            phases = sorted({self.earlier[r] for r in need.res if r in self.earlier and self.earlier[r] != st.phase})
            where = "in stock from earlier turns" if not phases else \
                "in stock when the phase starts (from phase %s or earlier turns)" % " or ".join("'%s'" % p for p in phases)
            self._diag(need.i, need.pos, "G602", "%s pays %s%s, but nothing activated before it in phase '%s' produces "
                       "%s: it can only use %s %s%s"
                       % (_cap(words), res, via, st.phase, it, it, where,
                          " (its %s)" % "; ".join(others) if others else ""))
            self.edges.append((("stock", st.phase), unit, _res_words(need.res)[0] + " (stock only)", "stock"))

    def _produce(self, gains: frozenset, unit, st: "_State") -> None:
        st.produced = union(st.produced, gains)
        for r in (gains if TOP not in gains else ()):
            st.producers.setdefault(r, []).append(unit)

    def _unit(self, unit, st: "_State", label: str, kind: str) -> None:
        self.units.append((unit, st.phase, label, kind))
        if st.prev_unit is not None:
            self.edges.append((st.prev_unit, unit, "then", "order"))
        st.prev_unit = unit

    def _check_move(self, targets, mover, pos, i, st: "_State", words: str) -> None:
        if TOP in targets:
            return
        hits = sorted((t for t in targets if t in st.activated and t != mover), key=lambda t: st.activated[t][0])
        if hits:
            where = ", ".join(_space_words(t) for t in hits)
            self._diag(i, pos, "G601", "%s can move a worker onto %s, which phase '%s' has already activated (line %d): "
                       "that worker could never be used there" % (_cap(words), where, st.phase, st.activated[hits[0]][0][0]))

    # ---------------------------------------------------------------- the road
    def _activate_road(self, op: Op, st: "_State") -> None:
        f, r = self.f, self.road
        self._visit("road", op.pos, op.i, st)
        st.road_seen = st.road_seen or (op.pos, op.i)
        unit = ("unit", st.phase, "road")
        self._unit(unit, st, "road (activate_road)", "road")
        before = st.produced
        # Producers on the road by resource: the two smallest lowest-slots (a building may not feed itself).
        first_two: dict = {}
        works = []
        for name in r.on_road():
            sub = self.summary(("work", name))
            gains = union(sub.gains, self.summary(("owner", name)).gains)
            lo, hi = r.ranges[name]
            works.append((name, sub, gains, lo, hi))
            for res in (gains if TOP not in gains else (TOP,)):
                best = first_two.setdefault(res, [])
                best.append((lo, name))
                best.sort()
                del best[2:]
        all_gains = before
        for name, sub, gains, lo, hi in works:
            all_gains = union(all_gains, gains)
            for targets, pos, mi, via in sub.moves:
                self._check_move(targets, None, pos, mi, st, "building '%s' (on the road)" % name)
            copies = self.f.buildings[name].get("count")
            many = type(copies) is int and (copies > 1 or copies < 0)

            def is_covered(res, name=name, hi=hi, many=many):
                if covered(res, before):
                    return True
                for rr in list(res) + [TOP]:
                    for lo2, other in first_two.get(rr, []):
                        if lo2 < hi and (other != name or many):
                            return True
                return False

            self._needs(sub, unit, "building '%s' (on the road)" % name, st, is_covered)
        st.produced = all_gains
        for res in (all_gains if TOP not in all_gains else ()):
            st.producers.setdefault(res, []).append(unit)
        st.activated.setdefault(ROADSYM, (op.pos, op.i))

    # ---------------------------------------------------------------- G501
    def _report_revisits(self) -> None:
        if not self.revisits:
            return
        import networkx as nx        # only when the sequence may not be a simple path
        g = nx.DiGraph()
        g.add_edges_from(self.round_edges)
        for node, (pos0, i0), (pos, i) in self.revisits:
            try:
                cycle = nx.find_cycle(g, source=node)
                names = [a for a, b in cycle] + [cycle[-1][1]]
                text = " -> ".join(names)
            except nx.NetworkXNoCycle:
                text = "%s -> ... -> %s" % (node, node)
            what = "the road" if node == "road" else "space '%s'" % node
            self._diag(i, pos, "G501", "%s is activated again (first at %s): the activation order is not one simple "
                       "path (%s)" % (what, self.f.at(i0, pos0), text))


class _State:
    __slots__ = ("phase", "produced", "producers", "activated", "prev_unit", "visited", "last", "road_seen")

    def __init__(self):
        self.phase = None
        self.produced = EMPTY
        self.producers: dict = {}
        self.activated: dict = {}
        self.prev_unit = None
        self.visited: dict = {}
        self.last: set = set()
        self.road_seen = None

    def copy(self) -> "_State":
        s = _State()
        s.phase, s.produced, s.prev_unit, s.road_seen = self.phase, self.produced, self.prev_unit, self.road_seen
        s.producers = {k: list(v) for k, v in self.producers.items()}
        s.activated = dict(self.activated)
        s.visited = dict(self.visited)
        s.last = set(self.last)
        return s

    @staticmethod
    def merge(states: list) -> "_State":
        s = states[0].copy()
        for o in states[1:]:
            s.produced = union(s.produced, o.produced)
            for k, v in o.producers.items():
                s.producers.setdefault(k, []).extend(x for x in v if x not in s.producers[k])
            for k, v in o.activated.items():
                s.activated.setdefault(k, v)
            for k, v in o.visited.items():
                s.visited.setdefault(k, v)
            s.last |= o.last
            s.road_seen = s.road_seen or o.road_seen
            if o.prev_unit is not None and s.prev_unit is None:
                s.prev_unit = o.prev_unit
        return s


def _signature(s: Summary) -> tuple:
    return (s.gains, tuple(sorted(s.events)), len(s.moves), s.activates, len(s.needs))


def _res_words(res) -> tuple[str, str]:
    """("cloth", "cloth"), ("food or wood", "food or wood"), ("any of a, b, c, d, e", "any of them")."""
    names = sorted(res)
    if len(names) <= 3:
        words = " or ".join(names)
        return words, words
    return "any of " + ", ".join(names), "any of them"


def _name(key) -> str:
    return "%s '%s'" % (key[0], key[1])


def _space_words(t: str) -> str:
    return "the road's buildings" if t == ROADSYM else "'%s'" % t


def _cap(s: str) -> str:
    return s[:1].upper() + s[1:]


_cache: list = [None, None]


def analysis(f: Facts) -> Analysis:
    if _cache[0] is not f:
        _cache[0], _cache[1] = f, Analysis(f)
    return _cache[1]


def check_activation(ruleset) -> list[Diagnostic]:
    """Activation order and dependencies within a phase (G501, G506, G601, G602), and spaces
    never activated (G604)."""
    f = facts(ruleset)
    return list(analysis(f).diags) + _never_activated(f)


def _never_activated(f: Facts) -> list[Diagnostic]:
    """G604: a placeable space with work that no `activate` anywhere names: a worker placed there
    never works (and never comes home unless a rule sends it).  `activate` names its spaces, so
    the set is exact; the Caylus castle has no work and is scored by its own step."""
    from .reach import _all_ops
    named = {space for body in f.bodies.values() for op in _all_ops(body.ops) if op.kind == "activate"
             for space, _ in op.spaces}
    out = []
    for name in f.placeable:
        d = f.spaces[name]
        if d.get("work") and name not in named:
            i = f.decl_index[id(d)]
            line, col = pos_of(d)[:2]
            out.append(Diagnostic(f.path(i), line, col, "warning", "G604",
                                  "space '%s' takes workers and has work, but nothing activates it: a worker placed "
                                  "there never works (add it to an `activate`, or make it `placeable no`)" % name))
    return out
