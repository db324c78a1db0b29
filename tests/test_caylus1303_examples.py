"""Every worked example of the Caylus 1303 rulebook, played through the engine, and the awkward rules.

Each example test sets up the example's situation, plays it with the options the
example's players choose, and asserts the book's outcome.  Sources are
../shared/rules/caylus1303_rulebook_en.txt (section named) and, where the
rulebook lost its icons, caylus1303_condensed_en.md.

Worked examples of the rulebook:
- Phase 1 (Planning), passing example: Blue passes first and takes the first
  player tile; Black passes; Green places a worker and returns 1 more to the camp;
  Red passes; Green places a last worker (+1 to the camp) and passes.  Bridge
  order Blue, Black, Red, Green.            -> test_planning_example_passing
- Phase 2, Carpenter example: Red on the Carpenter builds a Quarry for 1 wood +
  1 food on the first empty road space, puts a house on it, gains 2 PP.
                                            -> test_carpenter_example_quarry
- Phase 2, "Buildings placed after the Provost" example: Red takes 1 (food) and
  Yellow takes 2 (food) before the provost; the red and green workers after the
  provost do nothing and go to the camp.    -> test_workers_after_the_provost_example
- Phase 2, "NEVER return a Worker that was placed on the board in front of you":
  activated workers go to the camp, not back to the hand.
                                            -> test_activated_workers_go_to_the_camp
- Phase 3 (Delivery) example: Red (space 1) 1 bundle = 5 PP, Green 2 bundles =
  10 PP and the favor; had Green delivered 1, Red (placed first) would have had it.
                                            -> test_delivery_example_most_bundles,
                                               test_delivery_example_tie_goes_to_first_worker
- Phase 4, Monuments note: the Theater gives 12 PP and a favor.
                                            -> test_theater_gives_a_favor
- Phase 4, provost examples 1) 2) 3): the provost between the Quarry and the
  Stonemason; between the Sawmill and the Gold Mine; between the Gold Mine and the
  Alchemist.                                -> test_provost_example_1/2/3
- Setup (workers 10/6/6/10, camp, 2 wood 1 food 1 stone, 1 starting building + 1
  setup wood + 1 setup stone on the construction site, 8 starting buildings on the
  road, the Stonemason never on the road, 7 + 7 buildings beside the board, the
  provost before the wood space, players + 3 characters chosen in reverse order and
  3 left on the board).                     -> test_setup_*
- End of the game: 2 PP per gold, shared victory.
                                            -> test_end_scoring_and_shared_victory

Awkward rules (rulebook "Limited quantities", favors, characters and tiles.md): the
extra worker after a pass and the Night Worker, a player with one worker after a pass,
the construction site's one worker per player, the owner's PP (Thief, Steward, own
building), the Journeyman, the Early Riser, the Guilds Bridge paid in workers and
bounded by the bridge and the end of the road, the Bailiff, the Toll, the Fairground,
the Lawyer and residences, monuments in road order and their rewards, houses running
out, the 16th worker lost, favors limited by round and taking characters, the setup
Stonemason's discount, the stone buildings' owner bonus, Chamberlain, Foreman,
Goldsmith, Deliveryman, Architect, Day Laborer (assumption), the Market's extra
worker, buildings paid in workers, recruitment by player count, save/resume/replay.
"""
from __future__ import annotations

import random

import pytest

from provost.dsl.loader import load_checked
from provost.interpreter.engine import Game, IllegalOption

from caylus1303_scenarios import (BLACK, BLUE, DEFAULT_ROAD, GREEN, RED, YELLOW, choose, counter, give, kind_at, new_game,
                                  occupy, only_phase, owner_at, ruleset, workers_total)


# ------------------------------------------------------------------ Phase 1: planning
def test_planning_example_passing():
    g = new_game(players=4, first=RED)
    g.start_phase("planning")
    assert g.current_player() == RED
    choose(g, "place:start_farm")                     # before anyone passed: no extra worker
    assert counter(g, "workers", RED) == 5 and counter(g, "camp", RED) == 9
    choose(g, "pass")                                 # Blue passes first
    assert g.s.counters["first_player"] == BLUE
    choose(g, "pass")                                 # Black
    choose(g, "place:start_sawmill")                  # Green: 1 worker placed, 1 more to the camp
    assert counter(g, "workers", GREEN) == 4 and counter(g, "camp", GREEN) == 10
    choose(g, "pass")                                 # Red
    assert g.current_player() == GREEN                # the only one still playing
    choose(g, "place:start_quarry")
    assert counter(g, "workers", GREEN) == 2 and counter(g, "camp", GREEN) == 11
    choose(g, "pass")
    assert g.s.orders["bridge"] == [BLUE, BLACK, RED, GREEN]
    assert g.s.counters["first_player"] == BLUE       # Blue will start the next round


def test_extra_worker_makes_a_last_worker_unplaceable():
    g = new_game(players=2, first=BLUE)
    give(g, BLACK, workers=1)
    g.start_phase("planning")
    choose(g, "pass")                                 # Blue
    # Black has one worker: placing now costs two, so passing is the only option (taken at once).
    assert g.s.orders["bridge"] == [BLUE, BLACK]
    assert counter(g, "workers", BLACK) == 1


def test_night_worker_places_without_the_extra_worker():
    g = new_game(players=2, first=BLUE, characters={BLACK: "night_worker"})
    g.start_phase("planning")
    choose(g, "pass", "place:start_farm")
    assert counter(g, "workers", BLACK) == 9 and counter(g, "camp", BLACK) == 5


def test_construction_site_one_worker_per_player():
    g = new_game(players=2, first=BLUE)
    g.start_phase("planning")
    choose(g, "place:construction_site", "place:construction_site")
    assert "place:construction_site" not in g.legal_options()          # Blue already has one there
    assert g.s.occ["construction_site"] == [BLUE, BLACK]


def test_no_worker_on_residences_monuments_site_buildings_or_empty_lots():
    g = new_game(players=2, first=BLUE,
                 road={1: ("residence", BLACK), 2: ("garden", BLACK), 3: "start_farm", 9: "wood_farm_setup"})
    g.start_phase("planning")
    places = {o for o in g.legal_options() if o.startswith("place:")}
    assert places == {"place:fairground", "place:lawyer", "place:carpenter", "place:toll",
                      "place:construction_site", "place:start_farm", "place:wood_farm_setup"}


def test_owner_gains_a_prestige_point_when_another_player_places():
    g = new_game(players=3, first=BLUE, road={1: "start_farm", 9: ("wood_farm", BLACK), 10: ("wood_quarry", BLUE),
                                              11: ("wood_sawmill", GREEN)})
    g.start_phase("planning")
    choose(g, "place:wood_farm")                      # Blue on Black's farm: Black +1
    assert counter(g, "pp", BLACK) == 1
    choose(g, "place:wood_quarry")                    # Black on Blue's quarry: Blue +1
    assert counter(g, "pp", BLUE) == 1
    choose(g, "place:wood_sawmill")                   # Green on his own sawmill: nothing
    assert counter(g, "pp", GREEN) == 0


def test_steward_gains_two_and_thief_gives_nothing():
    g = new_game(players=3, first=BLUE, road={1: "start_farm", 9: ("wood_farm", GREEN), 10: ("wood_quarry", GREEN)},
                 characters={GREEN: "steward", BLACK: "thief"})
    g.start_phase("planning")
    choose(g, "place:wood_farm")                      # Blue on the Steward's farm: +2
    assert counter(g, "pp", GREEN) == 2
    choose(g, "place:wood_quarry")                    # the Thief: nothing
    assert counter(g, "pp", GREEN) == 2


def test_journeyman_shares_a_building_and_activates_after():
    g = new_game(players=2, first=BLUE, characters={BLACK: "journeyman"})
    g.start_phase("planning")
    choose(g, "place:start_farm")                     # Blue, slot 1
    assert "journeyman:start_farm" in g.legal_options()
    choose(g, "journeyman:start_farm")
    assert g.s.occ["start_farm"] == [BLUE, BLACK]
    choose(g, "place:start_sawmill")                  # Blue
    assert not any(o.startswith("journeyman:") for o in g.legal_options())   # once a round
    choose(g, "pass", "pass")                         # Black, Blue
    choose(g, "pass", "pass")                         # the Guilds Bridge: nobody moves the provost
    # Activation: both take their food, Blue first; both workers go to the camp.
    assert counter(g, "food", BLUE) == 2 and counter(g, "food", BLACK) == 2
    assert counter(g, "wood", BLUE) == 3


def test_early_riser_places_before_the_first_player():
    g = new_game(players=3, first=BLUE, characters={GREEN: "early_riser"})
    g.start_phase("planning")
    assert g.current_player() == GREEN and "skip" in g.legal_options()
    choose(g, "place:start_guild")
    assert counter(g, "workers", GREEN) == 4 and counter(g, "camp", GREEN) == 10
    assert g.current_player() == BLUE


# ------------------------------------------------------------------ Phase 2: activation
def test_carpenter_example_quarry():
    g = new_game(players=4)
    give(g, RED, wood=1, food=1, stone=0)
    occupy(g, "carpenter", RED)
    g.start_phase("activation")
    assert g.current_player() == RED
    assert "build:wood_quarry" in g.legal_options()
    choose(g, "build:wood_quarry")
    assert kind_at(g, 10) == "wood_quarry" and owner_at(g, 10) == RED     # the first empty road space
    assert counter(g, "pp", RED) == 2
    assert counter(g, "houses", RED) == 8
    assert counter(g, "wood", RED) == 0 and counter(g, "food", RED) == 0
    assert g.s.counters["provost"] == 9                # stewardship: just before the last construction


def test_workers_after_the_provost_example():
    g = new_game(players=5, road={**DEFAULT_ROAD, 10: ("wood_farm", BLUE), 11: ("stone_quarry", BLUE),
                                  12: ("wood_sawmill", BLUE)})
    g.s.counters["provost"] = 10                       # between the wood Farm (10) and the stone Quarry (11)
    occupy(g, 1, RED)                                  # starting Farm: 1 food
    occupy(g, 10, YELLOW)                              # wood Farm: 2 food
    occupy(g, 11, RED)                                 # beyond the provost
    occupy(g, 12, GREEN)                               # beyond the provost
    food = [counter(g, "food", p) for p in range(5)]
    stone, wood, blue_stone = counter(g, "stone", RED), counter(g, "wood", GREEN), counter(g, "stone", BLUE)
    only_phase(g, "activation")
    assert counter(g, "food", RED) == food[RED] + 1
    assert counter(g, "food", YELLOW) == food[YELLOW] + 2
    assert counter(g, "stone", RED) == stone and counter(g, "wood", GREEN) == wood
    assert counter(g, "stone", BLUE) == blue_stone     # no owner's bonus: the quarry was not activated
    assert not any(g.s.occ.values())                   # every worker went to the camp
    assert counter(g, "camp", RED) == 5 + 2 and counter(g, "camp", GREEN) == 5 + 1
    assert counter(g, "camp", YELLOW) == 5 + 1


def test_activated_workers_go_to_the_camp():
    g = new_game(players=2)
    occupy(g, 1, BLUE)
    occupy(g, 2, BLUE)
    occupy(g, 17, BLACK)                               # beyond the provost
    g.s.counters["provost"] = 8
    only_phase(g, "activation")
    assert counter(g, "workers", BLUE) == 8 and counter(g, "camp", BLUE) == 7
    assert counter(g, "workers", BLACK) == 9 and counter(g, "camp", BLACK) == 6
    assert workers_total(g, BLUE) == workers_total(g, BLACK) == 15


def test_guilds_bridge_in_bridge_order_paid_in_workers():
    g = new_game(players=3)
    g.s.orders["bridge"] = [GREEN, BLUE, BLACK]
    only_phase(g, "activation")
    assert g.current_player() == GREEN
    choose(g, "provost:3")                             # 3 workers to the camp
    assert g.s.counters["provost"] == 11 and counter(g, "workers", GREEN) == 3 and counter(g, "camp", GREEN) == 12
    assert g.current_player() == BLUE
    choose(g, "provost:-2")
    assert g.current_player() == BLACK
    choose(g, "pass")
    assert counter(g, "workers", BLUE) == 4 and counter(g, "workers", BLACK) == 6


def test_guilds_bridge_steps_limited_by_workers_and_the_road():
    g = new_game(players=2)
    g.s.orders["bridge"] = [BLUE, BLACK]
    give(g, BLUE, workers=2)
    g.s.counters["provost"] = 1
    only_phase(g, "activation")
    # Two workers: two steps at most; never behind the Guilds Bridge (0).
    assert set(g.legal_options()) == {"pass", "provost:-1", "provost:1", "provost:2"}
    g = new_game(players=2)
    g.s.orders["bridge"] = [BLUE]
    g.s.counters["provost"] = 25
    only_phase(g, "activation")
    # The end of the road: slot 24, then the provost-only spaces 25 and 26.
    assert set(g.legal_options()) == {"pass", "provost:-3", "provost:-2", "provost:-1", "provost:1"}


def test_bailiff_moves_the_provost_one_step_after_the_bridge():
    g = new_game(players=2, characters={BLACK: "bailiff"})
    g.s.orders["bridge"] = [BLUE]
    only_phase(g, "activation")
    choose(g, "provost:1")                             # Blue: 9
    assert g.current_player() == BLACK and set(g.legal_options()) == {"stay", "provost:-1", "provost:1"}
    workers = counter(g, "workers", BLACK)
    choose(g, "provost:1")
    assert g.s.counters["provost"] == 10 and counter(g, "workers", BLACK) == workers


def test_toll_moves_the_provost_up_to_two():
    g = new_game(players=2)
    occupy(g, "toll", BLUE)
    only_phase(g, "activation")
    assert set(g.legal_options()) == {"stay", "provost:-2", "provost:-1", "provost:1", "provost:2"}
    choose(g, "provost:-2")
    assert g.s.counters["provost"] == 6


def test_fairground_wood_for_a_favor():
    g = new_game(players=2, board=["foreman"], site=["start_farm", "manor_setup", "church_setup"])
    occupy(g, "fairground", BLUE)
    g.start_phase("activation")
    choose(g, "favor")                                 # 1 wood; round 1: only the first site building
    assert counter(g, "wood", BLUE) == 1 and counter(g, "food", BLUE) == 2
    choose(g, "character:foreman")
    assert g.s.zones["characters"][BLUE] == ["foreman"] and g.s.zones["character_board"] == []


def test_lawyer_house_becomes_a_residence_at_stewardship():
    g = new_game(players=2)
    give(g, BLUE, fabric=1)
    occupy(g, "lawyer", BLUE)
    occupy(g, 3, BLACK)                                # Black's worker on the quarry still works this round
    g.start_phase("activation")
    assert "house:start_quarry" in g.legal_options()
    choose(g, "house:start_quarry")
    # The quarry is activated for Black; at stewardship it flips to Blue's residence,
    # which brings Blue 1 more worker at recruitment.
    assert counter(g, "stone", BLACK) == 2
    assert kind_at(g, 3) == "residence" and owner_at(g, 3) == BLUE
    assert counter(g, "houses", BLUE) == 8 and counter(g, "fabric", BLUE) == 0
    assert counter(g, "workers", BLUE) == 9 + 3 + 1
    assert counter(g, "workers", BLACK) == 9 + 3


def test_lawyer_needs_a_house():
    g = new_game(players=2)
    give(g, BLUE, fabric=1, houses=0)
    occupy(g, "lawyer", BLUE)
    g.start_phase("activation")
    assert owner_at(g, 1) == -1 and counter(g, "fabric", BLUE) == 1


def test_no_house_no_construction():
    g = new_game(players=2)
    give(g, BLUE, wood=5, food=5, houses=0)
    occupy(g, "carpenter", BLUE)
    g.start_phase("activation")
    assert kind_at(g, 10) is None and counter(g, "wood", BLUE) == 5


def test_no_construction_when_the_road_is_full():
    road = {i: "start_farm" for i in range(1, 9)}
    road.update({i: ("wood_farm", BLACK) for i in range(9, 25)})
    g = new_game(players=2, road=road)
    give(g, BLUE, wood=5, food=5)
    occupy(g, "carpenter", BLUE)
    g.start_phase("activation")
    assert counter(g, "wood", BLUE) == 5 and g.s.phase != "activation"


def test_stonemason_setup_side_builds_without_its_stone():
    g = new_game(players=2, road={**DEFAULT_ROAD, 9: "stonemason_setup"})
    give(g, BLUE, stone=0, food=1, wood=0)
    occupy(g, 9, BLUE)
    g.s.counters["provost"] = 9
    only_phase(g, "activation")
    assert "build:gold_mine" in g.legal_options()      # Gold Mine: stone + food, the stone is free
    choose(g, "build:gold_mine")
    assert kind_at(g, 10) == "gold_mine" and counter(g, "pp", BLUE) == 4 and counter(g, "food", BLUE) == 0


def test_stonemason_construction_side_pays_the_stone():
    g = new_game(players=2, road={**DEFAULT_ROAD, 10: ("stonemason", BLACK)})
    g.s.counters["provost"] = 10
    give(g, BLUE, stone=1, food=1, wood=0, fabric=0)
    occupy(g, 10, BLUE)
    only_phase(g, "activation")
    assert set(g.legal_options()) == {"skip", "build:gold_mine", "build:stone_farm", "build:stone_quarry",
                                      "build:stone_sawmill", "build:stone_guild/food"}
    choose(g, "build:stone_farm")
    assert counter(g, "stone", BLUE) == 0 and kind_at(g, 11) == "stone_farm"


def test_stone_farm_owner_bonus_only_for_another_players_worker():
    g = new_game(players=2, road={1: "start_farm", 9: "wood_farm_setup", 10: ("stone_farm", BLACK),
                                  11: ("stone_quarry", BLUE)})
    g.s.counters["provost"] = 11
    occupy(g, 10, BLUE)
    occupy(g, 11, BLUE)
    food, stone = counter(g, "food", BLACK), counter(g, "stone", BLUE)
    g.start_phase("activation")
    assert counter(g, "food", BLUE) == 1 + 2 and counter(g, "fabric", BLUE) == 2
    assert counter(g, "food", BLACK) == food + 1       # Black's farm used by Blue
    assert counter(g, "stone", BLUE) == stone + 2      # his own quarry: no bonus


def test_market_returns_one_more_worker():
    g = new_game(players=2)
    occupy(g, 4, BLUE)                                 # the starting Market
    only_phase(g, "activation")
    choose(g, "take:fabric")
    assert counter(g, "fabric", BLUE) == 1
    assert counter(g, "workers", BLUE) == 8 and counter(g, "camp", BLUE) == 7


def test_buildings_paid_in_workers():
    g = new_game(players=2, road={1: "start_farm", 9: "foundry_setup", 10: ("church", BLACK),
                                  11: ("covered_market", BLACK)})
    g.s.counters["provost"] = 11
    for slot in (9, 10, 11):
        occupy(g, slot, BLUE)
    give(g, BLUE, workers=7, camp=5)                   # 7 in hand, 3 placed, 5 in the camp
    only_phase(g, "activation")
    assert set(g.legal_options()) == {"skip", "one", "three"}
    choose(g, "three")                                 # Foundry: 3 workers for 2 gold
    assert counter(g, "gold", BLUE) == 2 and counter(g, "workers", BLUE) == 4
    choose(g, "four")                                  # Church: 4 workers for 6 PP
    # Then the Covered Market: 3 workers from the camp.
    assert counter(g, "pp", BLUE) == 6 and counter(g, "workers", BLUE) == 0 + 3
    assert counter(g, "camp", BLUE) == 5 + 3 + 4 + 3 - 3
    assert workers_total(g, BLUE) == 15


def test_a_sixteenth_worker_is_lost():
    g = new_game(players=2, road={1: "start_guild_stone", 9: "wood_farm_setup"})
    occupy(g, 1, BLUE)
    give(g, BLUE, camp=1, workers=13, stone=1)        # 13 in hand + 1 placed + 1 in the camp
    only_phase(g, "activation")
    choose(g, "spend")                                 # 4 workers wanted, the camp has only 1
    assert counter(g, "workers", BLUE) == 14 and counter(g, "camp", BLUE) == 1   # then the guild's worker comes home
    assert workers_total(g, BLUE) == 15


# ------------------------------------------------------------------ Phase 3: delivery
def _delivery_game():
    g = new_game(players=4, board=["foreman"], site=["start_farm", "manor_setup", "church_setup"])
    occupy(g, "construction_site", RED, GREEN)
    give(g, RED, food=1, wood=1, stone=1, fabric=0)
    give(g, GREEN, food=2, wood=2, stone=1, fabric=1)
    return g


def test_delivery_example_most_bundles():
    g = _delivery_game()
    g.start_phase("delivery")
    assert g.current_player() == RED
    choose(g, "bundle:food+wood+stone")
    assert counter(g, "pp", RED) == 5
    assert g.current_player() == GREEN
    choose(g, "bundle:food+wood+stone", "bundle:food+wood+fabric")
    assert counter(g, "pp", GREEN) == 10
    # Green delivered the most: a favor (round 1: the first site building, a Farm), then the board's character.
    assert g.current_player() == GREEN and counter(g, "food", GREEN) == 1
    choose(g, "character:foreman")
    assert g.s.zones["characters"][GREEN] == ["foreman"]


def test_delivery_example_tie_goes_to_first_worker():
    g = _delivery_game()
    g.start_phase("delivery")
    choose(g, "bundle:food+wood+stone")                # Red
    choose(g, "bundle:food+wood+stone", "stop")        # Green: 1 bundle only
    assert g.current_player() == RED                   # Red placed first: Red's favor
    choose(g, "character:foreman")
    assert g.s.zones["characters"][RED] == ["foreman"]


def test_bundles_are_three_different_resources_with_food():
    g = new_game(players=2)
    occupy(g, "construction_site", BLUE)
    give(g, BLUE, food=3, wood=3, stone=0, fabric=1, gold=1)
    g.start_phase("delivery")
    assert set(g.legal_options()) == {"stop", "bundle:food+wood+fabric", "bundle:food+wood+gold",
                                      "bundle:food+fabric+gold"}


def test_chamberlain_delivers_any_three_resources():
    g = new_game(players=2, characters={BLUE: "chamberlain"})
    occupy(g, "construction_site", BLUE)
    give(g, BLUE, food=0, wood=3, stone=0, fabric=0, gold=0)
    g.start_phase("delivery")
    assert set(g.legal_options()) == {"stop", "bundle:wood+wood+wood"}


def test_foreman_and_goldsmith_bonuses():
    g = new_game(players=2, characters={BLUE: ["foreman", "goldsmith"]})
    occupy(g, "construction_site", BLUE)
    give(g, BLUE, food=3, wood=3, stone=0, fabric=0, gold=2)
    g.start_phase("delivery")
    choose(g, "bundle:food+wood+gold")                 # 5 + 1 (Foreman) + 5 (Goldsmith)
    assert counter(g, "pp", BLUE) == 11
    choose(g, "bundle:food+wood+gold")                 # the Goldsmith once a round
    assert counter(g, "pp", BLUE) == 17


def test_deliveryman_delivers_without_a_worker_after_the_others():
    g = new_game(players=3, characters={BLUE: "deliveryman"}, board=["foreman"],
                 site=["start_farm", "manor_setup", "church_setup"])
    occupy(g, "construction_site", GREEN)
    give(g, BLUE, food=1, wood=1, stone=1)
    give(g, GREEN, food=1, wood=1, stone=1)
    g.start_phase("delivery")
    assert g.current_player() == GREEN
    choose(g, "bundle:food+wood+stone")
    assert g.current_player() == BLUE
    choose(g, "bundle:food+wood+stone")
    assert counter(g, "pp", BLUE) == 5
    # Tied at one bundle: Green's worker came first.
    assert g.current_player() == GREEN
    choose(g, "use:start_farm", "character:foreman")
    assert g.s.zones["characters"][GREEN] == ["foreman"]


# ------------------------------------------------------------------ favors
def test_favor_site_buildings_by_round():
    for rnd, usable in ((1, 1), (3, 1), (4, 2), (6, 2), (7, 3), (9, 3)):
        g = new_game(players=2, round_=rnd, characters={BLACK: "thief"},
                     site=["start_farm", "manor_setup", "church_setup"])
        g.run_effect("favor", BLUE)
        uses = [o for o in g.legal_options() if o.startswith("use:")]
        assert uses == ["use:start_farm", "use:manor_setup", "use:church_setup"][:usable], rnd
        assert "character:thief" in g.legal_options()


def test_favor_takes_a_character_from_another_player():
    g = new_game(players=3, characters={BLACK: "thief", GREEN: ["bailiff", "foreman"]})
    g.run_effect("favor", BLUE)
    choose(g, "character:foreman")
    assert g.s.zones["characters"][GREEN] == ["bailiff"] and g.s.zones["characters"][BLUE] == ["foreman"]


def test_favor_building_then_no_character_left_on_the_board():
    g = new_game(players=2, round_=4, site=["start_farm", "manor_setup", "church_setup"])
    g.run_effect("favor", BLUE)
    choose(g, "use:manor_setup")                       # 2 PP; no character on the board: nothing to ask
    assert counter(g, "pp", BLUE) == 2 and g.current_player() is None


def test_favor_taking_a_board_character_is_optional():
    g = new_game(players=2, board=["foreman", "goldsmith"], site=["start_farm", "manor_setup", "church_setup"])
    g.run_effect("favor", BLUE)
    assert set(g.legal_options()) == {"skip", "character:foreman", "character:goldsmith"}
    choose(g, "skip")
    assert g.s.zones["character_board"] == ["foreman", "goldsmith"]


# ------------------------------------------------------------------ Phase 4: stewardship
def test_provost_example_1():
    g = new_game(players=2, road={1: "start_farm", 9: "wood_farm_setup", 10: ("wood_quarry", BLUE),
                                  11: ("stonemason", BLACK), 17: "gold_mine_setup"})
    g.start_phase("stewardship")
    assert g.s.counters["provost"] == 10               # between the Quarry (10) and the Stonemason (11)
    assert kind_at(g, 10) == "wood_quarry" and kind_at(g, 11) == "stonemason"


def test_provost_example_2():
    road = {1: "start_farm", 9: "wood_farm_setup", 17: "gold_mine_setup"}
    for i, kind in zip(range(10, 17), ["wood_quarry", "stonemason", "wood_farm", "tailor", "manor", "church",
                                       "wood_sawmill"]):
        road[i] = (kind, BLUE)
    g = new_game(players=2, road=road)
    g.start_phase("stewardship")
    assert g.s.counters["provost"] == 16               # between the Sawmill (16) and the Gold Mine (17)
    assert kind_at(g, 16) == "wood_sawmill" and kind_at(g, 17) == "gold_mine_setup"


def test_provost_example_3():
    road = {1: "start_farm", 9: "wood_farm_setup", 17: "gold_mine_setup", 18: ("alchemist", BLACK)}
    for i, kind in zip(range(10, 17), ["wood_quarry", "stonemason", "wood_farm", "tailor", "manor", "church",
                                       "wood_sawmill"]):
        road[i] = (kind, BLUE)
    g = new_game(players=2, road=road)
    g.start_phase("stewardship")
    assert g.s.counters["provost"] == 17               # between the Gold Mine (17) and the Alchemist (18)


def test_monuments_in_road_order_and_rewards():
    g = new_game(players=2, road={1: ("residence", BLACK), 2: ("residence", BLUE), 3: ("residence", BLUE),
                                  9: "wood_farm_setup"})
    give(g, BLUE, gold=2, wood=1, stone=1, food=0, fabric=0, workers=0, camp=15)
    give(g, BLACK, gold=0, workers=0, camp=15)
    g.start_phase("stewardship")
    # Black has no gold: his residence is skipped without a question.  Blue's residence at 2 comes first.
    assert g.current_player() == BLUE and g.prompt().endswith(g.s.road[2])
    assert set(g.legal_options()) == {"skip", "build:garden", "build:granary"}
    choose(g, "build:garden")                          # +4 PP
    assert set(g.legal_options()) == {"skip", "build:granary"}
    choose(g, "build:granary")                         # +7 PP
    assert kind_at(g, 2) == "garden" and kind_at(g, 3) == "granary" and owner_at(g, 3) == BLUE
    assert counter(g, "pp", BLUE) == 11
    # Recruitment: 3, no residence left, +2 for the Garden; the Granary gives 1 food.
    assert counter(g, "workers", BLUE) == 3 + 2 and counter(g, "food", BLUE) == 1
    assert counter(g, "workers", BLACK) == 3 + 1        # his residence


def test_factory_gives_fabric_at_recruitment():
    g = new_game(players=2, road={1: ("factory", BLUE), 9: "wood_farm_setup"})
    g.start_phase("stewardship")
    assert counter(g, "fabric", BLUE) == 1


def test_theater_gives_a_favor():
    g = new_game(players=2, road={1: ("residence", BLUE), 9: "wood_farm_setup"}, characters={BLACK: "foreman"})
    give(g, BLUE, gold=3, wood=4)
    g.start_phase("stewardship")
    choose(g, "build:theater")
    assert counter(g, "pp", BLUE) == 12
    assert g.current_player() == BLUE and "character:foreman" in g.legal_options()   # the favor
    choose(g, "character:foreman")
    assert g.s.zones["characters"][BLUE] == ["foreman"]


def test_recruitment_by_player_count():
    for players, n in ((2, 3), (3, 3), (4, 3), (5, 2)):
        g = new_game(players=players)
        for p in range(players):
            give(g, p, workers=0, camp=15)
        g.start_phase("stewardship")
        assert [counter(g, "workers", p) for p in range(players)] == [n] * players


def test_recruitment_has_no_other_source_than_the_listed_ones():
    """3 (2 with 5 players) + 1 per residence + 2 for the Garden + 1 for the Day Laborer, nothing for
    the Granary, the Factory, other monuments, characters or buildings (the cut-off line, assumption 14)."""
    g = new_game(players=5, characters={BLUE: ["day_laborer", "foreman"], BLACK: "architect"},
                 road={1: ("residence", BLUE), 2: ("residence", BLUE), 3: ("garden", BLUE),
                       4: ("granary", BLUE), 5: ("factory", BLUE), 6: ("theater", BLACK), 7: ("residence", GREEN),
                       9: ("wood_farm_setup", BLACK), 17: "gold_mine_setup"})
    for p in range(5):
        give(g, p, workers=0, camp=15, gold=0, food=0, fabric=0)
    g.start_phase("stewardship")
    assert [counter(g, "workers", p) for p in range(5)] == [2 + 2 + 2 + 1, 2, 2 + 1, 2, 2]
    assert counter(g, "food", BLUE) == 1 and counter(g, "fabric", BLUE) == 1


def test_day_laborer_recruits_one_more():
    g = new_game(players=2, characters={BLUE: "day_laborer"})
    give(g, BLUE, workers=0, camp=15)
    g.start_phase("stewardship")
    assert counter(g, "workers", BLUE) == 4


def test_architect_gains_one_more_per_construction():
    g = new_game(players=2, characters={BLUE: "architect"})
    give(g, BLUE, wood=1, food=1)
    occupy(g, "carpenter", BLUE)
    g.start_phase("activation")
    choose(g, "build:wood_farm")
    assert counter(g, "pp", BLUE) == 2 + 1


# ------------------------------------------------------------------ setup
@pytest.mark.parametrize("players,kept", [(2, 10), (3, 6), (4, 6), (5, 10)])
def test_setup_workers_camp_and_resources(players, kept):
    g = Game.new(ruleset(), players=players, seed=3)
    c = g.s.counters
    assert c["workers"] == [kept] * players and c["camp"] == [15 - kept] * players
    assert c["wood"] == [2] * players and c["food"] == [1] * players and c["stone"] == [1] * players
    assert c["houses"] == [9] * players and c["provost"] == 8


def test_setup_road_site_and_supply():
    prog = ruleset()
    cat = {k: b["category"] for k, b in Game.new(prog, players=2, seed=0).prog.buildings.items()}
    for seed in range(40):
        g = Game.new(prog, players=2, seed=seed)
        s = g.s
        kinds = [s.tiles[t][0] if t else None for t in s.road]
        assert [cat[k] for k in kinds[1:9]] == ["start"] * 8
        assert cat[kinds[9]] == "wood_setup" and kinds[9] != "stonemason_setup"
        assert cat[kinds[17]] == "stone_setup"
        assert all(k is None for k in kinds[10:17] + kinds[18:])
        site = s.zones["site"]
        assert [cat[k] for k in site] == ["start", "wood_setup", "stone_setup"]
        starts = sorted(kinds[1:9] + [site[0]])
        assert starts == sorted(["start_farm", "start_farm", "start_sawmill", "start_quarry", "start_market",
                                 "start_market", "start_guild", "start_guild_stone", "start_carpenter"])
        for c, used in (("wood", [kinds[9], site[1]]), ("stone", [kinds[17], site[2]])):
            left = [k for k, v in s.supply.items() if v > 0 and cat[k] == c]
            assert len(left) == 7
            assert not {g.prog.buildings[k]["other_side"] for k in left} & set(used)
        assert sorted(k for k, v in s.supply.items() if v > 0 and cat[k] == "monument") == \
            sorted(["garden", "granary", "factory", "statue", "theater", "cathedral", "mansion"])


def test_setup_character_draft_in_reverse_order():
    g = Game.new(ruleset(), players=3, seed=5)
    order = g.s.orders["turn_order"]
    assert order[0] == g.s.counters["first_player"]
    assert order == [(order[0] + i) % 3 for i in range(3)]
    picked = []
    for expected in reversed(order):                   # the last player first, counter-clockwise
        assert g.current_player() == expected
        assert len(g.legal_options()) == 6 - len(picked)
        o = g.legal_options()[0]
        picked.append(o.split(":")[1])
        g.apply(o)
    assert len(g.s.zones["character_board"]) == 3 and g.s.zones["offer"] == []
    assert sorted(x for hand in g.s.zones["characters"] for x in hand) == sorted(picked)
    riser = [p for p in range(3) if "early_riser" in g.s.zones["characters"][p]]
    assert g.s.phase == "planning" and g.current_player() == (riser[0] if riser else order[0])


# ------------------------------------------------------------------ end of the game
def test_end_scoring_and_shared_victory():
    g = new_game(players=3, round_=9)
    give(g, BLUE, pp=20, gold=2)
    give(g, BLACK, pp=24, gold=0)
    give(g, GREEN, pp=10, gold=3)
    g.start_phase("stewardship")
    assert g.finished
    assert g.scores() == [24, 24, 16]
    assert g.winners() == [BLUE, BLACK]


# ------------------------------------------------------------------ whole games
def _random_game(players, seed, upto=None):
    g = Game.new(ruleset(), players=players, seed=seed)
    r = random.Random(seed)
    while not g.finished and (upto is None or g.s.decisions < upto):
        g.apply(r.choice(g.legal_options()))
    return g, r


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_random_games_complete(players):
    for seed in range(3):
        g, _ = _random_game(players, seed)
        assert g.finished and g.s.round == 9
        for p in range(players):
            assert workers_total(g, p) == 15


def test_save_resume_and_clone_are_exact():
    g, r = _random_game(4, 11, upto=120)
    saved = g.to_json()
    h = Game.from_json(saved, ruleset())
    c = g.clone()
    rest = []
    while not g.finished:
        o = r.choice(g.legal_options())
        rest.append(o)
        g.apply(o)
    for o in rest:
        h.apply(o)
        c.apply(o)
    assert h.scores() == c.scores() == g.scores() and h.finished and c.finished
    assert h.s.to_dict() == g.s.to_dict()


def test_illegal_option_leaves_the_state_unchanged():
    g = new_game(players=2)
    g.start_phase("planning")
    before = g.to_json()
    with pytest.raises(IllegalOption):
        g.apply("place:guilds_bridge")
    assert g.to_json() == before


# ------------------------------------------------------------------ the first-game variant and the documentation
@pytest.mark.parametrize("players,expected", [
    (2, {"architect", "foreman", "bailiff", "day_laborer", "chamberlain"}),
    (3, {"architect", "foreman", "bailiff", "day_laborer", "chamberlain", "deliveryman"}),
    (4, {"architect", "foreman", "bailiff", "day_laborer", "chamberlain", "deliveryman", "journeyman"}),
    (5, {"architect", "foreman", "bailiff", "day_laborer", "chamberlain", "deliveryman", "journeyman",
         "early_riser"}),
])
def test_first_game_characters(players, expected):
    g = Game.new(ruleset("first_game"), players=players, seed=7)
    assert {o.split(":")[1] for o in g.legal_options()} == expected
    r = random.Random(7)
    while not g.finished:
        g.apply(r.choice(g.legal_options()))
    assert g.s.round == 9


def test_every_assumption_is_documented():
    import pathlib
    root = pathlib.Path(__file__).resolve().parent.parent
    rules = (root / "rulesets" / "caylus1303.rules").read_text()
    marked = [line for line in rules.splitlines() if line.strip().startswith("# assumption:")]
    doc = (root / "docs" / "caylus1303.md").read_text()
    listed = [line for line in doc.split("## Assumptions", 1)[1].split("## ", 1)[0].splitlines()
              if line[:1].isdigit()]
    assert len(marked) == len(listed) == 13


# ------------------------------------------------------------------ soak (invariants after every decision)
def test_soak_smoke_with_invariants():
    from provost.tools.sim.soak import soak, tasks
    records = soak(load_checked("caylus1303"), tasks([2, 3, 4, 5], seeds=2, first_seed=100))
    failed = [r for r in records if not r["ok"]]
    assert len(records) == 8 and failed == []


@pytest.mark.skipif(not __import__("os").environ.get("PROVOST_SOAK"),
                    reason="slow: set PROVOST_SOAK=1 (2..5 players x 200 seeds, random and greedy)")
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_soak_full(players):
    from provost.tools.sim.soak import soak, tasks
    records = soak(load_checked("caylus1303"), tasks([players], seeds=200, greedy=True))
    failed = [r for r in records if not r["ok"]]
    assert failed == [], failed[:1]
