"""Functions that read the whole board, for invariants and for rules alike.

Invariants (``invariant NAME ...: holds EXPR``) state what must stay true of any game of the
rules: workers conserved, tiles conserved, capacities kept.  They need to see the whole state
rather than one player's part of it, so these functions list what the engine keeps:

- ``all(xs)``: whether every item of xs is true (an empty list: yes);
- ``spaces()``: every space declared; ``buildings()``: every building declared;
- ``worker_places()``: the spaces and road tiles holding workers now;
- ``placed_workers(p)``: how many workers player p has on spaces and tiles;
- ``supply(k)``: how many tiles of building k are left beside the board (unlimited: -1);
- ``piece_total(kind)``: how many pieces of a kind the acting player has, wherever they are.
"""
from __future__ import annotations

from .library import function


@function("all")
def build_all(c, pos):
    def all_(g, player, xs):
        return all(xs)
    return all_


@function("spaces")
def build_spaces(c, pos):
    names = list(c.p.spaces)

    def spaces(g, player):
        return names[:]
    return spaces


@function("buildings")
def build_buildings(c, pos):
    names = list(c.p.buildings)

    def buildings(g, player):
        return names[:]
    return buildings


@function("worker_places")
def build_worker_places(c, pos):
    def worker_places(g, player):
        return [where for where, seats in g.s.occ.items() if seats]
    return worker_places


@function("placed_workers")
def build_placed_workers(c, pos):
    def placed_workers(g, player, who):
        return sum(seats.count(who) for seats in g.s.occ.values())
    return placed_workers


@function("supply")
def build_supply(c, pos):
    def supply(g, player, kind):
        return g.s.supply.get(kind, 0)
    return supply


@function("piece_total")
def build_piece_total(c, pos):
    def piece_total(g, player, kind):
        return sum(1 for pc in g.s.pieces if pc[0] == kind and pc[1] == player)
    return piece_total
