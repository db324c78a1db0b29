"""Every worked example of the Caylus rulebook, played through the engine.

Each test sets up the example's situation, plays it with the options the
example's players choose, and asserts the book's outcome.  Sections refer to
../shared/rules/caylus_rulebook_en.txt.

- Phase 1 example: residence + library + hotel give 6 deniers of income.
- 2A example: Green passes first and takes 1 denier; no more green workers.
- 2B/2C/2D examples: after two passes Red pays 3 for a neutral building,
  1 on his own farm, 3 on Blue's jeweller and Blue gains 1 PP.
- 3F example (inn): Red on the right circle pays 1 denier whatever the
  passing scale says; Blue enters the left circle and drives Red out.
- 3E example (stables): order Red/Green/Orange/Blue, Blue on stable 1 and
  Red on stable 2 give Blue/Red/Green/Orange.
- Phase 4 example: passing order Blue, Orange, Red, Green; Blue passes,
  Orange -2 (2 deniers), Red +2 (2), Green -1 (1): the provost ends one space back.
- Phase 5 example: Blue takes a pink or purple cube on the farm, Green buys a
  grey cube for 2 at the peddler, Red beyond the provost does nothing.
- 5A example: wood farm 2 food or 1 cloth; stone farm 2 food and 1 cloth, and
  its owner takes 1 food or 1 cloth when someone else uses it.
- 5B example (carpenter): Red builds the wood farm for 1 food + 1 wood on the
  first free space and gains 2 PP.
- 5B example (architect): Green on Blue's architect (Blue +1 PP) builds the
  Statue for 1 gold + 2 stone on his residence: +7 PP and a royal favor.
- 5C example (lawyer): Blue on his own lawyer (no PP) pays 1 cloth + 1 denier,
  turns the neutral carpenter into a residence: +2 PP, +1 denier income.
- Phase 6 example: Red 1 batch (5 PP); Green 2 batches, one in the Dungeon
  and one in the Walls (9 PP) and the favor; with 1 batch Red, first in the
  castle, would have had the favor.
- Phase 7 examples: bailiff +1 when the provost is behind him, +2 when
  ahead; the provost joins the bailiff; the Dungeon trigger scores.
- Scoring example: Red 2 houses (favor), Blue 3 (favor), Orange 0 (-2 PP,
  never below 0), Green 1 (nothing; his Walls house does not count).
- Favor examples: during the Dungeon scoring Orange cannot advance past
  column 2 and takes 2 PP; Blue, building the church in the Towers era,
  moves 2->3 on the resources row and takes food; Green's joust favor in the
  Walls era moves 2->3 on the buildings row and builds a park for 1 food.
"""
from __future__ import annotations

import pytest

from provost.interpreter.engine import IllegalOption

from caylus_scenarios import (BLACK, BLUE, GREEN, ORANGE, RED, choose, counter, empty_road_after_neutrals, give,
                              kind_at, new_game, occupy, set_counter, tile_at)


def test_income_residence_library_hotel():
    g = new_game(turn_order=[RED, BLUE, GREEN, ORANGE])
    empty_road_after_neutrals(g)
    g.put_tile("residence", 9, RED)
    g.put_tile("library", 10, RED)
    g.put_tile("hotel", 11, RED)
    give(g, RED, denier=0)
    g.start_phase("income")
    assert counter(g, "denier", RED) == 6


def test_first_passer_takes_a_denier_and_stops_placing():
    g = new_game(players=3, turn_order=[GREEN, BLUE, RED])
    for p in (RED, BLUE, GREEN):
        give(g, p, denier=10)
    g.start_phase("placement")
    assert g.current_player() == GREEN
    choose(g, "pass")
    assert counter(g, "denier", GREEN) == 11
    assert g.s.orders["passing_order"] == [GREEN]
    choose(g, "place:trading_post")          # Blue
    choose(g, "place:merchants_guild")       # Red
    assert g.current_player() == BLUE        # Green is skipped from now on
    choose(g, "pass")
    assert counter(g, "denier", BLUE) == 10 - 2   # 2 for the trading post; the second passer gets nothing


def test_placement_costs_after_two_passes():
    g = new_game(players=3, turn_order=[GREEN, BLUE, RED])
    empty_road_after_neutrals(g)
    g.put_tile("wood_farm_food", 9, RED)
    g.put_tile("jeweller", 10, BLUE)
    for p in (RED, BLUE, GREEN):
        give(g, p, denier=20)
    g.start_phase("placement")
    choose(g, "pass", "pass")                 # Green, then Blue
    choose(g, "place:joust_field")            # Red, special building: 3 deniers
    assert counter(g, "denier", RED) == 17
    choose(g, "place:wood_farm_food")         # his own farm: 1 denier
    assert counter(g, "denier", RED) == 16
    pp_blue = counter(g, "pp", BLUE)
    choose(g, "place:jeweller")               # Blue's jeweller: 3 deniers, Blue +1 PP
    assert counter(g, "denier", RED) == 13
    assert counter(g, "pp", BLUE) == pp_blue + 1


def test_inn_right_circle_pays_one_and_is_driven_out():
    g = new_game(players=3, turn_order=[GREEN, BLUE, RED])
    occupy(g, "inn_right", RED)
    for p in (RED, BLUE, GREEN):
        give(g, p, denier=20)
    g.start_phase("placement")
    choose(g, "pass")                         # Green passes: others would pay 2
    choose(g, "place:inn")                    # Blue enters the left circle for 2
    assert counter(g, "denier", BLUE) == 18
    choose(g, "place:neutral_quarry")         # Red pays 1 from the right circle
    assert counter(g, "denier", RED) == 19
    choose(g, "pass", "pass")                 # Blue, Red
    # Specials: the inn drives Red out and Blue moves to the right circle.
    assert g.s.occ["inn_right"] == [BLUE]
    assert g.s.occ.get("inn", []) == []
    assert RED not in g.s.occ["inn_right"]


def test_inn_occupant_may_stay_when_nobody_enters():
    g = new_game(players=3, turn_order=[GREEN, BLUE, RED])
    occupy(g, "inn_right", RED)
    g.start_phase("specials")
    assert g.current_player() == RED and set(g.legal_options()) == {"stay", "leave"}
    workers = counter(g, "workers", RED)
    choose(g, "leave")
    assert counter(g, "workers", RED) == workers + 1
    assert g.s.occ["inn_right"] == []


def test_stables_reorder_turn_order():
    g = new_game(players=4, turn_order=[RED, GREEN, ORANGE, BLUE])
    occupy(g, "stables", BLUE, RED)
    g.start_phase("specials")
    assert g.s.orders["turn_order"] == [BLUE, RED, GREEN, ORANGE]


def test_provost_moves_in_passing_order():
    g = new_game(players=4)
    g.s.counters["provost"] = 10
    occupy(g, "peddler", BLACK_SEAT := ORANGE)    # a worker on space 7 stops the game at activation
    g.s.orders["passing_order"] = [BLUE, ORANGE, RED, GREEN]
    for p in (RED, BLUE, GREEN, ORANGE):
        give(g, p, denier=5)
    g.start_phase("provost_moves")
    assert g.current_player() == BLUE
    choose(g, "pass")
    choose(g, "provost:-2")                   # Orange
    choose(g, "provost:2")                    # Red
    assert g.current_player() == GREEN
    choose(g, "provost:-1")
    assert [counter(g, "denier", p) for p in (BLUE, ORANGE, RED, GREEN)] == [5, 3, 3, 4]
    assert g.s.phase == "activation" and g.current_player() == BLACK_SEAT
    assert g.s.counters["provost"] == 9            # one space behind where it started


def test_provost_example_activates_green_but_not_red():
    # The same example, with the workers it speaks of: "Red and Green's pawns cannot be
    # activated anymore ... Green's building will be activated, but not Red's."  Green is on
    # space 9 and Red on space 11; the provost starts on 10 and ends on 9.
    g = new_game(players=4)
    empty_road_after_neutrals(g)
    g.put_tile("wood_sawmill", 9, GREEN)
    g.put_tile("wood_farm_food", 10, ORANGE)
    g.put_tile("wood_quarry", 11, RED)
    g.s.counters["provost"] = 10
    occupy(g, tile_at(g, 9), GREEN)
    occupy(g, tile_at(g, 11), RED)
    g.s.orders["passing_order"] = [BLUE, ORANGE, RED, GREEN]
    for p in (RED, BLUE, GREEN, ORANGE):
        give(g, p, denier=5, wood=0, stone=0)
    g.start_phase("provost_moves")
    choose(g, "pass", "provost:-2", "provost:2", "provost:-1")
    assert counter(g, "wood", GREEN) == 2           # the sawmill on space 9 worked
    assert counter(g, "stone", RED) == 0            # the quarry on space 11 did not


def test_provost_stays_within_the_road():
    g = new_game(players=3)
    g.s.counters["provost"] = 2
    g.s.orders["passing_order"] = [RED]
    give(g, RED, denier=5)
    g.start_phase("provost_moves")
    assert set(g.legal_options()) == {"pass", "provost:-1", "provost:1", "provost:2", "provost:3"}


def test_activation_up_to_the_provost():
    g = new_game(players=3)
    farm = tile_at(g, 1)
    g.put_tile("neutral_farm", 1)
    g.s.counters["provost"] = 7
    occupy(g, tile_at(g, 1), BLUE)
    occupy(g, "peddler", GREEN)           # space 7
    occupy(g, "gold_mine", RED)           # space 16: beyond the provost
    give(g, GREEN, denier=5, stone=0)
    give(g, RED, gold=0)
    g.start_phase("activation")
    assert g.current_player() == BLUE and set(g.legal_options()) == {"food", "cloth"}
    food = counter(g, "food", BLUE)
    choose(g, "food")
    assert counter(g, "food", BLUE) == food + 1
    assert g.current_player() == GREEN
    choose(g, "buy:stone")
    # 5 - 2 for the cube, + 2 income of the next turn (the game runs on to the next decision)
    assert counter(g, "stone", GREEN) == 1 and counter(g, "denier", GREEN) == 5
    assert counter(g, "gold", RED) == 0
    assert not g.s.occ.get("gold_mine")      # Red's worker came home unused
    del farm


def test_stone_farm_gives_its_owner_a_cube():
    g = new_game(players=3)
    empty_road_after_neutrals(g)
    g.put_tile("stone_farm", 9, BLUE)
    g.s.counters["provost"] = 9
    occupy(g, tile_at(g, 9), RED)
    give(g, RED, food=0, cloth=0)
    give(g, BLUE, food=0, cloth=0)
    g.start_phase("activation")
    assert counter(g, "food", RED) == 2 and counter(g, "cloth", RED) == 1
    assert g.current_player() == BLUE and set(g.legal_options()) == {"food", "cloth"}
    choose(g, "cloth")
    assert counter(g, "cloth", BLUE) == 1


def test_wood_farm_two_food_or_one_cloth():
    g = new_game(players=3)
    empty_road_after_neutrals(g)
    g.put_tile("wood_farm_food", 9, RED)
    g.s.counters["provost"] = 9
    occupy(g, tile_at(g, 9), RED)
    give(g, RED, food=0, cloth=0)
    g.start_phase("activation")
    choose(g, "food")
    assert counter(g, "food", RED) == 2 and counter(g, "cloth", RED) == 0


def test_carpenter_builds_on_the_first_free_space():
    g = new_game(players=3)
    empty_road_after_neutrals(g)
    g.s.counters["provost"] = 8
    occupy(g, "carpenter", RED)
    give(g, RED, food=1, wood=1, pp=0)
    g.start_phase("activation")
    assert "build:wood_farm_food" in g.legal_options()
    assert "build:mason" in g.legal_options()
    choose(g, "build:wood_farm_food")
    assert kind_at(g, 9) == "wood_farm_food" and g.s.tiles[tile_at(g, 9)][1] == RED
    assert counter(g, "pp", RED) == 2
    assert counter(g, "food", RED) == 0 and counter(g, "wood", RED) == 0
    assert g.s.supply["wood_farm_food"] == 0


def test_neutral_carpenter_example_builds_the_wood_farm():
    # "Red has one of his workers on the neutral carpenter, and wants to build a wood farm. He
    # pays 1 food cube and 1 wood cube ..., places the farm on the first space available on the
    # board ... and immediately gains 2 PPs."
    g = new_game(players=3)
    empty_road_after_neutrals(g)
    g.s.counters["provost"] = g.s.road.index("neutral_carpenter")
    occupy(g, "neutral_carpenter", RED)
    give(g, RED, food=1, wood=1, pp=0)
    g.start_phase("activation")
    choose(g, "build:wood_farm_food")
    assert kind_at(g, 9) == "wood_farm_food" and g.s.tiles[tile_at(g, 9)][1] == RED
    assert counter(g, "pp", RED) == 2
    assert counter(g, "food", RED) == 0 and counter(g, "wood", RED) == 0


def test_architect_builds_the_statue_on_a_residence():
    g = new_game(players=3)
    empty_road_after_neutrals(g)
    g.put_tile("architect", 9, BLUE)
    g.put_tile("residence", 10, GREEN)
    give(g, GREEN, gold=1, stone=2, pp=0, denier=10)
    give(g, BLUE, pp=0)
    g.s.orders["turn_order"] = [GREEN, BLUE, RED]
    g.start_phase("placement")
    choose(g, "place:architect")
    assert counter(g, "pp", BLUE) == 1
    choose(g, "pass", "pass", "pass")
    g.s.counters["provost"] = 10
    # Provost phase: everyone passes the move.
    while g.s.phase == "provost_moves":
        choose(g, "pass")
    assert g.s.phase == "activation"
    assert "build:statue@residence" in g.legal_options()
    choose(g, "build:statue@residence")
    assert kind_at(g, 10) == "statue" and g.s.tiles[tile_at(g, 10)][1] == GREEN
    assert counter(g, "pp", GREEN) == 7
    assert counter(g, "gold", GREEN) == 0 and counter(g, "stone", GREEN) == 0
    # ... and the statue's royal favor is asked at once.
    assert g.prompt() == "Royal favor: choose a row"


def test_lawyer_turns_a_neutral_building_into_a_residence():
    g = new_game(players=3)
    empty_road_after_neutrals(g)
    g.put_tile("lawyer", 9, BLUE)
    g.s.counters["provost"] = 9
    give(g, BLUE, cloth=1, denier=1, pp=0)
    g.s.orders["turn_order"] = [BLUE, RED, GREEN]
    slot = g.s.road.index("neutral_carpenter")
    g.start_phase("placement")
    choose(g, "place:lawyer")                 # Blue's own lawyer: 1 denier, no PP
    assert counter(g, "pp", BLUE) == 0 and counter(g, "denier", BLUE) == 0
    give(g, BLUE, denier=1)
    while g.s.phase == "placement":
        choose(g, "pass")
    while g.s.phase == "provost_moves":
        choose(g, "pass")
    assert "transform:neutral_carpenter" in g.legal_options()
    assert "transform:lawyer" not in g.legal_options()
    choose(g, "transform:neutral_carpenter")
    assert kind_at(g, slot) == "residence" and g.s.tiles[tile_at(g, slot)][1] == BLUE
    assert counter(g, "pp", BLUE) == 2
    assert "neutral_carpenter" not in g.s.supply or g.s.supply["neutral_carpenter"] == 0  # discarded
    # "At each subsequent turn, he will earn an additional income of 1 denier": his last denier
    # paid the change; the next turn's income is 2 + 1.
    assert g.s.phase == "placement" and g.s.round == 2
    assert counter(g, "denier", BLUE) == 2 + 1


def test_lawyer_on_an_occupied_building_waits_for_its_activation():
    g = new_game(players=3)
    empty_road_after_neutrals(g)
    g.put_tile("lawyer", 9, BLUE)
    g.put_tile("wood_sawmill", 10, BLUE)
    g.s.counters["provost"] = 10
    occupy(g, "lawyer", BLUE)
    occupy(g, "wood_sawmill", RED)
    give(g, BLUE, cloth=1, denier=1, pp=0)
    give(g, RED, wood=0)
    g.start_phase("activation")
    choose(g, "transform:wood_sawmill")
    assert counter(g, "cloth", BLUE) == 0
    assert counter(g, "denier", BLUE) == 3         # paid at once (1 - 1), then income: 2 + 1 for the new residence
    # Red's worker was still activated on the sawmill, then the change happened.
    assert counter(g, "wood", RED) == 2
    assert kind_at(g, 10) == "residence"
    assert g.s.supply["wood_sawmill"] == 1       # a player's tile goes back to the stock


def _castle(g, order):
    for p in order:
        occupy(g, "castle", p)
    g.start_phase("build_castle")


def test_castle_batches_spill_into_the_walls_and_most_batches_take_the_favor():
    g = new_game(players=4)
    g.s.counters["section_filled"] = [4, 0, 0]      # one space left in the Dungeon after Red's batch
    give(g, RED, food=1, wood=1, stone=1, pp=0)
    give(g, GREEN, food=2, wood=2, stone=1, cloth=1, pp=0)
    _castle(g, [RED, GREEN])
    choose(g, "batch:food+wood+stone")              # Red
    assert counter(g, "pp", RED) == 5
    choose(g, "batch:food+wood+stone")              # Green: the last Dungeon space
    choose(g, "batch:food+wood+cloth")              # and one in the Walls
    assert counter(g, "pp", GREEN) == 9
    assert g.s.counters["castle_parts"][GREEN] == [1, 1, 0]
    assert g.current_player() == GREEN and g.prompt() == "Royal favor: choose a row"


def test_castle_tie_goes_to_the_first_arrival():
    g = new_game(players=4)
    g.s.counters["section_filled"] = [4, 0, 0]
    give(g, RED, food=1, wood=1, stone=1, pp=0)
    give(g, GREEN, food=2, wood=2, stone=1, cloth=1, pp=0)
    _castle(g, [RED, GREEN])
    choose(g, "batch:food+wood+stone")              # Red
    choose(g, "batch:food+wood+stone", "stop")      # Green, one batch only
    assert counter(g, "pp", GREEN) == 5
    assert g.current_player() == RED and g.prompt() == "Royal favor: choose a row"


def test_castle_penalty_never_below_zero_and_not_when_full():
    g = new_game(players=4)
    give(g, RED, food=0, pp=1)
    give(g, BLUE, pp=5, food=1, wood=1, stone=1)
    _castle(g, [RED, BLUE])
    assert counter(g, "pp", RED) == 0                  # -2, floored at 0
    choose(g, "stop")                                  # Blue could but will not
    assert counter(g, "pp", BLUE) == 3
    # No room: the Dungeon and Walls scored, one Towers part left, which Red, first in the
    # castle, fills; Blue owns a batch but cannot give it: he keeps his cubes and his PP.
    g2 = new_game(players=4)
    g2.s.counters["scored"] = [1, 1, 0]
    g2.s.counters["current_section"] = 2
    g2.s.counters["favor_columns"] = 5
    g2.s.counters["section_filled"] = [6, 10, 13]
    give(g2, RED, pp=5, food=1, wood=1, stone=1)
    give(g2, BLUE, pp=5, food=1, wood=1, stone=1)
    _castle(g2, [RED, BLUE])
    assert g2.current_player() == RED
    choose(g2, "batch:food+wood+stone")
    assert counter(g2, "pp", RED) == 8                 # a Towers part: 3 PP
    assert g2.s.counters["section_filled"] == [6, 10, 14]
    assert counter(g2, "pp", BLUE) == 5                # no room: no penalty
    assert [counter(g2, c, BLUE) for c in ("food", "wood", "stone")] == [1, 1, 1]
    assert g2.current_player() == RED and g2.prompt() == "Royal favor: choose a row"   # Red's most batches


def test_bailiff_moves_one_when_the_provost_is_behind():
    g = new_game(players=4)
    g.s.counters["bailiff"] = 9
    g.s.counters["provost"] = 7
    g.start_phase("end_of_turn")
    assert g.s.counters["bailiff"] == 10 and g.s.counters["provost"] == 10
    assert g.s.counters["scored"] == [0, 0, 0]


def test_bailiff_moves_two_and_reaches_the_dungeon_trigger():
    g = new_game(players=4)
    g.s.counters["bailiff"] = 10
    g.s.counters["provost"] = 11
    g.start_phase("end_of_turn")
    assert g.s.counters["bailiff"] == 12
    assert g.s.counters["scored"][0] == 1 and g.s.counters["favor_columns"] == 4


def _answer_favors(g, row="row_prestige"):
    while g.prompt().startswith("Royal favor"):
        opts = g.legal_options()
        pick = next((o for o in opts if o == "row:" + row), None) or opts[-1]
        choose(g, pick)


def test_dungeon_scoring_by_houses():
    g = new_game(players=4, turn_order=[RED, BLUE, ORANGE, GREEN])
    g.s.counters["castle_parts"] = [[2, 0, 0], [3, 0, 0], [1, 1, 0], [0, 0, 0]]
    for p in (RED, BLUE, GREEN, ORANGE):
        give(g, p, pp=0)
    give(g, ORANGE, pp=1)
    g.s.counters["bailiff"] = 11
    g.s.counters["provost"] = 12
    g.start_phase("end_of_turn")
    # Red's favor is asked first (turn order), then Blue's; both take 1 PP on the prestige row.
    assert g.current_player() == RED
    choose(g, "row:row_prestige")
    assert g.current_player() == BLUE
    _answer_favors(g)
    assert counter(g, "pp", RED) == 1 and counter(g, "pp", BLUE) == 1
    assert counter(g, "pp", ORANGE) == 0          # -2 PP, never below 0
    assert counter(g, "pp", GREEN) == 0           # one house: nothing, the Walls house does not count


def test_favor_during_dungeon_scoring_cannot_pass_column_two():
    g = new_game(players=4, turn_order=[ORANGE, RED, BLUE, GREEN])
    g.s.counters["castle_parts"] = [[1, 0, 0], [1, 0, 0], [1, 0, 0], [2, 0, 0]]
    g.s.counters["favor_level"][ORANGE] = [2, 0, 0, 0]
    give(g, ORANGE, pp=0)
    g.s.counters["bailiff"] = 11
    g.s.counters["provost"] = 12
    g.start_phase("end_of_turn")
    assert g.current_player() == ORANGE
    choose(g, "row:row_prestige")
    assert g.s.counters["favor_level"][ORANGE][0] == 2
    choose(g, "column:2")
    assert counter(g, "pp", ORANGE) == 2


def test_church_favor_in_the_towers_era():
    g = new_game(players=4)
    empty_road_after_neutrals(g)
    g.s.counters["favor_columns"] = 5
    g.s.counters["favor_level"][BLUE] = [0, 0, 2, 0]
    g.s.counters["provost"] = 8
    occupy(g, "carpenter", BLUE)      # the church is stone: use the favor through a mason instead
    g.put_tile("mason", 9, BLUE)
    g.s.occ["carpenter"] = []
    g.s.counters["workers"][BLUE] += 1
    occupy(g, tile_at(g, 9), BLUE)
    g.s.counters["provost"] = 9
    give(g, BLUE, stone=1, cloth=1, food=0)
    g.start_phase("activation")
    choose(g, "build:church")
    assert counter(g, "pp", BLUE) == 3                 # 5F: the church's 3 PP, then its favor
    assert g.prompt() == "Royal favor: choose a row"
    choose(g, "row:row_cubes")
    assert g.s.counters["favor_level"][BLUE][2] == 3
    assert set(g.legal_options()) == {"column:1", "column:2", "column:3"}
    choose(g, "column:1")
    assert counter(g, "food", BLUE) == 1


def test_joust_favor_builds_a_park_one_stone_cheaper():
    g = new_game(players=4)
    empty_road_after_neutrals(g)
    g.s.counters["favor_columns"] = 4
    g.s.counters["favor_level"][GREEN] = [0, 0, 0, 2]
    occupy(g, "joust_field", GREEN)
    give(g, GREEN, denier=1, cloth=1, food=1, stone=0, pp=0)
    g.start_phase("specials")
    choose(g, "joust")
    choose(g, "row:row_buildings")
    assert g.s.counters["favor_level"][GREEN][3] == 3
    choose(g, "column:3")
    assert "build:park" in g.legal_options()
    choose(g, "build:park")
    assert kind_at(g, 9) == "park" and counter(g, "pp", GREEN) == 3 and counter(g, "food", GREEN) == 0


def test_several_favors_in_one_phase_use_different_rows():
    g = new_game(players=4)
    g.run_effect("favor", RED, 2)
    choose(g, "row:row_deniers")                    # level 1: the only column is taken at once
    assert g.prompt() == "Royal favor: choose a row"
    assert "row:row_deniers" not in g.legal_options() and "row:row_prestige" in g.legal_options()


def test_gate_moves_the_worker_and_pays_the_owner():
    g = new_game(players=3)
    empty_road_after_neutrals(g)
    g.put_tile("wood_quarry", 9, BLUE)
    occupy(g, "gate", RED)
    give(g, BLUE, pp=0)
    give(g, RED, stone=0)
    g.s.counters["provost"] = 9
    g.start_phase("specials")
    assert "move:wood_quarry" in g.legal_options() and "move:castle" in g.legal_options()
    choose(g, "move:wood_quarry")
    assert counter(g, "pp", BLUE) == 1
    assert counter(g, "stone", RED) == 2           # the moved worker worked in phase 5


def test_joust_field_needs_a_denier_and_a_cloth():
    for denier, cloth in ((1, 0), (0, 1)):
        g = new_game(players=3)
        occupy(g, "joust_field", RED)
        give(g, RED, denier=denier, cloth=cloth, pp=0)
        levels = [list(row) for row in g.s.counters["favor_level"]]
        workers = counter(g, "workers", RED)
        g.start_phase("specials")
        # Nothing to decide: no joust, no favor, the worker came home, and (with no other
        # worker out) the turn ran on to the next one's placement, after its income of 2.
        assert g.s.occ.get("joust_field") == []
        assert counter(g, "workers", RED) == workers + 1
        assert g.s.phase == "placement"
        assert counter(g, "denier", RED) == denier + 2 and counter(g, "cloth", RED) == cloth
        assert counter(g, "pp", RED) == 0 and g.s.counters["favor_level"] == levels
        assert not g.prompt().startswith("Royal favor")
    # With both, the joust costs exactly 1 denier and 1 cloth and gives one favor.
    g = new_game(players=3)
    occupy(g, "joust_field", RED)
    give(g, RED, denier=1, cloth=1, pp=0)
    g.start_phase("specials")
    assert g.current_player() == RED and set(g.legal_options()) == {"skip", "joust"}
    choose(g, "joust")
    assert counter(g, "denier", RED) == 0 and counter(g, "cloth", RED) == 0
    assert g.prompt() == "Royal favor: choose a row"
    choose(g, "row:row_prestige")                  # level 1: 1 PP at once
    assert counter(g, "pp", RED) == 1 and g.s.counters["favor_level"][RED] == [1, 0, 0, 0]


def test_illegal_option_names_the_legal_ones_and_changes_nothing():
    g = new_game(players=3)
    before = g.to_json()
    with pytest.raises(IllegalOption) as e:
        g.apply("place:nowhere")
    assert "legal options" in str(e.value) and "pass" in str(e.value)
    assert g.to_json() == before


def test_game_ends_after_the_towers_are_scored_and_converts_leftovers():
    g = new_game(players=3)
    g.s.counters["scored"] = [1, 1, 0]
    g.s.counters["current_section"] = 2
    g.s.counters["favor_columns"] = 5
    g.s.counters["castle_parts"] = [[0, 0, 1], [0, 0, 1], [0, 0, 1]]
    g.s.counters["bailiff"] = 23
    g.s.counters["provost"] = 20
    for p in range(3):
        give(g, p, pp=10, gold=1, food=2, wood=1, stone=0, cloth=0, denier=9)
    g.start_phase("end_of_turn")
    assert g.finished
    # 3 PP per gold, 1 PP per 3 cubes, 1 PP per 4 deniers
    assert g.scores() == [16, 16, 16]            # 10 + 3 + 1 + 2
    assert g.winners() == [0, 1, 2]               # ties share the win
