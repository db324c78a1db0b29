"""Helpers that set up Caylus 1303 positions for the rulebook's worked examples.

Seats stand for the rulebook's colours: BLUE 0, BLACK 1, GREEN 2, RED 3, YELLOW 4.

``new_game`` plays the set-up and then clears its random parts that an example fixes
itself: the character draft is abandoned (nobody holds a character, none are on the
board), and ``lay_road`` replaces the road by the tiles the example names.
"""
from __future__ import annotations

import functools

from provost.dsl.loader import load_checked
from provost.interpreter.engine import Game

BLUE, BLACK, GREEN, RED, YELLOW = range(5)

# A fixed layout used when an example does not care: slots 1-8 starting buildings,
# 9 the setup wood building, 17 the setup stone building.
DEFAULT_ROAD = {1: "start_farm", 2: "start_sawmill", 3: "start_quarry", 4: "start_market", 5: "start_guild",
                6: "start_guild_stone", 7: "start_carpenter", 8: "start_farm", 9: "wood_farm_setup",
                17: "gold_mine_setup"}
DEFAULT_SITE = ["start_market", "manor_setup", "church_setup"]


@functools.cache
def ruleset(variant: str | None = None):
    return load_checked("caylus1303", variant)


def new_game(players: int = 4, seed: int = 0, *, characters: dict | None = None, board=(), first: int = 0,
             round_: int = 1, road: dict | None = None, site=None) -> Game:
    """A game after set-up with a known road, site, characters and first player; no phase started."""
    g = Game.new(ruleset(), players=players, seed=seed)
    s = g.s
    s.pending = None
    s.stack = []                                      # no control position: a test starts what it needs
    s.zones["offer"] = []
    s.zones["characters"] = [[] for _ in range(players)]
    for p, chars in (characters or {}).items():
        s.zones["characters"][p] = list(chars if isinstance(chars, (list, tuple)) else [chars])
    s.zones["character_board"] = list(board)
    s.counters["first_player"] = first
    s.orders["turn_order"] = [(first + i) % players for i in range(players)]
    s.round = round_
    for kind, b in g.prog.buildings.items():          # every wood and stone building beside the board
        if b["category"] in ("wood", "stone"):
            s.supply[kind] = 1
    lay_road(g, DEFAULT_ROAD if road is None else road)
    s.zones["site"] = list(DEFAULT_SITE if site is None else site)
    return g


def lay_road(g: Game, layout: dict) -> None:
    """Empty the road, then lay ``{slot: kind}`` (``{slot: (kind, owner)}`` for an owned tile)."""
    s = g.s
    for slot, t in enumerate(s.road):
        if t is not None:
            g._remove_tile(t)
    for slot, spec in sorted(layout.items()):
        kind, owner = spec if isinstance(spec, tuple) else (spec, None)
        g.put_tile(kind, slot, owner)


def tile_at(g: Game, slot: int) -> str | None:
    return g.s.road[slot]


def kind_at(g: Game, slot: int) -> str | None:
    t = g.s.road[slot]
    return g.s.tiles[t][0] if t else None


def owner_at(g: Game, slot: int) -> int | None:
    t = g.s.road[slot]
    return g.s.tiles[t][1] if t else None


def counter(g: Game, name: str, player: int):
    return g.s.counters[name][player]


def give(g: Game, player: int, **amounts) -> None:
    """Set a player's counters (resources, workers, camp, houses, pp) to the given values."""
    for res, n in amounts.items():
        g.s.counters[res][player] = n


def occupy(g: Game, where: str, *players: int) -> None:
    """Put workers of these players on a space or tile (by slot number or name), from their hands."""
    if isinstance(where, int):
        where = g.s.road[where]
    for p in players:
        g.s.occ.setdefault(where, []).append(p)
        g.s.counters["workers"][p] -= 1


def choose(g: Game, *options: str) -> None:
    """Apply options in sequence, checking each is legal (IllegalOption names the legal ones)."""
    for o in options:
        g.apply(o)


def workers_total(g: Game, p: int) -> int:
    """In hand + on the board + in the camp: always 15."""
    placed = sum(seats.count(p) for seats in g.s.occ.values())
    return g.s.counters["workers"][p] + placed + g.s.counters["camp"][p]


def only_phase(g: Game, name: str) -> None:
    """Run phase ``name`` on its own: the game stops when it ends (not the rest of the round)."""
    s = g.s
    s.pending = None
    s.phase = name
    g.reset("phase")
    s.stack = [[g.prog.phase_nodes[name], 0, {"player": None}, None]]
    g._run()
