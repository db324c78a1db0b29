"""The road: slots, what fills them, the tokens that walk it and the triggers that score on it.

The activation track is the first `track` declaration (the one `activate_road` walks, as in the
interpreter).  Slots are filled before play by `at` (fixed buildings), `deal_tiles CAT, LO..HI`
and `place_tile KIND, SLOT` in `setup`; during play `build_tile CAT` puts a tile on the first
free slot (unless the category is `built_on` another one), and `transform_tile`, `build_on` and
`flip_tile` (a building's `other_side`) replace a tile where it stands.

Road tokens (the Caylus provost and bailiff) are global counters without `by` that bound
`activate_road` (`activate_road 1..provost`), and the global counters moved with `set X += ...`
that are compared with, or assigned from, a road token (`provost > bailiff`, `set provost =
bailiff`).  Scoring triggers are the lets (a number, or a list or dict of numbers) compared with a
road token (`bailiff >= section_trigger[s]`): they are road positions in scoring order.
"""
from __future__ import annotations

from ..diagnostics import Diagnostic, explain, register
from .model import ROADSYM, TOP, Facts, facts, pos_of

register("G501", "error", "the activation order is not one simple path: a space or the road is activated twice in a round")
register("G502", "error", "two tiles are put on one road slot before play")
register("G503", "error", "a road position outside the track")
register("G504", "warning", "the road activation does not start at the first slot")
register("G505", "error", "a fixed building the road activation can never reach")
register("G506", "warning", "a special space activated after the road (not before the bridge)")
register("G507", "error", "a scoring trigger off the road")
register("G508", "error", "scoring triggers not in increasing road order")
register("G509", "error", "a road token whose bounds do not fit the road")
register("G510", "warning", "a road token that can stand beyond the last slot")
register("G511", "error", "building onto the first free slot never has a free slot")
register("G512", "warning", "the road can fill up and nothing says what happens then")
register("G513", "error", "the road is used but no track is declared")
explain("G501", """
A round activates each space, and the road, once, in one order: a worker works when its space
is activated and then comes home.  A second activation of the same space in the round finds
only the workers moved there since the first, so it is almost always a space named in two
`activate` calls, or two phases of `rounds` doing the same work.  The message prints the round's
activation order from the space back to itself.

    game g "G":
        rounds early, place, specials, activation
    phase early:
        activate post
    phase specials:
        activate gate, post    # error: space 'post' is activated again (first at line 36): the
                               # activation order is not one simple path (post -> gate -> post)

Fix: activate each space and the road once per round: remove one of the two activations (here
`phase early`, and `early` from `rounds`).""")
explain("G502", """
Two tiles are put on the same road slot before play: two fixed buildings with the same `at`, a
fixed building inside the range of a `deal_tiles`, or a `place_tile` on a slot already filled.
The road holds one tile per slot, so one of the two is not on the road when play starts: a later
`at` or `place_tile` replaces the tile there, and `deal_tiles` skips a filled slot.

    building mill "Mill" plain:
        at 1
    building shop "Shop" plain:    # error: two tiles on slot 1 before play: building 'shop' (at 1),
        at 1                       # and building 'mill' (at 1) (line 22)

Fix: give each tile its own slot (`at 2` for the shop), or deal onto a range that leaves the
fixed buildings out.""")
explain("G503", """
A road position outside the track (slots `1..N` of `track road N`): `deal_tiles` onto slots
beyond it, `place_tile` on slot 0 or beyond it, or `activate_road` past the last slot.  In play
the tiles meant for those slots are not dealt (they stay in the supply), `place_tile` stops the
game with a rule error, and the road activation ends at the last slot whatever the range says.
(`at` beyond the track is R305.)

    track road 8
    setup:
        shuffle turn_order
        place_tile mill, 9    # error: a tile is placed on slot 9, but track 'road' has slots 1..8

Fix: use a slot of the track (`place_tile mill, 8`), or lengthen it (`track road 9`).""")
explain("G504", """
`activate_road LO..HI` activates the road from slot LO, so with LO above 1 the first slots are
never activated: the buildings there never work, and a worker placed on one is left out of the
activation.  A road is activated from its first slot; a range starting later is usually a
typing slip or a bound meant for another token.

    building mill "Mill" plain:
        at 3
    phase activation:
        activate_road 3..provost    # warning: the road activation starts at slot 3: slots 1..2
                                    # are never activated

Fix: start at the first slot (`activate_road 1..provost`).""")
explain("G505", """
A fixed building (`at N`) stands where the road activation never gets: beyond the furthest slot
it can reach (its literal bound, or the `max` of the road token that bounds it, as the provost
bounds the Caylus road) or before the slot it starts at.  A worker placed on that building never
works there, and it comes home unused.

    counter provost global start 4 min 0 max 5
    building shop "Shop" plain:    # error: building 'shop' is at slot 7, but the road activation
        at 7                       # reaches slot 5 at most: it is never activated
    phase activation:
        activate_road 1..provost

Fix: put the building within reach (`at 5`), or let the token go further (`max 8`).""")
explain("G506", """
A space activated after the road.  In the games this checks for (Caylus and its kin), the
special spaces work before the road -- "before the bridge" -- so that what they give can be
spent on the road in the same round and the workers they move onto the road are there when it
is activated.  What a space activated after the road gives comes too late for the road in that
round, and a worker it sends to a road building arrives after the building worked (G601).

    phase specials:
        activate gate
    phase activation:
        activate_road 1..provost
        activate post    # warning: space 'post' is activated after the road (activate_road at
                         # line 45): special buildings come before the bridge

Fix: activate the space before the road (`activate gate, post` in phase `specials`); if the
rules mean it to come after, say so in a comment above it.""")
explain("G507", """
A scoring trigger (a number, or a list or dict of numbers, compared with a road token such as
the bailiff) lies off the track.  A token meets it only by standing beyond the last slot, which
its bounds usually forbid (here the bailiff's `max 8`), so the scoring it guards never happens,
or happens later than the rules say.

    track road 8
    counter bailiff global start 1 min 0 max 8
    let scoring_at = {low: 4, high: 12}    # error: scoring trigger 'scoring_at' for high is at
                                           # 12, off track 'road' (slots 1..8)
    if bailiff >= scoring_at[s]:

Fix: put the trigger on a slot of the track (`{low: 4, high: 8}`), or lengthen the track.""")
explain("G508", """
Scoring triggers, in the order of their enum, keys or list, must lie further and further along
the road.  A road token moves forward, so a later trigger placed before an earlier one is
reached first: the scorings happen out of order, or two at once.

    enum sections low, high
    let scoring_at = {low: 6, high: 3}    # error: scoring trigger 'scoring_at' for high is at 3,
                                          # not after low at 6: triggers must increase along the road
    if bailiff >= scoring_at[s]:

Fix: order the positions along the road (`{low: 3, high: 6}`), or the enum's values as the
scorings come (`enum sections high, low`).""")
explain("G509", """
A road token (a global counter that bounds `activate_road`, as the provost does, or one that
moves along the road with it, as the bailiff does) whose bounds do not fit the track: it starts
beyond the last slot, its `min` lies beyond it, or its `min` is below 0.  A token that starts
beyond the road stands on no slot until it comes back onto it (the provost then has the whole
road activated); one whose `min` lies beyond never stands on a slot at all.  (`start` outside
`min..max` is R302.)

    track road 8
    counter provost global start 10 min 0 max 12    # error: road token 'provost' starts at 10,
                                                    # beyond track 'road' (8 slots)
    activate_road 1..provost

Fix: start the token on a slot of the track (`start 4`), and keep `min` on it too.""")
explain("G510", """
A road token (a global counter that bounds `activate_road`, as the provost does, or one that
moves along the road with it, as the bailiff does) whose `max` lies beyond the track's last
slot, or that has no `max`, can stand where there is no slot: the positions past the end
activate nothing, so moving the token there does no more than moving it to the last slot.

    track road 8
    counter provost global start 4 min 0 max 10    # warning: road token 'provost' can reach 10,
                                                   # beyond the last slot (8) of track 'road'

Fix: bound the token by the track (`max 8`), or keep it and say in a comment why the positions
beyond the road exist (Caylus 1303: two provost-only end spaces).""")
explain("G511", """
`build_tile CAT` puts the tile on the first free road slot (unless the category is `built_on`
another one), but every slot is filled before play, by `at`, `deal_tiles` or `place_tile`.  With
no free slot the engine offers no tile to build, so the build never happens and the category's
tiles never reach the road.

    track road 2
    building mill "Mill" plain:
        at 1
    building shop "Shop" plain:
        at 2
    space post "Trading post":
        work: build_tile wooden    # error: tiles of category 'wooden' go onto the first free
                                   # slot, but every slot of track 'road' is filled before play

Fix: lengthen the track (`track road 6` leaves four slots for the four huts), or fill fewer
slots before play.""")
explain("G512", """
More tiles can be built onto the first free slot than there are free slots after setup, and no
rule says what happens when the road is full: the engine then offers no build, so the space
that builds silently does nothing, and a worker placed there to build gets nothing.  The demand
is the tiles of the categories built this way (`count`, or no bound for `unlimited`) less those
dealt or taken out of the supply in setup.

    track road 4
    building hut "Hut" wooden:
        count 4
    space post "Trading post":
        work: build_tile wooden    # warning: up to 4 tiles of category 'wooden' can be built onto
                                   # the first free slot, but only 2 slots of track 'road' are free

Fix: say what happens when the road is full, with a condition on the road around the build
(`if road_at(4) == none:` before `build_tile wooden`), or lengthen the track (`track road 6`).""")
explain("G513", """
A rule uses the road (`activate_road`, `deal_tiles`, `place_tile`, or `build_tile` onto the
first free slot) but the file declares no track.  The road is the first `track` declaration;
without one it has no slots, so the road activation finds nothing, no tile can be dealt or
built, and `place_tile` stops the game with a rule error.

    phase activation:
        activate_road 1..8    # error: 'activate_road' uses the road, but no track is declared
                              # (declare one, e.g. 'track road 20')

Fix: declare the road before using it (`track road 8`).""")

UNLIMITED = -1
MAX_PASSES = 24


class Road:
    """Slots, ranges, tokens and triggers of the first track, inferred once per ruleset."""

    def __init__(self, f: Facts):
        self.f = f
        self.length = f.road_length
        L = self.length
        self.prefill: list = []          # (lo, hi, what, pos, i, source)
        self.filled: set = set()
        self.ranges: dict[str, tuple] = {}
        # ---- fixed buildings
        for name, d in f.buildings.items():
            at = d.get("at")
            if type(at) is int:
                i = f.decl_index[id(d)]
                self.prefill.append((at, at, "building '%s' (at %d)" % (name, at), pos_of(d, "at"), i, "at"))
                self._widen(name, at, at)
        # ---- dealt tiles (setup): the first k slots of the range, k = the tiles of the category
        self.dealt: dict[str, int] = {}
        for cats, rng, pos, i in f.deals:
            cats = f.resolve(cats)
            kinds = self._kinds_of_categories(cats)
            total = sum(self._count(k) for k in kinds) if kinds is not None else None
            if rng is None:
                for k in kinds or []:
                    self._widen(k, 1, L)
                continue
            lo, hi = rng
            n = hi - lo + 1 if total is None or total < 0 else min(hi - lo + 1, total)
            if n > 0:
                words = "the %s tiles dealt onto %d..%d" % ("/".join(sorted(c for c in cats if type(c) is str)), lo, hi)
                self.prefill.append((lo, lo + n - 1, words, pos, i, "deal"))
            for c in cats:
                if type(c) is str:
                    self.dealt[c] = self.dealt.get(c, 0) + max(0, n)
            for k in kinds or []:
                self._widen(k, lo, max(lo, lo + n - 1))
        # ---- tiles placed on known slots in setup
        for kinds, rng, pos, i, in_setup, times in f.places:
            kinds = f.resolve(kinds)
            names = [k for k in kinds if k in f.buildings] if TOP not in kinds else []
            if rng is None:
                for k in names:
                    self._widen(k, 1, L)
                continue
            lo, hi = rng
            if in_setup:
                self.prefill.append((lo, hi, "a tile placed on %s" % (str(lo) if lo == hi else "%d..%d" % (lo, hi)),
                                     pos, i, "place"))
            for k in names:
                self._widen(k, lo, hi)
        for lo, hi, *_ in self.prefill:
            if L is not None:
                self.filled.update(range(max(1, lo), min(L, hi) + 1))
        self.first_free = None
        if L is not None:
            self.first_free = next((s for s in range(1, L + 1) if s not in self.filled), None)
        self.free_count = (L - len(self.filled)) if L is not None else None
        # ---- built during play, and replacements in place (a small fixpoint: ranges only widen)
        self.first_free_categories: set = set()
        for cats, guarded, pos, i, key, prim in f.builds:
            if prim == "build_tile":
                for c in self._categories(cats):
                    if not (f.categories.get(c) or {}).get("built_on"):
                        self.first_free_categories.add(c)
        for _ in range(MAX_PASSES):
            before = dict(self.ranges)
            for c in self.first_free_categories:
                for k in f.buildings_of.get(c, []):
                    self._widen(k, self.first_free or 1, L)
            for c, d in f.categories.items():
                onto = d.get("built_on")
                if onto:
                    span = self._span_of_category(onto)
                    if span:
                        for k in f.buildings_of.get(c, []):
                            self._widen(k, *span)
            for targets, kind, cats, pos, i in f.transforms:
                span = self._span_of(f.resolve(targets))
                if span:
                    kinds = [kind] if kind else [k for c in self._categories(cats) for k in f.buildings_of.get(c, [])]
                    for k in kinds:
                        if k in f.buildings:
                            self._widen(k, *span)
            for name, d in f.buildings.items():
                other = d.get("other_side")
                if other in f.buildings and name in self.ranges:
                    self._widen(other, *self.ranges[name])
            if before == self.ranges:
                break
        self._tokens()
        self._triggers()

    # ---------------------------------------------------------------- helpers
    def _count(self, kind: str) -> int:
        c = self.f.buildings[kind].get("count")
        return c if type(c) is int else 1

    def _widen(self, kind: str, lo, hi) -> None:
        if lo is None:
            lo = 1
        if hi is None:
            hi = self.length if self.length is not None else lo
        old = self.ranges.get(kind)
        self.ranges[kind] = (lo, hi) if old is None else (min(old[0], lo), max(old[1], hi))

    def _categories(self, cats) -> list:
        cats = self.f.resolve(cats)
        if TOP in cats:
            return list(self.f.categories)
        return [c for c in cats if c in self.f.categories]

    def _kinds_of_categories(self, cats):
        if TOP in cats:
            return None
        return [k for c in cats if type(c) is str for k in self.f.buildings_of.get(c, [])]

    def _span_of_category(self, cat: str):
        spans = [self.ranges[k] for k in self.f.buildings_of.get(cat, []) if k in self.ranges]
        return (min(s[0] for s in spans), max(s[1] for s in spans)) if spans else None

    def _span_of(self, targets):
        if TOP in targets or ROADSYM in targets:
            return (1, self.length) if self.length is not None else None
        spans = [self.ranges[k] for k in targets if k in self.ranges]
        return (min(s[0] for s in spans), max(s[1] for s in spans)) if spans else None

    def on_road(self) -> list[str]:
        """Buildings that may stand on the road, in source order."""
        return [n for n in self.f.buildings if n in self.ranges]

    # ---------------------------------------------------------------- tokens and triggers
    def _tokens(self) -> None:
        f = self.f
        scalar = {n for n, d in f.counters.items() if d.get("scope") == "global" and not d.get("by")}
        self.tokens: dict[str, tuple] = {}          # counter -> (pos, i) of what made it a token
        for arg, pos, i, key in f.road_calls:
            for n in _bare_names(arg):
                if n in scalar:
                    self.tokens.setdefault(n, (pos, i))
        moved = {n for n in scalar if any(op in ("+=", "-=") for op, *_ in f.sets.get(n, []))}
        links: list = []
        for left, op, right, pos, i in f.compares:
            a, b = _bare(left), _bare(right)
            if a and b:
                links.append((a, b))
        for n in scalar:
            for op, value, pos, i in f.sets.get(n, []):
                if op == "=" and _bare(value):
                    links.append((n, _bare(value)))
        changed = True
        while changed:
            changed = False
            for a, b in links:
                for x, y in ((a, b), (b, a)):
                    if x in self.tokens and y in moved and y not in self.tokens:
                        self.tokens[y] = self.tokens[x]
                        changed = True
        # The furthest slot the road activation may reach, and where it starts.
        self.reach = None
        self.start = None
        his, los = [], []
        for arg, pos, i, key in f.road_calls:
            lo_e, hi_e = (arg.get("lo"), arg.get("hi")) if isinstance(arg, dict) and arg.get("e") == "range" else (None, arg)
            lo = f.interval(lo_e) if lo_e is not None else (1, 1)
            los.append(lo[0] if lo else None)
            hi = f.interval(hi_e)
            if hi is not None:
                his.append(hi[1])
                continue
            names = [n for n in _bare_names(hi_e) if n in self.tokens]
            if len(names) == 1 and _bare(hi_e) == names[0] and type(f.counters[names[0]].get("max")) is int:
                his.append(f.counters[names[0]]["max"])
            else:
                his.append(None)
        if his and None not in his:
            self.reach = max(his)
        if los and None not in los:
            self.start = min(los)

    def _triggers(self) -> None:
        f = self.f
        self.triggers: dict[str, tuple] = {}       # let -> (items [(key, value, pos)], i, compare pos)
        for left, op, right, pos, i in f.compares:
            for a, b in ((left, right), (right, left)):
                if _bare(a) in self.tokens:
                    n = _let_base(b)
                    if n in f.lets and n not in self.triggers and not f.lets[n].get("params"):
                        items = _int_items(f.lets[n].get("value"), f)
                        if items:
                            self.triggers[n] = (items, f.decl_index[id(f.lets[n])], pos)


def _bare(e) -> str | None:
    return e.get("id") if isinstance(e, dict) and e.get("e") == "name" else None


def _bare_names(e) -> list:
    out, stack = [], [e]
    while stack:
        e = stack.pop()
        if not isinstance(e, dict):
            continue
        if e.get("e") == "name":
            out.append(e.get("id"))
        for key in ("left", "right", "x", "lo", "hi", "cond", "then", "else"):
            if isinstance(e.get(key), dict):
                stack.append(e[key])
    return out


def _let_base(e) -> str | None:
    """`section_trigger[s]` -> section_trigger; `walls_at` -> walls_at."""
    while isinstance(e, dict) and e.get("e") in ("index", "of"):
        e = e.get("x")
    return _bare(e)


def _int_items(v, f: Facts) -> list:
    """[(key, value, pos)] of a let holding a number, a list of numbers or a dict of numbers."""
    if not isinstance(v, dict):
        return []
    if v.get("e") == "int":
        return [(None, v.get("v"), pos_of(v))]
    if v.get("e") == "list":
        items = v.get("items") or []
        if items and all(isinstance(x, dict) and x.get("e") == "int" for x in items):
            return [(n, x.get("v"), pos_of(x)) for n, x in enumerate(items)]
        return []
    if v.get("e") == "dict":
        items = [it for it in v.get("items") or [] if isinstance(it, (list, tuple)) and len(it) == 2]
        if not items or not all(isinstance(x, dict) and x.get("e") == "int" for _, x in items):
            return []
        keys = [k for k, _ in items]
        enums = {f.value_of_enum.get(k) for k in keys}
        if len(enums) == 1 and None not in enums:
            order = {val: n for n, val in enumerate(f.enums[enums.pop()].get("values") or [])}
            items = sorted(items, key=lambda kv: order.get(kv[0], 0))
        elif all(type(k) is int for k in keys):
            items = sorted(items, key=lambda kv: kv[0])
        return [(k, x.get("v"), pos_of(x)) for k, x in items]
    return []


_road_cache: list = [None, None]


def road(f: Facts) -> Road:
    if _road_cache[0] is not f:
        _road_cache[0], _road_cache[1] = f, Road(f)
    return _road_cache[1]


# ==================================================================== the check
def check_road(ruleset) -> list[Diagnostic]:
    """Road ordering: slots, positions, tokens, triggers and the first free slot (G502-G505, G507-G513)."""
    f = facts(ruleset)
    out: list[Diagnostic] = []

    def diag(i, pos, code, msg):
        from ..diagnostics import CODES
        out.append(Diagnostic(f.path(i), pos[0], pos[1], CODES[code][0], code, msg))

    L = f.road_length
    if f.road is None:
        uses = [u for u in f.road_uses if u[2] in ("activate_road", "deal_tiles", "place_tile")]
        uses += [(pos, i, prim) for cats, g, pos, i, key, prim in f.builds if prim == "build_tile"
                 and any(not (f.categories.get(c) or {}).get("built_on") for c in _cats(f, cats))]
        if uses:
            pos, i, what = min(uses, key=lambda u: (u[1], u[0]))
            diag(i, pos, "G513", "'%s' uses the road, but no track is declared (declare one, e.g. 'track road 20')" % what)
        return out
    if L is None:
        return out
    r = road(f)
    track = f.road.get("name")

    # ---- G503: positions outside the track
    for cats, rng, pos, i in f.deals:
        if rng and (rng[0] < 1 or rng[1] > L):
            diag(i, pos, "G503", "tiles are dealt onto %d..%d, but track '%s' has slots 1..%d" % (rng[0], rng[1], track, L))
    for kinds, rng, pos, i, in_setup, times in f.places:
        if rng and (rng[0] < 1 or rng[1] > L):
            where = str(rng[0]) if rng[0] == rng[1] else "%d..%d" % rng
            diag(i, pos, "G503", "a tile is placed on slot %s, but track '%s' has slots 1..%d" % (where, track, L))
    for arg, pos, i, key in f.road_calls:
        if isinstance(arg, dict) and arg.get("e") == "range":
            lo, hi = f.interval(arg.get("lo")), f.interval(arg.get("hi"))
            if lo and lo[0] < 1:
                diag(i, pos_of(arg.get("lo")), "G503", "the road activation starts at slot %d; slots are numbered from 1" % lo[0])
            if hi and hi[1] > L:
                diag(i, pos_of(arg.get("hi")), "G503", "the road activation goes to slot %d, but track '%s' has %d slots"
                     % (hi[1], track, L))
    # ---- G502: two tiles on one slot before play (the later one in the file is reported)
    seen: dict[int, tuple] = {}
    for lo, hi, what, pos, i, source in sorted(r.prefill, key=lambda p: (p[4], p[3])):
        clash = None
        for s in range(max(1, lo), min(L, hi) + 1):
            if s in seen:
                clash = (s, seen[s])
                break
        if clash:
            s, (what0, pos0, i0) = clash
            diag(i, pos, "G502", "two tiles on slot %d before play: %s, and %s (%s)" % (s, what, what0, f.at(i0, pos0)))
            continue
        for s in range(max(1, lo), min(L, hi) + 1):
            seen[s] = (what, pos, i)
    # ---- G504 / G505: where the activation starts and how far it reaches
    if r.start is not None and r.start > 1:
        arg, pos, i, key = f.road_calls[0]
        diag(i, pos, "G504", "the road activation starts at slot %d: slots 1..%d are never activated" % (r.start, r.start - 1))
    for name, d in f.buildings.items():
        at = d.get("at")
        if type(at) is not int or at < 1 or at > L:
            continue     # R305 reports `at` beyond the road
        i = f.decl_index[id(d)]
        if r.start is not None and at < r.start:
            diag(i, pos_of(d, "at"), "G505", "building '%s' is at slot %d, before slot %d where the road activation starts: "
                 "it is never activated" % (name, at, r.start))
        elif r.reach is not None and at > r.reach and f.road_calls:
            diag(i, pos_of(d, "at"), "G505", "building '%s' is at slot %d, but the road activation reaches slot %d at most: "
                 "it is never activated" % (name, at, r.reach))
    # ---- G507 / G508: scoring triggers
    for let, (items, i, cpos) in r.triggers.items():
        prev = None
        for key, v, pos in items:
            label = "'%s'" % let if key is None else "'%s' for %s" % (let, key)
            if type(v) is not int:
                continue
            if v < 1 or v > L:
                diag(i, pos, "G507", "scoring trigger %s is at %d, off track '%s' (slots 1..%d)" % (label, v, track, L))
            elif prev is not None and v <= prev[1]:
                diag(i, pos, "G508", "scoring trigger %s is at %d, not after %s at %d: triggers must increase along the road"
                     % (label, v, prev[0] if prev[0] is not None else "the one before", prev[1]))
            prev = (key, v)
    # ---- G509 / G510: token bounds
    for name in sorted(r.tokens, key=lambda n: f.decl_index[id(f.counters[n])]):
        d = f.counters[name]
        i = f.decl_index[id(d)]
        lo, hi, start = d.get("min"), d.get("max"), d.get("start")
        lo = lo if type(lo) is int else 0
        if lo < 0:
            diag(i, pos_of(d, "min"), "G509", "road token '%s' can go down to %d, before the first slot (use min 0 or more)" % (name, lo))
        elif lo > L:
            diag(i, pos_of(d, "min"), "G509", "road token '%s' has min %d, beyond track '%s' (%d slots)" % (name, lo, track, L))
        elif type(start) is int and start > L:
            diag(i, pos_of(d, "start"), "G509", "road token '%s' starts at %d, beyond track '%s' (%d slots)" % (name, start, track, L))
        elif hi is None:
            diag(i, pos_of(d), "G510", "road token '%s' has no max: it can move beyond the last slot (%d) of track '%s'"
                 % (name, L, track))
        elif type(hi) is int and hi > L:
            diag(i, pos_of(d, "max"), "G510", "road token '%s' can reach %d, beyond the last slot (%d) of track '%s': "
                 "positions %d..%d activate nothing" % (name, hi, L, track, L + 1, hi))
    # ---- G511 / G512: building onto the first free slot
    first_free = [(cats, guarded, pos, i, key) for cats, guarded, pos, i, key, prim in f.builds
                  if prim == "build_tile" and any(c in r.first_free_categories for c in _cats(f, cats))]
    if first_free:
        demand, unlimited = _demand(f, r)
        free = r.free_count
        cats = sorted(r.first_free_categories)
        cats_words = ", ".join("'%s'" % c for c in cats)
        cats_words = ("category " if len(cats) == 1 else "categories ") + cats_words
        if free is not None and free <= 0 and (demand > 0 or unlimited):
            cats0, g, pos, i, key = min(first_free, key=lambda b: (b[3], b[2]))
            diag(i, pos, "G511", "tiles of %s go onto the first free slot, but every slot of track '%s' is filled before play"
                 % (cats_words, track))
        elif free is not None and (unlimited or demand > free):
            open_builds = [b for b in first_free if not _guarded(f, b)]
            if open_builds:
                cats0, g, pos, i, key = min(open_builds, key=lambda b: (b[3], b[2]))
                many = "any number of" if unlimited else "up to %d" % demand
                diag(i, pos, "G512", "%s tiles of %s can be built onto the first free slot, but only %d slots of track '%s' "
                     "are free after setup; when none is left the build silently does nothing -- add a rule for it "
                     "(a condition on road_at/road_tiles) or lengthen the track" % (many, cats_words, free, track))
    return out


def _cats(f: Facts, cats) -> list:
    cats = f.resolve(cats)
    return list(f.categories) if TOP in cats else [c for c in cats if c in f.categories]


def _demand(f: Facts, r: Road) -> tuple[int, bool]:
    """How many tiles can be built onto the first free slot: (finite part, unlimited?)."""
    supply: dict[str, int] = {}
    for c in r.first_free_categories:
        for k in f.buildings_of.get(c, []):
            supply[k] = f.buildings[k].get("count") if type(f.buildings[k].get("count")) is int else 1
    loose = 0
    for kind, value, times, pos, i in f.supplies:
        if kind is not None:
            if kind in supply and value is not None:
                supply[kind] = value
        elif value == 0 and times is not None:
            loose += times          # `set_supply X, 0` of a tile picked during setup
    unlimited = any(v == UNLIMITED or v < 0 for v in supply.values())
    total = sum(v for v in supply.values() if v > 0)
    for c in r.first_free_categories:
        total -= r.dealt.get(c, 0)
    return max(0, total - loose), unlimited


def _guarded(f: Facts, build) -> bool:
    cats, guarded, pos, i, key = build
    if guarded:
        return True
    if key and key[0] == "effect":
        sites = f.calls_of.get(key[1], [])
        return bool(sites) and all(g for g, _, _ in sites)
    return False


def _cap(s: str) -> str:
    return s[:1].upper() + s[1:]
