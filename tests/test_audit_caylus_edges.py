"""Caylus edge cases the rulebook states in one sentence, and the rule file's assumptions.

Each test quotes the sentence it checks from ../shared/rules/caylus_rulebook_en.txt ("EN") or
names the `assumption:` comment of rulesets/caylus.rules it pins.  Seats are the rulebook's
colours (tests/caylus_scenarios.py): RED 0, BLUE 1, GREEN 2, ORANGE 3, BLACK 4.
"""
from __future__ import annotations

import functools

import pytest

from provost.dsl.loader import load_checked
from provost.interpreter.engine import Game

from caylus_scenarios import (BLACK, BLUE, GREEN, ORANGE, RED, choose, counter, empty_road_after_neutrals, give,
                              kind_at, new_game, occupy, tile_at)

PLACE = "Place a worker or pass"
ROW = "Royal favor: choose a row"
LOTS = [slot for slot in range(9, 29) if slot != 16]      # the empty lots of caylus_tiles.md


@functools.cache
def variant(name):
    return load_checked("caylus", name)


def stop_at_provost_moves(g: Game, who: int = GREEN) -> None:
    """``who`` on the passing scale: phase 4 asks them, so the game stops after phase 3."""
    g.s.orders["passing_order"] = [who]


# ------------------------------------------------------------------ 2A: who must pass
def test_a_player_without_money_must_pass_and_as_the_first_passer_takes_a_denier():
    # EN 2A: "If a player wants to pass or must pass because of a lack of workers or money
    # ... The first player who passes gets 1 denier from the stock immediately."
    g = new_game(players=3, turn_order=[RED, BLUE, GREEN])
    give(g, RED, denier=0)
    give(g, BLUE, denier=5)
    g.start_phase("placement")
    # Passing is Red's only option, so it is taken without asking.
    assert g.s.orders["passing_order"] == [RED]
    assert counter(g, "denier", RED) == 1
    assert g.current_player() == BLUE and g.prompt() == PLACE
    choose(g, "place:trading_post")                 # one player has passed: 2 deniers
    assert counter(g, "denier", BLUE) == 3


def test_a_player_without_workers_must_pass():
    # EN 2A (as above): a lack of workers.  Red's six workers are all out already.
    g = new_game(players=3, turn_order=[RED, BLUE, GREEN])
    for where in ("gate", "trading_post", "merchants_guild", "joust_field", "stables", "castle"):
        occupy(g, where, RED)
    give(g, RED, denier=20)
    g.start_phase("placement")
    assert counter(g, "workers", RED) == 0
    assert g.s.orders["passing_order"] == [RED] and counter(g, "denier", RED) == 21
    assert g.current_player() == BLUE


def test_with_five_players_the_last_one_in_pays_five_deniers():
    # EN 2B/2C/2E: "the smallest unoccupied number on the passing scale (between 1 and 5
    # deniers according to the number of players who have already passed)".
    g = new_game(players=5, turn_order=[RED, BLUE, GREEN, ORANGE, BLACK])
    for p in range(5):
        give(g, p, denier=20)
    g.start_phase("placement")
    choose(g, "pass", "pass", "pass", "pass")        # Red (+1), Blue, Green, Orange
    assert g.current_player() == BLACK
    choose(g, "place:castle")
    assert counter(g, "denier", BLACK) == 15
    choose(g, "place:trading_post")
    assert counter(g, "denier", BLACK) == 10
    assert [counter(g, "denier", p) for p in (RED, BLUE, GREEN, ORANGE)] == [21, 20, 20, 20]


# ------------------------------------------------------------------ 4: the provost's price
def test_the_provost_moves_only_as_far_as_the_player_can_pay():
    # EN 4: "Each player can move the provost 1 to 3 spaces forward or backward by paying
    # 1 denier per space.  It is also possible to pass."  Red has 2 deniers; Blue none, so
    # passing is all Blue can do and it is taken without asking.
    g = new_game(players=3)
    g.s.counters["provost"] = 10
    g.s.orders["passing_order"] = [BLUE, RED, GREEN]
    give(g, BLUE, denier=0)
    give(g, RED, denier=2)
    give(g, GREEN, denier=5)
    g.start_phase("provost_moves")
    assert g.current_player() == RED
    assert g.legal_options() == ["pass", "provost:-2", "provost:-1", "provost:1", "provost:2"]
    choose(g, "provost:-2")
    assert counter(g, "denier", RED) == 0 and g.s.counters["provost"] == 8
    assert g.current_player() == GREEN


# ------------------------------------------------------------------ 3F: the inn's right circle
def test_from_the_inn_a_worker_on_an_opponents_building_costs_one_and_still_gives_the_point():
    # EN 3F: "The player who occupies the circle on the right always pays 1 denier to place
    # their workers, no matter how many players have passed (the player's opponents still gain
    # 1 PP every time the former uses their buildings)."  Also the castle (EN 2E's price).
    g = new_game(players=3, turn_order=[GREEN, BLUE, RED])
    empty_road_after_neutrals(g)
    g.put_tile("wood_quarry", 9, BLUE)
    occupy(g, "inn_right", RED)
    for p in (RED, BLUE, GREEN):
        give(g, p, denier=10, pp=0)
    g.start_phase("placement")
    choose(g, "pass", "pass")                       # Green, Blue: the others' price is 3
    choose(g, "place:wood_quarry")
    assert counter(g, "denier", RED) == 9 and counter(g, "pp", BLUE) == 1
    choose(g, "place:castle")
    assert counter(g, "denier", RED) == 8


# ------------------------------------------------------------------ 3A: the gate
def test_the_gate_may_send_a_worker_to_the_inn_which_drives_out_the_right_circle():
    # EN 3A: "the worker can be placed in another unoccupied special building, in the castle,
    # the inn ..."; EN 3F: "The worker who previously occupied this circle is driven out and
    # goes back to his master."  The gate comes before the inn, so the moved worker enters it.
    g = new_game(players=3)
    occupy(g, "inn_right", BLUE)
    occupy(g, "gate", RED)
    stop_at_provost_moves(g)
    g.start_phase("specials")
    choose(g, "move:inn")
    assert g.s.occ["inn_right"] == [RED] and g.s.occ["inn"] == []
    assert counter(g, "workers", BLUE) == 6 and counter(g, "workers", RED) == 5
    assert g.s.phase == "provost_moves"


def test_a_worker_sent_to_the_castle_by_the_gate_builds_after_those_placed_in_phase_2():
    # EN 3A: the gate's worker may go "in the castle"; EN 2E: a worker is put "on the castle
    # space with the smallest number available", and EN 6: "The players must build the castle
    # according to their order on the castle scale (beginning with space 1)."
    g = new_game(players=3, turn_order=[RED, BLUE, GREEN])
    occupy(g, "castle", BLUE)
    occupy(g, "gate", RED)
    for p in (RED, BLUE):
        give(g, p, food=1, wood=1, stone=1, cloth=0, gold=0, pp=0)
    stop_at_provost_moves(g)
    g.start_phase("specials")
    choose(g, "move:castle")
    assert g.s.occ["castle"] == [BLUE, RED]
    choose(g, "pass")                               # Green does not move the provost
    assert g.s.phase == "build_castle"
    assert g.current_player() == BLUE and g.prompt() == "Deliver a batch to the castle"
    choose(g, "batch:food+wood+stone")
    assert g.current_player() == RED
    choose(g, "batch:food+wood+stone")
    # One batch each: the tie goes to Blue, the first on the castle scale.
    assert g.current_player() == BLUE and g.prompt() == ROW


# ------------------------------------------------------------------ 5: beyond the provost
def test_a_worker_beyond_the_provost_comes_home_and_the_owner_keeps_his_point():
    # EN 5: "The players who have workers on these unused buildings get them back without a
    # compensation (the PPs granted by these workers are not canceled)."  Played from phase 2:
    # Red works Blue's quarry on space 9; nobody moves the provost from space 6.
    g = new_game(players=3, turn_order=[RED, BLUE, GREEN])
    empty_road_after_neutrals(g)
    g.put_tile("wood_quarry", 9, BLUE)
    for p in (RED, BLUE, GREEN):
        give(g, p, denier=5, stone=0, pp=0)
    g.start_phase("placement")
    choose(g, "place:wood_quarry")                  # 1 denier: nobody has passed; Blue +1 PP
    assert counter(g, "pp", BLUE) == 1 and counter(g, "denier", RED) == 4
    choose(g, "pass", "pass", "pass")               # Blue (+1 denier), Green, Red
    assert g.prompt() == "Move the provost" and g.s.counters["provost"] == 6
    choose(g, "pass", "pass", "pass")
    # The quarry was not activated: no stone, the worker is home, Blue keeps his point.
    assert g.s.round == 2 and g.prompt() == PLACE
    assert counter(g, "stone", RED) == 0 and counter(g, "workers", RED) == 6
    assert counter(g, "pp", BLUE) == 1 and counter(g, "stone", BLUE) == 0


# ------------------------------------------------------------------ 5A: production buildings
def test_the_owner_working_his_own_stone_building_takes_no_extra_cube():
    # EN 5A: "If the building is activated by its owner, the owner takes the normal income
    # granted by the building, but no additional cube."
    g = new_game(players=3)
    empty_road_after_neutrals(g)
    g.put_tile("stone_farm", 9, RED)
    g.put_tile("wood_farm_food", 10, BLUE)
    g.s.counters["provost"] = 10
    occupy(g, tile_at(g, 9), RED)
    occupy(g, tile_at(g, 10), GREEN)               # Green's choice stops the game at space 10
    give(g, RED, food=0, cloth=0, pp=0)
    g.start_phase("activation")
    assert g.current_player() == GREEN and set(g.legal_options()) == {"food", "cloth"}
    assert (counter(g, "food", RED), counter(g, "cloth", RED), counter(g, "pp", RED)) == (2, 1, 0)


# ------------------------------------------------------------------ phase 7: a trigger passed over
@pytest.mark.parametrize("section,bailiff", [("dungeon", 11), ("walls", 17), ("towers", 23)])
def test_a_bailiff_moving_past_a_scoring_space_scores_its_section(section, bailiff):
    # EN phase 7: "if the bailiff, during his move, reached or went past a scoring space ...
    # proceed to scoring".  The provost two spaces ahead: the bailiff moves 2, one beyond the
    # trigger (12 / 18 / 24).  Nobody has a house there: each loses 2 / 3 / 4 PP.
    i = ["dungeon", "walls", "towers"].index(section)
    g = new_game(players=3, turn_order=[RED, BLUE, GREEN])
    g.s.counters["scored"] = [1] * i + [0] * (3 - i)
    g.s.counters["current_section"] = i
    g.s.counters["favor_columns"] = [2, 4, 5][i]
    g.s.counters["bailiff"] = bailiff
    g.s.counters["provost"] = bailiff + 2
    for p in (RED, BLUE, GREEN):
        give(g, p, pp=10, food=0, wood=0, stone=0, cloth=0, gold=0, denier=0)
    g.start_phase("end_of_turn")
    assert g.s.counters["bailiff"] == bailiff + 2
    assert g.s.counters["scored"][i] == 1
    loss = [2, 3, 4][i]
    assert [counter(g, "pp", p) for p in (RED, BLUE, GREEN)] == [10 - loss] * 3
    assert g.finished == (section == "towers")


# ------------------------------------------------------------------ royal favors
def test_a_marker_on_column_five_stays_there_and_still_gives_its_effect():
    # EN favors: "Once level 5 has been reached, the marker cannot go any further, but the
    # player can still choose the line and take advantage of the effect of their choice."
    g = new_game(players=3)
    g.s.counters["favor_columns"] = 5
    g.s.counters["favor_level"][RED] = [0, 5, 0, 0]
    give(g, RED, denier=0)
    g.run_effect("favor", RED, 1)
    choose(g, "row:row_deniers")
    assert g.s.counters["favor_level"][RED] == [0, 5, 0, 0]
    assert g.legal_options() == ["column:1", "column:2", "column:3", "column:4", "column:5"]
    choose(g, "column:5")
    assert counter(g, "denier", RED) == 7


def test_a_fifth_favor_in_one_phase_is_lost():
    # EN favors: "If a player gains several favors during the same phase ... the favors must be
    # used on different lines.  So, it is impossible to gain more than 4 favors in a phase."
    g = new_game(players=3)
    give(g, RED, pp=0, denier=0, food=0)
    g.run_effect("favor", RED, 5)
    asked = []
    while g.s.pending is not None and g.prompt() == ROW and g.current_player() == RED:
        asked.append(g.legal_options())
        choose(g, g.legal_options()[0])             # each row on column 1: one choice only
    # Three rows are asked for; the fourth favor's one row left is taken without asking, and
    # the fifth has no row: it is lost.
    assert [len(a) for a in asked] == [4, 3, 2]
    assert g.s.counters["favor_level"][RED] == [1, 1, 1, 1]
    assert (counter(g, "pp", RED), counter(g, "denier", RED), counter(g, "food", RED)) == (1, 3, 1)


# ------------------------------------------------------------------ the rule file's assumptions
def test_with_no_empty_lot_left_a_carpenter_builds_nothing():
    # assumption (caylus.rules, the road): the rulebook always has a "first free (unbuilt) space",
    # but after the lawyer turns players' buildings into residences and they are built again the
    # 19 lots can all be taken; then nothing more is built and the builder keeps the cubes.
    g = new_game(players=3)
    empty_road_after_neutrals(g)
    for slot in LOTS:
        g.put_tile("residence", slot, BLUE)
    occupy(g, "carpenter", RED)
    occupy(g, "gold_mine", GREEN)
    g.s.counters["provost"] = 16
    give(g, RED, wood=3, food=3, cloth=3, pp=0)
    give(g, GREEN, gold=0)
    supply = dict(g.s.supply)
    g.start_phase("activation")
    # No build was offered: the turn ran on to the next placement; the gold mine still worked.
    assert g.s.round == 2 and g.prompt() == PLACE
    assert [counter(g, r, RED) for r in ("wood", "food", "cloth", "pp")] == [3, 3, 3, 0]
    assert g.s.supply == supply and counter(g, "gold", GREEN) == 1


def test_a_lawyer_change_beyond_the_provost_happens_when_the_unused_worker_comes_home():
    # EN 5C: "If there is a worker in the building the player wants to transform, the player
    # pays immediately, but the lawyer's action will be delayed until the building has been
    # activated."  assumption (caylus.rules, 5C): a building beyond the provost is never
    # activated; it changes when its worker comes home unused.
    g = new_game(players=3, turn_order=[RED, BLUE, GREEN])
    empty_road_after_neutrals(g)
    g.put_tile("lawyer", 9, RED)
    g.put_tile("wood_sawmill", 12, RED)
    g.s.counters["provost"] = 10
    occupy(g, tile_at(g, 9), RED)
    occupy(g, tile_at(g, 12), BLUE)
    give(g, RED, cloth=1, denier=1, pp=0)
    give(g, BLUE, wood=0)
    g.start_phase("activation")
    choose(g, "transform:wood_sawmill")
    # The turn ran on to the next placement: Blue's worker came home without wood, and the
    # sawmill is Red's residence (+2 PP, back in the stock), earning its denier at once.
    assert g.s.round == 2 and g.prompt() == PLACE
    assert counter(g, "wood", BLUE) == 0 and counter(g, "workers", BLUE) == 6
    assert kind_at(g, 12) == "residence" and g.s.tiles[tile_at(g, 12)][1] == RED
    assert counter(g, "pp", RED) == 2 and g.s.supply["wood_sawmill"] == 1
    assert counter(g, "cloth", RED) == 0 and counter(g, "denier", RED) == 0 + 2 + 1


def test_when_nobody_in_the_castle_gives_a_batch_nobody_gains_the_favor():
    # EN 6: "you determine which player has provided the most batches during this turn ...
    # This player immediately gains 1 royal favor."  assumption (caylus.rules, phase 6): with no
    # batch at all there is no such player; both lose their 2 PP and nobody is asked for a row.
    g = new_game(players=3, turn_order=[RED, BLUE, GREEN])
    occupy(g, "castle", RED, BLUE)
    give(g, RED, food=0, wood=1, stone=1, pp=5)
    give(g, BLUE, food=1, wood=1, stone=1, pp=5)
    levels = [list(row) for row in g.s.counters["favor_level"]]
    g.start_phase("build_castle")
    assert g.current_player() == BLUE                # Red has no food: no batch, no question
    choose(g, "stop")
    assert [counter(g, "pp", p) for p in (RED, BLUE)] == [3, 3]
    assert g.s.phase != "build_castle" and g.s.counters["favor_level"] == levels


def test_the_alchemist_takes_no_gold():
    # EN 5I: "pay 2 cubes (cubes of any good may be used) and get 1 gold cube, or pay 4 cubes".
    # assumption (caylus.rules, alchemist): gold is not among the cubes given.
    g = new_game(players=3)
    empty_road_after_neutrals(g)
    g.put_tile("alchemist", 9, RED)
    g.s.counters["provost"] = 9
    occupy(g, tile_at(g, 9), RED)
    give(g, RED, food=2, wood=0, stone=0, cloth=2, gold=4)
    g.start_phase("activation")
    opts = g.legal_options()
    assert opts[0] == "skip" and not any("gold" in o for o in opts)
    assert sorted(opts) == sorted(["skip", "two:food+food", "two:food+cloth", "two:cloth+cloth",
                                   "four:food+food+cloth+cloth"])


def test_two_players_the_gate_cannot_send_a_worker_to_the_stables():
    # EN 2 players: "Consequently, the stables are not used."
    g = Game.new(variant("two_players"), players=2, seed=0)
    a, b = g.s.orders["turn_order"]
    occupy(g, "gate", a)
    g.s.orders["passing_order"] = [b]
    g.start_phase("specials")
    assert g.prompt() == "Move your worker from the gate"
    assert "move:stables" not in g.legal_options() and "move:castle" in g.legal_options()


# ------------------------------------------------------------------ 5D, 5E: what a market or peddler offers
@pytest.mark.parametrize("kind,options", [
    # EN 5E: "They do not allow you to buy gold.  At the fixed peddler's shop, you cannot buy
    # more than 1 cube.  The non-fixed peddler (the wood building) allows you to buy 1 or 2
    # cubes of your choice."
    ("peddler", ["skip", "buy:food", "buy:wood", "buy:stone", "buy:cloth"]),
    ("wood_peddler", ["skip", "buy:food", "buy:wood", "buy:stone", "buy:cloth",
                      "buy:food+food", "buy:food+wood", "buy:food+stone", "buy:food+cloth",
                      "buy:wood+wood", "buy:wood+stone", "buy:wood+cloth", "buy:stone+stone",
                      "buy:stone+cloth", "buy:cloth+cloth"]),
    # EN 5D: "It is not possible to sell several cubes at once."
    ("wood_marketplace", ["skip", "sell:food", "sell:wood", "sell:stone", "sell:cloth", "sell:gold"]),
])
def test_peddlers_sell_no_gold_and_a_marketplace_buys_one_cube(kind, options):
    g = new_game(players=3)
    empty_road_after_neutrals(g)
    if kind != "peddler":
        g.put_tile(kind, 9, BLUE)
    g.s.counters["provost"] = 9
    occupy(g, "peddler" if kind == "peddler" else tile_at(g, 9), RED)
    give(g, RED, denier=10, food=2, wood=2, stone=2, cloth=2, gold=2)
    g.start_phase("activation")
    assert g.current_player() == RED
    assert sorted(g.legal_options()) == sorted(options)
