"""Caylus rules that had no test yet, each pinned to the rulebook sentence it checks.

Line numbers refer to ../shared/rules/caylus_rulebook_en.txt.  Seats are the
rulebook's colours (tests/caylus_scenarios.py): RED 0, BLUE 1, GREEN 2.

Most situations start a phase with ``g.start_phase`` and let the game run to
its next decision.  Where a value would be overwritten later in the turn (the
provost joins the bailiff at the end of the turn), a player is put on the
passing scale so that the game stops at "Move the provost" right after the
special buildings.
"""
from __future__ import annotations

import functools

import pytest

from provost.dsl.loader import load_checked
from provost.interpreter.engine import Game

from caylus_scenarios import (BLUE, GREEN, RED, choose, counter, empty_road_after_neutrals, give, kind_at,
                              new_game, occupy, tile_at)

PLACE = "Place a worker or pass"
MOVE_PROVOST = "Move the provost"
ROW = "Royal favor: choose a row"


@functools.cache
def variant(name):
    return load_checked("caylus", name)


def stop_at_provost_moves(g: Game, who: int = GREEN) -> None:
    """Put ``who`` on the passing scale: the provost's move (phase 4) will ask them, so the
    game stops right after the special buildings."""
    g.s.orders["passing_order"] = [who]


def answer_favors_with_first_row(g: Game) -> None:
    """Answer every royal favor with the first legal row (prestige, then deniers, then cubes ...)."""
    while g.prompt().startswith("Royal favor"):
        choose(g, g.legal_options()[0])


def scoring_position(section: str, red_houses: int, game: Game | None = None) -> Game:
    """The end of a turn that scores ``section`` ("walls" or "towers").

    Red has ``red_houses`` houses in the section, Blue and Green one each (which scores
    nothing); everybody has 10 PP and nothing else, so the end-game conversion of the
    Towers adds nothing but what the favors bring.
    """
    g = game or new_game(players=3, turn_order=[RED, BLUE, GREEN])
    g.s.orders["turn_order"] = [RED, BLUE, GREEN]
    i = {"walls": 1, "towers": 2}[section]
    g.s.counters["scored"] = [1, 1, 0][:i] + [0] * (3 - i)
    g.s.counters["current_section"] = i
    g.s.counters["favor_columns"] = {"walls": 4, "towers": 5}[section]
    parts = [[0, 0, 0] for _ in range(3)]
    parts[RED][i], parts[BLUE][i], parts[GREEN][i] = red_houses, 1, 1
    g.s.counters["castle_parts"] = parts
    # The provost is one space beyond the bailiff: the bailiff moves 2 and reaches the trigger.
    trigger = {"walls": 18, "towers": 24}[section]
    g.s.counters["bailiff"] = trigger - 1
    g.s.counters["provost"] = trigger
    for p in (RED, BLUE, GREEN):
        give(g, p, pp=10, food=0, wood=0, stone=0, cloth=0, gold=0, denier=0)
    return g


# ------------------------------------------------------------------ special buildings (phase 3)
def test_merchants_guild_moves_the_provost_free_one_to_three_either_way():
    # EN 509-511: "The player may choose to move the provost 1 to 3 spaces backward or
    # forward along the road.  The player then gets the worker back."
    g = new_game(players=3)
    g.s.counters["provost"] = 10
    occupy(g, "merchants_guild", RED)
    give(g, RED, denier=4)
    stop_at_provost_moves(g)
    g.start_phase("specials")
    assert g.current_player() == RED and g.prompt() == "Move the provost for free"
    assert g.legal_options() == ["stay", "provost:-3", "provost:-2", "provost:-1",
                                 "provost:1", "provost:2", "provost:3"]
    choose(g, "provost:-3")
    assert g.s.counters["provost"] == 7
    assert counter(g, "denier", RED) == 4                 # free, unlike phase 4
    assert counter(g, "workers", RED) == 6 and g.s.occ["merchants_guild"] == []
    assert g.s.phase == "provost_moves" and g.prompt() == MOVE_PROVOST


@pytest.mark.parametrize("provost,options", [
    (27, ["stay", "provost:-3", "provost:-2", "provost:-1", "provost:1"]),
    (28, ["stay", "provost:-3", "provost:-2", "provost:-1"]),
    (2, ["stay", "provost:-1", "provost:1", "provost:2", "provost:3"]),
    (1, ["stay", "provost:1", "provost:2", "provost:3"]),
])
def test_merchants_guild_keeps_the_provost_within_the_road(provost, options):
    # EN 541-543: "The provost cannot be moved back to the bridge or the special buildings
    # before the bridge, nor go beyond the last space of the road" (spaces 1..28).
    g = new_game(players=3)
    g.s.counters["provost"] = provost
    occupy(g, "merchants_guild", RED)
    g.start_phase("specials")
    assert g.legal_options() == options


def test_trading_post_gives_three_deniers():
    # EN 504-505: "The player takes 3 deniers from the stock and gets the worker back."
    g = new_game(players=3)
    occupy(g, "trading_post", RED)
    give(g, RED, denier=1)
    stop_at_provost_moves(g)
    g.start_phase("specials")
    assert counter(g, "denier", RED) == 4
    assert counter(g, "workers", RED) == 6 and g.s.occ["trading_post"] == []
    assert g.s.phase == "provost_moves"


def test_gate_back_takes_the_worker_home():
    # EN 499-500: "If the player does not want to move his worker (or cannot do it), they
    # just get their pawn back."
    g = new_game(players=3)
    occupy(g, "gate", RED)
    stop_at_provost_moves(g)
    g.start_phase("specials")
    assert g.current_player() == RED and g.legal_options()[0] == "back"
    choose(g, "back")
    assert g.s.occ["gate"] == []
    assert counter(g, "workers", RED) == 6
    assert not any(RED in seats for seats in g.s.occ.values())
    assert g.s.phase == "provost_moves"


def test_gate_offers_only_unoccupied_spaces_and_not_the_castle_or_stables_twice():
    # EN 488-495: "his master may place it on any unoccupied space at no cost.  Thus, the
    # worker can be placed in another unoccupied special building, in the castle, the inn or
    # in the stable (if the player does not already have a worker there) or in any other
    # building."
    g = new_game(players=3)
    occupy(g, "gate", RED)
    occupy(g, "castle", RED)             # Red already in the castle (Blue too: room is left)
    occupy(g, "castle", BLUE)
    occupy(g, "stables", RED)            # ... and in the stables
    occupy(g, "neutral_farm", BLUE)      # an occupied building
    g.start_phase("specials")
    assert g.prompt() == "Move your worker from the gate"
    # "back" first, then the spaces in road order (the neutral tiles' order is the seed's).
    assert g.legal_options()[0] == "back"
    assert sorted(g.legal_options()) == sorted([
        "back", "move:trading_post", "move:merchants_guild", "move:joust_field", "move:inn",
        "move:neutral_sawmill", "move:neutral_quarry", "move:neutral_forest", "move:neutral_carpenter",
        "move:neutral_marketplace", "move:peddler", "move:carpenter", "move:gold_mine"])


def test_gate_offers_the_castle_and_stables_to_a_player_without_a_worker_there():
    # EN 492-495 (as above): the castle and the stables are open to a player who has no worker there.
    g = new_game(players=3)
    occupy(g, "gate", RED)
    occupy(g, "castle", BLUE)
    occupy(g, "stables", BLUE)
    g.start_phase("specials")
    assert "move:castle" in g.legal_options() and "move:stables" in g.legal_options()
    assert "move:gate" not in g.legal_options()


def test_inn_stay_keeps_the_one_denier_price_next_turn():
    # EN 468-473: "if nobody has played in the inn during this turn, they can either get the
    # pawn back or leave it where it is for the next turn.  If the pawn is not removed, its
    # owner will still be able to use the power granted by the inn in the next turn."
    # EN 475-477: "The player who occupies the circle on the right always pays 1 denier to
    # place their workers, no matter how many players have passed".
    g = new_game(players=3, turn_order=[BLUE, RED, GREEN])
    occupy(g, "inn_right", RED)
    for p in (RED, BLUE, GREEN):
        give(g, p, denier=10)
    g.start_phase("specials")
    assert g.current_player() == RED and g.legal_options() == ["stay", "leave"]
    choose(g, "stay")
    # The turn ends with nothing else to decide; the next turn's placement starts (income +2).
    assert g.s.round == 2 and g.s.phase == "placement" and g.prompt() == PLACE
    assert g.s.occ["inn_right"] == [RED]
    assert [counter(g, "denier", p) for p in (RED, BLUE, GREEN)] == [12, 12, 12]
    assert g.current_player() == BLUE
    choose(g, "pass")                          # Blue passes first (+1): the others would pay 2
    assert counter(g, "denier", BLUE) == 13
    choose(g, "place:trading_post")            # Red, still in the inn: 1 denier
    assert counter(g, "denier", RED) == 11


def test_joust_field_paid_with_the_trading_posts_denier():
    # EN 1158-1161: "it takes a cloth cube and a denier to activate the joust field.  The
    # denier may come from the trading post, since it comes before the joust field on the road."
    g = new_game(players=3)
    occupy(g, "trading_post", RED)
    occupy(g, "joust_field", RED)
    give(g, RED, denier=0, cloth=1)
    g.start_phase("specials")
    assert counter(g, "denier", RED) == 3
    assert g.current_player() == RED and g.legal_options() == ["skip", "joust"]
    choose(g, "joust")
    assert counter(g, "denier", RED) == 2 and counter(g, "cloth", RED) == 0
    assert g.current_player() == RED and g.prompt() == ROW


# ------------------------------------------------------------------ provost and bailiff
@pytest.mark.parametrize("provost,options", [
    (26, ["pass", "provost:-3", "provost:-2", "provost:-1", "provost:1", "provost:2"]),
    (28, ["pass", "provost:-3", "provost:-2", "provost:-1"]),
])
def test_provost_move_never_goes_beyond_space_28(provost, options):
    # EN 541-543: the provost cannot "go beyond the last space of the road" (28 spaces).
    g = new_game(players=3)
    g.s.counters["provost"] = provost
    g.s.orders["passing_order"] = [RED]
    give(g, RED, denier=5)
    g.start_phase("provost_moves")
    assert g.legal_options() == options


def test_bailiff_moves_one_when_the_provost_is_on_his_space():
    # EN 872-874: "If the provost is located before the bailiff along the road ... or on the
    # same space, the bailiff only advances by 1 space."
    g = new_game(players=3)
    g.s.counters["bailiff"] = 9
    g.s.counters["provost"] = 9
    g.start_phase("end_of_turn")
    assert g.s.counters["bailiff"] == 10 and g.s.counters["provost"] == 10
    assert g.s.counters["scored"] == [0, 0, 0]


# ------------------------------------------------------------------ section scoring
@pytest.mark.parametrize("houses,favors,pp", [
    (0, 0, 10 - 3),      # "No house -3 PP"
    (1, 0, 10),          # one house: nothing
    (2, 1, 11),          # "2 houses 1 royal favor"
    (3, 2, 11),          # "3 or 4 houses 2 royal favors"
    (4, 2, 11),
    (5, 3, 11),          # "5 houses or more 3 royal favors"
    (6, 3, 11),
])
def test_walls_scoring_table(houses, favors, pp):
    # EN 805-810, the Walls table.  Favors are answered with the first free row: the
    # prestige row (column 1: +1 PP), then deniers, then cubes -- one step on each row.
    g = scoring_position("walls", houses)
    g.start_phase("end_of_turn")
    answer_favors_with_first_row(g)
    assert g.s.counters["scored"] == [1, 1, 0]
    assert sum(g.s.counters["favor_level"][RED]) == favors
    assert g.s.counters["favor_level"][RED] == [1] * favors + [0] * (4 - favors)
    assert counter(g, "pp", RED) == pp
    assert [counter(g, "pp", p) for p in (BLUE, GREEN)] == [10, 10]
    assert g.s.phase == "placement" and g.s.round == 2


@pytest.mark.parametrize("houses,favors,pp", [
    (0, 0, 10 - 4),      # "No house -4 PP"
    (1, 0, 10),          # one house: nothing
    (2, 1, 11),          # "2 or 3 houses 1 royal favors"
    (3, 1, 11),
    (4, 2, 11),          # "4 or 5 houses 2 royal favors"
    (5, 2, 11),
    (6, 3, 11),          # "6 houses or more 3 royal favors"
    (7, 3, 11),
])
def test_towers_scoring_table(houses, favors, pp):
    # EN 812-817, the Towers table; the game then ends (EN 1000-1001).  The first-row
    # answers give +1 PP, 3 deniers and 1 food: less than the 4 deniers or 3 cubes that the
    # end-game conversion would turn into a PP.
    g = scoring_position("towers", houses)
    g.start_phase("end_of_turn")
    answer_favors_with_first_row(g)
    assert g.finished
    assert g.s.counters["favor_level"][RED] == [1] * favors + [0] * (4 - favors)
    assert g.scores() == [pp, 10, 10]


def test_column_five_opens_after_the_walls_are_scored():
    # EN 1015-1016: "Column 5 is available after the scoring of the Walls section".  During
    # the Walls scoring itself the marker cannot pass column 4; afterwards it can.
    g = scoring_position("walls", 2)
    g.s.counters["favor_level"][RED] = [4, 0, 0, 0]
    g.start_phase("end_of_turn")
    assert g.current_player() == RED
    choose(g, "row:row_prestige")
    assert g.s.counters["favor_level"][RED] == [4, 0, 0, 0]
    assert g.legal_options() == ["column:1", "column:2", "column:3", "column:4"]
    choose(g, "column:4")
    assert counter(g, "pp", RED) == 14
    assert g.s.counters["favor_columns"] == 5
    assert g.s.phase == "placement"
    # The next favor (a later phase) reaches column 5: 5 PP.
    g.run_effect("favor", RED, 1)
    choose(g, "row:row_prestige")
    assert g.s.counters["favor_level"][RED] == [5, 0, 0, 0]
    assert g.legal_options() == ["column:1", "column:2", "column:3", "column:4", "column:5"]
    choose(g, "column:5")
    assert counter(g, "pp", RED) == 19


# ------------------------------------------------------------------ the lawyer
def test_lawyer_refuses_fixed_residential_prestige_and_other_players_buildings():
    # EN 640-642: the lawyer transforms "a neutral building ... or one of their own craft
    # buildings"; EN 666-668: "The lawyer cannot transform a prestige building, a fixed
    # building or a residential building.  Furthermore, the lawyer can never be transformed."
    g = new_game(players=3)
    empty_road_after_neutrals(g)
    g.put_tile("lawyer", 9, BLUE)
    g.put_tile("residence", 10, BLUE)
    g.put_tile("statue", 11, BLUE)
    g.put_tile("wood_sawmill", 12, RED)      # another player's craft building
    g.put_tile("wood_quarry", 13, BLUE)      # Blue's own wood building
    g.put_tile("workshop", 14, BLUE)         # Blue's own stone building
    g.s.counters["provost"] = 9
    occupy(g, "lawyer", BLUE)
    give(g, BLUE, cloth=1, denier=1)
    g.start_phase("activation")
    assert g.current_player() == BLUE and g.prompt() == "Lawyer: turn a building into a residence"
    # Not the peddler, carpenter or gold mine (fixed), the residence, the statue, Red's
    # sawmill or the lawyer itself.
    assert g.legal_options()[0] == "skip"          # then the buildings in road order (the seed's)
    assert sorted(g.legal_options()) == sorted([
        "skip", "transform:neutral_sawmill", "transform:neutral_quarry", "transform:neutral_forest",
        "transform:neutral_carpenter", "transform:neutral_farm", "transform:neutral_marketplace",
        "transform:wood_quarry", "transform:workshop"])


# ------------------------------------------------------------------ the end of the game
def test_end_game_conversion_rounds_down():
    # EN 1005-1007: "3 PPs per gold cube they have left, 1 PP per 3 cubes they have left
    # (except gold), 1 PP per 4 deniers they have left."
    g = new_game(players=3, turn_order=[RED, BLUE, GREEN])
    g.s.counters["scored"] = [1, 1, 0]
    g.s.counters["current_section"] = 2
    g.s.counters["favor_columns"] = 5
    g.s.counters["castle_parts"] = [[0, 0, 1], [0, 0, 1], [0, 0, 1]]   # one house each: no towers effect
    g.s.counters["bailiff"] = 23
    g.s.counters["provost"] = 20
    give(g, RED, pp=10, food=2, wood=1, stone=1, cloth=1, denier=7, gold=2)    # 5 cubes, 7 deniers, 2 gold
    give(g, BLUE, pp=10, food=1, wood=0, stone=0, cloth=1, denier=3, gold=0)   # 2 cubes, 3 deniers
    give(g, GREEN, pp=10, food=0, wood=0, stone=0, cloth=3, denier=8, gold=1)  # 3 cubes, 8 deniers, 1 gold
    g.start_phase("end_of_turn")
    assert g.finished
    assert g.scores() == [10 + 1 + 1 + 6, 10, 10 + 1 + 2 + 3]


# ------------------------------------------------------------------ 2 players
def two_player_placement():
    g = Game.new(variant("two_players"), players=2, seed=0)
    a, b = g.s.orders["turn_order"]
    give(g, a, denier=10)
    give(g, b, denier=10)
    g.start_phase("placement")
    assert g.current_player() == a
    return g, a, b


def test_two_players_castle_costs_three_after_the_other_passed():
    # EN 1075-1077: "When a player passes, the other must pay 3 deniers (instead of 2 in the
    # normal rules) to play in a building they do not own."  The castle is owned by nobody.
    # EN 296-297 (2A, unchanged): "The first player who passes gets 1 denier from the stock
    # immediately."
    g, a, b = two_player_placement()
    choose(g, "pass")
    assert counter(g, "denier", a) == 11
    choose(g, "place:castle")
    assert counter(g, "denier", b) == 7
    assert g.s.occ["castle"] == [b]
    choose(g, "pass")                          # the second passer takes nothing
    assert counter(g, "denier", b) == 7
    assert g.prompt() == MOVE_PROVOST


def test_two_players_castle_costs_one_before_anyone_passed():
    # EN 1075-1077 (as above): the 3-denier price only applies once a player has passed.
    g, a, b = two_player_placement()
    choose(g, "place:castle")
    assert counter(g, "denier", a) == 9
    choose(g, "place:castle")
    assert counter(g, "denier", b) == 9
    assert g.s.occ["castle"] == [a, b]


# ------------------------------------------------------------------ simplified favor
def test_simplified_favor_church_gives_its_prestige_and_three_for_the_favor():
    # EN 1087-1091: "Do not use the favor table.  When a player gains a favor (... by
    # building the church ...), they score 3 prestige points."  The church itself is 3 PP.
    g = Game.new(variant("simplified_favor"), players=3, seed=0)
    empty_road_after_neutrals(g)
    g.put_tile("mason", 9, RED)
    occupy(g, tile_at(g, 9), RED)
    g.s.counters["provost"] = 9
    give(g, RED, stone=1, cloth=1, food=0, wood=0, pp=0)
    g.start_phase("activation")
    assert g.legal_options() == ["skip", "build:jeweller", "build:church"]
    choose(g, "build:church")
    assert kind_at(g, 10) == "church"
    assert counter(g, "pp", RED) == 3 + 3
    assert g.prompt() == PLACE                 # no favor question: the next turn has begun


def test_simplified_favor_most_batches_in_the_castle_is_three_prestige():
    # EN 1087-1091: "... by making the best offer in the castle ..., they score 3 prestige points."
    g = Game.new(variant("simplified_favor"), players=3, seed=0)
    occupy(g, "castle", RED, BLUE)
    give(g, RED, food=1, wood=1, stone=1, cloth=0, pp=0)
    give(g, BLUE, food=2, wood=2, stone=2, cloth=0, pp=0)
    g.start_phase("build_castle")
    choose(g, "batch:food+wood+stone")                             # Red: 1 batch
    choose(g, "batch:food+wood+stone", "batch:food+wood+stone")    # Blue: 2 batches, the most
    assert counter(g, "pp", RED) == 5
    assert counter(g, "pp", BLUE) == 2 * 5 + 3
    assert g.prompt() == PLACE


def test_simplified_favor_section_scoring_is_three_per_favor():
    # EN 1087-1093: "... during the castle sections scoring ..., they score 3 prestige points.
    # [When] you gain several favors at the same time, each favor is worth 3 points."
    # Walls: Red 3 houses (2 favors), Blue none (-3 PP), Green 5 houses (3 favors).
    g = scoring_position("walls", 3, Game.new(variant("simplified_favor"), players=3, seed=0))
    g.s.counters["castle_parts"][BLUE] = [0, 0, 0]
    g.s.counters["castle_parts"][GREEN] = [0, 5, 0]
    g.start_phase("end_of_turn")
    assert g.prompt() == PLACE
    assert [counter(g, "pp", p) for p in (RED, BLUE, GREEN)] == [10 + 6, 10 - 3, 10 + 9]
