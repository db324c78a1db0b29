"""The Caylus and Caylus 1303 variants, sentence by sentence of their rulebooks.

Each test quotes the sentence it checks from ../shared/rules/caylus_rulebook_en.txt ("EN", the
last page: "Caylus for 2 Players" and "Simplified Favor") or caylus1303_condensed_en.md, or names
the `assumption:` comment of the overlay file it pins.  Seats are the rulebook's colours
(tests/caylus_scenarios.py): RED 0, BLUE 1, GREEN 2.
"""
from __future__ import annotations

import functools
import random

import pytest

from provost.dsl.loader import load_checked
from provost.interpreter.engine import Game, IllegalOption

from caylus_scenarios import BLUE, GREEN, RED, choose, counter, empty_road_after_neutrals, give, occupy, tile_at

PLACE = "Place a worker or pass"


@functools.cache
def variant(game, name):
    return load_checked(game, name)


def two_player_game(seed=0):
    g = Game.new(variant("caylus", "two_players"), players=2, seed=seed)
    return g, g.s.orders["turn_order"]


# ------------------------------------------------------------------ Caylus for 2 players
def test_two_players_first_player_alternates_every_turn():
    # EN: "The turn order changes at the beginning of each turn.  A player plays first on one
    # turn, and second on the next, and so on."  Both pass at once: four turns.
    g, (a, b) = two_player_game(seed=1)
    firsts = []
    while g.s.round <= 4:
        if g.prompt() == PLACE and (len(firsts) < g.s.round):
            firsts.append(g.current_player())
            assert g.s.orders["turn_order"][0] == firsts[-1]
        choose(g, "pass" if "pass" in g.legal_options() else g.legal_options()[0])
    assert firsts == [a, b, a, b]


def test_two_players_before_a_pass_an_opponents_building_costs_one_and_gives_its_point():
    # EN 2C: the price is "the smallest unoccupied number on the passing scale" -- 1 while nobody
    # has passed, with 2 players as with 5 -- and "the owner of the building immediately earns 1PP".
    g, (a, b) = two_player_game()
    empty_road_after_neutrals(g)
    g.put_tile("wood_sawmill", 9, b)
    give(g, a, denier=5)
    give(g, b, pp=0)
    g.start_phase("placement")
    choose(g, "place:wood_sawmill")
    assert counter(g, "denier", a) == 4 and counter(g, "pp", b) == 1


def test_two_players_after_a_pass_the_castle_costs_three():
    # assumption (caylus.two_players.rules): the castle is priced like the buildings not one's own
    # (EN 2E prices it by the passing scale, as 2B and 2C), so 3 deniers once the other has passed.
    g, (a, b) = two_player_game()
    give(g, b, denier=10)
    g.start_phase("placement")
    choose(g, "pass", "place:castle")
    assert counter(g, "denier", b) == 7


def test_two_players_short_of_three_deniers_only_ones_own_buildings_remain():
    # EN 2A: a player "must pass because of a lack of ... money"; with 2 players, once the other
    # has passed a building not one's own costs 3 and one's own still 1.  The first to pass
    # (here the one without a denier, made to) still takes 1 denier.
    g, (a, b) = two_player_game()
    empty_road_after_neutrals(g)
    g.put_tile("wood_sawmill", 9, b)
    give(g, a, denier=0)
    give(g, b, denier=2)
    g.start_phase("placement")
    assert counter(g, "denier", a) == 1               # a had to pass, and passed first
    assert g.current_player() == b and g.legal_options() == ["pass", "place:wood_sawmill"]
    with pytest.raises(IllegalOption, match="legal options: pass, place:wood_sawmill"):
        g.apply("place:trading_post")
    choose(g, "place:wood_sawmill")
    assert counter(g, "denier", b) == 1


def test_two_players_the_inn_right_circle_pays_one_even_for_the_castle():
    # EN: "The inn keeps its power (the player whose pawn is placed on the right space pays
    # 1 denier in every case)."
    g, (a, b) = two_player_game()
    occupy(g, "inn_right", b)
    give(g, b, denier=5)
    g.start_phase("placement")
    choose(g, "pass", "place:castle")
    assert counter(g, "denier", b) == 4


def test_two_players_a_whole_game_never_offers_the_stables():
    # EN: "Consequently, the stables are not used."
    g, _ = two_player_game(seed=4)
    r = random.Random(4)
    while not g.finished:
        assert not any("stables" in o for o in g.legal_options())
        g.apply(r.choice(g.legal_options()))
    assert len(g.scores()) == 2


# ------------------------------------------------------------------ Simplified favor
def test_simplified_favor_building_the_church_gives_three_more():
    # EN: "When a player gains a favor (... by building the church ...), they score 3 prestige
    # points."  The church is worth 3 PP itself (caylus_tiles.md): 6 in all, no row asked.
    g = Game.new(variant("caylus", "simplified_favor"), players=3, seed=0)
    empty_road_after_neutrals(g)
    g.put_tile("mason", 9, RED)
    g.s.counters["provost"] = 9
    occupy(g, tile_at(g, 9), RED)
    give(g, RED, stone=1, cloth=1, pp=0)
    g.start_phase("activation")
    choose(g, "build:church")
    assert counter(g, "pp", RED) == 3 + 3
    assert g.prompt() != "Royal favor: choose a row"


def test_simplified_favor_the_best_offer_in_the_castle_gives_three():
    # EN: "... by making the best offer in the castle ...": Red's two Dungeon batches (5 PP each)
    # beat Blue's one; Red scores 10 + 3.
    g = Game.new(variant("caylus", "simplified_favor"), players=3, seed=0)
    g.s.orders["turn_order"] = [RED, BLUE, GREEN]
    occupy(g, "castle", RED, BLUE)
    give(g, RED, food=2, wood=2, stone=2, cloth=0, gold=0, pp=0)
    give(g, BLUE, food=1, wood=1, stone=1, cloth=0, gold=0, pp=0)
    g.start_phase("build_castle")
    choose(g, "batch:food+wood+stone", "batch:food+wood+stone")
    choose(g, "batch:food+wood+stone")
    assert [counter(g, "pp", p) for p in (RED, BLUE)] == [10 + 3, 5]


@pytest.mark.parametrize("houses,points", [(0, -3), (1, 0), (2, 3), (4, 6), (5, 9)])
def test_simplified_favor_section_scoring_gives_three_a_favor(houses, points):
    # EN: "... during the castle sections scoring ...  When you gain several favors at the same
    # time, each favor is worth 3 points."  The Walls: 0 houses -3 PP, 2: 1 favor, 3-4: 2, 5+: 3.
    g = Game.new(variant("caylus", "simplified_favor"), players=3, seed=0)
    g.s.counters["castle_parts"][RED][1] = houses
    give(g, RED, pp=10)
    g.run_effect("score_section", RED, "walls")
    assert counter(g, "pp", RED) == 10 + points
    assert g.s.pending is None or g.prompt() != "Royal favor: choose a row"


def test_simplified_favor_a_whole_game_never_asks_for_a_row():
    # EN: "Do not use the favor table."
    g = Game.new(variant("caylus", "simplified_favor"), players=3, seed=2)
    r = random.Random(2)
    while not g.finished:
        assert not g.prompt().startswith("Royal favor")
        g.apply(r.choice(g.legal_options()))


# ------------------------------------------------------------------ Caylus 1303: first game
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_first_game_every_recommended_character_is_chosen_or_left_on_the_board(players):
    # Condensed rules: "For a first game: For 2 players, use Architect, Foreman, Bailiff, Day
    # Laborer, and Chamberlain. For 3 or more, add Deliveryman. For 4 or more, add Journeyman.
    # For 5, add Early Riser." -- players + 3 tiles: each player takes one ("In reverse player
    # order") and "the unchosen 3 characters" go on the board.
    recommended = ["architect", "foreman", "bailiff", "day_laborer", "chamberlain", "deliveryman",
                   "journeyman", "early_riser"][:players + 3]
    g = Game.new(variant("caylus1303", "first_game"), players=players, seed=3)
    expected_order = list(reversed(g.s.orders["turn_order"]))
    choosers = []
    while g.prompt() == "Choose a character":
        choosers.append(g.current_player())
        g.apply(g.legal_options()[-1])
    held = [c for p in range(players) for c in g.s.zones["characters"][p]]
    board = g.s.zones["character_board"]
    assert len(board) == 3 and all(len(g.s.zones["characters"][p]) == 1 for p in range(players))
    assert sorted(held + board) == sorted(recommended)
    assert choosers == expected_order


def test_simplified_favor_a_fifth_favor_in_one_phase_still_counts():
    # assumption (caylus.simplified_favor.rules): the base game's "it is impossible to gain more
    # than 4 favors in a phase" follows from its four rows; without the table every favor counts.
    g = Game.new(variant("caylus", "simplified_favor"), players=3, seed=0)
    give(g, RED, pp=0)
    g.run_effect("favor", RED, 5)
    assert counter(g, "pp", RED) == 15
