"""More of the Caylus rulebook's worked examples and rules, played through the engine.

Sections refer to ../shared/rules/caylus_rulebook_en.txt; the Dutch text
(caylus_rulebook_nl.txt) has examples of its own, tested here too.

- Phase 7 example (right): when the bailiff reaches the Dungeon's space, the
  Dungeon is not scored again if it was scored in a previous turn because it
  was full.
- Hints: a cloth cube from a farm comes too late for the joust field.
- Dutch 2B-2D examples: Red on Green's mason pays 3 deniers after two passes
  (Green +1 PP), 1 on his own farm, and 4 for the castle after three passes,
  his pawn behind Blue's.
- 5C: a building already waiting for a lawyer's change is not a target again.
- Favor row C column 4 and the "wood + any cube" costs: gold may be given
  (assumptions in rulesets/caylus.rules).
- Setup: 5 / 6 / 6 / 7 / 7 deniers by place in the random turn order, 1 wood and
  2 food each, the six neutral tiles shuffled onto spaces 1-6, the bailiff and the
  provost on the last of them, favor markers before column 1.
- 2, where a worker goes: never on a prestige or residential building, an unbuilt
  space or an occupied one; the stables take 3 workers, one a player; the castle
  several, one a player; the inn's left circle one, even the right circle's owner's.
"""
from __future__ import annotations

from caylus_scenarios import (BLACK, BLUE, GREEN, ORANGE, RED, choose, counter, empty_road_after_neutrals, give,
                              kind_at, new_game, occupy, tile_at)


# ---------------------------------------------------------------- phase 7: a full Dungeon is scored once

def test_a_dungeon_scored_when_full_is_not_scored_again_when_the_bailiff_reaches_it():
    g = new_game(players=4, turn_order=[RED, BLUE, GREEN, ORANGE])
    g.s.counters["section_filled"] = [5, 0, 0]      # one Dungeon part left
    g.s.counters["castle_parts"][RED] = [1, 0, 0]
    for p in (RED, BLUE, GREEN, ORANGE):
        give(g, p, pp=5)
    give(g, RED, food=1, wood=1, stone=1)
    g.s.counters["bailiff"] = 8
    g.s.counters["provost"] = 8
    occupy(g, "castle", RED)
    g.start_phase("build_castle")
    choose(g, "batch:food+wood+stone")              # the last Dungeon part: Red +5 PP
    assert counter(g, "pp", RED) == 10
    choose(g, "row:row_prestige")                   # the favor for the most batches: +1 PP
    # End of the turn: the bailiff moves to 9, but the full Dungeon is scored now.
    assert g.s.counters["bailiff"] == 9
    # Red's 2 houses give a favor (prestige row again, a new phase: column 2 now reached).
    assert g.s.phase == "end_of_turn"
    assert g.current_player() == RED and g.prompt() == "Royal favor: choose a row"
    choose(g, "row:row_prestige", "column:2")
    assert g.s.counters["scored"] == [1, 0, 0] and g.s.counters["favor_columns"] == 4
    assert counter(g, "pp", RED) == 5 + 5 + 1 + 2
    for p in (BLUE, GREEN, ORANGE):                 # no house in the Dungeon: -2 PP
        assert counter(g, "pp", p) == 3
    # A later turn: the provost one space beyond the bailiff, who moves 2 to the Dungeon's space 12.
    g.s.counters["bailiff"] = 10
    g.s.counters["provost"] = 11
    before = {p: counter(g, "pp", p) for p in (RED, BLUE, GREEN, ORANGE)}
    g.start_phase("end_of_turn")
    assert g.s.counters["bailiff"] == 12 and g.s.counters["provost"] == 12
    assert g.s.phase != "end_of_turn"                # no favor asked, nothing to decide: the next turn
    assert {p: counter(g, "pp", p) for p in before} == before     # nobody loses 2 PP a second time
    assert g.s.counters["scored"] == [1, 0, 0] and g.s.counters["current_section"] == 1
    assert g.s.counters["favor_columns"] == 4


# ---------------------------------------------------------------- hints: the cloth comes too late

def test_cloth_from_a_farm_comes_too_late_for_the_joust_field():
    g = new_game(players=3, turn_order=[RED, BLUE, GREEN])
    farm = "neutral_farm"
    slot = g.s.road.index(farm)
    g.s.counters["provost"] = slot
    occupy(g, "joust_field", RED)
    occupy(g, farm, RED)
    give(g, RED, denier=1, cloth=0, pp=0)
    levels = list(g.s.counters["favor_level"][RED])
    g.start_phase("specials")
    # No cloth in stock at the joust field: no joust, the worker comes home, the denier stays.
    assert g.s.occ.get("joust_field") == []
    assert counter(g, "denier", RED) == 1
    while g.s.phase == "provost_moves":
        choose(g, "pass")
    assert g.current_player() == RED and set(g.legal_options()) == {"food", "cloth"}
    choose(g, "cloth")                              # the farm's cloth, in phase 5
    assert counter(g, "cloth", RED) == 1
    assert g.s.counters["favor_level"][RED] == levels and counter(g, "pp", RED) == 0


def test_with_the_cloth_in_stock_the_joust_field_gives_a_favor():
    g = new_game(players=3, turn_order=[RED, BLUE, GREEN])
    occupy(g, "joust_field", RED)
    give(g, RED, denier=1, cloth=1, pp=0)
    g.start_phase("specials")
    assert g.current_player() == RED and set(g.legal_options()) == {"skip", "joust"}
    choose(g, "joust")
    assert counter(g, "denier", RED) == 0 and counter(g, "cloth", RED) == 0
    assert g.prompt() == "Royal favor: choose a row"
    choose(g, "row:row_prestige")
    assert counter(g, "pp", RED) == 1 and g.s.counters["favor_level"][RED][0] == 1


# ---------------------------------------------------------------- the Dutch text's placement examples

def test_dutch_placement_examples_mason_for_three_own_farm_for_one_castle_for_four():
    g = new_game(players=4, turn_order=[BLUE, GREEN, ORANGE, RED])
    empty_road_after_neutrals(g)
    g.put_tile("mason", 9, GREEN)
    g.put_tile("wood_farm_food", 10, RED)
    occupy(g, "castle", BLUE)                       # Blue's pawn is on castle space 1
    for p in (RED, BLUE, GREEN, ORANGE):
        give(g, p, denier=10, pp=0)
    g.start_phase("placement")
    choose(g, "pass")                               # Blue passes first: 1 denier
    assert counter(g, "denier", BLUE) == 11
    choose(g, "place:merchants_guild")              # Green: 2 deniers, Blue has passed
    assert counter(g, "denier", GREEN) == 8
    choose(g, "pass")                               # Orange passes
    choose(g, "place:mason")                        # Red on Green's mason: 3 deniers, Green +1 PP
    assert counter(g, "denier", RED) == 7 and counter(g, "pp", GREEN) == 1
    choose(g, "pass")                               # Green passes
    choose(g, "place:wood_farm_food")               # Red's own farm: 1 denier
    assert counter(g, "denier", RED) == 6 and counter(g, "pp", RED) == 0
    assert g.current_player() == RED
    choose(g, "place:castle")                       # three have passed: 4 deniers
    assert counter(g, "denier", RED) == 2
    assert g.s.occ["castle"] == [BLUE, RED]         # behind Blue's pawn, on space 2
    assert g.s.orders["passing_order"][:3] == [BLUE, ORANGE, GREEN]


# ---------------------------------------------------------------- 6: no room in the Towers, no penalty

def test_a_player_with_no_room_left_in_the_towers_keeps_cubes_and_prestige():
    g = new_game(players=4, turn_order=[RED, BLUE, GREEN, ORANGE])
    g.s.counters["scored"] = [1, 1, 0]
    g.s.counters["current_section"] = 2
    g.s.counters["favor_columns"] = 5
    g.s.counters["section_filled"] = [6, 10, 13]    # one Towers part left
    give(g, RED, food=1, wood=1, stone=1, pp=10)
    give(g, BLUE, food=1, wood=1, stone=1, pp=10)
    occupy(g, "castle", RED)
    occupy(g, "castle", BLUE)
    g.start_phase("build_castle")
    assert g.current_player() == RED
    choose(g, "batch:food+wood+stone")              # the last part: +3 PP
    assert counter(g, "pp", RED) == 13
    # Blue, next in the castle, owns a batch but there is no room left: no choice, no penalty.
    assert counter(g, "pp", BLUE) == 10
    assert [counter(g, c, BLUE) for c in ("food", "wood", "stone")] == [1, 1, 1]
    assert g.current_player() == RED and g.prompt() == "Royal favor: choose a row"


def test_a_player_who_gives_no_batch_while_there_is_room_loses_two():
    g = new_game(players=4, turn_order=[RED, BLUE, GREEN, ORANGE])
    g.s.counters["scored"] = [1, 1, 0]
    g.s.counters["current_section"] = 2
    g.s.counters["favor_columns"] = 5
    g.s.counters["section_filled"] = [6, 10, 12]    # two Towers parts left
    give(g, RED, food=1, wood=1, stone=1, pp=10)
    give(g, BLUE, food=1, wood=1, stone=1, pp=10)
    occupy(g, "castle", RED)
    occupy(g, "castle", BLUE)
    g.start_phase("build_castle")
    choose(g, "batch:food+wood+stone")              # Red: no cubes left for a second batch
    assert g.current_player() == BLUE
    choose(g, "stop")                               # Blue could, but will not
    assert counter(g, "pp", BLUE) == 8


# ---------------------------------------------------------------- 5C: a pending change is not a target again

def _pending_change_on_the_sawmill():
    """Blue's joust favor uses the lawyer column on Blue's own sawmill, where Red works."""
    g = new_game(players=3, turn_order=[BLUE, RED, GREEN])
    empty_road_after_neutrals(g)
    g.put_tile("lawyer", 9, BLUE)
    g.put_tile("wood_sawmill", 10, BLUE)
    g.s.counters["provost"] = 10
    g.s.counters["favor_columns"] = 4
    g.s.counters["favor_level"][BLUE] = [0, 0, 0, 3]
    occupy(g, "joust_field", BLUE)
    occupy(g, "lawyer", BLUE)
    occupy(g, "wood_sawmill", RED)
    give(g, BLUE, denier=2, cloth=3, pp=0)
    give(g, RED, wood=0)
    g.start_phase("specials")
    choose(g, "joust", "row:row_buildings", "column:4")
    assert "transform:wood_sawmill" in g.legal_options()
    choose(g, "transform:wood_sawmill")             # 1 cloth, 1 - 1 = 0 deniers; Red is still there
    assert counter(g, "cloth", BLUE) == 1 and counter(g, "denier", BLUE) == 1
    assert kind_at(g, 10) == "wood_sawmill"
    return g


def test_a_building_waiting_for_the_lawyer_is_not_offered_again():
    g = _pending_change_on_the_sawmill()
    while g.s.phase != "activation":
        choose(g, "pass")
    # Blue's own lawyer (space 9) comes before the sawmill (space 10).
    assert g.current_player() == BLUE and g.prompt().startswith("Lawyer")
    opts = set(g.legal_options())
    assert "transform:wood_sawmill" not in opts
    assert "skip" in opts and any(o.startswith("transform:neutral_") for o in opts)
    choose(g, "skip")
    # Nothing paid twice; the turn ran on to the next income: 1 + 2 + 1 for the new residence.
    assert counter(g, "cloth", BLUE) == 1 and counter(g, "denier", BLUE) == 4
    # Red's worker works the sawmill, then the one change happens.
    assert counter(g, "wood", RED) == 2
    assert kind_at(g, 10) == "residence" and g.s.tiles[tile_at(g, 10)][1] == BLUE
    assert counter(g, "pp", BLUE) == 2


# ---------------------------------------------------------------- assumptions: gold is a cube one may give

def test_favor_exchange_may_give_gold_but_never_receives_it():
    g = new_game(players=3)
    g.s.counters["favor_columns"] = 4
    g.s.counters["favor_level"][RED] = [0, 0, 3, 0]
    give(g, RED, food=0, wood=0, stone=0, cloth=0, gold=1)
    g.run_effect("favor", RED, 1)
    choose(g, "row:row_cubes", "column:4")
    opts = g.legal_options()
    assert "exchange:gold" in opts                  # the one cube given may be gold
    choose(g, "exchange:gold")
    takes = g.legal_options()
    assert takes and all("gold" not in o for o in takes)   # the two received are never gold
    choose(g, "take:stone+stone")
    assert counter(g, "gold", RED) == 0 and counter(g, "stone", RED) == 2


def test_wood_marketplace_may_be_paid_with_wood_and_gold():
    g = new_game(players=3)
    empty_road_after_neutrals(g)
    occupy(g, "carpenter", RED)
    g.s.counters["provost"] = 8
    give(g, RED, wood=1, gold=1, food=0, stone=0, cloth=0, pp=0)
    g.start_phase("activation")
    opts = g.legal_options()
    assert "build:wood_marketplace/gold" in opts and "build:wood_peddler/gold" in opts
    assert not any(o.startswith("build:wood_farm") for o in opts)     # wood + food: no food
    choose(g, "build:wood_marketplace/gold")
    assert counter(g, "wood", RED) == 0 and counter(g, "gold", RED) == 0
    assert kind_at(g, 9) == "wood_marketplace" and counter(g, "pp", RED) == 4


# ---------------------------------------------------------------- Setup: money by turn order, cubes, pawns

START_MONEY = {1: 5, 2: 6, 3: 6, 4: 7, 5: 7}       # "space 1 takes 5 deniers ... spaces 4 and 5 ... 7"
NEUTRALS = {"neutral_farm", "neutral_forest", "neutral_sawmill", "neutral_quarry", "neutral_marketplace",
            "neutral_carpenter"}


def test_setup_money_by_turn_order_cubes_pawns_and_neutral_tiles():
    layouts, orders = set(), set()
    for players in (3, 4, 5):
        for seed in range(4):
            g = new_game(players=players, seed=seed)
            s = g.s
            order = s.orders["turn_order"]
            assert sorted(order) == list(range(players))
            # The game opens on the first turn's placement, after its income of 2 deniers.
            assert s.phase == "placement" and g.current_player() == order[0]
            for place, p in enumerate(order, start=1):
                assert counter(g, "denier", p) == START_MONEY[place] + 2
                assert (counter(g, "wood", p), counter(g, "food", p)) == (1, 2)
                assert [counter(g, c, p) for c in ("stone", "cloth", "gold", "pp")] == [0, 0, 0, 0]
                assert counter(g, "workers", p) == 6
                assert s.counters["favor_level"][p] == [0, 0, 0, 0]     # markers before column 1
            # The six pink tiles on the first six spaces; the printed buildings; both pawns on
            # the last neutral tile.
            assert {kind_at(g, slot) for slot in range(1, 7)} == NEUTRALS
            assert (kind_at(g, 7), kind_at(g, 8), kind_at(g, 16)) == ("peddler", "carpenter", "gold_mine")
            assert all(kind_at(g, slot) is None for slot in range(9, 29) if slot != 16)
            assert s.counters["bailiff"] == s.counters["provost"] == 6
            assert s.counters["favor_columns"] == 2                     # "the first two columns"
            layouts.add(tuple(kind_at(g, slot) for slot in range(1, 7)))
            orders.add(tuple(order))
    assert len(layouts) > 1 and len(orders) > 1                         # both are random, by the seed


# ---------------------------------------------------------------- 2: where a worker may not go

def test_no_worker_on_prestige_residential_unbuilt_or_occupied_spaces():
    g = new_game(players=4, turn_order=[RED, BLUE, GREEN, ORANGE])
    empty_road_after_neutrals(g)
    g.put_tile("residence", 9, RED)
    g.put_tile("statue", 10, BLUE)
    g.put_tile("wood_sawmill", 11, GREEN)
    occupy(g, "peddler", ORANGE)
    give(g, RED, denier=10)
    g.start_phase("placement")
    places = {o for o in g.legal_options() if o.startswith("place:")}
    assert places == {"place:" + name for name in (
        "gate", "trading_post", "merchants_guild", "joust_field", "stables", "inn", "castle",
        *NEUTRALS, "carpenter", "wood_sawmill", "gold_mine")}
    # Not the residence, the statue, the occupied peddler, nor an empty lot (none is offered).


def test_stables_hold_three_workers_one_per_player():
    g = new_game(players=5, turn_order=[RED, BLUE, GREEN, ORANGE, BLACK])
    occupy(g, "stables", BLUE)
    for p in range(5):
        give(g, p, denier=10)
    g.start_phase("placement")
    choose(g, "place:stables")                      # Red: the second circle
    assert "place:stables" not in g.legal_options()  # Blue already has a worker there
    choose(g, "pass")                               # Blue
    choose(g, "place:stables")                      # Green: the third and last circle
    assert g.s.occ["stables"] == [BLUE, RED, GREEN]
    assert g.current_player() == ORANGE and "place:stables" not in g.legal_options()


def test_castle_takes_several_workers_but_one_per_player():
    g = new_game(players=3, turn_order=[RED, BLUE, GREEN])
    for p in range(3):
        give(g, p, denier=10)
    g.start_phase("placement")
    choose(g, "place:castle", "place:castle")       # Red on space 1, Blue on space 2
    assert "place:castle" in g.legal_options()      # Green may join them
    choose(g, "pass")                               # Green
    assert g.current_player() == RED and "place:castle" not in g.legal_options()
    assert g.s.occ["castle"] == [RED, BLUE]


def test_inn_left_circle_takes_one_worker_and_the_right_circle_occupant_may_add_one():
    g = new_game(players=3, turn_order=[RED, BLUE, GREEN])
    occupy(g, "inn_right", RED)
    for p in range(3):
        give(g, p, denier=10)
    g.start_phase("placement")
    # "one player may have two of their workers in the inn simultaneously"
    choose(g, "place:inn")
    assert counter(g, "denier", RED) == 9           # from the right circle: 1 denier
    assert g.s.occ["inn"] == [RED]
    assert "place:inn" not in g.legal_options()     # Blue: the left circle is taken
