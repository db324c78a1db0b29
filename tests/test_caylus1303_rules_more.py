"""Caylus 1303 rules that had no test yet, each pinned to the rulebook sentence it checks.

Line numbers refer to ../shared/rules/caylus1303_rulebook_en.txt ("EN") and
caylus1303_tiles.md ("tiles").  Seats are the rulebook's colours
(tests/caylus1303_scenarios.py): BLUE 0, BLACK 1, GREEN 2, RED 3.
"""
from __future__ import annotations

from caylus1303_scenarios import (BLACK, BLUE, DEFAULT_ROAD, GREEN, RED, choose, counter, give, kind_at, new_game,
                                  occupy, only_phase, owner_at, workers_total)

PLACE = "Place a worker or pass"


def seen_by(g, viewer: int, name: str) -> list:
    """The per-player counter ``name`` as ``viewer``'s observation shows it."""
    return g.observation(viewer)["counters"][name]


# ------------------------------------------------------------------ hidden prestige
def test_prestige_is_hidden_from_the_other_players():
    # EN 51: "During the game, the players' Workers and Resources must be visible to all
    # players.  However, keep the Prestige Points you gain facedown."
    g = new_game(players=3, first=BLUE)
    give(g, BLUE, pp=5)
    give(g, BLACK, pp=7)
    give(g, GREEN, pp=2)
    g.start_phase("planning")
    assert seen_by(g, BLUE, "pp") == [5, None, None]
    assert seen_by(g, BLACK, "pp") == [None, 7, None]
    assert seen_by(g, GREEN, "pp") == [None, None, 2]
    # Workers, the camp and resources are public.
    for viewer in (BLUE, BLACK, GREEN):
        assert seen_by(g, viewer, "workers") == [6, 6, 6]
        assert seen_by(g, viewer, "camp") == [9, 9, 9]
        assert seen_by(g, viewer, "wood") == g.s.counters["wood"]


def test_prestige_is_revealed_when_the_game_ends():
    # EN 146: "The game ends at the end of the ninth round.  Players reveal their Prestige Points."
    g = new_game(players=3, round_=9)
    give(g, BLUE, pp=20, gold=2)
    give(g, BLACK, pp=24, gold=0)
    give(g, GREEN, pp=10, gold=3)
    g.start_phase("stewardship")
    assert g.finished and g.scores() == [24, 24, 16]
    assert seen_by(g, BLACK, "pp") == [24, 24, 16]


# ------------------------------------------------------------------ the Architect
def test_architect_gains_one_more_for_a_monument():
    # tiles 109: "Architect | +1 PP for each wood building, stone building or monument they
    # construct".  EN 130-131: the owner pays the monument's cost, places it on the residence
    # and "then gain[s] the Prestige Points depicted on the tile" (the Garden: 4).
    g = new_game(players=2, road={1: ("residence", BLUE), 9: "wood_farm_setup"}, characters={BLUE: "architect"})
    give(g, BLUE, gold=1, wood=1, pp=0)
    g.start_phase("stewardship")
    assert g.current_player() == BLUE and g.legal_options() == ["skip", "build:garden", "build:granary"]
    choose(g, "build:garden")
    assert kind_at(g, 1) == "garden" and owner_at(g, 1) == BLUE
    assert counter(g, "pp", BLUE) == 4 + 1
    assert counter(g, "gold", BLUE) == 0 and counter(g, "wood", BLUE) == 0


def test_monument_without_the_architect_gains_only_its_prestige():
    # EN 130-131 (as above): without the Architect the Garden gives its 4 PP.
    g = new_game(players=2, road={1: ("residence", BLUE), 9: "wood_farm_setup"}, characters={BLACK: "architect"})
    give(g, BLUE, gold=1, wood=1, pp=0)
    give(g, BLACK, pp=0)
    g.start_phase("stewardship")
    choose(g, "build:garden")
    assert counter(g, "pp", BLUE) == 4
    assert counter(g, "pp", BLACK) == 0


def test_architect_gains_one_more_for_a_stone_building():
    # tiles 109 (as above), for a stone building built by a Stonemason (the Gold Mine: 4 PP).
    g = new_game(players=2, road={**DEFAULT_ROAD, 10: ("stonemason", BLACK)}, characters={BLUE: "architect"})
    g.s.counters["provost"] = 10
    give(g, BLUE, stone=1, food=1, wood=0, fabric=0, pp=0)
    occupy(g, 10, BLUE)
    only_phase(g, "activation")
    choose(g, "build:gold_mine")
    assert kind_at(g, 11) == "gold_mine" and owner_at(g, 11) == BLUE
    assert counter(g, "pp", BLUE) == 4 + 1


def test_architect_gains_nothing_for_a_lawyers_residence():
    # tiles 109: the bonus is for what the Architect "construct[s]"; EN 88: the Lawyer only
    # "places 1 of their Houses above any Building ... That Building will be transformed into a
    # Residence during the Stewardship Phase" -- not a construction.
    g = new_game(players=2, characters={BLUE: "architect"})
    give(g, BLUE, fabric=1, pp=0)
    occupy(g, "lawyer", BLUE)
    g.start_phase("activation")
    choose(g, "house:start_quarry")
    # The round runs on: stewardship flips the quarry to Blue's residence, then round 2 planning.
    assert kind_at(g, 3) == "residence" and owner_at(g, 3) == BLUE
    assert counter(g, "pp", BLUE) == 0
    assert g.s.round == 2 and g.prompt() == PLACE


# ------------------------------------------------------------------ the construction site after a pass
def test_construction_site_after_a_pass_costs_one_more_worker():
    # EN 69-70: "The player places 1 of their Workers on the first available space of the
    # Construction Site"; EN 73-74: after the first player passed, "For the rest of the round,
    # whenever another player places another Worker, they must return 1 additional Worker to
    # the Camp."
    g = new_game(players=2, first=BLUE)
    g.start_phase("planning")
    choose(g, "pass")                                  # Blue passes first
    assert g.current_player() == BLACK
    choose(g, "place:construction_site")
    assert g.s.occ["construction_site"] == [BLACK]
    assert counter(g, "workers", BLACK) == 10 - 2 and counter(g, "camp", BLACK) == 5 + 1
    assert workers_total(g, BLACK) == 15
    assert g.current_player() == BLACK and g.prompt() == PLACE


def test_construction_site_before_any_pass_costs_one_worker():
    # EN 69-70 (as above): before anyone passed, only the placed worker.
    g = new_game(players=2, first=BLUE)
    g.start_phase("planning")
    choose(g, "place:construction_site")
    assert g.s.occ["construction_site"] == [BLUE]
    assert counter(g, "workers", BLUE) == 10 - 1 and counter(g, "camp", BLUE) == 5


# ------------------------------------------------------------------ rules checked by an audit against the rulebook
def test_planning_example_as_the_rulebook_tells_it():
    # EN 77-80: Blue passes first and takes the First Player tile; Black passes; Green places
    # 1 Worker "(then pays the additional cost by returning 1 Worker to the Camp)"; Red passes;
    # Green places a last Worker (+1 to the Camp) and passes.  "The order on the Guilds Bridge
    # is: Blue, Black, Red, and Green."  EN 73: Blue "will be the First Player in the next round".
    g = new_game(players=4, first=BLUE)
    g.start_phase("planning")
    choose(g, "pass")
    assert g.s.counters["first_player"] == BLUE and g.current_player() == BLACK
    choose(g, "pass", "place:start_farm")
    assert counter(g, "workers", GREEN) == 6 - 2 and counter(g, "camp", GREEN) == 9 + 1
    choose(g, "pass")                                  # Red
    assert g.current_player() == GREEN
    choose(g, "place:start_sawmill")
    assert counter(g, "workers", GREEN) == 6 - 4 and counter(g, "camp", GREEN) == 9 + 2
    choose(g, "pass")
    assert g.s.orders["bridge"] == [BLUE, BLACK, RED, GREEN]
    # Activation: nobody moves the provost on the Guilds Bridge; the round runs to its end.
    choose(g, "pass", "pass", "pass", "pass")
    assert counter(g, "food", GREEN) == 1 + 1 and counter(g, "wood", GREEN) == 2 + 1
    assert g.s.round == 2 and g.prompt() == PLACE and g.current_player() == BLUE


def test_toll_never_moves_the_provost_behind_the_guilds_bridge():
    # EN 99: "The Provost cannot move backward beyond the Guilds Bridge."  EN 101 (the Toll):
    # "The player moves the Provost by 0, 1, or 2 steps either forward or backward."
    g = new_game(players=2)
    g.s.counters["provost"] = 1                        # just after the first starting building
    occupy(g, "toll", BLUE)
    only_phase(g, "activation")
    assert set(g.legal_options()) == {"stay", "provost:-1", "provost:1", "provost:2"}


def test_lawyer_only_on_an_unclaimed_yellow_flag_building_of_the_road():
    # EN 88: the Lawyer "places 1 of their Houses above any Building on the Road provided that it
    # has a yellow flag": not a residence, not a wood or stone building, not one with a House.
    g = new_game(players=2, road={1: "start_farm", 2: ("residence", BLACK), 3: ("start_quarry", BLACK),
                                  9: "wood_farm_setup", 10: ("wood_farm", BLACK), 17: "gold_mine_setup"},
                 site=["start_market", "manor_setup", "church_setup"])
    give(g, BLUE, fabric=1)
    occupy(g, "lawyer", BLUE)
    only_phase(g, "activation")
    assert g.legal_options() == ["skip", "house:start_farm"]


def test_any_symbol_in_a_construction_cost():
    # EN 91: "When this symbol is depicted in the construction cost, the player can either spend
    # 1 [food], 1 [wood], 1 [stone] or 1 [fabric]" -- with 2 wood, the wood-and-any buildings and
    # the Spinning Mill (2 wood).
    g = new_game(players=2)
    give(g, BLUE, wood=2, food=0, stone=0, fabric=0)
    occupy(g, "carpenter", BLUE)
    only_phase(g, "activation")
    assert g.legal_options() == ["skip", "build:covered_market/wood", "build:tailor/wood", "build:stonemason/wood",
                                 "build:spinning_mill"]


def test_construction_goes_past_the_setup_stone_building():
    # EN 89: the Carpenter places the Building "on the first empty space on the Road": once the
    # lots before the setup stone building (17) are full, the next one goes just after it.
    road = dict(DEFAULT_ROAD)
    road.update({i: ("wood_farm", BLACK) for i in range(10, 17)})
    g = new_game(players=2, road=road)
    give(g, BLUE, wood=1, food=1)
    occupy(g, "carpenter", BLUE)
    g.start_phase("activation")
    choose(g, "build:wood_quarry")
    assert kind_at(g, 18) == "wood_quarry" and owner_at(g, 18) == BLUE
    assert g.s.counters["provost"] == 17               # stewardship: just before it
