"""Helpers that set up Caylus positions for the rulebook's worked examples.

Seats stand for the rulebook's colours: RED 0, BLUE 1, GREEN 2, ORANGE 3, BLACK 4.
"""
from __future__ import annotations

import functools

from provost.dsl.loader import load_checked
from provost.interpreter.engine import Game

RED, BLUE, GREEN, ORANGE, BLACK = range(5)


@functools.cache
def caylus():
    return load_checked("caylus")


def new_game(players: int = 4, seed: int = 0, turn_order=None) -> Game:
    g = Game.new(caylus(), players=players, seed=seed)
    if turn_order is not None:
        g.s.orders["turn_order"] = list(turn_order)
    return g


def counter(g: Game, name: str, player: int):
    return g.s.counters[name][player]


def set_counter(g: Game, name: str, player: int, value) -> None:
    g.s.counters[name][player] = value


def give(g: Game, player: int, **amounts) -> None:
    for res, n in amounts.items():
        g.s.counters[res][player] = n


def occupy(g: Game, where: str, *players: int) -> None:
    """Put workers of these players on a space or tile, taking them from their hands."""
    for p in players:
        g.s.occ.setdefault(where, []).append(p)
        g.s.counters["workers"][p] -= 1


def empty_road_after_neutrals(g: Game) -> None:
    """Remove every player tile so the first free road space is space 9."""
    for slot in range(9, len(g.s.road)):
        t = g.s.road[slot]
        if t is not None and g.s.tiles[t][1] >= 0:
            g._remove_tile(t)


def tile_at(g: Game, slot: int) -> str | None:
    return g.s.road[slot]


def kind_at(g: Game, slot: int) -> str | None:
    t = g.s.road[slot]
    return g.s.tiles[t][0] if t else None


def choose(g: Game, *options: str) -> None:
    """Apply options in sequence, checking each is legal (IllegalOption names the legal ones)."""
    for o in options:
        g.apply(o)
