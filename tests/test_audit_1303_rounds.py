"""Caylus 1303 rules of the round that had no test: limits, "cannot", "may", supplies and leftovers.

"EN N" is a line of ../shared/rules/caylus1303_rulebook_en.txt, "condensed" the condensed rules
and "tiles N" a line of caylus1303_tiles.md.  Seats are the rulebook's colours
(tests/caylus1303_scenarios.py): BLUE 0, BLACK 1, GREEN 2, RED 3, YELLOW 4.
"""
from __future__ import annotations

from caylus1303_scenarios import (BLACK, BLUE, DEFAULT_ROAD, GREEN, RED, YELLOW, choose, counter, give, kind_at,
                                  new_game, occupy, only_phase, owner_at, workers_total)

PLACE = "Place a worker or pass"


def places(g) -> set:
    return {o for o in g.legal_options() if o.startswith("place:")}


# ------------------------------------------------------------------ Phase 1: planning
def test_a_printed_building_takes_one_worker():
    # EN 62-63: "It is prohibited to place a Worker: - On a Building that is already occupied by another Worker".
    g = new_game(players=2, first=BLUE)
    g.start_phase("planning")
    choose(g, "place:fairground")
    assert "place:fairground" not in places(g)         # Black may not join Blue
    choose(g, "place:lawyer")
    assert not {"place:fairground", "place:lawyer"} & places(g)   # nor Blue a second worker of his own


def test_a_player_without_workers_must_pass_and_takes_the_first_player_tile():
    # EN 71: "If a player wants to pass (or if they must pass because they have no more Workers to place)";
    # EN 73: "The first player to pass their turn takes the First Player tile".
    g = new_game(players=3, first=BLUE)
    give(g, BLUE, workers=0)
    g.start_phase("planning")
    assert g.s.orders["bridge"] == [BLUE]              # passed without a question
    assert g.s.counters["first_player"] == BLUE and g.current_player() == BLACK
    choose(g, "place:start_farm")                      # Black after a pass: 1 more to the camp
    assert counter(g, "workers", BLACK) == 6 - 2 and counter(g, "camp", BLACK) == 9 + 1


def test_the_extra_worker_lasts_only_for_the_round():
    # EN 74: "For the rest of the round, whenever another player places another Worker, they must return
    # 1 additional Worker to the Camp."  The next round starts with an empty Guilds Bridge.
    g = new_game(players=2, first=BLUE)
    g.start_phase("planning")
    choose(g, "pass", "pass")                          # Blue then Black: nobody placed
    choose(g, "pass", "pass")                          # the Guilds Bridge: nobody moves the provost
    assert g.s.round == 2 and g.prompt() == PLACE and g.current_player() == BLUE
    workers, camp = counter(g, "workers", BLUE), counter(g, "camp", BLUE)
    choose(g, "place:start_farm")
    assert counter(g, "workers", BLUE) == workers - 1 and counter(g, "camp", BLUE) == camp


def test_a_player_without_houses_still_passes():
    # EN 71: the House a player passes with is the one under the Guilds Bridge (EN 43), not one of
    # those that mark buildings: having none left ("they cannot construct anymore", EN 17) does not stop a pass.
    g = new_game(players=2, first=BLUE)
    give(g, BLUE, houses=0)
    g.start_phase("planning")
    assert "pass" in g.legal_options()
    choose(g, "pass")
    assert g.s.orders["bridge"] == [BLUE] and g.s.counters["first_player"] == BLUE


def test_early_riser_with_a_single_worker_is_not_asked():
    # tiles 103: the Early Riser "may place 1 worker by also returning 1 worker to the camp": with one
    # worker he cannot pay for it, and planning opens with the first player.
    g = new_game(players=3, first=BLUE, characters={GREEN: "early_riser"})
    give(g, GREEN, workers=1, camp=14)
    g.start_phase("planning")
    assert g.current_player() == BLUE and g.prompt() == PLACE
    assert counter(g, "workers", GREEN) == 1


def test_journeyman_after_a_pass_pays_the_extra_worker():
    # tiles 105 (Journeyman) with EN 74: his placement is "another Worker" placed after a pass.
    g = new_game(players=3, first=BLUE, characters={GREEN: "journeyman"})
    g.start_phase("planning")
    choose(g, "place:start_farm", "pass")              # Blue places, Black passes first
    assert "journeyman:start_farm" in g.legal_options()
    choose(g, "journeyman:start_farm")
    assert g.s.occ["start_farm"] == [BLUE, GREEN]
    assert counter(g, "workers", GREEN) == 6 - 2 and counter(g, "camp", GREEN) == 9 + 1


def test_owner_keeps_the_prestige_point_of_a_worker_beyond_the_provost():
    # EN 68: the owner "immediately gains 1 Prestige Point"; EN 107-108: buildings after the Provost "are
    # not activated: Workers that are placed there are returned to the Camp"; tiles 85-86: the point is kept.
    road = {**DEFAULT_ROAD, 10: ("wood_farm", BLACK)}
    g = new_game(players=2, first=BLUE, road=road)
    give(g, BLACK, pp=0)
    g.start_phase("planning")
    choose(g, "place:wood_farm")
    assert counter(g, "pp", BLACK) == 1
    food = counter(g, "food", BLUE)
    choose(g, "pass", "pass")                          # Blue was first player: Black passes, then Blue
    choose(g, "pass", "pass")                          # nobody moves the provost (8): the farm is beyond him
    assert counter(g, "food", BLUE) == food and counter(g, "pp", BLACK) == 1
    assert g.s.round == 2 and workers_total(g, BLUE) == 15


# ------------------------------------------------------------------ Phase 2: activation
def test_fairground_without_wood_gives_no_favor():
    # EN 85 (condensed "Spend 1 wood to gain 1 favor"): no wood, no favor.
    g = new_game(players=2, board=["foreman"], characters={BLACK: "thief"})
    give(g, BLUE, wood=0)
    occupy(g, "fairground", BLUE)
    only_phase(g, "activation")
    assert g.current_player() is None
    assert g.s.zones["characters"][BLUE] == [] and g.s.zones["character_board"] == ["foreman"]
    assert counter(g, "camp", BLUE) == 5 + 1           # the worker still goes to the camp


def test_guilds_bridge_without_workers_is_not_asked():
    # EN 103: "returning 1 Worker to the Camp per step": with no worker a player cannot move him.
    g = new_game(players=2)
    g.s.orders["bridge"] = [BLUE, BLACK]
    give(g, BLUE, workers=0, camp=15)
    only_phase(g, "activation")
    assert g.current_player() == BLACK


def test_a_wood_building_is_constructed_only_once():
    # EN 89: "The player chooses 1 Wood Building from the supply" -- each tile exists once (EN 27-38).
    g = new_game(players=2)
    give(g, BLUE, wood=1, food=1)
    give(g, BLACK, wood=1, food=1, stone=0, fabric=0)
    occupy(g, "carpenter", BLUE)
    occupy(g, 7, BLACK)                                # the starting Carpenter
    g.s.counters["provost"] = 7
    only_phase(g, "activation")
    choose(g, "build:wood_quarry")
    assert kind_at(g, 10) == "wood_quarry"
    assert g.current_player() == BLACK
    assert "build:wood_quarry" not in g.legal_options()
    assert {"build:wood_farm", "build:wood_sawmill", "build:wood_market"} <= set(g.legal_options())


# ------------------------------------------------------------------ Phase 3: delivery
def test_no_bundle_no_favor_and_the_site_workers_go_to_the_camp():
    # Condensed: "The player who delivered the most bundles (and at least 1) ... gains 1 favor.  Move all
    # workers at the construction site to the camp."
    g = new_game(players=2, board=["foreman"], characters={BLACK: "thief"})
    occupy(g, "construction_site", BLUE, BLACK)
    give(g, BLUE, food=0)
    give(g, BLACK, food=0)
    g.start_phase("delivery")
    # No bundle can be made and nobody gains a favor: the round goes on to stewardship and round 2.
    assert g.s.round == 2 and g.prompt() == PLACE
    assert g.s.zones["character_board"] == ["foreman"] and g.s.zones["characters"][BLUE] == []
    assert not g.s.occ.get("construction_site")
    assert workers_total(g, BLUE) == workers_total(g, BLACK) == 15
    assert counter(g, "workers", BLUE) == 9 + 3       # the site worker came back through the camp


def test_five_players_deliver_in_the_order_of_the_site():
    # EN 69-70: "the first available space of the Construction Site, from left to right"; EN 114: "These
    # players deliver ... in the order of placement (from left to right)".  Five players, five spaces.
    g = new_game(players=5, first=RED)
    g.start_phase("planning")
    for _ in range(5):
        choose(g, "place:construction_site")
    assert g.s.occ["construction_site"] == [RED, YELLOW, BLUE, BLACK, GREEN]
    for _ in range(5):
        choose(g, "pass")
    for _ in range(5):
        choose(g, "pass")                              # the Guilds Bridge
    seen = []
    while g.s.phase == "delivery" and g.prompt().startswith("Deliver"):
        seen.append(g.current_player())
        choose(g, "stop")
    assert seen == [RED, YELLOW, BLUE, BLACK, GREEN]


# ------------------------------------------------------------------ favors
def test_favor_without_other_characters_is_a_site_building():
    # EN 122-124: "Take a Character from another player; (or) Benefit from the effect of one the 3
    # Buildings ...": when no other player holds a character only the buildings are left.
    g = new_game(players=2, round_=7, characters={BLUE: "foreman"}, site=["start_farm", "manor_setup", "church_setup"])
    g.run_effect("favor", BLUE)
    assert g.legal_options() == ["use:start_farm", "use:manor_setup", "use:church_setup"]


def test_a_favor_site_building_paid_in_workers():
    # EN 124 with tiles 80: the setup Church of the construction site, used by a favor in round 7, takes its
    # workers from the hand like a worker placed on it would.
    g = new_game(players=2, round_=7, site=["start_farm", "manor_setup", "church_setup"])
    give(g, BLUE, workers=4, camp=11, pp=0)
    g.run_effect("favor", BLUE)
    choose(g, "use:church_setup")
    assert set(g.legal_options()) == {"skip", "two", "four"}
    choose(g, "four")
    assert counter(g, "pp", BLUE) == 6 and counter(g, "workers", BLUE) == 0 and counter(g, "camp", BLUE) == 15


# ------------------------------------------------------------------ Phase 4: stewardship
def test_a_lawyers_residence_may_become_a_monument_the_same_round():
    # EN 128-129: "Residences: All the starting Buildings (yellow flag) above which there is a House are
    # flipped ... Monuments: ... each Residence (green flag) may be replaced by a Monument."
    g = new_game(players=2)
    give(g, BLUE, fabric=1, gold=1, stone=1, wood=0, pp=0)
    occupy(g, "lawyer", BLUE)
    g.start_phase("activation")
    choose(g, "house:start_quarry")
    assert g.s.phase == "stewardship" and g.current_player() == BLUE
    assert set(g.legal_options()) == {"skip", "build:granary"}
    choose(g, "build:granary")
    assert kind_at(g, 3) == "granary" and owner_at(g, 3) == BLUE and counter(g, "pp", BLUE) == 7
    # Recruitment: 3, no residence any more (the Granary covers it), 1 food from the Granary.
    assert counter(g, "workers", BLUE) == 9 + 3 and counter(g, "food", BLUE) == 1 + 1


def test_a_declined_monument_leaves_the_residence_and_its_worker():
    # EN 130: "The owner of the Residence makes this choice"; EN 134-135: "1 Worker for each Residence they own".
    g = new_game(players=2, road={**DEFAULT_ROAD, 2: ("residence", BLUE)})
    give(g, BLUE, gold=1, wood=1, workers=0, camp=15)
    g.start_phase("stewardship")
    choose(g, "skip")
    assert kind_at(g, 2) == "residence" and counter(g, "gold", BLUE) == 1
    assert counter(g, "workers", BLUE) == 3 + 1


def test_a_monument_is_built_only_once():
    # EN 129-131 and "Place the 7 Monuments next to the board" (EN 39): one tile each.
    g = new_game(players=2, road={**DEFAULT_ROAD, 2: ("residence", BLUE), 3: ("residence", BLACK)})
    give(g, BLUE, gold=1, wood=1)
    give(g, BLACK, gold=1, wood=1, stone=1, fabric=0)
    g.start_phase("stewardship")
    choose(g, "build:garden")                          # Blue's residence comes first on the road
    assert g.current_player() == BLACK and set(g.legal_options()) == {"skip", "build:granary"}


def test_recruitment_takes_only_what_the_camp_holds():
    # EN 18: "Any taken Worker beyond the 15th is lost"; EN 133: the workers come "from the Camp".
    g = new_game(players=2, road={**DEFAULT_ROAD, 2: ("residence", BLUE)})
    give(g, BLUE, workers=13, camp=2, gold=0)
    g.start_phase("stewardship")
    assert counter(g, "workers", BLUE) == 15 and counter(g, "camp", BLUE) == 0


def test_provost_returns_before_the_wood_space_when_nothing_was_constructed():
    # EN 140: "The Provost is then placed just before the last constructed Building"; with nothing
    # constructed that is where he started (EN 40, "just before the space on the Road" of the wood building).
    g = new_game(players=2)
    give(g, BLACK, food=0, pp=0)
    occupy(g, "toll", BLUE)
    occupy(g, 9, BLACK)                                # the setup wood Farm, just beyond the provost (8)
    g.start_phase("activation")
    choose(g, "provost:2")                             # the Toll moves him to 10: the Farm is activated
    assert counter(g, "food", BLACK) == 1 and counter(g, "pp", BLACK) == 1
    assert g.s.round == 2 and g.s.counters["provost"] == 8


def test_theater_favor_in_the_last_rounds_may_use_any_site_building():
    # EN 132 (the Theater's favor) with EN 125: "Rounds 7 through 9: a player can make a choice
    # between the 3 Buildings."
    g = new_game(players=2, round_=8, road={**DEFAULT_ROAD, 2: ("residence", BLUE)},
                 site=["start_farm", "manor_setup", "church_setup"])
    give(g, BLUE, gold=3, wood=4, pp=0)
    g.start_phase("stewardship")
    choose(g, "build:theater")
    assert g.legal_options() == ["use:start_farm", "use:manor_setup", "use:church_setup"]
    choose(g, "use:manor_setup")
    assert counter(g, "pp", BLUE) == 12 + 2


# ------------------------------------------------------------------ end of the game
def test_only_gold_scores_at_the_end():
    # EN 146: "Players reveal their Prestige Points.  They add 2 Prestige Points per [gold] they still
    # have." -- other resources, workers and houses left over score nothing.
    g = new_game(players=2, round_=9)
    give(g, BLUE, pp=10, gold=1, food=5, wood=5, stone=5, fabric=5)
    give(g, BLACK, pp=11, gold=0, food=0, wood=0, stone=0, fabric=0)
    g.start_phase("stewardship")
    assert g.finished and g.scores() == [10 + 2, 11]
    assert g.winners() == [BLUE]


def test_the_game_goes_on_after_round_eight():
    # EN 53 and 146: nine rounds; the end comes only after the ninth round's stewardship.
    g = new_game(players=2, round_=8)
    g.start_phase("stewardship")
    assert not g.finished and g.s.round == 9 and g.prompt() == PLACE
