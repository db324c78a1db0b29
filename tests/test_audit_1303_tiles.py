"""Caylus 1303 building effects that had no test, each checked against its row of the tile facts.

"tiles N" is a line of ../shared/rules/caylus1303_tiles.md, "EN N" one of
caylus1303_rulebook_en.txt.  Each test lays a road, puts Blue's worker on the building with the
provost just after it, runs the activation phase and plays the option the tile offers.  Costs and
PP marked C in tiles.md are the rule file's documented assumptions; the effects are A or B.
"""
from __future__ import annotations

import pytest

from caylus1303_scenarios import BLACK, BLUE, choose, counter, give, kind_at, new_game, only_phase, occupy, owner_at


def activate(slot_kind: dict, player: int = BLUE, *, board=(), **stock):
    """Blue's worker on each laid building (slot -> kind or (kind, owner)), the provost past the last one."""
    g = new_game(players=2, road={1: "start_farm", **slot_kind}, board=board, characters={BLACK: "thief"},
                 site=["start_farm", "manor_setup", "church_setup"])
    for slot in slot_kind:
        occupy(g, slot, player)
    give(g, player, **stock)                           # after placing: workers=N is N left in hand
    g.s.counters["provost"] = max(slot_kind)
    only_phase(g, "activation")
    return g


# ------------------------------------------------------------------ wood buildings, construction side
@pytest.mark.parametrize("option,fabric_left,pp", [("one", 1, 4), ("two", 0, 6), ("skip", 2, 0)])
def test_tailor_fabric_for_prestige(option, fabric_left, pp):
    # tiles 66: "Tailor | ... | 1 fabric -> 4 PP, or 2 fabric -> 6 PP | same"
    g = activate({9: ("tailor", BLACK)}, fabric=2, pp=0)
    assert g.legal_options() == ["skip", "one", "two"]
    choose(g, option)
    assert counter(g, "fabric", BLUE) == fabric_left and counter(g, "pp", BLUE) == pp


def test_tailor_with_one_fabric_offers_only_the_one_fabric_trade():
    g = activate({9: ("tailor", BLACK)}, fabric=1)
    assert g.legal_options() == ["skip", "one"]


def test_tailor_without_fabric_is_not_asked():
    # Only "skip" is left, and whether fabric can be paid is public: the PP the trade gains are
    # hidden but no part of the choice, so the rules take the skip and nobody is asked.
    g = activate({9: ("tailor", BLACK)}, fabric=0, pp=0)
    assert g.current_player() is None and counter(g, "pp", BLUE) == 0


def test_wood_market_takes_one_resource_but_never_gold():
    # tiles 64: "Market | ... | take 1 resource of choice (not gold) | same"
    g = activate({9: ("wood_market", BLACK)}, fabric=0)
    assert g.legal_options() == ["take:food", "take:wood", "take:stone", "take:fabric"]
    choose(g, "take:fabric")
    assert counter(g, "fabric", BLUE) == 1 and counter(g, "gold", BLUE) == 0


def test_covered_market_takes_three_workers():
    # tiles 63: "Covered Market | ... | take 3 workers | take 2 workers + 1 PP"
    g = activate({9: ("covered_market", BLACK)}, workers=5, camp=9, pp=0)
    # 5 in hand + 1 placed + 9 in the camp; the Market's 3 come out of the camp, then its worker goes in.
    assert counter(g, "workers", BLUE) == 5 + 3 and counter(g, "camp", BLUE) == 9 - 3 + 1
    assert counter(g, "pp", BLUE) == 0


def test_covered_market_setup_side_takes_two_workers_and_a_prestige_point():
    g = activate({9: "covered_market_setup"}, workers=5, camp=9, pp=0)
    assert counter(g, "workers", BLUE) == 5 + 2 and counter(g, "camp", BLUE) == 9 - 2 + 1
    assert counter(g, "pp", BLUE) == 1


def test_manor_gives_a_favor():
    # tiles 65: "Manor | ... | gain 1 favor | gain 2 PP"
    g = activate({9: ("manor", BLACK)}, board=["foreman"])
    assert g.prompt().startswith("Favor") and set(g.legal_options()) == {"character:thief", "use:start_farm"}
    choose(g, "character:thief")
    assert g.s.zones["characters"][BLUE] == ["thief"] and g.s.zones["characters"][BLACK] == []


def test_manor_setup_side_gives_two_prestige_points():
    g = activate({9: "manor_setup"}, pp=0)
    assert g.current_player() is None and counter(g, "pp", BLUE) == 2


@pytest.mark.parametrize("kind,resource,n", [("wood_farm", "food", 2), ("wood_sawmill", "wood", 2),
                                             ("wood_quarry", "stone", 2), ("spinning_mill", "fabric", 2)])
def test_wood_producers_give_two(kind, resource, n):
    # tiles 68-71: Farm "take 2 food", Sawmill "take 2 wood", Quarry "take 2 stone", Spinning Mill "take 2 fabric".
    g = activate({9: (kind, BLACK)}, food=0, wood=0, stone=0, fabric=0, pp=0)
    assert counter(g, resource, BLUE) == n and counter(g, "pp", BLUE) == 0
    assert counter(g, "pp", BLACK) == 0                # activating it gives the owner nothing (his point comes at placement)


@pytest.mark.parametrize("kind,resource", [("wood_farm_setup", "food"), ("wood_sawmill_setup", "wood"),
                                           ("wood_quarry_setup", "stone"), ("spinning_mill_setup", "fabric")])
def test_wood_producers_setup_side_give_one_and_a_prestige_point(kind, resource):
    # tiles 68-71, setup side: "take 1 food + 1 PP" (and the same for wood, stone, fabric).
    g = activate({9: kind}, food=0, wood=0, stone=0, fabric=0, pp=0)
    assert counter(g, resource, BLUE) == 1 and counter(g, "pp", BLUE) == 1


# ------------------------------------------------------------------ stone buildings
def test_gold_mine_gives_one_gold_on_both_sides():
    # tiles 76: "Gold Mine | stone + food | 4 | take 1 gold"
    for kind in (("gold_mine", BLACK), "gold_mine_setup"):
        g = activate({9: kind}, gold=0)
        assert counter(g, "gold", BLUE) == 1


@pytest.mark.parametrize("option,gold_left,pp", [("one", 1, 5), ("two", 0, 9)])
def test_jeweler_gold_for_prestige(option, gold_left, pp):
    # tiles 81: "Jeweler | ... | 1 gold -> 5 PP, or 2 gold -> 9 PP"
    g = activate({9: ("jeweler", BLACK)}, gold=2, pp=0)
    assert g.legal_options() == ["skip", "one", "two"]
    choose(g, option)
    assert counter(g, "gold", BLUE) == gold_left and counter(g, "pp", BLUE) == pp


def test_alchemist_turns_one_or_two_resources_into_gold_but_not_gold_itself():
    # tiles 78: "Alchemist | ... | 1 resource -> 1 gold, or 2 -> 2 gold"; the rule file's assumption:
    # "1 resource" is food, wood, stone or fabric.
    g = activate({9: ("alchemist", BLACK)}, food=1, wood=1, stone=0, fabric=0, gold=1)
    assert g.legal_options() == ["skip", "one:food", "one:wood", "two:food+wood"]
    choose(g, "two:food+wood")
    assert counter(g, "gold", BLUE) == 1 + 2 and counter(g, "food", BLUE) == 0 and counter(g, "wood", BLUE) == 0


def test_alchemist_two_of_the_same_resource():
    g = activate({9: ("alchemist", BLACK)}, food=0, wood=2, stone=0, fabric=0, gold=0)
    assert g.legal_options() == ["skip", "one:wood", "two:wood+wood"]
    choose(g, "one:wood")
    assert counter(g, "gold", BLUE) == 1 and counter(g, "wood", BLUE) == 1


def test_stone_guild_one_resource_for_five_workers():
    # tiles 79: "Guild | stone + any | 4 | spend 1 resource: take 5 workers"
    g = activate({9: ("stone_guild", BLACK)}, food=0, wood=0, stone=0, fabric=1, gold=1, workers=3, camp=11)
    assert g.legal_options() == ["skip", "spend:fabric"]          # gold is not one of the four
    choose(g, "spend:fabric")
    assert counter(g, "workers", BLUE) == 3 + 5 and counter(g, "camp", BLUE) == 11 - 5 + 1


def test_church_two_workers_for_four_prestige():
    # tiles 80: "Church | ... | 2 workers -> 4 PP, or 4 workers -> 6 PP"
    g = activate({9: ("church", BLACK)}, workers=3, camp=11, pp=0)
    assert g.legal_options() == ["skip", "two"]                   # 3 in hand: not 4
    choose(g, "two")
    assert counter(g, "pp", BLUE) == 4 and counter(g, "workers", BLUE) == 1 and counter(g, "camp", BLUE) == 14


def test_foundry_one_worker_for_one_gold():
    # tiles 77: "Foundry | ... | 1 worker -> 1 gold, or 3 workers -> 2 gold"
    g = activate({9: ("foundry", BLACK)}, workers=2, camp=12, gold=0)
    assert g.legal_options() == ["skip", "one"]
    choose(g, "one")
    assert counter(g, "gold", BLUE) == 1 and counter(g, "workers", BLUE) == 1 and counter(g, "camp", BLUE) == 14


@pytest.mark.parametrize("kind,main", [("stone_quarry", "stone"), ("stone_sawmill", "wood")])
def test_stone_producers_give_two_and_a_fabric(kind, main):
    # tiles 83-84: "construction: 2 stone + 1 fabric" (the Sawmill: 2 wood + 1 fabric).
    g = activate({9: (kind, BLACK)}, food=0, wood=0, stone=0, fabric=0)
    assert counter(g, main, BLUE) == 2 and counter(g, "fabric", BLUE) == 1


@pytest.mark.parametrize("kind,main", [("stone_quarry", "stone"), ("stone_sawmill", "wood"), ("stone_farm", "food")])
def test_owner_of_a_stone_producer_gains_one_when_another_uses_it(kind, main):
    # tiles 82-84: "owner gets 1 food when another uses it" (the Quarry: stone, the Sawmill: wood); tiles
    # 85-86: "an owner's bonus resource comes only on activation".
    g = new_game(players=2, road={1: "start_farm", 9: (kind, BLACK)})
    give(g, BLACK, **{main: 0})
    occupy(g, 9, BLUE)
    g.s.counters["provost"] = 9
    only_phase(g, "activation")
    assert counter(g, main, BLACK) == 1


@pytest.mark.parametrize("kind,main", [("stone_farm_setup", "food"), ("stone_quarry_setup", "stone"),
                                       ("stone_sawmill_setup", "wood")])
def test_stone_producers_setup_side_give_one_and_a_fabric(kind, main):
    # tiles 82-84, setup side: "1 food + 1 fabric" (the Quarry: stone, the Sawmill: wood).
    g = activate({9: kind}, food=0, wood=0, stone=0, fabric=0, pp=0)
    assert counter(g, main, BLUE) == 1 and counter(g, "fabric", BLUE) == 1 and counter(g, "pp", BLUE) == 0


# ------------------------------------------------------------------ starting buildings
def test_starting_guild_one_resource_for_three_workers():
    # tiles 54: "Guild | 1 | spend 1 food/wood/stone/fabric: take 3 workers"
    g = activate({2: "start_guild"}, food=0, wood=0, stone=1, fabric=0, gold=2, workers=4, camp=10)
    assert g.legal_options() == ["skip", "spend:stone"]
    choose(g, "spend:stone")
    assert counter(g, "workers", BLUE) == 4 + 3 and counter(g, "camp", BLUE) == 10 - 3 + 1


@pytest.mark.parametrize("kind,resource", [("start_sawmill", "wood"), ("start_quarry", "stone")])
def test_starting_producers_give_one(kind, resource):
    # tiles 51-52: Sawmill "take 1 wood", Quarry "take 1 stone".
    g = activate({2: kind}, wood=0, stone=0, pp=0)
    assert counter(g, resource, BLUE) == 1 and counter(g, "pp", BLUE) == 0


def test_starting_carpenter_builds_like_the_printed_one():
    # tiles 56: "Carpenter | 1 | as the printed carpenter"; EN 89-90: first empty space, a House, the PP.
    g = new_game(players=2)                            # the default road: the starting Carpenter on slot 7
    give(g, BLUE, wood=2, food=0, stone=0, fabric=0, pp=0)
    occupy(g, 7, BLUE)
    g.s.counters["provost"] = 7
    only_phase(g, "activation")
    assert g.legal_options() == ["skip", "build:covered_market/wood", "build:tailor/wood", "build:stonemason/wood",
                                 "build:spinning_mill"]
    choose(g, "build:spinning_mill")
    assert kind_at(g, 10) == "spinning_mill" and owner_at(g, 10) == BLUE and counter(g, "pp", BLUE) == 2
    assert counter(g, "houses", BLUE) == 8 and counter(g, "wood", BLUE) == 0
