"""Range checks (R3xx): numbers that are out of range for what they count."""
from __future__ import annotations

from .. import primitives as P
from ..diagnostics import Diagnostic, did_you_mean, explain, register
from .model import model

register("R301", "error", "player count out of range")
register("R302", "error", "counter start outside its min..max")
register("R303", "error", "number below the least value it may take")
register("R304", "error", "number too large")
register("R305", "error", "road position beyond the road")
register("R306", "error", "table range runs backwards")
register("R307", "error", "table entries overlap")
register("R308", "error", "a table key that names nothing, close to a name it may mean")
explain("R301", """
`players LO..HI` gives the player counts the game is played with: 1 to 8, the least first.
`provost play --players N` and the other commands refuse a count outside the range, so with the
least above the most no count at all could be played, and a count of 0 or beyond 8 is a slip.

    game g:
        players 0..9       # error: players 0..9: a game has 1 to 8 players

Fix: the counts the rulebook gives, least first (`players 2..5`).""")
explain("R302", """
A counter starts at `start` (0 when not given) and is kept within `min..max` (`min` is 0 when
not given): every `set` brings it back inside.  The first value is not brought inside, so a
start outside the range is a value the rules say the counter never has, until the first `set`
moves it.  A `min` above `max` leaves no value at all, and every `set` would give `max`.

    counter workers per player start 6 max 5    # error: counter 'workers' starts at 6, outside 0..5

Fix: a start within the range (`start 5 max 5`), or the range the rules mean (`start 6 max 6`);
with a `min` above 0, give the counter a `start` too.""")
explain("R303", """
Some numbers have a least value: a building's `prestige`, `income` and `count`, a cost, the
amount of a `gain`, `pay` or `lose` and a piece's value are never negative; a building's road space (`at`), a space's `slots` and
`per_player`, a track's length and `max_rounds` are at least 1.  Below that they mean nothing in
play: a negative cost would pay the builder, a space with 0 slots could never take a worker (a
space without a limit says `slots unlimited`), a track of 0 spaces has nowhere to move.

    category c
    building hut "Hut" c:
        cost -1 pp         # error: a cost of -1 pp; costs are not negative

Fix: the number the rulebook gives (`cost 1 pp`); a gain on building belongs in
`on_build: gain 1 pp`.

A negative amount does not turn a gain into a loss: the engine keeps a resource within its
least value, so `gain -5 denier` plays as a smaller loss or as nothing, and `pay -2 denier`
would pay the player.  The same holds for a let read as an amount, by name or by key (`gain
start_money[position(turn_order, player)] denier`): its negative values are reported where the
let writes them (a variant's `replace let`, or `provost sweep --set start_money=-5`), with the
line that makes them amounts.

    phase p:
        each player in players():
            gain -5 denier     # error: 'gain -5 denier': an amount is never negative; write 'lose 5 denier'

Fix: the statement that says it (`lose 5 denier`, `gain 2 denier`); a let read as an amount
holds numbers of 0 or more.  A let of steps up and down (`[2, 1, -1, -2]`) is for `set`.""")
explain("R304", """
No board game counts beyond a million, so a number larger than 1,000,000 anywhere in the
rules is a slip (digits too many, a pasted value); some of them would also size what the engine
builds, as a track's length or a building's count do.

    phase p:
        gain 5000000 pp    # error: 5000000 is too large; numbers stay within 1,000,000

Fix: the number meant (`gain 5 pp`).""")
explain("R305", """
A building with `at N` starts the game on the road, the first `track` declared, at space N.
With no track, or a track shorter than N, there is no such space to put it on, and the game
could not start.

    track road 10
    category c
    building hut "Hut" c:
        at 11              # error: building 'hut' is at space 11 of track 'road', which has 10 spaces

Fix: a space on the road (`at 10`), or a longer road (`track road 11`); declare the road's
`track` first when there is none.""")
explain("R306", """
A table key `LO..HI` covers the numbers from LO up to HI.  With LO above HI it covers none, so
its entry is never run, and a lookup of a number the rules meant it for stops the game with
"table 't' has no entry".

    table t:
        5..2: gain 1 pp    # error: the range 5..2 runs backwards; write 2..5

Fix: the least first (`2..5:`).""")
explain("R307", """
A lookup runs the first entry whose key matches, so where two entries cover one number (or
one name is given twice), the later is never run for it: the rules would read as if it applied,
and play would never show it.

    table t:
        0..2: nothing
        2: gain 1 pp       # error: 2 overlaps 0..2 (line 5)

Fix: keys that do not overlap (`0..1: nothing` and `2: gain 1 pp`), or one entry for a name
given twice.""")
explain("R308", """
A named key is looked up by a value a rule computes, an enum value or another declared name.
A key that names nothing declared can never be found, so its entry never runs, and a lookup of
the name it was meant to be stops the game with "table 'scoring' has no entry for 'dungeon'".
Reported when the key is close to a name it may mean: the other keys' enum's values, or else
every declared name.

    enum sections dungeon, walls, towers
    table scoring:
        dungeon_typo:      # error: table key 'dungeon_typo' names nothing declared; did you mean 'dungeon'?
            0: nothing

Fix: the declared name (`dungeon:`), or declare the name the key means.""")

MAX_PLAYERS = 8
ABSURD = 1_000_000
"""Numbers beyond this are mistakes in any board game (and would make the engine allocate)."""

# Attribute -> the least value it may take (None: no least value, only the absurd-number check).
ATTRIBUTE_MINIMUM = {
    "building": {"prestige": 0, "income": 0, "count": 0, "at": 1},
    "space": {"slots": 1, "per_player": 1},
    "track": {"length": 1},
    "game": {"max_rounds": 1},
    "counter": {"start": None, "min": None, "max": None},
}


def _number(d: dict, key: str):
    v = d.get(key)
    return v if type(v) is int else None


def check_players(ruleset) -> list[Diagnostic]:
    """`players A..B`: 1 <= A <= B <= 8."""
    sym = model(ruleset).sym
    out = []
    for i, d in enumerate(sym.decls):
        if d.get("kind") != "game" or not isinstance(d.get("players"), list) or len(d["players"]) != 2:
            continue
        lo, hi = d["players"]
        if not (type(lo) is int and type(hi) is int):
            continue
        if lo > hi:
            out.append(sym.diag(i, sym.at(d, "players"), "R301", "players %d..%d: the least is more than the most" % (lo, hi)))
        elif lo < 1 or hi > MAX_PLAYERS:
            out.append(sym.diag(i, sym.at(d, "players"), "R301", "players %d..%d: a game has 1 to %d players" % (lo, hi, MAX_PLAYERS)))
    return out


def check_counters(ruleset) -> list[Diagnostic]:
    """A counter's start lies within min..max (and min <= max)."""
    sym = model(ruleset).sym
    out = []
    for i, d in enumerate(sym.decls):
        if d.get("kind") != "counter":
            continue
        start, lo, hi = _number(d, "start"), _number(d, "min"), _number(d, "max")
        if lo is not None and hi is not None and lo > hi:
            out.append(sym.diag(i, sym.at(d, "min"), "R302", "counter '%s' has min %d above max %d" % (d.get("name"), lo, hi)))
        elif start is not None and ((lo is not None and start < lo) or (hi is not None and start > hi)):
            out.append(sym.diag(i, sym.at(d, "start"), "R302", "counter '%s' starts at %d, outside %s..%s" % (
                d.get("name"), start, lo if lo is not None else "", hi if hi is not None else "")))
    return out


def check_numbers(ruleset) -> list[Diagnostic]:
    """No negative counts, costs or lengths; no absurd numbers anywhere."""
    m = model(ruleset)
    sym = m.sym
    out = []
    for i, d in enumerate(sym.decls):
        kind = d.get("kind")
        for key, least in ATTRIBUTE_MINIMUM.get(kind, {}).items():
            v = _number(d, key)     # None for a word: 'unlimited' slots or count
            if v is None:
                continue
            if abs(v) > ABSURD:
                out.append(sym.diag(i, sym.at(d, key), "R304", "%s of %s '%s' is %d; numbers stay within %s"
                                    % (key, kind, d.get("name"), v, f"{ABSURD:,}")))
            elif least is not None and v < least:
                out.append(sym.diag(i, sym.at(d, key), "R303", "%s of %s '%s' is %d; it must be at least %d"
                                    % (key, kind, d.get("name"), v, least)))
        if kind == "pieces":
            for v in d.get("values") or []:
                if type(v) is int and (v < 0 or v > ABSURD):
                    out.append(sym.diag(i, sym.at(d, "values"), "R303" if v < 0 else "R304", "pieces '%s' have value %d" % (d.get("name"), v)))
    for a, _, i, where in m.uses.amounts:
        n = a["n"]
        if where == "cost" and n.get("e") == "int" and n["v"] < 0:
            out.append(sym.diag(i, n, "R303", "a cost of %d %s; costs are not negative" % (n["v"], a["what"])))
    _negative_amounts(m, out)
    for e, i in m.uses.ints:
        if abs(e["v"]) > ABSURD:
            out.append(sym.diag(i, e, "R304", "%s is too large; numbers stay within %s"
                                % (_short(e["v"]), f"{ABSURD:,}")))
    return out


AMOUNT_EFFECTS = frozenset(name for name, sig in P.EFFECTS.items() if "amount" in sig.arg_kinds)
"""`gain`, `pay`, `lose`: the statements whose amounts are counts of what changes hands."""
_OPPOSITE = {"gain": "lose", "lose": "gain", "pay": "gain"}


def _amounts_given(m):
    """(statement, amount, scope, i) for every amount given to `gain`, `pay` or `lose`."""
    for st, scope, i in m.uses.calls:
        if st.get("name") in AMOUNT_EFFECTS:
            for a in list(st["args"]) + list(st["kw"].values()):
                if a.get("e") == "amount":
                    yield st, a, scope, i


def _negative_amounts(m, out: list) -> None:
    """A negative amount of gain/pay/lose, written out or held by the let the amount reads.

    The engine keeps a resource within its least value, so a negative gain plays as a smaller
    loss or not at all: never what the writer meant.  A let is reported at each negative value it
    holds, once, naming the first statement that reads it as an amount; lets read otherwise
    (steps for `set`) may hold what they like."""
    sym = m.sym
    reported: set[str] = set()
    for st, a, scope, i in _amounts_given(m):
        n, verb = a["n"], st["name"]
        if n.get("e") == "int":
            if n["v"] < 0:
                fix = _OPPOSITE.get(verb)
                out.append(sym.diag(i, n, "R303", "'%s %d %s': an amount is never negative%s" % (
                    verb, n["v"], a["what"], "; write '%s %d %s'" % (fix, -n["v"], a["what"]) if fix else "")))
            continue
        name = _let_read(n, scope)
        if name is None or name in reported:
            continue
        found = [j for kind, j in sym.by_name.get(name, ()) if kind == "let"]
        if not found or sym.decls[found[0]].get("params") is not None:
            continue
        reported.add(name)
        j = found[0]
        negatives = [v for v in _literal_ints(sym.decls[j].get("value")) if v["v"] < 0]
        if not negatives:
            continue
        use = sym.diag(i, n, "R303", "")
        where = "line %d" % use.line if use.path == sym.diag(j, negatives[0], "R303", "").path \
            else "%s:%d" % (use.path, use.line)
        for v in negatives:
            out.append(sym.diag(j, v, "R303", "let '%s' holds %d, and is the amount of '%s ... %s' at %s: "
                                "an amount is never negative" % (name, v["v"], verb, a["what"], where)))


def _let_read(n: dict, scope) -> str | None:
    """The global let an amount reads, by name (`bonus`) or by key (`start_money[k]`, `t[a][b]`)."""
    while n.get("e") == "index":
        n = n["x"]
    if n.get("e") == "name" and n["id"] not in scope:
        return n["id"]
    return None


def _literal_ints(v) -> list[dict]:
    """The whole numbers a let's value writes out, in its lists and dictionaries too."""
    if not isinstance(v, dict):
        return []
    kind = v.get("e")
    if kind == "int":
        return [v]
    if kind == "list":
        return [x for item in v["items"] for x in _literal_ints(item)]
    if kind == "dict":
        return [x for _, item in v["items"] for x in _literal_ints(item)]
    return []


def _short(v: int) -> str:
    text = str(v)
    return text if len(text) <= 20 else "%s... (%d digits)" % (text[:12], len(text))


def check_road_positions(ruleset) -> list[Diagnostic]:
    """A building's `at` lies on the road (the first track)."""
    sym = model(ruleset).sym
    tracks = [d for d in sym.decls if d.get("kind") == "track"]
    road = tracks[0] if tracks else None
    length = road.get("length") if road else None
    out = []
    for i, d in enumerate(sym.decls):
        at = _number(d, "at") if d.get("kind") == "building" else None
        if at is None or at < 1 or at > ABSURD:
            continue   # check_numbers
        if road is None:
            out.append(sym.diag(i, sym.at(d, "at"), "R305", "building '%s' is at road space %d, but no track is declared"
                                % (d.get("name"), at)))
        elif type(length) is int and at > length:
            out.append(sym.diag(i, sym.at(d, "at"), "R305", "building '%s' is at space %d of track '%s', which has %d spaces"
                                % (d.get("name"), at, road.get("name"), length)))
    return out


def check_tables(ruleset) -> list[Diagnostic]:
    """Table entries: ranges run forwards, no number or name is covered twice."""
    sym = model(ruleset).sym
    out = []
    for i, d in enumerate(sym.decls):
        if d.get("kind") == "table":
            _entries(d.get("entries") or [], i, sym, out)
    return out


def _misspelt_keys(entries: list, i: int, sym, out: list) -> None:
    """A named key that names nothing declared, close to a name it may mean, is a slip: no value
    a rule computes can find its entry (`dungeon_typo:` among `walls:` and `towers:`).  The names
    looked at are those of the enums the other keys belong to, else every name."""
    named = [e for e in entries if isinstance(e.get("key"), str)]
    keys = {e["key"] for e in named}
    enums = {sym.enum_of_value[k] for k in keys if k in sym.enum_of_value}
    members = [v for d in sym.decls if d.get("kind") == "enum" and d.get("name") in enums
               for v in d.get("values") or [] if v not in keys]
    for e in named:
        key = e["key"]
        if sym.is_defined(key):
            continue
        hint = did_you_mean(key, members if enums else sorted(sym.all_names()))
        if hint:
            out.append(sym.diag(i, e, "R308", "table key '%s' names nothing declared%s" % (key, hint)))


def _entries(entries: list, i: int, sym, out: list) -> None:
    _misspelt_keys(entries, i, sym, out)
    ranges, keys = [], {}
    for e in entries:
        if "entries" in e:
            _entries(e["entries"], i, sym, out)
        if "key" in e:
            if e["key"] in keys:
                out.append(sym.diag(i, e, "R307", "entry '%s' is given twice (first at line %s)"
                                    % (e["key"], keys[e["key"]].get("pos", ["?"])[0])))
            keys.setdefault(e["key"], e)
            continue
        lo, hi = e.get("from"), e.get("to")
        if type(lo) is not int:
            continue
        for v in (lo, hi):
            if type(v) is int and abs(v) > ABSURD:
                out.append(sym.diag(i, e, "R304", "table key %s is too large" % _short(v)))
        if type(hi) is int and hi < lo:
            out.append(sym.diag(i, e, "R306", "the range %d..%d runs backwards; write %d..%d" % (lo, hi, hi, lo)))
            continue
        top = hi if type(hi) is int else None
        for lo0, top0, e0 in ranges:
            if (top0 is None or lo <= top0) and (top is None or lo0 <= top):
                out.append(sym.diag(i, e, "R307", "%s overlaps %s (line %s)" % (
                    _key(lo, hi), _key(lo0, top0 if top0 is not None else None, open_=top0 is None),
                    e0.get("pos", ["?"])[0])))
                break
        ranges.append((lo, top, e))


def _key(lo, hi, open_=None) -> str:
    if hi is None:
        return "%d.." % lo
    return str(lo) if lo == hi else "%d..%d" % (lo, hi)
