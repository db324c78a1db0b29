# cython: nonecheck=True
# (compiled, g is typed as GameFields here: a None raises an AttributeError instead of reading a null)
"""What the functions generated from rule files call at run time: rule errors with their
positions, table lookups, and the operations one Python expression cannot say.

Kept apart from the expression compiler (interpreter/expressions.py) so that it is compiled
with the engine (setup.py): the generated code calls these at every decision.
"""
from __future__ import annotations

import itertools
import math
import types


class RuleRuntimeError(Exception):
    """An expression failed at run time (a bad index, a type clash); carries the rule's position."""

    def __init__(self, message: str, pos=None):
        super().__init__(message)
        self.pos = pos


class TableRef:
    """A table, or a row of one, while an expression indexes into it."""
    __slots__ = ("entries", "name")

    def __init__(self, entries, name: str = "table"):
        self.entries = entries   # list of (key, payload): key is a symbol or (from, to); payload node id or TableRef
        self.name = name         # as the error names it: powers, favors[prestige]

    def lookup(self, key, pos):
        for k, payload in self.entries:
            if type(k) is tuple:
                if type(key) is int and key >= k[0] and (k[1] is None or key <= k[1]):
                    return payload
            elif k == key:
                return payload
        raise RuleRuntimeError("table '%s' has no entry for %s" % (self.name, short_repr(key)), pos)


#: At most this many entries are kept per option (``kept_entry``): the values of a parameter are
#: the spaces, tiles or symbols of the rules in practice, but a rule may range over numbers.
MAX_KEPT_ENTRIES = 1024


#: The values whose option entries are kept: symbols, spaces and tiles, and numbers (Caylus'
#: provost moves -3..3), and lists of them (Ys' bids of two brokers) under their tuple.  Exact
#: types: True is not kept as 1.
KEPT_TYPES = (str, int)


def _keepable(value) -> bool:
    return type(value) is str or type(value) is int


def _list_key(value):
    """The tuple of VALUE, a list, if each of its items is a string or an int; else None.
    (``_keepable``'s test written out: a listing asks at every value, a call per item is dearer.)"""
    for x in value:
        if type(x) is not str and type(x) is not int:
            return None
    return tuple(value)


def kept_entry(memo: dict, value, entry: list) -> list:
    """``entry``, an option's ``[id, bindings, number]`` for the parameter's ``value`` (the tuple
    of the values for several parameters), kept in ``memo`` for the next listing when each value
    is a string (a symbol, a space, a tile) or an int, or for one parameter a list of them.

    An entry is made of the value alone and nothing changes it once made (the engine copies the
    bindings it takes, lists included), so the listing of options shares it from one decision to
    the next instead of making the id and the bindings again for every value at every decision."""
    if len(memo) < MAX_KEPT_ENTRIES:
        if _keepable(value) or (type(value) is tuple and all(map(_keepable, value))):
            memo[value] = entry
        elif type(value) is list:
            key = _list_key(value)
            if key is not None:
                memo[key] = entry
    return entry


def kept_list_entry(memo: dict, value):
    """The entry ``kept_entry`` kept for VALUE if it is a list, or None (a listing asks for it
    when the value is not a string or an int, before making an entry)."""
    if type(value) is not list:
        return None
    key = _list_key(value)
    return memo.get(key) if key is not None else None


def short_repr(v, limit: int = 80) -> str:
    """A value in a message as the rules write it (``none``, not Python's ``None``), cut at LIMIT."""
    text = _as_written(v)
    return text if len(text) <= limit else text[:limit] + "..."


def _as_written(v) -> str:
    if v is None:
        return "none"
    if type(v) is list or type(v) is tuple:
        return "[%s]" % ", ".join(_as_written(x) for x in v[:100])[:200]
    return repr(v)


# ------------------------------------------------------------------ helpers of generated code
def floordiv(a, b):
    return a // b if b else 0


def mod(a, b):
    return a % b if b else 0


def index_into(obj, key, pos):
    if type(obj) is TableRef:
        return obj.lookup(key, pos)
    try:
        return obj[key]
    except (KeyError, IndexError, TypeError):
        raise RuleRuntimeError("no entry %s in %s" % (short_repr(key), short_repr(obj)), pos)


def held(g, player, what, pos):
    try:
        return g.s.counters[what][player]
    except (KeyError, TypeError):
        raise RuleRuntimeError("%s is not a resource" % short_repr(what), pos)


def holds(counters, player, pairs, workers):
    """Whether the player holds a payment: every ``(resource, n)`` of ``pairs``, the amounts of
    one resource added up, and ``workers`` workers besides (the ones placements take)."""
    need: dict = {}
    for r, n in pairs:
        need[r] = need.get(r, 0) + n
    if workers:         # tested last, as the bindings' generated tests test them
        need["workers"] = need.get("workers", 0) + workers
    for r, n in need.items():
        if counters[r][player] < n:
            return False
    return True


def holds_bundle(counters, player, bundle, workers):
    """``holds`` for `pay b`: a bundle is a list of resources, one of each, or one resource."""
    return holds(counters, player, [(r, 1) for r in (bundle if type(bundle) is list else [bundle])], workers)


def context_value(env, name, pos):
    try:
        return env[name]
    except KeyError:
        raise RuleRuntimeError("'%s' is not defined here" % name, pos)


def index_in(xs: list, x) -> int:
    """Where ``x`` is in the list ``xs`` (-1: not there), found as ``list.index`` finds it (the
    same object, else an equal one).  Compiled, one loop in C (``list.index`` is a method call
    through Python, after ``x in xs`` went through the list once already); as Python,
    ``list.index``."""
    if not _COMPILED:
        try:
            return xs.index(x)
        except ValueError:
            return -1
    for i in range(len(xs)):
        y = xs[i]
        if y is x or y == x:
            return i
    return -1


_COMPILED = type(index_in) is not types.FunctionType


def index_of(xs, x):
    return index_in(xs, x) if type(xs) is list else xs.index(x) if x in xs else -1


def position_of(xs, x):
    return index_in(xs, x) + 1 if type(xs) is list else xs.index(x) + 1 if x in xs else 0


def road_tiles(g):
    return [t for t in g.s.road if t is not None]


def owned_tiles(g, who):
    tiles = g.s.tiles
    return [t for t in g.s.road if t is not None and tiles[t][1] == who]


def each_in_scope(env, var, xs):
    """The scopes of a comprehension over a context name (`player`...): each value in the scope."""
    for v in xs:
        local = dict(env)
        local[var] = v
        yield local


MAX_WORK = 2_000_000
"""The most items the rules' comprehensions may go through between two decisions: nested
comprehensions multiply (10,000 x 10,000 items), so each list's limit alone would not stop them."""


def constant_function(v):
    """The function of an expression that is a literal or a symbol (here, so that compiled
    with the engine it is called without a Python frame); ``value`` lets callers specialise
    on it."""
    def constant(g, env):
        return v
    constant.value = v
    return constant


def counted(g, xs, pos):
    """XS, a comprehension's list, counted against the game's work between two decisions."""
    try:
        n = len(xs)
    except TypeError:
        return xs
    g.work += n
    if g.work > MAX_WORK:
        raise RuleRuntimeError("the rules went through more than %d items of lists without asking anyone "
                               "to decide (comprehensions inside comprehensions?)" % MAX_WORK, pos)
    return xs


MAX_LIST = 10_000
"""The longest list a rule may build (a range, the multisets of a list): far beyond any board, and
small enough that a hostile `1..10**9` is an error, not a MemoryError or a hang."""


MAX_NUMBER = 10 ** 15
"""The largest number (either sign) a rule may keep: in a counter or a resource without its own
max, a `let`, an effect's parameter or a zone.  Far beyond any board and exact in every JSON
reader (below 2**53), and small enough that a number squared in a loop (`set x = x * x`) is an
error, not a hang in Python's unbounded integers."""

MAX_KEPT = 100_000
"""The longest list a rule may keep in a `let`, an effect's parameter or a zone (`combinations`
gives up to 100,000): a list that doubles in a loop (`let x = x + x`) is an error, not a
MemoryError."""


def too_large(v, where: str) -> RuleRuntimeError:
    """The error for a number or a list beyond what a rule may keep (MAX_NUMBER, MAX_KEPT)."""
    if type(v) is int:
        return RuleRuntimeError("%s would hold a number of %d digits; the rules keep numbers within "
                                "10**15 (a number multiplied by itself in a loop?)"
                                % (where, len(str(abs(v))) if v.bit_length() < 1000 else int(v.bit_length() * 0.30103) + 1))
    return RuleRuntimeError("%s would hold a list of %d items; the rules keep at most %d "
                            "(a list joined to itself in a loop?)" % (where, len(v), MAX_KEPT))


def bounded_range(lo, hi, pos):
    """``lo..hi`` as a list, when it is at most MAX_LIST long (a range of other values fails in
    ``-`` or ``range`` with a TypeError, reported as E101 like any other)."""
    if hi - lo < MAX_LIST:
        return list(range(lo, hi + 1))
    raise RuleRuntimeError("the range %d..%d has %d numbers; a rule may build at most %d"
                           % (lo, hi, hi - lo + 1, MAX_LIST), pos)


class Multisets:
    """``multisets(xs, n)`` at one place in the rules, with its results kept by argument."""
    __slots__ = ("cache",)

    def __init__(self):
        self.cache: dict = {}

    def __call__(self, xs, n, pos=None):
        key = (tuple(xs), n)
        r = self.cache.get(key)
        if r is None:
            if type(n) is not int or n < 0:
                raise RuleRuntimeError("multisets needs a count of 0 or more, not %s" % short_repr(n), pos)
            if len(xs) and math.comb(len(xs) + n - 1, n) > MAX_LIST:
                raise RuleRuntimeError("multisets of %d items taken %d at a time are more than %d lists"
                                       % (len(xs), n, MAX_LIST), pos)
            r = self.cache[key] = [list(c) for c in itertools.combinations_with_replacement(xs, n)]
        return [c[:] for c in r]
