"""Every Caylus building, prestige building and royal favor does what its tile says.

Facts from ../shared/rules/caylus_tiles.md (wood and stone buildings, the neutral tiles, the
printed Gold Mine).  Each case puts the building on road space 9 (owned by Blue when it is a
player's building), Red's worker on it, and activates the road up to space 10, where Green
works a farm: that decision stops the engine right after the building's work, before the next
turn's income, so Red's resources are read as the building left them.
"""
from __future__ import annotations

import pytest

from caylus_scenarios import BLUE, GREEN, RED, choose, empty_road_after_neutrals, give, kind_at, new_game, occupy, tile_at

from provost.interpreter.engine import Game

STOCK = dict(denier=10, food=3, wood=3, stone=3, cloth=3, gold=3, pp=0)

# building, Red's options in order, Red's changes (resources not named are unchanged)
CASES = [
    ("wood_farm_food", ["food"], dict(food=2)),
    ("wood_farm_food", ["cloth"], dict(cloth=1)),
    ("wood_farm_cloth", ["cloth"], dict(cloth=2)),
    ("wood_farm_cloth", ["food"], dict(food=1)),
    ("wood_sawmill", [], dict(wood=2)),
    ("wood_quarry", [], dict(stone=2)),
    ("wood_marketplace", ["sell:cloth"], dict(cloth=-1, denier=6)),
    ("wood_marketplace", ["skip"], dict()),
    ("wood_peddler", ["buy:stone"], dict(stone=1, denier=-1)),
    ("wood_peddler", ["buy:food+cloth"], dict(food=1, cloth=1, denier=-2)),
    ("stone_farm", [], dict(food=2, cloth=1)),
    ("park", [], dict(wood=2, food=1)),
    ("workshop", [], dict(stone=2, cloth=1)),
    ("alchemist", ["two:food+wood"], dict(food=-1, wood=-1, gold=1)),
    ("alchemist", ["four:food+food+food+wood"], dict(food=-3, wood=-1, gold=2)),
    ("bank", ["one"], dict(denier=-2, gold=1)),
    ("bank", ["two"], dict(denier=-5, gold=2)),
    ("jeweller", ["one"], dict(gold=-1, pp=5)),
    ("jeweller", ["two"], dict(gold=-2, pp=9)),
    ("tailor", ["two"], dict(cloth=-2, pp=4)),
    ("tailor", ["three"], dict(cloth=-3, pp=6)),
    ("church", ["two"], dict(denier=-2, pp=3)),
    ("church", ["four"], dict(denier=-4, pp=5)),
]

# A stone production building gives its owner one cube of those it produces.
OWNER_CUBES = {"stone_farm": {"food", "cloth"}, "park": {"wood", "food"}, "workshop": {"stone", "cloth"}}


def _worked(kind: str, owner: int | None):
    g = new_game(players=3)
    empty_road_after_neutrals(g)
    g.put_tile(kind, 9, owner)
    g.put_tile("wood_farm_food", 10, BLUE)
    g.s.counters["provost"] = 10
    occupy(g, tile_at(g, 9), RED)
    occupy(g, tile_at(g, 10), GREEN)
    for p in (RED, BLUE, GREEN):
        give(g, p, **STOCK)
    g.start_phase("activation")
    return g


def _red(g):
    return {r: g.s.counters[r][RED] for r in STOCK}


@pytest.mark.parametrize("kind,options,change", CASES, ids=["%s-%s" % (k, "-".join(o) or "work") for k, o, _ in CASES])
def test_building_work(kind, options, change):
    g = _worked(kind, BLUE)
    assert g.current_player() == RED or not options
    choose(g, *options)
    if kind in OWNER_CUBES:
        # The owner's cube, then Green at the farm on space 10.
        assert g.current_player() == BLUE and set(g.legal_options()) == OWNER_CUBES[kind]
        cube = sorted(OWNER_CUBES[kind])[0]
        choose(g, cube)
        assert g.s.counters[cube][BLUE] == STOCK[cube] + 1
    assert g.current_player() == GREEN and g.prompt() == "Choose"     # the engine stopped at space 10
    expected = {r: STOCK[r] + change.get(r, 0) for r in STOCK}
    assert _red(g) == expected


@pytest.mark.parametrize("kind,produces", [("neutral_sawmill", dict(wood=1)), ("neutral_quarry", dict(stone=1)),
                                           ("gold_mine", dict(gold=1))])
def test_neutral_and_printed_production(kind, produces):
    g = new_game(players=3)
    empty_road_after_neutrals(g)
    g.put_tile("wood_farm_food", 9, BLUE)
    where = "gold_mine" if kind == "gold_mine" else next(
        t for t in g.s.road[1:7] if t is not None and g.s.tiles[t][0] == kind)
    g.s.counters["provost"] = 16
    occupy(g, where, RED)
    occupy(g, tile_at(g, 9), GREEN)
    for p in (RED, GREEN):
        give(g, p, **STOCK)
    g.start_phase("activation")
    if kind != "gold_mine":
        assert g.current_player() == GREEN        # the farm on 9 comes after the neutral tiles
        for r, n in produces.items():
            assert g.s.counters[r][RED] == STOCK[r] + n
    else:
        choose(g, "food")                           # Green's farm on 9 comes before the mine on 16
        for r, n in produces.items():
            assert g.s.counters[r][RED] == STOCK[r] + n


def test_neutral_forest_and_marketplace():
    g = new_game(players=3)
    forest = next(t for t in g.s.road[1:7] if g.s.tiles[t][0] == "neutral_forest")
    market = next(t for t in g.s.road[1:7] if g.s.tiles[t][0] == "neutral_marketplace")
    g.s.counters["provost"] = 6
    occupy(g, forest, RED)
    occupy(g, market, BLUE)
    for p in (RED, BLUE):
        give(g, p, **STOCK)
    g.start_phase("activation")
    first = g.current_player()
    prompts = {}
    for _ in range(2):
        prompts[g.current_player()] = list(g.legal_options())
        if g.current_player() == RED:
            choose(g, "wood")
        else:
            choose(g, "sell:gold")
    assert set(prompts[RED]) == {"food", "wood"}
    assert "sell:gold" in prompts[BLUE] and "skip" in prompts[BLUE]      # any cube, gold included
    assert g.s.counters["wood"][RED] == STOCK["wood"] + 1
    assert g.s.counters["gold"][BLUE] == STOCK["gold"] - 1
    assert first in (RED, BLUE)


def test_the_owner_gains_a_prestige_point_when_another_player_works_the_building():
    # "Every player-owned building gives its owner +1 PP when another player places a worker on it."
    g = new_game(players=3)
    empty_road_after_neutrals(g)
    g.put_tile("wood_sawmill", 9, BLUE)
    give(g, BLUE, pp=0)
    give(g, RED, pp=0, denier=10)
    g.start_phase("placement")
    while g.current_player() != RED:
        choose(g, "pass")
    choose(g, "place:" + tile_at(g, 9))
    assert g.s.counters["pp"][BLUE] == 1 and g.s.counters["pp"][RED] == 0


# Prestige buildings: cost, prestige points, royal favors on building (caylus_tiles.md).
PRESTIGE_STOCK = dict(STOCK, stone=5)       # enough for the cathedral
PRESTIGE = [
    ("statue", dict(stone=2, gold=1), 7, 1), ("granary", dict(food=3, gold=1), 10, 0),
    ("library", dict(wood=3, gold=1), 10, 0), ("weaver", dict(cloth=3, gold=1), 12, 0),
    ("theater", dict(wood=3, gold=2), 14, 1), ("university", dict(stone=3, gold=2), 14, 1),
    ("monument", dict(stone=4, gold=2), 14, 2), ("hotel", dict(stone=3, gold=2), 16, 0),
    ("cathedral", dict(stone=5, gold=3), 25, 0),
]


@pytest.mark.parametrize("kind,cost,pp,favors", PRESTIGE, ids=[k for k, *_ in PRESTIGE])
def test_prestige_building_cost_points_and_favors(kind, cost, pp, favors):
    g = new_game(players=3)
    empty_road_after_neutrals(g)
    g.put_tile("architect", 9, BLUE)
    g.put_tile("residence", 10, GREEN)
    g.s.counters["provost"] = 10
    occupy(g, tile_at(g, 9), GREEN)
    give(g, GREEN, **PRESTIGE_STOCK)
    g.start_phase("activation")
    option = "build:%s@residence" % kind
    assert option in g.legal_options()
    choose(g, option)
    assert g.s.tiles[tile_at(g, 10)] == [kind, GREEN]
    for r in ("food", "wood", "stone", "cloth", "gold"):
        assert g.s.counters[r][GREEN] == PRESTIGE_STOCK[r] - cost.get(r, 0), r
    assert g.s.counters["pp"][GREEN] == pp
    rows = []
    while g.current_player() == GREEN and g.prompt() == "Royal favor: choose a row":
        rows.append(g.legal_options()[0])
        choose(g, rows[-1])                   # at level 1 the row's only column is taken at once
    assert len(rows) == favors and len(set(rows)) == favors      # two favors: two different rows


def test_library_and_hotel_raise_income_and_cover_the_residence():
    # Residence +1 denier a turn; a prestige building on it loses that; library +1, hotel +2.
    incomes = {}
    for kind in ("residence", "library", "hotel", "statue"):
        g = new_game(players=3)
        empty_road_after_neutrals(g)
        g.put_tile(kind, 9, GREEN)
        give(g, GREEN, denier=0)
        g.start_phase("income")
        incomes[kind] = g.s.counters["denier"][GREEN]
    assert incomes == {"residence": 3, "library": 3, "hotel": 4, "statue": 2}


# The royal favor table (caylus_tiles.md): row, column -> Red's changes.
FAVOR_GAINS = [("row_prestige", c, dict(pp=c)) for c in range(1, 6)] + \
    [("row_deniers", c, dict(denier=c + 2)) for c in range(1, 6)] + \
    [("row_cubes", 1, dict(food=1)), ("row_cubes", 3, dict(cloth=1)), ("row_cubes", 5, dict(gold=1))]


def _favor(row: str, column: int, stock=STOCK):
    """Red takes a favor on ``row`` with the marker just before ``column``, every column open."""
    g = new_game(players=4)
    empty_road_after_neutrals(g)
    g.s.counters["favor_columns"] = 5
    g.s.counters["favor_level"][RED] = [column - 1] * 4
    give(g, RED, **stock)
    g.run_effect("favor", RED, 1)
    choose(g, "row:" + row)
    if column > 1:
        # Any column up to the marker's new place.
        assert g.legal_options() == ["column:%d" % c for c in range(1, column + 1)]
        choose(g, "column:%d" % column)
    return g


@pytest.mark.parametrize("row,column,change", FAVOR_GAINS, ids=["%s-%d" % (r, c) for r, c, _ in FAVOR_GAINS])
def test_favor_table_gains(row, column, change):
    g = _favor(row, column)
    assert _red(g) == {r: STOCK[r] + change.get(r, 0) for r in STOCK}


def test_favor_cubes_wood_or_stone_and_the_exchange():
    g = _favor("row_cubes", 2)
    assert set(g.legal_options()) == {"wood", "stone"}
    choose(g, "stone")
    assert g.s.counters["stone"][RED] == STOCK["stone"] + 1
    g = _favor("row_cubes", 4)
    # The cube given may be gold (assumption in rulesets/caylus.rules: "(no gold)" is the two received).
    assert "exchange:gold" in g.legal_options() and "skip" in g.legal_options()
    choose(g, "exchange:food")
    assert not any("gold" in o for o in g.legal_options())       # two cubes of choice, not gold
    choose(g, "take:stone+cloth")
    assert (g.s.counters["food"][RED], g.s.counters["stone"][RED], g.s.counters["cloth"][RED]) == (
        STOCK["food"] - 1, STOCK["stone"] + 1, STOCK["cloth"] + 1)


def test_favor_buildings_row():
    poor = dict(denier=0, food=1, wood=0, stone=0, cloth=1, gold=0, pp=0)
    # Column 2: a wood building one wood cheaper (a farm for one food).
    g = _favor("row_buildings", 2, poor)
    choose(g, "build:wood_farm_food")
    assert kind_at(g, 9) == "wood_farm_food" and g.s.counters["food"][RED] == 0 and g.s.counters["pp"][RED] == 2
    # Column 3: a stone building one stone cheaper (stone + food buildings for one food; not the bank).
    g = _favor("row_buildings", 3, poor)
    assert {"build:stone_farm", "build:park", "build:alchemist"} <= set(g.legal_options())
    assert "build:bank" not in g.legal_options()
    # Column 4: the lawyer's residence for one denier less (one cloth), +2 PP.
    g = _favor("row_buildings", 4, poor)
    neutral = g.legal_options()[1]
    assert neutral.startswith("transform:neutral_")
    choose(g, neutral)
    assert g.s.counters["cloth"][RED] == 0 and g.s.counters["pp"][RED] == 2
    assert any(t and g.s.tiles[t] == ["residence", RED] for t in g.s.road)


def test_ways_to_pay_an_any_cube_cost_follow_what_the_player_holds():
    # The ways of paying "1 wood, 1 any_cube" are worked out once per cost and discount
    # (Game._payment_ways); which of them a player can afford is decided at each build, and
    # each build gets payments of its own.
    g = Game.new("caylus", players=4, seed=1)
    cost = g.prog.buildings["wood_marketplace"]["cost"]
    assert g._payments(cost, {}, {"wood": 1, "food": 1, "gold": 1}) == [
        ("food", {"wood": 1, "food": 1}), ("gold", {"wood": 1, "gold": 1})]
    assert g._payments(cost, {}, {"wood": 2}) == [("wood", {"wood": 2})]
    assert g._payments(cost, {}, {"food": 3}) == []
    # A discount of one wood: the wood is free, the cube is still chosen.
    assert g._payments(cost, {"wood": 1}, {"stone": 1}) == [("stone", {"stone": 1})]
    taken = g._payments(cost, {}, {"wood": 2})[0][1]
    taken["wood"] = 99                       # a caller that edits its payment edits its own copy
    assert g._payments(cost, {}, {"wood": 2}) == [("wood", {"wood": 2})]
