# cython: nonecheck=True, annotation_typing=True
# (compiled, the statements' functions type g as GameFields and read the state's fields in C;
# annotation_typing: the annotations below are the C types.  The rules' functions (`players()`...)
# leave g untyped: an expression may run with no game, and a read of the state then fails as it
# does as Python, with an AttributeError)
"""Zones: named lists of symbols (decks, hands, ports, supplies of cards or gems).

A zone is global, per player (``zone hand per player``) or keyed by an enum
(``zone port by neighborhoods``).  In expressions a zone's name is a copy of
its list (the acting player's for a per-player zone); effects name the zone
to change as their first argument: ``put x, port[n]``, ``take c, hand``.
"""
from __future__ import annotations

import math
import typing
from operator import itemgetter

from . import nodes as N
from . import rng
from .expressions import RuleRuntimeError
from .library import effect, function
from .runtime import MAX_KEPT, MAX_NUMBER, short_repr, too_large
from .state import GameFields, State


def zone_ref(compiler, arg, scope):
    """Compile a zone argument (``z``, ``z[key]``, ``z of p``) to a closure giving the live list,
    the state's own to change (a clone's zones are shared until changed)."""
    p = compiler.p
    who = None
    if arg["e"] == "of":
        who = compiler.ex.compile(arg["player"], scope)
        arg = arg["x"]
    key = None
    if arg["e"] == "index":
        key = compiler.ex.compile(arg["key"], scope)
        arg = arg["x"]
    if arg["e"] != "name" or arg["id"] not in p.zones:
        raise RuleRuntimeError("expected a zone", arg["pos"])
    name = arg["id"]
    z = p.zones[name]
    per_player = z["scope"] == "player"
    pos = arg["pos"]

    def ref(g: GameFields, env):
        s: State = g.s
        # every effect naming a zone changes it (a state never cloned owns all its zones)
        v = s.zones[name] if s.owned is None else s.own_zone(name)
        if per_player:
            v = v[who(g, env) if who is not None else env["player"]]
        if key is not None:
            k = key(g, env)
            try:
                v = v[k]
            except (KeyError, TypeError):
                raise RuleRuntimeError("zone '%s' has no part %s" % (name, short_repr(k)), pos)
        return v
    return ref


def _items(v):
    return v if type(v) is list else [v]


@effect("put")
def build_put(c, st, scope):
    items = c.ex.compile(st["args"][0], scope)
    dest = zone_ref(c, st["args"][1], scope)
    where = "zone '%s'" % st["args"][1]["id"] if st["args"][1].get("e") == "name" else "the zone"

    def put(g: GameFields, env):
        z = dest(g, env)
        new = _items(items(g, env))
        z.extend(new)
        if len(z) > MAX_KEPT:               # a zone put into itself in a loop
            raise too_large(z, where)
        for x in new:
            if type(x) is int and (x > MAX_NUMBER or x < -MAX_NUMBER):
                raise too_large(x, where)
    return c.p.add(N.Atom(put), st["pos"])


@effect("take")
def build_take(c, st, scope):
    items = c.ex.compile(st["args"][0], scope)
    src = zone_ref(c, st["args"][1], scope)
    pos = st["pos"]

    def take(g: GameFields, env):
        z = src(g, env)
        for x in _items(items(g, env)):
            if x not in z:
                raise RuleRuntimeError("%s is not there to take" % short_repr(x), pos)
            z.remove(x)
    return c.p.add(N.Atom(take), st["pos"])


@effect("move_top")
def build_move_top(c, st, scope):
    src = zone_ref(c, st["args"][0], scope)
    n = c.ex.compile(st["args"][1], scope)
    dest = zone_ref(c, st["args"][2], scope)

    def move_top(g: GameFields, env):
        z, d = src(g, env), dest(g, env)
        k = min(n(g, env), len(z))
        d.extend(z[:k])
        del z[:k]
    return c.p.add(N.Atom(move_top), st["pos"])


@effect("shuffle_zone")
def build_shuffle_zone(c, st, scope):
    z = zone_ref(c, st["args"][0], scope)

    def shuffle_zone(g: GameFields, env):
        g.s.rng = rng.shuffle(g.s.rng, z(g, env))
    return c.p.add(N.Atom(shuffle_zone), st["pos"])


@effect("clear_zone")
def build_clear_zone(c, st, scope):
    z = zone_ref(c, st["args"][0], scope)
    return c.p.add(N.Atom(lambda g, env: z(g, env).clear()), st["pos"])


@effect("swap_zones")
def build_swap_zones(c, st, scope):
    a = zone_ref(c, st["args"][0], scope)
    b = zone_ref(c, st["args"][1], scope)

    def swap(g: GameFields, env):
        x, y = a(g, env), b(g, env)
        x[:], y[:] = y[:], x[:]
    return c.p.add(N.Atom(swap), st["pos"])


@effect("set_order")
def build_set_order(c, st, scope):
    order = st["args"][0]["id"]
    value = c.ex.compile(st["args"][1], scope)
    pos = st["pos"]

    def set_order(g: GameFields, env):
        v = list(value(g, env))
        if sorted(v) != sorted(g.s.orders[order]) and g.s.orders[order]:
            raise RuleRuntimeError("set_order must rearrange the same players, got %s" % short_repr(v), pos)
        g.s.orders[order] = v
    return c.p.add(N.Atom(set_order), st["pos"])


# ------------------------------------------------------------------ list functions
#: A row's keys, ``row[1:]``: a getter in C rather than a function call per row.
_ROW_KEYS = itemgetter(slice(1, None))


@function("rank_by")
def build_rank_by(c, pos):
    """Rows ``[item, key1, key2, ...]`` -> items, best first: keys compared in order, larger wins."""
    def rank_by(g, player, rows):
        try:
            if len(rows) < 2:       # nothing to order (a place often holds 0 or 1 player)
                for r in rows:
                    _ROW_KEYS(r)    # the keys read as sorted reads them: a row that is not a list fails
                return [r[0] for r in rows]
            return [r[0] for r in sorted(rows, key=_ROW_KEYS, reverse=True)]
        except TypeError:
            raise RuleRuntimeError("rank_by needs rows [item, number, ...]", pos)
    return rank_by


@function("distinct")
def build_distinct(c, pos):
    def distinct(g, player, xs):
        out = []
        for x in xs:
            if x not in out:
                out.append(x)
        return out
    return distinct


@function("tagged")
def build_tagged(c, pos):
    by_tag: dict = {}
    for name, d in c.p.spaces.items():      # spaces never change during a game: index them once
        for t in d["tags"]:
            by_tag.setdefault(t, []).append(name)

    def tagged(g, player, tag):
        return by_tag.get(tag, [])
    return tagged


@function("has_tag")
def build_has_tag(c, pos):
    spaces = c.p.spaces

    def has_tag(g, player, x, tag):
        d = spaces.get(x)
        return d is not None and tag in d["tags"]
    return has_tag


@function("players")
def build_players(c, pos):
    """Every seat, neutral players (played by the rules) included."""
    return lambda g, player: list(range(g.s.players))


@function("is_neutral")
def build_is_neutral(c, pos):
    return _is_neutral


def _is_neutral(g: typing.Optional[GameFields], player, who):
    """``is_neutral``'s value (a module function: compiled, the state's field is read in C)."""
    return who is not None and who >= g.s.humans


# Beyond this many picks to go through, `combinations` is an error rather than a hang (a rule
# picking 5 of 20 goes through 15,504).
MAX_COMBINATIONS = 100_000


@function("combinations")
def build_combinations(c, pos):
    """The different ways to pick n items of a list (a multiset), each sorted: [1, 3, 3] -> [1, 3], [3, 3]."""
    from itertools import combinations

    def combos(g, player, xs, n):
        if type(n) is int and n >= 0 and len(xs) >= n and math.comb(len(xs), n) > MAX_COMBINATIONS:
            raise RuleRuntimeError("combinations of %d items taken %d at a time are more than %d to go through"
                                   % (len(xs), n, MAX_COMBINATIONS), pos)
        items = sorted(xs)
        if type(n) is int and n < 0:    # itertools' ValueError would be an internal error
            raise RuleRuntimeError("combinations needs a count of 0 or more, not %d" % n, pos)
        if type(n) is not int:
            combinations(items, n)      # not a count: the error itertools gives (a bool is its int)
            n = int(n)
        return _distinct_picks(items, n)
    return combos


def _distinct_picks(items, n):
    """The different picks of N of ITEMS (sorted), each a sorted list, in the order in which
    ``itertools.combinations(items, n)`` first finds each (their lexicographic order), without
    going through the repeats: Ys' bid picks 2 of some 12 brokers of 5 values, 66 combinations
    for about 15 picks.  Equal items are grouped, and a pick takes a group's first items first,
    as the first combination giving it does."""
    if n > len(items):
        return []
    groups = []
    for x in items:
        if groups and groups[-1][0] == x:
            groups[-1].append(x)
        else:
            groups.append([x])
    out = []
    _pick(groups, 0, n, [], [0] * len(groups), out)
    return out


def _pick(groups, start, left, pick, used, out):
    """Every way to end PICK with LEFT more items from groups START on (``used``: how many of
    each group PICK holds), in lexicographic order, into OUT."""
    if left == 0:
        out.append(pick[:])
        return
    if left == 1:               # the last item: a loop rather than a call a pick
        for j in range(start, len(groups)):
            group = groups[j]
            k = used[j]
            if k < len(group):
                out.append(pick + [group[k]])
        return
    for j in range(start, len(groups)):
        group = groups[j]
        k = used[j]
        if k < len(group):
            used[j] = k + 1
            pick.append(group[k])
            _pick(groups, j, left - 1, pick, used, out)
            pick.pop()
            used[j] = k
