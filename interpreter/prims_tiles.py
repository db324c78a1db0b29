"""Tiles on the road beyond building them: laying out, claiming, flipping, using, building on top.

General mechanisms for any tile-laying game (Caylus 1303 uses each of them):

- ``place_tile KIND, SLOT`` lays a tile of KIND from the supply on a road slot, owned by nobody
  (a set-up that fixes some tiles and shuffles others).
- ``set_supply KIND, N`` says how many tiles of KIND are left beside the board (tiles that went
  elsewhere at set-up, or back to the box).
- ``claim_tile TILE`` makes the acting player the tile's owner: a house on it, nothing else changes.
- ``flip_tile TILE`` turns a two-sided tile over: the building named by its ``other_side`` replaces
  it on the same slot, with the same owner and the same workers; no prestige is scored.
- ``perform X`` carries out the work of a tile (or of a building kind) for the acting player
  without a worker on it (a favor that "uses" a building, a card that copies one).
- ``build_on TILE, CATEGORY`` builds a tile of CATEGORY on top of one particular tile of the
  acting player (when the choice of site belongs to the rules, not to the builder).

Functions: ``road_at(i)`` is the tile on road slot i (or none), ``slot_of(t)`` the slot of a tile
(0 when it is not on the road), ``awaited(x)`` whether a ``defer until vacant x`` block still waits
(a change already paid for, which a rule may refuse to offer twice).
"""
from __future__ import annotations

from . import nodes as N
from .expressions import RuleRuntimeError
from .library import effect, function
from .runtime import short_repr


@effect("place_tile")
def build_place_tile(c, st, scope):
    kind, slot = (c.ex.compile(a, scope) for a in st["args"])
    buildings = c.p.buildings
    pos = st["pos"]

    def place_tile(g, env):
        k, i = kind(g, env), slot(g, env)
        if k not in buildings:
            raise RuleRuntimeError("%s is not a building" % short_repr(k), pos)
        if type(i) is not int or not 0 < i < len(g.s.road):
            raise RuleRuntimeError("there is no road slot %s" % short_repr(i), pos)
        g.put_tile(k, i)
    return c.p.add(N.Atom(place_tile), pos)


@effect("set_supply")
def build_set_supply(c, st, scope):
    kind, n = (c.ex.compile(a, scope) for a in st["args"])
    buildings = c.p.buildings
    pos = st["pos"]

    def set_supply(g, env):
        k = kind(g, env)
        if k not in buildings:
            raise RuleRuntimeError("%s is not a building" % short_repr(k), pos)
        g.s.supply[k] = max(0, n(g, env))
    return c.p.add(N.Atom(set_supply), pos)


def _tile(g, t, pos):
    if t not in g.s.tiles:
        raise RuleRuntimeError("%s is not a tile on the road" % short_repr(t), pos)
    return g.s.tiles[t]


@effect("claim_tile")
def build_claim_tile(c, st, scope):
    (tile,) = (c.ex.compile(a, scope) for a in st["args"])
    pos = st["pos"]

    def claim_tile(g, env):
        # a new entry, never a change to the old one: clones share the entries (State.clone)
        t = tile(g, env)
        g.s.tiles[t] = [_tile(g, t, pos)[0], env["player"]]
    return c.p.add(N.Atom(claim_tile), pos)


@effect("flip_tile")
def build_flip_tile(c, st, scope):
    (tile,) = (c.ex.compile(a, scope) for a in st["args"])
    buildings = c.p.buildings
    pos = st["pos"]

    def flip_tile(g, env):
        s = g.s
        t = tile(g, env)
        kind, owner = _tile(g, t, pos)
        other = buildings[kind].get("other_side")
        if other is None:
            raise RuleRuntimeError("'%s' has no other side" % kind, pos)
        slot = s.road.index(t)
        del s.tiles[t]
        new = g._instance_name(other)
        s.tiles[new] = [other, owner]
        s.road[slot] = new
        if t in s.occ:
            s.occ[new] = s.occ.pop(t)
        for d in s.deferred:
            if d[0] == t:
                d[0] = new
    return c.p.add(N.Atom(flip_tile), pos)


@effect("perform")
def build_perform(c, st, scope):
    (what,) = (c.ex.compile(a, scope) for a in st["args"])
    pos = st["pos"]

    def perform(g, env):
        x = what(g, env)
        if x not in g.s.tiles and x not in g.prog.buildings and x not in g.prog.spaces:
            raise RuleRuntimeError("%s is not a tile, building or space" % short_repr(x), pos)
        body = g.work_body(x)
        if body is not None:
            g.s.stack.append([body, 0, {"player": env["player"], "self": x, "slot": 1}, None])
    return c.p.add(N.Atom(perform), pos)


class BuildOn(N.BuildTile):
    """Build a tile of a category on top of one given tile (options ``skip`` and ``build:KIND``)."""
    __slots__ = ("onto",)

    def __init__(self, category, onto):
        super().__init__(category, None)
        self.onto = onto

    def run(self, g, frame):
        env = frame[2]
        player = env["player"]
        cat, onto = self.category(g, env), self.onto(g, env)
        entries = [["skip", None]]
        for oid, spec in g.build_options(player, cat, {}):
            if spec[2] == onto:
                entries.append([oid.split("@", 1)[0], spec])
        if len(entries) == 1:
            g.s.stack.pop()
            return
        frame[3] = entries
        g.ask(player, "Build a %s building on %s" % (cat, onto), [e[0] for e in entries], self)


@effect("build_on")
def build_build_on(c, st, scope):
    onto, cat = (c.ex.compile(a, scope) for a in st["args"])
    return c.p.add(BuildOn(cat, onto), st["pos"])


@function("road_at")
def build_road_at(c, pos):
    def road_at(g, player, k):
        road = g.s.road
        return road[k] if type(k) is int and 0 < k < len(road) else None
    return road_at


@function("slot_of")
def build_slot_of(c, pos):
    def slot_of(g, player, x):
        road = g.s.road
        return road.index(x) if x is not None and x in road else 0
    return slot_of


@function("awaited")
def build_awaited(c, pos):
    def awaited(g, player, x):
        return any(d[0] == x for d in g.s.deferred)
    return awaited
