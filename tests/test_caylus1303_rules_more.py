"""Caylus 1303 rules that had no test yet, each pinned to the rulebook sentence it checks.

Line numbers refer to ../shared/rules/caylus1303_rulebook_en.txt ("EN") and
caylus1303_tiles.md ("tiles").  Seats are the rulebook's colours
(tests/caylus1303_scenarios.py): BLUE 0, BLACK 1, GREEN 2.
"""
from __future__ import annotations

from caylus1303_scenarios import (BLACK, BLUE, DEFAULT_ROAD, GREEN, choose, counter, give, kind_at, new_game, occupy,
                                  only_phase, owner_at, workers_total)

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
